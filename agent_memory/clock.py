"""The one clock and the one date arithmetic: ``$AGENT_MEMORY_NOW`` replaces the wall clock everywhere.

Standard library only, and ``datetime`` only where a caller asks for one: the hooks' hot path
turns ISO-8601 times into epoch seconds and days by hand, which this module checks against
``datetime`` in its tests.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from datetime import datetime


def now() -> "datetime":
    """The current time in UTC; ``$AGENT_MEMORY_NOW`` (ISO-8601) replaces the wall clock."""
    from datetime import datetime, timezone

    from .errors import UsageError

    raw = os.environ.get("AGENT_MEMORY_NOW", "").strip()
    if raw:
        parsed = parse_iso(raw)
        if parsed is None:
            raise UsageError(f"AGENT_MEMORY_NOW is not an ISO-8601 time: {raw!r}")
        return parsed
    return datetime.now(timezone.utc)


def iso(moment: "datetime") -> str:
    """An aware datetime as ``YYYY-MM-DDTHH:MM:SSZ``."""
    from datetime import timezone

    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def day_of(timestamp: str) -> str:
    """The UTC calendar day (``YYYY-MM-DD``) of a timestamp, or ``""``."""
    parsed = parse_iso(timestamp) if timestamp else None
    return parsed.strftime("%Y-%m-%d") if parsed else ""


def epoch(text: str) -> float | None:
    """Seconds since the epoch of an ISO-8601 time (``Z``, an offset, or naive = UTC); None if it is not one."""
    text = text.strip()
    found = _plain_epoch(text)
    if found is not None:
        return found
    moment = parse_iso(text)
    return moment.timestamp() if moment is not None else None


def parse_iso(text: str) -> "datetime | None":
    """An ISO-8601 timestamp (``Z`` or offset, or naive = UTC) as an aware UTC datetime, or None."""
    from datetime import datetime, timezone

    text = text.strip()
    if not text:
        return None
    if text[-1] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _plain_epoch(text: str) -> float | None:
    """``YYYY-MM-DD[THH:MM:SS[.fff]][Z|±HH:MM]`` without ``datetime`` (which the hot path does not load); else None."""
    day = day_number(text[:10])
    if day is None:
        return None
    rest = text[10:]
    if not rest:
        return day * 86400.0
    if rest[0] not in "Tt " or len(rest) < 9 or rest[3] != ":" or rest[6] != ":" or not (rest[1:3] + rest[4:6] + rest[7:9]).isdigit():
        return None
    hour, minute, second = int(rest[1:3]), int(rest[4:6]), int(rest[7:9])
    if hour > 23 or minute > 59 or second > 59:
        return None
    rest = rest[9:]
    fraction = 0.0
    if rest[:1] == ".":
        digits = len(rest) - len(rest[1:].lstrip("0123456789")) - 1
        if digits == 0:
            return None
        fraction, rest = float("0" + rest[: digits + 1]), rest[digits + 1 :]
    offset = 0
    if rest in ("Z", "z", ""):
        pass
    elif len(rest) == 6 and rest[0] in "+-" and rest[3] == ":" and (rest[1:3] + rest[4:6]).isdigit():
        offset = (int(rest[1:3]) * 60 + int(rest[4:6])) * 60 * (1 if rest[0] == "+" else -1)
    else:
        return None
    return day * 86400.0 + hour * 3600 + minute * 60 + second + fraction - offset


def now_epoch() -> float:
    """The current time; ``$AGENT_MEMORY_NOW`` replaces the wall clock (ValueError when it is not ISO-8601)."""
    raw = os.environ.get("AGENT_MEMORY_NOW", "").strip()
    if not raw:
        return time.time()
    found = epoch(raw)
    if found is None:
        raise ValueError(f"AGENT_MEMORY_NOW is not an ISO-8601 time: {raw!r}")
    return found


def day_number(day: str) -> int | None:
    """Days from 1970-01-01 to a ``YYYY-MM-DD`` date (proleptic Gregorian), without ``datetime``."""
    if len(day) != 10 or day[4] != "-" or day[7] != "-" or not (day[:4] + day[5:7] + day[8:]).isdigit():
        return None
    year, month, mday = int(day[:4]), int(day[5:7]), int(day[8:])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not (1 <= year and 1 <= month <= 12 and 1 <= mday <= (29 if leap else 28, 31, 30)[0 if month == 2 else 2 if month in (4, 6, 9, 11) else 1]):
        return None
    year -= month <= 2
    era, year_of_era = divmod(year, 400)
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + mday - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468
