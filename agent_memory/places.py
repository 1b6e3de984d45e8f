"""Where things are, as plain strings: the project root, the stores, each agent's home.

The hooks' hot path needs these before anything else and imports nothing but ``os`` for
them; ``store.Paths`` builds on the same functions, so both always agree.
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


def agent_home(agent: str) -> str:
    """An agent's user-level folder: ``$CLAUDE_CONFIG_DIR`` / ``$CODEX_HOME`` or ``~/.claude``, ``~/.codex``, ``~/.gemini``."""
    if agent == "claude":
        return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home(), ".claude")
    if agent == "codex":
        return os.environ.get("CODEX_HOME") or os.path.join(home(), ".codex")
    return os.path.join(home(), ".gemini")
