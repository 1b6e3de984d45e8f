"""``agent-memory promote``: the promotion pass, a dry run or ``--write``."""

from __future__ import annotations

import argparse

from . import output
from .output import emit_json, EXIT_OK

HELP = "the promotion pass: a dry run that writes nothing, or --write to stage proposals"
SHOWN_BLOCKED = 20  # refusals listed for people (all of them with --all or --json)


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
    lines: list[list[tuple[str, str]]] = []  # printed at once: thousands of lines at a long history's dry run
    dry = "" if args.write else " (dry run: nothing written)"
    if result.proposals:
        lines.append([(f"{len(result.proposals)} proposal(s)", "bold"), (dry, "")])
        for p in result.proposals:
            lines.append([("  ", ""), (p.id, "green"), (f" {p.source_tier}→{p.target_tier} ", ""),
                          (f"({p.path}; {len(p.sessions)} sessions, {len(p.days)} days)", "dim")])
            lines.append([("    " + p.text, "")])
    else:
        lines.append([("no proposals" + dry, "")])
    listing = result.listing(SHOWN_BLOCKED)
    if listing.total:
        shown = result.blocked if args.all else listing.shown
        lines.append([(f"{listing.total} claim(s) not promoted yet", "bold"), (" ", ""),
                      (f"({listing.waiting} waiting only for more evidence, {listing.total - listing.waiting} held "
                       "for another reason)", "dim")])
        for b in shown:
            lines.append([("  ", ""), (b["claim_id"], "yellow"), (" ", ""), (f"→{b['to']}: {'; '.join(b['reasons'])}", "dim")])
            lines.append([("    " + b["text"], "")])
        if len(shown) < listing.total:
            lines.append([("  ", ""), (f"… {listing.total - len(shown)} more: --all lists them, --json gives every one", "dim")])
    if counts is not None:
        lines.append([(f"staged {counts['staged']} new or changed, {counts['unchanged']} unchanged, {counts['withdrawn']} "
                       f"withdrawn in {where.staged}", "")])
    output.print_lines(output.console(), lines)
    return EXIT_OK

