"""The hot path: what the installed hook loads, what it remembers, and when it forgets."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from agent_memory.claims import claim_key

from .conftest import HookEnv, claude_transcript, hook_output

DOCKER = "From now on, always run the integration tests with docker compose before pushing."
PYTEST = {"id": "c1aaaaaaaaaa", "text": "Always run pytest -x before pushing"}
MAIN = {"id": "c3cccccccccc", "text": "Never commit to main directly"}
# what a warm hook must not need: the claim machinery, the full index, the CLI, typing and pathlib, and functools
# with the collections it imports (the SQLite module loads with a stand-in for its one use of it)
HEAVY = ("agent_memory.claims", "agent_memory.promote", "agent_memory.index.sync", "agent_memory.index.search",
         "agent_memory.promote.tiers", "agent_memory.store", "agent_memory.cli",
         "agent_memory.config", "argparse", "typing", "pathlib", "dataclasses", "yaml", "rich", "jsonschema",
         "functools", "collections", "re", "sqlite3")
# the budget: every module of ours a warm hook may load (the claim machinery and the rest load only on a miss; the
# worker only when there is work for it; of the agents, only the one whose hook it is)
COMMON = {"agent_memory", "agent_memory.fastjson", "agent_memory.layout", "agent_memory.hooks", "agent_memory.hooks.entry",
          "agent_memory.agents", "agent_memory.agents.claude", "agent_memory.transcripts",
          "agent_memory.hooks.where", "agent_memory.hooks.cache",
          "agent_memory.hooklog", "agent_memory.clock"}
OURS = {
    "session-start": COMMON | {"agent_memory.hooks.session_start", "agent_memory.hooks.session_end"},
    "user-prompt-submit": COMMON | {"agent_memory.hooks.prompt", "agent_memory.text", "agent_memory.index", "agent_memory.index.prompt",
                                    "agent_memory.index.schema", "agent_memory.index.fts",
                                    "agent_memory.transcripts.injected"},
}
_IMPORTED = re.compile(r"import time:\s+\d+\s+\|\s+\d+\s+\|\s*(\S+)")


@pytest.fixture
def store(env: HookEnv) -> HookEnv:
    t = env.tmp / "transcripts"
    env.ingest(
        claude_transcript(t / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", DOCKER)]),
        claude_transcript(t / "s2.jsonl", "s2", env.root, [("2025-09-03T09:00:00Z", DOCKER)]),
    )
    env.adopt(PYTEST)
    return env


def _imported(env: HookEnv, event: str, payload: dict[str, object]) -> tuple[str, set[str]]:
    command = env.command(event)
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], input=json.dumps(payload).encode(),
                          capture_output=True, cwd=str(env.tmp), env=env.vars(), timeout=120)
    assert done.returncode == 0
    modules = set(_IMPORTED.findall(done.stderr.decode("utf-8", "replace")))
    return done.stdout.decode("utf-8"), modules


@pytest.mark.parametrize("event, prompt", [("session-start", ""), ("user-prompt-submit", "run the integration tests"),
                                           ("user-prompt-submit", "今後は必ず docker で integration tests を実行してください")])
def test_a_warm_hook_imports_only_the_hot_path(store: HookEnv, event: str, prompt: str) -> None:
    payload = store.payload(event, prompt=prompt)
    first = store.run(event, payload)  # the first run may build what later runs read
    out, modules = _imported(store, event, payload)
    assert out == first.stdout and out
    assert "agent_memory.hooks.entry" in modules
    assert sorted(m for m in HEAVY if m in modules) == []
    assert sorted(m for m in modules if m.startswith("agent_memory") and m not in OURS[event]) == []


def test_session_start_is_remembered_and_forgotten_when_an_input_changes(store: HookEnv) -> None:
    def context() -> str:
        return hook_output(store.run("session-start").stdout, "claude", "session-start") or ""

    assert "pytest -x" in context() and "pytest -x" in context()
    assert (store.store / "L1" / "hook-cache.json").is_file()
    store.adopt(MAIN)  # L2 grew
    assert "Never commit to main directly" in context()
    (store.root / "CLAUDE.md").write_text("- Never commit to main directly\n", encoding="utf-8")  # a new file
    assert "commit to main" not in context()
    (store.root / "CLAUDE.md").unlink()
    assert "commit to main" in context()
    (store.store / "staged").mkdir()
    (store.store / "staged" / "p1.md").write_text("---\n---\n", encoding="utf-8")  # a proposal arrived
    assert context().endswith("1 proposal awaits review: agent-memory promote")
    key = claim_key("Never commit to main directly").text
    (store.store / "L1" / "contested.json").write_text(json.dumps({key: ["c9"]}), encoding="utf-8")
    assert "- [contested] Never commit to main directly" in context()


def test_a_remembered_session_start_follows_the_agents_own_settings_and_home(store: HookEnv) -> None:
    def context(**env: str) -> str:
        return hook_output(store.run("session-start", agent="codex", env=env).stdout, "codex", "session-start") or ""

    (store.root / "CLAUDE.md").write_text("- Always run pytest -x before pushing\n", encoding="utf-8")
    assert "pytest -x" in context() and "pytest -x" in context()  # Codex does not load CLAUDE.md: remembered
    settings = store.home / ".codex" / "config.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text('project_doc_fallback_filenames = ["CLAUDE.md"]\n', encoding="utf-8")
    assert context() == ""  # now it does: the file it names was not on the remembered list, the settings were
    other = store.tmp / "other-codex-home"
    other.mkdir()
    assert "pytest -x" in context(CODEX_HOME=str(other))  # another home: other settings
    assert context() == ""


def test_a_parent_folder_instruction_file_counts_for_claude(store: HookEnv) -> None:
    assert "pytest -x" in (hook_output(store.run("session-start").stdout, "claude", "session-start") or "")
    (store.tmp / "CLAUDE.md").write_text("Always run pytest -x before pushing.\n", encoding="utf-8")
    assert store.run("session-start").stdout == ""


def test_a_broken_cache_is_recomputed(store: HookEnv) -> None:
    first = store.run("session-start").stdout
    (store.store / "L1" / "hook-cache.json").write_bytes(b"\xff not json")
    assert store.run("session-start").stdout == first
    (store.store / "L1" / "hook-cache.json").write_text(json.dumps({"session-start claude x": 3, "config": []}), encoding="utf-8")
    assert store.run("session-start").stdout == first


@pytest.mark.parametrize("event", ["session-start", "user-prompt-submit"])
def test_a_cache_torn_by_a_crash_is_a_miss_for_the_installed_hook(store: HookEnv, event: str) -> None:
    payload = store.payload(event, prompt="run the integration tests")
    first = store.run(event, payload).stdout
    assert first
    cache = store.store / "L1" / "hook-cache.json"
    whole = cache.read_bytes()
    # cut inside a string, inside a list, after a backslash: the C scanner's hardest ends on the -I -S path
    for cut in (whole[: len(whole) // 2], whole[: whole.index(b"[") + 3], b'{"a": "x\\', b'{"a": "\\ud83d'):
        cache.write_bytes(cut)
        assert store.run(event, payload).stdout == first
    assert not any("SystemError" in entry["error"] for entry in store.errors())


def test_without_a_project_store_the_user_store_remembers(env: HookEnv) -> None:
    env.adopt({"id": "c9eeeeeeeeee", "text": "Write commit messages in the imperative mood"}, user=True)
    for _ in range(2):
        assert "imperative mood" in (hook_output(env.run("session-start").stdout, "claude", "session-start") or "")
    assert not env.store.exists()
    assert (env.user / "hook-cache.json").is_file()
    env.adopt({"id": "c8eeeeeeeeee", "text": "Sign every release tag"}, user=True)
    assert "Sign every release tag" in (hook_output(env.run("session-start").stdout, "claude", "session-start") or "")


def test_the_cache_keeps_a_bounded_number_of_entries(tmp_path: Path) -> None:
    from agent_memory.hooks import CACHE_ENTRIES, HookCache

    cache = HookCache(str(tmp_path))
    for n in range(CACHE_ENTRIES + 10):
        cache.put(f"entry {n}", [n], n)
    kept = json.loads((tmp_path / "hook-cache.json").read_text(encoding="utf-8"))
    assert len(kept) == CACHE_ENTRIES and f"entry {CACHE_ENTRIES + 9}" in kept and "entry 0" not in kept
    assert HookCache(str(tmp_path)).get(f"entry {CACHE_ENTRIES + 9}", [CACHE_ENTRIES + 9]) == CACHE_ENTRIES + 9
    assert HookCache(str(tmp_path)).get(f"entry {CACHE_ENTRIES + 9}", [0]) is None


def test_prompt_recall_follows_new_atoms_without_a_sync_elsewhere(store: HookEnv) -> None:
    payload = store.payload("user-prompt-submit", prompt="how do we deploy the billing service to staging?")
    assert store.run("user-prompt-submit", payload).stdout == ""
    # a new atom lands in L1 the way a writer appends it, and no one syncs the index
    atoms = store.store / "L1" / "atoms.jsonl"
    record = {"id": "a-new", "text": "Always deploy the billing service to staging first.", "kind": "instruction",
              "session": "s9", "timestamp": "2025-09-10T10:00:00Z", "line": 1, "redacted": False}
    with open(atoms, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    context = hook_output(store.run("user-prompt-submit", payload).stdout, "claude", "user-prompt-submit") or ""
    assert "billing service to staging first. (2025-09-10; 1 session)" in context


def test_the_index_keeps_one_row_per_claim_key(store: HookEnv) -> None:
    store.run("user-prompt-submit", store.payload("user-prompt-submit", prompt="run the integration tests"))
    con = sqlite3.connect(store.store / "index.db")
    keys = con.execute("SELECT key, text, last, redacted FROM keys").fetchall()
    assert len(keys) == 1 and keys[0][1] == DOCKER and keys[0][2].startswith("2025-09-03") and keys[0][3] == 0
    counted = con.execute("SELECT count(*) FROM docs WHERE claim = ?", (keys[0][0],)).fetchone()[0]
    assert counted == 2
    # the atoms' file rewritten without them: their rows go, and the key with its last row
    (store.store / "L1" / "atoms.jsonl").write_text("", encoding="utf-8")
    store.run("user-prompt-submit", store.payload("user-prompt-submit", prompt="run the integration tests"))
    assert con.execute("SELECT count(*) FROM keys").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM keys_words WHERE keys_words MATCH 'docker'").fetchone()[0] == 0


@pytest.mark.parametrize("form", ["module", "console"])
def test_the_other_ways_to_call_a_hook_answer_the_same(store: HookEnv, form: str) -> None:
    payload = json.dumps(store.payload("session-start")).encode()
    head = [sys.executable, "-m", "agent_memory"] if form == "module" else [sys.executable, "-c", "import sys; from agent_memory.cli import main; sys.exit(main())"]
    done = subprocess.run([*head, "hook", "session-start", "--agent", "claude"], input=payload, capture_output=True,
                          cwd=str(store.tmp), env=store.vars(), timeout=120)
    assert done.returncode == 0 and done.stdout.decode() == store.run("session-start").stdout != ""


def test_contested_keys_come_from_the_index_only_while_it_matches_the_file(store: HookEnv) -> None:
    from agent_memory.claims import claim_key
    from agent_memory.index.prompt import signature
    from agent_memory.store import Paths
    from agent_memory.promote.tiers import open_index

    paths = Paths.resolve(cwd=str(store.root))
    payload = store.payload("user-prompt-submit", prompt="run the integration tests")

    def context() -> str:
        return hook_output(store.run("user-prompt-submit", payload).stdout, "claude", "user-prompt-submit") or ""

    paths.contested.write_text("{}\n", encoding="utf-8")
    assert "[contested]" not in context()
    # the index's copy says contested and carries the file's signature: the hook goes by the index
    with open_index(paths, sync=False) as index:
        index.set_contested([claim_key(DOCKER).text], signature(str(paths.contested)))
    assert "- [contested] " in context()
    # the file changed since: the copy no longer counts, the file does
    paths.contested.write_text("{ }\n", encoding="utf-8")
    assert "[contested]" not in context()


def test_staging_copies_contested_keys_into_the_index(store: HookEnv) -> None:
    from agent_memory.index.prompt import signature
    from agent_memory.promote import stage
    from agent_memory.store import Paths
    from agent_memory.promote.tiers import open_index

    t = store.tmp / "transcripts"
    store.ingest(claude_transcript(t / "s3.jsonl", "s3", store.root,
                                   [("2025-09-04T09:00:00Z", "From now on, never run the integration tests with docker compose before pushing.")]))
    paths = Paths.resolve(cwd=str(store.root))
    stage(paths)
    on_disk = json.loads(paths.contested.read_text(encoding="utf-8"))
    assert on_disk, "the fixture must hold a contradiction"
    with open_index(paths, sync=False) as index:
        assert index.contested_signature() == signature(str(paths.contested))
        assert {k for (k,) in index.con.execute("SELECT key FROM contested")} == set(on_disk)


def test_a_large_store_without_an_index_is_indexed_by_a_worker_not_while_the_prompt_waits(
    store: HookEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_memory.config import DEFAULTS
    from agent_memory.hooks import prompt as hooks
    from agent_memory.hooks import worker
    from agent_memory.hooks.where import store_for

    started: list[tuple[list[str], str]] = []
    monkeypatch.setattr(worker, "run_worker", lambda _where, files, stage, _wait: started.append((files, stage)))
    (store.store / "index.db").unlink()
    where = store_for(None, str(store.root))
    monkeypatch.setattr(hooks, "INLINE_REBUILD_BYTES", 10)
    assert hooks.prompt_context(where, DEFAULTS, "run the integration tests") == ""
    assert started == [([], "never")] and not (store.store / "index.db").exists()
    # a small L1 is indexed right away
    monkeypatch.setattr(hooks, "INLINE_REBUILD_BYTES", 10**9)
    assert "docker compose" in hooks.prompt_context(where, DEFAULTS, "run the integration tests")
    assert len(started) == 1


def test_the_worker_builds_a_missing_index(store: HookEnv) -> None:
    from agent_memory.hooks import run_job

    (store.store / "index.db").unlink()
    run_job({"store": str(store.store), "cwd": str(store.root), "files": [], "stage": "never"})
    assert (store.store / "index.db").is_file() and not (store.store / "staged").exists()


def test_an_index_other_claim_code_made_is_read_by_the_prompt_hook_and_made_again_only_by_a_writer(store: HookEnv) -> None:
    from agent_memory.store import Paths
    from agent_memory.promote.tiers import open_index

    paths = Paths.resolve(cwd=str(store.root))
    with open_index(paths) as index:
        index.con.execute("UPDATE meta SET value = 'older claim code' WHERE key = 'derived'")
        index.con.execute("INSERT OR REPLACE INTO meta VALUES ('mark', 'kept')")
    with open_index(paths, rederive=False) as index:  # the prompt hook's way: what it finds is read
        assert index.con.execute("SELECT value FROM meta WHERE key = 'mark'").fetchone() == ("kept",)
    with open_index(paths) as index:  # a writer's: made again by this code
        assert index.con.execute("SELECT value FROM meta WHERE key = 'mark'").fetchone() is None
        assert index.con.execute("SELECT value FROM meta WHERE key = 'derived'").fetchone() != ("older claim code",)
