"""The claim tables: a promotion pass that uses them gives exactly what one that re-reads every atom gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.claims import cache as claimcache
from agent_memory.claims import forked
from agent_memory.claims import key as keymod
from agent_memory.claims import tables
from agent_memory.ingest import ingest
from agent_memory.promote import Plan, plan, stage
from agent_memory.store import Paths, StoreLock, write_jsonl

from promote.test_promote import NOW, TEXTS, _as_atoms, _tree, atom, make_store

SIMILARITY = 0.85
_ROWS = st.lists(
    st.tuples(st.sampled_from(TEXTS), st.sampled_from(["s1", "s2", "s3", "s4"]),
              st.sampled_from(["2026-03-01", "2026-03-02", "2026-03-03"]), st.booleans()),
    min_size=1, max_size=16,
)


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _everything(result: Plan) -> Any:
    """All a pass says, evidence and every claim's atoms included."""
    return (
        [(p.as_json(), p.evidence) for p in result.proposals],
        result.blocked,
        [(c.as_json(), c.keys, c.contested_by, c.ambiguous_with, [a["id"] for a in c.atoms]) for c in result.claims],
    )


def _refresh(paths: Paths) -> None:
    with StoreLock(paths.store):
        claimcache.refresh(paths, SIMILARITY)


def _covered(paths: Paths) -> int:
    """Bytes of L1 the claim tables cover."""
    import sqlite3

    con = sqlite3.connect(tables.db_path(paths))
    try:
        return tables.covered(con)[0]
    finally:
        con.close()


def _append(paths: Paths, atoms: list[dict[str, Any]]) -> None:
    with open(paths.atoms, "a", encoding="utf-8") as handle:
        for a in atoms:
            handle.write(json.dumps(a) + "\n")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_ROWS, cut=st.integers(0, 16), adopted=st.sampled_from([None, *TEXTS]))
def test_a_cache_behind_L1_gives_the_same_pass_as_none(tmp_path_factory: pytest.TempPathFactory, rows: list[Any],
                                                       cut: int, adopted: str | None) -> None:
    atoms = _as_atoms(rows)
    cached = make_store(tmp_path_factory.mktemp("cached"), atoms[:cut])
    _refresh(cached)
    _append(cached, atoms[cut:])
    plain = make_store(tmp_path_factory.mktemp("plain"), atoms)
    if adopted:
        for paths in (cached, plain):
            write_jsonl(paths.l2, [{"id": "a1b2c3d4e5f6", "text": adopted, "kind": "instruction", "keys": [],
                                    "sessions": ["old"], "days": ["2026-02-01"], "projects": ["shop"],
                                    "first_seen": "2026-02-01T10:00:00Z", "sources": []}])
    assert tables.db_path(cached).exists()
    assert _everything(plan(cached)) == _everything(plan(plain))
    _refresh(cached)  # caught up: the pass now comes from the tables alone
    assert _covered(cached) == cached.atoms.stat().st_size
    assert _everything(plan(cached)) == _everything(plan(plain))


def test_a_rewritten_L1_is_not_read_through_the_cache(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path / "a", [atom("Always squash commits", s, d) for s, d in days])
    _refresh(paths)
    # same length, other words: only the content hash can tell
    rewritten = make_store(tmp_path / "a", [atom("Always squash COMMITS", s, d) for s, d in days])
    assert rewritten.atoms.stat().st_size == _covered(paths)
    fresh = make_store(tmp_path / "b", [atom("Always squash COMMITS", s, d) for s, d in days])
    assert _everything(plan(rewritten)) == _everything(plan(fresh))
    assert plan(rewritten).proposals[0].text == "Always squash COMMITS"


