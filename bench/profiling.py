"""Where the time goes: cProfile and ``-X importtime`` summaries for the figures that miss a goal."""

from __future__ import annotations

import cProfile
import os
import pstats
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Callable, Mapping, Sequence

ROOT = Path(__file__).resolve().parents[1]


def _place(filename: str) -> str:
    """A short name for where a function lives: a repository path, a stdlib module, or a builtin."""
    if filename == "~":
        return "builtins"
    if filename.startswith("<"):
        return filename
    try:
        return str(Path(filename).resolve().relative_to(ROOT))
    except ValueError:
        pass
    parts = Path(filename).parts
    for marker in ("site-packages", "lib"):
        if marker in parts:
            i = len(parts) - 1 - list(reversed(parts)).index(marker)
            return "/".join(parts[i + 1:]) or filename
    return filename


def summarize(stats: pstats.Stats, top: int = 8) -> list[str]:
    """Markdown lines: the files and the functions with the largest own time, as shares of the total."""
    raw: Mapping[tuple[str, int, str], tuple[int, int, float, float, object]] = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values()) or 1e-9
    by_file: dict[str, float] = defaultdict(float)
    by_func: list[tuple[float, float, str]] = []
    cumulative: list[tuple[float, str]] = []
    for (filename, line, name), (_cc, _nc, tt, ct, _callers) in raw.items():
        place = _place(filename)
        label = name if filename == "~" else f"{place}:{line} {name}"
        by_file[name if filename == "~" else place] += tt
        by_func.append((tt, ct, label))
        if not filename.startswith(("~", "<")) and str(ROOT) in str(Path(filename).resolve()):
            cumulative.append((ct, label))
    out = [f"Profiled total: {total:.2f} s of own time.", "", "| own time by file (or builtin) | share |", "|---|---|"]
    for place, tt in sorted(by_file.items(), key=lambda kv: -kv[1])[:top]:
        out.append(f"| `{place}` | {tt / total * 100:.1f}% ({tt:.2f} s) |")
    out += ["", "| function (own time) | own | cumulative |", "|---|---|---|"]
    for tt, ct, label in sorted(by_func, reverse=True)[:top]:
        out.append(f"| `{label}` | {tt / total * 100:.1f}% | {ct / total * 100:.1f}% |")
    if cumulative:
        out += ["", "| project function (cumulative) | share |", "|---|---|"]
        for ct, label in sorted(cumulative, reverse=True)[:top]:
            out.append(f"| `{label}` | {ct / total * 100:.1f}% ({ct:.2f} s) |")
    return out


def profile_call(func: Callable[[], object], top: int = 8) -> list[str]:
    """Profile one in-process call."""
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        func()
    except Exception as exc:  # a profile that breaks is a note, not the end of the benchmark
        return [f"(profiling failed: `{type(exc).__name__}: {exc}`)"]
    finally:
        profiler.disable()
    return summarize(pstats.Stats(profiler), top)


def profile_command(argv: Sequence[str], stdin: bytes = b"", env: Mapping[str, str] | None = None,
                    cwd: str | None = None, top: int = 8) -> list[str]:
    """Profile a Python command (``[python, -m, module, ...]`` or ``[python, script, ...]``) run under cProfile."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "profile.out")
        python, flags, rest = _split_flags(argv)
        subprocess.run([python, *flags, "-m", "cProfile", "-o", out, *rest], input=stdin, capture_output=True,
                       env=dict(env) if env else None, cwd=cwd, timeout=600, check=False)
        if not os.path.exists(out):
            return ["(the profiled command left no profile)"]
        return summarize(pstats.Stats(out), top)


def _split_flags(argv: Sequence[str]) -> tuple[str, list[str], list[str]]:
    """``[python, -I, -S, script, ...]`` → the interpreter, its own flags, and the rest."""
    flags = []
    rest = list(argv[1:])
    while rest and rest[0] in ("-I", "-S", "-E", "-s", "-B"):
        flags.append(rest.pop(0))
    return argv[0], flags, rest


_IMPORT_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)(\S+)")


def import_times(argv: Sequence[str], stdin: bytes = b"", env: Mapping[str, str] | None = None,
                 cwd: str | None = None, top: int = 8) -> tuple[float, list[str]]:
    """Seconds spent importing (``-X importtime``) and the heaviest top-level imports as Markdown lines."""
    python, rest = argv[0], list(argv[1:])
    done = subprocess.run([python, "-X", "importtime", *rest], input=stdin, capture_output=True,
                          env=dict(env) if env else None, cwd=cwd, timeout=600, check=False)
    total_us = 0
    top_level: list[tuple[int, str]] = []
    for line in done.stderr.decode("utf-8", "replace").splitlines():
        m = _IMPORT_LINE.match(line)
        if not m:
            continue
        own, cumulative, indent, name = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        total_us += own
        if len(indent) <= 1:
            top_level.append((cumulative, name))
    out = ["| top-level import | cumulative |", "|---|---|"]
    for cumulative, name in sorted(top_level, reverse=True)[:top]:
        out.append(f"| `{name}` | {cumulative / 1000:.1f} ms |")
    return total_us / 1e6, out


def python_of(script: str) -> str:
    """The interpreter a console script runs under (its ``#!`` line), else this one."""
    try:
        with open(script, "rb") as handle:
            first = handle.readline().decode("utf-8", "replace").strip()
    except OSError:
        return sys.executable
    return first[2:].strip().split()[0] if first.startswith("#!") else sys.executable
