"""``agent-memory reindex``: bring the FTS5 shadow index, and promote's claim tables, up to date."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from . import output
from .output import emit_json, EXIT_OK

if TYPE_CHECKING:
    from ..store import Paths

HELP = "bring the FTS5 shadow index and the claim tables up to date with their sources (only what changed)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--full", action="store_true", help="re-read every source, not only those that changed, and count the claim tables again")
    p.add_argument("--embeddings", action="store_true", help="re-embed every row (semantic extra: pip install 'agent-memory[semantic]')")
    p.add_argument("--model", metavar="NAME", help="with --embeddings: the sentence-transformers model to embed with")


def run(args: argparse.Namespace) -> int:
    import sys

    from ..pool import ProgressBar
    from ..promote.tiers import open_index
    from ..redact.stored import redact_stored
    from ..store import StoreLock

    where = output.paths(args)
    where.store.mkdir(parents=True, exist_ok=True)
    # a store counted again from its first line takes a while: past a few seconds, the step it is in
    shown = ProgressBar(sys.stderr.isatty() and not args.json, description="claim tables", steps=True)
    try:
        if where.l1_dir.is_dir():
            with StoreLock(where.store):
                redact_stored(where)  # what older redaction rules let into L1 goes before it is indexed again
                # before the index: its workers, forked after, find each atom's claim key already made
                _claim_tables(where, args.full)
        shown.phase("search index")
        with open_index(where, sync=False) as index:
            counts = index.rebuild() if args.full else index.sync()
            total = index.count()
    finally:
        shown.stop()
    embedded = None
    if args.embeddings:
        from ..semantic import reindex_embeddings  # the optional extra, only when asked for

        embedded = reindex_embeddings(where, args.model)
    if args.json:
        shape = {"added": counts["added"], "removed": counts["removed"], "rows": total}
        if embedded is not None:
            shape["embedded"] = embedded
        emit_json(shape)
    else:
        print(f"index up to date: {counts['added']} row(s) added, {counts['removed']} removed, {total} in all")
        if embedded is not None:
            print(f"{embedded} row(s) embedded again")
    return EXIT_OK


def _claim_tables(where: "Paths", full: bool) -> None:
    """Bring promote's claim tables up to date with L1 (``full``: counted again from its first line), as the next
    writer would. They are derived: a config or file that stops them is logged, never the command's failure."""
    from ..claims import cache as claimcache
    from ..claims.tables import db_path
    from ..config import load_config
    from ..errors import AgentMemoryError
    from ..store import log_error, remove_database

    try:
        similarity = float(load_config(where.config)["identity"]["merge_similarity"])
        if full:
            remove_database(db_path(where))
        claimcache.keep_up(where, similarity)
    except (AgentMemoryError, OSError, ValueError, KeyError, TypeError) as exc:
        log_error(where, "reindex: claim tables", exc)
