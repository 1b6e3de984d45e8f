"""The read-only MCP server: what its tools answer, what they never show, and that nothing sent to it ends it.

The tools are tested through ``mcp_tools.call`` (no SDK needed); the server itself, over its stdio, only where
the ``[mcp]`` extra is installed.
"""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
import threading
import types as pytypes
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from agent_formats import claude_transcript
from agent_memory import mcp_server, mcp_tools
from agent_memory.mcp_tools import ToolRefused
from agent_memory.store import Paths

SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
PNPM = "From now on, always use pnpm here, never npm: the lockfile is pnpm-lock.yaml."
DEV = "Always open PRs against the dev branch."
MAIN = "Never open PRs against the dev branch, open them against main."


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Paths, dict[str, str]]:
    """A project whose store was made by ingesting three sessions on three days, as a person's would be."""
    root = tmp_path_factory.mktemp("mcp")
    project, home = root / "project", root / "home"
    project.mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=60)
    files = []
    for day in range(3):
        stamp = f"2026-03-0{day + 1}T10:00:00Z"
        turns = [(stamp, PNPM), (stamp, DEV)]
        if day == 2:
            turns.append((stamp, MAIN))
        if day == 0:
            turns.append((stamp, f"Remember: the deploy notes live in {project}/docs/deploy.md, the token is {SECRET} ok"))
            turns.append((stamp, f"Always keep the build cache in {Path.home()}/cache/{getpass.getuser()}-builds."))
        files.append(str(claude_transcript(root / "tr" / f"s{day}.jsonl", f"sess-{day}", project, turns)))
    env = {**os.environ, "AGENT_MEMORY_HOME": str(home / ".agent-memory"), "AGENT_MEMORY_NOW": "2026-03-10T00:00:00Z"}
    env.pop("AGENT_MEMORY_DIR", None)
    for args in (["ingest", *files], ["promote", "--write"]):
        subprocess.run([sys.executable, "-m", "agent_memory", *args], cwd=project, env=env, check=True,
                       capture_output=True, timeout=120)
    return Paths(project / ".memory", home / ".agent-memory", project), env


def _call(paths: Paths, name: Any, arguments: Any, agent: str = "claude") -> dict[str, Any]:
    return json.loads(mcp_tools.call(paths, name, arguments, agent))  # type: ignore[no-any-return]


def _private(paths: Paths) -> list[str]:
    """What no answer may hold: the project's and this machine's absolute paths, the user name, the secret."""
    from agent_memory.redact import os_user_names

    return [str(paths.project_root), str(Path.home()) + "/", SECRET, *(f"{n}-builds" for n in os_user_names())]


def test_search_finds_the_rule_with_its_source_and_day(store: tuple[Paths, dict[str, str]]) -> None:
    paths, _env = store
    found = _call(paths, "search", {"query": "why pnpm", "limit": 3})
    assert found["hits"], found
    hit = found["hits"][0]
    assert hit["text"] == PNPM and hit["day"].startswith("2026-03-0")
    assert hit["source"]["tier"] == "L1" and hit["source"]["session"].startswith("sess-") and hit["source"]["line"] >= 1


def test_why_gives_every_session_day_and_line_and_nothing_when_ambiguous(store: tuple[Paths, dict[str, str]]) -> None:
    paths, _env = store
    claim = _call(paths, "why", {"claim": "pnpm lockfile"})["claim"]
    assert claim["text"] == PNPM
    assert sorted(s["session"] for s in claim["sources"]) == ["sess-0", "sess-1", "sess-2"]
    assert sorted(s["day"] for s in claim["sources"]) == ["2026-03-01", "2026-03-02", "2026-03-03"]
    assert all(s["line"] >= 1 and "transcript" not in s for s in claim["sources"])
    with pytest.raises(ToolRefused, match="2 claims match"):
        mcp_tools.call(paths, "why", {"claim": "PRs dev branch"}, "claude")
    with pytest.raises(ToolRefused, match="no claim matches"):
        mcp_tools.call(paths, "why", {"claim": "kubernetes helm chart"}, "claude")


def test_contested_names_both_sides_and_status_says_whether_memory_works(store: tuple[Paths, dict[str, str]]) -> None:
    paths, _env = store
    pairs = _call(paths, "contested", {})["contested"]
    assert [(p["claim"]["text"], [c["text"] for c in p["contested_by"]]) for p in pairs] == [(DEV, [MAIN])]
    health = _call(paths, "status", None)
    assert health["store_exists"] and health["sizes"]["atoms"] >= 5 and health["contested"] == 2
    assert "store" not in health


