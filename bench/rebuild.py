"""Rebuild: a store's claim tables and index built again from L1, by ``agent-memory reindex``.

Per store, ``index.db`` and ``L1/claims.db`` are removed and ``agent-memory reindex`` builds both
(at once, the index in a forked child, where the chunks are not many times the atoms; else the claim
tables first, then the index); beside it, a fresh process takes the same two steps timed one by one. Wall and CPU seconds (CPU of the process and of the workers it forks); baseline
in the same round-robin: a fresh interpreter reading ``atoms.jsonl`` and ``chunks.jsonl`` with a
bare ``json.loads`` loop. The store is left as it was: both are derived, and rebuilt alike.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Sequence

from .measure import Samples
from .report import Section, ratio, secs
from .stores import Store

GOAL_SECONDS = 10.0  # index and claim tables, at 100k atoms

_REBUILD = """
import json, os, sys, time
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
def cpu():  # this process and the workers it forked and reaped
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
wall, used = time.perf_counter(), cpu()
with StoreLock(paths.store):
    taken["atoms"] = cache.catch_up(paths, similarity)
taken["claims"] = (time.perf_counter() - wall, cpu() - used)
wall, used = time.perf_counter(), cpu()
with open_index(paths) as index:
    taken["rows"] = index.count()
taken["index"] = (time.perf_counter() - wall, cpu() - used)
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


def reindex(store: Store) -> tuple[float, float]:
    """``agent-memory reindex`` in the project with no index and no claim tables: (wall, CPU) seconds of the whole
    command, its start and the workers it forks included."""
    import resource

    from agent_memory.claims.tables import db_path
    from agent_memory.store import Paths, remove_database

    paths = Paths.resolve(cwd=str(store.project))
    remove_database(paths.index)
    remove_database(db_path(paths))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agent_memory", "reindex"], cwd=store.project, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
        "`agent-memory reindex` in the project after its `index.db` and `L1/claims.db` were removed: it counts the "
        "claim tables again from L1 under the store lock while a forked child fills the index from L1 and L2 (where "
        "the chunks are more than four times the atoms, one after the other), as the first writer after an upgrade "
        "would build them; the whole command, its start included. Beside it, the same two steps in one fresh "
        "process, one after the other, each timed. Wall and CPU seconds (CPU of the process and of the workers it forks), "
        f"medians of up to {reps} runs. Baseline in the same round-robin: a fresh interpreter parsing `atoms.jsonl` and "
        f"`chunks.jsonl` with a bare `json.loads` loop. Goal: both at 100k atoms in ≤ {GOAL_SECONDS:.0f} s.",
        "",
    )
    rows = []
    last: tuple[Store, float] | None = None
    names = ("loop", "loop_cpu", "claims", "claims_cpu", "index", "index_cpu", "command", "command_cpu")
    for store in stores:
        runs = reps if store.atoms < 50_000 else min(reps, 3)  # a 100k rebuild takes tens of seconds
        took = {name: Samples() for name in names}
        for _ in range(runs):
            found = rebuild(store)
            for step in ("claims", "index"):
                wall, cpu = found[step]  # type: ignore[misc]
                took[step].values.append(float(wall))
                took[f"{step}_cpu"].values.append(float(cpu))
            for name, (wall, cpu) in (("loop", read_loop(store)), ("command", reindex(store))):
                took[name].values.append(wall)
                took[f"{name}_cpu"].values.append(cpu)
        med = {name: took[name].median for name in names}
        rows.append((f"{store.atoms:,}", f"{store.chunks:,}", f"{secs(med['loop'])} ({secs(med['loop_cpu'])})",
                     f"{secs(med['claims'])} ({secs(med['claims_cpu'])})", f"{secs(med['index'])} ({secs(med['index_cpu'])})",
                     f"**{secs(med['command'])}** ({secs(med['command_cpu'])})", ratio(med["command"] / med["loop"]),
                     ratio(med["command_cpu"] / med["loop_cpu"]), str(runs)))
        last = (store, med["command"])
    section.table(("L1 atoms", "chunks", "read L1 (baseline), wall (CPU)", "claim tables, wall (CPU)",
                   "index, wall (CPU)", "`agent-memory reindex`, wall (CPU)", "× baseline, wall", "× baseline, CPU",
                   "runs"), rows)
    if last is not None:
        store, wall = last
        section.goal(f"rebuild of claim tables and index (`agent-memory reindex`) at {store.atoms:,} atoms", secs(wall),
                     f"≤ {GOAL_SECONDS:.0f} s at 100k", wall <= GOAL_SECONDS if store.atoms >= 50_000 else None)
    return section
