"""Small stores for inspect and adopt tests: atoms written straight into L1, and the real CLI as a subprocess."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent_memory.store import Paths

NOW = "2026-03-20T12:00:00Z"
ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"


def atom(
    text: str,
    session: str,
    day: str,
    *,
    kind: str = "instruction",
    stated: bool = False,
    project: str = "shop",
    line: int = 1,
    transcript: str = "",
    quote: str = "",
) -> dict[str, Any]:
    """One L1 atom in the shape ingest writes."""
    return {
        "id": hashlib.sha1(f"{text}|{session}|{day}|{line}".encode()).hexdigest()[:16],
        "kind": kind,
        "rule": "test",
        "text": text,
        "quote": quote or f"please: {text}",
        "stated": stated,
        "redacted": False,
        "redaction_rules": [],
        "agent": "claude",
        "session": session,
        "project": project,
        "cwd": "",
        "timestamp": f"{day}T10:00:00Z",
        "day": day,
        "transcript": transcript or f"/nonexistent/{session}.jsonl",
        "line": line,
    }


def seen(text: str, *days: str, project: str = "shop", prefix: str = "s") -> list[dict[str, Any]]:
    """Atoms of one claim, one session per day given (``prefix`` keeps session ids apart)."""
    return [atom(text, f"{prefix}{i}-{text[:6]}", day, project=project) for i, day in enumerate(days, 1)]


PROMOTABLE = ("2026-03-01", "2026-03-01", "2026-03-02")  # three sessions on two days: the default gate


@dataclass
class Store:
    """A project with a git root, a store and a user store, all inside one temporary folder."""

    paths: Paths
    home: Path

    @property
    def project(self) -> Path:
        return self.paths.project_root

    def add(self, atoms: list[dict[str, Any]]) -> None:
        self.paths.l1_dir.mkdir(parents=True, exist_ok=True)
        with open(self.paths.atoms, "a", encoding="utf-8") as handle:
            for a in atoms:
                handle.write(json.dumps(a, ensure_ascii=False) + "\n")

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            AGENT_MEMORY_DIR=str(self.paths.store),
            AGENT_MEMORY_HOME=str(self.paths.user),
            AGENT_MEMORY_NOW=os.environ.get("AGENT_MEMORY_NOW", NOW),
            HOME=str(self.home),
            PYTHONPATH=str(ROOT),
        )
        for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "COLUMNS"):
            env.pop(name, None)
        return env

    def run(self, *args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """The real CLI, from the project folder, output captured (so stdout is not a terminal)."""
        env = self.env()
        env.update(extra_env or {})
        return subprocess.run(
            [sys.executable, "-m", "agent_memory", *args],
            cwd=self.project,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def backups(self) -> list[Path]:
        folder = self.paths.backups
        return sorted(d for d in folder.iterdir() if d.is_dir()) if folder.is_dir() else []


def make_store(tmp_path: Path, name: str = "shop", atoms: list[dict[str, Any]] | None = None) -> Store:
    """A fresh project ``name`` under ``tmp_path`` (HOME and the user store live there too)."""
    project = tmp_path / name
    (project / ".git").mkdir(parents=True, exist_ok=True)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    paths = Paths(store=project / ".memory", user=tmp_path / "user-store", project_root=project)
    store = Store(paths, home)
    store.add(atoms or [])
    return store


def load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
