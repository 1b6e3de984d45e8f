"""The team gate: one statement, three engines, the same proposals; adopted like any other; never who."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest

from agent_memory.claims.key import atom_key
from agent_memory.promote.staging import read_staged
from agent_memory.team.gate import export_files, run_gate
from agent_memory.team.identity import repository
from agent_memory.team.stage import plan_team, stage_team
from helpers_store import ROOT, Store, load_schema, make_store

from .conftest import PEOPLE, export_all, rows_of, said

GATE = {"people": 3, "sessions": 3, "days": 2, "stated_sessions": 3, "stated_days": 2}
LINTER = "Always run the linter before pushing"


def _key(text: str) -> str:
    """The claim key every store gives ``text`` (keys are compared, not spelt out here)."""
    return atom_key({"text": text}).text


def _gate(stores: list[Store], folder: Path, engine: str, spark: Any = None) -> Any:
    evidence = run_gate(export_files([folder]), repository(stores[0].paths).identity, GATE, engine, spark)
    return evidence, plan_team(stores[0].paths, evidence, GATE)


def _pseudonyms(folder: Path) -> set[str]:
    return {r[c] for p in folder.glob("*.jsonl") for r in rows_of(p) for c in ("person", "session") if r[c]}


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_sqlite_engine_counts_people_sessions_and_days_as_the_personal_gate_does(team: Any) -> None:
    stores, folder = team
    evidence, result = _gate(stores, folder, "sqlite")
    by_claim = {c["claim"]: c for c in evidence.claims}
    linter = by_claim[_key(LINTER)]
    assert (linter["people"], linter["sessions"], linter["days"], linter["path"]) == (3, 6, 2, "default")
    assert by_claim[_key("Use pnpm for installs")]["people"] == 2 and not by_claim[_key("Use pnpm for installs")]["path"]
    assert by_claim[_key("Keep migrations reversible")]["contested"] == 1  # bob holds both: no one else's word outweighs it
    changelog = by_claim[_key("Check the changelog entry")]
    assert (changelog["people"], changelog["sessions"]) == (3, 3)  # one pasted block is one session per person
    assert [p.text for p in result.proposals] == [LINTER]
    assert result.proposals[0].as_json()["people"] == 3
    reasons = {b["text"]: b["reasons"] for b in result.blocked}
    assert reasons[_key("Use pnpm for installs")] == ["2 of 3 people", "2 of 3 sessions", "1 of 2 distinct days"]
    assert "contested" in reasons[_key("Keep migrations reversible")]


def test_a_claim_another_person_contradicts_does_not_pass(team: Any, tmp_path: Path) -> None:
    stores, folder = team
    dan = make_store(tmp_path / "dan", "shop", said("dan", "Never run the linter before pushing", "2026-03-08"))
    assert dan.run("export", "--dry-run").returncode == 0
    assert dan.run("export", "--out", str(folder / "dan.jsonl")).returncode == 0
    _evidence, result = _gate(stores, folder, "sqlite")
    assert not result.proposals
    assert [b["reasons"] for b in result.blocked if b["text"] == LINTER] == [
        ["contradicted by another claim in the exports"]]


def test_team_promote_stages_counts_never_who_and_adopt_writes_the_shared_file(team: Any) -> None:
    stores, folder = team
    ann = stores[0]
    done = ann.run("team", "promote", str(folder), "--engine", "sqlite", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert [p["text"] for p in found["proposals"]] == [LINTER] and found["staged"]["staged"] == 1
    staged = list(ann.paths.staged.glob("*.md"))
    staged_text = staged[0].read_text(encoding="utf-8")
    front = read_staged(staged[0])
    jsonschema.validate(front, load_schema("proposal.schema.json"))
    assert front["team"] == {"people": 3, "sessions": 6, "days": 2, "first_day": "2026-03-01", "last_day": "2026-03-02"}
    adopted = ann.run("adopt", found["proposals"][0]["id"])
    assert adopted.returncode == 0, adopted.stderr
    assert LINTER in (ann.project / "CLAUDE.md").read_text(encoding="utf-8")
    for line in ann.paths.l2.read_text(encoding="utf-8").splitlines():
        jsonschema.validate(json.loads(line), load_schema("claim.schema.json"))
    shared = staged_text + ann.paths.l2.read_text() + (ann.project / "CLAUDE.md").read_text()
    assert not any(name in shared for name in _pseudonyms(folder))  # no pseudonym anywhere it is shared
    assert not ann.paths.staged.joinpath(staged[0].name).exists()
    again = json.loads(ann.run("team", "promote", str(folder), "--engine", "sqlite", "--json").stdout)
    assert again["proposals"] == []  # adopted: not proposed again


def test_a_persons_own_promote_pass_leaves_team_proposals_staged(team: Any) -> None:
    stores, folder = team
    ann = stores[0]
    assert ann.run("team", "promote", str(folder), "--engine", "sqlite").returncode == 0
    before = sorted(p.name for p in ann.paths.staged.glob("*.md"))
    assert ann.run("promote", "--write").returncode == 0
    assert set(before) <= {p.name for p in ann.paths.staged.glob("*.md")}


def test_a_rejected_team_proposal_waits_for_new_evidence(team: Any) -> None:
    stores, folder = team
    ann = stores[0]
    first = json.loads(ann.run("team", "promote", str(folder), "--engine", "sqlite", "--json").stdout)
    assert ann.run("reject", first["proposals"][0]["id"]).returncode == 0
    again = json.loads(ann.run("team", "promote", str(folder), "--engine", "sqlite", "--json").stdout)
    assert again["proposals"] == [] and any("rejected" in r for b in again["blocked"] for r in b["reasons"])


def test_a_dry_run_writes_nothing(team: Any) -> None:
    stores, folder = team
    ann = stores[0]
    before, exports = _tree(ann.project.parent), _tree(folder)
    shown = ann.run("team", "promote", str(folder), "--engine", "sqlite", "--dry-run", "--json")
    assert shown.returncode == 0, shown.stderr
    assert [p["text"] for p in json.loads(shown.stdout)["proposals"]] == [LINTER]
    assert _tree(ann.project.parent) == before and _tree(folder) == exports
    people = ann.run("team", "promote", str(folder), "--engine", "sqlite", "--dry-run")
    assert "dry run: nothing written" in people.stdout and LINTER in people.stdout


@pytest.mark.parametrize("body, why", [
    ('{"claim": "x"}\n', "is not an export row"),
    ("not json\n", "is not JSON"),
])
def test_a_bad_export_is_one_line_and_stages_nothing(tmp_path: Path, team: Any, body: str, why: str) -> None:
    stores, folder = team
    (folder / "broken.jsonl").write_text(body, encoding="utf-8")
    done = stores[0].run("team", "promote", str(folder), "--engine", "sqlite")
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1 and why in done.stderr
    assert not list(stores[0].paths.staged.glob("*.md"))


def test_an_engine_whose_extra_is_missing_is_one_line(tmp_path: Path, team: Any) -> None:
    stores, folder = team
    blocker = tmp_path / "no-extras"
    blocker.mkdir()
    for name in ("duckdb", "pyspark"):
        (blocker / f"{name}.py").write_text("raise ModuleNotFoundError('not installed')\n")
    env = {"PYTHONPATH": f"{blocker}{os.pathsep}{ROOT}"}
    for engine, extra in (("duckdb", "team"), ("spark", "spark")):
        done = stores[0].run("team", "promote", str(folder), "--engine", engine, extra_env=env)
        assert done.returncode == 1 and f"agent-memory[{extra}]" in done.stderr
    default = stores[0].run("team", "promote", str(folder), "--dry-run", "--json", extra_env=env)
    assert default.returncode == 0 and json.loads(default.stdout)["engine"] == "sqlite"


# ---------------------------------------------------------------- DuckDB and Spark: the same answer


def test_duckdb_gives_the_sqlite_proposals_and_they_adopt(team: Any) -> None:
    pytest.importorskip("duckdb", reason="the [team] extra (duckdb) is not installed")
    stores, folder = team
    lite, lite_plan = _gate(stores, folder, "sqlite")
    duck, duck_plan = _gate(stores, folder, "duckdb")
    assert duck.claims == lite.claims and duck.wordings == lite.wordings
    assert [p.as_json() for p in duck_plan.proposals] == [p.as_json() for p in lite_plan.proposals]
    assert duck_plan.blocked == lite_plan.blocked
    bob = stores[1]
    done = json.loads(bob.run("team", "promote", str(folder), "--engine", "duckdb", "--json").stdout)
    assert done["engine"] == "duckdb" and [p["text"] for p in done["proposals"]] == [LINTER]
    assert bob.run("adopt", "--all").returncode == 0
    assert LINTER in (bob.project / "CLAUDE.md").read_text(encoding="utf-8")


def test_duckdb_reads_parquet_and_jsonl_exports_together(team: Any) -> None:
    pytest.importorskip("duckdb", reason="the [team] extra (duckdb) is not installed")
    stores, folder = team
    before, _ = _gate(stores, folder, "sqlite")
    cyd = stores[2]
    assert cyd.run("export", "--format", "parquet", "--out", str(folder / "cyd.parquet")).returncode == 0
    (folder / "cyd.jsonl").unlink()
    lite, _ = _gate(stores, folder, "sqlite")
    duck, _ = _gate(stores, folder, "duckdb")
    assert duck.claims == lite.claims == before.claims and duck.rows == lite.rows == before.rows


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    """One local SparkSession for the module: a JVM starts once (10–60 s), not per test."""
    pytest.importorskip("pyspark", reason="the [spark] extra (pyspark) is not installed")
    if shutil.which("java") is None:
        pytest.skip("no Java runtime for Spark (install openjdk-17-jre-headless)")
    from agent_memory.team.gate import spark_session

    session = spark_session("local[2]")
    yield session
    session.stop()


def test_spark_gives_the_sqlite_proposals_and_they_adopt(team: Any, spark: Any) -> None:
    stores, folder = team
    lite, lite_plan = _gate(stores, folder, "sqlite")
    sparked, spark_plan = _gate(stores, folder, "spark", spark)
    assert sparked.claims == lite.claims and sparked.wordings == lite.wordings
    assert [p.as_json() for p in spark_plan.proposals] == [p.as_json() for p in lite_plan.proposals]
    cyd = stores[2]
    stage_team(cyd.paths, spark_plan)
    sparked_files = _tree(cyd.paths.staged)
    assert cyd.run("team", "promote", str(folder), "--engine", "sqlite").returncode == 0
    assert _tree(cyd.paths.staged) == sparked_files  # byte for byte what the SQLite engine stages
    assert cyd.run("adopt", "--all").returncode == 0
    assert LINTER in (cyd.project / "CLAUDE.md").read_text(encoding="utf-8")


def test_a_staged_team_proposal_keeps_its_key_whole(tmp_path: Path) -> None:
    """A key's purpose word (``~install``) is not a home folder: the staged key is the key the stores give."""
    rule = "Use pnpm for installs"
    stores = [make_store(tmp_path / who, "shop", said(who, rule, "2026-03-01", "2026-03-02")) for who in PEOPLE]
    export_all(stores, tmp_path / "exports")
    assert stores[0].run("team", "promote", str(tmp_path / "exports"), "--engine", "sqlite").returncode == 0
    (staged,) = stores[0].paths.staged.glob("*.md")
    assert read_staged(staged)["keys"] == [_key(rule)]
    assert stores[0].run("adopt", "--all").returncode == 0
    assert rule in (stores[0].project / "CLAUDE.md").read_text(encoding="utf-8")
