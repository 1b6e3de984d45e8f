"""GitHub Copilot CLI: sessions in ``$COPILOT_HOME/session-state/<id>/events.jsonl``, hooks in
``.github/hooks/*.json``, ``.github/copilot-instructions.md`` and ``AGENTS.md``, ``/cs-memory`` as a skill.

Seen with the real CLI (1.0.102):

- Hooks named in camelCase (``sessionStart``, ``userPromptSubmitted``, ``sessionEnd``) get camelCase input
  (``sessionId``, ``cwd``, ``prompt``; ``timestamp`` in milliseconds); only ``agentStop`` names the transcript
  (``transcriptPath``), so session-end finds it by session id. A hook hands context back as a bare
  ``{"additionalContext": …}``: session-start's goes in front of the first prompt, the prompt hook's inside a
  ``<system_reminder>`` after it. The nested ``hookSpecificOutput`` form is ignored. 65,000 characters of
  context arrived whole: the limit is ours.
- The session file is one event a line, ``{"type", "data", "id", "timestamp", "parentId"}``. The person's words
  are ``user.message``'s ``content`` (``transformedContent`` adds the date and our prompt context); the
  reply is ``assistant.message``'s ``content``. Hook input and output are recorded as ``hook.start`` /
  ``hook.end`` events, read only for an ``agentStop`` hook that blocked the stop: its ``reason`` comes back as a
  ``user.message`` no one typed. A sub-agent's events stand in the same file, marked ``agentId`` (its prompt's
  ``source`` names the parent agent).
- Instructions (``copilot instruction list``): ``$COPILOT_HOME/copilot-instructions.md``,
  ``.github/copilot-instructions.md``, ``AGENTS.md``, ``CLAUDE.md`` and ``GEMINI.md`` at the repository root,
  and ``AGENTS.md`` in every folder from there down to cwd; each whole (48 KB files arrived uncut).
  ``.github/instructions/*.instructions.md`` apply by their ``applyTo`` patterns, so they are not counted as
  carrying a claim.
- A repository's hooks run only in a trusted folder (``COPILOT_ALLOW_ALL=true`` trusts it for a run).
"""

from __future__ import annotations

import os

from ..fastjson import JSON_ERRORS
from .. import layout
from . import Agent, folders, ran_inside, subfolders, text_of

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import IO, Any, Callable

    from ..model import ReadResult

ROOT_NAMES = (os.path.join(".github", "copilot-instructions.md"), "AGENTS.md", "CLAUDE.md", "GEMINI.md")
CATCHUP_DAYS = 14  # how far back catching up looks through the session folders
_KEPT = frozenset({b"session.start", b"user.message", b"assistant.message"})
# The other events Copilot CLI writes, none a turn: an event of any other name is a shape this reader does not know,
# parsed only to be dropped and counted by the CLI's version (``copilotVersion`` of the session's opening event).
_OTHER_EVENTS = frozenset(
    {
        "session.info", "session.model_change", "session.mode_changed", "session.task_complete", "session.shutdown",
        "session.resume", "session.error", "session.truncation", "session.compaction_start",
        "session.compaction_complete", "session.usage_info", "session.usage_record", "system.message", "assistant.turn_start",
        "assistant.turn_end", "assistant.reasoning", "assistant.intent", "assistant.usage", "tool.execution_start",
        "tool.execution_partial_result", "tool.execution_progress", "tool.execution_complete", "tool.user_requested",
        "hook.start", "hook.end", "subagent.started", "subagent.completed", "subagent.failed", "subagent.selected",
        "subagent.configured", "skill.invoked", "abort",
    }
)
_OTHER = frozenset(kind.encode() for kind in _OTHER_EVENTS)
_LOOK_BACK = 64 * 1024  # how far before a resume point a read looks for a hook's end whose request follows it
_EVENT_KINDS = frozenset({"session", "user", "assistant", "system", "tool", "hook", "model", "subagent", "skill"})


