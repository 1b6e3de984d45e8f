"""The benchmark still runs end to end and reports every section with figures (no timing is asserted)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = (
    "Summary",
    "Machine and command",
    "1. Hook latency",
    "2. Ingest throughput",
    "2b. Backfill",
    "3. SessionEnd",
    "4. Promote",
    "4b. Rebuild",
    "5. Quality",
    "6. Contradictions",
    "Synthetic history and stores",
)
# a measured figure: a time, a ratio, a rate, a size or a share
FIGURE = re.compile(r"\d+(?:\.\d+)?\s?(?:ms|s|×|MB/s|MB|%)(?:\s|\||$)")


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {part.split("\n", 1)[0].strip(): part.split("\n", 1)[1] if "\n" in part else "" for part in parts}


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["HOME"] = str(tmp_path / "home")
    return env


def test_quick_benchmark_reports_every_section_with_figures(tmp_path: Path) -> None:
    out = tmp_path / "BENCHMARKS.md"
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(out)], cwd=ROOT, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    text = out.read_text(encoding="utf-8")
    found = _sections(text)
    for title in SECTIONS:
        matches = [body for name, body in found.items() if name.startswith(title)]
        assert matches, f"no section {title!r}"
        if title != "Machine and command":
            assert FIGURE.search(matches[0]), f"section {title!r} has no figures"
    assert "python -m bench --quick" in text  # the exact command
    machine = found["Machine and command"]
    for what in ("cores", "ram", "python", "sqlite"):
        assert re.search(rf"\| {what} \| \S", machine), what
    for figure in ("hook user-prompt-submit", "hook session-start", "ingest throughput", "SessionEnd done",
                   "promote dry run", "rebuild of claim tables and index", "backfill peak RSS", "contradiction precision", "contested share"):
        assert figure in found["Summary"], figure


def test_bench_runs_as_a_script_too(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "bench/run.py", "--help"], cwd=ROOT, env=_env(tmp_path), capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    for option in ("--sizes", "--quick", "--out", "--only"):
        assert option in done.stdout


def test_the_index_size_report_builds_aside_and_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    project = tmp_path / "project"
    l1 = project / ".memory" / "L1"
    l1.mkdir(parents=True)
    (project / ".git").mkdir()
    (l1 / "chunks.jsonl").write_text(
        "".join(f'{{"id": "c{i}", "text": "we deploy release {i} on friday 本番", "session": "s", "line": {i}}}\n'
                for i in range(20)), encoding="utf-8")
    before = sorted(p.name for p in (project / ".memory").rglob("*"))
    done = subprocess.run([sys.executable, "-m", "bench.index_size", str(project)], cwd=str(ROOT),
                          env=_env(tmp_path), capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "20 rows" in done.stdout and re.search(r"\| \d+\.\d\d× \|", done.stdout)
    assert "| table or index | MB |" in done.stdout
    assert sorted(p.name for p in (project / ".memory").rglob("*")) == before


def test_the_cue_ceiling_scores_sentences_as_the_rules_are_scored() -> None:
    sys.path.insert(0, str(ROOT))
    from agent_memory.markers import split_sentences
    from bench.cue_ceiling import DETECTORS, examples_of, precision_at, score, train
    from bench.extraction import LabelledTurn

    rows = [
        LabelledTurn("a1", "en", "Fix the header. Always run ruff before you commit.", "instruction",
                     ("Always run ruff before you commit.",)),
        LabelledTurn("a2", "en", "Thanks, looks good. Now add a test for the parser.", "none", ()),
        LabelledTurn("a3", "en", "We never squash merge here.", "instruction", ("We never squash merge here.",)),
    ]
    for name, marked, precision in (("every sentence", 5, 0.4), ("standing", 2, 1.0)):
        keep = DETECTORS[name]
        assert score(rows, lambda row: [s for s in split_sentences(row.text) if keep(s)]) == (marked, precision, 1.0)
    # a learned ranking that puts the two claims first reaches full recall at full precision
    examples = examples_of(rows)
    reached = precision_at(examples, train(examples * 20, epochs=5, decay=0.0), recalls=(1.0,))
    assert reached == {1.0: (1.0, 2)}
