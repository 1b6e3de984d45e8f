"""Relations between claim keys: blocking buckets, and every candidate pair that is more than two claims.

Keys are compared only within a bucket (``blocking.blocking_keys``), across the two halves of one (a hub's
members with its spoke's) or between a side and the bucket it stands beside; a bucket, half or side over
``BUCKET_LIMIT`` keys is a common word, not a candidate set. Grown key by key, the pairs are exactly those of
relating every candidate pair of the whole key set. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Iterable, Iterator, Mapping

from .key import Key
from .blocking import HUB, SIDE, SPOKE, blocking_keys
from .relate import relate, replaced_by_correction

BUCKET_LIMIT = 400  # a bucket bigger than this is a common word, not a candidate set
Bucket = tuple[str, ...]

# how two keys (first < second by key text) stand: relate's kind and reason, then whether the
# first, resp. the second, read as a correction "X, not Y" replaces the other
PairRelation = tuple[str, str, bool, bool]


@dataclass
class Relations:
    """Blocking buckets over a set of keys, and every candidate pair that is not simply two claims."""

    keys: dict[str, Key] = field(default_factory=dict)  # key text → key
    pairs: dict[tuple[str, str], PairRelation] = field(default_factory=dict)  # (a, b) with a < b
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
            for bucket in buckets_of(key):
                members = touched.get(bucket)
                if members is None:
                    members = touched[bucket] = list(self.buckets.get(bucket, ()))
                members.append(text)
        keys = {**self.keys, **added}
        buckets = _Layered(touched, self.buckets)
        # a half or a side that grew changes what the bucket across pairs with: the members of both are affected
        affected = {m for b in touched for side in (b, *sides(b)) for m in self.buckets.get(side, ())}
        pairs = {pair: rel for pair, rel in self.pairs.items()
                 if (pair[0] not in affected and pair[1] not in affected) or _still_candidate(pair, keys, touched, buckets)}
        done: set[tuple[str, str]] = set()
        for bucket, members in touched.items():
            for other_side in sides(bucket):
                whole = other_side == bucket
                others = members if whole else buckets.get(other_side)
                if others is None or not candidate_set(members, None if whole else others):
                    continue
                for text in members:
                    if text not in added:
                        continue
                    for other in others:
                        if other == text or (other in added and other < text and whole):
                            continue  # a pair of two new keys in one bucket is related once, from its smaller key
                        pair = (text, other) if text < other else (other, text)
                        if pair in done:
                            continue
                        done.add(pair)
                        rel = relation(keys[pair[0]], keys[pair[1]], similarity)
                        if rel is not None:
                            pairs[pair] = rel
        return Relations(keys, pairs, buckets)


def relation(a: Key, b: Key, similarity: float) -> PairRelation | None:
    """How two keys stand, or None when they are simply two claims (the common case)."""
    rel = relate(a, b, similarity)
    if rel.kind != "distinct":
        return (rel.kind, rel.reason, False, False)
    ab, ba = replaced_by_correction(a, b), replaced_by_correction(b, a)
    return ("distinct", "", ab, ba) if ab or ba else None


@lru_cache(maxsize=1 << 17)
def buckets_of(key: Key) -> frozenset[tuple[str, ...]]:
    return frozenset(b for b in blocking_keys(key) if len(b) >= 2)


def buckets_of_keys(keys: Mapping[str, Key]) -> dict[Bucket, list[str]]:
    """The blocking buckets of these keys, with the keys (by text) in each."""
    found: dict[Bucket, list[str]] = {}
    for text, key in keys.items():
        for bucket in buckets_of(key):
            members = found.get(bucket)
            if members is None:
                found[bucket] = [text]
            else:
                members.append(text)
    return found


def sides(bucket: Bucket) -> tuple[Bucket, ...]:
    """The buckets whose members a member of this one is paired with: a whole bucket and the side beside it, a
    half's other half, a side's whole bucket."""
    mark, name = bucket[0][:1], bucket[0][1:]
    if mark == HUB:
        return ((SPOKE + name,) + bucket[1:],)
    if mark == SPOKE:
        return ((HUB + name,) + bucket[1:],)
    if mark == SIDE:
        return ((name,) + bucket[1:],)
    return bucket, (SIDE + bucket[0],) + bucket[1:]


def candidate_set(members: list[str], others: list[str] | None) -> bool:
    """Whether a bucket (``others`` None) or a hub with its spoke makes candidates: small enough, and two keys."""
    if others is None:
        return 2 <= len(members) <= BUCKET_LIMIT
    return 1 <= len(members) <= BUCKET_LIMIT and 1 <= len(others) <= BUCKET_LIMIT


def candidate_pairs(buckets: Mapping[Bucket, list[str]]) -> Iterator[tuple[str, str]]:
    """Every candidate pair (a, b), a < b, of these buckets, in the order buckets make them (repeats included):
    a bucket's members with each other, a hub's members with its spoke's, a side's with its bucket's."""
    for bucket, members in buckets.items():
        mark = bucket[0][:1]
        if mark == SPOKE:
            continue  # paired from its hub
        if mark in (HUB, SIDE):
            (across,) = sides(bucket)
            others = buckets.get(across)
            if others is None or not candidate_set(members, others):
                continue
            for a in members:
                for b in others:
                    if a != b:
                        yield (a, b) if a < b else (b, a)
        elif candidate_set(members, None):
            yield from combinations(sorted(members), 2)


def _still_candidate(pair: tuple[str, str], keys: dict[str, Key], touched: dict[Bucket, list[str]],
                     buckets: Mapping[Bucket, list[str]]) -> bool:
    """A pair stays a candidate while some bucket they share, or some hub and spoke or side and bucket they stand
    on, is small enough (buckets only grow)."""
    of_a, of_b = buckets_of(keys[pair[0]]), buckets_of(keys[pair[1]])
    links = [(b, None if side == b else side) for b in of_a for side in sides(b) if side in of_b]
    if not any(b in touched or (p is not None and p in touched) for b, p in links):
        return True
    return any(candidate_set(buckets[b], None if p is None else buckets[p]) for b, p in links)


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
