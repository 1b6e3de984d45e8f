"""``agent-memory split ID``: a claim's wordings are not one claim (rollback undoes it)."""

from __future__ import annotations

import argparse

from .output import EXIT_OK, emit_json, paths

HELP = "say that a claim's wordings are separate claims (rollback undoes it)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="a claim id (a unique prefix of ≥6 characters works)")


def run(args: argparse.Namespace) -> int:
    from ..review.merge import split

    done = split(paths(args), args.id)
    if args.json:
        emit_json({"split": done})
        return EXIT_OK
    print(f"split {done['split']} into {len(done['into'])} claim(s):")
    for claim in done["into"]:
        print(f"  {claim['id']}  {' '.join(claim['text'].split())[:70]}")
    print("undo with 'agent-memory rollback'")
    return EXIT_OK
