"""The three hooks coding agents call: session-start, user-prompt-submit, session-end.

Each reads the agent's hook JSON on stdin and answers in that agent's form:
Claude Code and Codex CLI take ``{"hookSpecificOutput": {"hookEventName", "additionalContext"}}``
for SessionStart / UserPromptSubmit; Gemini CLI takes the same object for SessionStart /
BeforeAgent and nothing else on stdout. Session-end work (ingest, staging) runs in a detached
worker so it survives the agent's exit; the hook waits for it only as long as the budget allows.

Fail open: whatever breaks, a hook exits 0, prints nothing that is not valid hook output, and
logs the error under the store. The hot path is short and standard-library only: places
(where the store is), terms and lookup (prompt recall straight from the index file), and a
small cache of what session-start said and what the config holds, each checked against the
size, mtime and inode of the files it came from. Everything else loads only on a miss.
"""

from __future__ import annotations

import os
import sys
import time

from . import hooklog, places, wire
from .terms import PROMPT_SCAN_CHARS, PROMPT_TERMS, is_cjk, is_relevant, passes, prompt_terms, relevance

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    import argparse
    import sqlite3
    from pathlib import Path
    from typing import Any, Iterable, Union

    from .store import Paths

    AnyPaths = Union["Paths", "Where"]

__all__ = ["PROMPT_SCAN_CHARS", "PROMPT_TERMS", "is_relevant", "prompt_terms", "relevance"]

EVENTS = ("session-start", "user-prompt-submit", "session-end")

# each agent's own event names for our three verbs
AGENT_EVENTS: dict[str, dict[str, str]] = {
    "claude": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "SessionEnd"},
    "codex": {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "session-end": "Stop"},
    "gemini": {"session-start": "SessionStart", "user-prompt-submit": "BeforeAgent", "session-end": "SessionEnd"},
}

# the file each agent loads by itself: what it already carries is not injected again
INSTRUCTION_FILES: dict[str, tuple[str, ...]] = {
    "claude": ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"),
    "codex": ("AGENTS.md", "AGENTS.override.md"),
    "gemini": ("GEMINI.md",),
}

SWITCHES = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
}

STDIN_TIMEOUT = 2.0  # seconds to wait for the hook JSON; some agents never close stdin
STDIN_LIMIT = 8 * 1024 * 1024
CONTEXT_CAP = 10_000  # Claude Code and Codex cut additionalContext beyond this many characters
CATCHUP_FILES = 200
# an index built from scratch over more L1 than this takes longer than an agent waits on a prompt hook
INLINE_REBUILD_BYTES = 8 * 1024 * 1024
CACHE_FILE = "hook-cache.json"  # in L1/ (or the user store when a project has no store): local, never committed
CACHE_ENTRIES = 64
RECORDED_FILE = "catchup-cache.json"  # in L1/: what ingested.json says of the project's transcript folders
TAG_CONTESTED = "[contested]"
HEADINGS = {
    "L2": "Adopted for this project (agent-memory; each reviewed by a person):",
    "L3": "Adopted across your projects (agent-memory):",
}
# this run, for its line in logs/hooks.log: the store it resolved and how many errors it logged
_RUN: dict[str, "Any"] = {"store": "", "errors": 0}
PROMPT_HEADING = "From earlier sessions in this project (agent-memory; not reviewed yet, a hint rather than a rule):"


# ---------------------------------------------------------------- entry points


class HookArgs:
    """What a hook command line says: the event, the agent, and an optional store folder."""

    def __init__(self, event: str, agent: str = "claude", memory_dir: str | None = None) -> None:
        self.event, self.agent, self.memory_dir = event, agent, memory_dir


def hook_args(argv: list[str]) -> HookArgs | None:
    """``[--memory-dir D] hook EVENT [--agent A] [--memory-dir D]`` read by hand, or None for anything else."""
    memory_dir = None
    rest = list(argv)
    if rest[:1] == ["--memory-dir"] and len(rest) >= 2:
        memory_dir, rest = rest[1], rest[2:]
    if rest[:1] != ["hook"] or "-h" in rest or "--help" in rest:
        return None
    event, agent = "", "claude"
    items = iter(rest[1:])
    for item in items:
        if item in ("--agent", "--memory-dir"):
            value = next(items, "")
            if item == "--agent":
                agent = value
            else:
                memory_dir = value
        elif item.startswith("--agent="):
            agent = item.split("=", 1)[1]
        elif item.startswith("--memory-dir="):
            memory_dir = item.split("=", 1)[1]
        elif not event:
            event = item
    return HookArgs(event, agent, memory_dir)


