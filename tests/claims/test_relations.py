"""Relations grown key by key are exactly those of relating every candidate pair of the whole key set."""

from __future__ import annotations

from typing import Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agent_memory.claims import Key, claim_key, relate, relations, replaced_by_correction

SIMILARITY = 0.85

_WORDS = ["use", "pnpm", "npm", "port", "8080", "8443", "always", "never", "run", "tests", "test", "commit", "not",
          "src/app.py", "lib/db.py"]


def _linked(a: Key, b: Key, buckets: dict[tuple[str, ...], list[Key]], limit: int) -> bool:
    """Whether two keys are a candidate pair: a bucket of both, of 2 to ``limit`` keys, or one in a hub and the other
    in its spoke, or one in a side bucket and the other in the bucket it stands beside, each of 1 to ``limit`` keys."""
    for bucket in relations.buckets_of(a):
        mark, name = bucket[0][:1], bucket[0][1:]
        if mark in (relations.HUB, relations.SPOKE, relations.SIDE):
            across = {relations.HUB: relations.SPOKE + name, relations.SPOKE: relations.HUB + name, relations.SIDE: name}
            others = [(across[mark],) + bucket[1:]]
        else:
            others = [(relations.SIDE + bucket[0],) + bucket[1:]]
            if b in buckets[bucket] and 2 <= len(buckets[bucket]) <= limit:
                return True
        if any(other in relations.buckets_of(b) and len(buckets[bucket]) <= limit and len(buckets[other]) <= limit
               for other in others):
            return True
    return False


def _brute_force(keys: list[Key], limit: int) -> dict[tuple[str, str], relations.PairRelation]:
    """What promote did before the cache: every candidate pair of the whole key set, related."""
    buckets: dict[tuple[str, ...], list[Key]] = {}
    for key in keys:
        for bucket in relations.buckets_of(key):
            buckets.setdefault(bucket, []).append(key)
    found = {}
    for a in keys:
        for b in keys:
            if a.text < b.text and _linked(a, b, buckets, limit):
                rel = relate(a, b, SIMILARITY)
                if rel.kind != "distinct":
                    found[(a.text, b.text)] = (rel.kind, rel.reason, False, False)
                elif replaced_by_correction(a, b) or replaced_by_correction(b, a):
                    found[(a.text, b.text)] = ("distinct", "", replaced_by_correction(a, b), replaced_by_correction(b, a))
    return found


_TEXTS = st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4).map(" ".join), min_size=1, max_size=24)
_STEPS = st.lists(st.integers(1, 6), min_size=1, max_size=6)


def _grown_step_by_step(texts: list[str], steps: list[int]) -> Iterator[tuple[relations.Relations, list[Key]]]:
    """Relations grown a few keys at a time, with the keys they hold so far."""
    keys = list({k.text: k for k in map(claim_key, texts) if k.tokens}.values())
    grown = relations.Relations()
    start = 0
    for step in steps + [len(keys)]:
        grown = grown.extend(keys[start : start + step], SIMILARITY)
        start += step
        yield grown, keys[:start]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=_TEXTS, steps=_STEPS, limit=st.integers(2, 5))
def test_growing_relations_key_by_key_equals_relating_all_candidates(texts: list[str], steps: list[int], limit: int,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relations, "BUCKET_LIMIT", limit)  # small buckets overflow as keys arrive
    for grown, keys in _grown_step_by_step(texts, steps):
        assert grown.pairs == _brute_force(keys, limit)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=_TEXTS, steps=_STEPS, limit=st.integers(2, 5))
