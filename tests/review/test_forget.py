"""forget: an adopted claim leaves the block after a backup, stays on record as retracted, and waits to be said again."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers_store import NOW, PROMOTABLE, Store, atom, load_schema, make_store, seen

from agent_memory.review.adopt import adopt
from agent_memory.review.backups import rollback
from agent_memory.errors import Ambiguous, NotFound
from agent_memory.promote import plan, stage
from agent_memory.review.forget import forget

PYTEST = "Run pytest before pushing"
PNPM = "Use pnpm, not npm"
FORGOTTEN_AT = "2026-03-20T12:00:00Z"  # NOW: when the tests forget


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def adopted_store(tmp_path: Path, *texts: str) -> Store:
    """A project where each of ``texts`` passed the default gate and was adopted into CLAUDE.md."""
    store = make_store(tmp_path)
    (store.project / "CLAUDE.md").write_text("# Shop\n\nHand-written rules stay.\n", encoding="utf-8")
    for text in texts:
        store.add(seen(text, *PROMOTABLE))
    stage(store.paths)
    report = adopt(store.paths, [], every=True)
    assert len(report.adopted) == len(texts)
    return store


def claim_id(store: Store, text: str) -> str:
    return next(c.id for c in plan(store.paths).claims if c.text == text)


def proposed(store: Store) -> set[str]:
    return {p.text for p in plan(store.paths).proposals}


def test_forget_takes_the_claim_out_of_the_block_and_keeps_it_on_record(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST, PNPM)
    claude = store.project / "CLAUDE.md"
    before = claude.read_bytes()
    done = forget(store.paths, "pytest")
    text = claude.read_text(encoding="utf-8")
    assert PYTEST not in text and PNPM in text and "Hand-written rules stay." in text
    entries = {json.loads(line)["text"]: json.loads(line) for line in store.paths.l2.read_text(encoding="utf-8").splitlines()}
    assert entries[PYTEST]["retired"] is True and entries[PYTEST]["retracted_at"] == FORGOTTEN_AT
    assert entries[PNPM]["retired"] is False
    schema = load_schema("claim.schema.json")
    for entry in entries.values():
        jsonschema.validate(entry, schema)
    manifest = json.loads((store.paths.backups / done.backup / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["command"] == "forget"
    assert Path(manifest["files"][str(claude)]).read_bytes() == before
    assert PYTEST not in proposed(store)


def test_forget_then_rollback_restores_every_file(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST)
    files = [store.project / "CLAUDE.md", store.paths.l2]
    before = {f: f.read_bytes() for f in files}
    decisions = store.paths.decisions.read_bytes() if store.paths.decisions.exists() else b""
    forget(store.paths, claim_id(store, PYTEST))
    assert all(f.read_bytes() != before[f] for f in files)
    undone = rollback(store.paths)
    assert undone is not None and undone["command"] == "forget"
    assert {f: f.read_bytes() for f in files} == before
    assert (store.paths.decisions.read_bytes() if store.paths.decisions.exists() else b"") == decisions
    assert {c.tier for c in plan(store.paths).claims if c.text == PYTEST} == {"L2"}


def test_a_forgotten_claim_is_not_proposed_again_until_said_again_after(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST)
    forget(store.paths, PYTEST)
    [blocked] = [b for b in plan(store.paths).blocked if b["text"] == PYTEST]
    assert "retracted on 2026-03-20, not said again since" in blocked["reasons"]
    # evidence from before the retraction, read only now (a late catch-up), is not "said again"
    store.add([atom(PYTEST, "late-1", "2026-03-10")])
    assert PYTEST not in proposed(store)
    # the person says it again after taking it back: it may be proposed, and adopted, again
    store.add([atom(PYTEST, "after-1", "2026-03-22")])
    assert PYTEST in proposed(store)
    stage(store.paths)
    again = adopt(store.paths, [], every=True)
    assert [a["text"] for a in again.adopted] == [PYTEST]
    assert PYTEST in (store.project / "CLAUDE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("original", "encoding"),
    [
        (b"# Shop\n\nHand-written rules stay.\n", "utf-8"),
        (b"# Shop\r\n\r\nNo newline at the end", "utf-8"),
        ("\ufeff# Shop\r\n\r\nRègles écrites à la main.\r\n".encode("utf-16-le"), "utf-16"),
        (b"", "utf-8"),
    ],
    ids=["lf", "crlf-no-final-newline", "utf-16-bom", "empty"],
)
def test_forgetting_the_last_claim_takes_the_whole_block_out(tmp_path: Path, original: bytes, encoding: str) -> None:
    store = make_store(tmp_path)
    claude = store.project / "CLAUDE.md"
    claude.write_bytes(original)
    claude.chmod(0o640)
    store.add(seen(PYTEST, *PROMOTABLE))
    stage(store.paths)
    adopt(store.paths, [], every=True)
    with_block = claude.read_bytes()
    assert "agent-memory:begin" in with_block.decode(encoding)
    forget(store.paths, PYTEST)
    assert claude.read_bytes() == original  # no empty markers left, not a byte of the person's text changed
    assert claude.stat().st_mode & 0o777 == 0o640
    rollback(store.paths)
    assert claude.read_bytes() == with_block


def test_an_emptied_block_goes_and_the_text_around_it_stays_as_it_is(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST)
    claude = store.project / "CLAUDE.md"
    text = claude.read_text(encoding="utf-8")
    start, end = text.index("<!-- agent-memory:begin"), text.index("<!-- agent-memory:end -->") + len("<!-- agent-memory:end -->\n")
    claude.write_text(text + "\n## Added by hand after the block\n", encoding="utf-8")  # the block no longer ends the file
    forget(store.paths, PYTEST)
    assert claude.read_text(encoding="utf-8") == text[:start] + text[end:] + "\n## Added by hand after the block\n"
    # adopted again, it is appended as a new block at the end
    store.add([atom(PYTEST, "after-1", "2026-03-22")])
    stage(store.paths)
    adopt(store.paths, [], every=True)
    again = claude.read_text(encoding="utf-8")
    assert again.count("agent-memory:begin") == 1 and again.rstrip().endswith("<!-- agent-memory:end -->")


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST)
    snapshot = {p: p.read_bytes() for p in store.paths.store.rglob("*") if p.is_file()}
    claude = (store.project / "CLAUDE.md").read_bytes()
    done = forget(store.paths, PYTEST, dry_run=True)
    assert done.dry_run and done.tiers == ["L2"] and str(store.project / "CLAUDE.md") in done.files
    assert {p: p.read_bytes() for p in store.paths.store.rglob("*") if p.is_file()} == snapshot
    assert (store.project / "CLAUDE.md").read_bytes() == claude


@pytest.mark.parametrize(
    ("ref", "error"),
    [
        ("deploy on fridays", NotFound),  # no adopted claim has these words
        ("ffffffffff", NotFound),  # an id no claim has
        ("before", Ambiguous),  # both adopted claims say it
    ],
)
def test_unknown_or_ambiguous_text_is_refused(tmp_path: Path, ref: str, error: type[Exception]) -> None:
    store = adopted_store(tmp_path, PYTEST, "Run mypy before pushing")
    with pytest.raises(error):
        forget(store.paths, ref)


def _recalled(store: Store, prompt: str) -> str:
    from agent_memory.config import load_config
    from agent_memory.hooks.prompt import prompt_context

    return prompt_context(store.paths, load_config(store.paths.config), prompt)


def test_a_claim_only_in_l1_is_forgotten_never_recalled_or_proposed_until_said_again(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.add(seen("Never deploy on fridays", *PROMOTABLE))
    stage(store.paths)
    staged_before = sorted(p.name for p in store.paths.staged.glob("*.md"))
    assert "Never deploy on fridays" in proposed(store) and staged_before
    assert "deploy on fridays" in _recalled(store, "can we deploy on fridays this week?")

    done = forget(store.paths, "fridays")
    assert done.tiers == ["L1"] and done.backup
    assert "Never deploy on fridays" not in proposed(store)
    assert list(store.paths.staged.glob("*.md")) == []  # its staged proposal is withdrawn, so adopt --all cannot take it
    assert _recalled(store, "can we deploy on fridays this week?") == ""
    reasons = next(b["reasons"] for b in plan(store.paths).blocked if b["text"] == "Never deploy on fridays")
    assert any("retracted on 2026-03-20" in r for r in reasons)

    assert rollback(store.paths) is not None  # undone like any other forget
    assert sorted(p.name for p in store.paths.staged.glob("*.md")) == staged_before
    assert "Never deploy on fridays" in proposed(store)

    forget(store.paths, "fridays")
    store.add([atom("Never deploy on fridays", "s-again", "2026-03-21")])  # said again after the forget
    assert "deploy on fridays" in _recalled(store, "can we deploy on fridays this week?")
    assert "Never deploy on fridays" in proposed(store)


def test_forget_prefers_an_adopted_claim_and_then_looks_in_l1(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST)
    store.add([atom("Never deploy on fridays", "s9", "2026-03-05")])  # in L1 only
    assert forget(store.paths, "pytest").tiers == ["L2"]
    assert forget(store.paths, "fridays").tiers == ["L1"]
    with pytest.raises(NotFound):
        forget(store.paths, "fridays")  # forgotten already: nothing left that these words name


# ---------------------------------------------------------------- the command, as a subprocess


def test_forget_command_round_trip(tmp_path: Path) -> None:
    store = adopted_store(tmp_path, PYTEST, PNPM)
    claude = store.project / "CLAUDE.md"
    before = claude.read_bytes()
    dry = store.run("forget", "pytest", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    shape = json.loads(dry.stdout)
    jsonschema.validate(shape, load_schema("forget.schema.json"))
    assert shape["forgotten"]["dry_run"] is True and claude.read_bytes() == before

    done = store.run("forget", "pytest")
    assert done.returncode == 0, done.stderr
    assert "forgot" in done.stdout and "rollback" in done.stdout
    assert PYTEST not in claude.read_text(encoding="utf-8")
    assert store.run("rollback").returncode == 0
    assert claude.read_bytes() == before


@pytest.mark.parametrize("ref", ["deploy on fridays", "before"])
def test_forget_command_exits_3_with_one_line(tmp_path: Path, ref: str) -> None:
    store = adopted_store(tmp_path, PYTEST, "Run mypy before pushing")
    done = store.run("forget", ref)
    assert done.returncode == 3 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_claim_taken_back_from_l3_is_not_proposed_for_l3_by_another_project(tmp_path: Path) -> None:
    from agent_memory.claims import claim_key
    from agent_memory.claims.wording import short_hash
    from agent_memory.store import write_json, write_jsonl

    text = "Prefer small focused commits"
    stores = [make_store(tmp_path, name) for name in ("shop", "api", "web")]
    for store in stores:
        store.paths.store.mkdir(parents=True, exist_ok=True)
        write_jsonl(store.paths.l2, [{
            "id": short_hash("claim", claim_key(text).text), "text": text, "kind": "preference", "keys": [claim_key(text).text],
            "stated": False, "verified": False, "sessions": [f"{store.project.name}-1"], "days": ["2026-01-02"],
            "projects": [store.project.name], "first_seen": "2026-01-02T09:00:00Z", "adopted_at": "2026-01-10T00:00:00Z",
            "proposal": "0" * 12, "path": "default", "target": "CLAUDE.md", "contested": False, "contested_by": [],
            "retired": False, "retired_for": "", "sources": []}])
    shop, api, _web = stores
    write_json(shop.paths.registry, {"projects": {s.project.name: {"store": str(s.paths.store), "root": str(s.project)} for s in stores}})

    def l3_proposals(store: Store) -> list[str]:
        return [p.text for p in plan(store.paths).proposals if p.target_tier == "L3"]

    [proposal] = [p for p in stage(shop.paths)[0].proposals if p.target_tier == "L3"]
    adopt(shop.paths, [proposal.id])
    user_file = tmp_path / "home" / ".claude" / "CLAUDE.md"
    assert text in user_file.read_text(encoding="utf-8")
    done = forget(shop.paths, "small focused commits")
    assert done.tiers == ["L2", "L3"] and str(shop.paths.user_decisions) in done.files
    assert user_file.read_bytes() == b""  # adopt made it for this block alone; no empty markers stay behind
    assert l3_proposals(api) == []  # api and web still hold it in L2, which alone would propose it again
    api.add([atom(text, "api-again", "2026-03-25")])  # said again, after the retraction
    assert l3_proposals(api) == [text]
    rollback(shop.paths)
    assert not shop.paths.user_decisions.exists() or "forget" not in shop.paths.user_decisions.read_text(encoding="utf-8")
