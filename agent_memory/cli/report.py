"""``agent-memory report``: the read-only review of adopted claims, as tables or JSON."""

from __future__ import annotations

import argparse
from typing import Any

from .output import EXIT_OK, paths, show, table

HELP = "read-only review of adopted claims: stale, near-duplicate, over budget, naming what is gone, not followed"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """No arguments beyond --json."""


def _short(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def print_report(found: dict[str, Any], console: Any) -> None:
    """Tables for a person, one per kind of finding; a line when a kind has none."""
    console.print(f"{found['adopted']} adopted claim(s); instruction files: "
                  + (", ".join(f["file"] for f in found["files"]) or "none"), markup=False)

    def findings(title: str, columns: list[str], rows: list[list[str]]) -> None:
        console.print(table(title, columns, rows, fold=True) if rows else f"[dim]{title}: none[/]")

    findings(f"stale (not said again for {found['stale_days']}+ days)", ["id", "claim", "last said", "days"],
             [[r["claim_id"], _short(r["text"]), r["last_said"][:10], str(r["days"])] for r in found["stale"]])
    findings("near-duplicate lines", ["file", "line", "says the same as", "where"],
             [[r["file"], _short(r["line"], 50), _short(r["other"], 50), r["where"]] for r in found["duplicates"]])
    findings("over the agent's budget", ["agent", "files", "lines", "bytes", "limit"],
             [[r["agent"], ", ".join(r["files"]), str(r["lines"]), str(r["bytes"]),
               (f"{r['limit_lines']} lines / " if r["limit_lines"] else "") + f"{r['limit_bytes']} bytes"] for r in found["over_budget"]])
    findings("naming what no longer exists", ["id", "claim", "missing"],
             [[r["claim_id"], _short(r["text"], 50), "; ".join(f"{m['name']} ({m['why']})" for m in r["missing"])] for r in found["missing"]])
    findings("not followed (corrected again after adoption)", ["id", "claim", "corrections", "sessions", "latest"],
             [[r["claim_id"], _short(r["text"], 50), str(r["corrections"]), str(r["sessions"]), r["last"][:10]] for r in found["not_followed"]])
    if any(found[k] for k in ("stale", "missing", "not_followed")):
        console.print("take one back with 'agent-memory forget ID' (undo with 'agent-memory rollback')")


def run(args: argparse.Namespace) -> int:
    from ..review.report import report

    show(args, report(paths(args)), print_report)
    return EXIT_OK
