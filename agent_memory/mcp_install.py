"""``install --mcp`` / ``uninstall --mcp``: the MCP server in each agent's own MCP configuration.

Each agent's module says where its real CLI reads its MCP servers (``Agent.mcp_file``: where its own
``mcp add`` writes) and the shape of one entry (``Agent.mcp_entry``); a file is JSON with an ``mcpServers``
object, or TOML with ``[mcp_servers.NAME]`` tables.

A project file names the command ``agent-memory mcp`` (no machine path in a committed file); a user file
names this interpreter, which needs nothing on PATH. Install never clobbers another server or setting;
uninstall removes only the entry named ``agent-memory`` that runs our command.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from .fastjson import JSON_ERRORS
from . import agents
from .store import Paths, atomic_write

NAME = "agent-memory"
_TOML_HEADER = re.compile(r'^\[mcp_servers\.(?:agent-memory|"agent-memory")\]\s*$', re.MULTILINE)


def config_file(agent: str, scope: str, paths: Paths) -> Path:
    """The file ``agent`` reads its MCP servers from, at ``scope``."""
    return Path(agents.get(agent).mcp_file(scope, str(paths.project_root)))


def command(scope: str) -> tuple[str, list[str]]:
    """The server's command line: by name on PATH where the file is committed, this interpreter elsewhere."""
    return ("agent-memory", ["mcp"]) if scope == "project" else (sys.executable, ["-m", "agent_memory", "mcp"])


def entry(agent: str, scope: str) -> dict[str, Any]:
    return agents.get(agent).mcp_entry(*command(scope))


def _ours(found: Any) -> bool:
    return isinstance(found, dict) and isinstance(found.get("args"), list) and "mcp" in found["args"] and (
        "agent-memory" in str(found.get("command", "")) or "agent_memory" in found["args"])


def _read_json(path: Path) -> dict[str, Any]:
    from .errors import UsageError

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    if not text.strip():
        return {}
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except JSON_ERRORS as exc:
        raise UsageError(f"{path} is not valid JSON ({exc}); refusing to change it") from exc
    if not isinstance(data, dict) or not isinstance(data.get("mcpServers", {}), dict):
        raise UsageError(f"{path} does not hold a JSON object with an mcpServers object; refusing to change it")
    return data


def add(agent: str, scope: str, paths: Paths) -> tuple[Path, bool]:
    """Add the server; (the file, whether it changed)."""
    path = config_file(agent, scope, paths)
    if path.suffix == ".toml":
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        if _TOML_HEADER.search(text):
            return path, False
        program, args = command(scope)
        block = f"[mcp_servers.{NAME}]\ncommand = {json.dumps(program)}\nargs = {json.dumps(args)}\n"
        _write(path, text + ("\n" if text and not text.endswith("\n\n") else "") + block if text else block)
        return path, True
    data = _read_json(path)
    servers = data.setdefault("mcpServers", {})
    wanted = entry(agent, scope)
    if servers.get(NAME) == wanted:
        return path, False
    if NAME in servers and not _ours(servers[NAME]):
        from .errors import UsageError

        raise UsageError(f"{path} already has another MCP server named {NAME!r}; refusing to change it")
    servers[NAME] = wanted
    _write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path, True


def remove(agent: str, scope: str, paths: Paths) -> tuple[Path, bool]:
    """Remove the server install added; (the file, whether it changed)."""
    path = config_file(agent, scope, paths)
    if not path.exists():
        return path, False
    if path.suffix == ".toml":
        text = path.read_text(encoding="utf-8")
        found = _TOML_HEADER.search(text)
        if not found:
            return path, False
        following = re.compile(r"^\[", re.MULTILINE).search(text, found.end())
        end = following.start() if following else len(text)
        kept = "\n\n".join(part for part in (text[: found.start()].rstrip("\n"), text[end:].lstrip("\n").rstrip("\n")) if part)
        _write(path, kept + "\n") if kept else _drop(path)
        return path, True
    data = _read_json(path)
    servers = data.get("mcpServers", {})
    if not _ours(servers.get(NAME)):
        return path, False
    del servers[NAME]
    if not servers:
        del data["mcpServers"]
    _write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n") if data else _drop(path)
    return path, True


def _drop(path: Path) -> None:
    """A file that held nothing but our server goes, and its folder when that is left empty (an agent's own
    folder in a project)."""
    path.unlink()
    try:
        path.parent.rmdir()
    except OSError:
        pass  # not empty, or not ours to remove


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)
