"""Contradictions: precision and recall on labelled claim pairs, and the contested share of a realistic store.

Each labelled pair is said by the person in two sessions on two days of one project; the
store is built from those two atoms and the shipped promotion pass decides whether the two
claims contest each other. The contested share comes from a synthetic history of the
``mixed`` profile (habits restated with varied wording, a few revoked, many one-off rules
naming files and modules), ingested as a user's would be.

``python -m bench.contradictions [--atoms N] [--pairs-only]`` prints the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import environ_restored  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAIRS = ROOT / "tests" / "claims" / "data" / "contradiction_pairs.jsonl"
NOW = "2026-03-20T12:00:00Z"


def load_pairs(path: Path = PAIRS) -> list[dict[str, Any]]:
    """The labelled pairs, one JSON object a line."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _atom(text: str, session: str, day: str, kind: str = "instruction", reverses: str = "") -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": hashlib.sha1(f"{text}|{session}".encode()).hexdigest()[:16], "kind": kind, "rule": "bench",
        "text": text, "quote": text, "stated": False, "redacted": False, "redaction_rules": [], "agent": "claude",
        "session": session, "project": "shop", "cwd": "", "timestamp": f"{day}T10:00:00Z", "day": day,
        "transcript": f"/tmp/{session}.jsonl", "line": 1,
    }
    if reverses:
        found["reverses"] = reverses
    return found


def pair_contested(pair: dict[str, Any], root: Path) -> bool:
    """Whether the promotion pass finds the pair's two claims contesting each other."""
    from agent_memory.promote import plan
    from agent_memory.store import Paths

    project = root / hashlib.sha1(json.dumps(pair, sort_keys=True).encode()).hexdigest()[:10]
    (project / ".git").mkdir(parents=True, exist_ok=True)
    paths = Paths(store=project / ".memory", user=root / "user", project_root=project)
    paths.l1_dir.mkdir(parents=True, exist_ok=True)
    first = _atom(pair["a"], "s1", "2026-03-01", pair.get("a_kind", "instruction"))
    second = _atom(pair["b"], "s2", "2026-03-02", pair.get("b_kind", "instruction"), pair.get("b_reverses", ""))
    with open(paths.atoms, "w", encoding="utf-8") as handle:
        for atom in (first, second):
            handle.write(json.dumps(atom, ensure_ascii=False) + "\n")
    claims = plan(paths).claims
    owner = {i: c for c in claims for i in c.summary.ids}
    ca, cb = owner.get(first["id"]), owner.get(second["id"])
    return ca is not None and cb is not None and ca is not cb and cb.id in ca.contested_by