@pytest.mark.parametrize("name, arguments", [
    ("search", {"query": "deploy notes token", "limit": 20}), ("search", {"query": "build cache"}),
    ("why", {"claim": "build cache"}), ("contested", {}), ("status", {}),
])
def test_no_answer_holds_a_secret_an_absolute_path_or_the_user_name(store: tuple[Paths, dict[str, str]], name: str,
                                                                   arguments: dict[str, Any]) -> None:
    paths, _env = store
    text = mcp_tools.call(paths, name, arguments, "claude")
    assert not [p for p in _private(paths) if p in text], text
    assert "[REDACTED" not in text  # a quarantined record is withheld, as from staged files
    if arguments.get("query") == "build cache":
        assert "~/cache/" in text


def test_the_cleaner_strips_what_the_hooks_injected_and_control_characters(store: tuple[Paths, dict[str, str]]) -> None:
    paths, _env = store
    injected = ("Adopted for this project (agent-memory, since 2026-03):\n- Always run make lint\n\n"
                "why do we pin node\x1b[31m\u202e")
    assert mcp_tools.Cleaner(paths).text(injected) == "why do we pin node[31m"  # the escape character itself is gone


@pytest.mark.parametrize("agent, limit, unit", [("claude", 10_000, "chars"), ("codex", 10_000, "bytes"),
                                                ("gemini", 10_000, "escaped"), ("copilot", 10_000, "chars")])
def test_an_answer_fits_what_the_agent_keeps(agent: str, limit: int, unit: str) -> None:
    found = {"hits": [{"text": f"モジュール{i}を変更したら <make test-{i}> を実行 " * 6} for i in range(200)]}
    text = mcp_tools.render(found, agent, "hits")
    assert mcp_tools.size(text, unit) <= limit
    shown = json.loads(text)
    assert shown["hits"] and shown["left_out"] == 200 - len(shown["hits"])
    whole = {"claim": {"text": "x" * 50_000}}
    assert mcp_tools.size(mcp_tools.render(whole, agent), unit) <= limit


FTS = ['"', '"unbalanced', 'NEAR(pnpm npm, 2)', 'pnpm*', '* OR -npm', 'text:pnpm', '^pnpm', '(pnpm', 'pnpm AND',
       "'; DROP TABLE docs; --", "%_%", "\\", "{pnpm}", "pnpm + npm", "NOT", "::", "日本語", "ﬁ ligature"]


@pytest.mark.parametrize("query", FTS)
def test_search_syntax_in_a_query_is_words_not_syntax(store: tuple[Paths, dict[str, str]], query: str) -> None:
    paths, _env = store
    assert isinstance(_call(paths, "search", {"query": query})["hits"], list)


HOSTILE = [
    ("search", {"query": "x" * 100_000}, "characters long"),
    ("search", {"query": "\x00\x1b\x07\u202e\u200b"}, "empty"),
    ("search", {"query": "   "}, "empty"),
    ("search", {"query": 5}, "must be a string"),
    ("search", {"query": ["pnpm"]}, "must be a string"),
    ("search", {"query": None}, "must be a string"),
    ("search", {"query": "pnpm", "limit": "3"}, "whole number"),
    ("search", {"query": "pnpm", "limit": True}, "whole number"),
    ("search", {"query": "pnpm", "limit": 10**30}, "between"),
    ("search", {"query": "pnpm", "limit": -1}, "between"),
    ("search", {"query": "pnpm", "limit": 2.5}, "whole number"),
    ("search", {}, "needs the argument"),
    ("search", {"query": "pnpm", "rm": "-rf"}, "takes no argument"),
    ("search", "pnpm", "object of arguments"),
    ("search", [1, 2], "object of arguments"),
    ("why", {"claim": {"id": 1}}, "must be a string"),
    ("why", {"claim": ""}, "empty"),
    ("contested", {"all": True}, "takes no argument"),
    ("adopt", {"id": "abc"}, "no tool named"),
    (None, {}, "no tool named"),
    (["search"], {}, "no tool named"),
]


@pytest.mark.parametrize("name, arguments, said", HOSTILE)
def test_bad_arguments_are_a_tool_error(store: tuple[Paths, dict[str, str]], name: Any, arguments: Any, said: str) -> None:
    paths, _env = store
    with pytest.raises(ToolRefused, match=said):
        mcp_tools.call(paths, name, arguments, "claude")


