"""A project, its stores and real-format transcripts, with the real CLI and hooks run as subprocesses.

Everything lives under one temporary folder: the project (with ``.git``), HOME, the user store.
The clock is fixed. Helpers here read what a user would look at: L1 atoms, L2, staged proposals,
the error log.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence
from agent_formats import (  # noqa: F401  (re-exported for the reliability tests)
    Turn, claude_lines, claude_transcript, codex_records, codex_rollout, gemini_messages, gemini_session, write_jsonl,
)
from hookjson import HOOK_NAMES as HOOK_EVENTS, hook_output as hook_context  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-03-20T12:00:00Z"
CRASHPOINT = Path(__file__).with_name("crashpoint.py")
# budgets generous enough that a hook waits for its worker: the test then sees the result
PATIENT_CONFIG = "budgets:\n  session_end_seconds: 120\n  catchup_seconds: 120\n"
_SCRUBBED_ENV = (
    "AGENT_MEMORY_DIR", "AGENT_MEMORY_SESSIONSTART", "AGENT_MEMORY_USERPROMPTSUBMIT", "AGENT_MEMORY_SESSIONEND",
    "CLAUDE_CONFIG_DIR", "CODEX_HOME", "FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "COLUMNS",
)


# ---------------------------------------------------------------- the environment


@dataclass
class Proc:
    """What a subprocess did, decoded."""

    args: list[str]
    code: int
    out: str
    err: str
    raw_out: bytes = b""


@dataclass
class Env:
    """A project with its store, a home, a user store and a fixed clock, all under ``tmp``."""

    tmp: Path
    root: Path
    home: Path
    user: Path
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def store(self) -> Path:
        return self.root / ".memory"

    @property
    def atoms_file(self) -> Path:
        return self.store / "L1" / "atoms.jsonl"

    def vars(self, **extra: str) -> dict[str, str]:
        found = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
        found.update(HOME=str(self.home), AGENT_MEMORY_HOME=str(self.user), AGENT_MEMORY_NOW=NOW,
                     PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
        found.update(self.extra)
        found.update(extra)
        return found

    def paths(self) -> Any:
        from agent_memory.store import Paths

        return Paths(store=self.store, user=self.user, project_root=self.root)

    # -- the CLI
    def cli(self, *args: str, env: dict[str, str] | None = None, timeout: float = 180,
            crash_at: int | None = None, count_to: Path | None = None) -> Proc:
        """``agent-memory ARGS`` from the project folder; ``crash_at`` kills it at that write (see crashpoint.py)."""
        command = self.cli_command(*args, crash=crash_at is not None or count_to is not None)
        extra = dict(env or {})
        if crash_at is not None:
            extra["AM_CRASH_AT"] = str(crash_at)
        if count_to is not None:
            extra["AM_CRASH_COUNT_TO"] = str(count_to)
        if crash_at is not None or count_to is not None:
            extra["AM_CRASH_ROOT"] = str(self.tmp)
        done = subprocess.run(command, cwd=self.root, env=self.vars(**extra), capture_output=True, timeout=timeout)
        return Proc(command, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"), done.stdout)

    @staticmethod
    def cli_command(*args: str, crash: bool = False) -> list[str]:
        head = [sys.executable, str(CRASHPOINT)] if crash else [sys.executable, "-m", "agent_memory"]
        return [*head, *args]

    def popen_cli(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self.cli_command(*args), cwd=self.root, env=self.vars(**(env or {})),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)

    # -- the hooks
    def payload(self, event: str, agent: str = "claude", **fields: Any) -> dict[str, Any]:
        base: dict[str, Any] = {"session_id": "sess-now", "transcript_path": str(self.tmp / "current.jsonl"),
                                "cwd": str(self.root), "hook_event_name": HOOK_EVENTS[agent][event]}
        base.update(fields)
        return base

    @staticmethod
    def hook_command(event: str, agent: str = "claude") -> list[str]:
        return [sys.executable, "-m", "agent_memory", "hook", event, "--agent", agent]

    def hook(self, event: str, payload: Any = None, *, agent: str = "claude", raw: bytes | None = None,
             env: dict[str, str] | None = None, timeout: float = 180,
             preexec: Callable[[], None] | None = None) -> Proc:
        """The real hook as an agent runs it: JSON on stdin, from another folder; waits for its worker too."""
        data = raw if raw is not None else json.dumps(payload if payload is not None else self.payload(event, agent)).encode()
        command = self.hook_command(event, agent)
        done = subprocess.run(command, input=data, capture_output=True, timeout=timeout, cwd=self.tmp,
                              env=self.vars(**(env or {})), preexec_fn=preexec)
        wait_for_workers(str(self.tmp))
        return Proc(command, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"), done.stdout)

    def patient(self) -> None:
        """A store config that lets session-end wait for its worker."""
        self.store.mkdir(parents=True, exist_ok=True)
        (self.store / "config.yaml").write_text(PATIENT_CONFIG, encoding="utf-8")

    # -- what a user looks at
    def errors(self, user: bool = False) -> list[dict[str, Any]]:
        log = (self.user if user else self.store) / "logs" / "errors.log"
        if not log.is_file():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]

    def atom_records(self) -> list[dict[str, Any]]:
        return whole_records(self.atoms_file)

    def atom_ids(self) -> Counter[str]:
        return Counter(str(a.get("id")) for a in self.atom_records())


def whole_records(path: Path) -> list[dict[str, Any]]:
    """The whole, valid JSON records of a JSON-lines file (what any reader of it would see)."""
    if not path.is_file():
        return []
    found = []
    for raw in path.read_bytes().split(b"\n")[:-1]:
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if isinstance(record, dict):
            found.append(record)
    return found


def make_env(tmp: Path, name: str = "shop") -> Env:
    root = tmp / name
    (root / ".git").mkdir(parents=True, exist_ok=True)
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    return Env(tmp=tmp, root=root, home=home, user=tmp / "agent-memory-home")


# ---------------------------------------------------------------- snapshots: nothing lost


@dataclass(frozen=True)
class Snapshot:
    """What a user has stored: L1 atoms and chunks (by id), L2, L3, decisions, staged proposals."""

    atoms: Counter[str]
    chunks: Counter[str]
    l2: bytes | None
    l3: bytes | None
    decisions: bytes | None
    staged: dict[str, bytes]


def _bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def snapshot(store: Path, user: Path) -> Snapshot:
    staged = store / "staged"
    return Snapshot(
        atoms=Counter(str(r.get("id")) for r in whole_records(store / "L1" / "atoms.jsonl")),
        chunks=Counter(str(r.get("id")) for r in whole_records(store / "L1" / "chunks.jsonl")),
        l2=_bytes(store / "L2.jsonl"),
        l3=_bytes(user / "L3.jsonl"),
        decisions=_bytes(store / "decisions.jsonl"),
        staged={p.name: p.read_bytes() for p in sorted(staged.glob("*.md"))} if staged.is_dir() else {},
    )


def assert_nothing_lost(before: Snapshot, after: Snapshot) -> None:
    """Every atom, chunk, adopted claim, decision and staged proposal there before is there after, once."""
    assert not (before.atoms - after.atoms), f"atoms lost: {sorted(before.atoms - after.atoms)}"
    assert all(n == 1 for n in after.atoms.values()), f"duplicate atoms: {[k for k, n in after.atoms.items() if n > 1]}"
    assert not (before.chunks - after.chunks), "chunks lost"
    assert after.l2 == before.l2, "L2 changed"
    assert after.l3 == before.l3, "L3 changed"
    assert after.decisions == before.decisions, "decisions changed"
    assert set(before.staged) <= set(after.staged), f"staged proposals lost: {set(before.staged) - set(after.staged)}"


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text[-2000:]
        assert "database is locked" not in text, text[-2000:]


# ---------------------------------------------------------------- detached workers


def _workers(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                cmdline = handle.read().decode("utf-8", "replace")
        except OSError:
            continue
        if "run_hook.py" in cmdline and marker in cmdline:
            found.append(int(entry))
    return found


def wait_for_workers(marker: str, timeout: float = 120) -> None:
    """Wait (on process handles, never by sleeping) until no session-end worker for ``marker`` runs."""
    if not sys.platform.startswith("linux") or not hasattr(os, "pidfd_open"):
        return
    for pid in _workers(marker):
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue  # already gone
        try:
            ready, _w, _x = select.select([fd], [], [], timeout)
            assert ready, f"worker {pid} still running after {timeout}s"
        finally:
            os.close(fd)


# ---------------------------------------------------------------- files a user might share


def text_files(*folders: Path) -> dict[Path, bytes]:
    """Every regular file under the folders, as bytes."""
    found: dict[Path, bytes] = {}
    for folder in folders:
        if folder.is_file():
            found[folder] = folder.read_bytes()
            continue
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                found[path] = path.read_bytes()
    return found


def word_in(word: str, text: str) -> bool:
    """``word`` as a whole word of ``text`` (any case)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", text, re.IGNORECASE) is not None


