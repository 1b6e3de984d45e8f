"""One layout: every path named once, resolved the same way for the CLI, the hooks and install."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_memory import agents, layout
from agent_memory.layout import Layout
from agent_memory.store import Paths


def test_store_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src" / "deep").mkdir(parents=True)
    monkeypatch.delenv("AGENT_MEMORY_DIR", raising=False)
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "home"))
    found = Layout.resolve(cwd=str(project / "src" / "deep"))
    assert found.project_root == os.path.realpath(project)
    assert found.store == os.path.join(os.path.realpath(project), ".memory")
    assert found.user == os.path.realpath(tmp_path / "home")
    monkeypatch.setenv("AGENT_MEMORY_DIR", str(tmp_path / "env-store"))
    assert Layout.resolve(cwd=str(project)).store == os.path.realpath(tmp_path / "env-store")
    assert Layout.resolve(str(tmp_path / "flag"), cwd=str(project)).store == os.path.realpath(tmp_path / "flag")


def test_a_folder_outside_git_is_its_own_root(tmp_path: Path) -> None:
    assert layout.project_root(str(tmp_path)) == os.path.realpath(tmp_path)


@pytest.mark.parametrize(
    "name, relative",
    [
        ("atoms", "L1/atoms.jsonl"),
        ("chunks", "L1/chunks.jsonl"),
        ("ingested", "L1/ingested.json"),
        ("contested", "L1/contested.json"),
        ("claim_cache", "L1/claim-cache.json"),
        ("claims_db", "L1/claims.db"),
        ("stage_cache", "L1/stage-cache.json"),
        ("hook_cache", "L1/hook-cache.json"),
        ("catchup_cache", "L1/catchup-cache.json"),
        ("l2", "L2.jsonl"),
        ("decisions", "decisions.jsonl"),
        ("staged", "staged"),
        ("index", "index.db"),
        ("backups", "backups"),
        ("logs", "logs"),
        ("config", "config.yaml"),
        ("lock", "lock"),
    ],
)
def test_project_store_files(name: str, relative: str) -> None:
    where = Layout("/s", "/u", "/p")
    assert getattr(where, name) == os.path.join("/s", *relative.split("/"))
    assert isinstance(getattr(where, name), str)  # plain strings: safe for the hooks' hot path
    assert getattr(Paths.of(where), name) == Path("/s", *relative.split("/"))  # the pathlib view agrees


@pytest.mark.parametrize("name, relative", [("l3", "L3.jsonl"), ("registry", "projects.json"), ("user_backups", "backups"),
                                            ("user_decisions", "decisions.jsonl"), ("user_logs", "logs")])
def test_user_store_files(name: str, relative: str) -> None:
    assert getattr(Layout("/s", "/u", "/p"), name) == os.path.join("/u", relative)


def test_paths_view_is_read_only_and_compares_by_layout() -> None:
    view = Paths("/s", "/u", "/work/shop")
    assert view == Paths.of(Layout("/s", "/u", "/work/shop")) and hash(view) == hash(Paths("/s", "/u", "/work/shop"))
    assert view.project_name == "shop" and Layout("/s", "/u", "/").project_name == "project"
    with pytest.raises(AttributeError):
        view.store = Path("/elsewhere")  # type: ignore[misc]


def test_agent_homes_honour_their_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    assert agents.get("claude").home() == str(tmp_path / ".claude")
    assert agents.get("codex").home() == str(tmp_path / ".codex")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "cx"))
    assert agents.get("claude").home() == str(tmp_path / "cc")
    assert agents.get("codex").home() == str(tmp_path / "cx")


def test_signature_changes_with_any_rewrite(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    assert layout.signature(str(target)) is None
    target.write_text("one")
    first = layout.signature(str(target))
    assert first is not None and first[0] == 3
    replacement = tmp_path / "g.json"
    replacement.write_text("two")
    os.utime(replacement, ns=(first[1], first[1]))  # same size, same mtime: only the inode tells
    os.replace(replacement, target)
    assert layout.signature(str(target)) != first