class Copilot(Agent, name="copilot", title="GitHub Copilot CLI"):
    events = {"session-start": "sessionStart", "user-prompt-submit": "userPromptSubmitted", "session-end": "sessionEnd"}
    instruction_file = ".github/copilot-instructions.md"  # and it keeps 10,000 characters of a hook's context: the default
    notes = ("Copilot CLI runs a repository's hooks (.github/hooks/*.json) only in a folder you trust: "
             "trust it when Copilot asks.",)
    command_field = "bash"
    grouped = False

    def home(self) -> str:
        return os.environ.get("COPILOT_HOME") or os.path.join(layout.home(), ".copilot")

    # ------------------------------------------------------------ hooks

    def hook_input(self, payload: "dict[str, Any]") -> "dict[str, Any]":
        mapped = dict(payload)
        for theirs, ours in (("sessionId", "session_id"), ("transcriptPath", "transcript_path")):
            if isinstance(payload.get(theirs), str):
                mapped.setdefault(ours, payload[theirs])
        return mapped

    def context_output(self, event: str, text: str) -> "dict[str, Any]":
        return {"additionalContext": text}

    def session_transcript(self, payload: "dict[str, Any]") -> str:
        given = text_of(payload, "transcript_path")
        if given:
            return given
        session = text_of(payload, "session_id")
        if not session or "/" in session or "\\" in session or session.startswith("."):
            return ""
        return os.path.join(self.home(), "session-state", session, "events.jsonl")

    # ------------------------------------------------------------ transcripts

    def locate(self, project_root: str, cwd: str = "", transcript: str = "") -> list[str]:
        """Recent sessions whose first event says they ran inside the project, plus ``transcript``."""
        from .. import clock

        since = clock.now_epoch() - CATCHUP_DAYS * 86400
        return ran_inside((path for path in self._sessions() if _modified_since(path, since)),
                          _session_cwd, project_root, transcript)

    def sessions_home(self) -> str:
        return os.path.join(self.home(), "session-state")

    def _sessions(self) -> list[str]:
        """``session-state/<id>/events.jsonl`` of every session folder, in name order (the file may be missing)."""
        base = self.sessions_home()
        return [os.path.join(base, name, "events.jsonl") for name in subfolders(base, hidden=False)]

    def history(self, project_root: "str | None" = None) -> list[str]:
        """Every ``session-state/<id>/events.jsonl``; for one project, those whose first event's cwd is in it."""
        from . import inside

        found = [p for p in self._sessions() if os.path.isfile(p)]
        return found if project_root is None else [p for p in found if inside(_session_cwd(p), project_root)]

    def session_folder(self, path: str, candidates: "tuple[str, ...]" = ()) -> str:
        return _session_cwd(path)

    def read(self, f: "IO[bytes]", path: str, start_offset: int, start_line: int, size: int) -> "ReadResult":
        """The person's ``user.message`` words and the ``assistant.message`` replies, from a resume point."""
        from ..transcripts.read import Records, turn, utc_timestamp

        session, cwd, version = "", "", ""
        # what a hook that would not let the agent stop asked it to do: sent on as a prompt
        blocked: set[str] = set()
        if start_offset > 0:  # the session's own event opens the file; a hook's end may stand just before the resume
            session, cwd, version = _opening(f)
            blocked = _blocked_before(f, start_offset)
            f.seek(0)
        records = Records(f, start_offset, start_line, drop=_dropper())
        turns = []
        sessions: set[str] = set()
        for lineno, record in records:
            kind, data = record.get("type"), record.get("data")
            if kind != "user.message" and kind != "assistant.message" and kind != "session.start":
                if kind == "hook.end":
                    reason = _block_reason(data)
                    if reason:
                        blocked.add(reason)
                elif type(kind) is not str or kind not in _OTHER_EVENTS:
                    records.count_unknown(version)
                continue
            if not isinstance(data, dict):
                continue
            if kind == "session.start":
                session = data.get("sessionId") if isinstance(data.get("sessionId"), str) else session
                found = data.get("copilotVersion")
                version = found if isinstance(found, str) else version
                context = data.get("context")
                found = context.get("cwd") if isinstance(context, dict) else None
                cwd = found if isinstance(found, str) else cwd
                continue
            text = data.get("content")
            if not isinstance(text, str) or not text.strip():
                continue
            role = "user" if kind == "user.message" else "assistant"
            if role == "user" and not _typed(record, data, text, blocked):
                continue
            mid = data.get("messageId") if role == "assistant" and isinstance(data.get("messageId"), str) else ""
            turns.append(turn(self.name, session, cwd, utc_timestamp(record.get("timestamp")), role, text, path,
                              lineno, mid))
        if session:
            sessions.add(session)
        return records.result(turns, sessions, cwd)

    def owns_record(self, record: "dict[str, Any]", kind: "str | None") -> int:
        if not kind or "." not in kind or not isinstance(record.get("data"), dict):
            return 0
        return 2 if kind.split(".", 1)[0] in _EVENT_KINDS and "parentId" in record and "id" in record else 0

    def owns_head(self, head: bytes) -> bool:
        return head.lstrip().startswith(b'{"type":"session.start","data":{')

    def owns_line_start(self, start: bytes) -> bool:
        return start.lstrip().startswith((b'{"type":"session.start","data":{', b'{"type":"user.message","data":{',
                                          b'{"type":"assistant.message","data":{', b'{"type":"system.message","data":{'))

    def owns_name(self, name: str, parts: list[str]) -> bool:
        return name == "events.jsonl" and "session-state" in parts

    # ------------------------------------------------------------ instruction files

    def candidates(self, root: str, cwd: str = "") -> list[str]:
        below = [os.path.join(folder, "AGENTS.md") for folder in folders(root, cwd, above_root=False)[1:]]
        return [os.path.join(self.home(), "copilot-instructions.md"), *(os.path.join(root, n) for n in ROOT_NAMES), *below]

    def loaded(self, root: str, cwd: str = "") -> "list[tuple[str, int]]":
        return [(p, -1) for p in self.candidates(root, cwd) if os.path.isfile(p)]

    def report_files(self, root: str) -> list[str]:
        return [os.path.join(root, ROOT_NAMES[0]), os.path.join(self.home(), "copilot-instructions.md")]

    # Copilot CLI cuts no instruction file (what the model's context holds is the only bound): none is checked

    # ------------------------------------------------------------ install

    def settings_file(self, scope: str, root: str) -> str:
        # user scope: the hooks key of its settings; a repository: a file of its own in .github/hooks/
        if scope == "user":
            return os.path.join(self.home(), "settings.json")
        return os.path.join(root, ".github", "hooks", "agent-memory.json")

    def new_settings(self, scope: str) -> "dict[str, Any]":
        return {} if scope == "user" else {"version": 1}

    def hook_events(self) -> "tuple[tuple[str, str, int], ...]":
        # seconds
        return (("sessionStart", "session-start", 30), ("userPromptSubmitted", "user-prompt-submit", 10),
                ("sessionEnd", "session-end", 10))

    def hook_entry(self, verb: str, timeout: int, command: str) -> "dict[str, Any]":
        return {"type": "command", "bash": command, "timeoutSec": timeout}

    def review_entries(self, root: str) -> "list[tuple[str, str]]":
        """A skill in ``.github/skills/`` (project) or ``$COPILOT_HOME/skills/`` (user), called ``/cs-memory``."""
        parts = ("skills", "cs-memory", "SKILL.md")
        return [(os.path.join(root, ".github", *parts), "/cs-memory"), (os.path.join(self.home(), *parts), "/cs-memory")]

    def review_text(self, rendered: str, mark: str) -> str:
        from . import skill_text

        return skill_text(rendered, mark, "The person called `/cs-memory`; what they wrote with it are the arguments.")

    # ------------------------------------------------------------ MCP

    mcp_client = "copilot"  # copilot-cli

    def mcp_file(self, scope: str, root: str) -> str:
        """``.github/mcp.json`` in a repository, ``$COPILOT_HOME/mcp-config.json`` for the user."""
        return os.path.join(self.home(), "mcp-config.json") if scope == "user" else os.path.join(root, ".github", "mcp.json")

    def mcp_entry(self, command: str, args: "list[str]") -> "dict[str, Any]":
        # a local (stdio) server, every one of its tools allowed
        return {"type": "local", "command": command, "args": args, "tools": ["*"]}


