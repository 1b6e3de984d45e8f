"""The evidence gate as one SQL statement over flat atom rows, for SQLite, DuckDB and Spark alike.

A row is one observation of a claim: which claim, when, in which session and project, by whom, and
whether it was stated, redacted or contested (``ROW_COLUMNS``; ``schemas/atom_row.schema.json``). The
statement counts each claim's evidence the way the gates do — atoms of one pasted block count in
its first session only, empty values are not counted — and names the path that lets it through.
A person's promotion runs it in SQLite; a team runs the very same text over many people's exported
rows. Only portable SQL is used: CTEs, ``CASE``, ``COUNT(DISTINCT ...)``, ``FIRST_VALUE`` windows.
"""

from __future__ import annotations

from typing import Any, Mapping

# name → (SQL type, meaning). Booleans are 0/1 integers so that MAX() means "any".
ROW_COLUMNS: dict[str, tuple[str, str]] = {
    "claim": ("TEXT", "the claim the atom counts for: a claim key (or a claim id inside one store)"),
    "kind": ("TEXT", "instruction, correction, preference, lesson or failure"),
    "ts": ("TEXT", "ISO-8601 time of the turn, '' when unknown (orders a block's atoms)"),
    "day": ("TEXT", "UTC day YYYY-MM-DD, '' when unknown"),
    "session": ("TEXT", "session id, or its pseudonym in an export"),
    "project": ("TEXT", "project name, or the repository identity in an export"),
    "person": ("TEXT", "'' in one person's store (one person); a salted pseudonym in an export"),
    "block": ("TEXT", "16 hex naming a long pasted turn, '' otherwise"),
    "stated": ("INTEGER", "1 when the person asked for it to be kept"),
    "redacted": ("INTEGER", "1 when a secret was cut out of it"),
    "contested": ("INTEGER", "1 when this person holds a contradicting claim"),
}

# The thresholds the statement needs, each with the config setting it comes from (ints only).
THRESHOLDS: dict[str, str] = {
    "sessions": "gates.l2.sessions",
    "days": "gates.l2.days",
    "stated_sessions": "gates.l2_stated.sessions",
    "stated_days": "gates.l2_stated.days",
    "people": "",  # team gates only; 1 for one person's store
}

_TEMPLATE = """
WITH counted AS (
  SELECT claim, kind, person, project, stated, redacted, contested,
         CASE WHEN block = '' THEN session
              ELSE FIRST_VALUE(session) OVER (PARTITION BY claim, block ORDER BY ts, session, day) END AS session,
         CASE WHEN block = '' THEN day
              ELSE FIRST_VALUE(day) OVER (PARTITION BY claim, block ORDER BY ts, session, day) END AS day
  FROM {rows}
), evidence AS (
  SELECT claim,
         COUNT(*) AS observations,
         COUNT(DISTINCT person) AS people,
         COUNT(DISTINCT NULLIF(session, '')) AS sessions,
         COUNT(DISTINCT NULLIF(day, '')) AS days,
         COUNT(DISTINCT NULLIF(project, '')) AS projects,
         MIN(NULLIF(day, '')) AS first_day,
         MAX(NULLIF(day, '')) AS last_day,
         MAX(stated) AS stated,
         MAX(redacted) AS redacted,
         MAX(contested) AS contested
  FROM counted
  GROUP BY claim
)
SELECT claim, observations, people, sessions, days, projects, first_day, last_day, stated, redacted, contested,
       CASE WHEN redacted = 1 OR contested = 1 OR people < {people} THEN ''
            WHEN sessions >= {sessions} AND days >= {days} THEN 'default'
            WHEN stated = 1 AND sessions >= {stated_sessions} AND days >= {stated_days} THEN 'stated'
            ELSE '' END AS path
FROM evidence
"""


def evidence_sql(rows: str, thresholds: Mapping[str, Any]) -> str:
    """The statement over the table or view ``rows`` with the gate numbers written in as integer literals.

    Numbers are inlined (each engine spells parameters differently); ``int()`` keeps them numbers.
    ``rows`` is a table name chosen by the caller, never user text.
    """
    if not rows.replace("_", "").replace(".", "").isalnum():
        raise ValueError(f"not a table name: {rows!r}")
    numbers = {name: int(thresholds.get(name, 1 if name == "people" else 0)) for name in THRESHOLDS}
    return _TEMPLATE.format(rows=rows, **numbers).strip()


def thresholds_of(config: Mapping[str, Any], people: int = 1) -> dict[str, int]:
    """The statement's numbers from a loaded config (``people``: distinct people a team gate needs)."""
    gates = config["gates"]
    return {
        "sessions": int(gates["l2"]["sessions"]),
        "days": int(gates["l2"]["days"]),
        "stated_sessions": int(gates["l2_stated"]["sessions"]),
        "stated_days": int(gates["l2_stated"]["days"]),
        "people": int(people),
    }


def create_rows_sql(table: str) -> str:
    """``CREATE TABLE`` for a table of flat atom rows (SQLite and DuckDB accept these types)."""
    if not table.replace("_", "").isalnum():
        raise ValueError(f"not a table name: {table!r}")
    columns = ", ".join(f"{name} {kind} NOT NULL" for name, (kind, _meaning) in ROW_COLUMNS.items())
    return f"CREATE TABLE {table} ({columns})"
