"""Which project each session belongs to: the repository root of the folder it ran in.

A session's atoms are filed in its own project's store. ``ingest`` inside a project files that
project's sessions and counts the rest; ``ingest --all-projects`` files every session in the store of
its own project. So a backfill of a whole agent history never pours every project into one store,
and the L2→L3 gate ("in L2 of ≥ 2 projects") counts real projects. Standard library only (the
session-end worker sorts what it ingests too).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from . import agents, layout


def repository(folder: str) -> str:
    """The root of the git repository ``folder`` is in ("" when it is in none, or is no folder here)."""
    if not folder:
        return ""
    root = layout.project_root(folder)
    return root if os.path.exists(os.path.join(root, ".git")) else ""


def last_part(folder: str) -> str:
    """A folder's last part, whichever separator it was written with (another machine's may be Windows')."""
    return re.split(r"[\\/]", folder.rstrip("\\/"))[-1]


@dataclass
class Sorted:
    """Transcripts sorted by the project their session ran in."""

    here: list[str] = field(default_factory=list)  # this project's (and, given by path, those naming no folder)
    elsewhere: dict[str, list[str]] = field(default_factory=dict)  # another repository's root → its transcripts
    outside: list[str] = field(default_factory=list)  # ran in a folder that is in no repository
    absent: list[str] = field(default_factory=list)  # ran in a folder that is not on this machine
    unknown: list[str] = field(default_factory=list)  # name no folder at all

    def skipped(self) -> dict[str, int]:
        """How many sessions were left out, and why (the ``skipped`` JSON of ``ingest``)."""
        return {"other_projects": sum(len(files) for files in self.elsewhere.values()),
                "outside_a_repository": len(self.outside), "folder_not_here": len(self.absent),
                "no_folder": len(self.unknown)}

    def other_projects(self) -> dict[str, int]:
        """Each other project by name, with how many of its sessions were left out."""
        counted: dict[str, int] = {}
        for root, files in sorted(self.elsewhere.items()):
            name = os.path.basename(root.rstrip(os.sep)) or root
            counted[name] = counted.get(name, 0) + len(files)
        return counted


def session_folder(path: str, agent: str = "auto", candidates: tuple[str, ...] = ()) -> str:
    """The folder one transcript's session ran in ("" when neither the file nor the agent's folders say).

    The agent's own answer reads a few lines at most; a file it cannot place is read whole, once,
    for the first working directory its turns name.
    """
    from .agents.reading import detect_agent, read_transcript
    from .errors import AgentMemoryError

    try:
        name = detect_agent(path) if agent == "auto" else agent
        found = agents.get(name).session_folder(path, candidates)
        if found:
            return found
        result = read_transcript(path, agent=name)
    except (AgentMemoryError, OSError):
        return ""
    return result.cwd or next((t.cwd for t in result.turns if t.cwd), "")


def sort_transcripts(files: list[str], here: str | None, agent: str = "auto",
                     known: tuple[str, ...] = ()) -> Sorted:
    """``files`` by their session's project. ``here``: this project's root (None in a backfill, where every file
    has a project of its own or none). A file whose session names no folder is this project's when ``here`` is
    given: the person named it, or the agent handed it to this project's hook (a file no agent reads is kept
    here too, so ingest says what is wrong with it). A folder not on this machine is this project's when its last
    part is this project's name, as ingest names a session's project from it. ``known``: project roots a hashed folder may stand for."""
    out = Sorted()
    candidates = tuple(dict.fromkeys(r for r in (here or "", *known) if r))
    for path in files:
        folder = session_folder(path, agent, candidates)
        if not folder:
            (out.here if here else out.unknown).append(path)
            continue
        root = repository(folder)
        if not root and here and not os.path.isdir(folder) and last_part(folder) == os.path.basename(here):
            out.here.append(path)  # another machine's checkout of this project, as ingest names it (its last part)
        elif not root:
            (out.outside if os.path.isdir(folder) else out.absent).append(path)
        elif root == here:
            out.here.append(path)
        else:
            out.elsewhere.setdefault(root, []).append(path)
            if root not in candidates:
                candidates += (root,)
    return out


def discover(root: str | None, agent: str = "auto") -> list[str]:
    """The transcripts each installed agent keeps of the project at ``root`` (None: of every project)."""
    names = agents.NAMES if agent == "auto" else (agent,)
    found: list[str] = []
    for name in names:
        found.extend(agents.get(name).history(root))
    return list(dict.fromkeys(found))


def agent_folders() -> list[str]:
    """Where each agent keeps its sessions (for messages)."""
    return [agents.get(name).sessions_home() for name in agents.NAMES]