def test_a_rewritten_L1_with_its_old_times_is_not_read_through_the_tables_by_the_dry_run(tmp_path: Path) -> None:
    import os

    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path / "a", [atom("Always squash commits", s, d) for s, d in days])
    _refresh(paths)
    before = paths.atoms.stat()
    # same length, other words, the modification time put back: the tables knew the file by another identity
    rewritten = make_store(tmp_path / "a", [atom("Always squash COMMITS", s, d) for s, d in days])
    os.utime(rewritten.atoms, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert rewritten.atoms.stat().st_size == _covered(paths)
    fresh = make_store(tmp_path / "b", [atom("Always squash COMMITS", s, d) for s, d in days])
    assert [p.text for p in plan(rewritten, every=False).proposals] == ["Always squash COMMITS"]
    assert _everything(plan(rewritten, every=False)) == _everything(plan(fresh, every=False))


@pytest.mark.parametrize("damage", [
    lambda body: b"",
    lambda body: body[: len(body) // 2],
    lambda body: b"not a database" + body[14:],
    lambda body: body[:4096] + bytes(len(body) - 4096),
])
def test_damaged_tables_cost_time_never_the_result(tmp_path: Path, damage: Any) -> None:
    rows = [(t, s, d, False) for t in TEXTS for s, d in (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-02"))]
    atoms = _as_atoms(rows)
    paths = make_store(tmp_path / "a", atoms[:10])
    _refresh(paths)
    db = tables.db_path(paths)
    db.write_bytes(damage(db.read_bytes()))
    _append(paths, atoms[10:])
    plain = make_store(tmp_path / "b", atoms)
    assert _everything(plan(paths)) == _everything(plan(plain))
    _refresh(paths)  # a writer builds them again
    assert _covered(paths) == paths.atoms.stat().st_size
    assert _everything(plan(paths)) == _everything(plan(plain))


def test_tables_of_other_settings_are_not_read(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in days])
    with StoreLock(paths.store):
        claimcache.refresh(paths, 0.5)
    assert tables.open_for_reading(paths, claimcache.code_version(), SIMILARITY) is None
    plain = make_store(tmp_path / "b", [atom("Always squash commits", s, d) for s, d in days])
    assert _everything(plan(paths)) == _everything(plan(plain))


def test_the_dry_run_writes_nothing_even_when_the_cache_is_behind(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in days])
    _refresh(paths)
    _append(paths, [atom("Always open PRs against dev", "s4", "2026-03-04")])
    before = _tree(tmp_path)
    result = plan(paths)
    _ = [a for c in result.claims for a in c.atoms]  # reading the atoms writes nothing either
    assert _tree(tmp_path) == before


def test_stage_and_ingest_keep_the_tables_up_to_date(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in days])
    stage(paths)
    assert _covered(paths) == paths.atoms.stat().st_size
    transcript = tmp_path / "t.jsonl"
    turn = {"type": "user", "sessionId": "s9", "cwd": str(paths.project_root), "uuid": "u1", "parentUuid": None,
            "timestamp": "2026-03-05T10:00:00Z", "message": {"role": "user", "content": "From now on, always use pnpm."}}
    transcript.write_text(json.dumps(turn) + "\n", encoding="utf-8")
    assert ingest(paths, [str(transcript)]).atoms_added == 1
    assert _covered(paths) == paths.atoms.stat().st_size


def test_the_tables_hold_nothing_an_atom_keeps_out_of_claims(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    atoms = [{**atom("Always squash commits", s, d), "quote": "QUOTE-ONLY words", "transcript": "/private/t.jsonl",
              "cwd": "/private/cwd"} for s, d in days]
    paths = make_store(tmp_path, atoms)
    _refresh(paths)
    body = tables.db_path(paths).read_bytes()
    assert b"Always squash commits" in body
    assert b"QUOTE-ONLY" not in body and b"/private" not in body


# ---------------------------------------------------------------- staging from the record of what was staged


def _staged(paths: Paths) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(paths.staged.iterdir())}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_ROWS, more=_ROWS)
def test_staging_again_writes_what_staging_afresh_writes(tmp_path_factory: pytest.TempPathFactory, rows: list[Any],
                                                          more: list[Any]) -> None:
    atoms = _as_atoms(rows)
    later = [{**a, "id": "x" + a["id"][1:], "line": a["line"] + 100} for a in _as_atoms(more)]
    kept = make_store(tmp_path_factory.mktemp("kept"), atoms)
    stage(kept)
    _append(kept, later)
    _result, counts = stage(kept)
    fresh = make_store(tmp_path_factory.mktemp("fresh"), atoms + later)
    _result, fresh_counts = stage(fresh)
    assert _staged(kept) == _staged(fresh)
    assert counts["staged"] + counts["unchanged"] == fresh_counts["staged"]


