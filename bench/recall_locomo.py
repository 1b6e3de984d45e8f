"""Recall of evidence turns on LoCoMo, as users search: ``agent-memory search QUESTION -n 10``.

Each LoCoMo session becomes a Claude Code transcript (speaker A is the person, speaker B the
assistant) and goes through the real ingest into a temporary store; every question with
evidence is then asked through the CLI's ``search`` command with the shipped defaults (time
decay on, every kind of row), the clock set to the day after the conversation's last session
(the moment a user would ask). A hit counts for an evidence turn when the line it cites (a
question/answer chunk, or an atom of that turn) covers that turn. The baselines run in the same
pass: an Okapi BM25 over single turns (pure Python, k1 = 1.2, b = 0.75), the whole question as
one FTS5 phrase on the same index, and (to tell the planner's share from the chunks') the same
BM25 over our chunks. Beside the shipped figure, one variant with knobs turned: chunks only,
no decay. The figures come for the whole set and for its two halves (``halves``: the tuning half,
even-numbered conversations, on which ranking constants are chosen, and the held-out half). A small Japanese set (``data/ja_queries.jsonl``) is measured too.

Run ``python -m bench.recall_locomo [--conversations N] [--semantic]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import math
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterable

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from agent_memory import recall  # noqa: E402
from agent_memory.index import Index, Source  # noqa: E402
from agent_memory.index.fts import phrase as _fts_phrase  # noqa: E402
from agent_memory.store import Paths  # noqa: E402
from agent_memory.promote.tiers import index_sources  # noqa: E402
from bench.measure import environ_restored  # noqa: E402

# the shared data sits beside the repository's checkout (a linked worktree sits one folder deeper)
DEFAULT_LOCOMO = next(
    (p for p in (REPO.parent / "shared" / "data" / "locomo" / "locomo10.json",
                 REPO.parent.parent / "shared" / "data" / "locomo" / "locomo10.json") if p.exists()),
    REPO.parent / "shared" / "data" / "locomo" / "locomo10.json",
)
JA_QUERIES = Path(__file__).resolve().parent / "data" / "ja_queries.jsonl"
KS = (5, 10)
_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


# ---------------------------------------------------------------- LoCoMo as transcripts


@dataclass(frozen=True)
class Turn:
    """One LoCoMo dialog turn with the text both systems index."""

    dia_id: str
    by_person: bool  # speaker A, written as the person's turn
    text: str


@dataclass
class Conversation:
    """One LoCoMo sample: its sessions in order and its questions with evidence."""

    sample_id: str
    sessions: list[tuple[int, datetime, list[Turn]]]
    questions: list[tuple[str, list[str], int]] = field(default_factory=list)  # (question, evidence ids, category)


def turn_text(raw: dict[str, Any]) -> str:
    """A turn's words, with the caption of a shared photo (the evidence often lies there)."""
    text = str(raw.get("text", "")).strip()
    caption = raw.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]".strip()
    return text