@example(texts=["use src/app.py", "use npm"], steps=[1], limit=5)  # a side's key first, its bucket's after
def test_growing_key_by_key_pairs_every_candidate_pair_once(texts: list[str], steps: list[int], limit: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # every candidate pair "related": what is paired, not what relate makes of it (side buckets included)
    monkeypatch.setattr(relations, "BUCKET_LIMIT", limit)
    monkeypatch.setattr(relations, "relation", lambda a, b, similarity: ("candidate", "", False, False))
    for grown, keys in _grown_step_by_step(texts, steps):
        buckets: dict[tuple[str, ...], list[Key]] = {}
        for key in keys:
            for bucket in relations.buckets_of(key):
                buckets.setdefault(bucket, []).append(key)
        assert set(grown.pairs) == {(a.text, b.text) for a in keys for b in keys
                                    if a.text < b.text and _linked(a, b, buckets, limit)}


@pytest.mark.parametrize("lift, rule", [
    ("mutable vars are fine in Kotlin", "Prefer vals over mutable vars in Kotlin."),
    ("`print()` is fine in scripts", "Use the logger instead of print() in scripts."),
    ("expect() is fine in the worker", "Never call `.expect()` in the worker, propagate with `?`."),
])
def test_a_permission_meets_the_choice_that_rejects_what_it_allows(lift: str, rule: str) -> None:
    # they share a bucket, so they are related at all, and they clash
    a, b = claim_key(lift), claim_key(rule)
    assert (relations.buckets_of(a) & relations.buckets_of(b)
            or {y for x in relations.buckets_of(a) for y in relations.sides(x)} & relations.buckets_of(b)), (a.text, b.text)
    assert relate(a, b, SIMILARITY).kind == "contradiction", (a.text, b.text)


def _candidates(*texts: str) -> set[frozenset[str]]:
    keys = [claim_key(t) for t in texts]
    buckets: dict[tuple[str, ...], list[str]] = {}
    for key in keys:
        for bucket in relations.buckets_of(key):
            buckets.setdefault(bucket, []).append(key.text)
    by_text = {k.text: t for k, t in zip(keys, texts)}
    return {frozenset((by_text[a], by_text[b])) for a, b in relations.candidate_pairs(buckets)}


def test_keys_naming_two_things_in_one_place_are_not_paired_by_that_place() -> None:
    # one path in place of another is another rule, never a slip or a swapped value: no candidate pair
    a, b = "Never import src/billing/ledger.py outside billing.", "Never import src/billing/refunds.py outside billing."
    assert frozenset((a, b)) not in _candidates(a, b)
    # a word in place of a thing named still meets it ("the base image is debian_slim, not alpine" / "don't use
    # alpine for the base image": a choice and the prohibition it replaces)
    rule, ban = "The base image is debian_slim, not alpine.", "Do not use alpine for the base image."
    side = [(x, y) for x in relations.buckets_of(claim_key(rule)) for y in relations.sides(x)
            if y != x and y in relations.buckets_of(claim_key(ban))]
    assert side and side[0][0][0][:1] == relations.SIDE
    assert frozenset((rule, ban)) in _candidates(rule, ban)


def test_a_thing_without_its_place_meets_its_prohibition_not_the_same_thing_elsewhere() -> None:
    rule = "Always open PRs against develop for the hotfix."
    assert frozenset((rule, "Never open PRs against develop.")) in _candidates(rule, "Never open PRs against develop.")
    # two rules taking one thing in two places stand in the same spoke, and a spoke pairs only with its hub
    a = claim_key("Always load the stripe fixtures in the payments tests.")
    b = claim_key("Always load the stripe fixtures in the email tests.")
    halves_a = {x for x in relations.buckets_of(a) if x[0][:1] in (relations.HUB, relations.SPOKE)}
    halves_b = {x for x in relations.buckets_of(b) if x[0][:1] in (relations.HUB, relations.SPOKE)}
    assert halves_a & halves_b, "they share the thing's spoke"
    assert not {y for x in halves_a for y in relations.sides(x)} & relations.buckets_of(b)
    assert all(relations.sides(relations.sides(x)[0]) == (x,) != relations.sides(x) for x in halves_a)


@pytest.mark.parametrize("prohibition, rule", [
    # a prohibition of two words against a rule doing it in two or three words more
    ("Stop wrapping errors.", "Always wrap errors with fmt.Errorf when you return them."),
    ("Don't pin the base images anymore.", "Always pin base images by digest in every Dockerfile."),
    ("Stop squashing commits.", "Always squash commits when you merge a PR."),
])
def test_a_prohibition_meets_a_rule_doing_it_in_more_words(prohibition: str, rule: str) -> None:
    assert frozenset((prohibition, rule)) in _candidates(prohibition, rule)
    assert relate(claim_key(prohibition), claim_key(rule), SIMILARITY).kind == "contradiction"


def test_a_short_rule_meets_the_choice_rejecting_what_it_takes() -> None:
    choice, rule = "Event names should be past tense, not imperative.", "Switch event names to imperative."
    assert frozenset((choice, rule)) in _candidates(choice, rule)
    assert relate(claim_key(choice), claim_key(rule), SIMILARITY).kind == "contradiction"


@pytest.mark.parametrize("prohibition, rule", [
    # the forbidden step named only as the moment of another ("never push to main" forbids no check before it)
    ("Never push directly to main.", "Always run the linters before pushing to main."),
    # a prohibition for one end, a rule for another
    ("Never use pandas for parsing the logs.", "Use pandas in the notebooks for reports."),
    # a subject of its own, narrower than what is forbidden
    ("Never use the ORM for bulk inserts.", "The billing exporter service uses the ORM for bulk inserts."),
])
def test_a_rule_narrower_or_earlier_than_a_prohibition_does_not_contest_it(prohibition: str, rule: str) -> None:
    assert relate(claim_key(prohibition), claim_key(rule), SIMILARITY).kind != "contradiction", \
        (claim_key(prohibition).text, claim_key(rule).text)
