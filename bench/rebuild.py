"""Rebuild: a store's index and claim tables built again from L1, as the first writer after an upgrade builds them.

Per store, a fresh process removes ``index.db`` and ``L1/claims.db``, opens the index (which fills
it from L1 and L2) and then brings the claim tables up to date under the store lock (which counts
every atom again), as ingest does one after the other; its wall and CPU seconds are taken per
step. Baseline, in the same round-robin: a fresh interpreter reading ``atoms.jsonl`` and
``chunks.jsonl`` with a bare ``json.loads`` loop. The store is left as it was: both are derived,
and rebuilt alike.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Sequence

from .measure import Samples
from .report import Section, ratio, secs
from .stores import Store

GOAL_SECONDS = 10.0  # index and claim tables, at 100k atoms

_REBUILD = """
import json, sys, time
from agent_memory.claims import cache, tables
from agent_memory.config import load_config
from agent_memory.promote.gates import merge_similarity
from agent_memory.promote.tiers import open_index
from agent_memory.store import Paths, StoreLock, remove_database

paths = Paths.resolve(cwd=sys.argv[1])
remove_database(paths.index)
remove_database(tables.db_path(paths))
similarity = merge_similarity(load_config(paths.config))
taken = {}
wall, cpu = time.perf_counter(), time.process_time()
with open_index(paths) as index:
    taken["rows"] = index.count()
taken["index"] = (time.perf_counter() - wall, time.process_time() - cpu)
wall, cpu = time.perf_counter(), time.process_time()
with StoreLock(paths.store):
    taken["atoms"] = cache.catch_up(paths, similarity)
taken["claims"] = (time.perf_counter() - wall, time.process_time() - cpu)
print(json.dumps(taken))
"""

_LOOP = ("import json, sys, time\n"
         "wall, cpu = time.perf_counter(), time.process_time()\n"
         "for name in sys.argv[1:]:\n"
         "    with open(name, 'rb') as handle:\n"
         "        for line in handle:\n"
         "            json.loads(line)\n"
         "print(time.perf_counter() - wall, time.process_time() - cpu)\n")


def rebuild(store: Store) -> dict[str, object]:
    """Build the store's index and claim tables again in a fresh process; what it took, per step."""
    done = subprocess.run([sys.executable, "-c", _REBUILD, str(store.project)], capture_output=True, text=True,
                          check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def read_loop(store: Store) -> tuple[float, float]:
    """Baseline: (wall, CPU) seconds a fresh interpreter takes to parse every line of L1's atoms and chunks
    (its start left out, as the rebuild's is)."""
    l1 = store.store / "L1"
    done = subprocess.run([sys.executable, "-c", _LOOP, str(l1 / "atoms.jsonl"), str(l1 / "chunks.jsonl")],
                          capture_output=True, text=True, check=True)
    wall, cpu = done.stdout.split()
    return float(wall), float(cpu)


def run(stores: Sequence[Store], reps: int) -> Section:
    """The rebuild's seconds per store size, wall and CPU, beside the bare read of the same L1."""
    section = Section("rebuild", "4b. Rebuild (index and claim tables from L1)")
    section.say(
        "A fresh process removes the store's `index.db` and `L1/claims.db`, opens the index (filled from L1 and L2) "
        "and brings the claim tables up to date under the store lock (every atom counted again), as the first writer "
        "after an upgrade does; wall and CPU seconds per step, medians of up to "
        f"{reps} runs. Baseline in the same round-robin: a fresh interpreter parsing `atoms.jsonl` and `chunks.jsonl` "
        f"with a bare `json.loads` loop. Goal: index and claim tables ≤ {GOAL_SECONDS:.0f} s at 100k atoms.",
        "",
    )
    rows = []
    last: tuple[Store, float] | None = None
    for store in stores:
        runs = reps if store.atoms < 50_000 else min(reps, 3)  # a 100k rebuild takes tens of seconds
        took = {name: Samples() for name in ("index", "index_cpu", "claims", "claims_cpu", "loop", "loop_cpu")}
        for _ in range(runs):
            loop_wall, loop_cpu = read_loop(store)
            took["loop"].values.append(loop_wall)
            took["loop_cpu"].values.append(loop_cpu)
            found = rebuild(store)
            for step in ("index", "claims"):
                wall, cpu = found[step]  # type: ignore[misc]
                took[step].values.append(float(wall))
                took[f"{step}_cpu"].values.append(float(cpu))
        both = took["index"].median + took["claims"].median
        both_cpu = took["index_cpu"].median + took["claims_cpu"].median
        rows.append((f"{store.atoms:,}", f"{store.chunks:,}", f"{secs(took['loop'].median)} ({secs(took['loop_cpu'].median)})",
                     f"{secs(took['index'].median)} ({secs(took['index_cpu'].median)})",
                     f"{secs(took['claims'].median)} ({secs(took['claims_cpu'].median)})",
                     f"**{secs(both)}** ({secs(both_cpu)})", ratio(both / took["loop"].median),
                     ratio(both_cpu / took["loop_cpu"].median), str(runs)))
        last = (store, both)
    section.table(("L1 atoms", "chunks", "read L1 (baseline), wall (CPU)", "index, wall (CPU)",
                   "claim tables, wall (CPU)", "both, wall (CPU)", "× baseline, wall", "× baseline, CPU", "runs"), rows)
    if last is not None:
        store, both = last
        section.goal(f"rebuild of index and claim tables at {store.atoms:,} atoms", secs(both),
                     f"≤ {GOAL_SECONDS:.0f} s at 100k", both <= GOAL_SECONDS if store.atoms >= 50_000 else None)
    return section
