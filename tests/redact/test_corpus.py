"""Recall and false positives of the redaction filter on the shared secrets corpus.

The corpus lives next to the repository (``<repo>/../shared/data/secrets``, or one folder up); without
it these tests are skipped. The figures are printed so they can go into a report;
:func:`measure` is importable by benchmarks.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent_memory.redact import corpus_report, redact

def _shared_data() -> Path:
    """``shared/data`` beside the repository (or beside the folder that holds it)."""
    repo = Path(__file__).resolve().parents[2]
    for base in (repo.parent, repo.parent.parent):
        if (base / "shared" / "data").is_dir():
            return base / "shared" / "data"
    return repo.parent / "shared" / "data"


DATA = _shared_data()
CORPUS = DATA / "secrets"
TRANSCRIPTS = DATA / "transcripts"

RECALL_TARGET = 0.98
FP_TARGET = 0.01


def measure(corpus_dir: str | Path = CORPUS) -> dict[str, object]:
    """Recall / false-positive / near-miss figures for ``corpus_dir`` (see ``corpus_report``)."""
    return corpus_report(corpus_dir)


@pytest.fixture(scope="module")
def report() -> dict[str, object]:
    if not (CORPUS / "positives.txt").is_file():
        pytest.skip(f"secrets corpus not found at {CORPUS}")
    return measure(CORPUS)


def _say(capsys: pytest.CaptureFixture[str], *lines: str) -> None:
    with capsys.disabled():
        print()
        for line in lines:
            print(line)


def test_recall_on_positives(report: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    missed = report["missed"]
    _say(
        capsys,
        f"redaction recall: {report['caught']}/{report['positives']} = {report['recall']:.4f}",
        *(f"  missed [{kind}] {line[:100]}" for line, kind in missed),
    )
    assert report["recall"] >= RECALL_TARGET


def test_false_positives_on_negatives(report: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    _say(
        capsys,
        f"false positives: {report['false_positives']}/{report['negatives']} = {report['fp_rate']:.4f}",
        *(f"  flagged [{kind}] {line[:100]}" for line, kind in report["false_positive_lines"]),
    )
    assert report["fp_rate"] <= FP_TARGET


def test_near_miss_rate_is_reported(report: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    # Format-adjacent lines the source tools leave alone; a conservative filter may
    # redact some of them, so this is measured, not targeted.
    _say(capsys, f"near-miss flagged: {report['near_miss_flagged']}/{report['near_miss']} = {report['near_miss_rate']:.4f}")
    assert 0.0 <= report["near_miss_rate"] <= 1.0


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _transcript_lines() -> list[str]:
    lines: list[str] = []
    for path in sorted(TRANSCRIPTS.rglob("*.json*")):
        raw = path.read_text(encoding="utf-8", errors="replace")
        lines.extend([raw] if path.suffix == ".json" else [line for line in raw.splitlines() if line.strip()])
    return lines


def _cpu_seconds(fn: Any, items: list[str], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return max(best, 1e-9)


def test_throughput_on_real_transcripts(capsys: pytest.CaptureFixture[str]) -> None:
    if not TRANSCRIPTS.is_dir():
        pytest.skip(f"transcripts not found at {TRANSCRIPTS}")
    lines = _transcript_lines()
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            continue
    strings = [s for obj in parsed for s in _strings(obj) if s]
    line_mb = sum(len(x.encode()) for x in lines) / 1e6
    string_mb = sum(len(x.encode()) for x in strings) / 1e6
    parse = _cpu_seconds(lambda x: json.loads(x) if x.lstrip()[:1] in "[{" else None, lines)
    on_lines = _cpu_seconds(redact, lines)
    on_strings = _cpu_seconds(redact, strings)
    flagged = sum(1 for s in strings if redact(s).redacted)
    _say(
        capsys,
        f"json.loads of transcript lines: {line_mb:.2f} MB in {parse * 1e3:.0f} ms = {line_mb / parse:.0f} MB/s",
        f"redact() of the same lines:     {line_mb / on_lines:.0f} MB/s ({on_lines / parse:.1f}x json.loads)",
        f"redact() of every string value: {string_mb:.2f} MB, {len(strings)} strings, {string_mb / on_strings:.0f} MB/s, "
        f"{flagged} redacted",
    )
    assert strings
