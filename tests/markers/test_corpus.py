"""Precision and recall of the marker rules on the labelled corpus of user turns."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from agent_memory.markers import corpus_report
from agent_memory.model import KINDS

CORPUS = Path(__file__).parents[1] / "data" / "labelled_turns.jsonl"


def _rows() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _line(name: str, scores: dict[str, Any]) -> str:
    return (
        f"{name:8} precision={scores['precision']:.3f} recall={scores['recall']:.3f} "
        f"turns={scores['turns']} positives={scores['positives']} "
        f"tp={scores['tp']} fp={scores['fp']} fn={scores['fn']}"
    )


def test_corpus_is_well_formed() -> None:
    rows = _rows()
    assert len(rows) >= 240
    for row in rows:
        assert set(row) <= {"text", "expected", "lang", "note"}
        assert isinstance(row["text"], str) and row["text"]
        assert row["expected"] is None or row["expected"] in KINDS
        assert row["lang"] in ("en", "ja", "zh")
    langs = Counter(str(r["lang"]) for r in rows)
    assert 0.45 <= langs["en"] / len(rows) <= 0.65
    assert 0.30 <= langs["ja"] / len(rows) <= 0.50
    assert langs["zh"] > 0
    assert sum(r["expected"] is None for r in rows) / len(rows) >= 0.45
    assert sum(r.get("note") == "holdout" for r in rows) >= 40
    assert len({r["text"] for r in rows}) == len(rows)


def test_precision_and_recall_on_the_corpus() -> None:
    report = corpus_report(CORPUS)
    print()
    print(_line("overall", report))
    for lang, scores in report["by_lang"].items():
        print(_line(lang, scores))
    print(_line("tuned", report["tuned"]))
    print(_line("holdout", report["holdout"]))
    for error in report["errors"]:
        print("  miss/false:", error)
    assert report["precision"] >= 0.95
    assert report["recall"] >= 0.60


def test_the_errors_listed_are_those_of_the_rows_tuned_on(tmp_path: Path) -> None:
    """A held-out row is scored but never shown: reading the errors must not show the rules a held-out row."""
    corpus = tmp_path / "turns.jsonl"
    rows = [
        {"text": "Thanks, looks fine.", "expected": "instruction", "lang": "en"},
        {"text": "Okay, next one please.", "expected": "instruction", "lang": "en", "note": "holdout"},
    ]
    corpus.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    report = corpus_report(corpus)
    assert report["holdout"]["fn"] == 1 and report["tuned"]["fn"] == 1
    assert [error["text"] for error in report["errors"]] == ["Thanks, looks fine."]
