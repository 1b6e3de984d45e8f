"""``agent-memory export``: this person's atoms of this repository as shareable rows, after a dry run shows them."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from . import output
from .output import EXIT_OK, emit_json

HELP = "this person's atoms of this repository as rows to share with the team (see them first with --dry-run)"


def _day(text: str) -> str:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise argparse.ArgumentTypeError(f"not a day (YYYY-MM-DD): {text!r}")
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--since", type=_day, metavar="DATE", help="only atoms of this UTC day or later")
    p.add_argument("--out", metavar="FILE", help="where to write (default: memory-export-<person>.<format> here)")
    p.add_argument("--dry-run", action="store_true", help="show what would be exported and write nothing else")
    p.add_argument("--format", choices=["jsonl", "parquet"], default="jsonl",
                   help="jsonl (always) or parquet (needs the [team] extra)")


def run(args: argparse.Namespace) -> int:
    from ..store import ensure_store
    from ..team import export as team_export

    where = output.paths(args)
    if args.format == "parquet" and not args.dry_run:
        team_export.need_duckdb("Parquet exports")
    found = team_export.build(where, args.since or "")
    out = Path(args.out) if args.out else team_export.default_out(found, args.format)
    if args.dry_run:
        ensure_store(where)
        team_export.record_seen(where, found)
    else:
        team_export.check_seen(where, found)
        team_export.write(found, out, args.format)
    summary = found.summary()
    if args.json:
        emit_json({"dry_run": bool(args.dry_run), "out": None if args.dry_run else str(out), "format": args.format,
                   **summary, "rows": found.rows if args.dry_run else len(found.rows)})
        return EXIT_OK
    console = output.console()
    if args.dry_run:
        _table(console, found)
    origin = ("its origin URL" if found.repository.source == "remote"
              else "the project's name (no remote: other clones agree only if their folder has the same name)")
    verb = "would go" if args.dry_run else "went"
    console.print(f"{len(found.rows)} row(s) of {summary['claims']} claim(s) {verb} to {out} "
                  f"[dim](repository {found.repository.identity}, from {origin})[/]")
    held = ", ".join(f"{n} {why}" for why, n in found.held_back.items())
    output.print_notes(console, (
        held and f"held back, never exported: {held}",
        found.salt_changed and f"[yellow]your pseudonym here changed since the last dry run ({found.formerly[-1][:8]} → "
        f"{found.person[:8]}): the team salt in your user store is new. The rows name the old one, so "
        "a team gate that also reads your old export counts you once, by this one[/]",
        found.other_projects and f"{found.other_projects} atom(s) of other projects in this store were left out",
    ))
    if args.dry_run:
        console.print("dry run: nothing exported; what you saw is recorded, so 'agent-memory export"
                      + (f" --since {args.since}" if args.since else "") + "' writes exactly these rows")
    return EXIT_OK


def _table(console: Any, found: Any) -> None:
    from rich.table import Table

    table = Table(show_lines=False)
    for name in ("day", "kind", "wording", "stated", "contested", "session"):
        table.add_column(name)
    for row in found.rows:
        table.add_row(row["day"], row["kind"], row["text"], "yes" if row["stated"] else "",
                      "yes" if row["contested"] else "", row["session"][:8])
    console.print(table)
