"""The claim cache: what promote needs from L1, kept next to it so a pass need not re-derive it.

Derived and rebuildable (the claim tables, ``L1/claims.db``: ``tables``): for each claim key of
L1, the aggregates the gates count (sessions, days, projects, first timestamp, wordings, kinds,
stated, redacted, atom ids), the blocking buckets, and the relations between keys that blocking
makes candidates. The tables cover a prefix of ``L1/atoms.jsonl`` named by its length and SHA-1;
atoms appended since are folded in from the tail, anything else (missing, corrupt, rewritten L1,
other code or config) means recomputing in memory. Only writers (ingest, ``promote --write``) bring
the tables up to date, under the store lock. ``Partial`` reads them only as far as a pass asks.
They hold nothing an atom does not already hold. Standard library only.
"""

from __future__ import annotations

import contextlib
from collections import Counter
import gc
import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from .. import fastjson
from ..shapes import atom_ok
from ..shapes import __file__ as _SHAPES_SOURCE
from ..text import __file__ as _TEXT_SOURCE
from ..errors import StoreError
from ..store import Paths
from . import tables
from .l1bytes import identity_text, is_prefix, prefix_hash, read_prefix, remember, tail_lines, whole_lines
from .key import __file__ as _KEY_SOURCE
from .key import Key, atom_key
from .relate import __file__ as _RELATE_SOURCE
from .forked import make_keys, related_pairs
from .relations import Relations, buckets_of, buckets_of_keys, sides

CACHE_VERSION = 4
FRESH_CACHE_KIB = 64 << 10  # the page cache of a count from L1's first line


@dataclass
class Summary:
    """The atoms of one claim key as the gates count them (no atom's text beyond its wording)."""

    count: int = 0
    ids: list[str] = field(default_factory=list)
    sessions: set[str] = field(default_factory=set)
    days: set[str] = field(default_factory=set)
    projects: set[str] = field(default_factory=set)
    first: str = ""  # the earliest non-empty timestamp
    texts: dict[str, list[Any]] = field(default_factory=dict)  # wording → [atoms, earliest timestamp]
    kinds: dict[str, int] = field(default_factory=dict)
    stated: bool = False
    redacted: bool = False
    offsets: list[int] = field(default_factory=list)  # where each atom's line starts in L1, as ``ids``
    # atoms from one long pasted block count as one session: block → [timestamp, session, day] of its first
    blocks: dict[str, list[str]] = field(default_factory=dict)
    shown: str = ""  # the wording shown for these atoms alone, when the claim tables hold it ('' to work it out)
    claim_id: str = ""  # the claim id of this key alone, when the claim tables hold it

    def add(self, atom: dict[str, Any], offset: int) -> None:
        """Count one more atom (its line starts ``offset`` bytes into L1)."""
        self.shown = ""
        self.count += 1
        self.ids.append(atom["id"])
        self.offsets.append(offset)
        stamp = atom.get("timestamp", "")
        block = atom.get("block")
        if block and isinstance(block, str):
            self._block(block, [str(stamp or ""), str(atom.get("session", "")), str(atom.get("day", ""))])
        else:
            self.sessions.add(atom.get("session", ""))
            self.days.add(atom.get("day", ""))
        self.projects.add(atom.get("project", ""))
        if stamp and (not self.first or stamp < self.first):
            self.first = stamp
        seen = self.texts.get(atom["text"])
        if seen is None:
            self.texts[atom["text"]] = [1, stamp]
        else:
            seen[0] += 1
            seen[1] = min(seen[1], stamp)
        kind = atom.get("kind", "instruction")
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        self.stated = self.stated or bool(atom.get("stated"))
        self.redacted = self.redacted or bool(atom.get("redacted"))

    def merge(self, other: "Summary") -> None:
        """Fold another key's atoms into this one (keys merged into one claim)."""
        self.count += other.count
        self.ids.extend(other.ids)
        self.offsets.extend(other.offsets)
        self.sessions |= other.sessions
        self.days |= other.days
        self.projects |= other.projects
        if other.first and (not self.first or other.first < self.first):
            self.first = other.first
        for text, (count, stamp) in other.texts.items():
            seen = self.texts.get(text)
            self.texts[text] = [count, stamp] if seen is None else [seen[0] + count, min(seen[1], stamp)]
        for kind, count in other.kinds.items():
            self.kinds[kind] = self.kinds.get(kind, 0) + count
        self.stated = self.stated or other.stated
        self.redacted = self.redacted or other.redacted
        for block, first in other.blocks.items():
            self._block(block, first)

    def _block(self, block: str, first: list[str]) -> None:
        known = self.blocks.get(block)
        if known is None or first < known:
            self.blocks[block] = first

    def counted(self, what: str) -> set[str]:
        """The sessions, days or projects a gate counts: a pasted block's atoms count in its first session only."""
        found: set[str] = getattr(self, what)
        if not self.blocks or what == "projects":
            return found
        at = 1 if what == "sessions" else 2
        return found | {first[at] for first in self.blocks.values()}

    @property
    def correction(self) -> bool:
        return "correction" in self.kinds


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a pass builds its many small, acyclic records.

    Collections triggered by allocation rescan every live record, which made them half of a
    dry run at 100k atoms; reference counting still frees everything. Afterwards the records
    join the oldest generation unscanned (``freeze`` then ``unfreeze``; skipped when the program
    froze objects itself), as they would after surviving young collections, instead of being
    rescanned all at once by the first young collection.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


