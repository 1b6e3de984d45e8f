"""The evidence statement counts as the gates do: blocks once, empty values never, thresholds from config."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import jsonschema
import pytest

from agent_memory.claims.evidence import ROW_COLUMNS, create_rows_sql, evidence_sql, thresholds_of

GATES = {"sessions": 3, "days": 2, "stated_sessions": 2, "stated_days": 2, "people": 1}


def row(claim: str, session: str, day: str, **extra: object) -> dict[str, object]:
    base: dict[str, object] = {"claim": claim, "kind": "instruction", "ts": f"{day}T09:00:00Z", "day": day,
                               "session": session, "project": "shop", "person": "", "block": "",
                               "stated": 0, "redacted": 0, "contested": 0}
    base.update(extra)
    return base


def run(rows: list[dict[str, object]], gates: dict[str, int] = GATES) -> dict[str, dict[str, object]]:
    db = sqlite3.connect(":memory:")
    db.execute(create_rows_sql("atom_rows"))
    db.executemany(f"INSERT INTO atom_rows VALUES ({', '.join('?' * len(ROW_COLUMNS))})",
                   [tuple(r[c] for c in ROW_COLUMNS) for r in rows])
    cursor = db.execute(evidence_sql("atom_rows", gates))
    names = [d[0] for d in cursor.description]
    return {found[0]: dict(zip(names, found)) for found in cursor}


def test_three_sessions_on_two_days_pass_by_default() -> None:
    got = run([row("a", "s1", "2026-01-01"), row("a", "s2", "2026-01-01"), row("a", "s3", "2026-01-02"),
               row("b", "s1", "2026-01-01"), row("b", "s2", "2026-01-02")])
    assert (got["a"]["path"], got["a"]["sessions"], got["a"]["days"]) == ("default", 3, 2)
    assert got["b"]["path"] == ""


def test_a_stated_claim_needs_two_sessions_on_two_days() -> None:
    got = run([row("a", "s1", "2026-01-01", stated=1), row("a", "s2", "2026-01-02")])
    assert got["a"]["path"] == "stated"


@pytest.mark.parametrize("flag", ["redacted", "contested"])
def test_redacted_or_contested_never_pass(flag: str) -> None:
    rows = [row("a", f"s{i}", f"2026-01-0{i}") for i in range(1, 5)]
    rows[2][flag] = 1
    assert run(rows)["a"]["path"] == ""


def test_a_pasted_block_counts_in_its_first_session_only() -> None:
    rows = [row("a", f"s{i}", f"2026-01-0{i}", block="0123456789abcdef") for i in range(1, 5)]
    got = run(rows)["a"]
    assert (got["sessions"], got["days"], got["observations"], got["path"]) == (1, 1, 4, "")


def test_empty_values_are_not_counted() -> None:
    got = run([row("a", "", ""), row("a", "s1", "2026-01-01"), row("a", "s2", "")])["a"]
    assert (got["sessions"], got["days"], got["first_day"]) == (2, 1, "2026-01-01")


def test_a_team_gate_needs_enough_people() -> None:
    rows = [row("a", f"s{i}", f"2026-01-0{i}", person=f"p{i % 2}") for i in range(1, 5)]
    assert run(rows, {**GATES, "people": 3})["a"]["path"] == ""
    assert run(rows, {**GATES, "people": 2})["a"]["people"] == 2


def test_thresholds_come_from_the_config() -> None:
    from agent_memory.config import DEFAULTS

    assert thresholds_of(DEFAULTS) == GATES


def test_table_names_are_checked() -> None:
    with pytest.raises(ValueError):
        evidence_sql("atoms; DROP TABLE x", GATES)


def test_the_row_schema_matches_the_columns() -> None:
    schema = json.loads((Path(__file__).parents[2] / "schemas" / "atom_row.schema.json").read_text(encoding="utf-8"))
    assert list(schema["properties"]) == list(ROW_COLUMNS)
    jsonschema.validate(row("a", "s1", "2026-01-01"), schema)
