"""Ranked recall over atoms, adopted claims and past-session chunks.

Standard library only: the user-prompt-submit hook recalls through here.
"""

from __future__ import annotations

from typing import Iterable

from .index import Hit, Index, Source
from .store import Paths
from .tiers import index_sources, open_index


def search(paths: Paths, query: str, limit: int = 10, kinds: Iterable[str] | None = None) -> list[Hit]:
    """The best ``limit`` hits for ``query``; the index is brought up to date first."""
    if not paths.store.is_dir():
        # never create a store just to search it: read whatever sources exist, in memory
        with Index(":memory:", index_sources(paths)) as index:
            index.sync()
            return index.search(query, limit, kinds)
    with open_index(paths) as index:
        return index.search(query, limit, kinds)


__all__ = ["Hit", "Source", "search"]