# ---------------------------------------------------------------- reading L1


@dataclass
class L1View:
    """L1 as promote sees it: summaries by key, relations among L1 keys, and the atoms on demand."""

    summaries: dict[str, Summary]  # key text → its atoms counted
    relations: Relations
    end: int  # bytes of L1 covered (whole lines)
    digest: str  # SHA-1 of those bytes
    covered: int  # bytes of L1 the cache on disk covers (-1: no usable cache)
    path: Path
    _atoms: dict[str, list[dict[str, Any]]] | None = None  # every key's atoms, once L1 was read whole
    _some: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # keys read line by line
    _lines_read: int = 0
    total: int = -1  # atoms in L1, counted when first asked (the partial pass sets it from the tables)

    def atoms_of(self, key_text: str) -> list[dict[str, Any]]:
        """The atoms of one key, in file order.

        A few keys are read line by line from where their atoms start; once a quarter of L1 has
        been asked for, L1 (up to ``end``) is read whole, once.
        """
        if self.total < 0:
            self.total = sum(s.count for s in self.summaries.values())
        if self._atoms is None and self._lines_read * 4 > self.total:
            with gc_paused():
                self._atoms = self._read_atoms()
        if self._atoms is not None:
            return self._atoms.get(key_text, [])
        found = self._some.get(key_text)
        if found is None:
            found = self._some[key_text] = self._read_key(key_text)
        return found

    def _read_key(self, key_text: str) -> list[dict[str, Any]]:
        summary = self.summaries.get(key_text)
        if summary is None or not summary.count:
            return []
        found = []
        self._lines_read += summary.count
        with open(self.path, "rb") as handle:
            for offset, atom_id in zip(summary.offsets, summary.ids):
                handle.seek(offset)
                raw = handle.readline()
                try:
                    record = json.loads(raw)
                except fastjson.JSON_ERRORS:
                    record = None
                # the line must still be the atom counted there: L1 is append-only, but a dry run holds no lock
                if (not isinstance(record, dict) or record.get("id") != atom_id
                        or not isinstance(record.get("text"), str) or record["text"] not in summary.texts
                        or offset + len(raw) > self.end or not raw.endswith(b"\n")):
                    raise StoreError(f"{self.path} was rewritten while promote read it; run it again")
                found.append(record)
        return found

    def _read_atoms(self) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        data = read_prefix(self.path, self.end)
        if hashlib.sha1(data).hexdigest() != self.digest:
            raise StoreError(f"{self.path} was rewritten while promote read it; run it again")
        for _offset, atom in parse_atoms(data):
            key = atom_key(atom).text
            if key in self.summaries:
                found.setdefault(key, []).append(atom)
        return found


