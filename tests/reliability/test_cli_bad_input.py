"""Bad input to every command: one clear line on stderr and the contract's exit code, never a traceback.

Exit codes: 2 usage (arguments argparse refuses), 1 user error (a missing file, a broken store or
config), 3 not found or ambiguous (ids, ``--why`` text). A command that succeeds prints only its
answer (one JSON document with ``--json``) and nothing on stderr.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .support import Env, Proc, build_store, new_session

USAGE, USER, NOT_FOUND = 2, 1, 3
MISSING = "/nonexistent/agent-memory/transcript.jsonl"

# (arguments, exit code, a word the one line on stderr must hold)
NONSENSE: list[tuple[tuple[str, ...], int, str]] = [
    ((), USAGE, "command"),
    (("bogus",), USAGE, "invalid choice"),
    (("--memory-dir",), USAGE, "expected one argument"),
    (("--json",), USAGE, "unrecognized"),
    (("ingest",), USER, "no session"),  # no path: this project's sessions in the agents' folders, of which there are none
    (("ingest", "--agent", "bogus", "x.jsonl"), USAGE, "--agent"),
    (("ingest", "x.jsonl", "--project"), USAGE, "--project"),
    (("ingest", MISSING), USER, "no such file"),
    (("ingest", MISSING, "--json"), USER, "no such file"),
    (("ingest", "/dev/null"), USER, "/dev/null"),
    (("ingest", "/dev/null", "--json"), USER, "/dev/null"),
    (("promote", "--bogus"), USAGE, "promote --help"),
    (("promote", "--write", "extra"), USAGE, "unrecognized"),
    (("inspect",), USAGE, "required"),
    (("inspect", "--tier", "L9"), USAGE, "--tier"),
    (("inspect", "--tier", "L1", "--why", "x"), USAGE, "not allowed"),
    (("inspect", "--why", "purple elephants dancing", "--json"), NOT_FOUND, "no claim"),
    (("inspect", "--why", "zzzzzzzz"), NOT_FOUND, "no claim"),
    (("inspect", "--why", ""), NOT_FOUND, "--why"),
    (("inspect", "--why", "   ", "--json"), NOT_FOUND, "--why"),
    (("adopt",), USAGE, "--all"),
    (("adopt", "--all", "abcdef"), USAGE, "not both"),
    (("adopt", "zzzzzz", "--json"), NOT_FOUND, "zzzzzz"),
    (("adopt", "abc"), NOT_FOUND, "6 characters"),
    (("adopt", "--target"), USAGE, "--target"),
    (("adopt", "--all", "--target", "../outside.md"), USER, "inside the project"),
    (("reject",), USAGE, "required"),
    (("reject", "zzzzzz"), NOT_FOUND, "zzzzzz"),
    (("verify",), USAGE, "required"),
    (("verify", "one", "two"), USAGE, "unrecognized"),
    (("verify", "zzzzzz", "--json"), NOT_FOUND, "zzzzzz"),
    (("resolve", "x"), USAGE, "--keep"),
    (("resolve", "zzzzzz", "--keep", "yyyyyy"), NOT_FOUND, "zzzzzz"),
    (("rollback", "extra"), USAGE, "rollback --help"),
    (("search",), USAGE, "required"),
    (("search", "x", "-n", "abc"), USAGE, "-n"),
    (("search", "x", "-n", "0"), USAGE, "-n"),
    (("search", "x", "-n", "-5"), USAGE, "-n"),
    (("reindex", "--bogus"), USAGE, "reindex --help"),
    (("install", "--agent", "bogus"), USAGE, "--agent"),
    (("install", "--scope", "galaxy"), USAGE, "--scope"),
    (("uninstall", "--bogus"), USAGE, "uninstall --help"),
    (("demo", "--bogus"), USAGE, "demo --help"),
]


def assert_one_line(done: Proc, code: int, word: str = "") -> None:
    """The exit code, nothing on stdout, one line on stderr that says what is wrong."""
    assert done.code == code, (done.args, done.code, done.err)
    assert done.out == "", done.out
    assert "Traceback" not in done.err, done.err
    lines = done.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("agent-memory: "), done.err
    assert word.lower() in lines[0].lower(), lines[0]


@pytest.mark.parametrize("flags", [(), ("--json",), ("--workers", "0")])
def test_ingest_of_files_that_hold_no_transcript_fails_with_one_line(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """A file that is not a transcript, given on its own, ingests nothing: exit 1, not a silent 0."""
    from .support import make_env

    env = make_env(tmp_path)
    notes = env.root / "notes.txt"
    notes.write_text("remember to always run make lint\n", encoding="utf-8")
    assert_one_line(env.cli("ingest", str(notes), *flags), USER, "notes.txt")


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Env:
    """A store with something in every tier, built once: these commands must not change it."""
    from .support import make_env

    env = make_env(tmp_path_factory.mktemp("cli"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(env.home))
        patch.setenv("AGENT_MEMORY_HOME", str(env.user))
        patch.setenv("AGENT_MEMORY_NOW", "2026-03-20T12:00:00Z")
        patch.delenv("AGENT_MEMORY_DIR", raising=False)
        build_store(env)
    return env


@pytest.mark.parametrize(("args", "code", "word"), NONSENSE, ids=[" ".join(a) or "nothing" for a, _c, _w in NONSENSE])
def test_nonsense_arguments(healthy: Env, args: tuple[str, ...], code: int, word: str) -> None:
    """Each command given nonsense: the contract's exit code and one line saying what is wrong."""
    before = {p: p.read_bytes() for p in healthy.store.rglob("*") if p.is_file() and "index.db" not in p.name and p.parent.name != "logs"}
    assert_one_line(healthy.cli(*args), code, word)
    after = {p: p.read_bytes() for p in healthy.store.rglob("*") if p.is_file() and "index.db" not in p.name and p.parent.name != "logs"}
    assert after == before, "a refused command changed the store"


