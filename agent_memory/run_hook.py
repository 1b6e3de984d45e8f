"""The hook as agents run it: ``python -I -S <this file> EVENT --agent A``.

Run as a script, with neither ``site`` nor the environment, the interpreter starts in a
fraction of the time ``-m`` with site-packages takes; this file puts the folder that holds
the package on ``sys.path`` itself, so it works wherever the package was installed.
``worker JOB`` runs the detached session-end worker the same way, and ``cli ARGS`` the command
line (the Claude Code plugin's /cs-memory runs it so, with no ``agent-memory`` on PATH).
"""

import os
import sys


def _package_parent() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    # run as a script without -I, Python puts this file's own folder first: its modules
    # (a module named like one of the standard library's) must never shadow it
    if sys.path and sys.path[0] and os.path.abspath(sys.path[0]) == here:
        del sys.path[0]
    return os.path.dirname(here)


if __name__ == "__main__":
    sys.path.insert(0, _package_parent())
    # each form loads only its own code: a hook never pays for the worker's or the CLI's imports
    if sys.argv[1:2] == ["cli"]:
        from agent_memory.cli import main

        sys.exit(main(sys.argv[2:]))
    if sys.argv[1:2] == ["worker"]:
        from agent_memory.hooks import worker

        sys.exit(worker.worker_main(sys.argv[2:]))
    import gc

    # a hook lives for tens of milliseconds and makes few cycles: the collector's passes over
    # every object the imports made would find nothing worth freeing
    gc.disable()
    from agent_memory.hooks import entry

    code = entry.main(sys.argv[1:])
    # A hook has said all it will and closed what it wrote: the interpreter's teardown (every module's
    # dict, the SQLite module's state) would only cost the waiting agent a few milliseconds more.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
