"""The text shown for a merged claim: its most complete wording, sentence-cased, no leading conjunction."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.promote import plan
from promote.test_promote import NOW, atom, make_store


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.mark.parametrize(("wordings", "shown"), [
    (["always run pnpm test before pushing.", "always run pnpm test before pushing.", "Always run pnpm test before pushing"],
     "Always run pnpm test before pushing."),
    (["And always open PRs against main.", "And always open PRs against main.", "and always open PRs against main"],
     "Always open PRs against main."),
    (["Also, never force push to main", "never force push to main", "Never force push to main."],
     "Never force push to main."),
    (["mainブランチには絶対に直接プッシュしないでください", "あと、mainブランチには絶対に直接プッシュしないでください。",
      "mainブランチには絶対に直接プッシュしないでください。"], "mainブランチには絶対に直接プッシュしないでください。"),
    (["src/billing is generated, never edit it", "src/billing is generated, never edit it."],
     "src/billing is generated, never edit it."),
])
def test_a_merged_claim_shows_its_clearest_wording(wordings: list[str], shown: str, tmp_path: Path) -> None:
    atoms = [atom(w, f"s{n}", f"2026-03-0{n + 1}", line=n + 1) for n, w in enumerate(wordings)]
    claims = plan(make_store(tmp_path, atoms)).claims
    assert [c.text for c in claims] == [shown]
