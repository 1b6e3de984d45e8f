"""``agent-memory reindex`` of a large L1 counts the claim tables here and fills the index in a forked child at once:
the same tables and the same index as one step after the other, and a child that fails costs only the time."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from agent_memory import pool
from agent_memory.cli import main
from agent_memory.cli import reindex as reindex_cli

from promote.test_promote import NOW, atom, make_store

needs_fork = pytest.mark.skipif(sys.platform == "darwin" or not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
                                reason="forks a child to run beside this process on another core")


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _store(tmp_path: Path) -> Path:
    days = ("2026-03-01", "2026-03-02", "2026-03-03")
    atoms = [atom(text, f"s{i}", day, line=i) for i, day in enumerate(days) for text in (
        "Always squash commits", "Use pnpm, not npm", "Use npm, not pnpm", "PRs target develop", "PRs target main",
        "テストは必ず pytest で走らせて", "用 uv 管理依赖")]
    return make_store(tmp_path, atoms).store


def _tables(store: Path) -> dict[str, list[tuple[object, ...]]]:
    """What the index and the claim tables hold, row by row (their own ids aside)."""
    held = {}
    with sqlite3.connect(store / "index.db") as con:
        held["docs"] = sorted(con.execute("SELECT id, kind, text, claim, extra, cjk FROM docs"))
        held["keys"] = sorted(con.execute("SELECT key, text, terms, last, redacted FROM keys"))
        held["words"] = sorted(con.execute("SELECT rowid FROM docs_words WHERE docs_words MATCH 'pnpm OR squash'"))
    with sqlite3.connect(store / "L1" / "claims.db") as con:
        names = [n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for name in names:
            held[name] = sorted(map(repr, con.execute(f"SELECT * FROM {name}")))
    return held


def _reindexed(store: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, list[tuple[object, ...]]]]:
    for name in ("index.db", "L1/claims.db"):
        (store / name).unlink(missing_ok=True)
    assert main(["--memory-dir", str(store), "reindex"]) == 0
    return capsys.readouterr().out, _tables(store)


@needs_fork
def test_both_steps_at_once_make_what_one_after_the_other_makes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    store = _store(tmp_path)
    alone = _reindexed(store, capsys)
    forked: list[int] = []
    real_beside = pool.beside
    monkeypatch.setattr(reindex_cli, "BESIDE_BYTES", 0)
    monkeypatch.setattr(pool, "beside", lambda work: forked.append(1) or real_beside(work))
    assert _reindexed(store, capsys) == alone
    assert forked == [1] and "21 in all" in alone[0]
    assert pool.fork_workers(10**9, 1) > 1  # this process forks workers again once the child is done


@needs_fork
def test_a_child_that_fails_leaves_the_index_to_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    store = _store(tmp_path)
    alone = _reindexed(store, capsys)
    here, fill = os.getpid(), reindex_cli._fill_index

    def fails_in_the_child(where: object, full: bool, read: object = None) -> object:
        if os.getpid() != here:
            raise sqlite3.OperationalError("disk I/O error")
        return fill(where, full, read)  # type: ignore[arg-type]

    monkeypatch.setattr(reindex_cli, "BESIDE_BYTES", 0)
    monkeypatch.setattr(reindex_cli, "_fill_index", fails_in_the_child)
    assert _reindexed(store, capsys) == alone


def test_a_reindex_that_only_catches_up_forks_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    store = _store(tmp_path)
    _reindexed(store, capsys)
    monkeypatch.setattr(reindex_cli, "BESIDE_BYTES", 0)
    monkeypatch.setattr(pool, "beside", lambda work: pytest.fail("forked for a reindex with nothing to count anew"))
    assert main(["--memory-dir", str(store), "reindex"]) == 0
    assert "0 row(s) added" in capsys.readouterr().out


def test_an_index_of_chunks_many_times_the_atoms_is_filled_after_the_tables(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    store = _store(tmp_path)
    chunk = {"id": "c1", "text": "we talked about squashing commits " * 40, "session": "s0", "timestamp": NOW}
    atoms = (store / "L1" / "atoms.jsonl").stat().st_size
    with open(store / "L1" / "chunks.jsonl", "w", encoding="utf-8") as handle:
        for i in range(atoms * reindex_cli.BESIDE_CHUNKS_PER_ATOM_BYTE // 1000 + 1):
            handle.write(json.dumps({**chunk, "id": f"c{i}"}) + "\n")
    monkeypatch.setattr(reindex_cli, "BESIDE_BYTES", 0)
    monkeypatch.setattr(pool, "beside", lambda work: pytest.fail("forked for an index that is nearly all the work"))
    out, _held = _reindexed(store, capsys)
    assert "row(s) added" in out


@needs_fork
def test_beside_gives_the_childs_result_or_failed() -> None:
    assert pool.beside(lambda: {"rows": [1, 2, 3]})() == {"rows": [1, 2, 3]}
    failing = pool.beside(lambda: 1 / 0)
    assert failing is not None and failing() is pool.FAILED
    unpicklable = pool.beside(lambda: (lambda: None))
    assert unpicklable is not None and unpicklable() is pool.FAILED


@needs_fork
def test_each_of_a_pair_forks_workers_only_once_the_other_is_done() -> None:
    many = 10**9
    working = pool.beside(lambda: time.sleep(0.5))
    assert working is not None and pool.fork_workers(many, 1) == 1  # the child works
    working()
    assert pool.fork_workers(many, 1) > 1
    asking = pool.beside(lambda: pool.fork_workers(many, 1))
    time.sleep(0.3)  # this process works
    assert asking is not None and asking() == 1

    def once_free() -> str:
        deadline = time.monotonic() + 10
        while pool.fork_workers(many, 1) == 1:
            if time.monotonic() > deadline:
                return "never told"
            time.sleep(0.01)
        return "free"

    waiting = pool.beside(once_free)
    time.sleep(0.2)
    assert waiting is not None and waiting() == "free"  # waiting for it is this process being done
