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
from agent_memory.team.gate import ENGINES, BadExport, export_files, run_gate
from agent_memory.team.identity import repository
from agent_memory.team.stage import plan_team, stage_team
from helpers_store import ROOT, Store, load_schema, make_store

from .conftest import PEOPLE, export_all, rows_of, said, team_stores

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
    ("[" * 100_000 + "]" * 100_000 + "\n", "is not JSON"),  # nested deeper than the parser recurses
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


# ---------------------------------------------------------------- every row checked against the schema


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """Each engine, and the Spark session for the spark engine; skips an engine whose extra is absent."""
    if request.param == "duckdb":
        pytest.importorskip("duckdb", reason="the [team] extra (duckdb) is not installed")
    return request.param, request.getfixturevalue("spark") if request.param == "spark" else None


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """One team's exports, made once for the module: the repository's identity and the folder."""
    base = tmp_path_factory.mktemp("team")
    stores = team_stores(base)
    export_all(stores, base / "exports")
    return repository(stores[0].paths).identity, base / "exports"


def _copy(exported: tuple[str, Path], tmp_path: Path) -> Path:
    folder = tmp_path / "exports"
    shutil.copytree(exported[1], folder)
    return folder


def _with(row: dict[str, Any], **changes: Any) -> dict[str, Any]:
    changed = {k: v for k, v in row.items() if k not in changes or changes[k] is not ...}
    changed.update({k: v for k, v in changes.items() if v is not ...})
    return changed


# (what to change in a good row, a part of the one line that refuses it); ``...`` drops the column
BAD_ROWS = [
    ({"secret_quote": "x"}, "holds secret_quote, which no export row of format 2 has"),
    ({"text": ...}, "lacks text"),
    ({"format": 3}, "format 3, which this agent-memory does not read"),
    ({"format": "2"}, "does not read"),
    ({"format": 1}, "which no export row of format 1 has"),
    ({"person": "ann"}, "name a person that is not a pseudonym"),
    ({"person": "0123456789ABCDEF"}, "name a person that is not a pseudonym"),
    ({"session": "ann-2026-03-01-1"}, "name a session that is not a pseudonym"),
    ({"project": "shop"}, "name a repository that is not an identity"),
    ({"block": "not-a-block"}, "hold a block that is not 16 hex"),
    ({"day": "March 1"}, "hold a day that is not YYYY-MM-DD"),
    ({"redacted": 1}, "are marked redacted"),
    ({"stated": 2}, ""),
    ({"formerly": "ann"}, "former pseudonyms that are not 16 hex"),
]
BAD_IDS = [next(iter(c)) + f"-{i}" for i, (c, _w) in enumerate(BAD_ROWS)]


