"""``agent-memory status``: is the memory working? What fail-open hooks hide, made visible.

Per agent: transcripts found for this project, how many are ingested, how many wait for
catch-up, and when the newest was ingested. Hook errors swallowed since the last clean run
(from ``logs/errors.log``), hook timings (from the bounded ``logs/hooks.log``), store sizes,
the records quarantined (a secret cut out: atoms and past-session chunks), proposals waiting
and open contradictions. Healthy means: no hook error since the last clean run, no hook
whose latest run failed, and not sessions going on while nothing is ingested.
Reads only; writes nothing.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from pathlib import Path
from typing import Any

from .fastjson import JSON_ERRORS
from . import hooklog
from .clock import epoch
from .errors import StoreError
from .config import load_config
from .store import Paths, read_json

def _percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(len(ordered) * share))
    return round(ordered[rank - 1], 1)


def _iso_ns(ns: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ns / 1e9))


def agents(paths: Paths) -> list[dict[str, Any]]:
    """Per agent: this project's transcripts in the agent's own folders, ingested, waiting, newest ingested."""
    from .agents import NAMES
    from .hooks import project_transcripts, recorded_sigs

    found = []
    for agent in NAMES:
        candidates = project_transcripts(paths, agent, {"cwd": str(paths.project_root)})
        if not candidates:
            continue
        recorded = recorded_sigs(paths, sorted({os.path.dirname(c) for c in candidates}))
        waiting, ingested, newest = 0, 0, 0
        for name in candidates:
            try:
                stat = os.stat(name)
            except OSError:
                continue
            sig = recorded.get(name)
            if isinstance(sig, list) and len(sig) == 2:
                ingested += 1
                newest = max(newest, int(sig[1]))
            if stat.st_size and sig != [stat.st_size, stat.st_mtime_ns]:
                waiting += 1
        found.append({"agent": agent, "transcripts": len(candidates), "ingested": ingested, "waiting": waiting,
                      "last_ingest": _iso_ns(newest) if newest else ""})
    return found


def _last_error(paths: Paths) -> dict[str, str] | None:
    try:
        with open(paths.errors_log, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, size - 16384))
            lines = handle.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            record = json.loads(line)
        except JSON_ERRORS:
            continue
        if isinstance(record, dict):
            return {"at": str(record.get("at", "")), "where": str(record.get("where", "")), "error": str(record.get("error", ""))}
    return None


def hook_timings(found: list[hooklog.Run]) -> list[dict[str, Any]]:
    """Per hook event: runs on record, how many logged errors, p50/p95 in ms, the latest run."""
    rows = []
    for event in hooklog.EVENTS:
        mine = [r for r in found if r.event == event]
        if not mine:
            continue
        times = [r.ms for r in mine]
        rows.append({"event": event, "runs": len(mine), "failed": sum(1 for r in mine if r.errors),
                     "p50_ms": _percentile(times, 0.5), "p95_ms": _percentile(times, 0.95),
                     "last_at": mine[-1].at, "last_ok": mine[-1].errors == 0})
    return rows


def _bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def _lines(path: Path) -> int:
    try:
        with open(path, "rb") as handle:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    except OSError:
        return 0


# A record's own "redacted" key, as the store writes it (compact, sorted keys): inside a JSON string every quote is
# escaped, so a quote right after "{" or "," is never a person's text that happens to say it.
_REDACTED = re.compile(rb'[{,]"redacted":true[,}]')


def _redacted(path: Path) -> int:
    """Records of an L1 file with a secret cut out, counted from the bytes (status reads L1 without parsing it)."""
    try:
        with open(path, "rb") as handle:
            total, carry = 0, b""
            for block in iter(lambda: handle.read(1 << 20), b""):
                data = carry + block
                cut = data.rfind(b"\n") + 1  # whole lines only: a match never straddles two reads
                total += len(_REDACTED.findall(data, 0, cut))
                carry = data[cut:]
            return total + len(_REDACTED.findall(carry))
    except OSError:
        return 0


def _adopted(path: Path, problems: list[str]) -> int:
    from .promote.tiers import load_claims

    try:
        return sum(1 for r in load_claims(path) if not r.get("retired"))
    except Exception as exc:  # noqa: BLE001 - an unreadable tier is a finding, not a crash
        problems.append(f"{path.name} cannot be read: {exc}")
        return 0


def sizes(paths: Paths, problems: list[str]) -> dict[str, int]:
    """What the store holds, in records and bytes (an unreadable tier adds to ``problems``)."""
    return {
        "atoms": _lines(paths.atoms),
        "quarantined": _redacted(paths.atoms) + _redacted(paths.chunks),
        "adopted_l2": _adopted(paths.l2, problems),
        "adopted_l3": _adopted(paths.l3, problems),
        "l1_bytes": _bytes(paths.l1_dir),
        "index_bytes": sum(_bytes(paths.store / n) for n in ("index.db", "index.db-wal", "index.db-shm")),
        "backups_bytes": _bytes(paths.backups),
        "logs_bytes": _bytes(paths.logs),
    }


def unknown_records(paths: Paths) -> dict[str, int]:
    """Records of a shape no reader knows (a newer CLI's), dropped at ingest, by agent and CLI version."""
    from .ingest import unknown_records as of_entry

    try:
        state = read_json(paths.ingested, {})
    except StoreError:
        return {}  # (an unreadable store is what the sizes report)
    total: dict[str, int] = {}
    for entry in state.values() if isinstance(state, dict) else ():
        for label, n in of_entry(entry).items():
            total[label] = total.get(label, 0) + n
    return dict(sorted(total.items()))


def status(paths: Paths) -> dict[str, Any]:
    """The health of this project's memory (the ``status --json`` shape)."""
    store = str(paths.store)
    problems: list[str] = []
    config = load_config(paths.config)
    found = hooklog.runs(store)
    new = hooklog.new_errors(store, found)
    last = _last_error(paths)
    timings = hook_timings(found)
    if new:
        said = f" (last: {last['where']}: {last['error'][:120]})" if last else ""
        problems.append(f"{new} hook error{'s' if new != 1 else ''} since the last clean run{said}")
    for row in timings:
        if not row["last_ok"]:
            problems.append(f"the latest {row['event']} run logged an error")
    ingested_at = hooklog.last_ingest(str(paths.ingested))
    starts = hooklog.starts_since(found, ingested_at)
    days = float(config["health"]["ingest_days"])
    latest, then = (epoch(found[-1].at) if found else None), (epoch(ingested_at) if ingested_at else None)
    if len(starts) >= 2 and latest is not None and (then is None or latest - then >= days * 86400):
        when = f"since {ingested_at[:10]}" if ingested_at else "yet"
        problems.append(f"nothing ingested {when} while {len(starts)} sessions started")
    proposals = len(list(paths.staged.glob("*.md"))) if paths.staged.is_dir() else 0
    before = len(problems)
    held = sizes(paths, problems)
    contested = 0
    if paths.store.is_dir() and len(problems) == before:  # an unreadable tier already said why the pass cannot run
        try:
            from .promote import plan

            contested = sum(1 for c in plan(paths, config).claims if c.contested)
        except Exception as exc:  # noqa: BLE001 - a store the pass cannot read is what status is for
            problems.append(f"the claims cannot be read: {exc}")
    return {
        "healthy": not problems,
        "problems": problems,
        "store": store,
        "store_exists": paths.store.is_dir(),
        "last_ingest": ingested_at,
        "agents": agents(paths),
        "errors": {"total": hooklog.errors_since(store, 0), "new": new, "last": last},
        "hooks": timings,
        "sizes": held,
        "proposals": proposals,
        "contested": contested,
        "unknown_records": unknown_records(paths),
    }
