"""The hook caches: results derived from files, each valid while those files are unchanged, and the config."""

from __future__ import annotations

import os

from .. import fastjson
from ..layout import signature as stat_key  # what tells a file changed: size, mtime and inode
from .where import log

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

    from .where import AnyPaths


CACHE_FILE = "hook-cache.json"  # in L1/ (or the user store when a project has no store): local, never committed


CACHE_ENTRIES = 64


RECORDED_FILE = "catchup-cache.json"  # in L1/: what ingested.json says of the project's transcript folders




class HookCache:
    """A JSON file in L1/ of results the hooks derived from files, each with the files' stat keys.

    An entry counts only while every file it came from is unchanged (the keys are taken
    before the files are read, so a change while reading makes the entry stale, never
    wrong); a miss recomputes and rewrites it. Written only into an existing L1 folder, and
    a failed write costs nothing.
    """

    def __init__(self, l1_dir: str, name: str = CACHE_FILE) -> None:
        self.l1_dir = l1_dir
        self.path = os.path.join(l1_dir, name)
        self._data: dict[str, Any] | None = None

    def _load(self) -> "dict[str, Any]":
        if self._data is None:
            try:
                found = fastjson.read_file(self.path, None)
            except Exception:  # unreadable, torn, not JSON: whatever it is, a miss
                found = None
            self._data = found if isinstance(found, dict) else {}
        return self._data

    def get(self, name: str, sig: object) -> object:
        entry = self._load().get(name)
        if isinstance(entry, dict) and entry.get("sig") == sig and "value" in entry:
            return entry["value"]
        return None

    def get_watching(self, name: str, head: list[str]) -> object:
        """The value of an entry ``put`` with ``[head, watching(paths)]``, while ``head`` is the same and every
        file it names is as it was: the entry says what to look at, so a hit need not work out the paths again."""
        entry = self._load().get(name)
        if not isinstance(entry, dict) or "value" not in entry:
            return None
        sig = entry.get("sig")
        if not (isinstance(sig, list) and len(sig) == 2 and sig[0] == head and isinstance(sig[1], list)):
            return None
        for item in sig[1]:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)) or stat_key(item[0]) != item[1]:
                return None
        return entry["value"]

    def put(self, name: str, sig: object, value: object) -> None:
        import json

        data = self._load()
        data.pop(name, None)
        data[name] = {"sig": json.loads(json.dumps(sig)), "value": value}
        for stale in list(data)[:-CACHE_ENTRIES]:  # the oldest go first (a dict keeps insertion order)
            del data[stale]
        if not os.path.isdir(self.l1_dir):
            return
        try:
            from pathlib import Path

            from ..store import atomic_write

            atomic_write(Path(self.path), json.dumps(data, ensure_ascii=False, sort_keys=True))
        except OSError:
            pass  # a read-only store recomputes next time


def watching(paths: "list[str]") -> "list[list[object]]":
    """Each path with its stat key now (None for a path that is not there), as ``get_watching`` checks them."""
    return [[p, stat_key(p)] for p in paths]


def cached_config(where: "AnyPaths", cache: HookCache) -> "dict[str, Any]":
    """The store's config (defaults where it says nothing), parsed once per change of ``config.yaml``."""
    sig = [version(), stat_key(str(where.config))]
    name = f"config {where.config}"
    found = cache.get(name, sig)
    if isinstance(found, dict):
        return found
    config = _config(where)
    cache.put(name, sig, config)
    return config


def version() -> str:
    from .. import __version__

    return __version__


def _config(where: "AnyPaths") -> "dict[str, Any]":
    from pathlib import Path

    from ..config import DEFAULTS, load_config

    try:
        return load_config(Path(where.config))
    except Exception as exc:  # a broken config costs the config, not the hook
        log(where, "config", exc)
        import copy

        return copy.deepcopy(DEFAULTS)


def setting(config: "dict[str, Any]", section: str, key: str, fallback: float) -> float:
    group = config.get(section)
    value = group.get(key, fallback) if isinstance(group, dict) else fallback
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return fallback
    return float(value)


def budget_of(config: "dict[str, Any]", key: str, fallback: float) -> float:
    return setting(config, "budgets", key, fallback)

