"""MCP server start: from spawning ``agent-memory mcp`` to its first answer, against a bare interpreter start.

An agent starts the server at every session and waits for ``initialize`` (Codex also for ``tools/list``
before its first model request). Each run spawns the server as the installed configs do (the console
script for a project's config, ``python -m agent_memory mcp`` for a user's), sends what a client sends
and times the answer; the bare starts are timed the same way, interleaved with them, so a loaded
machine slows all alike. The goal is a median first answer ≤ 3 × ``python -c pass`` (the server
needs site-packages for its SDK, so the bare start it is held to loads them too); ``python -I -S -c
pass`` is shown beside it. ``python -m bench.mcp_start [--runs N]``; needs the ``[mcp]`` extra for the
third column (the first tool call, which waits for the SDK).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 3.0
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
FOLLOW = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
          {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "status", "arguments": {}}}]


def _bare(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _server(args: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float, float]:
    """Seconds from spawn to the initialize answer, to the tools/list answer and to the first tool call's answer."""
    start = time.perf_counter()
    server = subprocess.Popen(args, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write((json.dumps(INIT) + "\n").encode())
    server.stdin.flush()
    server.stdout.readline()
    first = time.perf_counter() - start
    server.stdin.write("".join(json.dumps(m) + "\n" for m in FOLLOW).encode())
    server.stdin.flush()
    server.stdout.readline()
    listed = time.perf_counter() - start
    server.stdout.readline()
    called = time.perf_counter() - start
    server.stdin.close()
    server.wait(timeout=60)
    return first, listed, called


def measure(runs: int) -> dict[str, list[float]]:
    py = sys.executable
    script = str(Path(py).with_name("agent-memory"))
    times: dict[str, list[float]] = {k: [] for k in ("bare", "bare -I -S", "console init", "console tools/list",
                                                     "console first call", "-m init")}
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder) / "project"
        project.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        env = {**os.environ, "AGENT_MEMORY_HOME": str(Path(folder) / "home")}
        env.pop("AGENT_MEMORY_DIR", None)
        for _ in range(runs):  # interleaved, so drift on the machine slows every kind alike
            times["bare"].append(_bare([py, "-c", "pass"]))
            times["bare -I -S"].append(_bare([py, "-I", "-S", "-c", "pass"]))
            first, listed, called = _server([script, "mcp"], str(project), env)
            times["console init"].append(first)
            times["console tools/list"].append(listed)
            times["console first call"].append(called)
            times["-m init"].append(_server([py, "-m", "agent_memory", "mcp"], str(project), env)[0])
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mcp_start")
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args(argv)
    times = measure(args.runs)
    bare = statistics.median(times["bare"])
    print(f"| measure (median of {args.runs}, interleaved) | ms | × `python -c pass` |")
    print("|---|---:|---:|")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median * 1000:.1f} | {median / bare:.2f} |")
    ratio = statistics.median(times["console init"]) / bare
    print(f"\nfirst answer of `agent-memory mcp`: {ratio:.2f} × a bare start (goal ≤ {GOAL}): {'met' if ratio <= GOAL else 'NOT met'}")
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
