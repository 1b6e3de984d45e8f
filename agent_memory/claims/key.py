"""Claim keys: a claim's wording normalised into its identity (polarity and content tokens).

A claim's identity is its *key*: the wording normalised (NFKC, case, width, punctuation,
filler, marker scaffolding, light stemming) into a polarity and an ordered sequence of
content tokens. How two keys stand (one claim, a contradiction, two claims) is ``relate``'s
business. Standard library only.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..text import CJK as _CJK  # the one CJK definition
from ..text import (
    HIRAGANA,
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

_HIRAGANA = re.compile(f"^[{HIRAGANA}]*$")
# an identifier, path, file name or version is one token: its parts name one object ("src/cart/v3/handlers.py")
_IDENT = (r"\.?[a-z0-9][a-z0-9_]*(?:[./_-][a-z0-9_]+)*(?:[/_]|\.(?=[a-z_]))[a-z0-9_]+(?:[./_-][a-z0-9_]+)*/?"
          r"|[a-z0-9_]+/(?![a-z0-9_])"
          r"|\.[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*"
          r"|[a-z]+[0-9][a-z0-9]*(?:-[a-z0-9]+)*|[a-z]+(?:-[a-z]+)*-[0-9][a-z0-9]*(?:-[a-z0-9]+)*")
_IDENT_SPAN = re.compile(rf"(?<![a-z0-9_./-])(?:{_IDENT})(?![a-z0-9_])")
_TOKEN = re.compile(rf"(?<![a-z0-9_./-])(?:{_IDENT})(?![a-z0-9_])|\d+(?:\.\d+)*|[^\W\d_{_CJK}]+|[{_CJK}]+|{CONTRAST}")

_SCAFFOLD = re.compile(
    r"^(?:\s|[,.:;!、。:：—-])*(?:(?:no|nope|wrong|not quite|incorrect)(?=\s*[,.:;!—-])|"
    r"(?:that's|thats|that is|it's|this is) (?:wrong|not right|incorrect|not correct)|actually|"
    r"違います|違う|ちがう|そうじゃなくて|そうではなくて|いや|不对|不對|"
    r"remember(?: that)?|please|pls|kindly|note to self|from now on|going forward|"
    r"lesson learned|lessons learned|til|gotcha|important|fyi|ok|okay|also|and|so|btw|hey|"
    r"覚えておいて(?:ください)?|今後は|これからは|今後|以後|以后|记住|記住|教訓|学び)(?=\W|$|[{cjk}])".format(cjk=_CJK),
    re.IGNORECASE,
)
_CONJUNCTION_CJK = re.compile(r"^(?:あと|それと|それから|还有|另外|而且)(?=[、，,\s])")
_PUNCTUATION = re.compile(r"[^\w\s'.]|(?<!\d)\.|\.(?!\d)")
_FILLER_PHRASES = re.compile(r"\b(?:need|needs|have|has|want|wants|going|got) to\b|\bmake sure (?:to|that|you)?\b|\bplease\b")
_CONTRAST_EN = re.compile(r"(?:,\s*|\s+)(?:not|instead of|rather than|over|than|vs\.?|versus)\s+(?=\S)")
_CONTRAST_JA = re.compile("(?:ではなく(?:て)?|じゃなく(?:て)?|でなく|じゃなしに|而不是|而非|不是)")
# "用 pnpm，不要用 npm": the second clause rejects the value the first one accepts
_CONTRAST_ZH = re.compile(r"(用\S*?)\s*(?:不要|别|別|不|而不是)\s*(?=(?:使)?用)")
# emphasis of Chinese rules ("must"), like always / 必ず
_EMPHASIS_ZH = re.compile("(?:必须|必需|务必|務必|一定要)")
# "need to" of Chinese rules, and the forms of 使う ("use") one claim is said in
_FILLER_CJK = re.compile("需要在|需要")
_USE_JA = re.compile("使(?:って|う|い|わ)")
# 「プッシュする前に」 is 「プッシュ前に」; 「実行し」 (a verb's stem form) is 「実行」
_SURU_MAE = re.compile("する(?=前)")
_RENYOU_SHI = re.compile("(?<=[\u4e00-\u9fff])し$")
# 别再 / 不再 (“no longer”) negate like 别 / 不; 了 standing alone is a sentence particle
_AGAIN_ZH = re.compile("(别|別|不)再在?")
_PARTICLES_ZH = frozenset({"了", "吧", "呢", "啊"})
# what a reversal adds to the rule it revokes, when no ``reverses`` wording came with it
_REVERSAL_WORDS = frozenset({"anymore", "longer"})
_NEG_EN = NEGATION_WORDS
_POSITIVE_ADVERBS = EMPHASIS_WORDS
_STOP = STOP_WORDS
_NEG_JA = re.compile(NEGATION_JA)
_POSITIVE_JA = re.compile(EMPHASIS_JA)
_ENDINGS_JA = re.compile(ENDINGS_JA)
_PARTICLE_SPLIT = re.compile(PARTICLE_SPLIT_JA)
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
        folded = _CONJUNCTION_CJK.sub("", _SCAFFOLD.sub("", folded)).lstrip(" ,.:;!、。:—-")
    folded = _FILLER_PHRASES.sub(" ", folded)
    # punctuation becomes space; apostrophes stay (don't), and so do dots inside numbers (3.11) and
    # identifiers, paths and file names whole (src/cart/v3/handlers.py, us-east-1)
    pieces = []
    start = 0
    for match in _IDENT_SPAN.finditer(folded):
        pieces.append(_PUNCTUATION.sub(" ", folded[start : match.start()]))
        pieces.append(f" {match.group(0)} ")
        start = match.end()
    pieces.append(_PUNCTUATION.sub(" ", folded[start:]))
    return " ".join("".join(pieces).split())


@lru_cache(maxsize=200_000)
def claim_key(text: str) -> Key:
    """The identity key of one claim's wording."""
    norm = normalise(text)
    negated = False
    # contrasts first, so the "not" of "X, not Y" is not read as a negation
    marked = _CONTRAST_JA.sub(f" {CONTRAST} ", norm)
    if "用" in marked:
        marked = _CONTRAST_ZH.sub(rf"\1 {CONTRAST} ", marked)
    marked = _EMPHASIS_ZH.sub("", marked)
    marked = _FILLER_CJK.sub("", marked)
    marked = _USE_JA.sub("使用", marked)
    marked = _AGAIN_ZH.sub(lambda m: "不要" if m.group(1) == "不" else m.group(1), _SURU_MAE.sub("", marked))
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
                piece = _RENYOU_SHI.sub("", _ENDINGS_JA.sub("", piece)).strip(PARTICLES_JA)
                if piece and piece not in _PARTICLES_ZH:
                    tokens.append(piece)
            continue
        if raw in _NEG_EN:
            negated = True
            continue
        if raw in _STOP or raw in _POSITIVE_ADVERBS or raw in _REVERSAL_WORDS:
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


def atom_key(atom: dict[str, Any]) -> Key:
    """The identity key of one atom: its wording's, or for a reversal the negation of the claim it revokes."""
    return _atom_key(str(atom.get("text", "")), str(atom.get("reverses") or ""))


@lru_cache(maxsize=200_000)
def _atom_key(text: str, reverses: str) -> Key:
    if reverses:
        revoked = claim_key(reverses)
        if revoked.tokens:
            return Key(not revoked.negated, revoked.tokens)
    return claim_key(text)
