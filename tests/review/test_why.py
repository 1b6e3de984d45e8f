"""inspect: what each tier holds, where one claim came from (down to the transcript line), what is contested."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers_store import NOW, PROMOTABLE, ROOT, atom, make_store, seen
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.claims import normalise
from agent_memory.review.why import print_tier_table, resolve_why, tier_claims
from agent_memory.errors import Ambiguous, NotFound
from agent_memory.promote import build_claims, plan
from agent_memory.config import DEFAULTS
from agent_memory.store import Paths


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def _transcript(folder: Path, session: str, lines: list[str]) -> Path:
    """A Claude-format transcript whose user turns are ``lines`` (one JSON record per line)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session}.jsonl"
    records = [
        {"type": "user", "sessionId": session, "message": {"role": "user", "content": text}} for text in lines
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_why_shows_every_observation_with_its_transcript_line_and_quote(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    first = _transcript(tmp_path / "t", "s1", ["hello", "ok", "remember: deploy only from main, please"])
    second = _transcript(tmp_path / "t", "s2", ["deploy only from main — again!"])
    store.add([
        atom("deploy only from main", "s1", "2026-03-01", transcript=str(first), line=3,
             quote="remember: deploy only from main, please"),
        atom("Deploy only from main", "s2", "2026-03-02", transcript=str(second), line=1,
             quote="deploy only from main — again!"),
    ])
    done = store.run("inspect", "--why", "deploy from main", "--json")
    assert done.returncode == 0, done.stderr
    claim = json.loads(done.stdout)["claim"]
    sources = {(s["session"], s["line"]): s for s in claim["sources"]}
    assert set(sources) == {("s1", 3), ("s2", 1)}
    for (_session, line), source in sources.items():
        lines = Path(source["transcript"]).read_text(encoding="utf-8").splitlines()
        assert json.loads(lines[line - 1])["message"]["content"] == source["quote"]
        assert source["exists"] is True
    text = store.run("inspect", "--why", "deploy from main")
    assert f"{first}:3" in text.stdout and "remember: deploy only from main, please" in text.stdout


def test_why_keeps_the_quote_after_the_transcript_is_deleted(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    path = _transcript(tmp_path / "t", "s1", ["from now on use pnpm, not npm"])
    store.add([atom("Use pnpm, not npm", "s1", "2026-03-01", transcript=str(path), quote="from now on use pnpm, not npm")])
    path.unlink()
    done = store.run("inspect", "--why", "pnpm", "--json")
    source = json.loads(done.stdout)["claim"]["sources"][0]
    assert source["quote"] == "from now on use pnpm, not npm"
    assert source["exists"] is False and source["line"] == 1
    plain = store.run("inspect", "--why", "pnpm")
    assert "from now on use pnpm, not npm" in plain.stdout and "no longer exists" in plain.stdout


@pytest.mark.parametrize("query", ["pytest", "run pytest"])
def test_why_refuses_to_guess_between_claims(tmp_path: Path, query: str) -> None:
    store = make_store(tmp_path, atoms=[
        atom("Run pytest before pushing", "s1", "2026-03-01"),
        atom("Run pytest with -x when debugging", "s2", "2026-03-01"),
    ])
    done = store.run("inspect", "--why", query)
    assert done.returncode == 3
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "2 claims match" in lines[0] and "use an id" in lines[0]


def test_why_with_no_match_exits_3_with_one_line(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("Run pytest before pushing", "s1", "2026-03-01")])
    done = store.run("inspect", "--why", "kubernetes helm", "--json")
    assert (done.returncode, done.stdout) == (3, "")
    assert len(done.stderr.strip().splitlines()) == 1 and "no claim matches" in done.stderr


def test_why_exact_wording_wins_over_longer_claims(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[
        atom("Use pnpm", "s1", "2026-03-01"),
        atom("Use pnpm in workspace scripts", "s2", "2026-03-01"),
    ])
    done = store.run("inspect", "--why", "Use pnpm.", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["claim"]["text"] == "Use pnpm"


def test_why_takes_an_id_prefix_and_refuses_a_short_one(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("Use pnpm", "s1", "2026-03-01"), atom("Squash commits", "s1", "2026-03-01")])
    claims = build_claims(store.paths, DEFAULTS)
    target = next(c for c in claims if c.text == "Use pnpm")
    assert resolve_why(target.id[:6], claims) is target
    assert resolve_why(target.id, claims) is target
    with pytest.raises(NotFound):
        resolve_why("zzzzzz-not-a-claim", claims)


def test_why_handles_japanese_by_substring(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("コミット前にテストを実行する", "s1", "2026-03-01"),
                                        atom("毎回確認する", "s2", "2026-03-01")])
    claims = build_claims(store.paths, DEFAULTS)
    assert resolve_why("テスト", claims).text == "コミット前にテストを実行する"
    with pytest.raises(Ambiguous):
        resolve_why("する", claims)


def test_contested_lists_each_contradiction_once_naming_both_sides(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[
        *seen("Use port 8080 for the dev server", "2026-03-01", "2026-03-02"),
        atom("Use port 8443 for the dev server", "s9", "2026-03-03"),
        atom("Run pytest before pushing", "s1", "2026-03-01"),
    ])
    done = store.run("inspect", "--contested", "--json")
    assert done.returncode == 0
    entries = json.loads(done.stdout)["contested"]
    [entry] = entries  # one pair, listed once
    assert {entry["claim"]["text"], *(o["text"] for o in entry["contested_by"])} == {
        "Use port 8080 for the dev server", "Use port 8443 for the dev server"}
    ids = {c.text: c.id for c in plan(store.paths).claims}
    assert {entry["claim"]["id"], entry["contested_by"][0]["id"]} == {
        ids["Use port 8080 for the dev server"], ids["Use port 8443 for the dev server"]}
    assert entry["claim"]["contested"]
    plain = store.run("inspect", "--contested")
    assert "1 open contradiction(s)" in plain.stdout and "agent-memory resolve" in plain.stdout
    assert plain.stdout.count("8443") == 1 and plain.stdout.count("8080") == 1


def test_contested_names_every_pair_of_a_claim_clashing_with_several(tmp_path: Path) -> None:
    ports = ("8080", "8443", "9000")
    store = make_store(tmp_path, atoms=[atom(f"Use port {p} for the dev server", f"s{p}", "2026-03-01") for p in ports])
    entries = json.loads(store.run("inspect", "--contested", "--json").stdout)["contested"]
    pairs = [frozenset((e["claim"]["id"], o["id"])) for e in entries for o in e["contested_by"]]
    assert len(pairs) == len(set(pairs)) == 3  # each of the three pairs once, none both ways


def test_tier_l1_says_what_blocks_each_claim(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[
        *seen("Squash commits before merging", "2026-03-01", "2026-03-01", "2026-03-01"),
        *seen("Run pytest before pushing", *PROMOTABLE),
    ])
    done = store.run("inspect", "--tier", "L1", "--json")
    found = {a["text"]: a for a in json.loads(done.stdout)["atoms"]}
    assert found["Squash commits before merging"]["blocking"] == ["1 of 2 distinct days"]
    assert found["Run pytest before pushing"]["blocking"] == []
    assert all(a["tier"] == "L1" for a in found.values())
    assert json.loads(store.run("inspect", "--tier", "L2", "--json").stdout) == {"atoms": []}


def test_tier_listing_is_plain_text_when_piped_and_a_table_on_a_terminal(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=seen("Squash commits before merging", "2026-03-01", "2026-03-01"))
    piped = store.run("inspect", "--tier", "L1")
    assert piped.returncode == 0
    assert "\x1b[" not in piped.stdout
    assert "Squash commits before merging" in piped.stdout and "2 of 3 sessions" in piped.stdout
    forced = store.run("inspect", "--tier", "L1", extra_env={"TTY_COMPATIBLE": "1", "FORCE_COLOR": "1", "COLUMNS": "160"})
    assert forced.returncode == 0
    assert "\x1b[" in forced.stdout and "━" in forced.stdout  # rich's table rules
    assert "blocked by" in forced.stdout


def test_table_shows_flags_and_blocking(tmp_path: Path) -> None:
    from rich.console import Console

    store = make_store(tmp_path, atoms=[atom("From now on use pnpm", "s1", "2026-03-01", stated=True)])
    claims = tier_claims(plan(store.paths), "L1")
    out = io.StringIO()
    print_tier_table(claims, "L1", Console(file=out, force_terminal=True, width=160, color_system=None))
    shown = out.getvalue()
    assert "From now on use pnpm" in shown and "stated" in shown and "1 of 2 sessions" in shown
    assert claims[0].id[:8] in shown


def test_json_output_is_one_document_when_piped(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("Use pnpm", "s1", "2026-03-01")])
    for args in (["--tier", "L1"], ["--why", "pnpm"], ["--contested"]):
        done = store.run("inspect", *args, "--json")
        assert done.returncode == 0, done.stderr
        json.loads(done.stdout)


