"""Bringing the index up to date with the store's files: the rebuildable shadow.

Rows are keyed by the hash of their line; each source file is re-read only when its size, mtime or
inode changed (an append-only log only from where the last sync stopped, while its head is
unchanged), and rows whose source vanished go by set difference. A corrupt file or one of
another schema version is rebuilt from the sources.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from ..text import prompt_terms
from .prompt import signature
from .rows import (Prepared, Row, RowMaker, cjk_runs, fork_workers, made, prepare, row_id, rows_here, rows_in_workers,
                   rows_until_workers)
from .schema import DDL, DOCS_FILL, DOCS_INDEXES, KEY_UPSERT, KEYS_FILL, SCHEMA_VERSION, drop_all
from .search import Found, Searcher

__all__ = ["Appended", "Index", "Row", "RowMaker", "Source", "cjk_runs", "row_id"]


@dataclass(frozen=True)
class Appended:
    """Records a writer has just appended to a source's file, as ``store.append_lines`` wrote them.

    ``before`` is the file's signature just before the append and ``start`` the byte offset of
    the first line: the index takes the records as they are only if it had read the file to there.
    ``lines`` are the bytes ``append_lines`` wrote.
    """

    source: str
    before: str | None
    start: int
    records: list[dict[str, Any]]
    lines: list[bytes]


@dataclass(frozen=True)
class Source:
    """A file that feeds the index; ``append_only`` lets a sync read just the new tail."""

    name: str  # stable key in the index (e.g. "atoms", "L2")
    path: Path
    make_row: RowMaker
    append_only: bool = False
    # the file's first bytes as the caller has just read them, and the record each of those lines makes by where
    # it starts: a read of the whole file that finds it begins with those bytes takes them, not parses them again
    parsed: tuple[bytes, Mapping[int, dict[str, Any]]] | None = None


_HEAD_BYTES = 4096
_DOCS_INSERT = ("INSERT INTO docs(id, source, kind, ref, date, text, at, place, line, stamp, claim, session, extra, cjk, "
                "span) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
_BATCH = 500  # values bound to one statement (under every SQLite's limit)
PAGE_SIZE = 8192
_REBUILD_CACHE_KIB = 32 * 1024  # page cache while a whole file is read (SQLite's default is 2 MB)


class Index(Searcher):
    """One SQLite database shadowing the given sources."""

    def __init__(self, path: Path | str, sources: Iterable[Source], derived: str = "") -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        self.sources = {s.name: s for s in sources}
        # the version of the code that derives row fields (claim keys): an index made by other code is rebuilt,
        # so a contested key or a claim's other wordings are never looked up under keys no longer made
        self.derived = derived
        self.con = self._open(str(path))
        self._places: dict[tuple[str, str], int] | None = None  # (session, transcript) → places.rowid, once read
        self._filling: dict[str, int] | None = None  # while a new file is filled without its id index: id → rowid

    # -- opening, with a corrupt file rebuilt from its sources
    def _open(self, target: str) -> sqlite3.Connection:
        try:
            return self._connect(target)
        except sqlite3.DatabaseError:
            if self.path is None:
                raise
            self._discard_files()
            return self._connect(target)

    def _connect(self, target: str) -> sqlite3.Connection:
        con = sqlite3.connect(target, timeout=30.0, isolation_level=None, check_same_thread=False)
        try:
            con.execute("PRAGMA busy_timeout=30000")
            # a new file only: rows of a few kB (chunks) waste less of an 8 kB page than of a 4 kB one
            con.execute(f"PRAGMA page_size={PAGE_SIZE}")
            if target != ":memory:":
                with contextlib.suppress(sqlite3.OperationalError):
                    con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")
            version = derived = None
            with contextlib.suppress(sqlite3.OperationalError):
                found = con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = found[0] if found else None
                made_by = con.execute("SELECT value FROM meta WHERE key='derived'").fetchone()
                derived = made_by[0] if made_by else ""
            if version == SCHEMA_VERSION and self.derived and derived != self.derived and self.path is not None:
                version = "derived by other code"  # rebuilt below, as an index of an older schema
            if version is not None and version != SCHEMA_VERSION and self.path is not None:
                # an index of older code: a new file, not new tables in the old one (whose free pages would
                # keep its size, its page size and the text it held)
                con.close()
                self._discard_files()
                return self._connect(target)
            if version != SCHEMA_VERSION:
                con.executescript(drop_all())
                con.executescript(DDL)
                con.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
                con.execute("INSERT OR REPLACE INTO meta VALUES ('derived', ?)", (self.derived,))
            con.execute("SELECT count(*) FROM sources").fetchone()
        except sqlite3.DatabaseError:
            con.close()
            raise
        return con

    def _discard_files(self) -> None:
        from ..store import remove_database

        assert self.path is not None
        remove_database(self.path)

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.con.close()

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- keeping up with the sources
    def sync(self) -> dict[str, int]:
        """Bring the index up to date with its sources; cheap when nothing changed."""
        counts = {"added": 0, "removed": 0}
        known = {name: (sig, offset, head) for name, _p, sig, offset, head in self.con.execute("SELECT * FROM sources")}
        for stale in set(known) - set(self.sources):
            counts["removed"] += self._drop_source(stale)
        if self._fill_new(known, counts):
            return counts
        for source in self.sources.values():
            added, removed = self._sync_source(source, known.get(source.name))
            counts["added"] += added
            counts["removed"] += removed
        return counts

    def rebuild(self) -> dict[str, int]:
        """Forget what was synced and re-read every source; unchanged rows stay (same hash)."""
        self.con.execute("DELETE FROM sources")
        return self.sync()

    def _fill_new(self, known: dict[str, tuple[str, int, str]], counts: dict[str, int]) -> bool:
        """Fill an index that holds no row yet from every source, in one transaction; False when it holds rows.

        The docs table's own indexes are made once at the end, from every row, rather than kept in
        order row by row; nothing of a source can be stale in a table that held none of it.
        """
        if not any(_signature(s.path) != (known.get(s.name) or (None,))[0] for s in self.sources.values()):
            return False  # nothing to read: the cheap path, no lock
        if self.con.execute("SELECT 1 FROM docs LIMIT 1").fetchone() is not None:
            return False
        with self._write():
            if self.con.execute("SELECT 1 FROM docs LIMIT 1").fetchone() is not None:
                return False  # another writer filled it meanwhile: the usual sync, source by source
            for name, _create in DOCS_INDEXES:
                self.con.execute(f"DROP INDEX IF EXISTS {name}")
            self._filling = {}
            try:
                for source in self.sources.values():
                    added, removed = self._catch_up(source, new=True)
                    counts["added"] += added
                    counts["removed"] += removed
            finally:
                self._filling = None
            for _name, create in DOCS_INDEXES:
                self.con.execute(create)
        return True

    def _drop_source(self, name: str) -> int:
        with self._write():
            removed = self.con.execute("DELETE FROM docs WHERE source=?", (name,)).rowcount
            self.con.execute("DELETE FROM sources WHERE name=?", (name,))
        return removed

    def _sync_source(self, source: Source, known: tuple[str, int, str] | None) -> tuple[int, int]:
        sig = _signature(source.path)
        if known and known[0] == sig:
            return 0, 0  # the cheap path: one stat, no lock
        if sig is None and not known:
            return 0, 0
        # Read the source inside the write transaction: a view read before taking the lock could be
        # older than what another process committed meanwhile, and would delete its rows.
        with self._write():
            return self._catch_up(source)

    def _known(self, name: str) -> tuple[str, int, str] | None:
        """What the index recorded of a source's file: signature, offset read to, hash of its head."""
        found = self.con.execute("SELECT sig, offset, head FROM sources WHERE name=?", (name,)).fetchone()
        return (found[0], found[1], found[2]) if found else None

    def _catch_up(self, source: Source, new: bool = False) -> tuple[int, int]:
        """Read what changed in one source's file (inside a write transaction); rows added and removed.

        ``new``: the docs table held no row when this transaction began (nothing of the source is stale).
        """
        known = self._known(source.name)
        sig = _signature(source.path)
        if sig is None:
            # missing, or unusable (a file where a folder should be, no permission): its rows go
            removed = self.con.execute("DELETE FROM docs WHERE source=?", (source.name,)).rowcount if known else 0
            self.con.execute("DELETE FROM sources WHERE name=?", (source.name,))
            return 0, max(removed, 0)
        if known and known[0] == sig:
            return 0, 0
        with _reading_whole(self.con, source.append_only and known is not None and known[1] > 0):
            return self._read_source(source, known, sig, new)

    def _read_source(self, source: Source, known: tuple[str, int, str] | None, sig: str,
                     new: bool = False) -> tuple[int, int]:
        added, keep = 0, set()
        # a batch at a time: a rebuild of a large store holds a few thousand rows, never every one; the words
        # of a file read whole are indexed once at its end (one FTS5 pass over them, not a segment per batch)
        first, whole = self.con.execute("SELECT coalesce(max(rowid), 0) FROM docs").fetchone()[0], True
        try:
            with open(source.path, "rb") as handle:
                size = handle.seek(0, os.SEEK_END)
                prior_offset = known[1] if known else 0
                grew = (
                    source.append_only
                    and known is not None
                    and 0 < prior_offset <= size
                    and known[2] == _head_of(handle, prior_offset)
                )
                offset = prior_offset if grew else 0  # only the new tail of an append-only file that grew
                handle.seek(offset)
                date, whole = _mtime_iso(source.path), not grew
                workers = fork_workers(size - offset) if whole else 1
                known = _parsed(handle, source, offset)
                batches = (rows_in_workers(source, offset, size, date, workers) if workers > 1 else
                           rows_until_workers(handle, source, offset, size, date, known) if whole else
                           rows_here(handle, source, offset, date, known))
                for prepared, offset, terms in batches:
                    added += self._insert(source.name, prepared, words=not whole, terms=terms)
                    if whole and not new:
                        keep.update(values[0] for values, _key in prepared)
                head = _head_of(handle, offset)
        except OSError:
            self._index_words(first if whole and added else None)
            return added, 0  # unreadable right now: keep what is indexed, read it again next time
        self._index_words(first if whole and added else None)
        removed = 0
        if whole and not new:
            stale = [
                (rid,)
                for (rid,) in self.con.execute("SELECT id FROM docs WHERE source=?", (source.name,))
                if rid not in keep
            ]
            self.con.executemany("DELETE FROM docs WHERE id=?", stale)
            removed = len(stale)
        self.con.execute(
            "INSERT OR REPLACE INTO sources VALUES (?,?,?,?,?)", (source.name, str(source.path), sig, offset, head)
        )
        return added, removed

    def _index_words(self, after: int | None) -> None:
        """Index the words of every docs row after rowid ``after`` (None: none waits), one statement per FTS table."""
        for statement in DOCS_FILL if after is not None else ():
            self.con.execute(statement, (after,))

    def signature_of(self, name: str) -> str | None:
        """The signature of a source's file now, as the index records it (taken by a writer before it appends)."""
        return _signature(self.sources[name].path)

    def take_appended(self, parts: Iterable[Appended]) -> dict[str, int]:
        """Index what a writer has just appended, from its records, without reading the file back.

        That is the sync's own result only while the index had read the file exactly to where the
        append started, and the file now ends where the lines do; otherwise the file is read as
        ``sync`` reads it. One transaction for every part.
        """
        counts = {"added": 0, "removed": 0}
        with self._write():
            for part in parts:
                source = self.sources.get(part.source)
                if source is None:
                    continue
                added, removed = self._take(source, part)
                counts["added"] += added
                counts["removed"] += removed
        return counts

    def _take(self, source: Source, part: Appended) -> tuple[int, int]:
        """One source's appended records as rows (inside the write transaction); rows added and removed."""
        known = self._known(source.name)
        sig = _signature(source.path)
        read_to = (known[0], known[1]) if known else (None, 0)
        data = part.lines  # the bytes append_lines wrote
        end = part.start + sum(map(len, data))
        ends_there = sig is not None and sig.startswith(f"{end}:")  # the signature is "size:mtime:inode"
        if not source.append_only or read_to != (part.before, part.start) or not ends_there:
            return self._catch_up(source)
        rows: list[tuple[int, Row]] = []
        ids: list[str] = []
        at = part.start
        make_row, name = source.make_row, source.name
        for record, line in zip(part.records, data):
            row = make_row(record)
            if row is not None:
                rows.append((at, row))
                ids.append(row_id(name, line))
            at += len(line)
        added = self._insert(source.name, prepare(source.name, rows, ids, _mtime_iso(source.path)))
        if known and known[1] >= _HEAD_BYTES:
            head = known[2]  # the first bytes are where they were
        else:
            try:
                with open(source.path, "rb") as handle:
                    head = _head_of(handle, end)
            except OSError:
                head = ""  # the next sync finds the head changed and reads the file whole
        self.con.execute(
            "INSERT OR REPLACE INTO sources VALUES (?,?,?,?,?)", (source.name, str(source.path), sig, end, head)
        )
        return added, 0

    def _insert(self, source_name: str, prepared: list[Prepared], words: bool = True,
                terms: dict[str, tuple[str, str]] | None = None) -> int:
        """Add the rows not yet indexed, then their words (one statement per FTS table; not ``words``: the caller
        indexes them, before its transaction ends) and claim keys (``terms``: prompt terms already worked out,
        by claim key, with the text they are of).

        A row already indexed only learns where its record is now (a rewritten file moves it).
        """
        if not prepared:
            return 0
        last = self.con.execute("SELECT coalesce(max(rowid), 0) FROM docs").fetchone()[0]
        place = self._place
        rows = [values if values[7] is None else (*values[:7], place(values[7]), *values[8:]) for values, _key in prepared]
        if self._filling is None:
            self.con.executemany(_DOCS_INSERT + " ON CONFLICT(id) DO UPDATE SET at = excluded.at WHERE at != excluded.at",
                                 rows)
            new = {rid for (rid,) in self.con.execute("SELECT id FROM docs WHERE rowid > ?", (last,))}
        else:
            new = self._fill_rows(rows, last)
        if new:
            # a new row's rowid is above every rowid the table held (INTEGER PRIMARY KEY, no row at the maximum)
            self._index_words(last if words else None)
            # a new key's rowid is above every rowid the keys table holds, as a new row's is in docs
            last_key = self.con.execute("SELECT coalesce(max(rowid), 0) FROM keys").fetchone()[0]
            self.con.executemany(KEY_UPSERT, self._key_rows(
                [key for values, key in prepared if key is not None and values[0] in new], terms or {}))
            for statement in KEYS_FILL:
                self.con.execute(statement, (last_key,))
        return len(new)

    def _fill_rows(self, rows: list[tuple[Any, ...]], last: int) -> set[str]:
        """Add docs rows to a file being filled without its id index, as the insert's upsert would: a row whose id is
        there already (a line written twice) only learns where its line is now. The ids of the rows added."""
        filled = self._filling
        assert filled is not None
        fresh: list[tuple[Any, ...]] = []
        again: list[tuple[Any, ...]] = []
        for values in rows:
            if values[0] in filled:
                again.append(values)
            else:
                filled[values[0]] = 0  # (its rowid is read back below)
                fresh.append(values)
        self.con.executemany(_DOCS_INSERT, fresh)
        new = set()
        for rowid, rid in self.con.execute("SELECT rowid, id FROM docs WHERE rowid > ?", (last,)):
            filled[rid] = rowid
            new.add(rid)
        self.con.executemany("UPDATE docs SET at = ? WHERE rowid = ? AND at != ?",
                             [(values[6], filled[values[0]], values[6]) for values in again])
        return new

    def _key_rows(self, keys: list[tuple[str, str, str, int, str]],
                  terms: dict[str, tuple[str, str]]) -> list[tuple[object, ...]]:
        """``KEY_UPSERT``'s rows for these new atoms (in file order): one per claim key, in the order the keys first
        appear, as the atoms' upserts one by one would leave it; the prompt terms worked out only where it makes a key.

        The first atom of a claim key makes its row, with its wording and terms; a later one only raises
        the row's date and redaction, so its terms (~90 µs of an atom's indexing) are not made at all.
        """
        rows: dict[str, list[Any]] = {}
        for claim, text, date, redacted, extra in keys:
            row = rows.get(claim)
            if row is None:
                rows[claim] = [claim, text, "", date, redacted, extra]
            else:  # SQLite's max() of two texts is Python's: UTF-8 bytes sort as code points do
                row[3], row[4] = max(row[3], date), max(row[4], redacted)
        claims = list(rows)
        have: set[str] = set()
        for start in range(0, len(claims), _BATCH):
            part = claims[start:start + _BATCH]
            have.update(key for (key,) in self.con.execute(
                f"SELECT key FROM keys WHERE key IN ({','.join('?' * len(part))})", part))
        for claim, row in rows.items():
            if claim not in have:
                known = terms.get(claim)
                row[2] = known[1] if known is not None and known[0] == row[1] else " ".join(prompt_terms(row[1]))
        return [tuple(row) for row in rows.values()]

    def _place(self, key: tuple[str, str]) -> int:
        """The ``places`` row of a record's (session, transcript), made on first use."""
        if self._places is None:
            self._places = {(s, t): rowid for rowid, s, t in
                            self.con.execute("SELECT rowid, session, transcript FROM places")}
        found = self._places.get(key)
        if found is None:
            self.con.execute("INSERT OR IGNORE INTO places(session, transcript) VALUES (?, ?)", key)
            found = self._places[key] = int(self.con.execute(
                "SELECT rowid FROM places WHERE session = ? AND transcript = ?", key).fetchone()[0])
        return found

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        self.con.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.con.execute("ROLLBACK")
            self._places = None  # it may name rows the rollback took back
            raise
        self.con.execute("COMMIT")

    def set_contested(self, keys: Iterable[str], signature: str | None) -> None:
        """Copy the claim keys of ``L1/contested.json`` (whose signature is given) for the prompt hook.

        The hook trusts the table only while the file still has that signature; otherwise it
        reads the file itself, so a stale or emptied table can never hide a contradiction.
        """
        with self._write():
            self.con.execute("DELETE FROM contested")
            self.con.executemany("INSERT OR IGNORE INTO contested VALUES (?)", ((k,) for k in keys))
            self.con.execute("INSERT OR REPLACE INTO meta VALUES ('contested', ?)", (signature or "",))

    def set_claims(self, claim_of: dict[str, str]) -> None:
        """Which claim keys are wordings of one claim (key → claim id, for claims of more than one key), so the
        prompt hook shows a rule once however many ways it was said. Made by ``promote --write``; a key it does
        not name is a claim of its own."""
        with self._write():
            self.con.execute("CREATE TABLE IF NOT EXISTS claim_of(key TEXT PRIMARY KEY, claim TEXT NOT NULL) WITHOUT ROWID")
            have = dict(self.con.execute("SELECT key, claim FROM claim_of").fetchall())
            if have != claim_of:
                self.con.execute("DELETE FROM claim_of")
                self.con.executemany("INSERT INTO claim_of VALUES (?, ?)", sorted(claim_of.items()))

    def contested_signature(self) -> str:
        found = self.con.execute("SELECT value FROM meta WHERE key='contested'").fetchone()
        return str(found[0]) if found else ""

    # -- reading
    def count(self, kind: str | None = None) -> int:
        if kind:
            return int(self.con.execute("SELECT count(*) FROM docs WHERE kind=?", (kind,)).fetchone()[0])
        return int(self.con.execute("SELECT count(*) FROM docs").fetchone()[0])

    def indexed(self, kind: str, refs: Iterable[str]) -> set[str]:
        """Which of these record ids have a row of this kind (a few statements, not one per id)."""
        ids = list(refs)
        found: set[str] = set()
        if ids and self.con.execute("SELECT 1 FROM docs LIMIT 1").fetchone() is None:
            return found  # a new index: no statement made for each batch of ids
        for start in range(0, len(ids), _BATCH):
            part = ids[start:start + _BATCH]
            found.update(ref for (ref,) in self.con.execute(
                f"SELECT ref FROM docs WHERE kind = ? AND ref IN ({','.join('?' * len(part))})", (kind, *part)))
        return found

    def rows_of(self, kind: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every ``(ref, text, meta)`` of one kind, for candidate lookups (``meta`` read from the sources)."""
        found = [Found(*row) for row in self.con.execute(f"SELECT {Found.COLUMNS} FROM docs d LEFT JOIN places p "
                                                          "ON p.rowid = d.place WHERE d.kind = ?", (kind,))]
        metas = self.metas(found)
        for row, meta in zip(found, metas):
            yield row.ref, row.text, meta

    def metas(self, found: list[Found]) -> list[dict[str, Any]]:
        """Each row's full ``meta``, made again from its record in the source file (read at its offset).

        A record that is no longer where the row says (its file rewritten since the last sync) is
        looked for by its id; one gone altogether keeps the fields the row itself holds.
        """
        out: list[dict[str, Any]] = []
        handles: dict[str, Any] = {}
        try:
            for row in found:
                source = self.sources.get(row.source)
                meta = None
                if source is not None:
                    meta = _recorded(handles, source, row)
                out.append(meta if meta is not None else row.fallback_meta())
        finally:
            for handle in handles.values():
                handle.close()
        return out


@contextlib.contextmanager
def _reading_whole(con: sqlite3.Connection, tail_only: bool) -> Iterator[None]:
    """A read that may be a whole store (a rebuild) keeps the pages it writes in memory and pauses the collector.

    Left at SQLite's 2 MB, the page cache spilled the docs table's b-trees (their ids are hashes, so
    every batch lands all over them) to the WAL and read them back throughout a rebuild; the cyclic
    collector rescanned every row object made meanwhile (they hold no cycles; reference counting frees
    them). An append-only file read from where the last sync stopped keeps the defaults.
    """
    if tail_only:
        yield
        return
    was, before = gc.isenabled(), con.execute("PRAGMA cache_size").fetchone()[0]
    con.execute(f"PRAGMA cache_size=-{_REBUILD_CACHE_KIB}")
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        con.execute(f"PRAGMA cache_size={int(before)}")


def _recorded(handles: dict[str, Any], source: Source, row: Found) -> dict[str, Any] | None:
    """``row``'s meta from ``source``'s file: the line at its offset, else any line holding its record id."""
    try:
        handle = handles.get(source.name)
        if handle is None:
            handle = handles[source.name] = open(source.path, "rb")
        handle.seek(row.at)
        line = handle.readline()
        if row_id(source.name, line) != row.id:
            needle = row.ref.encode("utf-8")
            handle.seek(0)
            line = next((raw for raw in handle if needle in raw and row_id(source.name, raw) == row.id), b"")
        found = made(line, source.make_row) if line else None
        if found is not None:
            return _in_order(found.meta)
    except OSError:
        pass
    return None


def _in_order(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` with its keys sorted, as a hit has always carried it (the index once stored it so)."""
    return dict(sorted(meta.items()))


def _parsed(handle: Any, source: Source, offset: int) -> Mapping[int, dict[str, Any]] | None:
    """The records ``source`` holds parsed already, where a read from ``offset`` (the start) finds the file beginning
    with the bytes they were parsed from; the handle is left where it was."""
    if source.parsed is None or offset != 0:
        return None
    data, records = source.parsed
    same = handle.read(len(data)) == data
    handle.seek(offset)
    return records if same else None


def _head_of(handle: Any, upto: int) -> str:
    handle.seek(0)
    return hashlib.sha1(handle.read(min(upto, _HEAD_BYTES))).hexdigest()


def _signature(path: Path) -> str | None:
    """Size, mtime and inode of a source file; None when it is missing or cannot be used."""
    return signature(str(path))


def _mtime_iso(path: Path) -> str:
    from datetime import datetime, timezone

    try:
        mtime = path.stat().st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
