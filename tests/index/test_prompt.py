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
    "WITH top AS (SELECT rowid, bm25({t}) AS score FROM {t} WHERE {t} MATCH ? ORDER BY score, rowid LIMIT "
    f"{CANDIDATES}) SELECT k.key, k.text, k.terms FROM top JOIN keys k ON k.rowid = top.rowid "
    "WHERE k.redacted = 0 ORDER BY top.score * recency(k.last), k.rowid LIMIT ?"
)


def _in_query_order(con: "sqlite3.Connection", table: str, terms: list[str]) -> str:
    """The terms as the reader puts them in its query: the rarest first, those no key holds left out."""
    counts = {t: con.execute(f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", (any_of([t]),)).fetchone()[0]
              for t in terms}
    return any_of(sorted((t for t in terms if counts[t]), key=counts.__getitem__)) or any_of(terms)


def _every(con: "sqlite3.Connection", terms: list[str]) -> list[tuple[int, float]]:
    """``(rowid, bm25)`` of every key matching any of ``terms``, best first, ties to the lower rowid."""
    return con.execute("SELECT rowid, bm25(keys_words) AS score FROM keys_words WHERE keys_words MATCH ? "
                       "ORDER BY score, rowid", (_in_query_order(con, "keys_words", terms),)).fetchall()


def _weighted(con: "sqlite3.Connection", table: str, terms: list[str], depth: int, half_life: float) -> list[tuple[str, ...]]:
    """The keys ``_ranked`` must give: the best ``CANDIDATES`` by bm25, then the ``depth`` best by bm25 × recency."""
    now = prompt.epoch("2026-01-01T00:00:00Z") or 0.0
    con.create_function("recency", 1, prompt.recency(now, half_life), deterministic=True)
    expression = _in_query_order(con, table, terms)
    return [tuple(map(str, row)) for row in con.execute(_WEIGHT_ALL.format(t=table), (expression, depth))]


def _ranked(con: "sqlite3.Connection", table: str, terms: list[str], depth: int, half_life: float) -> list[tuple[str, ...]]:
    now = prompt.epoch("2026-01-01T00:00:00Z") or 0.0
    return prompt._ranked(con, table, terms, depth, prompt.recency(now, half_life))


def _index_of(atoms: "list[dict[str, object]]") -> "sqlite3.Connection":
    """The index the store's own sync builds from an L1 of these atoms (its folder removed when the tests end)."""
    import atexit
    import shutil
    import tempfile

    from agent_memory.promote.tiers import open_index
    from agent_memory.store import Paths

    root = Path(tempfile.mkdtemp(prefix="prompt-index-"))
    atexit.register(shutil.rmtree, root, True)
    paths = Paths(store=root / ".memory", user=root / "user", project_root=root)
    paths.l1_dir.mkdir(parents=True)
    with open(paths.atoms, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(atom) + "\n" for atom in atoms)
    index = open_index(paths)
    assert index.path is not None
    return index.con


@functools.lru_cache(maxsize=1)
def _index() -> "sqlite3.Connection":
    """The index the store's own sync builds from an L1 of such atoms (kept for the whole module)."""
    import random

    pick = random.Random(11)
    atoms = []
    for n in range(600):
        text = "Always " + " ".join(pick.choices(_WORDS, k=pick.randint(1, 6))) + (" 日本語のテスト" if n % 7 == 0 else "")
        day = f"2025-{pick.randint(1, 12):02d}-{pick.randint(1, 28):02d}T10:00:00Z"
        atoms.append({"id": f"a{n}", "text": text, "kind": "instruction", "session": f"s{n % 17}", "timestamp": day,
                      "line": n + 1, "redacted": n % 13 == 0})
    con = _index_of(atoms)
    assert con.execute("SELECT count(*) FROM keys").fetchone()[0] > 100
    return con


@settings(max_examples=300, deadline=None)
@given(terms=st.lists(st.sampled_from(_WORDS + ["日本語", "テスト", "absent"]), min_size=1, max_size=6, unique=True),
       depth=st.sampled_from([1, 5, 40, 80, 300]), half_life=st.sampled_from([0.0, 0.2, 30.0, 4000.0]))
def test_reading_keys_best_first_ranks_as_weighting_every_candidate(terms: list[str], depth: int, half_life: float) -> None:
    con = _index()
    for table in ("keys_words", "keys_tri"):
        assert _ranked(con, table, terms, depth, half_life) == _weighted(con, table, terms, depth, half_life)


# keys where two words are in more than a tenth of them and the rest are rarer: prompts with both kinds are what
# the reader ranks without scanning the common words' rows
_COMMON = ["change", "test"]
_RARE = [f"{a}{b}" for a in ("alpha", "bravo", "delta", "gamma", "kilo", "lima", "oscar", "sierra") for b in ("x", "yz", "q")]
_MID = ["harbor", "lantern", "meadow", "quartz", "timber"]  # each in one key of twenty: frequent, not common
_FEW = [f"few{k}" for k in range(12)]  # each in a few keys


@functools.lru_cache(maxsize=1)
def _common_index() -> "sqlite3.Connection":
    import random

    pick, few = random.Random(5), random.Random(7)
    atoms = []
    for n in range(4000):
        words = [w for w, p in (("change", 0.6), ("test", 0.12)) if pick.random() < p]
        if "test" in words and pick.random() < 0.3:
            # short keys saying a common word again and again: they score higher on it than a long key
            # scores on a word in one key of twenty, so they belong among the best
            words = ["test"] * pick.randint(5, 8) + [f"w{n}"]
        else:
            words += pick.sample(_RARE, pick.choice([0, 0, 1, 1, 2]))
            words += [w for w in _MID if pick.random() < 0.05]
            words += [f"w{pick.randint(0, 99999)}" for _ in range(pick.randint(1, 9))]  # keeps the keys apart
        pick.shuffle(words)
        if few.random() < 0.012:  # said with one of the frequent words
            words += [few.choice(_FEW), few.choice(_MID[:3])]
        atoms.append({"id": f"c{n}", "text": "Always " + " ".join(words), "kind": "instruction", "session": f"s{n % 31}",
                      "timestamp": f"2025-03-{n % 28 + 1:02d}T10:00:00Z", "line": n + 1, "redacted": n % 11 == 0})
    return _index_of(atoms)


@settings(max_examples=200, deadline=None)
@given(terms=st.lists(st.sampled_from(_COMMON + _MID + _RARE + _FEW + ["absent"]), min_size=1, max_size=8, unique=True),
       depth=st.sampled_from([1, 5, 40]))
def test_candidates_are_the_best_of_every_match_whichever_way_they_are_found(terms: list[str], depth: int) -> None:
    con = _common_index()
    every = _every(con, terms)
    scores = dict(every)
    found, bound = prompt.candidates(con, "keys_words", prompt.counted(con, "keys_words", terms), depth)
    assert all(scores[rowid] == score for rowid, score in found)  # the same score, to the bit
    assert found == sorted(found, key=lambda row: (row[1], row[0]))
    # below the bound, the same rows in the same order: a row left out scores no better than -bound
    assert [r for r in found if r[1] < -bound] == [r for r in every[:CANDIDATES] if r[1] < -bound]
    if not bound:
        assert found == every[:CANDIDATES]
    for half_life in (0.2, 30.0):
        assert _ranked(con, "keys_words", terms, depth, half_life) == _weighted(con, "keys_words", terms, depth, half_life)


def _statements(con: "sqlite3.Connection", terms: list[str], depth: int) -> tuple[list[str], list[tuple[str, ...]]]:
    """The statements ``_ranked`` runs for ``terms``, and what it ranks."""
    statements: list[str] = []
    con.set_trace_callback(statements.append)
    try:
        ranked = _ranked(con, "keys_words", terms, depth, 30.0)
    finally:
        con.set_trace_callback(None)
    return [s for s in statements if not s.startswith("--")], ranked  # (not FTS5's own)


def test_with_a_common_word_the_candidates_are_found_without_ranking_every_match() -> None:
    con = _common_index()
    terms = ["change", *_RARE[:6]]
    statements, ranked = _statements(con, terms, 40)
    assert not any("ORDER BY score" in s for s in statements)  # the split answered
    assert ranked == _weighted(con, "keys_words", terms, 40, 30.0)


def test_with_a_few_frequent_words_the_rows_holding_more_of_them_are_scored_whole() -> None:
    con = _common_index()
    terms = [*_MID[:3], *_FEW]
    statements, ranked = _statements(con, terms, 5)
    assert not any("ORDER BY score" in s for s in statements)  # the split answered
    pairs = [s for s in statements if "MATCH" in s and " AND " in s and "(" not in s.split("MATCH", 1)[1]]
    assert len(pairs) == 4  # each set of two or three of _MID, ANDed
    assert ranked == _weighted(con, "keys_words", terms, 5, 30.0)
    # where the rare rows cannot beat the bound, every match is ranked, and the keys are the same
    statements, ranked = _statements(con, [*_MID[:3], _FEW[0]], 5)
    assert ranked == _weighted(con, "keys_words", [*_MID[:3], _FEW[0]], 5, 30.0)


def test_keys_holding_only_common_words_still_rank_where_they_score_better() -> None:
    con = _common_index()
    # a word of one key outweighs what "change" and "test" could add; each of _MID is in one key of twenty; "test" is
    # said again and again in short keys
    once = next(w for (text,) in con.execute("SELECT text FROM keys WHERE text NOT LIKE '%test%' ORDER BY rowid")
                for w in text.split() if w.startswith("w"))
    terms = ["change", "test", once, *_MID[:3]]
    every = _every(con, terms)[:CANDIDATES]
    rare = {r for (r,) in con.execute("SELECT rowid FROM keys_words WHERE keys_words MATCH ?", (any_of([once, *_MID[:3]]),))}
    assert len(rare) >= 2 * CANDIDATES and any(rowid not in rare for rowid, _score in every)
    for depth in (5, 40, 300):
        assert _ranked(con, "keys_words", terms, depth, 30.0) == _weighted(con, "keys_words", terms, depth, 30.0)
