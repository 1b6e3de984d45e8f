"""Gemini CLI chat recordings (``~/.gemini/tmp/<project slug or hash>/chats/session-*``).

Two forms exist. The older one is a single JSON document ``{sessionId, projectHash,
startTime, messages: [...]}``, rewritten whole on every change; a turn's ``line`` is the
1-based index of the message in ``messages``. The newer one is an append-only JSONL log:
a header line ``{sessionId, projectHash, startTime, kind}``, then message records that
are re-appended in full (same ``id``) each time they change, ``{"$set": …}`` metadata
patches and ``{"$rewindTo": id}`` markers. Each message id yields one turn, however often
it is re-appended; a rewind does not unsay what was already typed, and ``$set`` lists
(compressed or masked history) are never turns. Gemini records carry no working
directory, so ``cwd`` is always "".
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing itself is not imported: each function imports what it needs
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import IO, Any, Callable

    from ..model import ReadResult

AGENT = "gemini"


_USER_TYPES = frozenset({"user"})
_ASSISTANT_TYPES = frozenset({"gemini", "model", "assistant"})
# The message types Gemini CLI writes that are no turn: a message of any other type is a shape this reader does not
# know, dropped and counted (Gemini's files name no CLI version: counted under "?").
_OTHER_TYPES = frozenset({"info", "error", "warning"})
UNKNOWN = "?"  # the role _record_turn gives a message of a type this reader does not know
_REFERENCED_FILES = "\n--- Content from referenced files ---"
_NOT_THE_PERSON: tuple[str, ...] = (
    "[Function Response:",
    "System: Please continue.",
    "<session_context>",  # the environment Gemini describes to the model at the start
)
# Parts of a message that are no typed text, whatever text travels beside them: a tool's call or answer.
_TOOL_PARTS = ("functionResponse", "functionCall", "toolResponse", "toolCall", "executableCode", "codeExecutionResult")
_LEADS: list[Any] = []


def _leads() -> Any:
    """Where the CLI's own text starts inside a typed part: the editor's context (whole or as changes), from the
    words that introduce it to the end (a part of its own is joined to the typed one with nothing between)."""
    if not _LEADS:
        import re

        _LEADS.append(re.compile(r"Here is\b[^\n]{0,80}?\bthe user's editor context\b", re.I))
    return _LEADS[0]
# How far back a resumed read looks for earlier copies of re-appended records.
_RESUME_WINDOW = 4 * 1024 * 1024


def _parts_text(content: Any, user: bool) -> str | None:
    """Text of a content value (string or list of parts); None when malformed. Of a user's parts, one that is a whole
    element named like the CLI's own (``<session_context>``, ``<hook_context>``) is left out: a part the CLI added."""
    from ..transcripts.read import whole_element

    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return None
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            text = part.get("text")
            if isinstance(text, str) and not (part.get("thought") is True and not user):
                if not (user and text[:1] == "<" and whole_element(text.strip())):
                    parts.append(text)
    return "".join(parts)


def clean_user_text(text: str) -> str:
    """What the person typed, or "" when the text was produced by the CLI."""
    at = text.find(_REFERENCED_FILES)
    if at >= 0:
        text = text[:at]
    if "editor context" in text:
        found = _leads().search(text)
        if found:
            text = text[: found.start()]
    text = text.strip()
    if not text or text.startswith(_NOT_THE_PERSON):
        return ""
    return text


def _tool_part(content: Any) -> bool:
    """Whether a message's parts hold a tool's call or answer: then none of its text is typed."""
    if isinstance(content, dict):
        content = [content]
    return type(content) is list and any(
        type(part) is dict and any(key in part for key in _TOOL_PARTS) for part in content
    )


def _folded(text: str) -> str:
    return " ".join(text.split())


def _user_text(record: dict[str, Any]) -> str | None:
    """The person's words in a user record ("" when none); None when malformed."""
    content = record.get("content")
    if _tool_part(content):
        return ""
    shown = record.get("displayContent")
    if shown is not None:
        # What the terminal showed is what was typed; the content is what was sent.
        shown_text = _parts_text(shown, True)
        if shown_text is None:
            return None
        shown_text = shown_text.strip()
        if not shown_text or shown_text.startswith("/") or _tool_part(shown):
            return ""  # a tool response or a slash command's expansion
        sent = _parts_text(content, True)
        if sent is not None and _folded(shown_text) not in _folded(sent):
            # what was sent does not hold what was shown: a hook's request to go on, shown under the prompt
            # it continues (the prompt itself is an earlier message)
            return ""
        return clean_user_text(shown_text)
    text = _parts_text(content, True)
    if text is None:
        return None
    return clean_user_text(text)


