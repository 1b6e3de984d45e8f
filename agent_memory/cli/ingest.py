"""``agent-memory ingest``: read transcripts and add new atoms to L1."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..agents import NAMES
from .output import emit_json, EXIT_OK, EXIT_USAGE, EXIT_USER, paths

HELP = "read transcripts (files or folders) and add new atoms to L1"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--project", metavar="NAME", help="project name (default: the session's git root)")
    p.add_argument("--agent", choices=["auto", *NAMES], default="auto")
    p.add_argument("--workers", type=int, metavar="N", help="read with N worker processes (0: in this process), for a large backfill; same result")


def run(args: argparse.Namespace) -> int:
    import os

    from ..ingest import ingest

    if args.workers is not None and args.workers < 0:
        print("agent-memory: --workers must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:  # a mistyped path is refused before anything is read, not skipped with exit 0
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        print(f"agent-memory: no such file or folder: {missing[0]}{more}", file=sys.stderr)
        return EXIT_USER
    odd = [p for p in args.paths if not (os.path.isfile(p) or os.path.isdir(p))]
    if odd:  # a device or a pipe (/dev/null, a FIFO) is no transcript, and reading one could block
        print(f"agent-memory: not a transcript: {odd[0]} is not a regular file or folder", file=sys.stderr)
        return EXIT_USER
    report: Any
    if args.workers is not None:
        from ..backfill import backfill  # large histories: reader processes, one writer

        show = sys.stderr.isatty() and not args.json
        report = backfill(paths(args), args.paths, workers=args.workers, project=args.project, agent=args.agent, progress=show)
    else:
        report = ingest(paths(args), args.paths, project=args.project, agent=args.agent)
    for error in report.errors:
        print(f"agent-memory: skipped {error}", file=sys.stderr)
    for damage in report.damaged:
        print(f"agent-memory: read in part: {damage}", file=sys.stderr)
    if report.files and len(report.errors) >= report.files:
        return EXIT_USER  # every file given was skipped (each said why above): nothing was ingested
    if args.json:
        emit_json(report.as_json())
    else:
        print(
            f"{len(report.sessions)} session(s) read from {report.files} file(s): "
            f"{report.atoms_added} new atom(s), {report.quarantined} quarantined (redacted"
            + (f": {report.quarantined - report.quarantined_chunks} atom(s), {report.quarantined_chunks} past-session chunk(s))"
               if report.quarantined_chunks else ")")
            + (f"; {report.skipped_lines} unreadable line(s) skipped" if report.skipped_lines else "")
        )
    if report.files == 0:
        print("agent-memory: no transcript files found in the given paths", file=sys.stderr)
        return EXIT_USER
    return EXIT_OK