# ---------------------------------------------------------------- missing and broken stores

COMMANDS: list[tuple[str, ...]] = [
    ("ingest", "{transcript}", "--json"),
    ("promote", "--json"),
    ("promote", "--write", "--json"),
    ("inspect", "--tier", "L1", "--json"),
    ("inspect", "--why", "linter", "--json"),
    ("inspect", "--contested", "--json"),
    ("adopt", "--all", "--json"),
    ("reject", "abcdef", "--json"),
    ("verify", "abcdef", "--json"),
    ("resolve", "abcdef", "--keep", "abcdeg", "--json"),
    ("rollback", "--json"),
    ("search", "linter", "--json"),
    ("reindex", "--json"),
]
CMD_IDS = [" ".join(c[:2]).replace("{transcript}", "T") for c in COMMANDS]


def _run(env: Env, store: Path, command: tuple[str, ...]) -> Proc:
    transcript = new_session(env)
    args = [a.replace("{transcript}", str(transcript)) for a in command]
    return env.cli("--memory-dir", str(store), *args)


def _answer_or_one_line(done: Proc) -> None:
    """Either a clean answer (one JSON document, quiet stderr) or one line and exit 1 or 3."""
    assert "Traceback" not in done.err, done.err
    if done.code == 0:
        json.loads(done.out)
        assert done.err == "", done.err
    else:
        assert done.code in (USER, NOT_FOUND), (done.code, done.err)
        assert_one_line(done, done.code)


@pytest.mark.parametrize("command", COMMANDS, ids=CMD_IDS)
def test_a_missing_store(env: Env, command: tuple[str, ...]) -> None:
    """No store yet: reading commands answer with nothing (and create nothing), ids are not found."""
    store = env.tmp / "no-store-here"
    done = _run(env, store, command)
    _answer_or_one_line(done)
    if command[0] in ("reject", "verify", "resolve"):
        assert done.code == NOT_FOUND
    elif command[0] in ("inspect",) and "--why" in command:
        assert done.code == NOT_FOUND
    else:
        assert done.code == 0
    if command[0] in ("inspect", "search") or command == ("promote", "--json"):
        assert not store.exists(), f"{command[0]} created a store just to read it"


BROKEN = ("store-is-a-file", "store-under-a-file", "l1-is-a-file", "atoms-is-a-folder", "config-is-a-folder")


def _break(env: Env, how: str) -> Path:
    if how == "store-is-a-file":
        target = env.tmp / "store-file"
        target.write_text("not a store\n")
        return target
    if how == "store-under-a-file":
        (env.tmp / "plain-file").write_text("x\n")
        return env.tmp / "plain-file" / "store"
    store = env.tmp / "broken-store"
    (store / "L1").mkdir(parents=True)
    if how == "l1-is-a-file":
        shutil.rmtree(store / "L1")
        (store / "L1").write_text("x\n")
    elif how == "atoms-is-a-folder":
        (store / "L1" / "atoms.jsonl").mkdir()
    else:
        (store / "config.yaml").mkdir()
    return store


def _rotating(first: list[str], second: list[tuple[str, ...]], ids: list[str]) -> list[object]:
    """Every pair; the default run keeps one pair per item of ``second`` (the slow set runs them all)."""
    return [
        pytest.param(a, b, marks=() if n % len(first) == k % len(first) else pytest.mark.slow, id=f"{a}-{i}")
        for n, (b, i) in enumerate(zip(second, ids))
        for k, a in enumerate(first)
    ]


