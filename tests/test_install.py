"""install / uninstall: our hook entries in, exactly ours out, the person's file given back byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agent_memory.hooks import worker as hooks
from agent_memory import agents, install as inst, launcher
from agent_memory.agents import claude, codex
from agent_memory.hooks import worker_script
from agent_memory.store import Paths

AGENTS = ("claude", "codex", "gemini")
SCOPES = ("project", "user")
ROOT = Path(__file__).resolve().parents[1]

# hand-written files in the styles people keep them
HAND_WRITTEN = {
    "two-spaces-unicode-newline": (
        '{\n  "model": "opus",\n  "env": {"GREETING": "こんにちは — ok"},\n  "hooks": {\n    "SessionStart": [\n'
        '      {\n        "matcher": "startup",\n        "hooks": [\n          {"type": "command", "command": "echo hi"}\n'
        "        ]\n      }\n    ]\n  }\n}\n"
    ),
    "four-spaces-no-newline": '{\n    "permissions": {\n        "allow": ["Bash(ls:*)"]\n    },\n    "theme": "dark"\n}',
    "tabs-escaped-unicode": '{\n\t"note": "caf\\u00e9",\n\t"hooks": {}\n}\n',
    "one-line": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}',
    "empty-file": "",
}


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project (cwd) and a home of its own; returns the project root."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "amh"))
    monkeypatch.delenv("AGENT_MEMORY_DIR", raising=False)
    for name in ("CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    # whatever codex this machine has: the tests say which one they mean
    monkeypatch.setattr(codex, "codex_version", lambda: codex.SESSION_END_SINCE)
    monkeypatch.chdir(root)
    return root


READ_CODEX_VERSION = codex.codex_version


def _settings(agent: str, scope: str) -> Path:
    return inst.target_for(agent, scope, Paths.resolve()).settings


def _tree(base: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(base)): (p.read_bytes() if p.is_file() else None) for p in sorted(base.rglob("*"))
            if ".agent-memory" not in p.parts}


def _ours(settings: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for groups in (settings.get("hooks") or {}).values():
        for group in groups if isinstance(groups, list) else []:
            for handler in group.get("hooks", []) if isinstance(group, dict) else []:
                if inst.is_ours(handler):
                    found.append(handler)
    return found


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("style", HAND_WRITTEN)
def test_round_trip_gives_the_hand_written_file_back(place: Path, agent: str, scope: str, style: str) -> None:
    path = _settings(agent, scope)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = HAND_WRITTEN[style].encode("utf-8")
    path.write_bytes(original)

    report = inst.install(agent, scope)
    assert report.changed
    installed = path.read_bytes()
    data = json.loads(installed)
    assert len(_ours(data)) == 3
    assert {e for e, _v, _t in inst.hook_events(agent)} <= set(data["hooks"])
    if "echo hi" in HAND_WRITTEN[style]:
        assert "echo hi" in installed.decode("utf-8") and "こんにちは" in installed.decode("utf-8")

    again = inst.install(agent, scope)
    assert not again.changed and path.read_bytes() == installed  # twice changes nothing

    inst.uninstall(agent, scope)
    assert path.read_bytes() == original


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("agent", AGENTS)
def test_a_file_install_created_goes_away_with_its_folders(place: Path, agent: str, scope: str) -> None:
    base = place if scope == "project" else Path.home()
    before = _tree(base)
    inst.install(agent, scope)
    path = _settings(agent, scope)
    assert path.exists()
    if agent == "claude":
        command = path.parent / "commands" / "cs-memory.md"
        assert inst.COMMAND_MARK in command.read_text(encoding="utf-8")
    inst.uninstall(agent, scope)
    assert _tree(base) == before


@pytest.mark.parametrize(("agent", "scope"), [(a, "user") for a in AGENTS] + [("claude", "project")])
def test_entries_in_uncommitted_files_run_this_interpreter_by_absolute_path(place: Path, agent: str, scope: str) -> None:
    inst.install(agent, scope)
    handlers = _ours(json.loads(_settings(agent, scope).read_text(encoding="utf-8")))
    verbs = sorted(str(h["command"]).split("run_hook.py ")[1].split()[0] for h in handlers)
    assert verbs == ["session-end", "session-start", "user-prompt-submit"]
    for handler in handlers:
        command = str(handler["command"])
        assert command.startswith(f"{sys.executable} -I -S {worker_script()} ")
        assert command.endswith(f"--agent {agent}")
        assert handler["type"] == "command" and isinstance(handler["timeout"], int)
        if agent == "gemini":
            assert str(handler["name"]).startswith("agent-memory-")


def test_an_interpreter_path_with_spaces_is_quoted(place: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "/opt/my tools/bin/python3")
    monkeypatch.setattr(hooks, "worker_script", lambda: "/opt/my tools/lib/agent_memory/run_hook.py")
    assert launcher.hook_command("claude", "session-start") == (
        "'/opt/my tools/bin/python3' -I -S '/opt/my tools/lib/agent_memory/run_hook.py' session-start --agent claude"
    )


def test_the_installed_command_really_runs_the_hook(place: Path) -> None:
    inst.install("claude", "project")
    settings = json.loads(_settings("claude", "project").read_text(encoding="utf-8"))
    command = settings["hooks"]["SessionStart"][-1]["hooks"][0]["command"]
    (place / ".memory").mkdir()
    (place / ".memory" / "L2.jsonl").write_text(json.dumps({"id": "c1aaaaaaaaaa", "text": "Always rebase before pushing"}) + "\n", encoding="utf-8")
    payload = {"session_id": "s", "transcript_path": "", "cwd": str(place), "hook_event_name": "SessionStart", "source": "startup"}
    result = subprocess.run(command, shell=True, input=json.dumps(payload), capture_output=True, text=True, timeout=120, cwd="/")
    assert result.returncode == 0
    assert "Always rebase before pushing" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_the_persons_own_hooks_are_never_touched(place: Path) -> None:
    path = _settings("claude", "project")
    path.parent.mkdir(parents=True)
    theirs = {"type": "command", "command": "agent-memory-like-tool hook session-start"}
    path.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [theirs]}], "SessionEnd": [{"hooks": [{"type": "command", "command": "notify"}]}]}}, indent=2), encoding="utf-8")
    inst.install("claude", "project")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["hooks"]["SessionStart"][0]["hooks"] == [theirs]
    # the person edits the file while the hooks are installed
    data["theme"] = "light"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    inst.uninstall("claude", "project")
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after == {"hooks": {"SessionStart": [{"hooks": [theirs]}], "SessionEnd": [{"hooks": [{"type": "command", "command": "notify"}]}]}, "theme": "light"}


def test_entries_from_another_interpreter_are_updated_in_place(place: Path) -> None:
    path = _settings("codex", "user")
    path.parent.mkdir(parents=True)
    stale = {"type": "command", "command": "/old/venv/bin/python -m agent_memory hook session-start --agent codex", "timeout": 30}
    mine = {"type": "command", "command": "echo mine"}
    path.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [stale]}, {"hooks": [mine]}]}}), encoding="utf-8")
    inst.install("codex", "user")
    groups = json.loads(path.read_text(encoding="utf-8"))["hooks"]["SessionStart"]
    assert groups[1] == {"hooks": [mine]} and len(groups) == 2
    assert groups[0]["hooks"][0]["command"] == launcher.hook_command("codex", "session-start")


def test_a_symlinked_settings_file_stays_a_link(place: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text('{\n  "model": "opus"\n}\n', encoding="utf-8")
    link = Path.home() / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(real)
    inst.install("claude", "user")
    assert link.is_symlink() and len(_ours(json.loads(real.read_text(encoding="utf-8")))) == 3
    inst.uninstall("claude", "user")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == '{\n  "model": "opus"\n}\n'


def test_a_persons_cs_memory_command_is_kept(place: Path) -> None:
    command = place / ".claude" / "commands" / "cs-memory.md"
    command.parent.mkdir(parents=True)
    command.write_text("my own /cs-memory\n", encoding="utf-8")
    report = inst.install("claude", "project")
    assert not report.command_changed
    inst.uninstall("claude", "project")
    assert command.read_text(encoding="utf-8") == "my own /cs-memory\n"


def test_the_cs_memory_command_runs_this_interpreter() -> None:
    text = inst.command_text()
    runner = f"{sys.executable} -m agent_memory"
    assert text.startswith("---\n") and "$ARGUMENTS" in text
    for verb in ("promote", "inspect", "adopt", "reject"):
        assert f"{runner} {verb}" in text
    assert "`agent-memory " not in text


def test_every_copy_of_the_command_is_made_from_the_one_shipped_template() -> None:
    template = (ROOT / "agent_memory" / "data" / "cs-memory.md").read_text(encoding="utf-8")
    assert (ROOT / ".claude" / "commands" / "cs-memory.md").read_text(encoding="utf-8") == template
    plugin = (ROOT / "commands" / "cs-memory.md").read_text(encoding="utf-8")
    assert plugin == inst.render_command("claude", claude.PLUGIN_RUNNER, mark=False)
    assert "`agent-memory " not in plugin and "Bash(agent-memory" not in plugin  # never from PATH


def test_the_plugins_command_line_runs_without_agent_memory_on_path_or_site_packages(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    plugin = (ROOT / "commands" / "cs-memory.md").read_text(encoding="utf-8")
    for verb in ("promote --json", "inspect --json --contested"):
        assert f"{claude.PLUGIN_RUNNER} {verb.split()[0]}" in plugin
        # what the command runs, with the plugin root filled in as Claude Code fills it, and no site-packages at all
        args = [sys.executable, "-S", str(ROOT / "agent_memory" / "run_hook.py"), "cli", *verb.split()]
        done = subprocess.run(args, cwd=str(project), capture_output=True, text=True, timeout=120,
                              env={"PATH": str(tmp_path / "empty"), "HOME": str(tmp_path), "AGENT_MEMORY_HOME": str(tmp_path / "amh")})
        assert done.returncode == 0, done.stderr
        assert isinstance(json.loads(done.stdout), dict)


@pytest.mark.parametrize("scope", SCOPES)
def test_gemini_gets_a_custom_command_and_codex_a_skill(place: Path, scope: str) -> None:
    import tomllib

    gemini = inst.install("gemini", scope)
    assert gemini.command_file is not None and gemini.command_file.name == "cs-memory.toml"
    assert gemini.command_file.parent.name == "commands" and gemini.command_file.parent.parent.name == ".gemini"
    toml = tomllib.loads(gemini.command_file.read_text(encoding="utf-8"))
    runner = f'"{launcher.LAUNCHER}"' if scope == "project" else f"{sys.executable} -m agent_memory"
    assert "{{args}}" in toml["prompt"] and f"{runner} promote --json" in toml["prompt"]
    codex = inst.install("codex", scope)
    assert codex.command_file is not None and codex.command_file.parts[-3:] == ("skills", "cs-memory", "SKILL.md")
    assert (codex.command_file.parents[2].name == ".agents") == (scope == "project")
    skill = codex.command_file.read_text(encoding="utf-8")
    assert skill.startswith("---\nname: cs-memory\ndescription: ") and "$ARGUMENTS" not in skill
    for agent, report in (("gemini", gemini), ("codex", codex)):
        inst.uninstall(agent, scope)
        assert report.command_file is not None and not report.command_file.exists()


def test_the_plugin_hooks_cover_the_three_events() -> None:
    manifest = json.loads((ROOT / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "agent-memory"
    hooks = json.loads((ROOT / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "SessionEnd"}
    for event, verb in (("SessionStart", "session-start"), ("UserPromptSubmit", "user-prompt-submit"), ("SessionEnd", "session-end")):
        command = hooks[event][0]["hooks"][0]["command"]
        assert f'-I -S "${{CLAUDE_PLUGIN_ROOT}}/agent_memory/run_hook.py" {verb} --agent claude' in command


def test_the_plugin_hook_command_fails_open_without_python(tmp_path: Path) -> None:
    hooks = json.loads((ROOT / "hooks" / "hooks.json").read_text(encoding="utf-8"))["hooks"]
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    env = {"PATH": str(tmp_path), "CLAUDE_PLUGIN_ROOT": str(ROOT), "HOME": str(tmp_path)}
    result = subprocess.run(["/bin/sh", "-c", command], input="{}", capture_output=True, text=True, env=env, timeout=60)
    assert (result.returncode, result.stdout) == (0, "")


# ---------------------------------------------------------------- refusing a malformed file


MALFORMED = {
    "not-json": "{ this is not json",
    "trailing-comma": '{"hooks": {},}',
    "array": "[1, 2]",
    "hooks-not-object": '{"hooks": ["SessionStart"]}',
    "event-not-list": '{"hooks": {"SessionStart": {"command": "x"}}}',
    "not-utf8": "\udcff",
    "nested-too-deep": "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_settings_file_is_refused_and_left_alone(place: Path, agent: str, name: str) -> None:
    path = _settings(agent, "project")
    path.parent.mkdir(parents=True)
    data = MALFORMED[name].encode("utf-8", "surrogateescape")
    path.write_bytes(data)
    before = _tree(place)
    with pytest.raises(inst.MalformedSettings):
        inst.install(agent, "project")
    if name == "event-not-list":
        assert not inst.uninstall(agent, "project").changed  # nothing of ours in it: nothing to do
    else:
        with pytest.raises(inst.MalformedSettings):
            inst.uninstall(agent, "project")
    assert _tree(place) == before and path.read_bytes() == data


def _cli(args: list[str], place: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(Path.home()), "AGENT_MEMORY_HOME": os.environ["AGENT_MEMORY_HOME"]}
    return subprocess.run([sys.executable, "-m", "agent_memory", *args], capture_output=True, text=True, cwd=str(place), env=env, timeout=120)


def test_the_cli_refuses_a_malformed_file_with_one_line(place: Path) -> None:
    path = _settings("claude", "project")
    path.parent.mkdir(parents=True)
    path.write_text("{ nope", encoding="utf-8")
    result = _cli(["install", "--agent", "claude", "--scope", "project"], place)
    assert result.returncode == 1 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and str(path) in result.stderr
    assert path.read_text(encoding="utf-8") == "{ nope"


def test_the_cli_tells_codex_users_about_trust(place: Path) -> None:
    result = _cli(["install", "--agent", "codex"], place)
    assert result.returncode == 0 and "/hooks" in result.stdout and "trust" in result.stdout
    report = json.loads(_cli(["install", "--agent", "codex", "--json"], place).stdout)
    assert report["changed"] is False and report["settings"].endswith(".codex/hooks.json")
    assert _cli(["uninstall", "--agent", "codex"], place).returncode == 0
    assert not (place / ".codex").exists()


@pytest.mark.parametrize(("agent", "variable", "inside"), [
    ("claude", "CLAUDE_CONFIG_DIR", "settings.json"),
    ("codex", "CODEX_HOME", "hooks.json"),
    ("gemini", "GEMINI_CLI_HOME", ".gemini/settings.json"),
])
def test_user_scope_follows_the_agents_own_home_variable(place: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          agent: str, variable: str, inside: str) -> None:
    elsewhere = tmp_path / "elsewhere" / "agent-home"
    monkeypatch.setenv(variable, str(elsewhere))
    report = inst.install(agent, "user")
    assert report.settings == elsewhere / inside
    data = json.loads(report.settings.read_text(encoding="utf-8"))
    assert {e for e, _v, _t in inst.hook_events(agent)} <= set(data["hooks"])
    assert not (Path.home() / f".{agent}").exists()
    inst.uninstall(agent, "user")
    assert not report.settings.exists()


def _events(agent: str, scope: str = "project") -> dict[str, Any]:
    return json.loads(_settings(agent, scope).read_text(encoding="utf-8"))["hooks"]


def test_codex_ends_sessions_on_session_end_where_it_has_it_and_on_stop_before(place: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codex, "codex_version", lambda: None)  # no codex on PATH: Stop, which every codex has
    theirs = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}
    path = _settings("codex", "project")
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(theirs), encoding="utf-8")
    inst.install("codex", "project")
    hooks = _events("codex")
    assert "SessionEnd" not in hooks and [h["command"] for g in hooks["Stop"] for h in g["hooks"]][0] == "say done"
    assert any(inst.is_ours(h) for g in hooks["Stop"] for h in g["hooks"])
    # codex upgraded: installing again moves our session-end to SessionEnd (clamped by codex to 3 s); theirs stays
    monkeypatch.setattr(codex, "codex_version", lambda: (0, 171, 0))
    report = inst.install("codex", "project")
    hooks = _events("codex")
    assert report.events == ["SessionStart", "UserPromptSubmit", "SessionEnd"]
    assert hooks["Stop"] == theirs["hooks"]["Stop"]
    (ours,) = [h for g in hooks["SessionEnd"] for h in g["hooks"]]
    assert inst.is_ours(ours) and ours["timeout"] <= 3 and ours["command"].split()[-3] == "session-end"
    inst.uninstall("codex", "project")
    assert json.loads(path.read_text(encoding="utf-8")) == theirs


def test_the_codex_version_is_read_from_the_cli(place: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(codex, "codex_version", READ_CODEX_VERSION)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "codex").write_text("#!/bin/sh\necho 'codex-cli 0.171.2'\n", encoding="utf-8")
    (fake / "codex").chmod(0o755)
    monkeypatch.setenv("PATH", str(fake))
    assert codex.codex_version() == (0, 171, 2)
    (fake / "codex").write_text("#!/bin/sh\necho 'codex-cli 0.98.0'\n", encoding="utf-8")
    assert [e for e, _v, _t in inst.hook_events("codex")] == ["SessionStart", "UserPromptSubmit", "Stop"]
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert codex.codex_version() is None


def test_the_gemini_note_names_folder_trust(place: Path) -> None:
    notes = " ".join(inst.install("gemini", "project").notes)
    assert "trust" in notes and "Enable Hooks System" not in notes


# ---------------------------------------------------------------- what a team commits holds no path of this machine


def _committed(root: Path) -> dict[str, str]:
    """Every file git would commit in ``root`` (tracked or not ignored), with its text."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, check=True, timeout=60).stdout.split()
    return {name: (root / name).read_text(encoding="utf-8") for name in listed}