def load_locomo(path: str | Path, limit: int | None = None) -> list[Conversation]:
    """The conversations of ``locomo10.json`` (the first ``limit`` when given)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    conversations: list[Conversation] = []
    for sample in data[:limit] if limit else data:
        conv = sample["conversation"]
        speaker_a = conv["speaker_a"]
        sessions = []
        for key, turns in conv.items():
            found = _SESSION_KEY.fullmatch(key)
            if not found or not isinstance(turns, list) or not turns:
                continue
            number = int(found.group(1))
            when = datetime.strptime(conv[f"{key}_date_time"], "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)
            sessions.append(
                (number, when, [Turn(t["dia_id"], t["speaker"] == speaker_a, turn_text(t)) for t in turns])
            )
        sessions.sort()
        known = {t.dia_id for _n, _w, turns in sessions for t in turns}
        item = Conversation(str(sample.get("sample_id", len(conversations))), sessions)
        for qa in sample.get("qa", []):
            evidence = _evidence_ids(qa.get("evidence") or [], known)
            if evidence:
                item.questions.append((str(qa["question"]), evidence, int(qa.get("category", 0))))
        conversations.append(item)
    return conversations


def _evidence_ids(raw: Iterable[str], known: set[str]) -> list[str]:
    # a few evidence entries hold several ids in one string or stray punctuation ("D:11:26", "D8:6; D9:17")
    found: list[str] = []
    for entry in raw:
        for session, turn in _EVIDENCE.findall(str(entry)):
            dia = f"D{int(session)}:{int(turn)}"
            if dia in known and dia not in found:
                found.append(dia)
    return found


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def write_transcripts(conv: Conversation, folder: Path) -> dict[tuple[str, int], list[str]]:
    """Write one Claude Code transcript per session; map (transcript, chunk line) → dialog ids it covers.

    A chunk is a person's turn with the assistant's replies up to the next person's turn; assistant
    turns before the session's first person turn belong to no chunk.
    """
    folder.mkdir(parents=True, exist_ok=True)
    covers: dict[tuple[str, int], list[str]] = {}
    for number, when, turns in conv.sessions:
        session_id = f"{conv.sample_id}-s{number:02d}"
        path = folder / f"{session_id}.jsonl"
        lines = []
        open_line = 0
        for i, turn in enumerate(turns):
            stamp = _iso(when + timedelta(seconds=30 * i))
            line = i + 1
            base = {"sessionId": session_id, "uuid": f"{session_id}-{line}", "timestamp": stamp, "cwd": "/locomo"}
            if turn.by_person:
                record = {**base, "type": "user", "message": {"role": "user", "content": turn.text}}
                open_line = line
                covers[(str(path), line)] = [turn.dia_id]
            else:
                record = {
                    **base,
                    "type": "assistant",
                    "message": {
                        "id": f"msg-{session_id}-{line}",
                        "role": "assistant",
                        "model": "locomo",
                        "content": [{"type": "text", "text": turn.text}],
                    },
                }
                if open_line:
                    covers[(str(path), open_line)].append(turn.dia_id)
            lines.append(json.dumps(record, ensure_ascii=False))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return covers


def build_store(conv: Conversation, root: Path) -> tuple[Paths, dict[tuple[str, int], list[str]]]:
    """Transcripts for ``conv`` ingested into a fresh store under ``root``."""
    covers = write_transcripts(conv, root / "transcripts")
    paths = Paths(store=root / "store", user=root / "home", project_root=root)
    try:
        from agent_memory.ingest import ingest
    except ImportError:
        _direct_chunks(paths, root / "transcripts")
        return paths, covers
    report = ingest(paths, [str(root / "transcripts")], project="locomo", agent="claude")
    if report.errors:
        raise RuntimeError(f"ingest failed: {report.errors[:3]}")
    return paths, covers


def _real_ingest() -> bool:
    try:
        from agent_memory.ingest import ingest  # noqa: F401
    except ImportError:
        return False
    return True


def _direct_chunks(paths: Paths, folder: Path) -> None:
    # stand-in while the ingest pipeline cannot be imported: same chunk shape, no redaction
    from agent_memory.agents.reading import read_transcript

    paths.l1_dir.mkdir(parents=True, exist_ok=True)
    with open(paths.chunks, "w", encoding="utf-8") as out:
        for path in sorted(folder.glob("*.jsonl")):
            result = read_transcript(str(path), agent="claude")
            current: dict[str, Any] | None = None
            for turn in [*result.turns, None]:
                if turn is None or turn.role == "user":
                    if current:
                        out.write(json.dumps(current, ensure_ascii=False) + "\n")
                    if turn is None:
                        break
                    current = {"id": f"{turn.session}:{turn.line}", "text": turn.text, "session": turn.session,
                               "timestamp": turn.timestamp, "transcript": turn.source, "line": turn.line,
                               "quote": turn.text}
                elif current is not None:
                    current["text"] += "\n" + turn.text


# ---------------------------------------------------------------- the BM25 baseline


_TOKEN = re.compile(r"\w+")


def tokens(text: str) -> list[str]:
    """Lower-cased word characters: the baseline's simple tokenisation."""
    return _TOKEN.findall(text.lower())


