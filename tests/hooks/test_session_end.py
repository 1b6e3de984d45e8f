"""session-end: the transcript is ingested incrementally and proposals are staged, for each agent."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import PATIENT, SHARED, HookEnv, claude_transcript, codex_rollout, gemini_session

STATED = "From now on, always open pull requests against the dev branch."


def test_claude_session_end_ingests_and_stages(env: HookEnv) -> None:
    env.config(**PATIENT)
    first = claude_transcript(env.tmp / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", STATED)])
    result = env.run("session-end", env.payload("session-end", session_id="s1", transcript_path=str(first), reason="exit"))
    assert (result.returncode, result.stdout) == (0, "")
    assert [a["session"] for a in env.atoms()] == ["s1"]
    assert not list((env.store / "staged").glob("*.md"))  # one session is not evidence enough

    second = claude_transcript(env.tmp / "s2.jsonl", "s2", env.root, [("2025-09-02T10:00:00Z", STATED)])
    env.run("session-end", env.payload("session-end", session_id="s2", transcript_path=str(second)))
    staged = list((env.store / "staged").glob("*.md"))
    assert len(staged) == 1  # stated twice on two days: the stated gate passes
    assert "pull requests against the dev branch" in staged[0].read_text(encoding="utf-8")
    assert env.errors() == []


def test_session_end_is_incremental(env: HookEnv) -> None:
    env.config(**PATIENT)
    turns = [("2025-09-01T10:00:00Z", STATED)]
    path = claude_transcript(env.tmp / "s1.jsonl", "s1", env.root, turns)
    payload = env.payload("session-end", session_id="s1", transcript_path=str(path))
    env.run("session-end", payload)
    env.run("session-end", payload)
    assert len(env.atoms()) == 1  # the same transcript twice adds nothing
    claude_transcript(path, "s1", env.root, [*turns, ("2025-09-01T11:00:00Z", "Always squash commits before merging.")])
    env.run("session-end", payload)
    assert len(env.atoms()) == 2


def test_codex_stop_finds_the_rollout_by_session_id(env: HookEnv) -> None:
    env.config(**PATIENT)
    session = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    rollout = env.home / ".codex" / "sessions" / "2025" / "09" / "20" / f"rollout-2025-09-20T10-00-00-{session}.jsonl"
    codex_rollout(rollout, session, env.root, [("2025-09-20T10:00:00Z", STATED)])
    payload = env.payload("session-end", "codex", session_id=session, transcript_path=None, turn_id="t1",
                          stop_hook_active=False, last_assistant_message="Done.", model="gpt-5", permission_mode="default")
    result = env.run("session-end", payload, agent="codex")
    assert (result.returncode, result.stdout) == (0, "")
    assert [a["session"] for a in env.atoms()] == [session]


def test_gemini_session_end_reads_its_session_file(env: HookEnv) -> None:
    env.config(**PATIENT)
    path = gemini_session(env.tmp / "chats" / "session-g1.json", "g1", env.root, [("2025-09-20T10:00:00Z", STATED)])
    payload = env.payload("session-end", "gemini", session_id="g1", transcript_path=str(path), reason="exit",
                          timestamp="2025-09-20T10:30:00Z")
    result = env.run("session-end", payload, agent="gemini")
    assert (result.returncode, result.stdout) == (0, "")
    assert [a["session"] for a in env.atoms()] == ["g1"]


def test_the_worker_finishes_after_the_hook_returns(env: HookEnv) -> None:
    """With no time to spare the hook returns at once; the detached worker still does the work."""
    import subprocess
    import sys
    import time

    env.config(session_end_seconds=0)
    path = claude_transcript(env.tmp / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", STATED)])
    result = env.run("session-end", env.payload("session-end", session_id="s1", transcript_path=str(path)))
    assert (result.returncode, result.stdout) == (0, "")
    # the worker holds the store's lock while it writes: taking the lock waits for it to finish
    probe = (
        "from agent_memory.store import StoreLock; from pathlib import Path; import sys\n"
        "with StoreLock(Path(sys.argv[1]), timeout=60): pass\n"
    )
    deadline = time.monotonic() + 60
    while not env.atoms() and time.monotonic() < deadline:
        subprocess.run([sys.executable, "-c", probe, str(env.store)], timeout=90, check=True)
    assert [a["session"] for a in env.atoms()] == ["s1"]


def _smallest(pattern: str, n: int = 2) -> list[Path]:
    return sorted(SHARED.glob(pattern), key=lambda p: p.stat().st_size)[:n]


REAL = _smallest("claude/*.jsonl", 3) + _smallest("codex/*.jsonl") + _smallest("gemini/*.json*", 3)


@pytest.mark.skipif(not REAL, reason="the shared transcript samples are not here")
@pytest.mark.parametrize("sample", REAL, ids=lambda p: p.name)
def test_real_transcripts_go_through_session_end(env: HookEnv, sample: Path) -> None:
    agent = sample.parent.name
    env.config(**PATIENT)
    copy = env.tmp / "real" / sample.name
    copy.parent.mkdir()
    shutil.copyfile(sample, copy)
    result = env.run("session-end", env.payload("session-end", agent, transcript_path=str(copy)), agent=agent)
    assert (result.returncode, result.stdout) == (0, "")
    ingested = json.loads((env.store / "L1" / "ingested.json").read_text(encoding="utf-8"))
    assert str(copy) in ingested


def test_a_transcript_written_a_moment_after_the_hook_fires_is_still_ingested(env: HookEnv) -> None:
    import subprocess
    import threading

    env.config(**PATIENT)
    late = env.tmp / "late.jsonl"
    payload = json.dumps(env.payload("session-end", session_id="s1", transcript_path=str(late), reason="exit")).encode()
    hook = subprocess.Popen(env.command("session-end"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=str(env.tmp), env=env.vars())
    writer = threading.Timer(0.2, lambda: claude_transcript(late, "s1", env.root, [("2025-09-01T10:00:00Z", STATED)]))
    writer.start()
    out, _err = hook.communicate(payload, timeout=120)
    writer.join()
    assert (hook.returncode, out) == (0, b"")
    assert [a["session"] for a in env.atoms()] == ["s1"]
    assert env.errors() == []
