"""What every transcript reader shares, and the files a folder holds.

Also the pieces every reader shares: records from bounded lines (``lines``), field scans, timestamp normalising.
Bad lines are counted, never raised.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import replace
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from typing import IO, Any

from agent_memory.errors import AgentMemoryError, UsageError
from agent_memory.fastjson import JSON_ERRORS
from agent_memory.model import ReadResult, Turn
from agent_memory.transcripts.lines import MAX_LINE_BYTES, LineReader  # noqa: F401 - shared names


class UnknownFormat(AgentMemoryError):
    """The file is not a transcript of a known agent."""


class TranscriptUnreadable(AgentMemoryError):
    """The transcript file is missing or cannot be read."""



loads = json.loads
_scan = json.JSONDecoder().scan_once  # what json.loads runs (C); it says StopIteration where no value starts
scan_value: Callable[[str, int], tuple[Any, int]] = _scan
_SCAN_ERRORS = (*JSON_ERRORS, StopIteration)


# --------------------------------------------------------------------------- lines


class Records:
    """Each JSON object of a transcript's lines, ``(line_number, record)``, the one decoding loop every reader shares.

    A line that is not JSON, or JSON that is not an object, is counted in ``skipped`` (a reader
    adds the records it finds malformed itself). ``drop`` sees each raw line first: a line it
    says holds nothing the reader would keep is never parsed (see ``head``). ``parse``, when given, parses
    the others in place of ``parse_line`` (what it returns and raises must be what ``parse_line`` would).
    """

    __slots__ = ("lines", "skipped", "unknown", "_drop", "_parse")

    def __init__(self, f: IO[bytes], start_offset: int = 0, start_line: int = 0,
                 drop: Callable[[bytes], bool] | None = None, parse: Callable[[bytes], Any] | None = None) -> None:
        self.lines = LineReader(f, start_offset, start_line)
        self.skipped = 0
        self.unknown: dict[str, int] = {}  # records of a shape the reader does not know, by the CLI version
        self._drop = drop
        self._parse = parse

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        drop = self._drop
        parse = self._parse or parse_line
        for lineno, raw in self.lines:
            if drop is not None and drop(raw):
                continue
            try:
                obj = parse(raw)
            except _SCAN_ERRORS:
                if raw.strip():
                    self.skipped += 1
                continue
            if type(obj) is not dict:
                self.skipped += 1
                continue
            yield lineno, obj

    def result(self, turns: Iterable[Turn], sessions: Iterable[str], cwd: str = "") -> ReadResult:
        """What reading these lines gave, with where the next read starts."""
        return ReadResult(
            turns=tuple(turns),
            sessions=frozenset(sessions),
            skipped=self.skipped + self.lines.oversized,
            end_offset=self.lines.end_offset,
            end_line=self.lines.end_line,
            cwd=cwd,
            unknown=tuple(sorted(self.unknown.items())),
        )

    def count_unknown(self, version: Any) -> None:
        """One more record of a shape the reader does not know, from the CLI ``version`` (a string, else "?")."""
        key = version if type(version) is str and version else "?"
        self.unknown[key] = self.unknown.get(key, 0) + 1


def unknown_part(content: Any, known: frozenset[str]) -> bool:
    """Whether a message's content list holds a part whose ``type`` is not in ``known``: a shape a reader does not
    know (a list or an object as a type is no type, and unhashable)."""
    return type(content) is list and any(
        type(part) is dict and (type(kind := part.get("type")) is not str or kind not in known) for part in content
    )


def whole_element(text: str) -> bool:
    """Whether ``text`` (stripped) is one element whose name joins words with ``_`` or ``-``, ``<name …>…</name>``:
    how the CLI wraps what it adds in the user role (no one types a whole ``<turn_context>`` block)."""
    if text[:1] != "<":
        return False
    end = 1
    while end < len(text) and (text[end].isascii() and (text[end].isalnum() or text[end] in "_-")):
        end += 1
    name = text[1:end]
    if not name[:1].isalpha() or ("_" not in name and "-" not in name) or text[end : end + 1] not in (">", " ", "\n"):
        return False
    return text.endswith(f"</{name}>")


def parse_line(raw: bytes) -> Any:
    """A line's JSON value, as ``json.loads`` gives it; raises what ``Records`` counts as a line that is not JSON.

    A line opening with ``{`` goes straight to json's C scanner, without ``json.loads``' three Python-level calls.
    """
    text = raw.decode()
    if raw[:1] == b"{":
        obj, end = _scan(text, 0)
        if text[end:].strip(" \t\n\r"):
            raise ValueError("extra data")
        return obj
    return loads(text)


# One key and a string, boolean, null or number value, then a comma, as the agents write them (no spaces,
# no escapes); an object's opening run of them; and a key whose value is an object or a list.
_KEY = rb'"[^"\\\x00-\x1f]*"'
_SCALAR = rb'(?:"[^"\\\x00-\x1f]*"|true|false|null|-?[0-9][0-9.eE+-]*)'
_PAIR = _KEY + b":" + _SCALAR + b","
_RUN_OF_PAIRS = re.compile(rb"\{(?:" + _PAIR + rb")*")
# Inside such a run no string holds a quote, and no other value a comma: the pairs are cut by a simpler pattern.
_PAIRS = re.compile(rb'"([^"]*)":("[^"]*"|[^,]*),')
_OPENING = re.compile(rb'"([^"\\\x00-\x1f]*)":[{\[]')


def head(raw: bytes, start: int = 0) -> tuple[dict[bytes, bytes], bytes, int]:
    """The scalar fields an object opens with, before its first object or list value, read without parsing.

    ``raw[start]`` is the object's ``{``. Returns those fields (each value's JSON text: a string
    keeps its quotes), the key of the object or list that follows them (``b""`` when anything
    else does) and where that value starts. Every field found is the object's own: each value
    before it was a scalar, so nothing nested was opened. A field may be missed (the last one
    before ``}``, one written with an escape), never invented; a key repeated later in the
    object, which JSON leaves undefined, is not seen.
    """
    run = _RUN_OF_PAIRS.match(raw, start)
    if run is None:
        return {}, b"", -1
    end = run.end()
    fields = dict(_PAIRS.findall(raw, start + 1, end))
    opening = _OPENING.match(raw, end)
    if opening is None:
        return fields, b"", -1
    return fields, opening.group(1), opening.end() - 1


def pairs(**captured: bytes) -> bytes:
    """A pattern for the run of pairs ``head`` reads (after the ``{``) that keeps the value of each key given
    (``group=key``) in that group: the last such pair's, as the parse keeps the last of a repeated key.

    One ``match`` of a pattern built from these runs decides in C what ``head`` calls would.
    A pair can match two alternatives (its key's and any key's), so what follows a run must be optional:
    a match that could fail after it would try every way of splitting the run first.
    """
    named = b"".join(b'"' + key + b'":(?P<' + group.encode() + b">" + _SCALAR + b")|" for group, key in captured.items())
    return b"(?:(?:" + named + _KEY + b":" + _SCALAR + b"),)*"


def string_of(value: bytes | None) -> str | None:
    """A ``head`` field's string, or None when it is no string (or not UTF-8, which the full parse refuses too)."""
    if value is None or value[:1] != b'"':
        return None
    try:
        return value[1:-1].decode()
    except UnicodeDecodeError:
        return None


_new = object.__new__


def turn(agent: str, session: str, cwd: str, timestamp: str, role: str, text: str, source: str, line: int,
         message_id: str = "") -> Turn:
    """``Turn(...)``, the same value, made without the nine ``object.__setattr__`` calls a frozen dataclass's
    ``__init__`` makes: a reader makes one per kept line, and that was a good part of reading one."""
    made = _new(Turn)
    made.__dict__.update(agent=agent, session=session, cwd=cwd, timestamp=timestamp, role=role, text=text,
                         source=source, line=line, message_id=message_id)
    return made


FAILED = object()


def loads_line(raw: bytes) -> Any:
    """Parse one line; return the ``FAILED`` marker when it is not JSON."""
    try:
        return loads(raw)
    except JSON_ERRORS:
        return FAILED


# ---------------------------------------------------------------------- timestamps

_ISO_Z = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z\Z")
# the same forms for ASCII text, each digit read as 0: one translate and a set lookup instead of a match
_DIGITS_AS_0 = bytes.maketrans(b"123456789", b"000000000")
_ISO_Z_FORMS = frozenset(f"0000-00-00T00:00:00{'.' + '0' * n if n else ''}Z".encode() for n in range(10))


def is_iso_z(value: str) -> bool:
    """Whether ``value`` is a timestamp as ``utc_timestamp`` returns it: ``_ISO_Z.match``, cheaper on ASCII."""
    if value.isascii():
        return value.encode().translate(_DIGITS_AS_0) in _ISO_Z_FORMS
    return _ISO_Z.match(value) is not None
_FRACTION = re.compile(r"(\.\d+)")


def utc_timestamp(value: Any) -> str:
    """Normalise a record timestamp to ISO-8601 UTC ending in ``Z`` ("" if unusable)."""
    if isinstance(value, str):
        if is_iso_z(value):
            return value
        text = value.strip()
        if not text:
            return ""
        if text[-1:] in ("Z", "z"):
            text = text[:-1] + "+00:00"
        # Python 3.10's fromisoformat wants exactly 3 or 6 fractional digits.
        m = _FRACTION.search(text)
        if m and len(m.group(1)) - 1 not in (3, 6):
            digits = (m.group(1)[1:] + "000000")[:6]
            text = text[: m.start()] + "." + digits + text[m.end() :]
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            return ""
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = float(value)
        if seconds > 1e11:  # milliseconds since the epoch
            seconds /= 1000.0
        try:
            dt = datetime.fromtimestamp(seconds, tz=timezone.utc)
        except (OverflowError, OSError, ValueError):
            return ""
    else:
        return ""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    try:
        dt = dt.astimezone(timezone.utc)
    except (OverflowError, ValueError):
        return ""
    naive = dt.replace(tzinfo=None)
    return naive.isoformat(timespec="milliseconds" if dt.microsecond else "seconds") + "Z"


def open_transcript(path: str) -> IO[bytes]:
    """The file for reading; a FIFO, device or folder is refused (opening a FIFO would wait forever)."""
    try:
        if os.path.isdir(path):
            raise TranscriptUnreadable(f"cannot read transcript {path}: is a directory")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise TranscriptUnreadable(f"cannot read transcript {path}: {reason}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise TranscriptUnreadable(f"cannot read transcript {path}: not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


# ------------------------------------------------------------------------- reading


def is_subagent_file(path: str) -> bool:
    """True for transcripts whose prompts were written by an agent, not by the person."""
    norm = path.replace("\\", "/")
    name = norm.rsplit("/", 1)[-1]
    if name.startswith("agent-") and name.endswith(".jsonl"):
        return True
    return "subagents" in norm.split("/")[:-1]


def skim(f: IO[bytes], start_offset: int, start_line: int) -> ReadResult:
    """Walk the lines only to know where the next read starts; no turns."""
    lines = LineReader(f, start_offset, start_line)
    for _ in lines:
        pass
    return ReadResult(
        turns=(),
        sessions=frozenset(),
        skipped=lines.oversized,
        end_offset=lines.end_offset,
        end_line=lines.end_line,
    )


# ------------------------------------------------------------------------ clean-up


def sound_text(text: str) -> str:
    """``text`` with every lone surrogate (a message cut mid-emoji) as U+FFFD, so it encodes as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def finish(result: ReadResult) -> ReadResult:
    """What every reader's turns go through: sound text, and nothing our own hooks injected."""
    from agent_memory.transcripts.injected import strip_injected

    turns: list[Turn] = []
    changed = False
    for turn in result.turns:
        text = turn.text
        text = strip_injected(text if text.isascii() else sound_text(text))
        session, cwd, mid = turn.session, turn.cwd, turn.message_id
        if not (session.isascii() and cwd.isascii() and mid.isascii()):
            session, cwd, mid = sound_text(session), sound_text(cwd), sound_text(mid)
        if text is turn.text and session is turn.session and cwd is turn.cwd and mid is turn.message_id:
            turns.append(turn)
            continue
        changed = True
        if text.strip():
            turns.append(replace(turn, text=text, session=session, cwd=cwd, message_id=mid))
    sessions = frozenset(sound_text(s) for s in result.sessions)
    cwd = sound_text(result.cwd)
    if not changed and cwd is result.cwd and sessions == result.sessions:
        return result
    return replace(result, turns=tuple(turns), sessions=sessions, cwd=cwd)


# --------------------------------------------------------------------------- files

_TRANSCRIPT_SUFFIXES = (".jsonl", ".json")


def iter_transcript_files(paths: Iterable[str]) -> Iterator[str]:
    """Expand files and folders into transcript paths, in a stable order.

    Files are yielded as given; folders are walked recursively for ``*.jsonl``/``*.json``.
    """
    seen: set[str] = set()
    for given in paths:
        given = os.fspath(given)
        if os.path.isdir(given):
            found: list[str] = []
            for root, dirs, files in os.walk(given):
                dirs.sort()
                for name in files:
                    if name.endswith(_TRANSCRIPT_SUFFIXES) and os.path.isfile(os.path.join(root, name)):
                        found.append(os.path.join(root, name))  # a FIFO or device named *.jsonl is no transcript
            found.sort()
            for path in found:
                key = os.path.normpath(path)
                if key not in seen:
                    seen.add(key)
                    yield path
        else:
            key = os.path.normpath(given)
            if key not in seen:
                seen.add(key)
                yield given


def project_root(cwd: str) -> str:
    """The project a working directory belongs to: nearest ancestor holding ``.git``.

    Falls back to ``cwd`` itself when no ancestor has one; ``""`` stays ``""``.
    """
    if not cwd:
        return ""
    current = cwd.rstrip("/\\") or cwd
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if not parent or parent == current:
            return cwd
        current = parent
