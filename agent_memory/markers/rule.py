"""What a marker rule is, and the few text facts every rule table shares.

Kept apart from the engine so the per-language tables can build rules without importing the
engine that runs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from ..text import HAN, HIRAGANA, KATAKANA

class _Lazy:
    """A regex compiled the first time it is used; from then on its methods are the compiled pattern's own."""

    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what is not kept on the instance yet
        compiled = re.compile(self._source, self._flags)
        for attr in ("search", "match", "fullmatch", "sub", "subn", "split", "findall", "finditer", "pattern",
                     "flags", "groups", "groupindex"):
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)


def lazy(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile`` put off until the pattern is first used: importing the tables compiles nothing, and a
    process compiles only the vetoes, guards and masks its text reaches (an English one no Japanese veto)."""
    return cast("re.Pattern[str]", _Lazy(source, flags))


KIND_PRIORITY: tuple[str, ...] = ("correction", "failure", "lesson", "preference", "instruction")
EVERYTHING: frozenset[str] = frozenset(KIND_PRIORITY)

MAX_SENTENCE_CHARS = 300  # longer "sentences" are pasted prose, not something typed

I = re.IGNORECASE

Guard = Callable[[str, re.Match[str]], bool]  # extra check on a match: (sentence, match)
Reverser = Callable[[str, re.Match[str]], str]  # the claim a reversal revokes: (sentence, match)


@dataclass(frozen=True)
class MarkerRule:
    """One marker rule: a stable id, the kind it yields, and how it is recognised.

    ``cue`` lists, ``|``-separated, lower-case words one of which must occur for
    ``pattern`` to match; all cues together are the prefilter run on every turn (plain
    substring tests: far cheaper than any regex over a long pasted turn). ``source`` and
    ``flags`` are the pattern's; it is compiled the first time a sentence holds a cue, so a
    process pays only for the rules its text can reach.

    ``claim`` says whether the words after the match must carry a claim: ``"none"``
    (the sentence is the claim), ``"after"`` (in the same sentence) or
    ``"after_or_next"`` (or in the next one: "That's wrong. The port is 5432.").

    A pattern with a group named ``claim`` keeps only that clause of the sentence ("Fix the
    header and note in CLAUDE.md that UI strings go through i18n" keeps the rule, not the
    task). ``reverses`` gives, for a reversal ("don't X anymore"), the claim it revokes in its
    positive wording ("X"), from the person's sentence and the match.
    """

    rule_id: str
    kind: str
    lang: str
    cue: str
    source: str
    claim: str = "none"
    guard: Guard | None = None  # extra check: (sentence, match)
    description: str = ""
    reverses: Reverser | None = None
    flags: int = 0

    @property
    def keywords(self) -> tuple[str, ...]:
        return tuple(self.cue.split("|"))

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.source, self.flags)

    @cached_property
    def _cue_re(self) -> re.Pattern[str]:
        return re.compile("|".join(re.escape(k) for k in sorted(self.keywords, key=len, reverse=True)))

    def matches(self, sentence: str, lowered: str | None = None) -> re.Match[str] | None:
        """The rule's match in a (masked) sentence, guard included; None when it does not fire.

        ``lowered`` is ``sentence.lower()`` when the caller has it already (one per sentence, not per rule).
        """
        if self._cue_re.search(sentence.lower() if lowered is None else lowered) is None:
            return None
        return self.fires(sentence)

    def fires(self, sentence: str) -> re.Match[str] | None:
        """``matches`` for a sentence already known to hold one of the rule's cues."""
        m = self.pattern.search(sentence)
        if m is None or (self.guard is not None and not self.guard(sentence, m)):
            return None
        return m


_KANA_RE = lazy(f"[{HIRAGANA}{KATAKANA}]")
_HAN_RE = lazy(f"[{HAN}]")


def lang_of(sentence: str) -> str:
    """en / ja / zh by script: any kana is Japanese, other Han is Chinese."""
    if sentence.isascii():
        return "en"
    if _KANA_RE.search(sentence):
        return "ja"
    if _HAN_RE.search(sentence):
        return "zh"
    return "en"


# what going back names when it is no tool to use again: a branch or a version (「main に戻して」, 「换回 v2」)
_BRANCH_OR_VERSION_RE = lazy(r"(?:main|master|develop|HEAD|v?\d)", I)


def tool_named(name: str) -> bool:
    """Whether what a turn goes back to names a tool to use again, not a branch or a version."""
    return not _BRANCH_OR_VERSION_RE.match(name)


# trailing punctuation, laughter and emoji: cut before a sentence ending is read
TRAIL_RE = lazy(r"[\s.!。！~〜…)\]\"'\u201d」』w笑]+$|\s*[\U0001F300-\U0001FAFF\u2600-\u27bf]+$")
