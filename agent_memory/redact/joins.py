"""Line breaks inside a token: a key wrapped or split over two lines, found in a marked copy and joined."""

from __future__ import annotations

_JOIN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")
# a join character marked x, a line break kept, anything else a blank: a break with eight join
# characters before it (what every joined key needs) is then a plain bytes search
_JOIN_MARK = bytes(120 if chr(b) in _JOIN_CHARS else b if b in b"\r\n" else 32 for b in range(256))
_JOIN_AFTER = (b"x" * 8 + b"\n", b"x" * 8 + b"\r\n")
_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_DIGITS = frozenset("0123456789")
_MARKS = frozenset("_-+/")


def _joins(text: str, raw: bytes | None = None) -> tuple[str, list[int], list[int]] | None:
    """``text`` with line breaks inside a token removed (a key wrapped or split over two lines).

    A break counts as inside a token when a run of at least eight token characters precedes
    it, letters with digits (or with ``_-+/`` in mixed case), and two token characters follow
    it (after indentation). Returns the joined text, the
    map back and where each break was, or ``None`` when there is none.
    """
    if "\n" not in text:
        return None
    marked = (text.encode("latin-1", "replace") if raw is None else raw).translate(_JOIN_MARK)
    # Only a break with eight join characters before it can be inside a key: those are found in C.
    breaks: list[int] = []
    for row in _JOIN_AFTER:
        i = marked.find(row)
        while i >= 0:
            breaks.append(i + len(row) - 1)
            i = marked.find(row, i + len(row))
    if not breaks:
        return None
    breaks.sort()
    solid = marked.replace(b"\n", b" ").replace(b"\r", b" ")  # x for a join character, else a blank
    cuts: list[tuple[int, int]] = []
    n = len(text)
    for at in breaks:
        lo = at - 1 if text[at - 1] == "\r" else at
        end = at + 1
        if lo < 8 or text[lo - 1] not in _JOIN_CHARS:
            continue  # most lines end in punctuation or a blank
        while end < n and text[end] in " \t":
            end += 1
        if not _JOIN_CHARS.issuperset(text[end : end + 2] or "."):
            continue
        run = solid.rfind(b" ", max(0, lo - 200), lo) + 1 or max(0, lo - 200)
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
