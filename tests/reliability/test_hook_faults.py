"""Faults under the real hooks: whatever breaks, the agent's session goes on and nothing stored is lost.

Every case runs ``agent-memory hook EVENT`` as a subprocess, as an agent does, and checks what the
agent and the user would notice: exit 0, stdout empty or one valid hook answer, the error in a log
under the store (the user store when the project store is unusable), and every atom, adopted claim
and staged proposal that was there before still there, once.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from .support import (
    Env,
    Snapshot,
    assert_nothing_lost,
    build_store,
    claude_lines,
    hook_context,
    make_env,
    new_session,
    no_traceback,
    snapshot,
    wait_for_workers,
    write_jsonl,
)

EVENTS = ("session-start", "user-prompt-submit", "session-end")
PROMPT = "should I push this branch directly to main?"


@pytest.fixture
def built(env: Env) -> tuple[Env, Snapshot]:
    return env, build_store(env)


def run_all(env: Env, hook_env: dict[str, str] | None = None) -> dict[str, str | None]:
    """The three hooks in a session's order; each must exit 0 with valid output. Returns each context."""
    transcript = new_session(env)
    found: dict[str, str | None] = {}
    for event in EVENTS:
        payload = env.payload(event, prompt=PROMPT, transcript_path=str(transcript))
        done = env.hook(event, payload, env=hook_env)
        assert done.code == 0, done.err
        no_traceback(done.out, done.err)
        found[event] = hook_context(done.out, "claude", event)
    return found


def logged(env: Env, user: bool = False) -> str:
    return "\n".join(f"{e['where']}: {e['error']}" for e in env.errors(user=user))


# ---------------------------------------------------------------- a damaged store


def test_a_corrupt_index_is_rebuilt_and_nothing_is_lost(built: tuple[Env, Snapshot]) -> None:
    """A garbage index.db costs nothing: recall still answers, session-end still ingests, L1 is intact."""
    env, before = built
    (env.store / "index.db").write_bytes(b"this is not a database\x00" * 512)
    (env.store / "index.db-wal").write_bytes(b"\xde\xad\xbe\xef" * 100)
    contexts = run_all(env)
    assert "push directly to main" in (contexts["user-prompt-submit"] or "")
    after = snapshot(env.store, env.user)
    assert_nothing_lost(before, after)
    assert len(after.atoms) > len(before.atoms), "session-end ingested nothing"
    with sqlite3.connect(env.store / "index.db") as con:  # rebuilt as a real database
        assert con.execute("SELECT count(*) FROM docs WHERE kind='atom'").fetchone()[0] == len(after.atoms)


def test_a_corrupt_line_in_l1_is_skipped_and_kept(built: tuple[Env, Snapshot]) -> None:
    """Garbage in the middle of L1 hides only itself: recall works, new atoms land after it, none is lost."""
    env, before = built
    lines = env.atoms_file.read_bytes().split(b"\n")
    lines.insert(2, b'{"id": "broken", "text": ')
    lines.insert(4, b"\xff\xfe\x00 not json at all")
    lines.insert(5, b'["a list", "not an atom"]')
    lines.insert(6, b"[" * 100_000 + b"]" * 100_000)  # deeper than the parser recurses
    env.atoms_file.write_bytes(b"\n".join(lines))
    contexts = run_all(env)
    assert "push directly to main" in (contexts["user-prompt-submit"] or "")
    after = snapshot(env.store, env.user)
    assert not (before.atoms - after.atoms) and all(n == 1 for n in after.atoms.values())
    assert len(after.atoms) > len(before.atoms)
    assert b"\xff\xfe\x00 not json at all" in env.atoms_file.read_bytes(), "the damaged line was rewritten away"


def test_a_torn_last_record_in_l1_does_not_cost_the_next_session(built: tuple[Env, Snapshot]) -> None:
    """A half-written last atom (a crash mid-append) is cut off; whole ones before it and new ones stay."""
    env, before = built
    with open(env.atoms_file, "ab") as handle:
        handle.write(b'{"id": "torn", "kind": "instruction", "text": "half of a rec')
    run_all(env)
    after = snapshot(env.store, env.user)
    assert not (before.atoms - after.atoms) and all(n == 1 for n in after.atoms.values())
    assert "torn" not in after.atoms and len(after.atoms) > len(before.atoms)
    assert env.atoms_file.read_bytes().endswith(b"\n")


