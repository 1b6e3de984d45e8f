"""bench/team.py runs end to end on a small team, so the benchmark cannot rot (no time is asserted)."""

from __future__ import annotations

import pytest


def test_the_team_benchmark_runs_and_the_engines_agree(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("duckdb", reason="the [team] extra (duckdb) is not installed")
    from bench import team

    assert team.main(["--rows", "3000", "--people", "6"]) == 0
    out = capsys.readouterr().out
    assert "| duckdb |" in out and "| sqlite |" in out and "engines agree on the passing claims: yes" in out
