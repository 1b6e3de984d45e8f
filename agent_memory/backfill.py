"""Backfill: ``ingest --workers N``, the one pipeline of ``ingest.py`` read by a pool of processes, for a large history.

The pipeline and its result are ``ingest.py``'s; the reader pool, the progress bar and each process's peak memory
are ``pool.py``'s. What a caller measuring a backfill needs is named here too (``__all__``).
"""

from __future__ import annotations

from typing import Iterable

from .ingest import FLUSH_RECORDS, FileResult, FileTask, IngestReport, read_file
from .ingest import ingest as _ingest
from .pool import peak_rss_kb
from .store import Paths

BackfillReport = IngestReport


def backfill(
    paths: Paths,
    inputs: Iterable[str],
    workers: int | None = None,
    project: str | None = None,
    agent: str = "auto",
    chunks: bool = True,
    progress: bool = False,
    flush_records: int = FLUSH_RECORDS,
) -> IngestReport:
    """Ingest with ``workers`` reader processes (``None``: every core; 0: in this process), flushing as it goes."""
    return _ingest(paths, inputs, project=project, agent=agent, chunks=chunks, workers=workers, progress=progress,
                   flush_records=flush_records)


__all__ = ["BackfillReport", "FileTask", "FileResult", "backfill", "peak_rss_kb", "read_file"]
