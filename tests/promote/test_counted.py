"""The pass from counted evidence says exactly what building every claim says, while building few."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.claims import cache as claimcache
from agent_memory.claims import l1bytes
from agent_memory.promote import plan
from agent_memory.promote.records import listed
from agent_memory.store import Paths, StoreLock, write_jsonl

from .test_promote import NOW, TEXTS, atom, make_store

# one-off rules nothing else is near (most of a long history), beside TEXTS' near pairs and contradictions
ONE_OFFS = ["Never edit src/cart/worker.ts by hand", "Always keep docs/api.md under 300 lines",
            "Run make check before pushing to staging", "Don't touch migrations/0042_users.py",
            "Prefer httpx over requests in tools/fetch.py"]
# adopted wordings: one L1 also holds, one that contradicts an L1 one-off but is not in L1, one near nothing
ADOPTED = ["Always squash commits", "Always edit src/cart/worker.ts by hand", "Always tag releases with a date"]
_ROWS = st.lists(
    st.tuples(st.sampled_from(TEXTS + ONE_OFFS), st.sampled_from(["s1", "s2", "s3", "s4"]),
              st.sampled_from(["2026-03-01", "2026-03-02", "2026-03-03"]), st.booleans(), st.booleans(),
              st.sampled_from(["", "", "", "b1"])),
    min_size=1, max_size=18,
)
_DECISION = st.one_of(st.none(), st.tuples(st.sampled_from(["verify", "reject", "resolve", "forget"]), st.integers(0, 40),
                                           st.integers(0, 40), st.booleans()))


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _atoms(rows: list[Any]) -> list[dict[str, Any]]:
    found = []
    for i, (text, session, day, stated, redacted, block) in enumerate(rows):
        one = atom(text, session, day, stated=stated, redacted=redacted and text in ONE_OFFS, line=i)
        if block:
            one["block"] = "0123456789abcdef"
        found.append(one)
    return found


def _said(result: Any) -> Any:
    return [(p.as_json(), p.evidence) for p in result.proposals], result.blocked


def _decide(paths: Paths, decision: tuple[str, int, int, bool] | None) -> None:
    """A person's decision about claims of the full pass (by position), as review writes it (or by claim id alone)."""
    if decision is None:
        return
    claims = plan(paths).claims
    action, a, b, by_id = decision
    target, other = claims[a % len(claims)], claims[b % len(claims)]
    keys = [] if by_id else list(target.keys)
    record: dict[str, Any] = {"action": action, "claim_id": target.id, "keys": keys, "at": "2026-03-02T12:00:00Z"}
    if action == "reject":
        record.update(proposal_id="", atoms=list(target.summary.ids))
    if action == "resolve":
        record.update(keep_id=other.id, keep_keys=[] if by_id else list(other.keys))
    write_jsonl(paths.decisions, [record])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_ROWS, adopted=st.sampled_from([None, *ADOPTED]), decision=_DECISION)
def test_counting_says_what_building_every_claim_says(tmp_path_factory: pytest.TempPathFactory, rows: list[Any],
                                                      adopted: str | None, decision: Any) -> None:
    paths = make_store(tmp_path_factory.mktemp("store"), _atoms(rows))
    if adopted:
        write_jsonl(paths.l2, [{"id": "a1b2c3d4e5f6", "text": adopted, "kind": "instruction", "keys": [],
                                "sessions": ["old"], "days": ["2026-02-01"], "projects": ["shop"],
                                "first_seen": "2026-02-01T10:00:00Z", "sources": []}])
    _decide(paths, decision)
    with StoreLock(paths.store):
        claimcache.refresh(paths, 0.85)
    whole, counted = plan(paths), plan(paths, every=False)
    assert whole.complete and not counted.complete
    # what a person is shown first, read before the refusals are (then from them, as a pass that read them)
    shown = [counted.listing(limit) for limit in (0, 1, 2, 3, 20)]
    assert _said(counted) == _said(whole)
    assert shown == [listed(whole.blocked, limit) for limit in (0, 1, 2, 3, 20)]
    assert counted.listing(2) == listed(whole.blocked, 2)
    by_id = whole.by_id()
    for claim in counted.claims:  # the claims it did build are the very claims the whole pass builds
        assert claim.as_json() == by_id[claim.id].as_json()
        assert claim.contested_by == by_id[claim.id].contested_by


def test_one_off_claims_are_counted_not_built(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    atoms = [atom("Always squash commits", s, d, line=i) for i, (s, d) in enumerate(days)]
    atoms += [atom(text, "s1", "2026-03-01", line=10 + i) for i, text in enumerate(ONE_OFFS)]
    paths = make_store(tmp_path, atoms)
    with StoreLock(paths.store):
        claimcache.refresh(paths, 0.85)
    result = plan(paths, every=False)
    assert [c.text for c in result.claims] == ["Always squash commits"]
    assert sorted(b["text"] for b in result.blocked) == sorted(ONE_OFFS)
    assert {tuple(b["reasons"]) for b in result.blocked} == {("1 of 3 sessions", "1 of 2 distinct days")}


def test_tables_behind_L1_mean_building_every_claim(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [atom(text, "s1", "2026-03-01", line=i) for i, text in enumerate(ONE_OFFS)])
    with StoreLock(paths.store):
        claimcache.refresh(paths, 0.85)
    with open(paths.atoms, "a", encoding="utf-8") as handle:  # appended since: not counted in the tables yet
        import json

        handle.write(json.dumps(atom("Always squash commits", "s2", "2026-03-02", line=99)) + "\n")
    result = plan(paths, every=False)
    assert result.complete and len(result.claims) == len(ONE_OFFS) + 1
    assert _said(result) == _said(plan(paths))


def test_L1_rewritten_under_the_tables_means_building_every_claim(tmp_path: Path) -> None:
    """The prefix is hashed beside the reads: tables that no longer match L1's first bytes are read, then set aside."""
    paths = make_store(tmp_path, [atom(text, "s1", "2026-03-01", line=i) for i, text in enumerate(ONE_OFFS)])
    with StoreLock(paths.store):
        claimcache.refresh(paths, 0.85)
    data = paths.atoms.read_bytes()
    paths.atoms.write_bytes(data.replace(b'"s1"', b'"s9"', 1))  # same size, another first atom
    l1bytes.forget_all()
    result = plan(paths, every=False)
    assert result.complete and len(result.claims) == len(ONE_OFFS)
    assert _said(result) == _said(plan(paths))


def test_listing_puts_held_claims_first_then_the_nearest() -> None:
    def refusal(claim: str, *reasons: str, to: str = "L2") -> dict[str, Any]:
        return {"claim_id": claim, "text": claim, "reasons": list(reasons), "to": to}

    blocked = [refusal("a", "1 of 3 sessions", "1 of 2 distinct days"), refusal("b", "contested by c"),
               refusal("c", "2 of 3 sessions"), refusal("d", "redacted", "2 of 3 sessions"),
               refusal("e", "held in 1 of 2 projects", to="L3")]
    assert [b["claim_id"] for b in listed(blocked, 3).shown] == ["b", "d", "c"]
    assert [b["claim_id"] for b in listed(blocked, 5).shown] == ["b", "d", "c", "e", "a"]
    assert (listed(blocked, 5).total, listed(blocked, 5).waiting) == (5, 3)
