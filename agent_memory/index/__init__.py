"""The shared SQLite FTS5 index: a rebuildable shadow of the store's files.

``schema`` (tables and the triggers that keep FTS5 in step), ``rows`` (what a line of a
source becomes, in worker processes too), ``sync`` (bringing it up to date), ``search`` (query planning and ranked search), ``prompt`` (the prompt hook's reader,
standard library only) and ``fts`` (the one quoting of user text for FTS5 and LIKE).
Importing this package loads none of them: the hook's hot path imports ``prompt`` alone,
and the names below load their module on first use.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from .search import ROUTE_WEIGHTS, Decay, Hit, QueryPlan, fuse, plan_query, route_depth
    from .support import check_sqlite
    from .rows import Row, RowMaker
    from .sync import Appended, Index, Source

_HOMES = {
    "Appended": "sync", "Index": "sync", "Row": "rows", "RowMaker": "rows", "Source": "sync", "check_sqlite": "support",
    "Decay": "search", "Hit": "search", "QueryPlan": "search", "ROUTE_WEIGHTS": "search", "fuse": "search",
    "plan_query": "search", "route_depth": "search",
    "SCHEMA_VERSION": "schema",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = __import__(f"{__name__}.{home}", fromlist=[name])
    return getattr(module, name)
