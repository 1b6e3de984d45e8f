"""SIGKILL in the middle of ingest, promote --write and adopt: the store stays readable and the next run ends exact.

How crash points are chosen (see ``crashpoint.py``): a clean run of the command counts its write
points (every open for writing, rename, remove under the test folder, every statement that changes
the index); trial N kills the process just before point N. The default run tries a few points spread
over each command; the slow set tries every point, plus kills after random delays drawn from the
command's measured duration (which can land inside a write). After each crash:

* the store is readable (L1, the dry-run plan, search, ``inspect`` all answer);
* an instruction file is the old bytes or the new bytes, never anything else, and once it changed a
  backup of the old bytes exists;
* running the same command again ends with exactly the clean run's files: L1 atoms and chunks
  (each once), L2, staged proposals, decisions and CLAUDE.md.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from .support import Env, Snapshot, build_store, later_transcripts, make_env, no_traceback, snapshot, whole_records

DEFAULT_POINTS = 4
SLOW_RANDOM_TRIALS = 8


@dataclass(frozen=True)
class Outcome:
    """The files a user cares about after a command."""

    memory: Snapshot
    claude_md: bytes
    contested: bytes | None

    @classmethod
    def of(cls, env: Env) -> "Outcome":
        contested = env.store / "L1" / "contested.json"
        return cls(snapshot(env.store, env.user), (env.root / "CLAUDE.md").read_bytes(),
                   contested.read_bytes() if contested.is_file() else None)


@dataclass
class Scenario:
    """A store in a known state (saved once), the command to crash, and the clean run's outcome."""

    env: Env
    saved: Path
    args: tuple[str, ...]
    before: Outcome
    clean: Outcome
    points: int
    seconds: float

    def restore(self) -> None:
        shutil.rmtree(self.env.tmp)
        shutil.copytree(self.saved, self.env.tmp, symlinks=True)


def _prepare(env: Env, name: str) -> tuple[Env, tuple[str, ...]]:
    """The store each command starts from, and the command: ingest three later sessions, stage, or adopt."""
    build_store(env)
    later = [str(p) for p in later_transcripts(env)]
    if name == "ingest":
        return env, ("ingest", *later, "--json")
    done = env.cli("ingest", *later, "--json")
    assert done.code == 0, done.err
    if name == "promote":
        return env, ("promote", "--write", "--json")
    done = env.cli("promote", "--write", "--json")
    # three proposals, and the later "Never run the linter" staged as the replacement of the adopted rule
    assert done.code == 0 and len(list((env.store / "staged").glob("*.md"))) == 4, done.err
    return env, ("adopt", "--all", "--json")


_SCENARIOS: dict[str, Scenario] = {}


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Scenario]:
    """Build each command's scenario once per module; trials restore it byte for byte (same paths, same mtimes)."""

    def get(name: str) -> Scenario:
        if name in _SCENARIOS:
            return _SCENARIOS[name]
        base = tmp_path_factory.mktemp(f"crash-{name}")
        with pytest.MonkeyPatch.context() as patch:
            env, args = _prepare_in(base, name, patch)
        saved = base / "saved"
        shutil.copytree(env.tmp, saved, symlinks=True)
        before = Outcome.of(env)
        counter = base / "points"
        started = time.monotonic()
        done = env.cli(*args, count_to=counter)
        seconds = time.monotonic() - started
        assert done.code == 0, done.err
        clean = Outcome.of(env)
        assert clean != before, "the command changed nothing: no crash could matter"
        scenario = Scenario(env, saved, args, before, clean, int(counter.read_text()), seconds)
        scenario.restore()
        _SCENARIOS[name] = scenario
        return scenario

    return get


def _prepare_in(base: Path, name: str, patch: pytest.MonkeyPatch) -> tuple[Env, tuple[str, ...]]:
    work = make_env(base / "work")
    patch.setenv("HOME", str(work.home))
    patch.setenv("AGENT_MEMORY_HOME", str(work.user))
    patch.setenv("AGENT_MEMORY_NOW", "2026-03-20T12:00:00Z")
    patch.delenv("AGENT_MEMORY_DIR", raising=False)
    return _prepare(work, name)


# ---------------------------------------------------------------- what must hold after a crash


def assert_readable(env: Env) -> None:
    """Everything a user runs next still answers: the L1 listing, the dry-run plan, search."""
    for args in (("inspect", "--tier", "L1", "--json"), ("promote", "--json"), ("search", "linter", "--json")):
        done = env.cli(*args)
        assert done.code == 0, (args, done.err)
        no_traceback(done.err)
        json.loads(done.out)


def assert_instruction_file_whole(scenario: Scenario) -> None:
    """CLAUDE.md is the old or the new version; once it is the new one, the old one is in a backup."""
    env = scenario.env
    now = (env.root / "CLAUDE.md").read_bytes()
    assert now in (scenario.before.claude_md, scenario.clean.claude_md), "CLAUDE.md is neither the old nor the new version"
    if now != scenario.before.claude_md:
        copies = [p.read_bytes() for p in (env.store / "backups").glob("*/files/*CLAUDE.md")]
        assert scenario.before.claude_md in copies, "CLAUDE.md changed without a backup of the old version"
    l2 = env.store / "L2.jsonl"
    assert (l2.read_bytes() if l2.exists() else None) in (scenario.before.memory.l2, scenario.clean.memory.l2)


