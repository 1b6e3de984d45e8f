"""Scoring the marker rules on a labelled corpus of user turns (JSONL, one turn a line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .engine import find_markers

__all__ = ["corpus_report"]


def _score(rows: list[tuple[str | None, set[str]]]) -> dict[str, Any]:
    """Precision / recall over (expected kind, kinds found) pairs."""
    tp = fp = fn = 0
    positives = 0
    for expected, found in rows:
        if expected:
            positives += 1
        if expected and expected in found:
            tp += 1
        else:
            if found:
                fp += 1
            if expected:
                fn += 1
    predicted = tp + fp
    return {
        "precision": tp / predicted if predicted else 1.0,
        "recall": tp / positives if positives else 1.0,
        "turns": len(rows),
        "positives": positives,
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


def corpus_report(path: str | Path) -> dict[str, Any]:
    """Precision and recall of the rules on a labelled JSONL corpus, overall and split.

    Each line is ``{"text", "expected": kind | null, "lang", "note"?}``. A turn is a
    true positive when its expected kind is among the markers found, a false positive
    when markers are found but not of the expected kind (or none were expected). Rows
    noted ``"holdout"`` are also scored on their own, as are the rows tuned on; ``errors`` lists the misses and false
    hits of the rows tuned on only, so that reading them never shows a held-out row.
    """
    rows: list[dict[str, object]] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
    found = [find_markers(str(row["text"])) for row in rows]
    pairs = [
        (str(row["expected"]) if row.get("expected") else None, {m.kind for m in markers})
        for row, markers in zip(rows, found, strict=True)
    ]

    def subset(field: str, value: str, same: bool = True) -> dict[str, Any]:
        return _score([pair for row, pair in zip(rows, pairs, strict=True) if (row.get(field) == value) is same])

    report = _score(pairs)
    langs = sorted({str(r.get("lang", "")) for r in rows})
    report["by_lang"] = {lang: subset("lang", lang) for lang in langs}
    report["holdout"] = subset("note", "holdout")
    report["tuned"] = subset("note", "holdout", same=False)
    report["errors"] = [
        {
            "text": row["text"],
            "expected": expected,
            "found": [(m.kind, m.rule_id, m.text) for m in markers],
            "lang": row.get("lang"),
            "note": row.get("note"),
        }
        for row, markers, (expected, kinds) in zip(rows, found, pairs, strict=True)
        if row.get("note") != "holdout" and ((expected and expected not in kinds) or (kinds and expected not in kinds))
    ]
    return report
