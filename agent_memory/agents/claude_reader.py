"""Claude Code transcripts (``~/.claude/projects/<project>/<session>.jsonl``).

One JSON object per line. ``type: "user"`` lines carry what the person typed, but also
tool results, slash-command expansions, hook output and compaction summaries; those are
dropped here (and what the CLI adds inside a text block by ``claude_typed.py``). ``type: "assistant"``
lines carry one content block each (text, thinking, tool_use); only text blocks are kept, with
``message.id`` so blocks can be regrouped.
"""

from __future__ import annotations

import os

from .claude_typed import clean_user_text

TYPE_CHECKING = False  # typing itself is not imported: each function imports what it needs
if TYPE_CHECKING:  # pragma: no cover - types only
    import re
    from typing import IO, Any, Callable

    from ..model import ReadResult, Turn

AGENT = "claude"


# A user or assistant entry always contains one of these tokens ("type":"user",
# "role":"assistant", …); a line with neither cannot yield a turn.
_USER_TOKEN = b'"user"'
_ASSISTANT_TOKEN = b'"assistant"'


def _typed_by_someone_else(obj: dict[str, Any]) -> bool:
    """A user-role record the CLI, a tool, a hook or another agent wrote, told by its fields."""
    if (
        obj.get("isMeta") is True
        or obj.get("isCompactSummary") is True
        or obj.get("isVisibleInTranscriptOnly") is True
        or obj.get("isSynthetic") is True
        or obj.get("interruptedByShutdown") is True
        or "toolUseResult" in obj
        or obj.get("sourceToolUseID")
        or obj.get("sourceToolAssistantUUID")
    ):
        return True
    origin = obj.get("origin")
    # the person's own prompts carry {"kind": "human"}; peers, tasks and channels say who else
    return origin is not None and not (isinstance(origin, dict) and origin.get("kind") == "human")


def _user_text(content: Any) -> str | None:
    """Person-typed text of a user message; None when the content is malformed."""
    if isinstance(content, str):
        return clean_user_text(content)
    if not isinstance(content, list):
        return None
    parts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "tool_result":
            return ""  # a tool's output travelling in the user role
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                cleaned = clean_user_text(text)
                if cleaned:
                    parts.append(cleaned)
    return "\n\n".join(parts)


def _assistant_text(content: Any) -> str | None:
    """Prose of an assistant entry (text blocks only); None when malformed."""
    if type(content) is list and len(content) == 1:  # Claude Code writes one block a line
        block = content[0]
        if type(block) is dict and block.get("type") == "text":
            text = block.get("text")
            return text.strip() if isinstance(text, str) else ""
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return None
    parts: list[str] = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            if isinstance(text, str):
                text = text.strip()
                if text:
                    parts.append(text)
    return "\n\n".join(parts)


# The record types and content part kinds Claude Code writes (2.1.x): a record or a part of any other is a shape this
# reader does not know, dropped and counted by the CLI's version.
_KNOWN_TYPES = frozenset(
    {
        "user", "assistant", "system", "summary", "attachment", "progress", "queue-operation", "file-history-snapshot",
        "file-history-delta", "custom-title", "ai-title", "agent-name", "last-prompt", "permission-mode", "mode",
        "worktree-state", "pr-link", "frame-link", "started", "result", "relocated", "bridge-session", "atis-latch",
        "tag", "api-request", "api-request-shape", "api-request-blob", "tools-used", "cost-state",
    }
)
_KNOWN_TYPE_BYTES = frozenset(b'"%s"' % kind.encode() for kind in _KNOWN_TYPES)
_KNOWN_PARTS = frozenset(
    {"text", "tool_result", "tool_use", "image", "document", "thinking", "redacted_thinking", "server_tool_use",
     "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result", "mcp_tool_use",
     "mcp_tool_result", "container_upload", "search_result", "fallback"}
)


# The fields that mark a user-role record as written by someone else, when the record opens with them.
_NOT_TYPED = (b"isMeta", b"isCompactSummary", b"isVisibleInTranscriptOnly", b"isSynthetic", b"interruptedByShutdown")
_OPENINGS: list[re.Pattern[bytes]] = []


