"""An index row made from one line of a source file: worked out without the database, so in worker processes too.

``Row`` is what a source's ``RowMaker`` makes of a record; ``prepare`` makes a batch of rows as the docs
table takes them; ``read_rows`` reads a file a batch at a time, and ``rows_in_workers`` has forked
workers make a large file's rows a slice at a time, in file order, while the writer fills the index.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from .. import fastjson, pool
from ..text import identifier_words, prompt_terms
from .schema import CJK_CLASS, CJK_JOIN

# A source file and how one of its records becomes an index row (None: not indexed).
RowMaker = Callable[[dict[str, Any]], "Row | None"]

_INT64 = 1 << 63  # SQLite's INTEGER: a line number past it is no line number


@dataclass(slots=True)
class Row:
    """One searchable document: an atom, a past-session chunk, or an adopted claim. Made once a record and never
    changed (a frozen dataclass's making takes twice as long: a rebuild makes one for every line of L1)."""

    kind: str  # atom | chunk | claim
    ref: str  # the record's own id
    text: str
    date: str  # ISO timestamp from the record ("" → the source file's mtime is used)
    meta: dict[str, Any] = field(default_factory=dict)
    claim: str = ""  # an atom's claim key text (derived from ``text``; its terms are made with its key's row)


def row_id(source: str, line: bytes) -> str:
    """A row's id: the hash of its source's name and of its record's line, as the source file holds it.

    Every source is a file of JSON lines, and a row is made from one line: the same line makes the
    same row, and a line rewritten in any way is a new row. The bytes are hashed as they are, so the
    writer (which has just encoded them) and a sync (which has just read them) make the same id.
    """
    digest = _source_digest(source).copy()
    digest.update(line)
    return digest.hexdigest()


@lru_cache(maxsize=16)
def _source_digest(source: str) -> Any:
    """The hash of a source's name and the newline after it, for each of its rows' ids to go on from."""
    return hashlib.sha1(source.encode("utf-8") + b"\n")



_ROWS_AT_ONCE = 2_000  # rows a sync reads from a file before it indexes them


# what the trigram table indexes of a document: its CJK runs, each non-CJK stretch between them one CJK_JOIN
_NOT_CJK = re.compile(f"[^{CJK_CLASS[1:-1]}]+")


def cjk_runs(text: str) -> str:
    """The CJK runs of ``text`` in order, joined by ``CJK_JOIN`` ("" when it holds none).

    Replacing what lies between the runs takes a third of the work of collecting the runs
    themselves: Japanese and Chinese prose breaks into a run at every punctuation mark.
    """
    return _NOT_CJK.sub(CJK_JOIN, text).strip(CJK_JOIN)


def read_rows(handle: Any, source: Any, start: int,
              known: Mapping[int, dict[str, Any]] | None = None) -> Iterator[tuple[list[tuple[int, Row]], list[str], int]]:
    """Each complete line's row and the byte offset it starts at, with their ids, ``_ROWS_AT_ONCE`` rows at a time,
    and where reading stopped after each batch (at the end: before a line still being written). ``known``: the
    record of each line starting at an offset, parsed already from the very bytes read here."""
    rows: list[tuple[int, Row]] = []
    ids: list[str] = []
    offset = start
    make_row, name = source.make_row, source.name
    for raw in handle:
        if not raw.endswith(b"\n"):
            break  # a record still being written is read by the next sync
        at = offset
        offset += len(raw)
        record = known.get(at) if known is not None else None
        row = made(raw, make_row) if record is None else make_row(record)
        if row is not None:
            rows.append((at, row))
            ids.append(row_id(name, raw))
            if len(rows) >= _ROWS_AT_ONCE:
                yield rows, ids, offset
                rows, ids = [], []
    yield rows, ids, offset


# A row as the docs table takes it, its place still (session, transcript) or None, and its claim key's
# (key, text, date, redacted, identifier words) or None: worked out without the database, so in a worker too.
Prepared = tuple[tuple[Any, ...], "tuple[str, str, str, int, str] | None"]


def prepare(source_name: str, rows: list[tuple[int, Row]], ids: list[str], fallback_date: str) -> list[Prepared]:
    """These rows (with their ids) as the docs table and the claim keys' upsert take them."""
    out: list[Prepared] = []
    for (at, r), rid in zip(rows, ids):
        date = r.date or fallback_date
        stamp = str(r.meta.get("timestamp", ""))
        line = r.meta.get("line")
        cjk = "" if r.text.isascii() else cjk_runs(r.text)  # CJK is never ASCII
        extra = " ".join(identifier_words(r.text))
        out.append(((
            rid, source_name, r.kind, r.ref, date, r.text, at,
            (str(r.meta.get("session", "")), str(r.meta.get("transcript", ""))) if "session" in r.meta else None,
            line if isinstance(line, int) and not isinstance(line, bool) and -_INT64 <= line < _INT64 else None,
            None if stamp == date else stamp,
            r.claim, str(r.meta.get("session") or "") if r.claim else "", extra,
            cjk, max(len(r.text) - 2, 0) if cjk else None,
        ), (r.claim, r.text, date, 1 if r.meta.get("redacted") else 0, extra) if r.claim else None))
    return out


# A file read whole from this size on has its rows made in forked worker processes, the database written here:
# making rows (JSON, claim keys, identifier words, prompt terms) is two thirds of filling an index.
FORK_BYTES = 16 << 20
_SLICE_BYTES = 4 << 20
_SLICING: tuple[Any, str] | None = None  # the source and fallback date forked workers read


def fork_workers(size: int) -> int:
    """Worker processes to make the rows of ``size`` bytes of a file with (``pool.fork_workers`` from ``FORK_BYTES``)."""
    return pool.fork_workers(size, FORK_BYTES)


def rows_here(handle: Any, source: Any, start: int, date: str,
              known: Mapping[int, dict[str, Any]] | None = None) -> Iterator[tuple[list[Prepared], int, None]]:
    """``rows_in_workers``' batches made in this process, from ``handle`` at ``start`` (``known``: as ``read_rows``)."""
    for rows, ids, offset in read_rows(handle, source, start, known):
        yield prepare(source.name, rows, ids, date), offset, None


def rows_until_workers(handle: Any, source: Any, start: int, size: int, date: str,
                       known: Mapping[int, dict[str, Any]] | None = None) -> Iterator[tuple[list[Prepared], int, Any]]:
    """``rows_here``, until workers may be forked for what is left of a file read whole (the other process of a
    ``pool.beside`` pair is done, its cores free): the rest made by ``rows_in_workers``."""
    for prepared, offset, terms in rows_here(handle, source, start, date, known):
        yield prepared, offset, terms
        workers = fork_workers(size - offset)
        if workers > 1:
            yield from rows_in_workers(source, offset, size, date, workers)
            return


def rows_in_workers(source: Any, start: int, size: int, date: str,
                     workers: int) -> Iterator[tuple[list[Prepared], int, dict[str, tuple[str, str]]]]:
    """``read_rows`` of the file's whole lines from ``start``, made a slice at a time by forked workers, in file
    order: each slice's rows, where it ends, and the prompt terms of each claim key's first atom in it."""
    import collections
    import multiprocessing

    global _SLICING
    with open(source.path, "rb") as handle:
        end = _whole_lines_end(handle, start, size)
        cuts = [start]
        while cuts[-1] + _SLICE_BYTES < end:
            handle.seek(cuts[-1] + _SLICE_BYTES)
            handle.readline()
            cuts.append(min(handle.tell(), end))
        cuts.append(end)
    _SLICING = (source, date)  # set before the workers fork: they read it, nothing of it is pickled
    try:
        try:
            pool = multiprocessing.get_context("fork").Pool(workers)
        except OSError:  # no fork to be had (EAGAIN, ENOMEM): the rows are made here, as a small file's are
            with open(source.path, "rb") as handle:
                handle.seek(start)
                yield from rows_here(handle, source, start, date)
            return
        with pool:
            pending: Any = collections.deque()
            for a, b in zip(cuts, cuts[1:]):
                if a < b:
                    pending.append(pool.apply_async(_slice_rows, ((a, b),)))
                if len(pending) > 2 * workers:  # a few slices ahead of the writer, never the whole file
                    yield _slice_done(pending.popleft())
            while pending:
                yield _slice_done(pending.popleft())
    finally:
        _SLICING = None


SLICE_SECONDS = 300.0  # a slice takes well under a second; one killed (out of memory) would be waited for for ever


def _slice_done(pending: Any) -> Any:
    """A slice's rows from its worker; a slice not done in ``SLICE_SECONDS`` is a file that cannot be read now
    (``OSError``: what is indexed stays, the file is read again next time) rather than a writer waiting for ever."""
    import multiprocessing

    try:
        return pending.get(timeout=SLICE_SECONDS)
    except multiprocessing.TimeoutError:
        raise OSError("the index's workers did not finish a slice; the file is read again next time") from None


def _whole_lines_end(handle: Any, start: int, size: int) -> int:
    """Where the file's last whole line from ``start`` ends (``start`` when none does): a torn last line waits."""
    back = size
    while back > start:
        handle.seek(max(start, back - 65536))
        piece = handle.read(back - handle.tell())
        if b"\n" in piece:
            return back - len(piece) + piece.rfind(b"\n") + 1
        back -= len(piece)
    return start


def _slice_rows(bounds: tuple[int, int]) -> tuple[list[Prepared], int, dict[str, tuple[str, str]]]:
    """In a forked worker: the rows of the whole lines in bytes ``bounds`` of the source's file (``read_rows``'s)."""
    assert _SLICING is not None
    source, date = _SLICING
    start, end = bounds
    with open(source.path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    rows: list[tuple[int, Row]] = []
    ids: list[str] = []
    make_row, name = source.make_row, source.name
    at = 0
    while at < len(data):
        cut = data.find(b"\n", at) + 1 or len(data)  # each slice ends a line: only a file rewritten meanwhile not
        raw = data[at:cut]
        row = made(raw, make_row)
        if row is not None:
            rows.append((start + at, row))
            ids.append(row_id(name, raw))
        at = cut
    found = prepare(name, rows, ids, date)
    terms: dict[str, tuple[str, str]] = {}
    for _values, key in found:
        if key is not None and key[0] not in terms:
            terms[key[0]] = (key[1], " ".join(prompt_terms(key[1])))
    return found, end, terms


def made(raw: bytes, make_row: RowMaker) -> Row | None:
    """The row one line of a source file makes (None: not a record, or not indexed)."""
    try:
        record = fastjson.loads(raw)  # (json.loads' own parser, without its wrapping: a row at a time)
    except fastjson.JSON_ERRORS:
        return None
    return make_row(record) if isinstance(record, dict) else None


