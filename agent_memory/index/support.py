"""Whether this Python's SQLite can hold the index: checked before every command, so it imports little."""

from __future__ import annotations

import sqlite3

from ..errors import SqliteTooOld


def check_sqlite() -> None:
    """Raise SqliteTooOld unless this SQLite has FTS5 with the trigram tokenizer."""
    if sqlite3.sqlite_version_info < (3, 34, 0):
        raise SqliteTooOld(
            f"SQLite {sqlite3.sqlite_version} is too old: FTS5's trigram tokenizer needs 3.34+; "
            "use a Python built against a newer SQLite (e.g. python.org or a current distribution build)"
        )
    try:
        con = sqlite3.connect(":memory:")
        con.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
        con.close()
    except sqlite3.Error as exc:
        raise SqliteTooOld(f"this SQLite ({sqlite3.sqlite_version}) lacks FTS5 with trigram: {exc}") from exc
