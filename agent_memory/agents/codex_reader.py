"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Rollouts wrap every record as ``{"timestamp", "type", "payload"}`` with types
``session_meta``, ``response_item``, ``event_msg``, ``turn_context`` and ``compacted``.
The prompt itself is a ``response_item`` message with role ``user``, beside the user-role
items Codex adds of its own (AGENTS.md, ``<environment_context>``, skill bodies), which are
dropped; instructions and hook context are ``developer`` messages, never read. Rollouts
written in the older history mode also keep an ``event_msg`` user_message / agent_message
copy of each prompt and reply; where a file has those, they are used instead, as they hold
no injected items. The oldest rollouts are bare response items after a
``{id, timestamp, instructions}`` header. A custom prompt (``/prompts:name args``) is
recorded expanded: its body is the prompt file's, and only the arguments are the person's.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing itself is not imported: each function imports what it needs
if TYPE_CHECKING:  # pragma: no cover - types only
    import re
    from typing import IO, Any, Callable

    from ..model import ReadResult

AGENT = "codex"


# ------------------------------------------------------------------------- reading

# Context the CLI injects in the user role (compared case-insensitively).
_INJECTED_PREFIXES: tuple[str, ...] = (
    "<environment_context>",
    "<user_instructions>",
    "<instructions>",
    "# agents.md instructions for",
    "<turn_aborted>",
    "<tool_context>",
    "<reasoning_context>",
    "<pinned_notes>",
    "<subagent_notification>",
    "<context_update>",
    "<user_shell_command>",
    "<skill>",
    "<codex_internal_context",
    "<hook_prompt",  # what a stop hook asked for, sent on in the user role (0.171)
    "you were originally given instructions from a user over one or more turns",
    "another language model started to solve this problem",
)
_INJECTED_MAX = max(len(p) for p in _INJECTED_PREFIXES)
_IDE_CONTEXT = "# Context from my IDE setup:"
_IDE_REQUEST = "## My request for Codex:"

_PROMPT_FILE_LIMIT = 256 * 1024
_ARGUMENTS_LIMIT = 16 * 1024  # the most a saved prompt's expansion may add to its body


def _custom_prompts(folder: str) -> list[tuple[int, re.Pattern[str]]]:
    """The person's saved prompts (``folder``: ``<codex home>/prompts/*.md``) as patterns matching their expansion.

    Each placeholder (``$1``…``$9``, ``$ARGUMENTS``, ``$NAME``) becomes a group capturing what
    was typed for it; the rest must match the file's body, whitespace aside.
    """
    import re

    from ..transcripts import listed

    patterns = []
    for path in sorted(listed(folder, (".md",))):
        try:
            with open(path, "rb") as handle:
                body = handle.read(_PROMPT_FILE_LIMIT).decode("utf-8", "replace")
        except OSError:
            continue
        body = _without_frontmatter(body).strip()
        if len(body) < 20:
            continue  # too short to tell its expansion from a typed prompt
        pieces = re.split(r"(\$\$|\$[1-9]|\$[A-Z][A-Z0-9_]*)", body)
        regex = []
        for i, piece in enumerate(pieces):
            if i % 2:
                regex.append(r"\$" if piece == "$$" else r"(.*?)")
            else:
                regex.append(r"\s+".join(re.escape(word) for word in piece.split()) if piece.strip() else "")
                if piece[:1].isspace() and i:
                    regex.insert(-1, r"\s*")
                if piece[-1:].isspace():
                    regex.append(r"\s*")
        patterns.append((len(body), re.compile("".join(regex), re.S)))
    return patterns


def _without_frontmatter(text: str) -> str:
    if not text.startswith("---"):
        return text
    end = text.find("\n---", 3)
    if end < 0:
        return text
    after = text.find("\n", end + 4)
    return "" if after < 0 else text[after + 1 :]


def _typed_arguments(text: str, prompts: list[tuple[int, re.Pattern[str]]]) -> str:
    """``text``, or only the arguments the person typed when it is a saved prompt's expansion."""
    for size, pattern in prompts:
        if len(text) > size + _ARGUMENTS_LIMIT:
            continue  # far longer than the body: typed, not expanded (and no regex over megabytes)
        m = pattern.fullmatch(text.strip())
        if m:
            typed: list[str] = []
            for group in m.groups():
                group = group.strip()
                if group and group not in typed:
                    typed.append(group)
            return " ".join(typed)
    return text


