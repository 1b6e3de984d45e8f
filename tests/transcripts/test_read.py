"""The lines a reader never parses: its byte test drops nothing the full parse would keep.

Each reader reads the same file twice, once with its byte test (``dropper``) and once parsing
every line; the turns, sessions and resume points must agree, on the real transcripts in
shared/data, on synthetic histories and on generated records of every shape the agents write.
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.agents import claude_reader as claude, codex_reader as codex, gemini_reader as gemini
from agent_memory.agents.reading import read_transcript
from agent_memory.model import ReadResult, Turn
from agent_memory.transcripts import lines as line_reading
from agent_memory.transcripts.read import _ISO_Z, LineReader, head, is_iso_z, turn

from .shared import shared_data

TRANSCRIPTS = shared_data() / "transcripts"
READERS = {"claude": claude, "codex": codex, "gemini": gemini}


def _both(path: Path, agent: str, monkeypatch: pytest.MonkeyPatch) -> tuple[ReadResult, ReadResult]:
    """The file read as shipped, and read parsing every line."""
    fast = read_transcript(str(path), agent=agent)
    with monkeypatch.context() as patch:
        patch.setattr(READERS[agent], "dropper", lambda *_: None)
        full = read_transcript(str(path), agent=agent)
    return fast, full


def _same(fast: ReadResult, full: ReadResult, malformed: bool = True) -> None:
    assert fast.turns == full.turns
    assert fast.sessions == full.sessions
    assert (fast.end_offset, fast.end_line, fast.cwd) == (full.end_offset, full.end_line, full.cwd)
    if not malformed:
        assert fast.skipped == full.skipped


# ---------------------------------------------------------------- head


@pytest.mark.parametrize(
    ("raw", "fields", "key"),
    [
        (b'{"a":"x","b":true,"n":-1.5,"m":{"c":1}}', {b"a": b'"x"', b"b": b"true", b"n": b"-1.5"}, b"m"),
        (b'{"type":"user","message":[1]}', {b"type": b'"user"'}, b"message"),
        # an escape ends the fields that can be read without parsing
        (b'{"cwd":"C:\\\\x","type":"user","message":{}}', {}, b""),
        (b'{"a": "x","type":"user"}', {}, b""),  # a space too
        (b'{"text":"a","type":"tool_result"}', {b"text": b'"a"'}, b""),  # the last field before "}" is not read
        (b'["type","user"]', {}, b""),
        (b'{"a":"\xff","m":{}}', {b"a": b'"\xff"'}, b"m"),  # bytes, undecoded
    ],
)
def test_head_reads_only_the_opening_scalar_fields(raw: bytes, fields: dict[bytes, bytes], key: bytes) -> None:
    found, opened, at = head(raw)
    assert (found, opened) == (fields, key)
    if key:
        assert raw[at : at + 1] in (b"{", b"[")


# the values a field may hold, as JSON: nested ones hide what follows them from ``head``
SCALARS = st.one_of(st.text(max_size=8), st.booleans(), st.none(), st.integers(-5, 5))
NESTED = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


@given(obj=st.dictionaries(st.sampled_from(["type", "id", "a", "sessionId", "text", "é", 'q"']), NESTED, max_size=6))
def test_head_agrees_with_the_parse(obj: dict[str, Any]) -> None:
    raw = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
    fields, key, at = head(raw)
    for name, value in fields.items():
        assert json.loads(value) == obj[name.decode()]
    if key:
        assert isinstance(obj[key.decode()], (dict, list))


# ---------------------------------------------------------------- real and synthetic transcripts


@pytest.mark.skipif(not TRANSCRIPTS.is_dir(), reason="shared/data/transcripts is not available")
@pytest.mark.parametrize("agent", sorted(READERS))
def test_the_real_transcripts_read_the_same_with_and_without_the_byte_test(agent: str,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(p for p in (TRANSCRIPTS / agent).iterdir() if p.suffix in (".jsonl", ".json"))
    assert paths
    for path in paths:
        fast, full = _both(path, agent, monkeypatch)
        _same(fast, full, malformed=False)


def test_a_synthetic_history_reads_the_same_with_and_without_the_byte_test(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import synth

    tools = synth.Profile("tools", turns=(3, 8), marker_share=0.1, tool_calls=(1, 6), tool_bytes=(1000, 6000),
                          reply_chars=(150, 1500))
    synth.write_history(tmp_path, megabytes=1.0, seed=5, profile=tools)
    paths = sorted(tmp_path.rglob("*.jsonl"))
    assert paths
    dropped = 0
    for path in paths:
        fast, full = _both(path, "claude", monkeypatch)
        _same(fast, full, malformed=False)
        drop = claude.dropper(set())
        dropped += sum(1 for raw in path.read_bytes().splitlines(keepends=True) if drop(raw))
    assert dropped  # tool results are what it spares


# ---------------------------------------------------------------- which lines go unparsed

S = '{"parentUuid":null,"isSidechain":%s,"userType":"external","cwd":"/a","sessionId":"s1","version":"2","type":"%s",'
TOOL_RESULT = '"message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":"x"}]}'
TOOL_USE = '"message":{"id":"m","type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","input":{}}]}'
PROSE = '"message":{"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":"Done."}]}'


@pytest.mark.parametrize(
    ("line", "dropped"),
    [
        (S % ("false", "user") + TOOL_RESULT + ',"toolUseResult":{"stdout":"x"}}', True),
        (S % ("false", "assistant") + TOOL_USE + "}", True),
        (S % ("false", "assistant") + PROSE + "}", False),
        (S % ("true", "assistant") + PROSE + "}", True),  # a side chain: never the person's session
        (S % ("false", "user") + '"message":{"role":"user","content":"Always squash."}}', False),
        (S % ("false", "user") + '"message":{"role":"user","content":[{"type":"text","text":"Hi"},'
         '{"type":"tool_result","content":"x"}]}}', False),  # a tool result, but not first: parsed
        (S % ("false", "user") + TOOL_RESULT[:60], False),  # cut short: parsed (and counted)
        ('{"type":"file-history-snapshot","messageId":"m","snapshot":{}}', True),  # names no role
        ('{"type":"user",' + TOOL_RESULT + ',"sessionId":"s1"}', False),  # its session named after the message
        (S % ("false", "user") + '"isMeta":true,' + TOOL_RESULT + "}", True),  # a flag, and a tool result first
        (S % ("false", "user") + '"isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"x"}]}}',
         True),  # written in the person's name by someone else
        (S % ("false", "user") + '"message":{"role":"user","content":"Hi","isMeta":true}}', False),  # not its field
        (S % ("true", "user") + '"message":{"role":"user","content":"Hi"}}', True),  # a side chain's prompt
        (S % ("false", "assistant") + '"type":"user",' + TOOL_RESULT + "}", True),  # a repeated key: the last counts
        (S % ("false", "user") + '"message":{"role":"user","content":[{"type":"tool_result","type":"text",'
         '"text":"Hi"}]}}', False),  # the first block's last type is text
        (S % ("false", "user") + '"message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result"},'
         '{"type":"text","text":"Hi"}]}}', False),  # its type is the last field before "}": not read, so parsed
        (S.replace('"/a"', '"C:\\\\a"') % ("false", "user") + TOOL_RESULT + "}", False),  # an escape: parsed
        (S % ("false", "user") + TOOL_RESULT.replace('"x"', '"' + "y\\n" * 50_000 + '"') + "}", True),  # a long one
    ],
)
def test_claude_leaves_unparsed_only_lines_that_hold_no_turn(line: str, dropped: bool) -> None:
    sessions: set[str] = set()
    assert claude.dropper(sessions)((line + "\n").encode()) is dropped
    assert sessions == ({"s1"} if dropped and "sessionId" in line else set())


@pytest.mark.parametrize(
    "raw",
    [
        (S % ("false", "user") + TOOL_RESULT + "}\r\n").encode(),  # CRLF
        (S % ("false", "user") + TOOL_RESULT + "}").encode(),  # the last line, its newline not written yet
        (" " + S % ("false", "user") + TOOL_RESULT + "}\n").encode(),  # a space before the record
    ],
)
def test_claude_parses_a_tool_result_line_it_cannot_vouch_for(raw: bytes) -> None:
    """Not a complete record as the agents write it: the parse decides (and counts it)."""
    sessions: set[str] = set()
    assert claude.dropper(sessions)(raw) is False
    assert sessions == set()


def test_claude_drops_a_tool_result_whose_bytes_are_not_utf8_unchecked() -> None:
    """A dropped line is not checked further (no reader checks one): its output not being UTF-8 changes nothing."""
    raw = (S % ("false", "user") + TOOL_RESULT.replace('"x"', '"caf\u00e9"') + "}\n").encode().replace(b"\xc3", b"\xff")
    sessions: set[str] = set()
    assert claude.dropper(sessions)(raw) is True
    assert sessions == {"s1"}
    assert claude.read(io.BytesIO(raw), "t.jsonl").skipped == 0


@pytest.mark.parametrize(
    ("line", "dropped"),
    [
        ('{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c"}}', True),
        ('{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[]}}', True),
        ('{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[]}}', False),
        ('{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null}}', True),
        ('{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"Hi"}}', False),
        ('{"timestamp":"t","type":"turn_context","payload":{"cwd":"/a"}}', False),
        ('{"timestamp":"t","type":"session_meta","payload":{"id":"s","cwd":"/a"}}', False),
    ],
)
def test_codex_leaves_unparsed_only_envelopes_that_hold_no_turn(line: str, dropped: bool) -> None:
    assert codex.dropper()((line + "\n").encode()) is dropped


@pytest.mark.parametrize(
    ("line", "dropped"),
    [
        ('{"id":"m1","timestamp":"t","type":"info","content":"Switched model"}', True),
        ('{"id":"m1","timestamp":"t","type":"user","content":"Always squash."}', False),
        ('{"id":"m1","timestamp":"t","type":"gemini","content":"Done."}', False),
        ('{"sessionId":"g","projectHash":"h","type":"x","kind":"main"}', False),  # a header carries no id
    ],
)
def test_gemini_leaves_unparsed_only_records_that_hold_no_turn(line: str, dropped: bool) -> None:
    assert gemini.dropper()((line + "\n").encode()) is dropped


# ---------------------------------------------------------------- generated records


def _read(module: Any, lines: list[bytes]) -> ReadResult:
    data = b"".join(lines)
    if module is gemini:
        return gemini._read_jsonl(io.BytesIO(data), "t.jsonl", 0, 0)
    return module.read(io.BytesIO(data), "t.jsonl")


def _agree(module: Any, records: list[dict[str, Any]], damage: int = 0) -> None:
    """Read with the byte test and without it: the same turns, sessions and resume point (and skipped lines,
    unless a line was damaged: one cut short, or given a byte that is not UTF-8).

    A line given a byte that is not UTF-8 and dropped unparsed still names its session: the one
    difference allowed (a parse skips the line whole)."""
    lines = [_line(r) for r in records]
    extra: set[str] = set()
    if damage:
        at = damage % len(lines)
        lines[at] = lines[at][: damage % 97] + b"\n" if damage % 2 else lines[at].replace(b'"', b'"\xff', 2)
        session = records[at].get("sessionId")
        if not damage % 2 and isinstance(session, str) and session:
            extra.add(session)
    fast = _read(module, lines)
    with mock.patch.object(module, "dropper", lambda *_: None):
        full = _read(module, lines)
    assert full.sessions <= fast.sessions <= full.sessions | extra
    _same(fast, replace(full, sessions=fast.sessions), malformed=bool(damage))


DAMAGE = st.integers(0, 400) | st.just(0)


def _line(obj: Any, separators: tuple[str, str] = (",", ":")) -> bytes:
    """One record as the agents write it: compact, UTF-8 (a lone surrogate escaped, as JSON writers must)."""
    try:
        return json.dumps(obj, ensure_ascii=False, separators=separators).encode() + b"\n"
    except UnicodeEncodeError:
        return json.dumps(obj, separators=separators).encode() + b"\n"


TEXTS = st.sampled_from(["Always run the linter first.", "  ", "", "[Request interrupted by user]", "ok 👍", "\ud800 cut",
                         '"text":"x"', "<system-reminder>x</system-reminder>"])
BLOCK = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": TEXTS}),
    st.fixed_dictionaries({"tool_use_id": st.just("toolu_1"), "type": st.just("tool_result"),
                           "content": st.one_of(TEXTS, st.lists(st.fixed_dictionaries({"type": st.just("text"),
                                                                                        "text": TEXTS}), max_size=2))}),
    st.fixed_dictionaries({"type": st.just("tool_use"), "id": st.just("t"), "name": st.just("Bash"),
                           "input": st.dictionaries(st.sampled_from(["command", "text", "content"]), TEXTS, max_size=2)}),
    st.fixed_dictionaries({"type": st.just("image"), "source": st.just({"type": "base64", "data": "AAAA"})}),
    st.just({"type": "thinking", "thinking": "hmm"}),
)
CONTENT = st.one_of(st.lists(BLOCK, max_size=3), TEXTS, st.none(), st.just({"type": "text", "text": "x"}))
FLAG = st.sampled_from([False, False, True, None, "yes", 1])


@st.composite
def claude_record(draw: st.DrawFn) -> dict[str, Any]:
    """A Claude Code record: the usual fields in the usual order, or shuffled, some missing or odd."""
    fields: list[tuple[str, Any]] = [
        ("parentUuid", draw(st.sampled_from([None, "p1", 'p"1', "p\\1", "p\u00e91"]))),
        ("isSidechain", draw(FLAG)),
        ("userType", "external"),
        ("cwd", draw(st.sampled_from(["/home/dev/app", "C:\\src\\app", ""]))),
        ("sessionId", draw(st.sampled_from(["s1", "s2", "s\u00e9", "", None, 7]))),
        ("type", draw(st.sampled_from(["user", "assistant", "system", "summary", None]))),
    ]
    for name in ("isMeta", "isCompactSummary", "isSynthetic", "isVisibleInTranscriptOnly", "interruptedByShutdown"):
        if draw(st.booleans()) and draw(st.booleans()):
            fields.append((name, draw(FLAG)))
    role = draw(st.sampled_from(["user", "assistant"]))
    message: dict[str, Any] = {"role": role, "content": draw(CONTENT)}
    if role == "assistant" and draw(st.booleans()):
        message = {"id": "msg_1", "type": "message", "role": role, "model": draw(st.sampled_from(["m", "<synthetic>"])),
                   "content": message["content"]}
    fields.append(("message", draw(st.sampled_from([message, message, message, "m", [message]]))))
    fields += [("uuid", "u1"), ("timestamp", "2026-01-05T08:00:00.000Z")]
    if draw(st.booleans()):
        fields.append(("toolUseResult", draw(st.one_of(st.just({"stdout": "x"}), TEXTS))))
    if draw(st.booleans()):
        fields.append(("origin", draw(st.sampled_from([{"kind": "human"}, {"kind": "peer"}, None]))))
    order = draw(st.permutations(fields)) if draw(st.integers(0, 3)) == 0 else fields
    return {k: v for k, v in order if not (v is None and draw(st.booleans()))}


@settings(max_examples=400)
@given(records=st.lists(claude_record(), min_size=1, max_size=6), damage=DAMAGE)
def test_claude_drops_no_line_a_full_parse_keeps(records: list[dict[str, Any]], damage: int) -> None:
    _agree(claude, records, damage)


@st.composite
def codex_record(draw: st.DrawFn) -> dict[str, Any]:
    """A Codex rollout envelope of any type, its payload typed as rollouts type them (or oddly)."""
    kind = draw(st.sampled_from(["session_meta", "response_item", "event_msg", "turn_context", "compacted", "other"]))
    ptype = draw(st.sampled_from(["message", "function_call", "function_call_output", "reasoning", "user_message",
                                  "agent_message", "token_count", None, 3]))
    payload: dict[str, Any] = {"type": ptype, "role": draw(st.sampled_from(["user", "assistant", "developer"])),
                               "content": [{"type": "input_text", "text": draw(TEXTS)}], "message": draw(TEXTS),
                               "id": "s1", "cwd": "/home/dev/app"}
    if draw(st.booleans()):
        payload = {"info": {"x": 1}, **payload}  # a nested value first: the type is not read from the bytes
    if ptype is None and draw(st.booleans()):
        del payload["type"]
    body = draw(st.one_of(st.just(payload), st.just([payload]), st.just("p")))
    return {"timestamp": "2026-01-05T08:00:00.000Z", "type": kind, "payload": body}


@settings(max_examples=300)
@given(records=st.lists(codex_record(), min_size=1, max_size=6), damage=DAMAGE)
def test_codex_drops_no_line_a_full_parse_keeps(records: list[dict[str, Any]], damage: int) -> None:
    _agree(codex, records, damage)


@st.composite
def gemini_record(draw: st.DrawFn) -> dict[str, Any]:
    """A Gemini JSONL line: a message record of any type, a header, a ``$set`` patch or a rewind."""
    shape = draw(st.sampled_from(["message", "message", "header", "set", "rewind"]))
    if shape == "header":
        return {"sessionId": draw(st.sampled_from(["g1", "g2"])), "projectHash": "h", "kind": draw(st.sampled_from(["main", "subagent"]))}
    if shape == "set":
        return {"$set": {"sessionId": "g3"}}
    if shape == "rewind":
        return {"$rewindTo": "m1"}
    record: dict[str, Any] = {"id": draw(st.sampled_from(["m1", "m2", 5])), "timestamp": "2026-01-05T08:00:00Z",
                              "type": draw(st.sampled_from(["user", "gemini", "model", "info", "error", "warning", None, 1])),
                              "content": draw(st.one_of(TEXTS, st.just([{"text": "hi"}])))}
    if draw(st.booleans()):
        record = dict(reversed(list(record.items())))
    return record


@settings(max_examples=300)
@given(records=st.lists(gemini_record(), min_size=1, max_size=6), damage=DAMAGE)
def test_gemini_drops_no_line_a_full_parse_keeps(records: list[dict[str, Any]], damage: int) -> None:
    _agree(gemini, records, damage)


# a pair written again at the start of a record or of its first block: the parse keeps the last of a repeated key
REPEATS = st.sampled_from([b'"type":"user",', b'"type":"assistant",', b'"type":"system",', b'"sessionId":"s9",',
                           b'"sessionId":7,', b'"isSidechain":true,', b'"isMeta":true,', b'"message":"m",'])
BLOCK_REPEATS = st.sampled_from([b'"type":"tool_result",', b'"type":"text",', b'"text":"Hi",', b'"content":"x",'])


@settings(max_examples=300)
@given(records=st.lists(st.tuples(claude_record(), st.lists(REPEATS, max_size=2), st.lists(BLOCK_REPEATS, max_size=2),
                                  st.booleans()), min_size=1, max_size=6))
def test_claude_drops_no_line_a_full_parse_keeps_whatever_its_keys(
        records: list[tuple[dict[str, Any], list[bytes], list[bytes], bool]]) -> None:
    """Records with repeated keys among their opening fields, or written with spaces, read the same with the test."""
    lines = []
    for record, repeats, block_repeats, spaced in records:
        line = _line(record, (", ", ": ") if spaced else (",", ":"))
        keys = list(record)
        after = keys[keys.index("message") + 1:] if "message" in keys else []
        # (a key written again after the message is one the test never sees, as it says: not that)
        repeats = [r for r in repeats if r.split(b'"')[1].decode() not in after]
        line = b"{" + b"".join(repeats) + line[1:]
        lines.append(line.replace(b'"content":[{', b'"content":[{' + b"".join(block_repeats), 1))
    fast = _read(claude, lines)
    with mock.patch.object(claude, "dropper", lambda *_: None):
        full = _read(claude, lines)
    _same(fast, full, malformed=False)


@pytest.mark.parametrize("block", [
    # the block's type written again as its last field: the parse keeps the later one
    b'{"type":"tool_result","text":"Always run the linter first.","type":"text"}',
    b'{"type":"tool_result","type":"text","text":"Always run the linter first."}',
])
@pytest.mark.parametrize("role", ["user", "assistant"])
def test_claude_a_block_typed_twice_reads_as_the_parse_reads_it(block: bytes, role: str) -> None:
    """A user record whose first block says ``tool_result`` and then another type: kept as the parse keeps it."""
    line = (b'{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"s1",'
            b'"type":"user","message":{"role":"' + role.encode() + b'","content":[' + block + b']},"uuid":"u1",'
            b'"timestamp":"2026-01-05T08:00:00.000Z"}\n')
    fast = _read(claude, [line])
    with mock.patch.object(claude, "dropper", lambda *_: None):
        full = _read(claude, [line])
    assert [t.text for t in full.turns] == ["Always run the linter first."]
    _same(fast, full, malformed=False)


FORMS = st.sampled_from(["compact", "compact", "ascii", "spaced", "cut", "not utf-8"])


@settings(max_examples=600)
@given(records=st.lists(claude_record(), min_size=1, max_size=4), form=FORMS, at=st.integers(0, 10**6))
def test_claude_byte_test_decides_each_line_as_the_parse_does(records: list[dict[str, Any]], form: str,
                                                               at: int) -> None:
    """Each line, however written (non-ASCII escaped, with spaces, cut short anywhere, a byte that is not UTF-8):
    a line the byte test drops gives no turn and, unless its bytes are not UTF-8, skips nothing and names the
    sessions it said, read alone; a line
    the test has seen before (the same opening fields) is decided the same way."""
    drop = claude.dropper(sessions := set())
    for record in records:
        if form == "ascii":
            raw = json.dumps(record, separators=(",", ":")).encode() + b"\n"
        else:
            raw = _line(record, (", ", ": ") if form == "spaced" else (",", ":"))
        if form == "cut":
            raw = raw[: at % len(raw)] + b"\n"
        elif form == "not utf-8":
            raw = raw[: at % len(raw)] + b"\xff" + raw[at % len(raw):]
        sessions.clear()
        dropped = drop(raw)
        with mock.patch.object(claude, "dropper", lambda *_: None):
            full = claude.read(io.BytesIO(raw), "t.jsonl")
        if dropped:
            assert full.turns == ()
            # (a line cut right after a nested object's "}" looks complete to the bytes: read as it was written;
            # a dropped line's bytes are not checked to be UTF-8, so it names its session where a parse skips it)
            if form == "not utf-8":
                assert full.sessions <= frozenset(sessions)
            elif not (form == "cut" and raw.endswith(b"}\n")):
                assert (full.skipped, full.sessions) == (0, frozenset(sessions))
        else:
            assert sessions == set()


def _parsed(parse: Any, raw: bytes) -> tuple[str, Any]:
    """What a parse gives a line: its dict's items in their order, or that it is no JSON (the error a reader counts)."""
    try:
        value = parse(raw)
    except (ValueError, RecursionError, StopIteration):
        return "not JSON", None
    return "JSON", list(value.items()) if isinstance(value, dict) else value