def _openings() -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """What ``read.head`` tells of a record and of its message, in two matches. The first reads its type, session
    and side chain flag among its opening fields, and whether ``"message":{`` follows them (group ``message``);
    the second, from there, the message's opening fields and, when a list of blocks follows them (group
    ``blocks``), the type among the first block's opening fields."""
    if not _OPENINGS:
        import re

        from ..transcripts.read import pairs

        _OPENINGS.append(re.compile(
            rb"\{" + pairs(kind=b"type", session=b"sessionId", side=b"isSidechain") + rb'(?P<message>"message":\{)?'
        ))
        _OPENINGS.append(re.compile(pairs() + rb'(?:(?P<blocks>"content":\[)(?:\{' + pairs(block=b"type") + rb")?)?"))
    return _OPENINGS[0], _OPENINGS[1]


# The flags of _NOT_TYPED as ``_opening`` finds them: the key, where its value starts.
_FLAG_KEYS = tuple((b'"' + name + b'"', len(name) + 2) for name in _NOT_TYPED)
_NESTING = (b"\\", b"{", b"[", b"}", b"]")
_OPENINGS_KEPT = 256  # the openings a reader remembers (a file has a handful: one per role and branch)

# What ``_opening`` tells of a record's opening fields: (a user's?, its session, side chain?, flagged?).
Opening = tuple[bool, "str | None", bool, bool]
# A line ``dropper`` kept and read to its message: (the line, where its opening fields start, where
# ``"message":{`` does, the opening fields).
Kept = tuple[bytes, int, int, bytes]


def _flat(run: bytes) -> bool:
    """Whether ``run`` opens or closes nothing and holds no escape: every quote in it then opens or ends a string."""
    return not any(run.find(mark) >= 0 for mark in _NESTING)


def _opening(run: bytes) -> Opening | None:
    """What a record's opening fields say, ``run`` being them from a ``{`` or a comma to the comma before
    ``"message":{``; None when they cannot be read this way (an escape, a nested value, a space, no session).

    With nothing nested and no escape, every quote opens or closes a string: each key found is the record's
    own, each string ends at the next quote, and the last of a repeated key is the one the parse keeps."""
    if not _flat(run):
        return None
    key = run.rfind(b'"type"')
    if key < 0:
        return None
    if run.startswith(b':"assistant",', key + 6):
        is_user = False
    elif run.startswith(b':"user",', key + 6):
        is_user = True
    else:
        return None
    key = run.rfind(b'"sessionId"')
    if key < 0 or not run.startswith(b':"', key + 11):
        return None
    end = run.find(b'"', key + 13)
    if end < 0 or run[end + 1 : end + 2] != b",":
        return None
    try:
        session: str | None = run[key + 13 : end].decode()
    except UnicodeDecodeError:
        session = None  # (not UTF-8: a parse would skip the line, its session unseen)
    side = False
    key = run.rfind(b'"isSidechain"')
    if key >= 0:
        side = run.startswith(b":true,", key + 13)
        if not side and not run.startswith(b":false,", key + 13):
            return None
    flagged = is_user and any(
        (key := run.rfind(name)) >= 0 and run.startswith(b":true,", key + length) for name, length in _FLAG_KEYS
    )
    return is_user, session, side, flagged


