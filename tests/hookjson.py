"""What a hook printed, checked the way an agent reads it: one JSON line of hook output, or nothing."""

from __future__ import annotations

import json

HOOK_NAMES = {
    "claude": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "SessionEnd"},
    "codex": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "SessionEnd"},
    "gemini": {"session-start": "SessionStart", "user-prompt-submit": "BeforeAgent", "session-end": "SessionEnd"},
}


def hook_output(stdout: str, agent: str, event: str) -> str | None:
    """The additionalContext of a hook's stdout, None when it printed nothing; fails on anything else."""
    if stdout == "":
        return None
    lines = stdout.splitlines()
    assert len(lines) == 1 and stdout.endswith("\n"), f"one JSON line expected, got {stdout!r}"
    value = json.loads(lines[0])
    assert set(value) == {"hookSpecificOutput"}, value
    inner = value["hookSpecificOutput"]
    assert inner["hookEventName"] == HOOK_NAMES[agent][event]
    assert set(inner) == {"hookEventName", "additionalContext"}
    assert isinstance(inner["additionalContext"], str) and inner["additionalContext"]
    return str(inner["additionalContext"])