def test_claude_parses_a_kept_line_from_its_message_on() -> None:
    """A line the byte test read to its message is parsed from there, its opening fields' dict made once a file."""
    drop = claude.dropper(set(), kept := [None])
    parse = claude.parser(kept)
    lines = [(S % ("false", "assistant")).replace("null", parent) + PROSE.replace("Done.", text) + ',"uuid":"u"}\n'
             for parent, text in (("null", "Done."), ('"p1"', "Ok"), ('"p2"', "Ok \u00e9"), ('"p\u00e9"', "x"),
                                  ('"p3","parentUuid":"p4"', "y"), ('"p5","type":"user"', "z"))]
    for line in lines + lines:
        raw = line.encode()
        assert drop(raw) is False and kept[0] is not None and kept[0][0] is raw
        assert _parsed(parse, raw) == _parsed(json.loads, raw)


@pytest.mark.parametrize("parent", ["null", '"p1"', '"p\u00e9"'])
@pytest.mark.parametrize("message", [PROSE, '"message":{"role":"user","content":"Always squash."}'])
def test_claude_parses_a_kept_line_changed_anywhere_before_its_message_as_json_does(parent: str, message: str) -> None:
    """Every byte before the message changed, or one written before it, in turn: what the byte test still keeps
    parses as ``json.loads`` parses it (a dict, or no JSON), after the unchanged line taught the parse its fields."""
    kind = "user" if '"user"' in message else "assistant"
    line = ((S % ("false", kind)).replace("null", parent) + message + ',"uuid":"u"}\n').encode()
    narrow = 0
    for at in range(line.find(b'"message"') + 1):
        for byte in (b"\x00", b"\x1f", b"\n", b'"', b",", b"\xff", b"\xc3", b" ", b"\\", b"}", b"{", b"[", b"x", b":", b"1"):
            for changed in (line[:at] + byte + line[at + 1:], line[:at] + byte + line[at:]):
                drop = claude.dropper(set(), kept := [None])
                parse = claude.parser(kept)
                assert drop(line) is False and _parsed(parse, line) == _parsed(json.loads, line)
                if not drop(changed):
                    narrow += kept[0] is not None and kept[0][0] is changed
                    for _ in range(2):  # (opening fields seen once are parsed whole; the second time, from their dict)
                        assert _parsed(parse, changed) == _parsed(json.loads, changed), changed
    assert narrow > 100  # (most changes leave a line the byte test reads to its message)