def test_a_staged_file_edited_by_hand_is_put_back(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in days])
    stage(paths)
    before = _staged(paths)
    target = next(paths.staged.iterdir())
    target.write_text("edited\n", encoding="utf-8")
    _result, counts = stage(paths)
    assert counts["staged"] == 1 and _staged(paths) == before
    _result, counts = stage(paths)
    assert counts == {"staged": 0, "unchanged": 1, "withdrawn": 0}


def test_atoms_asked_for_after_L1_was_rewritten_are_refused_not_misread(tmp_path: Path) -> None:
    from agent_memory.errors import StoreError

    rows = [(t, s, d, False) for t in TEXTS for s, d in (("s1", "2026-03-01"), ("s2", "2026-03-02"))]
    paths = make_store(tmp_path, _as_atoms(rows))
    _refresh(paths)
    result = plan(paths)
    first, second = result.claims[0], result.claims[1]
    plain = {c.id: c for c in plan(make_store(tmp_path / "b", _as_atoms(rows))).claims}
    assert first.atoms == plain[first.id].atoms  # read line by line from the cached offsets
    make_store(tmp_path, _as_atoms(list(reversed(rows))))
    with pytest.raises(StoreError):
        _ = second.atoms


def test_an_old_claim_cache_gives_way_to_the_tables(tmp_path: Path) -> None:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    paths = make_store(tmp_path, [atom("Always squash commits", s, d) for s, d in days])
    paths.claim_cache.write_text('{"version":"old"}\n{}\n', encoding="utf-8")  # as an older version left it
    plain = make_store(tmp_path / "b", [atom("Always squash commits", s, d) for s, d in days])
    assert _everything(plan(paths)) == _everything(plan(plain))
    stage(paths)
    assert not paths.claim_cache.exists() and _covered(paths) == paths.atoms.stat().st_size
    assert _everything(plan(paths)) == _everything(plan(plain))


