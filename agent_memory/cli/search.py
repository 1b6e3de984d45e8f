"""``agent-memory search``: ranked recall over atoms, adopted claims and past sessions."""

from __future__ import annotations

import argparse

from . import output
from .output import count, emit_json, EXIT_OK, paths

HELP = "ranked recall over atoms, adopted claims and past sessions"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", metavar="QUERY")
    p.add_argument("-n", type=count, default=10, metavar="N", help="how many hits (default 10)")


def run(args: argparse.Namespace) -> int:
    from ..recall import search

    hits = search(paths(args), args.query, limit=args.n)
    if args.json:
        emit_json({"hits": [{"text": h.text, "score": h.score, "kind": h.kind, "date": h.date, "source": h.source()} for h in hits]})
        return EXIT_OK
    if not hits:
        print("no matches")
        return EXIT_OK
    out = output.console()
    for h in hits:
        src = h.source()
        where = f"{src['session'][:8]}:{src['line']}" if src["session"] else h.source_name
        out.print(f"[bold]{h.score:.4f}[/] [dim]{h.date[:10]} {h.kind} {where}[/]")
        out.print("  " + h.text.replace("\n", " ")[:300], markup=False)
    return EXIT_OK
