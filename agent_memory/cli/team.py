"""``agent-memory team promote``: the evidence gate over many people's exports, staging team proposals."""

from __future__ import annotations

import argparse

from . import output
from .output import EXIT_OK, count, emit_json

HELP = "team memory: the evidence gate over many people's exports"


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="team_command", metavar="COMMAND", parser_class=output.Parser, required=True)
    q = sub.add_parser("promote", help="stage the claims enough people hold for the repository's instruction files",
                       description="stage the claims enough people hold for the repository's instruction files")
    q.add_argument("exports", nargs="+", metavar="EXPORT", help="export files or folders of them")
    q.add_argument("--engine", choices=["duckdb", "spark", "sqlite"],
                   help="what runs the gate (default: duckdb when the [team] extra is installed, else sqlite)")
    q.add_argument("--people", type=count, default=3, metavar="K", help="distinct people who must hold a claim (3)")
    q.add_argument("--sessions", type=count, metavar="S", help="distinct sessions (default: gates.l2.sessions)")
    q.add_argument("--days", type=count, metavar="D", help="distinct UTC days (default: gates.l2.days)")
    q.add_argument("--dry-run", action="store_true", help="show the proposals and write nothing")
    q.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="one JSON document on stdout")
    q.add_argument("--memory-dir", metavar="DIR", default=argparse.SUPPRESS, help="project store")


def _engine(chosen: str | None) -> str:
    if chosen:
        return chosen
    try:
        import duckdb  # noqa: F401
    except ImportError:
        return "sqlite"
    return "duckdb"


def run(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..team.gate import export_files, run_gate
    from ..team.identity import repository
    from ..team.stage import plan_team, stage_team

    where = output.paths(args)
    gates = load_config(where.config)["gates"]["l2"]
    sessions = args.sessions or int(gates["sessions"])
    days = args.days or int(gates["days"])
    thresholds = {"people": args.people, "sessions": sessions, "days": days,
                  "stated_sessions": sessions, "stated_days": days}  # no easier path for a team
    engine = _engine(args.engine)
    files = export_files(args.exports)
    repo = repository(where)
    evidence = run_gate(files, repo.identity, thresholds, engine)
    result = plan_team(where, evidence, thresholds)
    counts = None if args.dry_run else stage_team(where, result)
    if getattr(args, "json", False):
        emit_json({"engine": engine, "files": len(files), "rows": result.rows,
                   "other_repositories": result.other_repositories, "repository": repo.identity,
                   "superseded": {"people": evidence.superseded_people, "rows": evidence.superseded_rows},
                   "version_1_rows": evidence.version_1_rows,
                   "thresholds": {"people": args.people, "sessions": sessions, "days": days},
                   "proposals": [p.as_json() for p in result.proposals], "blocked": result.blocked, "staged": counts})
        return EXIT_OK
    console = output.console()
    dry = " (dry run: nothing written)" if args.dry_run else ""
    console.print(f"[dim]{engine}: {result.rows} row(s) from {len(files)} export(s); gate: ≥{args.people} people, "
                  f"≥{sessions} sessions, ≥{days} days, contested by none[/]")
    output.print_notes(console, (
        result.other_repositories
        and f"{result.other_repositories} row(s) were exported in another repository and left out",
        evidence.superseded_rows and f"[yellow]{evidence.superseded_people} person(s) exported again under a new salt: "
        f"{evidence.superseded_rows} row(s) under their old pseudonym were left out, so each counts once[/]",
        evidence.version_1_rows and f"[yellow]{evidence.version_1_rows} row(s) come from exports made before format "
        "versions: read, but their owners should export again ('agent-memory export --dry-run', then export)[/]",
    ))
    if result.proposals:
        console.print(f"[bold]{len(result.proposals)} team proposal(s)[/]{dry}")
        for p in result.proposals:
            console.print(f"  [green]{p.id}[/] →L2 [dim](team; {p.people} people, {p.sessions} sessions, {p.days} days)[/]")
            console.print("    " + p.text, markup=False)
    else:
        console.print("no team proposals" + dry)
    if result.blocked:
        console.print(f"[bold]{len(result.blocked)} claim(s) held by several people, not proposed[/]")
        for b in result.blocked[:20]:
            console.print(f"  [yellow]{b['claim_id']}[/] [dim]{'; '.join(b['reasons'])}[/]")
            console.print("    " + b["text"], markup=False)
        if len(result.blocked) > 20:
            console.print(f"  … and {len(result.blocked) - 20} more (--json lists them all)")
    if counts is not None:
        console.print(f"staged {counts['staged']} new or changed, {counts['unchanged']} unchanged, "
                      f"{counts['withdrawn']} withdrawn in {where.staged}; adopt with 'agent-memory adopt ID'")
    return EXIT_OK
