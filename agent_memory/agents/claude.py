"""Claude Code: transcripts in ``<config>/projects/<folder>/*.jsonl`` (read by ``claude_reader.py``), the hook
protocol every other agent is mapped onto, ``CLAUDE.md`` files, ``/cs-memory`` as a command file.

Seen with the real CLI (2.1.x): a hook's context is kept up to 10,000 characters (then a preview and a file).
"""

from __future__ import annotations

import os

from .. import layout
from ..transcripts import listed
from . import Agent, folders, subfolders

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import IO, Any

    from ..model import ReadResult

# what Claude Code loads in cwd and every folder above it
NAMES = ("CLAUDE.md", os.path.join(".claude", "CLAUDE.md"), "CLAUDE.local.md")
# Claude Code's MEMORY.md limits, applied to each CLAUDE.md it loads
MAX_LINES, MAX_BYTES = 200, 25_000
HEAD_LINES = 200  # how far into a session file its first cwd is looked for
# how the plugin's review command runs the command line: its own copy of the package, found from the plugin's
# root, never PATH
PLUGIN_RUNNER = 'python3 "${CLAUDE_PLUGIN_ROOT}/agent_memory/run_hook.py" cli'
_BOOKKEEPING = frozenset({"file-history-snapshot", "queue-operation"})


def _slug(folder: str) -> str:
    """The name Claude Code gives a project's folder: its path, every character but ASCII letters and digits a dash."""
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in folder)


