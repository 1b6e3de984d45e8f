"""Codex records many user-role items the person never typed: instructions, environment, skill and
saved-prompt bodies. Only what the person typed becomes a turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agent_memory.agents.reading import read_transcript

REVIEW_PROMPT = """---
description: review the current branch
argument-hint: FOCUS
---
Review the changes on this branch. Always run the full test suite before you comment,
and never approve a change without tests. Focus on: $ARGUMENTS
"""
PLAIN_PROMPT = "Always squash commits before merging, and never force-push to a shared branch.\n"


def item(role: str, *texts: str, stamp: str = "2026-03-01T10:00:01Z") -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return {"timestamp": stamp, "type": "response_item",
            "payload": {"type": "message", "role": role, "content": [{"type": kind, "text": t} for t in texts]}}


def event(kind: str, message: str) -> dict[str, Any]:
    return {"timestamp": "2026-03-01T10:00:01Z", "type": "event_msg", "payload": {"type": kind, "message": message}}


META = {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta",
        "payload": {"id": "r1", "cwd": "/w/shop", "cli_version": "0.171.0", "source": "cli"}}
AGENTS_MD = "# AGENTS.md instructions for /w/shop\n\n<INSTRUCTIONS>\nAlways use pnpm.\n</INSTRUCTIONS>"
ENVIRONMENT = "<environment_context>\n  <cwd>/w/shop</cwd>\n  <shell>zsh</shell>\n</environment_context>"
SKILL = "<skill>\n<name>deploy</name>\n<path>/home/alice/.codex/skills/deploy/SKILL.md</path>\nAlways deploy with make ship.\n</skill>"
EXPANDED = REVIEW_PROMPT.split("---\n", 2)[2].replace("$ARGUMENTS", "the billing module").strip()


@pytest.fixture(autouse=True)
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "codex-home"
    (home / "prompts").mkdir(parents=True)
    (home / "prompts" / "review.md").write_text(REVIEW_PROMPT, encoding="utf-8")
    (home / "prompts" / "squash.md").write_text(PLAIN_PROMPT, encoding="utf-8")
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


def _users(tmp_path: Path, records: list[dict[str, Any]]) -> list[str]:
    path = tmp_path / "rollout-2026-03-01T10-00-00-r1.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return [t.text for t in read_transcript(str(path)).turns if t.role == "user"]


def test_a_rollout_without_prompt_events_keeps_only_the_typed_items(tmp_path: Path) -> None:
    records = [
        META,
        item("developer", "<permissions instructions>Never run rm -rf.</permissions instructions>"),
        item("user", AGENTS_MD, ENVIRONMENT),
        item("user", "<user_instructions>\nAlways answer in French.\n</user_instructions>"),
        item("user", "Always use uv for Python here."),
        item("user", SKILL),
        item("user", "$deploy the api"),
        item("user", EXPANDED),
        item("user", PLAIN_PROMPT.strip()),
        item("assistant", "Done."),
    ]
    assert _users(tmp_path, records) == ["Always use uv for Python here.", "$deploy the api", "the billing module"]


def test_legacy_prompt_events_are_read_the_same_way(tmp_path: Path) -> None:
    records = [
        META,
        item("user", AGENTS_MD), item("user", ENVIRONMENT),
        item("user", EXPANDED), event("user_message", EXPANDED),
        item("user", "Never commit to main."), event("user_message", "Never commit to main."),
        event("agent_message", "Noted."),
    ]
    assert _users(tmp_path, records) == ["the billing module", "Never commit to main."]


def test_a_prompt_that_only_resembles_a_saved_one_is_the_person_s(tmp_path: Path) -> None:
    typed = "Review the changes on this branch, but skip the tests for now."
    assert _users(tmp_path, [META, item("user", typed)]) == [typed]


def test_without_saved_prompts_nothing_is_taken_for_one(tmp_path: Path, codex_home: Path) -> None:
    for path in (codex_home / "prompts").iterdir():
        path.unlink()
    assert _users(tmp_path, [META, item("user", EXPANDED)]) == [EXPANDED]
