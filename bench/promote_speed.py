"""Promote: the dry run's seconds at each store size, and how they grow (log-log slope).

The dry run is the command a person types, ``agent-memory promote``, in a fresh process, timed on
a store as ingest and ``promote --write`` leave it, claim tables included (a store built before
the tables existed is brought up to date first, as its next writer would); ``promote --json``
(every refusal) beside it, and once each the pass without claim tables and a ``promote --write``
that finds nothing new.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from .measure import Samples, interleaved_calls, loglog_slope, time_call
from .profiling import profile_call
from .report import Section, ratio, secs
from .stores import Store

GOAL_SECONDS = 1.0  # at 100k atoms
GOAL_SLOPE = 1.1  # near-linear
SLOW = 20.0  # a dry run slower than this is timed fewer times
PROFILE_LIMIT = 60.0  # seconds: a slower dry run is not profiled (cProfile would double it)


_LOOP = ("import json, sys\n"
         "with open(sys.argv[1], 'rb') as handle:\n"
         "    for line in handle:\n"
         "        json.loads(line)\n")


def _read_atoms(store: Store) -> None:
    """Baseline: a fresh interpreter parsing every L1 atom with a bare json.loads loop."""
    subprocess.run([sys.executable, "-c", _LOOP, str(store.store / "L1" / "atoms.jsonl")], check=True)


def _command(store: Store, *args: str) -> None:
    """``agent-memory promote ARGS`` as a person runs it in the project (a fresh process, output discarded)."""
    subprocess.run([sys.executable, "-m", "agent_memory", "promote", *args], cwd=store.project, check=True,
                   stdout=subprocess.DEVNULL)


def _writer_step(paths: Any) -> float:
    """What ingest or ``promote --write`` does to the claim tables: bring them up to date; seconds taken."""
    from agent_memory.claims import cache as claimcache
    from agent_memory.config import load_config
    from agent_memory.store import StoreLock

    similarity = float(load_config(paths.config)["identity"]["merge_similarity"])
    started = time.perf_counter()
    with StoreLock(paths.store):
        claimcache.catch_up(paths, similarity)
    return time.perf_counter() - started


def _without_cache(paths: Any, call: Any) -> float:
    """One dry run with the claim tables moved aside (as on a store no writer has touched since upgrading)."""
    from agent_memory.claims.tables import db_path

    cache: Path = db_path(paths)
    if not cache.exists():
        return time_call(call)
    aside = cache.with_name(cache.name + ".aside")
    os.replace(cache, aside)
    try:
        return time_call(call)
    finally:
        os.replace(aside, cache)


def _stage_again(paths: Any) -> float:
    """``promote --write`` when nothing changed since the last one (the session-end worker's usual pass)."""
    from agent_memory.promote import stage

    stage(paths)
    return time_call(lambda: stage(paths))


def run(stores: Sequence[Store], reps: int, profile: bool = True) -> Section:
    """``agent-memory promote`` (and ``--json``) as a person runs them, per store size."""
    from agent_memory.cli.promote import SHOWN_BLOCKED as SHOWN
    from agent_memory.promote import plan
    from agent_memory.store import Paths

    section = Section("promote", "4. Promote (dry run)")
    section.say(
        f"`agent-memory promote` — the dry run as a person types it, in the project, a fresh process each time: read "
        f"the claim tables, build the claims the gates need whole, gate the rest on their counts, print every "
        f"proposal, the counts and the {SHOWN} refusals to act on first — and `agent-memory promote --json`, which "
        f"gives every refusal; medians of up to {reps} runs. Baseline: a fresh interpreter reading the same "
        f"`L1/atoms.jsonl` with a bare `json.loads` loop, in the same round-robin. Goal: ≤ {GOAL_SECONDS:.0f} s at "
        f"100k atoms and near-linear growth (log-log slope ≤ {GOAL_SLOPE}).",
        "",
    )
    rows = []
    extra_rows = []
    sizes: list[float] = []
    medians: list[float] = []
    for store in stores:
        paths = Paths.resolve(cwd=str(store.project))
        caught_up = _writer_step(paths)
        cold = _without_cache(paths, lambda paths=paths: plan(paths, every=False).listing(SHOWN))
        restaged = _stage_again(paths)
        extra_rows.append((f"{store.atoms:,}", secs(caught_up), secs(cold), secs(restaged)))
        found = plan(paths, every=False)
        first = time_call(lambda store=store: _command(store))
        # a slow dry run counts its first run and is timed fewer times
        runs = reps if first < SLOW else 2
        samples = interleaved_calls({"read": lambda store=store: _read_atoms(store),
                                     "plan": lambda store=store: _command(store),
                                     "json": lambda store=store: _command(store, "--json")}, runs)
        med: Samples = samples["plan"]
        if first >= SLOW:
            med.values.append(first)
        sizes.append(store.atoms)
        medians.append(med.median)
        rows.append((f"{store.atoms:,}", f"{len(found.proposals):,}", f"{len(found.blocked):,}", secs(samples["read"].median),
                     secs(med.median), ratio(med.median / samples["read"].median), f"{secs(med.low)}–{secs(med.high)}",
                     secs(samples["json"].median), str(len(med.values))))
    section.table(("L1 atoms", "proposals", "blocked", "read L1 (baseline)", "`promote`", "× baseline", "range",
                   "`promote --json`", "runs"), rows)
    section.say("Once each, in-process, beside it: bringing the claim tables up to date before timing (a writer's step; "
                "the whole tables when the store had none), the dry run's pass with no claim tables (every claim built "
                "from every atom), and `promote --write` when nothing changed since the last one.", "")
    section.table(("L1 atoms", "tables brought up to date", "dry run, no tables", "promote --write, nothing new"),
                  extra_rows)
    if stores and stores[-1].atoms >= 90_000:
        section.goal(f"promote --write with nothing new at {stores[-1].atoms:,} atoms", secs(restaged),
                     f"≤ {GOAL_SECONDS:.0f} s at 100k", restaged <= GOAL_SECONDS)
    slope = loglog_slope(sizes, medians)
    if len(sizes) >= 2:
        section.say(f"Growth exponent (least-squares slope of log seconds over log atoms, {len(sizes)} sizes): "
                    f"**{slope:.2f}**.", "")
    if stores:
        largest = stores[-1]
        at = medians[-1]
        section.goal(f"promote dry run at {largest.atoms:,} atoms", secs(at), f"≤ {GOAL_SECONDS:.0f} s at 100k",
                     at <= GOAL_SECONDS if largest.atoms >= 90_000 else None)
        if len(sizes) >= 2:
            section.goal("promote growth exponent", f"{slope:.2f}", f"≤ {GOAL_SLOPE} (near-linear)", slope <= GOAL_SLOPE)
        if profile and (at > GOAL_SECONDS or (len(sizes) >= 2 and slope > GOAL_SLOPE)):
            # cProfile doubles a run: profile the largest store whose dry run stays under a minute
            pick = max((i for i, m in enumerate(medians) if m < PROFILE_LIMIT), default=0)
            paths = Paths.resolve(cwd=str(stores[pick].project))
            note = "" if pick == len(stores) - 1 else (f" (the {largest.atoms:,}-atom run takes {secs(at)}; the profile "
                                                       f"is of the largest store under {PROFILE_LIMIT:.0f} s)")
            section.profiles.append("\n".join([f"### Promote dry run at {stores[pick].atoms:,} atoms{note}", "",
                                               *profile_call(lambda: plan(paths, every=False).listing(SHOWN))]))
    return section
