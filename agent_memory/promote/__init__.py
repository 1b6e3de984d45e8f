"""Promotion: the pass's records (``records``), the gates (``gates``, and ``counted`` for claims nothing touches),
the staged-file format and writing it (``staging``), the tiers as files (``tiers``).

The old ``agent_memory.promote`` names resolve lazily, so a reader of the tiers (the hooks, ingest)
loads neither the claim machinery nor the gates. Standard library only.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_HOMES = {
    "records": ("Claim", "Plan", "Proposal"),
    "gates": ("build_claims", "plan"),
    "staging": ("read_staged", "render_proposal", "stage", "staged_proposals"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
