"""Claim identity: keys (``key``), how two keys stand (``relate``), promote's cache of L1 (``cache``).

Importing the package gives the key and relation functions under their old names; the
cache is loaded only when asked for. Standard library only.
"""

from __future__ import annotations

from .key import CONTRAST, Key, claim_key, normalise, trigram_similarity
from .relate import DISTINCT, SAME, Relation, blocking_keys, relate, replaced_by_correction

__all__ = ["CONTRAST", "DISTINCT", "SAME", "Key", "Relation", "blocking_keys", "claim_key", "normalise", "relate",
           "replaced_by_correction", "trigram_similarity"]
