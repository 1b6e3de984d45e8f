"""Every coding agent the memory serves, one module each, behind the one protocol ``Agent``.

An agent module holds everything that agent is: where its transcripts live and how they read, what its
hooks receive and must print, where install puts its hooks, review entry and MCP server, which instruction
files it loads and how much of them. The rest of the package never names an agent: it asks ``get(name)`` or
walks ``NAMES``. Adding an agent is one module here and one line in ``NAMES``.

The hooks' hot path loads this package and one agent's module: both import only ``os`` and ``layout``
when loaded (typing, ``re`` and ``json`` load inside the methods that need them, if ever).
"""

from __future__ import annotations

import os

from .. import layout

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from collections.abc import Callable, Iterable
    from typing import IO, Any

    from ..model import ReadResult

# the registry: every agent module of this package, in the order detection asks them
NAMES: tuple[str, ...] = ("claude", "codex", "gemini", "copilot")

DEFAULT = "claude"  # the agent a hook, install or render serves when none is named

REVIEW_NAME = "cs-memory"  # the review entry install writes, whatever form the agent gives it

_LOADED: dict[str, "Agent"] = {}


def get(name: str) -> "Agent":
    """The agent called ``name`` (its module is imported the first time it is asked for)."""
    found = _LOADED.get(name)
    if found is None:
        if name not in NAMES:
            from ..errors import UsageError

            raise UsageError(f"unknown agent {name!r}: expected one of {', '.join(NAMES)}")
        found = _LOADED[name] = __import__(f"{__name__}.{name}", fromlist=["AGENT"]).AGENT
    return found


def every() -> list["Agent"]:
    """Every agent, in registry order."""
    return [get(name) for name in NAMES]


def folders(root: str, cwd: str, above_root: bool) -> list[str]:
    """The folders an agent reads instruction files in, outermost first: the project root (or the filesystem's)
    down to cwd. The project root is found from cwd, so cwd is always at or below it."""
    here = os.path.realpath(cwd) if cwd else root
    chain = [here]
    while (above_root or here != root) and os.path.dirname(here) != here:
        here = os.path.dirname(here)
        chain.append(here)
    return list(reversed(chain))


def inside(folder: str, root: str) -> bool:
    """Whether ``folder`` is ``root`` or below it (as written: neither needs to exist here)."""
    return bool(folder) and (folder == root or folder.startswith(root.rstrip("/\\") + os.sep))


