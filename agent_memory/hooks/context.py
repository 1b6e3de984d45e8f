"""What a hook says to the agent: the output form for each agent's event, and context fitted within a budget."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any


# each agent's own event names for our three verbs
AGENT_EVENTS: dict[str, dict[str, str]] = {
    "claude": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "SessionEnd"},
    "codex": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "Stop"},
    "gemini": {"session-start": "SessionStart", "user-prompt-submit": "BeforeAgent", "session-end": "SessionEnd"},
}


CONTEXT_CAP = 10_000  # Claude Code and Codex cut additionalContext beyond this many characters


TAG_CONTESTED = "[contested]"


def context_output(agent: str, event: str, text: str) -> "dict[str, Any] | None":
    if not text:
        return None
    name = AGENT_EVENTS[agent][event]
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}


def fit(groups: list[tuple[str, list[str]]], note: str, budget: int, more: str = "") -> str:
    """Whole lines only, within ``budget`` characters: as many as fit, a count of the rest, then the note."""
    reserve = len(note) + 1 if note else 0
    out, left_out = _fill(groups, reserve, budget)
    if left_out and more:
        # make room for the line that says how many were left out
        out, left_out = _fill(groups, reserve + len(more.format(n=10**6, s="s")) + 1, budget)
        _append_within(out, more.format(n=left_out, s="s" if left_out != 1 else ""), budget - reserve)
    if note:
        _append_within(out, note, budget)
    return "\n".join(out)


def _append_within(out: list[str], line: str, budget: int) -> None:
    if sum(len(x) + 1 for x in out) + len(line) <= budget:
        out.append(line)


def _fill(groups: list[tuple[str, list[str]]], reserve: int, budget: int) -> tuple[list[str], int]:
    out: list[str] = []
    used = 0
    left_out = 0
    for heading, lines in groups:
        block = [heading]
        size = len(heading) + 1
        for line in lines:
            if used + size + len(line) + 1 + reserve <= budget:
                block.append(line)
                size += len(line) + 1
            else:
                left_out += 1
        if len(block) > 1:
            out.extend(block)
            used += size
    return out, left_out