def with_marker_reversals(pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pairs with each reversal's ``reverses`` as the shipped marker rules give it (none when no rule says)."""
    from agent_memory.markers import find_markers

    found = []
    for pair in pairs:
        if "b_reverses" in pair:
            said = [m.reverses for m in find_markers(pair["b"]) if getattr(m, "reverses", "")]
            pair = {k: v for k, v in pair.items() if k != "b_reverses"}
            if said:
                pair["b_reverses"] = said[0]
        found.append(pair)
    return found


def score_pairs(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision and recall of "contested" against the labels, overall and per language, with the misses."""
    os.environ.setdefault("AGENT_MEMORY_NOW", NOW)
    with tempfile.TemporaryDirectory() as tmp:
        found = [(p, pair_contested(p, Path(tmp))) for p in pairs]

    def figures(rows: list[tuple[dict[str, Any], bool]]) -> dict[str, Any]:
        tp = sum(1 for p, hit in rows if hit and p["label"] == "contradiction")
        fp = sum(1 for p, hit in rows if hit and p["label"] != "contradiction")
        fn = sum(1 for p, hit in rows if not hit and p["label"] == "contradiction")
        return {"pairs": len(rows), "precision": tp / (tp + fp) if tp + fp else 1.0,
                "recall": tp / (tp + fn) if tp + fn else 1.0, "false_alarms": fp, "misses": fn}

    report = figures(found)
    report["by_language"] = {lang: figures([r for r in found if r[0]["lang"] == lang])
                             for lang in sorted({p["lang"] for p in pairs})}
    report["wrong"] = [{"a": p["a"], "b": p["b"], "label": p["label"]} for p, hit in found
                       if hit != (p["label"] == "contradiction")]
    return report


def contested_share(atoms: int, seed: int = 7) -> dict[str, Any]:
    """Claims and contested claims of a store ingested from a ``mixed`` synthetic history of about ``atoms`` atoms."""
    with environ_restored("HOME", "AGENT_MEMORY_HOME", "AGENT_MEMORY_NOW"):
        os.environ.setdefault("AGENT_MEMORY_NOW", NOW)
        return _contested_share(atoms, seed)


def _contested_share(atoms: int, seed: int) -> dict[str, Any]:
    from agent_memory.ingest import ingest
    from agent_memory.promote import plan
    from agent_memory.store import Paths
    from bench import synth

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        home = root / "home"
        os.environ["HOME"] = str(home)
        os.environ["AGENT_MEMORY_HOME"] = str(home / ".agent-memory")
        history = synth.write_history(root / "history", atoms=atoms, seed=seed, profile=synth.MIXED,
                                      counter=synth.marker_counter())
        project = root / "project"
        (project / ".git").mkdir(parents=True)
        paths = Paths.resolve(cwd=str(project))
        started = time.perf_counter()
        ingest(paths, sorted(str(p) for p in (root / "history").rglob("*.jsonl")))
        ingested = time.perf_counter() - started
        started = time.perf_counter()
        result = plan(paths)
        planned = time.perf_counter() - started
        claims = result.claims
        contested = [c for c in claims if c.contested]
        reasons: dict[str, int] = {}
        for claim in contested:
            for why in claim.contested_by.values():
                label = why.split(":")[0]
                reasons[label] = reasons.get(label, 0) + 1
        atoms_in = sum(c.observations for c in claims)
        return {"history_atoms": history.atoms, "atoms": atoms_in, "claims": len(claims), "contested": len(contested),
                "contested_share": len(contested) / len(claims) if claims else 0.0, "reasons": reasons,
                "examples": sorted(c.text for c in contested)[:12], "ingest_seconds": round(ingested, 1),
                "plan_seconds": round(planned, 2)}


PRECISION_GOAL, RECALL_GOAL, SHARE_GOAL = 0.95, 0.90, 0.01


def run(quick: bool = False, atoms: int = 10_000) -> Any:
    """The report's section: precision and recall per pair file and language, and the contested share."""
    from .report import Section, pct

    section = Section("contradictions", "6. Contradictions")
    section.say(
        "Labelled claim pairs (`tests/claims/data/`), each said in two sessions on two days of one project, through the "
        "shipped promotion pass: a pair counts as flagged when its two claims contest each other. Half the pairs are "
        "compatible (different files, paths, versions, numbered things; prohibitions of several values; two tools "
        "for two jobs); the rest are real conflicts (port, branch, language, the tool for a job, \"X, not Y\", "
        "negation, reversal atoms with `reverses`). `contradiction_pairs_heldout.jsonl` was written after the rules "
        "and never tuned on.", "")
    rows = []
    for name in ("contradiction_pairs.jsonl", "contradiction_pairs_heldout.jsonl"):
        found = score_pairs(load_pairs(PAIRS.parent / name))
        rows.append((name, "all", found["pairs"], pct(found["precision"]), pct(found["recall"])))
        for lang, figures in found["by_language"].items():
            rows.append((name, lang, figures["pairs"], pct(figures["precision"]), pct(figures["recall"])))
        section.goal(f"contradiction precision ({name})", pct(found["precision"]), f"≥ {PRECISION_GOAL:.0%}",
                     found["precision"] >= PRECISION_GOAL)
        section.goal(f"contradiction recall ({name})", pct(found["recall"]), f"≥ {RECALL_GOAL:.0%}",
                     found["recall"] >= RECALL_GOAL)
    for name in ("contradiction_pairs.jsonl", "contradiction_pairs_heldout.jsonl"):
        found = score_pairs(with_marker_reversals(load_pairs(PAIRS.parent / name)))
        rows.append((f"{name}, `reverses` from the marker rules", "all", found["pairs"], pct(found["precision"]),
                     pct(found["recall"])))
    section.table(("pairs", "language", "n", "precision", "recall"), rows)
    size = 300 if quick else atoms
    share = contested_share(size)
    section.say(f"A `mixed` synthetic history of ~{size:,} atoms (a third of claim turns restate {HABITS_NOTE}, about 1% "
                "revoke one, the rest are one-off rules naming files and modules), ingested and planned:", "")
    section.table(("atoms", "claims", "contested", "share", "why"),
                  [(f"{share['atoms']:,}", f"{share['claims']:,}", share["contested"], pct(share["contested_share"]),
                    ", ".join(f"{k} ×{v}" for k, v in sorted(share["reasons"].items())) or "—")])
    section.goal("contested share of a realistic store", pct(share["contested_share"]), f"< {SHARE_GOAL:.0%}",
                 share["contested_share"] < SHARE_GOAL)
    return section


HABITS_NOTE = "300 habits in varied wording"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.contradictions", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--atoms", type=int, default=10_000, help="atoms of the realistic store (default 10000)")
    parser.add_argument("--pairs-only", action="store_true", help="skip the realistic store")
    args = parser.parse_args(argv)
    for name in ("contradiction_pairs.jsonl", "contradiction_pairs_heldout.jsonl"):
        pairs = load_pairs(PAIRS.parent / name)
        for label, rows in (("hand-made reverses", pairs), ("marker reverses", with_marker_reversals(pairs))):
            found = score_pairs(rows)
            print(json.dumps({"file": name, "reversals": label, **{k: v for k, v in found.items() if k != "by_language"},
                              "by_language": found["by_language"]}, ensure_ascii=False))
    if not args.pairs_only:
        print(json.dumps({"store": contested_share(args.atoms)}, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
