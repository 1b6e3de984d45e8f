"""What finding markers costs: the rules on a corpus's person turns, and importing them, against another revision.

``python -m bench.markers_speed [--corpus DIR|TSV] [--against REV] [--rounds N]`` reads the person turns of a
transcript corpus (default: the synthetic mixed history ``bench.throughput`` ingests, written when missing), or the
rows of a labelled ``turns.tsv``, and,
in fresh processes alternating between this tree and ``REV`` (default ``main``, unpacked by ``git archive``),
times in CPU seconds: importing ``agent_memory.markers``, ``find_markers`` on every turn the first time (patterns
compiled as they are reached), the same again warm, and a bare ``json.loads`` loop over the corpus's lines, so
each figure is also a same-run ratio to the loop. Medians over the rounds; it says whether the markers are the same
(a change of the rules makes them differ, and the run exit 1).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _side(corpus: str) -> dict[str, float | str]:
    """One fresh process's figures (run with the tree under test first on the path)."""
    from agent_memory import redact
    from agent_memory.transcripts import iter_transcript_files
    from agent_memory.agents.reading import read_transcript
    from bench.throughput import json_loop

    if corpus.endswith(".tsv"):  # labelled person turns (bench/data/real_turns/turns.tsv): no transcript to parse
        from bench.extraction import load_turns

        turns = [redact.neutralise(row.text) for row in load_turns(Path(corpus))]
        loop = time.process_time()
        json.loads(json.dumps(turns))
        loop = time.process_time() - loop
    else:
        files = [str(p) for p in iter_transcript_files([corpus])]
        turns = [redact.neutralise(t.text) for f in files for t in read_transcript(f).turns if t.role == "user"]
        loop = time.process_time()
        json_loop(files)
        loop = time.process_time() - loop
    started = time.process_time()
    from agent_memory.markers import find_markers

    imported = time.process_time() - started
    first = time.process_time()
    found = [find_markers(t) for t in turns]
    first = time.process_time() - first
    warm = time.process_time()
    for t in turns:
        find_markers(t)
    warm = time.process_time() - warm
    digest = hashlib.sha256(json.dumps([[vars(m) for m in f] for f in found], sort_keys=True).encode()).hexdigest()
    return {"turns": len(turns), "loop": loop, "import": imported, "first": first, "warm": warm,
            "markers": sum(map(len, found)), "digest": digest}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.markers_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", help="a transcript folder, or a labelled turns.tsv (default: the synthetic mixed history)")
    parser.add_argument("--against", default="main", help="the revision to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--side", help=argparse.SUPPRESS)  # one process's figures, as JSON on stdout
    args = parser.parse_args(argv)
    if args.side:
        print(json.dumps(_side(args.side)))
        return 0
    from bench.throughput import mixed_corpus

    corpus = str(Path(args.corpus or mixed_corpus()).resolve())  # the processes run in each tree
    from bench.same_output import _unpack

    with tempfile.TemporaryDirectory(prefix="markers-speed-") as other:
        _unpack(args.against, Path(other))
        runs: dict[str, list[dict[str, float | str]]] = {"this": [], args.against: []}
        for _ in range(args.rounds):
            for side, tree in (("this", REPO), (args.against, Path(other))):
                out = subprocess.run([sys.executable, __file__, "--side", corpus], cwd=str(tree), check=True,
                                     env={**os.environ, "PYTHONPATH": str(tree)}, stdout=subprocess.PIPE, text=True)
                runs[side].append(json.loads(out.stdout))
    print(f"{runs['this'][0]['turns']} person turns of {corpus}; CPU seconds, medians of {args.rounds} fresh processes")
    print(f"{'tree':10s} {'import':>8s} {'first':>8s} {'warm':>8s} {'loop':>8s} {'warm÷loop':>10s} markers")
    for side, rows in runs.items():
        med = {k: statistics.median(float(r[k]) for r in rows) for k in ("import", "first", "warm", "loop")}
        ratio = statistics.median(float(r["warm"]) / float(r["loop"]) for r in rows)
        print(f"{side:10s} {med['import']:8.3f} {med['first']:8.3f} {med['warm']:8.3f} {med['loop']:8.3f} "
              f"{ratio:10.3f} {rows[0]['markers']}")
    same = {r["digest"] for rows in runs.values() for r in rows}
    print("markers: same" if len(same) == 1 else "markers: DIFFER")
    return 0 if len(same) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
