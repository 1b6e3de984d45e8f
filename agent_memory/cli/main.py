"""The ``agent-memory`` command: a thin layer that turns library calls into output and exit codes.

Exit codes: 0 ok, 1 user error (one line on stderr), 2 usage, 3 ambiguous or not found.
Heavy imports (rich, yaml, jsonschema) happen inside the commands that need them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence

from ..agents import DEFAULT, NAMES
from ..errors import AgentMemoryError, Ambiguous, NotFound
from .output import EXIT_BUG, EXIT_NOT_FOUND, EXIT_OK, EXIT_USER, Parser


def _own(name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        import importlib

        return int(importlib.import_module(f"agent_memory.cli.{name}").run(args))

    return run


def _lazy(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command implemented in another module, imported only when it runs."""

    def run(args: argparse.Namespace) -> int:
        import importlib

        return int(getattr(importlib.import_module(f"agent_memory.{module}"), name)(args))

    return run


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = Parser(
        prog="agent-memory",
        description="A memory for coding agents that is earned, not asserted: rules and evidence, never guesses.",
    )
    parser.add_argument("--memory-dir", metavar="DIR", help="project store (default: $AGENT_MEMORY_DIR, else <project root>/.memory)")
    parser.add_argument("--version", action="version", version=f"agent-memory {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_text: str, json_flag: bool = True) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(func=func)
        command.add_argument("--memory-dir", metavar="DIR", default=argparse.SUPPRESS, help="project store")
        if json_flag:
            command.add_argument("--json", action="store_true", help="one JSON document on stdout")
        return command

    def own(name: str) -> None:
        """A command whose argparse and printing live in ``cli/<name>.py`` (HELP, add_arguments, run)."""
        module = importlib.import_module(f"agent_memory.cli.{name}")
        module.add_arguments(add(name, _own(name), module.HELP))

    own("ingest")
    own("promote")

    p = add("inspect", _lazy("review.why", "cmd_inspect"), "what is remembered, where a claim came from, open contradictions")
    view = p.add_mutually_exclusive_group(required=True)
    view.add_argument("--tier", choices=["L1", "L2", "L3"], help="list the claims of one tier")
    view.add_argument("--why", metavar="TEXT", help="provenance of the one claim TEXT resolves to (id, prefix or words)")
    view.add_argument("--contested", action="store_true", help="every open contradiction, each pair once")
    view.add_argument("--candidates", action="store_true", help="claims that may be one claim, for merge or to leave")

    p = add("adopt", _lazy("review.adopt", "cmd_adopt"), "apply staged proposals to the instruction file (after a backup)")
    p.add_argument("ids", nargs="*", metavar="ID", help="proposal ids (a unique prefix of ≥6 characters works)")
    p.add_argument("--all", action="store_true", help="adopt every staged proposal")
    p.add_argument("--target", metavar="FILE", help="instruction file for L2 (default: targets in config.yaml)")

    p = add("reject", _lazy("review.decisions", "cmd_reject"), "drop staged proposals and remember it")
    p.add_argument("ids", nargs="+", metavar="ID")

    p = add("verify", _lazy("review.decisions", "cmd_verify"), "mark a claim verified by a human (the 1-observation path)")
    p.add_argument("id", metavar="ID")

    p = add("resolve", _lazy("review.decisions", "cmd_resolve"), "settle a contradiction: KEEP_ID stands, ID is retired")
    p.add_argument("id", metavar="ID")
    p.add_argument("--keep", required=True, metavar="KEEP_ID")

    own("merge")
    own("split")

    add("rollback", _lazy("review.adopt", "cmd_rollback"), "restore the files the last adopt changed from their backups")
    own("status")
    own("report")
    own("forget")

    own("search")
    own("mcp")
    own("reindex")
    own("export")
    own("team")

    p = add("hook", _lazy("hooks", "cmd_hook"), "run one hook: reads the agent's hook JSON on stdin; fails open", json_flag=False)
    p.add_argument("event", choices=["session-start", "user-prompt-submit", "session-end"])
    p.add_argument("--agent", choices=NAMES, default=DEFAULT)

    own("install")
    own("uninstall")

    own("demo")
    return parser


def _version() -> str:
    from .. import __version__

    return __version__


def _command_parser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]  # type: ignore[no-any-return]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    from ..hooks import cmd_hook, hook_args

    hook = hook_args(argv)
    if hook is not None:
        # the hot path: no argparse, no SQLite check; a hook fails open whatever it is given
        return cmd_hook(hook)
    from .mcp import mcp_args

    served = mcp_args(argv)
    if served is not None:  # an agent waits for the server's first answer: no argparse, no other command loaded
        from .mcp import serve

        return serve(served)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, so the hint names the command
        _command_parser(parser, getattr(args, "command", None)).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.error("say which command to run")
    if args.command == "adopt" and bool(args.ids) == bool(args.all):
        # a usage error, said before anything is read: ids or --all, exactly one of them
        what = "give proposal ids or --all, not both" if args.all else "say which proposals to adopt: ids or --all"
        _command_parser(parser, "adopt").error(what)
    try:
        return _run(args)
    finally:
        from ..shapes import take_reports

        for line in take_reports():  # wrong-shaped lines of committed files the command skipped
            print(f"agent-memory: skipped {line}", file=sys.stderr)


