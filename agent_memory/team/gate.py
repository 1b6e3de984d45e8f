"""The team gate: ``claims.evidence.evidence_sql()`` — the statement a person's gates run — over many people's exports.

Three engines run the very same text over the same files: SQLite (standard library, the default when no extra
is installed), DuckDB (the ``[team]`` extra) and Apache Spark in local mode (the ``[spark]`` extra). Each one
loads the exports as the flat row table, keeps this repository's rows, runs the statement and a second
portable query for the wordings of the claims that pass, so all three give the same answer.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import unquote, urlparse

from ..fastjson import JSON_ERRORS
from ..errors import AgentMemoryError
from ..claims.evidence import evidence_sql
from .export import EXPORT_COLUMNS, VERSION_COLUMNS, MissingExtra, need_duckdb

ENGINES = ("sqlite", "duckdb", "spark")
EVIDENCE_COLUMNS = ("claim", "observations", "people", "sessions", "days", "projects", "first_day", "last_day",
                    "stated", "redacted", "contested", "path")
_INTS = {name for name, (kind, _m) in EXPORT_COLUMNS.items() if kind == "INTEGER"}
_FLAGS = ("stated", "redacted", "contested")
_OPTIONAL = tuple(c for c in EXPORT_COLUMNS if c not in VERSION_COLUMNS[1])  # absent from rows of version 1
_SCHEMA = "see schemas/export_row.schema.json"
_WORDINGS = """
SELECT r.claim AS claim, r.text AS text, r.kind AS kind, COUNT(*) AS n, MIN(r.ts) AS first
FROM team_rows r JOIN evidence e ON r.claim = e.claim
WHERE e.path <> ''
GROUP BY r.claim, r.text, r.kind
"""
_HEX16, _DAY = "hex16", "day"
# what a value of a shape looks like: a GLOB pattern (SQLite, DuckDB), a regular expression (Spark)
_SHAPES = {_HEX16: ("[0-9a-f]" * 16, "^[0-9a-f]{16}$"),
           _DAY: ("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")}
# Every row is checked against the schema's constraints, in this order; the first that any row breaks refuses the
# whole gate, in one line. ``{hex16}``/``{day}`` stand for "the column has that shape" in the engine's dialect.
_ROW_CHECKS: tuple[tuple[str, str], ...] = (
    ("hold a missing or wrong value",
     " OR ".join(f"{name} IS NULL" for name in VERSION_COLUMNS[1])
     + " OR " + " OR ".join(f"{name} NOT IN (0, 1)" for name in _FLAGS)
     + " OR (format IS NOT NULL AND formerly IS NULL)"),
    ("are marked redacted (an export never holds a redacted row)", "redacted <> 0"),
    ("name a person that is not a pseudonym (16 hex)", "NOT ({hex16:person})"),
    ("name a session that is not a pseudonym (16 hex or empty)", "session <> '' AND NOT ({hex16:session})"),
    ("name a repository that is not an identity (16 hex)", "NOT ({hex16:project})"),
    ("hold a block that is not 16 hex or empty", "block <> '' AND NOT ({hex16:block})"),
    ("hold a day that is not YYYY-MM-DD or empty", "day <> '' AND NOT ({day:day})"),
)
_FORMERLY = re.compile(r"(?:[0-9a-f]{16}(?:,[0-9a-f]{16})*)?")


class BadExport(AgentMemoryError):
    """An export file that is not a table of export rows."""


@dataclass
class Evidence:
    """What the gate found: every claim's counts, and the wordings and kinds of those that pass."""

    claims: list[dict[str, Any]]
    wordings: dict[str, list[tuple[str, str, int, str]]] = field(default_factory=dict)  # claim → (text, kind, n, first)
    rows: int = 0
    other_repositories: int = 0  # rows of exports made in another repository, left out
    superseded_people: int = 0  # pseudonyms a person exported under before a new salt, whose rows were left out
    superseded_rows: int = 0
    version_1_rows: int = 0  # rows of exports written before format versions (read, but their owners should export again)

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
    """The statement over these export files, for the repository ``repository`` (16 hex), in one engine.

    Every row is checked against the export row schema first (its format version, its columns, each value's
    shape); one that fails refuses the whole run with ``BadExport``, one line, before anything is counted.
    """
    if len(repository) != 16 or not all(c in "0123456789abcdef" for c in repository):
        raise ValueError(f"not a repository identity: {repository!r}")
    runner: dict[str, Callable[..., Evidence]] = {"sqlite": _sqlite, "duckdb": _duckdb, "spark": _spark}
    if engine not in runner:
        raise ValueError(f"unknown engine {engine!r}")
    if engine == "spark":
        return _spark(files, repository, thresholds, spark)
    return runner[engine](files, repository, thresholds)


