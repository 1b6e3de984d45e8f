"""L0 → L1, the one pipeline: plan each file, read it, and write what is new through one writer.

*Plan* decides from ``L1/ingested.json`` whether a transcript is unchanged, grown (read from where
the last ingest stopped) or new. *Read* is pure (transcript → atoms and chunks, redacted: ``atoms.py``), so it
runs inline or in worker processes (``--workers``, a large backfill). *Write* holds the store lock,
drops what the store already has (ids are content hashes), appends in file order and records how
far each file was read. With or without workers the result is the same, and running it again adds
nothing. Standard library only (the session-end hook ingests through here).
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .atoms import atoms_from_turn, chunks_from_turns, project_of
from .errors import AgentMemoryError, StoreError, UsageError
from .shapes import STRS
from .store import Paths, StoreLock, append_lines, ensure_store, jsonl_bytes, log_error, read_json, write_json
from .promote.tiers import open_index, register_project
from .agents.reading import read_transcript
from .pool import peak_rss_kb
from .transcripts import iter_transcript_files

FLUSH_RECORDS = 5000  # with workers: atoms + chunks held before they are appended to L1 …
FLUSH_CHARS = 2_000_000  # … or this much of their text (long chunks), …
FLUSH_SECONDS = 1.0  # … or after this long: the index takes rows while the workers read on
IN_FLIGHT_PER_WORKER = 2  # files handed out ahead of the writer, per worker
BARREN_CHARS = 1_000_000  # text of the turns without atoms one ingest remembers, per process (a few MB at most)


@dataclass
class IngestReport:
    """What one ingest call did (the JSON of ``agent-memory ingest``)."""

    sessions: set[str] = field(default_factory=set)
    atoms_added: int = 0
    quarantined: int = 0  # new records with a secret cut out: atoms and past-session chunks
    quarantined_chunks: int = 0  # of which chunks
    chunks_added: int = 0
    files: int = 0
    skipped_lines: int = 0
    errors: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)  # files read in part: "<path>: what was kept and lost"
    # how it ran (a backfill reports these)
    workers: int = 0
    bytes_read: int = 0
    seconds: float = 0.0
    worker_peak_kb: dict[int, int] = field(default_factory=dict)  # worker pid → peak resident set (kB)
    worker_cpu: dict[int, float] = field(default_factory=dict)  # worker pid → its CPU seconds, to its last file
    writer_peak_kb: int = 0  # this process's peak resident set (kB)

    def as_json(self) -> dict[str, Any]:
        return {"sessions": len(self.sessions), "atoms_added": self.atoms_added, "quarantined": self.quarantined}


# ---------------------------------------------------------------- plan


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
class _Entry:
    """One input file in the caller's order: unchanged, failed to stat, or to be read."""

    given: str
    key: str
    sig: list[int] | None = None
    error: str = ""
    task: FileTask | None = None
    repeat: bool = False  # the same file given twice: decided when its turn comes, against the state as it is then
    size: int = 0  # bytes to read, from the resume point to the end
    future: Any = None


def _decide(given: str, key: str, state: dict[str, Any], agent: str, project: str | None, fallback: str,
            with_chunks: bool) -> _Entry:
    """What to do with one file now: nothing (unchanged), report it, or read it from where it stopped."""
    entry = _Entry(given=given, key=key)
    try:
        stat = os.stat(key)
    except OSError as exc:
        entry.error = f"{given}: {exc.strerror or exc}"
        return entry
    prior = state.get(key) if isinstance(state.get(key), dict) else None
    entry.sig = [stat.st_size, stat.st_mtime_ns]  # what ingested.json records (an inode survives no copy)
    if prior and prior.get("sig") == entry.sig:
        return entry
    start_offset, start_line = 0, 0
    if prior and isinstance(prior.get("offset"), int) and 0 <= prior["offset"] <= stat.st_size:
        start_offset, start_line = prior["offset"], int(prior.get("line", 0))
    entry.task = FileTask(given, key, agent, start_offset, start_line, project, fallback, with_chunks)
    entry.size = stat.st_size - start_offset
    return entry


def plan(files: list[str], state: dict[str, Any], agent: str, project: str | None, fallback: str,
         with_chunks: bool) -> list[_Entry]:
    """Each input file in order, with what reading it takes; a file given twice is decided when its turn comes."""
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


# ---------------------------------------------------------------- read (pure: inline or in a worker)


