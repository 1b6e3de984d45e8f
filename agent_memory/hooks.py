"""The three hooks coding agents call: session-start, user-prompt-submit, session-end.

Each reads the agent's hook JSON on stdin and answers in that agent's form:
Claude Code and Codex CLI take ``{"hookSpecificOutput": {"hookEventName", "additionalContext"}}``
for SessionStart / UserPromptSubmit; Gemini CLI takes the same object for SessionStart /
BeforeAgent and nothing else on stdout. Session-end work (ingest, staging) runs in a detached
worker so it survives the agent's exit; the hook waits for it only as long as the budget allows.

Fail open: whatever breaks, a hook exits 0, prints nothing that is not valid hook output, and
logs the error under the store. Only the standard library is imported here, and lazily.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # pragma: no cover - types only
    import argparse
    from pathlib import Path

    from .index import Hit, Index
    from .store import Paths

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
PROMPT_SCAN_CHARS = 4000  # a pasted log is not read whole to find what a prompt is about
PROMPT_TERMS = 32
CATCHUP_FILES = 200
CODEX_CATCHUP_DAYS = 14
TAG_CONTESTED = "[contested]"
HEADINGS = {
    "L2": "Adopted for this project (agent-memory; each reviewed by a person):",
    "L3": "Adopted across your projects (agent-memory):",
}
PROMPT_HEADING = "From earlier sessions in this project (agent-memory; not reviewed yet, a hint rather than a rule):"

# words that say little about what a prompt is about; they never count towards relevance
_WEAK_TERMS = frozenset(
    """use using used new make made get got let want need like thing things way also just now ok okay yes sure
    help try see look know think go going what how why where when which who whose there here some any all more
    most much many one two other again still into onto out up down over thank thanks hi hello
    and or but if than as at by for from in on to with without about before after while whether via per
    their them these those has have had having""".split()
)


# ---------------------------------------------------------------- entry points


def cmd_hook(args: "argparse.Namespace") -> int:
    """``agent-memory hook EVENT``: run one hook; never raises, always returns 0."""
    started = time.monotonic()
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
    return 0


def run_hook(event: str, agent: str, raw: bytes, memory_dir: str | None, started: float) -> dict[str, Any] | None:
    """One hook from its raw stdin to the JSON to print (None: print nothing)."""
    payload, problem = parse_payload(raw)
    paths = _resolve(memory_dir, payload)
    if problem:
        _log(paths, f"hook {event}", problem)
    config = _config(paths)
    if event == "session-start":
        text = session_start_context(paths, agent, config, _str(payload, "cwd"))
        output = _context_output(agent, event, text)
        if output is not None:
            _emit(output)  # the context goes out first; catching up must not delay it
        _catch_up(paths, agent, payload, config)
        return None
    if event == "user-prompt-submit":
        prompt = _str(payload, "prompt")
        return _context_output(agent, event, prompt_context(paths, config, prompt)) if prompt else None
    if payload:
        _session_end(paths, agent, payload, config, started)
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
        return isinstance(json.loads(data), dict)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False


def parse_payload(raw: bytes) -> tuple[dict[str, Any], str]:
    """The hook JSON as a dict, and what was wrong with it ("" when nothing)."""
    if not raw.strip():
        return {}, "no hook JSON on stdin"
    try:
        value = json.loads(raw)
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
        sys.stdout.write(json.dumps(output, ensure_ascii=True) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _context_output(agent: str, event: str, text: str) -> dict[str, Any] | None:
    if not text:
        return None
    name = AGENT_EVENTS[agent][event]
    return {"hookSpecificOutput": {"hookEventName": name, "additionalContext": text}}


# ---------------------------------------------------------------- paths, config, errors


def _resolve(memory_dir: str | None, payload: dict[str, Any]) -> "Paths":
    from .store import Paths

    cwd = _str(payload, "cwd") or os.getcwd()
    return Paths.resolve(memory_dir, cwd=cwd)


def _config(paths: "Paths") -> dict[str, Any]:
    from .config import DEFAULTS, load_config

    try:
        return load_config(paths.config)
    except Exception as exc:  # a broken config costs the config, not the hook
        _log(paths, "config", exc)
        import copy

        return copy.deepcopy(DEFAULTS)


def _budget(config: dict[str, Any], key: str, fallback: float) -> float:
    budgets = config.get("budgets")
    value = budgets.get(key, fallback) if isinstance(budgets, dict) else fallback
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return fallback
    return float(value)


def _log(paths: "Paths", where: str, error: BaseException | str) -> None:
    """Log under the project store when it exists, else under the user store (never raises)."""
    try:
        from .store import Paths, log_error

        target = paths
        if not paths.store.is_dir():
            target = Paths(store=paths.user, user=paths.user, project_root=paths.project_root)
        log_error(target, where, error)
    except Exception:
        pass


def _log_anywhere(memory_dir: str | None, where: str, error: BaseException | str) -> None:
    try:
        from .store import Paths

        _log(Paths.resolve(memory_dir), where, error)
    except Exception:
        pass


# ---------------------------------------------------------------- session-start


def session_start_context(paths: "Paths", agent: str, config: dict[str, Any], cwd: str = "") -> str:
    """Adopted L2 + L3 claims the agent does not already load, contested ones tagged; whole lines within budget."""
    from .tiers import load_claims

    adopted: list[tuple[str, list[dict[str, Any]]]] = []
    for tier, path in (("L2", paths.l2), ("L3", paths.l3)):
        try:
            adopted.append((tier, [r for r in load_claims(path) if not r.get("retired")]))
        except Exception as exc:
            _log(paths, f"read {tier}", exc)
    groups: list[tuple[str, list[str]]] = []
    if any(records for _tier, records in adopted):
        contested_keys = _contested_keys(paths)
        carried = _Carried(instruction_files(paths, agent, cwd))
        seen: set[str] = set()
        for tier, records in adopted:
            lines: list[str] = []
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
            # contested claims first: they are what the agent must not follow blindly
            lines.sort(key=lambda line: not line.startswith(f"- {TAG_CONTESTED}"))
            if lines:
                groups.append((HEADINGS[tier], lines))
    staged = _staged_count(paths)
    note = f"{staged} proposal{'s' if staged != 1 else ''} await{'s' if staged == 1 else ''} review: /cs-memory" if staged else ""
    budget = min(int(_budget(config, "session_start_chars", 6000)), CONTEXT_CAP)
    return _fit(groups, note, budget, "({n} more adopted claim{s} not shown: agent-memory inspect --tier L2)")


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


def instruction_files(paths: "Paths", agent: str, cwd: str = "") -> list["Path"]:
    """The instruction files the agent loads by itself: project (cwd up to the root) and user level."""
    from pathlib import Path

    names = INSTRUCTION_FILES.get(agent, ())
    folders: list[Path] = []
    root = paths.project_root
    here = Path(cwd).resolve() if cwd else root
    for folder in (here, *here.parents):
        folders.append(folder)
        # Claude Code reads CLAUDE.md in every folder above cwd; Codex and Gemini stop at the project root
        if folder == root and agent != "claude":
            break
    if root not in folders:
        folders.append(root)
    found = [folder / name for folder in folders for name in names]
    home = _agent_home(agent)
    found += [home / name.rsplit("/", 1)[-1] for name in names]
    return [p for p in found if p.is_file()]


def _agent_home(agent: str) -> "Path":
    from .store import agent_home

    return agent_home(agent)


def _staged_count(paths: "Paths") -> int:
    try:
        return sum(1 for p in paths.staged.glob("*.md") if p.is_file())
    except OSError:
        return 0


def _contested_keys(paths: "Paths") -> set[str]:
    from .store import read_json

    try:
        found = read_json(paths.contested, {})
    except Exception as exc:
        _log(paths, "read contested", exc)
        return set()
    return {k for k in found if isinstance(k, str)} if isinstance(found, dict) else set()


def _key_text(text: str) -> str:
    from .claims import claim_key

    try:
        return claim_key(text).text
    except Exception:
        return ""


# ---------------------------------------------------------------- user-prompt-submit


def prompt_terms(text: str) -> list[str]:
    """The content terms of a text: claim tokens without filler, weak words and single letters."""
    from .claims import CONTRAST, claim_key

    tokens = claim_key(text[:PROMPT_SCAN_CHARS]).tokens
    terms = [t for t in dict.fromkeys(tokens) if t != CONTRAST and len(t) >= 2 and t not in _WEAK_TERMS]
    return terms


def _is_cjk(term: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff" for ch in term)


def _term_in(term: str, others: set[str]) -> bool:
    if term in others:
        return True
    if _is_cjk(term):
        return any(len(o) >= 2 and (term in o or o in term) for o in others)
    for other in others:
        short, long = (term, other) if len(term) <= len(other) else (other, term)
        # light stemming leaves "configur"/"configure" apart; a near-equal prefix joins them
        if len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 2:
            return True
    return False


def relevance(prompt: list[str], atom: list[str]) -> tuple[float, int]:
    """How much a prompt and an atom share: the fraction of the smaller side's content terms, and the count.

    Scale-free (it does not depend on bm25 scores, which only rank within one query).
    """
    if not prompt or not atom:
        return 0.0, 0
    others = set(atom)
    shared = sum(1 for term in prompt if _term_in(term, others))
    return shared / min(len(prompt), len(atom)), shared


def is_relevant(prompt: list[str], atom: list[str], min_score: float) -> bool:
    """The relevance floor: enough of the smaller side shared, and never a single common word alone."""
    score, shared = relevance(prompt, atom)
    return shared >= min(2, len(prompt), len(atom)) and score >= min_score


def prompt_context(paths: "Paths", config: dict[str, Any], prompt: str) -> str:
    """The L1 atoms relevant to ``prompt``, grouped by claim, with date and evidence; "" when none is."""
    if not paths.atoms.is_file():
        return ""
    terms = prompt_terms(prompt)[:PROMPT_TERMS]
    if not terms:
        return ""
    limit = max(1, int(_budget(config, "prompt_atoms", 5)))
    budget = min(int(_budget(config, "prompt_chars", 1500)), CONTEXT_CAP)
    min_score = _min_score(config)
    from .claims import claim_key
    from .index import Decay
    from .recall import half_life_days
    from .store import now
    from .tiers import open_index

    recall = config.get("recall")
    decay = Decay(now(), half_life_days(recall if isinstance(recall, dict) else {}))
    with open_index(paths) as index:
        # newer evidence first among equal matches; the relevance floor below ignores the decay
        hits = index.rank(" ".join(terms), max(8 * limit, 40), ("atom",), decay=decay)
        groups: dict[str, dict[str, Any]] = {}
        for rank, hit in enumerate(hits):
            if hit.meta.get("redacted"):
                continue
            atom_terms = prompt_terms(hit.text)
            if not is_relevant(terms, atom_terms, min_score):
                continue
            key = claim_key(hit.text)
            if not key.tokens:
                continue
            group = groups.setdefault(key.text, {"key": key, "hit": hit, "rank": rank, "score": relevance(terms, atom_terms), "seen": []})
            group["seen"].append(hit)
        if not groups:
            return ""
        chosen = sorted(groups.values(), key=lambda g: (-g["score"][0], -g["score"][1], g["rank"]))[:limit]
        for group in chosen:
            group["seen"].extend(_same_claim(index, group["key"]))
    contested = _contested_keys(paths)
    lines = []
    for group in chosen:
        sessions = {str(h.meta.get("session", "")) for h in group["seen"] if h.meta.get("session")}
        days = [str(h.meta.get("timestamp") or h.date)[:10] for h in group["seen"]]
        day = max((d for d in days if d), default="")
        tag = f"{TAG_CONTESTED} " if group["key"].text in contested else ""
        text = " ".join(group["hit"].text.split())[:400]
        count = len(sessions) or 1
        evidence = f"{day}; " if day else ""
        lines.append(f"- {tag}{text} ({evidence}{count} session{'s' if count != 1 else ''})")
    return _fit([(PROMPT_HEADING, lines)], "", budget)


def _min_score(config: dict[str, Any]) -> float:
    recall = config.get("recall")
    value = recall.get("min_score", 0.3) if isinstance(recall, dict) else 0.3
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.3
    return min(max(float(value), 0.0), 1.0)


def _same_claim(index: "Index", key: Any) -> list["Hit"]:
    """Other observations of one claim: atoms holding all its terms whose key is the same.

    An AND match needs no ranking, so it stays cheap on a large L1; a failure only
    means the evidence count falls back to what the search itself returned.
    """
    from .claims import CONTRAST, claim_key
    from .index import Hit

    words = [t for t in key.tokens if t != CONTRAST and not _is_cjk(t)]
    table, terms = ("docs_words", words) if words else ("docs_tri", [t for t in key.tokens if _is_cjk(t) and len(t) >= 3])
    if not terms:
        return []
    expr = " AND ".join('"' + t.replace('"', '""') + '"' for t in dict.fromkeys(terms))
    sql = (
        f"SELECT d.text, d.kind, d.ref, d.date, d.meta, d.source FROM {table} f JOIN docs d ON d.rowid = f.rowid "
        f"WHERE {table} MATCH ? AND d.kind = 'atom' LIMIT 500"
    )
    found: list[Hit] = []
    try:
        for text, kind, ref, date, meta, source in index.con.execute(sql, (expr,)):
            if claim_key(text).text != key.text:
                continue
            parsed = json.loads(meta)
            if not parsed.get("redacted"):
                found.append(Hit(text, 0.0, kind, ref, date, parsed, source))
    except Exception:
        return []
    return found


# ---------------------------------------------------------------- session-end and catching up


def _session_end(paths: "Paths", agent: str, payload: dict[str, Any], config: dict[str, Any], started: float) -> None:
    transcript = _str(payload, "transcript_path")
    if agent == "codex" and not os.path.isfile(transcript):
        # Codex may send transcript_path null; its rollout is found by session id
        transcript = codex_rollout(_str(payload, "session_id")) or transcript
    if not transcript:
        _log(paths, "hook session-end", "no transcript_path in the hook input")
        return
    if not os.path.isfile(transcript):
        _log(paths, "hook session-end", f"transcript not found: {transcript}")
        return
    # Codex's Stop fires after every turn: stage only when the turn added evidence
    stage = "new" if agent == "codex" else "always"
    budget = _budget(config, "session_end_seconds", 1.0)
    _run_worker(paths, [os.path.abspath(transcript)], stage, budget - (time.monotonic() - started))


def _catch_up(paths: "Paths", agent: str, payload: dict[str, Any], config: dict[str, Any]) -> None:
    """Hand the project's transcripts that were never ingested, or grew since, to a worker."""
    try:
        pending = pending_transcripts(paths, agent, payload)
    except Exception as exc:
        _log(paths, "hook session-start catch-up", exc)
        return
    if pending:
        budget = _budget(config, "catchup_seconds", 0.5)
        _run_worker(paths, pending, "new", budget)