@given(st.one_of(st.text(max_size=600), st.integers(), st.none(), st.lists(st.text(max_size=5), max_size=3)))
def test_any_query_is_an_answer_or_a_tool_error(store: tuple[Paths, dict[str, str]], query: Any) -> None:
    paths, _env = store
    try:
        found = _call(paths, "search", {"query": query})
    except ToolRefused:
        return
    assert isinstance(found["hits"], list)


# ---------------------------------------------------------------- the server (the [mcp] extra)

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}}, "clientInfo": {"name": "claude-code", "version": "2"}}}


def _sdk_answers(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the SDK's server alone answers to ``messages`` (no quick answers in front of it)."""
    to_sdk_read, to_sdk = os.pipe()
    from_sdk, from_sdk_write = os.pipe()
    bridge = pytypes.SimpleNamespace(to_sdk_read=to_sdk_read, from_sdk_write=from_sdk_write, ready=threading.Event(), agent="")
    bridge.ready.set()
    runner = threading.Thread(target=mcp_server.serve, args=(bridge, "", None), daemon=True)
    runner.start()
    with os.fdopen(to_sdk, "w") as write, os.fdopen(from_sdk, "r") as read:
        answers = []
        for message in messages:
            write.write(json.dumps(message) + "\n")
            write.flush()
            if "id" in message:
                answers.append(json.loads(read.readline()))
    runner.join(timeout=30)
    os.close(from_sdk_write)
    return answers


@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2025-11-25", "2099-01-01", "garbage"])
def test_the_quick_answers_are_the_sdks_own(version: str) -> None:
    pytest.importorskip("mcp")
    import mcp_types.version

    assert mcp_server.HANDSHAKE_VERSIONS == tuple(mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS)
    init = {**INIT, "params": {**INIT["params"], "protocolVersion": version}}
    listing = {"jsonrpc": "2.0", "id": "t", "method": "tools/list", "params": {"_meta": {"progressToken": 0}}}
    sdk = _sdk_answers([init, {"jsonrpc": "2.0", "method": "notifications/initialized"}, listing])
    assert sdk == [mcp_server.quick_initialize(init), mcp_server.quick_tools(listing)]


def _server(store: tuple[Paths, dict[str, str]]) -> subprocess.Popen[bytes]:
    paths, env = store
    return subprocess.Popen([sys.executable, "-m", "agent_memory", "mcp"], cwd=str(paths.project_root), env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _ask(server: subprocess.Popen[bytes], message: Any) -> dict[str, Any]:
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write((message if isinstance(message, bytes) else json.dumps(message).encode()) + b"\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())  # type: ignore[no-any-return]


def test_hostile_messages_get_errors_and_the_server_keeps_answering(store: tuple[Paths, dict[str, str]]) -> None:
    pytest.importorskip("mcp")
    server = _server(store)
    try:
        assert _ask(server, INIT)["result"]["serverInfo"]["name"] == "agent-memory"
        assert server.stdin is not None
        server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\nnot json at all\n\x00\x1b[2J\n' + b"[" * 100_000 + b"\n"
                           # read here too, as any line naming tools/list is: nested deeper than the parser recurses
                           + b'["tools/list", ' + b"[" * 100_000 + b"]" * 100_001 + b"\n")
        listed = _ask(server, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert [t["name"] for t in listed["result"]["tools"]] == ["search", "why", "contested", "status"]
        for ident, arguments in enumerate([{"query": "x" * 1_000_000}, {"query": 7}, "pnpm", {"query": "\x00\u202e"},
                                           {"query": 'pnpm" OR NEAR(*'}, {"query": "pnpm", "limit": {"$gt": 1}}], start=2):
            answer = _ask(server, {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                                   "params": {"name": "search", "arguments": arguments}})
            assert "error" in answer or answer["result"]["isError"] is (ident != 6), answer
        answer = _ask(server, {"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "forget", "arguments": {}}})
        assert answer["result"]["isError"]
        found = _ask(server, {"jsonrpc": "2.0", "id": 21, "method": "tools/call",
                              "params": {"name": "search", "arguments": {"query": "pnpm", "limit": 1}}})
        assert json.loads(found["result"]["content"][0]["text"])["hits"][0]["text"] == PNPM
        assert _ask(server, {"jsonrpc": "2.0", "id": 22, "method": "ping"})["result"] == {}
    finally:
        assert server.stdin is not None
        server.stdin.close()
        assert server.wait(timeout=60) == 0


def test_the_core_never_imports_the_server_or_its_sdk() -> None:
    code = ("import sys, agent_memory.cli.main, agent_memory.recall, agent_memory.review.why, agent_memory.health, "
            "agent_memory.install, agent_memory.hooks.entry; "
            "assert not [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'agent_memory.mcp_'))], sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
