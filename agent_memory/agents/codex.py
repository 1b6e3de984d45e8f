"""Codex CLI: rollouts in ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`` (read by ``codex_reader.py``),
hooks in ``hooks.json``, ``AGENTS.md`` files cut at ``project_doc_max_bytes``, the ``$cs-memory`` skill.

Seen with the real CLI (0.171): a hook's context is kept up to about 2,500 tokens, reckoned as UTF-8 bytes / 4
(then a spill to a file); ``transcript_path`` may be null (the rollout is found by session id); SessionEnd
hooks run from 0.171 on (Stop, after each turn, before that), their timeout clamped to 3 s.
"""

from __future__ import annotations

import os
import time

from .. import layout
from ..transcripts import listed
from . import Agent, folders, ran_inside, text_of

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import IO, Any

    from ..model import ReadResult

NAMES = ("AGENTS.override.md", "AGENTS.md")  # the override, where a folder has one, instead of AGENTS.md
MAX_BYTES = 32 * 1024  # project_doc_max_bytes: what Codex reads of the AGENTS.md files together
CATCHUP_DAYS = 14  # how many days of rollout folders catching up looks through
SESSION_END_SINCE = (0, 171, 0)  # the first Codex CLI seen to run SessionEnd hooks
_ENVELOPE_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_SIGNATURE = rb'\A\s*\{"timestamp":"[^"]*","type":"(?:session_meta|response_item|event_msg|turn_context)"'


