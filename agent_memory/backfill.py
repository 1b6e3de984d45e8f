"""Backfill: ingest a large history with several worker processes and one writer.

The workers do the heavy part (reading transcripts, finding markers, redacting) and send
atoms and chunks back; this process is the one writer: it holds the store lock, drops what
the store already has and appends in file order. The result is exactly a serial ``ingest``
of the same inputs (same atoms, same lines, same state), and running it again adds nothing.
Memory stays bounded whatever the history's size: a worker holds one transcript at a time,
only a few files are in flight, and the writer flushes to L1 every few thousand records.
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .ingest import IngestReport, atoms_from_turn, chunks_from_turns, progress_ok, project_of
from .model import AgentMemoryError, UsageError
from .store import Paths, StoreLock, append_jsonl, ensure_store, read_json, write_json
from .tiers import open_index, register_project
from .transcripts import iter_transcript_files, read_transcript

FLUSH_RECORDS = 5000  # atoms + chunks held before they are appended to L1 …
FLUSH_CHARS = 2_000_000  # … or this much of their text (long chunks), …
FLUSH_SECONDS = 1.0  # … or after this long: the index takes rows while the workers read on
IN_FLIGHT_PER_WORKER = 2  # files handed out ahead of the writer, per worker


@dataclass
class BackfillReport(IngestReport):
    """What a backfill did: the ``ingest`` report plus how it ran."""

    workers: int = 0
    bytes_read: int = 0
    seconds: float = 0.0
    worker_peak_kb: dict[int, int] = field(default_factory=dict)  # worker pid → peak resident set (kB)
    writer_peak_kb: int = 0  # this process's peak resident set (kB)


@dataclass(frozen=True)
class FileTask:
    """One transcript to read from a resume point, with what naming its project needs."""

    given: str  # the path as the caller spelled it (for messages)
    path: str  # absolute
    agent: str
    start_offset: int
    start_line: int
    project: str | None
    fallback: str
    with_chunks: bool


@dataclass
class FileResult:
    """What a worker got out of one transcript."""

    error: str = ""
    sessions: frozenset[str] = frozenset()
    skipped: int = 0
    end_offset: int = 0
    end_line: int = 0
    atoms: list[dict[str, Any]] = field(default_factory=list)
    chunks: list[dict[str, Any]] = field(default_factory=list)
    pid: int = 0
    peak_kb: int = 0


def peak_rss_kb() -> int:
    """This process's peak resident set size in kB (``VmHWM``; ``getrusage`` where there is no /proc)."""
    try:
        with open("/proc/self/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
        import sys

        peak = int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        return peak // 1024 if sys.platform == "darwin" else peak
    except (ImportError, OSError, ValueError):
        return 0


def read_file(task: FileTask) -> FileResult:
    """The worker's job: one transcript → its new atoms and chunks (not yet deduplicated)."""
    try:
        result = read_transcript(task.path, agent=task.agent, start_offset=task.start_offset, start_line=task.start_line)
    except AgentMemoryError as exc:
        return FileResult(error=f"{task.given}: {exc}", pid=os.getpid(), peak_kb=peak_rss_kb())
    atoms: list[dict[str, Any]] = []
    for turn in result.turns:
        name = project_of(turn.cwd or result.cwd, task.fallback, task.project)
        atoms.extend(atoms_from_turn(turn, name))
    chunks: list[dict[str, Any]] = []
    if task.with_chunks:
        chunks = chunks_from_turns(result.turns, project_of(result.cwd, task.fallback, task.project))
    return FileResult(
        sessions=result.sessions,
        skipped=result.skipped,
        end_offset=result.end_offset,
        end_line=result.end_line,
        atoms=atoms,
        chunks=chunks,
        pid=os.getpid(),
        peak_kb=peak_rss_kb(),
    )


@dataclass
class _Entry:
    """One input file in the caller's order: skipped, failed to stat, or read by a worker."""

    given: str
    key: str
    sig: list[int] | None = None
    error: str = ""
    task: FileTask | None = None
    repeat: bool = False  # the same file given twice: decided when its turn comes, like ingest does
    size: int = 0  # bytes to read, from the resume point to the end
    future: Any = None


class _Progress:
    """A rich progress bar on stderr (bytes read, speed, ETA), or nothing."""

    def __init__(self, enabled: bool, total: int, files: int) -> None:
        self.bar: Any = None
        if not enabled:
            return
        try:
            from rich.console import Console
            from rich.progress import (BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn,
                                       TransferSpeedColumn)
        except ImportError:
            return
        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[files]}/{task.fields[total_files]} files · {task.fields[atoms]} new atoms"),
            console=Console(stderr=True),
            transient=False,
        )
        self.task = self.bar.add_task("backfill", total=max(total, 1), files=0, total_files=files, atoms=0)
        self.bar.start()

    def advance(self, size: int, files: int, atoms: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=size, files=files, atoms=atoms)

    def phase(self, description: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=description)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _main_importable() -> bool:
    """Whether worker processes can import this program's main module, as multiprocessing makes them."""
    import sys

    main = sys.modules.get("__main__")
    if main is None or getattr(getattr(main, "__spec__", None), "name", None):
        return True
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path)


