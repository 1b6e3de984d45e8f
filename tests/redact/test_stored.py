"""L1 written under older rules is redacted again by the present ones: nothing they would cut stays on disk."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agent_memory.ingest import ingest
from agent_memory.redact import stored
from agent_memory.store import Paths, StoreLock

SECRET = "FAkE7oGNrVg6YlVw"  # a password older rules took for a stand-in ("fake")


@pytest.fixture(autouse=True)
def _home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _old_store(tmp_path: Path) -> Paths:
    """A store whose L1 an older version wrote: a password left in an atom, its chunk, and a secret's digest."""
    project = tmp_path / "shop"
    (project / ".git").mkdir(parents=True)
    paths = Paths(store=project / ".memory", user=tmp_path / "user", project_root=project)
    paths.l1_dir.mkdir(parents=True)
    said = f"Always deploy with DB_PASSWORD={SECRET} on staging."
    atoms = [{"id": "a1", "kind": "instruction", "rule": "always", "text": said, "quote": said, "stated": False,
              "redacted": False, "redaction_rules": [], "session": "s1", "project": "shop", "timestamp": "2026-03-01T10:00:00Z",
              "day": "2026-03-01", "transcript": "/t/s1.jsonl", "line": 1, "secret_hash": "0123abcd"},
             {"id": "a2", "kind": "instruction", "rule": "always", "text": "Always run the tests", "quote": "Always run the tests",
              "redacted": False, "redaction_rules": [], "session": "s1", "project": "shop", "line": 2}]
    paths.atoms.write_text("".join(json.dumps(a) + "\n" for a in atoms), encoding="utf-8")
    paths.chunks.write_text(json.dumps({"id": "c1", "text": said + "\nok", "quote": said, "redacted": False,
                                        "session": "s1", "line": 1}) + "\n", encoding="utf-8")
    os.chmod(paths.atoms, 0o600)
    return paths


def test_a_secret_older_rules_let_through_leaves_L1(tmp_path: Path) -> None:
    paths = _old_store(tmp_path)
    clean_line = paths.atoms.read_bytes().split(b"\n")[1]
    with StoreLock(paths.store):
        assert stored.redact_stored(paths) == 2  # the atom with the password, and its chunk
    for path in (paths.atoms, paths.chunks):
        data = path.read_bytes()
        assert SECRET.encode() not in data and b"secret_hash" not in data
    first = json.loads(paths.atoms.read_text(encoding="utf-8").splitlines()[0])
    assert first["redacted"] and first["redaction_rules"] == ["password-assignment"]
    assert paths.atoms.read_bytes().split(b"\n")[1] == clean_line  # a line the rules leave alone keeps its bytes
    assert paths.atoms.stat().st_mode & 0o777 == 0o600


def test_it_runs_once_per_change_of_the_rules(tmp_path: Path) -> None:
    paths = _old_store(tmp_path)
    with StoreLock(paths.store):
        stored.redact_stored(paths)
        before = paths.atoms.stat().st_mtime_ns
        assert stored.redact_stored(paths) == 0
    assert paths.atoms.stat().st_mtime_ns == before
    assert json.loads(stored.marker(paths).read_text(encoding="utf-8")) == {"rules": stored.rules_digest()}


def test_ingest_cuts_it_from_L1_and_from_what_was_built_from_L1(tmp_path: Path) -> None:
    from agent_memory.claims import cache as claimcache
    from agent_memory.promote.tiers import open_index

    paths = _old_store(tmp_path)
    with open_index(paths) as index:  # an index and claim tables the older version built, secret included
        index.sync()
    with StoreLock(paths.store):
        claimcache.catch_up(paths, 0.85)
    ingest(paths, [])
    with open_index(paths) as index:
        index.sync()
    with StoreLock(paths.store):
        claimcache.catch_up(paths, 0.85)
    for path in paths.store.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def test_a_torn_last_line_and_a_line_that_is_not_json_stay_as_they_are(tmp_path: Path) -> None:
    paths = _old_store(tmp_path)
    with open(paths.atoms, "ab") as handle:
        handle.write(b"not json\n{\"id\": \"torn")
    with StoreLock(paths.store):
        stored.redact_stored(paths)
    assert paths.atoms.read_bytes().endswith(b"not json\n{\"id\": \"torn")
