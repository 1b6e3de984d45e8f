"""Run ``agent-memory`` and SIGKILL it at its Nth write to the test's folder: a crash at an exact point.

How the points are found: an audit hook (``sys.addaudithook``) sees every ``open`` for writing,
``os.replace``/``rename``, ``os.remove``, ``os.truncate`` and ``sqlite3.connect`` under
``$AM_CRASH_ROOT``; SQLite statements that change the index (INSERT, DELETE, COMMIT …) are seen
through a connection factory. Each is one point, counted in order. With ``$AM_CRASH_COUNT_TO`` the
run completes and writes how many points it passed; with ``$AM_CRASH_AT=N`` the process kills
itself with SIGKILL just before point N happens: no cleanup, no ``finally``, no flush, exactly
like a power cut of the process. Trials then walk every N (or a sample), so every write boundary
of a command is hit deterministically, including the middle of an index transaction.
"""

from __future__ import annotations

import atexit
import os
import signal
import sqlite3
import sys
from typing import Any

_ROOT = os.environ.get("AM_CRASH_ROOT", "")
_AT = int(os.environ.get("AM_CRASH_AT", "0") or 0)
_COUNT_TO = os.environ.get("AM_CRASH_COUNT_TO", "")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_SQL_WRITES = ("INSERT", "DELETE", "UPDATE", "COMMIT", "CREATE", "DROP", "BEGIN", "PRAGMA JOURNAL_MODE")
_passed = 0


def _point() -> None:
    global _passed
    _passed += 1
    if _AT and _passed == _AT:
        os.kill(os.getpid(), signal.SIGKILL)


def _mine(path: Any) -> bool:
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    return isinstance(path, str) and bool(_ROOT) and os.path.abspath(path).startswith(_ROOT)


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open":
        path, _mode, flags = args
        if isinstance(flags, int) and flags & _WRITE_FLAGS and _mine(path):
            _point()
    elif event in ("os.rename", "os.remove", "os.truncate", "os.rmdir", "sqlite3.connect"):
        if args and _mine(args[0]):
            _point()


class _Connection(sqlite3.Connection):
    """A connection that counts the statements that change the database."""

    def _check(self, sql: Any) -> None:
        if isinstance(sql, str) and sql.lstrip().upper().startswith(_SQL_WRITES):
            _point()

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._check(sql)
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._check(sql)
        return super().executemany(sql, *args)

    def executescript(self, sql: str) -> sqlite3.Cursor:  # type: ignore[override]
        self._check(sql)
        return super().executescript(sql)


_connect = sqlite3.connect


def _counting_connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
    kwargs.setdefault("factory", _Connection)
    return _connect(*args, **kwargs)


def _report() -> None:
    if _COUNT_TO:
        with open(_COUNT_TO, "w", encoding="utf-8") as handle:
            handle.write(str(_passed))


def main() -> int:
    sqlite3.connect = _counting_connect  # type: ignore[assignment]
    sys.addaudithook(_audit)
    atexit.register(_report)
    from agent_memory.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    code = main()
    _report()
    atexit.unregister(_report)
    sys.exit(code)