def test_a_missing_store_is_created_only_by_ingesting(env: Env) -> None:
    """Without a store, the prompt hook prints nothing and creates nothing; a session ends with its atoms, once."""
    transcript = new_session(env)
    done = env.hook("user-prompt-submit", env.payload("user-prompt-submit", prompt=PROMPT, transcript_path=str(transcript)))
    assert done.code == 0 and done.out == "", done
    assert not env.store.exists()
    for event in ("session-start", "session-end"):  # session-start may catch the transcript up already
        done = env.hook(event, env.payload(event, transcript_path=str(transcript)))
        assert done.code == 0 and done.out == "", done
    assert [a["text"] for a in env.atom_records()] == ["From now on, always write the changelog entry first."]
    assert env.errors() == [] and env.errors(user=True) == []


@pytest.mark.parametrize("where", ["file", pytest.param("under-a-file", marks=pytest.mark.slow)])
def test_a_store_that_cannot_be_a_folder(env: Env, where: str) -> None:
    """A file where the store should be (or above it): exit 0, the file untouched, the error in the user store."""
    extra: dict[str, str] = {}
    if where == "file":
        blocker = env.store
    else:
        blocker = env.tmp / "not-a-folder"
        extra["AGENT_MEMORY_DIR"] = str(blocker / "store")
    blocker.write_bytes(b"keep me\n")
    run_all(env, extra)
    assert blocker.read_bytes() == b"keep me\n"
    assert env.errors(user=True), "session-end's failure was not logged anywhere"
    assert "session-end" in logged(env, user=True) or "worker" in logged(env, user=True)


def _namespace_tools() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("mount"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


NAMESPACES = pytest.mark.skipif(not (sys.platform.startswith("linux") and _namespace_tools()),
                                reason="needs root, unshare and mount (private mount namespace)")


def _in_namespace(env: Env, event: str, payload: dict[str, object], setup: str, teardown: str = "") -> subprocess.CompletedProcess[bytes]:
    """Run one hook inside a private mount namespace after ``setup`` (shell), then ``teardown``."""
    hook = " ".join(f"'{part}'" for part in env.hook_command(event))
    script = f"set -e\n{setup}\nset +e\n{hook} <\"$AM_PAYLOAD\" >\"$AM_OUT\"\ncode=$?\n{teardown}\nexit $code\n"
    payload_file = env.tmp / "payload.json"
    payload_file.write_text(json.dumps(payload), encoding="utf-8")
    out_file = env.tmp / "hook-stdout"
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script], cwd=env.tmp,
                          env=env.vars(AM_PAYLOAD=str(payload_file), AM_OUT=str(out_file)), capture_output=True, timeout=300)
    wait_for_workers(str(env.tmp))
    return subprocess.CompletedProcess(done.args, done.returncode, out_file.read_bytes(), done.stderr)


@NAMESPACES
def test_a_read_only_store(built: tuple[Env, Snapshot]) -> None:
    """A store on a read-only mount: context and recall still answer, session-end logs in the user store."""
    env, before = built
    ro = f"mount --bind '{env.store}' '{env.store}' && mount -o remount,ro,bind '{env.store}'"
    (env.store / "index.db").unlink()  # recall must then build its index in memory
    answers = {}
    for event in EVENTS:
        payload = env.payload(event, prompt=PROMPT, transcript_path=str(new_session(env)))
        done = _in_namespace(env, event, payload, ro)
        assert done.returncode == 0, done.stderr
        answers[event] = hook_context(done.stdout.decode(), "claude", event)
    assert "push directly to main" in (answers["user-prompt-submit"] or "")
    assert "1 proposal awaits review" in (answers["session-start"] or "")
    assert_nothing_lost(before, snapshot(env.store, env.user))
    assert not (env.store / "logs" / "errors.log").exists() or env.errors() == []
    assert env.errors(user=True), "a session-end that could not write was not logged anywhere"


