"""Supersession: a person revoking or correcting an adopted rule, from the first word to one adopt.

Until the replacement is adopted the old line is injected tagged ``[contested]`` (every
agent); adopting it takes the old line out of the block, keeps the old claim on record as
superseded with both provenances, and ``inspect --why`` says what replaced it, when and where.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from agent_memory.review.adopt import adopt
from agent_memory.config import load_config
from agent_memory.hooks import session_start_context
from agent_memory.promote import plan, stage
from helpers_store import NOW, PROMOTABLE, Store, atom, load_schema, make_store, seen

OLD = "Always run make lint before committing."
REVERSAL = "Don't run make lint before committing anymore."


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _adopted(tmp_path: Path) -> tuple[Store, str]:
    store = make_store(tmp_path)
    store.add(seen(OLD, *PROMOTABLE))
    result, _counts = stage(store.paths)
    [proposal] = result.proposals
    adopt(store.paths, [proposal.id])
    return store, proposal.claim_id


def _revoke(store: Store, day: str = "2026-03-10") -> None:
    store.add([dict(atom(REVERSAL, "s9", day, line=7, quote=f"ok, {REVERSAL}"), reverses="run make lint before committing")])


def _session_start(store: Store, agent: str) -> str:
    import re

    text = session_start_context(store.paths, agent, load_config(store.paths.config), str(store.project))
    return re.sub(r" \(since \d{4}-\d{2}\)$", "", text, flags=re.M)  # each claim's age, where the budget allows


def test_a_revoked_rule_is_contested_at_session_start_for_every_agent(tmp_path: Path) -> None:
    store, old_id = _adopted(tmp_path)
    assert all("[contested]" not in _session_start(store, agent) for agent in ("claude", "codex", "gemini"))
    _revoke(store)
    result, _counts = stage(store.paths)
    [proposal] = result.proposals
    assert (proposal.text, proposal.path, proposal.replaces) == (REVERSAL, "supersedes", (old_id,))
    for agent in ("claude", "codex", "gemini"):
        assert f"- [contested] {OLD}" in _session_start(store, agent).splitlines(), agent
    staged = (store.paths.staged / f"{proposal.id}.md").read_text(encoding="utf-8")
    assert f"Replaces adopted claim(s): {old_id}." in staged


def test_adopting_the_replacement_retires_the_old_line_and_keeps_both_provenances(tmp_path: Path) -> None:
    store, old_id = _adopted(tmp_path)
    claude = store.project / "CLAUDE.md"
    assert OLD in claude.read_text(encoding="utf-8")
    _revoke(store)
    result, _counts = stage(store.paths)
    [proposal] = result.proposals
    report = adopt(store.paths, [proposal.id])
    assert [a["claim_id"] for a in report.adopted] == [proposal.claim_id]

    text = claude.read_text(encoding="utf-8")
    assert OLD not in text and REVERSAL in text
    records = {r["id"]: r for r in map(json.loads, store.paths.l2.read_text(encoding="utf-8").splitlines())}
    old, new = records[old_id], records[proposal.claim_id]
    schema = load_schema("claim.schema.json")
    for record in (old, new):
        jsonschema.validate(record, schema)
    assert old["retired"] and old["retired_for"] == new["id"] and not old["contested"]
    assert len(old["sources"]) == 3  # its own provenance stays
    assert old["superseded_by"]["id"] == new["id"] and old["superseded_by"]["at"] == NOW
    assert [s["session"] for s in old["superseded_by"]["sources"]] == ["s9"]
    assert new["replaces"] == [old_id]
    for agent in ("claude", "codex", "gemini"):
        assert OLD not in _session_start(store, agent)
    # the old claim's atoms are still in L1, and stay retired: nothing is proposed again
    again = plan(store.paths)
    assert again.proposals == [] and not any(c.contested for c in again.claims)


def test_inspect_why_on_the_old_line_says_what_replaced_it_when_and_where(tmp_path: Path) -> None:
    store, old_id = _adopted(tmp_path)
    _revoke(store)
    result, _counts = stage(store.paths)
    adopt(store.paths, [result.proposals[0].id])
    done = store.run("inspect", "--why", OLD)
    assert done.returncode == 0, done.stderr
    assert f"superseded by {result.proposals[0].claim_id} on {NOW[:10]}: {REVERSAL}" in done.stdout
    assert "said in session s9 line 7" in done.stdout
    found = json.loads(store.run("inspect", "--why", old_id, "--json").stdout)["claim"]
    assert found["superseded_by"]["id"] == result.proposals[0].claim_id


def test_an_older_contradiction_is_contested_not_a_replacement(tmp_path: Path) -> None:
    store, old_id = _adopted(tmp_path)
    _revoke(store, day="2026-02-20")  # said before the rule was: not a change of mind
    result = plan(store.paths)
    assert result.proposals == []
    claims = result.by_id()
    assert old_id in claims and claims[old_id].contested


def test_rejecting_the_replacement_keeps_the_old_rule_uncontested(tmp_path: Path) -> None:
    from agent_memory.review.decisions import reject

    store, old_id = _adopted(tmp_path)
    _revoke(store)
    result, _counts = stage(store.paths)
    reject(store.paths, [result.proposals[0].id])
    stage(store.paths)
    assert f"- {OLD}" in _session_start(store, "codex").splitlines()
    assert not plan(store.paths).by_id()[old_id].contested


def test_a_reversal_as_the_marker_rules_hear_it_proposes_the_replacement(tmp_path: Path) -> None:
    from agent_memory.atoms import atoms_from_turn
    from agent_memory.model import Turn

    store, old_id = _adopted(tmp_path)
    turn = Turn(agent="claude", session="s9", cwd="", timestamp="2026-03-10T10:00:00Z", role="user",
                text=f"Thanks. {REVERSAL}", source="/tmp/s9.jsonl", line=4)
    atoms = atoms_from_turn(turn, "shop")
    assert [a.get("reverses") for a in atoms] == ["run make lint before committing"]
    store.add(atoms)
    [proposal] = stage(store.paths)[0].proposals
    assert (proposal.path, proposal.replaces) == ("supersedes", (old_id,))


@pytest.mark.parametrize("said", [
    "Don't run `make lint` before committing, it is too slow now.",
    "Stop running make lint before commits, the pre-commit hook does it now.",
    "No need to run make lint before committing anymore.",
])
def test_a_reversal_in_other_words_is_contested_and_staged_as_the_replacement(tmp_path: Path, said: str) -> None:
    from agent_memory.atoms import atoms_from_turn
    from agent_memory.model import Turn

    store, old_id = _adopted(tmp_path)
    turn = Turn(agent="claude", session="s9", cwd="", timestamp="2026-03-10T10:00:00Z", role="user",
                text=said, source="/tmp/s9.jsonl", line=4)
    store.add(atoms_from_turn(turn, "shop"))
    [proposal] = stage(store.paths)[0].proposals
    assert (proposal.path, proposal.replaces) == ("supersedes", (old_id,))
    for agent in ("claude", "codex", "gemini"):
        assert f"- [contested] {OLD}" in _session_start(store, agent).splitlines()


def test_a_rule_said_in_three_wordings_on_three_days_is_proposed_once_with_every_quote(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    wordings = ["Always use httpx, never requests.", "Don't use requests here, use httpx instead.",
                "Don't use requests in this repo, use httpx."]
    store.add([atom(text, f"s{n}", f"2026-03-0{n + 2}", quote=text) for n, text in enumerate(wordings)])
    [proposal] = plan(store.paths).proposals
    assert sorted(e["quote"] for e in proposal.evidence) == sorted(wordings)