def dropper(sessions: set[str], kept: list[Kept | None] | None = None,
            unknown: list[str | None] | None = None) -> Callable[[bytes], bool]:
    """The byte test that spares parsing a line no turn can come from (its session still goes into ``sessions``).

    Such a line is a complete record that names neither role, or one whose opening fields
    (``read.head``) already say it is dropped: a side chain, a user record written by someone
    else, one whose first content block is a tool result, or one whose content is a list in
    which no block has a ``"text"`` (a JSON key is never escaped, so the bytes would show it).
    A record as Claude Code writes it is decided by a few ``bytes.find`` calls, its opening fields
    (all but the parent's id, the same on every line of a role) read once per file (``_opening``);
    any other by the matches of ``_openings()`` (``_general``).

    A line kept that way leaves in ``kept[0]`` where its opening fields are, for ``parser`` to parse it from there.
    A line dropped for naming neither role whose type, among its opening fields, is one Claude Code is not known to
    write adds its CLI version to ``unknown``: the byte test hides no new shape from the count.
    """
    from ..transcripts.read import head, string_of

    record_match, message_match = (pattern.match for pattern in _openings())
    user_token = _USER_TOKEN
    assistant_token = _ASSISTANT_TOKEN
    user, assistant, true, tool_result = b'"user"', b'"assistant"', b"true", b'"tool_result"'
    tool_result_then = b'","type":"tool_result","content":'  # the end of a tool result's id, its type, its content
    user_message = b'"role":"user","content":'
    openings: dict[bytes, Opening | None] = {}
    messages: dict[bytes, bool] = {}
    add = sessions.add
    last = kept if kept is not None else [None]
    known_types = _KNOWN_TYPE_BYTES

    def neither(raw: bytes) -> bool:
        """True (the line, naming neither role, is dropped), counted when its type is one no reader knows."""
        if unknown is not None:
            # the first "type" key, when nothing nested and no escape comes before it: the record's own
            at = raw.find(b'"type":"')
            end = raw.find(b'"', at + 8) if at > 0 else -1
            kind = raw[at + 7 : end + 1] if end > 0 else b""
            if (kind and kind not in known_types and raw.find(b"{", 1, at) < 0 and raw.find(b"[", 0, at) < 0
                    and raw.find(b"\\", 0, end) < 0):
                at = raw.find(b'"version":"')
                end = raw.find(b'"', at + 11) if at >= 0 else -1
                unknown.append(string_of(raw[at + 10 : end + 1]) if end > 0 else None)
        return True

    def seen(session: str | None) -> bool:
        """True (the line is dropped), ``session`` seen.

        A dropped line is not checked further, as no reader checks one: not its JSON after what the
        bytes showed, nor whether its bytes are UTF-8. Nothing of it would be kept either way.
        """
        if session:
            add(session)
        return True

    # (``raw.find(token) < 0`` and not ``token not in raw``: ``in`` first tries the token as a byte value and
    # formats the error it gets; a handful of tests per line made that a tenth of the test's cost)
    def drop(raw: bytes) -> bool:
        if raw[0] != 123 or raw[-2:] != b"}\n":  # "{" … "}": only a complete record
            return False
        find = raw.find
        at = find(b'"message":{')
        if at < 0:
            return _general(raw)
        # the opening fields but the parent's id, a string without a quote (its last one unescaped), or null
        if raw[:15] == b'{"parentUuid":"':
            start = find(b'"', 15, at) + 1
            if start <= 0 or raw[start - 2] == 92:  # "\"
                return _general(raw)
        elif raw[:19] == b'{"parentUuid":null,':
            start = 18
        else:
            start = 1
        run = raw[start:at]
        opening = openings.get(run, False)
        if opening is False:
            opening = _opening(run)
            if len(openings) < _OPENINGS_KEPT:
                openings[run] = opening
        if opening is None:
            return _general(raw)
        is_user, session, side, flagged = opening
        if side or flagged:
            return seen(session)
        fields = at + 11
        if is_user:
            if raw[fields : fields + 24] == user_message:
                blocks = fields + 24
            else:
                blocks = _content(raw, fields)
                if blocks < 0:
                    return _general(raw)
            # dropped when its first block is a tool result, the last type among that block's opening fields
            # (read as ``head`` reads them: up to a nested value or a string with an escape)
            if raw[blocks : blocks + 17] == b'[{"tool_use_id":"':
                end = find(b'"', blocks + 17)
                if end < 0 or find(b"\\", blocks + 17, end) >= 0 or raw[end : end + 33] != tool_result_then:
                    return _general(raw)
                value = end + 33
                if raw[value] == 91:  # "[": the block's opening fields end here
                    return seen(session)
                if raw[value] == 34:  # a string: the opening fields end at its first escape, if it has one
                    end = find(b'"', value + 1)
                    if end > 0 and find(b"\\", value + 1, end) >= 0:
                        return seen(session)
                return _general(raw)
            if raw[blocks] == 34 or raw[blocks : blocks + 16] == b'[{"type":"text",':
                last[0] = (raw, start, at, run)
                return False  # typed text, maybe: parsed
            return _general(raw)
        if find(b'"text"', at) >= 0:
            last[0] = (raw, start, at, run)
            return False  # a block's text, maybe: parsed
        # no "text" anywhere in the message: only a list of blocks leaves nothing to keep
        blocks = _content(raw, fields)
        if blocks < 0:
            return _general(raw)
        return seen(session) if raw[blocks] == 91 else _general(raw)

    def _content(raw: bytes, fields: int) -> int:
        """Where the message's content starts, when its fields before it (from ``fields``) hold nothing nested
        and no escape (the message's id aside, a string without a quote); -1 otherwise."""
        start = fields
        if raw[fields : fields + 6] == b'"id":"':
            start = raw.find(b'"', fields + 6)
            if start < 0 or raw[start - 1] == 92:
                return -1
        content = raw.find(b'"content":', start)
        if content < 0:
            return -1
        run = raw[start:content]
        flat = messages.get(run)
        if flat is None:
            flat = _flat(run)
            if len(messages) < _OPENINGS_KEPT:
                messages[run] = flat
        return content + 10 if flat else -1

    def _general(raw: bytes) -> bool:
        """Any complete record: what the bytes show, read by two matches."""
        find = raw.find
        # A line with a block's text, a role and no true flag (no side chain, no "isMeta": true, …) is kept,
        # unless its first block is a tool result, which names its type near the start: a line of text may be long.
        if find(tool_result) >= 0:
            texts = None  # not looked for yet
        else:
            if find(assistant_token) < 0 and find(user_token) < 0:
                return neither(raw)  # it names neither role (and no session)
            texts = find(b'"text"') >= 0
            if texts and find(b'":true') < 0:
                return False
        found = record_match(raw)  # (it always matches: what it found is in its groups)
        kind, session, message = found.group("kind", "session", "message")
        if message is None or (kind != user and kind != assistant):
            # no message object among what the bytes show, or no role's: parsed, unless it names neither role
            return texts is None and find(assistant_token) < 0 and find(user_token) < 0 and neither(raw)
        if session is None:
            return False  # named further on, maybe: parse to learn it
        if found.group("side") == true:
            return seen(string_of(session))
        content = message_match(raw, found.end())
        if content.group("block") == tool_result and raw.startswith(b'"type":', content.end()):
            return False  # the block names its type again in its last field, which the match does not read: parsed
        if content.group("blocks") is None or not (
            (kind == user and content.group("block") == tool_result)
            or not (find(b'"text"') >= 0 if texts is None else texts)
        ):
            # nothing in the content drops the line: only a flag among a user record's opening fields could
            if kind != user or find(b'":true') < 0:
                return False
            fields = head(raw)[0]
            if not any(fields.get(name) == true for name in _NOT_TYPED):
                return False
        return seen(string_of(session))

    return drop


