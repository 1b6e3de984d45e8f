"""Timing primitives: medians of repeated runs taken together with their baseline, and the machine.

Every figure in the report is a ratio to something measured in the same run, so a slow or
busy machine moves both sides alike. Commands are timed as whole processes (what an agent
waits for); library calls are timed in-process.
"""

from __future__ import annotations

import math
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time
from typing import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence


@dataclass
class Samples:
    """Repeated timings of one thing, in seconds."""

    values: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.values) if self.values else float("nan")

    @property
    def low(self) -> float:
        return min(self.values) if self.values else float("nan")

    @property
    def high(self) -> float:
        return max(self.values) if self.values else float("nan")


@dataclass(frozen=True)
class Command:
    """A process to time: its argv, what it reads on stdin, its environment and folder."""

    argv: Sequence[str]
    stdin: bytes = b""
    env: Mapping[str, str] | None = None
    cwd: str | None = None


@dataclass
class Outcome:
    """One timed process run."""

    seconds: float
    returncode: int
    stdout: bytes
    stderr: bytes
    cpu: float = float("nan")  # user + system seconds of the process (and of any child it waited for)


def run_timed(command: Command, timeout: float = 120.0) -> Outcome:
    """Run a process to completion and time it from spawn to exit."""
    before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        list(command.argv), input=command.stdin, capture_output=True, env=dict(command.env) if command.env else None,
        cwd=command.cwd, timeout=timeout, check=False,
    )
    seconds = time.perf_counter() - started
    return Outcome(seconds, done.returncode, done.stdout, done.stderr, _children_cpu() - before)


def _children_cpu() -> float:
    """CPU seconds of every waited-for child so far (NaN where the platform does not say)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return float("nan")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def interleaved(
    commands: Mapping[str, Command | Callable[[int], Command]],
    reps: int,
    warmup: int = 1,
    after: Callable[[str, Outcome], None] | None = None,
    cpu: dict[str, Samples] | None = None,
) -> dict[str, Samples]:
    """Time each command ``reps`` times, round-robin, so drift hits all of them alike.

    A command may be a function of the run number, 0 to ``warmup + reps - 1`` (a new input each time).
    ``after`` sees every counted outcome (to check output or wait for background work); ``cpu``, when
    given, is filled with each command's CPU seconds beside the wall times returned.
    """
    found = {name: Samples() for name in commands}
    for rep in range(-warmup, reps):
        for name, spec in commands.items():
            command = spec(rep + warmup) if callable(spec) else spec
            outcome = run_timed(command)
            if rep >= 0:
                found[name].values.append(outcome.seconds)
                if cpu is not None:
                    cpu.setdefault(name, Samples()).values.append(outcome.cpu)
            if after is not None:
                after(name, outcome)
    return found


def time_call(func: Callable[[], object]) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    func()
    return time.perf_counter() - started


def interleaved_calls(calls: Mapping[str, Callable[[], object]], reps: int, warmup: int = 0) -> dict[str, Samples]:
    """Time in-process calls ``reps`` times each, round-robin."""
    found = {name: Samples() for name in calls}
    for rep in range(-warmup, reps):
        for name, call in calls.items():
            seconds = time_call(call)
            if rep >= 0:
                found[name].values.append(seconds)
    return found


def loglog_slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of log(y) over log(x): the growth exponent (1.0 is linear)."""
    points = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y > 0]
    if len(points) < 2:
        return float("nan")
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    var = sum((p[0] - mx) ** 2 for p in points)
    if var == 0:
        return float("nan")
    return sum((p[0] - mx) * (p[1] - my) for p in points) / var


def tree_bytes(root: Path, suffix: str = ".jsonl") -> int:
    """Total size of the files under ``root`` ending in ``suffix``."""
    total = 0
    for folder, _dirs, files in os.walk(root):
        total += sum(os.path.getsize(os.path.join(folder, f)) for f in files if f.endswith(suffix))
    return total


def _meminfo_total() -> str:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError):
        pass
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        return f"{pages / 1024 ** 3:.1f} GiB"
    except (ValueError, OSError, AttributeError):
        return "unknown"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_commit(root: Path) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10, check=False)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = done.stdout.strip() or "unknown"
    return commit + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def machine(root: Path) -> dict[str, str]:
    """What the figures were measured on."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "unknown"
    try:
        from agent_memory import __version__
    except ImportError:
        __version__ = "unknown"
    return {
        "cpu": _cpu_model(),
        "cores": f"{usable} usable ({os.cpu_count()} online)",
        "ram": _meminfo_total(),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        "sqlite": sqlite3.sqlite_version,
        "agent-memory": f"{__version__}, commit {_git_commit(root)}",
        "load average at start": load,
    }


@contextmanager
def environ_restored(*names: str) -> Iterator[None]:
    """Put ``names`` in ``os.environ`` back as they were, however the block changed them (a bench run sets its own)."""
    saved = {name: os.environ.get(name) for name in names}
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
