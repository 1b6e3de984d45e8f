"""The shared SQLite FTS5 index: a rebuildable shadow of the store's files.

Two FTS5 tables over one ``docs`` table: ``porter unicode61`` for words (bm25 ranked)
and ``trigram`` for CJK substrings; and, for prompt recall, one row per distinct claim
key of the atoms (``keys``, with FTS5 tables of its own), kept by triggers. Rows are keyed
by content hash; each source file is re-read only when its size or mtime changed
(append-only logs only from where the last sync stopped), and rows whose source vanished
go by set difference. Only the standard library is imported; the hooks' hot path reads
the same file through ``lookup``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from .lookup import SCHEMA_VERSION, decay_factor, signature
from .model import SqliteTooOld


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
    claim: str = ""  # an atom's claim key text (derived from ``text``, so not part of the row id)
    terms: str = ""  # an atom's content terms for prompt recall, space-separated (derived from ``text`` too)

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


# Only texts holding CJK go into the trigram tables: trigram routes serve CJK query terms alone, and
# indexing every English chunk three characters at a time was most of what an ingest spent in FTS5.
# (A superset of both the query planner's and terms.py's CJK ranges.)
_CJK_GLOB = "*[\u3005-\u3007\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]*"

_DDL_TEMPLATE = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(
    name TEXT PRIMARY KEY, path TEXT NOT NULL, sig TEXT NOT NULL,
    offset INTEGER NOT NULL DEFAULT 0, head TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
    kind TEXT NOT NULL, ref TEXT NOT NULL, date TEXT NOT NULL, text TEXT NOT NULL, meta TEXT NOT NULL,
    claim TEXT NOT NULL DEFAULT '', terms TEXT NOT NULL DEFAULT '', session TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS docs_source ON docs(source);
CREATE INDEX IF NOT EXISTS docs_ref ON docs(ref);
CREATE INDEX IF NOT EXISTS docs_claim ON docs(claim, session) WHERE claim != '';
CREATE TABLE IF NOT EXISTS contested(key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys(
    rowid INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, text TEXT NOT NULL, terms TEXT NOT NULL,
    last TEXT NOT NULL, redacted INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS docs_words USING fts5(
    text, content='docs', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS docs_tri USING fts5(
    text, content='docs', content_rowid='rowid', tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS docs_ai AFTER INSERT ON docs BEGIN
    INSERT INTO docs_words(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS docs_ad AFTER DELETE ON docs BEGIN
    INSERT INTO docs_words(docs_words, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER IF NOT EXISTS docs_tri_ai AFTER INSERT ON docs WHEN new.text GLOB '{cjk}' BEGIN
    INSERT INTO docs_tri(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS docs_tri_ad AFTER DELETE ON docs WHEN old.text GLOB '{cjk}' BEGIN
    INSERT INTO docs_tri(docs_tri, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE VIRTUAL TABLE IF NOT EXISTS keys_words USING fts5(
    text, content='keys', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS keys_tri USING fts5(
    text, content='keys', content_rowid='rowid', tokenize='trigram');
CREATE TRIGGER IF NOT EXISTS keys_ai AFTER INSERT ON keys BEGIN
    INSERT INTO keys_words(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS keys_ad AFTER DELETE ON keys BEGIN
    INSERT INTO keys_words(keys_words, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER IF NOT EXISTS keys_tri_ai AFTER INSERT ON keys WHEN new.text GLOB '{cjk}' BEGIN
    INSERT INTO keys_tri(rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS keys_tri_ad AFTER DELETE ON keys WHEN old.text GLOB '{cjk}' BEGIN
    INSERT INTO keys_tri(keys_tri, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER IF NOT EXISTS docs_key_ai AFTER INSERT ON docs WHEN new.claim != '' BEGIN
    INSERT INTO keys(key, text, terms, last, redacted)
        VALUES (new.claim, new.text, new.terms, new.date, coalesce(json_extract(new.meta, '$.redacted'), 0))
        ON CONFLICT(key) DO UPDATE SET last = max(last, excluded.last), redacted = max(redacted, excluded.redacted);
END;
CREATE TRIGGER IF NOT EXISTS docs_key_ad AFTER DELETE ON docs
    WHEN old.claim != '' AND NOT EXISTS (SELECT 1 FROM docs WHERE claim = old.claim AND claim != '') BEGIN
    DELETE FROM keys WHERE key = old.claim;
END;
"""
_DDL = _DDL_TEMPLATE.replace("{cjk}", _CJK_GLOB)

_HEAD_BYTES = 4096

