"""status: what fail-open hooks swallowed, made visible; the run log the hooks keep; session-start's health line."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from agent_formats import claude_transcript
from helpers_store import ROOT, load_schema

from agent_memory import hooklog
from agent_memory.clock import epoch
from agent_memory.launcher import hook_command

NOW = "2026-03-20T12:00:00Z"
DOCKER = "From now on, always run the integration tests with docker compose before pushing."


@dataclass
class Project:
    """A project with a store, an agent home and a user store; the real CLI and the installed hooks as subprocesses."""

    root: Path
    home: Path
    user: Path

    @property
    def store(self) -> Path:
        return self.root / ".memory"

    def env(self, **extra: str) -> dict[str, str]:
        found = {k: v for k, v in os.environ.items()
                 if not k.startswith("AGENT_MEMORY_") and k not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COLUMNS")}
        found.update(HOME=str(self.home), AGENT_MEMORY_HOME=str(self.user), AGENT_MEMORY_NOW=NOW, PYTHONPATH=str(ROOT))
        found.update(extra)
        return found

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "agent_memory", *args], cwd=self.root, env=self.env(),
                              capture_output=True, text=True, timeout=120)

    def hook(self, event: str) -> subprocess.CompletedProcess[str]:
        payload = {"session_id": "s-now", "transcript_path": str(self.root.parent / "none.jsonl"), "cwd": str(self.root),
                   "hook_event_name": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit"}[event],
                   "prompt": "run the integration tests"}
        return subprocess.run(shlex.split(hook_command("claude", event)), input=json.dumps(payload), cwd=self.root.parent,
                              env=self.env(), capture_output=True, text=True, timeout=120)

    def transcripts(self) -> Path:
        slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(self.root))
        return self.home / ".claude" / "projects" / slug

    def status(self) -> tuple[int, dict[str, Any]]:
        done = self.cli("status", "--json")
        shape = json.loads(done.stdout)
        jsonschema.validate(shape, load_schema("status.schema.json"))
        return done.returncode, shape


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    made = Project(root.resolve(), (tmp_path / "home").resolve(), (tmp_path / "user").resolve())
    made.home.mkdir()
    for name, value in made.env().items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AGENT_MEMORY_DIR", raising=False)
    return made


def ingested(project: Project) -> None:
    folder = project.transcripts()
    claude_transcript(folder / "s1.jsonl", "s1", project.root, [("2026-03-01T10:00:00Z", DOCKER)])
    claude_transcript(folder / "s2.jsonl", "s2", project.root, [("2026-03-03T09:00:00Z", DOCKER)])
    assert project.cli("ingest", str(folder)).returncode == 0


# ---------------------------------------------------------------- the run log, as a table


def lines(*runs: tuple[str, str, int, int]) -> str:
    """Run-log lines from (stamp, event, errors, errors_end)."""
    return "".join(f"{at}\t{event}\tclaude\t10.0\t{errors}\t{end}\n" for at, event, errors, end in runs)


T1, T2, T3 = "2026-03-20T10:00:00Z", "2026-03-20T11:00:00Z", "2026-03-20T12:00:00Z"
ERR = '{"at": "x", "where": "hook session-start", "error": "boom"}\n'  # 61 bytes


@pytest.mark.parametrize(
    ("runs", "errors", "new"),
    [
        ([], "", 0),
        ([(T1, "session-start", 0, 0)], "", 0),
        ([(T1, "session-start", 1, len(ERR))], ERR, 1),  # no clean run: every error is new
        ([(T1, "session-start", 1, len(ERR)), (T2, "session-start", 0, len(ERR))], ERR, 0),  # a clean run since
        ([(T1, "session-start", 0, 0), (T2, "user-prompt-submit", 1, len(ERR)), (T3, "session-start", 1, 2 * len(ERR))], ERR * 2, 2),
        ([(T1, "session-start", 0, len(ERR))], ERR * 3, 2),  # the worker failed after the last clean run
        ([(T1, "session-start", 0, 10 * len(ERR))], ERR, 1),  # errors.log shrank since: counted from its start
    ],
)
def test_errors_since_the_last_clean_run(tmp_path: Path, runs: list[tuple[str, str, int, int]], errors: str, new: int) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "hooks.log").write_text(lines(*runs) + "torn\tline", encoding="utf-8")
    (tmp_path / "logs" / "errors.log").write_text(errors, encoding="utf-8")
    assert hooklog.new_errors(str(tmp_path), hooklog.runs(str(tmp_path))) == new


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=30))
def test_new_errors_are_exactly_those_after_the_last_clean_run(steps: list[tuple[int, int]]) -> None:
    """Each step: a hook run that logs some errors, then a worker that logs some outside any hook run."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        logs = Path(folder) / "logs"
        logs.mkdir()
        expected = 0
        for in_run, outside in steps:
            with open(logs / "errors.log", "a", encoding="utf-8") as handle:
                handle.write(ERR * in_run)
            hooklog.record(folder, "session-start", "claude", 0.01, in_run)
            expected = 0 if in_run == 0 else expected + in_run
            with open(logs / "errors.log", "a", encoding="utf-8") as handle:
                handle.write(ERR * outside)
            expected += outside
        assert hooklog.new_errors(folder, hooklog.runs(folder)) == expected