def pending_transcripts(paths: "Paths", agent: str, payload: dict[str, Any]) -> list[str]:
    """Transcripts of this project whose size or mtime differs from what ``L1/ingested.json`` recorded."""
    from .store import read_json

    candidates = _project_transcripts(paths, agent, payload)
    if not candidates:
        return []
    state = read_json(paths.ingested, {}) if paths.ingested.is_file() else {}
    if not isinstance(state, dict):
        state = {}
    pending: list[tuple[int, str]] = []
    for path in candidates:
        key = os.path.abspath(path)
        try:
            stat = os.stat(key)
        except OSError:
            continue
        if stat.st_size == 0:
            continue
        prior = state.get(key)
        if isinstance(prior, dict) and prior.get("sig") == [stat.st_size, stat.st_mtime_ns]:
            continue
        pending.append((stat.st_mtime_ns, key))
    pending.sort(reverse=True)  # newest first: the sessions most worth having
    return [p for _m, p in pending[:CATCHUP_FILES]]


def _project_transcripts(paths: "Paths", agent: str, payload: dict[str, Any]) -> list[str]:
    import re
    from pathlib import Path

    transcript = _str(payload, "transcript_path")
    cwd = _str(payload, "cwd")
    roots = {str(paths.project_root)} | ({cwd} if cwd else set())
    found: set[str] = set()
    if agent == "claude":
        folders = {Path(transcript).parent} if transcript else set()
        base = _agent_home("claude") / "projects"
        # Claude Code names a project's folder after its path, every non-alphanumeric character a dash
        folders |= {base / re.sub(r"[^A-Za-z0-9]", "-", r) for r in roots}
        for folder in folders:
            if folder.is_dir():
                found.update(str(p) for p in folder.glob("*.jsonl") if p.is_file())
    elif agent == "gemini":
        import hashlib

        folders = {Path(transcript).parent} if transcript else set()
        base = Path.home() / ".gemini" / "tmp"
        folders |= {base / hashlib.sha256(r.encode("utf-8")).hexdigest() / "chats" for r in roots}
        for folder in folders:
            if folder.is_dir():
                for pattern in ("session-*.json", "session-*.jsonl"):
                    found.update(str(p) for p in folder.glob(pattern) if p.is_file())
    else:
        found.update(_codex_project_rollouts(paths))
        if transcript and os.path.isfile(transcript):
            found.add(transcript)
    return sorted(found)