class OkapiBM25:
    """Okapi BM25 over a list of documents, in pure Python."""

    def __init__(self, documents: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(tokens(d)) for d in documents]
        self.lengths = [sum(c.values()) for c in self.docs]
        self.avg = sum(self.lengths) / max(len(self.docs), 1)
        df: Counter[str] = Counter()
        for doc in self.docs:
            df.update(doc.keys())
        n = len(self.docs)
        self.idf = {term: math.log(1 + (n - f + 0.5) / (f + 0.5)) for term, f in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, doc in enumerate(self.docs):
            for term in doc:
                self.postings.setdefault(term, []).append(i)

    def top(self, query: str, k: int) -> list[int]:
        """Indices of the ``k`` best documents for ``query``."""
        scores: dict[int, float] = {}
        for term in set(tokens(query)):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for i in self.postings[term]:
                tf = self.docs[i][term]
                norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg)
                scores[i] = scores.get(i, 0.0) + idf * tf * (self.k1 + 1) / (tf + norm)
        return [i for i, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:k]]


# ---------------------------------------------------------------- scoring


def _recall(found: list[set[str]], evidence: list[str], k: int) -> float:
    covered: set[str] = set()
    for ids in found[:k]:
        covered |= ids
    return len(covered & set(evidence)) / len(evidence)


class Tally:
    """Mean recall@k over the questions seen."""

    def __init__(self) -> None:
        self.sums = {k: 0.0 for k in KS}
        self.count = 0

    def add(self, found: list[set[str]], evidence: list[str]) -> None:
        self.count += 1
        for k in KS:
            self.sums[k] += _recall(found, evidence, k)

    def figures(self) -> dict[str, float]:
        return {f"recall@{k}": round(self.sums[k] / max(self.count, 1), 4) for k in KS}


def _chunk_rows(paths: Paths) -> list[tuple[tuple[str, int], str]]:
    """Every indexed chunk as ((transcript, line), text), for BM25 over the same units as ours."""
    with Index(paths.index, index_sources(paths)) as index:
        return [
            ((str(meta.get("transcript", "")), int(meta.get("line", 0))), text)
            for _ref, text, meta in index.rows_of("chunk")
        ]


def _phrase_hits(paths: Paths, question: str, limit: int) -> list[tuple[str, int]]:
    """The whole question as one FTS5 phrase on the same index, bm25 ranked."""
    with Index(paths.index, index_sources(paths)) as index:
        phrase = _fts_phrase(" ".join(tokens(question)))
        rows = index.con.execute(
            "SELECT coalesce(p.transcript, ''), coalesce(d.line, 0) FROM docs_words f JOIN docs d ON d.rowid=f.rowid "
            "LEFT JOIN places p ON p.rowid = d.place "
            "WHERE docs_words MATCH ? AND d.kind='chunk' ORDER BY bm25(docs_words), f.rowid LIMIT ?",
            (phrase, limit),
        ).fetchall()
    return [(str(transcript), int(line)) for transcript, line in rows]