@dataclass
class FileResult:
    """What reading one transcript gave: its atoms and chunks, not yet checked against the store."""

    error: str = ""
    sessions: frozenset[str] = frozenset()
    skipped: int = 0
    end_offset: int = 0
    end_line: int = 0
    lost: str = ""  # a file that breaks off: what was kept and what was lost
    unknown: tuple[tuple[str, int], ...] = ()  # records of a shape the reader does not know, by agent and CLI version
    atoms: list[dict[str, Any]] = field(default_factory=list)
    chunks: list[dict[str, Any]] = field(default_factory=list)
    pid: int = 0  # a worker's: its process, peak resident set and CPU so far (read in this process: 0, not looked up)
    peak_kb: int = 0
    cpu: float = 0.0


@dataclass
class Folders:
    """What one ingest looked up about the folders its sessions ran in, for every file it reads.

    A session's folder names its project (a walk up to its git root) and makes its scrubber
    (home folders, user names, the project's paths), and most of a history's files share a few
    folders. Kept for one ingest only: a later one looks again.
    """

    projects: dict[tuple[str, str, str | None], str] = field(default_factory=dict)
    scrubbers: dict[str, Any] = field(default_factory=dict)
    # A person's turns that hold no atom, by their text: whether a turn holds any is a matter of its text alone
    # (``atoms_from_turn`` finds markers in it before looking at anything else), and the same few words come
    # back all through a history ("continue", "ok, commit that", a template pasted every session).
    barren: set[str] = field(default_factory=set)
    barren_chars: int = 0

    def holds_none(self, text: str) -> None:
        """Remember that a person's turn of this text holds no atom (the memory starts again past its budget)."""
        if self.barren_chars + len(text) > BARREN_CHARS:
            self.barren.clear()
            self.barren_chars = 0
        self.barren.add(text)
        self.barren_chars += len(text)

    def project(self, cwd: str, fallback: str, override: str | None) -> str:
        key = (cwd, fallback, override)
        name = self.projects.get(key)
        if name is None:
            name = self.projects[key] = project_of(cwd, fallback, override)
        return name


def read_file(task: FileTask, folders: Folders | None = None) -> FileResult:
    """The worker's job: one transcript → its new atoms and chunks (not yet deduplicated)."""
    try:
        result = read_transcript(task.path, agent=task.agent, start_offset=task.start_offset, start_line=task.start_line)
    except AgentMemoryError as exc:
        return FileResult(error=f"{task.given}: {exc}")
    if folders is None:
        folders = Folders()
    atoms: list[dict[str, Any]] = []
    barren = folders.barren
    for turn in result.turns:
        if turn.role != "user" or turn.text in barren:
            continue  # only the person's words hold atoms
        cwd = turn.cwd or result.cwd
        found = atoms_from_turn(turn, folders.project(cwd, task.fallback, task.project), cwd, folders.scrubbers)
        if found:
            atoms.extend(found)
        else:
            folders.holds_none(turn.text)
    chunks: list[dict[str, Any]] = []
    if task.with_chunks:
        chunks = chunks_from_turns(result.turns, folders.project(result.cwd, task.fallback, task.project))
    return FileResult(
        sessions=result.sessions,
        skipped=result.skipped,
        end_offset=result.end_offset,
        end_line=result.end_line,
        lost=result.lost,
        unknown=result.unknown,
        atoms=atoms,
        chunks=chunks,
    )


_WORKER_FOLDERS = Folders()  # a pool's process reads for one ingest only


def read_in_worker(task: FileTask) -> FileResult:
    """``read_file`` in a pool's process, with that process, its peak memory and CPU so far (the report's per worker)."""
    result = read_file(task, _WORKER_FOLDERS)
    result.pid, result.peak_kb, result.cpu = os.getpid(), peak_rss_kb(), time.process_time()
    return result


# ---------------------------------------------------------------- write (one writer, under the lock)


