"""``agent-memory promote``: the promotion pass, a dry run or ``--write``."""

from __future__ import annotations

import argparse
import heapq
import re
from typing import Any

from . import output
from .output import emit_json, EXIT_OK

HELP = "the promotion pass: a dry run that writes nothing, or --write to stage proposals"
SHOWN_BLOCKED = 20  # refusals listed for people (all of them with --all or --json)
_COUNTS = re.compile(r"(?:held in )?(\d+) of (\d+) (?:sessions|distinct days|observations|projects|days)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--write", action="store_true", help="stage proposals in <store>/staged/")
    p.add_argument("--all", action="store_true", help="list every claim not promoted yet (default: the first 20)")


def run(args: argparse.Namespace) -> int:
    from ..promote import plan, stage

    where = output.paths(args)
    if args.write:
        from ..store import ensure_store

        ensure_store(where)
        result, counts = stage(where)
    else:
        result, counts = plan(where, every=False), None
    if args.json:
        emit_json({"proposals": [p.as_json() for p in result.proposals], "blocked": result.blocked})
        return EXIT_OK
    out = output.console()
    if result.proposals:
        out.print(f"[bold]{len(result.proposals)} proposal(s)[/]" + ("" if args.write else " (dry run: nothing written)"))
        for p in result.proposals:
            out.print(f"  [green]{p.id}[/] {p.source_tier}→{p.target_tier} [dim]({p.path}; {len(p.sessions)} sessions, {len(p.days)} days)[/]")
            out.print("    " + p.text, markup=False)
    else:
        out.print("no proposals" + ("" if args.write else " (dry run: nothing written)"))
    if result.blocked:
        waiting, shown = _listed(result.blocked)
        out.print(f"[bold]{len(result.blocked)} claim(s) not promoted yet[/] [dim]({waiting} waiting only for more "
                  f"evidence, {len(result.blocked) - waiting} held for another reason)[/]")
        if args.all:
            shown = result.blocked
        for b in shown:
            out.print(f"  [yellow]{b['claim_id']}[/] [dim]→{b['to']}: {'; '.join(b['reasons'])}[/]")
            out.print("    " + b["text"], markup=False)
        if len(shown) < len(result.blocked):
            out.print(f"  [dim]… {len(result.blocked) - len(shown)} more: --all lists them, --json gives every one[/]")
    if counts is not None:
        out.print(f"staged {counts['staged']} new or changed, {counts['unchanged']} unchanged, {counts['withdrawn']} withdrawn in {where.staged}")
    return EXIT_OK


def _listed(blocked: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """(how many wait only for more evidence, the refusals to list: those held for another reason, which a
    person can act on, then the claims nearest to passing)."""
    held, waiting = [], []
    for b in blocked:
        short = _shortfall(b["reasons"])
        if short is None:
            held.append(b)
        else:
            waiting.append((short, b["to"], b["claim_id"], b))
    nearest = heapq.nsmallest(max(SHOWN_BLOCKED - len(held), 0), waiting, key=lambda w: w[:3])
    return len(waiting), (held + [w[3] for w in nearest])[:SHOWN_BLOCKED]


def _shortfall(reasons: list[str]) -> int | None:
    """Sessions, days, observations or projects still missing; None when a reason is not a count."""
    missing = 0
    for reason in reasons:
        found = _COUNTS.fullmatch(reason)
        if found is None:
            return None
        missing += int(found[2]) - int(found[1])
    return missing
