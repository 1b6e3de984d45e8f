"""Older name of ``layout``'s path functions; new code imports ``layout``."""

from __future__ import annotations

from .layout import agent_home, home, project_root, project_store, user_store  # noqa: F401