def main(argv: list[str]) -> int:
    """``run_hook.py EVENT [--agent A] [--memory-dir D]``: one hook; always exits 0."""
    args = hook_args(["hook", *argv])
    return cmd_hook(args) if args is not None else 0


def cmd_hook(args: "argparse.Namespace | HookArgs") -> int:
    """``agent-memory hook EVENT``: run one hook; never raises, always returns 0."""
    started = time.monotonic()
    _RUN.update(store="", errors=0)
    try:
        event = str(getattr(args, "event", "") or "")
        agent = str(getattr(args, "agent", "") or "claude")
        if event not in EVENTS or agent not in AGENT_EVENTS:
            return 0
        if os.environ.get(SWITCHES[event], "").strip() == "0":
            return 0
        raw = read_stdin(STDIN_TIMEOUT)
        output = run_hook(event, agent, raw, getattr(args, "memory_dir", None), started)
        if output is not None:
            _emit(output)
    except BaseException as exc:  # fail open, whatever it was
        _log_anywhere(getattr(args, "memory_dir", None), f"hook {getattr(args, 'event', '?')}", exc)
    hooklog.record(_RUN["store"], str(getattr(args, "event", "")), str(getattr(args, "agent", "")),
                   time.monotonic() - started, _RUN["errors"])
    return 0


def run_hook(event: str, agent: str, raw: bytes, memory_dir: str | None, started: float) -> "dict[str, Any] | None":
    """One hook from its raw stdin to the JSON to print (None: print nothing)."""
    payload, problem = parse_payload(raw)
    where = Where(memory_dir, _str(payload, "cwd") or os.getcwd())
    _RUN["store"] = where.store
    if problem:
        _log(where, f"hook {event}", problem)
    cache = HookCache(where.l1_dir)
    if event == "session-start":
        # a project without a store still gets the L3 claims: remember those in the user store
        start_cache = cache if os.path.isdir(where.l1_dir) else HookCache(where.user)
        text = cached_session_start(where, agent, _str(payload, "cwd"), start_cache)
        text = _with_warning(where, text, cached_config(where, cache))
        output = _context_output(agent, event, text)
        if output is not None:
            _emit(output)  # the context goes out first; catching up must not delay it
        _catch_up(where, agent, payload, cache)
        return None
    if event == "user-prompt-submit":
        prompt = _str(payload, "prompt")
        if not prompt or not os.path.isfile(where.atoms):
            return None
        return _context_output(agent, event, prompt_context(where, cached_config(where, cache), prompt))
    if payload:
        _session_end(where, agent, payload, cached_config(where, cache), started)
    return None


# ---------------------------------------------------------------- stdin and stdout