# ---------------------------------------------------------------- checks every engine makes


def _unknown_version(where: str, version: object) -> BadExport:
    known = " and ".join(str(v) for v in VERSION_COLUMNS)
    return BadExport(f"{where} is an export of format {json.dumps(version)}, which this agent-memory does not read "
                     f"(it reads {known}): update agent-memory, so nothing was staged")


def _check_columns(where: str, version: object, columns: Iterable[str]) -> None:
    """Refuse a row (or a file's rows) of a format version this code does not know, or with columns its format
    does not have or lacks; ``version`` is ``None`` when the row has no ``format`` (version 1)."""
    if version is None:
        version = 1  # (a row of version 1 has no ``format``: one that says 1 holds a column too many)
    elif type(version) is not int or version not in VERSION_COLUMNS:
        raise _unknown_version(where, version)
    expected, found = VERSION_COLUMNS[version], set(columns)
    unknown = sorted(found.difference(expected))
    if unknown:
        raise BadExport(f"{where} is not an export row: it holds {', '.join(unknown)}, which no export row of format "
                        f"{version} has ({_SCHEMA}), so nothing was staged")
    missing = [c for c in expected if c not in found]
    if missing:
        raise BadExport(f"{where} is not an export row: it lacks {', '.join(missing)} ({_SCHEMA}), "
                        "so nothing was staged")


def _row_checks(dialect: str) -> list[tuple[str, str]]:
    """``_ROW_CHECKS`` with each shape written in the engine's dialect (``glob`` or ``rlike``)."""
    def shaped(m: re.Match[str]) -> str:
        glob, regex = _SHAPES[m.group(1)]
        return f"{m.group(2)} GLOB '{glob}'" if dialect == "glob" else f"{m.group(2)} RLIKE '{regex}'"

    return [(what, re.sub(r"\{(\w+):(\w+)\}", shaped, sql)) for what, sql in _ROW_CHECKS]


def _finish(fetch: Callable[[str], list[tuple[Any, ...]]], keep: Callable[[str, str, bool], None], repository: str,
            thresholds: dict[str, int], dialect: str = "glob") -> Evidence:
    """Check every row in ``raw_rows``, leave out a person's rows under an older salt, then run the statement and
    the wordings query, through one engine's ``fetch`` (SQL → rows) and ``keep`` (name, SELECT, as a table?)."""
    checks = _row_checks(dialect)
    counts = [f"SUM(CASE WHEN {sql} THEN 1 ELSE 0 END)" for _what, sql in checks]
    stats = fetch(f"SELECT COUNT(*), SUM(CASE WHEN project = '{repository}' THEN 1 ELSE 0 END), "
                  f"SUM(CASE WHEN format IS NULL THEN 1 ELSE 0 END), {', '.join(counts)} FROM raw_rows")[0]
    total, mine, version_1 = (int(n or 0) for n in stats[:3])
    for (what, _sql), bad in zip(checks, stats[3:]):
        if bad:
            raise BadExport(f"{int(bad)} export row(s) {what} ({_SCHEMA}), so nothing was staged")
    superseded = _superseded(fetch, repository)
    dropped = people = 0
    mine_only = f"project = '{repository}'"
    if superseded:
        listed = ", ".join(f"'{p}'" for p in sorted(superseded))  # (16 hex each: checked)
        dropped, people = (int(n or 0) for n in fetch(
            f"SELECT COUNT(*), COUNT(DISTINCT person) FROM raw_rows WHERE {mine_only} AND person IN ({listed})")[0])
        mine_only += f" AND person NOT IN ({listed})"
    keep("team_rows", f"SELECT * FROM raw_rows WHERE {mine_only}", False)
    keep("evidence", evidence_sql("team_rows", thresholds), True)
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
    return Evidence(claims=claims, wordings=wordings, rows=mine - dropped, other_repositories=total - mine,
                    superseded_people=people, superseded_rows=dropped, version_1_rows=version_1)


