"""The demo is the first thing a newcomer runs: it must show every stage working."""

from __future__ import annotations

import json
import subprocess
import sys


def test_demo_runs_the_whole_pipeline() -> None:
    done = subprocess.run([sys.executable, "-m", "agent_memory", "demo", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["ok"]
    assert summary["ingest_webshop"]["quarantined"] == 2  # the leaked key: an atom and its chunk, the secret cut out of both
    assert summary["webshop_proposals"] >= 2
    assert summary["contested"] == 1  # dev vs main, listed once
    assert summary["cross_project"] == 1  # "Never commit .env files" held in both projects
    assert summary["secret_found_in"] == []
    assert summary["status_healthy"] is True  # the demo's hooks ran clean
    assert set(summary["report"]) == {"stale", "duplicates", "over_budget", "missing", "not_followed"}