def subfolders(folder: str, hidden: bool = True) -> list[str]:
    """The names of the folders in ``folder``, sorted (none when it cannot be read); ``hidden``: ``.…`` ones too."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries if e.is_dir() and (hidden or not e.name.startswith(".")))
    except OSError:
        return []


def ran_inside(paths: "Iterable[str]", cwd_of: "Callable[[str], str]", project_root: str, transcript: str) -> list[str]:
    """The sessions among ``paths`` that ran at or below ``project_root`` (``cwd_of`` reads where a session ran),
    plus ``transcript`` when it is a file: what catching up reads, for an agent that keeps every project's
    sessions in one tree."""
    found = {path for path in paths if inside(cwd_of(path), project_root)}
    if transcript and os.path.isfile(transcript):
        found.add(os.path.abspath(transcript))
    return sorted(found)


def text_of(payload: "dict[str, Any]", key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


class Agent:
    """What one coding agent is to the memory. A module in this package makes one, named ``AGENT``.

    The defaults are the Claude Code hook protocol, which the other agents' hooks are mapped onto.
    """

    name = ""  # the registry key, stored in every atom: ``class Gemini(Agent, name="gemini", title="Gemini CLI")``
    title = ""  # how a person names it
    # our verb → the agent's own hook event
    events: "dict[str, str]" = {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit",
                                "session-end": "SessionEnd"}
    # what the agent keeps of one hook's additionalContext, in its own unit: "chars", "bytes" (UTF-8), or
    # "escaped" (characters, with < and > counting four each, as the agent writes them as entities)
    limit: "tuple[int, str]" = (10_000, "chars")
    instruction_file = ""  # the file adopt writes for this agent: at the project root, and in the agent's home
    notes: "tuple[str, ...]" = ()  # what install tells the person about trusting the hooks

    def __init_subclass__(cls, name: str = "", title: str = "", **rest: "Any") -> None:
        super().__init_subclass__(**rest)
        cls.name, cls.title = name or cls.name, title or cls.title

    # ------------------------------------------------------------ where it lives

    def home(self) -> str:
        """The agent's user-level folder, as the agent itself finds it."""
        raise NotImplementedError

    # ------------------------------------------------------------ hooks

    def hook_input(self, payload: "dict[str, Any]") -> "dict[str, Any]":
        """The hook JSON in the Claude Code protocol's fields (``session_id``, ``transcript_path``, ``cwd``, ``prompt``)."""
        return payload

    def context_output(self, event: str, text: str) -> "dict[str, Any]":
        """The JSON a hook prints to hand ``text`` to the agent."""
        return {"hookSpecificOutput": {"hookEventName": self.events[event], "additionalContext": text}}

    def session_transcript(self, payload: "dict[str, Any]") -> str:
        """The transcript session-end should ingest ("" when the hook input names none)."""
        return text_of(payload, "transcript_path")

    def session_stage(self, payload: "dict[str, Any]") -> str:
        """When session-end stages: "always", or "new" when the hook fires after every turn."""
        return "always"

    # ------------------------------------------------------------ transcripts

    def locate(self, project_root: str, cwd: str = "", transcript: str = "") -> list[str]:
        """This project's transcript files in the agent's own folders (for catching up), plus ``transcript``."""
        return []

    def sessions_home(self) -> str:
        """The folder the agent keeps every project's sessions under."""
        return self.home()

    def history(self, project_root: "str | None" = None) -> list[str]:
        """Every transcript the agent keeps of one project (sessions run at or below ``project_root``), or of every
        project (None), for ``ingest`` without a path and the backfill. It may hold a few of other projects':
        ingest sorts every session by the folder it ran in."""
        return []

    def session_folder(self, path: str, candidates: "tuple[str, ...]" = ()) -> str:
        """The folder a transcript's session ran in, from the file or from where the agent keeps it ("" when
        neither says). ``candidates``: folders it may be, for an agent that records only a hash of it."""
        return ""

    def read(self, f: "IO[bytes]", path: str, start_offset: int, start_line: int, size: int) -> "ReadResult":
        """One transcript file into turns, from a resume point."""
        raise NotImplementedError

    def owns_record(self, record: "dict[str, Any]", kind: "str | None") -> int:
        """Whether a parsed transcript record (``kind``: its ``type``) is this agent's: 2 by a field only it
        writes, 1 by its shape, 0 not at all. Detection asks every agent, strong answers first."""
        return 0

    def owns_document(self, value: "dict[str, Any]") -> bool:
        """Whether a whole-file JSON document is one of this agent's transcripts."""
        return False

    def owns_head(self, head: bytes) -> bool:
        """Whether a file's first bytes look like this agent's, when no record in them could be parsed."""
        return False

    def owns_line_start(self, start: bytes) -> bool:
        """Whether the start of a line too long to parse looks like one of this agent's records."""
        return False

    def owns_name(self, name: str, parts: list[str]) -> bool:
        """Whether an empty file's name (and the folders of its path) say it is this agent's."""
        return False

    # ------------------------------------------------------------ instruction files

    def settings_files(self, root: str) -> list[str]:
        """The agent's own config files that say which instruction files it loads (user level, then project)."""
        return []

    def loaded(self, root: str, cwd: str = "") -> "list[tuple[str, int]]":
        """The instruction files the agent loads that exist, each with how many bytes of it count (-1: all)."""
        return []

    def candidates(self, root: str, cwd: str = "") -> list[str]:
        """Every path whose existence or content changes what the agent loads (for the session-start cache)."""
        return []

    def cache_keys(self) -> list[str]:
        """What else decides what session-start tells this agent, beside the files (its home)."""
        return [self.home()]

    def report_files(self, root: str) -> list[str]:
        """The instruction files ``report`` weighs against this agent's budget (existing or not)."""
        return []

    def over_budget(self, files: "list[tuple[str, bytes]]") -> "list[dict[str, Any]]":
        """Rows for the files (path, content) that are longer than the agent loads: files, lines, bytes, limits."""
        return []

    # ------------------------------------------------------------ install

    def settings_file(self, scope: str, root: str) -> str:
        """The file install writes the hooks into, for ``scope`` (project or user)."""
        raise NotImplementedError

    def hook_events(self) -> "tuple[tuple[str, str, int], ...]":
        """(the agent's event, our verb, its timeout in the agent's unit) for each hook install writes."""
        raise NotImplementedError

    # the project-scope settings file is the person's own, never committed (Claude Code's settings.local.json): the
    # hooks there may name this machine's interpreter; elsewhere a project's hooks find it when they run
    local_project_settings = False
    command_field = "command"  # the handler field that holds the command line
    grouped = True  # handlers stand in groups under an event (``{"hooks": [handler]}``), else in the list itself

    def former_settings_files(self, scope: str, root: str) -> list[str]:
        """Files earlier versions of install wrote our hooks into for ``scope``: install moves them out."""
        return []

    def new_settings(self, scope: str) -> "dict[str, Any]":
        """What a settings file install creates holds besides the hooks."""
        return {}

    def hook_entry(self, verb: str, timeout: int, command: str) -> "dict[str, Any]":
        """One hook handler in the agent's own format."""
        return {"type": "command", "command": command, "timeout": timeout}

    def review_entries(self, root: str) -> "list[tuple[str, str]]":
        """Where the agent finds the review entry (project, then user level), and how a person calls it."""
        raise NotImplementedError

    def plugin_review_entry(self) -> "tuple[str, str] | None":
        """The review entry of a plugin of ours the agent is running the hook from, if any."""
        return None

    def review_text(self, rendered: str, mark: str) -> str:
        """The review entry's file, made from the template as rendered (front matter, ``---``, body), with
        ``mark`` (a sentence, or "" for none) saying install wrote it."""
        raise NotImplementedError

    @property
    def review_call(self) -> str:
        """How a person calls the review entry in this agent."""
        return self.review_entries("")[0][1]

    # ------------------------------------------------------------ MCP

    # what the name the agent gives itself as an MCP client (clientInfo) holds: answers are sized by it
    mcp_client = ""

    def mcp_file(self, scope: str, root: str) -> str:
        """The file the agent reads its MCP servers from, for ``scope``: JSON with an ``mcpServers`` object, or
        (``.toml``) TOML with ``[mcp_servers.NAME]`` tables."""
        raise NotImplementedError

    def mcp_entry(self, command: str, args: "list[str]") -> "dict[str, Any]":
        """One MCP server's entry in the agent's JSON file."""
        return {"command": command, "args": args}


# the review template's first line; each agent's entry says in its own way where the arguments are
INTRO = "The person ran `/cs-memory` with these arguments: `$ARGUMENTS`"


def template_parts(rendered: str) -> "tuple[str, str]":
    """The review template's ``description:`` and its body (what follows the front matter)."""
    front, _, text = rendered.partition("\n---\n")
    for line in front.splitlines():
        if line.startswith("description: "):
            return line[len("description: "):].strip(), text
    return "Review what agent-memory proposes to remember", text


def skill_text(rendered: str, mark: str, called: str) -> str:
    """The review entry as a skill (``SKILL.md``: name and description, then the body), ``called`` replacing the
    template's first line, for agents whose review entry is a skill."""
    description, text = template_parts(rendered)
    text = text.replace(INTRO, called)
    return f"---\nname: cs-memory\ndescription: {description}\n---\n\n{text.strip(chr(10))}\n" + \
        (f"\n<!-- {mark} -->\n" if mark else "")
