"""Each agent's ``locate()``: the transcripts of one project that catching up hands to ingest."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from agent_memory import agents

claude, codex, gemini = agents.get("claude"), agents.get("codex"), agents.get("gemini")


def touch(path: Path, text: str = "{}\n") -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("GEMINI_CLI_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(name, raising=False)
    return home


def test_gemini_chats_under_the_projects_json_slug(home: Path, tmp_path: Path) -> None:
    project = str(tmp_path / "work" / "shop")
    gem = home / ".gemini"
    touch(gem / "projects.json", json.dumps({"projects": {project: "shop", str(tmp_path / "other"): "other"}}))
    mine = touch(gem / "tmp" / "shop" / "chats" / "session-2026-03-01T10-00-a1b2.jsonl")
    touch(gem / "tmp" / "shop" / "chats" / "a1b2" / "session-sub.jsonl")  # a sub-agent's chat
    touch(gem / "tmp" / "other" / "chats" / "session-2026-03-01T11-00-c3d4.jsonl")
    assert gemini.locate(project) == [mine]


def test_gemini_chats_under_the_older_hash_folder_are_found_too(home: Path, tmp_path: Path) -> None:
    project = str(tmp_path / "work" / "shop")
    gem = home / ".gemini"
    touch(gem / "projects.json", json.dumps({"projects": {project: "shop"}}))
    new = touch(gem / "tmp" / "shop" / "chats" / "session-b.jsonl")
    old = touch(gem / "tmp" / hashlib.sha256(project.encode()).hexdigest() / "chats" / "session-a.json")
    assert gemini.locate(project) == sorted([new, old])


def test_gemini_cli_home_stands_in_for_the_home(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = str(tmp_path / "work" / "shop")
    elsewhere = tmp_path / "gemini-home"
    monkeypatch.setenv("GEMINI_CLI_HOME", str(elsewhere))
    touch(elsewhere / ".gemini" / "projects.json", json.dumps({"projects": {project: "shop-1"}}))
    found = touch(elsewhere / ".gemini" / "tmp" / "shop-1" / "chats" / "session-x.json")
    touch(home / ".gemini" / "tmp" / hashlib.sha256(project.encode()).hexdigest() / "chats" / "session-y.json")
    assert gemini.locate(project) == [found]


@pytest.mark.parametrize(
    "registry",
    ["not json", "[]", '{"projects": []}', '{"projects": {"%s": "../../etc"}}', '{"projects": {"%s": 7}}'],
)
def test_a_broken_projects_json_finds_nothing_by_slug(home: Path, tmp_path: Path, registry: str) -> None:
    project = str(tmp_path / "shop")
    touch(home / ".gemini" / "projects.json", registry.replace("%s", project))
    touch(home / ".etc" / "chats" / "session-z.json")
    assert gemini.locate(project) == []


def test_claude_project_folder_is_named_after_the_path(home: Path, tmp_path: Path) -> None:
    project = str(tmp_path / "my.shop")
    folder = home / ".claude" / "projects" / "".join(c if c.isascii() and c.isalnum() else "-" for c in project)
    found = touch(folder / "s1.jsonl")
    touch(folder / "notes.txt")
    assert claude.locate(project) == [found]


def test_codex_rollouts_are_matched_by_the_cwd_they_ran_in(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-02T12:00:00Z")
    project = str(tmp_path / "shop")
    day = home / ".codex" / "sessions" / "2026" / "03" / "01"

    def rollout(name: str, cwd: str) -> str:
        meta = {"timestamp": "2026-03-01T10:00:00Z", "type": "session_meta", "payload": {"id": name, "cwd": cwd}}
        return touch(day / f"rollout-2026-03-01T10-00-00-{name}.jsonl", json.dumps(meta) + "\n")

    inside = rollout("a", project)
    below = rollout("b", os.path.join(project, "api"))
    rollout("c", project + "-other")
    assert codex.locate(project) == sorted([inside, below])
    assert codex.rollout("b") == below and codex.rollout("../b") == ""