# ---------------------------------------------------------------- a store with something in every tier

LINT = "From now on, always run the linter before committing."
MAIN = "Never push directly to main."
PORT = "Remember: the staging database listens on port 5433."
HISTORY: list[tuple[str, str, list[str]]] = [
    ("s1-history", "2026-03-01T09:00:00Z", [LINT, MAIN]),
    ("s2-history", "2026-03-01T15:00:00Z", [LINT]),
    ("s3-history", "2026-03-02T10:00:00Z", [LINT, MAIN, PORT]),
    ("s4-history", "2026-03-02T16:00:00Z", [MAIN]),
]


def history_transcripts(env: Env) -> list[Path]:
    files = []
    for session, stamp, texts in HISTORY:
        turns = [(stamp.replace(":00:00Z", f":{n:02d}:00Z"), text) for n, text in enumerate(texts)]
        files.append(claude_transcript(env.tmp / "history" / f"{session}.jsonl", session, env.root, turns))
    return files


def build_store(env: Env, patient: bool = True) -> Snapshot:
    """Ingest four past sessions, stage, adopt one proposal: L1, L2, CLAUDE.md and one staged proposal exist."""
    from agent_memory.review.adopt import adopt
    from agent_memory.ingest import ingest
    from agent_memory.promote import stage

    paths = env.paths()
    if patient:
        env.patient()
    (env.root / "CLAUDE.md").write_text("# Shop\n\nHand-written rules stay as they are.\n", encoding="utf-8")
    ingest(paths, [str(f) for f in history_transcripts(env)])
    result, _counts = stage(paths)
    lint = next(p for p in result.proposals if "linter" in p.text)
    adopt(paths, [lint.id])
    stage(paths)
    made = snapshot(env.store, env.user)
    assert made.l2 and len(made.staged) == 1 and len(made.atoms) >= 7, made
    return made


