"""Styled lines print as rich's markup of the same text would, and a person's words are never read as markup."""

from __future__ import annotations

import io

import pytest
from hypothesis import assume, given, strategies as st
from rich.console import Console
from rich.control import strip_control_codes
from rich.markup import escape, render

from agent_memory.cli.output import print_lines

STYLES = ("", "bold", "dim", "green", "yellow")
WORDS = ["use pnpm", "tab\there\tand", "cr\rx", "bell\x07", "[bold]no[/]", "back\\", "\\[dim]", "日本語の規則　です",
         "wide 日本\tafter", "trailing  ", "esc \x1b[31mred", "two\nlines", "", "x" * 120]


def _markup(line: list[tuple[str, str]]) -> str:
    return "".join(f"[{style}]{escape(text + ' ')[:-1]}[/]" if style else escape(text + " ")[:-1] for text, style in line)


def _console(color: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    # emoji off on the markup side: print_lines reads no emoji codes in a person's words
    return Console(file=out, highlight=False, soft_wrap=True, width=80, force_terminal=color,
                   color_system="standard" if color else None, emoji=False), out


@pytest.mark.parametrize("color", [False, True])
@given(st.lists(st.lists(st.tuples(st.sampled_from(WORDS) | st.text(max_size=12), st.sampled_from(STYLES)),
                         min_size=1, max_size=4), max_size=6))
def test_the_same_bytes_as_markup(color: bool, lines: list[list[tuple[str, str]]]) -> None:
    # markup cannot open or close a style right after a backslash (it reads "\\[" as an escaped bracket), and rich's
    # escape leaves a backslash before a bracket that opens no tag ("\\[ ") as it is, which markup then reads as an
    # escaped bracket: the markup is the reference only for the words its escape gives back as they were
    assume(not any(text.endswith("\\") or render(escape(text + " ")[:-1]).plain != strip_control_codes(text)
                   for line in lines for text, _style in line))
    expected, want = _console(color)
    if lines:
        expected.print("\n".join(_markup(line) for line in lines))
    found, got = _console(color)
    print_lines(found, lines)
    assert got.getvalue() == want.getvalue()


def test_emoji_codes_and_brackets_stay_as_typed() -> None:
    found, got = _console(False)
    print_lines(found, [[("  ", ""), ("abc", "green"), (" :fire: [bold]x[/]", "dim")], [("\\[ a\\[b", "")]])
    assert got.getvalue() == "  abc :fire: [bold]x[/]\n\\[ a\\[b\n"
