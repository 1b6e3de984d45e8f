"""Where everything is, named once, as plain strings: the project root, both stores and every file in them.

The hooks' hot path needs these before anything else, so this module imports nothing but ``os``.
``Layout`` is the one spelling of the on-disk layout (store, install, adopt and the hooks all use it);
``signature()`` is the one answer to "did this file change".
"""

from __future__ import annotations

import os

def project_root(start: str) -> str:
    """The nearest ancestor of ``start`` holding ``.git``, else ``start`` itself (symlinks resolved)."""
    here = os.path.realpath(start)
    folder = here
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return here
        folder = parent


def home() -> str:
    return os.path.expanduser("~")


def project_store(root: str, memory_dir: str | None = None) -> str:
    """``--memory-dir``, else ``$AGENT_MEMORY_DIR``, else ``<project root>/.memory``."""
    chosen = memory_dir or os.environ.get("AGENT_MEMORY_DIR") or ""
    return os.path.realpath(os.path.expanduser(chosen)) if chosen else os.path.join(root, ".memory")


def user_store() -> str:
    """``$AGENT_MEMORY_HOME``, else ``~/.agent-memory``."""
    chosen = os.environ.get("AGENT_MEMORY_HOME") or ""
    return os.path.realpath(os.path.expanduser(chosen)) if chosen else os.path.join(home(), ".agent-memory")


def signature(path: str) -> list[int] | None:
    """``[size, mtime_ns, inode]`` of a file (an atomic rewrite changes the inode); None when it cannot be stat'ed."""
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


class _At:
    """A file or folder at a fixed place under one of the two stores, read as a plain string."""

    __slots__ = ("base", "parts")

    def __init__(self, base: str, *parts: str) -> None:
        self.base, self.parts = base, parts

    def __get__(self, where: object, owner: type | None = None) -> str:
        return os.path.join(getattr(where, self.base), *self.parts)


class Layout:
    """Every location the tool reads or writes, as plain strings, resolved once."""

    __slots__ = ("store", "user", "project_root")

    def __init__(self, store: str, user: str, project_root: str) -> None:
        self.store = os.fspath(store)  # project store
        self.user = os.fspath(user)  # user store (L3, registry of projects)
        self.project_root = os.fspath(project_root)

    @classmethod
    def resolve(cls, memory_dir: str | None = None, cwd: str | None = None) -> "Layout":
        """``--memory-dir``, else ``$AGENT_MEMORY_DIR``, else ``<project root>/.memory``."""
        root = project_root(cwd or os.getcwd())
        return cls(project_store(root, memory_dir), user_store(), root)

    def __repr__(self) -> str:
        return f"Layout(store={self.store!r}, user={self.user!r}, project_root={self.project_root!r})"

    def __eq__(self, other: object) -> bool:
        mine = (self.store, self.user, self.project_root)
        return isinstance(other, Layout) and mine == (other.store, other.user, other.project_root)

    def __hash__(self) -> int:
        return hash((self.store, self.user, self.project_root))

    @property
    def project_name(self) -> str:
        return os.path.basename(self.project_root.rstrip(os.sep)) or "project"

    # the project store: L1 (local, rebuildable or private) …
    l1_dir = _At("store", "L1")
    atoms = _At("store", "L1", "atoms.jsonl")
    chunks = _At("store", "L1", "chunks.jsonl")
    ingested = _At("store", "L1", "ingested.json")
    contested = _At("store", "L1", "contested.json")
    claim_cache = _At("store", "L1", "claim-cache.json")
    claims_db = _At("store", "L1", "claims.db")  # promote's claim tables (claims/tables.py)
    stage_cache = _At("store", "L1", "stage-cache.json")
    hook_cache = _At("store", "L1", "hook-cache.json")
    catchup_cache = _At("store", "L1", "catchup-cache.json")
    export_seen = _At("store", "L1", "export-seen.json")  # what the last export --dry-run showed (a digest)
    index = _At("store", "index.db")
    backups = _At("store", "backups")
    logs = _At("store", "logs")
    errors_log = _At("store", "logs", "errors.log")  # what fail-open hooks swallowed
    run_log = _At("store", "logs", "hooks.log")  # one line per hook run, bounded (hooklog.py)
    lock = _At("store", "lock")
    # … and what is meant for review
    l2 = _At("store", "L2.jsonl")
    decisions = _At("store", "decisions.jsonl")
    staged = _At("store", "staged")
    config = _At("store", "config.yaml")
    # the user store
    l3 = _At("user", "L3.jsonl")
    registry = _At("user", "projects.json")
    user_backups = _At("user", "backups")
    user_decisions = _At("user", "decisions.jsonl")
    user_logs = _At("user", "logs")
    team_salt = _At("user", "team-salt")  # the export pseudonyms' key (0600; never leaves the machine)
