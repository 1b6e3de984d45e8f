"""Prompt recall straight from the index file, for the user-prompt-submit hook's hot path.

The index keeps one row per distinct claim key of the L1 atoms (``keys``, with FTS5 tables
``keys_words`` and ``keys_tri`` beside it), so a prompt is matched against claims rather
than every observation, and a claim's evidence is one indexed aggregate over ``docs``.
This module reads that with ``sqlite3`` alone (standard library only: it is the
user-prompt-submit hook's hot path); ``index.sync.Index`` builds and syncs it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from types import ModuleType
    from typing import Callable


def _lru_cache(maxsize: "int | None" = 128, typed: bool = False) -> "Callable[[Callable[..., object]], object]":
    """``functools.lru_cache`` as ``_sqlite3`` calls it (a size, then the function): the same C wrapper."""
    import _functools

    if isinstance(maxsize, int) and maxsize < 0:
        maxsize = 0
    return lambda function: _functools._lru_cache_wrapper(function, maxsize, typed, lambda *info: info)


def _sqlite_module() -> "ModuleType":
    """The C module the ``sqlite3`` package wraps, loaded without ``functools`` where that is not loaded yet.

    The package's datetime adapters and collections cost a prompt about 5 ms; the C module itself
    asks ``functools`` only for ``lru_cache`` (its statement cache), and ``functools`` with the
    ``collections`` it imports costs about as much again. A stand-in that hands over the same C
    cache wrapper is in ``sys.modules`` only while ``_sqlite3`` loads; an interpreter whose module
    asks for more gets the real ``functools``.
    """
    import sys

    if "functools" not in sys.modules and "_sqlite3" not in sys.modules:
        stand_in = type(sys)("functools")
        stand_in.lru_cache = _lru_cache  # type: ignore[attr-defined]
        sys.modules["functools"] = stand_in
        try:
            import _sqlite3

            return _sqlite3
        except Exception:  # pragma: no cover - a module that asks functools for more, or none at all
            pass
        finally:
            if sys.modules.get("functools") is stand_in:
                del sys.modules["functools"]
    try:
        import _sqlite3
    except ImportError:  # pragma: no cover - an interpreter that names it otherwise
        import sqlite3 as _sqlite3  # type: ignore[no-redef]
    return _sqlite3


if TYPE_CHECKING:  # pragma: no cover - types only
    import sqlite3
else:
    sqlite3 = _sqlite_module()

from ..layout import signature as layout_signature
from ..clock import day_number, epoch, now_epoch, parse_iso  # noqa: F401  (re-exported for older callers)
from ..transcripts.injected import strip_injected  # noqa: F401  (the one definition; re-exported)
from . import fts
from .schema import SCHEMA_VERSION

ATOMS_SOURCE = "atoms"
CANDIDATES = 200  # bm25's best matches that the time decay then reorders
# Recency is a bounded prior: a record's weight runs from 1 (today) down to this floor (long ago), never
# lower, so age can reorder matches whose scores lie within 1/RECENCY_FLOOR (25 %) of each other and can
# never put a weaker match ahead of one that is clearly better.
RECENCY_FLOOR = 0.8


def signature(path: str) -> str | None:
    """``layout.signature`` as one string, the form the index stores; None when the file cannot be stat'ed."""
    found = layout_signature(path)
    return None if found is None else ":".join(map(str, found))


def decay_factor(now: float, half_life_days: float, date: str, floor: float = RECENCY_FLOOR) -> float:
    """The weight of a record dated ``date``: its distance above ``floor`` halves every ``half_life_days``.

    1.0 for an undated or future record; never below ``floor``.
    """
    moment = epoch(date) if date else None
    if moment is None or half_life_days <= 0:
        return 1.0
    return bounded(0.5 ** (max(now - moment, 0.0) / 86400.0 / half_life_days), floor)


def bounded(decay: float, floor: float = RECENCY_FLOOR) -> float:
    """A decay in [0, 1] as a weight in [floor, 1]."""
    floor = min(max(floor, 0.0), 1.0)
    return float(floor + (1.0 - floor) * decay)


def recency(now: float, half_life_days: float, floor: float = RECENCY_FLOOR) -> "Callable[[str], float]":
    """The bounded time decay by calendar day (UTC midnight), memoised, for SQLite's ``recency(date)``.

    A day is far finer than any half-life worth setting, and a query then weighs each day
    once instead of parsing every matching row's timestamp.
    """
    memo: dict[str, float] = {}

    def factor(date: str) -> float:
        day = (date or "")[:10]
        found = memo.get(day)
        if found is None:
            number = day_number(day)
            if number is None or half_life_days <= 0:
                found = 1.0
            else:
                found = bounded(0.5 ** (max(now / 86400.0 - number, 0.0) / half_life_days), floor)
            memo[day] = found
        return found

    return factor


