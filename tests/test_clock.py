"""The one clock and the hand-made date arithmetic the hot path uses, checked against datetime."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory import clock
from agent_memory.errors import UsageError

_moments = st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2200, 12, 31),
                        timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=9)), timezone(timedelta(hours=-5, minutes=-30))]))


@settings(max_examples=400, deadline=None)
@given(st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)))
def test_day_number_is_the_proleptic_gregorian_day(day: date) -> None:
    assert clock.day_number(day.isoformat()) == (day - date(1970, 1, 1)).days


@settings(max_examples=400, deadline=None)
@given(_moments)
def test_epoch_matches_datetime(moment: datetime) -> None:
    moment = moment.replace(microsecond=moment.microsecond // 1000 * 1000)
    for text in (moment.isoformat(), moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")):
        assert clock.epoch(text) == pytest.approx(moment.timestamp(), abs=1e-3)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-03-01", "2026-03-01T00:00:00Z"),
        ("2026-03-01T10:00:00", "2026-03-01T10:00:00Z"),  # naive is UTC
        ("2026-03-01T10:00:00z", "2026-03-01T10:00:00Z"),
        ("2026-03-01T01:00:00+09:00", "2026-02-28T16:00:00Z"),
        ("2024-02-29T23:59:59.999Z", "2024-02-29T23:59:59Z"),
    ],
)
def test_parse_iso_table(text: str, expected: str) -> None:
    parsed = clock.parse_iso(text)
    assert parsed is not None and clock.iso(parsed) == expected
    assert clock.epoch(text) == pytest.approx(parsed.timestamp())


@pytest.mark.parametrize("text", ["", "yesterday", "2026-02-30", "2023-02-29", "2026-13-01", "2026-01-01T25:00:00", "2026-01-01T10:00:00+0900x"])
def test_not_a_time(text: str) -> None:
    assert clock.parse_iso(text) is None
    assert clock.epoch(text) is None


@pytest.mark.parametrize("text", ["2026-02-30", "2023-02-29", "2026-00-10", "2026-1-01", "abcd-ef-gh"])
def test_day_number_refuses_impossible_days(text: str) -> None:
    assert clock.day_number(text) is None


def test_agent_memory_now_replaces_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_MEMORY_NOW", "2026-05-04T03:02:01+02:00")
    assert clock.iso(clock.now()) == "2026-05-04T01:02:01Z"
    assert clock.now_epoch() == datetime(2026, 5, 4, 1, 2, 1, tzinfo=timezone.utc).timestamp()
    monkeypatch.setenv("AGENT_MEMORY_NOW", "soon")
    with pytest.raises(UsageError):
        clock.now()
    with pytest.raises(ValueError):
        clock.now_epoch()


def test_day_of() -> None:
    assert clock.day_of("2026-03-01T23:30:00-02:00") == "2026-03-02"
    assert clock.day_of("") == "" and clock.day_of("never") == ""


@settings(max_examples=300, deadline=None)
@given(_moments)
def test_day_of_is_the_utc_calendar_day_datetime_gives(moment: datetime) -> None:
    assert clock.day_of(moment.isoformat()) == moment.astimezone(timezone.utc).date().isoformat()
