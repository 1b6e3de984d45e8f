"""The claim cache: what promote needs from L1, kept next to it so a dry run need not re-derive it.

Derived and rebuildable (``L1/claim-cache.json``): for each claim key of L1, the aggregates the
gates count (sessions, days, projects, first timestamp, wordings, kinds, stated, redacted, atom
ids), the blocking buckets, and the relations between keys that blocking makes candidates.
It covers a prefix of ``L1/atoms.jsonl`` named by its length and SHA-1; atoms appended since are
folded in from the tail, anything else (missing, corrupt, rewritten L1, other code or config)
means recomputing in memory. Only writers (ingest, ``promote --write``) save it, under the store
lock. It holds nothing an atom does not already hold. Standard library only.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from .. import text
from ..model import StoreError
from ..store import Paths, atomic_write
from .key import __file__ as _KEY_SOURCE
from .key import Key, atom_key
from .relate import __file__ as _RELATE_SOURCE
from .relate import blocking_keys, relate, replaced_by_correction

CACHE_VERSION = 3
BUCKET_LIMIT = 400  # a bucket bigger than this is a common word, not a candidate set
SLACK_MIN = 256 * 1024  # bytes of L1 a cache may lag behind before a writer rewrites it
Bucket = tuple[str, ...]
_SEP = "\x1f"  # joins a bucket's tokens in the file (whitespace to Python, so never inside a token)

# how two keys (first < second by key text) stand: relate's kind and reason, then whether the
# first, resp. the second, read as a correction "X, not Y" replaces the other
Relation = tuple[str, str, bool, bool]


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

    def add(self, atom: dict[str, Any], offset: int) -> None:
        """Count one more atom (its line starts ``offset`` bytes into L1)."""
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


@dataclass
class Relations:
    """Blocking buckets over a set of keys, and every candidate pair that is not simply two claims."""

    keys: dict[str, Key] = field(default_factory=dict)  # key text → key
    pairs: dict[tuple[str, str], Relation] = field(default_factory=dict)  # (a, b) with a < b
    buckets: Mapping[Bucket, list[str]] = field(default_factory=dict, repr=False)  # bucket → key texts

    def extend(self, new: Iterable[Key], similarity: float) -> "Relations":
        """These relations with more keys: buckets grow, so pairs are added and some drop out.

        Exactly what relating every candidate pair of the larger key set gives: a bucket that
        outgrows the limit stops making candidates, and only pairs touching a new key are related.
        """
        added = {k.text: k for k in new if k.text not in self.keys}
        if not added:
            return self
        touched: dict[tuple[str, ...], list[str]] = {}
        for text, key in added.items():
            for bucket in _buckets(key):
                members = touched.get(bucket)
                if members is None:
                    members = touched[bucket] = list(self.buckets.get(bucket, ()))
                members.append(text)
        keys = {**self.keys, **added}
        buckets = _Layered(touched, self.buckets)
        affected = {m for b in touched for m in self.buckets.get(b, ())}
        pairs = {pair: rel for pair, rel in self.pairs.items()
                 if (pair[0] not in affected and pair[1] not in affected) or _still_candidate(pair, keys, touched, buckets)}
        done: set[tuple[str, str]] = set()
        for members in touched.values():
            if len(members) < 2 or len(members) > BUCKET_LIMIT:
                continue
            for text in members:
                if text not in added:
                    continue
                for other in members:
                    if other == text or (other in added and other < text):
                        continue  # a pair of two new keys is related once, from its smaller key
                    pair = (text, other) if text < other else (other, text)
                    if pair in done:
                        continue
                    done.add(pair)
                    rel = relation(keys[pair[0]], keys[pair[1]], similarity)
                    if rel is not None:
                        pairs[pair] = rel
        return Relations(keys, pairs, buckets)


def relation(a: Key, b: Key, similarity: float) -> Relation | None:
    """How two keys stand, or None when they are simply two claims (the common case)."""
    rel = relate(a, b, similarity)
    if rel.kind != "distinct":
        return (rel.kind, rel.reason, False, False)
    ab, ba = replaced_by_correction(a, b), replaced_by_correction(b, a)
    return ("distinct", "", ab, ba) if ab or ba else None


@lru_cache(maxsize=1 << 17)
def _buckets(key: Key) -> frozenset[tuple[str, ...]]:
    return frozenset(b for b in blocking_keys(key) if len(b) >= 2)


def _still_candidate(pair: tuple[str, str], keys: dict[str, Key], touched: dict[Bucket, list[str]],
                     buckets: Mapping[Bucket, list[str]]) -> bool:
    """A pair stays a candidate while some bucket they share is small enough (buckets only grow)."""
    shared = _buckets(keys[pair[0]]) & _buckets(keys[pair[1]])
    if not any(b in touched for b in shared):
        return True
    return any(2 <= len(buckets[b]) <= BUCKET_LIMIT for b in shared)


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
    _total: int = -1

    def atoms_of(self, key_text: str) -> list[dict[str, Any]]:
        """The atoms of one key, in file order.

        A few keys are read line by line from where their atoms start; once a quarter of L1 has
        been asked for, L1 (up to ``end``) is read whole, once.
        """
        if self._total < 0:
            self._total = sum(s.count for s in self.summaries.values())
        if self._atoms is None and self._lines_read * 4 > self._total:
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
                except (ValueError, UnicodeDecodeError):
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
        data = _read_prefix(self.path, self.end)
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
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(record, dict) and record.get("id") and isinstance(record.get("text"), str):
            found.append((offset, record))
    return found


def is_prefix(paths: Paths, size: int, digest: str) -> bool:
    """Whether L1 still begins with the ``size`` bytes whose SHA-1 is ``digest`` (it only grew since)."""
    data = _read_prefix(paths.atoms, size)
    return len(data) == size and hashlib.sha1(data).hexdigest() == digest


def _read_prefix(path: Path, end: int) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(end)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _whole_lines(path: Path) -> bytes:
    """L1 up to its last newline (a torn last record is not a record yet)."""
    data = _read_prefix(path, -1)
    return data[: data.rfind(b"\n") + 1]


def code_version() -> str:
    """Changes whenever claim identity may change: the cache version and the text of ``claims/key.py``,
    ``claims/relate.py`` and ``text.py`` (whose stemming claim keys share)."""
    return _code_version(_KEY_SOURCE or "", _RELATE_SOURCE or "", text.__file__ or "")


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
    """L1 summarised by key: from the cache plus the atoms appended since, else from every atom."""
    data = _whole_lines(paths.atoms)
    with gc_paused():
        cached = _read_cache(paths.claim_cache, similarity)
        view = _from_cache(paths, data, cached, similarity) if cached else None
        return view or _from_atoms(paths, data, similarity)


def _from_cache(paths: Paths, data: bytes, cached: tuple[int, str, dict[str, Summary], Relations],
                similarity: float) -> L1View | None:
    """The cache and the atoms appended after what it covers; None when L1 is not that prefix any more."""
    size, digest, summaries, relations = cached
    whole = memoryview(data)
    seen = hashlib.sha1(whole[:size])
    if size > len(data) or seen.hexdigest() != digest:
        return None
    new = _summarise(parse_atoms(data[size:], size), summaries)
    seen.update(whole[size:])
    return L1View(summaries, relations.extend(new, similarity), len(data), seen.hexdigest(), covered=size,
                  path=paths.atoms)


def _from_atoms(paths: Paths, data: bytes, similarity: float) -> L1View:
    """Everything from every atom (no usable cache); the atoms stay at hand."""
    atoms = parse_atoms(data)
    summaries: dict[str, Summary] = {}
    new = _summarise(atoms, summaries)
    view = L1View(summaries, Relations().extend(new, similarity), len(data), hashlib.sha1(data).hexdigest(),
                  covered=-1, path=paths.atoms)
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


# ---------------------------------------------------------------- the file


def _read_cache(path: Path, similarity: float) -> tuple[int, str, dict[str, Summary], Relations] | None:
    """The cache, or None when it is missing, unreadable, or made by other code or settings."""
    try:
        raw = path.read_bytes()
        head, _, rest = raw.partition(b"\n")
        found = json.loads(head)
        if (not isinstance(found, dict) or found.get("version") != code_version()
                or found.get("similarity") != similarity):
            return None
        return _decode(found, rest)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def _decode(found: dict[str, Any], rest: bytes) -> tuple[int, str, dict[str, Summary], Relations]:
    sessions, days, projects = found["sessions"], found["days"], found["projects"]
    keys: dict[str, Key] = {}
    summaries: dict[str, Summary] = {}
    names: list[str] = []
    for negated, tokens, count, ids, offsets, ss, dd, pp, first, texts, kinds, stated, redacted, blocks in found["keys"]:
        key = Key(negated is True, tuple(tokens))
        text = key.text
        if (text in keys or not key.tokens or len(ids) != count or len(offsets) != count
                or not all(len(t) == 2 for t in texts.values())):
            raise ValueError("bad key")
        keys[text] = key
        names.append(text)
        summaries[text] = Summary(count, ids, {sessions[i] for i in ss}, {days[i] for i in dd},
                                  {projects[i] for i in pp}, first, texts, kinds, stated is True, redacted is True,
                                  offsets, {str(b): [str(v) for v in f] for b, f in blocks.items()})
    pairs = {(names[i], names[j]): (kind, reason, ab is True, ba is True) for i, j, kind, reason, ab, ba in found["pairs"]}
    return int(found["l1_bytes"]), str(found["l1_sha1"]), summaries, Relations(keys, pairs, _StoredBuckets(rest, list(keys.values())))


class _StoredBuckets(Mapping[Bucket, list[str]]):
    """The cache's second line, parsed when a new key first needs a bucket and decoded a bucket at a time.

    Buckets follow from the keys, so a damaged line costs only the time to derive them again.
    """

    def __init__(self, line: bytes, keys: list[Key]) -> None:
        self._line, self._keys = line, keys
        self._raw: dict[str, list[int]] | None = None

    def _load(self) -> dict[str, list[int]]:
        if self._raw is None:
            try:
                raw = json.loads(self._line)["buckets"]
                count = len(self._keys)
                if not all(isinstance(i, int) and 0 <= i < count for members in raw.values() for i in members):
                    raise ValueError("bad bucket")
            except (ValueError, KeyError, TypeError, AttributeError):
                raw = {}
                for n, key in enumerate(self._keys):
                    for bucket in _buckets(key):
                        raw.setdefault(_SEP.join(bucket), []).append(n)
            self._raw = raw
        return self._raw

    def __getitem__(self, bucket: Bucket) -> list[str]:
        return [self._keys[i].text for i in self._load()[_SEP.join(bucket)]]

    def __iter__(self) -> Iterator[Bucket]:
        return (tuple(b.split(_SEP)) for b in self._load())

    def __len__(self) -> int:
        return len(self._load())

    def line_for(self, names: list[str]) -> bytes | None:
        """The stored line as it is, when it numbers exactly these keys (nothing to decode or encode)."""
        if len(names) == len(self._keys) and all(k.text == n for k, n in zip(self._keys, names)):
            return self._line
        return None


class _Layered(Mapping[Bucket, list[str]]):
    """Buckets that grew (``top``) over the ones they grew from (``base``), without copying the base."""

    def __init__(self, top: dict[Bucket, list[str]], base: Mapping[Bucket, list[str]]) -> None:
        self.top, self.base = top, base

    def __getitem__(self, bucket: Bucket) -> list[str]:
        found = self.top.get(bucket)
        return found if found is not None else self.base[bucket]

    def __iter__(self) -> Iterator[Bucket]:
        yield from self.top
        yield from (b for b in self.base if b not in self.top)

    def __len__(self) -> int:
        return sum(1 for _b in self)


class _NotPlain(Exception):
    """An atom off the schema (a kind, session, day or project that is not text): such a store is not cached."""


def save(paths: Paths, view: L1View, similarity: float) -> bool:
    """Write the cache for ``view`` atomically (callers hold the store lock); False when it cannot hold it."""
    try:
        head = _head(view, similarity)
    except _NotPlain:
        return False
    names = head.pop("names")
    stored = view.relations.buckets
    line = stored.line_for(names) if isinstance(stored, _StoredBuckets) else None
    if line is None:
        index = {name: i for i, name in enumerate(names)}
        buckets = {_SEP.join(b): sorted(index[m] for m in members) for b, members in stored.items()}
        line = json.dumps({"buckets": buckets}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    body = json.dumps(head, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n" + line.rstrip(b"\n") + b"\n"
    atomic_write(paths.claim_cache, body)
    return True


def _head(view: L1View, similarity: float) -> dict[str, Any]:
    """The cache's first line (and, under ``names``, the key texts in row order)."""
    names = sorted(view.summaries)
    index = {name: i for i, name in enumerate(names)}
    tables: dict[str, dict[str | None, int]] = {"sessions": {}, "days": {}, "projects": {}}

    def ref(table: str, values: set[str]) -> list[int]:
        found = tables[table]
        if not all(v is None or type(v) is str for v in values):
            raise _NotPlain(table)  # 1 and True would share a row of the table
        return sorted(found.setdefault(v, len(found)) for v in values)

    rows = []
    for name in names:
        key, s = view.relations.keys[name], view.summaries[name]
        if not all(type(k) is str for k in s.kinds):
            raise _NotPlain("kind")  # JSON object keys are text
        rows.append([key.negated, list(key.tokens), s.count, s.ids, s.offsets, ref("sessions", s.sessions),
                     ref("days", s.days), ref("projects", s.projects), s.first, s.texts, s.kinds, s.stated, s.redacted,
                     s.blocks])
    pairs = sorted((index[a], index[b], rel) for (a, b), rel in view.relations.pairs.items())
    return {
        "version": code_version(), "similarity": similarity, "l1_bytes": view.end, "l1_sha1": view.digest,
        **{name: list(table) for name, table in tables.items()},
        "keys": rows,
        "pairs": [[i, j, *rel] for i, j, rel in pairs],
        "names": names,
    }


def refresh(paths: Paths, similarity: float, view: L1View | None = None, slack: int | None = None) -> L1View:
    """Bring the cache up to date with L1 (a writer's step, under the store lock).

    A cache only a little behind is left as it is: rewriting it would cost more than reading
    the atoms after it, which every pass does anyway. Behind means more than ``slack`` bytes
    of L1 after it (default: a sixteenth of what it covers, at least 256 KiB). A cache that
    cannot be written costs the next dry run its speed, never the writer its work.
    """
    view = view or load(paths, similarity)
    if slack is None:
        slack = max(SLACK_MIN, view.covered // 16)
    if view.covered < 0 or view.end - view.covered > slack:
        try:
            save(paths, view, similarity)
        except OSError:
            pass
    return view