def read_stdin(timeout: float) -> bytes:
    """The hook JSON on stdin, without waiting past ``timeout`` for an EOF that may never come."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):
        return b""
    if os.isatty(fd):
        return b""
    import select

    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + timeout
    while size < STDIN_LIMIT:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            ready, _w, _x = select.select([fd], [], [], remaining)
        except (OSError, ValueError):
            break
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        # an agent that leaves stdin open still sent one whole JSON object: stop as soon as it parses
        if chunk.rstrip().endswith(b"}") and _is_json_object(b"".join(chunks)):
            break
    return b"".join(chunks)


def _is_json_object(data: bytes) -> bool:
    try:
        return isinstance(wire.loads(data), dict)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False


def parse_payload(raw: bytes) -> tuple[dict[str, Any], str]:
    """The hook JSON as a dict, and what was wrong with it ("" when nothing)."""
    if not raw.strip():
        return {}, "no hook JSON on stdin"
    try:
        value = wire.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return {}, f"stdin is not JSON: {exc}"
    if not isinstance(value, dict):
        return {}, f"stdin is JSON but not an object ({type(value).__name__})"
    wrong = [k for k in ("session_id", "transcript_path", "cwd", "prompt") if k in value and not isinstance(value[k], (str, type(None)))]
    if wrong:
        # a field of the wrong type is treated as absent
        return {k: v for k, v in value.items() if k not in wrong}, f"hook JSON fields of the wrong type: {', '.join(wrong)}"
    return value, ""


def _str(payload: dict[str, Any], key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


def _emit(output: dict[str, Any]) -> None:
    # ASCII-only JSON: valid whatever encoding the agent reads stdout with
    try:
        sys.stdout.write(wire.dumps(output) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _context_output(agent: str, event: str, text: str) -> "dict[str, Any] | None":
    if not text:
        return None
    name = AGENT_EVENTS[agent][event]
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}


# ---------------------------------------------------------------- where things are, the cache, errors


class Where:
    """The store's files as plain strings, named as ``store.Paths`` names them; ``paths()`` gives that."""

    def __init__(self, memory_dir: str | None, cwd: str) -> None:
        self.project_root = places.project_root(cwd)
        self.store = places.project_store(self.project_root, memory_dir)
        self.user = places.user_store()

    @property
    def l1_dir(self) -> str:
        return os.path.join(self.store, "L1")

    @property
    def atoms(self) -> str:
        return os.path.join(self.l1_dir, "atoms.jsonl")

    @property
    def ingested(self) -> str:
        return os.path.join(self.l1_dir, "ingested.json")

    @property
    def contested(self) -> str:
        return os.path.join(self.l1_dir, "contested.json")

    @property
    def l2(self) -> str:
        return os.path.join(self.store, "L2.jsonl")

    @property
    def l3(self) -> str:
        return os.path.join(self.user, "L3.jsonl")

    @property
    def staged(self) -> str:
        return os.path.join(self.store, "staged")

    @property
    def config(self) -> str:
        return os.path.join(self.store, "config.yaml")

    @property
    def index(self) -> str:
        return os.path.join(self.store, "index.db")

    def paths(self) -> "Paths":
        from pathlib import Path

        from .store import Paths

        return Paths(store=Path(self.store), user=Path(self.user), project_root=Path(self.project_root))


def _paths(where: "AnyPaths") -> "Paths":
    return where.paths() if isinstance(where, Where) else where


def _stat_key(path: str) -> list[int] | None:
    """What tells a file changed: size, mtime and inode (atomic writes replace the inode)."""
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    return [stat.st_size, stat.st_mtime_ns, stat.st_ino]


class HookCache:
    """A JSON file in L1/ of results the hooks derived from files, each with the files' stat keys.

    An entry counts only while every file it came from is unchanged (the keys are taken
    before the files are read, so a change while reading makes the entry stale, never
    wrong); a miss recomputes and rewrites it. Written only into an existing L1 folder, and
    a failed write costs nothing.
    """

    def __init__(self, l1_dir: str, name: str = CACHE_FILE) -> None:
        self.l1_dir = l1_dir
        self.path = os.path.join(l1_dir, name)
        self._data: dict[str, Any] | None = None

    def _load(self) -> "dict[str, Any]":
        if self._data is None:
            try:
                found = wire.read_file(self.path, None)
            except OSError:
                found = None
            self._data = found if isinstance(found, dict) else {}
        return self._data

    def get(self, name: str, sig: object) -> object:
        entry = self._load().get(name)
        if isinstance(entry, dict) and entry.get("sig") == sig and "value" in entry:
            return entry["value"]
        return None

    def put(self, name: str, sig: object, value: object) -> None:
        import json

        data = self._load()
        data.pop(name, None)
        data[name] = {"sig": json.loads(json.dumps(sig)), "value": value}
        for stale in list(data)[:-CACHE_ENTRIES]:  # the oldest go first (a dict keeps insertion order)
            del data[stale]
        if not os.path.isdir(self.l1_dir):
            return
        try:
            from pathlib import Path

            from .store import atomic_write

            atomic_write(Path(self.path), json.dumps(data, ensure_ascii=False, sort_keys=True))
        except OSError:
            pass  # a read-only store recomputes next time


def cached_config(where: "AnyPaths", cache: HookCache) -> "dict[str, Any]":
    """The store's config (defaults where it says nothing), parsed once per change of ``config.yaml``."""
    sig = [_version(), _stat_key(str(where.config))]
    name = f"config {where.config}"
    found = cache.get(name, sig)
    if isinstance(found, dict):
        return found
    config = _config(where)
    cache.put(name, sig, config)
    return config


def _version() -> str:
    from . import __version__

    return __version__


