"""Recall: the query planner, phrase boost, time decay, short Japanese terms, one hit per chunk, LoCoMo smoke."""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.index import search as index_module
from agent_memory import recall
from agent_memory.index import Index, Row, Source, plan_query
from agent_memory.store import Paths

ROOT = Path(__file__).resolve().parents[1]
# the shared data beside the checkout (a linked worktree sits one folder deeper)
LOCOMO = next((p for p in (ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json",
                           ROOT.parent.parent / "shared" / "data" / "locomo" / "locomo10.json") if p.is_file()),
              ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json")


def _paths(tmp: Path) -> Paths:
    paths = Paths(store=tmp / "store", user=tmp / "home", project_root=tmp)
    paths.l1_dir.mkdir(parents=True)
    return paths


def _write(path: Path, records: list[dict[str, Any]]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        for record in records:
            if path.name == "atoms.jsonl":
                record = _as_atom(record)
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def _as_atom(record: dict[str, Any]) -> dict[str, Any]:
    """The record with every field an L1 atom must have (the index skips atoms missing one)."""
    stamp = str(record.get("timestamp") or "2026-01-02T03:04:05Z")
    filled = {"kind": "instruction", "session": f"s-{record['id']}", "project": "shop", "timestamp": stamp,
              "day": stamp[:10], "line": 1}
    return {**filled, **record}


def _atoms(texts: list[str], stamp: str = "2026-01-02T03:04:05Z") -> list[dict[str, Any]]:
    return [{"id": f"a{i}", "text": t, "timestamp": stamp, "session": f"s{i}", "line": 1} for i, t in enumerate(texts)]


# ---------------------------------------------------------------- the planner


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("What did Caroline research?", ("caroline", "research")),
        ("When did she go to the support group", ("go", "support", "group")),
        ("Caroline's plans", ("caroline", "plans")),  # the possessive 's is no term
        ("never force-push to main", ("never", "force", "push", "main")),  # negation carries meaning
        ("what is it", ("what", "is", "it")),  # only stop words: they are kept
        ("Pushing PUSH pushing", ("pushing", "push")),  # stemming is left to the index's porter tokenizer
    ],
)
def test_stop_words_are_dropped(query: str, words: tuple[str, ...]) -> None:
    assert plan_query(query).words == words


@pytest.mark.parametrize(
    ("query", "long", "short", "compounds"),
    [
        ("設定ファイルを読む", ("ファイル",), ("設定", "読"), ("設定ファイル",)),  # particles and okurigana dropped
        ("障害報告はどこに？", ("障害報告",), ("障害", "報告"), ()),  # a compound also as its two-character words
        ("本番のデータベース", ("データベース",), ("本番",), ()),
        ("すべてのテスト", ("テスト",), (), ()),
        ("型", (), ("型",), ()),
        ("時刻", (), ("時刻",), ()),
        ("而不是", ("而不是",), (), ()),
        ("ありがとう", ("ありがとう",), (), ()),  # a run of hiragana only is kept
        ("すべての", ("すべて",), (), ()),  # less its closing particle
    ],
)
def test_japanese_particles_split_the_query(
    query: str, long: tuple[str, ...], short: tuple[str, ...], compounds: tuple[str, ...]
) -> None:
    plan = plan_query(query)
    assert (plan.cjk_long, plan.cjk_short, plan.compounds) == (long, short, compounds)


@pytest.mark.parametrize(
    "query",
    ['pytest OR "', "NEAR(pytest main, 2)", "text:pytest", "pytest*", "^pytest", "pytest AND (", "-pytest", '"pytest"'],
)
def test_fts_syntax_in_a_query_is_only_words(tmp_path: Path, query: str) -> None:
    _write(tmp_path / "atoms.jsonl", _atoms(["Always run pytest with -x", "Never force-push to main"]))
    source = Source("atoms", tmp_path / "atoms.jsonl", lambda r: Row("atom", r["id"], r["text"], r["timestamp"]))
    with Index(tmp_path / "index.db", [source]) as ix:
        ix.sync()
        assert "Always run pytest with -x" in [h.text for h in ix.search(query)]


# ---------------------------------------------------------------- ranking