def parser(kept: list[Kept | None]) -> Callable[[bytes], Any]:
    """The parse of a line ``dropper`` kept: the same dict as ``json.loads`` gives (or the same error), its opening
    fields parsed once per file.

    A kept line's opening fields are a third of its bytes and the same on every line of a role: a line the
    byte test read to ``"message":{`` (``kept[0]``) is parsed from there, and its opening fields are a copy of
    the dict they made the second time they were seen (``_template``), the parent's id written in. Any other line,
    a full parse.
    """
    from ..transcripts.read import parse_line, scan_value

    # each run seen: True once (parsed whole: a run seen once would cost its dict and the line's parse), then its
    # dict, or False when it is no JSON
    templates: dict[bytes, tuple[dict[str, Any], bool] | bool] = {}

    def parse(raw: bytes) -> Any:
        found = kept[0]
        if found is None or found[0] is not raw:
            return parse_line(raw)
        _, start, at, run = found
        template = templates.get(run)
        if template is None:
            if len(templates) < _OPENINGS_KEPT:
                templates[run] = True
            return parse_line(raw)
        if template is True:
            template = templates[run] = _template(run, start > 1) or False
        if template is False:
            return parse_line(raw)
        fields, parent_again = template
        tail = "{" + raw[at:].decode()  # (not UTF-8: the error the full parse's decode raises)
        rest, end = scan_value(tail, 0)
        if tail[end:].strip(" \t\n\r"):
            raise ValueError("extra data")
        obj = fields.copy()
        if start > 1:
            # the parent's id, a string without a quote (its end is the quote before ``run``), or null
            parent = None if raw[14] == 110 else scan_value(raw[14:start].decode(), 0)[0]  # (110: "n")
            if not parent_again:
                obj["parentUuid"] = parent
        obj.update(rest)  # (a key written again after the opening fields: its place theirs, its value the last)
        return obj

    return parse


