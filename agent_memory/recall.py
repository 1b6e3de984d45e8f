"""Ranked recall over atoms, adopted claims and past-session chunks.

Standard library only: the user-prompt-submit hook recalls through here. The semantic
extra (vectors fused with the full-text routes) is imported only when it is asked for.
"""

from __future__ import annotations

from typing import Any, Iterable

from .config import load_config
from .index import Decay, Hit, Index, Source, route_depth
from .index.prompt import strip_injected
from .clock import now
from .store import Paths
from .promote.tiers import index_sources, open_index

DEFAULT_HALF_LIFE_DAYS = 30.0
# Weight of the vector route when semantic recall is asked for and the config names none. The route
# reorders the full-text candidates and fills in after them; at equal weight a small general model
# (all-MiniLM-L6-v2) lowered recall on LoCoMo, at 0.3 it raised it.
DEFAULT_SEMANTIC_WEIGHT = 0.3


def search(
    paths: Paths,
    query: str,
    limit: int = 10,
    kinds: Iterable[str] | None = None,
    decay: bool = True,
    semantic: bool | None = None,
) -> list[Hit]:
    """The best ``limit`` hits for ``query``; the index is brought up to date first.

    ``decay`` weighs each match by its age (``recall.half_life_days``, measured from the one
    clock); provenance views such as ``inspect --why`` pass ``decay=False``. ``semantic``
    fuses a vector route from the semantic extra: None follows the config (on when
    ``recall.semantic_weight`` > 0), True insists (``SemanticUnavailable`` when the extra is missing).
    """
    query = strip_injected(query)  # a query pasted with our own context in it searches on the person's words
    config = load_config(paths.config)
    found = config.get("recall")
    settings: dict[str, Any] = found if isinstance(found, dict) else {}
    weigh = Decay(now(), half_life_days(settings)) if decay else None
    wanted = semantic_weight(settings) > 0 if semantic is None else semantic
    kind_list = tuple(kinds) if kinds else ()
    if not paths.store.is_dir():
        # never create a store just to search it: read whatever sources exist, in memory
        with Index(":memory:", index_sources(paths)) as index:
            index.sync()
            return index.rank(query, limit, kind_list, decay=weigh)

    with open_index(paths) as index:
        routes = index.routes(query, limit, kind_list, decay=weigh)
        if wanted:
            routes.extend(_semantic_routes(index, query, kind_list, limit, weigh, routes, settings, semantic))
        return index.fused(routes, limit)


def half_life_days(settings: dict[str, Any]) -> float:
    """``recall.half_life_days`` from the config; a missing or unusable value gives 30."""
    value = settings.get("half_life_days", DEFAULT_HALF_LIFE_DAYS)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return DEFAULT_HALF_LIFE_DAYS
    return float(value)


def semantic_weight(settings: dict[str, Any]) -> float:
    """``recall.semantic_weight``: how much the vector route counts against a full-text route (1.0); 0 is off."""
    value = settings.get("semantic_weight", 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return 0.0
    return float(value)


def _semantic_routes(
    index: Index,
    query: str,
    kinds: tuple[str, ...],
    limit: int,
    decay: Decay | None,
    routes: list[tuple[float, list[int]]],
    settings: dict[str, Any],
    insisted: bool | None,
) -> list[tuple[float, list[int]]]:
    from . import semantic

    # the full-text candidates are ordered by meaning first, the rest of the store after them
    candidates = list(dict.fromkeys(rowid for _weight, ranking in routes for rowid in ranking))
    try:
        ranked = semantic.route(
            index, query, kinds, route_depth(limit), decay, semantic.configured_model(index), prefer=candidates
        )
    except semantic.SemanticUnavailable:
        if insisted:
            raise
        return []  # asked for by the config only: full-text recall still answers
    return [(semantic_weight(settings) or DEFAULT_SEMANTIC_WEIGHT, ranked)]


__all__ = ["Hit", "Source", "half_life_days", "search", "semantic_weight"]
