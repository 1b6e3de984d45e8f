"""``install --mcp`` / ``uninstall --mcp``: the server in each agent's own MCP config, and nothing else touched."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agent_memory import mcp_install
from agent_memory.store import Paths

AGENTS = ("claude", "codex", "gemini", "copilot")


@pytest.fixture
def paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Paths:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME"):
        monkeypatch.delenv(name, raising=False)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    return Paths(project / ".memory", home / ".agent-memory", project)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_project_config_names_no_machine_path_and_uninstall_takes_back_only_ours(agent: str, paths: Paths) -> None:
    path = mcp_install.config_file(agent, "project", paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".toml":
        other = '[mcp_servers.docs]\ncommand = "docs-server"\n'
    else:
        other = json.dumps({"theme": "dark", "mcpServers": {"docs": {"command": "docs-server"}}}, indent=2) + "\n"
    path.write_text(other, encoding="utf-8")
    assert mcp_install.add(agent, "project", paths) == (path, True)
    assert mcp_install.add(agent, "project", paths) == (path, False)
    text = path.read_text(encoding="utf-8")
    assert "agent-memory" in text and "docs-server" in text
    assert str(Path.home()) not in text and sys.executable not in text and str(paths.project_root) not in text
    assert mcp_install.remove(agent, "project", paths) == (path, True)
    assert mcp_install.remove(agent, "project", paths) == (path, False)
    kept = path.read_text(encoding="utf-8")
    assert kept.strip() == other.strip() if path.suffix == ".toml" else json.loads(kept) == json.loads(other)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_user_config_runs_this_interpreter_and_a_file_it_made_goes_again(agent: str, paths: Paths) -> None:
    path, changed = mcp_install.add(agent, "user", paths)
    assert changed and Path.home() in path.parents and sys.executable in path.read_text(encoding="utf-8")
    assert mcp_install.remove(agent, "user", paths) == (path, True)
    assert not path.exists()


def test_another_server_of_the_same_name_is_not_clobbered(paths: Paths) -> None:
    path = mcp_install.config_file("gemini", "project", paths)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"mcpServers": {"agent-memory": {"command": "someone-elses"}}}), encoding="utf-8")
    with pytest.raises(Exception, match="another MCP server"):
        mcp_install.add("gemini", "project", paths)
    assert mcp_install.remove("gemini", "project", paths) == (path, False)


@pytest.mark.parametrize("body", ["{ not json", "[" * 100_000 + "]" * 100_000, '{"mcpServers": []}'],
                         ids=["not-json", "nested-too-deep", "servers-not-an-object"])
def test_a_config_that_cannot_be_read_is_refused_and_left_alone(paths: Paths, body: str) -> None:
    from agent_memory.errors import UsageError

    path = mcp_install.config_file("gemini", "project", paths)
    path.parent.mkdir(parents=True)
    path.write_text(body, encoding="utf-8")
    for change in (mcp_install.add, mcp_install.remove):
        with pytest.raises(UsageError, match="refusing to change it"):
            change("gemini", "project", paths)
    assert path.read_text(encoding="utf-8") == body
