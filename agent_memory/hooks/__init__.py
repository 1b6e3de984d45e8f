"""The three hooks coding agents call: session-start, user-prompt-submit, session-end.

Each reads the agent's hook JSON on stdin and answers in that agent's form (``entry``).
Session-end work (ingest, staging) runs in a detached worker (``worker``) so it survives the
agent's exit; the hook waits for it only as long as the budget allows.

Fail open (``entry``): whatever breaks, a hook exits 0, prints nothing that is not valid hook
output, and logs the error under the store. The hot path is short and standard-library only:
layout (where the store is), text and lookup (prompt recall straight from the index file), and
the hook caches (``cache``), each entry checked against the size, mtime and inode of the files it
came from. Everything else loads only on a miss.

This package imports none of its modules itself: a name asked of it is looked up in the module
that defines it, so a prompt hook never loads session-start's code.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

# name -> the module of this package that defines it
_HOMES = {
    "entry": ("EVENTS", "SWITCHES", "STDIN_TIMEOUT", "STDIN_LIMIT", "HookArgs", "hook_args", "main", "cmd_hook",
              "run_hook", "read_stdin", "parse_payload",
              "CONTEXT_CAP", "TAG_CONTESTED", "Budget", "measure"),
    "where": ("store_for",),
    "cache": ("CACHE_FILE", "CACHE_ENTRIES", "RECORDED_FILE", "HookCache", "cached_config"),
    "session_start": ("HEADINGS", "cached_session_start", "session_start_context",
                      "instruction_candidates", "instruction_files"),
    "prompt": ("PROMPT_HEADING", "PROMPT_SCAN_CHARS", "PROMPT_TERMS", "INLINE_REBUILD_BYTES", "prompt_context",
               "is_relevant", "prompt_terms", "relevance"),
    "session_end": ("CATCHUP_FILES", "pending_transcripts", "recorded_sigs", "project_transcripts"),
    "worker": ("worker_script", "run_job", "worker_main"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> "Any":
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(__import__(f"{__name__}.{module}", fromlist=[name]), name)