def test_an_exact_phrase_ranks_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _paths(tmp_path)
    scattered = "tests run push: run tests, push tests, run push"
    exact = "I always run tests before push, as a habit of many years"
    _write(paths.atoms, _atoms([scattered, exact, "unrelated words about lunch"]))
    assert [h.text for h in recall.search(paths, "run tests before push", decay=False)][0] == exact
    # without the phrase route plain bm25 prefers the scattered words: the boost is what decides
    monkeypatch.setitem(index_module.ROUTE_WEIGHTS, "phrase", 0.0)
    assert [h.text for h in recall.search(paths, "run tests before push", decay=False)][0] == scattered


def test_decay_orders_equal_matches_by_recency_and_is_off_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _paths(tmp_path)
    older = {"id": "old", "text": "deploy with the blue pipeline", "timestamp": "2026-01-01T00:00:00Z", "session": "s1"}
    newer = {"id": "new", "text": "deploy with the blue pipeline", "timestamp": "2026-03-01T00:00:00Z", "session": "s2"}
    _write(paths.atoms, [older, newer])
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-02T00:00:00Z")
    decayed = recall.search(paths, "blue pipeline")
    assert [h.ref for h in decayed] == ["new", "old"]
    assert decayed[0].score > decayed[1].score
    assert [h.ref for h in recall.search(paths, "blue pipeline", decay=False)] == ["old", "new"]


def test_recency_never_overturns_a_clearly_better_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _paths(tmp_path)
    strong = {"id": "strong", "text": "pipeline pipeline pipeline", "timestamp": "2025-03-01T00:00:00Z"}
    weak = {"id": "weak", "text": "the pipeline of many other things to do today", "timestamp": "2026-03-01T00:00:00Z"}
    _write(paths.atoms, [strong, weak, {"id": "other", "text": "lunch", "timestamp": "2026-03-01T00:00:00Z"}])
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-02T00:00:00Z")
    assert recall.search(paths, "pipeline", decay=False)[0].ref == "strong"
    assert recall.search(paths, "pipeline")[0].ref == "strong"  # a year older, still the better match
    paths.config.write_text("recall:\n  half_life_days: 1\n", encoding="utf-8")
    assert recall.search(paths, "pipeline")[0].ref == "strong"  # however short the half-life


def _chunk(session: str, stamp: str, text: str) -> dict[str, Any]:
    return {"id": f"{session}:3", "text": text, "session": session, "timestamp": stamp, "transcript": f"/t/{session}.jsonl",
            "line": 3, "quote": text}


@pytest.mark.parametrize("half_life", [None, 1, 365])
def test_of_two_equally_relevant_past_sessions_the_newer_ranks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, half_life: int | None
) -> None:
    paths = _paths(tmp_path)
    text = "the staging deploy failed because the migration lock was held"
    # written newest first, so neither file order nor row id can be what puts the newer first
    _write(paths.chunks, [_chunk("s-new", "2026-02-27T10:00:00Z", text), _chunk("s-old", "2025-06-01T10:00:00Z", text),
                          _chunk("s-other", "2026-02-28T10:00:00Z", "lunch at noon")])
    if half_life:
        paths.config.write_text(f"recall:\n  half_life_days: {half_life}\n", encoding="utf-8")
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-02T00:00:00Z")
    hits = recall.search(paths, "why did the staging deploy fail?")
    assert [h.meta["session"] for h in hits] == ["s-new", "s-old"]


@given(
    age_days=st.floats(min_value=0, max_value=1e5, allow_nan=False),
    half_life=st.floats(min_value=0.01, max_value=1e4, allow_nan=False),
)
def test_the_recency_weight_stays_between_the_floor_and_one(age_days: float, half_life: float) -> None:
    from agent_memory.index.prompt import RECENCY_FLOOR, decay_factor, recency

    now = 1_800_000_000.0
    day = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - age_days * 86400))
    for weight in (decay_factor(now, half_life, day), recency(now, half_life)(day)):
        assert RECENCY_FLOOR <= weight <= 1.0


@pytest.mark.parametrize(
    ("settings", "days"),
    [({}, 30.0), ({"half_life_days": 7}, 7.0), ({"half_life_days": 0}, 30.0), ({"half_life_days": "x"}, 30.0)],
)
def test_half_life_comes_from_the_config(settings: dict[str, Any], days: float) -> None:
    assert recall.half_life_days(settings) == days