# Exact serialisation of the event records, used to look for them in bytes not yet read.
_EVENT_USER = b'"type":"event_msg","payload":{"type":"user_message"'
_EVENT_AGENT = b'"type":"event_msg","payload":{"type":"agent_message"'
# The typed input as the CLI took it (0.171 on): an item event whose text parts are what was typed, beside its images.
_ITEM_USER = b'"item":{"type":"UserMessage"'


def clean_user_text(text: str) -> str:
    """What the person typed, or "" when the text is context injected by the CLI."""
    from ..transcripts.read import whole_element

    text = text.strip()
    if not text:
        return ""
    if text[:_INJECTED_MAX].lower().startswith(_INJECTED_PREFIXES):
        return ""
    if text.startswith(_IDE_CONTEXT):
        at = text.find(_IDE_REQUEST)
        if at < 0:
            return ""
        text = text[at + len(_IDE_REQUEST) :].strip()
    if text[0] == "<" and text[-1] == ">" and (text.count("<") == 1 and "\n" not in text or whole_element(text)):
        return ""  # a lone opening or closing tag around an image or a file it sends, or a block the CLI adds
    return text


def typed_text(item: Any) -> str | None:
    """The text parts of a ``UserMessage`` item, what the person typed (its images are parts of their own);
    None when malformed."""
    content = item.get("content")
    if not isinstance(content, list):
        return None
    parts = []
    for part in content:
        if isinstance(part, dict) and part.get("type") == "text":
            text = part.get("text")
            if isinstance(text, str) and text.strip():
                parts.append(text.strip())
    return "\n\n".join(parts)


def _content_text(content: Any, kinds: tuple[str, ...], user: bool) -> str | None:
    """Join the text items of a response_item message; None when malformed."""
    if isinstance(content, str):
        return clean_user_text(content) if user else content.strip()
    if not isinstance(content, list):
        return None
    parts: list[str] = []
    for item in content:
        if isinstance(item, dict) and item.get("type") in kinds:
            text = item.get("text")
            if isinstance(text, str):
                text = clean_user_text(text) if user else text.strip()
                if text:
                    parts.append(text)
    return "\n\n".join(parts)


def _env_cwd(content: Any) -> str:
    """The working directory named in an ``<environment_context>`` message, if any."""
    if isinstance(content, list):
        for item in content:
            if isinstance(item, dict):
                text = item.get("text")
                if isinstance(text, str) and "<environment_context>" in text:
                    start = text.find("<cwd>")
                    end = text.find("</cwd>", start + 5) if start >= 0 else -1
                    if end >= 0:
                        return text[start + 5 : end].strip()
    return ""


def _prefix_contains(f: IO[bytes], end: int, needle: bytes) -> bool:
    """Whether ``needle`` occurs in the file's bytes before ``end`` (streamed, bounded)."""
    f.seek(0)
    chunk_size = 1 << 20
    tail = b""
    pos = 0
    while pos < end:
        chunk = f.read(min(chunk_size, end - pos))
        if not chunk:
            break
        pos += len(chunk)
        if needle in tail + chunk:
            return True
        tail = chunk[-len(needle) :]
    return False


def _copy_kept(events: list[Any], items: list[Any], f: IO[bytes], start_offset: int, *needles: bytes) -> list[Any]:
    """Which copy of one role's turns a file gives: its events when it has any, else its response items, unless
    the part read before this one held such events (any of ``needles``), which were kept then."""
    if events or not items:
        return events
    if start_offset > 0 and any(_prefix_contains(f, start_offset, needle) for needle in needles):
        return []
    return items


class _State:
    """Session facts that earlier records establish for later ones."""

    __slots__ = ("session", "cwd", "subagent", "version", "items")

    def __init__(self) -> None:
        self.session = ""
        self.cwd = ""
        self.subagent = False
        self.version = ""  # the CLI's, as session_meta names it
        # the rollout numbers its records (``ordinal``, 0.171 on): it writes each prompt as a UserMessage item
        self.items = False

    def meta(self, payload: dict[str, Any]) -> None:
        sid = payload.get("id")
        if not isinstance(sid, str):
            sid = payload.get("session_id")
        self.session = sid if isinstance(sid, str) else ""
        cwd = payload.get("cwd")
        self.cwd = cwd if isinstance(cwd, str) else ""
        source = payload.get("source")
        self.subagent = isinstance(source, dict) and "subagent" in source
        version = payload.get("cli_version")
        self.version = version if isinstance(version, str) else ""