def _block_reason(data: "Any") -> str:
    """What a hook that blocked the agent's stop asked for ("" for any other hook's end)."""
    output = data.get("output") if isinstance(data, dict) else None
    if not isinstance(output, dict) or output.get("decision") != "block":
        return ""
    reason = output.get("reason")
    return reason.strip() if isinstance(reason, str) else ""


def _blocked_before(f: "IO[bytes]", offset: int) -> "set[str]":
    """The block reasons of the hooks' ends in the last lines before ``offset`` (a resumed read)."""
    from .. import fastjson

    begin = max(0, offset - _LOOK_BACK)
    f.seek(begin)
    found = set()
    for raw in f.read(offset - begin).split(b"\n")[1 if begin else 0 :]:
        if raw.startswith(b'{"type":"hook.end"') and b'"decision":"block"' in raw:
            try:
                record = fastjson.loads(raw)
            except JSON_ERRORS:
                continue
            reason = _block_reason(record.get("data")) if isinstance(record, dict) else ""
            if reason:
                found.add(reason)
    return found


def _typed(record: "dict[str, Any]", data: "dict[str, Any]", text: str, blocked: "set[str]") -> bool:
    """Whether a ``user.message`` is what the person typed, by its fields: not a sub-agent's (``agentId``, or a
    ``source`` naming who sent it), and not the request of a hook that kept the agent going, which Copilot sends on
    as a prompt."""
    if record.get("agentId") is not None:
        return False
    source = data.get("source")
    if source is not None and source not in ("user", "human"):
        return False
    if blocked and text.strip() in blocked:
        blocked.discard(text.strip())
        return False
    return True


