"""The command lines an agent runs for us, as install writes them: the hook command with this machine's
interpreter, the one a committed file holds (no path of this machine: it finds the launcher, which install
writes, when it runs).
"""

from __future__ import annotations

import os
import shlex
import sys

from .store import Paths, atomic_write

# the launcher a project's committed hooks find at run time (see ``project_hook_command``)
LAUNCHER = "${AGENT_MEMORY_HOME:-$HOME/.agent-memory}/bin/agent-memory"


def hook_command(agent: str, verb: str) -> str:
    """The command an agent runs: this very interpreter and this package's ``run_hook.py``, both absolute.

    ``-I -S``: no site-packages scan, no ``PYTHON*`` variables, no user site; the hook needs
    only the standard library and the script finds the package itself. Independent of PATH
    and cwd.
    """
    from .hooks.worker import worker_script

    return f"{shlex.quote(sys.executable)} -I -S {shlex.quote(worker_script())} {verb} --agent {agent}"


def project_hook_command(agent: str, verb: str) -> str:
    """The command a project's committed settings hold: no path of this machine in it.

    It finds this machine's launcher (``$AGENT_MEMORY_HOME/bin/agent-memory``, which install writes with the
    interpreter and package it ran from) when it runs, and reads it into the same shell, so a hook costs one
    ``sh`` more than the absolute command; a teammate without agent-memory gets a hook that does nothing.
    """
    return f"sh -c 'f=\"{LAUNCHER}\"; [ -r \"$f\" ] || exit 0; . \"$f\"' agent-memory hook {verb} --agent {agent}"


LAUNCHER_MARK = "written by agent-memory install, with this machine's interpreter: install again after moving it"


def launcher_text() -> str:
    """``$AGENT_MEMORY_HOME/bin/agent-memory``: ``hook EVENT …`` runs the hook as the absolute command does, anything
    else the command line. Read into the shell of a committed hook (``. FILE``) or run as a command."""
    from .hooks.worker import worker_script

    python, script = shlex.quote(sys.executable), shlex.quote(worker_script())
    return (f"#!/bin/sh\n# {LAUNCHER_MARK}\n"
            f'if [ "$1" = hook ]; then shift; exec {python} -I -S {script} "$@"; fi\n'
            f'exec {python} -m agent_memory "$@"\n')


def write_launcher(paths: Paths) -> bool:
    """Write this machine's launcher where the committed hooks look for it; True when it changed."""
    path = paths.user / "bin" / "agent-memory"
    wanted = launcher_text()
    try:
        if path.read_text(encoding="utf-8") == wanted:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, wanted)
    os.chmod(path, 0o755)
    return True
