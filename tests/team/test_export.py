"""export: shareable rows only after the person saw them; nothing secret, no path, no user name, no quote."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.claims.evidence import ROW_COLUMNS
from agent_memory.store import Paths
from agent_memory.team import export as team_export
from agent_memory.team.export import EXPORT_COLUMNS
from helpers_store import PROMOTABLE, ROOT, atom, load_schema, make_store, seen

from .conftest import rows_of, said, team_atoms

SHARED = Path(os.environ.get("AGENT_MEMORY_SHARED", ROOT.parent / "shared")) / "data" / "secrets" / "positives.txt"


def test_the_export_row_schema_extends_the_atom_row_schema_column_for_column() -> None:
    atom_row, export_row = load_schema("atom_row.schema.json"), load_schema("export_row.schema.json")
    assert list(export_row["properties"]) == list(EXPORT_COLUMNS)
    assert list(export_row["properties"])[: len(ROW_COLUMNS)] == list(atom_row["properties"]) == list(ROW_COLUMNS)
    assert set(export_row["required"]) == set(EXPORT_COLUMNS)
    for name in ROW_COLUMNS:  # each column as narrow as the gate's row or narrower: every export row is an atom row
        mine, theirs = export_row["properties"][name], atom_row["properties"][name]
        assert mine.get("type") == theirs.get("type") and set(mine.get("enum", [0, 1])) <= set(theirs.get("enum", [0, 1]))


def test_an_export_needs_a_dry_run_first_and_then_writes_exactly_what_it_showed(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    out = tmp_path / "ann.jsonl"
    refused = store.run("export", "--out", str(out))
    assert refused.returncode == 1 and "agent-memory export --dry-run" in refused.stderr
    assert not out.exists()
    shown = store.run("export", "--dry-run", "--json")
    assert shown.returncode == 0, shown.stderr
    seen = json.loads(shown.stdout)
    assert not out.exists() and seen["dry_run"] is True
    done = store.run("export", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert rows_of(out) == seen["rows"] and json.loads(done.stdout)["digest"] == seen["digest"]
    schema, gate_row = load_schema("export_row.schema.json"), load_schema("atom_row.schema.json")
    for row in rows_of(out):
        jsonschema.validate(row, schema)
        jsonschema.validate({k: v for k, v in row.items() if k in ROW_COLUMNS}, gate_row)


def test_new_atoms_since_the_dry_run_are_refused_until_the_person_looks_again(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    out = tmp_path / "ann.jsonl"
    assert store.run("export", "--dry-run").returncode == 0
    store.add(said("ann", "Tag every release", "2026-03-09"))
    refused = store.run("export", "--out", str(out))
    assert refused.returncode == 1 and "differ from what the last dry run showed" in refused.stderr
    assert not out.exists()
    assert store.run("export", "--dry-run", "--since", "2026-03-02").returncode == 0
    assert store.run("export", "--out", str(out)).returncode == 1  # the whole history was not shown
    assert store.run("export", "--out", str(out), "--since", "2026-03-02").returncode == 0
    assert {r["day"] for r in rows_of(out)} <= {f"2026-03-0{d}" for d in range(2, 10)}


def test_a_dry_run_writes_no_export_and_redacted_atoms_are_held_back(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    before = sorted(p.name for p in store.project.iterdir())
    shown = json.loads(store.run("export", "--dry-run", "--json").stdout)
    assert sorted(p.name for p in store.project.iterdir()) == before
    assert shown["held_back"] == {"redacted": 1}
    assert all("REDACTED" not in r["text"] for r in shown["rows"])
    people = store.run("export", "--dry-run", extra_env={"COLUMNS": "200"})
    assert "held back, never exported: 1 redacted" in people.stdout and "Always run the linter" in people.stdout


def test_the_salt_is_made_once_readable_by_its_owner_only(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    first = json.loads(store.run("export", "--dry-run", "--json").stdout)
    salt = store.paths.user / "team-salt"
    assert stat.S_IMODE(salt.stat().st_mode) == 0o600
    again = json.loads(store.run("export", "--dry-run", "--json").stdout)
    assert again["person"] == first["person"] and again["digest"] == first["digest"]
    assert salt.read_text().strip() not in json.dumps(again)


def test_parquet_without_the_extra_is_one_line(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    blocker = tmp_path / "no-duckdb"
    blocker.mkdir()
    (blocker / "duckdb.py").write_text("raise ModuleNotFoundError('not installed')\n")
    env = {"PYTHONPATH": f"{blocker}{os.pathsep}{ROOT}"}
    assert store.run("export", "--dry-run", extra_env=env).returncode == 0
    done = store.run("export", "--format", "parquet", "--out", str(tmp_path / "a.parquet"), extra_env=env)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == ["agent-memory: Parquet exports need DuckDB: pip install 'agent-memory[team]'"]


def test_parquet_holds_the_same_rows(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb", reason="the [team] extra (duckdb) is not installed")
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    shown = json.loads(store.run("export", "--dry-run", "--json").stdout)
    out = tmp_path / "ann.parquet"
    assert store.run("export", "--format", "parquet", "--out", str(out)).returncode == 0
    got = duckdb.sql(f"SELECT * FROM read_parquet('{out}')")
    assert [dict(zip(got.columns, r)) for r in got.fetchall()] == shown["rows"]


# ---------------------------------------------------------------- the property: nothing private leaves


HOMES = ["/home/{u}/src/app", "/Users/{u}/Code/app", "/mnt/c/Users/{u}/app", "C:\\Users\\{u}\\app",
         "\\\\fileserver\\home$\\{u}\\app", "~{u}/app", "/var/home/{u}/app"]
_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
SECRETS = st.one_of(
    st.text(_ALNUM, min_size=36, max_size=36).map(lambda s: "ghp_" + s),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16).map(lambda s: "AKIA" + s),
    st.text(_ALNUM, min_size=24, max_size=24).map(lambda s: "xoxb-123456789012-1234567890123-" + s),
    st.text(_ALNUM, min_size=12, max_size=20).map(lambda s: "password=Q9" + s),
)


def _corpus_lines() -> list[str]:
    from agent_memory.redact import contains_secret

    if not SHARED.exists():
        return []
    lines = [line for line in SHARED.read_text(encoding="utf-8").splitlines() if 20 <= len(line) <= 200]
    return [line for line in lines[:400] if contains_secret(line)][:150]


CORPUS = _corpus_lines()
NAMES = st.text("abcdefghijklmnopqrstuvwxyz", min_size=5, max_size=9).filter(
    lambda n: n not in {"always", "never", "redacted", "session", "claims", "users", "fileserver"})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, home=st.sampled_from(HOMES), secret=SECRETS | (st.sampled_from(CORPUS) if CORPUS else SECRETS),
       where=st.integers(0, 2))
def test_no_row_carries_a_quote_a_path_a_user_name_or_a_secret(tmp_path_factory: pytest.TempPathFactory,
                                                               monkeypatch: pytest.MonkeyPatch, name: str,
                                                               home: str, secret: str, where: int) -> None:
    import agent_memory.redact as redact

    base = tmp_path_factory.mktemp("p")
    store = make_store(base)
    monkeypatch.setenv("HOME", str(store.home))
    monkeypatch.setattr(redact, "os_user_names", lambda: [name])
    folder = home.format(u=name)
    texts = [
        f"Always build from {folder}/Makefile before pushing",  # a home path: scrubbed to ~, so it may go
        f"Ask {name} before touching the deploy scripts",  # a user name: scrubbed to <user>
        [f"Use the token {secret} for the staging registry", f"Never log {secret}", f"{secret} is the ci key"][where],
    ]
    atoms = []
    for n, text in enumerate(texts):
        one = atom(text, f"s{n}", "2026-03-0" + str(n + 1), line=n + 1,
                   transcript=f"{folder}/.claude/projects/x/{n}.jsonl", quote=f"{text} (quoted in {folder})")
        one["cwd"] = folder
        atoms.append(one)
    store.add(atoms)
    found = team_export.build(Paths(store.paths.store, store.paths.user, store.paths.project_root))
    for row in found.rows:
        assert list(row) == list(EXPORT_COLUMNS)  # no quote, transcript, cwd or line column
        flat = json.dumps(row, ensure_ascii=False)
        assert secret not in flat and secret.casefold() not in flat.casefold()
        for text in (row["text"], row["claim"]):
            assert name not in text.casefold().replace("<user>", "")
            assert not any(prefix in text for prefix in ("/home/", "/Users/", "/mnt/c/", "C:\\", "\\\\", f"~{name}"))
    assert found.held_back.get("secret", 0) >= 1  # the line with the secret never goes
    assert len(found.rows) == 2


# ---------------------------------------------------------------- the pasted block: keyed, from scrubbed text only

PASTE = "please: the release checklist pasted from {home}/notes/release.md, every step of it"


def _block_rows(tmp_path: Path, who: str) -> list[dict[str, Any]]:
    atoms = []
    for n, (home, day) in enumerate((("/home/ann", "2026-03-01"), ("/home/zed", "2026-03-02"), ("/home/ann", "2026-03-03"))):
        for text in ("Check the changelog entry", "Tag every release"):
            one = atom(text, f"{who}-{n}", day, line=n + 1, quote=PASTE.format(home=home))
            one["block"] = hashlib.sha256(PASTE.format(home=home).encode()).hexdigest()[:16]  # as ingest made it
            atoms.append(one)
    atoms.append(atom("Keep migrations reversible", f"{who}-9", "2026-03-04"))  # no block
    store = make_store(tmp_path / who, atoms=atoms)
    return team_export.build(Paths(store.paths.store, store.paths.user, store.paths.project_root)).rows


def test_a_block_is_keyed_by_the_persons_salt_and_read_from_scrubbed_text(tmp_path: Path) -> None:
    ann, bob = _block_rows(tmp_path, "ann"), _block_rows(tmp_path, "bob")
    blocks = {r["block"] for r in ann if r["block"]}
    # one paste is one block, whichever home it was pasted from: the scrubbed text is all it is read from
    assert len(blocks) == 1 and len([r for r in ann if r["block"]]) == 6
    assert [r["block"] for r in ann if r["text"] == "Keep migrations reversible"] == [""]
    # nothing anyone can recompute: not the unkeyed hash ingest stored, and another person's salt gives another id
    unkeyed = {hashlib.sha256(PASTE.format(home=h).encode()).hexdigest()[:16] for h in ("/home/ann", "/home/zed")}
    assert not blocks & unkeyed and not blocks & {r["block"] for r in bob}


def test_one_persons_paste_counts_as_one_session(tmp_path: Path) -> None:
    from agent_memory.claims.key import atom_key
    from agent_memory.team.gate import run_gate

    rows = _block_rows(tmp_path, "ann")
    out = tmp_path / "ann.jsonl"
    out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    evidence = run_gate([out], rows[0]["project"], {"people": 1, "sessions": 1, "days": 1})
    tag = next(c for c in evidence.claims if c["claim"] == atom_key({"text": "Tag every release"}).text)
    assert (tag["sessions"], tag["days"], tag["observations"]) == (1, 1, 3)


def test_every_row_says_its_format_version(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=team_atoms("ann"))
    shown = json.loads(store.run("export", "--dry-run", "--json").stdout)
    assert shown["format_version"] == team_export.FORMAT_VERSION == 2
    assert {(r["format"], r["formerly"]) for r in shown["rows"]} == {(2, "")} and not shown["salt_changed"]


# ---------------------------------------------------------------- what the person took back stays home

LINTER = "Always run the linter before pushing"


def _proposed(store: Any) -> str:
    done = store.run("promote", "--write", "--json")
    assert done.returncode == 0, done.stderr
    return next(p["id"] for p in json.loads(done.stdout)["proposals"] if p["text"] == LINTER)


def test_a_rejected_claim_is_not_exported_until_said_again(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=seen(LINTER, *PROMOTABLE) + seen("Use pnpm for installs", "2026-03-01"))
    assert store.run("reject", _proposed(store)).returncode == 0
    shown = json.loads(store.run("export", "--dry-run", "--json").stdout)
    assert [r["text"] for r in shown["rows"]] == ["Use pnpm for installs"] and shown["held_back"] == {"rejected": 3}
    people = store.run("export", "--dry-run", extra_env={"COLUMNS": "200"}).stdout
    assert "held back, never exported: 3 rejected" in people and LINTER not in people
    store.add(seen(LINTER, "2026-03-21", prefix="again"))  # after the rejection: new evidence, as in their own gates
    again = json.loads(store.run("export", "--dry-run", "--json").stdout)
    assert sum(r["text"] == LINTER for r in again["rows"]) == 4 and "rejected" not in again["held_back"]


def test_a_forgotten_claim_is_not_exported(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=seen(LINTER, *PROMOTABLE) + seen("Use pnpm for installs", "2026-03-01"))
    assert store.run("adopt", _proposed(store)).returncode == 0
    assert len(json.loads(store.run("export", "--dry-run", "--json").stdout)["rows"]) == 4
    assert store.run("forget", LINTER).returncode == 0
    shown = json.loads(store.run("export", "--dry-run", "--json").stdout)
    assert [r["text"] for r in shown["rows"]] == ["Use pnpm for installs"] and shown["held_back"] == {"forgotten": 3}
    out = tmp_path / "out.jsonl"
    assert store.run("export", "--out", str(out)).returncode == 0
    assert LINTER not in out.read_text(encoding="utf-8")
