"""What every transcript reader shares: the line reader, the one decoding loop, timestamps, the finish every
turn goes through, what our own hooks injected, and the files a folder holds.

The readers themselves live with their agents (``agents/claude_reader.py``, ``agents/codex_reader.py``,
``agents/gemini_reader.py``, the Copilot reader in ``agents/copilot.py``); this package names no agent. Every
reader keeps only the words the person typed (``"user"``) and the assistant's prose (``"assistant"``). The hooks
import ``listed()`` and ``injected`` on their hot path, so this package imports nothing at all until one of
``read.py``'s names is asked for.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

# The names callers have always imported from here; they live in read.py.
_FROM_READ = frozenset(
    {
        "UnknownFormat",
        "TranscriptUnreadable",
        "iter_transcript_files",
        "project_root",
        "is_subagent_file",
        "LineReader",
        "loads_line",
        "utc_timestamp",
        "FAILED",
        "JSON_ERRORS",
        "MAX_LINE_BYTES",
    }
)

__all__ = sorted(_FROM_READ | {"listed"})


def __getattr__(name: str) -> Any:
    if name in _FROM_READ:
        from agent_memory.transcripts import read

        return getattr(read, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def listed(folder: str, suffixes: tuple[str, ...], prefix: str = "") -> list[str]:
    """Absolute paths of the regular files in ``folder`` named ``prefix…suffix`` (none if unreadable)."""
    base = os.path.abspath(folder)
    try:
        with os.scandir(base) as entries:
            return [
                os.path.join(base, e.name)
                for e in entries
                if e.name.startswith(prefix) and e.name.endswith(suffixes) and e.is_file()
            ]
    except OSError:
        return []