def _pool(workers: int) -> Any:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context: Any
    if "forkserver" in multiprocessing.get_all_start_methods():
        # workers fork from a small clean process that has imported the pipeline once,
        # never from a copy of this one (which may hold the index open) nor its main script
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["agent_memory.backfill"])
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


def backfill(
    paths: Paths,
    inputs: Iterable[str],
    workers: int | None = None,
    project: str | None = None,
    agent: str = "auto",
    chunks: bool = True,
    progress: bool = False,
    flush_records: int = FLUSH_RECORDS,
) -> BackfillReport:
    """Ingest transcripts (files or folders) with ``workers`` reader processes; same result as ``ingest``.

    ``workers=None`` uses every core; ``workers=0`` reads in this process. ``progress`` shows a
    bar on stderr. Workers import the caller's main module, as multiprocessing does: a script
    calling this needs the ``if __name__ == "__main__":`` guard.
    """
    if workers is not None and workers < 0:
        raise UsageError(f"workers must be 0 or more, not {workers}")
    started = time.perf_counter()
    ensure_store(paths)
    report = BackfillReport()
    files = list(iter_transcript_files(inputs))
    fallback = project or paths.project_name
    with StoreLock(paths.store):
        state: dict[str, Any] = read_json(paths.ingested, {})
        if not isinstance(state, dict):
            state = {}
        state = {k: v for k, v in state.items() if progress_ok(v)}  # derived: a wrong-shaped entry is redone
        entries = _plan(files, state, agent, project, fallback, chunks)
        tasks = [e for e in entries if e.task is not None]
        count = (os.cpu_count() or 1) if workers is None else workers
        # a program read from stdin cannot be re-imported by workers: read in this process instead
        count = min(count, len(tasks)) if _main_importable() else 0
        report.workers = count
        total = sum(e.size for e in tasks)
        bar = _Progress(progress, total, len(entries))
        index = open_index(paths)
        pool = _pool(count) if count > 0 else None
        try:
            writer = _Writer(paths, state, index, report, chunks, flush_records)
            for entry, result in _results(entries, pool, count, state, agent, project, fallback, chunks):
                report.files += 1
                writer.take(entry, result)
                report.bytes_read += entry.size
                bar.advance(entry.size, report.files, report.atoms_added)
            writer.flush(final=True)
            bar.phase("indexing")
            index.sync()
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
            index.close()
            bar.stop()
        try:
            register_project(paths)
        except OSError:
            pass  # the registry only matters for L2→L3; a read-only home must not fail the backfill
    report.writer_peak_kb = peak_rss_kb()
    report.seconds = time.perf_counter() - started
    return report


def _decide(given: str, key: str, state: dict[str, Any], agent: str, project: str | None, fallback: str,
            with_chunks: bool) -> _Entry:
    """What ``ingest`` would do with this file now: skip it, report it, or read it from where it stopped."""
    entry = _Entry(given=given, key=key)
    try:
        stat = os.stat(key)
    except OSError as exc:
        entry.error = f"{given}: {exc.strerror or exc}"
        return entry
    prior = state.get(key) if isinstance(state.get(key), dict) else None
    entry.sig = [stat.st_size, stat.st_mtime_ns]
    if prior and prior.get("sig") == entry.sig:
        return entry
    start_offset, start_line = 0, 0
    if prior and isinstance(prior.get("offset"), int) and 0 <= prior["offset"] <= stat.st_size:
        start_offset, start_line = prior["offset"], int(prior.get("line", 0))
    entry.task = FileTask(given, key, agent, start_offset, start_line, project, fallback, with_chunks)
    entry.size = stat.st_size - start_offset
    return entry


def _plan(files: list[str], state: dict[str, Any], agent: str, project: str | None, fallback: str,
          with_chunks: bool) -> list[_Entry]:
    entries: list[_Entry] = []
    keys: set[str] = set()
    for given in files:
        key = os.path.abspath(given)
        if key in keys:
            entries.append(_Entry(given=given, key=key, repeat=True))
            continue
        keys.add(key)
        entries.append(_decide(given, key, state, agent, project, fallback, with_chunks))
    return entries