def _template(run: bytes, after_parent: bool) -> tuple[dict[str, Any], bool] | None:
    """The dict a record's opening fields make, keys in their order (``"message"`` last, its value a stand-in),
    and whether they name the parent's id again; None when they are not JSON."""
    from ..transcripts.read import JSON_ERRORS, loads

    try:
        text = run.decode()
        fields = loads(('{"parentUuid":null' if after_parent else "{") + text + '"message":0}')
    except JSON_ERRORS:
        return None
    return fields, after_parent and b'"parentUuid"' in run


def read(f: IO[bytes], source: str, start_offset: int = 0, start_line: int = 0) -> ReadResult:
    """Read the turns of a Claude Code JSONL transcript from ``start_offset``."""
    from ..model import Turn
    from ..transcripts.read import Records, is_iso_z, unknown_part, utc_timestamp

    turns: list[Turn] = []
    sessions: set[str] = set()
    first_cwd = ""
    kept: list[Kept | None] = [None]
    dropped_unknown: list[str | None] = []  # the versions of records of an unknown type the byte test dropped
    records = Records(f, start_offset, start_line, dropper(sessions, kept, dropped_unknown), parser(kept))
    add_session, add_turn, new = sessions.add, turns.append, object.__new__
    for lineno, obj in records:
        get = obj.get
        message = get("message")
        kind = get("type")
        if kind is None and isinstance(message, dict):
            kind = message.get("role")
        if kind != "user" and kind != "assistant":
            if type(kind) is str and kind not in _KNOWN_TYPES:
                records.count_unknown(get("version"))
            continue
        session = get("sessionId")
        if not isinstance(session, str):
            session = ""
        elif session:
            add_session(session)
        if type(message) is not dict:
            records.skipped += 1
            continue
        if get("isSidechain") is True:
            continue
        if kind == "user":
            if _typed_by_someone_else(obj):
                continue
            text = _user_text(message.get("content"))
            message_id = ""
        else:
            if get("isApiErrorMessage") is True or message.get("model") == "<synthetic>":
                continue
            text = _assistant_text(message.get("content"))
            mid = message.get("id")
            message_id = mid if isinstance(mid, str) else ""
            if text and text.startswith("API Error"):
                continue
        if not text:
            if text is None:
                records.skipped += 1
            elif unknown_part(message.get("content"), _KNOWN_PARTS):  # (only a record that gave nothing: a kept one cost nothing)
                records.count_unknown(get("version"))
            continue
        cwd = get("cwd")
        if not isinstance(cwd, str):
            cwd = ""
        elif cwd and not first_cwd:
            first_cwd = cwd
        stamp = get("timestamp")
        if not (isinstance(stamp, str) and is_iso_z(stamp)):  # (what utc_timestamp returns as it is)
            stamp = utc_timestamp(stamp)
        made = new(Turn)  # read.turn(...), without the call: one a kept line
        made.__dict__.update(agent=AGENT, session=session, cwd=cwd, timestamp=stamp, role=kind, text=text,
                             source=source, line=lineno, message_id=message_id)
        add_turn(made)
    for version in dropped_unknown:
        records.count_unknown(version)
    return records.result(turns, sessions, first_cwd)