JA_RECORDS = [
    "関数には必ず型ヒントを付ける",
    "API キーや秘密鍵をリポジトリに入れてはいけない",
    "日付は UTC で保存し、表示するときだけ現地時刻に変換する",
    "レビューの前に black でコードを整形しておく",
    "雨の日は在宅勤務にする",
    "鍵のローテーションは九十日ごとに行う",
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [("型", {0}), ("鍵", {1, 5}), ("雨", {4}), ("時刻", {2}), ("整形", {3}), ("秘密", {1}), ("障害報告", set())],
)
def test_one_and_two_character_japanese_queries_find_their_records(
    tmp_path: Path, query: str, expected: set[int]
) -> None:
    paths = _paths(tmp_path)
    _write(paths.atoms, _atoms(JA_RECORDS))
    found = {int(h.ref[1:]) for h in recall.search(paths, query, decay=False)}
    assert found == expected


def test_a_chunk_read_twice_counts_once(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    base = {"session": "s1", "line": 7, "timestamp": "2026-01-02T03:04:05Z", "text": "how do we rotate signing keys?"}
    _write(
        paths.chunks,
        [
            {**base, "id": "c1", "transcript": "/a/one.jsonl"},
            {**base, "id": "c2", "transcript": "/b/copy.jsonl"},  # the same session line read from another file
            {**base, "id": "c3", "line": 40, "timestamp": "", "transcript": "/b/copy.jsonl"},  # same words and session
            {**base, "id": "c4", "session": "s2"},  # the same words in another session
        ],
    )
    hits = recall.search(paths, "rotate signing keys", decay=False)
    # one hit per session: which copy of the exchange stands for it is not the point
    assert sorted(h.meta["session"] for h in hits) == ["s1", "s2"]
    assert {h.ref for h in hits} - {"c1", "c2", "c3"} == {"c4"}


def _exchange(session: str, line: int, text: str) -> dict[str, Any]:
    stamp = f"2026-01-02T03:{line:02d}:00Z"
    return {"id": f"{session}:{line}", "text": text, "session": session, "timestamp": stamp,
            "transcript": f"/t/{session}.jsonl", "line": line, "quote": text}


# (the exchanges in file order, the one whose words the question shares is "s:1"; the answer a user wants)
NEIGHBOURS = [
    # the answer came in the next exchange, in other words: it ranks right after the keyword match
    ([("s", 1, "which database should the billing service use?"), ("s", 2, "we settled on postgres after the tests"),
      ("s", 3, "lunch plans for friday")], "s:2"),
    # the answer came in the exchange before
    ([("s", 0, "we settled on postgres after the tests"), ("s", 1, "so which database for the billing service?"),
      ("s", 2, "lunch plans for friday")], "s:0"),
]


@pytest.mark.parametrize(("exchanges", "answer"), NEIGHBOURS)
def test_the_exchange_beside_a_match_ranks_before_unrelated_ones(
    tmp_path: Path, exchanges: list[tuple[str, int, str]], answer: str
) -> None:
    paths = _paths(tmp_path)
    _write(paths.chunks, [_exchange(*e) for e in exchanges] + [_exchange("t", 1, "friday billing review")])
    refs = [h.ref for h in recall.search(paths, "which database does billing use?", decay=False)]
    assert refs[:2] == ["s:1", answer]


def test_a_neighbour_lends_only_within_its_session(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    # stored side by side, but of two sessions: the second is not the first one's context
    _write(paths.chunks, [_exchange("a", 1, "which database should the billing service use?"),
                          _exchange("b", 2, "we settled on postgres after the tests")])
    assert [h.ref for h in recall.search(paths, "which database does billing use?", decay=False)] == ["a:1"]


def test_a_clearly_better_match_stays_ahead_of_a_neighbour(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    _write(paths.chunks, [_exchange("s", 1, "billing database choice"), _exchange("s", 2, "billing notes"),
                          _exchange("u", 1, "the billing database is postgres, the billing database choice is final")])
    refs = [h.ref for h in recall.search(paths, "billing database choice", decay=False)]
    assert refs.index("u:1") < refs.index("s:2") and refs.index("s:1") < refs.index("s:2")


def test_search_without_a_store_creates_nothing(tmp_path: Path) -> None:
    paths = Paths(store=tmp_path / "missing", user=tmp_path / "home", project_root=tmp_path)
    assert recall.search(paths, "anything") == []
    assert not paths.store.exists()


# ---------------------------------------------------------------- LoCoMo smoke


def _bench() -> ModuleType:
    name = "bench_recall_locomo"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "recall_locomo.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up by name
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.mark.skipif(not LOCOMO.is_file(), reason="LoCoMo is not in ../shared/data")
def test_locomo_smoke_the_shipped_search_recalls_more_than_bm25() -> None:
    figures = _bench().evaluate(str(LOCOMO), limit_conversations=2)
    assert figures["questions"] > 100
    ours, bm25 = figures["systems"]["ours"], figures["systems"]["bm25"]  # ours: agent-memory search, as shipped
    assert ours["recall@10"] >= 1.2 * bm25["recall@10"] and ours["recall@5"] >= 1.2 * bm25["recall@5"]
    assert figures["japanese"]["systems"]["ours"]["recall@5"] >= 0.8


def test_bm25_baseline_prefers_the_rarer_term() -> None:
    bm25 = _bench().OkapiBM25(["the cat sat", "the dog sat", "the cat ran far away"])
    assert bm25.top("dog", 3) == [1]
    assert bm25.top("cat sat", 1) == [0]


# ---------------------------------------------------------------- prompt recall (the hook's reader)

CART_V3 = "Never edit src/cart/v3/handlers.py by hand."
CART_V2 = "Never edit src/cart/v2/handlers.py by hand."
BILLING = "Always deploy the billing service to staging first."
INJECTED = (
    "<hook_context>From earlier sessions in this project (agent-memory; not reviewed yet, a hint rather than a rule):\n"
    f"- {BILLING} (2026-02-01; 1 session)\n</hook_context>\n"
)


def _rule(i: int, text: str, stamp: str) -> dict[str, Any]:
    return {"id": f"r{i}", "text": text, "kind": "instruction", "session": f"s{i}", "timestamp": stamp, "line": 1,
            "redacted": False}


def _prompt_lines(paths: Paths, prompt: str) -> list[str]:
    from agent_memory.config import DEFAULTS
    from agent_memory.hooks import prompt_context

    return [line for line in prompt_context(paths, DEFAULTS, prompt).splitlines() if line.startswith("- ")]


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Paths:
    paths = _paths(tmp_path)
    # the weaker match is the newer one: recency must not put it first
    _write(paths.atoms, [_rule(1, CART_V3, "2026-01-10T10:00:00Z"), _rule(2, CART_V2, "2026-02-20T10:00:00Z"),
                         _rule(3, BILLING, "2026-02-01T10:00:00Z")])
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-01T00:00:00Z")
    return paths


@pytest.mark.parametrize("contested", [(), (CART_V3,), (CART_V2,), (CART_V3, CART_V2)])
def test_tagging_contested_never_changes_the_order_of_prompt_recall(rules: Paths, contested: tuple[str, ...]) -> None:
    from agent_memory.claims import claim_key

    rules.contested.write_text(json.dumps({claim_key(t).text: ["c"] for t in contested}), encoding="utf-8")
    lines = _prompt_lines(rules, "Can I edit src/cart/v3/handlers.py by hand?")
    assert [("v3" in line, "[contested]" in line) for line in lines] == [(True, CART_V3 in contested),
                                                                         (False, CART_V2 in contested)]


@pytest.mark.parametrize(
    ("asked", "expected"),
    [("src/cart/v3/handlers.py", CART_V3), ("src/cart/v2/handlers.py", CART_V2)],
)
def test_prompt_recall_puts_the_rule_about_the_very_file_first(rules: Paths, asked: str, expected: str) -> None:
    assert expected in _prompt_lines(rules, f"Can I edit {asked} by hand?")[0]


def test_prompt_recall_never_searches_on_context_we_injected(rules: Paths) -> None:
    assert any(BILLING in line for line in _prompt_lines(rules, INJECTED + "Should I deploy the billing service?"))
    lines = _prompt_lines(rules, INJECTED + "Can I edit src/cart/v3/handlers.py by hand?")
    assert lines and not any(BILLING in line for line in lines)
    assert _prompt_lines(rules, INJECTED) == []  # nothing but our own context: nothing to recall


def test_search_never_searches_on_context_we_injected(rules: Paths) -> None:
    question = "where are the cart handlers?"
    assert [h.ref for h in recall.search(rules, INJECTED + question)] == [h.ref for h in recall.search(rules, question)]
