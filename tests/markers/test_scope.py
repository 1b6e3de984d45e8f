"""markers.durable_reason: the reason an atom keeps for reading as standing, not for the task at hand."""

from __future__ import annotations

import pytest

from agent_memory.markers import durable_reason, find_markers

CASES = [
    ("From now on, always use pnpm.", "asked to keep it"),
    ("I use the fish shell", "a fact about the person's setup or the project"),
    ("can you update CLAUDE.md that PR titles follow conventional commits", "asked for the instruction file"),
    ("Never run migrations against the shared dev database.", "a standing word: 'Never'"),
    ("改之前先读", "a condition that recurs: '之前'"),
    ("No emojis in commit messages.", "a rule about a class of things, no word ties it to the task"),
    ("don't run the linter before every commit anymore, CI does it now", "lifts a standing rule"),
    ("We explicitly chose Haiku as the default model", "a choice the person made on purpose"),
    ("the v1 endpoint is deprecated in favor of v2", "something the project has moved off"),
    ("our convention is kebab-case file names", "named as the project's convention"),
    ("you keep forgetting to run the formatter", "a rule the agent keeps breaking"),
    # a one-off word that bound another request of the turn is named, so a reader sees it was weighed
    ("Skip the tests this time, but always run lint before pushing",
     "a standing word: 'always'; 'this time' binds only the rest of the turn"),
    ("for now use the mock server. Also, as a rule, we keep business logic out of handlers.",
     "said as a rule; 'for now' binds only the rest of the turn"),
    ("今回はテスト不要。コミットする前に必ずlintを実行してください",
     "a standing word: '必ず'; '今回' binds only the rest of the turn"),
]


@pytest.mark.parametrize(("turn", "reason"), CASES)
def test_durable_reason(turn: str, reason: str) -> None:
    found = find_markers(turn)
    assert found, turn
    assert durable_reason(found[0], turn) == reason


def test_pasted_text_is_named_in_the_reason() -> None:
    turn = "I use the fish shell\n\n❯ echo $SHELL\n/usr/bin/fish"
    found = find_markers(turn)
    assert [m.text for m in found] == ["I use the fish shell"]
    assert durable_reason(found[0], turn).endswith("; pasted terminal or agent screen left out")


@pytest.mark.parametrize(
    ("turn", "claim", "left_out"),
    [
        ("Always use pnpm.\n\n## PR checklist\n- [ ] Never skip the changelog\n- [ ] Always add tests", "Always use pnpm.",
         "pasted checklist"),
        ("We deliberately keep the config in yaml.\n<reminder>Always call tools in parallel.</reminder>",
         "We deliberately keep the config in yaml.", "injected tag block"),
    ],
)
def test_what_was_pasted_is_left_out_and_named(turn: str, claim: str, left_out: str) -> None:
    found = find_markers(turn)
    assert [m.text for m in found] == [claim]
    assert durable_reason(found[0], turn).endswith(f"; {left_out} left out")


def test_a_template_turn_yields_nothing() -> None:
    assert find_markers("Always run {{command}} before you commit.") == []
