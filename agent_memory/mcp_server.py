"""``agent-memory mcp``: a stdio MCP server an agent starts per session, so it can ask its memory itself.

The server is the official ``mcp`` SDK (the ``[mcp]`` extra), which takes far longer to import
(pydantic models of the whole protocol) than an agent should wait for a server's first answer. So
the process answers the two messages every session opens with, ``initialize`` and a plain
``tools/list``, at once with the standard library, in exactly the form the SDK would
(``tests/test_mcp_server.py`` holds them to each other), while the SDK loads: Codex builds its first
model request with the tools listed by then, and would leave ours out. Every message, those two
included, is handed to the SDK's own server over a pipe, and its replies to the two are the lines not
passed on; everything else (tool calls, ping, errors) is the SDK's. Read-only tools only
(``mcp_tools``). The core never imports this module.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any

from .fastjson import JSON_ERRORS
from . import agents

NAME = "agent-memory"
# what the SDK answers to initialize (mcp_types.version): the client's version when it is one of these, else the last
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
INSTRUCTIONS = ("This project's memory of what the person said in past sessions: rules they stated, adopted claims, "
                "past exchanges. Read-only. Use search before guessing why the project does something, why for where "
                "a rule came from, contested for rules that disagree, status when memory seems not to work.")


def version() -> str:
    from . import __version__

    return str(__version__)


def quick_initialize(message: Any) -> dict[str, Any] | None:
    """The SDK's answer to ``message`` when it is an ``initialize`` request whose form the SDK accepts, else None."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or message.get("method") != "initialize":
        return None
    ident, params = message.get("id"), message.get("params")
    if isinstance(ident, bool) or not isinstance(ident, (int, str)) or not isinstance(params, dict):
        return None
    info, requested = params.get("clientInfo"), params.get("protocolVersion")
    if not isinstance(requested, str) or not isinstance(params.get("capabilities"), dict) or not isinstance(info, dict):
        return None
    if not isinstance(info.get("name"), str) or not isinstance(info.get("version"), str):
        return None
    return {"jsonrpc": "2.0", "id": ident, "result": {
        "capabilities": {"tools": {"listChanged": False}},
        "instructions": INSTRUCTIONS,
        "protocolVersion": requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
        "serverInfo": {"name": NAME, "version": version()},
    }}


def client_agent(message: Any) -> str:
    """Which agent a session's first message came from, by the client's name (``Agent.mcp_client``), to size
    answers to what that agent keeps: in ``initialize``'s clientInfo, or in the ``_meta`` of every request of the
    2026 protocol (Copilot CLI opens with ``server/discover``)."""
    params = message.get("params") if isinstance(message, dict) else None
    if not isinstance(params, dict):
        return ""
    meta = params.get("_meta")
    info = params.get("clientInfo") or (meta.get("io.modelcontextprotocol/clientInfo") if isinstance(meta, dict) else None)
    name = str(info.get("name", "")).lower() if isinstance(info, dict) else ""
    return next((agent.name for agent in agents.every() if agent.mcp_client and agent.mcp_client in name), "")