def evaluate(
    locomo_path: str | Path, limit_conversations: int | None = None, semantic: bool = False
) -> dict[str, Any]:
    """Recall@5/@10 of LoCoMo evidence turns for ours, BM25 and phrase match (and hybrid), side by side."""
    conversations = load_locomo(locomo_path, limit_conversations)
    if semantic:
        _one_thread()
    systems = ["ours", "bm25", "ours_chunks_no_decay", "phrase", "bm25_chunks"] + (["semantic"] if semantic else [])
    tallies = {name: Tally() for name in systems}
    by_category: dict[int, dict[str, Tally]] = {}
    halves: dict[str, dict[str, Tally]] = {half: {name: Tally() for name in systems} for half in HALVES}
    depth = max(KS)
    turns_total = 0
    for number, conv in enumerate(conversations):
        half = halves[half_of(number)]
        with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
            paths, covers = build_store(conv, Path(tmp))
            flat = [t for _n, _w, turns in conv.sessions for t in turns]
            turns_total += len(flat)
            bm25 = OkapiBM25([t.text for t in flat])
            chunks = _chunk_rows(paths)
            bm25_chunks = OkapiBM25([text for _key, text in chunks])
            asked_at = _iso(conv.sessions[-1][1] + timedelta(days=1))
            for question, evidence, category in conv.questions:
                found: dict[str, list[set[str]]] = {
                    "ours": _covered(shipped_search(paths, question, depth, asked_at), covers),
                    "ours_chunks_no_decay": _covered(
                        recall.search(paths, question, depth, kinds=["chunk"], decay=False), covers
                    ),
                    "bm25": [{flat[i].dia_id} for i in bm25.top(question, depth)],
                    "phrase": [set(covers.get(key, [])) for key in _phrase_hits(paths, question, depth)],
                    "bm25_chunks": [set(covers.get(chunks[i][0], [])) for i in bm25_chunks.top(question, depth)],
                }
                if semantic:
                    hits = recall.search(paths, question, depth, kinds=["chunk"], decay=False, semantic=True)
                    found["semantic"] = _covered(hits, covers)
                cats = by_category.setdefault(category, {name: Tally() for name in systems})
                for name in systems:
                    tallies[name].add(found[name], evidence)
                    cats[name].add(found[name], evidence)
                    half[name].add(found[name], evidence)
    figures: dict[str, Any] = {name: tally.figures() for name, tally in tallies.items()}
    ratios = _with_ratios(figures)["ratio_to_bm25"]
    return {
        "ingest": "agent_memory.ingest" if _real_ingest() else "transcript reader + chunk rows (ingest not importable)",
        "about": SYSTEMS,
        "conversations": len(conversations),
        "questions": tallies["ours"].count,
        "turns": turns_total,
        "systems": figures,
        "ratio_to_bm25": ratios,
        "halves": {name: _with_ratios({n: t.figures() for n, t in v.items()}) for name, v in halves.items()},
        "by_category": {str(c): {n: t.figures() for n, t in v.items()} for c, v in sorted(by_category.items())},
        "japanese": evaluate_japanese(semantic=semantic),
    }


# Ranking constants are chosen on the tuning half (even-numbered conversations, counting from 0) and
# checked on the held-out half (odd-numbered), reported beside the whole.
HALVES = ("tuning", "held_out")


def half_of(number: int) -> str:
    """Which half conversation ``number`` (0-based, file order) belongs to."""
    return HALVES[number % 2]


def _with_ratios(figures: dict[str, dict[str, float]]) -> dict[str, Any]:
    base = figures["bm25"]
    ratios = {
        name: {key: round(values[key] / base[key], 3) if base[key] else None for key in base}
        for name, values in figures.items()
        if name != "bm25"
    }
    return {"systems": figures, "ratio_to_bm25": ratios}


SYSTEMS = {
    "ours": "agent-memory search QUESTION -n 10 --json, shipped defaults (decay on, every kind), asked the day after",
    "bm25": "Okapi BM25 over single turns (k1 1.2, b 0.75)",
    "ours_chunks_no_decay": "knobs turned: recall.search(kinds=['chunk'], decay=False)",
    "phrase": "the whole question as one FTS5 phrase on the same index",
    "bm25_chunks": "Okapi BM25 over our chunks",
}


def shipped_search(paths: Paths, question: str, limit: int, asked_at: str) -> list["_Cited"]:
    """The hits of ``agent-memory search QUESTION -n LIMIT --json`` with the default config, as run at ``asked_at``."""
    from agent_memory.cli import main as cli_main

    out = io.StringIO()
    with environ_restored("AGENT_MEMORY_NOW", "AGENT_MEMORY_HOME"), contextlib.redirect_stdout(out):
        os.environ["AGENT_MEMORY_NOW"] = asked_at
        os.environ["AGENT_MEMORY_HOME"] = str(paths.user)  # no real user store (L3) reaches the figures
        code = cli_main(["--memory-dir", str(paths.store), "search", question, "-n", str(limit), "--json"])
    if code != 0:
        raise RuntimeError(f"agent-memory search exited {code}")
    return [_Cited(h["source"]) for h in json.loads(out.getvalue())["hits"]]


