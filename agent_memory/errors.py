"""The errors the library raises on purpose; only the CLI turns them into one line and an exit code."""

from __future__ import annotations


class AgentMemoryError(Exception):
    """Base of every error the library raises on purpose; the CLI turns it into one line."""


class UsageError(AgentMemoryError):
    """The caller asked for something that cannot be done as asked (exit 1)."""


class NotFound(AgentMemoryError):
    """An id or text resolved to nothing (exit 3)."""


class Ambiguous(AgentMemoryError):
    """An id or text resolved to more than one thing (exit 3)."""


class StoreError(AgentMemoryError):
    """The store cannot be read or written (missing, read-only, locked too long)."""


class SqliteTooOld(AgentMemoryError):
    """SQLite lacks FTS5 with the trigram tokenizer (needs 3.34+)."""


class OutsideProject(UsageError):
    """A command that writes a project's store was run in no git repository, with no store named (exit 1)."""
