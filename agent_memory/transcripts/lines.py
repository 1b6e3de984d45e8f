"""Bounded line reading, the first step of every reader: lines cut from blocks, over-long ones drained unseen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

# Lines longer than this are skipped without ever being held whole in memory.
MAX_LINE_BYTES = 8 * 1024 * 1024
_READ_LIMIT = MAX_LINE_BYTES + 1
DRAIN_LIMIT = 1024 * 1024
_BLOCK_BYTES = 128 * 1024  # what a line reader reads at a time (more for a longer line)


class LineReader:
    """Iterate ``(line_number, raw_bytes)`` over a binary file from an offset.

    Reads in blocks and cuts the lines out of them with ``bytes.find``: a line longer than ``MAX_LINE_BYTES``
    is drained (never held much beyond that) and counted in ``oversized`` instead of being
    yielded. A last line without a newline is yielded (it may be valid JSON) but
    ``end_offset``/``end_line`` stop before it, so a later read starts at that line again.
    """

    __slots__ = ("_f", "start_offset", "start_line", "end_offset", "end_line", "oversized")

    def __init__(self, f: IO[bytes], start_offset: int = 0, start_line: int = 0) -> None:
        self._f = f
        self.start_offset = start_offset
        self.start_line = start_line
        self.end_offset = start_offset
        self.end_line = start_line
        self.oversized = 0

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        f = self._f
        f.seek(self.start_offset)
        read = f.read
        limit = _READ_LIMIT
        offset = self.start_offset
        lineno = self.start_line
        if offset == 0:
            if f.read(3) == b"\xef\xbb\xbf":  # a UTF-8 byte-order mark is not content
                offset = 3
            else:
                f.seek(0)
        buf = read(_BLOCK_BYTES)
        pos = 0
        try:
            while buf:
                find = buf.find
                nl = find(b"\n", pos)
                while nl >= 0:
                    end = nl + 1
                    if end - pos <= limit:
                        yield lineno + 1, buf[pos:end]
                    else:
                        self.oversized += 1
                    lineno += 1
                    offset += end - pos
                    pos = end
                    nl = find(b"\n", pos)
                rest = len(buf) - pos
                # a long line: read as much again as it holds, but never much past the longest kept
                more = read(max(_BLOCK_BYTES, min(rest, limit - rest)))
                if not more:
                    if rest:  # end of file inside a line: still being written
                        if rest < limit:
                            yield lineno + 1, buf[pos:]
                        else:
                            self.oversized += 1
                    break
                if rest < limit:
                    buf, pos = buf[pos:] + more, 0
                    continue
                # A line already too long to keep: discard the rest of it block by block.
                self.oversized += 1
                buf = b""
                consumed = rest
                nl = more.find(b"\n")
                while nl < 0:
                    consumed += len(more)
                    more = read(DRAIN_LIMIT)
                    if not more:
                        return
                    nl = more.find(b"\n")
                lineno += 1
                offset += consumed + nl + 1
                buf, pos = more, nl + 1
        finally:
            self.end_offset = offset
            self.end_line = lineno
