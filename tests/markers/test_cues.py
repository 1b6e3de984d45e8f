"""The cue index says, for any text, exactly which rules hold a cue word there: what each rule's own test says."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.markers import RULES
from agent_memory.markers.cues import CueIndex, trie_pattern
from agent_memory.markers.rule import MarkerRule

_WORDS = sorted({k for r in RULES for k in r.keywords})


def _rule(rule_id: str, cue: str, lang: str = "en") -> MarkerRule:
    return MarkerRule(rule_id, "instruction", lang, cue, r"x")


def _each_rule(index: CueIndex, lowered: str) -> int:
    """The bits of the rules whose own cue test finds a cue in ``lowered``: one regex per rule."""
    return sum(1 << bit for bit, rule in enumerate(index.rules) if rule._cue_re.search(lowered))


_TEXT = st.lists(
    st.one_of(
        st.sampled_from(_WORDS),
        st.sampled_from(_WORDS).map(lambda w: w[1:] or w),  # a word's tail: overlaps, not the word itself
        st.sampled_from(_WORDS).map(lambda w: w[:-1] or w),
        st.sampled_from([" ", ",", ".", "\n", "```", "`", '"', "「", "」", "İ", "K", "ſ", "ς", "Σ", "é", "—", "x"]),
        st.text(max_size=6),
    ),
    max_size=25,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_TEXT)
def test_the_index_finds_the_rules_each_rule_finds_itself(text: str) -> None:
    index = CueIndex(RULES)
    for lowered in (text, text.lower()):
        assert index.mask(lowered) == _each_rule(index, lowered)
        assert index.holds_any(lowered) == any(rule._cue_re.search(lowered) for rule in RULES)


def test_overlapping_and_nested_cue_words_are_all_found() -> None:
    index = CueIndex([_rule("a", "ever"), _rule("b", "every"), _rule("c", "very"), _rule("d", "y,"), _rule("e", "z")])
    assert index.mask("every,") == 0b01111
    assert index.mask("ever") == 0b00001
    assert index.mask("evers") == 0b00001
    assert index.mask("very") == 0b00100
    assert index.mask("nothing here") == 0
    assert not index.holds_any("nothing here") and index.holds_any("whatever")


def test_words_in_non_ascii_scripts_and_mixed_texts() -> None:
    index = CueIndex([_rule("a", "必ず|今後", "ja"), _rule("b", "always"), _rule("c", "no —")])
    assert index.mask("今後は必ずpnpmを使って") == 0b001
    assert index.mask("always — no — never") == 0b110
    assert index.mask("ascii only, no dash") == 0


def test_an_empty_cue_word_is_a_cue_everywhere() -> None:
    index = CueIndex([_rule("a", "x||y"), _rule("b", "z")])
    assert index.mask("") == 0b01 and index.holds_any("")
    assert index.mask("z") == 0b11


def test_rules_come_back_in_their_order_and_by_language() -> None:
    rules = [_rule("a", "always"), _rule("b", "always", "ja"), _rule("c", "never")]
    index = CueIndex(rules)
    found = index.mask("always never")
    assert index.of(found) == tuple(rules)
    assert index.of(found & index.bits(["en"])) == (rules[0], rules[2])
    assert index.of(0) == ()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=30), st.text(max_size=40))
def test_the_trie_matches_the_longest_word_starting_at_each_place(words: list[str], text: str) -> None:
    trie = re.compile(trie_pattern(words))
    for at in range(len(text) + 1):
        starting = [w for w in words if text.startswith(w, at)]
        m = trie.match(text, at)
        assert (m.group() if m else None) == (max(starting, key=len) if starting else None)