# commands that only read, or write no project store (ingest decides for itself: --all-projects needs no project)
_READ_ONLY = frozenset({"inspect", "status", "report", "search", "demo", "hook", "ingest", "mcp"})


def _writes_a_project(args: argparse.Namespace) -> bool:
    """Whether this command would write a project's store or files (outside a repository it is refused)."""
    command = args.command
    if command in _READ_ONLY or getattr(args, "dry_run", False):
        return False
    if command == "promote":
        return bool(args.write)
    if command in ("install", "uninstall"):
        return bool(args.scope == "project")
    return True


def _run(args: argparse.Namespace) -> int:
    """One command, its errors turned into one line and the contract's exit code."""
    try:
        from ..index import check_sqlite

        check_sqlite()
        if _writes_a_project(args):
            from .output import refuse_outside_project

            refuse_outside_project(args, f"`{args.command}`")
        return int(args.func(args))
    except (NotFound, Ambiguous) as exc:
        print(f"agent-memory: {exc}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except AgentMemoryError as exc:
        from ..shapes import MalformedLine, take_reports

        if isinstance(exc, MalformedLine):
            take_reports()  # the refusal names the line already
        print(f"agent-memory: {exc}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("agent-memory: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:
        print(f"agent-memory: {exc.strerror or exc}{': ' + exc.filename if getattr(exc, 'filename', None) else ''}", file=sys.stderr)
        return EXIT_USER
    except Exception as exc:  # a fault of ours: one line for the person, the whole story in a log
        where = _crash_log(args, exc)
        print(f"agent-memory: unexpected error in `{args.command}`: {type(exc).__name__}: {exc}"
              f" ({'details in ' + where if where else 'no log could be written'}; please report it)", file=sys.stderr)
        return EXIT_BUG


def _crash_log(args: argparse.Namespace, exc: BaseException) -> str:
    """Append the traceback, with the versions a report needs, to the user store's ``logs/crash.log``; its path,
    or "" when it cannot be written. The command's arguments are left out: they may hold a person's words."""
    import os
    import platform
    import traceback

    from ..clock import iso, now
    from ..layout import user_store

    folder = os.path.join(user_store(), "logs")
    path = os.path.join(folder, "crash.log")
    entry = (f"--- {iso(now())} agent-memory {_version()} python {platform.python_version()} "
             f"sqlite {_sqlite_version()} {platform.platform()} command {args.command}\n"
             + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    try:
        os.makedirs(folder, exist_ok=True)
        with open(path, "a", encoding="utf-8") as handle:  # a local log of our own faults, like the hooks' error log
            handle.write(entry)
    except OSError:
        return ""
    return path


def _sqlite_version() -> str:
    import sqlite3

    return sqlite3.sqlite_version


if __name__ == "__main__":
    sys.exit(main())
