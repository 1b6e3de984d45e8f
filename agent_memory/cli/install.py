"""``agent-memory install``: the hooks and the review entry (or, with ``--mcp``, the MCP server) into an agent's config."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from ..agents import DEFAULT, NAMES
from .output import EXIT_OK, emit_json

HELP = "add the hooks and the /cs-memory command to an agent's config"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The flags install and uninstall share."""
    p.add_argument("--agent", choices=NAMES, default=DEFAULT)
    p.add_argument("--scope", choices=["project", "user"], default="project")
    p.add_argument("--mcp", action="store_true", help="the read-only MCP server in the agent's MCP config, not the hooks")


def report(args: argparse.Namespace, change: Callable[..., Any]) -> Any:
    """Run ``install`` or ``uninstall`` for the command line; its report, or None once printed as JSON."""
    from ..store import Paths

    done = change(args.agent, args.scope, Paths.resolve(getattr(args, "memory_dir", None)))
    if getattr(args, "json", False):
        emit_json(done.as_json())
        return None
    return done


def run(args: argparse.Namespace) -> int:
    from .. import agents
    from ..install import install

    if getattr(args, "mcp", False):
        from .mcp import install as mcp_install

        return mcp_install(args, adding=True)
    done = report(args, install)
    if done is None:
        return EXIT_OK
    events = ", ".join(done.events)
    for former in done.moved_from:
        print(f"moved the agent-memory hooks out of {former}, which a team commits")
    if done.changed:
        print(f"installed the agent-memory hooks ({events}) in {done.settings}")
    else:
        print(f"the agent-memory hooks ({events}) are already in {done.settings}: nothing changed")
    if done.command_file is not None:
        call = agents.get(args.agent).review_call
        if done.command_changed:
            print(f"added {call} as {done.command_file}")
        elif done.command_file.exists():
            print(f"{call} is already at {done.command_file}")
    for note in done.notes:
        print(note)
    return EXIT_OK