def parse_atoms(data: bytes, base: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """Atoms of whole lines with where each line starts (``base`` + position in ``data``), as
    ``tiers.iter_atoms`` yields them: bad lines skipped, a torn tail left."""
    found = []
    start = base
    for raw in data.split(b"\n")[:-1]:  # the piece after the last newline is torn (or empty)
        offset, start = start, start + len(raw) + 1
        try:
            record = fastjson.loads(raw)
        except fastjson.JSON_ERRORS:
            continue
        if isinstance(record, dict) and record.get("id") and atom_ok(record):
            found.append((offset, record))
    return found


# L1's whole lines as read, and the atoms they hold with where each line starts (``parse_atoms``)
ReadL1 = tuple[bytes, list[tuple[int, dict[str, Any]]]]


def make_all_keys(paths: Paths) -> ReadL1 | None:
    """Make the claim keys of every atom in L1 now, and the prompt terms of their wordings, in worker processes where
    there are many (``make_keys``), for processes forked after this one to find made
    (``reindex``: the claim tables' count here, the index's in a child).
    Returns L1 as read, for both steps to take rather than parse it again (None: it could not be read)."""
    try:
        data = tail_lines(paths.atoms, 0)
    except StoreError:
        return None  # each step meets the file as it is, and says why
    with gc_paused():  # (collections rescanning every atom parsed so far were over a third of the parse)
        atoms = parse_atoms(data)
        make_keys(atoms, terms=True)  # and the prompt terms of each new key's row in the index
    return data, atoms


def code_version() -> str:
    """Changes whenever claim identity may change: the tables' version and the text of ``claims/key.py``,
    ``claims/frame.py``, ``claims/cjk.py``, ``claims/relate.py``, ``text.py`` (whose stemming claim keys share),
    ``shapes.py`` (which atoms are counted), ``claims/tables.py``, ``claims/relations.py`` and
    ``claims/blocking.py`` (the pairs they keep),
    ``promote/gates.py``, ``claims/wording.py`` (the shown wording and claim id) and ``claims/evidence.py`` (the
    evidence counted)."""
    return _code_version(_KEY_SOURCE or "", _RELATE_SOURCE or "", _TEXT_SOURCE or "", _SHAPES_SOURCE or "",
                         tables.__file__ or "", str(Path(__file__).with_name("relations.py")),
                         *(str(Path(__file__).with_name(name))
                           for name in ("frame.py", "cjk.py", "wording.py", "evidence.py", "blocking.py")),
                         str(Path(__file__).parents[1] / "promote" / "gates.py"))


@lru_cache(maxsize=4)
def _code_version(*sources: str) -> str:
    digest = hashlib.sha1(f"{CACHE_VERSION}\x1f".encode())
    for source in sources:
        try:
            digest.update(Path(source).read_bytes())
        except OSError:
            pass
    return digest.hexdigest()[:16]


def load(paths: Paths, similarity: float) -> L1View:
    """L1 summarised by key: from the claim tables plus the atoms appended since, else from every atom."""
    with gc_paused():
        con = tables.open_for_reading(paths, code_version(), similarity)
        if con is not None:
            try:
                view = _from_tables(paths, con, similarity)
            except (sqlite3.Error, ValueError, KeyError, TypeError):
                view = None
            if view is not None:
                return view
        return _from_atoms(paths, whole_lines(paths.atoms), similarity)


def _from_tables(paths: Paths, con: Any, similarity: float) -> L1View | None:
    """The tables and the atoms appended after what they cover; None when L1 is not that prefix any more."""
    size, digest = tables.covered(con)
    seen = prefix_hash(paths.atoms, size)
    if seen is None or seen.hexdigest() != digest:
        return None
    names, keys, shown = tables.load_keys(con)
    summaries = summaries_packed(*tables.summary_rows(con), names, shown)
    tail = tail_lines(paths.atoms, size)
    new = _summarise(parse_atoms(tail, size), summaries)
    seen.update(tail)
    relations = Relations({t: keys[t] for t in summaries if t in keys}, tables.load_pairs(con, names),
                          tables.StoredBuckets(con, names))
    return L1View(summaries, relations.extend(new, similarity), size + len(tail), seen.hexdigest(), covered=size,
                  path=paths.atoms)


def _fold(rows: Iterable[tuple[Any, ...]]) -> dict[int, Summary]:
    """Summaries by key id from atom rows (``tables.rows_of_keys``, L1 order)."""
    # rows by key first (keys in the order L1 first holds them), then each key's columns at once: a pass
    # reads tens of thousands of rows, and a step per row costs more than the columns' own sets and lists
    grouped: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        found = grouped.get(row[0])
        if found is None:
            grouped[row[0]] = [row]
        else:
            found.append(row)
    by_id: dict[int, Summary] = {}
    for key, group in grouped.items():
        summary = by_id[key] = Summary()
        _, ids, offsets, kinds, stamps, days, sessions, projects, blocks, stated, redacted = zip(*group)
        summary.count = len(group)
        summary.ids = list(ids)
        summary.offsets = list(offsets)
        if any(blocks):
            for _, _, _, _, ts, day, session, _, block, _, _ in group:
                if block:
                    summary._block(block, [ts, session, day])
                else:
                    summary.sessions.add(session)
                    summary.days.add(day)
        else:
            summary.sessions = set(sessions)
            summary.days = set(days)
        summary.projects = set(projects)
        summary.first = min(filter(None, stamps), default="")
        kind = kinds[0]
        summary.kinds = {kind: len(kinds)} if kinds.count(kind) == len(kinds) else dict(Counter(kinds))
        summary.stated = any(stated)
        summary.redacted = any(redacted)
    return by_id


def pack(summary: Summary) -> str:
    """A key's folded atom rows as the claim tables keep them (``summaries``): a pass reads one row per key it
    builds, not each of its atom rows (tens of thousands at 100k atoms, most of a dry run's reading)."""
    return tables.dumps([summary.count, summary.ids, summary.offsets, sorted(summary.sessions), sorted(summary.days),
                         sorted(summary.projects), summary.first, summary.kinds, summary.blocks, int(summary.stated),
                         int(summary.redacted)])


def summaries_packed(packed: Iterable[tuple[int, int, str]], rows: Iterable[tuple[Any, ...]],
                     wordings: Iterable[tuple[int, str, int, str]], names: Mapping[int, str],
                     shown: Mapping[str, tuple[str, str]]) -> dict[str, Summary]:
    """Summaries by key text from packed summaries, the atom rows of keys kept unpacked, and wording rows
    (``tables.summary_rows``), keys in the order L1 first holds them."""
    loads = json.loads
    found: list[tuple[int, int, Summary]] = []
    for key, first, data in packed:
        count, ids, offsets, sessions, days, projects, stamp, kinds, blocks, stated, redacted = loads(data)
        found.append((first, key, Summary(count=count, ids=ids, offsets=offsets, sessions=set(sessions),
                                          days=set(days), projects=set(projects), first=stamp, kinds=kinds,
                                          blocks=blocks, stated=bool(stated), redacted=bool(redacted))))
    found.extend((summary.offsets[0], key, summary) for key, summary in _fold(rows).items())
    found.sort(key=lambda item: item[0])  # where each key's first atom is in L1: distinct for distinct keys
    return _named({key: summary for _first, key, summary in found}, wordings, names, shown)


def _save_summaries(con: Any, keys: Iterable[int], new: Iterable[int], rows: list[tuple[Any, ...]]) -> None:
    """Fold these keys' atom rows again and keep them packed (a writer's step, after their rows changed). ``rows``
    were just inserted and hold every row of the keys ``new`` to the tables; the others' rows are read."""
    fresh = set(new)
    older = [key for key in keys if key not in fresh]
    folded = _fold([row for row in rows if row[0] in fresh])
    if older:
        folded.update(_fold(tables.rows_of_keys(con, older)))
    tables.save_summaries(con, [(key, summary.offsets[0], pack(summary)) for key, summary in folded.items()
                                if summary.count > 1])


def _named(by_id: dict[int, Summary], wordings: Iterable[tuple[int, str, int, str]], names: Mapping[int, str],
           shown: Mapping[str, tuple[str, str]]) -> dict[str, Summary]:
    for key, text, count, stamp in wordings:
        by_id[key].texts[text] = [count, stamp]
    summaries: dict[str, Summary] = {}
    for key, summary in by_id.items():
        text = names[key]
        summary.claim_id, summary.shown = shown[text]
        summaries[text] = summary
    return summaries


def _from_atoms(paths: Paths, data: bytes, similarity: float) -> L1View:
    """Everything from every atom (no usable cache); the atoms stay at hand."""
    atoms = parse_atoms(data)
    make_keys(atoms)
    summaries: dict[str, Summary] = {}
    keys = {key.text: key for key in _summarise(atoms, summaries)}
    buckets = buckets_of_keys(keys)
    related = Relations(keys, related_pairs(keys, similarity, buckets), buckets)  # Relations().extend(keys), in workers
    view = L1View(summaries, related, len(data), hashlib.sha1(data).hexdigest(), covered=-1, path=paths.atoms)
    by_key: dict[str, list[dict[str, Any]]] = {}
    for _offset, atom in atoms:
        key = atom_key(atom).text
        if key in summaries:
            by_key.setdefault(key, []).append(atom)
    view._atoms = by_key
    return view


def _summarise(atoms: list[tuple[int, dict[str, Any]]], summaries: dict[str, Summary]) -> list[Key]:
    """Count atoms into ``summaries`` by key; returns the keys not there before."""
    new: dict[str, Key] = {}
    for offset, atom in atoms:
        key = atom_key(atom)
        if not key.tokens:
            continue
        key_text = key.text
        summary = summaries.get(key_text)
        if summary is None:
            summary = summaries[key_text] = Summary()
            new[key_text] = key
        summary.add(atom, offset)
    return list(new.values())


def refresh(paths: Paths, similarity: float, view: L1View | None = None) -> L1View:
    """Bring the claim tables up to date with L1 (a writer's step, under the store lock), then read them whole.

    Only the atoms after what the tables cover are counted in. Tables that cannot be written cost
    the next pass its speed, never the writer its work (``keep_up`` logs why).
    """
    keep_up(paths, similarity)
    return view if view is not None and view.covered == view.end else load(paths, similarity)


def keep_up(paths: Paths, similarity: float, read: ReadL1 | None = None) -> None:
    """``catch_up`` for a writer that must not fail for derived tables (ingest): a failure is logged."""
    from ..store import log_error

    try:
        catch_up(paths, similarity, read)
    except (OSError, sqlite3.Error, tables.NotPlain) as exc:
        log_error(paths, "claim tables", exc)


def catch_up(paths: Paths, similarity: float, read: ReadL1 | None = None) -> int:
    """Fold the atoms L1 gained since the tables' covered prefix into them; returns the atoms added.

    L1 that no longer starts with that prefix (rewritten by forget, or by hand) is counted again
    from its first line. An old store's ``claim-cache.json`` goes once the tables stand. ``read``: L1 as the
    caller has just read and parsed it (``make_all_keys``), taken where the lines to count are those very bytes.
    """
    version = code_version()
    # gc paused: counting a whole L1 again (new tables, new claim code) makes a record per atom and key
    with gc_paused(), tables.writing(paths, version, similarity) as con:
        size, digest = tables.covered(con)
        seen = prefix_hash(paths.atoms, size)
        if seen is None or seen.hexdigest() != digest:
            tables.reset(con)
            size, seen = 0, hashlib.sha1()
        tail = tail_lines(paths.atoms, size)
        added = 0
        if tail:
            atoms = read[1] if read is not None and size == 0 and read[0] == tail else parse_atoms(tail, size)
            if size == 0:
                make_keys(atoms)
                # every page of the tables is written, most of them more than once: kept in memory until the commit
                # rather than spilled and read back (SQLite's default cache is 2 MB; 85k atoms make ~60 MB of tables)
                con.execute(f"PRAGMA cache_size=-{FRESH_CACHE_KIB}")
            con.execute("BEGIN")
            try:
                new, touched, rows = tables.add_atoms(con, atoms)
                worded = tables.wordings_of(con, touched.values())
                tables.set_shown(con, {ident: shown_wording(worded.get(ident, {})) for ident in touched.values()})
                tables.count_evidence(con, touched.values())
                _save_summaries(con, touched.values(), (touched[text] for text in new), rows)
                if new:
                    _relate(con, new, similarity, fresh=size == 0)
                seen.update(tail)
                # the whole file, under the store lock: a reader that finds it as it is now need not hash it
                whole = size + len(tail) == os.stat(paths.atoms).st_size
                tables.set_covered(con, size + len(tail), seen.hexdigest(), identity_text(paths.atoms) if whole else "")
                con.execute("COMMIT")
                if whole:
                    remember(paths.atoms, size + len(tail), seen)
            except BaseException:
                con.execute("ROLLBACK")
                raise
            added = len(atoms)
    with contextlib.suppress(OSError):
        os.unlink(paths.claim_cache)  # the JSON claim cache these tables replace
    return added


def shown_wording(texts: dict[str, list[Any]]) -> str:
    """``wording.shown_text``: a key of one wording (most keys of a long history) shows it tidied, without ranking
    it against none (ranking normalises it: a sixth of counting a new set of tables)."""
    from .wording import shown_text, tidy_wording

    return tidy_wording(next(iter(texts))) if len(texts) == 1 else shown_text(texts)


def _relate(con: Any, new: dict[str, Key], similarity: float, fresh: bool) -> None:
    """Buckets and candidate pairs for keys new to the tables (their rows are in, their buckets not yet)."""
    ids = tables.key_ids(con, new)
    if fresh:
        names, old, pairs = {ident: text for text, ident in ids.items()}, {}, {}
    else:
        # only the keys a new key can meet: members of its buckets, and the keys of every pair
        wanted = set(tables.bucket_members(con, {tables.bucket_id(side) for k in new.values() for b in buckets_of(k)
                                                  for side in (b, *sides(b))}))
        wanted |= tables.paired(con)
        names, found = tables.load_some_keys(con, wanted)
        names.update({ident: text for text, ident in ids.items()})
        old = {text: key for text, key in found.items() if text not in new}
        pairs = tables.load_pairs(con, names)
        ids.update({text: ident for ident, text in names.items()})
    buckets = buckets_of_keys(new)
    if fresh:
        grown = related_pairs(new, similarity, buckets)
    else:
        grown = Relations(old, dict(pairs), tables.StoredBuckets(con, names)).extend(new.values(), similarity).pairs
    dropped = [pair for pair in pairs if pair not in grown]
    added = {pair: rel for pair, rel in grown.items() if pairs.get(pair) != rel}
    bucket_id = tables.bucket_id
    rows = [(bucket_id(bucket), ids[text]) for bucket, members in buckets.items() for text in members]
    if not fresh:
        rows.sort()  # into a table already large, through the default page cache: in its order, not all over it
    tables.save_relations(con, ids, rows, dropped, added)