# ---------------------------------------------------------------- a full disk


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _clean_twin(tmp: Path, transcript_texts: list[str]) -> Snapshot:
    """The same history and session-end on a store that never failed: what the user should end up with."""
    twin = make_env(tmp)
    build_store(twin)
    transcript = new_session(twin, texts=transcript_texts)
    done = twin.hook("session-end", twin.payload("session-end", transcript_path=str(transcript)))
    assert done.code == 0
    return snapshot(twin.store, twin.user)


TODAY = ["From now on, always write the changelog entry first.", "Remember: the release branch is frozen on Fridays."]


def test_a_file_size_limit_fails_open_and_the_next_session_catches_up(built: tuple[Env, Snapshot], tmp_path_factory: pytest.TempPathFactory) -> None:
    """Writes refused (EFBIG, like a full disk): exit 0, logged, nothing lost; the next run ends as a clean one."""
    env, before = built
    transcript = new_session(env, texts=TODAY)
    limit = env.atoms_file.stat().st_size + 64  # the new atoms cannot all be appended
    (env.store / "index.db").unlink()  # and the index cannot be rebuilt on disk
    done = env.hook("user-prompt-submit", env.payload("user-prompt-submit", prompt=PROMPT), preexec=_file_size_limit(limit))
    assert done.code == 0
    assert "push directly to main" in (hook_context(done.out, "claude", "user-prompt-submit") or "")
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(transcript)), preexec=_file_size_limit(limit))
    assert done.code == 0 and done.out == "", done
    no_traceback(done.err)
    middle = snapshot(env.store, env.user)
    assert not (before.atoms - middle.atoms) and all(n == 1 for n in middle.atoms.values())
    assert middle.l2 == before.l2 and set(before.staged) <= set(middle.staged)
    assert env.errors(), "the refused write was not logged"
    # space again: the same session-end now completes, exactly as if nothing had failed
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(transcript)))
    assert done.code == 0
    after = snapshot(env.store, env.user)
    clean = _clean_twin(tmp_path_factory.mktemp("twin"), TODAY)
    assert after.atoms == clean.atoms and after.chunks == clean.chunks
    assert set(after.staged) == set(clean.staged)


@pytest.mark.slow
@NAMESPACES
def test_a_full_disk_fails_open_and_the_next_session_catches_up(built: tuple[Env, Snapshot], tmp_path_factory: pytest.TempPathFactory) -> None:
    """A real ENOSPC (the store on a full tmpfs): exit 0, logged, nothing lost; then a clean catch-up."""
    env, before = built
    transcript = new_session(env, texts=TODAY)
    saved = env.tmp / "saved-store"
    shutil.copytree(env.store, saved)
    used = sum(p.stat().st_size for p in saved.rglob("*") if p.is_file())
    size_kb = used // 1024 + 256
    setup = (
        f"mount -t tmpfs -o size={size_kb}k tmpfs '{env.store}'\n"
        f"cp -a '{saved}/.' '{env.store}/'\n"
        f"dd if=/dev/zero of='{env.store}/.filler' bs=1k count={size_kb} 2>/dev/null || true\n"
    )
    teardown = f"rm -f '{env.store}/.filler'; rm -rf '{saved}'; mkdir '{saved}'; cp -a '{env.store}/.' '{saved}/'"
    payload = env.payload("session-end", transcript_path=str(transcript))
    done = _in_namespace(env, "session-end", payload, setup, teardown)
    assert done.returncode == 0 and done.stdout == b"", done.stderr
    shutil.rmtree(env.store)
    shutil.copytree(saved, env.store)
    middle = snapshot(env.store, env.user)
    assert not (before.atoms - middle.atoms) and all(n == 1 for n in middle.atoms.values())
    assert middle.l2 == before.l2 and set(before.staged) <= set(middle.staged)
    assert env.errors() or env.errors(user=True), "the full disk was not logged anywhere"
    done2 = env.hook("session-end", payload)
    assert done2.code == 0
    after = snapshot(env.store, env.user)
    clean = _clean_twin(tmp_path_factory.mktemp("twin"), TODAY)
    assert after.atoms == clean.atoms and set(after.staged) == set(clean.staged)


# ---------------------------------------------------------------- what arrives on stdin