PAIRS_AGAIN = st.sampled_from([b'"parentUuid":"p2",', b'"parentUuid":null,', b'"type":"assistant",', b'"type":"user",',
                               b'"message":"m",', b'"cwd":"/b",', b'"sessionId":"s9",', b'"x":[1],', b'"y":{"z":1},'])
TAIL_PAIRS = st.sampled_from([b',"type":"system"', b',"parentUuid":"p3"', b',"cwd":"/c"', b',"message":{"content":"m"}',
                              b',"isSidechain":true', b""])
DAMAGE_BYTES = st.sampled_from([b"\x00", b"\n", b'"', b",", b"\xff", b"\xc3", b" ", b"\\", b"}", b"{", b"x", b":"])


@settings(max_examples=600)
@given(records=st.lists(st.tuples(claude_record(), st.lists(PAIRS_AGAIN, max_size=2), TAIL_PAIRS,
                                  st.sampled_from(["compact", "compact", "ascii", "spaced", "damaged", "damaged opening",
                                                   "cut", "extra"]),
                                  st.integers(0, 10**6), DAMAGE_BYTES), min_size=1, max_size=6))
def test_claude_parses_each_kept_line_as_json_does(records: list[tuple[dict[str, Any], list[bytes], bytes, str, int,
                                                                       bytes]]) -> None:
    """Each line the byte test keeps, however written (keys repeated before or after the message, non-ASCII escaped,
    spaces, a byte changed or the line cut anywhere), parses to the same dict as ``json.loads``, items in the same
    order, or to the same failure; the lines of a file share what the parse remembers of their opening fields."""
    drop = claude.dropper(set(), kept := [None])
    parse = claude.parser(kept)
    for record, again, tail, form, at, byte in records:
        if form == "ascii":
            raw = json.dumps(record, separators=(",", ":")).encode() + b"\n"
        else:
            raw = _line(record, (", ", ": ") if form == "spaced" else (",", ":"))
        parent = raw.find(b'"isSidechain"')  # after the parent's id, as Claude Code writes it
        if parent > 0 and again:
            raw = raw[:parent] + b"".join(again) + raw[parent:]
        if tail and raw.endswith(b"}\n"):
            raw = raw[:-2] + tail + b"}\n"
        if form == "damaged":
            raw = raw[: at % len(raw)] + byte + raw[at % len(raw) + 1:]
        elif form == "damaged opening":  # a byte written or changed beside a mark of the opening fields' syntax
            marks = [i for i in range(max(raw.find(b'"message"'), 1)) if raw[i] in b'{,:"'] or [0]
            mark = marks[at % len(marks)] + at % 2
            raw = raw[:mark] + byte + raw[mark + (at // 2) % 2:]
        elif form == "cut":
            raw = raw[: at % len(raw)] + b"}\n"
        elif form == "extra":
            raw = raw[:-1] + (b"}", b' {"a":1}', b" ]", b"\x00")[at % 4] + b"\n"
        if not drop(raw):
            for _ in range(2):  # (opening fields seen once are parsed whole; the second time, from their dict)
                assert _parsed(parse, raw) == _parsed(json.loads, raw)


# ---------------------------------------------------------------- lines


def _lines_as_specified(data: bytes, start: int, limit: int) -> tuple[list[tuple[int, bytes]], int, int, int]:
    """What a line reader yields, by its rules: every line up to ``limit`` bytes with its newline, a longer one
    counted; a last line without a newline yielded but not passed (when shorter than ``limit``)."""
    offset = 3 if start == 0 and data.startswith(b"\xef\xbb\xbf") else start
    pieces = data[offset:].split(b"\n")
    lines: list[tuple[int, bytes]] = []
    oversized = lineno = 0
    for piece in pieces[:-1]:
        raw = piece + b"\n"
        if len(raw) <= limit:
            lines.append((lineno + 1, raw))
        else:
            oversized += 1
        lineno += 1
        offset += len(raw)
    if pieces[-1]:
        if len(pieces[-1]) < limit:
            lines.append((lineno + 1, pieces[-1]))
        else:
            oversized += 1
    return lines, oversized, offset, lineno


LINES = st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")) | st.sampled_from([b"", b"\r", b"{}"]),
                 max_size=12)


@settings(max_examples=400)
@given(pieces=LINES, last=st.booleans(), bom=st.booleans(), block=st.integers(1, 20), limit=st.integers(1, 16),
       start=st.integers(0, 30))
def test_lines_are_cut_by_their_rules_whatever_the_blocks(pieces: list[bytes], last: bool, bom: bool, block: int,
                                                          limit: int, start: int) -> None:
    """Lines across block boundaries, longer than the limit, CRLF, without a newline at the end of the file."""
    data = (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(pieces) + (b"\n" if last and pieces else b"")
    start = min(start, len(data)) if start % 3 else 0
    with mock.patch.object(line_reading, "_BLOCK_BYTES", block), mock.patch.object(line_reading, "_READ_LIMIT", limit):
        reader = LineReader(io.BytesIO(data), start, 0)
        got = list(reader)
    lines, oversized, offset, lineno = _lines_as_specified(data, start, limit)
    assert got == lines
    assert (reader.oversized, reader.end_offset, reader.end_line) == (oversized, offset, lineno)


@given(values=st.tuples(st.text(max_size=5), st.text(max_size=5), st.text(max_size=5), st.text(max_size=5),
                        st.sampled_from(["user", "assistant"]), st.text(max_size=5), st.text(max_size=5),
                        st.integers(0, 10**6), st.text(max_size=5)))
def test_a_turn_a_reader_makes_is_the_record_itself(values: tuple[Any, ...]) -> None:
    made, record = turn(*values), Turn(*values)
    assert made == record and hash(made) == hash(record) and repr(made) == repr(record)
    assert vars(made) == vars(record)
    with pytest.raises(AttributeError):
        made.text = "changed"  # type: ignore[misc]


# ---------------------------------------------------------------- timestamps


_STAMP_CHARS = st.sampled_from("0123456789" * 3 + "-T:.Zz +\n١٢３²")  # Arabic-Indic, full-width and superscript digits too


@settings(max_examples=2000)
@given(digits=st.lists(st.sampled_from("0123456789١٣３²x"), min_size=14, max_size=14),
       fraction=st.integers(0, 11), tail=st.sampled_from(["Z", "z", "", "Z\n", "+00:00", "ZZ"]),
       noise=st.lists(st.tuples(st.integers(0, 40), _STAMP_CHARS), max_size=2))
def test_a_timestamp_is_taken_as_written_exactly_where_the_pattern_says(digits: list[str], fraction: int, tail: str,
                                                                        noise: list[tuple[int, str]]) -> None:
    d = "".join(digits)
    stamp = f"{d[:4]}-{d[4:6]}-{d[6:8]}T{d[8:10]}:{d[10:12]}:{d[12:14]}" + ("." + "7" * fraction if fraction else "") + tail
    for at, ch in noise:
        stamp = stamp[:at] + ch + stamp[at + 1:]
    assert is_iso_z(stamp) is (_ISO_Z.match(stamp) is not None)
