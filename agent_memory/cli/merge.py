"""``agent-memory merge ID ID...``: the named claims are one claim (rollback undoes it)."""

from __future__ import annotations

import argparse

from .output import EXIT_OK, emit_json, paths

HELP = "say that two or more claims are one claim (every wording and source kept; rollback undoes it)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ids", nargs="+", metavar="ID", help="claim ids (a unique prefix of ≥6 characters works)")


def run(args: argparse.Namespace) -> int:
    from ..review.merge import merge

    done = merge(paths(args), list(args.ids))
    if args.json:
        emit_json({"merged": done})
        return EXIT_OK
    print(f"merged {', '.join(done['merged'])} into {done['claim_id']}: {' '.join(done['text'].split())[:70]}")
    print("undo with 'agent-memory rollback'; 'agent-memory inspect --why ID' shows every wording")
    return EXIT_OK
