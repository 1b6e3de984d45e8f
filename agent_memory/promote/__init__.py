"""Promotion: the gates (``gates``), the staged-file format and writing it (``staging``), the tiers as files (``tiers``).

The old ``agent_memory.promote`` names resolve lazily, so a reader of the tiers (the hooks, ingest)
loads neither the claim machinery nor the gates. Standard library only.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_HOMES = {
    "gates": ("Claim", "Plan", "Proposal", "build_claims", "plan", "short_hash"),
    "staging": ("read_staged", "render_proposal", "stage", "staged_proposals"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
