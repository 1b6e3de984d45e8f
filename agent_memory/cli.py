"""The ``agent-memory`` command: a thin layer that turns library calls into output and exit codes.

Exit codes: 0 ok, 1 user error (one line on stderr), 2 usage, 3 ambiguous or not found.
Heavy imports (rich, yaml, jsonschema) happen inside the commands that need them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Sequence

from .model import AgentMemoryError, Ambiguous, NotFound

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_NOT_FOUND = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    """argparse that says one line and exits 2 on bad usage."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        name = self.prog.split()[-1]
        command = "agent-memory" if name == "agent-memory" else f"agent-memory {name}"
        self.exit(EXIT_USAGE, f"agent-memory: {message} (see '{command} --help')\n")


def _count(text: str) -> int:
    """A number of hits: a whole number, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _paths(args: argparse.Namespace) -> Any:
    from .store import Paths

    return Paths.resolve(getattr(args, "memory_dir", None))


def _emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


# ---------------------------------------------------------------- commands


def cmd_ingest(args: argparse.Namespace) -> int:
    import os

    from .ingest import ingest

    if args.workers is not None and args.workers < 0:
        print("agent-memory: --workers must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:  # a mistyped path is refused before anything is read, not skipped with exit 0
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        print(f"agent-memory: no such file or folder: {missing[0]}{more}", file=sys.stderr)
        return EXIT_USER
    report: Any
    if args.workers is not None:
        from .backfill import backfill  # large histories: reader processes, one writer

        show = sys.stderr.isatty() and not args.json
        report = backfill(_paths(args), args.paths, workers=args.workers, project=args.project, agent=args.agent, progress=show)
    else:
        report = ingest(_paths(args), args.paths, project=args.project, agent=args.agent)
    for error in report.errors:
        print(f"agent-memory: skipped {error}", file=sys.stderr)
    if args.json:
        _emit_json(report.as_json())
    else:
        print(
            f"{len(report.sessions)} session(s) read from {report.files} file(s): "
            f"{report.atoms_added} new atom(s), {report.quarantined} quarantined (redacted)"
            + (f"; {report.skipped_lines} unreadable line(s) skipped" if report.skipped_lines else "")
        )
    if report.files == 0:
        print("agent-memory: no transcript files found in the given paths", file=sys.stderr)
        return EXIT_USER
    return EXIT_OK


def cmd_promote(args: argparse.Namespace) -> int:
    from .promote import plan, stage

    paths = _paths(args)
    if args.write:
        from .store import ensure_store

        ensure_store(paths)
        result, counts = stage(paths)
    else:
        result, counts = plan(paths), None
    if args.json:
        _emit_json({"proposals": [p.as_json() for p in result.proposals], "blocked": result.blocked})
        return EXIT_OK
    console = _console()
    if result.proposals:
        console.print(f"[bold]{len(result.proposals)} proposal(s)[/]" + ("" if args.write else " (dry run: nothing written)"))
        for p in result.proposals:
            console.print(f"  [green]{p.id}[/] {p.source_tier}→{p.target_tier} [dim]({p.path}; {len(p.sessions)} sessions, {len(p.days)} days)[/]")
            console.print("    " + p.text, markup=False)
    else:
        console.print("no proposals" + ("" if args.write else " (dry run: nothing written)"))
    if result.blocked:
        console.print(f"[bold]{len(result.blocked)} claim(s) not promoted yet[/]")
        for b in result.blocked:
            console.print(f"  [yellow]{b['claim_id']}[/] [dim]→{b['to']}: {'; '.join(b['reasons'])}[/]")
            console.print("    " + b["text"], markup=False)
    if counts is not None:
        console.print(f"staged {counts['staged']} new or changed, {counts['unchanged']} unchanged, {counts['withdrawn']} withdrawn in {_paths(args).staged}")
    return EXIT_OK


def _lazy(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command implemented in another module, imported only when it runs."""

    def run(args: argparse.Namespace) -> int:
        import importlib

        return int(getattr(importlib.import_module(f"agent_memory.{module}"), name)(args))

    return run


def cmd_search(args: argparse.Namespace) -> int:
    from .recall import search

    hits = search(_paths(args), args.query, limit=args.n)
    if args.json:
        _emit_json({"hits": [{"text": h.text, "score": h.score, "kind": h.kind, "date": h.date, "source": h.source()} for h in hits]})
        return EXIT_OK
    if not hits:
        print("no matches")
        return EXIT_OK
    console = _console()
    for h in hits:
        src = h.source()
        where = f"{src['session'][:8]}:{src['line']}" if src["session"] else h.source_name
        console.print(f"[bold]{h.score:.4f}[/] [dim]{h.date[:10]} {h.kind} {where}[/]")
        console.print("  " + h.text.replace("\n", " ")[:300], markup=False)
    return EXIT_OK


def cmd_reindex(args: argparse.Namespace) -> int:
    from .tiers import open_index

    paths = _paths(args)
    paths.store.mkdir(parents=True, exist_ok=True)
    with open_index(paths, sync=False) as index:
        counts = index.rebuild() if args.full else index.sync()
        total = index.count()
    embedded = None
    if args.embeddings:
        from .semantic import reindex_embeddings  # the optional extra, only when asked for

        embedded = reindex_embeddings(paths, args.model)
    if args.json:
        shape = {"added": counts["added"], "removed": counts["removed"], "rows": total}
        if embedded is not None:
            shape["embedded"] = embedded
        _emit_json(shape)
    else:
        print(f"index up to date: {counts['added']} row(s) added, {counts['removed']} removed, {total} in all")
        if embedded is not None:
            print(f"{embedded} row(s) embedded again")
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(json_output=args.json, keep=args.keep)


