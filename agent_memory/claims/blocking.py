"""Blocking: the buckets that hold every claim key a key could merge or clash with, so that no pass relates
every pair. A bucket's members are paired with each other; a half bucket (a hub and its spoke) pairs only across.
Standard library only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations
from typing import Iterable

from .frame import PERMITTED, VERB_LEMMAS
from .key import CONTRAST, Key
from .relate import CLASS_VERBS, FORM_WORDS, core_of, frame_of, is_object, purpose_of, things_of, unmarked, unroled
from ..text import CJK as _CJK, HIRAGANA


# A bucket is a candidate set: its members are paired with each other. A half bucket is one side of a set whose
# members are paired only across: a hub's members with its spoke's (the same name but for the mark), never two
# members of one side. A side bucket stands beside the bucket of its name without the mark: its members are paired
# with that bucket's, never with each other. ``relations.sides`` names what a bucket's members are paired with.
HUB, SPOKE, SIDE = "<", ">", "-"
# the most words a rule may say for a prohibition of two or more to be matched against it
_DOES_MORE = 7
# the most words a rule may say for each thing it names to meet the choices rejecting that thing
_TAKES_AT_MOST = 4


def blocking_keys(key: Key) -> Iterable[tuple[str, ...]]:
    """Buckets that hold every key this one could merge or clash with (for candidate pairs)."""
    core = [t for t in key.tokens if t != CONTRAST]
    words = sorted(map(_token_word, core))
    skeleton = tuple(word for word, _named in words)
    yield ("all",) + skeleton
    yield ("but",) + skeleton  # meets the keys that say one word more ("X, not Y" after "X")
    if len(skeleton) <= 12:
        for i, (_word, named) in enumerate(words):
            # Without one word, a key meets the keys that say it in fewer words or another word in its place.
            # A thing named there (a path, a file, an identifier) is never a slip or a value to swap for another
            # thing named: without it, a key meets every key of the bucket but those that name another thing in
            # its place. (Keys that differ by one path alone are most of a big store's pairs.)
            yield ((SIDE + "but") if named else "but",) + skeleton[:i] + skeleton[i + 1 :]
    accepted = core_of(key.tokens)
    if accepted != key.tokens and len(accepted) >= 2:
        yield ("but",) + tuple(sorted(_skeleton(t) for t in accepted[:-1]))
    # a frame without its slot words, and what a choice rules out: "don't use requests" meets
    # "use httpx instead of requests", "PRs go into develop" meets "open PRs against develop"
    core, rejected = frame_of(key.tokens)
    if core:
        frame_words = tuple(sorted(_skeleton(t) for t in core))
        yield ("frame",) + frame_words
        # a frame and the same frame with one word more, whatever alternative each names (``_one_word_more``)
        yield ("less",) + frame_words
        if 4 <= len(frame_words) <= 12:
            for i in range(len(frame_words)):
                yield ("less",) + frame_words[:i] + frame_words[i + 1 :]
        plain = tuple(sorted({_skeleton(t) for t in core} - FORM_WORDS))
        if len(plain) >= 2:
            yield ("form",) + plain  # meets the same words with form words more or fewer (``_says_more``)
        aim = core - purpose_of(core)
        aim_words = tuple(sorted(_skeleton(t) for t in aim))
        if aim != core and aim:
            yield ("frame",) + aim_words
        if key.negated:  # what a prohibition forbids, in each of its readings, for the rules that do it
            yield (HUB + "forbid",) + frame_words
            if aim:
                yield (HUB + "forbid",) + aim_words
            if not rejected and len(aim_words) >= 2:
                yield (HUB + "does",) + aim_words[:2]  # its first two words, for the rules saying them and more
        elif not rejected and 2 <= len(aim_words) <= _DOES_MORE:
            # a rule doing what a prohibition forbids in up to three words more ("stop wrapping errors" / "wrap
            # every error you propagate up"): any two of its words may be the first two of what is forbidden
            if PERMITTED not in key.tokens and len(aim_words) >= 3:
                for pair in combinations(aim_words, 2):
                    yield (SPOKE + "does",) + pair
            # and a short rule taking, about its subject, what a choice rejects ("switch the API responses to
            # camelCase" / "API response fields are snake_case, not camelCase"): any thing it names may be that one
            if len(aim_words) <= _TAKES_AT_MOST:
                for word in aim_words:
                    if word not in FORM_WORDS and word not in VERB_LEMMAS and word not in CLASS_VERBS:
                        yield (SPOKE + "taken", word)
        thing = unroled(aim)
        if not rejected and thing != aim and thing:
            # what a rule takes, without where it holds: meets the choice that rejects it in that place
            # ("var is fine in Kotlin" / "prefer val over var in Kotlin", ``_takes_rejected``; "never use cypress in
            # the package" / "use X instead of cypress in the package") and, said by a rule, the prohibition of it
            # ("prohibits what the rule does"), and only those: two rules taking one thing in two places ("the
            # payments tests need the fixtures" / "the email tests need the fixtures") are the other buckets' to pair
            thing_words = tuple(sorted(_skeleton(t) for t in thing))
            yield (SPOKE + "taken",) + thing_words
            yield ((HUB if key.negated else SPOKE) + "forbid",) + thing_words
    if rejected:
        rejected_words = tuple(sorted(_skeleton(t) for t in rejected))
        yield ("frame",) + rejected_words
        yield (HUB + "taken",) + rejected_words
        # a thing taken and a thing rejected: meets every choice of one over the other (``_same_choice``)
        taken, refused = sorted(things_of(core))[:6], sorted(things_of(rejected))[:4]
        for x in {n for t in taken for n in _names(t)}:
            for y in {n for t in refused for n in _names(t)}:
                yield ("choice", x, y)


def _names(token: str) -> tuple[str, ...]:
    """The names ``_overlap`` matches a dotted name by: what it ends in and what it starts with (".format",
    "str.format" → "format"; "pathlib.path" → "pathlib")."""
    if "." not in token.strip("."):
        return (token.lstrip("."),)
    parts = token.strip(".").split(".")
    return (parts[-1],) if token.startswith(".") else (parts[0], parts[-1])


@lru_cache(maxsize=1 << 16)
def _token_word(token: str) -> tuple[str, bool]:
    """A token's skeleton, and whether it names a thing (a path, a file, an identifier)."""
    return _skeleton(token), is_object(unmarked(token))


@lru_cache(maxsize=1 << 16)  # (a store's keys say the same few thousand words again and again)
def _skeleton(token: str) -> str:
    if re.match(f"[{_CJK}]", token[:1]):
        # inflections live in hiragana; ASCII values inside a CJK run are blanked
        return re.sub(f"[{HIRAGANA}]", "", token) or token
    return unmarked(token).lstrip(".") or token  # "to main" meets a rejected "main", ".unwrap" meets "unwrap"
