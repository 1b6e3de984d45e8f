"""Fixtures for the reliability suite: a fresh project per test, with its clock and homes fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import NOW, Env, make_env


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    """A project (with ``.git``), HOME and a user store under ``tmp_path``; the same for in-process calls."""
    made = make_env(tmp_path)
    monkeypatch.setenv("HOME", str(made.home))
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(made.user))
    monkeypatch.setenv("AGENT_MEMORY_NOW", NOW)
    for name in ("AGENT_MEMORY_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(name, raising=False)
    return made