def _config(where: "AnyPaths") -> "dict[str, Any]":
    from pathlib import Path

    from .config import DEFAULTS, load_config

    try:
        return load_config(Path(where.config))
    except Exception as exc:  # a broken config costs the config, not the hook
        _log(where, "config", exc)
        import copy

        return copy.deepcopy(DEFAULTS)


def _setting(config: "dict[str, Any]", section: str, key: str, fallback: float) -> float:
    group = config.get(section)
    value = group.get(key, fallback) if isinstance(group, dict) else fallback
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return fallback
    return float(value)


def _budget(config: "dict[str, Any]", key: str, fallback: float) -> float:
    return _setting(config, "budgets", key, fallback)


def _log(where: "AnyPaths", at: str, error: "BaseException | str") -> None:
    """Log under the project store when it exists, else under the user store (never raises)."""
    _RUN["errors"] += 1
    try:
        from pathlib import Path

        from .store import Paths, log_error

        paths = _paths(where)
        if not paths.store.is_dir():
            paths = Paths(store=Path(paths.user), user=Path(paths.user), project_root=Path(paths.project_root))
        log_error(paths, at, error)
    except Exception:
        pass


def _log_anywhere(memory_dir: str | None, at: str, error: "BaseException | str") -> None:
    try:
        _log(Where(memory_dir, os.getcwd()), at, error)
    except Exception:
        pass


# ---------------------------------------------------------------- session-start


def cached_session_start(where: Where, agent: str, cwd: str, cache: HookCache) -> str:
    """``session_start_context``, recomputed only when a file it reads has changed."""
    if not os.path.isdir(where.store) and not os.path.isfile(where.l3):
        return ""  # nothing adopted anywhere
    watched = [where.l2, where.l3, where.contested, where.config, where.staged,
               *instruction_candidates(where.project_root, agent, cwd)]
    sig = [_version(), agent, cwd, where.store, [[p, _stat_key(p)] for p in watched]]
    name = f"session-start {agent} {where.store} {cwd}"
    found = cache.get(name, sig)
    if isinstance(found, str):
        return found
    failed = _RUN["errors"]
    text = session_start_context(where.paths(), agent, cached_config(where, cache), cwd)
    if _RUN["errors"] == failed:  # a context computed while something failed is not remembered: it fails visibly each time
        cache.put(name, sig, text)
    return text


def _with_warning(where: "Where", text: str, config: "dict[str, Any]") -> str:
    """Session-start's context with one line first when memory is unhealthy (never cached: the run log moves)."""
    line = hooklog.warning(where.store, where.ingested, _setting(config, "health", "ingest_days", 3))
    if not line:
        return text
    budget = min(int(_budget(config, "session_start_chars", 6000)), CONTEXT_CAP)
    lines = text.split("\n") if text else []
    while lines and len(line) + 1 + len("\n".join(lines)) > budget:
        lines.pop(-2 if len(lines) > 1 else -1)  # a claim goes before the closing note does
    return "\n".join([line, *lines])


def _since(record: "dict[str, Any]") -> str:
    """`` (since 2026-03)``: the month a claim was first seen (else adopted), or ``""``."""
    when = str(record.get("first_seen") or record.get("adopted_at") or "")
    return f" (since {when[:7]})" if len(when) >= 7 and when[4:5] == "-" else ""


