"""report: stale, near-duplicate, over budget, naming what is gone, not followed; and it writes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers_store import NOW, PROMOTABLE, Store, atom, load_schema, make_store, seen

from agent_memory.review.adopt import adopt
from agent_memory.promote import stage
from agent_memory.review import report as report_module
from agent_memory.review.report import _same, named, report


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def adopted_store(tmp_path: Path, *texts: str, days: tuple[str, ...] = PROMOTABLE) -> Store:
    store = make_store(tmp_path)
    for text in texts:
        store.add(seen(text, *days))
    stage(store.paths)
    assert len(adopt(store.paths, [], every=True).adopted) == len(texts)
    return store


# ---------------------------------------------------------------- the rules as tables


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Always run scripts/check.sh before pushing", [("file", "scripts/check.sh")]),
        ("Run `make lint` before committing", [("make", "lint")]),
        ("run make test first", [("make", "test")]),
        ("use pnpm run build:prod, not npm", [("npm", "build:prod")]),
        ("see README.md and src/app/main.ts", [("file", "README.md"), ("file", "src/app/main.ts")]),
        ("keep secrets in .env.local, never in git", []),  # no ending we can judge
        ("Make sure to use Node.js 20", []),  # "make sure" is no make target, Node.js no file
        ("make it work on python 3.12", []),
        ("the docs live at https://example.com/docs/setup.md", []),  # a URL is not in the repository
        ("update docs/setup when the API changes", [("dir?", "docs/setup")]),
        ("write tests and/or docs", [("dir?", "and/or")]),  # judged only where the folder exists
    ],
)
def test_what_a_claim_names(text: str, expected: list[tuple[str, str]]) -> None:
    assert named(text) == expected


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Run pytest before pushing", "Run pytest before pushing.", True),
        ("always run pytest before pushing", "run pytest before you push", True),
        ("Run pytest before pushing", "never run pytest before pushing", False),  # a clash, not a repeat
        ("Run pytest before pushing", "Run mypy before pushing", False),
        ("Use pnpm, not npm", "deploy from the main branch only", False),
    ],
)
def test_near_duplicates(a: str, b: str, alike: bool) -> None:
    assert (_same(a, b) >= report_module.NEAR) is alike


# ---------------------------------------------------------------- findings on a real store


def test_an_adopted_claim_naming_a_deleted_script_is_named(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    (store.project / "scripts").mkdir()
    (store.project / "scripts" / "check.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (store.project / "Makefile").write_text("lint:\n\truff .\ntest build: deps\n\tpytest\n", encoding="utf-8")
    store.add(seen("Always run scripts/check.sh before pushing", *PROMOTABLE))
    store.add(seen("Run `make lint` before committing", *PROMOTABLE, prefix="m"))
    store.add(seen("Run `make docs` after editing the API", *PROMOTABLE, prefix="d"))
    stage(store.paths)
    adopt(store.paths, [], every=True)
    assert [r["missing"] for r in report(store.paths)["missing"]] == [[{"name": "make docs", "why": "no such target in the Makefile"}]]
    (store.project / "scripts" / "check.sh").unlink()
    found = {r["text"]: r["missing"] for r in report(store.paths)["missing"]}
    assert found["Always run scripts/check.sh before pushing"] == [{"name": "scripts/check.sh", "why": "no such file in the repository"}]
    assert "Run `make lint` before committing" not in found


@pytest.mark.parametrize("body", ['{"scripts": {"lint": "eslint ."}', "[" * 100_000 + "]" * 100_000],
                         ids=["cut-short", "nested-too-deep"])
def test_a_package_json_that_cannot_be_read_is_as_none(tmp_path: Path, body: str) -> None:
    store = make_store(tmp_path)
    (store.project / "package.json").write_text(body, encoding="utf-8")
    store.add(seen("Run `npm run lint` before committing", *PROMOTABLE))
    stage(store.paths)
    adopt(store.paths, [], every=True)
    assert [r["missing"] for r in report(store.paths)["missing"]] == [
        [{"name": "run lint", "why": "no package.json in the repository"}]]


def test_stale_and_fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = adopted_store(tmp_path, "Run pytest before pushing")
    assert report(store.paths)["stale"] == []  # last said 2026-03-02, now 2026-03-20
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-06-15T00:00:00Z")
    [row] = report(store.paths)["stale"]
    assert (row["last_said"][:10], row["days"]) == ("2026-03-02", 104)
    store.add([atom("Run pytest before pushing", "s-late", "2026-06-01")])  # said again
    assert report(store.paths)["stale"] == []


def test_a_correction_that_keeps_coming_back_after_adoption_is_not_followed(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, "Use pnpm, not npm")
    again = [atom("Use pnpm, not npm", f"c{i}", day, kind="correction") for i, day in enumerate(["2026-03-22", "2026-03-25"])]
    store.add(again[:1])
    assert report(store.paths)["not_followed"] == []  # once is not a pattern
    store.add(again[1:])
    [row] = report(store.paths)["not_followed"]
    assert (row["text"], row["corrections"], row["sessions"]) == ("Use pnpm, not npm", 2, 2)


def test_corrections_before_adoption_do_not_count(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.add([atom("Use pnpm, not npm", f"c{i}", day, kind="correction") for i, day in enumerate(["2026-03-01", "2026-03-01", "2026-03-02"])])
    stage(store.paths)
    adopt(store.paths, [], every=True)
    assert report(store.paths)["not_followed"] == []


def test_over_budget_and_duplicates_in_the_instruction_files(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    claude = store.project / "CLAUDE.md"
    claude.write_text("# Rules\n\n- Always run pytest before you push\n", encoding="utf-8")
    store.add(seen("Run pytest before pushing", *PROMOTABLE))
    stage(store.paths)
    adopt(store.paths, [], every=True)
    found = report(store.paths)
    assert found["over_budget"] == []
    [dup] = found["duplicates"]
    assert (dup["file"], dup["line"], dup["where"]) == ("CLAUDE.md", "Run pytest before pushing", "file")
    with open(claude, "a", encoding="utf-8") as handle:
        handle.write("".join(f"line {n}\n" for n in range(200)))
    (store.project / "AGENTS.md").write_text("x" * (33 * 1024), encoding="utf-8")
    over = {r["agent"]: r for r in report(store.paths)["over_budget"]}
    assert over["claude"]["files"] == ["CLAUDE.md"] and over["claude"]["lines"] > 200
    assert over["codex"]["files"] == ["AGENTS.md"] and over["codex"]["bytes"] > 32 * 1024


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_report_command_writes_nothing_and_matches_its_schema(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, "Always run scripts/check.sh before pushing")
    before = _tree(tmp_path)
    done = store.run("report", "--json")
    assert done.returncode == 0, done.stderr
    shape: dict[str, Any] = json.loads(done.stdout)
    jsonschema.validate(shape, load_schema("report.schema.json"))
    assert [m["name"] for r in shape["missing"] for m in r["missing"]] == ["scripts/check.sh"]
    table = store.run("report")
    assert table.returncode == 0 and "scripts/check.sh" in table.stdout and "forget" in table.stdout
    assert _tree(tmp_path) == before
