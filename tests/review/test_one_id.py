"""One id: a claim id and a proposal id name the same thing to every command that takes either."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.promote import plan
from helpers_store import NOW, PROMOTABLE, atom, make_store, seen

RULE = "Always run the linter before pushing."


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _ids(tmp_path: Path):
    store = make_store(tmp_path)
    store.add(seen(RULE, *PROMOTABLE))
    [proposal] = plan(store.paths).proposals
    assert proposal.id != proposal.claim_id
    return store, proposal.id, proposal.claim_id


def test_why_takes_a_proposal_id_or_its_prefix(tmp_path: Path) -> None:
    store, pid, cid = _ids(tmp_path)
    for ref in (pid, pid[:8], cid):
        done = store.run("inspect", "--why", ref, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["claim"]["id"] == cid


@pytest.mark.parametrize("command", ["adopt", "reject"])
def test_adopt_and_reject_take_a_claim_id(tmp_path: Path, command: str) -> None:
    store, pid, cid = _ids(tmp_path)
    assert store.run("promote", "--write").returncode == 0
    done = store.run(command, cid[:8], "--json")
    assert done.returncode == 0, done.stderr
    assert pid in done.stdout


def test_an_id_that_names_nothing_is_refused_in_one_line(tmp_path: Path) -> None:
    store, _pid, _cid = _ids(tmp_path)
    done = store.run("adopt", "abcdef123456")
    assert done.returncode == 3 and len(done.stderr.strip().splitlines()) == 1


def test_why_finds_a_word_glued_to_japanese(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("t-wadaのTDDに従ってテストしながら進める。", "s1", "2026-03-01")])
    for words in ("t-wada", "TDD", "テストしながら"):
        done = store.run("inspect", "--why", words, "--json")
        assert done.returncode == 0, (words, done.stderr)