BAD_STDIN = {
    "empty": b"",
    "blank": b"  \n\t\n",
    "garbage": b"\x00\xff\xfe garbage {{{",
    "unclosed-object": b'{"session_id": "abc", "cwd": "/tmp", "prompt": "push to ma',
    "list": b"[1, 2, 3]",
    "string": b'"session-end"',
    "null": b"null",
    "deep-nesting": b"[" * 200_000,
    "non-utf8-in-json": b'{"prompt": "push \xff\xfe to main", "session_id": "x"}',
}


# every input reaches every hook in the slow set; the default run sends each input to one hook
BAD_STDIN_CASES = [
    pytest.param(name, event, marks=() if event == EVENTS[n % 3] else pytest.mark.slow, id=f"{name}-{event}")
    for n, name in enumerate(sorted(BAD_STDIN))
    for event in EVENTS
]


@pytest.mark.parametrize(("name", "event"), BAD_STDIN_CASES)
def test_bad_stdin(env: Env, event: str, name: str) -> None:
    """Nothing usable on stdin: exit 0, nothing on stdout, and the problem logged."""
    done = env.hook(event, raw=BAD_STDIN[name])
    assert done.code == 0, done.err
    assert done.out == "", done.out
    no_traceback(done.err)
    assert env.errors(user=True), "the bad hook input was not logged"


def test_stdin_left_open_mid_object_still_ends(built: tuple[Env, Snapshot]) -> None:
    """An agent that sends half an object and never closes stdin does not hang the hook."""
    env, before = built
    process = subprocess.Popen(env.hook_command("user-prompt-submit"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=env.tmp, env=env.vars())
    assert process.stdin is not None
    process.stdin.write(json.dumps(env.payload("user-prompt-submit", prompt=PROMPT)).encode()[:-5])
    process.stdin.flush()
    try:
        process.wait(timeout=60)  # stdin stays open the whole time, as with an agent that never closes it
    finally:
        if process.poll() is None:
            process.kill()
        process.stdin.close()
    assert process.stdout is not None and process.stderr is not None
    out, err = process.stdout.read(), process.stderr.read()
    assert process.returncode == 0 and out == b"", err
    assert_nothing_lost(before, snapshot(env.store, env.user))


def test_a_50_mb_prompt_on_stdin(built: tuple[Env, Snapshot]) -> None:
    """A pasted 50 MB prompt: the hook neither hangs nor prints anything that is not a hook answer."""
    env, before = built
    payload = env.payload("user-prompt-submit", prompt="push to main " + "x" * (50 * 1024 * 1024))
    done = env.hook("user-prompt-submit", raw=json.dumps(payload).encode())
    assert done.code == 0
    hook_context(done.out, "claude", "user-prompt-submit")
    assert_nothing_lost(before, snapshot(env.store, env.user))


WRONG_TYPES: dict[str, dict[str, object]] = {
    "numbers": {"session_id": 5, "transcript_path": 7, "cwd": 3, "prompt": 9},
    "containers": {"session_id": ["a"], "transcript_path": {"p": 1}, "cwd": ["x"], "prompt": {"text": "push"}},
    "nulls": {"session_id": None, "transcript_path": None, "cwd": None, "prompt": None},
    "bools": {"session_id": True, "transcript_path": False, "cwd": True, "prompt": False},
}


AGENTS = ("claude", "codex", "gemini")
WRONG_TYPE_CASES = [
    pytest.param(name, event, agent, id=f"{name}-{event}-{agent}",
                 marks=() if name == "containers" and agent == AGENTS[k] else pytest.mark.slow)
    for name in sorted(WRONG_TYPES)
    for k, event in enumerate(EVENTS)
    for agent in AGENTS
]


@pytest.mark.parametrize(("name", "event", "agent"), WRONG_TYPE_CASES)
def test_json_of_the_wrong_types(built: tuple[Env, Snapshot], name: str, event: str, agent: str) -> None:
    """Fields of the wrong type are treated as absent, whatever the agent: exit 0, valid output, nothing lost."""
    env, before = built
    payload = {"hook_event_name": 42, **WRONG_TYPES[name]}
    done = env.hook(event, raw=json.dumps(payload).encode(), agent=agent)
    assert done.code == 0, done.err
    no_traceback(done.err)
    hook_context(done.out, agent, event)
    assert_nothing_lost(before, snapshot(env.store, env.user))
    if name != "nulls":  # null is how agents say "absent"; anything else is worth a line in the log
        assert "wrong type" in logged(env) + logged(env, user=True)


# ---------------------------------------------------------------- what the transcript holds


def test_a_transcript_that_does_not_exist(built: tuple[Env, Snapshot]) -> None:
    """session-end on a path that is not there: exit 0, logged in the store, nothing changed."""
    env, before = built
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(env.tmp / "gone" / "x.jsonl")))
    assert done.code == 0 and done.out == ""
    assert "x.jsonl" in logged(env)
    assert_nothing_lost(before, snapshot(env.store, env.user))


