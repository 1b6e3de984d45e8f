"""The backfill's progress bar: none for a run shorter than its delay, and on stderr, from then on, for a longer one."""

from __future__ import annotations

import pytest

from agent_memory.pool import ProgressBar


def test_a_short_run_draws_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    bar = ProgressBar(True, total=100, files=2, delay=3600.0)
    bar.advance(50, 1, 3)
    bar.phase("indexing")
    bar.stop()
    assert bar.bar is None
    assert capsys.readouterr() == ("", "")


def test_a_long_run_draws_on_stderr_with_what_was_done_before(capsys: pytest.CaptureFixture[str]) -> None:
    bar = ProgressBar(True, total=100, files=2, delay=0.0)
    bar.advance(40, 1, 3)
    bar.timer.join()  # the bar starts on the timer's thread
    bar.advance(60, 2, 5)
    bar.phase("indexing")
    assert bar.bar is not None
    task = bar.bar.tasks[0]
    assert (task.completed, task.fields["files"], task.fields["atoms"], task.description) == (100, 2, 5, "indexing")
    bar.stop()
    out, err = capsys.readouterr()
    assert out == "" and "indexing" in err


def test_off_means_off(capsys: pytest.CaptureFixture[str]) -> None:
    bar = ProgressBar(False, total=100, files=2, delay=0.0)
    bar.advance(100, 2, 5)
    bar.stop()
    assert bar.bar is None and bar.timer is None
    assert capsys.readouterr() == ("", "")


def test_steps_name_the_step_and_the_time_taken(capsys: pytest.CaptureFixture[str]) -> None:
    shown = ProgressBar(True, delay=0.0, description="claim tables", steps=True)
    shown.timer.join()
    shown.phase("search index")
    assert shown.bar is not None and shown.bar.tasks[0].description == "search index"
    shown.stop()
    out, err = capsys.readouterr()
    assert out == "" and "search index" in err and "files" not in err
