"""``agent-memory mcp``: the read-only MCP server an agent starts per session (stdio; the ``[mcp]`` extra).

``main()`` sends ``mcp`` here before building the parser, so the server answers its first message
without argparse or the other commands' modules; the parser knows the command only for ``--help``.
"""

from __future__ import annotations

import argparse
import sys

from .output import EXIT_USER

HELP = "a read-only MCP server on stdio (search, why, contested, status) for an agent to start; needs the [mcp] extra"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..agents import NAMES

    p.add_argument("--agent", choices=NAMES, help="size answers for this agent (default: told by the client's name)")


def serve(argv: list[str]) -> int:
    """Run the server with ``argv`` (``[--memory-dir DIR] mcp [--agent A]``, the command word left out)."""
    import importlib.util

    if sys.flags.no_site:
        import site

        site.main()
    if importlib.util.find_spec("mcp") is None:
        print("agent-memory: the MCP server needs the mcp extra: pip install 'agent-memory[mcp]'", file=sys.stderr)
        return EXIT_USER
    from ..mcp_server import main

    return main(argv)


def mcp_args(argv: list[str]) -> list[str] | None:
    """The server's arguments when ``argv`` asks for it (and not for help), else None."""
    rest = list(argv)
    lead: list[str] = []
    if rest[:1] == ["--memory-dir"] and len(rest) >= 2:
        lead, rest = rest[:2], rest[2:]
    if rest[:1] != ["mcp"] or any(a in ("-h", "--help") for a in rest):
        return None
    return lead + rest[1:]


def run(args: argparse.Namespace) -> int:
    argv = ["--agent", args.agent] if getattr(args, "agent", None) else []
    if getattr(args, "memory_dir", None):
        argv += ["--memory-dir", args.memory_dir]
    return serve(argv)


def install(args: argparse.Namespace, adding: bool) -> int:
    """``install --mcp`` / ``uninstall --mcp`` for one agent and scope."""
    import json

    from ..mcp_install import NAME, add, remove
    from ..store import Paths

    paths = Paths.resolve(getattr(args, "memory_dir", None))
    path, changed = (add if adding else remove)(args.agent, args.scope, paths)
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps({"mcp_config": str(path), "changed": changed, "server": NAME}, indent=2) + "\n")
    elif adding:
        print(f"added the {NAME} MCP server to {path}" if changed else f"the {NAME} MCP server is already in {path}: nothing changed")
    else:
        print(f"removed the {NAME} MCP server from {path}" if changed else f"no {NAME} MCP server in {path}: nothing changed")
    return 0