# ---------------------------------------------------------------- query planning

_CJK = (
    "\u3005-\u3007"  # 々 〆 〇
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # hangul
    "\uff66-\uff9f"  # half-width katakana
)
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[^\W{_CJK}_]+|\d+", re.UNICODE)
# one script inside a CJK run: hiragana | katakana (with the long-vowel mark) | ideographs | hangul
_SCRIPT = re.compile(
    "(?P<hira>[\u3040-\u309f]+)"
    "|(?P<kata>[\u30a0-\u30fa\u30fc-\u30ff\uff66-\uff9f]+)"
    "|(?P<han>[\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)"
    "|(?P<hangul>[\uac00-\ud7af]+)"
)

STOP_WORDS = frozenset(
    """a about above after again all also am an and any are as at be been before being below between both but by
    can could did do does doing down during each else ever few for from further get got had has have having he her
    here hers herself him himself his how i if in into is it its itself just let me might more most much must my
    myself now of off on once only or other ought our ours ourselves out over own per same shall she should so some
    such than that the their theirs them themselves then there these they this those through to too under until up
    upon us very was we were what whatever when whenever where whether which while who whom whose why will with
    would yet you your yours yourself yourselves
    d ll m re s t ve""".split()
)
# Japanese particles, copulas and endings that carry no search meaning on their own
JA_STOP = frozenset(
    """は が を に で と の も へ や か から まで より です ます した する して だ な ね よ
    ので のに けど けれど など って という について には では とは ください でした ました ません""".split()
)


# Weight of each route in the reciprocal-rank fusion. Proximity counts half: it should decide
# between otherwise close matches, not outvote bm25 (on LoCoMo, a full-weight route of neighbouring
# word pairs cost 3.5 points of recall@5; the all-words group used here is neutral there).
ROUTE_WEIGHTS: dict[str, float] = {
    "words": 1.0,  # content words OR'd, bm25
    "phrase": 1.0,  # the whole query as one phrase
    "near": 0.5,  # all content words near each other
    "cjk": 1.0,  # a CJK piece as a substring (trigram phrase, or LIKE under 3 characters)
    "cjk_fuzzy": 0.5,  # most of a long CJK piece's trigrams
    "compound": 1.0,  # a compound kept whole
}
NEAR_DISTANCE = 6  # tokens allowed per gap between the query's content words in the proximity route


@dataclass(frozen=True)
class QueryPlan:
    """How one query string is searched.

    ``words`` are the content words (stop words dropped) for the bm25 route; ``sequence``
    keeps every word in order for the phrase and proximity routes; CJK text is cut into
    content pieces, ``cjk_long`` (≥ 3 characters, trigram index) and ``cjk_short`` (1–2
    characters, ``LIKE``); ``compounds`` are runs of adjacent pieces kept whole for an
    exact-substring boost.
    """

    words: tuple[str, ...]
    cjk_long: tuple[str, ...]
    cjk_short: tuple[str, ...]
    sequence: tuple[str, ...] = ()
    compounds: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.words or self.cjk_long or self.cjk_short)

    @property
    def terms(self) -> tuple[str, ...]:
        return self.words + self.cjk_long + self.cjk_short


def plan_query(query: str) -> QueryPlan:
    """Split a query into routed terms; user text never reaches FTS5 syntax raw."""
    lowered = query.lower()
    sequence = _WORD.findall(_CJK_RUN.sub(" ", lowered))
    words = [w for w in dict.fromkeys(sequence) if w not in STOP_WORDS]
    if not words:  # a query of stop words only still means something
        words = list(dict.fromkeys(sequence))
    long_runs: list[str] = []
    short_runs: list[str] = []
    compounds: list[str] = []
    for run in _CJK_RUN.findall(query):
        pieces, compound = _split_cjk(run)
        for piece in pieces:
            target = long_runs if len(piece) >= 3 else short_runs
            if piece not in target:
                target.append(piece)
        for whole in compound:
            if whole not in pieces and whole not in compounds:
                compounds.append(whole)
    return QueryPlan(tuple(words), tuple(long_runs), tuple(short_runs), tuple(sequence), tuple(compounds))


