"""The prompt hook's SQLite reader as the installed hook loads it: without functools, with the same statement cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import agent_memory

PACKAGE_PARENT = str(Path(agent_memory.__file__).resolve().parents[1])

# run as the hook runs (-I -S): load the reader, use one connection's statement cache past its size, then functools
_SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
from agent_memory.index import prompt
con = prompt.sqlite3.connect(":memory:", cached_statements=4)
con.execute("CREATE TABLE t(x INTEGER)")
con.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(50)])
totals = [con.execute(f"SELECT sum(x) + {k % 9} FROM t WHERE x >= ?", (k,)).fetchone()[0] for k in range(40)]
print("functools" in sys.modules, "collections" in sys.modules)
print(totals == [sum(range(k, 50)) + k % 9 for k in range(40)])
import functools
print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), callable(functools.partial), hasattr(functools, "__file__"))
"""


def test_the_reader_loads_sqlite_without_functools_and_its_statements_run_as_ever() -> None:
    done = subprocess.run([sys.executable, "-I", "-S", "-c", _SCRIPT, PACKAGE_PARENT], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["False False", "True", "24 True True"]


def test_in_a_process_that_has_functools_the_reader_uses_the_ordinary_module() -> None:
    import functools

    from agent_memory.index import prompt

    assert sys.modules["functools"] is functools
    con = prompt.sqlite3.connect(":memory:")
    assert con.execute("SELECT 1").fetchone() == (1,)
    con.close()
