"""The promotion pass: every gate path, refusals with reasons, a dry run that writes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.promote import plan, stage, staged_proposals
from agent_memory.store import Paths, write_jsonl

NOW = "2026-03-20T12:00:00Z"


def atom(text: str, session: str, day: str, *, kind: str = "instruction", stated: bool = False,
         redacted: bool = False, project: str = "shop", line: int = 1) -> dict[str, Any]:
    ts = f"{day}T10:00:00Z"
    return {
        "id": hashlib.sha1(f"{text}|{session}|{day}|{line}".encode()).hexdigest()[:16],
        "kind": kind, "rule": "test", "text": text, "quote": f"quote: {text}", "stated": stated,
        "redacted": redacted, "redaction_rules": [], "agent": "claude", "session": session, "project": project,
        "cwd": "", "timestamp": ts, "day": day, "transcript": f"/tmp/{session}.jsonl", "line": line,
    }


def make_store(root: Path, atoms: list[dict[str, Any]], name: str = "shop") -> Paths:
    project = root / name
    (project / ".git").mkdir(parents=True, exist_ok=True)
    paths = Paths(store=project / ".memory", user=root / "user", project_root=project)
    paths.l1_dir.mkdir(parents=True, exist_ok=True)
    with open(paths.atoms, "w", encoding="utf-8") as handle:
        for a in atoms:
            handle.write(json.dumps(a) + "\n")
    return paths


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _blocked(result: Any, text: str) -> list[str]:
    return next(b["reasons"] for b in result.blocked if b["text"] == text)


def test_default_gate_three_sessions_two_days(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [
        atom("Always run pytest before pushing", "s1", "2026-03-01"),
        atom("always run pytest before pushing.", "s2", "2026-03-01"),
        atom("Always run pytest before pushing", "s3", "2026-03-02"),
    ])
    result = plan(paths)
    assert [(p.path, p.source_tier, p.target_tier) for p in result.proposals] == [("default", "L1", "L2")]
    assert result.proposals[0].sessions == ("s1", "s2", "s3")


def test_three_sessions_on_one_day_wait_for_a_second_day(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [atom("Always squash commits", s, "2026-03-01") for s in ("s1", "s2", "s3")])
    result = plan(paths)
    assert not result.proposals
    assert _blocked(result, "Always squash commits") == ["1 of 2 distinct days"]


def test_two_sessions_are_not_enough_unless_stated(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [
        atom("Always squash commits", "s1", "2026-03-01"),
        atom("Always squash commits", "s2", "2026-03-02"),
        atom("From now on use pnpm", "s1", "2026-03-01", stated=True),
        atom("from now on use pnpm", "s2", "2026-03-02", stated=True),
    ])
    result = plan(paths)
    assert [(p.text, p.path) for p in result.proposals] == [("From now on use pnpm", "stated")]
    assert _blocked(result, "Always squash commits") == ["2 of 3 sessions"]


def test_verified_needs_one_observation_and_waives_days(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [atom("Checkout fails every time with 50 items", "s1", "2026-03-01", kind="failure")])
    claim_id = plan(paths).claims[0].id
    write_jsonl(paths.decisions, [{"action": "verify", "claim_id": claim_id, "keys": [], "at": NOW}])
    assert [p.path for p in plan(paths).proposals] == ["verified"]


def test_redacted_never_promotes(tmp_path: Path) -> None:
    text = "Always use key [REDACTED:stripe]"
    paths = make_store(tmp_path, [atom(text, s, d, redacted=True) for s, d in (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))])
    result = plan(paths)
    assert not result.proposals and "redacted" in _blocked(result, text)


def test_contested_never_promotes_and_is_recorded_both_ways(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always open PRs against dev", s, d) for s, d in days]
                       + [atom("Always open PRs against main", "s4", "2026-03-04")])
    result = plan(paths)
    assert not result.proposals
    dev = next(c for c in result.claims if c.text.endswith("dev"))
    main = next(c for c in result.claims if c.text.endswith("main"))
    assert main.id in dev.contested_by and dev.id in main.contested_by
    assert f"contested by {main.id}" in _blocked(result, dev.text)


def test_resolve_retires_one_side_and_lets_the_other_through(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always open PRs against dev", s, d) for s, d in days]
                       + [atom("Always open PRs against main", "s4", "2026-03-04")])
    claims = {c.text: c for c in plan(paths).claims}
    dev, main = claims["Always open PRs against dev"], claims["Always open PRs against main"]
    write_jsonl(paths.decisions, [{"action": "resolve", "claim_id": main.id, "keys": main.keys,
                                   "keep_id": dev.id, "keep_keys": dev.keys, "at": NOW}])
    result = plan(paths)
    assert [p.claim_id for p in result.proposals] == [dev.id]
    assert any(r.startswith("retired in favour of") for r in _blocked(result, main.text))


def test_rejected_stays_rejected_until_new_evidence(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    atoms = [atom("Always squash commits", s, d) for s, d in days]
    paths = make_store(tmp_path, atoms)
    proposal = plan(paths).proposals[0]
    write_jsonl(paths.decisions, [{"action": "reject", "proposal_id": proposal.id, "claim_id": proposal.claim_id,
                                   "keys": list(proposal.keys), "atoms": [a["id"] for a in atoms], "at": NOW}])
    assert not plan(paths).proposals
    with open(paths.atoms, "a") as handle:
        handle.write(json.dumps(atom("Always squash commits", "s9", "2026-03-09")) + "\n")
    assert [p.claim_id for p in plan(paths).proposals] == [proposal.claim_id]


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))])
    before = _tree(tmp_path)
    plan(paths)
    assert _tree(tmp_path) == before


TEXTS = ["Always squash commits", "Always open PRs against dev", "Always open PRs against main",
         "never commit .env files", "Never commit .env files!", "use pnpm, not npm", "use npm, not pnpm",
         "必ずコミット前に lint を実行する", "コミット前に lint を実行しない", "I prefer vitest over jest"]
_ATOMS = st.lists(
    st.tuples(st.sampled_from(TEXTS), st.sampled_from(["s1", "s2", "s3", "s4"]),
              st.sampled_from(["2026-03-01", "2026-03-02", "2026-03-03"]), st.booleans()),
    min_size=1, max_size=14,
)


def _as_atoms(rows: list[tuple[str, str, str, bool]]) -> list[dict[str, Any]]:
    return [atom(t, s, d, stated=st_, line=i) for i, (t, s, d, st_) in enumerate(rows)]


def _summary(result: Any) -> tuple[Any, Any]:
    return [p.as_json() for p in result.proposals], result.blocked


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_ATOMS, seed=st.integers(0, 1000))
def test_order_of_ingest_does_not_matter(tmp_path_factory: pytest.TempPathFactory, rows: list[Any], seed: int) -> None:
    atoms = _as_atoms(rows)
    shuffled = list(atoms)
    random.Random(seed).shuffle(shuffled)
    a = plan(make_store(tmp_path_factory.mktemp("a"), atoms))
    b = plan(make_store(tmp_path_factory.mktemp("b"), shuffled))
    assert _summary(a) == _summary(b)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_ATOMS)
def test_dry_run_writes_nothing_whatever_the_store(tmp_path_factory: pytest.TempPathFactory, rows: list[Any]) -> None:
    root = tmp_path_factory.mktemp("dry")
    paths = make_store(root, _as_atoms(rows))
    before = _tree(root)
    plan(paths)
    assert _tree(root) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_ATOMS, extra=st.tuples(st.sampled_from(TEXTS), st.sampled_from(["s5", "s6"]), st.sampled_from(["2026-03-04", "2026-03-05"]), st.booleans()))
def test_another_observation_never_removes_a_proposal_unless_it_contradicts(
    tmp_path_factory: pytest.TempPathFactory, rows: list[Any], extra: Any
) -> None:
    atoms = _as_atoms(rows)
    before = plan(make_store(tmp_path_factory.mktemp("a"), atoms))
    added = atom(extra[0], extra[1], extra[2], stated=extra[3], line=999)
    after = plan(make_store(tmp_path_factory.mktemp("b"), atoms + [added]))
    after_ids = {p.claim_id for p in after.proposals}
    claims = after.by_id()
    for proposal in before.proposals:
        if proposal.claim_id not in after_ids:
            assert claims[proposal.claim_id].contested, "a proposal vanished without a contradiction"


def test_stage_is_idempotent_and_withdraws_stale_proposals(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always open PRs against dev", s, d) for s, d in days])
    _result, counts = stage(paths)
    assert counts["staged"] == 1
    files = {p.name: p.read_bytes() for p in paths.staged.iterdir()}
    _result, counts = stage(paths)
    assert counts == {"staged": 0, "unchanged": 1, "withdrawn": 0}
    assert {p.name: p.read_bytes() for p in paths.staged.iterdir()} == files
    with open(paths.atoms, "a") as handle:
        handle.write(json.dumps(atom("Always open PRs against main", "s4", "2026-03-04")) + "\n")
    _result, counts = stage(paths)
    assert counts["withdrawn"] == 1 and not list(paths.staged.iterdir())


def test_proposal_id_is_the_same_in_a_dry_run_and_staged(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in days])
    dry = [p.id for p in plan(paths).proposals]
    stage(paths)
    assert [p["id"] for p in staged_proposals(paths)] == dry


def test_staged_files_carry_no_absolute_path_or_user_name(tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    project = tmp_path / "shop"
    texts = [f"Always edit {project}/src/app.py and {home}/notes.txt first"]
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom(texts[0], s, d) for s, d in days])
    stage(paths)
    body = next(paths.staged.iterdir()).read_text()
    assert str(tmp_path) not in body and str(home) not in body
    assert "src/app.py" in body and "~/notes.txt" in body


def _adopted(paths: Paths, text: str, first_seen: str, project: str) -> None:
    write_jsonl(paths.l2, [{"id": hashlib.sha1(f"{project}{text}".encode()).hexdigest()[:12], "text": text,
                            "kind": "instruction", "keys": [], "stated": False, "verified": False,
                            "sessions": [f"{project}-s1"], "days": [first_seen[:10]], "projects": [project],
                            "first_seen": first_seen, "adopted_at": NOW, "contested": False, "retired": False,
                            "sources": []}])


def test_cross_project_gate_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_memory.promote.tiers import register_project

    shop = make_store(tmp_path, [], "shop")
    infra = make_store(tmp_path, [], "infra")
    for p in (shop, infra):
        register_project(p)
    _adopted(shop, "Never commit .env files", "2026-03-01T10:00:00Z", "shop")
    result = plan(shop)
    assert _blocked(result, "Never commit .env files") == ["held in 1 of 2 projects", "19 of 30 days"]
    _adopted(infra, "never commit .env files!", "2026-03-02T10:00:00Z", "infra")
    assert _blocked(plan(shop), "Never commit .env files") == ["19 of 30 days"]
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-04-05T00:00:00Z")
    proposals = plan(shop).proposals
    assert [(p.source_tier, p.target_tier, p.path, p.projects) for p in proposals] == [("L2", "L3", "cross-project", ("infra", "shop"))]
