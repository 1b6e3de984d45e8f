"""session-end and catching up: hand the session's transcript, or the project's unread ones, to the worker."""

from __future__ import annotations

import os
import time

from .. import fastjson, layout
from . import worker
from .cache import RECORDED_FILE, HookCache, budget_of, cached_config, stat_key, version
from .where import log, text_field

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

    from ..layout import Layout
    from .where import AnyPaths


CATCHUP_FILES = 200


CODEX_CATCHUP_DAYS = 14


def session_end(where: "AnyPaths", agent: str, payload: "dict[str, Any]", config: "dict[str, Any]", started: float) -> None:
    transcript = text_field(payload, "transcript_path")
    if agent == "codex" and not os.path.isfile(transcript):
        # Codex may send transcript_path null; its rollout is found by session id
        transcript = codex_rollout(text_field(payload, "session_id")) or transcript
    if not transcript:
        log(where, "hook session-end", "no transcript_path in the hook input")
        return
    if not os.path.isfile(transcript):
        log(where, "hook session-end", f"transcript not found: {transcript}")
        return
    # Codex's Stop (where it has no SessionEnd) fires after every turn: stage only when the turn added evidence
    stage = "new" if agent == "codex" and text_field(payload, "hook_event_name") != "SessionEnd" else "always"
    budget = budget_of(config, "session_end_seconds", 1.0)
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
        worker.run_worker(where, pending, "new", budget)


def pending_transcripts(paths: "AnyPaths", agent: str, payload: "dict[str, Any]", cache: HookCache | None = None) -> list[str]:
    """Transcripts of this project whose size or mtime differs from what ``L1/ingested.json`` recorded."""
    candidates = _project_transcripts(paths, agent, payload)
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


def listed(folder: str, suffixes: tuple[str, ...], prefix: str = "") -> list[str]:
    """Absolute paths of the regular files in ``folder`` named ``prefix…suffix``."""
    base = os.path.abspath(folder)
    try:
        with os.scandir(base) as entries:
            return [os.path.join(base, e.name) for e in entries
                    if e.name.startswith(prefix) and e.name.endswith(suffixes) and e.is_file()]
    except OSError:
        return []


def _project_transcripts(paths: "AnyPaths", agent: str, payload: "dict[str, Any]") -> list[str]:
    transcript = text_field(payload, "transcript_path")
    cwd = text_field(payload, "cwd")
    roots = {str(paths.project_root)} | ({cwd} if cwd else set())
    found: set[str] = set()
    folders = {os.path.dirname(transcript)} if transcript else set()
    if agent == "claude":
        base = os.path.join(layout.agent_home("claude"), "projects")
        # Claude Code names a project's folder after its path, every character but ASCII letters and digits a dash
        folders |= {os.path.join(base, "".join(c if c.isascii() and c.isalnum() else "-" for c in r)) for r in roots}
        for folder in folders:
            found.update(listed(folder, (".jsonl",)))
    elif agent == "gemini":
        import hashlib

        base = os.path.join(layout.home(), ".gemini", "tmp")
        folders |= {os.path.join(base, hashlib.sha256(r.encode("utf-8")).hexdigest(), "chats") for r in roots}
        for folder in folders:
            found.update(listed(folder, (".json", ".jsonl"), "session-"))
    else:
        found.update(_codex_project_rollouts(str(paths.project_root)))
        if transcript and os.path.isfile(transcript):
            found.add(os.path.abspath(transcript))
    return sorted(found)


def _codex_sessions() -> str:
    return os.path.join(layout.agent_home("codex"), "sessions")


def codex_rollout(session_id: str) -> str:
    """The rollout file of one Codex session (``sessions/YYYY/MM/DD/rollout-*-<id>.jsonl``), or ""."""
    if not session_id or "/" in session_id or "*" in session_id or "?" in session_id or "[" in session_id:
        return ""
    sessions = _codex_sessions()
    if not os.path.isdir(sessions):
        return ""
    for folder in _codex_day_folders(3):
        for path in listed(folder, (f"{session_id}.jsonl",), "rollout-"):
            return path
    import glob

    for path in sorted(glob.glob(os.path.join(glob.escape(sessions), "*", "*", "*", f"rollout-*{session_id}.jsonl"))):
        return path
    return ""


def _codex_day_folders(days: int) -> list[str]:
    from .. import lookup

    sessions = _codex_sessions()
    today = lookup.now_epoch()
    folders = []
    for back in range(days):
        day = time.gmtime(today - back * 86400)
        folder = os.path.join(sessions, f"{day.tm_year:04d}", f"{day.tm_mon:02d}", f"{day.tm_mday:02d}")
        if os.path.isdir(folder):
            folders.append(folder)
    return folders


def _codex_project_rollouts(root: str) -> list[str]:
    """Recent Codex rollouts whose session ran inside this project (from their first record's cwd)."""
    found = []
    for folder in _codex_day_folders(CODEX_CATCHUP_DAYS):
        for path in listed(folder, (".jsonl",), "rollout-"):
            cwd = _rollout_cwd(path)
            if cwd and (cwd == root or cwd.startswith(root.rstrip(os.sep) + os.sep)):
                found.append(path)
    return found


def _rollout_cwd(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            first = handle.readline(256 * 1024)
        record = fastjson.loads(first)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return ""
    if not isinstance(record, dict):
        return ""
    body = record.get("payload") if isinstance(record.get("payload"), dict) else record
    cwd = body.get("cwd") if isinstance(body, dict) else None
    return cwd if isinstance(cwd, str) else ""

