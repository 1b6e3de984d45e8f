"""A small team: three people's stores of one repository, each with the rules they keep telling their agents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers_store import Store, atom, make_store

PEOPLE = ("ann", "bob", "cyd")
BLOCK = "0123456789abcdef"


def said(person: str, text: str, *days: str, **extra: Any) -> list[dict[str, Any]]:
    """One atom per day given, each in its own session of ``person``."""
    found = []
    for n, day in enumerate(days, 1):
        one = atom(text, f"{person}-{day}-{n}", day, line=n)
        one.update(extra)
        found.append(one)
    return found


def team_atoms(person: str) -> list[dict[str, Any]]:
    """What each person said: one rule all three hold, one two hold, one a person contests, pasted blocks."""
    atoms = said(person, "Always run the linter before pushing", "2026-03-01", "2026-03-02")
    if person != "cyd":
        atoms += said(person, "Use pnpm for installs", "2026-03-03")
    atoms += said(person, "Keep migrations reversible", "2026-03-04")
    if person == "bob":  # bob also says the opposite: contested in his own store
        atoms += said(person, "Never keep migrations reversible", "2026-03-05")
    # a pasted block counts for one session at most, in every engine
    atoms += said(person, "Check the changelog entry", "2026-03-06", "2026-03-07", block=BLOCK)
    atoms += said(person, "Redacted rule [REDACTED:github-token]", "2026-03-01", redacted=True,
                  redaction_rules=["github-token"])
    return atoms


def team_stores(tmp_path: Path) -> list[Store]:
    """Three people, three machines (each with its own home and user store), one repository named shop."""
    stores = []
    for person in PEOPLE:
        store = make_store(tmp_path / person, "shop", team_atoms(person))
        stores.append(store)
    return stores


def export_all(stores: list[Store], folder: Path) -> list[Path]:
    """Each person's dry run, then the export itself, into one folder (as a team would gather them)."""
    folder.mkdir(parents=True, exist_ok=True)
    outs = []
    for store in stores:
        seen = store.run("export", "--dry-run", "--json")
        assert seen.returncode == 0, seen.stderr
        out = folder / f"{store.project.parent.name}.jsonl"
        done = store.run("export", "--out", str(out), "--json")
        assert done.returncode == 0, done.stderr
        outs.append(out)
    return outs


def rows_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def team(tmp_path: Path) -> tuple[list[Store], Path]:
    stores = team_stores(tmp_path)
    folder = tmp_path / "exports"
    export_all(stores, folder)
    return stores, folder
