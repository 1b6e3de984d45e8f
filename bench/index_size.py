"""The index's size beside what it shadows: a store's index built again by this code, table by table.

For each project folder given, the store's index is built from its L1 and L2/L3 into a
temporary file (the store itself is not touched), timed, and reported as the whole store over
``L1/atoms.jsonl`` + ``L1/chunks.jsonl`` with SQLite's ``dbstat`` split per table and index.

Run ``python -m bench.index_size PROJECT [PROJECT ...]`` (a folder holding ``.memory``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from agent_memory.index import Index  # noqa: E402
from agent_memory.promote.tiers import index_sources  # noqa: E402
from agent_memory.store import Paths  # noqa: E402

SHOWN = 12  # tables and indexes listed, largest first


def tables(path: Path) -> list[tuple[str, int]]:
    """Bytes of each table and index of a database file, largest first (``dbstat``)."""
    con = sqlite3.connect(str(path))
    try:
        return [(str(n), int(b)) for n, b in con.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")]
    finally:
        con.close()


def report(project: Path, work: Path) -> list[str]:
    """Markdown lines for one store: sizes before the index, the index built again, and its tables."""
    paths = Paths.resolve(cwd=str(project))
    kept = sum(p.stat().st_size for p in (paths.atoms, paths.chunks) if p.exists())
    others = sum(p.stat().st_size for p in paths.store.rglob("*")
                 if p.is_file() and not p.name.startswith(paths.index.name))
    target = work / "index.db"
    started, cpu = time.monotonic(), time.process_time()
    with Index(target, index_sources(paths)) as index:
        index.sync()
        rows = index.count()
    seconds, cpu = time.monotonic() - started, time.process_time() - cpu
    size = sum(p.stat().st_size for p in work.glob("index.db*"))
    lines = [
        f"{project}: {rows:,} rows; built in {seconds:.1f} s ({cpu:.1f} s CPU)",
        "",
        "| atoms + chunks | rest of the store | index.db | whole store | whole ÷ (atoms + chunks) |",
        "|---|---|---|---|---|",
        f"| {kept / 1e6:.1f} MB | {(others - kept) / 1e6:.1f} MB | {size / 1e6:.1f} MB | {(others + size) / 1e6:.1f} MB "
        f"| {(others + size) / kept:.2f}× |" if kept else "| 0 | — | — | — | — |",
        "",
        "| table or index | MB |",
        "|---|---|",
    ]
    lines += [f"| {name} | {size / 1e6:.1f} |" for name, size in tables(target)[:SHOWN]]
    for suffix in ("", "-wal", "-shm"):
        Path(str(target) + suffix).unlink(missing_ok=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="+", type=Path, help="project folders holding a .memory store")
    args = parser.parse_args(argv)
    for project in args.projects:
        with tempfile.TemporaryDirectory(prefix="index-size-") as work:
            print("\n".join(report(project.resolve(), Path(work))))
            print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
