"""Where a hook's files are, as plain strings, and where its errors are logged."""

from __future__ import annotations

import os

from .. import places

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any, Union

    from ..store import Paths

    AnyPaths = Union["Paths", "Where"]


class Where:
    """The store's files as plain strings, named as ``store.Paths`` names them; ``paths()`` gives that."""

    def __init__(self, memory_dir: str | None, cwd: str) -> None:
        self.project_root = places.project_root(cwd)
        self.store = places.project_store(self.project_root, memory_dir)
        self.user = places.user_store()

    @property
    def l1_dir(self) -> str:
        return os.path.join(self.store, "L1")

    @property
    def atoms(self) -> str:
        return os.path.join(self.l1_dir, "atoms.jsonl")

    @property
    def ingested(self) -> str:
        return os.path.join(self.l1_dir, "ingested.json")

    @property
    def contested(self) -> str:
        return os.path.join(self.l1_dir, "contested.json")

    @property
    def l2(self) -> str:
        return os.path.join(self.store, "L2.jsonl")

    @property
    def l3(self) -> str:
        return os.path.join(self.user, "L3.jsonl")

    @property
    def staged(self) -> str:
        return os.path.join(self.store, "staged")

    @property
    def config(self) -> str:
        return os.path.join(self.store, "config.yaml")

    @property
    def index(self) -> str:
        return os.path.join(self.store, "index.db")

    def paths(self) -> "Paths":
        from pathlib import Path

        from ..store import Paths

        return Paths(store=Path(self.store), user=Path(self.user), project_root=Path(self.project_root))


def as_paths(where: "AnyPaths") -> "Paths":
    return where.paths() if isinstance(where, Where) else where


def log(where: "AnyPaths", at: str, error: "BaseException | str") -> None:
    """Log under the project store when it exists, else under the user store (never raises)."""
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
        log(Where(memory_dir, os.getcwd()), at, error)
    except Exception:
        pass


def text_field(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""

