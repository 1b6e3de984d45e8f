"""How a claim is named and shown: its short hash, and the wording that stands for it.

Below the pass that promotes claims and the tables that keep them, so both use one home. Standard library only.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from .key import normalise


def short_hash(*parts: Any) -> str:
    """Twelve hex characters naming a claim, a proposal or a decision from its parts."""
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:12]


_LEADING_CONJUNCTION = re.compile(
    r"^\s*(?:(?:and|also|so|but|then|plus|or)\b[\s,]*|(?:あと|それと|それから|また|还有|另外|而且)[、，,\s]+)+",
    re.IGNORECASE)


_SENTENCE_END = (".", "!", "?", "。", "！", "？")


def tidy_wording(text: str) -> str:
    """A wording as shown: one line, no leading conjunction ("And always …"), the first letter upper case."""
    flat = " ".join(text.split())
    trimmed = _LEADING_CONJUNCTION.sub("", flat) or flat
    first = trimmed.split(" ", 1)[0].rstrip(",:;")
    if first.isascii() and first.isalpha() and first.islower() and trimmed.isascii():
        return trimmed[:1].upper() + trimmed[1:]  # a sentence, not an identifier or a Japanese line
    return trimmed


def shown_text(texts: dict[str, list[Any]]) -> str:
    """The text shown for a claim: its most complete wording (most content words, a finished sentence, the
    least filler), then the most frequent, the earliest, the smallest; tidied."""
    def rank(text: str) -> tuple[Any, ...]:
        tidy = tidy_wording(text)
        content = len(normalise(tidy).split())  # words the claim is made of, scaffolding and filler left out
        return (-content, not tidy.endswith(_SENTENCE_END), len(tidy.split()), -texts[text][0], texts[text][1], text)

    return tidy_wording(min(texts, key=rank))
