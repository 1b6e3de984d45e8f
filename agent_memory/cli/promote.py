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
    lines: list[str] = []  # printed at once: rich renders one long text much faster than many short ones
    if result.proposals:
        lines.append(f"[bold]{len(result.proposals)} proposal(s)[/]" + ("" if args.write else " (dry run: nothing written)"))
        for p in result.proposals:
            lines.append(f"  [green]{p.id}[/] {p.source_tier}→{p.target_tier} [dim]({_plain(p.path)}; {len(p.sessions)} sessions, "
                         f"{len(p.days)} days)[/]")
            lines.append("    " + _plain(p.text))
    else:
        lines.append("no proposals" + ("" if args.write else " (dry run: nothing written)"))
    listing = result.listing(SHOWN_BLOCKED)
    if listing.total:
        shown = result.blocked if args.all else listing.shown
        lines.append(f"[bold]{listing.total} claim(s) not promoted yet[/] [dim]({listing.waiting} waiting only for more "
                     f"evidence, {listing.total - listing.waiting} held for another reason)[/]")
        for b in shown:
            lines.append(f"  [yellow]{b['claim_id']}[/] [dim]→{b['to']}: {_plain('; '.join(b['reasons']))}[/]")
            lines.append("    " + _plain(b["text"]))
        if len(shown) < listing.total:
            lines.append(f"  [dim]… {listing.total - len(shown)} more: --all lists them, --json gives every one[/]")
    if counts is not None:
        lines.append(f"staged {counts['staged']} new or changed, {counts['unchanged']} unchanged, {counts['withdrawn']} "
                     f"withdrawn in {_plain(str(where.staged))}")
    output.console().print("\n".join(lines))
    return EXIT_OK


def _plain(text: str) -> str:
    """``text`` shown as it is inside markup (rich's ``escape`` doubles a final backslash: none is final here)."""
    from rich.markup import escape

    return escape(text + " ")[:-1]