def session_start_context(paths: "Paths", agent: str, config: "dict[str, Any]", cwd: str = "") -> str:
    """Adopted L2 + L3 claims the agent does not already load, contested ones tagged; whole lines within budget."""
    from .tiers import load_claims

    adopted: list[tuple[str, list[dict[str, Any]]]] = []
    for tier, path in (("L2", paths.l2), ("L3", paths.l3)):
        try:
            adopted.append((tier, [r for r in load_claims(path) if not r.get("retired")]))
        except Exception as exc:
            _log(paths, f"read {tier}", exc)
    groups: list[tuple[str, list[str]]] = []
    dated: list[tuple[str, list[str]]] = []
    if any(records for _tier, records in adopted):
        contested_keys = _contested_keys(paths)
        carried = _Carried(instruction_files(paths, agent, cwd))
        seen: set[str] = set()
        for tier, records in adopted:
            lines: list[str] = []
            ages: list[str] = []
            for record in records:
                text = " ".join(str(record["text"]).split())
                key = _key_text(text)
                ident = key or _plain(text)
                if not text or ident in seen:
                    continue
                contested = bool(record.get("contested")) or key in contested_keys or any(
                    k in contested_keys for k in record.get("keys", []) if isinstance(k, str)
                )
                if not contested and carried.holds(record, text, key):
                    continue
                seen.add(ident)
                lines.append(f"- {TAG_CONTESTED + ' ' if contested else ''}{text}")
                ages.append(_since(record))
            # contested claims first: they are what the agent must not follow blindly
            order = sorted(range(len(lines)), key=lambda i: not lines[i].startswith(f"- {TAG_CONTESTED}"))
            if lines:
                groups.append((HEADINGS[tier], [lines[i] for i in order]))
                dated.append((HEADINGS[tier], [lines[i] + ages[i] for i in order]))
    staged = _staged_count(str(paths.staged))
    note = f"{staged} proposal{'s' if staged != 1 else ''} await{'s' if staged == 1 else ''} review: /cs-memory" if staged else ""
    budget = min(int(_budget(config, "session_start_chars", 6000)), CONTEXT_CAP)
    more = "({n} more adopted claim{s} not shown: agent-memory inspect --tier L2)"
    # each claim's age where the budget allows it; when it would cost a claim, the claims go without
    reserve = len(note) + 1 if note else 0
    if dated != groups and _fill(dated, reserve, budget)[1] == _fill(groups, reserve, budget)[1]:
        return _fit(dated, note, budget, more)
    return _fit(groups, note, budget, more)


def _fit(groups: list[tuple[str, list[str]]], note: str, budget: int, more: str = "") -> str:
    """Whole lines only, within ``budget`` characters: as many as fit, a count of the rest, then the note."""
    reserve = len(note) + 1 if note else 0
    out, left_out = _fill(groups, reserve, budget)
    if left_out and more:
        # make room for the line that says how many were left out
        out, left_out = _fill(groups, reserve + len(more.format(n=10**6, s="s")) + 1, budget)
        _append_within(out, more.format(n=left_out, s="s" if left_out != 1 else ""), budget - reserve)
    if note:
        _append_within(out, note, budget)
    return "\n".join(out)


def _append_within(out: list[str], line: str, budget: int) -> None:
    if sum(len(x) + 1 for x in out) + len(line) <= budget:
        out.append(line)


def _fill(groups: list[tuple[str, list[str]]], reserve: int, budget: int) -> tuple[list[str], int]:
    out: list[str] = []
    used = 0
    left_out = 0
    for heading, lines in groups:
        block = [heading]
        size = len(heading) + 1
        for line in lines:
            if used + size + len(line) + 1 + reserve <= budget:
                block.append(line)
                size += len(line) + 1
            else:
                left_out += 1
        if len(block) > 1:
            out.extend(block)
            used += size
    return out, left_out


class _Carried:
    """What the agent's own instruction files already say, to test claims against."""

    def __init__(self, files: Iterable["Path"]) -> None:
        import re

        self.text = ""
        self.lines: set[str] = set()
        self.keys: set[str] = set()
        parts = []
        for path in files:
            try:
                body = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            parts.append(body)
            for raw in body.splitlines():
                line = _plain_line(raw)
                # a line, or one sentence of it: never a mere substring ("use tabs" is not "never use tabs in go")
                for piece in {line, *re.split(r"(?<=[.!?;。])\s+", line)}:
                    piece = _plain(piece)
                    if piece:
                        self.lines.add(piece)
                        key = _key_text(piece)
                        if key:
                            self.keys.add(key)
        self.text = "\n".join(parts)

    def holds(self, record: dict[str, Any], text: str, key: str) -> bool:
        if not self.text:
            return False
        if _plain(text) in self.lines or (key and key in self.keys):
            return True
        claim_id = record.get("id")
        return isinstance(claim_id, str) and len(claim_id) >= 8 and claim_id in self.text


