"""Readers on the shared real transcripts: how many user turns, how many not typed by a person, atoms from them.

``python -m bench.readers [SHARED_DATA]``. A user turn counts as the person's when its text is one of the
hand-labelled person turns in ``real_turns/turns.tsv`` (whitespace folded); the one fixture whose texts were
replaced by ``[trimmed for fixture]`` is reported apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

from agent_memory.ingest import atoms_from_turn
from agent_memory.agents.reading import read_transcript

REPO = Path(__file__).resolve().parents[1]
PLACEHOLDER = "[trimmed for fixture]"


def _fold(text: str) -> str:
    return " ".join(text.split())


def _person_turns(tsv: Path) -> set[str]:
    escapes = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
    found = set()
    for line in tsv.read_text(encoding="utf-8").splitlines():
        if not line.startswith("S"):
            continue
        out: list[str] = []
        chars = iter(line.split("\t")[2])
        for c in chars:
            out.append(escapes.get(next(chars, ""), "") if c == "\\" else c)
        found.add(_fold("".join(out)))
    return found


def measure(data: Path) -> dict[str, dict[str, int]]:
    """Per agent: files, user turns, turns not the person's, placeholder turns, atoms, atoms not from the person."""
    person = _person_turns(data / "real_turns" / "turns.tsv")
    report: dict[str, dict[str, int]] = {}
    for agent in ("claude", "codex", "gemini"):
        row = dict(files=0, user_turns=0, not_person=0, placeholders=0, atoms=0, atoms_not_person=0)
        for path in sorted((data / "transcripts" / agent).glob("*.json*")):
            row["files"] += 1
            for turn in read_transcript(str(path)).turns:
                if turn.role != "user":
                    continue
                row["user_turns"] += 1
                atoms = len(atoms_from_turn(turn, "shared"))
                row["atoms"] += atoms
                if turn.text == PLACEHOLDER:
                    row["placeholders"] += 1
                elif _fold(turn.text) not in person:
                    row["not_person"] += 1
                    row["atoms_not_person"] += atoms
        report[agent] = row
    return report


def main(argv: list[str]) -> int:
    data = Path(argv[0]) if argv else REPO.parent / "shared" / "data"
    if not (data / "transcripts").is_dir():
        print(f"no shared transcripts under {data}")
        return 1
    print("| agent | files | user turns | not the person's | placeholders | atoms | atoms not from the person |")
    print("|---|---|---|---|---|---|---|")
    for agent, row in measure(data).items():
        print(f"| {agent} | {row['files']} | {row['user_turns']} | {row['not_person']} | {row['placeholders']} "
              f"| {row['atoms']} | {row['atoms_not_person']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
