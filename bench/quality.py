"""Quality: marker extraction on the labelled turns, redaction on the secrets corpus, recall on LoCoMo.

Each figure comes from the function that owns it; when one is missing or fails, the report
says so instead of showing a number.
"""

from __future__ import annotations

import importlib
import math
import time
import traceback
from pathlib import Path
from typing import Any, Callable

from .profiling import ROOT
from .report import NO_GOAL, Section, pct, secs

LABELLED = ROOT / "tests" / "data" / "labelled_turns.jsonl"


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "n/a"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:,.1f}"
    return str(value)


def _scalars(found: dict[str, Any]) -> list[tuple[str, str]]:
    """The plain figures of a report (lists of examples left out); rates and recalls as percentages."""
    rows = []
    for key, value in found.items():
        if isinstance(value, float) and key.lower().endswith(("recall", "rate", "precision")) and value <= 1:
            rows.append((key, pct(value)))
        elif isinstance(value, (int, float, str, bool)):
            rows.append((key, _number(value)))
    return rows


def _call(section: Section, what: str, func: Callable[[], Any]) -> Any:
    """Run one quality function; on failure say so in the report."""
    try:
        return func()
    except Exception as exc:  # a broken quality function is reported, not fatal to the benchmark
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        section.say(f"{what}: **not measured** — `{last}`", "")
        return None


def _markers(section: Section) -> None:
    section.say("### Marker extraction", "")
    try:
        markers = importlib.import_module("agent_memory.markers")
    except ImportError as exc:
        section.say(f"**not measured** — `agent_memory.markers` cannot be imported: `{exc}`", "")
        return
    report = getattr(markers, "corpus_report", None)
    if report is None or not LABELLED.exists():
        section.say("**not measured** — `markers.corpus_report` or `tests/data/labelled_turns.jsonl` is missing.", "")
        return
    found = _call(section, "Marker extraction", lambda: report(LABELLED))
    if not isinstance(found, dict):
        return
    section.say(f"`agent_memory.markers.corpus_report(\"tests/data/labelled_turns.jsonl\")`: a turn counts as found when "
                "the expected kind is among the markers; any marker on a turn labelled none is a false positive.", "")
    rows = [("all", found.get("turns"), found.get("positives"), found.get("precision"), found.get("recall"))]
    for name, part in sorted((found.get("by_lang") or {}).items()):
        rows.append((f"lang {name}", part.get("turns"), part.get("positives"), part.get("precision"), part.get("recall")))
    for name in ("tuned", "holdout"):
        part = found.get(name)
        if isinstance(part, dict) and part.get("turns"):
            rows.append((name, part.get("turns"), part.get("positives"), part.get("precision"), part.get("recall")))
    section.table(("turns", "count", "positives", "precision", "recall"),
                  [(r[0], _number(r[1]), _number(r[2]), pct(float(r[3] or 0)), pct(float(r[4] or 0))) for r in rows])
    section.goal("marker precision / recall (labelled turns)",
                 f"{pct(float(found.get('precision', 0)))} / {pct(float(found.get('recall', 0)))}", NO_GOAL, None)


def _redaction(section: Section, data: Path | None) -> None:
    section.say("### Redaction", "")
    corpus = data / "secrets" if data else None
    try:
        redact = importlib.import_module("agent_memory.redact")
    except ImportError as exc:
        section.say(f"**not measured** — `agent_memory.redact` cannot be imported: `{exc}`", "")
        return
    report = getattr(redact, "corpus_report", None) or getattr(redact, "measure", None)
    if report is None or corpus is None or not corpus.is_dir():
        section.say("**not measured** — no redaction report function, or no `shared/data/secrets` corpus.", "")
        return
    started = time.perf_counter()
    found = _call(section, "Redaction", lambda: report(corpus))
    if not isinstance(found, dict):
        return
    seconds = time.perf_counter() - started
    section.say(f"`agent_memory.redact.{report.__name__}(\"shared/data/secrets\")` ({secs(seconds)}): recall on planted "
                "secrets (caught = a rule fired and no 12-character piece survived), false positives on ordinary lines, "
                "and how often near-miss look-alikes are flagged.", "")
    section.table(("figure", "value"), _scalars(found))
    recall, fp = found.get("recall"), found.get("fp_rate")
    if isinstance(recall, (int, float)) and isinstance(fp, (int, float)):
        section.goal("redaction recall / false-positive rate (secrets corpus)", f"{pct(float(recall))} / {pct(float(fp))}",
                     NO_GOAL, None)


