"""session-end and catching up: hand the session's transcript, or the project's unread ones, to the worker."""

from __future__ import annotations

import os
import time

from .. import agents, fastjson
from .cache import RECORDED_FILE, HookCache, budget_of, cached_config, stat_key, version
from .where import log, text_field

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

    from ..layout import Layout
    from .where import AnyPaths


CATCHUP_FILES = 200
# an agent may fire its session-end hook a moment before it has written the transcript it names (Copilot CLI
# writes events.jsonl as it stops): the hook waits this long for it, within its budget
TRANSCRIPT_WAIT = 0.5


def _written(transcript: str, until: float) -> bool:
    """Whether the transcript exists, waiting until ``until`` (monotonic) for it to appear."""
    while not os.path.isfile(transcript):
        if time.monotonic() >= until:
            return False
        time.sleep(0.05)
    return True


def session_end(where: "AnyPaths", agent: str, payload: "dict[str, Any]", config: "dict[str, Any]", started: float) -> None:
    me = agents.get(agent)
    transcript = me.session_transcript(payload)
    if not transcript:
        log(where, "hook session-end", "no transcript_path in the hook input")
        return
    budget = budget_of(config, "session_end_seconds", 1.0)
    if not _written(transcript, started + min(TRANSCRIPT_WAIT, budget / 2)):
        log(where, "hook session-end", f"transcript not found: {transcript}")
        return
    stage = me.session_stage(payload)
    from . import worker

    worker.run_worker(where, [os.path.abspath(transcript)], stage, budget - (time.monotonic() - started))


def catch_up(where: "Layout", agent: str, payload: "dict[str, Any]", cache: HookCache) -> None:
    """Hand the project's transcripts that were never ingested, or grew since, to a worker."""
    try:
        pending = pending_transcripts(where, agent, payload, HookCache(where.l1_dir, RECORDED_FILE))
    except Exception as exc:
        log(where, "hook session-start catch-up", exc)
        return
    if pending:
        budget = budget_of(cached_config(where, cache), "catchup_seconds", 0.5)
        from . import worker  # only when there is work: session-start does not load it otherwise

        worker.run_worker(where, pending, "new", budget)


def pending_transcripts(paths: "AnyPaths", agent: str, payload: "dict[str, Any]", cache: HookCache | None = None) -> list[str]:
    """Transcripts of this project whose size or mtime differs from what ``L1/ingested.json`` recorded."""
    candidates = project_transcripts(paths, agent, payload)
    if not candidates:
        return []
    recorded = recorded_sigs(paths, sorted({os.path.dirname(c) for c in candidates}), cache)
    pending: list[tuple[int, str]] = []
    for key in candidates:
        try:
            stat = os.stat(key)
        except OSError:
            continue
        if stat.st_size == 0 or recorded.get(key) == [stat.st_size, stat.st_mtime_ns]:
            continue
        pending.append((stat.st_mtime_ns, key))
    pending.sort(reverse=True)  # newest first: the sessions most worth having
    return [p for _m, p in pending[:CATCHUP_FILES]]


def recorded_sigs(paths: "AnyPaths", folders: list[str], cache: HookCache | None = None) -> "dict[str, Any]":
    """``[size, mtime_ns]`` that ``L1/ingested.json`` recorded for each transcript in ``folders``.

    Remembered per folder set while ``ingested.json`` is unchanged: that file grows with every
    transcript ever ingested, and session-start should not parse all of it each time. The
    detached worker fills this in after each ingest, so the next session-start finds it.
    """
    sig = [version(), stat_key(str(paths.ingested))]
    name = "recorded " + "\n".join(folders)
    if cache is not None:
        found = cache.get(name, sig)
        if isinstance(found, dict):
            return found
    state = fastjson.read_file(str(paths.ingested), None)
    wanted = set(folders)
    recorded = {}
    for key, entry in (state.items() if isinstance(state, dict) else ()):
        if isinstance(entry, dict) and os.path.dirname(key) in wanted and isinstance(entry.get("sig"), list):
            recorded[key] = entry["sig"]
    if cache is not None:
        cache.put(name, sig, recorded)
    return recorded


def project_transcripts(paths: "AnyPaths", agent: str, payload: "dict[str, Any]") -> list[str]:
    """This project's transcripts of one agent, where that agent keeps them."""
    return agents.get(agent).locate(str(paths.project_root), text_field(payload, "cwd"), text_field(payload, "transcript_path"))