def _superseded(fetch: Callable[[str], list[tuple[Any, ...]]], repository: str) -> set[str]:
    """The pseudonyms this repository's exporters name as their own under an earlier salt: a person who exported
    again after their salt changed is counted once, by the rows of their newest pseudonym."""
    found: set[str] = set()
    for person, formerly in fetch(f"SELECT DISTINCT person, formerly FROM raw_rows "
                                  f"WHERE project = '{repository}' AND formerly <> ''"):
        if not _FORMERLY.fullmatch(str(formerly)):
            raise BadExport(f"an export names former pseudonyms that are not 16 hex, comma-separated ({_SCHEMA}), "
                            "so nothing was staged")
        found.update(p for p in str(formerly).split(",") if p != person)
    return found


# ---------------------------------------------------------------- SQLite (standard library)


def _jsonl_rows(path: Path) -> Iterable[tuple[Any, ...]]:
    """Each line's values in ``EXPORT_COLUMNS`` order (``None`` for what a version-1 row has not), each row checked."""
    width = len(EXPORT_COLUMNS)
    pick = itemgetter(*VERSION_COLUMNS[1])
    texts = [i for i, name in enumerate(VERSION_COLUMNS[1]) if name not in _INTS]
    flags = [i for i, name in enumerate(VERSION_COLUMNS[1]) if name in _INTS]
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except JSON_ERRORS:
                raise BadExport(f"{path} line {number} is not JSON, so nothing was read from the exports") from None
            where = f"{path} line {number}"
            if type(row) is not dict:
                raise BadExport(f"{where} is not an export row ({_SCHEMA}), so nothing was staged")
            version = row.get("format")
            if len(row) != (width if version is not None else len(VERSION_COLUMNS[1])) or version == 1:
                _check_columns(where, version, row)  # (raises: a column too many or too few, or an unknown version)
            try:
                values = pick(row)
            except KeyError:
                _check_columns(where, version, row)
                raise  # (not reached: the check names what is missing)
            if version is None:
                rest: tuple[Any, ...] = (None,) * len(_OPTIONAL)
            elif type(version) is not int or version not in VERSION_COLUMNS:
                raise _unknown_version(where, version)
            else:
                try:
                    rest = tuple(row[name] for name in _OPTIONAL)
                except KeyError:
                    _check_columns(where, version, row)
                    raise
                if type(rest[1]) is not str:
                    raise BadExport(f"{where} holds a value an export row cannot ({_SCHEMA})")
            if not all(type(values[i]) is str for i in texts) or not all(values[i] in (0, 1) for i in flags):
                raise BadExport(f"{where} holds a value an export row cannot ({_SCHEMA})")
            yield values + rest


def _parquet_columns(db: Any, path: Path) -> tuple[list[str], list[object]]:
    """A Parquet export's columns and the distinct format versions its rows give (DuckDB)."""
    columns = [str(r[0]) for r in db.execute("DESCRIBE SELECT * FROM read_parquet(?)", [str(path)]).fetchall()]
    versions: list[object] = [None]
    if "format" in columns:
        versions = [r[0] for r in db.execute("SELECT DISTINCT format FROM read_parquet(?)", [str(path)]).fetchall()]
    return columns, versions


