"""Reading the real transcripts in shared/data: what a person would recognise as theirs."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from agent_memory.errors import AgentMemoryError
from agent_memory.model import Turn
from agent_memory.transcripts import UnknownFormat
from agent_memory.agents.reading import detect_agent, read_transcript

from .shared import shared_data

DATA = shared_data()
TRANSCRIPTS = DATA / "transcripts"

if not TRANSCRIPTS.is_dir():
    pytest.skip("shared/data/transcripts is not available", allow_module_level=True)

AGENT_DIRS = ("claude", "codex", "gemini")
SAMPLES = sorted(
    p
    for agent in AGENT_DIRS
    for p in (TRANSCRIPTS / agent).glob("*")
    if p.suffix in (".jsonl", ".json")
)
ISO_Z = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\Z")

# Text that is never something a person typed.
NOT_TYPED = (
    "<system-reminder>",
    "Caveat: The messages below were generated",
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "This session is being continued from a previous conversation",
    "[Request interrupted by user",
    "tool_use_id",
    "<environment_context>",
    "# AGENTS.md instructions",
    "<user_instructions>",
    "# Context from my IDE setup",
    "[Function Response:",
    "System: Please continue.",
    "You are an AI agent that brings the power of Gemini",
)

# Real prompts from the samples: (file, 1-based line, exact text of the user turn).
KNOWN_PROMPTS = [
    ("claude/vibecodingtracker_claude_code_zh.jsonl", 21, "toolchain不用保留吧?"),
    (
        "claude/vibecodingtracker_claude_code_zh.jsonl",
        64,
        "不對 幫我查一下pydantic文檔的Field用法 整理成markdown保存",
    ),
    (
        "claude/attio_829b67b_small.jsonl",
        153,
        "pls list all the things you've tried to do in the MD as well",
    ),
    ("claude/attio_55acb2e_compaction_2sessions.jsonl", 777, "merge PR"),
    ("claude/attio_aa5474a_overlap_2sessions.jsonl", 733, "is this tested?"),
    (
        "claude/ccviewer_fe5e1c67_todo_app.jsonl",
        434,
        "Thanks! Please update CLAUDE.md for current changes",
    ),
    (
        "claude/cclog_sample_ja.jsonl",
        4,
        "goでこれらを人間が読みやすいmarkdownにパースするコマンドラインツールを作る。"
        "t-wadaのTDDに従ってテストしながら進める。まずはGoのプロジェクトを初期化したい",
    ),
    (
        "gemini/vibecodingtracker_gemini_v2_jsonl.jsonl",
        22,
        "幫我做一個小修改 請幫我將上面確保執行時要透過 uv run 來執行 避免環境有問題",
    ),
    ("gemini/agentsessions_gemini_jsonl_v040_fixture.jsonl", 2, "Say hello and list files."),
]

# How many prompts the person really typed in each real session.
USER_TURNS = {
    "claude/attio_55acb2e_compaction_2sessions.jsonl": 8,
    "claude/attio_816b68a_sidechain_heavy.jsonl": 4,
    "claude/attio_829b67b_small.jsonl": 2,
    "claude/attio_aa5474a_overlap_2sessions.jsonl": 11,
    "claude/cclog_sample_ja.jsonl": 1,
    "claude/ccviewer_1af7fc5e.jsonl": 0,
    "claude/ccviewer_5c0375b4.jsonl": 0,
    "claude/ccviewer_agent-test-hash-123.jsonl": 0,
    "claude/ccviewer_fe5e1c67_todo_app.jsonl": 1,
    "claude/vibecodingtracker_claude_code_zh.jsonl": 4,
    "codex/vibecodingtracker_codex_zh.jsonl": 1,
    "gemini/vibecodingtracker_gemini_v2_jsonl.jsonl": 1,
    "gemini/vibecodingtracker_gemini_session_2026-03-27.json": 1,
    "gemini/vibecodingtracker_gemini_session_2025-10-11b.json": 1,
    "gemini/vibecodingtracker_gemini_session_2025-10-11a.json": 1,
    "gemini/vibecodingtracker_gemini_session_2025-10-05.json": 1,
}


def _rel(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _users(turns: tuple[Turn, ...]) -> list[Turn]:
    return [t for t in turns if t.role == "user"]


def _raw_line(path: Path, number: int) -> str:
    with open(path, "rb") as f:
        for i, raw in enumerate(f, 1):
            if i == number:
                return raw.decode("utf-8")
    raise AssertionError(f"{path} has no line {number}")


def test_samples_are_present() -> None:
    assert {p.parent.name for p in SAMPLES} == set(AGENT_DIRS)


@pytest.mark.parametrize("path", SAMPLES, ids=_rel)
def test_every_sample_is_detected_and_read(path: Path) -> None:
    agent = path.parent.name
    assert detect_agent(str(path)) == agent
    result = read_transcript(str(path))
    assert result.skipped == 0
    assert result.end_offset <= path.stat().st_size
    assert result.sessions
    for turn in result.turns:
        assert turn.agent == agent
        assert turn.role in ("user", "assistant")
        assert turn.text == turn.text.strip() and turn.text
        assert turn.source == str(path)
        assert turn.line >= 1
        assert turn.timestamp == "" or ISO_Z.match(turn.timestamp)
        assert turn.session in result.sessions
        if agent == "gemini":
            assert turn.cwd == ""


@pytest.mark.parametrize("path", SAMPLES, ids=_rel)
def test_user_turns_hold_only_what_the_person_typed(path: Path) -> None:
    for turn in _users(read_transcript(str(path)).turns):
        for marker in NOT_TYPED:
            assert marker not in turn.text, f"line {turn.line}: {marker!r} in a user turn"


@pytest.mark.parametrize("rel", sorted(USER_TURNS))
def test_user_turn_counts(rel: str) -> None:
    assert len(_users(read_transcript(str(TRANSCRIPTS / rel)).turns)) == USER_TURNS[rel]


@pytest.mark.parametrize(("rel", "line", "text"), KNOWN_PROMPTS)
def test_known_prompts_are_found_on_their_line(rel: str, line: int, text: str) -> None:
    path = TRANSCRIPTS / rel
    found = [t for t in _users(read_transcript(str(path)).turns) if t.text == text]
    assert [t.line for t in found] == [line]
    raw = _raw_line(path, line)
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    assert escaped in raw or json.dumps(text)[1:-1] in raw


# ------------------------------------------------------------------------ Claude


def test_claude_continued_file_keeps_each_lines_session() -> None:
    path = TRANSCRIPTS / "claude" / "vibecodingtracker_claude_code_zh.jsonl"
    result = read_transcript(str(path))
    assert result.sessions == {
        "e9f146fa-3b20-48d0-9be4-d99ca901cae4",
        "b162b1ae-97bc-475f-9b5f-ffbf55ca5b3f",
    }
    by_line = {t.line: t for t in _users(result.turns)}
    assert by_line[21].session.startswith("e9f146fa")
    assert by_line[54].session.startswith("b162b1ae")
    assert by_line[54].text == "幫我查一下 golang文檔 透過 context7"
    assert by_line[21].cwd == "/home/wei/repo/claude-code"
    assert by_line[21].timestamp == "2025-08-28T12:58:18.216Z"


def test_claude_compaction_and_slash_commands_are_not_prompts() -> None:
    path = TRANSCRIPTS / "claude" / "attio_55acb2e_compaction_2sessions.jsonl"
    result = read_transcript(str(path))
    lines = {t.line for t in _users(result.turns)}
    # 255-258: /agents output and the compaction summary; 771-776: /model twice.
    assert lines.isdisjoint({7, 8, 9, 26, 250, 251, 252, 255, 256, 257, 258, 771, 772, 773})
    assert {10, 21, 30, 61, 197, 263, 694, 777} == lines


def test_claude_sidechain_prompts_are_not_the_persons() -> None:
    path = TRANSCRIPTS / "claude" / "attio_816b68a_sidechain_heavy.jsonl"
    texts = [t.text for t in read_transcript(str(path)).turns]
    assert not any(t.startswith("I need you to implement improvements to PR #398") for t in texts)
    assert not any(t.startswith("Fix GitHub issue #395") for t in texts)


def test_claude_assistant_turns_are_prose_with_message_ids() -> None:
    path = TRANSCRIPTS / "claude" / "vibecodingtracker_claude_code_zh.jsonl"
    raw_thinking = []
    for raw in path.read_bytes().splitlines():
        obj = json.loads(raw)
        if obj.get("type") == "assistant":
            for block in obj["message"]["content"]:
                if block.get("type") == "thinking":
                    raw_thinking.append(block["thinking"].strip())
    assistants = [t for t in read_transcript(str(path)).turns if t.role == "assistant"]
    assert assistants and raw_thinking
    for turn in assistants:
        assert turn.message_id.startswith("msg_")
        assert turn.text not in raw_thinking
        assert '"tool_use"' not in turn.text


def test_claude_synthetic_no_response_is_not_assistant_prose() -> None:
    path = TRANSCRIPTS / "claude" / "attio_55acb2e_compaction_2sessions.jsonl"
    texts = [t.text for t in read_transcript(str(path)).turns]
    assert "No response requested." not in texts


def test_claude_sidechain_file_has_no_user_turns() -> None:
    path = TRANSCRIPTS / "claude" / "ccviewer_agent-test-hash-123.jsonl"
    assert read_transcript(str(path)).turns == ()


@pytest.mark.parametrize(
    "where", ["agent-a1b2c3.jsonl", "subagents/agent-a1b2c3.jsonl", "subagents/x.jsonl"]
)
def test_subagent_files_yield_no_turns(tmp_path: Path, where: str) -> None:
    source = TRANSCRIPTS / "claude" / "attio_829b67b_small.jsonl"
    target = tmp_path / "project" / where
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    result = read_transcript(str(target))
    assert result.turns == ()
    assert result.end_offset == source.stat().st_size  # still consumed, so never re-read


# ------------------------------------------------------------------------- Codex


def test_codex_prompt_counted_once_without_ide_context() -> None:
    path = TRANSCRIPTS / "codex" / "vibecodingtracker_codex_zh.jsonl"
    result = read_transcript(str(path))
    users = _users(result.turns)
    assert len(users) == 1
    assert users[0].line == 4  # the event_msg copy, not the response_item on line 3
    assert users[0].text.startswith("幫我檢查一下 go.mod 裡面 為何 go版本是 1.24?")
    assert users[0].text.endswith("最後幫我把 TODO.md 刪除")
    assert users[0].session == "01996135-afde-7911-97f0-d863511eca56"
    assert users[0].cwd == "/proj/ds906659/gai/claude-code"
    assert result.cwd == "/proj/ds906659/gai/claude-code"


def test_codex_assistant_prose_counted_once() -> None:
    path = TRANSCRIPTS / "codex" / "vibecodingtracker_codex_zh.jsonl"
    assistants = [t for t in read_transcript(str(path)).turns if t.role == "assistant"]
    texts = [t.text for t in assistants]
    assert len(texts) == 9 == len(set(texts))
    raw_lines = path.read_bytes().splitlines()
    for turn in assistants:
        assert b'"type":"agent_message"' in raw_lines[turn.line - 1]


def test_codex_fixture_drops_injected_and_aborted_text() -> None:
    path = TRANSCRIPTS / "codex" / "agentsessions_codex_schema_fixture.jsonl"
    result = read_transcript(str(path))
    assert [(t.role, t.text) for t in result.turns] == [
        ("user", "List the files"),
        ("assistant", "Found 2 files."),
        ("user", "[trimmed for fixture]"),  # the typed input of a UserMessage item (0.171 on)
    ]


# ------------------------------------------------------------------------ Gemini


@pytest.mark.parametrize("path", sorted((TRANSCRIPTS / "gemini").glob("*.json")), ids=_rel)
def test_a_real_gemini_session_cut_short_keeps_every_complete_message(path: Path, tmp_path: Path) -> None:
    data = path.read_bytes()
    full = [(t.role, t.text, t.line, t.timestamp) for t in read_transcript(str(path)).turns]
    copy = tmp_path / path.name
    reached = 0
    for cut in [*range(1, len(data), max(1, len(data) // 89)), len(data) - 2]:
        copy.write_bytes(data[:cut])
        result = read_transcript(str(copy), agent="gemini")
        kept = [(t.role, t.text, t.line, t.timestamp) for t in result.turns]
        assert kept == full[: len(kept)]  # the complete messages, as the whole file gives them
        assert result.end_line >= reached and result.skipped == 0 and result.lost  # a longer piece never keeps less
        reached = result.end_line
    assert kept == full  # cut in the closing brace: nothing lost


def test_gemini_document_lines_are_message_indexes() -> None:
    path = TRANSCRIPTS / "gemini" / "vibecodingtracker_gemini_session_2025-10-05.json"
    doc = json.loads(path.read_bytes())
    result = read_transcript(str(path))
    assert result.end_offset == path.stat().st_size
    assert result.sessions == {doc["sessionId"]}
    for turn in result.turns:
        message = doc["messages"][turn.line - 1]
        assert message["id"] == turn.message_id
        assert turn.text == message["content"].strip()
    users = _users(result.turns)
    assert [(t.line, t.text) for t in users] == [
        (1, "請幫我檢查一下所有代碼是否足夠簡潔 而不是一堆冗餘代碼")
    ]


def test_gemini_document_tool_output_in_user_role_is_dropped() -> None:
    path = TRANSCRIPTS / "gemini" / "vibecodingtracker_gemini_session_2025-10-11a.json"
    users = _users(read_transcript(str(path)).turns)
    assert [t.line for t in users] == [1]


def test_gemini_jsonl_rewritten_messages_give_one_turn_each() -> None:
    path = TRANSCRIPTS / "gemini" / "vibecodingtracker_gemini_v2_jsonl.jsonl"
    result = read_transcript(str(path))
    ids = [t.message_id for t in result.turns]
    assert len(ids) == len(set(ids))
    # /init's expanded prompt (line 4) and the automatic "Please continue" (line 18) are not typed.
    assert [t.line for t in _users(result.turns)] == [22]
    assert [t.line for t in result.turns if t.role == "assistant"] == [15, 20]


def test_gemini_older_model_parts_are_assistant_prose() -> None:
    path = TRANSCRIPTS / "gemini" / "agentsessions_gemini_session_fixture.json"
    turns = read_transcript(str(path)).turns
    assert [(t.role, t.text, t.line) for t in turns] == [
        ("user", "Run a command", 1),
        ("assistant", "Captured multiline output.", 5),
        ("user", "Step 1", 6),
        ("assistant", "Ok", 7),
    ]
