"""Each real CLI, set up in a scratch home the way a person would have it: our hooks installed, the CLI trusting them.

An agent here is the three things a run needs: its own config (model provider pointed at the mock
server, the project trusted, the hooks trusted where the CLI asks for that), its command line for
one non-interactive prompt, and what it keeps of hook context (its limit, in its own unit).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BINARIES = {"claude": "claude", "codex": "codex", "gemini": "gemini", "copilot": "copilot"}
# settings file each install writes (project scope), and the verb each event runs
SETTINGS = {"claude": ".claude/settings.local.json", "codex": ".codex/hooks.json", "gemini": ".gemini/settings.json",
            "copilot": ".github/hooks/agent-memory.json"}
GEMINI_MODEL = "gemini-2.5-flash"  # a concrete model: "auto" would first ask a routing model
CLAUDE_MODEL = "claude-sonnet-4-5"
COPILOT_MODEL = "claude-sonnet-4.5"  # a model it knows, served by the mock as an Anthropic provider


def available(agent: str) -> str:
    """Why ``agent`` cannot run here ("" when it can)."""
    if shutil.which("node") is None:
        return "node is not installed"
    if shutil.which(BINARIES[agent]) is None:
        return f"{BINARIES[agent]} is not installed (npm install -g the agent's package)"
    return ""


@dataclass
class Scratch:
    """A person's machine in miniature: a home, a project with a store, the mock model and the refusing proxy."""

    home: Path
    project: Path
    model_url: str
    proxy_url: str
    exit_log: Path
    python_bin: Path

    def env(self) -> dict[str, str]:
        proxy = self.proxy_url
        return {
            "PATH": f"{self.python_bin}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "AGENT_MEMORY_HOME": str(self.home / ".agent-memory"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "TMPDIR": str(self.home / "tmp"),
            # whatever tries to leave the machine meets a proxy that refuses
            **{name: proxy for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy")},
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
        }


def wrap_with_exit_log(scratch: Scratch, agent: str) -> list[str]:
    """Record every hook's exit status: each installed command, unchanged, followed by ``echo VERB $?`` into a log.

    Returns the installed commands as they were (the suite checks they are what install wrote).
    """
    path = scratch.project / SETTINGS[agent]
    data = json.loads(path.read_text(encoding="utf-8"))
    commands = []
    field = "bash" if agent == "copilot" else "command"
    for groups in data["hooks"].values():
        for group in groups:
            for handler in group.get("hooks", [group]):  # Copilot's handlers stand in the list itself
                command = handler[field]
                commands.append(command)
                words = shlex.split(command)
                verb = words[words.index("hook") + 1] if "hook" in words else words[4]
                handler[field] = f"{command}; echo \"{verb} $?\" >> {shlex.quote(str(scratch.exit_log))}"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return commands


def configure(scratch: Scratch, agent: str) -> dict[str, str]:
    """The agent's own config in the scratch home; returns the environment variables the run needs."""
    env = scratch.env()
    if agent == "claude":
        env.update(ANTHROPIC_BASE_URL=scratch.model_url, ANTHROPIC_API_KEY="sk-ant-mock-key", DISABLE_AUTOUPDATER="1",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_TELEMETRY="1", DISABLE_ERROR_REPORTING="1")
    elif agent == "codex":
        home = scratch.home / ".codex"
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(
            'model = "mock-model"\nmodel_provider = "mock"\n\n'
            "[model_providers.mock]\n"
            f'name = "mock"\nbase_url = "{scratch.model_url}/v1"\nwire_api = "responses"\nenv_key = "MOCK_API_KEY"\n\n'
            f"[projects.{json.dumps(str(scratch.project))}]\n" 'trust_level = "trusted"\n',
            encoding="utf-8",
        )
        env.update(MOCK_API_KEY="mock-key", CODEX_HOME=str(home))
    elif agent == "copilot":
        # its own provider setting pointed at the mock (Anthropic Messages), offline; COPILOT_ALLOW_ALL=true is how a
        # headless run trusts the folder, which loads the repository's hooks
        env.update(COPILOT_PROVIDER_BASE_URL=scratch.model_url, COPILOT_PROVIDER_TYPE="anthropic",
                   COPILOT_PROVIDER_API_KEY="mock-key", COPILOT_OFFLINE="true", COPILOT_AUTO_UPDATE="false",
                   COPILOT_MODEL=COPILOT_MODEL, COPILOT_ALLOW_ALL="true")
    else:
        home = scratch.home / ".gemini"
        home.mkdir(parents=True, exist_ok=True)
        (home / "trustedFolders.json").write_text(json.dumps({str(scratch.project): "TRUST_FOLDER"}), encoding="utf-8")
        settings = {"security": {"auth": {"selectedType": "gemini-api-key"}}, "telemetry": {"enabled": False},
                    "privacy": {"usageStatisticsEnabled": False}, "general": {"disableAutoUpdate": True}}
        (home / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        # no second node process with a larger heap: the same CLI, started once
        env.update(GEMINI_API_KEY="mock-key", GOOGLE_GEMINI_BASE_URL=scratch.model_url, GEMINI_CLI_NO_RELAUNCH="true")
    return env


def trust_codex_hooks(scratch: Scratch, env: dict[str, str]) -> list[dict[str, Any]]:
    """What a person does in Codex's /hooks: trust each hook, by the hash Codex itself reports (app-server hooks/list)."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "agent-memory-e2e", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(scratch.project)]}},
    ]
    server = subprocess.Popen(["codex", "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env=env, cwd=str(scratch.project), text=True)
    hooks: list[dict[str, Any]] = []
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
        server.stdin.flush()
        for line in server.stdout:
            answer = json.loads(line)
            if answer.get("id") == 2:
                hooks = answer["result"]["data"][0]["hooks"]
                break
    finally:
        server.kill()
        server.wait(timeout=10)
    config = Path(env["CODEX_HOME"]) / "config.toml"
    with open(config, "a", encoding="utf-8") as handle:
        for hook in hooks:
            handle.write(f"\n[hooks.state.{json.dumps(hook['key'])}]\ntrusted_hash = {json.dumps(hook['currentHash'])}\n")
    return hooks


def command(agent: str, prompt: str) -> list[str]:
    """One non-interactive run of the agent on ``prompt``."""
    if agent == "claude":
        return ["claude", "-p", prompt, "--model", CLAUDE_MODEL, "--output-format", "json"]
    if agent == "codex":
        return ["codex", "exec", "--json", prompt]
    if agent == "copilot":
        return ["copilot", "-p", prompt, "--output-format", "json", "--no-auto-update"]
    return ["gemini", "-m", GEMINI_MODEL, "-p", prompt, "--output-format", "json"]


def request_texts(agent: str, bodies: list[Any]) -> list[str]:
    """Every text the CLI sent the model in its requests, in order (system prompt, instructions, messages)."""
    texts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key in ("text", "content", "system", "instructions", "input") or isinstance(item, (dict, list)):
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for body in bodies:
        if isinstance(body, dict):
            walk({k: v for k, v in body.items() if k in ("system", "messages", "input", "instructions", "contents", "systemInstruction")})
    return texts
