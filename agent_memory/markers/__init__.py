"""Marker rules: the durable claims a person typed in one user turn.

``sentences`` masks what the person did not say in their own voice and splits a turn into
sentences; ``engine`` runs the rule tables (``rules_en``, ``rules_ja``, ``rules_zh``) over
them; ``corpus`` scores the rules on a labelled set of turns.
"""

from __future__ import annotations

from .corpus import corpus_report
from .engine import RULES, find_markers, is_stated
from .rule import KIND_PRIORITY, MarkerRule
from .scope import durable_reason
from .sentences import split_sentences

__all__ = [
    "KIND_PRIORITY",
    "RULES",
    "MarkerRule",
    "corpus_report",
    "durable_reason",
    "find_markers",
    "is_stated",
    "split_sentences",
]
