"""On every shared real transcript, each agent's reader yields only turns a person typed.

``real_turns/turns.tsv`` lists, labelled by hand, the person-typed turns of these transcripts
(a turn seen in two overlapping files is listed once). Every user turn a reader yields must be
one of them, and so must the turn behind every atom. One fixture had each text replaced by
``[trimmed for fixture]``; its person-shaped records keep that placeholder, which no rule reads.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.agents.reading import read_transcript
from agent_memory.atoms import atoms_from_turn

from .shared import shared_data

DATA = shared_data()
TRANSCRIPTS = DATA / "transcripts"
TURNS = DATA / "real_turns" / "turns.tsv"
PLACEHOLDER = "[trimmed for fixture]"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def _unescape(field: str) -> str:
    out: list[str] = []
    chars = iter(field)
    for c in chars:
        out.append(_ESCAPES.get(next(chars, ""), "") if c == "\\" else c)
    return "".join(out)


def _fold(text: str) -> str:
    return " ".join(text.split())


def _person_turns() -> set[str]:
    found = set()
    for line in TURNS.read_text(encoding="utf-8").splitlines():
        if line.startswith("S"):
            found.add(_fold(_unescape(line.split("\t")[2])))
    return found


def _files(agent: str) -> list[Path]:
    folder = TRANSCRIPTS / agent
    return sorted(p for p in folder.glob("*") if p.suffix in (".json", ".jsonl")) if folder.is_dir() else []


@pytest.mark.skipif(not TURNS.is_file(), reason="shared/data/real_turns is not available")
@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_no_turn_and_no_atom_from_anything_the_person_did_not_type(agent: str) -> None:
    files = _files(agent)
    if not files:
        pytest.skip(f"no shared {agent} transcripts")
    person = _person_turns()
    foreign: list[tuple[str, int, str]] = []
    users = atoms = 0
    for path in files:
        for turn in read_transcript(str(path)).turns:
            if turn.role != "user":
                continue
            users += 1
            found = atoms_from_turn(turn, "shared")
            atoms += len(found)
            if _fold(turn.text) not in person and turn.text != PLACEHOLDER:
                foreign.append((path.name, turn.line, turn.text[:120]))
            if found:
                assert _fold(turn.text) in person, (path.name, turn.line, [a["text"] for a in found])
    assert users > 0
    assert foreign == []
