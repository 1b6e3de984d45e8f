"""Query planning and ranked search over the index, for ``agent-memory search`` and recall.

A query is cut into routes (content words by bm25, the whole phrase, the words near each
other, CJK pieces by trigram or ``LIKE``); each route ranks rows on its own and the routes
are fused by weighted reciprocal rank. User text reaches FTS5 only through ``fts``.
"""

from __future__ import annotations

import hashlib
import math
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from .. import text as words_of
from . import fts
from .prompt import RECENCY_FLOOR, decay_factor

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



class Found(NamedTuple):
    """A docs row as ranking reads it: the fields that tell hits apart, and where its record is."""

    rowid: int
    id: str
    text: str
    kind: str
    ref: str
    date: str
    source: str
    at: int
    session: str | None  # None: the record names no session
    transcript: str | None
    line: int | None
    stamp: str | None  # the record's timestamp where it is not ``date``

    COLUMNS = ("d.rowid, d.id, d.text, d.kind, d.ref, d.date, d.source, d.at, p.session, p.transcript, d.line, "
               "d.stamp")

    @property
    def timestamp(self) -> str:
        return self.date if self.stamp is None else self.stamp

    def fallback_meta(self) -> dict[str, Any]:
        """What the row itself knows of its record's meta, for a record its source no longer holds."""
        meta: dict[str, Any] = {"timestamp": self.timestamp}
        if self.session is not None:
            meta.update(session=self.session, transcript=self.transcript or "")
        if self.line is not None:
            meta["line"] = self.line
        return dict(sorted(meta.items()))


_CJK = words_of.CJK  # the one CJK definition (text.py)
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[^\W{_CJK}_]+|\d+", re.UNICODE)
# one script inside a CJK run: hiragana | katakana (with the long-vowel mark) | ideographs | hangul
_SCRIPT = re.compile(
    "(?P<hira>[\u3040-\u309f]+)"
    "|(?P<kata>[\u30a0-\u30fa\u30fc-\u30ff\uff66-\uff9f]+)"
    f"|(?P<han>[{words_of.HAN}]+)"
    "|(?P<hangul>[\uac00-\ud7af]+)"
)

STOP_WORDS = words_of.QUERY_STOP_WORDS  # text.py keeps every word list
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
    "identifier": 1.0,  # an identifier kept whole (its tokens as one phrase): v3/handlers.py is not v2/handlers.py
    "identifier_part": 0.5,  # a joined part of one (handlers.py of src/cart/v3/handlers.py): below the whole
}
# FTS5's bm25 constants, for the trigram routes that compute it themselves
BM25_K1 = 1.2
BM25_B = 0.75
NEAR_DISTANCE = 6  # tokens allowed per gap between the query's content words in the proximity route
# A past-session chunk's words score adds this share of its best neighbour's (the chunk before or after it in
# the same session, scores relative to the best match): what a question asks is often said in the exchange
# beside the one that holds its words. Chosen on half of LoCoMo's conversations (0.5–0.65 about equal there),
# it raised recall@5 and @10 on the other half alike; at 1 a neighbour would count as much as the match itself.
CONTEXT_WEIGHT = 0.6


@dataclass(frozen=True)
class QueryPlan:
    """How one query string is searched.

    ``words`` are the content words (stop words dropped) for the bm25 route; ``sequence``
    keeps every word in order for the phrase and proximity routes; CJK text is cut into
    content pieces, ``cjk_long`` (≥ 3 characters, trigram index) and ``cjk_short`` (1–2
    characters, ``LIKE``); ``compounds`` are runs of adjacent pieces kept whole for an
    exact-substring boost; ``identifiers`` (paths, file names, versions, snake_case and
    camelCase names) are matched whole, each as a phrase of its tokens, while their pieces
    join ``words``.
    """

    words: tuple[str, ...]
    cjk_long: tuple[str, ...]
    cjk_short: tuple[str, ...]
    sequence: tuple[str, ...] = ()
    compounds: tuple[str, ...] = ()
    identifiers: tuple[str, ...] = ()  # the query's identifiers whole, then their joined parts
    wholes: int = 0  # how many of ``identifiers`` are whole identifiers (they come first)

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
    found = words_of.identifiers(query)
    identifiers = list(dict.fromkeys(ident.casefold() for ident in found))
    wholes = len(identifiers)
    for ident in found:
        for part in words_of.identifier_parts(ident):
            if _joined_piece(part) and part not in identifiers:
                identifiers.append(part)
    words += [w for w in words_of.identifier_words(query) if w not in words and w not in STOP_WORDS]
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
    return QueryPlan(
        tuple(words), tuple(long_runs), tuple(short_runs), tuple(sequence), tuple(compounds), tuple(identifiers),
        wholes,
    )


