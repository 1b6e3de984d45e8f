"""Wordings join along their "same" links, but never so far that two that can never be one claim meet."""

from __future__ import annotations

from dataclasses import dataclass

from agent_memory.claims import claim_key
from agent_memory.claims.key import Key
from agent_memory.claims.relate import apart
from agent_memory.promote.gates import _join


@dataclass
class _Group:
    key: Key


def _groups(*texts: str) -> list[_Group]:
    return [_Group(claim_key(t)) for t in texts]


def test_links_join_wordings_into_one_cluster() -> None:
    groups = _groups("Always delete the branch after merging.", "delete the feature branch after merging",
                     "delete the branch after merging the PR")
    owner, refused = _join(groups, {0: {1, 2}, 1: {0}, 2: {0}}, 0.85)
    assert len(set(owner.values())) == 1 and not refused


def test_a_link_that_would_meet_another_value_is_refused_and_reported() -> None:
    groups = _groups("Always run ruff before committing.", "always run ruff when committing",
                     "Always run ruff after committing.")
    assert apart(groups[0].key, groups[2].key)
    owner, refused = _join(groups, {0: {1}, 1: {0, 2}, 2: {1}}, 0.85)
    assert owner[0] != owner[2]
    assert refused and all(others for others in refused.values())


def test_the_result_does_not_depend_on_the_order_the_groups_came_in() -> None:
    texts = ["Always run ruff before committing.", "always run ruff when committing", "Always run ruff after committing."]
    clusters = []
    for order in ([0, 1, 2], [2, 1, 0], [1, 2, 0]):
        groups = _groups(*(texts[i] for i in order))
        at = {t: n for n, t in enumerate(texts[i] for i in order)}
        link = {at[texts[0]]: {at[texts[1]]}, at[texts[1]]: {at[texts[0]], at[texts[2]]}, at[texts[2]]: {at[texts[1]]}}
        owner, _refused = _join(groups, link, 0.85)
        by_text = {}
        for i, head in owner.items():
            by_text.setdefault(head, set()).add(groups[i].key.text)
        clusters.append(sorted(sorted(c) for c in by_text.values()))
    assert clusters[0] == clusters[1] == clusters[2]


def test_apart_keeps_a_prohibition_and_the_choice_that_replaces_it_together() -> None:
    never, instead = claim_key("don't write bare except clauses"), claim_key("No `except: pass`, catch specific exceptions.")
    assert not apart(never, instead)
    assert apart(claim_key("Never push to main."), claim_key("Always push to main."))
    assert apart(claim_key("Use httpx instead of requests."), claim_key("Use httpx instead of requests in the tests."))


def test_apart_holds_a_rule_and_the_same_rule_under_a_condition_only_one_names() -> None:
    # keys hold the lemma of a condition word ("befor", "whil"): the check reads it as the condition it is
    plain = claim_key("Always run the linter.")
    for narrower in ("Always run the linter before pushing.", "Always run the linter while rebasing.",
                     "Always run the linter once the build is green."):
        assert apart(plain, claim_key(narrower)), narrower


def test_how_stored_pairs_stand_decides_as_relating_them_again_would() -> None:
    from agent_memory.claims.relate import relate

    texts = ["Always run ruff before committing.", "always run ruff when committing", "Always run ruff after committing.",
             "Never run ruff before committing.", "run ruff before you commit", "Use httpx instead of requests.",
             "Use httpx instead of requests in the tests.", "don't use requests"]
    groups = _groups(*texts)
    kinds = {}
    for i, a in enumerate(groups):
        for b in groups[i + 1:]:
            x, y = sorted((a.key, b.key), key=lambda k: k.text)
            kinds[(x.text, y.text)] = relate(x, y, 0.85).kind
    link = {i: {j for j in range(len(texts)) if j != i} for i in range(len(texts))}
    assert _join(groups, link, 0.85, kinds) == _join(groups, link, 0.85)
