"""The store a hook works on (a ``layout.Layout``), and where its errors are logged."""

from __future__ import annotations

import os

from ..layout import Layout

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any, Union

    from ..store import Paths

    AnyPaths = Union["Paths", Layout]


# this run, for its line in logs/hooks.log: the store it resolved and how many errors it logged
RUN: "dict[str, Any]" = {"store": "", "errors": 0}


def store_for(memory_dir: str | None, cwd: str) -> Layout:
    """The store a hook works on: ``--memory-dir``, else ``$AGENT_MEMORY_DIR``, else the project's ``.memory``."""
    where = Layout.resolve(memory_dir, cwd)
    RUN["store"] = where.store
    return where


def has_project(where: Layout, memory_dir: "str | None") -> bool:
    """Whether a hook may write a store: a named one, or a git repository's (a session run in the home folder
    or in /tmp has no project, and gets no ``.memory`` there)."""
    return bool(memory_dir or os.environ.get("AGENT_MEMORY_DIR")) or os.path.exists(os.path.join(where.project_root, ".git"))


def as_paths(where: "AnyPaths") -> "Paths":
    from ..store import Paths

    return Paths.of(where) if isinstance(where, Layout) else where


def log(where: "AnyPaths", at: str, error: "BaseException | str") -> None:
    """Log under the project store when it exists, else under the user store (never raises)."""
    RUN["errors"] += 1
    try:
        from pathlib import Path

        from ..store import Paths, log_error

        paths = as_paths(where)
        if not paths.store.is_dir():
            paths = Paths(store=Path(paths.user), user=Path(paths.user), project_root=Path(paths.project_root))
        log_error(paths, at, error)
    except Exception:
        pass


def log_anywhere(memory_dir: str | None, at: str, error: "BaseException | str") -> None:
    try:
        log(store_for(memory_dir, os.getcwd()), at, error)
    except Exception:
        pass


def text_field(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""