def connect(path: str) -> sqlite3.Connection | None:
    """The index file if it exists and has the current schema, else None (the caller builds it)."""
    if not os.path.isfile(path):
        return None
    con = sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)
    try:
        con.execute("PRAGMA busy_timeout=5000")
        found = con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if found and found[0] == SCHEMA_VERSION:
            return con
    except sqlite3.DatabaseError:
        pass
    con.close()
    return None


def atoms_fresh(con: sqlite3.Connection, atoms: str) -> bool:
    """Whether the index holds everything ``atoms`` (L1/atoms.jsonl) holds now."""
    found = con.execute("SELECT sig FROM sources WHERE name=?", (ATOMS_SOURCE,)).fetchone()
    return found is not None and found[0] == signature(atoms)


def matching_keys(
    con: sqlite3.Connection, words: list[str], cjk: list[str], depth: int, now: float, half_life_days: float
) -> list[tuple[str, str, list[str]]]:
    """``(key, text, terms)`` of the claim keys that match any term, best first, redacted ones left out.

    Words go through ``keys_words`` (the best ``CANDIDATES`` by bm25, reordered by bm25 ×
    recency); CJK terms of three or more characters through ``keys_tri``; shorter CJK terms,
    which trigrams cannot index, by ``LIKE``. Routes are interleaved by rank, each key once.
    """
    weight = recency(now, half_life_days)
    routes: list[list[tuple[str, str, str]]] = []
    if words:
        routes.append(_ranked(con, "keys_words", words, depth, weight))
    long = [t for t in cjk if len(t) >= 3]
    if long:
        routes.append(_ranked(con, "keys_tri", long, depth, weight))
    short = [t for t in cjk if len(t) < 3]
    if short:
        con.create_function("recency", 1, weight, deterministic=True)
    for term in short:
        sql = ("SELECT key, text, terms FROM keys WHERE text LIKE ? ESCAPE '\\' AND redacted = 0 "
               "ORDER BY length(text) / recency(last), rowid LIMIT ?")
        routes.append(_rows(con, sql, (fts.like_pattern(term), depth)))
    merged: dict[str, tuple[str, list[str]]] = {}
    for rank in range(max((len(r) for r in routes), default=0)):
        for route in routes:
            if rank < len(route):
                key, text, terms = route[rank]
                merged.setdefault(key, (text, terms.split()))
    return [(key, text, terms) for key, (text, terms) in merged.items()]


# A term held by more than one key in COMMON_SHARE is common: bm25 gives it little weight, yet scoring its rows is
# most of what a query costs ("change" in a third of the keys of a large store). Where no term is that common, a
# few held by more than one key in FREQUENT_SHARE can be set aside the same way.
COMMON_SHARE = 10
FREQUENT_SHARE = 40
MOST_FREQUENT = 3  # sets of frequent terms are scored one by one: at most this many terms
K1 = 1.2  # FTS5's bm25 constants (fixed in its source): a term adds less than idf × (K1 + 1) to a row's score


def _ln_at_least(x: float) -> float:
    """A little more than the natural logarithm of ``x`` (never less), without loading ``math`` on the hook's path."""
    if x <= 1.0:
        return 0.0
    halvings = 0
    while x >= 2.0:  # exact in binary floating point
        x /= 2.0
        halvings += 1
    z = (x - 1.0) / (x + 1.0)  # ln x = 2 (z + z³/3 + z⁵/5 + …), z < 1/3: eight terms leave less than 1e-9 out
    series = sum(z ** (2 * k + 1) / (2 * k + 1) for k in range(8))
    return (halvings * 0.6931471805599453 + 2.0 * series) * (1 + 1e-9) + 1e-8


def _idf(rows_with: int, rows: float) -> float:
    """A term's idf as FTS5's bm25 reckons it (never below 1e-6), the logarithm rounded up."""
    return max(_ln_at_least((rows - rows_with + 0.5) / (rows_with + 0.5)), 1e-6)