def _locomo(section: Section, data: Path | None, quick: bool) -> None:
    section.say("### Recall on LoCoMo", "")
    path = data / "locomo" / "locomo10.json" if data else None
    try:
        module = importlib.import_module("bench.recall_locomo")
    except ImportError as exc:
        section.say(f"**not measured** — `bench/recall_locomo.py` cannot be imported: `{exc}`", "")
        return
    evaluate = getattr(module, "evaluate", None)
    if evaluate is None or path is None or not path.exists():
        section.say("**not measured** — no `bench.recall_locomo.evaluate`, or no `shared/data/locomo/locomo10.json`.", "")
        return
    limit = 1 if quick else None
    started = time.perf_counter()
    found = _call(section, "LoCoMo", lambda: evaluate(path, limit_conversations=limit, semantic=False))
    if not isinstance(found, dict):
        return
    seconds = time.perf_counter() - started
    scope = "the first conversation" if limit else "all conversations"
    section.say(f"`bench.recall_locomo.evaluate(locomo10.json, limit_conversations={limit}, semantic=False)` on {scope} "
                f"({secs(seconds)}).", "")
    _nested(section, "", found)
    systems = found.get("systems")
    if isinstance(systems, dict) and isinstance(systems.get("ours"), dict) and isinstance(systems.get("bm25"), dict):
        ours, bm25 = systems["ours"], systems["bm25"]
        keys = [k for k in ours if k.startswith("recall@") and isinstance(ours[k], (int, float))]
        shown = ", ".join(f"{k} {ours[k]:.3f} vs {float(bm25.get(k, 0)):.3f}" for k in keys)
        section.goal("LoCoMo recall, ours vs BM25", shown or "n/a", NO_GOAL, None)


def _leaves(value: Any) -> bool:
    """A dict of plain figures."""
    return isinstance(value, dict) and bool(value) and all(isinstance(v, (int, float)) or v is None for v in value.values())


def _nested(section: Section, name: str, value: dict[str, Any]) -> None:
    """A report of unknown shape as tables: plain figures, rows of figures, rows of rows."""
    scalars = _scalars(value)
    if scalars:
        if name:
            section.say(f"`{name}`:", "")
        section.table(("figure", "value"), scalars)
    for key, child in value.items():
        label = f"{name}.{key}" if name else key
        if not isinstance(child, dict) or not child:
            continue
        if all(_leaves(v) for v in child.values()):
            columns = sorted({c for v in child.values() for c in v})
            section.say(f"`{label}`:", "")
            section.table((key, *columns), [(k, *(_number(v.get(c)) if v.get(c) is not None else "—" for c in columns))
                                            for k, v in child.items()])
        elif all(isinstance(v, dict) and v and all(_leaves(x) for x in v.values()) for v in child.values()):
            columns = sorted({c for v in child.values() for x in v.values() for c in x})
            rows = [(f"{k} / {k2}", *(_number(x.get(c)) if x.get(c) is not None else "—" for c in columns))
                    for k, v in child.items() for k2, x in v.items()]
            section.say(f"`{label}`:", "")
            section.table((key, *columns), rows)
        else:
            _nested(section, label, child)


def _extraction(section: Section, data: Path | None) -> None:
    try:
        module = importlib.import_module("bench.extraction")
    except ImportError as exc:
        section.say("### Extraction on real turns", "", f"**not measured** — `bench/extraction.py`: `{exc}`", "")
        return
    _call(section, "Extraction on real turns", lambda: module.add_section(section, data))


def run(data: Path | None, quick: bool) -> Section:
    """The quality figures, each from its own module."""
    section = Section("quality", "5. Quality")
    _markers(section)
    _extraction(section, data)
    _redaction(section, data)
    _locomo(section, data, quick)
    return section