def _record_turn(record: dict[str, Any]) -> tuple[str, str] | None:
    """(role, text) of a message record; ("", "") when it is no turn; None when malformed."""
    kind = record.get("type")
    if not isinstance(kind, str):
        return ("", "")
    if kind in _USER_TYPES:
        text = _user_text(record)
        return None if text is None else ("user", text)
    if kind in _ASSISTANT_TYPES:
        content = record.get("content") if "content" in record else record.get("parts")
        if content is None:
            return ("", "")
        text = _parts_text(content, False)
        return None if text is None else ("assistant", text.strip())
    return ("", "") if kind in _OTHER_TYPES else (UNKNOWN, "")


def _salvage(data: bytes) -> tuple[dict[str, Any], str] | None:
    """What a document that breaks off (cut short by a crash or a full disk, or broken part-way) still holds:
    its fields and every complete message before the break, and one line on what was lost; None when it does
    not even open as an object. A message is kept only when its JSON value is complete."""
    import json
    import re

    from ..transcripts.read import JSON_ERRORS

    body = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:  # a cut inside a character, or a bad byte: the document ends there
        text = body[: exc.start].decode("utf-8")
    space = re.compile(r"[ \t\n\r]*")
    decode = json.JSONDecoder().raw_decode
    pos = space.match(text).end()
    if not text.startswith("{", pos):
        return None
    fields: dict[str, Any] = {}
    messages: list[Any] = []
    good, where = pos + 1, "before its messages"
    pos = good
    try:
        while True:
            pos = space.match(text, pos).end()
            if text.startswith("}", pos):
                good = pos + 1
                break
            key, pos = decode(text, pos)
            pos = space.match(text, pos).end()
            if not isinstance(key, str) or not text.startswith(":", pos):
                break
            pos = space.match(text, pos + 1).end()
            if key == "messages" and text.startswith("[", pos):
                fields["messages"] = messages = []
                pos += 1
                good, where = pos, "in message 1"
                while True:
                    pos = space.match(text, pos).end()
                    if text.startswith("]", pos):
                        pos += 1
                        break
                    value, pos = decode(text, pos)
                    messages.append(value)
                    good, where = pos, f"in message {len(messages) + 1}"
                    pos = space.match(text, pos).end()
                    if text.startswith(",", pos):
                        pos += 1
                    elif not text.startswith("]", pos):
                        raise ValueError("no comma after a message")
                where = "after its messages"
            else:
                fields[key], pos = decode(text, pos)
            good = pos
            pos = space.match(text, pos).end()
            if text.startswith(",", pos):
                pos += 1
            elif not text.startswith("}", pos):
                break
    except JSON_ERRORS:
        pass
    if where == "after its messages":
        return fields, f"the session file breaks off after its messages: all {len(messages)} kept"
    lost = len(body[len(text[:good].encode("utf-8")) :].lstrip(b", \t\r\n"))
    kept = f"kept the {len(messages)} complete message(s) before it" if messages else "no complete message to keep"
    return fields, f"the session file breaks off {where}: {kept}" + (f", lost {lost:,} bytes" if lost else "")


def _read_document(data: bytes, source: str, size: int) -> ReadResult:
    import json

    from ..model import ReadResult, Turn
    from ..transcripts.read import JSON_ERRORS, utc_timestamp

    lost = ""
    try:
        doc = json.loads(data)
    except JSON_ERRORS:
        salvaged = _salvage(data)
        if salvaged is None:
            return ReadResult(turns=(), sessions=frozenset(), skipped=1)
        doc, lost = salvaged
    if not isinstance(doc, dict):
        return ReadResult(turns=(), sessions=frozenset(), skipped=1)
    session = doc.get("sessionId")
    session = session if isinstance(session, str) else ""
    messages = doc.get("messages")
    if not isinstance(messages, list):
        messages = []
    turns: list[Turn] = []
    skipped = unknown = 0
    if doc.get("kind") != "subagent":
        for index, record in enumerate(messages, 1):
            if not isinstance(record, dict):
                skipped += 1
                continue
            found = _record_turn(record)
            if found is None:
                skipped += 1
                continue
            role, text = found
            if not text:
                unknown += role == UNKNOWN
                continue
            mid = record.get("id")
            turns.append(
                Turn(
                    agent=AGENT,
                    session=session,
                    cwd="",
                    timestamp=utc_timestamp(record.get("timestamp")),
                    role=role,
                    text=text,
                    source=source,
                    line=index,
                    message_id=mid if isinstance(mid, str) else "",
                )
            )
    return ReadResult(
        turns=tuple(turns),
        sessions=frozenset({session}) if session else frozenset(),
        skipped=skipped,
        end_offset=size,
        end_line=len(messages),
        lost=lost,
        unknown=((UNKNOWN, unknown),) if unknown else (),
    )


