"""Which instruction files each agent loads by itself, and how much of each: what it already carries is not injected.

- Claude Code: ``CLAUDE.md``, ``.claude/CLAUDE.md`` and ``CLAUDE.local.md`` in cwd and every folder above it,
  and ``CLAUDE.md`` in its home (``$CLAUDE_CONFIG_DIR``).
- Codex CLI: in each folder from the project root down to cwd, the first of ``AGENTS.override.md``,
  ``AGENTS.md`` and the ``project_doc_fallback_filenames`` of its config.toml; together at most
  ``project_doc_max_bytes`` (32 KiB), the rest cut. In ``$CODEX_HOME``: ``AGENTS.override.md``, else ``AGENTS.md``.
- Gemini CLI: the ``context.fileName`` of its settings (``GEMINI.md`` by default; a name or a list of them)
  in cwd up to the project root, and in its home (``$GEMINI_CLI_HOME/.gemini``).

A claim adopted into any other file is one the agent does not see, so session-start injects it.
"""

from __future__ import annotations

import os

from .. import fastjson, layout

CLAUDE_NAMES = ("CLAUDE.md", os.path.join(".claude", "CLAUDE.md"), "CLAUDE.local.md")
CODEX_NAMES = ("AGENTS.override.md", "AGENTS.md")  # the override, where a folder has one, instead of AGENTS.md
CODEX_MAX_BYTES = 32 * 1024
GEMINI_NAMES = ("GEMINI.md",)


def _folders(root: str, cwd: str, above_root: bool) -> list[str]:
    """The folders an agent reads, outermost first: the project root (or the filesystem's) down to cwd.

    The project root is found from cwd, so cwd is always at or below it.
    """
    here = os.path.realpath(cwd) if cwd else root
    chain = [here]
    while (above_root or here != root) and os.path.dirname(here) != here:
        here = os.path.dirname(here)
        chain.append(here)
    return list(reversed(chain))


def settings_files(agent: str, root: str) -> list[str]:
    """The agent's own config files that say which instruction files it loads (user level, then project)."""
    home = layout.agent_home(agent)
    if agent == "codex":
        return [os.path.join(home, "config.toml"), os.path.join(root, ".codex", "config.toml")]
    if agent == "gemini":
        return [os.path.join(home, "settings.json"), os.path.join(root, ".gemini", "settings.json")]
    return []


def _codex_settings(root: str) -> tuple[list[str], int]:
    """``project_doc_fallback_filenames`` and ``project_doc_max_bytes`` from Codex's config.toml (the project's last).

    Read by hand, no ``re`` and no TOML parser: two top-level keys on the hot path of session-start.
    """
    fallbacks: list[str] = []
    limit = CODEX_MAX_BYTES
    for path in settings_files("codex", root):
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read(256 * 1024)
        except OSError:
            continue
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("["):
                break  # top-level keys come before the first table
            key, eq, value = line.partition("=")
            key, value = key.strip(), value.split("#", 1)[0].strip() if "]" not in value else value.strip()
            if not eq:
                continue
            if key == "project_doc_fallback_filenames" and value.startswith("[") and "]" in value:
                inner = value[1:value.index("]")]
                fallbacks = [part.strip().strip("\"'") for part in inner.split(",") if part.strip().strip("\"'")]
            elif key == "project_doc_max_bytes" and value.isdigit():
                limit = int(value)
    return [n for n in fallbacks if "/" not in n and "\\" not in n and n not in CODEX_NAMES], limit


def _gemini_names(root: str) -> tuple[str, ...]:
    """``context.fileName`` from Gemini's settings (the project's over the user's), else ``GEMINI.md``."""
    names: tuple[str, ...] = GEMINI_NAMES
    for path in settings_files("gemini", root):
        try:
            found = fastjson.read_file(path, None)
        except Exception:
            continue
        context = found.get("context") if isinstance(found, dict) else None
        value = context.get("fileName") if isinstance(context, dict) else None
        if isinstance(value, str) and value:
            names = (value,)
        elif isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
            names = tuple(value)
    return names


def loaded(agent: str, root: str, cwd: str = "") -> list[tuple[str, int]]:
    """The instruction files the agent loads that exist, each with how many bytes of it count (-1: all)."""
    if agent == "claude":
        home = layout.agent_home("claude")
        found = [os.path.join(folder, name) for folder in _folders(root, cwd, above_root=True) for name in CLAUDE_NAMES]
        return [(p, -1) for p in [os.path.join(home, "CLAUDE.md"), *found] if os.path.isfile(p)]
    if agent == "codex":
        fallbacks, left = _codex_settings(root)
        out: list[tuple[str, int]] = []
        home = layout.agent_home("codex")
        for name in CODEX_NAMES:
            if os.path.isfile(os.path.join(home, name)):
                out.append((os.path.join(home, name), -1))
                break
        for folder in _folders(root, cwd, above_root=False):
            for name in (*CODEX_NAMES, *fallbacks):
                path = os.path.join(folder, name)
                if os.path.isfile(path):
                    if left > 0:
                        out.append((path, left))
                        try:
                            left -= os.path.getsize(path)
                        except OSError:
                            pass
                    break  # one file a folder
        return out
    names = _gemini_names(root)
    home = layout.agent_home("gemini")
    found = [os.path.join(folder, name) for folder in _folders(root, cwd, above_root=False) for name in names]
    return [(p, -1) for p in [*(os.path.join(home, n) for n in names), *found] if os.path.isfile(p)]


def candidates(agent: str, root: str, cwd: str = "") -> list[str]:
    """Every path whose existence or content changes what the agent loads (for the session-start cache)."""
    if agent == "claude":
        names: tuple[str, ...] = CLAUDE_NAMES
        folders = _folders(root, cwd, above_root=True)
        home = [os.path.join(layout.agent_home("claude"), "CLAUDE.md")]
    elif agent == "codex":
        names = (*CODEX_NAMES, *_codex_settings(root)[0])
        folders = _folders(root, cwd, above_root=False)
        home = [os.path.join(layout.agent_home("codex"), n) for n in CODEX_NAMES]
    else:
        names = _gemini_names(root)
        folders = _folders(root, cwd, above_root=False)
        home = [os.path.join(layout.agent_home("gemini"), n) for n in names]
    return [*settings_files(agent, root), *home, *(os.path.join(f, n) for f in folders for n in names)]
