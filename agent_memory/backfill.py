"""Backfill: ``ingest`` with a pool of reader processes, for a large history (``ingest --workers N``).

It is the one pipeline of ``ingest.py``; only the pool and the periodic flushing differ. These
names stay importable from here.
"""

from __future__ import annotations

from typing import Iterable

from .ingest import FLUSH_RECORDS, FileResult, FileTask, IngestReport, peak_rss_kb, read_file
from .ingest import ingest as _ingest
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
