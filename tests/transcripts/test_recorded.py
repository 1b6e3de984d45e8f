"""Every reader on sessions recorded from the newest CLIs (``tests/data/recorded``, see its README).

The person typed the prompts of ``record.TYPED``; everything else in those sessions (image notes, hook context and
feedback, a command's or a skill's body, a sub-agent's prompt, the CLI's own context) was added by the CLI, a hook or
the model. The user turns a reader yields are exactly the typed words, each once, and no atom holds an added text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.agents.reading import read_transcript
from agent_memory.ingest import atoms_from_turn
from tests.e2e.record import ADDED, TYPED

RECORDED = Path(__file__).resolve().parents[1] / "data" / "recorded"
# what each CLI sends of a prompt the person typed: a slash command's arguments are not a turn of their own (the
# command's body is not the person's), and @file mentions stay as typed
EXPECTED = {
    "claude": [TYPED["image"], TYPED["hooked"], TYPED["delegate"], "@shot.png " + TYPED["plain"]],
    "codex": [TYPED["image"], TYPED["hooked"], "/prompts:review-notes " + TYPED["command"], "$heron " + TYPED["plain"],
              TYPED["delegate"]],
    "gemini": ["@shot.png " + TYPED["image"], TYPED["hooked"], TYPED["delegate"], TYPED["plain"]],
    "copilot": ["@shot.png " + TYPED["image"], TYPED["hooked"], "/heron " + TYPED["command"], TYPED["delegate"],
                TYPED["plain"]],
}
# the words of each added text that are its own (no typed prompt holds them)
ADDED_WORDS = ("quillwort", "marmoset", "tamarack", "heron style guide", "lantern files", "ocelot", "Image #",
               "original 2629x2334", "hook_prompt", "</image>")


def _recordings() -> list[tuple[str, Path]]:
    found = []
    for folder in sorted(RECORDED.iterdir()):
        if folder.is_dir():
            agent = folder.name.split("-", 1)[0]
            found += [(agent, path) for path in sorted(folder.rglob("*.jsonl"))]
    return found


def _session_folders() -> list[Path]:
    return sorted(folder for folder in RECORDED.iterdir() if folder.is_dir())


def test_the_recordings_cover_every_agent() -> None:
    assert {agent for agent, _ in _recordings()} == set(EXPECTED)


@pytest.mark.parametrize("folder", _session_folders(), ids=lambda p: p.name)
def test_only_the_typed_words_become_the_persons_turns(folder: Path) -> None:
    agent = folder.name.split("-", 1)[0]
    typed: list[str] = []
    for path in sorted(folder.rglob("*.jsonl")):
        result = read_transcript(str(path))
        typed += [t.text for t in sorted(result.turns, key=lambda t: t.line) if t.role == "user"]
    assert typed == EXPECTED[agent]


@pytest.mark.parametrize("agent,path", _recordings(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_no_atom_and_no_quote_holds_what_the_cli_added(agent: str, path: Path) -> None:
    result = read_transcript(str(path))
    assert result.unknown == (), "a record shape this CLI writes is not known to its reader"
    for turn in result.turns:
        if turn.role != "user":
            continue
        assert not any(word in turn.text for word in ADDED_WORDS), turn.text
        for atom in atoms_from_turn(turn, "recorded"):
            assert not any(word in atom["text"] + atom["quote"] for word in ADDED_WORDS), atom
    assert all(text not in turn.text for turn in result.turns if turn.role == "user" for text in ADDED.values())


def test_the_typed_words_are_remembered() -> None:
    """The prompts are standing instructions: an atom comes from each (the recordings are worth reading)."""
    path = next(p for agent, p in _recordings() if agent == "claude" and "subagents" not in str(p))
    texts = [a["text"] for t in read_transcript(str(path)).turns if t.role == "user" for a in atoms_from_turn(t, "r")]
    assert any("changelog" in text for text in texts)


def test_the_recordings_name_no_machine() -> None:
    """The scratch home is /home/user everywhere; no path of the machine that recorded them is left."""
    for path in RECORDED.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert not any(mark in text for mark in ("/tmp/tmp", "-tmp-tmp", "/root/", "/work/", "/usr/lib/")), path
            assert "/home/" not in text.replace("/home/user", ""), path


@pytest.mark.parametrize("agent,path", [(a, p) for a, p in _recordings() if "subagent" not in str(p)],
                         ids=lambda v: v if isinstance(v, str) else v.parent.parent.name if v.name == "events.jsonl" else v.name)
def test_a_read_resumed_at_any_line_gives_the_same_typed_words(tmp_path: Path, agent: str, path: Path) -> None:
    """A hook's request and the typed input each CLI marks are told apart also when a read stops between them."""
    data = path.read_bytes()
    full = [(t.line, t.text) for t in read_transcript(str(path)).turns if t.role == "user"]
    copy = tmp_path / path.relative_to(RECORDED)
    copy.parent.mkdir(parents=True)
    starts = [0] + [i + 1 for i, byte in enumerate(data) if byte == 10][:-1]
    for cut in starts[1:]:
        copy.write_bytes(data[:cut])
        first = read_transcript(str(copy), agent)
        copy.write_bytes(data)
        second = read_transcript(str(copy), agent, start_offset=first.end_offset, start_line=first.end_line)
        union = [(t.line, t.text) for r in (first, second) for t in r.turns if t.role == "user" and t.line <= r.end_line]
        assert union == full, cut
