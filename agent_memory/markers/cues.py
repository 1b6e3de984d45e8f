"""Which rules a sentence can reach: every rule's cue words read in one regex pass, in C.

A rule can fire only where one of its cue words occurs, so the engine asks this index once
per sentence which rules hold a cue there and tries only those, instead of testing every
rule's cues in turn. The words are laid out as a trie, so the regex engine tries a handful
of characters at each position, not every word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cached_property

from .rule import MarkerRule

__all__ = ["CueIndex", "trie_pattern"]

_END = ""  # key of the trie node that marks the end of a word


def _trie(words: Iterable[str]) -> dict[str, dict]:
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[_END] = {}
    return root


def _pattern(node: dict[str, dict]) -> str:
    branches = [re.escape(char) + _pattern(child) for char, child in sorted(node.items()) if char != _END]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if _END not in node:
        return body
    # the longer word is tried first, so a match is the longest word starting there
    return (body if len(branches) > 1 else "(?:" + body + ")") + "?"


def trie_pattern(words: Iterable[str]) -> str:
    """A regex matching exactly the given non-empty words, the longest one where several start at one place."""
    return _pattern(_trie(w for w in words if w))


class CueIndex:
    """The cue words of a sequence of rules, and which of those rules a (lower-cased) text holds a cue of."""

    def __init__(self, rules: Sequence[MarkerRule]) -> None:
        self.rules = tuple(rules)
        owners: dict[str, int] = {}
        self._always = 0  # rules with an empty cue word: they hold a cue everywhere
        for bit, rule in enumerate(self.rules):
            for word in rule.keywords:
                if word:
                    owners[word] = owners.get(word, 0) | 1 << bit
                else:
                    self._always |= 1 << bit
        self._words = sorted(owners)
        # a match names the longest word starting at a place; the shorter words there are its prefixes
        self._bits: dict[str, int] = {
            word: self._always | _or(owners[word[:n]] for n in range(1, len(word) + 1) if word[:n] in owners)
            for word in self._words
        }
        self._chosen: dict[int, tuple[MarkerRule, ...]] = {}

    # Each place a word starts: one regex for the words opening in ASCII, one for the others (compiled only once a
    # text is not ASCII: a word opening with a non-ASCII character cannot occur in ASCII text). Each opens on the
    # set of its words' first characters, so the regex engine skips, in C, the places where none starts.

    @cached_property
    def _ascii_re(self) -> re.Pattern[str]:
        return _starts([w for w in self._words if w[0].isascii()])

    @cached_property
    def _other_re(self) -> re.Pattern[str]:
        return _starts([w for w in self._words if not w[0].isascii()])

    def holds_any(self, lowered: str) -> bool:
        """Whether any rule's cue word occurs in ``lowered``."""
        if self._always or self._ascii_re.search(lowered) is not None:
            return True
        return not lowered.isascii() and self._other_re.search(lowered) is not None

    def mask(self, lowered: str) -> int:
        """One bit per rule (its index) whose cue occurs in ``lowered``; 0 when none does."""
        found = self._always
        bits = self._bits
        for word in self._ascii_re.findall(lowered):
            found |= bits[word]
        if not lowered.isascii():
            for word in self._other_re.findall(lowered):
                found |= bits[word]
        return found

    def bits(self, langs: Iterable[str]) -> int:
        """The bits of the rules in one of ``langs``: a mask to keep only those of what ``mask`` found."""
        wanted = set(langs)
        return _or(1 << bit for bit, rule in enumerate(self.rules) if rule.lang in wanted)

    def of(self, found: int) -> tuple[MarkerRule, ...]:
        """The rules whose bits are set in ``found``, in their order."""
        chosen = self._chosen.get(found)
        if chosen is None:
            chosen = tuple(rule for bit, rule in enumerate(self.rules) if found >> bit & 1)
            if len(self._chosen) < 4096:
                self._chosen[found] = chosen
        return chosen


def _starts(words: Sequence[str]) -> re.Pattern[str]:
    """A regex matching at every place one of ``words`` starts, group 1 the longest word there.

    It consumes only the first character of a word, the word read by a lookahead inside a one-character
    lookbehind, so words that overlap are all found and the regex still opens on a character set.
    """
    if not words:
        return re.compile(r"(?!)")
    firsts = "[" + "".join(re.escape(c) for c in sorted({w[0] for w in words})) + "]"
    return re.compile("(?s:" + firsts + "(?<=(?=(" + trie_pattern(words) + ")).))")


def _or(values: Iterable[int]) -> int:
    out = 0
    for value in values:
        out |= value
    return out
