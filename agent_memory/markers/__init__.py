"""Marker rules: the durable claims a person typed in one user turn.

``engine`` splits a turn into sentences and runs the rule tables (``rules_en``, ``rules_ja``,
``rules_zh``) over them; ``corpus`` scores the rules on a labelled set of turns.
"""

from __future__ import annotations

from .corpus import corpus_report
from .engine import RULES, find_markers, is_stated, split_sentences
from .rule import KIND_PRIORITY, MarkerRule

__all__ = [
    "KIND_PRIORITY",
    "RULES",
    "MarkerRule",
    "corpus_report",
    "find_markers",
    "is_stated",
    "split_sentences",
]
