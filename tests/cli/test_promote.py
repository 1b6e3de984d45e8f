"""What ``agent-memory promote`` shows a person: every proposal, counts of what waits, the refusals to act on first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.claims import cache as claimcache
from agent_memory.cli import main
from agent_memory.store import StoreLock

from promote.test_promote import NOW, atom, make_store

ONE_OFF = "Never edit src/module_{}/handler.py by hand"


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")


def _store(tmp_path: Path, counted: bool) -> Path:
    days = (("s1", "2026-03-01"), ("s2", "2026-03-02"), ("s3", "2026-03-03"))
    atoms = [atom("Always squash commits", s, d, line=i) for i, (s, d) in enumerate(days)]
    atoms += [atom(ONE_OFF.format(i), "s1", "2026-03-01", line=10 + i) for i in range(30)]  # 1 session, 1 day
    atoms += [atom(ONE_OFF.format(100 + i), s, d, line=50 + 2 * i + j)  # nearer: 2 sessions, 2 days
              for i in range(3) for j, (s, d) in enumerate(days[:2])]
    atoms.append(atom("Never commit the key to prod", "s1", "2026-03-01", redacted=True, line=90))
    paths = make_store(tmp_path, atoms)
    if counted:
        with StoreLock(paths.store):
            claimcache.refresh(paths, 0.85)
    return paths.store


@pytest.mark.parametrize("counted", [False, True])
def test_a_dry_run_lists_held_then_nearest_and_counts_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               counted: bool) -> None:
    store = _store(tmp_path, counted)
    assert main(["--memory-dir", str(store), "promote"]) == 0
    out = capsys.readouterr().out
    assert "1 proposal(s) (dry run: nothing written)" in out and "Always squash commits" in out
    assert "34 claim(s) not promoted yet (33 waiting only for more evidence, 1 held for another reason)" in out
    shown = [line.strip() for line in out.splitlines() if line.startswith("    ")]
    assert shown[1] == "Never commit the key to prod"  # held (redacted): a person can act on it
    assert set(shown[2:5]) == {ONE_OFF.format(100 + i) for i in range(3)}  # then the nearest to passing
    assert len(shown) == 1 + 20 and "… 14 more: --all lists them, --json gives every one" in out


def test_all_lists_every_refusal_as_json_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = _store(tmp_path, counted=True)
    main(["--memory-dir", str(store), "promote", "--json"])
    blocked = json.loads(capsys.readouterr().out)["blocked"]
    main(["--memory-dir", str(store), "promote", "--all"])
    out = capsys.readouterr().out
    assert len(blocked) == 34 and "more: --all" not in out
    assert all(b["claim_id"] in out for b in blocked)