def test_the_run_log_stays_bounded(tmp_path: Path) -> None:
    for _ in range(2000):
        hooklog.record(str(tmp_path), "user-prompt-submit", "claude", 0.0123, 0)
    log = tmp_path / "logs" / "hooks.log"
    assert log.stat().st_size <= hooklog.LIMIT and (tmp_path / "logs" / "hooks.log.1").stat().st_size <= hooklog.LIMIT + 100
    found = hooklog.runs(str(tmp_path))
    assert 500 < len(found) < 2000 and {r.ms for r in found} == {12.3}


def test_no_store_no_log(tmp_path: Path) -> None:
    hooklog.record(str(tmp_path / "missing"), "session-start", "claude", 0.01, 0)
    assert not (tmp_path / "missing").exists()


def test_timings_are_percentiles_per_event(tmp_path: Path) -> None:
    from agent_memory.health import hook_timings

    runs = [hooklog.Run(T1, "user-prompt-submit", "claude", float(ms), 0, 0) for ms in range(1, 101)]
    runs.append(hooklog.Run(T2, "session-start", "claude", 7.0, 1, 61))
    rows = {r["event"]: r for r in hook_timings(runs)}
    assert (rows["user-prompt-submit"]["p50_ms"], rows["user-prompt-submit"]["p95_ms"]) == (50.0, 95.0)
    assert rows["session-start"] == {"event": "session-start", "runs": 1, "failed": 1, "p50_ms": 7.0, "p95_ms": 7.0,
                                     "last_at": T2, "last_ok": False}


# ---------------------------------------------------------------- status as a subprocess


def test_a_healthy_store(project: Project) -> None:
    ingested(project)
    assert project.hook("session-start").returncode == 0
    assert project.hook("user-prompt-submit").returncode == 0
    code, shape = project.status()
    assert code == 0 and shape["healthy"] and shape["problems"] == []
    [claude] = shape["agents"]
    assert (claude["agent"], claude["transcripts"], claude["ingested"], claude["waiting"]) == ("claude", 2, 2, 0)
    assert {h["event"] for h in shape["hooks"]} == {"session-start", "user-prompt-submit"}
    assert shape["sizes"]["atoms"] == 2 and shape["errors"] == {"total": 0, "new": 0, "last": None}
    table = project.cli("status")
    assert table.returncode == 0 and table.stdout.startswith("healthy")


def test_records_of_a_newer_clis_shape_are_dropped_at_ingest_and_counted_by_version(project: Project) -> None:
    ingested(project)
    assert project.status()[1]["unknown_records"] == {}
    transcript = project.transcripts() / "s1.jsonl"
    newer = {"type": "user_voice", "sessionId": "s1", "version": "2.1.330", "cwd": str(project.root),
             "message": {"role": "user", "content": "always deploy on fridays"}, "timestamp": "2026-03-04T10:00:00Z"}
    for _ in range(2):  # read on from where the last ingest stopped: the counts add up
        with transcript.open("a", encoding="utf-8") as f:
            f.write(json.dumps(newer) + "\n")
        assert project.cli("ingest", str(project.transcripts())).returncode == 0
    code, shape = project.status()
    assert code == 0 and shape["unknown_records"] == {"claude 2.1.330": 2}
    assert shape["sizes"]["atoms"] == 2  # no atom from it
    assert "unknown records (dropped, from newer CLIs): claude 2.1.330: 2" in project.cli("status").stdout