def _pair_texts() -> list[str]:
    here = Path(__file__).parent / "data"
    texts = list(TEXTS)
    for name in ("contradiction_pairs.jsonl", "contradiction_pairs_heldout.jsonl"):
        for line in (here / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                pair = json.loads(line)
                texts += [pair["a"], pair["b"]]
    return texts


@pytest.mark.parametrize("many", [0, 10**9])  # related in forked workers from no pairs on; never
def test_new_tables_relate_the_pairs_extending_relations_key_by_key_relates(monkeypatch: pytest.MonkeyPatch,
                                                                            many: int) -> None:
    from agent_memory.claims.key import claim_key
    from agent_memory.claims.relations import Relations

    keys = {key.text: key for key in map(claim_key, _pair_texts()) if key.tokens}
    monkeypatch.setattr(forked, "PARALLEL_PAIRS", many)
    expected = Relations().extend(keys.values(), SIMILARITY).pairs
    assert expected  # the labelled pairs hold contradictions and duplicates
    assert forked.related_pairs(keys, SIMILARITY) == expected


def test_keys_made_in_workers_are_the_keys_atom_key_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _pair_texts()
    atoms = [(n, {"text": text, "reverses": texts[n - 1] if n % 5 == 0 else None}) for n, text in enumerate(texts)]
    expected = [keymod._atom_key(a["text"], a["reverses"] or "") for _n, a in atoms]
    if forked.fork_workers(len(atoms), 0) < 2:
        pytest.skip("no second core, or no fork, on this system: keys are made in this process")
    monkeypatch.setattr(forked, "PARALLEL_KEYS", 0)
    monkeypatch.setattr(keymod, "_MADE", {})
    keymod._atom_key.cache_clear()
    forked.make_keys(atoms)
    assert len(keymod._MADE) == len({(a["text"], a["reverses"] or "") for _n, a in atoms})
    assert keymod._atom_key.cache_info().currsize == 0  # made in the workers, not here
    assert [keymod.atom_key(a) for _n, a in atoms] == expected
    # asked again (``reindex`` makes every key before it forks the index; the count then asks for them): none is
    # made again, in a worker or here
    monkeypatch.setattr(forked, "_in_workers", lambda *a: pytest.fail("keys made again"))
    forked.make_keys(atoms)
    assert keymod._atom_key.cache_info().currsize == 0


def _slow_slice(bounds: tuple[int, int]) -> list[Any]:
    import time

    time.sleep(30)  # a worker that never comes back in time (killed, stuck)
    return []


@pytest.mark.parametrize("trouble", ["no fork", "too slow"])
def test_workers_that_cannot_start_or_finish_leave_the_count_to_this_process(monkeypatch: pytest.MonkeyPatch,
                                                                             refuse_fork: Any, trouble: str) -> None:
    from agent_memory.claims.key import claim_key
    from agent_memory.claims.relations import Relations

    if forked.fork_workers(10**9, 0) < 2:
        pytest.skip("no second core, or no fork, on this system: nothing is forked")
    keys = {key.text: key for key in map(claim_key, _pair_texts()) if key.tokens}
    expected = Relations().extend(keys.values(), SIMILARITY).pairs
    monkeypatch.setattr(forked, "PARALLEL_PAIRS", 0)
    monkeypatch.setattr(forked, "PARALLEL_KEYS", 0)
    monkeypatch.setattr(keymod, "_MADE", {})
    if trouble == "no fork":
        refuse_fork()
    else:
        monkeypatch.setattr(forked, "_relate_slice", _slow_slice)
        monkeypatch.setattr(forked, "_keys_slice", _slow_slice)
        monkeypatch.setattr(forked, "SECONDS_AN_ITEM", 0.0)
        monkeypatch.setattr(forked, "_TIMEOUT_FLOOR", 0.5)
    assert forked.related_pairs(keys, SIMILARITY) == expected
    atoms = [(n, {"text": text}) for n, text in enumerate(_pair_texts())]
    forked.make_keys(atoms)
    assert keymod._MADE == {}  # left to ``atom_key``
    assert [keymod.atom_key(a) for _n, a in atoms] == [claim_key(a["text"]) for _n, a in atoms]


def test_tables_built_with_workers_are_the_tables_built_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _pair_texts()
    atoms = [atom(text, f"s{i % 4}", f"2026-03-0{1 + i % 3}") for i, text in enumerate(texts)]
    found = []
    for many in (0, 10**9):
        monkeypatch.setattr(forked, "PARALLEL_PAIRS", many)
        monkeypatch.setattr(forked, "PARALLEL_KEYS", many)
        monkeypatch.setattr(keymod, "_MADE", {})  # the keys workers made before are not found again
        paths = make_store(tmp_path / str(many), atoms)
        _refresh(paths)
        con = tables.open_for_reading(paths, claimcache.code_version(), SIMILARITY)
        assert con is not None
        found.append([con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                      for t in ("keys", "atoms", "texts", "buckets", "pairs", "evidence")])
        con.close()
    assert found[0] == found[1] and found[0][4]  # pairs made either way


def _held_by_text(paths: Paths) -> dict[str, list[Any]]:
    """The claim tables' buckets, pairs and keys with every key id named by its key text (ids aside)."""
    import sqlite3

    con = sqlite3.connect(tables.db_path(paths))
    try:
        names = dict(con.execute("SELECT id, text FROM keys"))
        return {
            "keys": sorted(con.execute("SELECT text, negated, tokens, claim, shown FROM keys")),
            "buckets": sorted((bucket, names[key]) for bucket, key in con.execute("SELECT bucket, key FROM buckets")),
            "pairs": sorted((names[a], names[b], *rest) for a, b, *rest in con.execute("SELECT * FROM pairs")),
        }
    finally:
        con.close()


def test_tables_counted_from_the_start_hold_what_tables_grown_in_parts_hold(tmp_path: Path) -> None:
    """A count from L1's first line writes its bucket rows as they come, a writer adding to tables in their order:
    the same rows either way."""
    texts = _pair_texts()
    atoms = [atom(text, f"s{i % 4}", f"2026-03-0{1 + i % 3}") for i, text in enumerate(texts)]
    whole = make_store(tmp_path / "whole", atoms)
    _refresh(whole)
    grown = make_store(tmp_path / "grown", atoms[:5])
    _refresh(grown)
    for start in range(5, len(atoms), 7):
        _append(grown, atoms[start:start + 7])
        _refresh(grown)
    held = _held_by_text(whole)
    assert held["buckets"] and held["pairs"]
    assert _held_by_text(grown) == held


def test_the_tables_version_reads_every_module_that_makes_a_claim_key(monkeypatch) -> None:
    """A change to any module that makes keys, relates them or counts them rebuilds the tables on upgrade."""
    seen: list[str] = []
    monkeypatch.setattr(claimcache, "_code_version", lambda *sources: seen.extend(sources) or "x")
    claimcache.code_version()
    names = {Path(s).name for s in seen}
    assert {"key.py", "frame.py", "cjk.py", "relate.py", "relations.py", "tables.py", "wording.py", "evidence.py",
            "gates.py", "text.py", "shapes.py"} <= names
    assert all(Path(s).is_file() for s in seen)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60), count=st.integers(1, 5), stamp=st.sampled_from(["", "2026-03-01T10:00:00Z"]))