def _parquet_select(path: Path, columns: list[str]) -> str:
    """The export columns of a Parquet file, ``NULL`` for those a version-1 file has not."""
    quoted = str(path).replace("'", "''")
    picked = [name if name in columns else f"NULL AS {name}" for name in EXPORT_COLUMNS]
    return f"SELECT {', '.join(picked)} FROM read_parquet('{quoted}')"


def _parquet_rows(path: Path) -> list[tuple[Any, ...]]:
    duckdb = need_duckdb("Parquet exports")
    db = duckdb.connect(":memory:")
    try:
        columns, versions = _parquet_columns(db, path)
        for version in versions:
            _check_columns(str(path), version, columns)
        return [tuple(r) for r in db.execute(_parquet_select(path, columns)).fetchall()]
    except duckdb.Error as exc:
        raise BadExport(f"{path} is not a Parquet export: {str(exc).splitlines()[0]}") from None
    finally:
        db.close()


def _create_raw(kinds: dict[str, str]) -> str:
    """``raw_rows``: the export columns, NOT NULL but for those a version-1 row has not (checked row by row)."""
    return "CREATE TABLE raw_rows ({})".format(", ".join(
        f"{name} {kinds[name]}" + ("" if name in _OPTIONAL else " NOT NULL") for name in EXPORT_COLUMNS))


def _sqlite(files: list[Path], repository: str, thresholds: dict[str, int]) -> Evidence:
    db = sqlite3.connect(":memory:")
    try:
        db.execute(_create_raw({name: kind for name, (kind, _m) in EXPORT_COLUMNS.items()}))
        insert = f"INSERT INTO raw_rows VALUES ({', '.join('?' * len(EXPORT_COLUMNS))})"
        for path in files:
            db.executemany(insert, _parquet_rows(path) if path.suffix == ".parquet" else _jsonl_rows(path))

        def keep(name: str, select: str, table: bool) -> None:
            db.execute(f"CREATE TEMP {'TABLE' if table else 'VIEW'} {name} AS {select}")

        return _finish(lambda sql: db.execute(sql).fetchall(), keep, repository, thresholds)
    finally:
        db.close()


# ---------------------------------------------------------------- DuckDB (the [team] extra)


def _duckdb_source(path: Path, columns: list[str] | None = None) -> str:
    quoted = str(path).replace("'", "''")
    if path.suffix == ".parquet":
        return _parquet_select(path, columns or list(EXPORT_COLUMNS))
    types = ", ".join(f"'{name}': '{'BIGINT' if name in _INTS else 'VARCHAR'}'" for name in EXPORT_COLUMNS)
    return (f"SELECT {', '.join(EXPORT_COLUMNS)} FROM read_json('{quoted}', format = 'newline_delimited', "
            f"columns = {{{types}}})")


def _duckdb_survey(db: Any, files: list[Path]) -> dict[Path, list[str]]:
    """Check each export's rows have the columns of their format version; the Parquet files' columns."""
    jsonl = [p for p in files if p.suffix != ".parquet"]
    if jsonl:
        listed = ", ".join("'" + str(p).replace("'", "''") + "'" for p in jsonl)
        shapes = db.execute(
            f"SELECT filename, json_keys(json), json_extract(json, '$.format')::VARCHAR "
            f"FROM read_json_objects([{listed}], format = 'newline_delimited', filename = true) GROUP BY ALL").fetchall()
        for filename, keys, version in sorted(shapes, key=lambda r: (str(r[0]), str(r[1]), str(r[2]))):
            if keys is None:
                raise BadExport(f"{filename} is not an export row ({_SCHEMA}), so nothing was staged")
            _check_columns(str(filename), _parsed(version), keys)
    found: dict[Path, list[str]] = {}
    for path in files:
        if path.suffix == ".parquet":
            columns, versions = _parquet_columns(db, path)
            for version in versions:
                _check_columns(str(path), version, columns)
            found[path] = columns
    return found