def _split_cjk(run: str) -> tuple[list[str], list[str]]:
    """Content pieces of one CJK run, and the ideograph–katakana compounds they came from.

    Japanese writes content in ideographs and katakana and grammar in hiragana, so a run
    is cut where the script changes and its hiragana is dropped ("設定ファイルを読む" →
    設定, ファイル, 読; compound 設定ファイル). A run of hiragana only is kept, less a closing particle.
    """
    segments = [(m.lastgroup or "", m.group()) for m in _SCRIPT.finditer(run)]
    if not any(kind != "hira" for kind, _ in segments):
        return [_strip_particles(run)], []
    pieces: list[str] = []
    compounds: list[str] = []
    current = ""
    for kind, text in segments:
        if kind == "hira":
            if len(current) >= 3:
                compounds.append(current)
            current = ""
            continue
        pieces.append(text)
        if kind == "han" and 4 <= len(text) <= 6:
            # ideograph compounds are mostly built of two-character words (障害報告 → 障害, 報告),
            # which documents often write apart (障害が…報告する)
            pieces.extend(_halves(text))
        current += text
    if len(current) >= 3:
        compounds.append(current)
    return pieces, compounds


def _strip_particles(run: str) -> str:
    """A hiragana run without the particles that close it ("すべての" → "すべて")."""
    for particle in sorted(JA_STOP, key=len, reverse=True):
        if run.endswith(particle) and len(run) - len(particle) >= 2:
            return run[: -len(particle)]
    return run


def _halves(text: str) -> list[str]:
    cut = [text[i : i + 2] for i in range(0, len(text) - len(text) % 2, 2)]
    if len(text) % 2:
        cut[-1] += text[-1]
    return cut


def _fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _trigrams(text: str) -> list[str]:
    return list(dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2)))


@dataclass(frozen=True)
class Decay:
    """Time decay of relevance: a match loses half its weight every ``half_life_days``."""

    now: datetime
    half_life_days: float

    def factor(self, date: str) -> float:
        """The weight of a record dated ``date`` (1.0 for undated or future records)."""
        return decay_factor(self.now.timestamp(), self.half_life_days, date)


def route_depth(limit: int) -> int:
    """How many candidates each route contributes to the fusion."""
    return max(limit * 4, 50)


