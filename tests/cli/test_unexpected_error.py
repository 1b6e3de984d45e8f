"""An unexpected error reaches the person as one line and an exit code; the traceback goes to a log."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory.cli.main import main as cli_main


def test_an_unexpected_error_is_one_line_and_a_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p" / ".git").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "p")
    monkeypatch.setenv("AGENT_MEMORY_HOME", str(tmp_path / "user"))
    monkeypatch.setenv("HOME", str(tmp_path))

    def boom(*_args: object, **_kwargs: object) -> None:
        raise ZeroDivisionError("a fault of ours")

    monkeypatch.setattr("agent_memory.review.why.plan", boom)
    code = cli_main(["inspect", "--tier", "L1", "--json"])
    err = capsys.readouterr().err
    assert code == 70
    assert len(err.strip().splitlines()) == 1 and "ZeroDivisionError: a fault of ours" in err
    log = (tmp_path / "user" / "logs" / "crash.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "agent-memory " in log and "command inspect" in log and "python " in log