@pytest.mark.parametrize("change, why", BAD_ROWS, ids=BAD_IDS)
def test_the_schema_refuses_what_the_gate_refuses(exported: tuple[str, Path], change: dict[str, Any], why: str) -> None:
    """Each bad row below breaks the export row schema (and a good one keeps it)."""
    good = rows_of(exported[1] / "ann.jsonl")[0]
    schema = load_schema("export_row.schema.json")
    jsonschema.validate(good, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(_with(good, **change), schema)


@pytest.mark.parametrize("change, why", BAD_ROWS, ids=BAD_IDS)
def test_a_row_the_schema_refuses_refuses_the_gate_in_every_engine(engine: tuple[str, Any], exported: tuple[str, Path],
                                                                   tmp_path: Path, change: dict[str, Any], why: str) -> None:
    folder = _copy(exported, tmp_path)
    rows = rows_of(folder / "cyd.jsonl")
    rows.insert(1, _with(rows[1], **change))
    (folder / "cyd.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(BadExport) as refused:
        run_gate(export_files([folder]), exported[0], GATE, *engine)
    assert why in str(refused.value) and "\n" not in str(refused.value)


def test_team_promote_refuses_a_bad_row_in_one_line_and_leaves_staged_files_alone(team: Any) -> None:
    stores, folder = team
    ann = stores[0]
    assert ann.run("team", "promote", str(folder), "--engine", "sqlite").returncode == 0
    staged = _tree(ann.paths.staged)
    assert staged  # the linter rule waits for adopt
    rows = rows_of(folder / "bob.jsonl")
    (folder / "bob.jsonl").write_text("".join(json.dumps(_with(r, person="bob")) + "\n" for r in rows), encoding="utf-8")
    for extra in ([], ["--dry-run"], ["--json"]):
        done = ann.run("team", "promote", str(folder), "--engine", "sqlite", *extra)
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.strip().splitlines() == [
            f"agent-memory: {len(rows)} export row(s) name a person that is not a pseudonym (16 hex) "
            "(see schemas/export_row.schema.json), so nothing was staged"]
        assert _tree(ann.paths.staged) == staged  # not withdrawn, not rewritten


def test_exports_from_before_format_versions_are_read_and_said(engine: tuple[str, Any], exported: tuple[str, Path],
                                                               tmp_path: Path) -> None:
    folder = _copy(exported, tmp_path)
    before = run_gate(export_files([folder]), exported[0], GATE, "sqlite")
    rows = rows_of(folder / "bob.jsonl")
    (folder / "bob.jsonl").write_text("".join(json.dumps(_with(r, format=..., formerly=...)) + "\n" for r in rows),
                                      encoding="utf-8")
    evidence = run_gate(export_files([folder]), exported[0], GATE, *engine)
    assert evidence.claims == before.claims and evidence.version_1_rows == len(rows)


def test_team_promote_says_which_rows_are_of_version_1(team: Any) -> None:
    stores, folder = team
    rows = rows_of(folder / "bob.jsonl")
    (folder / "bob.jsonl").write_text("".join(json.dumps(_with(r, format=..., formerly=...)) + "\n" for r in rows),
                                      encoding="utf-8")
    said_text = " ".join(stores[0].run("team", "promote", str(folder), "--engine", "sqlite", "--dry-run").stdout.split())
    assert f"{len(rows)} row(s) come from exports made before format versions" in said_text


# ---------------------------------------------------------------- a new salt is not a new person


def _new_salt(store: Store) -> None:
    (store.paths.user / "team-salt").write_text("ab" * 32 + "\n", encoding="utf-8")


def test_a_person_who_exports_again_under_a_new_salt_is_counted_once(engine: tuple[str, Any], tmp_path: Path) -> None:
    ann, bob = (make_store(tmp_path / who, "shop", said(who, LINTER, "2026-03-01", "2026-03-02", "2026-03-03"))
                for who in ("ann", "bob"))
    folder = tmp_path / "exports"
    export_all([ann, bob], folder)
    old = json.loads(ann.run("export", "--dry-run", "--json").stdout)
    _new_salt(ann)
    shown = json.loads(ann.run("export", "--dry-run", "--json").stdout)
    assert shown["salt_changed"] and shown["formerly"] == [old["person"]] and shown["person"] != old["person"]
    assert {r["formerly"] for r in shown["rows"]} == {old["person"]}
    assert ann.run("export", "--out", str(folder / "ann-again.jsonl")).returncode == 0
    evidence = run_gate(export_files([folder]), repository(ann.paths).identity, GATE, *engine)
    linter = next(c for c in evidence.claims if c["claim"] == _key(LINTER))
    assert (linter["people"], linter["sessions"]) == (2, 6)  # not 3 people, not 9 sessions
    assert (evidence.superseded_people, evidence.superseded_rows) == (1, 3) and evidence.rows == 6
    again = json.loads(ann.run("export", "--dry-run", "--json").stdout)
    assert not again["salt_changed"] and again["formerly"] == [old["person"]]  # kept, said once


def test_a_new_salt_is_said_at_export_and_at_team_promote(tmp_path: Path) -> None:
    ann, bob = (make_store(tmp_path / who, "shop", said(who, LINTER, "2026-03-01")) for who in ("ann", "bob"))
    folder = tmp_path / "exports"
    export_all([ann, bob], folder)
    _new_salt(ann)
    told = ann.run("export", "--dry-run", extra_env={"COLUMNS": "200"}).stdout
    assert "your pseudonym here changed since the last dry run" in " ".join(told.split())
    assert ann.run("export", "--out", str(folder / "ann-again.jsonl")).returncode == 0
    done = ann.run("team", "promote", str(folder), "--engine", "sqlite", "--json")
    assert json.loads(done.stdout)["superseded"] == {"people": 1, "rows": 1}
    said_text = " ".join(ann.run("team", "promote", str(folder), "--engine", "sqlite", "--dry-run").stdout.split())
    assert "1 person(s) exported again under a new salt: 1 row(s) under their old pseudonym were left out" in said_text


def test_a_staged_team_proposal_keeps_its_key_whole(tmp_path: Path) -> None:
    """A key's purpose word (``+install``) is not a home folder: the staged key is the key the stores give."""
    rule = "Use pnpm for installs"
    stores = [make_store(tmp_path / who, "shop", said(who, rule, "2026-03-01", "2026-03-02")) for who in PEOPLE]
    export_all(stores, tmp_path / "exports")
    assert stores[0].run("team", "promote", str(tmp_path / "exports"), "--engine", "sqlite").returncode == 0
    (staged,) = stores[0].paths.staged.glob("*.md")
    assert read_staged(staged)["keys"] == [_key(rule)]
    assert stores[0].run("adopt", "--all").returncode == 0
    assert rule in (stores[0].project / "CLAUDE.md").read_text(encoding="utf-8")
