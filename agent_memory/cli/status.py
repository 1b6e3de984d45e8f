"""``agent-memory status``: the health of the memory as tables, or JSON; exit 0 when healthy, 1 when not."""

from __future__ import annotations

import argparse
from typing import Any

from .output import EXIT_OK, EXIT_USER, paths, show, table

HELP = "health of the memory: ingest, swallowed hook errors, hook timings, sizes; exit 1 when unhealthy"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """No arguments beyond --json."""


def _size(n: int) -> str:
    """Bytes as a person reads them: 812 B, 21.9 KB, 3.4 MB."""
    if n < 1024:
        return f"{n} B"
    value = float(n)
    for unit in ("KB", "MB", "GB"):
        value /= 1024
        if value < 1024 or unit == "GB":
            break
    return f"{value:.1f} {unit}"


def print_status(found: dict[str, Any], console: Any) -> None:
    """Tables for a person: the verdict first, then agents, hooks, the store."""
    if found["healthy"]:
        console.print("[bold green]healthy[/]" + ("" if found["store_exists"] else f" (no store yet at {found['store']})"))
    else:
        console.print("[bold red]not healthy[/]")
        for problem in found["problems"]:
            console.print("  - " + problem, markup=False)
    console.print(f"last ingest: {found['last_ingest'] or 'never'}", markup=False)
    if found["agents"]:
        console.print(table("transcripts of this project", ("agent", "transcripts", "ingested", "waiting", "last ingested"),
                            [[r["agent"], str(r["transcripts"]), str(r["ingested"]), str(r["waiting"]), r["last_ingest"] or "-"]
                             for r in found["agents"]], right=("transcripts", "ingested", "waiting")))
    if found["hooks"]:
        console.print(table("hook runs on record", ("hook", "runs", "with errors", "p50 ms", "p95 ms", "latest"),
                            [[r["event"], str(r["runs"]), str(r["failed"]), f"{r['p50_ms']:.1f}", f"{r['p95_ms']:.1f}",
                              r["last_at"] + ("" if r["last_ok"] else " (error)")] for r in found["hooks"]],
                            right=("runs", "with errors", "p50 ms", "p95 ms")))
    errors = found["errors"]
    if errors["total"]:
        last = errors["last"] or {}
        console.print(f"hook errors: {errors['total']} logged, {errors['new']} since the last clean run; latest {last.get('at', '')} "
                      f"{last.get('where', '')}: {last.get('error', '')[:200]}", markup=False)
    s = found["sizes"]
    console.print(
        f"store: {s['atoms']} atoms, {s['quarantined']} record(s) quarantined (redacted), {s['adopted_l2']} adopted here,"
        f" {s['adopted_l3']} across projects; "
        f"L1 {_size(s['l1_bytes'])}, index {_size(s['index_bytes'])}, backups {_size(s['backups_bytes'])}, logs {_size(s['logs_bytes'])}",
        markup=False,
    )
    if found["unknown_records"]:
        console.print("unknown records (dropped, from newer CLIs): "
                      + ", ".join(f"{label}: {n}" for label, n in found["unknown_records"].items()), markup=False)
    console.print(f"{found['proposals']} proposal(s) waiting for review, {found['contested']} claim(s) with an open contradiction")


def run(args: argparse.Namespace) -> int:
    from ..health import status

    found = status(paths(args))
    show(args, found, print_status)
    return EXIT_OK if found["healthy"] else EXIT_USER
