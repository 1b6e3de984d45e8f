"""``agent-memory ingest``: read transcripts and add new atoms to L1, each session in its own project's store."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..agents import NAMES
from .output import EXIT_OK, EXIT_USAGE, EXIT_USER, emit_json, explicit_store, paths, refuse_outside_project

HELP = "read transcripts (files or folders; none: this project's, where each agent keeps them) into L1"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="transcript files or folders (none: this project's sessions in each agent's own folders)")
    p.add_argument("--project", metavar="NAME",
                   help="file every session given here, under this project name (default: each session's git root)")
    p.add_argument("--all-projects", action="store_true",
                   help="file every session in its own project's store (the backfill); no PATH: every agent's history")
    p.add_argument("--agent", choices=["auto", *NAMES], default="auto")
    p.add_argument("--workers", type=int, metavar="N", help="read with N worker processes (0: in this process), for a large backfill; same result")


def run(args: argparse.Namespace) -> int:
    from ..projects import agent_folders, discover, repository, sort_transcripts

    if args.workers is not None and args.workers < 0:
        print("agent-memory: --workers must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    if args.all_projects and (args.project or explicit_store(args)):
        print("agent-memory: --all-projects files each session in its own project's .memory: it takes no --project, "
              "--memory-dir or $AGENT_MEMORY_DIR", file=sys.stderr)
        return EXIT_USAGE
    here = repository(os.getcwd())
    if not args.all_projects:
        refuse_outside_project(args, "ingest", also="`agent-memory ingest --all-projects` to file every session in "
                                                    "its own project")
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:  # a mistyped path is refused before anything is read, not skipped with exit 0
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        print(f"agent-memory: no such file or folder: {missing[0]}{more}", file=sys.stderr)
        return EXIT_USER
    odd = [p for p in args.paths if not (os.path.isfile(p) or os.path.isdir(p))]
    if odd:  # a device or a pipe (/dev/null, a FIFO) is no transcript, and reading one could block
        print(f"agent-memory: not a transcript: {odd[0]} is not a regular file or folder", file=sys.stderr)
        return EXIT_USER
    if args.paths:
        from ..transcripts import iter_transcript_files

        files = list(iter_transcript_files(args.paths))
    else:
        files = discover(None if args.all_projects else here, args.agent)
        if not files:
            whose = "no agent keeps any session" if args.all_projects else f"no session of {here} is kept"
            print(f"agent-memory: {whose} in {', '.join(agent_folders())}", file=sys.stderr)
            return EXIT_USER
    if args.project or (explicit_store(args) and not here):
        # the person said where these sessions go: every one of them is filed in this store
        return _ingest_into(args, {paths(args): files}, None)
    if args.all_projects:
        from ..store import Paths

        known = tuple(_registered_roots())
        sorted_ = sort_transcripts(files, None, args.agent, known)
        user = paths(args).user
        stores = {Paths(store=_store_of(root), user=user, project_root=_path(root)): group
                  for root, group in sorted(sorted_.elsewhere.items())}
        return _ingest_into(args, stores, sorted_)
    sorted_ = sort_transcripts(files, here, args.agent)
    return _ingest_into(args, {paths(args): sorted_.here}, sorted_)


def _path(text: str) -> Any:
    from pathlib import Path

    return Path(text)


def _store_of(root: str) -> Any:
    return _path(os.path.join(root, ".memory"))


def _registered_roots() -> list[str]:
    """Project roots this machine's registry knows (a hashed Gemini folder may stand for one)."""
    from ..promote.tiers import load_registry
    from ..store import Paths

    try:
        registry = load_registry(Paths.resolve())
    except Exception:
        return []
    return [str(e.get("root")) for e in registry.values() if isinstance(e, dict) and isinstance(e.get("root"), str)]


def _ingest_into(args: argparse.Namespace, stores: dict[Any, list[str]], sorted_: Any) -> int:
    """Ingest each store's transcripts; say what was filed where and what was left out."""
    from ..ingest import IngestReport, ingest

    reports: list[tuple[Any, IngestReport]] = []
    for where, files in stores.items():
        if not files:
            continue
        show = sys.stderr.isatty() and not args.json  # a bar once a run has taken a few seconds
        if args.workers is not None:
            from ..backfill import backfill  # large histories: reader processes, one writer

            report = backfill(where, files, workers=args.workers, project=args.project, agent=args.agent, progress=show)
        else:
            report = ingest(where, files, project=args.project, agent=args.agent, progress=show)
        reports.append((where, report))
        for error in report.errors:
            print(f"agent-memory: skipped {error}", file=sys.stderr)
        for damage in report.damaged:
            print(f"agent-memory: read in part: {damage}", file=sys.stderr)
    skipped = sorted_.skipped() if sorted_ is not None else {}
    files = sum(r.files for _w, r in reports)
    errors = sum(len(r.errors) for _w, r in reports)
    if files and errors >= files:
        return EXIT_USER  # every file given was skipped (each said why above): nothing was ingested
    if args.json:
        total = {"sessions": sum(len(r.sessions) for _w, r in reports),
                 "atoms_added": sum(r.atoms_added for _w, r in reports),
                 "quarantined": sum(r.quarantined for _w, r in reports)}
        if sorted_ is not None:
            total["skipped"] = skipped
            total["other_projects"] = sorted_.other_projects()
        if args.all_projects:
            total["projects"] = [{"project": w.project_name, "store": str(w.store), **r.as_json()} for w, r in reports]
        emit_json(total)
    else:
        for where, report in reports:
            named = f"{where.project_name}: " if args.all_projects else ""
            print(
                f"{named}{len(report.sessions)} session(s) read from {report.files} file(s): "
                f"{report.atoms_added} new atom(s), {report.quarantined} quarantined (redacted"
                + (f": {report.quarantined - report.quarantined_chunks} atom(s), {report.quarantined_chunks} past-session chunk(s))"
                   if report.quarantined_chunks else ")")
                + (f"; {report.skipped_lines} unreadable line(s) skipped" if report.skipped_lines else "")
                + (f" → {where.store}" if args.all_projects else "")
            )
    if sorted_ is not None:
        _say_skipped(args, sorted_)
    if files == 0 and not any(skipped.values()):
        print("agent-memory: no transcript files found in the given paths", file=sys.stderr)
        return EXIT_USER
    return EXIT_OK


def _say_skipped(args: argparse.Namespace, sorted_: Any) -> None:
    """One line per reason sessions were left out, on stderr (stdout stays the report)."""
    counts = sorted_.skipped()
    if counts["other_projects"]:
        names = ", ".join(f"{name}: {n}" for name, n in sorted_.other_projects().items())
        print(f"agent-memory: left out {counts['other_projects']} session(s) of other projects ({names}): "
              "`agent-memory ingest --all-projects` files each in its own project", file=sys.stderr)
    for key, why in (("outside_a_repository", "ran outside any git repository"),
                     ("folder_not_here", "ran in a folder not on this machine"),
                     ("no_folder", "name no folder they ran in")):
        if counts[key]:
            print(f"agent-memory: left out {counts[key]} session(s) that {why}: `agent-memory ingest PATH --project NAME` "
                  "inside a project files them there", file=sys.stderr)
