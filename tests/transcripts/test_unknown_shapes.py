"""A record of a shape a reader does not know (a newer CLI's type, part kind or event) is never a turn: it is
dropped and counted by agent and CLI version, and the records around it read as they did without it."""

from __future__ import annotations

import json
from pathlib import Path

from agent_memory.agents.reading import read_transcript

NEW_WORDS = "always deploy with the new voice pipeline"


def _line(record: dict[str, object]) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


def _read_with_and_without(tmp_path: Path, agent: str, name: str, lines: list[str], new: list[str]) -> tuple:
    known, mixed = tmp_path / "known" / name, tmp_path / "mixed" / name
    known.parent.mkdir()
    mixed.parent.mkdir()
    known.write_text("".join(lines), encoding="utf-8")
    mixed.write_text("".join(lines[:-1] + new + lines[-1:]), encoding="utf-8")
    before, after = read_transcript(str(known), agent), read_transcript(str(mixed), agent)
    assert before.unknown == ()
    assert [(t.role, t.text) for t in after.turns] == [(t.role, t.text) for t in before.turns]
    assert before.turns and all(NEW_WORDS not in t.text for t in after.turns)
    return after.unknown


def _claude(kind: str, content: object, version: str = "2.1.330", **more: object) -> str:
    role = "assistant" if kind == "assistant" else "user"
    return _line({"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/p", "sessionId": "s1",
                  "version": version, "type": kind, "message": {"role": role, "content": content},
                  "uuid": "u", "timestamp": "2026-03-01T10:00:00.000Z", **more})


def test_claude_a_new_record_type_and_a_new_part_kind_are_dropped_and_counted(tmp_path: Path) -> None:
    lines = [_claude("user", "use pnpm, never npm"), _claude("assistant", [{"type": "text", "text": "Noted."}]),
             _claude("user", [{"type": "text", "text": "keep the tests fast"}])]
    new = [_claude("user_voice", NEW_WORDS), _claude("user", [{"type": "voice_note", "text": NEW_WORDS}]),
           _claude("assistant", [{"type": "spoken", "text": NEW_WORDS}], version="2.2.0")]
    assert _read_with_and_without(tmp_path, "claude", "s1.jsonl", lines, new) == (("claude 2.1.330", 2), ("claude 2.2.0", 1))


def test_claude_a_new_record_type_the_byte_test_drops_unparsed_is_counted_too(tmp_path: Path) -> None:
    """A record naming neither role is never parsed; its type, where its opening fields show it, still counts."""
    lines = [_claude("user", "use pnpm, never npm"), _claude("assistant", [{"type": "text", "text": "Noted."}])]
    new = [_line({"type": "voice-session-state", "sessionId": "s1", "version": "2.3.0", "data": {"words": NEW_WORDS}}),
           _line({"parentUuid": "u", "isSidechain": False, "type": "voice-clip", "sessionId": "s1", "version": "2.3.0",
                  "clip": {"words": NEW_WORDS}}),
           # known types, and a type nested before the record's own: not counted
           _line({"type": "queue-operation", "operation": "enqueue", "sessionId": "s1", "version": "2.3.0"}),
           _line({"parentUuid": "u", "attachment": {"type": "voice-attachment"}, "type": "attachment", "version": "2.3.0"})]
    assert _read_with_and_without(tmp_path, "claude", "s1.jsonl", lines, new) == (("claude 2.3.0", 2),)


def _codex(kind: str, payload: dict[str, object]) -> str:
    return _line({"timestamp": "2026-03-01T10:00:00.000Z", "type": kind, "payload": payload})


def test_codex_a_new_envelope_and_a_new_part_kind_are_dropped_and_counted(tmp_path: Path) -> None:
    lines = [_codex("session_meta", {"id": "s1", "cwd": "/p", "cli_version": "0.130.0"}),
             _codex("response_item", {"type": "message", "role": "user",
                                      "content": [{"type": "input_text", "text": "use pnpm, never npm"}]}),
             _codex("response_item", {"type": "message", "role": "assistant",
                                      "content": [{"type": "output_text", "text": "Noted."}]})]
    new = [_codex("user_turn", {"type": "message", "role": "user", "text": NEW_WORDS}),
           _codex("response_item", {"type": "message", "role": "user",
                                    "content": [{"type": "input_voice", "text": NEW_WORDS}]})]
    assert _read_with_and_without(tmp_path, "codex", "rollout-1.jsonl", lines, new) == (("codex 0.130.0", 2),)


def test_gemini_a_new_message_type_is_dropped_and_counted(tmp_path: Path) -> None:
    head = _line({"sessionId": "s1", "projectHash": "h", "startTime": "2026-03-01T10:00:00.000Z", "kind": "main"})
    lines = [head, _line({"id": "m1", "timestamp": "2026-03-01T10:00:01.000Z", "type": "user",
                          "content": [{"text": "use pnpm, never npm"}]}),
             _line({"id": "m2", "timestamp": "2026-03-01T10:00:02.000Z", "type": "gemini", "content": "Noted."})]
    new = [_line({"id": "m3", "timestamp": "2026-03-01T10:00:03.000Z", "type": "user_voice",
                  "content": [{"text": NEW_WORDS}]})]
    assert _read_with_and_without(tmp_path, "gemini", "session-1.jsonl", lines, new) == (("gemini ?", 1),)


def test_gemini_document_a_new_message_type_is_dropped_and_counted(tmp_path: Path) -> None:
    messages = [{"id": "m1", "timestamp": "2026-03-01T10:00:01.000Z", "type": "user", "content": "use pnpm"},
                {"id": "m2", "timestamp": "2026-03-01T10:00:03.000Z", "type": "user_voice", "content": NEW_WORDS}]
    path = tmp_path / "session-1.json"
    path.write_text(json.dumps({"sessionId": "s1", "projectHash": "h", "messages": messages}), encoding="utf-8")
    found = read_transcript(str(path), "gemini")
    assert [t.text for t in found.turns] == ["use pnpm"]
    assert found.unknown == (("gemini ?", 1),)


def _copilot(kind: str, data: dict[str, object], n: int) -> str:
    return _line({"type": kind, "data": data, "id": f"e{n}", "timestamp": f"2026-03-01T10:00:0{n}.000Z",
                  "parentId": f"e{n - 1}" if n else None})


def test_copilot_a_new_event_is_dropped_and_counted(tmp_path: Path) -> None:
    lines = [_copilot("session.start", {"sessionId": "s1", "copilotVersion": "1.0.34", "context": {"cwd": "/p"}}, 0),
             _copilot("tool.execution_start", {"toolName": "bash"}, 1),
             _copilot("user.message", {"content": "use pnpm, never npm"}, 2),
             _copilot("assistant.message", {"messageId": "m1", "content": "Noted."}, 3)]
    new = [_copilot("user.voice_message", {"content": NEW_WORDS}, 4), _copilot("assistant.spoken", {"content": NEW_WORDS}, 5)]
    found = _read_with_and_without(tmp_path, "copilot", "events.jsonl", lines, new)
    assert found == (("copilot 1.0.34", 2),)