@pytest.mark.parametrize("agent", [*AGENTS, "copilot"])
def test_a_project_install_commits_no_path_of_this_machine(place: Path, tmp_path: Path, agent: str) -> None:
    import shutil

    shutil.rmtree(place / ".git")
    subprocess.run(["git", "init", "-q", str(place)], check=True, capture_output=True, timeout=60)
    report = inst.install(agent, "project")
    committed = _committed(place)
    assert committed, "install wrote nothing a team would share"
    machine = (sys.executable, str(ROOT), str(tmp_path), str(Path(sys.executable).parent))
    leaked = {name: [m for m in machine if m in text] for name, text in committed.items() if any(m in text for m in machine)}
    assert leaked == {}
    if agent == "claude":  # its hooks, which name this interpreter, are in the settings file git does not see
        assert report.settings.name == "settings.local.json" and ".claude/settings.local.json" not in committed
        assert sys.executable in report.settings.read_text(encoding="utf-8")
    inst.uninstall(agent, "project")
    assert _committed(place) == {}


@pytest.mark.parametrize("agent", ["codex", "gemini", "copilot"])
def test_the_committed_command_finds_this_machines_launcher_and_runs_the_hook(place: Path, tmp_path: Path, agent: str) -> None:
    inst.install(agent, "project")
    field = agents.get(agent).command_field
    command = next(h[field] for h in _ours_any(agent) if "session-start" in h[field])
    assert "/" not in command.split("'")[0] and sys.executable not in command
    (place / ".memory").mkdir()
    (place / ".memory" / "L2.jsonl").write_text(json.dumps({"id": "c1aaaaaaaaaa", "text": "Always rebase before pushing"}) + "\n", encoding="utf-8")
    payload = {"session_id": "s", "sessionId": "s", "cwd": str(place), "hook_event_name": "SessionStart", "source": "startup"}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "AGENT_MEMORY_HOME": str(tmp_path / "amh")}
    done = subprocess.run(command, shell=True, input=json.dumps(payload), capture_output=True, text=True, timeout=120,
                          cwd="/", env=env)
    assert done.returncode == 0, done.stderr
    assert "Always rebase before pushing" in done.stdout
    # a teammate without agent-memory: the hook does nothing, and says nothing
    gone = subprocess.run(command, shell=True, input=json.dumps(payload), capture_output=True, text=True, timeout=120,
                          cwd="/", env={**env, "AGENT_MEMORY_HOME": str(tmp_path / "nobody")})
    assert (gone.returncode, gone.stdout, gone.stderr) == (0, "", "")


