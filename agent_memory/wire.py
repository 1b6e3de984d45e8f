"""Older name of ``fastjson``."""

from __future__ import annotations

from .fastjson import dumps, loads, quoted, read_file  # noqa: F401