def new_session(env: Env, name: str = "current.jsonl", session: str = "s5-now",
                texts: Sequence[str] = ("From now on, always write the changelog entry first.",)) -> Path:
    """Today's session, as the agent's transcript at session end."""
    turns = [(f"2026-03-20T1{n % 10}:00:00Z", t) for n, t in enumerate(texts)]
    return claude_transcript(env.tmp / name, session, env.root, turns)


LATER: list[tuple[str, str, list[str]]] = [
    ("n0-later", "2026-03-10T09:00:00Z", ["From now on, always tag the release before merging.",
                                           "Remember: the changelog lives in docs/CHANGES.md."]),
    ("n1-later", "2026-03-11T09:00:00Z", ["From now on, always tag the release before merging.",
                                           "Remember: the changelog lives in docs/CHANGES.md."]),
    ("n2-later", "2026-03-11T15:00:00Z", ["Never run the linter before committing.", MAIN]),
]


def later_transcripts(env: Env) -> list[Path]:
    """Three later sessions: two new stated claims, more evidence, and one that contradicts an adopted claim."""
    files = []
    for session, stamp, texts in LATER:
        turns = [(stamp.replace(":00:00Z", f":{n:02d}:00Z"), text) for n, text in enumerate(texts)]
        files.append(claude_transcript(env.tmp / "later" / f"{session}.jsonl", session, env.root, turns))
    return files
