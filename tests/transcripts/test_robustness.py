"""Damaged, odd or hostile transcript files never stop a read."""

from __future__ import annotations

import contextlib
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.errors import AgentMemoryError, UsageError
from agent_memory.model import ReadResult
from agent_memory.agents.reading import detect_agent, read_transcript
from agent_memory.transcripts import TranscriptUnreadable, UnknownFormat


def claude_user(text: Any, line_id: str = "u", **extra: Any) -> dict[str, Any]:
    return {
        "parentUuid": None,
        "isSidechain": False,
        "cwd": "/work/proj",
        "sessionId": "s-1",
        "type": "user",
        "message": {"role": "user", "content": text},
        "uuid": line_id,
        "timestamp": "2025-08-28T10:00:01.123Z",
        **extra,
    }


def claude_assistant(text: str, message_id: str = "msg_1") -> dict[str, Any]:
    return {
        "parentUuid": "u",
        "isSidechain": False,
        "cwd": "/work/proj",
        "sessionId": "s-1",
        "type": "assistant",
        "message": {
            "id": message_id,
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
        },
        "uuid": "a",
        "timestamp": "2025-08-28T10:00:02Z",
    }


def jsonl(*records: Any) -> bytes:
    return b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def user_texts(result: ReadResult) -> list[str]:
    return [t.text for t in result.turns if t.role == "user"]


# ------------------------------------------------------------------ damaged lines


def test_malformed_and_wrong_type_lines_are_counted_not_raised(tmp_path: Path) -> None:
    good = claude_user("use pnpm, not npm")
    bad_lines = [
        b"{not json at all",
        b"[1, 2, 3]",
        b'"just a string"',
        b"42",
        b"null",
        json.dumps({**good, "message": "a string message"}).encode(),
        json.dumps(claude_user(42)).encode(),
        json.dumps({**claude_assistant("x"), "message": {"content": {"type": "text"}}}).encode(),
    ]
    data = jsonl(good) + b"\n".join(bad_lines) + b"\n\n" + jsonl(claude_assistant("Done."))
    result = read_transcript(write(tmp_path, "s.jsonl", data), agent="claude")
    assert result.skipped == len(bad_lines)
    assert [(t.role, t.text, t.line) for t in result.turns] == [
        ("user", "use pnpm, not npm", 1),
        ("assistant", "Done.", len(bad_lines) + 3),
    ]
    assert result.end_line == len(bad_lines) + 3


def test_non_utf8_bytes_skip_only_their_line(tmp_path: Path) -> None:
    broken = (
        json.dumps(claude_user("caf\u00e9"), ensure_ascii=False)
        .encode()
        .replace("\u00e9".encode(), b"\xe9\xff")
    )
    data = jsonl(claude_user("first")) + broken + b"\n" + jsonl(claude_user("third"))
    result = read_transcript(write(tmp_path, "s.jsonl", data), agent="claude")
    assert user_texts(result) == ["first", "third"]
    assert [t.line for t in result.turns] == [1, 3]
    assert result.skipped == 1


def test_huge_line_is_skipped_and_counting_continues(tmp_path: Path) -> None:
    huge = json.dumps(claude_user("x" * (9 * 1024 * 1024))).encode()
    data = jsonl(claude_user("before")) + huge + b"\n" + jsonl(claude_user("after"))
    path = write(tmp_path, "s.jsonl", data)
    result = read_transcript(path)
    assert user_texts(result) == ["before", "after"]
    assert [t.line for t in result.turns] == [1, 3]
    assert result.skipped == 1
    assert result.end_offset == len(data) and result.end_line == 3


def test_huge_line_is_never_held_whole(tmp_path: Path) -> None:
    huge = (
        b'{"type":"user","message":{"role":"user","content":"'
        + b"y" * (40 * 1024 * 1024)
        + b'"}}\n'
    )
    path = write(
        tmp_path, "s.jsonl", jsonl(claude_user("before")) + huge + jsonl(claude_user("after"))
    )
    tracemalloc.start()
    try:
        result = read_transcript(path, agent="claude")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert user_texts(result) == ["before", "after"]
    assert peak < 24 * 1024 * 1024


def test_unfinished_last_line_is_read_but_not_consumed(tmp_path: Path) -> None:
    head = jsonl(claude_user("one"), claude_user("two"))
    last = json.dumps(claude_user("three")).encode()
    path = write(tmp_path, "s.jsonl", head + last)
    result = read_transcript(path)
    assert user_texts(result) == ["one", "two", "three"]
    assert (result.end_offset, result.end_line) == (len(head), 2)
    with open(path, "ab") as f:
        f.write(b"\n" + jsonl(claude_user("four")))
    resumed = read_transcript(path, start_offset=result.end_offset, start_line=result.end_line)
    assert [(t.text, t.line) for t in resumed.turns] == [("three", 3), ("four", 4)]


