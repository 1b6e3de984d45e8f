"""Resuming a read where the previous one stopped, as a transcript keeps growing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.model import ReadResult, Turn
from agent_memory.agents.reading import read_transcript

from .shared import shared_data

DATA = shared_data()
TRANSCRIPTS = DATA / "transcripts"

GROWING = [
    "claude/vibecodingtracker_claude_code_zh.jsonl",
    "claude/attio_829b67b_small.jsonl",
    "claude/attio_55acb2e_compaction_2sessions.jsonl",
    "codex/vibecodingtracker_codex_zh.jsonl",
    "codex/agentsessions_codex_schema_fixture.jsonl",
    "gemini/vibecodingtracker_gemini_v2_jsonl.jsonl",
    "gemini/agentsessions_gemini_jsonl_v040_fixture.jsonl",
]


def _key(t: Turn) -> tuple[str, str, str, int, str]:
    return (t.role, t.session, t.text, t.line, t.message_id)


def _resume_in_pieces(tmp_path: Path, data: bytes, cuts: list[int]) -> list[ReadResult]:
    """Write ``data`` in pieces, reading after each one from where the last read ended."""
    path = tmp_path / "growing.jsonl"
    path.write_bytes(b"")
    results: list[ReadResult] = []
    offset = line = 0
    written = 0
    for cut in [*cuts, len(data)]:
        with open(path, "ab") as f:
            f.write(data[written:cut])
        written = cut
        result = read_transcript(str(path), start_offset=offset, start_line=line)
        results.append(result)
        offset, line = result.end_offset, result.end_line
    return results


def _union_without_reread(results: list[ReadResult]) -> list[Turn]:
    """Turns of every read, minus those of a trailing line that the next read parses again."""
    turns: list[Turn] = []
    for result in results:
        turns.extend(t for t in result.turns if t.line <= result.end_line)
    return turns


def _require(rel: str) -> Path:
    path = TRANSCRIPTS / rel
    if not path.is_file():
        pytest.skip("shared/data/transcripts is not available")
    return path


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.93])
@pytest.mark.parametrize("rel", GROWING)
def test_resumed_reads_add_up_to_a_full_read(tmp_path: Path, rel: str, fraction: float) -> None:
    data = _require(rel).read_bytes()
    full = read_transcript(str(_require(rel)))
    cut = int(len(data) * fraction)
    first, second = _resume_in_pieces(tmp_path, data, [cut])
    assert first.end_offset <= cut
    assert second.end_offset == full.end_offset and second.end_line == full.end_line
    union = _union_without_reread([first, second])
    assert [_key(t) for t in union] == [_key(t) for t in full.turns]
    assert len({_key(t) for t in union}) == len(union)
    assert first.sessions | second.sessions == full.sessions


@pytest.mark.parametrize("rel", GROWING)
def test_many_small_appends(tmp_path: Path, rel: str) -> None:
    data = _require(rel).read_bytes()
    full = read_transcript(str(_require(rel)))
    cuts = list(range(997, len(data), max(997, len(data) // 40)))
    results = _resume_in_pieces(tmp_path, data, cuts)
    union = _union_without_reread(results)
    assert [_key(t) for t in union] == [_key(t) for t in full.turns]


def test_split_exactly_at_line_boundaries(tmp_path: Path) -> None:
    data = _require("claude/attio_829b67b_small.jsonl").read_bytes()
    full = read_transcript(str(_require("claude/attio_829b67b_small.jsonl")))
    boundaries = [i + 1 for i, b in enumerate(data) if b == 10][:-1]
    cuts = boundaries[::17]
    results = _resume_in_pieces(tmp_path, data, cuts)
    for cut, result in zip(cuts, results[:-1], strict=True):
        assert result.end_offset == cut
    union = [t for r in results for t in r.turns]
    assert [_key(t) for t in union] == [_key(t) for t in full.turns]


def test_gemini_record_rewritten_after_the_cut_is_not_repeated(tmp_path: Path) -> None:
    header = {
        "sessionId": "s1",
        "projectHash": "h",
        "startTime": "2026-01-01T00:00:00Z",
        "kind": "main",
    }
    user = {
        "id": "u1",
        "timestamp": "2026-01-01T00:00:01Z",
        "type": "user",
        "content": [{"text": "keep tests fast"}],
    }
    reply = {"id": "g1", "timestamp": "2026-01-01T00:00:02Z", "type": "gemini", "content": "Noted."}
    reply_again = {**reply, "toolCalls": [{"id": "t1", "name": "ls"}]}
    lines = [
        header,
        user,
        {"$set": {"lastUpdated": "x"}},
        reply,
        {"$set": {"lastUpdated": "y"}},
        reply_again,
    ]
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    cut = data.index(b'{"$set": {"lastUpdated": "y"}}')
    results = _resume_in_pieces(tmp_path, data, [cut])
    union = _union_without_reread(results)
    assert [(t.role, t.text, t.line) for t in union] == [
        ("user", "keep tests fast", 2),
        ("assistant", "Noted.", 4),
    ]
    assert all(t.session == "s1" for t in union)


def test_codex_resume_knows_session_and_cwd_from_the_header(tmp_path: Path) -> None:
    rel = "codex/vibecodingtracker_codex_zh.jsonl"
    data = _require(rel).read_bytes()
    cut = data.index(b'"type":"event_msg","payload":{"type":"agent_message"')
    cut = data.rindex(b"\n", 0, cut) + 1
    _, second = _resume_in_pieces(tmp_path, data, [cut])
    assert second.turns
    for turn in second.turns:
        assert turn.session == "01996135-afde-7911-97f0-d863511eca56"
        assert turn.cwd == "/proj/ds906659/gai/claude-code"
    assert "01996135-afde-7911-97f0-d863511eca56" in second.sessions


def test_gemini_document_is_always_read_whole(tmp_path: Path) -> None:
    src = _require("gemini/vibecodingtracker_gemini_session_2025-10-05.json")
    path = tmp_path / "session-2025-10-05.json"
    path.write_bytes(src.read_bytes())
    full = read_transcript(str(path))
    again = read_transcript(str(path), start_offset=full.end_offset, start_line=full.end_line)
    assert full.end_offset == path.stat().st_size
    assert [_key(t) for t in again.turns] == [_key(t) for t in full.turns]


def test_resuming_at_the_end_of_an_unchanged_file_yields_nothing(tmp_path: Path) -> None:
    src = _require("claude/attio_829b67b_small.jsonl")
    full = read_transcript(str(src))
    again = read_transcript(str(src), start_offset=full.end_offset, start_line=full.end_line)
    assert (
        again.turns == ()
        and again.end_offset == full.end_offset
        and again.end_line == full.end_line
    )
