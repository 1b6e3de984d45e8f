"""The trigram routes: bm25 over a row's whole text, from a table that indexes only its CJK runs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.index import Index, Row, Source
from agent_memory.index import fts

# a few words, so pieces recur across rows and within one, and English around them of any length
_CJK = st.sampled_from(["設定ファイル", "本番", "設定", "ファイル設定", "番設"])
_ENGLISH = st.integers(0, 30).map(lambda n: "run the tests " * n)
_TEXT = st.lists(st.one_of(_CJK, _ENGLISH), min_size=1, max_size=6).map("".join)


def _row(record: dict) -> Row | None:
    return Row("atom", record["id"], record["text"], "2026-01-02T03:04:05Z", {})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(_TEXT, min_size=1, max_size=25),
       query=st.sampled_from(["設定ファ", "ファイル", "本番設定", "定ファイル設", "番設定"]))
def test_trigram_ranking_is_bm25_over_the_whole_text(
    tmp_path_factory: pytest.TempPathFactory, texts: list[str], query: str
) -> None:
    tmp = tmp_path_factory.mktemp("tri")
    (tmp / "atoms.jsonl").write_text(
        "".join(json.dumps({"id": f"r{i}", "text": t}, ensure_ascii=False) + "\n" for i, t in enumerate(texts)),
        encoding="utf-8",
    )
    with Index(tmp / "index.db", [Source("atoms", tmp / "atoms.jsonl", _row)]) as ix:
        ix.sync()
        # what the routes were measured against: a trigram table over each CJK-holding row's whole text
        whole = sqlite3.connect(":memory:")
        whole.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='trigram')")
        whole.executemany("INSERT INTO t(rowid, text) VALUES (?, ?)",
                          ix.con.execute("SELECT rowid, text FROM docs WHERE cjk != ''").fetchall())
        for pieces in ([query], fts.trigrams(query)):
            expected = [r for (r,) in whole.execute(
                "SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t), rowid LIMIT 50", (fts.any_of(pieces),))]
            assert ix._trigram(pieces, (), 50) == expected