def _joined_piece(part: str) -> bool:
    """Whether a part of an identifier is itself several tokens (a path's file name, ``handlers.py``)."""
    return any(j in part for j in words_of.IDENT_JOINERS)


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


@dataclass(frozen=True)
class Decay:
    """Recency as a bounded prior: a match's weight falls from 1 towards ``floor`` with a ``half_life_days`` half-life.

    Applied to each route's own score before fusion, it orders matches of about equal
    relevance by age and never lets age outweigh a match more than 1/``floor`` better.
    """

    now: datetime
    half_life_days: float
    floor: float = RECENCY_FLOOR

    def factor(self, date: str) -> float:
        """The weight of a record dated ``date`` (1.0 for undated or future records)."""
        return decay_factor(self.now.timestamp(), self.half_life_days, date, self.floor)


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



class Searcher:
    """Ranked reading of an open index (``Index`` brings it up to date and mixes this in)."""

    con: sqlite3.Connection

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
            scored = self._scored("docs_words", fts.any_of(plan.words), kinds, depth, decay)
            routes.append((ROUTE_WEIGHTS["words"], self._in_context(scored, kinds)))
            for name, expr in _proximity(plan):
                routes.append((ROUTE_WEIGHTS[name], self._match("docs_words", expr, kinds, depth, decay)))
        # a record naming the identifier whole ranks above one that only shares a part of it
        for name, found in (("identifier", plan.identifiers[: plan.wholes]), ("identifier_part", plan.identifiers[plan.wholes :])):
            if found:
                routes.append((ROUTE_WEIGHTS[name], self._match("docs_words", fts.any_of(found), kinds, depth, decay)))
        for run in plan.cjk_long:
            routes.append((ROUTE_WEIGHTS["cjk"], self._trigram([run], kinds, depth, decay)))
            if len(run) >= 4:
                # documents sharing most of the run's trigrams: other word forms, partial overlap
                routes.append((ROUTE_WEIGHTS["cjk_fuzzy"], self._trigram(fts.trigrams(run), kinds, depth, decay)))
        for run in plan.compounds:
            routes.append((ROUTE_WEIGHTS["compound"], self._trigram([run], kinds, depth, decay)))
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
        return [rowid for rowid, _score in self._scored(table, expr, kinds, depth, decay)]

    def _scored(
        self, table: str, expr: str, kinds: tuple[str, ...], depth: int, decay: Decay | None = None
    ) -> list[tuple[int, float]]:
        """The best ``depth`` rows matching ``expr`` with their relevance (bm25, higher is better), best first."""
        clause, params = self._kind_clause(kinds)
        score = f"bm25({table}) * recency(d.date)" if decay is not None else f"bm25({table})"
        sql = (
            f"SELECT f.rowid, {score} FROM {table} f JOIN docs d ON d.rowid=f.rowid "
            f"WHERE {table} MATCH ?{clause} ORDER BY {score}, f.rowid LIMIT ?"
        )
        try:
            return [(r, -s) for r, s in self.con.execute(sql, [expr, *params, depth])]
        except sqlite3.OperationalError:
            return []  # a term FTS5 still refuses is a term with no hits, never an error

    def _trigram(self, pieces: list[str], kinds: tuple[str, ...], depth: int, decay: Decay | None = None) -> list[int]:
        """The best ``depth`` rows holding any of the CJK ``pieces``, by bm25 over their whole text, best first.

        ``docs_tri`` indexes a row's CJK runs only. A CJK piece lies inside one run, so the table
        finds the rows, and the text holds the occurrences, that a trigram table of the whole text
        would; what it lacks is the whole text's length, which bm25 weighs a match by: the score
        is computed here as FTS5's bm25 computes it, with that length (``docs.span``).
        """
        try:
            holding = [
                {rowid for (rowid,) in self.con.execute("SELECT rowid FROM docs_tri WHERE docs_tri MATCH ?",
                                                        (fts.phrase(piece),))}
                for piece in pieces
            ]
        except sqlite3.OperationalError:
            return []  # a term FTS5 still refuses is a term with no hits, never an error
        found = sorted(set().union(*holding))
        if not found:
            return []
        count, tokens = self.con.execute("SELECT count(*), total(span) FROM docs WHERE span IS NOT NULL").fetchone()
        count = max(int(count), 1)
        average = float(tokens) / count
        idf = [math.log((count - len(rows) + 0.5) / (len(rows) + 0.5)) for rows in holding]
        idf = [value if value > 0.0 else 1e-6 for value in idf]
        clause, params = self._kind_clause(kinds)
        recency = _cached(decay.factor) if decay is not None else None
        scored: list[tuple[float, int]] = []
        for start in range(0, len(found), 500):
            part = found[start : start + 500]
            for rowid, date, cjk, span in self.con.execute(
                f"SELECT d.rowid, d.date, d.cjk, d.span FROM docs d WHERE d.rowid IN ({','.join('?' * len(part))})"
                f"{clause}", [*part, *params],
            ):
                score = 0.0
                for piece, rows, weight in zip(pieces, holding, idf):
                    if rowid in rows:
                        freq = float(_occurrences(cjk, piece))
                        norm = BM25_K1 * (1 - BM25_B + BM25_B * float(span or 0) / average)
                        score += weight * ((freq * (BM25_K1 + 1.0)) / (freq + norm))
                score = -1.0 * score
                scored.append((score * recency(date) if recency is not None else score, rowid))
        scored.sort()
        return [rowid for _score, rowid in scored[:depth]]

    def _in_context(self, scored: list[tuple[int, float]], kinds: tuple[str, ...]) -> list[int]:
        """Rows reranked by their own score plus ``CONTEXT_WEIGHT`` × their best neighbouring chunk's, best first.

        A chunk's neighbours are the chunks stored beside it (the ingest appends a transcript's
        exchanges in order) that belong to its session and come just before or after it; a
        neighbour that did not match itself joins with the share it borrows. Other kinds keep
        their own score.
        """
        if not scored or CONTEXT_WEIGHT <= 0 or (kinds and "chunk" not in kinds):
            return [rowid for rowid, _score in scored]
        best = scored[0][1]
        if best <= 0:
            return [rowid for rowid, _score in scored]
        own = {rowid: score / best for rowid, score in scored}
        places = self._chunk_places({n for rowid in own for n in (rowid - 1, rowid, rowid + 1)})
        total = dict(own)
        for rowid, share in own.items():
            here = places.get(rowid)
            if here is None:
                continue
            for other in (rowid - 1, rowid + 1):
                there = places.get(other)
                if there is None or there[0] != here[0] or (there[1] < here[1]) != (other < rowid):
                    continue
                lent = CONTEXT_WEIGHT * share
                if other in own:
                    total[other] = max(total[other], own[other] + lent)
                else:
                    total[other] = max(total.get(other, 0.0), lent)
        return [rowid for rowid, _score in sorted(total.items(), key=lambda item: (-item[1], item[0]))]

    def _chunk_places(self, rowids: set[int]) -> dict[int, tuple[tuple[str, str], int]]:
        """Where each of ``rowids`` that is a chunk sits: ((session, transcript), line)."""
        places: dict[int, tuple[tuple[str, str], int]] = {}
        ids = sorted(rowids)
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            for rowid, session, transcript, line in self.con.execute(
                "SELECT d.rowid, p.session, p.transcript, d.line FROM docs d JOIN places p ON p.rowid = d.place "
                f"WHERE d.kind='chunk' AND d.line IS NOT NULL AND d.rowid IN ({','.join('?' * len(part))})",
                part,
            ):
                places[rowid] = ((session, transcript), line)  # a chunk without a place has no neighbours
        return places

    def _like(self, run: str, kinds: tuple[str, ...], depth: int, decay: Decay | None = None) -> list[int]:
        # trigram cannot index runs shorter than 3 characters, so they fall back to LIKE;
        # shorter texts first (the term weighs more in them), scaled by decay like a score
        clause, params = self._kind_clause(kinds)
        pattern = fts.like_pattern(run)
        order = "length(d.text) / recency(d.date)" if decay is not None else "length(d.text)"
        sql = f"SELECT d.rowid FROM docs d WHERE d.text LIKE ? ESCAPE '\\'{clause} ORDER BY {order}, d.rowid LIMIT ?"
        return [r for (r,) in self.con.execute(sql, [pattern, *params, depth])]

    def _hits(self, ranked: list[tuple[int, float]], limit: int) -> list[Hit]:
        """The first ``limit`` distinct hits: one logical chunk counts once."""
        chosen: list[tuple[Found, float]] = []
        seen: set[tuple[str, ...]] = set()
        batch = max(limit * 2, 20)
        for start in range(0, len(ranked), batch):
            part = ranked[start : start + batch]
            ids = [rowid for rowid, _ in part]
            rows = {
                r[0]: Found(*r)
                for r in self.con.execute(
                    f"SELECT {Found.COLUMNS} FROM docs d LEFT JOIN places p ON p.rowid = d.place "
                    f"WHERE d.rowid IN ({','.join('?' * len(ids))})",
                    ids,
                )
            }
            for rowid, score in part:
                row = rows.get(rowid)
                if not row:
                    continue
                keys = _identity(row)
                if seen.intersection(keys):
                    continue
                seen.update(keys)
                chosen.append((row, score))
                if len(chosen) >= limit:
                    break
            if len(chosen) >= limit:
                break
        metas = self.metas([row for row, _score in chosen])
        return [
            Hit(row.text, round(score, 6), row.kind, row.ref, row.date, meta, row.source)
            for (row, score), meta in zip(chosen, metas)
        ]

    def metas(self, found: list[Found]) -> list[dict[str, Any]]:
        """The ``meta`` of each row shown (``Index`` reads it from the sources)."""
        return [row.fallback_meta() for row in found]


