"""``agent-memory demo``: the whole pipeline on bundled samples, in a temporary store."""

from __future__ import annotations

import argparse

HELP = "run the whole pipeline on bundled sample transcripts in a temporary store"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep", action="store_true", help="keep the temporary store and print where it is")


def run(args: argparse.Namespace) -> int:
    from ..demo import run_demo

    return run_demo(json_output=args.json, keep=args.keep)
