"""GitHub Copilot CLI through the agent protocol: its session files, hook input and output, install, instructions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory import agents, install, launcher
from agent_memory.agents.reading import detect_agent, read_transcript
from agent_memory.store import Paths

from transcripts.shared import shared_data

COPILOT = agents.get("copilot")
SAMPLE = shared_data() / "transcripts" / "other" / "vibecodingtracker_copilot_cli.jsonl"
SESSION = "b240acd9-20b6-4dfc-9b0e-79b406e3a1c4"


def event(kind: str, data: dict[str, object], n: int) -> str:
    return json.dumps({"type": kind, "data": data, "id": f"e{n}", "timestamp": f"2026-03-01T10:00:0{n}.000Z",
                       "parentId": f"e{n - 1}" if n else None}) + "\n"


def session_file(path: Path, cwd: str, prompt: str) -> Path:
    """A session as Copilot CLI 1.0.102 writes it: hook events carry the prompt and our context, user.message the words."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join([
        event("session.start", {"sessionId": SESSION, "producer": "copilot-agent", "context": {"cwd": cwd}}, 0),
        event("hook.start", {"hookType": "userPromptSubmitted", "input": {"prompt": prompt}}, 1),
        event("hook.end", {"hookType": "sessionStart", "output": {"additionalContext": "- Adopted rule (agent-memory)"}}, 2),
        event("user.message", {"content": prompt, "transformedContent": f"{prompt}\n\n<system_reminder>\nrecalled\n</system_reminder>"}, 3),
        event("assistant.message", {"messageId": "m1", "content": "Noted."}, 4),
        event("assistant.message", {"messageId": "m2", "content": ""}, 5),
    ]), encoding="utf-8")
    return path


def test_a_session_file_gives_the_persons_words_and_the_replies(tmp_path: Path) -> None:
    path = session_file(tmp_path / "session-state" / SESSION / "events.jsonl", "/work/shop", "Always squash fixups.")
    assert detect_agent(str(path)) == "copilot"
    result = read_transcript(str(path))
    assert [(t.role, t.text, t.line) for t in result.turns] == [("user", "Always squash fixups.", 4), ("assistant", "Noted.", 5)]
    assert result.sessions == {SESSION} and {t.cwd for t in result.turns} == {"/work/shop"}
    assert all(t.agent == "copilot" and t.timestamp.endswith("Z") for t in result.turns)
    # read again from where it stopped: the session and cwd still come from the file's opening event
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(event("user.message", {"content": "And rebase on dev."}, 6))
    again = read_transcript(str(path), start_offset=result.end_offset, start_line=result.end_line)
    assert [(t.text, t.session, t.cwd, t.line) for t in again.turns] == [("And rebase on dev.", SESSION, "/work/shop", 7)]


@pytest.mark.skipif(not SAMPLE.is_file(), reason="shared/data is not available")
def test_the_shared_copilot_session_is_read() -> None:
    assert detect_agent(str(SAMPLE)) == "copilot"
    result = read_transcript(str(SAMPLE))
    users = [t for t in result.turns if t.role == "user"]
    assert [t.line for t in users] == [7]  # the continuation nudge the CLI sends with empty content is no turn
    assert users[0].text.startswith("請不要修改任何代碼")
    assert result.sessions == {"96ef38f0-9d09-45c3-8124-6448c36090ed"}
    assert any(t.role == "assistant" and "## 你的專案狀況" in t.text for t in result.turns)


def test_hook_input_and_output_in_copilots_own_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "cp"))
    payload = COPILOT.hook_input({"sessionId": SESSION, "cwd": "/w", "prompt": "p", "timestamp": 1796528436812})
    assert payload["session_id"] == SESSION and payload["prompt"] == "p"
    assert COPILOT.context_output("session-start", "ctx") == {"additionalContext": "ctx"}
    # sessionEnd names no transcript: it is found by the session id
    assert COPILOT.session_transcript(payload) == str(tmp_path / "cp" / "session-state" / SESSION / "events.jsonl")
    assert COPILOT.session_transcript({"session_id": "../x"}) == ""


def test_catching_up_finds_this_projects_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "cp"))
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-02T12:00:00Z")
    project = tmp_path / "shop"
    state = tmp_path / "cp" / "session-state"
    mine = session_file(state / "a" / "events.jsonl", str(project / "api"), "x")
    session_file(state / "b" / "events.jsonl", str(project) + "-other", "x")
    assert COPILOT.locate(str(project)) == [str(mine)]


def test_instruction_files_copilot_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "cp"))
    root = tmp_path / "repo"
    for name in (".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "sub/AGENTS.md",
                 "sub/deep/AGENTS.md", "other/AGENTS.md", "../cp/copilot-instructions.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("- a rule\n", encoding="utf-8")
    loaded = [Path(p).resolve().relative_to(tmp_path).as_posix() for p, n in COPILOT.loaded(str(root), str(root / "sub" / "deep"))]
    assert loaded == ["cp/copilot-instructions.md", "repo/.github/copilot-instructions.md", "repo/AGENTS.md",
                      "repo/CLAUDE.md", "repo/sub/AGENTS.md", "repo/sub/deep/AGENTS.md"]


def test_install_writes_a_hook_file_of_its_own_and_uninstall_takes_it_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "amh"))
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.chdir(root)
    paths = Paths.resolve()
    report = install.install("copilot", "project", paths)
    hooks = root / ".github" / "hooks" / "agent-memory.json"
    assert report.settings == hooks and report.command_file == root / ".github" / "skills" / "cs-memory" / "SKILL.md"
    data = json.loads(hooks.read_text(encoding="utf-8"))
    assert data["version"] == 1 and set(data["hooks"]) == {"sessionStart", "userPromptSubmitted", "sessionEnd"}
    handler = data["hooks"]["userPromptSubmitted"][0]
    # a repository's hook file is committed: its command finds this machine's interpreter when it runs
    assert handler["type"] == "command" and launcher.LAUNCHER in handler["bash"] and handler["bash"].endswith("user-prompt-submit --agent copilot")
    assert "/cs-memory" in report.command_file.read_text(encoding="utf-8")
    assert not install.install("copilot", "project", paths).changed  # idempotent
    install.uninstall("copilot", "project", paths)
    assert not hooks.exists() and not report.command_file.exists()
