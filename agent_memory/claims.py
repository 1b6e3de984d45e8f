"""Claim identity and contradictions: when two atoms say the same thing, and when they clash.

A claim's identity is its *key*: the wording normalised (NFKC, case, width, punctuation,
filler, marker scaffolding, light stemming) into a polarity and an ordered sequence of
content tokens. Exact keys are one claim; near keys (a typo, an inflection) merge only
when every difference is small and no value changed; an atom near two claims that are
not one is refused. Contradictions are negation flips, value swaps in the same frame,
and swapped contrasts ("X not Y" / "Y not X"). Standard library only.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from .terms import (
    EMPHASIS_JA,
    EMPHASIS_WORDS,
    ENDINGS_JA,
    NEGATION_JA,
    NEGATION_WORDS,
    PARTICLE_SPLIT_JA,
    PARTICLES_JA,
    STOP_WORDS,
    stem,
)

CONTRAST = "≠"  # token standing for "not / instead of / rather than / ではなく" inside a claim

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_HIRAGANA = re.compile("^[\u3040-\u309f]*$")
_TOKEN = re.compile(rf"\d+(?:\.\d+)*|[^\W\d_{_CJK}]+|[{_CJK}]+|{CONTRAST}")

_SCAFFOLD = re.compile(
    r"^(?:\s|[,.:;!、。:：—-])*(?:(?:no|nope|wrong|not quite|incorrect)(?=\s*[,.:;!—-])|"
    r"(?:that's|thats|that is|it's|this is) (?:wrong|not right|incorrect|not correct)|actually|"
    r"違います|違う|ちがう|そうじゃなくて|そうではなくて|いや|不对|不對|"
    r"remember(?: that)?|please|pls|kindly|note to self|from now on|going forward|"
    r"lesson learned|lessons learned|til|gotcha|important|fyi|ok|okay|also|and|so|btw|hey|"
    r"覚えておいて(?:ください)?|今後は|これからは|今後|以後|以后|记住|記住|教訓|学び)(?=\W|$|[{cjk}])".format(cjk=_CJK),
    re.IGNORECASE,
)
_FILLER_PHRASES = re.compile(r"\b(?:need|needs|have|has|want|wants|going|got) to\b|\bmake sure (?:to|that|you)?\b|\bplease\b")
_CONTRAST_EN = re.compile(r"(?:,\s*|\s+)(?:not|instead of|rather than|over|than|vs\.?|versus)\s+(?=\S)")
_CONTRAST_JA = re.compile("(?:ではなく(?:て)?|じゃなく(?:て)?|でなく|じゃなしに|而不是|而非|不是)")
_NEG_EN = NEGATION_WORDS
_POSITIVE_ADVERBS = EMPHASIS_WORDS
_STOP = STOP_WORDS
_NEG_JA = re.compile(NEGATION_JA)
_POSITIVE_JA = re.compile(EMPHASIS_JA)
_ENDINGS_JA = re.compile(ENDINGS_JA)
_PARTICLE_SPLIT = re.compile(PARTICLE_SPLIT_JA)
# the word before a value that makes it single-valued: a swap there is a contradiction
_SLOT_WORDS = frozenset(
    """against into onto to port use using via version branch target targeting base on at with from
    ポート ブランチ バージョン""".split()
)
_SLOT_CUES_JA = re.compile("(?:ブランチ|ポート|バージョン|使う|使用|使って|向け|に対して|へ|に)")


@dataclass(frozen=True)
class Key:
    """A claim's identity: polarity and ordered content tokens."""

    negated: bool
    tokens: tuple[str, ...]
    text: str = field(init=False, repr=False, compare=False)  # the key as one string, its sort order

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", ("¬ " if self.negated else "") + " ".join(self.tokens))

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.text.encode("utf-8")).hexdigest()[:16]


def normalise(text: str) -> str:
    """NFKC, case and width folded, marker scaffolding and filler removed, punctuation as spaces."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = re.sub(r"\[redacted:[^\]]*\]", " redactedsecret ", folded)
    folded = folded.replace("’", "'")
    previous = None
    while previous != folded:
        previous = folded
        folded = _SCAFFOLD.sub("", folded).lstrip(" ,.:;!、。:—-")
    folded = _FILLER_PHRASES.sub(" ", folded)
    # punctuation becomes space; apostrophes stay (don't), and so do dots inside numbers (3.11)
    folded = re.sub(r"[^\w\s'.]|(?<!\d)\.|\.(?!\d)", " ", folded)
    return " ".join(folded.split())


@lru_cache(maxsize=200_000)
def claim_key(text: str) -> Key:
    """The identity key of one claim's wording."""
    norm = normalise(text)
    negated = False
    # contrasts first, so the "not" of "X, not Y" is not read as a negation
    marked = _CONTRAST_JA.sub(f" {CONTRAST} ", norm)
    marked = _CONTRAST_EN.sub(lambda m: _contrast_or_negation(m, marked), marked)
    if _POSITIVE_JA.search(marked):
        marked = _POSITIVE_JA.sub(" ", marked)
    tokens: list[str] = []
    for raw in _TOKEN.findall(marked.replace("n't", " not").replace("'", "")):
        if raw == CONTRAST:
            if tokens and tokens[-1] != CONTRAST:
                tokens.append(raw)
            continue
        if raw[0] >= "\u3040" and re.match(f"[{_CJK}]", raw[0]):
            for piece in _PARTICLE_SPLIT.split(raw):
                if _NEG_JA.search(piece):
                    negated = True
                    piece = _NEG_JA.sub("", piece)
                piece = _ENDINGS_JA.sub("", piece).strip(PARTICLES_JA)
                if piece:
                    tokens.append(piece)
            continue
        if raw in _NEG_EN:
            negated = True
            continue
        if raw in _STOP or raw in _POSITIVE_ADVERBS:
            continue
        tokens.append(stem(raw))
    while tokens and tokens[-1] == CONTRAST:
        tokens.pop()
    return Key(negated, tuple(tokens))


def _contrast_or_negation(match: re.Match[str], text: str) -> str:
    """ "use pnpm, not npm" contrasts two values; "do not use npm" negates the claim."""
    before = text[: match.start()].split()
    if not before or before[-1] in _STOP or before[-1] in _NEG_EN or before[-1] in _POSITIVE_ADVERBS:
        return match.group(0)
    return f" {CONTRAST} "


@lru_cache(maxsize=1 << 16)
def _trigrams(text: str) -> frozenset[str]:
    padded = f"  {text} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def trigram_similarity(a: str, b: str) -> float:
    """Dice overlap of character trigrams; works for CJK and Latin alike."""
    ta, tb = _trigrams(a), _trigrams(b)
    if not ta or not tb:
        return 0.0
    return 2 * len(ta & tb) / (len(ta) + len(tb))


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