def _rfind_line(f: IO[bytes], end: int, needle: bytes, floor: int = 0) -> int:
    """Start offset of the last line before ``end`` (and at or after ``floor``) holding
    ``needle``, or -1. Streams backwards in bounded chunks."""
    chunk_size = 4 << 20
    pos = end
    carry = b""
    while pos > floor:
        begin = max(floor, pos - chunk_size)
        f.seek(begin)
        data = f.read(pos - begin) + carry
        at = data.rfind(needle)
        if at >= 0:
            hit = begin + at
            window = min(hit, 64 * 1024)
            f.seek(hit - window)
            before = f.read(window)
            newline = before.rfind(b"\n")
            if newline >= 0:
                return hit - window + newline + 1
            return 0 if window == hit else -1
        carry = data[: len(needle) - 1]
        pos = begin
    return -1


def _record_at(f: IO[bytes], offset: int) -> Any:
    import json

    from ..transcripts.read import JSON_ERRORS, MAX_LINE_BYTES

    f.seek(offset)
    try:
        return json.loads(f.readline(MAX_LINE_BYTES + 1))
    except JSON_ERRORS:
        return None


_META_NEEDLE = b'"type":"session_meta","payload":'
_CONTEXT_NEEDLE = b'"type":"turn_context","payload":'


def _resume_state(f: IO[bytes], start_offset: int) -> _State:
    """Session, cwd and sub-agent flag in force at ``start_offset``, for resumed reads."""
    state = _State()
    meta_at = _rfind_line(f, start_offset, _META_NEEDLE)
    if meta_at < 0:
        first = _record_at(f, 0)  # a rollout from before the envelope existed
        if isinstance(first, dict) and "type" not in first and isinstance(first.get("id"), str):
            state.meta(first)
        return state
    meta = _record_at(f, meta_at)
    if isinstance(meta, dict) and isinstance(meta.get("payload"), dict):
        state.meta(meta["payload"])
        state.items = "ordinal" in meta
    context_at = _rfind_line(f, start_offset, _CONTEXT_NEEDLE, floor=meta_at)
    if context_at >= 0:
        context = _record_at(f, context_at)
        payload = context.get("payload") if isinstance(context, dict) else None
        cwd = payload.get("cwd") if isinstance(payload, dict) else None
        if isinstance(cwd, str) and cwd:
            state.cwd = cwd
    return state


# Envelopes whose payload type says they hold no turn, by the kept payload types (``dropper``).
# The envelopes and message parts Codex writes: a record or a part of any other is a shape this reader does not know,
# dropped and counted by the CLI's version.
_KNOWN_ENVELOPES = frozenset(
    {"session_meta", "turn_context", "event_msg", "response_item", "compacted", "world_state", "token_usage_record"}
)
_KNOWN_PARTS = frozenset({"input_text", "output_text", "text", "input_image", "input_file", "refusal"})
_USER_PARTS, _ASSISTANT_PARTS = ("input_text", "text"), ("output_text", "text")  # the parts whose text is a turn's


_KEPT_PAYLOADS = {b'"response_item"': (b'"message"',),
                  b'"event_msg"': (b'"user_message"', b'"agent_message"', b'"item_completed"')}


def dropper() -> Callable[[bytes], bool]:
    """The byte test that spares parsing an envelope no turn can come from: by its opening fields (``read.head``),
    a response item that is not a message (tool calls and their output, reasoning) or an event that is no
    user or agent message. Session and working directory come from records this never drops."""
    import re

    from ..transcripts.read import pairs

    # what two ``head`` calls would read, in one match: the envelope's type, then the payload's
    match = re.compile(rb"\{" + pairs(kind=b"type") + rb'(?:(?P<payload>"payload":\{)' + pairs(ptype=b"type") + rb")?").match
    kept_payloads = _KEPT_PAYLOADS

    def drop(raw: bytes) -> bool:
        if raw[-2:] != b"}\n":
            return False
        found = match(raw)
        if found is None or found.group("payload") is None:
            return False
        kept = kept_payloads.get(found.group("kind") or b"")
        if kept is None:
            return False
        ptype = found.group("ptype")
        if ptype == b'"item_completed"':
            return raw.find(_ITEM_USER) < 0  # only the typed input's item is read
        return ptype is not None and ptype not in kept

    return drop


