"""``agent-memory uninstall``: exactly the entries install added, out again."""

from __future__ import annotations

import argparse

from . import install as install_command
from .output import EXIT_OK

HELP = "remove exactly the entries install added"


def add_arguments(p: argparse.ArgumentParser) -> None:
    install_command.add_arguments(p)


def run(args: argparse.Namespace) -> int:
    from .. import agents
    from ..install import uninstall

    if getattr(args, "mcp", False):
        from .mcp import install as mcp_install

        return mcp_install(args, adding=False)
    done = install_command.report(args, uninstall)
    if done is None:
        return EXIT_OK
    if done.changed:
        print(f"removed the agent-memory hooks from {done.settings}")
    else:
        print(f"no agent-memory hooks in {done.settings}: nothing changed")
    if done.command_changed and done.command_file is not None:
        print(f"removed {agents.get(args.agent).review_call} ({done.command_file})")
    return EXIT_OK