def _duckdb(files: list[Path], repository: str, thresholds: dict[str, int]) -> Evidence:
    duckdb = need_duckdb("the duckdb engine")
    db = duckdb.connect(":memory:")
    try:
        try:
            parquet = _duckdb_survey(db, files)
            db.execute(_create_raw({name: "BIGINT" if name in _INTS else "VARCHAR" for name in EXPORT_COLUMNS}))
            db.execute("INSERT INTO raw_rows " + " UNION ALL ".join(_duckdb_source(p, parquet.get(p)) for p in files))
        except duckdb.Error as exc:
            raise BadExport(f"the exports could not be read as export rows: {str(exc).splitlines()[0]}") from None

        def keep(name: str, select: str, table: bool) -> None:
            db.execute(f"CREATE TEMP {'TABLE' if table else 'VIEW'} {name} AS {select}")

        return _finish(lambda sql: db.execute(sql).fetchall(), keep, repository, thresholds)
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
    from pyspark.sql import functions
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    kinds = {name: LongType() if name in _INTS else StringType() for name in EXPORT_COLUMNS}
    schema = StructType([StructField(name, kind, True) for name, kind in kinds.items()])
    frames = []
    raw = None
    try:
        jsonl = [str(p) for p in files if p.suffix != ".parquet"]
        parquet = [str(p) for p in files if p.suffix == ".parquet"]
        if jsonl:
            _spark_survey(session, jsonl)
            frames.append(session.read.schema(schema).option("mode", "FAILFAST").json(jsonl))
        for path in parquet:
            frame = session.read.parquet(path)
            versions = ([r[0] for r in frame.select("format").distinct().collect()] if "format" in frame.columns
                        else [None])
            for version in versions:
                _check_columns(path, version, frame.columns)
            frames.append(frame.select(*[functions.col(name) if name in frame.columns
                                         else functions.lit(None).cast(kinds[name]).alias(name)
                                         for name in EXPORT_COLUMNS]))
        raw = frames[0]
        for more in frames[1:]:
            raw = raw.unionByName(more)
        raw.cache().createOrReplaceTempView("raw_rows")
        found = _finish(lambda sql: [tuple(r) for r in session.sql(sql).collect()],
                        lambda name, select, _table: session.sql(select).createOrReplaceTempView(name),
                        repository, thresholds, dialect="rlike")
    except BadExport:
        raise
    except Exception as exc:  # noqa: BLE001 - Spark's reader errors come as Py4J and analysis errors
        raise BadExport(f"the exports could not be read as export rows: {str(exc).splitlines()[0]}") from None
    finally:
        if raw is not None:
            raw.unpersist()
    return found


# the ``format`` member of a JSON line as written (a number, a string in its quotes, …): Spark's own readers give a
# string's content without its quotes, so "2" would pass for 2; a key inside a string has its quote escaped
_FORMAT_TOKEN = r'(?<!\\)"format"\s*:\s*("(?:[^"\\]|\\.)*"|[^,}\s]+)'


def _spark_survey(session: Any, jsonl: list[str]) -> None:
    """Check each JSONL export's rows have the columns of their format version (Spark reads only the columns
    it is given, so what else a row holds is read apart)."""
    from pyspark.sql import functions

    shapes = session.read.text(jsonl).select(
        functions.input_file_name(), functions.expr("json_object_keys(value)"),
        functions.regexp_extract("value", _FORMAT_TOKEN, 1)).distinct().collect()
    for uri, keys, version in sorted((tuple(r) for r in shapes), key=lambda r: (str(r[0]), str(r[1]), str(r[2]))):
        where = unquote(urlparse(str(uri)).path) if str(uri).startswith("file:") else str(uri)
        if keys is None:
            raise BadExport(f"{where} is not an export row ({_SCHEMA}), so nothing was staged")
        _check_columns(where, _parsed(version) if "format" in keys else None, keys)


def _parsed(value: str | None) -> object:
    """A JSON value as the engine handed it back as text (``None`` when absent)."""
    if value is None:
        return None
    if value == "":
        return value  # (present, but not read: no version this code knows)
    try:
        return json.loads(value)
    except JSON_ERRORS:
        return value