def _proximity(plan: QueryPlan) -> list[tuple[str, str]]:
    """Phrase and proximity routes: the query's words in order, and all its content words near each other."""
    exprs: list[tuple[str, str]] = []
    if len(plan.sequence) >= 2:
        exprs.append(("phrase", fts.phrase(" ".join(plan.sequence))))
    if len(plan.words) >= 2:
        group = " ".join(fts.phrase(w) for w in plan.words)
        exprs.append(("near", f"NEAR({group}, {NEAR_DISTANCE * (len(plan.words) - 1)})"))
    return exprs


def _identity(row: Found) -> list[tuple[str, ...]]:
    """Keys under which two hits are the same thing: the record, or one chunk of one session read twice."""
    keys: list[tuple[str, ...]] = [("ref", row.kind, row.ref)]
    if row.kind == "chunk" and row.session:
        line = "" if row.line is None else str(row.line)
        keys.append(("at", row.session, line, row.timestamp))
        keys.append(("text", row.session, hashlib.sha1(row.text.encode("utf-8")).hexdigest()))
    return keys


def _occurrences(text: str, piece: str) -> int:
    """How often ``piece`` occurs in ``text``, overlaps included (what a trigram phrase match counts)."""
    count, at = 0, text.find(piece)
    while at >= 0:
        count += 1
        at = text.find(piece, at + 1)
    return count


def _cached(func: Callable[[str], float]) -> Callable[[str], float]:
    memo: dict[str, float] = {}

    def call(value: str) -> float:
        found = memo.get(value)
        if found is None:
            found = memo[value] = func(value)
        return found

    return call
