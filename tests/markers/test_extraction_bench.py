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


def test_dev_set_is_sourced_and_split_by_repository() -> None:
    """Every dev turn names where it was read; its spans are its own words; no repository sits in both splits, and
    none of the repositories kept for judging extraction (when ``../shared`` is beside us) is in the set at all."""
    from bench.extraction import DEV_TURNS, load_dev_turns

    sources = {}
    for line in (DEV_TURNS.parent / "sources.tsv").read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line.startswith("#") or fields[0] == "source_id":
            continue
        assert len(fields) == 6 and len(fields[2]) == 40, line[:80]
        sources[fields[0]] = fields[1]
    splits = load_dev_turns()
    repos = {split: {sources[row.source] for row in rows} for split, rows in splits.items()}
    assert not repos["tune"] & repos["heldout"]
    every = [row for rows in splits.values() for row in rows]
    assert [row.source for row in every if row.source not in sources] == []
    assert len({row.source for row in every}) == len(every)
    for row in every:
        for span in row.spans:
            assert " ".join(span.split()) in " ".join(row.text.split()), (row.source, span)
    held = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "real_turns" / "HELD_OUT_REPOSITORIES.txt"
    if held.is_file():
        kept = {line.strip() for line in held.read_text(encoding="utf-8").splitlines() if line.strip()[:1] not in ("", "#")}
        assert not kept & (repos["tune"] | repos["heldout"])


def test_batches_are_scored_apart(tmp_path: Path) -> None:
    """A batch is the letter its row ids start with; each is scored within its split alone."""
    from bench.extraction import by_batch

    path = tmp_path / "turns.tsv"
    path.write_text(
        "source_id\tlang\ttext\tlabel\tclaim_span\tsplit\tposition\n"
        "A1\ten\tAlways rebase before pushing.\tinstruction\tAlways rebase before pushing.\ttune\tfirst\n"
        "B1\ten\tdon't touch the header yet\tnone\t\ttune\treply\n"
        "B2\ten\tThe port is 5432, not 5433.\tnone\t\ttune\treply\n"
        "C1\ten\tAlways run the linter.\tinstruction\tAlways run the linter.\theldout\tfirst\n",
        encoding="utf-8")
    got = {(split, batch): (p["turns"], p["markers"], p["precision"]) for split, batch, p in by_batch(path)}
    assert got == {("tune", "A"): (1, 1, 1.0), ("tune", "B"): (2, 1, 0.0), ("heldout", "C"): (1, 1, 1.0)}
