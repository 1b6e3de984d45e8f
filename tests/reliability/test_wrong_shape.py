"""Valid JSON of the wrong shape in any store file: derived files are rebuilt, committed files are reported
with file and line and the line skipped; never a traceback, and nothing a person wrote is dropped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers_store import PROMOTABLE, Store, atom, make_store, seen

PYTEST = "run pytest before pushing"
PNPM = "use pnpm, not npm"
READERS = (("promote", "--json"), ("inspect", "--tier", "L2", "--json"), ("inspect", "--why", "pytest", "--json"),
           ("search", "pytest", "--json"))


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-03-20T12:00:00Z")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def adopted_store(tmp_path: Path) -> Store:
    """Two claims adopted into L2 (so L2.jsonl and decisions exist), one more staged."""
    store = make_store(tmp_path)
    store.add(seen(PYTEST, *PROMOTABLE) + seen(PNPM, *PROMOTABLE))
    assert store.run("promote", "--write").returncode == 0
    assert store.run("adopt", "--all").returncode == 0, "adopt failed"
    store.add(seen("always run make lint first", *PROMOTABLE))
    assert store.run("promote", "--write").returncode == 0
    return store


def outputs(store: Store, commands: tuple[tuple[str, ...], ...] = READERS) -> dict[str, tuple[int, str, str]]:
    found = {}
    for args in commands:
        done = store.run(*args)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        found[" ".join(args)] = (done.returncode, done.stdout, done.stderr)
    return found


# ---------------------------------------------------------------- derived files: rebuilt


TABLE_DAMAGE = {
    "a key row gone": "DELETE FROM keys WHERE id = (SELECT MIN(id) FROM keys)",
    "the covered prefix named wrong": "UPDATE meta SET value = 'x' WHERE name = 'l1_sha1'",
    "the version named wrong": "UPDATE meta SET value = 'x' WHERE name = 'version'",
    "a table gone": "DROP TABLE pairs",
}


@pytest.mark.parametrize("damage", TABLE_DAMAGE.values(), ids=list(TABLE_DAMAGE))
def test_damaged_claim_tables_are_rebuilt(tmp_path: Path, damage: str) -> None:
    import sqlite3

    from agent_memory.claims.tables import db_path

    store = adopted_store(tmp_path)
    clean = outputs(store)
    con = sqlite3.connect(db_path(store.paths))
    con.execute(damage)
    con.commit()
    con.close()
    if "DELETE" not in damage:  # rows that disagree are the writer's to replace; a damaged file the reader's
        assert outputs(store) == clean
    con = sqlite3.connect(db_path(store.paths))
    con.execute("UPDATE meta SET value = 'x' WHERE name = 'version'")  # as after an upgrade
    con.commit()
    con.close()
    assert store.run("promote", "--write").returncode == 0
    assert outputs(store) == clean


@pytest.mark.parametrize("entry", ["x", {"sig": [1, 2], "sessions": 3}, {"sig": [1, 2], "line": "x"}])
def test_a_wrong_shaped_ingest_record_means_the_file_is_read_again(tmp_path: Path, entry: Any) -> None:
    store = make_store(tmp_path)
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(json.dumps({"type": "user", "sessionId": "s1", "cwd": str(store.project),
                                      "timestamp": "2026-03-01T10:00:00Z",
                                      "message": {"role": "user", "content": "always run make lint before committing"}}) + "\n",
                          encoding="utf-8")
    assert store.run("ingest", str(transcript)).returncode == 0
    atoms = store.paths.atoms.read_bytes()
    state = json.loads(store.paths.ingested.read_text(encoding="utf-8"))
    state = {key: entry for key in state}
    store.paths.ingested.write_text(json.dumps(state), encoding="utf-8")
    done = store.run("ingest", str(transcript), "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert store.paths.atoms.read_bytes() == atoms, "reading the file again must not add its atoms twice"
    assert all(isinstance(v, dict) and isinstance(v["sig"], list) for v in json.loads(store.paths.ingested.read_text()).values())


# ---------------------------------------------------------------- committed files: reported and skipped


L2_DAMAGE = [("keys", None), ("sources", ["x"]), ("sessions", 3), ("retired", "yes"), ("text", None)]


@pytest.mark.parametrize(("field", "value"), L2_DAMAGE, ids=[f"{f}={v!r}" for f, v in L2_DAMAGE])
def test_a_wrong_shaped_l2_line_is_reported_with_its_line_and_skipped(tmp_path: Path, field: str, value: Any) -> None:
    store = adopted_store(tmp_path)
    lines = store.paths.l2.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[1])
    broken[field] = value
    text = "\n".join([lines[0], json.dumps(broken), *lines[2:]]) + "\n"
    store.paths.l2.write_text(text, encoding="utf-8")
    for args, (code, out, err) in outputs(store).items():
        assert code == 0, (args, err)
        if args.startswith("search"):
            continue  # search reads the index, whose rows skip the line quietly (they are derived)
        assert err.splitlines() == [f"agent-memory: skipped .memory/L2.jsonl line 2: {field} is "
                                    + err.split(f"{field} is ", 1)[-1].strip()], (args, err)
    listed = json.loads(store.run("inspect", "--tier", "L2", "--json").stdout)["atoms"]
    assert json.loads(lines[0])["id"] in [c["id"] for c in listed], "the good line must still count"
    done = store.run("adopt", "--all", "--json")
    assert done.returncode == 0 and "L2.jsonl line 2" in done.stderr, done.stderr
    assert json.loads(done.stdout)["adopted"], "the staged proposal is adopted all the same"
    after = store.paths.l2.read_text(encoding="utf-8").splitlines()
    assert json.dumps(broken) in after, "the rewrite dropped the person's line"
    assert store.run("rollback").returncode == 0
    assert store.paths.l2.read_text(encoding="utf-8") == text


DECISION_DAMAGE = [
    {"action": "reject", "proposal_id": "x", "claim_id": "y", "keys": ["a"], "atoms": None, "projects": [], "at": "2026-03-01T00:00:00Z"},
    {"action": "verify", "claim_id": None, "keys": 5},
    [1, 2],
]


@pytest.mark.parametrize("decision", DECISION_DAMAGE, ids=[json.dumps(d)[:40] for d in DECISION_DAMAGE])
def test_a_wrong_shaped_decision_is_reported_with_its_line_and_skipped(tmp_path: Path, decision: Any) -> None:
    store = adopted_store(tmp_path)
    good = store.paths.decisions.read_text(encoding="utf-8") if store.paths.decisions.exists() else ""
    store.paths.decisions.write_text(good + json.dumps(decision) + "\n", encoding="utf-8")
    line = good.count("\n") + 1
    for args, (code, _out, err) in outputs(store, READERS + (("promote", "--write"),)).items():
        assert code == 0, (args, err)
        if args.startswith("search"):
            continue  # search reads no decisions
        assert len(err.splitlines()) == 1 and f"skipped .memory/decisions.jsonl line {line}: " in err, (args, err)


ATOM_DAMAGE = [("day", 20260301), ("session", 5), ("transcript", 5)]


@pytest.mark.parametrize(("field", "value"), ATOM_DAMAGE, ids=[f"{f}={v!r}" for f, v in ATOM_DAMAGE])
def test_a_wrong_shaped_atom_is_skipped(tmp_path: Path, field: str, value: Any) -> None:
    """L1 is the tool's own log: a wrong-shaped atom (another version, a hand edit) is passed over like a torn line."""
    store = adopted_store(tmp_path)
    clean = outputs(store, READERS + (("promote", "--write"),))
    bad = atom(PYTEST, "s9-odd", "2026-03-05")
    bad[field] = value
    store.add([bad])
    after = outputs(store, READERS + (("promote", "--write"),))
    assert after == clean


@pytest.mark.parametrize("line", ['keys: null', 'to: ["L2"]'])
def test_a_wrong_shaped_staged_file_is_reported_and_skipped(tmp_path: Path, line: str) -> None:
    store = adopted_store(tmp_path)
    staged = next(store.paths.staged.glob("*.md"))
    field = line.split(":")[0]
    text = staged.read_text(encoding="utf-8").split("\n")
    number = next(n for n, row in enumerate(text, 1) if row.startswith(f"{field}: "))
    text[number - 1] = line
    staged.write_text("\n".join(text), encoding="utf-8")
    done = store.run("adopt", "--all", "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines() == [f"agent-memory: skipped .memory/staged/{staged.name} line {number}: "
                                        + done.stderr.split(": ", 2)[-1].strip()]
    assert json.loads(done.stdout)["adopted"] == []
    assert staged.exists()


def test_a_well_shaped_store_reports_nothing(tmp_path: Path) -> None:
    store = adopted_store(tmp_path)
    for args, (code, _out, err) in outputs(store).items():
        assert code == 0 and err == "", (args, err)
