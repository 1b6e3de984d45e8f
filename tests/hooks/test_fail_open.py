"""Fail open: whatever breaks, a hook exits 0, prints nothing but valid hook output, and logs the error."""

from __future__ import annotations

import argparse
import json
import subprocess

import pytest

from .conftest import PATIENT, HookEnv, claude_transcript, hook_output

EVENTS = ("session-start", "user-prompt-submit", "session-end")
AGENTS = ("claude", "codex", "gemini")
RULE = "From now on, always run the integration tests with docker compose before pushing."
PROMPT = "run the integration tests"


@pytest.fixture
def built(env: HookEnv) -> HookEnv:
    """A store with one adopted claim and one ingested session."""
    env.config(**PATIENT)
    env.adopt({"id": "c1aaaaaaaaaa", "text": "Always rebase before pushing"})
    env.ingest(claude_transcript(env.tmp / "t" / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", RULE)]))
    return env


def _payload(env: HookEnv, event: str, agent: str = "claude", **extra: object) -> dict[str, object]:
    fields: dict[str, object] = {"prompt": PROMPT} if event == "user-prompt-submit" else {}
    fields.update(extra)
    return env.payload(event, agent, **fields)


def _valid(result: subprocess.CompletedProcess[str], agent: str, event: str) -> str | None:
    assert result.returncode == 0, result.stderr
    return hook_output(result.stdout, agent, event)


def _logged(env: HookEnv, text: str, user: bool = False) -> bool:
    return any(text in entry["error"] for entry in env.errors(user=user))


# ---------------------------------------------------------------- broken stores


def test_a_corrupt_index_is_rebuilt_and_recall_still_works(built: HookEnv) -> None:
    (built.store / "index.db").write_bytes(b"this is not a database" * 100)
    context = _valid(built.run("user-prompt-submit", _payload(built, "user-prompt-submit")), "claude", "user-prompt-submit")
    assert context is not None and "docker compose" in context
    for event in ("session-start", "session-end"):
        _valid(built.run(event, _payload(built, event)), "claude", event)


def test_a_corrupt_line_in_l1_is_skipped(built: HookEnv) -> None:
    atoms = built.store / "L1" / "atoms.jsonl"
    atoms.write_bytes(b'{"id": "broken", "text": \xff\xfe not json\n' + atoms.read_bytes() + b"[1, 2, 3]\n")
    (built.store / "index.db").unlink()
    context = _valid(built.run("user-prompt-submit", _payload(built, "user-prompt-submit")), "claude", "user-prompt-submit")
    assert context is not None and "docker compose" in context


@pytest.mark.parametrize("event", EVENTS)
def test_a_missing_store(env: HookEnv, event: str) -> None:
    result = env.run(event, _payload(env, event, transcript_path=str(env.tmp / "none.jsonl")))
    assert _valid(result, "claude", event) is None
    assert not env.store.exists()


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("agent", AGENTS)
def test_a_store_that_cannot_be_written(env: HookEnv, event: str, agent: str) -> None:
    # tests run as root, where chmod does not bite: a file where the store should be does
    blocker = env.tmp / "store-is-a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    transcript = claude_transcript(env.tmp / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", RULE)])
    payload = _payload(env, event, agent, transcript_path=str(transcript), session_id="s1")
    result = env.run(event, payload, agent=agent, env={"AGENT_MEMORY_DIR": str(blocker)})
    assert _valid(result, agent, event) is None
    assert blocker.read_text(encoding="utf-8") == "not a folder"
    if event == "session-end":
        assert env.errors(user=True), "the failure is logged in the user store"


def test_a_broken_config_falls_back_to_the_defaults(built: HookEnv) -> None:
    (built.store / "config.yaml").write_text("budgets: [unclosed\n  : {\n", encoding="utf-8")
    context = _valid(built.run("session-start", _payload(built, "session-start")), "claude", "session-start")
    assert context is not None and "rebase" in context
    assert any(entry["where"] == "config" for entry in built.errors())


# ---------------------------------------------------------------- bad input


BAD_STDIN = {
    "garbage": b"\x00\xff\xfe garbage \x80",
    "empty": b"",
    "not-json": b"hello, hook",
    "array": b"[1, 2, 3]",
    "string": b'"session-start"',
    "half-object": b'{"session_id": "s1", "cwd": ',
}


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("name", BAD_STDIN)
def test_bad_stdin(built: HookEnv, event: str, name: str) -> None:
    before = built.atoms()
    # agents run hooks in the project folder: that is where the error is logged
    result = built.run(event, raw=BAD_STDIN[name], cwd=built.root)
    if event == "session-start":
        _valid(result, "claude", event)  # with no input the project folder still says which memory
    else:
        assert _valid(result, "claude", event) is None
    assert built.atoms() == before
    assert built.errors(), "the bad input is logged under the store"


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("event", EVENTS)
def test_wrong_types_in_the_hook_json(built: HookEnv, agent: str, event: str) -> None:
    payload = {"session_id": 7, "cwd": ["not", "a", "path"], "prompt": {"text": PROMPT}, "transcript_path": 3.5,
               "hook_event_name": "SessionStart"}
    result = built.run(event, payload, agent=agent, cwd=built.root)
    if event == "user-prompt-submit":
        assert _valid(result, agent, event) is None
    else:
        _valid(result, agent, event)
    assert _logged(built, "wrong type")


