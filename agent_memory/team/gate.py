"""The team gate: ``promote.sql.evidence_sql()`` — the statement a person's gates run — over many people's exports.

Three engines run the very same text over the same files: SQLite (standard library, the default when no extra
is installed), DuckDB (the ``[team]`` extra) and Apache Spark in local mode (the ``[spark]`` extra). Each one
loads the exports as the flat row table, keeps this repository's rows, runs the statement and a second
portable query for the wordings of the claims that pass, so all three give the same answer.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Iterable

from ..errors import AgentMemoryError
from ..promote.sql import evidence_sql
from .export import EXPORT_COLUMNS, MissingExtra, need_duckdb

ENGINES = ("sqlite", "duckdb", "spark")
EVIDENCE_COLUMNS = ("claim", "observations", "people", "sessions", "days", "projects", "first_day", "last_day",
                    "stated", "redacted", "contested", "path")
_INTS = {name for name, (kind, _m) in EXPORT_COLUMNS.items() if kind == "INTEGER"}
_WORDINGS = """
SELECT r.claim AS claim, r.text AS text, r.kind AS kind, COUNT(*) AS n, MIN(r.ts) AS first
FROM team_rows r JOIN evidence e ON r.claim = e.claim
WHERE e.path <> ''
GROUP BY r.claim, r.text, r.kind
"""
# a row a reader could not type (a missing or wrong-typed value): the whole gate is refused, nothing is guessed
_BAD = (" OR ".join(f"{name} IS NULL" for name in EXPORT_COLUMNS)
        + " OR " + " OR ".join(f"{name} NOT IN (0, 1)" for name in ("stated", "redacted", "contested")))
# every row, this repository's rows, and rows no reader could type, in one pass over the exports
_STATS = ("SELECT COUNT(*), SUM(CASE WHEN project = '{repository}' THEN 1 ELSE 0 END), "
          f"SUM(CASE WHEN {_BAD} THEN 1 ELSE 0 END) FROM raw_rows")


class BadExport(AgentMemoryError):
    """An export file that is not a table of export rows."""


@dataclass
class Evidence:
    """What the gate found: every claim's counts, and the wordings and kinds of those that pass."""

    claims: list[dict[str, Any]]
    wordings: dict[str, list[tuple[str, str, int, str]]] = field(default_factory=dict)  # claim → (text, kind, n, first)
    rows: int = 0
    other_repositories: int = 0  # rows of exports made in another repository, left out

    def passing(self) -> list[dict[str, Any]]:
        return [c for c in self.claims if c["path"]]


def export_files(inputs: Iterable[str | Path]) -> list[Path]:
    """The export files among files and folders (``*.jsonl`` and ``*.parquet``, folders searched whole)."""
    found: list[Path] = []
    for given in inputs:
        path = Path(given)
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".parquet"))
        elif path.is_file():
            found.append(path)
        else:
            raise BadExport(f"{path} does not exist")
    if not found:
        raise BadExport("no export files (*.jsonl, *.parquet) among " + ", ".join(str(p) for p in inputs))
    return sorted(dict.fromkeys(found))


def run_gate(files: list[Path], repository: str, thresholds: dict[str, int], engine: str = "sqlite",
             spark: Any = None) -> Evidence:
    """The statement over these export files, for the repository ``repository`` (16 hex), in one engine."""
    if len(repository) != 16 or not all(c in "0123456789abcdef" for c in repository):
        raise ValueError(f"not a repository identity: {repository!r}")
    runner: dict[str, Callable[..., Evidence]] = {"sqlite": _sqlite, "duckdb": _duckdb, "spark": _spark}
    if engine not in runner:
        raise ValueError(f"unknown engine {engine!r}")
    if engine == "spark":
        return _spark(files, repository, thresholds, spark)
    return runner[engine](files, repository, thresholds)


def _this_repository(repository: str) -> str:
    return f"CREATE {{temp}}VIEW team_rows AS SELECT * FROM raw_rows WHERE project = '{repository}'"


def _finish(fetch: Callable[[str], list[tuple[Any, ...]]], repository: str) -> Evidence:
    """The statement and the wordings query, through one engine's ``fetch`` (SQL → rows)."""
    total, mine, bad = (int(n or 0) for n in fetch(_STATS.format(repository=repository))[0])
    if bad:
        raise BadExport(f"{bad} export row(s) hold a missing or wrong value (see schemas/export_row.schema.json), "
                        "so nothing was staged")
    claims = [dict(zip(EVIDENCE_COLUMNS, row)) for row in fetch("SELECT * FROM evidence")]
    for claim in claims:
        for name in ("observations", "people", "sessions", "days", "projects", "stated", "redacted", "contested"):
            claim[name] = int(claim[name] or 0)
        for name in ("first_day", "last_day", "path"):
            claim[name] = str(claim[name] or "")
    claims.sort(key=lambda c: c["claim"])
    wordings: dict[str, list[tuple[str, str, int, str]]] = {}
    if any(c["path"] for c in claims):
        for claim, text, kind, n, first in fetch(_WORDINGS):
            wordings.setdefault(str(claim), []).append((str(text), str(kind), int(n), str(first or "")))
    for found in wordings.values():
        found.sort()
    return Evidence(claims=claims, wordings=wordings, rows=mine, other_repositories=total - mine)


# ---------------------------------------------------------------- SQLite (standard library)