class Codex(Agent, name="codex", title="Codex CLI"):
    limit = (2_500 * 4, "bytes")
    instruction_file = "AGENTS.md"
    notes = (
        "Codex runs a new or changed hook only after you trust it: open /hooks in Codex and trust the three agent-memory hooks.",
        "Codex reads a project's .codex/hooks.json only when the project itself is trusted.",
    )

    def home(self) -> str:
        return os.environ.get("CODEX_HOME") or os.path.join(layout.home(), ".codex")

    # ------------------------------------------------------------ hooks

    def session_transcript(self, payload: "dict[str, Any]") -> str:
        transcript = text_of(payload, "transcript_path")
        if os.path.isfile(transcript):
            return transcript
        # Codex may send transcript_path null; its rollout is found by session id
        return self.rollout(text_of(payload, "session_id")) or transcript

    def session_stage(self, payload: "dict[str, Any]") -> str:
        # Codex's Stop (where it has no SessionEnd) fires after every turn: stage only when the turn added evidence
        return "always" if text_of(payload, "hook_event_name") == "SessionEnd" else "new"

    # ------------------------------------------------------------ transcripts

    def _sessions(self) -> str:
        return os.path.join(self.home(), "sessions")

    def _day_folders(self, days: int) -> list[str]:
        from .. import clock

        sessions = self._sessions()
        today = clock.now_epoch()
        found = []
        for back in range(days):
            day = time.gmtime(today - back * 86400)
            folder = os.path.join(sessions, f"{day.tm_year:04d}", f"{day.tm_mon:02d}", f"{day.tm_mday:02d}")
            if os.path.isdir(folder):
                found.append(folder)
        return found

    def rollout(self, session_id: str) -> str:
        """The rollout file of one Codex session (``sessions/YYYY/MM/DD/rollout-*-<id>.jsonl``), or ""."""
        if not session_id or "/" in session_id or "*" in session_id or "?" in session_id or "[" in session_id:
            return ""
        sessions = self._sessions()
        if not os.path.isdir(sessions):
            return ""
        for folder in self._day_folders(3):
            for path in listed(folder, (f"{session_id}.jsonl",), "rollout-"):
                return path
        import glob

        for path in sorted(glob.glob(os.path.join(glob.escape(sessions), "*", "*", "*", f"rollout-*{session_id}.jsonl"))):
            return path
        return ""

    def locate(self, project_root: str, cwd: str = "", transcript: str = "") -> list[str]:
        """Recent rollouts whose session ran inside the project (by their first record's cwd), plus ``transcript``.

        Codex keeps every project's rollouts in one dated tree, so ``cwd`` adds nothing here.
        """
        recent = (path for folder in self._day_folders(CATCHUP_DAYS) for path in listed(folder, (".jsonl",), "rollout-"))
        return ran_inside(recent, rollout_cwd, project_root, transcript)

    def sessions_home(self) -> str:
        return os.path.join(self.home(), "sessions")

    def history(self, project_root: "str | None" = None) -> list[str]:
        """Every rollout in ``sessions/YYYY/MM/DD/``; for one project, those whose first record's cwd is in it."""
        import glob

        from . import inside

        found = sorted(glob.glob(os.path.join(glob.escape(self._sessions()), "*", "*", "*", "rollout-*.jsonl")))
        return found if project_root is None else [p for p in found if inside(rollout_cwd(p), project_root)]

    def session_folder(self, path: str, candidates: "tuple[str, ...]" = ()) -> str:
        return rollout_cwd(path)

    def read(self, f: "IO[bytes]", path: str, start_offset: int, start_line: int, size: int) -> "ReadResult":
        from . import codex_reader

        return codex_reader.read(f, path, start_offset, start_line, os.path.join(self.home(), "prompts"))

    def owns_record(self, record: "dict[str, Any]", kind: "str | None") -> int:
        if ("payload" in record and kind in _ENVELOPE_TYPES) or "record_type" in record:
            return 2
        if kind == "message":
            return int("role" in record and isinstance(record.get("content"), list))  # a pre-envelope rollout item
        if kind is None:  # a pre-envelope rollout header
            return int(isinstance(record.get("id"), str) and "timestamp" in record
                       and ("instructions" in record or "git" in record or "cwd" in record))
        return 0

    def owns_head(self, head: bytes) -> bool:
        import re

        return re.match(_SIGNATURE, head) is not None

    def owns_line_start(self, start: bytes) -> bool:
        return self.owns_head(start)

    def owns_name(self, name: str, parts: list[str]) -> bool:
        return name.startswith("rollout-") and name.endswith(".jsonl")

    # ------------------------------------------------------------ instruction files

    def settings_files(self, root: str) -> list[str]:
        return [os.path.join(self.home(), "config.toml"), os.path.join(root, ".codex", "config.toml")]

    def _settings(self, root: str) -> "tuple[list[str], int]":
        """``project_doc_fallback_filenames`` and ``project_doc_max_bytes`` from Codex's config.toml (the project's last).

        Read by hand, no ``re`` and no TOML parser: two top-level keys on the hot path of session-start.
        """
        fallbacks: list[str] = []
        limit = MAX_BYTES
        for path in self.settings_files(root):
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
        return [n for n in fallbacks if "/" not in n and "\\" not in n and n not in NAMES], limit

    def loaded(self, root: str, cwd: str = "") -> "list[tuple[str, int]]":
        """In each folder from the project root down to cwd, the first of ``AGENTS.override.md``, ``AGENTS.md`` and
        the ``project_doc_fallback_filenames`` of its config.toml, together at most ``project_doc_max_bytes``;
        in its home, ``AGENTS.override.md``, else ``AGENTS.md``."""
        fallbacks, left = self._settings(root)
        out: list[tuple[str, int]] = []
        home = self.home()
        for name in NAMES:
            if os.path.isfile(os.path.join(home, name)):
                out.append((os.path.join(home, name), -1))
                break
        for folder in folders(root, cwd, above_root=False):
            for name in (*NAMES, *fallbacks):
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

    def candidates(self, root: str, cwd: str = "") -> list[str]:
        names = (*NAMES, *self._settings(root)[0])
        home = [os.path.join(self.home(), n) for n in NAMES]
        return [*self.settings_files(root), *home, *(os.path.join(f, n) for f in folders(root, cwd, False) for n in names)]

    def report_files(self, root: str) -> list[str]:
        return [os.path.join(self.home(), "AGENTS.md"), os.path.join(root, "AGENTS.md")]

    def over_budget(self, files: "list[tuple[str, bytes]]") -> "list[dict[str, Any]]":
        total = sum(len(data) for _path, data in files)
        if total <= MAX_BYTES:
            return []
        return [{"files": [path for path, _data in files], "lines": sum(data.count(b"\n") for _path, data in files),
                 "bytes": total, "limit_lines": None, "limit_bytes": MAX_BYTES}]

    # ------------------------------------------------------------ install

    def settings_file(self, scope: str, root: str) -> str:
        return os.path.join(self.home() if scope == "user" else os.path.join(root, ".codex"), "hooks.json")

    def hook_events(self) -> "tuple[tuple[str, str, int], ...]":
        """SessionEnd where the ``codex`` on PATH has it (its timeout clamped to 3 s: the hook only hands work to a
        background worker); else Stop, after every turn (the worker stages only when the turn added evidence)."""
        version = codex_version()
        end = ("SessionEnd", "session-end", 3) if version is not None and version >= SESSION_END_SINCE else \
            ("Stop", "session-end", 10)
        return (("SessionStart", "session-start", 30), ("UserPromptSubmit", "user-prompt-submit", 10), end)

    def review_entries(self, root: str) -> "list[tuple[str, str]]":
        """A skill in ``.agents/skills/`` (project) or ``$CODEX_HOME/skills/`` (user), called ``$cs-memory``."""
        parts = ("skills", "cs-memory", "SKILL.md")
        return [(os.path.join(root, ".agents", *parts), "$cs-memory"), (os.path.join(self.home(), *parts), "$cs-memory")]

    def review_text(self, rendered: str, mark: str) -> str:
        from . import skill_text

        return skill_text(rendered, mark, "The person called `$cs-memory`; what they wrote with it are the arguments.")

    # ------------------------------------------------------------ MCP

    mcp_client = "codex"  # codex-mcp-client

    def mcp_file(self, scope: str, root: str) -> str:
        """``[mcp_servers.NAME]`` in ``config.toml``: the project's ``.codex/`` (read when the project is trusted),
        or ``$CODEX_HOME``."""
        return os.path.join(self.home() if scope == "user" else os.path.join(root, ".codex"), "config.toml")


def rollout_cwd(path: str) -> str:
    """The working directory a rollout's first record names ("" when it names none)."""
    from .. import fastjson

    try:
        with open(path, "rb") as handle:
            first = handle.readline(256 * 1024)
        record = fastjson.loads(first)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return ""
    if not isinstance(record, dict):
        return ""
    body = record.get("payload") if isinstance(record.get("payload"), dict) else record
    cwd = body.get("cwd") if isinstance(body, dict) else None
    return cwd if isinstance(cwd, str) else ""


def codex_version() -> "tuple[int, ...] | None":
    """The version of the ``codex`` on PATH, None when there is none or it does not say."""
    import re
    import shutil
    import subprocess

    found = shutil.which("codex")
    if not found:
        return None
    try:
        done = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", done.stdout)
    return tuple(int(n) for n in match.groups()) if match else None


AGENT = Codex()