def test_inspect_writes_nothing(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("Use pnpm", "s1", "2026-03-01")])
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for args in (["--tier", "L1"], ["--why", "pnpm"], ["--contested"], ["--tier", "L3", "--json"]):
        store.run("inspect", *args)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_the_script_takes_the_same_arguments(tmp_path: Path) -> None:
    store = make_store(tmp_path, atoms=[atom("Use pnpm", "s1", "2026-03-01")])
    via_cli = store.run("inspect", "--why", "pnpm", "--json")
    via_script = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "memory_inspect.py"), "--why", "pnpm", "--json"],
        cwd=store.project, env=store.env(), capture_output=True, text=True, timeout=60,
    )
    assert via_script.returncode == 0 and via_script.stdout == via_cli.stdout
    dry = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "memory_promote.py"), "--json"],
        cwd=store.project, env=store.env(), capture_output=True, text=True, timeout=60,
    )
    assert dry.returncode == 0 and set(json.loads(dry.stdout)) == {"proposals", "blocked"}
    assert not store.paths.staged.exists()


_VOCAB = ["deploy", "staging", "branch", "pytest", "docker", "compose", "ruff", "format", "rebase", "release", "migrate"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=4, unique=True).map(" ".join),
                min_size=1, max_size=6, unique=True))
def test_why_round_trips_every_claim(texts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder) / "p"
        (project / ".git").mkdir(parents=True)
        paths = Paths(store=project / ".memory", user=Path(folder) / "u", project_root=project)
        paths.l1_dir.mkdir(parents=True)
        with open(paths.atoms, "w", encoding="utf-8") as handle:
            for i, text in enumerate(texts):
                handle.write(json.dumps(atom(text, f"s{i}", "2026-03-01")) + "\n")
        claims = build_claims(paths, DEFAULTS)
        for claim in claims:
            assert resolve_why(claim.id, claims) is claim
        for text in texts:  # the claim that holds the wording (one claim may hold several wordings)
            found = resolve_why(text, claims)
            assert normalise(text) in {normalise(str(a.get("text", ""))) for a in found.atoms} | {normalise(found.text)}
