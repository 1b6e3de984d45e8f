"""The prompt hook's SQLite reader: loaded without functools as the installed hook loads it, and ranking as it always has."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import agent_memory
from agent_memory.index import prompt
from agent_memory.index.fts import any_of
from agent_memory.index.prompt import CANDIDATES

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

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
    assert sys.modules["functools"] is functools
    con = prompt.sqlite3.connect(":memory:")
    assert con.execute("SELECT 1").fetchone() == (1,)
    con.close()


# a small index with many keys sharing a few words, of every age, a few redacted: bm25 ties and near-ties abound
_WORDS = ["deploy", "staging", "pytest", "docker", "billing", "lint", "cache", "schema", "worker", "retry"]
_WEIGHT_ALL = (
    "WITH top AS (SELECT rowid, bm25({t}) AS score FROM {t} WHERE {t} MATCH ? ORDER BY score LIMIT "
    f"{CANDIDATES}) SELECT k.key, k.text, k.terms FROM top JOIN keys k ON k.rowid = top.rowid "
    "WHERE k.redacted = 0 ORDER BY top.score * recency(k.last), k.rowid LIMIT ?"
)


@functools.lru_cache(maxsize=1)
def _index() -> "sqlite3.Connection":
    """The index the store's own sync builds from an L1 of such atoms (kept for the whole module)."""
    import random
    import tempfile

    from agent_memory.promote.tiers import open_index
    from agent_memory.store import Paths

    root = Path(tempfile.mkdtemp(prefix="prompt-index-"))
    paths = Paths(store=root / ".memory", user=root / "user", project_root=root)
    paths.l1_dir.mkdir(parents=True)
    pick = random.Random(11)
    with open(paths.atoms, "w", encoding="utf-8") as handle:
        for n in range(600):
            text = "Always " + " ".join(pick.choices(_WORDS, k=pick.randint(1, 6))) + (" 日本語のテスト" if n % 7 == 0 else "")
            day = f"2025-{pick.randint(1, 12):02d}-{pick.randint(1, 28):02d}T10:00:00Z"
            handle.write(json.dumps({"id": f"a{n}", "text": text, "kind": "instruction", "session": f"s{n % 17}",
                                     "timestamp": day, "line": n + 1, "redacted": n % 13 == 0}) + "\n")
    index = open_index(paths)
    assert index.path is not None and index.con.execute("SELECT count(*) FROM keys").fetchone()[0] > 100
    return index.con


@settings(max_examples=300, deadline=None)
@given(terms=st.lists(st.sampled_from(_WORDS + ["日本語", "テスト", "absent"]), min_size=1, max_size=6, unique=True),
       depth=st.sampled_from([1, 5, 40, 80, 300]), half_life=st.sampled_from([0.0, 0.2, 30.0, 4000.0]))
def test_reading_keys_best_first_ranks_as_weighting_every_candidate(terms: list[str], depth: int, half_life: float) -> None:
    con = _index()
    now = prompt.epoch("2026-01-01T00:00:00Z") or 0.0
    con.create_function("recency", 1, prompt.recency(now, half_life), deterministic=True)
    for table in ("keys_words", "keys_tri"):
        expression = any_of(terms)
        expected = [tuple(map(str, row)) for row in con.execute(_WEIGHT_ALL.format(t=table), (expression, depth))]
        assert prompt._ranked(con, table, expression, depth, prompt.recency(now, half_life)) == expected