def _ours_any(agent: str) -> list[dict[str, Any]]:
    settings = json.loads(_settings(agent, "project").read_text(encoding="utf-8"))
    field = agents.get(agent).command_field
    found = []
    for groups in settings["hooks"].values():
        for group in groups:
            found.extend(h for h in group.get("hooks", [group]) if inst.is_ours(h, field))
    return found


def test_hooks_an_earlier_install_put_in_the_committed_settings_move_to_the_local_file(place: Path) -> None:
    shared = place / ".claude" / "settings.json"
    shared.parent.mkdir()
    shared.write_text(json.dumps({"permissions": {"allow": ["Bash(make:*)"]}}, indent=2) + "\n", encoding="utf-8")
    before = shared.read_bytes()
    data = json.loads(shared.read_text(encoding="utf-8"))
    data["hooks"] = inst.merge_hooks({}, "claude")["hooks"]  # what an earlier version wrote there
    shared.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    report = inst.install("claude", "project")
    assert report.moved_from == [shared]
    assert json.loads(shared.read_text(encoding="utf-8")) == json.loads(before)
    assert _ours(json.loads((place / ".claude" / "settings.local.json").read_text(encoding="utf-8")))
    assert "/.claude/settings.local.json" in (place / ".git" / "info" / "exclude").read_text(encoding="utf-8")
