"""The template guard: a long block pasted verbatim every session is pasted material, not the person restating a rule."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from agent_memory.atoms import BLOCK_CHARS, atoms_from_turn, paste_block
from agent_memory.model import Turn
from agent_memory.promote import plan
from helpers_store import load_schema
from promote.test_promote import NOW, atom, make_store

RULES = "Always run make check before pushing. Never commit directly to main."
TEMPLATE = ("You are working on the billing service. " * 6 + RULES + " Keep answers short and cite files. " * 3)


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _turn(text: str, session: str = "s1") -> Turn:
    return Turn(agent="codex", session=session, cwd="", timestamp="2026-03-01T10:00:00Z", role="user", text=text,
                source="/tmp/t.jsonl", line=3)


def test_atoms_of_a_long_turn_carry_its_block_and_short_turns_none() -> None:
    long_atoms = atoms_from_turn(_turn(TEMPLATE), "shop")
    assert long_atoms and {a["block"] for a in long_atoms} == {paste_block(TEMPLATE)}
    assert [a for a in atoms_from_turn(_turn(RULES), "shop") if "block" in a] == []
    schema = load_schema("atom.schema.json")
    for found in long_atoms:
        jsonschema.validate(found, schema)


@pytest.mark.parametrize(("text", "blocked"), [
    ("x" * (BLOCK_CHARS - 1), False),
    ("x" * BLOCK_CHARS, True),
    (" ".join(["word"] * 60), False),  # 299 characters once folded
    ("  \n".join(["word"] * 61), True),  # the same words with more whitespace still count once folded
])
def test_a_block_is_a_long_turn_after_whitespace_folding(text: str, blocked: bool) -> None:
    assert bool(paste_block(text)) is blocked


def test_the_same_block_in_many_sessions_counts_as_one_session(tmp_path: Path) -> None:
    block = paste_block(TEMPLATE)
    pasted = [dict(atom("Always run make check before pushing.", s, d), block=block)
              for s, d in (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"), ("s4", "2026-03-04"))]
    result = plan(make_store(tmp_path, pasted))
    assert result.proposals == []
    assert [b["reasons"] for b in result.blocked] == [["1 of 3 sessions", "1 of 2 distinct days"]]


def test_the_person_restating_the_rule_still_counts(tmp_path: Path) -> None:
    block = paste_block(TEMPLATE)
    atoms = [dict(atom("Always run make check before pushing.", "s1", "2026-03-01"), block=block),
             dict(atom("Always run make check before pushing.", "s2", "2026-03-02"), block=block),
             atom("always run make check before pushing", "s3", "2026-03-02"),
             atom("Always run make check before pushing!", "s4", "2026-03-03")]
    result = plan(make_store(tmp_path, atoms))
    assert [p.sessions for p in result.proposals] == [("s1", "s3", "s4")]


def test_the_claim_tables_keep_the_guard(tmp_path: Path) -> None:
    from agent_memory.claims.tables import db_path
    from agent_memory.promote import stage

    block = paste_block(TEMPLATE)
    pasted = [dict(atom("Always run make check before pushing.", s, d), block=block)
              for s, d in (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))]
    paths = make_store(tmp_path, pasted)
    stage(paths)
    assert db_path(paths).is_file()
    assert [b["reasons"] for b in plan(paths).blocked] == [["1 of 3 sessions", "1 of 2 distinct days"]]
