"""The shared SQLite FTS5 index: a rebuildable shadow of the store's files.

Two FTS5 tables over one ``docs`` table: ``porter unicode61`` for words (bm25 ranked)
and ``trigram`` for CJK substrings. Rows are keyed by content hash; each source file
is re-read only when its size or mtime changed (append-only logs only from where the
last sync stopped), and rows whose source vanished go by set difference.
Only the standard library is imported: hooks search through this module.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .model import SqliteTooOld

SCHEMA_VERSION = "1"

# A source file and how one of its records becomes an index row (None: not indexed).
RowMaker = Callable[[dict[str, Any]], "Row | None"]


@dataclass(frozen=True)
class Row:
    """One searchable document: an atom, a past-session chunk, or an adopted claim."""

    kind: str  # atom | chunk | claim
    ref: str  # the record's own id
    text: str
    date: str  # ISO timestamp from the record ("" → the source file's mtime is used)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def row_id(self) -> str:
        body = json.dumps([self.kind, self.ref, self.text, self.date, self.meta], sort_keys=True, ensure_ascii=False)
        return hashlib.sha1(body.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Source:
    """A file that feeds the index; ``append_only`` lets a sync read just the new tail."""

    name: str  # stable key in the index (e.g. "atoms", "L2")
    path: Path
    make_row: RowMaker
    append_only: bool = False


@dataclass(frozen=True)
class Hit:
    """A search result with where it came from and when."""

    text: str
    score: float
    kind: str
    ref: str
    date: str
    meta: dict[str, Any]
    source_name: str

    def source(self) -> dict[str, Any]:
        """The hit's provenance in the INTERFACE ``S`` shape."""
        return {
            "session": self.meta.get("session", ""),
            "transcript": self.meta.get("transcript", ""),
            "line": self.meta.get("line", 0),
            "timestamp": self.meta.get("timestamp", "") or self.date,
            "quote": self.meta.get("quote", ""),
        }


def check_sqlite() -> None:
    """Raise SqliteTooOld unless this SQLite has FTS5 with the trigram tokenizer."""
    if sqlite3.sqlite_version_info < (3, 34, 0):
        raise SqliteTooOld(
            f"SQLite {sqlite3.sqlite_version} is too old: FTS5's trigram tokenizer needs 3.34+; "
            "use a Python built against a newer SQLite (e.g. python.org or a current distribution build)"
        )
    try:
        con = sqlite3.connect(":memory:")
        con.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
        con.close()
    except sqlite3.Error as exc:
        raise SqliteTooOld(f"this SQLite ({sqlite3.sqlite_version}) lacks FTS5 with trigram: {exc}") from exc


