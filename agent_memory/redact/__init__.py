"""Redaction filter: every atom, quote and index row passes through here before it is stored.

Secrets are replaced by ``[REDACTED:<rule_id>]``. The rules are data (:mod:`.rules`, with
the value checks they share in :mod:`.checks`); :mod:`.scanner` compiles and runs them;
:mod:`.scrub` removes user names and home folders from text that is committed or shared;
:mod:`.corpus` measures the filter on a labelled corpus.
"""

from __future__ import annotations

from .corpus import corpus_report
from .rules import RULES, Rule
from .scanner import contains_secret, redact, secret_hash
from .scrub import os_user_names, scrub_paths, scrubber

__all__ = [
    "RULES",
    "Rule",
    "contains_secret",
    "corpus_report",
    "os_user_names",
    "redact",
    "scrub_paths",
    "scrubber",
    "secret_hash",
]
