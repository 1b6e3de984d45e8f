"""Reading any transcript: which agent wrote a file (every agent is asked), and that agent's reader over it.

Detection looks only at a file's first lines (a huge one by how it starts) and, for an empty file, its name.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import IO, Any

from ..errors import UsageError
from ..model import ReadResult
from ..transcripts.lines import DRAIN_LIMIT
from ..transcripts.read import (TranscriptUnreadable, UnknownFormat, finish, is_subagent_file, loads_line,
                                open_transcript, skim)
from . import every, get, NAMES

# How much of a file agent detection may look at.
_HEAD_BYTES = 256 * 1024
_HEAD_LINES = 64
_WALK_BYTES = 64 * 1024 * 1024  # the most a line walk past the head reads before giving up


def classify_record(obj: Any) -> str | None:
    """Which agent wrote this parsed record, or None when it cannot tell.

    Every agent is asked; a field only one agent writes decides before a record's shape does.
    """
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type")
    if kind is not None and not isinstance(kind, str):
        return None
    likely = None
    for agent in every():
        found = agent.owns_record(obj, kind)
        if found == 2:
            return agent.name
        if found and likely is None:
            likely = agent.name
    return likely


def _detect_from_head(head: bytes, whole: bool) -> str | None:
    stripped = head.lstrip()
    if not stripped:
        return None
    if whole:
        value = loads_line(stripped)
        if isinstance(value, dict):
            for agent in every():
                if agent.owns_document(value):
                    return agent.name
            found = classify_record(value)
            if found:
                return found
    # the first lines, one at a time (most files tell on their first): not a last piece that may be cut short
    pos = 0
    for _ in range(_HEAD_LINES):
        end = head.find(b"\n", pos)
        if end < 0 and not whole:
            break
        raw = head[pos:] if end < 0 else head[pos:end]
        if raw.strip():
            found = classify_record(loads_line(raw))
            if found:
                return found
        if end < 0:
            break
        pos = end + 1
    # Nothing parseable decided it (pretty-printed JSON, or a first line bigger than the head).
    return next((agent.name for agent in every() if agent.owns_head(head)), None)


def _line_signature(start: bytes) -> str | None:
    """Which agent a record starts like, from the first bytes of a line too long to parse here."""
    return next((agent.name for agent in every() if agent.owns_line_start(start)), None)


def _detect_by_lines(f: IO[bytes]) -> str | None:
    """Walk the first lines whatever their size: a huge one is judged by how it starts, then skipped.

    Claude Code 2.x opens a session with a small bookkeeping line and may follow it with a
    user message of megabytes; nothing about the file is known from a fixed-size head then.
    """
    f.seek(0)
    budget = _WALK_BYTES
    for _ in range(_HEAD_LINES):
        piece = f.readline(_HEAD_BYTES)
        if not piece or budget <= 0:
            return None
        budget -= len(piece)
        piece = piece.removeprefix(b"\xef\xbb\xbf")
        if piece.endswith(b"\n") or len(piece) < _HEAD_BYTES:
            found = classify_record(loads_line(piece)) if piece.strip() else None
        else:
            found = _line_signature(piece)
            while piece and not piece.endswith(b"\n") and budget > 0:  # skip the rest of the line
                piece = f.readline(DRAIN_LIMIT)
                budget -= len(piece)
        if found:
            return found
    return None


def _detect_open(f: IO[bytes], path: str) -> str:
    f.seek(0)
    head = f.read(_HEAD_BYTES)
    whole = len(head) < _HEAD_BYTES
    found = _detect_from_head(head, whole) or (None if whole else _detect_by_lines(f))
    if found:
        return found
    name = os.path.basename(path)
    if not head.strip():
        hinted = _agent_from_name(path)
        if hinted:
            return hinted
    raise UnknownFormat(f"not a transcript of {', '.join(a.title for a in every())}: {name}")


def _agent_from_name(path: str) -> str | None:
    name = os.path.basename(path)
    parts = path.replace("\\", "/").split("/")
    return next((agent.name for agent in every() if agent.owns_name(name, parts)), None)


def detect_agent(path: str) -> str:
    """Tell which agent wrote a transcript file (its name in ``agents.NAMES``).

    Looks only at the first lines (a huge one by how it starts) and, for an empty file, the name;
    raises UnknownFormat otherwise.
    """
    path = os.fspath(path)
    f = open_transcript(path)
    try:
        with f:
            return _detect_open(f, path)
    except OSError as exc:
        raise TranscriptUnreadable(
            f"cannot read transcript {path}: {exc.strerror or exc}"
        ) from None



def read_transcript(
    path: str, agent: str = "auto", start_offset: int = 0, start_line: int = 0
) -> ReadResult:
    """Read the user and assistant turns of one transcript, from an optional resume point.

    ``start_offset``/``start_line`` come from a previous result's ``end_offset``/``end_line``.
    """
    path = os.fspath(path)
    if agent != "auto" and agent not in NAMES:
        raise UsageError(f"unknown agent {agent!r}: expected auto, {', '.join(NAMES)}")
    if not isinstance(start_offset, int) or start_offset < 0:
        raise UsageError(f"start_offset must be a non-negative integer, not {start_offset!r}")
    if not isinstance(start_line, int) or start_line < 0:
        raise UsageError(f"start_line must be a non-negative integer, not {start_line!r}")
    f = open_transcript(path)
    try:
        with f:
            size = os.fstat(f.fileno()).st_size
            if agent == "auto":
                if size == 0 or (start_offset >= size and not path.endswith(".json")):
                    return ReadResult(
                        turns=(), sessions=frozenset(), end_offset=start_offset, end_line=start_line
                    )
                agent = _detect_open(f, path)
            if is_subagent_file(path):
                return skim(f, start_offset, start_line)
            result = finish(get(agent).read(f, path, start_offset, start_line, size))
            if result.unknown:  # a reader counts by the CLI's version alone: which CLI is this agent
                result = replace(result, unknown=tuple((f"{agent} {version}", n) for version, n in result.unknown))
            return result
    except OSError as exc:
        raise TranscriptUnreadable(
            f"cannot read transcript {path}: {exc.strerror or exc}"
        ) from None