def _codex_sessions() -> "Path":
    return _agent_home("codex") / "sessions"


def codex_rollout(session_id: str) -> str:
    """The rollout file of one Codex session (``sessions/YYYY/MM/DD/rollout-*-<id>.jsonl``), or ""."""
    if not session_id or "/" in session_id or "*" in session_id:
        return ""
    sessions = _codex_sessions()
    if not sessions.is_dir():
        return ""
    for folder in _codex_day_folders(3):
        for path in folder.glob(f"rollout-*{session_id}.jsonl"):
            return str(path)
    for path in sessions.glob(f"*/*/*/rollout-*{session_id}.jsonl"):
        return str(path)
    return ""


def _codex_day_folders(days: int) -> list["Path"]:
    from datetime import timedelta

    from .store import now

    sessions = _codex_sessions()
    today = now()
    folders = []
    for back in range(days):
        day = today - timedelta(days=back)
        folder = sessions / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}"
        if folder.is_dir():
            folders.append(folder)
    return folders


def _codex_project_rollouts(paths: "Paths") -> list[str]:
    """Recent Codex rollouts whose session ran inside this project (from their first record's cwd)."""
    root = str(paths.project_root)
    found = []
    for folder in _codex_day_folders(CODEX_CATCHUP_DAYS):
        for path in folder.glob("rollout-*.jsonl"):
            cwd = _rollout_cwd(path)
            if cwd and (cwd == root or cwd.startswith(root.rstrip(os.sep) + os.sep)):
                found.append(str(path))
    return found


