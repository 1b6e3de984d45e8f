"""A person's machine in miniature: three git projects and every agent's own session folders, as each agent keeps them.

Each project's person said its own rule in three sessions on two days (one session per agent and day), and one
session ran in the home folder, in no repository. Written where each agent keeps sessions: Claude Code's
``projects/<path as dashes>/``, Codex's dated ``sessions/`` tree, Gemini's ``tmp/<slug>/chats/`` with its
``.project_root``, Copilot's ``session-state/<id>/``.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agent_formats import claude_transcript, codex_rollout, gemini_session

PROJECTS = {
    "api": "From now on, always run the contract tests before merging into main.",
    "web": "From now on, always run the storybook snapshots before merging into main.",
    "docs": "From now on, always run the link checker before merging into main.",
}
HABIT = "Remember that the {name} service reads its settings from the staging vault."  # said once: L1 only
OUTSIDE = "From now on, always keep the scratch notes out of version control."
DAYS = ("2026-03-02T10:00:00Z", "2026-03-02T15:00:00Z", "2026-03-04T10:00:00Z", "2026-03-05T09:00:00Z")


def _copilot_session(path: Path, session: str, cwd: Path, stamp: str, text: str) -> Path:
    def event(kind: str, data: dict[str, object], n: int) -> str:
        return json.dumps({"type": kind, "data": data, "id": f"e{n}", "timestamp": stamp,
                           "parentId": f"e{n - 1}" if n else None}) + "\n"

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(event("session.start", {"sessionId": session, "producer": "copilot-agent", "context": {"cwd": str(cwd)}}, 0)
                    + event("user.message", {"content": text}, 1)
                    + event("assistant.message", {"messageId": "m1", "content": "Noted."}, 2), encoding="utf-8")
    return path


@dataclass
class FakeHome:
    home: Path
    projects: dict[str, Path]

    def env(self) -> dict[str, str]:
        return {"HOME": str(self.home), "AGENT_MEMORY_HOME": str(self.home / ".agent-memory")}


def claude_folder(home: Path, cwd: Path) -> Path:
    return home / ".claude" / "projects" / "".join(c if c.isascii() and c.isalnum() else "-" for c in str(cwd))


def make_fake_home(root: Path, homes: dict[str, Path] | None = None) -> FakeHome:
    """``root/home`` with projects ``api``, ``web``, ``docs`` under ``root/home/src``; ``homes`` moves an agent's
    folder (``claude``: CLAUDE_CONFIG_DIR, ``codex``: CODEX_HOME, ``gemini``: GEMINI_CLI_HOME, ``copilot``:
    COPILOT_HOME) where the matching variable would point."""
    home = root / "home"
    homes = homes or {}
    claude_home = homes.get("claude", home / ".claude")
    codex_home = homes.get("codex", home / ".codex")
    gemini_home = homes.get("gemini", home) / ".gemini"
    copilot_home = homes.get("copilot", home / ".copilot")
    projects = {}
    for n, (name, rule) in enumerate(PROJECTS.items()):
        project = home / "src" / name
        project.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True, timeout=60)
        (project / "src").mkdir()
        projects[name] = project
        claude_transcript(claude_home / "projects" / claude_folder(home, project).name / f"c-{name}.jsonl",
                          f"c-{name}", project, [(DAYS[0], rule), (DAYS[0], HABIT.format(name=name))])
        codex_rollout(codex_home / "sessions" / "2026" / "03" / "02" / f"rollout-2026-03-02T15-00-0{n}-x-{name}.jsonl",
                      f"x-{name}", project / "src" if name == "api" else project, [(DAYS[1], rule)])
        chats = gemini_home / "tmp" / name / "chats"
        gemini_session(chats / f"session-2026-03-04T10-00-{name}.json", f"g-{name}", project, [(DAYS[2], rule)])
        (gemini_home / "tmp" / name / ".project_root").write_text(str(project), encoding="utf-8")
        _copilot_session(copilot_home / "session-state" / f"p-{name}" / "events.jsonl", f"p-{name}", project, DAYS[3], rule)
    claude_transcript(claude_home / "projects" / claude_folder(home, home).name / "c-home.jsonl", "c-home", home,
                      [(DAYS[0], OUTSIDE)])
    return FakeHome(home, projects)