@pytest.mark.parametrize("what", ["folder", "the-store-itself", "instruction-file", "device"])
def test_a_transcript_path_that_is_not_a_transcript(built: tuple[Env, Snapshot], what: str) -> None:
    """A folder, L1 itself, CLAUDE.md or /dev/null as the transcript: exit 0, logged, nothing changed."""
    env, before = built
    target = {"folder": env.tmp, "the-store-itself": env.atoms_file, "instruction-file": env.root / "CLAUDE.md",
              "device": Path(os.devnull)}[what]
    claude_md = (env.root / "CLAUDE.md").read_bytes()
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(target)))
    assert done.code == 0 and done.out == ""
    assert_nothing_lost(before, snapshot(env.store, env.user))
    assert (env.root / "CLAUDE.md").read_bytes() == claude_md
    assert env.atom_ids() == before.atoms
    if what != "the-store-itself":  # L1 reads as an (empty) old-style Codex rollout: nothing to report
        assert env.errors(), "nothing logged"


def test_a_transcript_cut_mid_line_is_finished_by_the_next_session_end(built: tuple[Env, Snapshot], tmp_path_factory: pytest.TempPathFactory) -> None:
    """A transcript still being written: complete lines now, the rest next time, each atom once."""
    env, before = built
    transcript = new_session(env, texts=TODAY)
    whole = transcript.read_bytes()
    cut = whole.rfind(b"Remember") + 20  # inside the last user line
    transcript.write_bytes(whole[:cut])
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(transcript)))
    assert done.code == 0
    middle = snapshot(env.store, env.user)
    assert not (before.atoms - middle.atoms) and all(n == 1 for n in middle.atoms.values())
    texts = [a["text"] for a in env.atom_records()]
    assert TODAY[0] in texts and not any("release branch" in t for t in texts)
    transcript.write_bytes(whole)
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(transcript)))
    assert done.code == 0
    after = snapshot(env.store, env.user)
    clean = _clean_twin(tmp_path_factory.mktemp("twin"), TODAY)
    assert after.atoms == clean.atoms and after.chunks == clean.chunks


def test_a_50_mb_line_in_the_transcript(built: tuple[Env, Snapshot]) -> None:
    """A 50 MB tool result mid-transcript is skipped; the person's turns on both sides are kept."""
    env, before = built
    lines = claude_lines("s-big", env.root, [("2026-03-20T10:00:00Z", TODAY[0])])
    huge = {"type": "user", "sessionId": "s-big", "cwd": str(env.root), "parentUuid": "a0-s-big", "uuid": "big",
            "timestamp": "2026-03-20T10:01:00Z", "toolUseResult": {"stdout": "y"},
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x" * (50 * 1024 * 1024)}]}}
    after_lines = claude_lines("s-big", env.root, [("2026-03-20T10:02:00Z", TODAY[1])])
    for line in after_lines:
        line["uuid"] = "late-" + line["uuid"]
    transcript = write_jsonl(env.tmp / "big.jsonl", [*lines, huge, *after_lines])
    assert transcript.stat().st_size > 50 * 1024 * 1024
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(transcript)))
    assert done.code == 0 and done.out == ""
    after = snapshot(env.store, env.user)
    assert not (before.atoms - after.atoms) and all(n == 1 for n in after.atoms.values())
    texts = [a["text"] for a in env.atom_records()]
    assert TODAY[0] in texts and any("release branch" in t for t in texts)
    assert all(len(a.get("quote", "")) <= 2000 for a in env.atom_records())
    transcript.unlink()


