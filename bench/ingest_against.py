"""Whole ingest against another revision: loop ÷ ingest, CPU and wall, each tree in fresh processes, alternating.

``python -m bench.ingest_against [--corpus DIR] [--against REV] [--rounds N] [--reps K]`` ingests a transcript
corpus (default: the synthetic mixed history ``bench.throughput`` ingests, written when missing) with this tree
and with ``REV`` (default ``main``, unpacked by ``git archive``), a fresh process per tree and round, alternating.
Each process warms up on the corpus's first file (imports, and the patterns that text reaches compiled), then
times a bare ``json.loads`` loop over every line and ``ingest()`` into a fresh store ``K`` times, keeping the
least CPU and the least wall time of each: a loaded machine slows a run, never speeds it. Medians over the rounds
of the ratios and of ingest's seconds, with each round's ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _side(corpus: str, reps: int, work: str) -> dict[str, float]:
    """One fresh process's least CPU and wall seconds for the loop and for ingest (the tree under test first on the
    path)."""
    import agent_memory
    from agent_memory.ingest import ingest
    from agent_memory.store import Paths
    from agent_memory.transcripts import iter_transcript_files
    from bench.throughput import json_loop

    assert Path(agent_memory.__file__).resolve().is_relative_to(Path.cwd().resolve()), "the tree under test"

    files = [str(p) for p in iter_transcript_files([corpus])]

    def store(name: str) -> Paths:
        project = Path(work) / name
        (project / ".git").mkdir(parents=True)
        return Paths.resolve(cwd=str(project))

    ingest(store("warm"), files[:1])
    loops, ingests, loop_walls, ingest_walls = [], [], [], []
    for rep in range(reps):
        started, wall = time.process_time(), time.perf_counter()
        json_loop(files)
        loops.append(time.process_time() - started)
        loop_walls.append(time.perf_counter() - wall)
        paths = store(f"run-{rep}")
        started, wall = time.process_time(), time.perf_counter()
        ingest(paths, [corpus])
        ingests.append(time.process_time() - started)
        ingest_walls.append(time.perf_counter() - wall)
    return {"loop": min(loops), "ingest": min(ingests), "loop_wall": min(loop_walls), "ingest_wall": min(ingest_walls)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ingest_against", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", help="a transcript folder (default: the synthetic mixed history)")
    parser.add_argument("--against", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--side", help=argparse.SUPPRESS)  # one process's figures, as JSON on stdout
    parser.add_argument("--work", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.side:
        print(json.dumps(_side(args.side, args.reps, args.work)))
        return 0
    from bench.throughput import mixed_corpus

    corpus = str(Path(args.corpus or mixed_corpus()).resolve())  # the processes run in each tree
    from bench.same_output import _unpack

    runs: dict[str, list[dict[str, float]]] = {"this": [], args.against: []}
    with tempfile.TemporaryDirectory(prefix="ingest-against-") as other:
        _unpack(args.against, Path(other) / "tree")
        for _ in range(args.rounds):
            for side, tree in (("this", REPO), (args.against, Path(other) / "tree")):
                with tempfile.TemporaryDirectory(prefix="stores-", dir=other) as work:
                    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--side", corpus, "--reps",
                                          str(args.reps), "--work", work], cwd=str(tree), check=True,
                                         env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.PIPE, text=True)
                runs[side].append(json.loads(out.stdout))
    print(f"ingest of {corpus}: seconds, least of {args.reps} per process, medians of {args.rounds} processes")
    for clock, loop, took in (("CPU", "loop", "ingest"), ("wall", "loop_wall", "ingest_wall")):
        print(f"{clock}: {'tree':10s} {'loop':>7s} {'ingest':>7s} {'loop÷ingest':>12s}  (each round)")
        for side, rows in runs.items():
            ratios = [r[loop] / r[took] for r in rows]
            print(f"{'':{len(clock) + 2}s}{side:10s} {statistics.median(r[loop] for r in rows):7.3f} "
                  f"{statistics.median(r[took] for r in rows):7.3f} {statistics.median(ratios):11.3f}×  "
                  + ", ".join(f"{x:.2f}" for x in ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
