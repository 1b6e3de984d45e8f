"""The team gate over many exported rows: DuckDB beside SQLite (and Spark local mode with ``--spark``).

``python -m bench.team [--rows 1000000] [--people 40] [--spark]`` writes a seeded synthetic team's exports
(one JSONL file per person, shaped as ``agent-memory export`` writes them), then runs the gate once per engine,
each in a fresh process so its peak RSS is its own: seconds, rows per second and peak RSS, with a bare
``json.loads`` pass over the same files as the same-run baseline. Prints a Markdown section for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .report import Section

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPOSITORY = "0123456789abcdef"
GATE = {"people": 3, "sessions": 3, "days": 2, "stated_sessions": 3, "stated_days": 2}
WORDS = ("run", "lint", "test", "build", "deploy", "migration", "branch", "release", "pnpm", "docker", "cache",
         "review", "commit", "rebase", "staging", "schema", "api", "log", "config", "worker", "queue", "index")


def _hex(*parts: object) -> str:
    return hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:16]


def write_exports(folder: Path, rows: int, people: int, seed: int = 7) -> list[Path]:
    """A team's exports: claims of Zipf-like popularity, each person's sessions over 120 days, a few
    contested claims and pasted blocks."""
    rng = random.Random(seed)
    claims = [" ".join(rng.sample(WORDS, rng.randint(3, 6))) for _ in range(max(50, rows // 40))]
    weights = [1 / (n + 1) for n in range(len(claims))]
    folder.mkdir(parents=True, exist_ok=True)
    per_person = rows // people
    files = []
    for who in range(people):
        person = _hex("person", who)
        path = folder / f"person-{who:03d}.jsonl"
        picked = rng.choices(range(len(claims)), weights=weights, k=per_person + (rows % people if who == 0 else 0))
        with open(path, "w", encoding="utf-8") as out:
            for n, c in enumerate(picked):
                day = 1 + rng.randrange(120)
                stamp = f"2026-{1 + (day - 1) // 30:02d}-{1 + (day - 1) % 30:02d}"
                session = _hex("session", who, day, rng.randrange(3))
                row = {"claim": claims[c], "kind": "instruction", "ts": f"{stamp}T{n % 24:02d}:00:00Z", "day": stamp,
                       "session": session, "project": REPOSITORY, "person": person,
                       "block": _hex("block", c) if c % 97 == 5 else "", "stated": int(c % 11 == 0), "redacted": 0,
                       "contested": int(c % 53 == 7 and who % 5 == 0), "text": claims[c].capitalize()}
                out.write(json.dumps(row) + "\n")
        files.append(path)
    return files


def _one(engine: str, folder: str) -> None:
    """Child process: run one engine once and print seconds and peak RSS (KiB) as JSON."""
    from agent_memory.team.gate import export_files, run_gate

    files = export_files([folder])
    started = time.perf_counter()
    if engine == "json":  # the baseline: every row parsed, nothing else
        count = 0
        for path in files:
            with open(path, "rb") as handle:
                for line in handle:
                    json.loads(line)
                    count += 1
        passing = 0
    else:
        evidence = run_gate(files, REPOSITORY, GATE, engine)
        count, passing = evidence.rows, len(evidence.passing())
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # Spark's JVM
    print(json.dumps({"seconds": seconds, "rows": count, "passing": passing, "rss_kib": max(peak, children)}))


def measure(engine: str, folder: Path) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-m", "bench.team", "--child", engine, str(folder)],
                          capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(rows: int, people: int, spark: bool = False) -> "Section":
    """The team gate as a ``python -m bench`` section: each engine beside a bare ``json.loads`` pass, same run."""
    import importlib.util

    from .report import Section, ratio, secs

    section = Section("team", "7. Team gate")
    engines = ["json", "sqlite"] + [e for e, module in (("duckdb", "duckdb"), ("spark", "pyspark"))
                                    if (e != "spark" or spark) and importlib.util.find_spec(module) is not None]
    section.say(f"`agent-memory team promote`'s gate (`claims/evidence.py`'s statement) over {rows:,} exported rows from "
                f"{people} people (a seeded synthetic team, as `agent-memory export` writes them), one fresh process "
                f"per engine; baseline: a bare `json.loads` pass over the same files. Engines not installed are left "
                f"out (`pip install -e '.[team]'` for DuckDB, `[spark]` and a Java runtime for Spark, `--team-spark`).",
                "")
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "exports"
        write_exports(folder, rows, people)
        found = {engine: measure(engine, folder) for engine in engines}
    base = found["json"]["seconds"]
    section.table(("engine", "time", "rows/s", "× json.loads pass", "peak RSS", "claims passing"),
                  [("bare json.loads pass (baseline)" if e == "json" else e, secs(g["seconds"]),
                    f"{g['rows'] / g['seconds']:,.0f}", ratio(g["seconds"] / base), f"{g['rss_kib'] / 1024:.0f} MiB",
                    "—" if e == "json" else f"{g['passing']:,}") for e, g in found.items()])
    agree = {g["passing"] for e, g in found.items() if e != "json"}
    section.goal("team gate engines agree on the passing claims", "yes" if len(agree) == 1 else "no", "identical",
                 len(agree) == 1)
    return section


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--people", type=int, default=40)
    parser.add_argument("--spark", action="store_true", help="also Spark local mode (JVM start included)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _one(*args.child)
        return 0
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "exports"
        started = time.perf_counter()
        files = write_exports(folder, args.rows, args.people)
        size = sum(p.stat().st_size for p in files)
        made = time.perf_counter() - started
        engines = ["json", "duckdb", "sqlite"] + (["spark"] if args.spark else [])
        found = {engine: measure(engine, folder) for engine in engines}
    base = found["json"]["seconds"]
    print(f"{args.rows:,} rows from {args.people} people ({size / 2**20:.0f} MiB of JSONL, written in {made:.1f} s)\n")
    print("| engine | seconds | rows/s | × json.loads pass | peak RSS | claims passing |")
    print("|---|---|---|---|---|---|")
    for engine, got in found.items():
        name = "bare json.loads pass (baseline)" if engine == "json" else engine
        print(f"| {name} | {got['seconds']:.2f} | {got['rows'] / got['seconds']:,.0f} | {got['seconds'] / base:.2f}× "
              f"| {got['rss_kib'] / 1024:.0f} MiB | {got['passing'] if engine != 'json' else '—'} |")
    agree = {got["passing"] for engine, got in found.items() if engine != "json"}
    print(f"\nengines agree on the passing claims: {'yes' if len(agree) == 1 else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
