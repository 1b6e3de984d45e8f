"""The hooks' run log: one short line per hook run, so ``status`` can show timings and swallowed errors.

``<store>/logs/hooks.log`` holds tab-separated lines ``stamp event agent ms errors errors_end``:
when the run ended, how long it took, how many errors it logged, and the size of ``errors.log``
after it (so the errors logged since the last clean run can be counted without trusting any
clock). The file is bounded: past ``LIMIT`` bytes it becomes ``hooks.log.1`` and a new one
starts. Standard library (``os``, ``time``) and ``clock`` only: every hook writes here on its way out.
"""

from __future__ import annotations

import os
import time

from .clock import epoch, now_epoch
from .layout import Layout

LIMIT = 32 * 1024  # bytes per file; with the one before it, the last ~500-1000 runs
WARNING_TAIL = 8192  # bytes of the run log session-start reads: the last hundred runs or so
EVENTS = ("session-start", "user-prompt-submit", "session-end", "worker")


def _layout(store: str) -> Layout:
    """Where a store's logs are (only its store-side paths are used)."""
    return Layout(store, "", "")


def stamp() -> str:
    """Now as ``YYYY-MM-DDTHH:MM:SSZ`` from the one clock (``$AGENT_MEMORY_NOW`` when set; a bad one: the wall clock)."""
    try:
        moment = now_epoch()
    except ValueError:
        moment = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))


def _leads_out(store: str) -> bool:
    """A store that is a link out of the folder holding it (a ``.memory`` shipped as a symlink): never written to."""
    if not os.path.islink(store):
        return False
    parent = os.path.realpath(os.path.dirname(os.path.abspath(store)))
    return not os.path.realpath(store).startswith(parent + os.sep)


def record(store: str, event: str, agent: str, seconds: float, errors: int) -> None:
    """Append one run to ``<store>/logs/hooks.log`` (only for a store that exists); never raises."""
    try:
        if not store or not os.path.isdir(store) or _leads_out(store):
            return
        layout = _layout(store)
        try:
            errors_end = os.stat(layout.errors_log).st_size
        except OSError:
            errors_end = 0
        line = f"{stamp()}\t{event}\t{agent}\t{seconds * 1000:.1f}\t{int(errors)}\t{errors_end}\n".encode("utf-8")
        path = layout.run_log
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags, 0o644)
        except FileNotFoundError:
            os.makedirs(layout.logs, exist_ok=True)
            fd = os.open(path, flags, 0o644)
        try:
            os.write(fd, line)  # one write of one short line: appends from two hooks never interleave
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > LIMIT:
            # two hooks may rotate at once: the loser's few lines go, which a sample of timings can afford
            os.replace(path, path + ".1")
    except Exception:
        pass


class Run:
    """One line of the run log."""

    __slots__ = ("at", "event", "agent", "ms", "errors", "errors_end")

    def __init__(self, at: str, event: str, agent: str, ms: float, errors: int, errors_end: int) -> None:
        self.at, self.event, self.agent, self.ms, self.errors, self.errors_end = at, event, agent, ms, errors, errors_end


def parse(line: str) -> Run | None:
    """A run from one log line, or None for a torn or foreign line."""
    parts = line.rstrip("\n").split("\t")
    if len(parts) != 6 or len(parts[0]) != 20:
        return None
    try:
        return Run(parts[0], parts[1], parts[2], float(parts[3]), int(parts[4]), int(parts[5]))
    except ValueError:
        return None


def _lines(name: str, tail: int = 0) -> list[str] | None:
    """A log file's lines (only about the last ``tail`` bytes' whole lines when ``tail`` > 0); None if unreadable."""
    try:
        with open(name, "rb") as handle:
            if tail:
                handle.seek(max(0, os.fstat(handle.fileno()).st_size - tail))
            data = handle.read()
    except OSError:
        return None
    lines = data.decode("utf-8", "replace").split("\n")
    return lines[1:] if tail and len(data) >= tail else lines  # the first may be cut


def runs(store: str, tail: int = 0) -> list[Run]:
    """The runs still on record, oldest first; ``tail`` > 0 reads only about that many bytes of the newest file."""
    path = _layout(store).run_log
    found: list[Run] = []
    for name in [path] if tail else [path + ".1", path]:
        found.extend(r for r in (parse(x) for x in _lines(name, tail) or () if x) if r is not None)
    return found


def errors_since(store: str, offset: int) -> int:
    """How many lines ``errors.log`` gained past byte ``offset`` (all of them if it shrank since)."""
    try:
        with open(_layout(store).errors_log, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(offset if 0 <= offset <= size else 0)
            count = 0
            while True:
                chunk = handle.read(1 << 20)
                if not chunk:
                    return count
                count += chunk.count(b"\n")
    except OSError:
        return 0


def new_errors(store: str, found: list[Run]) -> int:
    """Errors logged since the last run that logged none (every error when no run was clean)."""
    clean = [r for r in found if r.errors == 0]
    return errors_since(store, clean[-1].errors_end if clean else 0)


def last_ingest(ingested: str) -> str:
    """When the store last recorded an ingest (the mtime of ``L1/ingested.json``), or ``""``."""
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.stat(ingested).st_mtime))
    except OSError:
        return ""


def starts_since(found: list[Run], moment: str) -> list[Run]:
    """Session starts recorded after ``moment`` (all of them when ``moment`` is empty)."""
    return [r for r in found if r.event == "session-start" and r.at > moment]


def _last_run(lines: list[str]) -> Run | None:
    for line in reversed(lines):
        found = parse(line) if line else None
        if found is not None:
            return found
    return None


def warning(store: str, ingested: str, ingest_days: float) -> str:
    """One short line for session-start when memory is unhealthy, else ``""`` (cheap: a tail of the run log).

    Unhealthy: hooks logged errors since the last clean run, or sessions keep starting while
    nothing has been ingested for ``ingest_days`` days. A healthy store costs a few ``stat``s and
    one line parsed: no ``errors.log`` means no errors, and a recent ingest means no staleness.
    """
    try:
        layout = _layout(store)
        lines = _lines(layout.run_log, WARNING_TAIL) or []
        newest = _last_run(lines)
        if newest is None:
            return ""
        found: list[Run] | None = None
        if os.path.exists(layout.errors_log):
            found = [r for r in (parse(x) for x in lines if x) if r is not None]
            failed = new_errors(store, found)
            if failed:
                return f"agent-memory: {failed} hook error{'s' if failed != 1 else ''} since the last clean run; see 'agent-memory status'"
        last = last_ingest(ingested)
        latest, then = epoch(newest.at), epoch(last) if last else None
        if latest is None or (then is not None and latest - then < ingest_days * 86400):
            return ""  # ingested recently enough: whatever the sessions since, nothing is stale
        if found is None:
            found = [r for r in (parse(x) for x in lines if x) if r is not None]
        since = starts_since(found, last)
        if then is None and since:
            then = epoch(since[0].at)  # never ingested: sessions must have gone on that long since the first one
        if len(since) >= 2 and then is not None and latest - then >= ingest_days * 86400:
            when = f"since {last[:10]}" if last else "yet"
            return f"agent-memory: nothing ingested {when} while sessions went on; see 'agent-memory status'"
    except Exception:
        pass
    return ""
