"""The real Claude Code, Codex CLI, Gemini CLI and Copilot CLI asking the memory through the MCP server install wrote.

For each agent: a store made from three past sessions, ``agent-memory install --mcp`` at project scope,
then one non-interactive run against the mock model, which calls the memory's search tool. The
model's tool list must hold the four tools, and the request after the call must carry the remembered
rule with its source (tier, session, line) and day. Skipped where node, the agent's CLI or the
``[mcp]`` extra is missing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from agent_formats import claude_transcript

from . import mockmodel
from .agents import Scratch, available, command, configure

AGENTS = ("claude", "codex", "gemini", "copilot")
RULE = "From now on, always use pnpm here, never npm: the lockfile is pnpm-lock.yaml."
TOOLS = ("search", "why", "contested", "status")
# what a person does once so a non-interactive run may call the read-only tool (each CLI asks otherwise)
ALLOW = {"claude": ["--allowedTools", "mcp__agent-memory__search"], "codex": [], "gemini": ["--yolo"], "copilot": []}
AM = str(Path(sys.executable).with_name("agent-memory"))


@pytest.fixture(scope="module")
def model() -> "mockmodel.MockModel":
    served = mockmodel.start()
    yield served
    served.close()


@pytest.mark.parametrize("agent", AGENTS)
def test_the_agent_lists_the_tools_and_a_call_returns_the_rule_with_its_source(agent: str, tmp_path: Path,
                                                                                model: mockmodel.MockModel) -> None:
    missing = available(agent)
    if missing:
        pytest.skip(missing)
    pytest.importorskip("mcp")
    proxy, proxy_url = mockmodel.refusing_proxy()
    try:
        home, project = tmp_path / "home", tmp_path / "project"
        (home / "tmp").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True, timeout=60)
        scratch = Scratch(home, project, model.url, proxy_url, tmp_path / "exits.log", Path(sys.executable).parent)
        env = configure(scratch, agent)
        if agent == "claude":
            # Claude Code 2.1.332 lists MCP tools by name only and loads one when the model searches for it; the
            # mock model calls a tool it is offered, so the tools are offered whole, as before
            env["ENABLE_TOOL_SEARCH"] = "false"
            # and it waits for a server only so long before the first request: on a loaded machine the server's
            # start (the MCP SDK's imports) can take longer
            env["CLAUDE_CODE_MCP_STARTUP_WAIT_MS"] = "60000"
        files = [str(claude_transcript(home / "past" / f"s{day}.jsonl", f"past-{day}", project,
                                       [(f"2026-03-0{day + 1}T10:00:00Z", RULE)])) for day in range(3)]
        for args in (["ingest", *files], ["install", "--mcp", "--agent", agent, "--scope", "project"]):
            subprocess.run([AM, *args], cwd=project, env=env, check=True, capture_output=True, timeout=120)
        if agent == "claude":  # the person approved the project's .mcp.json servers
            (home / ".claude").mkdir(exist_ok=True)
            (home / ".claude" / "settings.json").write_text(json.dumps({"enableAllProjectMcpServers": True}), encoding="utf-8")
        committed = [p for p in project.rglob("*") if p.is_file() and ".git" not in p.parts and ".memory" not in p.parts]
        assert committed and not [p for p in committed if str(home) in p.read_text() or sys.executable in p.read_text()]

        before = len(model.requests)
        model.tool_call = ("search", {"query": "why pnpm"})
        try:
            done = subprocess.run(command(agent, "Why do we use pnpm here?") + ALLOW[agent], cwd=project, env=env,
                                  capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
        finally:
            model.tool_call = None
        assert done.returncode == 0, f"{agent} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        bodies = [r.body for r in model.requests[before:] if r.method == "POST" and isinstance(r.body, dict)]
        offered = [mockmodel.offered_tools(b) for b in bodies]
        ours = sorted({name for names in offered for name in names if "memory" in name and name.endswith(TOOLS)})
        assert len(ours) == 4 and all(any(n.endswith(t) for n in ours) for t in TOOLS), offered[:1]
        answered = [json.dumps(b, ensure_ascii=False) for b in bodies]
        after = [text for text in answered if "pnpm-lock.yaml" in text and ("tool_result" in text or "function_call_output" in text
                                                                             or "functionResponse" in text)]
        assert after, "no request carried the tool's answer"
        flat = [text.replace("\\", "").replace(" ", "") for text in after]  # escaped once or twice, spaced or not
        for needle in ('"tier":"L1"', '"session":"past-', '"day":"2026-03-0', RULE.replace(" ", "")):
            assert any(needle in text for text in flat), needle
    finally:
        proxy.shutdown()
        proxy.server_close()