@dataclass(frozen=True)
class _Cited:
    """A CLI hit's provenance, in the shape ``_covered`` reads."""

    meta: dict[str, Any]


def _one_thread() -> None:
    # the benchmark shares a small machine: one torch thread embeds at nearly the same speed without contention
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(1)


def _covered(hits: list[Any], covers: dict[tuple[str, int], list[str]]) -> list[set[str]]:
    return [set(covers.get((str(h.meta.get("transcript", "")), int(h.meta.get("line", 0) or 0)), [])) for h in hits]


# ---------------------------------------------------------------- the Japanese set


def load_japanese(path: Path = JA_QUERIES) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The Japanese documents and queries (``{"doc": id, "text"}`` and ``{"query", "expected": [ids]}``)."""
    docs: list[dict[str, Any]] = []
    queries: list[dict[str, Any]] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        record = json.loads(raw)
        (docs if "doc" in record else queries).append(record)
    return docs, queries


def evaluate_japanese(path: Path = JA_QUERIES, semantic: bool = False) -> dict[str, Any]:
    """Recall@1/@5 and MRR of the expected documents for the Japanese queries, ours against BM25."""
    docs, queries = load_japanese(path)
    with tempfile.TemporaryDirectory(prefix="ja-") as tmp:
        paths = Paths(store=Path(tmp) / "store", user=Path(tmp) / "home", project_root=Path(tmp))
        paths.l1_dir.mkdir(parents=True)
        with open(paths.atoms, "w", encoding="utf-8") as handle:
            for i, doc in enumerate(docs):
                stamp = _iso(datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(hours=i))
                handle.write(
                    json.dumps(
                        {"id": doc["doc"], "text": doc["text"], "kind": "instruction", "timestamp": stamp,
                         "day": stamp[:10], "session": f"ja-{i}", "project": "ja", "line": 1},
                        ensure_ascii=False,
                    )
                    + "\n"
                )
        bm25 = OkapiBM25([d["text"] for d in docs])
        systems = ["ours", "bm25"] + (["semantic"] if semantic else [])
        rows: dict[str, dict[str, float]] = {n: {"recall@1": 0.0, "recall@5": 0.0, "mrr": 0.0} for n in systems}
        misses: list[str] = []
        for query in queries:
            expected = set(query["expected"])
            ranked = {
                "ours": [h.ref for h in recall.search(paths, query["query"], 10, decay=False)],
                "bm25": [docs[i]["doc"] for i in bm25.top(query["query"], 10)],
            }
            if semantic:
                hits = recall.search(paths, query["query"], 10, decay=False, semantic=True)
                ranked["semantic"] = [h.ref for h in hits]
            for name, refs in ranked.items():
                rows[name]["recall@1"] += len(expected & set(refs[:1])) / len(expected)
                rows[name]["recall@5"] += len(expected & set(refs[:5])) / len(expected)
                first = next((i for i, r in enumerate(refs) if r in expected), None)
                rows[name]["mrr"] += 0.0 if first is None else 1.0 / (first + 1)
            if not expected & set(ranked["ours"][:5]):
                misses.append(query["query"])
    n = max(len(queries), 1)
    return {
        "documents": len(docs),
        "queries": len(queries),
        "short_queries": sum(1 for q in queries if len(q["query"]) <= 2),
        "systems": {name: {k: round(v / n, 4) for k, v in row.items()} for name, row in rows.items()},
        "missed_at_5": misses,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", default=str(DEFAULT_LOCOMO))
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--semantic", action="store_true", help="also hybrid recall with the semantic extra")
    args = parser.parse_args(argv)
    print(json.dumps(evaluate(args.locomo, args.conversations, args.semantic), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