def read(f: IO[bytes], source: str, start_offset: int = 0, start_line: int = 0, prompts: str = "") -> ReadResult:
    """Read the turns of a Codex rollout from ``start_offset`` (``prompts``: the folder of the person's saved prompts)."""
    from ..model import Turn
    from ..transcripts.read import Records, unknown_part, utc_timestamp

    state = _resume_state(f, start_offset) if start_offset > 0 else _State()
    records = Records(f, start_offset, start_line, dropper())
    sessions: set[str] = set()
    if state.session:
        sessions.add(state.session)
    first_cwd = ""
    # Candidates from each copy: (line, raw timestamp, session, cwd, text[, message id]).
    user_events: list[tuple[int, Any, str, str, str]] = []
    user_items: list[tuple[int, Any, str, str, str]] = []
    agent_events: list[tuple[int, Any, str, str, str, str]] = []
    agent_items: list[tuple[int, Any, str, str, str, str]] = []
    for lineno, obj in records:
        kind = obj.get("type")
        payload = obj.get("payload")
        if "payload" in obj:
            if type(payload) is not dict:
                records.skipped += 1
                continue
        elif kind is None and isinstance(obj.get("id"), str) and lineno == 1:
            payload, kind = obj, "session_meta"  # the header of a rollout written before the envelope existed
        elif kind == "message":
            payload, kind = obj, "response_item"
        else:
            continue
        if type(kind) is not str or kind not in _KNOWN_ENVELOPES:
            records.count_unknown(state.version)
            continue
        if kind == "session_meta":
            state.meta(payload)
            state.items = "ordinal" in obj
            if state.session:
                sessions.add(state.session)
            if state.cwd and not first_cwd:
                first_cwd = state.cwd
            continue
        if kind == "turn_context":
            cwd = payload.get("cwd")
            if isinstance(cwd, str) and cwd:
                state.cwd = cwd
                if not first_cwd:
                    first_cwd = cwd
            continue
        ptype = payload.get("type")
        if kind == "event_msg":
            if ptype == "item_completed":
                item = payload.get("item")
                if type(item) is dict and item.get("type") == "UserMessage" and not state.subagent:
                    text = typed_text(item)
                    if text is None:
                        records.skipped += 1
                    elif text and not (user_events and user_events[-1][4] == text and lineno - user_events[-1][0] < 8):
                        # (the same input as a user_message event just before it: one turn)
                        user_events.append((lineno, obj.get("timestamp"), state.session, state.cwd, text))
                continue
            if ptype != "user_message" and ptype != "agent_message":
                continue
            text = payload.get("message")
            if not isinstance(text, str):
                records.skipped += 1
                continue
            if state.subagent:
                continue
            stamp = obj.get("timestamp")
            if ptype == "user_message":
                if payload.get("kind") not in (None, "plain"):
                    continue  # injected instructions / environment, tagged as such
                text = clean_user_text(text)
                if text and not (user_events and user_events[-1][4] == text and lineno - user_events[-1][0] < 8):
                    user_events.append((lineno, stamp, state.session, state.cwd, text))
            else:
                text = text.strip()
                if text:
                    agent_events.append((lineno, stamp, state.session, state.cwd, text, ""))
            continue
        if kind != "response_item" or ptype != "message":
            continue
        role = payload.get("role")
        content = payload.get("content")
        if role == "user" and not state.cwd:
            found = _env_cwd(content)
            if found:
                state.cwd = found
                if not first_cwd:
                    first_cwd = found
        if (role != "user" and role != "assistant") or state.subagent:
            continue  # developer / system roles are instructions, never the person
        user = role == "user"
        text = _content_text(content, _USER_PARTS if user else _ASSISTANT_PARTS, user)
        if text is None:
            records.skipped += 1
        elif not text:
            if unknown_part(content, _KNOWN_PARTS):
                records.count_unknown(state.version)
        elif user:
            user_items.append((lineno, obj.get("timestamp"), state.session, state.cwd, text))
        else:
            mid = payload.get("id")
            agent_items.append(
                (lineno, obj.get("timestamp"), state.session, state.cwd, text, mid if isinstance(mid, str) else "")
            )

    # (where the rollout writes UserMessage items, a read that stops between a prompt's response item and its item
    # must not keep the first: the next read keeps the second)
    users = user_events if state.items else _copy_kept(user_events, user_items, f, start_offset, _EVENT_USER, _ITEM_USER)
    agents = _copy_kept(agent_events, agent_items, f, start_offset, _EVENT_AGENT)

    saved = _custom_prompts(prompts) if prompts else []
    turns = [
        Turn(AGENT, session, cwd, utc_timestamp(stamp), "user", text, source, lineno)
        for lineno, stamp, session, cwd, typed in users
        for text in (_typed_arguments(typed, saved),)
        if text
    ]
    turns.extend(
        Turn(AGENT, session, cwd, utc_timestamp(stamp), "assistant", text, source, lineno, mid)
        for lineno, stamp, session, cwd, text, mid in agents
    )
    turns.sort(key=lambda t: t.line)
    return records.result(turns, sessions, first_cwd)
