"""JSON in and out for the hooks' hot path, through CPython's own C accelerator.

``import json`` also imports ``re`` and with it ``enum``, ``functools`` and ``collections``:
about as long as the interpreter takes to start. The hooks read one small object from
stdin, write one back and read their cache, so they use ``_json`` (what ``json`` itself
runs on) directly. Same parser, same results; where ``_json`` is missing, ``json`` is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from collections.abc import Iterable, Iterator
    from typing import Any

try:
    import _json
except ImportError:  # pragma: no cover - an interpreter without the accelerator
    _json = None  # type: ignore[assignment]

_SPACE = " \t\n\r"
# what reading a JSON document may raise: not JSON, not UTF-8 (a ValueError), or nested deeper than the parser recurses
JSON_ERRORS: tuple[type[Exception], ...] = (ValueError, RecursionError)
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class _Options:
    """What ``json.loads`` passes its scanner by default."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__


_scan = _json.make_scanner(_Options()) if _json is not None else None  # type: ignore[arg-type]


def loads(data: bytes | str) -> Any:
    """``json.loads``: one JSON document, surrounding whitespace allowed; ValueError when it is not one."""
    if isinstance(data, bytes):
        # a UTF-8 byte-order mark is allowed, as json.loads allows it (without loading the utf-8-sig codec)
        text = (data[3:] if data[:3] == b"\xef\xbb\xbf" else data).decode("utf-8")
    else:
        text = data
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_SPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as stop:
        raise ValueError(f"no JSON value at character {stop.value}") from None
    except SystemError:
        # a document cut inside a string or a container: ``_json`` reports that through
        # ``json.decoder``, which is not loaded here, and the report itself fails
        raise ValueError("the JSON document is cut short") from None
    if text[end:].strip(_SPACE):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def objects_holding(lines: Iterable[bytes], needle: bytes) -> Iterator[dict[str, Any]]:
    """The JSON objects among ``lines`` that hold ``needle`` (looked for first, so no other line is parsed); a line
    that is not a JSON object is passed over."""
    for line in lines:
        if needle not in line:
            continue
        try:
            value = loads(line)
        except JSON_ERRORS:
            continue
        if isinstance(value, dict):
            yield value


def read_file(path: str, default: Any) -> Any:
    """A JSON document from a file; ``default`` when it is missing or not JSON (OSError when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return loads(handle.read())
    except FileNotFoundError:
        return default
    except JSON_ERRORS:
        return default


def dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=True)`` for dicts with string keys, lists, strings, whole numbers, booleans, None."""
    if _json is None:  # pragma: no cover
        import json

        return json.dumps(value, ensure_ascii=True)
    return "".join(_encode(value))


def quoted(text: str, ascii: bool = True) -> str:
    """A string as ``json.dumps`` writes it, with ``ensure_ascii`` or without."""
    if _json is None:  # pragma: no cover
        import json

        return json.dumps(text, ensure_ascii=ascii)
    return _json.encode_basestring_ascii(text) if ascii else _json.encode_basestring(text)


def _encode(value: Any) -> list[str]:
    if isinstance(value, str):
        return [_json.encode_basestring_ascii(value)]
    if value is None or isinstance(value, bool):
        return ["null" if value is None else "true" if value else "false"]
    if isinstance(value, int):
        return [str(int(value))]
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            parts.append(_json.encode_basestring_ascii(str(key)) + ": " + "".join(_encode(item)))
        return ["{" + ", ".join(parts) + "}"]
    if isinstance(value, (list, tuple)):
        return ["[" + ", ".join("".join(_encode(item)) for item in value) + "]"]
    raise TypeError(f"not JSON: {type(value).__name__}")