# ---------------------------------------------------------------- the parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="agent-memory",
        description="A memory for coding agents that is earned, not asserted: rules and evidence, never guesses.",
    )
    parser.add_argument("--memory-dir", metavar="DIR", help="project store (default: $AGENT_MEMORY_DIR, else <project root>/.memory)")
    parser.add_argument("--version", action="version", version=f"agent-memory {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, func: Callable[[argparse.Namespace], int], help_text: str, json_flag: bool = True) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(func=func)
        command.add_argument("--memory-dir", metavar="DIR", default=argparse.SUPPRESS, help="project store")
        if json_flag:
            command.add_argument("--json", action="store_true", help="one JSON document on stdout")
        return command

    p = add("ingest", cmd_ingest, "read transcripts (files or folders) and add new atoms to L1")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--project", metavar="NAME", help="project name (default: the session's git root)")
    p.add_argument("--agent", choices=["auto", "claude", "codex", "gemini"], default="auto")
    p.add_argument("--workers", type=int, metavar="N", help="read with N worker processes (0: in this process), for a large backfill; same result")

    p = add("promote", cmd_promote, "the promotion pass: a dry run that writes nothing, or --write to stage proposals")
    p.add_argument("--write", action="store_true", help="stage proposals in <store>/staged/")

    p = add("inspect", _lazy("inspect", "cmd_inspect"), "what is remembered, where a claim came from, open contradictions")
    view = p.add_mutually_exclusive_group(required=True)
    view.add_argument("--tier", choices=["L1", "L2", "L3"], help="list the claims of one tier")
    view.add_argument("--why", metavar="TEXT", help="provenance of the one claim TEXT resolves to (id, prefix or words)")
    view.add_argument("--contested", action="store_true", help="every claim with an open contradiction, both directions")

    p = add("adopt", _lazy("adopt", "cmd_adopt"), "apply staged proposals to the instruction file (after a backup)")
    p.add_argument("ids", nargs="*", metavar="ID", help="proposal ids (a unique prefix of ≥6 characters works)")
    p.add_argument("--all", action="store_true", help="adopt every staged proposal")
    p.add_argument("--target", metavar="FILE", help="instruction file for L2 (default: targets in config.yaml)")

    p = add("reject", _lazy("adopt", "cmd_reject"), "drop staged proposals and remember it")
    p.add_argument("ids", nargs="+", metavar="ID")

    p = add("verify", _lazy("adopt", "cmd_verify"), "mark a claim verified by a human (the 1-observation path)")
    p.add_argument("id", metavar="ID")

    p = add("resolve", _lazy("adopt", "cmd_resolve"), "settle a contradiction: KEEP_ID stands, ID is retired")
    p.add_argument("id", metavar="ID")
    p.add_argument("--keep", required=True, metavar="KEEP_ID")

    add("rollback", _lazy("adopt", "cmd_rollback"), "restore the files the last adopt changed from their backups")

    add("status", _lazy("health", "cmd_status"), "health of the memory: ingest, swallowed hook errors, hook timings, sizes; exit 1 when unhealthy")
    add("report", _lazy("review.report", "cmd_report"), "read-only review of adopted claims: stale, near-duplicate, over budget, naming what is gone, not followed")
    p = add("forget", _lazy("review.forget", "cmd_forget"), "take back an adopted claim: out of the block after a backup, kept on record as retracted")
    p.add_argument("claim", metavar="ID|TEXT", help="an adopted claim's id (a unique prefix of ≥6 characters works) or words of it")
    p.add_argument("--dry-run", action="store_true", help="say what would change and write nothing")

    p = add("search", cmd_search, "ranked recall over atoms, adopted claims and past sessions")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("-n", type=_count, default=10, metavar="N", help="how many hits (default 10)")

    p = add("reindex", cmd_reindex, "bring the FTS5 shadow index up to date with its sources (only what changed)")
    p.add_argument("--full", action="store_true", help="re-read every source, not only those that changed")
    p.add_argument("--embeddings", action="store_true", help="re-embed every row (semantic extra: pip install 'agent-memory[semantic]')")
    p.add_argument("--model", metavar="NAME", help="with --embeddings: the sentence-transformers model to embed with")

    p = add("hook", _lazy("hooks", "cmd_hook"), "run one hook: reads the agent's hook JSON on stdin; fails open", json_flag=False)
    p.add_argument("event", choices=["session-start", "user-prompt-submit", "session-end"])
    p.add_argument("--agent", choices=["claude", "codex", "gemini"], default="claude")

    for name, help_text in (
        ("install", "add the hooks and the /cs-memory command to an agent's config"),
        ("uninstall", "remove exactly the entries install added"),
    ):
        p = add(name, _lazy("install", f"cmd_{name}"), help_text)
        p.add_argument("--agent", choices=["claude", "codex", "gemini"], default="claude")
        p.add_argument("--scope", choices=["project", "user"], default="project")

    p = add("demo", cmd_demo, "run the whole pipeline on bundled sample transcripts in a temporary store")
    p.add_argument("--keep", action="store_true", help="keep the temporary store and print where it is")
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def _command_parser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]  # type: ignore[no-any-return]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    from .hooks import cmd_hook, hook_args

    hook = hook_args(argv)
    if hook is not None:
        # the hot path: no argparse, no SQLite check; a hook fails open whatever it is given
        return cmd_hook(hook)
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
        from .index import check_sqlite

        check_sqlite()
        return int(args.func(args))
    except (NotFound, Ambiguous) as exc:
        print(f"agent-memory: {exc}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except AgentMemoryError as exc:
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


if __name__ == "__main__":
    sys.exit(main())
