"""Contradictions a person would agree with: the labelled pairs, each said in two sessions on two days.

A pair is contested when the promotion pass marks its two claims as contesting each other;
the label says whether a person reading both would see a conflict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.contradictions import pair_contested

DATA = Path(__file__).parent / "data"


def _pairs(name: str) -> list[Any]:
    with open(DATA / name, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [pytest.param(row, id=f"{row['lang']}-{row['label']}-{row['kind']}-{n}") for n, row in enumerate(rows)]


PAIRS = _pairs("contradiction_pairs.jsonl") + _pairs("contradiction_pairs_heldout.jsonl")


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-20T12:00:00Z")


@pytest.mark.parametrize("pair", PAIRS)
def test_a_pair_is_contested_exactly_when_a_person_sees_a_conflict(pair: dict[str, Any], tmp_path: Path) -> None:
    assert pair_contested(pair, tmp_path) == (pair["label"] == "contradiction"), (pair["a"], pair["b"])


def test_the_pair_set_is_balanced_and_covers_three_languages() -> None:
    rows = [p.values[0] for p in PAIRS]
    compatible = sum(1 for r in rows if r["label"] == "compatible")
    assert len(rows) >= 40 and abs(2 * compatible - len(rows)) <= len(rows) // 10
    assert {r["lang"] for r in rows} == {"en", "ja", "zh"}
    assert any("b_reverses" in r for r in rows if r["lang"] == "en") and any("b_reverses" in r for r in rows if r["lang"] != "en")