def test_a_key_of_one_wording_shows_what_ranking_its_wordings_shows(text: str, count: int, stamp: str) -> None:
    from agent_memory.claims.wording import shown_text

    assert claimcache.shown_wording({text: [count, stamp]}) == shown_text({text: [count, stamp]})


def test_a_count_from_the_start_takes_L1_as_read_only_while_it_is_those_very_bytes(tmp_path: Path) -> None:
    paths = make_store(tmp_path, [atom("Always squash commits", "s1", "2026-03-01"),
                                  atom("Use pnpm, not npm", "s2", "2026-03-02")])
    with StoreLock(paths.store):
        read = claimcache.make_all_keys(paths)
    assert read is not None and len(read[1]) == 2
    # an atom told apart from the one its line holds, to see which was counted
    offset, first = read[1][0]
    told = [(offset, {**first, "text": "Never force-push to main"}), read[1][1]]

    def wordings(given: Any) -> list[str]:
        tables.db_path(paths).unlink(missing_ok=True)
        with StoreLock(paths.store):
            claimcache.catch_up(paths, SIMILARITY, given)
        con = tables.open_for_reading(paths, claimcache.code_version(), SIMILARITY)
        assert con is not None
        try:
            return sorted(text for (text,) in con.execute("SELECT text FROM texts"))
        finally:
            con.close()

    assert wordings((read[0], told)) == ["Never force-push to main", "Use pnpm, not npm"]
    # bytes other than L1's now (appended to since): L1 is parsed as it is
    assert wordings((read[0][:-1], told)) == ["Always squash commits", "Use pnpm, not npm"]
    assert wordings(None) == ["Always squash commits", "Use pnpm, not npm"]


def test_prompt_terms_made_beside_the_keys_are_the_terms_made_here(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_memory import text

    texts = [*TEXTS, "Use getUserName() in src/Cart/v3", "テストは必ず pytest で走らせて", "用 uv 管理依赖", ""]
    here = {t: text.prompt_terms(t) for t in texts}
    if forked.fork_workers(len(texts), 0) < 2:
        pytest.skip("no second core, or no fork, on this system: terms are made where they are asked for")
    monkeypatch.setattr(text, "_TERMS_LEARNED", {})
    monkeypatch.setattr(keymod, "_MADE", {})
    monkeypatch.setattr(forked, "PARALLEL_KEYS", 0)  # workers however few the wordings
    forked.make_keys([(n, {"text": t}) for n, t in enumerate(texts * 2)])
    assert text._TERMS_LEARNED == {}  # not asked for: none made
    monkeypatch.setattr(keymod, "_MADE", {})
    forked.make_keys([(n, {"text": t}) for n, t in enumerate(texts * 2)], terms=True)
    assert set(text._TERMS_LEARNED) == set(texts)
    assert {t: text.prompt_terms(t) for t in texts} == here