def test_half_written_last_line_waits_for_the_rest(tmp_path: Path) -> None:
    head = jsonl(claude_user("one"))
    line = json.dumps(claude_user("two")).encode()
    path = write(tmp_path, "s.jsonl", head + line[: len(line) // 2])
    result = read_transcript(path)
    assert user_texts(result) == ["one"]
    assert (result.end_offset, result.end_line) == (len(head), 1)
    with open(path, "ab") as f:
        f.write(line[len(line) // 2 :] + b"\n")
    resumed = read_transcript(path, start_offset=result.end_offset, start_line=result.end_line)
    assert [(t.text, t.line) for t in resumed.turns] == [("two", 2)]
    assert resumed.skipped == 0


def test_byte_order_mark_does_not_cost_the_first_line(tmp_path: Path) -> None:
    path = write(
        tmp_path, "s.jsonl", b"\xef\xbb\xbf" + jsonl(claude_user("one"), claude_user("two"))
    )
    assert user_texts(read_transcript(path)) == ["one", "two"]


SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELD_NAMES = st.sampled_from(
    [
        "type",
        "message",
        "content",
        "payload",
        "role",
        "text",
        "sessionId",
        "id",
        "cwd",
        "timestamp",
        "isSidechain",
        "isMeta",
        "displayContent",
        "parts",
        "kind",
        "source",
        "$set",
        "projectHash",
    ]
)
TYPE_NAMES = st.sampled_from(
    [
        "user",
        "assistant",
        "gemini",
        "model",
        "session_meta",
        "response_item",
        "event_msg",
        "turn_context",
        "message",
        "user_message",
        "agent_message",
        "summary",
        "text",
        "tool_result",
    ]
)
RECORDS = st.recursive(
    st.one_of(SCALARS, TYPE_NAMES),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(FIELD_NAMES, inner, max_size=6),
    max_leaves=16,
)


def _check(result: ReadResult) -> None:
    assert isinstance(result, ReadResult)
    assert result.skipped >= 0 and result.end_offset >= 0 and result.end_line >= 0
    for turn in result.turns:
        assert turn.role in ("user", "assistant") and isinstance(turn.text, str) and turn.text


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=600))
def test_random_bytes_never_raise(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path, "random.jsonl", data)
    for agent in ("claude", "codex", "gemini"):
        _check(read_transcript(path, agent=agent))
    with contextlib.suppress(UnknownFormat):
        _check(read_transcript(path))


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(records=st.lists(st.one_of(RECORDS, JSON_VALUES), max_size=8), tail=st.booleans())
def test_random_json_records_never_raise(tmp_path: Path, records: list[Any], tail: bool) -> None:
    data = b"\n".join(json.dumps(r).encode() for r in records) + (b"\n" if tail else b"")
    for name in ("random.jsonl", "random.json"):
        path = write(tmp_path, name, data)
        for agent in ("claude", "codex", "gemini"):
            _check(read_transcript(path, agent=agent))
        with contextlib.suppress(UnknownFormat):
            _check(read_transcript(path))


# ------------------------------------------------------------------------- errors


def test_missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    for call in (lambda: read_transcript(missing), lambda: detect_agent(missing)):
        with pytest.raises(TranscriptUnreadable) as info:
            call()
        assert isinstance(info.value, AgentMemoryError)
        assert "\n" not in str(info.value) and "nope.jsonl" in str(info.value)


def test_folder_is_not_a_transcript(tmp_path: Path) -> None:
    with pytest.raises(TranscriptUnreadable):
        read_transcript(str(tmp_path))


def test_unknown_agent_name_is_a_usage_error(tmp_path: Path) -> None:
    path = write(tmp_path, "s.jsonl", jsonl(claude_user("hi")))
    with pytest.raises(UsageError):
        read_transcript(path, agent="cursor")
    with pytest.raises(UsageError):
        read_transcript(path, start_offset=-1)


@pytest.mark.parametrize(
    "data",
    [
        b'{"foo": 1}\n{"bar": [1, 2]}\n',
        b"hello world\n",
        b"[1, 2, 3]\n",
        b'{"type": "session.start", "data": {}}\n',
    ],
)
def test_random_json_is_an_unknown_format(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path, "x.jsonl", data)
    with pytest.raises(UnknownFormat):
        detect_agent(path)
    with pytest.raises(UnknownFormat):
        read_transcript(path)


def test_empty_file_reads_as_nothing(tmp_path: Path) -> None:
    result = read_transcript(write(tmp_path, "new.jsonl", b""))
    assert result.turns == () and result.end_offset == 0 and result.skipped == 0


def test_detection_reads_only_the_head(tmp_path: Path) -> None:
    # A valid Claude head followed by junk: detection must not need the rest.
    data = jsonl(claude_user("hi")) + b"\xff" * (2 * 1024 * 1024)
    assert detect_agent(write(tmp_path, "s.jsonl", data)) == "claude"
