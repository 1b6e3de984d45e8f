"""The shared FTS5 index: routing, safety of any query, and rebuildability."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agent_memory.index import Index, Row, Source, plan_query


def _atom_row(record: dict) -> Row | None:
    return Row("atom", record["id"], record["text"], record.get("timestamp", ""), {"session": record.get("session", "")})


def _write(path: Path, texts: list[str]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        for i, text in enumerate(texts):
            handle.write(json.dumps({"id": f"r{i}-{abs(hash(text))}", "text": text, "timestamp": "2026-01-02T03:04:05Z"}, ensure_ascii=False) + "\n")


def _index(tmp: Path) -> Index:
    return Index(tmp / "index.db", [Source("atoms", tmp / "atoms.jsonl", _atom_row, append_only=True)])


RECORDS = [
    "Always run pytest with -x before pushing",
    "Never force-push to main",
    "本番環境では必ずステージングで確認する",
    "テストは毎回失敗する",
    "用 pnpm 而不是 npm",
    "We deploy on port 8443",
]


@pytest.fixture()
def index(tmp_path: Path) -> Index:
    _write(tmp_path / "atoms.jsonl", RECORDS)
    ix = _index(tmp_path)
    ix.sync()
    yield ix
    ix.close()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("pytest", RECORDS[0]),
        ("pushing", RECORDS[0]),
        ("push", RECORDS[0]),  # porter stemming: push ~ pushing
        ("force-push", RECORDS[1]),
        ("ステージング", RECORDS[2]),  # ≥3 CJK characters: trigram
        ("必ず", RECORDS[2]),  # 2 characters: LIKE fallback
        ("毎", RECORDS[3]),  # 1 character
        ("pnpm", RECORDS[4]),
        ("而不是", RECORDS[4]),
        ("8443", RECORDS[5]),
    ],
)
def test_routes_find_their_records(index: Index, query: str, expected: str) -> None:
    assert expected in [h.text for h in index.search(query)]


IDENTIFIER_RECORDS = [
    "Never edit src/cart/v3/handlers.py by hand",
    "Never edit src/cart/v2/handlers.py by hand",
    "Never edit src/billing/v3/handlers_test.py by hand",
    "Call getUserName instead of reading the field",
    "Rename fetch_order_items before the release",
    "Pin python3.11 in the container",
    "Keep numpy at 1.26.4 until the build is fixed",
    "Keep numpy at 2.0.1 on the new image",
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Can I edit src/cart/v3/handlers.py by hand?", IDENTIFIER_RECORDS[0]),  # whole path, not v2 or billing's
        ("Can I edit src/cart/v2/handlers.py by hand?", IDENTIFIER_RECORDS[1]),
        ("what about handlers_test.py", IDENTIFIER_RECORDS[2]),  # a file name alone
        ("getUserName", IDENTIFIER_RECORDS[3]),  # camelCase whole
        ("the user name getter", IDENTIFIER_RECORDS[3]),  # and by its parts
        ("fetch_order_items", IDENTIFIER_RECORDS[4]),  # snake_case whole
        ("order items", IDENTIFIER_RECORDS[4]),  # and by its parts
        ("which python version", IDENTIFIER_RECORDS[5]),  # a number attached to a word
        ("numpy 1.26.4", IDENTIFIER_RECORDS[6]),  # a version whole, not another version
        ("numpy 2.0.1", IDENTIFIER_RECORDS[7]),
    ],
)
def test_identifiers_match_whole_and_by_their_parts(tmp_path: Path, query: str, expected: str) -> None:
    _write(tmp_path / "atoms.jsonl", IDENTIFIER_RECORDS)
    with _index(tmp_path) as ix:
        ix.sync()
        assert ix.search(query)[0].text == expected


@pytest.mark.parametrize(
    "query",
    ['"', '""', "AND", "OR NOT", "NEAR(", "NEAR(a b, 3)", "text:pytest", "*", "^main", "(", ")", "a AND (", "-", "col:*^",
     "'", "\\", "%", "_", "%_%", "\x00", "   ", ""],
)
def test_fts5_syntax_never_raises(index: Index, query: str) -> None:
    index.search(query)


def test_hits_carry_source_and_date(index: Index) -> None:
    hit = index.search("pytest")[0]
    assert hit.date == "2026-01-02T03:04:05Z"
    assert set(hit.source()) == {"session", "transcript", "line", "timestamp", "quote"}


def test_date_falls_back_to_file_mtime(tmp_path: Path) -> None:
    (tmp_path / "atoms.jsonl").write_text(json.dumps({"id": "x", "text": "always lint first"}) + "\n")
    with _index(tmp_path) as ix:
        ix.sync()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ix.search("lint")[0].date)


def test_delete_index_then_reindex_gives_same_results(tmp_path: Path) -> None:
    _write(tmp_path / "atoms.jsonl", RECORDS)
    with _index(tmp_path) as ix:
        ix.sync()
        before = {q: [(h.text, h.score) for h in ix.search(q)] for q in ("pytest", "必ず", "ステージング", "main")}
    for name in ("index.db", "index.db-wal", "index.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with _index(tmp_path) as ix:
        ix.sync()
        after = {q: [(h.text, h.score) for h in ix.search(q)] for q in before}
    assert before == after


def test_reindex_twice_changes_nothing(index: Index) -> None:
    assert index.sync() == {"added": 0, "removed": 0}
    assert index.rebuild() == {"added": 0, "removed": 0}


def test_append_is_read_incrementally_and_rewrite_prunes(tmp_path: Path) -> None:
    path = tmp_path / "atoms.jsonl"
    _write(path, RECORDS[:2])
    with _index(tmp_path) as ix:
        assert ix.sync()["added"] == 2
        _write(path, ["Prefer uv over pip"])
        assert ix.sync() == {"added": 1, "removed": 0}
        path.write_text(json.dumps({"id": "only", "text": "Prefer uv over pip"}) + "\n")
        counts = ix.sync()
        assert counts["removed"] == 3 and counts["added"] == 1
        assert [h.text for h in ix.search("main")] == []
        path.unlink()
        ix.sync()
        assert ix.count() == 0


def test_torn_last_line_waits_for_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "atoms.jsonl"
    _write(path, RECORDS[:1])
    with open(path, "a") as handle:
        handle.write('{"id": "half", "text": "never dep')
    with _index(tmp_path) as ix:
        ix.sync()
        assert ix.count() == 1
        with open(path, "a") as handle:
            handle.write('loy on friday"}\n')
        ix.sync()
        assert [h.text for h in ix.search("friday")] == ["never deploy on friday"]


def test_corrupt_index_file_is_rebuilt(tmp_path: Path) -> None:
    _write(tmp_path / "atoms.jsonl", RECORDS)
    (tmp_path / "index.db").write_bytes(b"this is not a database" * 100)
    with _index(tmp_path) as ix:
        ix.sync()
        assert ix.search("pytest")


def test_plan_routes_by_script() -> None:
    plan = plan_query("Why does the 設定 ファイル break 本番環境?")
    assert "break" in plan.words and "the" not in plan.words
    assert "本番環境" in plan.cjk_long and "設定" in plan.cjk_short


_WORDS = st.from_regex(r"[a-z]{3,10}", fullmatch=True)
_CJK_TEXT = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF), min_size=3, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(_WORDS, min_size=1, max_size=6), cjk=_CJK_TEXT, pick=st.integers(0, 100), tmp_factory=st.just(None))
def test_any_inserted_text_is_found_by_one_of_its_words_or_cjk_substrings(
    tmp_path_factory: pytest.TempPathFactory, words: list[str], cjk: str, pick: int, tmp_factory: None
) -> None:
    tmp = tmp_path_factory.mktemp("prop")
    text = " ".join(words) + " " + cjk
    _write(tmp / "atoms.jsonl", [text, "unrelated filler line"])
    with _index(tmp) as ix:
        ix.sync()
        word = words[pick % len(words)]
        assert text in [h.text for h in ix.search(word)]
        start = pick % (len(cjk) - 2)
        assert text in [h.text for h in ix.search(cjk[start : start + 3])]
        assert text in [h.text for h in ix.search(cjk[start : start + 1])]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(max_size=40))
def test_no_query_string_raises(index: Index, query: str) -> None:
    index.search(query)


_PIECE = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=6)
_IDENT = st.builds(lambda first, rest: first + "".join(j + p for j, p in rest), _PIECE,
                   st.lists(st.tuples(st.sampled_from(["/", ".", "_", "-"]), _PIECE), min_size=1, max_size=4))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ident=_IDENT, other=_IDENT)
def test_an_identifier_in_a_record_finds_it_first(tmp_path_factory: pytest.TempPathFactory, ident: str, other: str) -> None:
    # src/cart/v3 holds src/cart, and 1.0 reads as 1/0 (joiners are not tokens): both records match those
    tokens = " ".join(re.split(r"[/._-]", ident.lower()))
    assume(f" {tokens} " not in f" {' '.join(re.split(r'[/._-]', other.lower()))} ")
    tmp = tmp_path_factory.mktemp("ident")
    _write(tmp / "atoms.jsonl", [f"never touch {other} by hand", f"never touch {ident} by hand"])
    with _index(tmp) as ix:
        ix.sync()
        hits = ix.search(f"may I touch {ident}?")
        assert hits and hits[0].text == f"never touch {ident} by hand"
