"""The prompt hook's index reader under its former name; it lives in ``index.prompt`` now."""

from __future__ import annotations

from .index.prompt import (  # noqa: F401
    ATOMS_SOURCE,
    CANDIDATES,
    SCHEMA_VERSION,
    atoms_fresh,
    connect,
    contested_in_index,
    day_number,
    decay_factor,
    epoch,
    evidence,
    matching_keys,
    now_epoch,
    parse_iso,
    recency,
    signature,
    strip_injected,
)
