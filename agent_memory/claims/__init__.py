"""Claim identity: keys (``key``), how two keys stand (``relate``), candidate pairs by blocking (``blocking``,
``relations``), promote's view of L1 (``cache``) over the claim tables (``tables``, read partly by ``partial``).

Importing the package gives the key and relation functions; the rest is loaded only when asked
for. Standard library only.
"""

from __future__ import annotations

from .key import CONTRAST, Key, claim_key, normalise, trigram_similarity
from .blocking import blocking_keys
from .relate import DISTINCT, SAME, Relation, candidate, relate, replaced_by_correction

__all__ = ["CONTRAST", "DISTINCT", "SAME", "Key", "Relation", "blocking_keys", "candidate", "claim_key", "normalise", "relate",
           "replaced_by_correction", "trigram_similarity"]
