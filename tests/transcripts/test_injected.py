"""What our hooks injected never comes back as the person's words, in any agent's recording of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.hooks import HEADINGS, PROMPT_HEADING
from agent_memory.agents.reading import read_transcript
from agent_memory.transcripts.injected import strip_injected

# What the session-start and prompt hooks print, built from their own headings.
START = "\n".join(
    [
        HEADINGS["L2"],
        "- Always run make lint before committing",
        "- [contested] Use pnpm, not npm",
        HEADINGS["L3"],
        "- Write commit messages in the imperative mood",
        "(3 more adopted claims not shown: agent-memory inspect --tier L2)",
        "2 proposals await review: /cs-memory",
    ]
)
PROMPT = "\n".join([PROMPT_HEADING, "- Deploy the billing service to staging first. (2025-09-10; 2 sessions)"])
TYPED = "Can you fix the flaky login test?"
RULES = ("make lint", "pnpm", "imperative mood", "billing service", "proposals await", "agent-memory")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Gemini interactive: the session-start context as a user message of its own
        (f"<hook_context>{START}</hook_context>", ""),
        # Gemini headless: prepended to the prompt
        (f"<hook_context>{START}</hook_context>\n\n{TYPED}", TYPED),
        # Gemini BeforeAgent: appended to the request as one more part
        (f"{TYPED}<hook_context>{PROMPT}</hook_context>", TYPED),
        # Codex (newer builds) wrap hook context the same way
        (f"<hook_context>\n{PROMPT}\n</hook_context>", ""),
        # older Claude Code: the prompt hook's output after the prompt
        (f"{TYPED}\n<user-prompt-submit-hook>{PROMPT}</user-prompt-submit-hook>", TYPED),
        # older Claude Code: session-start as a reminder
        (f"<system-reminder>\nSessionStart:startup hook success: {START}\n</system-reminder>\n{TYPED}", TYPED),
        (f"<system-reminder>SessionStart hook additional context:\n{START}</system-reminder>", ""),
        # a bare block, unwrapped, before the person's words
        (f"{START}\n\n{TYPED}", TYPED),
        (f"{PROMPT}\n\n{TYPED}", TYPED),
        ("1 proposal awaits review: /cs-memory", ""),
        # an unclosed wrapper: the rest came from the hook
        (f"{TYPED}<hook_context>{PROMPT}", TYPED),
        # the person's own text stays whole
        (TYPED, TYPED),
        ("Please review the proposals in staged/ tomorrow.", "Please review the proposals in staged/ tomorrow."),
        ("- keep the list\n- as it is", "- keep the list\n- as it is"),
        ("Run `agent-memory inspect` (agent-memory is installed) and tell me", "Run `agent-memory inspect` (agent-memory is installed) and tell me"),
        ("Use <b>bold</b> in the README", "Use <b>bold</b> in the README"),
        ("<system-reminder>a reminder of someone else's</system-reminder> go", "<system-reminder>a reminder of someone else's</system-reminder> go"),
    ],
)
def test_strip_injected(text: str, expected: str) -> None:
    assert strip_injected(text) == expected


def test_text_without_any_injection_is_returned_as_is() -> None:
    text = "Always use pnpm for installs."
    assert strip_injected(text) is text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_person_text_survives_beside_a_block(typed: str) -> None:
    typed = typed.strip()
    if "(agent-memory" in typed or "<" in typed or typed.startswith("- ") or "review" in typed:
        return  # text of the shapes the stripper looks for is covered by the table
    for injected in (f"<hook_context>{START}</hook_context>\n\n{typed}", f"{START}\n\n{typed}", f"{typed}\n<hook_context>{PROMPT}</hook_context>"):
        out = strip_injected(injected)
        assert out == typed.strip()
        assert strip_injected(out) == out


# ---------------------------------------------------------------- through each reader


def _jsonl(path: Path, records: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return str(path)


def _user_texts(path: str) -> list[str]:
    return [t.text for t in read_transcript(path).turns if t.role == "user"]


def _leaks(texts: list[str]) -> list[str]:
    return [t for t in texts if any(r in t for r in RULES)]


def test_gemini_recordings_of_our_context(tmp_path: Path) -> None:
    head = {"sessionId": "g1", "projectHash": "h", "startTime": "2026-03-01T10:00:00Z", "kind": "main"}
    records = [
        head,
        # interactive: the session-start context as its own user message
        {"id": "m1", "timestamp": "2026-03-01T10:00:01Z", "type": "user", "content": [{"text": f"<hook_context>{START}</hook_context>"}]},
        # headless: prepended to the prompt, in both content and displayContent
        {"id": "m2", "timestamp": "2026-03-01T10:00:02Z", "type": "user",
         "content": [{"text": f"<hook_context>{START}</hook_context>\n\n{TYPED}"}],
         "displayContent": [{"text": f"<hook_context>{START}</hook_context>\n\n{TYPED}"}]},
        # BeforeAgent context appended as one more part
        {"id": "m3", "timestamp": "2026-03-01T10:00:03Z", "type": "user",
         "content": [{"text": "Always use uv for Python here."}, {"text": f"<hook_context>{PROMPT}</hook_context>"}]},
        {"id": "m4", "timestamp": "2026-03-01T10:00:04Z", "type": "gemini", "content": "Done."},
    ]
    texts = _user_texts(_jsonl(tmp_path / "session-g1.jsonl", records))
    assert texts == [TYPED, "Always use uv for Python here."]


def test_claude_recordings_of_our_context(tmp_path: Path) -> None:
    common = {"isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": "c1", "version": "2.1.90"}
    records = [
        # the hook's context as Claude Code 2.x records it: attachments, not user messages
        {**common, "parentUuid": None, "type": "attachment", "uuid": "x1", "timestamp": "2026-03-01T10:00:00Z",
         "attachment": {"type": "hook_additional_context", "content": [START], "hookName": "SessionStart:startup", "hookEvent": "SessionStart"}},
        {**common, "parentUuid": "x1", "type": "attachment", "uuid": "x2", "timestamp": "2026-03-01T10:00:00Z",
         "attachment": {"type": "hook_success", "content": START, "hookName": "SessionStart:startup", "hookEvent": "SessionStart"}},
        # older forms: a meta reminder, and the prompt hook's block inside the prompt
        {**common, "parentUuid": "x2", "type": "user", "uuid": "u0", "timestamp": "2026-03-01T10:00:00Z", "isMeta": True,
         "message": {"role": "user", "content": f"<system-reminder>\nSessionStart:startup hook success: {START}\n</system-reminder>"}},
        {**common, "parentUuid": "u0", "type": "user", "uuid": "u1", "timestamp": "2026-03-01T10:00:01Z",
         "message": {"role": "user", "content": f"{TYPED}\n<user-prompt-submit-hook>{PROMPT}</user-prompt-submit-hook>"}},
        {**common, "parentUuid": "u1", "type": "user", "uuid": "u2", "timestamp": "2026-03-01T10:00:02Z",
         "message": {"role": "user", "content": [{"type": "text", "text": f"<system-reminder>{START}</system-reminder>"},
                                                 {"type": "text", "text": "Never push to main."}]}},
    ]
    texts = _user_texts(_jsonl(tmp_path / "c1.jsonl", records))
    assert texts == [TYPED, "Never push to main."]


def test_codex_recordings_of_our_context(tmp_path: Path) -> None:
    def item(role: str, text: str) -> dict[str, Any]:
        return {"timestamp": "2026-03-01T10:00:01Z", "type": "response_item",
                "payload": {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}}

    records = [
        {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta", "payload": {"id": "x1", "cwd": "/w", "cli_version": "0.171.0"}},
        item("developer", START),  # hook context as a developer message
        item("developer", f"<hook_context>{PROMPT}</hook_context>"),
        item("user", f"<hook_context>{START}</hook_context>"),
        item("user", TYPED),
    ]
    texts = _user_texts(_jsonl(tmp_path / "rollout-2026-03-01T10-00-00-x1.jsonl", records))
    assert texts == [TYPED]
    assert _leaks(texts) == []


_PIECES = ["<hook_context>", "</hook_context>", "<system-reminder>", "</system-reminder>", "<user-prompt-submit-hook>",
           "</user-prompt-submit-hook>", HEADINGS["L2"] + "\n", "\n" + PROMPT_HEADING + "\n", "\n", "- a rule", "2 proposals await review: /x",
           "SessionStart hook success:", " words ", "(agent-memory", ":", "<hook_con", "text>"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_stripping_twice_changes_nothing(pieces: list[str]) -> None:
    once = strip_injected("".join(pieces))
    assert strip_injected(once) == once
    assert "<hook_context>" not in once and "<user-prompt-submit-hook>" not in once
