"""The report: sections of tables and notes, a summary of goals, rendered as Markdown."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence


@dataclass
class Goal:
    """One figure set against its goal; ``met`` is None when it could not be measured."""

    figure: str
    value: str
    goal: str
    met: bool | None


@dataclass
class Section:
    """One part of the report, in the order it is rendered."""

    key: str
    title: str
    lines: list[str] = field(default_factory=list)
    goals: list[Goal] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)  # "where the time goes" for missed goals

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        self.lines.extend(table(headers, rows))
        self.lines.append("")

    def goal(self, figure: str, value: str, goal: str, met: bool | None) -> None:
        self.goals.append(Goal(figure, value, goal, met))


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """A Markdown table; cells are written as given (format numbers before)."""
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in row) + " |")
    return out


def secs(value: float) -> str:
    """Seconds, in ms below one second."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def ratio(value: float) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    return f"{value:.2f}×"


def mb(value: float) -> str:
    return f"{value / 1e6:.1f} MB"


def kb_as_mb(value: float) -> str:
    return f"{value / 1024:.0f} MB"


def pct(value: float) -> str:
    return f"{value * 100:.1f}%"


NO_GOAL = "—"


def verdict(goal: Goal) -> str:
    if goal.goal == NO_GOAL:
        return ""
    return {True: "met", False: "**missed**", None: "not measured"}[goal.met]


def render(title: str, intro: Sequence[str], sections: Sequence[Section], tail: Sequence[str] = ()) -> str:
    """The whole document: intro, the summary of goals, each section, profiles of missed goals."""
    out: list[str] = [f"# {title}", "", *intro, ""]
    rows = [(g.figure, g.value, g.goal, verdict(g)) for s in sections for g in s.goals]
    if rows:
        out += ["## Summary", "", *table(("figure", "measured", "goal", ""), rows), ""]
    for section in sections:
        out += [f"## {section.title}", "", *section.lines, ""]
    profiles = [(s.title, p) for s in sections for p in s.profiles]
    if profiles:
        out += ["## Where the time goes", ""]
        for _title, body in profiles:
            out += [body, ""]
    out += list(tail)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
