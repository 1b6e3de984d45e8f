"""Extraction on real turns: the marker rules scored on hand-labelled person turns, and atoms per 100 turns.

``shared/data/real_turns/turns.tsv`` holds person-typed turns labelled by a written guideline (its header);
a marker is a hit when it overlaps a labelled claim span. The shared transcripts are read with the
project's own readers and ingested as ``ingest`` would, to count how often a real person turn yields an atom.

``bench/data/real_turns/turns.tsv`` holds more real person turns (public MIT or CC0 sessions; sources.tsv), labelled
by the same guideline, in a *tune* and a *heldout* split by repository; ``--dev`` scores both, side by side, per
language, with the yield of each.

``python -m bench.extraction [--data DIR] [--show] [--dev]`` prints the figures (and, with ``--show``, every miss,
false hit and atom) without running the rest of the benchmark.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent_memory import ingest, markers  # noqa: E402
from agent_memory.errors import AgentMemoryError  # noqa: E402
from agent_memory.transcripts import iter_transcript_files  # noqa: E402
from agent_memory.agents.reading import read_transcript

LANGS = ("en", "ja", "zh")
SPAN_SEPARATOR = " ‖ "
_UNESCAPE = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}

# Measured with the rules as they stood before the rules for bare prohibitions, conditionals,
# stated facts, Japanese polite requests, Chinese 不要/必须/一律 and reversals were written.
BEFORE: dict[str, dict[str, float]] = {
    "all": {"precision": 0.818, "recall": 0.205},
    "en": {"precision": 0.600, "recall": 0.120},
    "ja": {"precision": 1.000, "recall": 0.444},
    "zh": {"precision": 1.000, "recall": 0.200},
}
BEFORE_PER_100_TURNS = 0.0  # atoms per 100 person turns on the shared transcripts (46 turns)


@dataclass(frozen=True)
class LabelledTurn:
    """One row of turns.tsv: a person's turn, its label and the words that carry the claim."""

    source: str
    lang: str
    text: str
    label: str
    spans: tuple[str, ...]


