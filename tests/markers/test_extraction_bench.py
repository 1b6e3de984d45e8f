"""bench/extraction.py: a marker counts as a hit only where it overlaps the labelled claim span."""

from __future__ import annotations

from pathlib import Path

from bench.extraction import load_turns, score_turns

TSV = (
    "# a guideline line\n"
    "source_id\tlang\ttext\tlabel\tclaim_span\n"
    "A1\ten\tFix the header. Always rebase before pushing.\tinstruction\tAlways rebase before pushing.\n"
    "A2\ten\tdon't touch the header yet\tnone\t\n"
    "A3\ten\tline one\\nAlways run the linter.\tinstruction\tAlways run the linter.\n"
    "A4\ten\tAlways rebase before pushing. The port is 5432, not 5433.\tinstruction\tAlways rebase before pushing.\n"
    "A5\tja\t今後はpnpmを使ってください。\tinstruction\tpnpmを使って ‖ 今後は\n"
)


def test_overlap_scoring(tmp_path: Path) -> None:
    path = tmp_path / "turns.tsv"
    path.write_text(TSV, encoding="utf-8")
    rows = load_turns(path)
    assert [r.source for r in rows] == ["A1", "A2", "A3", "A4", "A5"]
    assert rows[2].text == "line one\nAlways run the linter."
    assert rows[4].spans == ("pnpmを使って", "今後は")
    report = score_turns(rows)
    # A4's correction overlaps no labelled span: one false hit among five markers
    assert report["all"]["markers"] == 5
    assert report["all"]["precision"] == 4 / 5
    assert report["all"]["recall"] == 1.0
    assert report["ja"]["recall"] == 1.0
    assert [e["source"] for e in report["errors"]] == ["A4"]