def test_quarantined_counts_every_redacted_record_chunks_too(project: Project) -> None:
    key = "sk_live_51Hd9XqAbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    folder = project.transcripts()
    claude_transcript(folder / "s1.jsonl", "s1", project.root, [
        ("2026-03-01T10:00:00Z", f"The sandbox answers 402 with {key} since this morning."),  # no rule: a chunk, no atom
        ("2026-03-01T10:05:00Z", f"From now on, always use {key} for the payment sandbox."),  # an atom and a chunk
        ("2026-03-01T10:09:00Z", DOCKER),
        ("2026-03-01T10:12:00Z", 'From now on, always send {"redacted":true} in test payloads.'),  # says it, is not it
    ])
    done = project.cli("ingest", str(folder))
    assert done.returncode == 0, done.stderr
    assert "3 quarantined (redacted: 1 atom(s), 2 past-session chunk(s))" in done.stdout
    records = [json.loads(line) for name in ("atoms", "chunks")
               for line in (project.store / "L1" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sum(r["redacted"] for r in records) == 3 and key not in json.dumps(records)
    assert any('{"redacted":true}' in r["text"] for r in records)
    assert json.loads(project.cli("ingest", str(folder), "--json").stdout)["quarantined"] == 0  # nothing new
    _code, shape = project.status()
    assert shape["sizes"]["quarantined"] == 3
    assert "3 record(s) quarantined (redacted)" in project.cli("status").stdout


def test_a_store_whose_hooks_have_been_failing(project: Project) -> None:
    ingested(project)
    (project.store / "L2.jsonl").mkdir()  # every session-start now fails to read L2, and swallows it
    for _ in range(2):
        done = project.hook("session-start")
        assert done.returncode == 0 and done.stderr == ""
    code, shape = project.status()
    assert code == 1 and not shape["healthy"]
    assert shape["errors"]["new"] == 2 and "read L2" in shape["errors"]["last"]["where"]
    assert any("2 hook errors since the last clean run" in p for p in shape["problems"])
    table = project.cli("status")
    assert table.returncode == 1 and "not healthy" in table.stdout and "read L2" in table.stdout
    # the next session is told, in one line, before anything else
    context = json.loads(project.hook("session-start").stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.splitlines()[0].startswith("agent-memory: 3 hook errors since the last clean run")
    # fixed: the next run is clean, and status is healthy again (the old errors stay on record)
    (project.store / "L2.jsonl").rmdir()
    assert project.hook("session-start").returncode == 0
    code, shape = project.status()
    assert code == 0 and shape["errors"]["new"] == 0 and shape["errors"]["total"] == 3
    with open(project.store / "logs" / "errors.log", "ab") as log:  # a line no reader can parse is passed over
        log.write(b"[" * 5_000 + b"]" * 5_000 + b"\n")
    assert "read L2" in project.status()[1]["errors"]["last"]["where"]


def test_sessions_going_on_while_nothing_is_ingested(project: Project) -> None:
    ingested(project)
    old = epoch("2026-03-10T00:00:00Z")
    assert old is not None
    os.utime(project.store / "L1" / "ingested.json", (old, old))
    (project.store / "logs").mkdir(exist_ok=True)
    (project.store / "logs" / "hooks.log").write_text(
        lines(("2026-03-15T09:00:00Z", "session-start", 0, 0), ("2026-03-18T09:00:00Z", "session-start", 0, 0)), encoding="utf-8")
    code, shape = project.status()
    assert code == 1 and shape["problems"] == ["nothing ingested since 2026-03-10 while 2 sessions started"]
    context = json.loads(project.hook("session-start").stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.splitlines()[0] == "agent-memory: nothing ingested since 2026-03-10 while sessions went on; see 'agent-memory status'"


def test_transcripts_waiting_for_catch_up_are_counted(project: Project) -> None:
    ingested(project)
    claude_transcript(project.transcripts() / "s3.jsonl", "s3", project.root, [("2026-03-19T09:00:00Z", DOCKER)])
    code, shape = project.status()
    assert code == 0 and [(a["ingested"], a["waiting"]) for a in shape["agents"]] == [(2, 1)]


# ---------------------------------------------------------------- session-start: each claim's age


def test_session_start_shows_each_claims_age_where_the_budget_allows(tmp_path: Path) -> None:
    from agent_memory.config import DEFAULTS
    from agent_memory.hooks import session_start_context
    from agent_memory.store import Paths

    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    paths = Paths(store=root / ".memory", user=tmp_path / "user", project_root=root)
    paths.store.mkdir()
    records = [{"id": f"c{n}aaaaaaaaaa", "text": f"Rule number {n} of this shop", "kind": "instruction", "retired": False,
                "first_seen": "2026-01-05T10:00:00Z", "adopted_at": "2026-03-01T00:00:00Z"} for n in range(3)]
    paths.l2.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    text = session_start_context(paths, "claude", DEFAULTS)
    assert "- Rule number 0 of this shop (since 2026-01)" in text.splitlines()
    # a budget that holds the three claims only without their ages: the claims win
    bare = len("\n".join([text.splitlines()[0], *(f"- Rule number {n} of this shop" for n in range(3))]))
    tight = {**DEFAULTS, "budgets": {**DEFAULTS["budgets"], "session_start_chars": bare + 2}}
    text = session_start_context(paths, "claude", tight)
    assert text.count("- Rule number") == 3 and "since" not in text