def test_stdin_never_closed_still_ends(built: HookEnv) -> None:
    process = subprocess.Popen(built.command("session-end"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=str(built.root), env=built.vars())
    try:
        process.wait(timeout=60)  # stdin stays open and empty
        assert process.returncode == 0
        assert process.stdout is not None and process.stdout.read() == b""
    finally:
        if process.stdin:
            process.stdin.close()
        if process.poll() is None:
            process.kill()
    assert _logged(built, "no hook JSON")


def test_a_whole_object_on_an_open_stdin_is_answered(built: HookEnv) -> None:
    process = subprocess.Popen(built.command("user-prompt-submit"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=built.vars())
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(_payload(built, "user-prompt-submit")).encode())
        process.stdin.flush()
        process.wait(timeout=60)  # stdin is still open: the hook must not wait for its end
        context = hook_output(process.stdout.read().decode(), "claude", "user-prompt-submit")
        assert context is not None and "docker compose" in context
        assert process.returncode == 0
    finally:
        if process.stdin:
            process.stdin.close()
        if process.poll() is None:
            process.kill()


# ---------------------------------------------------------------- transcripts


@pytest.mark.parametrize("agent", AGENTS)
def test_a_transcript_that_does_not_exist(built: HookEnv, agent: str) -> None:
    missing = built.tmp / "gone" / "s9.jsonl"
    result = built.run("session-end", _payload(built, "session-end", agent, transcript_path=str(missing), session_id="s9"), agent=agent)
    assert _valid(result, agent, "session-end") is None
    assert _logged(built, "transcript not found")


def test_a_truncated_transcript(built: HookEnv) -> None:
    path = claude_transcript(built.tmp / "t" / "s2.jsonl", "s2", built.root, [
        ("2025-09-02T10:00:00Z", "From now on, always squash commits before merging."),
        ("2025-09-02T11:00:00Z", "Remember: always tag releases with a v prefix."),
    ])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 120])  # the last line ends mid-record
    result = built.run("session-end", _payload(built, "session-end", transcript_path=str(path), session_id="s2"))
    assert _valid(result, "claude", "session-end") is None
    texts = [a["text"] for a in built.atoms() if a["session"] == "s2"]
    assert any("squash" in t for t in texts)


def test_a_transcript_that_is_not_a_transcript(built: HookEnv) -> None:
    path = built.tmp / "notes.jsonl"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    result = built.run("session-end", _payload(built, "session-end", transcript_path=str(path)))
    assert _valid(result, "claude", "session-end") is None
    assert built.errors()


# ---------------------------------------------------------------- switches and the entry point


@pytest.mark.parametrize(
    ("event", "switch"),
    [("session-start", "AGENT_MEMORY_SESSIONSTART"), ("user-prompt-submit", "AGENT_MEMORY_USERPROMPTSUBMIT"),
     ("session-end", "AGENT_MEMORY_SESSIONEND")],
)
def test_each_hook_switches_off(built: HookEnv, event: str, switch: str) -> None:
    transcript = claude_transcript(built.tmp / "t" / "s3.jsonl", "s3", built.root, [("2025-09-03T10:00:00Z", "Always tag releases.")])
    before = sorted(p.name for p in (built.store / "L1").iterdir())
    result = built.run(event, _payload(built, event, transcript_path=str(transcript)), env={switch: "0"})
    assert (result.returncode, result.stdout) == (0, "")
    assert built.atoms() and all(a["session"] == "s1" for a in built.atoms())
    assert sorted(p.name for p in (built.store / "L1").iterdir()) == before
    # the other hooks stay on
    other = next(e for e in EVENTS if e != event and e != "session-end")
    assert built.run(other, _payload(built, other), env={switch: "0"}).stdout != ""


def test_cmd_hook_never_raises(env: HookEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_memory.hooks import entry as hooks

    def explode(*_a: object, **_k: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(hooks, "run_hook", explode)
    monkeypatch.setattr(hooks, "read_stdin", lambda _t: b"{}")
    env.store.mkdir()
    monkeypatch.chdir(env.root)
    assert hooks.cmd_hook(argparse.Namespace(event="session-start", agent="claude")) == 0
    assert _logged(env, "boom")
    monkeypatch.setattr(hooks, "read_stdin", explode)
    assert hooks.cmd_hook(argparse.Namespace(event="session-end", agent="codex", memory_dir=str(env.store))) == 0
    assert hooks.cmd_hook(argparse.Namespace()) == 0


def test_the_worker_never_raises(env: HookEnv) -> None:
    from agent_memory.hooks import worker_main

    assert worker_main([]) == 0
    assert worker_main(["not json"]) == 0
    assert worker_main([json.dumps({"store": str(env.tmp / "a-file"), "files": ["/nonexistent"], "stage": "always"})]) == 0