_DDL = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(
    name TEXT PRIMARY KEY, path TEXT NOT NULL, sig TEXT NOT NULL,
    offset INTEGER NOT NULL DEFAULT 0, head TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
    kind TEXT NOT NULL, ref TEXT NOT NULL, date TEXT NOT NULL, text TEXT NOT NULL, meta TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS docs_source ON docs(source);
CREATE INDEX IF NOT EXISTS docs_ref ON docs(ref);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_words USING fts5(
    text, content='docs', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS docs_tri USING fts5(
    text, content='docs', content_rowid='rowid', tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS docs_ai AFTER INSERT ON docs BEGIN
    INSERT INTO docs_words(rowid, text) VALUES (new.rowid, new.text);
    INSERT INTO docs_tri(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO docs_words(docs_words, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO docs_tri(docs_tri, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
"""

_HEAD_BYTES = 4096

# ---------------------------------------------------------------- query planning

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul
    "\uff66-\uff9f"  # half-width katakana
)
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[^\W{_CJK}_]+|\d+", re.UNICODE)

STOP_WORDS = frozenset(
    """a an and are as at be but by did do does for from had has have how i if in into is it its
    me my of on or our so than that the their them then there these they this to was we were what
    when where which who whom why will with you your he she his her him""".split()
)
# Japanese particles and copulas that carry no search meaning on their own
JA_STOP = frozenset("は が を に で と の も へ や か から まで より です ます した する して だ な ね よ".split())


@dataclass(frozen=True)
class QueryPlan:
    """How one query string is searched: words, long CJK runs, short CJK runs."""

    words: tuple[str, ...]
    cjk_long: tuple[str, ...]
    cjk_short: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return not (self.words or self.cjk_long or self.cjk_short)

    @property
    def terms(self) -> tuple[str, ...]:
        return self.words + self.cjk_long + self.cjk_short


def plan_query(query: str) -> QueryPlan:
    """Split a query into routed terms; user text never reaches FTS5 syntax raw."""
    lowered = query.lower()
    words: list[str] = []
    for token in _WORD.findall(_CJK_RUN.sub(" ", lowered)):
        if token not in STOP_WORDS and token not in words:
            words.append(token)
    if not words:  # a query of stop words only still means something
        words = list(dict.fromkeys(_WORD.findall(_CJK_RUN.sub(" ", lowered))))
    long_runs: list[str] = []
    short_runs: list[str] = []
    for run in _CJK_RUN.findall(query):
        for piece in _split_cjk(run):
            target = long_runs if len(piece) >= 3 else short_runs
            if piece not in target:
                target.append(piece)
    return QueryPlan(tuple(words), tuple(long_runs), tuple(short_runs))


def _split_cjk(run: str) -> list[str]:
    # particles split a Japanese phrase into content pieces ("設定ファイルを読む" → 設定ファイル, 読む)
    pieces = re.split("[はがをにでとのもへやか]", run) if len(run) > 3 else [run]
    return [p for p in pieces if p and p not in JA_STOP] or [run]


def _fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


# ---------------------------------------------------------------- the index


class Index:
    """One SQLite database shadowing the given sources."""

    def __init__(self, path: Path | str, sources: Iterable[Source]) -> None:
        self.path = Path(path) if str(path) != ":memory:" else None
        self.sources = {s.name: s for s in sources}
        self.con = self._open(str(path))

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
            if target != ":memory:":
                with contextlib.suppress(sqlite3.OperationalError):
                    con.execute("PRAGMA journal_mode=WAL")
            con.execute("PRAGMA synchronous=NORMAL")
            version = None
            with contextlib.suppress(sqlite3.OperationalError):
                found = con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                version = found[0] if found else None
            if version != SCHEMA_VERSION:
                con.executescript(
                    "DROP TABLE IF EXISTS docs_words; DROP TABLE IF EXISTS docs_tri;"
                    "DROP TABLE IF EXISTS docs; DROP TABLE IF EXISTS sources; DROP TABLE IF EXISTS meta;"
                )
                con.executescript(_DDL)
                con.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            con.execute("SELECT count(*) FROM sources").fetchone()
        except sqlite3.DatabaseError:
            con.close()
            raise
        return con

    def _discard_files(self) -> None:
        assert self.path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(str(self.path) + suffix)

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
        for source in self.sources.values():
            added, removed = self._sync_source(source, known.get(source.name))
            counts["added"] += added
            counts["removed"] += removed
        return counts

    def rebuild(self) -> dict[str, int]:
        """Forget what was synced and re-read every source; unchanged rows stay (same hash)."""
        self.con.execute("DELETE FROM sources")
        return self.sync()

    def _drop_source(self, name: str) -> int:
        with self._write():
            removed = self.con.execute("DELETE FROM docs WHERE source=?", (name,)).rowcount
            self.con.execute("DELETE FROM sources WHERE name=?", (name,))
        return removed

    def _sync_source(self, source: Source, known: tuple[str, int, str] | None) -> tuple[int, int]:
        try:
            stat = source.path.stat()
        except FileNotFoundError:
            return (0, self._drop_source(source.name)) if known else (0, 0)
        sig = f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}"
        if known and known[0] == sig:
            return 0, 0
        mtime_date = _mtime_iso(stat.st_mtime)
        with open(source.path, "rb") as handle:
            prior_offset = known[1] if known else 0
            grew = (
                source.append_only
                and known is not None
                and 0 < prior_offset <= stat.st_size
                and known[2] == _head_of(handle, prior_offset)
            )
            handle.seek(prior_offset if grew else 0)
            rows, offset = _read_rows(handle, source.make_row, prior_offset if grew else 0)
        with self._write():
            added = self._insert(source.name, rows, mtime_date)
            removed = 0
            if not grew:
                keep = {row.row_id for row in rows}
                stale = [
                    (rid,)
                    for (rid,) in self.con.execute("SELECT id FROM docs WHERE source=?", (source.name,))
                    if rid not in keep
                ]
                self.con.executemany("DELETE FROM docs WHERE id=?", stale)
                removed = len(stale)
            self.con.execute(
                "INSERT OR REPLACE INTO sources VALUES (?,?,?,?,?)",
                (source.name, str(source.path), sig, offset, _head_hash_for(source.path, offset)),
            )
        return added, removed

    def _insert(self, source_name: str, rows: list[Row], fallback_date: str) -> int:
        cursor = self.con.executemany(
            "INSERT OR IGNORE INTO docs(id, source, kind, ref, date, text, meta) VALUES (?,?,?,?,?,?,?)",
            (
                (r.row_id, source_name, r.kind, r.ref, r.date or fallback_date, r.text,
                 json.dumps(r.meta, ensure_ascii=False, sort_keys=True))
                for r in rows
            ),
        )
        return max(cursor.rowcount, 0)  # trigger writes are not counted here

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        self.con.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        self.con.execute("COMMIT")

    # -- reading
    def count(self, kind: str | None = None) -> int:
        if kind:
            return int(self.con.execute("SELECT count(*) FROM docs WHERE kind=?", (kind,)).fetchone()[0])
        return int(self.con.execute("SELECT count(*) FROM docs").fetchone()[0])

    def search(self, query: str, limit: int = 10, kinds: Iterable[str] | None = None) -> list[Hit]:
        """Ranked hits for ``query``: routes fused by reciprocal rank (k = 60)."""
        plan = plan_query(query)
        if plan.empty or limit <= 0:
            return []
        kind_list = tuple(kinds) if kinds else ()
        depth = max(limit * 4, 50)
        routes: list[list[int]] = []
        if plan.words:
            expr = " OR ".join(_fts_phrase(w) for w in plan.words)
            routes.append(self._match("docs_words", expr, kind_list, depth))
        for run in plan.cjk_long:
            routes.append(self._match("docs_tri", _fts_phrase(run), kind_list, depth))
        for run in plan.cjk_short:
            routes.append(self._like(run, kind_list, depth))
        fused: dict[int, float] = {}
        for ranking in routes:
            for rank, rowid in enumerate(ranking):
                fused[rowid] = fused.get(rowid, 0.0) + 1.0 / (60 + rank + 1)
        best = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:limit]
        return self._hits(best)

    def _kind_clause(self, kinds: tuple[str, ...], alias: str = "d") -> tuple[str, list[str]]:
        if not kinds:
            return "", []
        return f" AND {alias}.kind IN ({','.join('?' * len(kinds))})", list(kinds)

    def _match(self, table: str, expr: str, kinds: tuple[str, ...], depth: int) -> list[int]:
        clause, params = self._kind_clause(kinds)
        sql = (
            f"SELECT f.rowid FROM {table} f JOIN docs d ON d.rowid=f.rowid "
            f"WHERE {table} MATCH ?{clause} ORDER BY bm25({table}), f.rowid LIMIT ?"
        )
        try:
            return [r for (r,) in self.con.execute(sql, [expr, *params, depth])]
        except sqlite3.OperationalError:
            return []  # a term FTS5 still refuses is a term with no hits, never an error

    def _like(self, run: str, kinds: tuple[str, ...], depth: int) -> list[int]:
        # trigram cannot index runs shorter than 3 characters, so they fall back to LIKE
        clause, params = self._kind_clause(kinds)
        pattern = "%" + run.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        sql = (
            f"SELECT d.rowid FROM docs d WHERE d.text LIKE ? ESCAPE '\\'{clause} "
            "ORDER BY length(d.text), d.rowid LIMIT ?"
        )
        return [r for (r,) in self.con.execute(sql, [pattern, *params, depth])]

    def _hits(self, ranked: list[tuple[int, float]]) -> list[Hit]:
        if not ranked:
            return []
        ids = [rowid for rowid, _ in ranked]
        rows = {
            r[0]: r
            for r in self.con.execute(
                f"SELECT rowid, text, kind, ref, date, meta, source FROM docs WHERE rowid IN ({','.join('?' * len(ids))})",
                ids,
            )
        }
        hits = []
        for rowid, score in ranked:
            row = rows.get(rowid)
            if row:
                hits.append(Hit(row[1], round(score, 6), row[2], row[3], row[4], json.loads(row[5]), row[6]))
        return hits

    def has(self, kind: str, ref: str) -> bool:
        """Whether a row of this kind and record id is indexed."""
        found = self.con.execute("SELECT 1 FROM docs WHERE ref=? AND kind=? LIMIT 1", (ref, kind)).fetchone()
        return found is not None

    def rows_of(self, kind: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every ``(ref, text, meta)`` of one kind, for candidate lookups."""
        for ref, text, meta in self.con.execute("SELECT ref, text, meta FROM docs WHERE kind=?", (kind,)):
            yield ref, text, json.loads(meta)


def _read_rows(handle: Any, make_row: RowMaker, start: int) -> tuple[list[Row], int]:
    rows: list[Row] = []
    offset = start
    for raw in handle:
        if not raw.endswith(b"\n"):
            break  # a record still being written is read by the next sync
        offset += len(raw)
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(record, dict):
            row = make_row(record)
            if row is not None:
                rows.append(row)
    return rows, offset


def _head_of(handle: Any, upto: int) -> str:
    handle.seek(0)
    return hashlib.sha1(handle.read(min(upto, _HEAD_BYTES))).hexdigest()


def _head_hash_for(path: Path, offset: int) -> str:
    with open(path, "rb") as handle:
        return _head_of(handle, offset)


def _mtime_iso(mtime: float) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