class Claude(Agent, name="claude", title="Claude Code"):
    limit = (10_000, "chars")
    instruction_file = "CLAUDE.md"

    def home(self) -> str:
        return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(layout.home(), ".claude")

    # ------------------------------------------------------------ transcripts

    def locate(self, project_root: str, cwd: str = "", transcript: str = "") -> list[str]:
        """``<config>/projects/<folder>/*.jsonl`` for the project root and ``cwd``, plus the folder of ``transcript``."""
        roots = {project_root} | ({cwd} if cwd else set())
        found_in = {os.path.dirname(transcript)} if transcript else set()
        base = os.path.join(self.home(), "projects")
        found_in |= {os.path.join(base, _slug(r)) for r in roots}
        found: set[str] = set()
        for folder in found_in:
            found.update(listed(folder, (".jsonl",)))
        return sorted(found)

    def sessions_home(self) -> str:
        return os.path.join(self.home(), "projects")

    def history(self, project_root: "str | None" = None) -> list[str]:
        """``<config>/projects/*/*.jsonl``; for one project, the folders named after its root and its subfolders."""
        base = self.sessions_home()
        names = subfolders(base)
        if project_root is not None:
            slug = _slug(project_root)
            names = [n for n in names if n == slug or n.startswith(slug + "-")]
        return [path for name in names for path in sorted(listed(os.path.join(base, name), (".jsonl",)))]

    def session_folder(self, path: str, candidates: "tuple[str, ...]" = ()) -> str:
        """The ``cwd`` of the first record that has one (records of Claude Code 1.x and 2.x all carry it)."""
        from itertools import islice

        from .. import fastjson

        try:
            with open(path, "rb") as handle:
                head = islice(iter(lambda: handle.readline(4 * 1024 * 1024), b""), HEAD_LINES)
                for record in fastjson.objects_holding(head, b'"cwd"'):
                    cwd = record.get("cwd")
                    if isinstance(cwd, str) and cwd:
                        return cwd
        except OSError:
            pass
        return ""

    def read(self, f: "IO[bytes]", path: str, start_offset: int, start_line: int, size: int) -> "ReadResult":
        from . import claude_reader

        return claude_reader.read(f, path, start_offset, start_line)

    def owns_record(self, record: "dict[str, Any]", kind: "str | None") -> int:
        if "parentUuid" in record or "leafUuid" in record:
            return 2
        if kind is None:
            return int(isinstance(record.get("message"), dict) and "sessionId" in record)
        if kind in ("user", "assistant") and isinstance(record.get("message"), dict):
            return 1
        if "sessionId" in record and ("uuid" in record or "data" not in record):
            return 1  # a message, or a bookkeeping line (mode, custom-title, …)
        # the line Claude Code 2.x opens a session file with
        return int(kind in _BOOKKEEPING and ("messageId" in record or "snapshot" in record or "operation" in record))

    def owns_head(self, head: bytes) -> bool:
        import re

        return re.match(rb'\A\s*\{\s*"(?:parentUuid"|type"\s*:\s*"summary"\s*,\s*"summary")', head) is not None

    def owns_line_start(self, start: bytes) -> bool:
        import re

        record = rb'\A\s*\{\s*"type"\s*:\s*"(?:user|assistant)"\s*,.{0,2000}?"(?:sessionId|parentUuid|uuid)"\s*:'
        return self.owns_head(start) or re.match(record, start, re.S) is not None

    def owns_name(self, name: str, parts: list[str]) -> bool:
        return ".claude" in parts or (name.startswith("agent-") and name.endswith(".jsonl"))

    # ------------------------------------------------------------ instruction files

    def loaded(self, root: str, cwd: str = "") -> "list[tuple[str, int]]":
        """``CLAUDE.md``, ``.claude/CLAUDE.md`` and ``CLAUDE.local.md`` in cwd and every folder above it, and
        ``CLAUDE.md`` in its home; each whole."""
        found = [os.path.join(folder, name) for folder in folders(root, cwd, above_root=True) for name in NAMES]
        return [(p, -1) for p in [os.path.join(self.home(), "CLAUDE.md"), *found] if os.path.isfile(p)]

    def candidates(self, root: str, cwd: str = "") -> list[str]:
        found = [os.path.join(folder, name) for folder in folders(root, cwd, above_root=True) for name in NAMES]
        return [os.path.join(self.home(), "CLAUDE.md"), *found]

    def cache_keys(self) -> list[str]:
        return [self.home(), os.environ.get("CLAUDE_PLUGIN_ROOT", "")]

    def report_files(self, root: str) -> list[str]:
        return [*(os.path.join(root, name) for name in NAMES), os.path.join(self.home(), "CLAUDE.md")]

    def over_budget(self, files: "list[tuple[str, bytes]]") -> "list[dict[str, Any]]":
        rows = []
        for path, data in files:
            lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
            if lines > MAX_LINES or len(data) > MAX_BYTES:
                rows.append({"files": [path], "lines": lines, "bytes": len(data),
                             "limit_lines": MAX_LINES, "limit_bytes": MAX_BYTES})
        return rows

    # ------------------------------------------------------------ install

    local_project_settings = True

    def settings_file(self, scope: str, root: str) -> str:
        # a project's settings.json is committed and shared: the hooks, which name this machine's interpreter, go in
        # settings.local.json, which Claude Code reads beside it and keeps out of git
        if scope == "user":
            return os.path.join(self.home(), "settings.json")
        return os.path.join(root, ".claude", "settings.local.json")

    def former_settings_files(self, scope: str, root: str) -> list[str]:
        return [] if scope == "user" else [os.path.join(root, ".claude", "settings.json")]

    def hook_events(self) -> "tuple[tuple[str, str, int], ...]":
        # seconds; Claude Code lets SessionEnd hooks run max(1.5 s, min(the largest timeout configured, 60 s))
        # (or $CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS): 5 s is what ours asks
        return (("SessionStart", "session-start", 30), ("UserPromptSubmit", "user-prompt-submit", 10),
                ("SessionEnd", "session-end", 5))

    def review_entries(self, root: str) -> "list[tuple[str, str]]":
        """A command file in ``commands/``, called ``/cs-memory``."""
        name = "cs-memory.md"
        return [(os.path.join(root, ".claude", "commands", name), "/cs-memory"),
                (os.path.join(self.home(), "commands", name), "/cs-memory")]

    def plugin_review_entry(self) -> "tuple[str, str] | None":
        """The plugin's command, when the hook runs from the plugin (``$CLAUDE_PLUGIN_ROOT``)."""
        root = os.environ.get("CLAUDE_PLUGIN_ROOT") or ""
        return (os.path.join(root, "commands", "cs-memory.md"), "/agent-memory:cs-memory") if root else None

    def review_text(self, rendered: str, mark: str) -> str:
        return rendered.rstrip("\n") + "\n" + (f"\n<!-- {mark} -->\n" if mark else "")

    # ------------------------------------------------------------ MCP

    mcp_client = "claude"  # claude-code

    def mcp_file(self, scope: str, root: str) -> str:
        """``.mcp.json`` at the project root; ``.claude.json`` in ``$CLAUDE_CONFIG_DIR``, else in the home folder
        (not in ``~/.claude``), where ``claude mcp add --scope user`` writes."""
        if scope == "project":
            return os.path.join(root, ".mcp.json")
        return os.path.join(self.home() if os.environ.get("CLAUDE_CONFIG_DIR") else layout.home(), ".claude.json")

    def mcp_entry(self, command: str, args: "list[str]") -> "dict[str, Any]":
        return {"type": "stdio", "command": command, "args": args}


AGENT = Claude()
