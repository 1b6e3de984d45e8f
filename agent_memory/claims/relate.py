"""How two claim keys stand: one claim, a contradiction (and why), or two claims; and candidate blocking.

Exact keys are one claim; near keys (a typo, an inflection) merge only when every difference
is small and no value changed. Contradictions are negation flips, value swaps in the same
frame, and swapped contrasts ("X not Y" / "Y not X"). Blocking buckets name every key a key
could merge or clash with, so no pass compares all pairs. Standard library only.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .key import _CJK, _HIRAGANA, CONTRAST, Key, trigram_similarity

# the word before a value that makes it single-valued: a swap there is a contradiction
_SLOT_WORDS = frozenset(
    """against into onto to port use using via version branch target targeting base on at with from
    ポート ブランチ バージョン""".split()
)
_SLOT_CUES_JA = re.compile("(?:ブランチ|ポート|バージョン|使う|使用|使って|向け|に対して|へ|に)")



_DIGIT = re.compile(r"\d")
_CJK_START = re.compile(f"[{_CJK}]")


def _is_value(token: str) -> bool:
    return token == "redactedsecret" or _DIGIT.search(token) is not None


@lru_cache(maxsize=1 << 16)
def _typo(a: str, b: str) -> bool:
    """Two tokens that differ only by a slip of the keyboard or an inflection."""
    if _is_value(a) or _is_value(b):
        return False
    if _CJK_START.match(a) and _CJK_START.match(b):
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal" and not (_HIRAGANA.match(a[i1:i2]) and _HIRAGANA.match(b[j1:j2]) and max(i2 - i1, j2 - j1) <= 2):
                return False
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 2:
        return False
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.8


@dataclass(frozen=True)
class Relation:
    """How two keys stand: the same claim, a contradiction (with why), or unrelated."""

    kind: str  # same | contradiction | distinct
    reason: str = ""


SAME = Relation("same")
DISTINCT = Relation("distinct")


def relate(a: Key, b: Key, merge_similarity: float = 0.85) -> Relation:
    """Whether two claim keys are one claim, a contradiction, or two claims."""
    if a.negated == b.negated and a.tokens == b.tokens:
        return SAME
    if not a.tokens or not b.tokens:
        return DISTINCT
    if a.negated != b.negated:
        if a.tokens == b.tokens or _near(a.tokens, b.tokens, merge_similarity):
            return Relation("contradiction", "negation flip")
        return DISTINCT
    if _swapped_contrast(a.tokens, b.tokens):
        return Relation("contradiction", "swapped values")
    if _near(a.tokens, b.tokens, merge_similarity):
        return SAME
    slot = _value_swap(a.tokens, b.tokens)
    if slot:
        return Relation("contradiction", slot)
    return DISTINCT


def _near(a: tuple[str, ...], b: tuple[str, ...], threshold: float) -> bool:
    """Same length, every differing token a slip or an inflection, and close as whole wordings."""
    if len(a) != len(b):
        return False
    differing = [(x, y) for x, y in zip(a, b) if x != y]
    if not differing or len(differing) > max(1, len(a) // 3):
        return not differing
    if not all(_typo(x, y) for x, y in differing):
        return False
    if all(_CJK_START.match(x) for x, _y in differing):
        return True  # only okurigana or particles differ: short keys would fail a trigram bar for nothing
    return trigram_similarity(" ".join(a), " ".join(b)) >= threshold


def _swapped_contrast(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    if CONTRAST not in a or CONTRAST not in b or sorted(a) != sorted(b):
        return False
    ia, ib = a.index(CONTRAST), b.index(CONTRAST)
    return a[:ia] != b[:ib]


def _value_swap(a: tuple[str, ...], b: tuple[str, ...]) -> str:
    """A value replaced in the same frame where the slot takes one value ("port 8080" / "port 8443")."""
    ca, cb = _core(a), _core(b)
    if len(ca) != len(cb) or len(ca) < 2:
        return ""
    diffs = [i for i, (x, y) in enumerate(zip(ca, cb)) if x != y]
    if len(diffs) != 1:
        return ""
    i = diffs[0]
    x, y = ca[i], cb[i]
    if _typo(x, y):
        return ""
    if _is_value(x) and _is_value(y):
        return f"value swap: {x} / {y}"
    before = ca[i - 1] if i > 0 else ""
    if before in _SLOT_WORDS:
        return f"value swap after '{before}': {x} / {y}"
    joined = " ".join(ca)
    if _CJK_START.search(joined) and not _CJK_START.match(x) and not _CJK_START.match(y) and _SLOT_CUES_JA.search(joined):
        return f"value swap: {x} / {y}"
    return ""


def _core(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The accepted part of a claim: what precedes a contrast ("use X, not Y" → "use X")."""
    return tokens[: tokens.index(CONTRAST)] if CONTRAST in tokens else tokens


def replaced_by_correction(correction: Key, other: Key) -> bool:
    """A correction "X, not Y" contradicts an earlier claim that says Y in the same frame."""
    if CONTRAST not in correction.tokens or correction.negated != other.negated:
        return False
    i = correction.tokens.index(CONTRAST)
    accepted, rejected = correction.tokens[:i], correction.tokens[i + 1 :]
    if not accepted or not rejected:
        return False
    # replace the accepted value (the last tokens before the contrast) by the rejected one(s)
    for width in (1, 2):
        if len(accepted) <= width:
            continue
        candidate = accepted[:-width] + rejected
        if _core(other.tokens) == candidate:
            return True
    return False


def blocking_keys(key: Key) -> Iterable[tuple[str, ...]]:
    """Buckets that hold every key this one could merge or clash with (for candidate pairs)."""
    core = [t for t in key.tokens if t != CONTRAST]
    skeleton = tuple(sorted(_skeleton(t) for t in core))
    yield ("all",) + skeleton
    if len(skeleton) <= 12:
        for i in range(len(skeleton)):
            yield ("but",) + skeleton[:i] + skeleton[i + 1 :]
    accepted = _core(key.tokens)
    if accepted != key.tokens and len(accepted) >= 2:
        yield ("but",) + tuple(sorted(_skeleton(t) for t in accepted[:-1]))


def _skeleton(token: str) -> str:
    if re.match(f"[{_CJK}]", token[:1]):
        # inflections live in hiragana; ASCII values inside a CJK run are blanked
        return re.sub("[\u3040-\u309f]", "", token) or token
    return token