def quick_tools(message: Any) -> dict[str, Any] | None:
    """The SDK's answer to ``message`` when it is a plain ``tools/list`` (no cursor), else None."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or message.get("method") != "tools/list":
        return None
    ident, params = message.get("id"), message.get("params")
    if isinstance(ident, bool) or not isinstance(ident, (int, str)):
        return None
    if params is not None and (not isinstance(params, dict) or set(params) - {"_meta"}
                               or not isinstance(params.get("_meta", {}), dict)):
        return None
    from .mcp_tools import TOOLS

    return {"jsonrpc": "2.0", "id": ident, "result": {"tools": [
        {"annotations": dict(READ_ONLY), "description": tool["description"], "inputSchema": tool["inputSchema"], "name": name}
        for name, tool in TOOLS.items()]}}


# what every tool is, in the protocol's annotations: it reads this project's memory and nothing else
READ_ONLY = {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False, "readOnlyHint": True}


class Bridge:
    """The wire (the agent's stdin and stdout) on one side, the SDK's server on the other, joined by two pipes."""

    def __init__(self) -> None:
        # the wire gets private descriptors; fd 0 reads nothing and fd 1 goes to stderr, so no stray print reaches it
        self.wire_in = os.dup(0)
        self.wire_out = os.dup(1)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
        self.to_sdk_read, self.to_sdk = os.pipe()
        self.from_sdk, self.from_sdk_write = os.pipe()
        self.answered: set[Any] = set()  # ids answered here, whose replies from the SDK are not passed on
        self.initialized = False  # an initialize was answered here: a plain tools/list may be too
        self.agent = ""
        self.ready = threading.Event()  # set once the first message was read (or the wire closed)
        self._lock = threading.Lock()

    def send(self, line: bytes) -> None:
        with self._lock:
            view = memoryview(line)
            while view:
                view = view[os.write(self.wire_out, view):]

    def pump_in(self) -> None:
        """The agent's messages to the SDK; the session's opening ones answered here first."""
        first = True
        try:
            with os.fdopen(self.wire_in, "rb", closefd=True) as wire:
                for line in wire:
                    if first or (self.initialized and b"tools/list" in line):
                        self._quick(line, first)
                        first = False
                        self.ready.set()
                    view = memoryview(line if line.endswith(b"\n") else line + b"\n")
                    while view:
                        view = view[os.write(self.to_sdk, view):]
        except OSError:
            pass  # the SDK is gone: nothing left to hand anything to
        finally:
            self.ready.set()
            os.close(self.to_sdk)

    def _quick(self, line: bytes, first: bool) -> None:
        try:
            message = json.loads(line)
        except JSON_ERRORS:
            return
        if first:
            self.agent = client_agent(message)
        answer = quick_initialize(message) if first else quick_tools(message)
        if answer is None:
            return
        if first:
            self.initialized = True
        with self._lock:  # the id is recorded before the SDK can see the message, so its reply is known when it comes
            self.answered.add(answer["id"])
        self.send(json.dumps(answer, separators=(",", ":")).encode() + b"\n")

    def pump_out(self) -> None:
        """The SDK's messages to the agent, but for its replies to what was answered here."""
        with os.fdopen(self.from_sdk, "rb", closefd=True) as sdk:
            for line in sdk:
                if self.answered and b'"id"' in line and self._answered_here(line):
                    continue
                try:
                    self.send(line)
                except OSError:
                    return  # the agent hung up

    def _answered_here(self, line: bytes) -> bool:
        try:
            reply = json.loads(line)
        except JSON_ERRORS:
            return False
        if not isinstance(reply, dict) or "method" in reply:
            return False
        with self._lock:
            if reply.get("id") in self.answered:
                self.answered.discard(reply.get("id"))
                return True
        return False


def main(argv: list[str] | None = None) -> int:
    """Serve until the agent closes stdin. ``--agent NAME`` sizes answers when the client does not say who it is."""
    args = list(sys.argv[1:] if argv is None else argv)
    forced = ""
    if "--agent" in args:
        at = args.index("--agent")
        forced = args[at + 1] if at + 1 < len(args) else ""
        del args[at:at + 2]
    memory_dir = None
    if "--memory-dir" in args:
        at = args.index("--memory-dir")
        memory_dir = args[at + 1] if at + 1 < len(args) else None
        del args[at:at + 2]
    bridge = Bridge()
    threading.Thread(target=bridge.pump_in, name="wire-in", daemon=True).start()
    out = threading.Thread(target=bridge.pump_out, name="wire-out", daemon=True)
    out.start()
    try:
        serve(bridge, forced, memory_dir)
    finally:
        os.close(bridge.from_sdk_write)
        out.join(timeout=5)
    return 0


def serve(bridge: Bridge, forced: str, memory_dir: str | None) -> None:
    """The SDK's server over the bridge's pipes, its four tools calling ``mcp_tools``."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    from . import mcp_tools
    from .store import Paths

    paths = Paths.resolve(memory_dir)

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=[
            types.Tool(name=name, description=tool["description"], input_schema=tool["inputSchema"],
                       annotations=types.ToolAnnotations.model_validate(READ_ONLY))
            for name, tool in mcp_tools.TOOLS.items()])

    async def call_tool(ctx: Any, params: Any) -> Any:
        bridge.ready.wait()
        agent = forced or bridge.agent
        try:
            text = mcp_tools.call(paths, params.name, params.arguments, agent)
        except mcp_tools.ToolRefused as exc:
            return _error(types, mcp_tools.Cleaner(paths).text(str(exc)))
        except Exception as exc:  # noqa: BLE001 - one call failing must not end the agent's server
            return _error(types, f"{params.name} failed: {mcp_tools.Cleaner(paths).text(type(exc).__name__ + ': ' + str(exc))[:300]}")
        return types.CallToolResult(content=[types.TextContent(text=text)])

    server = Server(NAME, version=version(), instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool)

    async def run() -> None:
        reader = anyio.wrap_file(open(bridge.to_sdk_read, encoding="utf-8", errors="replace"))
        writer = anyio.wrap_file(open(bridge.from_sdk_write, "w", encoding="utf-8", closefd=False))
        async with stdio_server(stdin=reader, stdout=writer) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


def _error(types: Any, message: str) -> Any:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


if __name__ == "__main__":
    sys.exit(main())
