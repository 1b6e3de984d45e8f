"""What every command shares: exit codes, the one-line usage error, JSON and rich output, the store's layout."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_NOT_FOUND = 0, 1, 2, 3
EXIT_BUG = 70  # an unexpected error: a fault of ours, logged (the sysexits EX_SOFTWARE)


class Parser(argparse.ArgumentParser):
    """argparse that says one line and exits 2 on bad usage."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        name = self.prog.split()[-1]
        command = "agent-memory" if name == "agent-memory" else f"agent-memory {name}"
        self.exit(EXIT_USAGE, f"agent-memory: {message} (see '{command} --help')\n")


def count(text: str) -> int:
    """A number of hits: a whole number, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def paths(args: argparse.Namespace) -> Any:
    """The store's layout as pathlib paths, from ``--memory-dir`` or the environment."""
    from ..store import Paths

    return Paths.resolve(getattr(args, "memory_dir", None))


def explicit_store(args: argparse.Namespace) -> bool:
    """Whether the person named the store (``--memory-dir`` or ``$AGENT_MEMORY_DIR``) instead of the project's."""
    import os

    return bool(getattr(args, "memory_dir", None) or os.environ.get("AGENT_MEMORY_DIR"))


def refuse_outside_project(args: argparse.Namespace, command: str, also: str = "") -> None:
    """A command that writes refuses to run in no git repository unless a store is named: the folder would
    otherwise become a project of its own (a ``.memory`` in the home folder, its rules adopted into ``~/CLAUDE.md``)."""
    import os

    from ..errors import OutsideProject
    from ..projects import repository

    if explicit_store(args) or repository(os.getcwd()):
        return
    raise OutsideProject(f"{os.getcwd()} is in no git repository, so {command} has no project to write to: "
                         f"cd into the project, or give --memory-dir DIR" + (f" (or {also})" if also else ""))


def emit_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def print_notes(out: Any, notes: "tuple[Any, ...]") -> None:
    """Print each note that is said: a caller writes ``count and f"…"``, so a note whose count is 0 is left out."""
    for note in notes:
        if note:
            out.print(note)


def print_lines(out: Any, lines: "list[list[tuple[str, str]]]") -> None:
    """Print many lines of styled pieces at once, as rich's markup would, without markup.

    A listing of thousands of lines (a dry run of a long history) spent most of its time in rich
    parsing markup and making a ``Text`` of every line; pieces go out as segments instead (each
    style rendered once), with the control codes ``Text`` strips taken out of their text, and no
    markup or emoji codes read in what a person typed.
    """
    from rich.control import strip_control_codes
    from rich.segment import Segment, Segments
    from rich.style import Style

    styles: dict[str, Any] = {}
    segments: list[Any] = []
    line_end = Segment.line()
    for line in lines:
        if any("\t" in text for text, _name in line):
            # a tab is expanded to the next tab stop by the cells before it: rich's Text knows how
            from rich.text import Text

            if segments:
                out.print(Segments(segments), end="")
                segments = []
            out.print(Text.assemble(*((text, name or None) for text, name in line)))
            continue
        for text, name in line:
            style = styles.get(name)
            if style is None:
                style = styles[name] = Style.parse(name) if name else None
            text = strip_control_codes(text)
            if "\n" in text:  # a style ends at each line's end and starts again on the next, as rich does
                first, *rest = text.split("\n")
                segments.append(Segment(first, style))
                for part in rest:
                    segments.extend((line_end, Segment(part, style)))
            else:
                segments.append(Segment(text, style))
        segments.append(line_end)
    if segments:
        out.print(Segments(segments), end="")


def show(args: argparse.Namespace, found: Any, for_people: "Callable[[Any, Any], None]") -> None:
    """A command's findings: JSON with ``--json`` (for scripts), else ``for_people(found, console)``."""
    if getattr(args, "json", False):
        emit_json(found)
    else:
        for_people(found, console())


def table(title: str, columns: "list[str] | tuple[str, ...]", rows: "list[list[str]]", right: "tuple[str, ...]" = (),
          fold: bool = False) -> Any:
    """A rich table with a left-set title: the ``right`` columns right-aligned, long cells folded when ``fold``."""
    from rich.table import Table

    out = Table(title=title, title_justify="left")
    for column in columns:
        out.add_column(column, justify="right" if column in right else "left", overflow="fold" if fold else "ellipsis")
    for row in rows:
        out.add_row(*row)
    return out
