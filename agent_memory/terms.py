"""Older name of ``text``."""

from __future__ import annotations

from .text import *  # noqa: F401,F403
from .text import _SKIP, _WEAK, _Japanese, _cjk_char, _split_runs  # noqa: F401
