"""Reversals: a person revoking a rule is heard, and the atom says which rule it revokes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from agent_memory import ingest
from agent_memory.markers import RULES, find_markers
from agent_memory.model import Turn

SCHEMA = json.loads((Path(__file__).parents[2] / "schemas" / "atom.schema.json").read_text(encoding="utf-8"))

# (what the person typed, the rule it revokes in its positive wording)
REVERSALS = [
    ("don't run the linter before every commit anymore, CI does it now", "run the linter before every commit"),
    ("Stop mocking the database in the integration tests, use the docker one.",
     "mock the database in the integration tests"),
    ("Please stop adding type: ignore comments.", "add type: ignore comments"),
    ("No more force pushes.", "force pushes"),
    ("We don't deploy on Fridays anymore.", "We deploy on Fridays"),
    ("Redis is no longer needed for the unit tests.", "Redis is needed for the unit tests"),
    ("btw we no longer support Python 3.8.", "we support Python 3.8"),
    ("worktree はもう使いません。", "worktree は使います"),
    ("もうモックは使わないでください。", "モックは使ってください"),
    ("以后不再用 Docker Compose 了，改用 Podman。", "用 Docker Compose"),
    ("别再加 console.log 了。", "加 console.log"),
    ("you don't have to ask before running tests anymore", "ask before running tests"),
    ("We don't need the staging step anymore.", "We need the staging step"),
    ("Prettier is no longer used; Biome formats everything.", "Prettier is used"),
    ("もうJestは使っていません。", "Jestは使っています"),
    ("今後はもうコメントを英語で書かなくていいです。", "コメントを英語で書く"),
    ("changelogはもう手で更新しなくていい。", "changelogは手で更新する"),
    ("No need to run mypy before pushing anymore.", "run mypy before pushing"),
    ("It's OK to use print statements in scripts now.", "don't use print statements in scripts"),
    ("Go back to yarn, the workspaces broke with npm.", "don't use yarn"),
    ("Switch back to npm rather than pnpm.", "don't use npm"),
    ("Drop mypy and rely on pyright instead.", "use mypy"),
    ("Jest はやめて、Vitest に移ってください。", "Jestを使う"),
    ("yarn に戻してください。", "yarnを使わない"),
    ("PR 不用再关联 issue 了。", "关联 issue"),
    ("Don't worry about commit subject length anymore, long subjects are fine.", "commit subject length"),
    ("don't bother with type stubs any more", "type stubs"),
    ("Don't bother adding type hints to new functions anymore.", "add type hints to new functions"),
    ("No more ADRs, just explain the decision in the PR description.", "ADRs"),
]


@pytest.mark.parametrize(("text", "revoked"), REVERSALS)
def test_a_reversal_says_what_it_reverses(text: str, revoked: str) -> None:
    (marker,) = find_markers(text)
    assert "reversal" in marker.rule_id
    assert marker.kind == "instruction"
    assert marker.reverses == revoked


def test_every_language_has_reversal_rules() -> None:
    langs = {r.lang for r in RULES if "reversal" in r.rule_id}
    assert langs == {"en", "ja", "zh"}
    assert all(r.reverses is not None for r in RULES if "reversal" in r.rule_id)


def test_ordinary_markers_reverse_nothing() -> None:
    for text in ("Always rebase before pushing.", "今後はpnpmを使ってください。", "以后都用pnpm。"):
        (marker,) = find_markers(text)
        assert marker.reverses == ""


def _turn(text: str) -> Turn:
    return Turn(agent="claude", session="s1", cwd="/p", timestamp="2026-01-05T10:00:00Z", role="user",
                text=text, source="t.jsonl", line=3)


def test_a_reversal_atom_carries_reverses_and_fits_the_schema() -> None:
    (atom,) = ingest.atoms_from_turn(_turn("don't run the linter before every commit anymore"), "proj")
    assert atom["reverses"] == "run the linter before every commit"
    assert "reversal" in atom["rule"]
    jsonschema.validate(atom, SCHEMA)


def test_other_atoms_have_no_reverses_field() -> None:
    (atom,) = ingest.atoms_from_turn(_turn("Always rebase before pushing."), "proj")
    assert "reverses" not in atom
    jsonschema.validate(atom, SCHEMA)


def test_reverses_is_redacted_like_the_claim() -> None:
    text = "Stop passing the token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB in the curl calls."
    atoms = ingest.atoms_from_turn(_turn(text), "proj")
    for atom in atoms:
        assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB" not in json.dumps(atom)