def _plain(text: str) -> str:
    import unicodedata

    # undo what makes a claim inert inside an instruction file (&lt; &gt; and a full-width @)
    folded = unicodedata.normalize("NFKC", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return " ".join(folded.casefold().split()).strip(" .;:,!。")


def _plain_line(raw: str) -> str:
    import re

    line = re.sub(r"<!--.*?-->", " ", raw)
    line = re.sub(r"^\s*(?:[-*+•]|\d+[.)])\s+", "", line)
    line = re.sub(r"^\\(?=\S)", "", line.replace("**", "").replace("`", ""))
    return _plain(line)


def instruction_candidates(root: str, agent: str, cwd: str = "") -> list[str]:
    """Every place the agent would load an instruction file from: project (cwd up to the root) and user level."""
    names = INSTRUCTION_FILES.get(agent, ())
    folders: list[str] = []
    here = os.path.realpath(cwd) if cwd else root
    while True:
        folders.append(here)
        # Claude Code reads CLAUDE.md in every folder above cwd; Codex and Gemini stop at the project root
        if here == root and agent != "claude":
            break
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    if root not in folders:
        folders.append(root)
    found = [os.path.join(folder, name) for folder in folders for name in names]
    home = places.agent_home(agent)
    return found + [os.path.join(home, name.rsplit("/", 1)[-1]) for name in names]


def instruction_files(paths: "AnyPaths", agent: str, cwd: str = "") -> "list[Path]":
    """The instruction files the agent loads by itself that exist."""
    from pathlib import Path

    return [Path(p) for p in instruction_candidates(str(paths.project_root), agent, cwd) if os.path.isfile(p)]


def _staged_count(folder: str) -> int:
    try:
        with os.scandir(folder) as entries:
            return sum(1 for e in entries if e.name.endswith(".md") and e.is_file())
    except OSError:
        return 0


def _contested_keys(paths: "AnyPaths") -> set[str]:
    try:
        found = wire.read_file(str(paths.contested), None)
    except OSError as exc:
        _log(paths, "read contested", exc)
        return set()
    return {k for k in found if isinstance(k, str)} if isinstance(found, dict) else set()


def _contested_file(paths: "AnyPaths") -> bytes:
    """``L1/contested.json`` as bytes ("" when missing or unreadable)."""
    try:
        with open(str(paths.contested), "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        _log(paths, "read contested", exc)
        return b""


def _is_contested(contested: bytes, key: str) -> bool:
    """Whether ``contested.json`` (as bytes) holds ``key``, without parsing what may be megabytes of JSON.

    In that file a claim key occurs only as an object key: the key's JSON string followed by
    a colon (values are lists of claim ids). Both the file's own encoding and an ASCII-escaped
    one are looked for.
    """
    forms = {wire.quoted(key, ascii) for ascii in (False, True)}  # one form when the key is ASCII
    return any((form + ":").encode("utf-8") in contested for form in forms)


def _key_text(text: str) -> str:
    from .claims import claim_key

    try:
        return claim_key(text).text
    except Exception:
        return ""


def prompt_context(paths: "AnyPaths", config: "dict[str, Any]", prompt: str) -> str:
    """The L1 claims relevant to ``prompt``, with date and evidence; "" when none is.

    Candidates are the index's claim keys that share a term with the prompt (bm25 × time
    decay); the relevance floor keeps those sharing enough of their content terms.
    """
    if not os.path.isfile(str(paths.atoms)):
        return ""
    from . import lookup

    terms = prompt_terms(lookup.strip_injected(prompt))  # never search on what we injected ourselves
    if not terms:
        return ""
    limit = max(1, int(_budget(config, "prompt_atoms", 5)))
    budget = min(int(_budget(config, "prompt_chars", 1500)), CONTEXT_CAP)
    min_score = min(_setting(config, "recall", "min_score", 0.3), 1.0)
    half_life = _setting(config, "recall", "half_life_days", 30.0) or 30.0
    con, index = _recall_connection(paths)
    if con is None:
        return ""
    try:
        words = [t for t in terms if not is_cjk(t)]
        found = lookup.matching_keys(con, words, [t for t in terms if is_cjk(t)], max(8 * limit, 40),
                                     lookup.now_epoch(), half_life)
        groups = []
        for rank, (key, text, atom_terms) in enumerate(found):
            score = relevance(terms, atom_terms)
            if passes(score, terms, atom_terms, min_score):
                groups.append((score, rank, key, text))
        chosen = sorted(groups, key=lambda g: (-g[0][0], -g[0][1], g[1]))[:limit]
        seen = [lookup.evidence(con, key) for _score, _rank, key, _text in chosen]
        contested = lookup.contested_in_index(con, str(paths.contested), [g[2] for g in chosen]) if chosen else set()
    finally:
        (index or con).close()
    if not chosen:
        return ""
    if contested is None:  # the index's copy is not of the file as it is: read the file
        data = _contested_file(paths)
        contested = {g[2] for g in chosen if _is_contested(data, g[2])}
    lines = []
    for (_score, _rank, key, text), (sessions, day) in zip(chosen, seen):
        tag = f"{TAG_CONTESTED} " if key in contested else ""
        count = sessions or 1
        evidence = f"{day}; " if day else ""
        lines.append(f"- {tag}{' '.join(text.split())[:400]} ({evidence}{count} session{'s' if count != 1 else ''})")
    return _fit([(PROMPT_HEADING, lines)], "", budget)


def _recall_connection(paths: "AnyPaths") -> "tuple[sqlite3.Connection | None, Any]":
    """The index file when it is current; else the index synced (or built in memory) first.

    (None, None) when there is no usable index and L1 is too large to index while a prompt
    waits: a detached worker builds it, and this prompt goes without recall.
    """
    from . import lookup

    con = lookup.connect(str(paths.index))
    if con is not None:
        if lookup.atoms_fresh(con, str(paths.atoms)):
            return con, None
        con.close()  # behind by what was appended since the last sync: cheap to catch up here
    else:
        try:
            size = os.path.getsize(str(paths.atoms))
        except OSError:
            size = 0
        if size > INLINE_REBUILD_BYTES and os.path.isdir(str(paths.store)):
            _run_worker(paths, [], "never", 0.0)
            return None, None
    from .tiers import open_index

    index = open_index(_paths(paths))
    return index.con, index


# ---------------------------------------------------------------- session-end and catching up


def _session_end(where: "AnyPaths", agent: str, payload: "dict[str, Any]", config: "dict[str, Any]", started: float) -> None:
    transcript = _str(payload, "transcript_path")
    if agent == "codex" and not os.path.isfile(transcript):
        # Codex may send transcript_path null; its rollout is found by session id
        from .transcripts import codex

        transcript = codex.rollout(_str(payload, "session_id")) or transcript
    if not transcript:
        _log(where, "hook session-end", "no transcript_path in the hook input")
        return
    if not os.path.isfile(transcript):
        _log(where, "hook session-end", f"transcript not found: {transcript}")
        return
    # Codex's Stop fires after every turn: stage only when the turn added evidence
    stage = "new" if agent == "codex" else "always"
    budget = _budget(config, "session_end_seconds", 1.0)
    _run_worker(where, [os.path.abspath(transcript)], stage, budget - (time.monotonic() - started))


def _catch_up(where: Where, agent: str, payload: "dict[str, Any]", cache: HookCache) -> None:
    """Hand the project's transcripts that were never ingested, or grew since, to a worker."""
    try:
        pending = pending_transcripts(where, agent, payload, HookCache(where.l1_dir, RECORDED_FILE))
    except Exception as exc:
        _log(where, "hook session-start catch-up", exc)
        return
    if pending:
        budget = _budget(cached_config(where, cache), "catchup_seconds", 0.5)
        _run_worker(where, pending, "new", budget)


def pending_transcripts(paths: "AnyPaths", agent: str, payload: "dict[str, Any]", cache: HookCache | None = None) -> list[str]:
    """Transcripts of this project whose size or mtime differs from what ``L1/ingested.json`` recorded."""
    candidates = _project_transcripts(paths, agent, payload)
    if not candidates:
        return []
    recorded = recorded_sigs(paths, sorted({os.path.dirname(c) for c in candidates}), cache)
    pending: list[tuple[int, str]] = []
    for key in candidates:
        try:
            stat = os.stat(key)
        except OSError:
            continue
        if stat.st_size == 0 or recorded.get(key) == [stat.st_size, stat.st_mtime_ns]:
            continue
        pending.append((stat.st_mtime_ns, key))
    pending.sort(reverse=True)  # newest first: the sessions most worth having
    return [p for _m, p in pending[:CATCHUP_FILES]]


def recorded_sigs(paths: "AnyPaths", folders: list[str], cache: HookCache | None = None) -> "dict[str, Any]":
    """``[size, mtime_ns]`` that ``L1/ingested.json`` recorded for each transcript in ``folders``.

    Remembered per folder set while ``ingested.json`` is unchanged: that file grows with every
    transcript ever ingested, and session-start should not parse all of it each time. The
    detached worker fills this in after each ingest, so the next session-start finds it.
    """
    sig = [_version(), _stat_key(str(paths.ingested))]
    name = "recorded " + "\n".join(folders)
    if cache is not None:
        found = cache.get(name, sig)
        if isinstance(found, dict):
            return found
    state = wire.read_file(str(paths.ingested), None)
    wanted = set(folders)
    recorded = {}
    for key, entry in (state.items() if isinstance(state, dict) else ()):
        if isinstance(entry, dict) and os.path.dirname(key) in wanted and isinstance(entry.get("sig"), list):
            recorded[key] = entry["sig"]
    if cache is not None:
        cache.put(name, sig, recorded)
    return recorded


def _project_transcripts(paths: "AnyPaths", agent: str, payload: "dict[str, Any]") -> list[str]:
    from .transcripts import claude, codex, gemini

    reader = {"claude": claude, "codex": codex}.get(agent, gemini)
    return reader.locate(str(paths.project_root), _str(payload, "cwd"), _str(payload, "transcript_path"))


def _run_worker(where: "AnyPaths", files: list[str], stage: str, wait: float) -> None:
    """Start the detached worker and wait for it at most ``wait`` seconds; it carries on alone after."""
    store = str(where.store)
    if os.path.exists(store) and not os.path.isdir(store):
        _log(where, "hook worker", f"the store {store} is not a folder")
        return
    if os.path.basename(store) == ".memory" and os.path.islink(store):
        # the worker gets the store by its real path: a .memory leading out of the project is refused here
        from pathlib import Path

        from .store import StoreError, refuse_foreign_store

        try:
            refuse_foreign_store(Path(store))
        except StoreError as exc:
            _log(where, "hook worker", str(exc))
            return
    job = {"store": store, "cwd": str(where.project_root), "files": files, "stage": stage}
    try:
        import subprocess

        process = subprocess.Popen(
            [sys.executable, worker_script(), "worker", wire.dumps(job)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # never the agent's pipe: it would wait for the worker to close it
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # out of the agent's process group: it survives the agent's exit
            close_fds=True,
            cwd=os.sep,  # not the project: a folder named agent_memory there must not shadow the package
        )
    except Exception as exc:
        _log(where, "hook worker start", exc)
        run_job(job)  # no worker: do the work here, as far as the agent lets it run
        return
    try:
        process.wait(timeout=max(wait, 0.0))
    except subprocess.TimeoutExpired:
        pass  # the rest is the worker's


def worker_script() -> str:
    """``run_hook.py`` beside this module: it finds the package wherever it was installed."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_hook.py")


def run_job(job: "dict[str, Any]") -> None:
    """The worker's work: ingest the files, then stage proposals (``always``, or ``new`` only after new atoms)."""
    from .store import Paths

    paths = Paths.resolve(str(job["store"]), cwd=str(job.get("cwd") or os.sep))
    try:
        from .ingest import ingest

        files = [str(f) for f in job.get("files", [])]
        report = ingest(paths, files, agent="auto")
        for error in report.errors:
            _log(paths, "hook worker ingest", error)
        # what the next session-start compares the transcript folders with, ready before it asks
        folders = sorted({os.path.dirname(os.path.abspath(f)) for f in files})
        if folders:
            recorded_sigs(paths, folders, HookCache(str(paths.l1_dir), RECORDED_FILE))
        stage = job.get("stage")
        if stage == "always" or (stage == "new" and report.atoms_added):
            from .promote import stage as stage_proposals

            stage_proposals(paths)
    except BaseException as exc:
        _log(paths, "hook worker", exc)


def worker_main(argv: list[str]) -> int:
    """``run_hook.py worker JOB`` (or ``python -m agent_memory.hooks JOB``): the detached worker; always exits 0."""
    started = time.monotonic()
    _RUN.update(store="", errors=0)
    try:
        job = wire.loads(argv[0]) if argv else None
        if isinstance(job, dict) and isinstance(job.get("store"), str) and isinstance(job.get("files"), list):
            _RUN["store"] = str(job["store"])
            run_job(job)
    except BaseException as exc:
        _log_anywhere(None, "hook worker", exc)
    hooklog.record(_RUN["store"], "worker", "", time.monotonic() - started, _RUN["errors"])
    return 0


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
