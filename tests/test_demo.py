"""The demo is the first thing a newcomer runs: it must show every stage working."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from agent_memory.cli.demo import excerpt

CART = "The cart total is off by one cent when a coupon applies. From now on, always run `pnpm test` before pushing."


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
    assert any(q.endswith("From now on, always run `pnpm test` before pushing.") for q in summary["why_quotes"])
    assert not [q for q in summary["why_quotes"] if q.endswith(",")]


@pytest.mark.parametrize(
    ("quote", "claim", "limit", "shown"),
    [
        (CART, "Always run pnpm test before pushing.", 200, CART),  # short enough: whole
        (CART, "Always run pnpm test before pushing.", 70, "… From now on, always run `pnpm test` before pushing."),
        (CART, "The cart total is off by one cent", 70, "The cart total is off by one cent when a coupon applies."),
        (CART, "Always run pnpm test before pushing.", 20, "… From now on, always run `pnpm test` before pushing."),
        ("Remember: never push to main.  Thanks!\nAlso, e.g. the docs stay.", "never push to main", 40,
         "Remember: never push to main. Thanks!"),
        ("ビルドが遅い。今後は必ず pnpm を使ってください。よろしく。", "pnpm を使って", 20, "… 今後は必ず pnpm を使ってください。"),
    ],
)
def test_a_demo_quote_is_whole_or_whole_sentences(quote: str, claim: str, limit: int, shown: str) -> None:
    assert excerpt(quote, claim, limit) == shown
