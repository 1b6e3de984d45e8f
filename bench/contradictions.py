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
    from agent_memory.ingest import ingest
    from agent_memory.promote import plan
    from agent_memory.store import Paths
    from bench import synth

    os.environ.setdefault("AGENT_MEMORY_NOW", NOW)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.contradictions", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--atoms", type=int, default=10_000, help="atoms of the realistic store (default 10000)")
    parser.add_argument("--pairs-only", action="store_true", help="skip the realistic store")
    args = parser.parse_args(argv)
    print(json.dumps({"pairs": score_pairs(load_pairs())}, ensure_ascii=False, indent=2))
    if not args.pairs_only:
        print(json.dumps({"store": contested_share(args.atoms)}, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
