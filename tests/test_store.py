"""The store's writers and readers: atomic replacement, append-only logs that survive a torn tail, the lock."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.errors import StoreError
from agent_memory.store import Paths, StoreLock, append_jsonl, atomic_write, ensure_store, log_error, read_json, read_jsonl, write_json


def test_atomic_write_replaces_whole_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "file.json"
    atomic_write(target, "first")
    atomic_write(target, "second")
    assert target.read_text() == "second"
    assert sorted(p.name for p in target.parent.iterdir()) == ["file.json"]


def test_append_cuts_a_torn_tail_before_appending(tmp_path: Path) -> None:
    log = tmp_path / "atoms.jsonl"
    append_jsonl(log, [{"n": 1}])
    with open(log, "ab") as handle:
        handle.write(b'{"n": 2, "tor')  # a crash mid-record
    assert append_jsonl(log, [{"n": 3}, {"n": 4}]) == 2
    assert [r["n"] for _, r in read_jsonl(log)] == [1, 3, 4]
    assert append_jsonl(log, []) == 0


def test_read_jsonl_skips_what_is_not_a_record(tmp_path: Path) -> None:
    log = tmp_path / "l.jsonl"
    log.write_bytes(b'{"a": 1}\nnot json\n[1, 2]\n\xff\xfe\n{"b": 2}\n{"torn": ')
    assert list(read_jsonl(log)) == [(1, {"a": 1}), (5, {"b": 2})]
    assert list(read_jsonl(tmp_path / "missing.jsonl")) == []


def test_read_json_defaults_and_write_json_is_stable(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    assert read_json(target, {"d": 1}) == {"d": 1}
    write_json(target, {"b": 1, "a": "é"})
    assert target.read_text(encoding="utf-8") == '{\n "a": "é",\n "b": 1\n}\n'
    assert read_json(target, None) == {"a": "é", "b": 1}
    write_json(target, {"b": [1, 2], "a": "é"}, compact=True)  # a large file only the program reads: one line
    assert target.read_text(encoding="utf-8") == '{"a":"é","b":[1,2]}\n'
    assert read_json(target, None) == {"a": "é", "b": [1, 2]}


def test_ingest_records_what_it_read_on_one_line(tmp_path: Path) -> None:
    from agent_memory import ingest

    paths = Paths(store=tmp_path / ".memory", user=tmp_path / "user", project_root=tmp_path)
    ensure_store(paths)
    transcript = tmp_path / "s1.jsonl"
    transcript.write_text(json.dumps({"type": "user", "sessionId": "s1", "cwd": str(tmp_path), "timestamp":
                                      "2026-01-02T10:00:00Z", "message": {"role": "user", "content": "Always run ruff."}})
                          + "\n", encoding="utf-8")
    ingest.ingest(paths, [str(transcript)], agent="claude")
    recorded = paths.ingested.read_text(encoding="utf-8")
    assert recorded.count("\n") == 1 and str(transcript) in json.loads(recorded)


def test_the_lock_is_exclusive_between_holders(tmp_path: Path) -> None:
    with StoreLock(tmp_path):
        with pytest.raises(StoreError, match="busy"):
            with StoreLock(tmp_path, timeout=0.05):
                pass
    with StoreLock(tmp_path, timeout=0.05):  # released: free again
        pass


def test_ensure_store_makes_folders_and_gitignore(tmp_path: Path) -> None:
    paths = Paths(tmp_path / "store", tmp_path / "user", tmp_path)
    ensure_store(paths)
    assert paths.l1_dir.is_dir()
    ignored = (paths.store / ".gitignore").read_text().split()
    assert {"L1/", "index.db", "logs/", "backups/", "lock"} <= set(ignored)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only modes")
def test_ensure_store_on_a_read_only_parent_is_one_store_error(tmp_path: Path) -> None:
    parent = tmp_path / "ro"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        with pytest.raises(StoreError):
            ensure_store(Paths(parent / "store", tmp_path / "user", tmp_path))
    finally:
        parent.chmod(0o700)


def test_log_error_falls_back_to_the_user_store(tmp_path: Path) -> None:
    blocked = tmp_path / "store"
    blocked.write_text("a file where the store should be")  # the project store cannot take the line
    paths = Paths(blocked, tmp_path / "user", tmp_path)
    log_error(paths, "hook", ValueError("broken"))
    record = json.loads((tmp_path / "user" / "logs" / "errors.log").read_text().splitlines()[0])
    assert record["where"] == "hook" and record["error"] == "ValueError: broken" and record["store"] == str(blocked)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=8), _JSON_VALUES, max_size=6), max_size=4))
def test_an_l1_line_is_what_json_dumps_writes(records: list[dict[str, object]]) -> None:
    from agent_memory.store import jsonl_lines

    assert jsonl_lines(records) == [
        json.dumps(r, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n" for r in records
    ]


def test_a_value_json_cannot_write_is_the_error_json_dumps_raises() -> None:
    from agent_memory.store import jsonl_lines

    with pytest.raises(TypeError, match="not JSON serializable"):
        jsonl_lines([{"at": object()}])
