"""Which instruction files a block is written into: project files inside the project, agents' user files."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..errors import UsageError
from ..agents import every
from ..store import Paths

class UnsafeTarget(UsageError):
    """An instruction file that would lead a write out of the project."""




@dataclass(frozen=True)
class Target:
    """One instruction file the block is written into."""

    name: str  # as entries record it: path relative to the project root, or the agent's file name (user scope)
    path: Path
    scope: str  # project | user


def project_target(paths: Paths, name: str) -> Target:
    """A project instruction file, relative to the project root (never outside it), and only a repository's: a
    folder in no repository (the home folder, with ``--memory-dir``) is no project, and a CLAUDE.md there would be
    loaded by every project below it."""
    root = paths.project_root
    if not (root / ".git").exists():
        raise UnsafeTarget(f"{root} is in no git repository: a project's rules are adopted only into a repository's "
                           "instruction file (cd into the project)")
    full = Path(os.path.normpath(Path(name) if Path(name).is_absolute() else root / name))
    relative = os.path.relpath(full, root)
    if relative == "." or relative.startswith(".."):
        raise UsageError(f"--target must be a file inside the project ({root}), not {name}")
    real, inside = os.path.realpath(full), os.path.realpath(root)
    if not real.startswith(inside.rstrip(os.sep) + os.sep):
        # a repository can ship CLAUDE.md as a link to ~/.gitconfig, or dangling into ~/.config/autostart
        raise UnsafeTarget(f"{Path(relative).as_posix()} is a symlink out of the project, so nothing is written through it")
    return Target(Path(relative).as_posix(), full, "project")


def user_file_names() -> list[str]:
    """The instruction file names that have a user-level file: each agent's own (CLAUDE.md, AGENTS.md, …)."""
    return [Path(a.instruction_file).name for a in every()]


def user_target(name: str) -> Target | None:
    """The user-level instruction file an agent reads for ``name`` (CLAUDE.md → ~/.claude/CLAUDE.md)."""
    base = Path(name).name
    # the agent whose instruction file has that name (CLAUDE.md → ~/.claude/CLAUDE.md)
    agent = next((a for a in every() if Path(a.instruction_file).name == base), None)
    return Target(base, Path(agent.home()) / base, "user") if agent else None


def by_file(targets: Iterable[Target]) -> list[list[Target]]:
    """Targets grouped by the real file they name (CLAUDE.md is often a symlink to AGENTS.md)."""
    groups: dict[str, list[Target]] = {}
    for target in targets:
        groups.setdefault(os.path.realpath(target.path), []).append(target)
    return [groups[k] for k in sorted(groups)]


def display(target: Target) -> str:
    """How a person reads the target: project-relative, or ``~/…`` for a user file."""
    if target.scope == "project":
        return target.name
    with contextlib.suppress(ValueError):
        return f"~/{target.path.relative_to(Path.home()).as_posix()}"
    return str(target.path)

