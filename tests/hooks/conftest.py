"""Fixtures for the hooks: a project, a home, transcripts in each agent's format, and the real hook as a subprocess."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from agent_formats import Turn, claude_transcript, codex_rollout, gemini_session  # noqa: F401  (re-exported)
from agent_memory.launcher import hook_command
from hookjson import HOOK_NAMES, hook_output  # noqa: F401  (re-exported for the hook tests)

NOW = "2025-09-20T12:00:00Z"
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "transcripts"
SWITCHES = ("AGENT_MEMORY_SESSIONSTART", "AGENT_MEMORY_USERPROMPTSUBMIT", "AGENT_MEMORY_SESSIONEND")
# budgets generous enough that a hook waits for its worker to finish: tests then see the result
PATIENT = {"session_end_seconds": 60, "catchup_seconds": 60}

WRITERS = {"claude": claude_transcript, "codex": codex_rollout, "gemini": gemini_session}


# ---------------------------------------------------------------- the environment


@dataclass
class HookEnv:
    """A project with its store, a home for the agents, a user store, and a fixed clock."""

    tmp: Path
    root: Path
    home: Path
    user: Path

    @property
    def store(self) -> Path:
        return self.root / ".memory"

    def vars(self, **extra: str) -> dict[str, str]:
        found = {k: v for k, v in os.environ.items() if k not in SWITCHES and k not in ("AGENT_MEMORY_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME")}
        found.update(HOME=str(self.home), AGENT_MEMORY_HOME=str(self.user), AGENT_MEMORY_NOW=NOW)
        found.update(extra)
        return found

    def payload(self, event: str, agent: str = "claude", **fields: Any) -> dict[str, Any]:
        base: dict[str, Any] = {"session_id": "sess-now", "transcript_path": str(self.tmp / "current.jsonl"),
                                "cwd": str(self.root), "hook_event_name": HOOK_NAMES[agent][event]}
        base.update(fields)
        return base

    def run(self, event: str, payload: Any = None, *, agent: str = "claude", raw: bytes | None = None,
            env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """The real hook, as the agent runs it: a subprocess with JSON on stdin (from another folder, unless ``cwd``)."""
        data = raw if raw is not None else json.dumps(payload if payload is not None else self.payload(event, agent)).encode()
        result = subprocess.run(
            self.command(event, agent), input=data, capture_output=True, timeout=timeout,
            cwd=str(cwd or self.tmp), env=self.vars(**(env or {})),
        )
        return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode("utf-8"), result.stderr.decode("utf-8", "replace"))

    @staticmethod
    def command(event: str, agent: str = "claude") -> list[str]:
        """What ``agent-memory install`` writes into the agent's settings."""
        return shlex.split(hook_command(agent, event))

    def config(self, **budgets: float) -> None:
        """A store config with these budgets (the rest default)."""
        self.store.mkdir(parents=True, exist_ok=True)
        body = "budgets:\n" + "".join(f"  {k}: {v}\n" for k, v in budgets.items())
        (self.store / "config.yaml").write_text(body, encoding="utf-8")

    def ingest(self, *files: Path) -> None:
        """Build the store the way session-end does, in-process."""
        from agent_memory.ingest import ingest
        from agent_memory.store import Paths

        ingest(Paths.resolve(cwd=str(self.root)), [str(f) for f in files])

    def adopt(self, *records: dict[str, Any], user: bool = False) -> None:
        """Adopted claims as adopt writes them (L2 in the project, L3 in the user store)."""
        target = (self.user / "L3.jsonl") if user else (self.store / "L2.jsonl")
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps({"kind": "instruction", "retired": False, "contested": False, **record}) + "\n")

    def errors(self, user: bool = False) -> list[dict[str, Any]]:
        log = (self.user if user else self.store) / "logs" / "errors.log"
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]

    def atoms(self) -> list[dict[str, Any]]:
        path = self.store / "L1" / "atoms.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HookEnv:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    user = tmp_path / "agent-memory-home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(user))
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    for name in (*SWITCHES, "AGENT_MEMORY_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    return HookEnv(tmp_path, root, home, user)