def _recent_texts(f: IO[bytes], start_offset: int) -> dict[str, str]:
    """Last text of each message id written shortly before ``start_offset``."""
    import json

    from ..transcripts.read import JSON_ERRORS

    begin = max(0, start_offset - _RESUME_WINDOW)
    f.seek(begin)
    pieces = f.read(start_offset - begin).split(b"\n")
    if begin > 0:
        pieces = pieces[1:]  # the first piece may start mid-line
    last: dict[str, str] = {}
    for raw in pieces:
        try:
            record = json.loads(raw)
        except JSON_ERRORS:
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            found = _record_turn(record)
            if found and found[1]:
                last[record["id"]] = found[1]
    return last


def _header(f: IO[bytes]) -> dict[str, Any]:
    import json

    from ..transcripts.read import JSON_ERRORS, MAX_LINE_BYTES

    f.seek(0)
    try:
        obj = json.loads(f.readline(MAX_LINE_BYTES + 1))
    except JSON_ERRORS:
        return {}
    return obj if isinstance(obj, dict) and "sessionId" in obj else {}


_OTHER_TYPE_BYTES = frozenset(b'"%s"' % t.encode() for t in _OTHER_TYPES)


def dropper() -> Callable[[bytes], bool]:
    """The byte test that spares parsing a message record no turn can come from: by its opening fields
    (``read.head``), one with an id whose type is one Gemini writes that is no turn (info, error, warning); a type
    this reader does not know is parsed, to be counted."""
    import re

    from ..transcripts.read import pairs

    match = re.compile(rb"\{" + pairs(kind=b"type", id=b"id")).match  # what ``head`` reads, in one match
    other_types = _OTHER_TYPE_BYTES

    def drop(raw: bytes) -> bool:
        if raw[-2:] != b"}\n":
            return False
        found = match(raw)
        if found is None:
            return False
        kind, mid = found.group("kind", "id")
        return kind in other_types and mid is not None and mid[:1] == b'"'

    return drop


def _read_jsonl(f: IO[bytes], source: str, start_offset: int, start_line: int) -> ReadResult:
    from ..model import Turn
    from ..transcripts.read import Records, utc_timestamp

    header = _header(f) if start_offset > 0 else {}
    session = header.get("sessionId")
    session = session if isinstance(session, str) else ""
    subagent = header.get("kind") == "subagent"
    last_text = _recent_texts(f, start_offset) if start_offset > 0 else {}
    sessions: set[str] = {session} if session else set()
    turns: list[Turn] = []
    index_of: dict[str, int] = {}
    records = Records(f, start_offset, start_line, dropper())
    for lineno, record in records:
        mid = record.get("id")
        if not isinstance(mid, str):
            if "$set" in record:
                patch = record["$set"]
                if isinstance(patch, dict) and isinstance(patch.get("sessionId"), str):
                    session = patch["sessionId"]
                    sessions.add(session)
            elif "sessionId" in record and "$rewindTo" not in record:
                sid = record.get("sessionId")
                if isinstance(sid, str):
                    session = sid
                    sessions.add(sid)
                subagent = record.get("kind") == "subagent"
            continue
        if subagent:
            continue
        found = _record_turn(record)
        if found is None:
            records.skipped += 1
            continue
        role, text = found
        if not text or last_text.get(mid) == text:
            if role == UNKNOWN:
                records.count_unknown(None)
            continue
        last_text[mid] = text
        at = index_of.get(mid)
        if at is not None:
            # The same message re-appended with different text: keep one turn, newest text.
            old = turns[at]
            if old.role == role:
                turns[at] = Turn(
                    AGENT, old.session, "", old.timestamp, role, text, source, old.line, mid
                )
                continue
        index_of[mid] = len(turns)
        turns.append(
            Turn(
                AGENT,
                session,
                "",
                utc_timestamp(record.get("timestamp")),
                role,
                text,
                source,
                lineno,
                mid,
            )
        )
    return records.result(turns, sessions)


def _is_document(f: IO[bytes]) -> bool:
    """A one-document JSON file (pretty-printed or a single line holding ``messages``)."""
    import json

    from ..transcripts.read import JSON_ERRORS

    f.seek(0)
    first = f.readline(64 * 1024).removeprefix(b"\xef\xbb\xbf")
    stripped = first.strip()
    if stripped in (b"{", b"{\r"):
        return True
    if stripped.startswith(b"{") and not first.endswith(b"\n"):
        return True  # one line, no newline: the whole document
    try:
        obj = json.loads(first)
    except JSON_ERRORS:
        return stripped.startswith(b"{") and b'"messages"' in first
    if f.read(4096).strip():
        return False  # more records follow: a JSONL log (its header may list "messages": [])
    return isinstance(obj, dict) and isinstance(obj.get("messages"), list)


def read(
    f: IO[bytes], source: str, start_offset: int = 0, start_line: int = 0, size: int = -1
) -> ReadResult:
    """Read the turns of a Gemini CLI recording (JSONL resumable; JSON always whole)."""
    if _is_document(f):
        f.seek(0)
        data = f.read()
        return _read_document(data, source, len(data) if size < 0 else size)
    return _read_jsonl(f, source, start_offset, start_line)