def _unescape(field: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(field):
        c = field[i]
        if c == "\\" and i + 1 < len(field) and field[i + 1] in _UNESCAPE:
            out.append(_UNESCAPE[field[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def load_turns(path: Path) -> list[LabelledTurn]:
    """The labelled rows of turns.tsv (comment lines and the column header skipped)."""
    rows: list[LabelledTurn] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line.startswith("source_id\t"):
                continue
            fields = line.split("\t")
            fields += [""] * (5 - len(fields))
            source, lang, text, label, span = fields[:5]
            spans = tuple(_unescape(s) for s in span.split(SPAN_SEPARATOR) if s.strip()) if span else ()
            rows.append(LabelledTurn(source, lang, _unescape(text), label, spans))
    return rows


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _interval(haystack: str, needle: str) -> tuple[int, int] | None:
    at = haystack.find(needle)
    return None if at < 0 else (at, at + len(needle))


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _ratio(num: int, den: int) -> float:
    return num / den if den else 1.0


def spans_hit(row: LabelledTurn, found: list[str]) -> list[list[int]]:
    """For each text found in a row's turn, the labelled claim spans (by index) it overlaps."""
    text = _collapse(row.text)
    spans = [_interval(text, _collapse(s)) for s in row.spans]
    out = []
    for piece in found:
        where = _interval(text, _collapse(piece))
        out.append([i for i, s in enumerate(spans) if s is not None and where is not None and _overlaps(where, s)])
    return out


def score_turns(rows: list[LabelledTurn]) -> dict[str, Any]:
    """Precision over markers (a marker overlapping a claim span is right) and recall over claim spans."""
    counts = {lang: Counter[str]() for lang in ("all", *LANGS)}
    errors: list[dict[str, Any]] = []
    for row in rows:
        found = markers.find_markers(row.text)
        text = _collapse(row.text)
        spans = [(s, _interval(text, _collapse(s))) for s in row.spans]
        for span, where in spans:
            if where is None:
                errors.append({"source": row.source, "problem": "span not in text", "span": span})
        hit_spans: set[int] = set()
        for marker, hits in zip(found, spans_hit(row, [m.text for m in found])):
            good = bool(hits) and row.label != "none"
            for c in (counts["all"], counts[row.lang]):
                c["markers"] += 1
                c["right"] += good
                c["same_kind"] += good and marker.kind == row.label
            hit_spans.update(hits)
            if not good:
                errors.append({"source": row.source, "problem": "false hit", "lang": row.lang, "label": row.label,
                               "rule": marker.rule_id, "marker": marker.text, "text": row.text})
        if row.label == "none":
            continue
        for c in (counts["all"], counts[row.lang]):
            c["spans"] += len(spans)
            c["found"] += len(hit_spans)
        for i, (span, _) in enumerate(spans):
            if i not in hit_spans:
                errors.append({"source": row.source, "problem": "missed", "lang": row.lang, "label": row.label,
                               "span": span, "text": row.text,
                               "found": [(m.rule_id, m.text) for m in found]})
    report: dict[str, Any] = {}
    for name, c in counts.items():
        report[name] = {
            "turns": sum(1 for r in rows if name in ("all", r.lang)),
            "claim_spans": c["spans"],
            "markers": c["markers"],
            "precision": _ratio(c["right"], c["markers"]),
            "recall": _ratio(c["found"], c["spans"]),
            "same_kind": _ratio(c["same_kind"], c["right"]),
        }
    report["errors"] = errors
    return report


DEV_TURNS = Path(__file__).resolve().parent / "data" / "real_turns" / "turns.tsv"
SPLITS = ("tune", "heldout")


def load_dev_turns(path: Path = DEV_TURNS) -> dict[str, list[LabelledTurn]]:
    """The rows of the dev set by split (its sixth column); the first five columns read as turns.tsv."""
    rows = load_turns(path)
    split_of: dict[str, str] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 6 and not line.startswith("#"):
                split_of[fields[0]] = fields[5]
    out: dict[str, list[LabelledTurn]] = {s: [] for s in SPLITS}
    for row in rows:
        out.setdefault(split_of.get(row.source, "tune"), []).append(row)
    return out


def score_dev(path: Path = DEV_TURNS) -> dict[str, dict[str, Any]]:
    """``score_turns`` on each split of the dev set."""
    return {split: score_turns(rows) for split, rows in load_dev_turns(path).items()}


def by_batch(path: Path = DEV_TURNS) -> list[tuple[str, str, dict[str, Any]]]:
    """``score_turns``' figures for each batch of the dev set (the letter its row ids start with), by split: a batch
    joined the set at once, labelled before any rule ran on it, so the rules of the day before it joined scored it
    at first sight, and a batch in the held-out split is still at first sight today."""
    out = []
    for split, rows in load_dev_turns(path).items():
        batches: dict[str, list[LabelledTurn]] = {}
        for row in rows:
            batches.setdefault(row.source[:1], []).append(row)
        out.extend((split, batch, score_turns(part)["all"]) for batch, part in sorted(batches.items()))
    return out


def yield_on_rows(rows: list[LabelledTurn]) -> dict[str, float]:
    """Atoms per 100 person turns, and how many of them a reader keeps (those on a labelled claim span)."""
    report = score_turns(rows)["all"]
    turns = report["turns"]
    return {"turns": turns, "atoms": report["markers"], "kept": round(report["precision"] * report["markers"]),
            "per_100_turns": 100 * report["markers"] / turns if turns else 0.0,
            "kept_per_100_turns": 100 * report["precision"] * report["markers"] / turns if turns else 0.0}


def atoms_on_transcripts(folder: Path) -> dict[str, Any]:
    """Person turns and the atoms ingest would take from them, per agent, on real transcript files."""
    per_agent: dict[str, Counter[str]] = {}
    atoms: list[dict[str, Any]] = []
    unreadable: list[str] = []
    for path in iter_transcript_files([str(folder)]):
        try:
            result = read_transcript(path)
        except AgentMemoryError:
            unreadable.append(Path(path).name)
            continue
        for turn in result.turns:
            if turn.role != "user":
                continue
            c = per_agent.setdefault(turn.agent, Counter())
            c["person_turns"] += 1
            found = ingest.atoms_from_turn(turn, "bench")
            c["atoms"] += len(found)
            atoms.extend({"file": Path(path).name, "rule": a["rule"], "text": a["text"]} for a in found)
    total = Counter[str]()
    for c in per_agent.values():
        total.update(c)
    rows = {agent: {"person_turns": c["person_turns"], "atoms": c["atoms"],
                    "per_100_turns": 100 * c["atoms"] / c["person_turns"] if c["person_turns"] else 0.0}
            for agent, c in sorted(per_agent.items())}
    rows["all"] = {"person_turns": total["person_turns"], "atoms": total["atoms"],
                   "per_100_turns": 100 * total["atoms"] / total["person_turns"] if total["person_turns"] else 0.0}
    return {"by_agent": rows, "atoms": atoms, "unreadable": unreadable}


def evaluate(data: Path) -> dict[str, Any] | None:
    """Both measures on the shared data folder; None when it holds no labelled turns."""
    tsv = data / "real_turns" / "turns.tsv"
    if not tsv.exists():
        return None
    report = {"turns": score_turns(load_turns(tsv))}
    transcripts = data / "transcripts"
    if transcripts.is_dir():
        report["transcripts"] = atoms_on_transcripts(transcripts)
    return report


def add_section(section: Any, data: Path | None) -> None:
    """The "Extraction on real turns" part of the quality section of BENCHMARKS.md."""
    from .report import pct

    section.say("### Extraction on real turns", "")
    found = evaluate(data) if data else None
    if found is None:
        section.say("**not measured** — no `shared/data/real_turns/turns.tsv`.", "")
        return
    turns = found["turns"]
    section.say("`bench/extraction.py` on `shared/data/real_turns/turns.tsv` (person-typed turns labelled by the "
                "guideline in its header): precision over markers (a marker is right when it overlaps a labelled "
                "claim span), recall over claim spans. *before* is the same measure on the rules before the "
                "patterns of bare prohibitions, conditionals, stated facts, polite requests and reversals were added. "
                "The rules were written with these rows in view, so *now* is a tuned figure: each row stands for a "
                "pattern, and the table tests carry other examples of each; held-out sessions are the real test.", "")
    rows = []
    for name in ("all", *LANGS):
        part, before = turns[name], BEFORE.get(name, {})
        rows.append((name, part["turns"], part["claim_spans"], part["markers"],
                     f"{pct(before.get('precision', float('nan')))} → {pct(part['precision'])}",
                     f"{pct(before.get('recall', float('nan')))} → {pct(part['recall'])}", pct(part["same_kind"])))
    section.table(("turns", "count", "claim spans", "markers", "precision (before → now)",
                   "recall (before → now)", "right kind"), rows)
    section.goal("extraction on real turns, precision / recall",
                 f"{pct(turns['all']['precision'])} / {pct(turns['all']['recall'])}", "≥ 90% / ≥ 60%",
                 turns["all"]["precision"] >= 0.9 and turns["all"]["recall"] >= 0.6)
    shown = found.get("transcripts")
    if shown:
        section.say("Atoms per 100 person turns on the shared real transcripts (`shared/data/transcripts`, read by "
                    "`agent_memory.transcripts`, atoms as `ingest.atoms_from_turn` writes them; before: "
                    f"{BEFORE_PER_100_TURNS:.1f}):", "")
        section.table(("agent", "person turns", "atoms", "atoms per 100 turns"),
                      [(agent, r["person_turns"], r["atoms"], f"{r['per_100_turns']:.1f}")
                       for agent, r in shown["by_agent"].items()])


def _default_data() -> Path:
    """``../shared/data`` beside the checkout, or one level further up (a checkout inside a worktree folder)."""
    root = Path(__file__).resolve().parents[1]
    for base in (root.parent, root.parent.parent):
        if (base / "shared" / "data").is_dir():
            return base / "shared" / "data"
    return root.parent / "shared" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction", description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(_default_data()), help="the shared data folder")
    parser.add_argument("--show", action="store_true", help="print every miss, false hit and atom")
    parser.add_argument("--dev", action="store_true", help="score bench/data/real_turns (tune and heldout splits)")
    args = parser.parse_args(argv)
    if args.dev:
        return _print_dev(args.show)
    found = evaluate(Path(args.data))
    if found is None:
        print(f"no real_turns/turns.tsv under {args.data}", file=sys.stderr)
        return 1
    turns = found["turns"]
    for name in ("all", *LANGS):
        p = turns[name]
        print(f"{name:4} turns={p['turns']:3} spans={p['claim_spans']:3} markers={p['markers']:3} "
              f"precision={p['precision']:.3f} recall={p['recall']:.3f} same_kind={p['same_kind']:.3f}")
    shown = found.get("transcripts", {})
    for agent, r in shown.get("by_agent", {}).items():
        print(f"{agent:7} person_turns={r['person_turns']:4} atoms={r['atoms']:3} per_100={r['per_100_turns']:.1f}")
    if args.show:
        for error in turns["errors"]:
            print(" ", error)
        for atom in shown.get("atoms", []):
            print("  atom", atom)
        if shown.get("unreadable"):
            print("  unreadable", shown["unreadable"])
    return 0


def _print_dev(show: bool) -> int:
    scored = score_dev()
    print(f"{'':4} {'tune':>42}   | {'heldout':>42}")
    for name in ("all", *LANGS):
        cells = []
        for split in SPLITS:
            p = scored[split][name]
            cells.append(f"turns={p['turns']:3} spans={p['claim_spans']:2} markers={p['markers']:3} "
                         f"P={p['precision']:.3f} R={p['recall']:.3f}")
        print(f"{name:4} {cells[0]}   | {cells[1]}")
    for split, rows in load_dev_turns().items():
        y = yield_on_rows(rows)
        print(f"yield {split:7} atoms/100 turns={y['per_100_turns']:.1f} kept/100 turns={y['kept_per_100_turns']:.1f}")
    for split, batch, p in by_batch():
        print(f"batch {batch} ({split:7}) turns={p['turns']:4} spans={p['claim_spans']:3} markers={p['markers']:3} "
              f"P={p['precision']:.3f} R={p['recall']:.3f}")
    if show:  # the tuning split only: the held-out rows are not read while rules are written
        for error in scored["tune"]["errors"]:
            print(" ", error)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
