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
        # a document's section pasted without markdown: a title line over its lines
        ("Never force-push to main.\nCan you build the signup flow from this?\n\nSecurity Considerations\n"
         "Always hash passwords with argon2\nNever log tokens", "Never force-push to main.", "pasted document section"),
        # a web page pointed at by its address, then quoted
        ("We use uv for everything.\nthis is what the docs say https://example.org/guide/limits\nRate limits\n"
         "You can send 60 requests a minute. Always use the batch endpoint when you send more than 10 items at once.",
         "We use uv for everything.", "pasted web page"),
    ],
)
def test_what_was_pasted_is_left_out_and_named(turn: str, claim: str, left_out: str) -> None:
    found = find_markers(turn)
    assert [m.text for m in found] == [claim]
    assert durable_reason(found[0], turn).endswith(f"; {left_out} left out")


def test_a_template_turn_yields_nothing() -> None:
    assert find_markers("Always run {{command}} before you commit.") == []


@pytest.mark.parametrize(
    "turn",
    [
        "Implement the endpoint below.\n\nRequirements\n- Always validate input\n- Never store plaintext passwords",
        "Code Review Checklist\n- Tests pass\n- Always handle errors\n- Never leave debug prints",
        "チャットアプリを作って。\n要件\n- 送信前に必ず確認ダイアログを出すこと\n- 既読は常に表示すること",
        "做一个记账应用。\n需求：\n1. 所有金额都要保留两位小数\n2. 不要使用第三方库",
        # a terminal session pasted with its prompts: what the tools print is theirs
        "PS C:\\work> adb start-server\n* daemon not running; starting now at tcp:5037\n* daemon started successfully",
        "dev@box:~/app$ make deploy\nAlways run make check before deploying.\nDone.",
        # a prompt with its environment, pasted straight after the person's own words on the same line
        "它能装上吗，(env) me@devbox:~/proj$ tool --help\nUsage: tool [options]\n  use -v/--verbose for verbose output.",
        # diff lines as an agent's screen shows them, under their line numbers
        "这些能删掉吗\n      12 +# 以后不再使用 legacy_loader\n      13 +# 其余保留",
        # an assistant's replies to its own user (您 line after line), pasted to be checked
        "帮我看看它答得对不对\n根据您提供的信息，您的运势平稳。\n请记住，这些只是参考，您可以结合实际判断。",
        # a command's steps injected in a tag with attributes
        "Follow these steps:\n<steps CRITICAL=\"TRUE\">\n1. Always LOAD the whole config first\n2. Save outputs after EACH section "
        "when generating any documents\n</steps>",
        "did you see this? https://example.org/docs/upload\nUploading files\n"
        "You can upload a file with the Files API. Always use the Files API when a request is over 20 MB.",
    ],
)
def test_a_pasted_section_or_page_yields_nothing(turn: str) -> None:
    assert find_markers(turn) == []


@pytest.mark.parametrize(
    ("turn", "claims"),
    [
        # a short line of thanks is no title: the person's own lines under it stay theirs
        ("Thanks\nnever push to main\nalways run the tests first", ["never push to main", "always run the tests first"]),
        # a list the person asks to be written into a rule file is theirs, titled or not
        ("Update my cursor rules with these:\nTesting\n- always write tests first\n- never mock the db",
         ["always write tests first", "never mock the db"]),
        # 您 said once in a request is the person's politeness, no pasted reply
        ("请您以后都用中文回答", ["请您以后都用中文回答"]),
        # a line in capitals is the person shouting, no title
        ("YOUR JOB IS:\nkeep every module under 400 lines\nnever skip the linter",
         ["keep every module under 400 lines", "never skip the linter"]),
        # an address pointed at with one line after it quotes nothing
        ("see https://github.com/org/repo/issues/12\nfix it, and never use mocks in the integration tests",
         ["fix it, and never use mocks in the integration tests"]),
    ],
)
def test_lines_the_person_typed_under_a_short_line_stay_theirs(turn: str, claims: list[str]) -> None:
    assert [m.text for m in find_markers(turn)] == claims
