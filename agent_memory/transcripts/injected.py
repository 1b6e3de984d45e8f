"""Remove what our own hooks put into a conversation, in each agent's recorded form of it.

The session-start and prompt hooks hand the agent a block of adopted claims or recalled
hints. Agents record it back in several shapes: Gemini wraps it in ``<hook_context>`` (a
user message of its own, or prepended to a headless prompt, or appended to the request
BeforeAgent saw); Codex keeps it as a developer message, newer builds wrapped in
``<hook_context>``; older Claude Code puts it in ``<user-prompt-submit-hook>`` or in a
``<system-reminder>`` after "SessionStart hook additional context:". Read back as the
person's words it would be remembered, searched and re-injected: an echo of ourselves.

Standard library only and no ``re``: the prompt hook calls this on every prompt.
"""

from __future__ import annotations

# Wrappers an agent puts around hook output: whatever is inside came from a hook, never the person.
_HOOK_WRAPPERS: tuple[tuple[str, str], ...] = (
    ("<hook_context>", "</hook_context>"),
    ("<user-prompt-submit-hook>", "</user-prompt-submit-hook>"),
)
# Our blocks open with a heading naming the tool, e.g.
# "Adopted for this project (agent-memory; each reviewed by a person):".
_OUR_MARK = "(agent-memory"
_HEADING_LEAD = 120  # how far into a heading line the mark may sit (after an agent's "… hook success: ")
_REMINDER = ("<system-reminder>", "</system-reminder>")
# What an agent writes in front of a hook's output inside a reminder.
_HOOK_LEADS = ("hook success:", "hook additional context:")


def strip_injected(text: str) -> str:
    """``text`` without any block our hooks injected (and without the agent's wrapper around it).

    Text that holds none of it comes back unchanged (same object); otherwise the rest,
    stripped of the blank lines left where the blocks were.
    """
    if "<" not in text and _OUR_MARK not in text and "review" not in text:
        return text  # (what _strip_once looks for first: most turns hold none of it)
    out = _strip_once(text)
    for _ in range(8):  # cutting one block can join the pieces of another: go on until nothing changes
        if out is text:
            break
        text, out = out, _strip_once(out)
    return out


def _strip_once(text: str) -> str:
    if not text or ("<" not in text and _OUR_MARK not in text and "review" not in text):
        return text
    out = text
    for opening, closing in _HOOK_WRAPPERS:
        if opening in out:
            out = _cut_wrapped(out, opening, closing)
    if _REMINDER[0] in out:
        out = _clean_reminders(out)
    if _OUR_MARK in out or "review" in out:
        out = _cut_our_blocks(out)
    return out if out is text else out.strip()


def _cut_wrapped(text: str, opening: str, closing: str) -> str:
    """Remove every ``opening … closing`` span; an unclosed one runs to the end."""
    parts: list[str] = []
    at = 0
    while True:
        start = text.find(opening, at)
        if start < 0:
            parts.append(text[at:])
            break
        parts.append(text[at:start])
        end = text.find(closing, start + len(opening))
        if end < 0:
            break
        at = end + len(closing)
    return "".join(parts)


def _is_heading(line: str) -> bool:
    """``… (agent-memory; …):`` ending the line (or only an agent's tags after it)."""
    mark = line.find(_OUR_MARK)
    if not 0 <= mark <= _HEADING_LEAD:
        return False
    close = line.find("):", mark)
    if close < 0:
        return False
    rest = line[close + 2 :].strip()
    while rest.startswith("<") and ">" in rest:  # an agent's tags, glued to the heading
        tag, _, rest = rest.partition(">")
        if " " in tag:
            return False
        rest = rest.strip()
    return not rest


def _is_trailer(line: str) -> bool:
    """The count and review lines that close a session-start block."""
    s = line.strip()
    if s.startswith("(") and " more adopted claim" in s and "agent-memory" in s:
        return True
    head, _, rest = s.partition(" ")
    return head.isdigit() and rest.startswith(("proposal awaits review", "proposals await review"))


def _cut_our_blocks(text: str) -> str:
    lines = text.split("\n")
    kept: list[str] = []
    inside = False
    removed = False
    for line in lines:
        if _is_heading(line):
            inside = removed = True
            continue
        if _is_trailer(line):
            removed = True
            continue
        if inside and line.startswith("- "):
            continue
        inside = False
        kept.append(line)
    return "\n".join(kept) if removed else text


def _clean_reminders(text: str) -> str:
    """Our blocks cut out of each reminder; a reminder left holding nothing but an agent's
    "… hook success:" lead goes with them."""
    opening, closing = _REMINDER
    parts: list[str] = []
    at = 0
    changed = False
    while True:
        start = text.find(opening, at)
        if start < 0:
            parts.append(text[at:])
            break
        end = text.find(closing, start + len(opening))
        if end < 0:
            parts.append(text[at:])
            break
        parts.append(text[at:start])
        inner = text[start + len(opening) : end]
        cleaned = _cut_our_blocks(inner)
        if cleaned is inner:
            parts.append(text[start : end + len(closing)])
        else:
            changed = True
            left = cleaned.strip()
            if left and not left.endswith(_HOOK_LEADS):
                parts.append(opening + cleaned + closing)
        at = end + len(closing)
    return "".join(parts) if changed else text
