"""What a hook says to the agent: the output form for each agent's event, and context fitted within a budget."""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any


# each agent's own event names for our three verbs
AGENT_EVENTS: dict[str, dict[str, str]] = {
    "claude": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "SessionEnd"},
    "codex": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "SessionEnd"},
    "gemini": {"session-start": "SessionStart", "user-prompt-submit": "BeforeAgent", "session-end": "SessionEnd"},
}


# What each agent keeps of one hook's additionalContext, in its own unit; past it the agent cuts the text
# wherever the limit falls (Claude Code: 10,000 characters, then a preview and a file; Codex CLI: about
# 2,500 tokens reckoned as UTF-8 bytes / 4, then a spill to a file). Gemini CLI 0.61 has no limit of
# its own but escapes every < and > as &lt; / &gt;: what its model sees is held to our cap, those
# counting four characters each.
AGENT_LIMITS: dict[str, tuple[int, str]] = {
    "claude": (10_000, "chars"),
    "codex": (2_500 * 4, "bytes"),
    "gemini": (10_000, "escaped"),
}
CONTEXT_CAP = 10_000  # characters: no hook says more than this, whatever the config asks


def measure(text: str, unit: str) -> int:
    """The size of ``text`` as an agent counts it."""
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "escaped":
        return len(text) + 3 * (text.count("<") + text.count(">"))
    return len(text)


class Budget:
    """Room for context: so many characters (the config's budget), and whatever the agent itself keeps."""

    def __init__(self, agent: str, chars: int) -> None:
        self.limits = [(max(0, min(int(chars), CONTEXT_CAP)), "chars")]
        limit, unit = AGENT_LIMITS.get(agent, (0, "chars"))
        if limit:
            self.limits.append((limit, unit))

    def cost(self, text: str) -> list[int]:
        return [measure(text, unit) for _limit, unit in self.limits]

    def fits(self, used: list[int], extra: list[int]) -> bool:
        return all(u + e <= limit for u, e, (limit, _unit) in zip(used, extra, self.limits))

    def zero(self) -> list[int]:
        return [0] * len(self.limits)


TAG_CONTESTED = "[contested]"


def context_output(agent: str, event: str, text: str) -> "dict[str, Any] | None":
    if not text:
        return None
    name = AGENT_EVENTS[agent][event]
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}


def fit(groups: list[tuple[str, list[str]]], note: str, budget: Budget, more: str = "") -> str:
    """Whole lines only, within ``budget``: as many as fit, a count of the rest, then the note."""
    reserve = budget.cost(note + "\n") if note else budget.zero()
    out, left_out = _fill(groups, reserve, budget)
    if left_out and more:
        # make room for the line that says how many were left out
        widest = _add(reserve, budget.cost(more.format(n=10**6, s="s") + "\n"))
        out, left_out = _fill(groups, widest, budget)
        _append_within(out, more.format(n=left_out, s="s" if left_out != 1 else ""), budget, reserve)
    if note:
        _append_within(out, note, budget, budget.zero())
    return "\n".join(out)


def _add(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)]


def _append_within(out: list[str], line: str, budget: Budget, reserve: list[int]) -> None:
    used = budget.cost("".join(x + "\n" for x in out))
    if budget.fits(_add(used, reserve), budget.cost(line)):
        out.append(line)


def _fill(groups: list[tuple[str, list[str]]], reserve: list[int], budget: Budget) -> tuple[list[str], int]:
    out: list[str] = []
    used = budget.zero()
    left_out = 0
    for heading, lines in groups:
        block = [heading]
        size = budget.cost(heading + "\n")
        for line in lines:
            cost = budget.cost(line + "\n")
            if budget.fits(_add(_add(used, size), reserve), cost):
                block.append(line)
                size = _add(size, cost)
            else:
                left_out += 1
        if len(block) > 1:
            out.extend(block)
            used = _add(used, size)
    return out, left_out
