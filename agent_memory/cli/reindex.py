"""``agent-memory reindex``: bring the FTS5 shadow index, and promote's claim tables, up to date."""

from __future__ import annotations

import argparse
from functools import partial
from typing import TYPE_CHECKING, Any

from . import output
from .output import emit_json, EXIT_OK

if TYPE_CHECKING:
    from pathlib import Path

    from ..claims.cache import ReadL1
    from ..store import Paths

HELP = "bring the FTS5 shadow index and the claim tables up to date with their sources (only what changed)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--full", action="store_true", help="re-read every source, not only those that changed, and count the claim tables again")
    p.add_argument("--embeddings", action="store_true", help="re-embed every row (semantic extra: pip install 'agent-memory[semantic]')")
    p.add_argument("--model", metavar="NAME", help="with --embeddings: the sentence-transformers model to embed with")


def run(args: argparse.Namespace) -> int:
    import sys

    from ..pool import FAILED, ProgressBar, beside
    from ..redact.stored import redact_stored
    from ..store import StoreLock

    where = output.paths(args)
    where.store.mkdir(parents=True, exist_ok=True)
    # a store counted again from its first line takes a while: past a few seconds, the step it is in
    shown = ProgressBar(sys.stderr.isatty() and not args.json, description="claim tables", steps=True)
    filling: Any = None  # the index filled in a child process beside the claim tables, where L1 is large
    read: "ReadL1 | None" = None  # L1 read and parsed once for both steps, when they run at once
    try:
        if where.l1_dir.is_dir():
            with StoreLock(where.store):
                redact_stored(where)  # what older redaction rules let into L1 goes before it is indexed again
                if _both_long(where) and _counted_anew(where, args.full):
                    from ..claims.cache import make_all_keys

                    read = make_all_keys(where)  # once, on every core, for both steps to find made
                    filling = beside(partial(_fill_index, where, args.full, read))
                    if filling is not None:
                        shown.phase("claim tables and search index")
                _claim_tables(where, args.full, read)
        shown.phase("search index")
        done = filling() if filling is not None else FAILED
        filling = None
        counts, total = _fill_index(where, args.full, read) if done is FAILED else done
    finally:
        if filling is not None:
            filling()  # the claim tables stopped with an error: the child is waited for all the same
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


# Both steps counting a large L1 from its start, and neither dwarfing the other: the index is filled in a forked
# child while this process counts the claim tables. They read L1 alone and are CPU-bound, and two such processes keep
# two cores busier than either step's own workers do (which wait on its writer, and send it every row); whichever is
# done first leaves the other's next step the cores (``pool.beside``). The claim keys of atoms, which both need, are
# made first, once, on every core. The index reads chunks as well as atoms, the claim tables atoms alone: where the
# chunks are many times the atoms (long sessions), the index is nearly all the work, and is better done with its own
# workers, after the tables.
BESIDE_BYTES = 16 << 20
BESIDE_CHUNKS_PER_ATOM_BYTE = 4


def _both_long(where: "Paths") -> bool:
    atoms, chunks = (_size(path) for path in (where.atoms, where.chunks))
    return atoms + chunks >= BESIDE_BYTES and chunks <= BESIDE_CHUNKS_PER_ATOM_BYTE * atoms


def _size(path: "Path") -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _counted_anew(where: "Paths", full: bool) -> bool:
    """Whether the claim tables and the index are both to be made from the start of L1 (``--full``, or neither file
    there yet): a reindex that only catches up takes a moment, and its steps one after the other."""
    from ..claims.tables import db_path

    return full or not (db_path(where).exists() or where.index.exists())


def _fill_index(where: "Paths", full: bool, read: "ReadL1 | None" = None) -> tuple[dict[str, int], int]:
    """Bring the index up to date with its sources (``full``: every source read again); its counts and rows.
    ``read``: L1 as ``make_all_keys`` read it."""
    from ..promote.tiers import open_index

    with open_index(where, sync=False, atoms_read=read) as index:
        counts = index.rebuild() if full else index.sync()
        return counts, index.count()


def _claim_tables(where: "Paths", full: bool, read: "ReadL1 | None" = None) -> None:
    """Bring promote's claim tables up to date with L1 (``full``: counted again from its first line), as the next
    writer would. They are derived: a config or file that stops them is logged, never the command's failure.
    ``read``: L1 as ``make_all_keys`` read it."""
    from ..claims import cache as claimcache
    from ..claims.tables import db_path
    from ..config import load_config
    from ..errors import AgentMemoryError
    from ..store import log_error, remove_database

    try:
        similarity = float(load_config(where.config)["identity"]["merge_similarity"])
        if full:
            remove_database(db_path(where))
        claimcache.keep_up(where, similarity, read)
    except (AgentMemoryError, OSError, ValueError, KeyError, TypeError) as exc:
        log_error(where, "reindex: claim tables", exc)
