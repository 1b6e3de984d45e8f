"""Hostile transcript files through the real ``agent-memory ingest``: nothing raises, hangs or is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.transcripts import iter_transcript_files
from agent_memory.agents.reading import detect_agent, read_transcript
from agent_memory.transcripts.read import sound_text

ROOT = Path(__file__).resolve().parents[2]
RULE = "From now on, always run the linter before committing"


def claude_user(content: Any, n: int = 1, **fields: Any) -> dict[str, Any]:
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w/shop", "sessionId": "s1",
            "version": "2.1.62", "type": "user", "uuid": f"u{n}", "timestamp": f"2026-03-01T10:00:0{n}Z",
            "message": {"role": "user", "content": content}, **fields}


def claude_reply(text: str, n: int = 2) -> dict[str, Any]:
    return {"parentUuid": "u1", "isSidechain": False, "cwd": "/w/shop", "sessionId": "s1", "type": "assistant",
            "uuid": f"a{n}", "timestamp": f"2026-03-01T10:00:0{n}Z",
            "message": {"id": f"msg{n}", "role": "assistant", "model": "claude-sonnet-4", "content": [{"type": "text", "text": text}]}}


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    # json.dumps escapes a lone surrogate as \\ud83d, exactly as an agent that cut a message mid-emoji writes it
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="ascii")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    return root


def ingest(project: Path, *paths: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AGENT_MEMORY", "CLAUDE_", "CODEX_", "GEMINI_"))}
    env.update(HOME=str(project.parent / "home"), AGENT_MEMORY_HOME=str(project.parent / "user"),
               AGENT_MEMORY_NOW="2026-03-20T12:00:00Z", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "agent_memory", "ingest", *map(str, paths)], cwd=project, env=env,
                          capture_output=True, text=True, timeout=timeout)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("where", ["person", "reply"])
def test_a_lone_surrogate_is_read_and_everything_is_written(project: Path, tmp_path: Path, where: str) -> None:
    cut = "Looks good \ud83d"
    records = [claude_user(f"{RULE} \ud83d" if where == "person" else RULE), claude_reply(cut if where == "reply" else "Done.")]
    transcript = write(tmp_path / "t" / "s1.jsonl", records)
    done = ingest(project, transcript)
    assert done.returncode == 0, done.stderr
    l1 = project / ".memory" / "L1"
    atoms, chunks = lines(l1 / "atoms.jsonl"), lines(l1 / "chunks.jsonl")
    assert [a["text"] for a in atoms] and all("linter" in a["text"] for a in atoms)
    assert len(chunks) == 1 and "\ufffd" in chunks[0]["text"]
    ingested = json.loads((l1 / "ingested.json").read_text(encoding="utf-8"))
    assert str(transcript) in ingested
    assert ingest(project, transcript).returncode == 0  # and the next run has nothing left to retry
    assert lines(l1 / "atoms.jsonl") == atoms


def test_a_lone_surrogate_anywhere_in_a_turn_reads_as_the_replacement_character(tmp_path: Path) -> None:
    path = write(tmp_path / "s1.jsonl", [claude_user("a\udc00b \ud83d\ude00 c\ud83d", cwd="/w/\udfff")])
    (turn,) = read_transcript(str(path)).turns
    assert turn.text == "a\ufffdb \U0001f600 c\ufffd" and turn.cwd == "/w/\ufffd"
    turn.text.encode("utf-8")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_named_like_a_transcript_is_skipped_not_waited_on(project: Path, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    write(folder / "s1.jsonl", [claude_user(RULE)])
    os.mkfifo(folder / "s2.jsonl")
    assert [Path(p).name for p in iter_transcript_files([str(folder)])] == ["s1.jsonl"]
    done = ingest(project, folder, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [a["session"] for a in lines(project / ".memory" / "L1" / "atoms.jsonl")] == ["s1"]
    given = ingest(project, folder / "s2.jsonl", timeout=60)  # named on its own: one line says why not
    assert "not a regular file" in given.stdout + given.stderr


def test_a_session_opening_with_a_snapshot_and_a_huge_message_is_a_claude_transcript(tmp_path: Path) -> None:
    snapshot = {"type": "file-history-snapshot", "messageId": "m0", "isSnapshotUpdate": False,
                "snapshot": {"messageId": "m0", "trackedFileBackups": {}, "timestamp": "2026-03-01T10:00:00Z"}}
    pasted = "x" * (1300 * 1024)
    records = [snapshot, claude_user(f"{RULE}.\n\n{pasted}"), claude_reply("Done."), claude_user(f"{RULE}, please.", n=3)]
    path = write(tmp_path / "big.jsonl", records)
    assert path.stat().st_size > 1024 * 1024
    assert detect_agent(str(path)) == "claude"
    users = [t for t in read_transcript(str(path)).turns if t.role == "user"]
    assert len(users) == 2 and users[1].text == f"{RULE}, please."


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=40))
def test_sound_text_always_encodes_and_keeps_what_already_did(text: str) -> None:
    sound = sound_text(text)
    sound.encode("utf-8")
    assert len(sound) == len(text)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        assert "\ufffd" in sound
    else:
        assert sound is text


def test_a_huge_message_whose_record_starts_unlike_the_usual_is_judged_by_how_it_starts(tmp_path: Path) -> None:
    unknown = {"type": "agent-name", "agentName": "reviewer"}  # a bookkeeping line nothing classifies
    huge = {"type": "user", "sessionId": "s1", "uuid": "u1", "timestamp": "2026-03-01T10:00:01Z",
            "message": {"role": "user", "content": "x" * (1300 * 1024)}}
    for separators in ((",", ":"), (", ", ": ")):  # as Claude Code writes it, and spaced
        path = tmp_path / "big.jsonl"
        path.write_text("".join(json.dumps(r, separators=separators) + "\n" for r in (unknown, huge)), encoding="utf-8")
        assert detect_agent(str(path)) == "claude"
