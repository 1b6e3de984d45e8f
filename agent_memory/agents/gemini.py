"""Gemini CLI: recordings in ``<.gemini>/tmp/<project slug or hash>/chats/session-*`` (read by
``gemini_reader.py``), hooks in ``settings.json`` (BeforeAgent for a prompt), ``GEMINI.md`` (or its
``context.fileName``), ``/cs-memory`` as a TOML custom command.

Seen with the real CLI (0.61): no limit of its own on a hook's context, but it escapes every ``<`` and ``>`` as
``&lt;`` / ``&gt;``; hook timeouts are in milliseconds; a project's hooks run only in a trusted folder.
"""

from __future__ import annotations

import os

from .. import fastjson, layout
from ..transcripts import listed
from . import Agent, folders, subfolders

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import IO, Any

    from ..model import ReadResult

NAMES = ("GEMINI.md",)  # unless its settings' context.fileName says otherwise
_MESSAGE_TYPES = frozenset({"user", "gemini", "model", "info", "error", "warning"})


class Gemini(Agent, name="gemini", title="Gemini CLI"):
    events = {"session-start": "SessionStart", "user-prompt-submit": "BeforeAgent", "session-end": "SessionEnd"}
    limit = (10_000, "escaped")
    instruction_file = "GEMINI.md"
    notes = ("Gemini CLI runs a project's hooks only in a folder it trusts (headless in an untrusted folder it exits 55): "
             "trust the folder when Gemini asks, or with /permissions.",)

    def home(self) -> str:
        # Gemini CLI takes $GEMINI_CLI_HOME as the home directory its .gemini folder is in
        return os.path.join(os.environ.get("GEMINI_CLI_HOME") or layout.home(), ".gemini")

    # ------------------------------------------------------------ transcripts

    def _project_slugs(self, roots: set[str]) -> set[str]:
        """The short names ``projects.json`` gives these project folders (``{"projects": {path: slug}}``)."""
        try:
            with open(os.path.join(self.home(), "projects.json"), "rb") as handle:
                registry = fastjson.loads(handle.read(4 * 1024 * 1024))
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            return set()
        projects = registry.get("projects") if isinstance(registry, dict) else None
        if not isinstance(projects, dict):
            return set()
        wanted = {os.path.normpath(r) for r in roots}
        return {
            slug
            for path, slug in projects.items()
            if isinstance(path, str) and isinstance(slug, str) and slug and "/" not in slug and "\\" not in slug
            and os.path.normpath(path) in wanted
        }

    def locate(self, project_root: str, cwd: str = "", transcript: str = "") -> list[str]:
        """``<.gemini>/tmp/<id>/chats/session-*`` for the project root and ``cwd``, plus the folder of ``transcript``.
        The id is the project's slug in ``projects.json`` (newer releases) or the sha256 of its path (older ones,
        and folders not yet migrated)."""
        import hashlib

        roots = {project_root} | ({cwd} if cwd else set())
        found_in = {os.path.dirname(transcript)} if transcript else set()
        ids = {hashlib.sha256(r.encode("utf-8")).hexdigest() for r in roots} | self._project_slugs(roots)
        found_in |= {os.path.join(self.home(), "tmp", name, "chats") for name in ids}
        found: set[str] = set()
        for folder in found_in:
            found.update(listed(folder, (".json", ".jsonl"), "session-"))
        return sorted(found)

    def _owner(self, folder: str, candidates: "tuple[str, ...]") -> str:
        """The project folder a ``tmp/<slug or hash>`` folder is for: its ``.project_root`` (which Gemini CLI writes),
        else ``projects.json``'s entry for the slug, else the candidate whose sha256 is the folder's name."""
        import hashlib

        try:
            with open(os.path.join(folder, ".project_root"), encoding="utf-8") as handle:
                written = handle.read(64 * 1024).strip()
            if written:
                return written
        except (OSError, UnicodeDecodeError):
            pass
        name = os.path.basename(folder)
        try:
            with open(os.path.join(self.home(), "projects.json"), "rb") as handle:
                registry = fastjson.loads(handle.read(4 * 1024 * 1024))
            projects = registry.get("projects") if isinstance(registry, dict) else None
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            projects = None
        for path, slug in (projects.items() if isinstance(projects, dict) else ()):
            if slug == name and isinstance(path, str):
                return path
        for candidate in candidates:
            if candidate and hashlib.sha256(candidate.encode("utf-8")).hexdigest() == name:
                return candidate
        return ""

    def sessions_home(self) -> str:
        return os.path.join(self.home(), "tmp")

    def history(self, project_root: "str | None" = None) -> list[str]:
        """``<.gemini>/tmp/*/chats/session-*``; for one project, the folders that are its root's or below it."""
        from . import inside

        base = self.sessions_home()
        found = []
        for name in subfolders(base):
            files = sorted(listed(os.path.join(base, name, "chats"), (".json", ".jsonl"), "session-"))
            if files and (project_root is None or inside(self._owner(os.path.join(base, name), (project_root,)), project_root)):
                found.extend(files)
        return found

    def session_folder(self, path: str, candidates: "tuple[str, ...]" = ()) -> str:
        """Its ``tmp/<id>`` folder's owner (records carry no cwd), else the candidate its ``projectHash`` names."""
        import hashlib
        import re

        chats = os.path.dirname(os.path.abspath(path))
        if os.path.basename(chats) == "chats":
            owner = self._owner(os.path.dirname(chats), candidates)
            if owner:
                return owner
        try:
            with open(path, "rb") as handle:
                head = handle.read(64 * 1024)
        except OSError:
            return ""
        found = re.search(rb'"projectHash"\s*:\s*"([0-9a-f]{64})"', head)
        for candidate in candidates if found else ():
            if candidate and hashlib.sha256(candidate.encode("utf-8")).hexdigest().encode() == found.group(1):
                return candidate
        return ""

    def read(self, f: "IO[bytes]", path: str, start_offset: int, start_line: int, size: int) -> "ReadResult":
        from . import gemini_reader

        return gemini_reader.read(f, path, start_offset, start_line, size)

    def owns_record(self, record: "dict[str, Any]", kind: "str | None") -> int:
        if "projectHash" in record or "$set" in record or "$rewindTo" in record:
            return 2
        return int(kind in _MESSAGE_TYPES and "id" in record and "message" not in record
                   and ("content" in record or "parts" in record))

    def owns_document(self, value: "dict[str, Any]") -> bool:
        return "messages" in value and ("sessionId" in value or "projectHash" in value)

    def owns_head(self, head: bytes) -> bool:
        import re

        return re.search(rb'"projectHash"\s*:', head) is not None and re.search(rb'"sessionId"\s*:', head) is not None

    def owns_name(self, name: str, parts: list[str]) -> bool:
        return ".gemini" in parts and name.startswith("session-")

    # ------------------------------------------------------------ instruction files

    def settings_files(self, root: str) -> list[str]:
        return [os.path.join(self.home(), "settings.json"), os.path.join(root, ".gemini", "settings.json")]

    def _names(self, root: str) -> "tuple[str, ...]":
        """``context.fileName`` from Gemini's settings (the project's over the user's), else ``GEMINI.md``."""
        names: tuple[str, ...] = NAMES
        for path in self.settings_files(root):
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

    def loaded(self, root: str, cwd: str = "") -> "list[tuple[str, int]]":
        """Its ``context.fileName`` files in cwd up to the project root and in its home, each whole."""
        return [(p, -1) for p in self.candidates(root, cwd, settings=False) if os.path.isfile(p)]

    def candidates(self, root: str, cwd: str = "", settings: bool = True) -> list[str]:
        names = self._names(root)
        found = [os.path.join(folder, name) for folder in folders(root, cwd, above_root=False) for name in names]
        home = [os.path.join(self.home(), n) for n in names]
        return [*(self.settings_files(root) if settings else ()), *home, *found]

    def report_files(self, root: str) -> list[str]:
        return [os.path.join(root, "GEMINI.md"), os.path.join(self.home(), "GEMINI.md")]

    # Gemini states no limit on its instruction files: none is checked

    # ------------------------------------------------------------ install

    def settings_file(self, scope: str, root: str) -> str:
        return os.path.join(self.home() if scope == "user" else os.path.join(root, ".gemini"), "settings.json")

    def hook_events(self) -> "tuple[tuple[str, str, int], ...]":
        # milliseconds
        return (("SessionStart", "session-start", 30000), ("BeforeAgent", "user-prompt-submit", 10000),
                ("SessionEnd", "session-end", 5000))

    def hook_entry(self, verb: str, timeout: int, command: str) -> "dict[str, Any]":
        # "name" is how Gemini CLI's /hooks enable|disable refers to a hook
        return {"name": f"agent-memory-{verb}", "type": "command", "command": command, "timeout": timeout,
                "description": f"agent-memory {verb}"}

    def review_entries(self, root: str) -> "list[tuple[str, str]]":
        """A custom command in ``commands/*.toml``, called ``/cs-memory``."""
        name = "cs-memory.toml"
        return [(os.path.join(root, ".gemini", "commands", name), "/cs-memory"),
                (os.path.join(self.home(), "commands", name), "/cs-memory")]

    def review_text(self, rendered: str, mark: str) -> str:
        import json

        from . import INTRO, template_parts

        description, text = template_parts(rendered)
        text = text.replace(INTRO, INTRO.replace("$ARGUMENTS", "{{args}}"))
        prompt = text.strip("\n").replace("\\", "\\\\").replace('"""', '\\"""')
        return (f"# {mark}\n" if mark else "") + f"description = {json.dumps(description, ensure_ascii=False)}\n" \
            f'prompt = """\n{prompt}\n"""\n'

    # ------------------------------------------------------------ MCP

    mcp_client = "gemini"  # gemini-cli-mcp-client

    def mcp_file(self, scope: str, root: str) -> str:
        """``mcpServers`` in the same ``settings.json`` as the hooks."""
        return self.settings_file(scope, root)


AGENT = Gemini()