def fuse(routes: Iterable[tuple[float, Sequence[int]]], k: int = 60) -> list[tuple[int, float]]:
    """Weighted reciprocal-rank fusion of ranked row lists, best first."""
    fused: dict[int, float] = {}
    for weight, ranking in routes:
        for rank, rowid in enumerate(ranking):
            fused[rowid] = fused.get(rowid, 0.0) + weight / (k + rank + 1)
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))


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
                    "DROP TABLE IF EXISTS docs_words; DROP TABLE IF EXISTS docs_tri; DROP TABLE IF EXISTS keys_words;"
                    "DROP TABLE IF EXISTS keys_tri; DROP TABLE IF EXISTS keys; DROP TABLE IF EXISTS docs;"
                    "DROP TABLE IF EXISTS contested;"
                    "DROP TABLE IF EXISTS sources; DROP TABLE IF EXISTS meta;"
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
        sig = _signature(source.path)
        if known and known[0] == sig:
            return 0, 0  # the cheap path: one stat, no lock
        if sig is None and not known:
            return 0, 0
        # Read the source inside the write transaction: a view read before taking the lock could be
        # older than what another process committed meanwhile, and would delete its rows.
        with self._write():
            found = self.con.execute("SELECT sig, offset, head FROM sources WHERE name=?", (source.name,)).fetchone()
            known = (found[0], found[1], found[2]) if found else None
            sig = _signature(source.path)
            if sig is None:
                # missing, or unusable (a file where a folder should be, no permission): its rows go
                removed = self.con.execute("DELETE FROM docs WHERE source=?", (source.name,)).rowcount if known else 0
                self.con.execute("DELETE FROM sources WHERE name=?", (source.name,))
                return 0, max(removed, 0)
            if known and known[0] == sig:
                return 0, 0
            try:
                rows, offset, grew, head = self._read_source(source, known)
            except OSError:
                return 0, 0  # unreadable right now: keep what is indexed, try again next time
            added = self._insert(source.name, rows, _mtime_iso(source.path))
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
                "INSERT OR REPLACE INTO sources VALUES (?,?,?,?,?)", (source.name, str(source.path), sig, offset, head)
            )
        return added, removed

    def _read_source(self, source: Source, known: tuple[str, int, str] | None) -> tuple[list[Row], int, bool, str]:
        """The rows to add (only the new tail of an append-only file that grew), where reading stopped."""
        with open(source.path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            prior_offset = known[1] if known else 0
            grew = (
                source.append_only
                and known is not None
                and 0 < prior_offset <= size
                and known[2] == _head_of(handle, prior_offset)
            )
            start = prior_offset if grew else 0
            handle.seek(start)
            rows, offset = _read_rows(handle, source.make_row, start)
            head = _head_of(handle, offset)
        return rows, offset, grew, head

    def _insert(self, source_name: str, rows: list[Row], fallback_date: str) -> int:
        cursor = self.con.executemany(
            "INSERT OR IGNORE INTO docs(id, source, kind, ref, date, text, meta, claim, terms, session) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                (r.row_id, source_name, r.kind, r.ref, r.date or fallback_date, r.text,
                 json.dumps(r.meta, ensure_ascii=False, sort_keys=True), r.claim, r.terms,
                 str(r.meta.get("session") or "") if r.claim else "")
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

    def set_contested(self, keys: Iterable[str], signature: str | None) -> None:
        """Copy the claim keys of ``L1/contested.json`` (whose signature is given) for the prompt hook.

        The hook trusts the table only while the file still has that signature; otherwise it
        reads the file itself, so a stale or emptied table can never hide a contradiction.
        """
        with self._write():
            self.con.execute("DELETE FROM contested")
            self.con.executemany("INSERT OR IGNORE INTO contested VALUES (?)", ((k,) for k in keys))
            self.con.execute("INSERT OR REPLACE INTO meta VALUES ('contested', ?)", (signature or "",))

    def contested_signature(self) -> str:
        found = self.con.execute("SELECT value FROM meta WHERE key='contested'").fetchone()
        return str(found[0]) if found else ""

    # -- reading
    def count(self, kind: str | None = None) -> int:
        if kind:
            return int(self.con.execute("SELECT count(*) FROM docs WHERE kind=?", (kind,)).fetchone()[0])
        return int(self.con.execute("SELECT count(*) FROM docs").fetchone()[0])

    def search(self, query: str, limit: int = 10, kinds: Iterable[str] | None = None) -> list[Hit]:
        """Ranked hits for ``query``: routes fused by reciprocal rank (k = 60), no time decay."""
        return self.rank(query, limit, kinds)

    def rank(
        self, query: str, limit: int = 10, kinds: Iterable[str] | None = None, *, decay: Decay | None = None
    ) -> list[Hit]:
        """Like ``search``, with optional time decay."""
        return self.fused(self.routes(query, limit, kinds, decay=decay), limit)

    def routes(
        self, query: str, limit: int = 10, kinds: Iterable[str] | None = None, *, decay: Decay | None = None
    ) -> list[tuple[float, list[int]]]:
        """The weighted ranked row lists that ``query`` fuses from, for callers that add routes of their own."""
        plan = plan_query(query)
        if plan.empty or limit <= 0:
            return []
        return self._routes(plan, tuple(kinds) if kinds else (), route_depth(limit), decay)

    def fused(self, routes: Iterable[tuple[float, Sequence[int]]], limit: int) -> list[Hit]:
        """The best ``limit`` distinct hits of the routes fused by reciprocal rank."""
        if limit <= 0:
            return []
        return self._hits(fuse(routes), limit)

    def _routes(
        self, plan: QueryPlan, kinds: tuple[str, ...], depth: int, decay: Decay | None
    ) -> list[tuple[float, list[int]]]:
        """One ranked list of row ids per way of matching the query."""
        if decay is not None:
            self.con.create_function("recency", 1, _cached(decay.factor), deterministic=True)
        routes: list[tuple[float, list[int]]] = []
        if plan.words:
            expr = " OR ".join(_fts_phrase(w) for w in plan.words)
            routes.append((ROUTE_WEIGHTS["words"], self._match("docs_words", expr, kinds, depth, decay)))
            for name, expr in _proximity(plan):
                routes.append((ROUTE_WEIGHTS[name], self._match("docs_words", expr, kinds, depth, decay)))
        for run in plan.cjk_long:
            routes.append((ROUTE_WEIGHTS["cjk"], self._match("docs_tri", _fts_phrase(run), kinds, depth, decay)))
            if len(run) >= 4:
                # documents sharing most of the run's trigrams: other word forms, partial overlap
                grams = " OR ".join(_fts_phrase(g) for g in _trigrams(run))
                routes.append((ROUTE_WEIGHTS["cjk_fuzzy"], self._match("docs_tri", grams, kinds, depth, decay)))
        for run in plan.compounds:
            routes.append((ROUTE_WEIGHTS["compound"], self._match("docs_tri", _fts_phrase(run), kinds, depth, decay)))
        for run in plan.cjk_short:
            routes.append((ROUTE_WEIGHTS["cjk"], self._like(run, kinds, depth, decay)))
        return [r for r in routes if r[1]]

    def _kind_clause(self, kinds: tuple[str, ...], alias: str = "d") -> tuple[str, list[str]]:
        if not kinds:
            return "", []
        return f" AND {alias}.kind IN ({','.join('?' * len(kinds))})", list(kinds)

    def _match(
        self, table: str, expr: str, kinds: tuple[str, ...], depth: int, decay: Decay | None = None
    ) -> list[int]:
        clause, params = self._kind_clause(kinds)
        score = f"bm25({table}) * recency(d.date)" if decay is not None else f"bm25({table})"
        sql = (
            f"SELECT f.rowid FROM {table} f JOIN docs d ON d.rowid=f.rowid "
            f"WHERE {table} MATCH ?{clause} ORDER BY {score}, f.rowid LIMIT ?"
        )
        try:
            return [r for (r,) in self.con.execute(sql, [expr, *params, depth])]
        except sqlite3.OperationalError:
            return []  # a term FTS5 still refuses is a term with no hits, never an error

    def _like(self, run: str, kinds: tuple[str, ...], depth: int, decay: Decay | None = None) -> list[int]:
        # trigram cannot index runs shorter than 3 characters, so they fall back to LIKE;
        # shorter texts first (the term weighs more in them), scaled by decay like a score
        clause, params = self._kind_clause(kinds)
        pattern = "%" + run.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        order = "length(d.text) / recency(d.date)" if decay is not None else "length(d.text)"
        sql = f"SELECT d.rowid FROM docs d WHERE d.text LIKE ? ESCAPE '\\'{clause} ORDER BY {order}, d.rowid LIMIT ?"
        return [r for (r,) in self.con.execute(sql, [pattern, *params, depth])]

    def _hits(self, ranked: list[tuple[int, float]], limit: int) -> list[Hit]:
        """The first ``limit`` distinct hits: one logical chunk counts once."""
        hits: list[Hit] = []
        seen: set[tuple[str, ...]] = set()
        batch = max(limit * 2, 20)
        for start in range(0, len(ranked), batch):
            part = ranked[start : start + batch]
            ids = [rowid for rowid, _ in part]
            rows = {
                r[0]: r
                for r in self.con.execute(
                    "SELECT rowid, text, kind, ref, date, meta, source FROM docs "
                    f"WHERE rowid IN ({','.join('?' * len(ids))})",
                    ids,
                )
            }
            for rowid, score in part:
                row = rows.get(rowid)
                if not row:
                    continue
                hit = Hit(row[1], round(score, 6), row[2], row[3], row[4], json.loads(row[5]), row[6])
                keys = _identity(hit)
                if seen.intersection(keys):
                    continue
                seen.update(keys)
                hits.append(hit)
                if len(hits) >= limit:
                    return hits
        return hits

    def has(self, kind: str, ref: str) -> bool:
        """Whether a row of this kind and record id is indexed."""
        found = self.con.execute("SELECT 1 FROM docs WHERE ref=? AND kind=? LIMIT 1", (ref, kind)).fetchone()
        return found is not None

    def rows_of(self, kind: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every ``(ref, text, meta)`` of one kind, for candidate lookups."""
        for ref, text, meta in self.con.execute("SELECT ref, text, meta FROM docs WHERE kind=?", (kind,)):
            yield ref, text, json.loads(meta)


def _proximity(plan: QueryPlan) -> list[tuple[str, str]]:
    """Phrase and proximity routes: the query's words in order, and all its content words near each other."""
    exprs: list[tuple[str, str]] = []
    if len(plan.sequence) >= 2:
        exprs.append(("phrase", _fts_phrase(" ".join(plan.sequence))))
    if len(plan.words) >= 2:
        group = " ".join(_fts_phrase(w) for w in plan.words)
        exprs.append(("near", f"NEAR({group}, {NEAR_DISTANCE * (len(plan.words) - 1)})"))
    return exprs


def _identity(hit: Hit) -> list[tuple[str, ...]]:
    """Keys under which two hits are the same thing: the record, or one chunk of one session read twice."""
    keys: list[tuple[str, ...]] = [("ref", hit.kind, hit.ref)]
    session = str(hit.meta.get("session", ""))
    if hit.kind == "chunk" and session:
        keys.append(("at", session, str(hit.meta.get("line", "")), str(hit.meta.get("timestamp", ""))))
        keys.append(("text", session, hashlib.sha1(hit.text.encode("utf-8")).hexdigest()))
    return keys


def _cached(func: Callable[[str], float]) -> Callable[[str], float]:
    memo: dict[str, float] = {}

    def call(value: str) -> float:
        found = memo.get(value)
        if found is None:
            found = memo[value] = func(value)
        return found

    return call


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