def _jsonl_rows(path: Path) -> Iterable[tuple[Any, ...]]:
    pick = itemgetter(*EXPORT_COLUMNS)
    texts = [i for i, name in enumerate(EXPORT_COLUMNS) if name not in _INTS]
    flags = [i for i, name in enumerate(EXPORT_COLUMNS) if name in _INTS]
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError:
                raise BadExport(f"{path} line {number} is not JSON, so nothing was read from the exports") from None
            try:
                values = pick(row)
            except (KeyError, TypeError):
                raise BadExport(f"{path} line {number} is not an export row (see schemas/export_row.schema.json)") from None
            if not all(type(values[i]) is str for i in texts) or not all(values[i] in (0, 1) for i in flags):
                raise BadExport(f"{path} line {number} holds a value an export row cannot (see schemas/export_row.schema.json)")
            yield values


def _parquet_rows(path: Path) -> list[tuple[Any, ...]]:
    duckdb = need_duckdb("Parquet exports")
    db = duckdb.connect(":memory:")
    try:
        names = ", ".join(EXPORT_COLUMNS)
        return [tuple(r) for r in db.execute(f"SELECT {names} FROM read_parquet(?)", [str(path)]).fetchall()]
    except duckdb.Error as exc:
        raise BadExport(f"{path} is not a Parquet export: {str(exc).splitlines()[0]}") from None
    finally:
        db.close()


def _sqlite(files: list[Path], repository: str, thresholds: dict[str, int]) -> Evidence:
    db = sqlite3.connect(":memory:")
    try:
        columns = ", ".join(f"{name} {kind} NOT NULL" for name, (kind, _m) in EXPORT_COLUMNS.items())
        db.execute(f"CREATE TABLE raw_rows ({columns})")
        insert = f"INSERT INTO raw_rows VALUES ({', '.join('?' * len(EXPORT_COLUMNS))})"
        for path in files:
            db.executemany(insert, _parquet_rows(path) if path.suffix == ".parquet" else _jsonl_rows(path))
        db.execute(_this_repository(repository).format(temp="TEMP "))
        db.execute("CREATE TEMP TABLE evidence AS " + evidence_sql("team_rows", thresholds))
        return _finish(lambda sql: db.execute(sql).fetchall(), repository)
    finally:
        db.close()


# ---------------------------------------------------------------- DuckDB (the [team] extra)


def _duckdb_source(path: Path) -> str:
    quoted = str(path).replace("'", "''")
    if path.suffix == ".parquet":
        return f"SELECT {', '.join(EXPORT_COLUMNS)} FROM read_parquet('{quoted}')"
    types = ", ".join(f"'{name}': '{'BIGINT' if name in _INTS else 'VARCHAR'}'" for name in EXPORT_COLUMNS)
    return (f"SELECT {', '.join(EXPORT_COLUMNS)} FROM read_json('{quoted}', format = 'newline_delimited', "
            f"columns = {{{types}}})")


def _duckdb(files: list[Path], repository: str, thresholds: dict[str, int]) -> Evidence:
    duckdb = need_duckdb("the duckdb engine")
    db = duckdb.connect(":memory:")
    try:
        try:
            db.execute("CREATE TABLE raw_rows AS " + " UNION ALL ".join(_duckdb_source(p) for p in files))
        except duckdb.Error as exc:
            raise BadExport(f"the exports could not be read as export rows: {str(exc).splitlines()[0]}") from None
        db.execute(_this_repository(repository).format(temp="TEMP "))
        db.execute("CREATE TEMP TABLE evidence AS " + evidence_sql("team_rows", thresholds))
        return _finish(lambda sql: db.execute(sql).fetchall(), repository)
    finally:
        db.close()


# ---------------------------------------------------------------- Spark local mode (the [spark] extra)


def spark_session(master: str = "local[2]") -> Any:
    """One local SparkSession for this process (created once; later calls get the same one)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise MissingExtra("the spark engine needs PySpark and a Java runtime: pip install 'agent-memory[spark]'") from None
    import os

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # local mode: no network interface to guess at
    builder = (SparkSession.builder.master(master).appName("agent-memory team gate")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC").config("spark.driver.bindAddress", "127.0.0.1")
               .config("spark.sql.ansi.enabled", "false"))
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # noqa: BLE001 - a missing JVM surfaces as many kinds of error
        raise MissingExtra(f"Spark could not start (is Java installed? 'java -version'): {str(exc).splitlines()[0]}") from None
    session.sparkContext.setLogLevel("ERROR")
    return session


def _spark(files: list[Path], repository: str, thresholds: dict[str, int], session: Any = None) -> Evidence:
    session = session or spark_session()
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    schema = StructType([StructField(name, LongType() if name in _INTS else StringType(), True)
                         for name in EXPORT_COLUMNS])
    frames = []
    raw = None
    try:
        jsonl = [str(p) for p in files if p.suffix != ".parquet"]
        parquet = [str(p) for p in files if p.suffix == ".parquet"]
        if jsonl:
            frames.append(session.read.schema(schema).option("mode", "FAILFAST").json(jsonl))
        if parquet:
            frames.append(session.read.parquet(*parquet).select(*EXPORT_COLUMNS))
        raw = frames[0]
        for more in frames[1:]:
            raw = raw.unionByName(more)
        raw.cache().createOrReplaceTempView("raw_rows")
        session.sql(_this_repository(repository).format(temp="OR REPLACE TEMP ")).collect()
        session.sql(evidence_sql("team_rows", thresholds)).createOrReplaceTempView("evidence")
        found = _finish(lambda sql: [tuple(r) for r in session.sql(sql).collect()], repository)
    except BadExport:
        raise
    except Exception as exc:  # noqa: BLE001 - Spark's reader errors come as Py4J and analysis errors
        raise BadExport(f"the exports could not be read as export rows: {str(exc).splitlines()[0]}") from None
    finally:
        if raw is not None:
            raw.unpersist()
    return found