def test_non_utf8_bytes_in_the_transcript_cost_only_their_line(built: tuple[Env, Snapshot]) -> None:
    """A line with bytes that are not UTF-8 is skipped; the turns around it are ingested."""
    env, before = built
    transcript = new_session(env, texts=TODAY)
    lines = transcript.read_bytes().split(b"\n")
    lines.insert(2, b'{"type": "user", "sessionId": "s5-now", "message": {"role": "user", "content": "From now on \xff\xfe\xc3 always x."}}')
    transcript.write_bytes(b"\n".join(lines))
    done = env.hook("session-end", env.payload("session-end", transcript_path=str(transcript)))
    assert done.code == 0 and done.out == ""
    texts = [a["text"] for a in env.atom_records()]
    assert TODAY[0] in texts and any("release branch" in t for t in texts)
    assert_nothing_lost(before, snapshot(env.store, env.user))


def test_an_unusable_user_store_costs_only_l3(built: tuple[Env, Snapshot]) -> None:
    """AGENT_MEMORY_HOME under a plain file: the project's own memory still ingests and recalls."""
    env, before = built
    blocker = env.tmp / "home-is-a-file"
    blocker.write_text("x\n")
    broken_home = {"AGENT_MEMORY_HOME": str(blocker / "agent-memory")}
    done = env.cli("ingest", str(new_session(env, texts=TODAY)), "--json", env=broken_home)
    assert done.code == 0, done.err
    assert json.loads(done.out)["atoms_added"] == 2
    recall = env.hook("user-prompt-submit", env.payload("user-prompt-submit", prompt=PROMPT), env=broken_home)
    assert "push directly to main" in (hook_context(recall.out, "claude", "user-prompt-submit") or "")


BOOKKEEPING = {
    "ingested-state": ("L1/ingested.json", b"{\"truncated\": [1, 2"),
    "contested-keys": ("L1/contested.json", b"\x00\xff not json"),
    "l2-line": ("L2.jsonl", b"{broken line\n"),
    "decisions-line": ("decisions.jsonl", b"[\"not\", \"a\", \"decision\"]\n"),
    "staged-file": ("staged/000000000000.md", b"\xff\xfe no front matter \x00"),
    "registry": ("../agent-memory-home/projects.json", b"{\"projects\": [\"a list\"]}"),
}


@pytest.mark.parametrize("name", [n if n in ("ingested-state", "l2-line", "staged-file") else pytest.param(n, marks=pytest.mark.slow)
                                  for n in sorted(BOOKKEEPING)])
def test_a_corrupt_bookkeeping_file(built: tuple[Env, Snapshot], name: str) -> None:
    """Garbage in one of the store's small files: hooks answer, session-end ingests once, adopted claims stay."""
    env, before = built
    relative, garbage = BOOKKEEPING[name]
    target = env.store / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = "ab" if target.suffix == ".jsonl" else "wb"
    with open(target, mode) as handle:
        handle.write(garbage)
    l2_before = [line for line in (env.store / "L2.jsonl").read_bytes().splitlines(keepends=True) if line.startswith(b'{"')]
    contexts = run_all(env)
    assert "push directly to main" in (contexts["user-prompt-submit"] or "")
    after = snapshot(env.store, env.user)
    assert not (before.atoms - after.atoms) and all(n == 1 for n in after.atoms.values())
    assert len(after.atoms) > len(before.atoms)
    l2_after = [line for line in (env.store / "L2.jsonl").read_bytes().splitlines(keepends=True) if line.startswith(b'{"')]
    assert l2_after == l2_before, "an adopted claim was lost"
    for args in (("inspect", "--tier", "L2", "--json"), ("promote", "--json"), ("adopt", "--all", "--json")):
        done = env.cli(*args)
        no_traceback(done.err)
        if name == "l2-line" and args[0] == "adopt" and done.code:
            # adopting rewrites L2.jsonl, which would drop the broken line: refused in one line, nothing lost
            assert done.code == 1 and "L2.jsonl line" in done.err and len(done.err.splitlines()) == 1, done.err
            assert [line for line in (env.store / "L2.jsonl").read_bytes().splitlines(keepends=True)
                    if line.startswith(b'{"')] == l2_before
            continue
        assert done.code == 0, (args, done.err)
