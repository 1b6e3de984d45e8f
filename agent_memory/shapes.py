"""The shape a stored record must have before code relies on it, and the lines that did not have it.

Valid JSON of the wrong shape (a hand edit, another version's output) never becomes a traceback.
Committed files (L2/L3, decisions) are a person's: a wrong line is skipped and reported with its file
and line (the CLI prints the reports). Derived files are checked by their readers and rebuilt.
Standard library only: the hooks read L2/L3 through here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterator

from .fastjson import JSON_ERRORS
from .errors import StoreError, UsageError

Check = Callable[[Any], bool]


def _is(kind: type) -> Check:
    return lambda v: isinstance(v, kind) and not (kind is int and isinstance(v, bool))


def _list_of(check: Check) -> Check:
    return lambda v: isinstance(v, list) and all(check(x) for x in v)


def _dict_of(fields: dict[str, Check]) -> Check:
    return lambda v: isinstance(v, dict) and all(k not in v or c(v[k]) for k, c in fields.items())


STR, INT, BOOL = _is(str), _is(int), _is(bool)
STRS = _list_of(STR)

# field -> check; a field listed in REQUIRED must be there, any other listed field must be right when there
ATOM: dict[str, Check] = {
    "id": STR, "kind": STR, "rule": STR, "text": STR, "quote": STR, "stated": BOOL, "redacted": BOOL,
    "redaction_rules": STRS, "agent": STR, "session": STR, "project": STR, "cwd": STR, "timestamp": STR,
    "day": STR, "transcript": STR, "line": INT, "secret_hash": STR, "reverses": STR, "block": STR,
}
ATOM_REQUIRED = ("id", "text")  # what readers index by; every other field is checked when present

def _sources(value: Any) -> bool:
    """A list of sources ``{session, line, timestamp, quote}`` (each field right when there).

    Written out rather than composed: an adopted claim keeps hundreds of sources, read at every pass."""
    if type(value) is not list:
        return False
    for source in value:
        if type(source) is not dict:
            return False
        for name in ("session", "timestamp", "quote"):
            if name in source and type(source[name]) is not str:
                return False
        if "line" in source and type(source["line"]) is not int:
            return False
    return True


SOURCE = _dict_of({"session": STR, "line": INT, "timestamp": STR, "quote": STR})
CLAIM: dict[str, Check] = {
    "id": STR, "text": STR, "kind": STR, "keys": STRS, "stated": BOOL, "verified": BOOL, "sessions": STRS,
    "days": STRS, "projects": STRS, "first_seen": STR, "adopted_at": STR, "proposal": STR, "path": STR,
    "target": STR, "targets": STRS, "contested": BOOL, "contested_by": STRS, "retired": BOOL,
    "retired_for": STR, "sources": _sources,
}
CLAIM_REQUIRED = ("id", "text")

DECISION: dict[str, Check] = {
    "action": lambda v: v in ("reject", "verify", "resolve", "forget", "merge", "split"), "claim_id": STR,
    "claim_ids": STRS, "proposal_id": STR,
    "keys": STRS, "atoms": STRS, "projects": STRS, "keep_id": STR, "keep_keys": STRS, "keep_atoms": STRS, "at": STR,
}
DECISION_REQUIRED = ("action",)

STAGED: dict[str, Check] = {
    "id": STR, "claim_id": STR, "from": STR, "to": STR, "path": STR, "kind": STR, "sessions": STRS, "days": STRS,
    "projects": STRS, "replaces": STRS, "keys": STRS, "text": STR,
}
STAGED_REQUIRED = ("id", "claim_id", "to")

_WORDS = {STR: "a string", INT: "a whole number", BOOL: "true or false", STRS: "a list of strings"}


def problem(record: Any, fields: dict[str, Check], required: tuple[str, ...]) -> str:
    """What is wrong with ``record`` (``""``: nothing)."""
    if not isinstance(record, dict):
        return "not a JSON object"
    for name in required:
        if name not in record:
            return f"{name} is missing"
    for name, check in fields.items():
        if name in record and not check(record[name]):
            return f"{name} is not {_WORDS.get(check, 'of the expected form')}"
    return ""


# each atom field's type as JSON gives it (a list: of strings), for ``atom_ok``'s pass over a whole L1
_ATOM_TYPES = {name: list if check is STRS else str if check is STR else int if check is INT else bool
               for name, check in ATOM.items()}


def atom_ok(record: Any) -> bool:
    """Whether an L1 atom has every field code relies on, each of the right type.

    An atom read from JSON holds exactly these types, and is passed in one look at each field; anything else
    (a subclass, a missing or wrong field) is judged by ``problem``, which has the last word."""
    if type(record) is dict and "id" in record and "text" in record:
        types = _ATOM_TYPES
        for name, value in record.items():
            kind = types.get(name)
            if kind is not None and (type(value) is not kind or (kind is list and not all(type(x) is str for x in value))):
                break
        else:
            return True
    return not problem(record, ATOM, ATOM_REQUIRED)


# ---------------------------------------------------------------- committed files: skipped and reported

_reports: list[str] = []


def shown(path: Path | str) -> str:
    """A file as a message names it: relative to the working folder when inside it."""
    where = os.path.abspath(os.fspath(path))
    relative = os.path.relpath(where)
    return where if relative.startswith("..") else relative


def report(path: Path | str, line: int, why: str) -> None:
    """Note a skipped line of a committed file, once, for the CLI to print."""
    text = f"{shown(path)} line {line}: {why}"
    if text not in _reports:
        _reports.append(text)


def take_reports() -> list[str]:
    """The lines reported since the last call (each once)."""
    found = list(_reports)
    _reports.clear()
    return found


class MalformedLine(UsageError):
    """A committed file holds a line of the wrong shape (raised where skipping it would lose it)."""

    def __init__(self, path: Path, line: int, why: str) -> None:
        super().__init__(f"{shown(path)} line {line}: {why}: fix or delete that line, then try again")
        self.path, self.line, self.why = path, line, why


def read_committed(path: Path, fields: dict[str, Check], required: tuple[str, ...],
                   strict: bool = False) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, record)`` of each well-formed line; the others are reported (``strict``: raised).

    These files are written whole and atomically, so a last line without a newline is a person's
    edit, not a torn write, and is read like any other.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            record: Any = json.loads(raw)
        except JSON_ERRORS:
            why = "not valid JSON"
        else:
            why = problem(record, fields, required)
            if not why:
                yield number, record
                continue
        if strict:
            raise MalformedLine(path, number, why)
        report(path, number, why)


def malformed_lines(data: bytes | None, fields: dict[str, Check], required: tuple[str, ...]) -> bytes:
    """The lines of a committed file that ``read_committed`` skips, as they are (each ending in a newline):
    a rewrite keeps them, so a person's line is never dropped by the tool."""
    kept = []
    for raw in (data or b"").split(b"\n"):
        if not raw.strip():
            continue
        try:
            record: Any = json.loads(raw)
        except JSON_ERRORS:
            kept.append(raw + b"\n")
            continue
        if problem(record, fields, required):
            kept.append(raw + b"\n")
    return b"".join(kept)
