"""Line breaks inside a token: a key wrapped or split over two lines, found and joined."""

from __future__ import annotations

import re

_JOIN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")
_SOLID = bytes(120 if chr(b) in _JOIN_CHARS else 32 for b in range(256))  # b"x" for a join character, else b" "
_J = "[" + "".join("\\" + c if c in "-]\\^" else c for c in sorted(_JOIN_CHARS)) + "]"
# a break with eight join characters before it (what every joined key needs): the search stops only at line
# breaks, and at most of them the byte before (punctuation, a blank) ends the check
_BREAK = re.compile(f"\n(?<=[\r{_J[1:]}\n)(?:(?<={_J}{{8}}\n)|(?<={_J}{{8}}\r\n))".encode())
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_DIGITS = frozenset("0123456789")
_MARKS = frozenset("_-+/")


def join_wrapped(text: str, raw: bytes | None = None) -> tuple[str, list[int], list[int]] | None:
    """``text`` with line breaks inside a token removed (a key wrapped or split over two lines).

    A break counts as inside a token when a run of at least eight token characters precedes
    it, letters with digits (or with ``_-+/`` in mixed case), and two token characters follow
    it (after indentation). Returns the joined text, the
    map back and where each break was, or ``None`` when there is none.
    """
    if "\n" not in text:
        return None
    data = text.encode("latin-1", "replace") if raw is None else raw  # one byte per character, the others "?"
    cuts: list[tuple[int, int]] = []
    n = len(text)
    for m in _BREAK.finditer(data):
        at = m.start()
        lo = at - 1 if data[at - 1] == 13 else at
        end = at + 1
        while end < n and text[end] in " \t":
            end += 1
        if not _JOIN_CHARS.issuperset(text[end : end + 2] or "."):
            continue
        floor = max(0, lo - 200)
        run = floor + data[floor:lo].translate(_SOLID).rfind(b" ") + 1  # after the last non-token character
        piece = text[run:lo]
        if len(piece) < 8 or _LETTERS.isdisjoint(piece) or not (not _DIGITS.isdisjoint(piece) or (
            not _MARKS.isdisjoint(piece) and not piece.islower() and not piece.isupper()
        )):
            continue  # a word, a number or a path at the end of a line, not a wrapped key
        cuts.append((lo, end))
    if not cuts:
        return None
    parts: list[str] = []
    keep: list[int] = []
    joints: list[int] = []
    last = 0
    for lo, end in cuts:
        parts.append(text[last:lo])
        keep.extend(range(last, lo))
        joints.append(len(keep))
        last = end
    parts.append(text[last:])
    keep.extend(range(last, n))
    return "".join(parts), keep, joints