class _Writer:
    """The one writer: drops what the store holds, buffers new records, appends them in order."""

    def __init__(self, paths: Paths, state: dict[str, Any], index: Any, report: IngestReport, with_chunks: bool,
                 flush_records: int) -> None:
        self.paths = paths
        self.state = state
        self.index = index
        self.report = report
        self.with_chunks = with_chunks
        self.flush_records = flush_records  # 0: everything is written by the final flush
        self.added: set[tuple[str, str]] = set()
        self.atoms: list[dict[str, Any]] = []
        self.chunks: list[dict[str, Any]] = []
        self.chars = 0
        self.last_flush = time.monotonic()
        self.dirty = False

    def _new(self, kind: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The records neither this run nor the store has yet, in order (the index asked once per file)."""
        added = self.added
        indexed = self.index.indexed(kind, [r["id"] for r in records if (kind, r["id"]) not in added])
        fresh = []
        for record in records:
            key = (kind, record["id"])
            if key in added or record["id"] in indexed:
                continue
            added.add(key)
            fresh.append(record)
        return fresh

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
            report.worker_cpu[result.pid] = max(report.worker_cpu.get(result.pid, 0.0), result.cpu)
        if result.error:
            report.errors.append(result.error)
            return
        report.skipped_lines += result.skipped
        if result.lost:
            report.damaged.append(f"{entry.given}: {result.lost}")
        sessions = set(prior.get("sessions", [])) if prior else set()
        sessions.update(result.sessions)
        report.sessions.update(result.sessions)
        for atom in self._new("atom", result.atoms):
            self.atoms.append(atom)
            self.chars += len(atom.get("quote", "")) + len(atom.get("text", ""))
            report.atoms_added += 1
            if atom["redacted"]:
                report.quarantined += 1
        if self.with_chunks:
            for chunk in self._new("chunk", result.chunks):
                self.chunks.append(chunk)
                self.chars += len(chunk.get("text", ""))
                report.chunks_added += 1
                if chunk["redacted"]:
                    report.quarantined += 1
                    report.quarantined_chunks += 1
        self.state[entry.key] = {
            "sig": entry.sig,
            "offset": result.end_offset,
            "line": result.end_line,
            "sessions": sorted(sessions),
        }
        unknown = unknown_records(prior) if prior and entry.task.start_offset > 0 else {}  # a whole read counts anew
        for label, n in result.unknown:
            unknown[label] = unknown.get(label, 0) + n
        if unknown:
            self.state[entry.key]["unknown"] = unknown
        self.dirty = True
        if self.flush_records and (
            len(self.atoms) + len(self.chunks) >= self.flush_records
            or self.chars >= FLUSH_CHARS
            or bool(self.atoms or self.chunks) and time.monotonic() - self.last_flush >= FLUSH_SECONDS
        ):
            self.flush()

    def flush(self, final: bool = False) -> None:
        """Append what is buffered, then record how far each file was read (never the other way round).

        The index then takes the new records as they were just written (no reading them back),
        while the workers read on: indexing is the writer's biggest cost, and done here it
        overlaps with theirs.
        """
        from .index import Appended

        appended = []
        for name, path, records in (("atoms", self.paths.atoms, self.atoms),
                                    ("chunks", self.paths.chunks, self.chunks)):
            if records:
                lines = jsonl_bytes(records)
                before = self.index.signature_of(name)
                appended.append(Appended(name, before, append_lines(path, lines), records, lines))
        self.atoms, self.chunks, self.chars = [], [], 0
        self.last_flush = time.monotonic()
        if self.dirty or final:
            write_json(self.paths.ingested, self.state, compact=True)  # rewritten at every flush
            self.dirty = False
        if appended:
            self.index.take_appended(appended)


# ---------------------------------------------------------------- running it, inline or with a pool


def _results(
    entries: list[_Entry], pool: Any, workers: int, state: dict[str, Any], agent: str, project: str | None,
    fallback: str, with_chunks: bool,
) -> Iterator[tuple[_Entry, FileResult | None]]:
    """Each entry with its worker's result, in the caller's file order, a few files read ahead."""
    ahead: deque[_Entry] = deque(e for e in entries if e.task is not None)
    folders = Folders()  # for the files read in this process
    window = max(1, workers * IN_FLIGHT_PER_WORKER)
    submitted = 0

    def top_up() -> None:
        nonlocal submitted
        while ahead and submitted < window and pool is not None:
            entry = ahead.popleft()
            entry.future = pool.submit(read_in_worker, entry.task)
            submitted += 1

    top_up()
    for entry in entries:
        if entry.repeat:
            # decided against the state as it is now, exactly as a serial ingest would
            decided = _decide(entry.given, entry.key, state, agent, project, fallback, with_chunks)
            entry.sig, entry.error, entry.task, entry.size = decided.sig, decided.error, decided.task, decided.size
            yield entry, read_file(entry.task, folders) if entry.task is not None else None
            continue
        if entry.task is None:
            yield entry, None
            continue
        if entry.future is None:
            yield entry, read_file(entry.task, folders)
            continue
        result = entry.future.result()
        entry.future = None
        submitted -= 1
        top_up()
        yield entry, result


def ingest(
    paths: Paths,
    inputs: Iterable[str],
    project: str | None = None,
    agent: str = "auto",
    chunks: bool = True,
    workers: int | None = 0,
    progress: bool = False,
    flush_records: int | None = None,
) -> IngestReport:
    """Read transcripts (files or folders) into the store's L1; idempotent and incremental.

    ``workers=0`` reads in this process and writes once at the end; ``workers=N`` (``None``: every
    core) reads with N processes and flushes as it goes, so a large backfill stays bounded in
    memory. Same atoms, same lines, same state either way. ``progress`` shows a bar on stderr.
    Workers import the caller's main module, as multiprocessing does: a script calling this with
    workers needs the ``if __name__ == "__main__":`` guard.
    """
    if workers is not None and workers < 0:
        raise UsageError(f"workers must be 0 or more, not {workers}")
    from .pool import main_importable, reader_pool, ProgressBar

    started = time.perf_counter()
    ensure_store(paths)
    report = IngestReport()
    files = list(iter_transcript_files(inputs))
    fallback = project or paths.project_name
    with StoreLock(paths.store):
        _redact_stored(paths)
        state: dict[str, Any] = read_json(paths.ingested, {})
        if not isinstance(state, dict):
            state = {}
        state = {k: v for k, v in state.items() if progress_ok(v)}  # derived: a wrong-shaped entry is redone
        entries = plan(files, state, agent, project, fallback, chunks)
        tasks = [e for e in entries if e.task is not None]
        count = (os.cpu_count() or 1) if workers is None else workers
        # a program read from stdin cannot be re-imported by workers: read in this process instead
        count = min(count, len(tasks)) if main_importable() else 0
        report.workers = count
        total = sum(e.size for e in tasks)
        bar = ProgressBar(progress, total, len(entries))
        index = open_index(paths)
        pool = reader_pool(count) if count > 0 else None
        try:
            # inline, everything is written once at the end; with a pool, as it comes
            limit = flush_records if flush_records is not None else FLUSH_RECORDS if pool is not None else 0
            writer = _Writer(paths, state, index, report, chunks, limit)
            for entry, result in _results(entries, pool, count, state, agent, project, fallback, chunks):
                report.files += 1
                writer.take(entry, result)
                report.bytes_read += entry.size
                bar.advance(entry.size, report.files, report.atoms_added)
            writer.flush(final=True)
            bar.phase("indexing")
            index.sync()
            if report.atoms_added:
                _refresh_claim_cache(paths)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
            index.close()
            bar.stop()
        try:
            register_project(paths)
        except OSError as exc:
            # the registry only matters for L2→L3; a read-only home must not fail ingest
            log_error(paths, "ingest: project registry", exc)
    report.writer_peak_kb = peak_rss_kb()
    report.seconds = time.perf_counter() - started
    return report


def _redact_stored(paths: Paths) -> None:
    """L1 written under older redaction rules, redacted again by the present ones (once per change of the rules)."""
    from .redact.stored import redact_stored

    try:
        redact_stored(paths)
    except (OSError, StoreError) as exc:
        log_error(paths, "ingest: redacting stored L1 again", exc)


def unknown_records(entry: Any) -> dict[str, int]:
    """An ``ingested.json`` entry's records of a shape its reader did not know, by agent and CLI version."""
    found = entry.get("unknown") if isinstance(entry, dict) else None
    if not isinstance(found, dict):
        return {}
    return {label: n for label, n in found.items() if isinstance(label, str) and type(n) is int and n > 0}


def progress_ok(entry: Any) -> bool:
    """Whether an ``ingested.json`` entry has the shape ingest writes (it is derived: a bad one is redone)."""
    return (isinstance(entry, dict) and isinstance(entry.get("sig"), list) and len(entry["sig"]) == 2
            and all(type(n) is int for n in entry["sig"]) and type(entry.get("offset", 0)) is int
            and type(entry.get("line", 0)) is int and STRS(entry.get("sessions", [])))


def _refresh_claim_cache(paths: Paths) -> None:
    """Fold the new atoms into promote's claim tables (``claims.cache.keep_up``: only the appended atoms are read).

    The tables are derived: nothing here may fail an ingest.
    """
    from .claims import cache as claimcache
    from .config import load_config

    try:
        similarity = float(load_config(paths.config)["identity"]["merge_similarity"])
        claimcache.keep_up(paths, similarity)
    except (AgentMemoryError, OSError, ValueError, KeyError, TypeError) as exc:
        log_error(paths, "ingest: claim cache", exc)
