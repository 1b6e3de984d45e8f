"""The ``agent-memory`` command: the only code that prints. ``main.py`` parses, one module per command runs it."""

from __future__ import annotations

from .main import build_parser, main  # noqa: F401