def counted(con: sqlite3.Connection, table: str, terms: list[str]) -> list[tuple[str, int]]:
    """``(phrase, rows holding it)`` of the terms ``table`` holds, the rarest first: the order of every query."""
    phrases = [fts.phrase(t) for t in terms]
    counts = [con.execute(f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", (p,)).fetchone()[0] for p in phrases]
    return sorted(((p, n) for p, n in zip(phrases, counts) if n), key=lambda found: found[1])


def _subsets(items: list[str], size: int) -> list[list[str]]:
    """The ``size``-element subsets of ``items``, each in their order (``itertools`` is not on the hook's path)."""
    if size == 0:
        return [[]]
    return [[item, *rest] for at, item in enumerate(items) for rest in _subsets(items[at + 1 :], size - 1)]


def _split(found: list[tuple[str, int]], rows: int, depth: int) -> "tuple[int, list[list[str]], float] | None":
    """How to leave out rows holding common terms only, if that is likely to answer: ``(how many phrases are
    rare, the sets of common ones to score whole, the bound)``; None to rank every match.

    First the terms in more than a tenth of the keys, with no set scored: a row left out scores less
    than ``idf × (K1 + 1)`` summed over them. Where that would not answer, one to ``MOST_FREQUENT``
    terms in more than a fortieth, each set of two or more of them that could outweigh one alone
    scored whole: a row left out then holds one of them or a lighter set, below the weightiest one's
    ``idf × (K1 + 1)``. Likely to answer: the rare terms hold far fewer rows than the common ones,
    yet (first way) ``4 × depth`` rows, one rare term outweighing the bound, or (second way) twice
    ``depth`` rows of rare terms each of which outweighs it (a row scores about its terms' idf where
    its length is the mean).
    """
    # idf as FTS5 reckons it, from a row count taken a little high (its own count may lag the table's)
    idf = [_idf(n, rows * 1.01 + 10) for _p, n in found]
    for share, whole_sets in ((COMMON_SHARE, False), (FREQUENT_SHARE, True)):
        rare = sum(1 for _p, n in found if n * share <= rows)
        common = found[rare:]
        in_rare = sum(n for _p, n in found[:rare])
        if not rare or not common or 2 * in_rare >= sum(n for _p, n in common):
            continue
        if not whole_sets:
            bound = (K1 + 1) * sum(idf[rare:])
            if in_rare >= 4 * depth and max(idf[:rare]) > bound:
                return rare, [], bound
            continue
        if len(common) > MOST_FREQUENT:
            continue
        bound = (K1 + 1) * max(idf[rare:])
        if sum(n for (_p, n), w in zip(found[:rare], idf) if w > bound) < 2 * depth:
            continue
        idf_of = {p: w for (p, _n), w in zip(common, idf[rare:])}
        sets = [s for size in range(2, len(common) + 1) for s in _subsets([p for p, _n in common], size)
                if (K1 + 1) * sum(idf_of[p] for p in s) > bound]
        return rare, sets, bound
    return None


def candidates(con: sqlite3.Connection, table: str, found: list[tuple[str, int]],
               depth: int = CANDIDATES) -> tuple[list[tuple[int, float]], float]:
    """``(rowid, bm25)`` of the ``CANDIDATES`` rows of ``table`` that best match any of the phrases (``counted``),
    best first, and a bound: no row left out scores better than ``-bound`` (0.0: none was left out).

    Where a few common terms hold far more rows than the rare ones (``_split``), rows holding common
    terms only are left out: every row with a rare term is scored (those with a common term too by
    ``(rare) AND (common)``), and every row holding a set of common terms the split scores whole (by
    the set ANDed, the larger sets last). Each query lists its phrases in the one query's order, so a
    row scores the same to the bit. Otherwise the one query ranks every match (bound 0.0). Ties go to
    the lower rowid either way. ``depth``: how many of the best the caller needs to beat the bound.
    """
    rows = con.execute("SELECT coalesce(max(rowid), 0) FROM keys").fetchone()[0]  # (at least the keys' count)
    split = _split(found, rows, depth)
    if split is None:
        return every_match(con, table, [p for p, _n in found]), 0.0
    rare, sets, bound = split
    scored = f"SELECT rowid, bm25({table}) FROM {table} WHERE {table} MATCH ?"
    scores: dict[int, float] = {}
    for subset in sets:  # a row holding more common terms is scored again, in full
        scores.update(con.execute(scored, (" AND ".join(subset),)))
    any_rare = " OR ".join(p for p, _n in found[:rare])
    scores.update(con.execute(scored, (any_rare,)))
    scores.update(con.execute(scored, (f"({any_rare}) AND ({' OR '.join(p for p, _n in found[rare:])})",)))
    return sorted(scores.items(), key=lambda item: (item[1], item[0]))[:CANDIDATES], bound


def every_match(con: sqlite3.Connection, table: str, phrases: list[str]) -> list[tuple[int, float]]:
    """The ``CANDIDATES`` best of every row matching any of ``phrases`` by bm25 (ties to the lower rowid)."""
    if not phrases:
        return []
    return con.execute(f"SELECT rowid, bm25({table}) AS score FROM {table} WHERE {table} MATCH ? "
                       f"ORDER BY score, rowid LIMIT {CANDIDATES}", (" OR ".join(phrases),)).fetchall()


def _ranked(con: sqlite3.Connection, table: str, terms: list[str], depth: int,
            weight: "Callable[[str], float]") -> list[tuple[str, str, str]]:
    """The ``depth`` best unredacted keys among the ``CANDIDATES`` best by bm25 in ``table``, ordered by bm25 × recency.

    A weight in [0, 1] only raises a (negative) bm25 score, so the rows left out of the candidates
    (``candidates``' bound) cannot rank once the ``depth``-th weighted key beats the bound; when it
    does not, every match is ranked. The same keys, in the same order, either way.
    """
    try:
        found = counted(con, table, terms)
        top, bound = candidates(con, table, found, depth)
        kept = _best(con, top, depth, weight)
        if bound and not (len(kept) == depth and kept[-1][0] < -bound):
            kept = _best(con, every_match(con, table, [p for p, _n in found]), depth, weight)
    except sqlite3.OperationalError:
        return []  # a term FTS5 refuses is a term with no hits, never an error
    return [(key, text, terms) for _weighted, _rowid, key, text, terms in kept]


def _best(con: sqlite3.Connection, top: list[tuple[int, float]], depth: int,
          weight: "Callable[[str], float]") -> list[tuple[float, int, str, str, str]]:
    """``(weighted score, rowid, key, text, terms)`` of the ``depth`` best unredacted rows of ``top`` (best first by
    bm25), by bm25 × recency.

    Of the keys' rows only the first few candidates are read, a batch at a time: once the next
    candidate's bare score is above the ``depth``-th weighted one, no later candidate can rank.
    """
    kept: list[tuple[float, int, str, str, str]] = []  # best first
    at, batch = 0, depth + depth // 2
    while at < len(top):
        chunk = top[at : at + batch]
        at, batch = at + len(chunk), depth
        rows = {row[0]: row[1:] for row in con.execute(
            f"SELECT rowid, key, text, terms, last FROM keys WHERE redacted = 0 AND rowid IN ({','.join('?' * len(chunk))})",
            [rowid for rowid, _score in chunk])}
        for rowid, score in chunk:
            found = rows.get(rowid)
            if found is not None:
                kept.append((score * weight(str(found[3])), rowid, str(found[0]), str(found[1]), str(found[2])))
        kept.sort()
        del kept[depth:]
        if len(kept) == depth and at < len(top) and min(top[at][1], 0.0) > kept[-1][0]:
            break
    return kept


def _rows(con: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> list[tuple[str, str, str]]:
    try:
        return [(str(k), str(t), str(w)) for k, t, w in con.execute(sql, params)]
    except sqlite3.OperationalError:
        return []  # a term FTS5 refuses is a term with no hits, never an error


def contested_in_index(con: sqlite3.Connection, contested_file: str, keys: list[str]) -> set[str] | None:
    """Which of ``keys`` are contested, from the index's copy of ``contested.json``; None when that copy is
    not of the file as it is now (the caller then reads the file)."""
    found = con.execute("SELECT value FROM meta WHERE key='contested'").fetchone()
    sig = signature(contested_file)
    if sig is None:
        return set()  # no file: nothing is contested
    if not found or found[0] != sig:
        return None
    return {k for k in keys if con.execute("SELECT 1 FROM contested WHERE key = ?", (k,)).fetchone()}


def claims_of(con: sqlite3.Connection, keys: list[str]) -> dict[str, str]:
    """The claim each of ``keys`` is a wording of, where ``promote --write`` said one claim has several keys
    (an index made before it did has no such table: every key its own claim)."""
    try:
        return {k: c for k, c in con.execute(
            f"SELECT key, claim FROM claim_of WHERE key IN ({','.join('?' * len(keys))})", keys)}
    except sqlite3.OperationalError:
        return {}


def evidence(con: sqlite3.Connection, key: str) -> tuple[int, str]:
    """How many distinct sessions observed a claim key, and the latest day (one covering-index scan, one lookup)."""
    sessions = con.execute(
        "SELECT count(DISTINCT session) FROM docs WHERE claim = ? AND claim != '' AND session != ''", (key,)
    ).fetchone()
    last = con.execute("SELECT last FROM keys WHERE key = ?", (key,)).fetchone()
    return int(sessions[0]) if sessions else 0, str(last[0] if last else "")[:10]
