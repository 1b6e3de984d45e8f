"""A person settles claim identity: candidates listed, merge and split recorded as decisions, rollback undoes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.promote import plan
from helpers_store import NOW, Store, atom, make_store

RULE = "Use httpx instead of requests."
NARROWER = "Use httpx instead of requests in the tests."
SAID_AGAIN = "Prefer httpx over requests for HTTP calls."


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _store(tmp_path: Path) -> Store:
    return make_store(tmp_path, atoms=[atom(RULE, "s1", "2026-03-02"), atom(SAID_AGAIN, "s2", "2026-03-03"),
                                      atom(NARROWER, "s3", "2026-03-04")])


def _json(store: Store, *args: str) -> dict:
    done = store.run(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _owner(store: Store, text: str) -> str:
    return next(c.id for c in plan(store.paths).claims if any(a["text"] == text for a in c.atoms))


def test_a_narrower_wording_is_a_candidate_not_a_merge(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert _owner(store, RULE) == _owner(store, SAID_AGAIN) != _owner(store, NARROWER)
    [pair] = _json(store, "inspect", "--candidates")["candidates"]
    assert {c["id"] for c in pair["claims"]} == {_owner(store, RULE), _owner(store, NARROWER)}
    assert "test" in pair["why"]


def test_merge_joins_claims_keeps_every_wording_and_rollback_undoes_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    a, b = _owner(store, RULE), _owner(store, NARROWER)
    done = _json(store, "merge", a, b)["merged"]
    assert _owner(store, RULE) == _owner(store, NARROWER) == done["claim_id"]
    why = _json(store, "inspect", "--why", done["claim_id"])["claim"]
    assert sorted(s["quote"] for s in why["sources"]) == sorted(f"please: {t}" for t in (RULE, SAID_AGAIN, NARROWER))
    assert any("merged by a person" in j["why"] for j in why["one_claim_because"])
    [proposal] = plan(store.paths).proposals  # three sessions on three days now
    assert proposal.claim_id == done["claim_id"]
    assert _json(store, "inspect", "--candidates")["candidates"] == []
    assert store.run("rollback").returncode == 0
    assert _owner(store, RULE) != _owner(store, NARROWER)


def test_split_keeps_each_wording_apart_until_merged_again(tmp_path: Path) -> None:
    store = _store(tmp_path)
    joined = _owner(store, RULE)
    done = _json(store, "split", joined)["split"]
    assert len(done["into"]) == 2 and _owner(store, RULE) != _owner(store, SAID_AGAIN)
    _json(store, "merge", _owner(store, RULE), _owner(store, SAID_AGAIN))
    assert _owner(store, RULE) == _owner(store, SAID_AGAIN)


def test_merge_refuses_one_claim_and_contradicting_claims(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom(RULE, "s1", "2026-03-02"), atom("Use requests, not httpx.", "s2", "2026-03-03")])
    a, b = (c.id for c in plan(store.paths).claims)
    for args in ((a,), (a, a[:8]), (a, b)):
        done = store.run("merge", *args)
        assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not store.paths.decisions.exists()
    single = store.run("split", a)
    assert single.returncode == 1 and "nothing to split" in single.stderr


def test_decisions_outlive_a_change_of_keys(tmp_path: Path) -> None:
    """A person's merge and reject name the claims' atoms too: when the code that turns wordings into keys
    changes (an upgrade), the decisions still find their claims."""
    store = _store(tmp_path)
    a, b = _owner(store, RULE), _owner(store, NARROWER)
    _json(store, "merge", a, b)
    merged = _owner(store, RULE)
    [proposal] = plan(store.paths).proposals
    assert store.run("reject", proposal.id).returncode == 0
    lines = [json.loads(l) for l in store.paths.decisions.read_text(encoding="utf-8").splitlines()]
    for line in lines:  # keys and ids as an older code would have written them
        line["keys"], line["claim_id"] = [f"old key {n}" for n, _k in enumerate(line["keys"])], "0123456789ab"
        line.pop("claim_ids", None)
    store.paths.decisions.write_text("".join(json.dumps(l) + "\n" for l in lines), encoding="utf-8")
    after = plan(store.paths)
    assert _owner(store, RULE) == _owner(store, NARROWER) == merged
    assert after.proposals == [] and after.by_id()[merged].rejected