@pytest.mark.parametrize(("how", "command"), _rotating(list(BROKEN), COMMANDS, CMD_IDS))
def test_a_store_that_cannot_be_read(env: Env, how: str, command: tuple[str, ...]) -> None:
    """A store that is a file, under a file, or holds a folder where a file belongs: one line, never a traceback."""
    store = _break(env, how)
    done = _run(env, store, command)
    _answer_or_one_line(done)
    writes_l1 = command[0] == "ingest" or command[:2] == ("promote", "--write")
    if writes_l1 and how != "config-is-a-folder":  # ingest never reads the config
        assert done.code == USER, "a write into a broken store reported success"


CONFIGS: dict[str, str | bytes] = {
    "not-yaml": "gates: [unclosed\n",
    "binary": b"\xff\xfe\x00\x01binary",
    "tab-indented": "gates:\n\tl2:\n\t\tsessions: 1\n",
    "negative-gate": "gates:\n  l2:\n    sessions: -1\n",
    "nan": "identity:\n  merge_similarity: .nan\n",
    "similarity-above-one": "identity:\n  merge_similarity: 7\n",
    "list-at-the-top": "- gates\n- budgets\n",
    "targets-a-number": "targets: 5\n",
    "text-for-a-number": "recall:\n  half_life_days: soon\n",
    "python-tag": "budgets: !!python/object/apply:os.system [\"echo pwned\"]\n",
}
READS_CONFIG = [c for c in COMMANDS if c[0] not in ("ingest", "rollback", "reindex")]


@pytest.mark.parametrize(("config", "command"), _rotating(sorted(CONFIGS), READS_CONFIG, [" ".join(c[:2]) for c in READS_CONFIG]))
def test_a_corrupt_config(env: Env, config: str, command: tuple[str, ...]) -> None:
    """A config.yaml that is broken or breaks the rules: exit 1 and one line naming the file."""
    env.store.mkdir(parents=True, exist_ok=True)
    body = CONFIGS[config]
    (env.store / "config.yaml").write_bytes(body if isinstance(body, bytes) else body.encode())
    done = _run(env, env.store, command)
    assert_one_line(done, USER, "config.yaml")


def test_a_config_the_extra_understands_is_not_refused(env: Env) -> None:
    """recall may hold the semantic extra's switches: the core does not refuse them."""
    env.store.mkdir(parents=True, exist_ok=True)
    (env.store / "config.yaml").write_text("recall:\n  semantic: false\n  half_life_days: 10\n", encoding="utf-8")
    done = env.cli("promote", "--json")
    assert done.code == 0 and done.err == "", done.err


def _ro_tools() -> bool:
    import os

    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /tmp /tmp && mount -o remount,ro,bind /tmp"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _ro_tools(), reason="needs root, unshare and a read-only bind mount")
@pytest.mark.parametrize("command", COMMANDS, ids=CMD_IDS)
def test_a_read_only_store(env: Env, command: tuple[str, ...]) -> None:
    """A store on a read-only mount: readers answer, writers say so in one line; none shows a traceback."""
    build_store(env)
    transcript = new_session(env)
    args = " ".join(f"'{a.replace('{transcript}', str(transcript))}'" for a in command)
    cli = " ".join(f"'{p}'" for p in env.cli_command())
    script = f"mount --bind '{env.store}' '{env.store}' && mount -o remount,ro,bind '{env.store}' && exec {cli} {args}"
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script], cwd=env.root,
                          env=env.vars(), capture_output=True, timeout=120)
    result = Proc([script], done.returncode, done.stdout.decode(), done.stderr.decode())
    _answer_or_one_line(result)
    if command[0] in ("ingest", "adopt") or command[:2] == ("promote", "--write"):
        assert result.code == USER, result


DEEP_LINE = b"[" * 100_000 + b"]" * 100_000 + b"\n"  # valid JSON nested deeper than the parser recurses


@pytest.mark.parametrize("command", [c for c in COMMANDS if c[0] in ("promote", "inspect", "search", "reindex")],
                         ids=[i for c, i in zip(COMMANDS, CMD_IDS) if c[0] in ("promote", "inspect", "search", "reindex")])
def test_an_l1_line_nested_too_deep_is_passed_over(env: Env, command: tuple[str, ...]) -> None:
    """A line of L1 nested deeper than any reader recurses is passed over like any other line that holds no record:
    the command answers, and the line stays where it was."""
    build_store(env)
    for name in ("atoms.jsonl", "chunks.jsonl"):
        with open(env.store / "L1" / name, "ab") as handle:
            handle.write(DEEP_LINE)
    for stale in ("index.db", "L1/claims.db"):  # both read L1 again from its first line
        (env.store / stale).unlink(missing_ok=True)
    done = _run(env, env.store, command)
    _answer_or_one_line(done)
    assert done.code in (0, NOT_FOUND), done.err
    assert (env.store / "L1" / "atoms.jsonl").read_bytes().endswith(DEEP_LINE)