def _rollout_cwd(path: "Path") -> str:
    try:
        with open(path, "rb") as handle:
            first = handle.readline(256 * 1024)
        record = json.loads(first)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return ""
    if not isinstance(record, dict):
        return ""
    body = record.get("payload") if isinstance(record.get("payload"), dict) else record
    cwd = body.get("cwd") if isinstance(body, dict) else None
    return cwd if isinstance(cwd, str) else ""


def _run_worker(paths: "Paths", files: list[str], stage: str, wait: float) -> None:
    """Start the detached worker and wait for it at most ``wait`` seconds; it carries on alone after."""
    if paths.store.exists() and not paths.store.is_dir():
        _log(paths, "hook worker", f"the store {paths.store} is not a folder")
        return
    job = {"store": str(paths.store), "cwd": str(paths.project_root), "files": files, "stage": stage}
    try:
        import subprocess

        process = subprocess.Popen(
            [sys.executable, "-m", "agent_memory.hooks", json.dumps(job)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,  # never the agent's pipe: it would wait for the worker to close it
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # out of the agent's process group: it survives the agent's exit
            close_fds=True,
            cwd=os.sep,  # not the project: a folder named agent_memory there must not shadow the package
        )
    except Exception as exc:
        _log(paths, "hook worker start", exc)
        run_job(job)  # no worker: do the work here, as far as the agent lets it run
        return
    try:
        process.wait(timeout=max(wait, 0.0))
    except subprocess.TimeoutExpired:
        pass  # the rest is the worker's


def run_job(job: dict[str, Any]) -> None:
    """The worker's work: ingest the files, then stage proposals (``always``, or ``new`` only after new atoms)."""
    from .store import Paths

    paths = Paths.resolve(str(job["store"]), cwd=str(job.get("cwd") or os.sep))
    try:
        from .ingest import ingest

        report = ingest(paths, [str(f) for f in job.get("files", [])], agent="auto")
        for error in report.errors:
            _log(paths, "hook worker ingest", error)
        stage = job.get("stage")
        if stage == "always" or (stage == "new" and report.atoms_added):
            from .promote import stage as stage_proposals

            stage_proposals(paths)
    except BaseException as exc:
        _log(paths, "hook worker", exc)


def worker_main(argv: list[str]) -> int:
    """``python -m agent_memory.hooks JOB``: the detached worker; always exits 0."""
    try:
        job = json.loads(argv[0]) if argv else None
        if isinstance(job, dict) and isinstance(job.get("store"), str) and isinstance(job.get("files"), list):
            run_job(job)
    except BaseException as exc:
        _log_anywhere(None, "hook worker", exc)
    return 0


if __name__ == "__main__":
    sys.exit(worker_main(sys.argv[1:]))
