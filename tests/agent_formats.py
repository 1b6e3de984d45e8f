"""Transcripts in each agent's own format, written for tests: Claude Code, Codex CLI, Gemini CLI."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable, Sequence

NOW = "2026-03-20T12:00:00Z"  # the start of a transcript with no turns

Turn = tuple[str, str]  # (ISO timestamp, what the person typed)


def claude_lines(session: str, cwd: Path | str, turns: Iterable[Turn], reply: str = "Understood.") -> list[dict[str, Any]]:
    """Claude Code records: one user line and one assistant line per turn."""
    lines: list[dict[str, Any]] = []
    parent = None
    for n, (stamp, text) in enumerate(turns):
        uid, aid = f"u{n}-{session}", f"a{n}-{session}"
        common = {"isSidechain": False, "userType": "external", "cwd": str(cwd), "sessionId": session, "version": "1.0.98"}
        lines.append({**common, "parentUuid": parent, "type": "user", "uuid": uid, "timestamp": stamp,
                      "message": {"role": "user", "content": text}})
        lines.append({**common, "parentUuid": uid, "type": "assistant", "uuid": aid, "timestamp": stamp,
                      "message": {"id": f"msg-{aid}", "role": "assistant", "model": "claude-sonnet-4",
                                  "content": [{"type": "text", "text": reply}]}})
        parent = aid
    return lines


def write_jsonl(path: Path, records: Iterable[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def claude_transcript(path: Path, session: str, cwd: Path | str, turns: Iterable[Turn]) -> Path:
    """A Claude Code session file."""
    return write_jsonl(path, claude_lines(session, cwd, turns))


def codex_records(session: str, cwd: Path | str, turns: Sequence[Turn]) -> list[dict[str, Any]]:
    """A Codex CLI rollout: session_meta, then each prompt as response_item and event_msg, and a reply."""
    start = turns[0][0] if turns else NOW
    records: list[dict[str, Any]] = [
        {"timestamp": start, "type": "session_meta",
         "payload": {"id": session, "timestamp": start, "cwd": str(cwd), "originator": "codex_cli_rs", "cli_version": "0.39.0"}}
    ]
    for stamp, text in turns:
        records.append({"timestamp": stamp, "type": "response_item",
                        "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
        records.append({"timestamp": stamp, "type": "event_msg", "payload": {"type": "user_message", "message": text, "kind": "plain"}})
        records.append({"timestamp": stamp, "type": "event_msg", "payload": {"type": "agent_message", "message": "Understood."}})
    return records


def codex_rollout(path: Path, session: str, cwd: Path | str, turns: Sequence[Turn]) -> Path:
    return write_jsonl(path, codex_records(session, cwd, turns))


def gemini_messages(turns: Sequence[Turn]) -> list[dict[str, Any]]:
    messages = []
    for n, (stamp, text) in enumerate(turns):
        messages.append({"id": f"m{n}u", "timestamp": stamp, "type": "user", "content": text})
        messages.append({"id": f"m{n}g", "timestamp": stamp, "type": "gemini", "content": "Understood."})
    return messages


def gemini_session(path: Path, session: str, cwd: Path | str, turns: Sequence[Turn],
                   extra: Sequence[dict[str, Any]] = ()) -> Path:
    """A Gemini CLI session document (``session-*.json``)."""
    doc = {"sessionId": session, "projectHash": hashlib.sha256(str(cwd).encode()).hexdigest(),
           "startTime": turns[0][0] if turns else NOW, "lastUpdated": turns[-1][0] if turns else NOW,
           "messages": [*gemini_messages(turns), *extra]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    return path
