"""``agent-memory promote``: the promotion pass, a dry run or ``--write``."""

from __future__ import annotations

import argparse

from . import output
from .output import emit_json, EXIT_OK

HELP = "the promotion pass: a dry run that writes nothing, or --write to stage proposals"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--write", action="store_true", help="stage proposals in <store>/staged/")


def run(args: argparse.Namespace) -> int:
    from ..promote import plan, stage

    where = output.paths(args)
    if args.write:
        from ..store import ensure_store

        ensure_store(where)
        result, counts = stage(where)
    else:
        result, counts = plan(where), None
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
        out.print(f"[bold]{len(result.blocked)} claim(s) not promoted yet[/]")
        for b in result.blocked:
            out.print(f"  [yellow]{b['claim_id']}[/] [dim]→{b['to']}: {'; '.join(b['reasons'])}[/]")
            out.print("    " + b["text"], markup=False)
    if counts is not None:
        out.print(f"staged {counts['staged']} new or changed, {counts['unchanged']} unchanged, {counts['withdrawn']} withdrawn in {where.staged}")
    return EXIT_OK