def _results(
    entries: list[_Entry], pool: Any, workers: int, state: dict[str, Any], agent: str, project: str | None,
    fallback: str, with_chunks: bool,
) -> Iterator[tuple[_Entry, FileResult | None]]:
    """Each entry with its worker's result, in the caller's file order, a few files read ahead."""
    ahead: deque[_Entry] = deque(e for e in entries if e.task is not None)
    window = max(1, workers * IN_FLIGHT_PER_WORKER)
    submitted = 0

    def top_up() -> None:
        nonlocal submitted
        while ahead and submitted < window and pool is not None:
            entry = ahead.popleft()
            entry.future = pool.submit(read_file, entry.task)
            submitted += 1

    top_up()
    for entry in entries:
        if entry.repeat:
            # decided against the state as it is now, exactly as a serial ingest would
            decided = _decide(entry.given, entry.key, state, agent, project, fallback, with_chunks)
            entry.sig, entry.error, entry.task, entry.size = decided.sig, decided.error, decided.task, decided.size
            yield entry, read_file(entry.task) if entry.task is not None else None
            continue
        if entry.task is None:
            yield entry, None
            continue
        if entry.future is None:
            yield entry, read_file(entry.task)
            continue
        result = entry.future.result()
        entry.future = None
        submitted -= 1
        top_up()
        yield entry, result


class _Writer:
    """The one writer: drops what the store holds, buffers new records, appends them in order."""

    def __init__(self, paths: Paths, state: dict[str, Any], index: Any, report: BackfillReport, with_chunks: bool,
                 flush_records: int) -> None:
        self.paths = paths
        self.state = state
        self.index = index
        self.report = report
        self.with_chunks = with_chunks
        self.flush_records = max(1, flush_records)
        self.added: set[tuple[str, str]] = set()
        self.atoms: list[dict[str, Any]] = []
        self.chunks: list[dict[str, Any]] = []
        self.chars = 0
        self.last_flush = time.monotonic()
        self.dirty = False

    def _first(self, kind: str, ref: str) -> bool:
        key = (kind, ref)
        if key in self.added or self.index.has(kind, ref):
            return False
        self.added.add(key)
        return True

    def take(self, entry: _Entry, result: FileResult | None) -> None:
        """Record one file's outcome: errors, sessions, new records, how far it was read."""
        report = self.report
        if entry.error:
            report.errors.append(entry.error)
            return
        prior = self.state.get(entry.key) if isinstance(self.state.get(entry.key), dict) else None
        if entry.task is None:
            if prior:
                report.sessions.update(prior.get("sessions", []))
            return
        assert result is not None
        if result.pid:
            report.worker_peak_kb[result.pid] = max(report.worker_peak_kb.get(result.pid, 0), result.peak_kb)
        if result.error:
            report.errors.append(result.error)
            return
        report.skipped_lines += result.skipped
        sessions = set(prior.get("sessions", [])) if prior else set()
        sessions.update(result.sessions)
        report.sessions.update(result.sessions)
        for atom in result.atoms:
            if not self._first("atom", atom["id"]):
                continue
            self.atoms.append(atom)
            self.chars += len(atom.get("quote", "")) + len(atom.get("text", ""))
            report.atoms_added += 1
            if atom["redacted"]:
                report.quarantined += 1
        if self.with_chunks:
            for chunk in result.chunks:
                if self._first("chunk", chunk["id"]):
                    self.chunks.append(chunk)
                    self.chars += len(chunk.get("text", ""))
                    report.chunks_added += 1
        self.state[entry.key] = {
            "sig": entry.sig,
            "offset": result.end_offset,
            "line": result.end_line,
            "sessions": sorted(sessions),
        }
        self.dirty = True
        if (
            len(self.atoms) + len(self.chunks) >= self.flush_records
            or self.chars >= FLUSH_CHARS
            or (self.atoms or self.chunks) and time.monotonic() - self.last_flush >= FLUSH_SECONDS
        ):
            self.flush()

    def flush(self, final: bool = False) -> None:
        """Append what is buffered, then record how far each file was read (never the other way round).

        The index takes the new rows now too, while the workers read on: indexing is the
        writer's biggest cost, and done here it overlaps with theirs.
        """
        wrote = append_jsonl(self.paths.atoms, self.atoms)
        if self.with_chunks:
            wrote += append_jsonl(self.paths.chunks, self.chunks)
        self.atoms, self.chunks, self.chars = [], [], 0
        self.last_flush = time.monotonic()
        if self.dirty or final:
            write_json(self.paths.ingested, self.state)
            self.dirty = False
        if wrote and not final:
            self.index.sync()


__all__ = ["BackfillReport", "FileTask", "FileResult", "backfill", "peak_rss_kb", "read_file"]
