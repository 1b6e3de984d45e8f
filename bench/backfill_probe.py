"""One ingest or backfill in a process of its own, so its time and peak memory are its alone.

``python -m bench.backfill_probe --store DIR [--workers N | --serial] [--progress] PATH...`` prints
one JSON document: seconds, the report, the peak resident set of this process and of each worker.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Sequence


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    if path.exists():
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ingest (``--serial``) or backfill and print what it took."""
    parser = argparse.ArgumentParser(prog="python -m bench.backfill_probe")
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--store", required=True)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--serial", action="store_true", help="agent_memory.ingest.ingest, not backfill")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)

    from agent_memory.backfill import backfill, peak_rss_kb
    from agent_memory.ingest import ingest
    from agent_memory.store import Paths

    paths = Paths.resolve(memory_dir=args.store, cwd=str(Path(args.store).parent))
    started, cpu = time.perf_counter(), time.process_time()
    if args.serial:
        report = ingest(paths, args.paths)
        workers: dict[int, int] = {}
        count = 0
    else:
        report = backfill(paths, args.paths, workers=args.workers, progress=args.progress)
        workers = report.worker_peak_kb
        count = report.workers
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    json.dump({
        "seconds": seconds,
        "writer_cpu": cpu,
        "workers_cpu": sum(report.worker_cpu.values()),
        "workers": count,
        "report": {**report.as_json(), "chunks_added": report.chunks_added, "files": report.files,
                   "errors": len(report.errors)},
        "writer_peak_kb": peak_rss_kb(),
        "worker_peak_kb": {str(k): v for k, v in workers.items()},
        "atoms_sha256": _sha256(paths.atoms),
        "chunks_sha256": _sha256(paths.chunks),
    }, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