def _dropper() -> "Callable[[bytes], bool]":
    """Lines no turn comes from, told by the event type they open with (most of a session is tool events); a hook's
    end is read when it blocked the agent's stop (what it asked for comes back as a prompt)."""
    opening = b'{"type":"'
    hook_end = b"hook.end"

    def drop(raw: bytes) -> bool:
        if not raw.startswith(opening):
            return False
        end = raw.find(b'"', 9)
        kind = raw[9:end]
        if kind == hook_end:
            return raw.find(b'"decision":"block"') < 0
        return end > 0 and b"\\" not in kind and kind in _OTHER  # (an unknown event is parsed, to be counted)

    return drop


def _opening(f: "IO[bytes]") -> "tuple[str, str, str]":
    """The session id, cwd and CLI version of the ``session.start`` event a session file opens with."""
    from .. import fastjson

    f.seek(0)
    try:
        record = fastjson.loads(f.readline(1024 * 1024))
    except JSON_ERRORS:
        return "", "", ""
    data = record.get("data") if isinstance(record, dict) else None
    if not isinstance(data, dict) or record.get("type") != "session.start":
        return "", "", ""
    context = data.get("context")
    session, cwd = data.get("sessionId"), context.get("cwd") if isinstance(context, dict) else None
    version = data.get("copilotVersion")
    return ((session if isinstance(session, str) else ""), (cwd if isinstance(cwd, str) else ""),
            (version if isinstance(version, str) else ""))


def _modified_since(path: str, since: float) -> bool:
    """Whether the file exists and was written at ``since`` (epoch seconds) or later."""
    try:
        return os.stat(path).st_mtime >= since
    except OSError:
        return False


def _session_cwd(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return _opening(handle)[1]
    except OSError:
        return ""


AGENT = Copilot()