def assert_no_duplicates(env: Env) -> None:
    for name in ("atoms", "chunks"):
        ids = [str(r.get("id")) for r in whole_records(env.store / "L1" / f"{name}.jsonl")]
        assert len(ids) == len(set(ids)), f"{name} written twice"


def assert_recovers(scenario: Scenario) -> None:
    """Running the command again ends exactly where the clean run ended."""
    done = scenario.env.cli(*scenario.args)
    assert done.code == 0, done.err
    no_traceback(done.err)
    got = Outcome.of(scenario.env)
    assert got.memory.atoms == scenario.clean.memory.atoms
    assert got.memory.chunks == scenario.clean.memory.chunks
    assert got.memory.l2 == scenario.clean.memory.l2, "L2 differs from a clean run"
    assert got.memory.staged == scenario.clean.memory.staged, (sorted(got.memory.staged), sorted(scenario.clean.memory.staged))
    assert got.memory.decisions == scenario.clean.memory.decisions
    assert got.claude_md == scenario.clean.claude_md, "CLAUDE.md differs from a clean run"
    assert got.contested == scenario.clean.contested


def crash_and_recover(scenario: Scenario, at: int) -> None:
    scenario.restore()
    done = scenario.env.cli(*scenario.args, crash_at=at)
    assert done.code == -signal.SIGKILL, f"point {at} of {scenario.points} was not reached: {done.err}"
    check_after_crash(scenario)


def check_after_crash(scenario: Scenario) -> None:
    assert_instruction_file_whole(scenario)
    assert_no_duplicates(scenario.env)
    assert_readable(scenario.env)
    assert_recovers(scenario)


# ---------------------------------------------------------------- the trials

COMMANDS = ("ingest", "promote", "adopt")


def _spread(total: int, count: int) -> list[int]:
    return sorted({max(1, round(total * (k + 1) / (count + 1))) for k in range(count)})


@pytest.mark.parametrize("name", COMMANDS)
def test_a_crash_at_a_few_write_points(scenarios: Callable[[str], Scenario], name: str) -> None:
    """A kill at points spread over the command: readable store, whole files, exact recovery."""
    scenario = scenarios(name)
    for at in _spread(scenario.points, DEFAULT_POINTS):
        crash_and_recover(scenario, at)


@pytest.mark.slow
@pytest.mark.parametrize("name", COMMANDS)
def test_a_crash_at_every_write_point(scenarios: Callable[[str], Scenario], name: str) -> None:
    """A kill just before each write point in turn (every open, rename, remove, index statement)."""
    scenario = scenarios(name)
    for at in range(1, scenario.points + 1):
        crash_and_recover(scenario, at)


@pytest.mark.slow
@pytest.mark.parametrize("name", COMMANDS)
def test_a_crash_after_a_random_delay(scenarios: Callable[[str], Scenario], name: str) -> None:
    """A kill after a random delay within the command's measured duration: it may land inside a write."""
    scenario = scenarios(name)
    rng = random.Random(f"crash-{name}")
    for _trial in range(SLOW_RANDOM_TRIALS):
        scenario.restore()
        env = scenario.env
        process = subprocess.Popen(env.cli_command(*scenario.args), cwd=env.root, env=env.vars(),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            process.wait(timeout=rng.uniform(0.2, 1.0) * scenario.seconds)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        check_after_crash(scenario)


def crash_and_roll_back(scenario: Scenario, at: int) -> None:
    """After a crash that had begun changing files, rollback brings back exactly the files before it."""
    scenario.restore()
    done = scenario.env.cli(*scenario.args, crash_at=at)
    assert done.code == -signal.SIGKILL
    crashed = Outcome.of(scenario.env)
    changed = (crashed.claude_md, crashed.memory.l2, crashed.memory.staged) != (
        scenario.before.claude_md, scenario.before.memory.l2, scenario.before.memory.staged)
    if not changed:
        return  # nothing of this adopt happened: a rollback would undo the adopt before it, as it should
    undo = scenario.env.cli("rollback", "--json")
    assert undo.code == 0, undo.err
    got = Outcome.of(scenario.env)
    assert got.claude_md == scenario.before.claude_md
    assert got.memory.l2 == scenario.before.memory.l2
    assert got.memory.staged == scenario.before.memory.staged
    assert got.memory.decisions == scenario.before.memory.decisions


def test_rollback_after_a_crashed_adopt(scenarios: Callable[[str], Scenario]) -> None:
    """A person who answers a crashed adopt with rollback gets the files from before it back."""
    scenario = scenarios("adopt")
    for at in (scenario.points - 2, scenario.points):  # the last writes: files are changing by then
        crash_and_roll_back(scenario, at)


@pytest.mark.slow
def test_rollback_after_a_crash_at_every_point_of_adopt(scenarios: Callable[[str], Scenario]) -> None:
    """The same, at every write point of adopt."""
    scenario = scenarios("adopt")
    for at in range(1, scenario.points + 1):
        crash_and_roll_back(scenario, at)
