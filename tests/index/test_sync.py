"""Syncing the index: what a row keeps of its record (the rest is read back), and rows taken from the writer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.index import Index, Row, Source


# ---------------------------------------------------------------- what a row keeps, and what is read back


def _l1_row(record: dict[str, Any]) -> Row | None:
    meta = {k: record.get(k, "") for k in ("session", "transcript", "timestamp", "quote", "project")}
    meta["line"] = record.get("line", 0)
    return Row("chunk", record["id"], record["text"], str(record.get("timestamp", "")), meta)


def _records(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"c{i}", "text": f"we ship release {i} on friday", "session": "s1", "line": i * 2 + 1,
         "timestamp": f"2026-01-0{i + 1}T10:00:00Z", "transcript": f"/home/someone/history/s1-{i}.jsonl",
         "quote": f"quoted words number {i} only the source keeps", "project": "shop"}
        for i in range(n)
    ]


def _store(tmp: Path, records: list[dict[str, Any]]) -> Path:
    path = tmp / "chunks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _chunks_index(tmp: Path, path: Path) -> Index:
    return Index(tmp / "index.db", [Source("chunks", path, _l1_row, append_only=True)])


def test_a_hit_shows_every_field_of_its_record_though_the_index_keeps_no_copy(tmp_path: Path) -> None:
    records = _records(3)
    path = _store(tmp_path, records)
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        hits = ix.search("release 2 friday", limit=1)
        assert hits[0].meta == _l1_row(records[2]).meta  # type: ignore[union-attr]
        assert hits[0].source()["quote"] == "quoted words number 2 only the source keeps"
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("index.db*"))
    assert b"only the source keeps" not in stored


def test_a_record_moved_by_a_rewrite_is_still_shown_whole_before_and_after_the_next_sync(tmp_path: Path) -> None:
    records = _records(3)
    path = _store(tmp_path, records)
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        _store(tmp_path, [records[2], records[1]])  # the first record gone, the others moved
        for _ in range(2):
            hit = ix.search("release 2 friday", limit=1)[0]
            assert hit.meta == _l1_row(records[2]).meta  # type: ignore[union-attr]
            ix.sync()
        shown = {h.ref: h.meta for h in ix.search("friday")}
        assert shown == {r["id"]: _l1_row(r).meta for r in records[1:]}  # type: ignore[union-attr]


def test_a_record_gone_from_its_file_keeps_what_its_row_knows(tmp_path: Path) -> None:
    records = _records(2)
    path = _store(tmp_path, records)
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        path.write_text("", encoding="utf-8")  # emptied, not yet synced
        hit = ix.search("release 1 friday", limit=1)[0]
        assert hit.source() == {"session": "s1", "transcript": "/home/someone/history/s1-1.jsonl", "line": 3,
                                "timestamp": "2026-01-02T10:00:00Z", "quote": ""}


def test_an_index_of_an_older_schema_is_a_new_file_not_new_tables_in_the_old_one(tmp_path: Path) -> None:
    import sqlite3

    path = _store(tmp_path, _records(3))
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
    con = sqlite3.connect(tmp_path / "index.db")
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("CREATE TABLE old_rows (text TEXT)")
    con.executemany("INSERT INTO old_rows VALUES (?)", [("words an older schema kept " * 200,)] * 200)
    con.execute("UPDATE meta SET value = '6' WHERE key = 'schema'")
    con.commit()
    con.close()
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        assert ix.search("release 2 friday", limit=1)
        free, pages = (ix.con.execute(f"PRAGMA {name}").fetchone()[0] for name in ("freelist_count", "page_count"))
    assert free == 0 and pages < 100
    assert b"an older schema kept" not in b"".join(p.read_bytes() for p in tmp_path.glob("index.db*"))


def test_an_index_whose_rows_other_claim_code_derived_is_made_again(tmp_path: Path) -> None:
    """Claim keys are derived per atom: an index made before the code that makes them changed is rebuilt,
    so no contested key or claim is looked up under keys that code no longer makes."""
    path = _store(tmp_path, _records(3))
    source = [Source("chunks", path, _l1_row, append_only=True)]
    with Index(tmp_path / "index.db", source, derived="keys-1") as ix:
        ix.sync()
        ix.con.execute("INSERT INTO meta VALUES ('mark', 'made by keys-1')")
    with Index(tmp_path / "index.db", source, derived="keys-1") as ix:
        assert ix.con.execute("SELECT value FROM meta WHERE key='mark'").fetchone()  # same code: kept
    with Index(tmp_path / "index.db", source, derived="keys-2") as ix:
        assert ix.con.execute("SELECT value FROM meta WHERE key='mark'").fetchone() is None  # other code: new
        assert ix.con.execute("SELECT value FROM meta WHERE key='derived'").fetchone() == ("keys-2",)
        ix.sync()
        assert ix.search("release 2 friday", limit=1)
    with Index(tmp_path / "index.db", source) as ix:  # a reader that names no code keeps what it finds
        assert ix.con.execute("SELECT value FROM meta WHERE key='derived'").fetchone() == ("keys-2",)


# ---------------------------------------------------------------- the row id

def test_a_row_id_is_the_hash_of_its_source_and_its_line_as_the_file_holds_it(tmp_path: Path) -> None:
    import hashlib

    records = _records(2)
    path = _store(tmp_path, records)
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        ids = [i for (i,) in ix.con.execute("SELECT id FROM docs ORDER BY rowid")]
    lines = path.read_bytes().splitlines(keepends=True)
    assert ids == [hashlib.sha1(b"chunks\n" + line).hexdigest() for line in lines]
    # the same line in another source is another row
    with Index(tmp_path / "other.db", [Source("more", path, _l1_row, append_only=True)]) as other:
        other.sync()
        assert not set(ids) & {i for (i,) in other.con.execute("SELECT id FROM docs")}


# ---------------------------------------------------------------- rows taken from the writer


def _rows(ix: Index) -> list[tuple[Any, ...]]:
    return sorted(ix.con.execute("SELECT id, kind, ref, date, text, at, line, extra FROM docs").fetchall())


def test_records_taken_while_the_index_is_behind_are_read_from_the_file_with_what_it_missed(tmp_path: Path) -> None:
    from agent_memory.index import Appended
    from agent_memory.store import append_jsonl, append_lines, jsonl_lines

    records = _records(4)
    path = tmp_path / "chunks.jsonl"
    append_jsonl(path, records[:2])
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        append_jsonl(path, records[2:3])  # written by someone else: the index has not read it
        lines = [line.encode("utf-8") for line in jsonl_lines(records[3:])]
        before = ix.signature_of("chunks")
        ix.take_appended([Appended("chunks", before, append_lines(path, lines), records[3:], lines)])
        assert [ref for (ref,) in ix.con.execute("SELECT ref FROM docs ORDER BY rowid")] == ["c0", "c1", "c2", "c3"]
        taken = _rows(ix)
    (tmp_path / "index.db").unlink()
    with _chunks_index(tmp_path, path) as rebuilt:
        rebuilt.sync()
        assert _rows(rebuilt) == taken


def test_records_taken_from_the_writer_are_the_rows_a_sync_reads_and_need_no_sync_after(tmp_path: Path) -> None:
    from agent_memory.index import Appended
    from agent_memory.store import append_lines, jsonl_lines

    records = _records(3)
    records[1]["text"] = "getUserName と python3 の テスト"  # non-ASCII: byte offsets are not character counts
    path = tmp_path / "chunks.jsonl"
    with _chunks_index(tmp_path, path) as ix:
        for part in (records[:2], records[2:]):
            lines = [line.encode("utf-8") for line in jsonl_lines(part)]
            before = ix.signature_of("chunks")
            ix.take_appended([Appended("chunks", before, append_lines(path, lines), part, lines)])
        # the index knows it has read the file to its end: the next sync costs a stat
        assert ix.con.execute("SELECT sig, offset FROM sources").fetchone() == (ix.signature_of("chunks"),
                                                                                path.stat().st_size)
        taken = _rows(ix)
    (tmp_path / "index.db").unlink()
    with _chunks_index(tmp_path, path) as rebuilt:
        rebuilt.sync()
        assert _rows(rebuilt) == taken


def test_a_sync_reads_a_file_a_batch_at_a_time_and_makes_the_rows_it_makes_at_once(tmp_path: Path,
                                                                                  monkeypatch: Any) -> None:
    from agent_memory.index import rows

    records = _records(7)
    path = _store(tmp_path, records)
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        whole = _rows(ix)
        found = [h.ref for h in ix.search("friday")]
    monkeypatch.setattr(rows, "_ROWS_AT_ONCE", 3)
    (tmp_path / "index.db").unlink()
    with _chunks_index(tmp_path, path) as ix:
        assert ix.sync() == {"added": 7, "removed": 0}
        assert _rows(ix) == whole and [h.ref for h in ix.search("friday")] == found
        _store(tmp_path, records[1:6])  # rewritten: the first and the last go, the others move
        assert ix.sync() == {"added": 0, "removed": 2}
        assert sorted(ref for (ref,) in ix.con.execute("SELECT ref FROM docs")) == [r["id"] for r in records[1:6]]


def test_a_claim_keys_row_has_its_first_atoms_terms_and_a_later_atoms_are_never_made(tmp_path: Path,
                                                                                     monkeypatch: Any) -> None:
    from agent_memory.index import Appended, sync
    from agent_memory.store import append_lines, jsonl_lines

    made: list[str] = []
    terms_of = sync.prompt_terms
    monkeypatch.setattr(sync, "prompt_terms", lambda text: made.append(text) or terms_of(text))

    def atom_row(record: dict[str, Any]) -> Row | None:
        return Row("atom", record["id"], record["text"], record["timestamp"], {"session": record["session"]},
                   claim="use pnpm")

    texts = ["Always use pnpm for installs.", "use pnpm, never npm", "pnpm only, in every repo"]
    records = [{"id": f"a{i}", "text": text, "timestamp": f"2026-01-0{i + 1}T10:00:00Z", "session": f"s{i}"}
               for i, text in enumerate(texts)]
    path = tmp_path / "atoms.jsonl"
    with Index(tmp_path / "index.db", [Source("atoms", path, atom_row, append_only=True)]) as ix:
        for part in (records[:2], records[2:]):  # the key is made by the first append and raised by the second
            lines = [line.encode("utf-8") for line in jsonl_lines(part)]
            ix.take_appended([Appended("atoms", ix.signature_of("atoms"), append_lines(path, lines), part, lines)])
        key = ix.con.execute("SELECT key, text, terms, last FROM keys").fetchall()
    assert made == [texts[0]]
    assert key == [("use pnpm", texts[0], " ".join(terms_of(texts[0])), "2026-01-03T10:00:00Z")]
    (tmp_path / "index.db").unlink()
    with Index(tmp_path / "index.db", [Source("atoms", path, atom_row, append_only=True)]) as rebuilt:
        rebuilt.sync()
        assert rebuilt.con.execute("SELECT key, text, terms, last FROM keys").fetchall() == key
    assert made == [texts[0]] * 2


# ---------------------------------------------------------------- which records the index has


def test_indexed_names_the_ids_of_one_kind_it_holds_in_a_new_and_in_a_filled_index(tmp_path: Path) -> None:
    records = _records(3)
    path = _store(tmp_path, [])
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        assert ix.indexed("chunk", ["c0", "c1"]) == set()  # nothing indexed yet
        _store(tmp_path, records)
        ix.sync()
        many = [f"x{i}" for i in range(1200)] + ["c2", "c0", "c9"]  # more ids than one statement binds
        assert ix.indexed("chunk", many) == {"c0", "c2"}
        assert ix.indexed("atom", many) == set()
        assert ix.indexed("chunk", []) == set()


# ---------------------------------------------------------------- what the trigram table is given


_CJK_MIX = st.text(alphabet=st.sampled_from(
    list("ab Z9\n\t.,、。「」・ー々〆〇〄ぁゟ゠ヿ日本語中文鿿가힯豈\ufaffｦﾟ｡ﾠ") + ["\u3004", "\u3008", "\ud7b0", "\U00020000", "😀"]))


@settings(max_examples=400, deadline=None)
@given(_CJK_MIX)
def test_the_cjk_of_a_text_is_each_of_its_cjk_runs_in_order_one_space_apart(text: str) -> None:
    import re

    from agent_memory.index.schema import CJK_CLASS
    from agent_memory.index.sync import cjk_runs

    assert cjk_runs(text) == " ".join(re.findall(CJK_CLASS + "+", text))


# ---------------------------------------------------------------- a row's id, from the writer or from the file


_VALUE = st.one_of(st.text(), st.integers(), st.booleans(), st.none(), st.lists(st.text(max_size=5), max_size=3),
                   st.dictionaries(st.sampled_from(["text", "a", "zz"]), st.text(max_size=5), max_size=2))
_AWKWARD = st.text(alphabet=st.sampled_from(['"', "\\", "a", "é", "日", "\n", "\x00", "\u2028", "/", "😀"]), max_size=30)


@settings(max_examples=150, deadline=None)
@given(texts=st.lists(_AWKWARD, min_size=1, max_size=4),
       others=st.dictionaries(st.sampled_from(["agent", "context", "quote", "session", "tex", "texts", "timestamp",
                                               "zeta", "line"]), _VALUE, max_size=6))
def test_the_ids_the_writer_makes_are_the_ids_a_sync_reads(tmp_path_factory: Any, texts: list[str],
                                                          others: dict[str, Any]) -> None:
    from agent_memory.index import Appended
    from agent_memory.store import append_lines, jsonl_lines

    def meta_row(record: dict[str, Any]) -> Row | None:
        return Row("chunk", record["id"], record["text"], str(record.get("timestamp", "")),
                   {"quote": str(record.get("quote", "")), "line": record.get("line")})

    tmp = tmp_path_factory.mktemp("ids")
    records = [{"id": f"c{i}", **others, "text": text} for i, text in enumerate(texts)]
    path = tmp / "chunks.jsonl"
    with Index(tmp / "index.db", [Source("chunks", path, meta_row, append_only=True)]) as ix:
        lines = [line.encode("utf-8") for line in jsonl_lines(records)]
        ix.take_appended([Appended("chunks", ix.signature_of("chunks"), append_lines(path, lines), records, lines)])
        taken = sorted(ix.con.execute("SELECT id, ref, at FROM docs").fetchall())
    (tmp / "index.db").unlink()
    with Index(tmp / "index.db", [Source("chunks", path, meta_row, append_only=True)]) as rebuilt:
        rebuilt.sync()
        assert sorted(rebuilt.con.execute("SELECT id, ref, at FROM docs").fetchall()) == taken


# ---------------------------------------------------------------- a large file's rows made by workers


def test_a_file_made_into_rows_by_forked_workers_is_indexed_as_one_read_here(tmp_path: Path, monkeypatch: Any,
                                                                              refuse_fork: Any) -> None:
    from agent_memory.index import rows
    from agent_memory.promote.tiers import index_sources

    from promote.test_promote import atom, make_store

    texts = ["Always squash commits", "always squash commits!", "Never commit .env files", "use pnpm, not npm",
             "必ずコミット前に lint を実行する", "run getUserName tests with python3 -m pytest", "prefer vitest over jest"]
    atoms = [atom(text, f"s{i % 3}", f"2026-03-0{1 + i % 3}", line=i) for i, text in enumerate(texts * 9)]
    paths = make_store(tmp_path, atoms)
    with open(paths.atoms, "a", encoding="utf-8") as handle:
        handle.write('{"not an atom\n{"id": "torn", "text": "half a line')  # a bad line, and a torn last one
    with open(paths.chunks, "w", encoding="utf-8") as handle:
        for i in range(40):
            handle.write(json.dumps({"id": f"c{i}", "text": f"chunk {i}: {texts[i % len(texts)]} and the reply",
                                     "session": f"s{i % 4}", "transcript": f"/t/s{i % 4}.jsonl", "line": i,
                                     "timestamp": f"2026-03-01T10:{i:02d}:00Z"}) + "\n")

    def built(name: str, fork_bytes: int) -> list[Any]:
        monkeypatch.setattr(rows, "FORK_BYTES", fork_bytes)
        monkeypatch.setattr(rows, "_SLICE_BYTES", 900)  # several slices a file
        with Index(tmp_path / name, index_sources(paths)) as ix:
            assert ix.sync()["added"] == len(atoms) + 40
            found = [ix.con.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()
                     for table in ("docs", "keys", "places")]
            found.append(ix.con.execute("SELECT name, offset, head FROM sources ORDER BY name").fetchall())
            found += [[(h.ref, h.score) for h in ix.search(q)] for q in ("squash", "pnpm", "コミット", "user name")]
        return found

    assert built("workers.db", 0) == built("here.db", 1 << 40)

    refuse_fork()
    assert built("no-fork.db", 0) == built("here-again.db", 1 << 40)  # no fork to be had: made here, the same


def test_a_file_begun_here_and_handed_to_workers_midway_is_indexed_as_one_read_here(tmp_path: Path,
                                                                                     monkeypatch: Any) -> None:
    from agent_memory import pool
    from agent_memory.index import rows
    from agent_memory.promote.tiers import index_sources

    from promote.test_promote import atom, make_store

    if pool.fork_workers(1, 0) < 2:
        pytest.skip("no second core, or no fork, on this system: nothing is forked")
    texts = ["Always squash commits", "Never commit .env files", "use pnpm, not npm", "必ずコミット前に lint を実行する",
             "run getUserName tests with python3 -m pytest"]
    paths = make_store(tmp_path, [atom(text, f"s{i % 3}", f"2026-03-0{1 + i % 3}", line=i)
                                  for i, text in enumerate(texts * 12)])

    def built(name: str, busy_batches: int) -> list[Any]:
        asked = iter(range(1 << 30))
        # the cores taken (the other process of a pair at work) for the first batches, then free
        monkeypatch.setattr(rows, "fork_workers", lambda size: 1 if next(asked) <= busy_batches else 2)
        monkeypatch.setattr(rows, "_ROWS_AT_ONCE", 7)
        monkeypatch.setattr(rows, "_SLICE_BYTES", 900)
        made: list[int] = []
        insert = Index._insert
        monkeypatch.setattr(Index, "_insert", lambda ix, name, prepared, *a, **k: (
            made.append(len(prepared)), insert(ix, name, prepared, *a, **k))[1])
        with Index(tmp_path / name, index_sources(paths)) as ix:
            assert ix.sync()["added"] == len(texts) * 12
            assert sum(made) == len(texts) * 12  # each line made into a row once: none twice, none left
            found = [ix.con.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()
                     for table in ("docs", "keys", "places")]
            found.append(ix.con.execute("SELECT name, offset, head FROM sources ORDER BY name").fetchall())
            return found + [[(h.ref, h.score) for h in ix.search(q)] for q in ("squash", "pnpm", "コミット", "user")]

    assert built("handed.db", 3) == built("here.db", 1 << 30)


def test_a_new_file_filled_without_its_id_index_keeps_a_line_written_twice_as_one_row_where_it_was_last(
        tmp_path: Path, monkeypatch: Any) -> None:
    from agent_memory.index import rows

    records = _records(4)
    lines = [json.dumps(r) + "\n" for r in records]
    # the same line twice in one batch, and again in a later one
    monkeypatch.setattr(rows, "_ROWS_AT_ONCE", 3)
    path = tmp_path / "chunks.jsonl"
    path.write_text("".join([lines[0], lines[1], lines[0], lines[2], lines[3], lines[1]]), encoding="utf-8")
    with _chunks_index(tmp_path, path) as filled:
        assert filled.sync()["added"] == 4
        rows_filled = sorted(filled.con.execute("SELECT id, ref, at FROM docs").fetchall())
        assert filled.con.execute("SELECT count(*) FROM docs_words WHERE docs_words MATCH 'friday'").fetchone()[0] == 4
    # the same lines read by a sync of a file that grew, with the id index there all along
    (tmp_path / "index.db").unlink()
    path.write_text(lines[0], encoding="utf-8")
    with _chunks_index(tmp_path, path) as grown:
        grown.sync()
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("".join([lines[1], lines[0], lines[2], lines[3], lines[1]]))
        grown.sync()
        assert sorted(grown.con.execute("SELECT id, ref, at FROM docs").fetchall()) == rows_filled
    at = {ref: at for _id, ref, at in rows_filled}
    assert (at["c0"], at["c1"]) == (len(lines[0] + lines[1]), len(lines[0] + lines[1] + lines[0] + lines[2] + lines[3]))


def _stuck_slice(bounds: tuple[int, int]) -> Any:
    import time

    time.sleep(30)  # a worker killed or stuck: its slice never comes back
    return [], bounds[1], {}


def test_index_workers_that_do_not_finish_leave_the_file_to_be_read_again(tmp_path: Path, monkeypatch: Any) -> None:
    from agent_memory.index import rows
    from agent_memory.promote.tiers import index_sources

    from promote.test_promote import atom, make_store

    if rows.fork_workers(1 << 40) < 2:
        pytest.skip("no second core, or no fork, on this system: nothing is forked")
    atoms = [atom(f"Always run check number {i} before pushing", f"s{i % 3}", "2026-03-01", line=i) for i in range(60)]
    paths = make_store(tmp_path, atoms)
    monkeypatch.setattr(rows, "FORK_BYTES", 0)
    monkeypatch.setattr(rows, "_SLICE_BYTES", 900)
    monkeypatch.setattr(rows, "_slice_rows", _stuck_slice)
    monkeypatch.setattr(rows, "SLICE_SECONDS", 0.5)
    with Index(tmp_path / "index.db", index_sources(paths)) as ix:
        first = ix.sync()  # returns: the stuck workers are stopped, nothing waits for ever
        monkeypatch.undo()
        assert ix.sync()["added"] + first["added"] == len(atoms)  # read again, whole, the next time


# ---------------------------------------------------------------- records the caller parsed already


def _texts(ix: Index) -> list[str]:
    return sorted(text for (text,) in ix.con.execute("SELECT text FROM docs"))


def test_a_whole_read_takes_the_records_parsed_from_the_very_bytes_it_finds_and_parses_any_other(tmp_path: Path) -> None:
    records = _records(3)
    path = _store(tmp_path, records)
    data = path.read_bytes()
    second = data.index(b"\n") + 1
    # a record told apart from the one its line holds, to see which was taken
    told = {0: records[0], second: {**records[1], "text": "taken as parsed"}}
    with Index(tmp_path / "taken.db", [Source("chunks", path, _l1_row, append_only=True, parsed=(data, told))]) as ix:
        ix.sync()
        assert _texts(ix) == ["taken as parsed", "we ship release 0 on friday", "we ship release 2 on friday"]
    # bytes other than the file's (a rewrite between the parse and the read): the file's own lines are parsed
    other = data.replace(b"release 0", b"release 9")
    with Index(tmp_path / "parsed.db", [Source("chunks", path, _l1_row, append_only=True, parsed=(other, told))]) as ix:
        ix.sync()
        assert _texts(ix) == [f"we ship release {i} on friday" for i in range(3)]


def test_a_new_index_s_full_text_tables_gather_more_than_fts5_s_default_before_writing_a_segment(tmp_path: Path) -> None:
    from agent_memory.index.schema import FTS_PENDING_BYTES

    path = _store(tmp_path, _records(2))
    with _chunks_index(tmp_path, path) as ix:
        ix.sync()
        for table in ("docs_words", "docs_tri", "keys_words", "keys_tri"):
            assert ix.con.execute(f"SELECT v FROM {table}_config WHERE k = 'hashsize'").fetchone() == (FTS_PENDING_BYTES,)
        assert [h.ref for h in ix.search("release 1 friday", limit=1)] == ["c1"]
