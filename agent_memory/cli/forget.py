"""``agent-memory forget ID|TEXT [--dry-run]``: take back a claim, adopted or only remembered (rollback undoes it)."""

from __future__ import annotations

import argparse

from .output import EXIT_OK, emit_json, paths

HELP = ("take back a claim: an adopted one out of the block after a backup, kept on record as retracted; one only in L1 "
        "never recalled or proposed again until said again")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("claim", metavar="ID|TEXT", help="a claim's or proposal's id (a unique prefix of ≥6 characters works) or words of it")
    p.add_argument("--dry-run", action="store_true", help="say what would change and write nothing")


def _short(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def run(args: argparse.Namespace) -> int:
    from ..review.forget import forget

    where = paths(args)
    done = forget(where, args.claim, dry_run=args.dry_run)
    if args.json:
        emit_json({"forgotten": done.as_json()})
        return EXIT_OK
    tiers = " and ".join(done.tiers) or "no tier"
    if done.dry_run:
        print(f"would forget {done.claim_id} ({tiers}): {_short(done.text)}; {len(done.files)} file(s) would change (dry run: nothing written)")
        return EXIT_OK
    print(f"forgot {done.claim_id} ({tiers}): {_short(done.text)}")
    if done.tiers == ["L1"]:
        print(f"not recalled in prompts or proposed again unless said again after {done.at[:10]}")
    else:
        print(f"out of the block, kept on record as retracted; not proposed again unless said again after {done.at[:10]}")
    if done.backup:
        print(f"backup {done.backup} in {where.backups} (undo with 'agent-memory rollback')")
    return EXIT_OK
