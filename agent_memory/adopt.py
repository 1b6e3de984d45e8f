"""Human review: adopt staged proposals into instruction files, reject, verify, resolve, roll back.

Adopt writes the claim into ``<store>/L2.jsonl`` (or the user's ``L3.jsonl``) and regenerates
one marked block in each instruction file (CLAUDE.md, AGENTS.md, GEMINI.md); nothing outside
the block is ever touched. Every command that changes a file first copies it into a backup
folder with a manifest, so ``rollback`` can undo the last adopt (or resolve) exactly.

The block, appended at the end of the file when absent::

    <!-- agent-memory:begin hash=<16 hex of sha256(body)>; ... -->
    <body: a lead line, then one "- " bullet per adopted, unretired claim, sorted>
    <!-- agent-memory:end -->

The hash covers the body (line endings folded to ``\\n``); a body that no longer matches
its hash was edited by a person, and is never overwritten. A begin/end pair with an empty
body and no hash is a placeholder a person may put where the block should go.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .config import load_config
from .inspect import match_id
from .model import UsageError
from .promote import Claim, Proposal, plan, staged_proposals
from .store import INSTRUCTION_FILES, Paths, StoreLock, agent_home, atomic_write, iso, now, read_json, write_json, write_jsonl
from .tiers import load_claims

# Inert text: the exact rule for a claim's words once they are inside an instruction file.
# A bullet is one line, "- " followed by the claim text (already cleared of absolute paths
# and user names by redact.scrub_paths), where
#   1. every control, format, line- or paragraph-separator character and every run of
#      whitespace becomes one space: a claim is one line and can start no heading, setext
#      underline (=== / ---), fence, list or other block of its own;
#   2. "<" and ">" become "&lt;" and "&gt;": no HTML tag, no comment opener "<!--", and no
#      "-->" that could close a comment or the block's markers;
#   3. every "@" becomes "＠" (U+FF20): Claude Code imports "@path" at a line start or after
#      whitespace, outside code spans, so changing every "@" leaves no way to start one;
#   4. a first character Markdown would read as block syntax inside a list item
#      (# = - * + _ > | ~ ` [ ! :, or "1." / "1)") is backslash-escaped;
#   5. at most 500 characters are kept.
INERT_LIMIT = 500
_LEADING_SYNTAX = set("#=-*+_>|~`[!:")
_ORDERED = re.compile(r"^(\d{1,9})([.)])")

BEGIN = "<!-- agent-memory:begin"
END = "<!-- agent-memory:end -->"
_BEGIN_LINE = re.compile(r"^<!-- agent-memory:begin(?P<attrs>[^\r\n]*?)-->[ \t]*(?=\r?\n|\Z)", re.M)
_END_LINE = re.compile(r"^<!-- agent-memory:end -->[ \t]*(?=\r?\n|\Z)", re.M)
_HASH = re.compile(r"\bhash=([0-9a-f]{16})\b")
_NOTE = "written by agent-memory from adopted claims; edit outside this block"
LEAD = {
    "project": "Remembered from past sessions in this project and adopted by a person:",
    "user": "Remembered across projects and adopted by a person:",
}

# the agent whose user-level instruction file a project file name selects (CLAUDE.md → ~/.claude/CLAUDE.md)
USER_FILES = {name: agent for agent, name in INSTRUCTION_FILES.items()}

ROLLBACK_COMMANDS = ("adopt", "resolve", "forget")  # the commands whose changes rollback undoes


class BlockEdited(UsageError):
    """A person changed the text inside the tool's block since the tool wrote it."""


class BlockDamaged(UsageError):
    """The block's markers are missing, doubled or out of order."""


# ---------------------------------------------------------------- inert text and the block


def inert(text: str) -> str:
    """Claim text made safe to sit on one bullet line of an instruction file (rule above)."""
    chars = []
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cf":
            continue
        chars.append(" " if category in ("Cc", "Zl", "Zp") or ch.isspace() else ch)
    flat = " ".join("".join(chars).split())
    flat = flat.replace("<", "&lt;").replace(">", "&gt;").replace("@", "\uff20")
    if len(flat) > INERT_LIMIT:
        flat = flat[: INERT_LIMIT - 1].rstrip() + "…"
    if flat[:1] in _LEADING_SYNTAX:
        flat = "\\" + flat
    flat = _ORDERED.sub(lambda m: m.group(1) + "\\" + m.group(2), flat, count=1)
    return flat


def body_digest(body: str) -> str:
    """The hash recorded in the begin marker: sha256 of the body with line endings folded."""
    folded = body.replace("\r\n", "\n").encode("utf-8", "surrogateescape")
    return hashlib.sha256(folded).hexdigest()[:16]


def block_lines(entries: Iterable[dict[str, Any]], scope: str) -> list[str]:
    """The body lines for a set of adopted entries: a lead line and one bullet per claim."""
    bullets = sorted({inert(str(e.get("text", ""))) for e in entries} - {""}, key=lambda b: (b.casefold(), b))
    return [LEAD[scope], *(f"- {b}" for b in bullets)] if bullets else []


def render_block(lines: list[str], nl: str = "\n") -> str:
    """The whole block, from the begin marker to the end marker (no newline after it)."""
    body = "".join(line + nl for line in lines)
    return f"{BEGIN} hash={body_digest(body)}; {_NOTE} -->{nl}{body}{END}"


@dataclass(frozen=True)
class _Found:
    start: int  # where the begin marker starts
    end: int  # just after the end marker (its line ending is outside the block)
    body: str
    attrs: str


def _decode(data: bytes) -> str:
    # surrogateescape keeps any byte that is not UTF-8, so text outside the block round-trips exactly
    return data.decode("utf-8", "surrogateescape")


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _locate(text: str, label: str) -> _Found | None:
    begins = list(_BEGIN_LINE.finditer(text))
    ends = list(_END_LINE.finditer(text))
    if not begins and not ends:
        return None
    if len(begins) != 1 or len(ends) != 1 or ends[0].start() < begins[0].end():
        raise BlockDamaged(
            f"{label}: the agent-memory markers are damaged (need exactly one begin and one end marker, in order);"
            " fix them by hand, then try again"
        )
    begin, end = begins[0], ends[0]
    body_start = begin.end()
    if text.startswith("\r\n", body_start):
        body_start += 2
    elif text.startswith("\n", body_start):
        body_start += 1
    return _Found(begin.start(), end.end(), text[body_start : end.start()], begin.group("attrs"))


def _check_untouched(found: _Found, label: str) -> None:
    recorded = _HASH.search(found.attrs)
    if recorded is None and not found.body.strip():
        return  # an empty placeholder a person put where the block should go
    if recorded is None or recorded.group(1) != body_digest(found.body):
        raise BlockEdited(
            f"{label}: the agent-memory block was edited by hand since it was written; move those edits"
            " outside the block (or undo them) and try again"
        )


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def rewrite_file(before: bytes | None, lines: list[str], label: str) -> tuple[bytes, str]:
    """New bytes of an instruction file with its block set to ``lines``, and the separator added if appended.

    Raises ``BlockEdited`` / ``BlockDamaged`` instead of overwriting a person's words.
    """
    text = _decode(before) if before is not None else ""
    nl = _newline(text)
    block = render_block(lines, nl)
    found = _locate(text, label)
    if found is not None:
        _check_untouched(found, label)
        return _encode(text[: found.start] + block + text[found.end :]), ""
    if not text or text.endswith(("\n\n", "\r\n\r\n")):
        separator = ""
    elif text.endswith("\n"):
        separator = nl
    else:
        separator = nl + nl
    return _encode(text + separator + block + nl), separator


def remove_block(data: bytes, separator: str, label: str) -> bytes:
    """The file without its block (and the separator adopt added before it), for rollback."""
    text = _decode(data)
    found = _locate(text, label)
    if found is None:
        return data
    _check_untouched(found, label)
    head, tail = text[: found.start], text[found.end :]
    nl = _newline(text)
    if tail.startswith(nl):
        tail = tail[len(nl) :]
    if separator and head.endswith(separator):
        head = head[: -len(separator)]
    return _encode(head + tail)


# ---------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    """One instruction file the block is written into."""

    name: str  # as entries record it: path relative to the project root, or the agent's file name (user scope)
    path: Path
    scope: str  # project | user


def project_target(paths: Paths, name: str) -> Target:
    """A project instruction file, relative to the project root (never outside it)."""
    root = paths.project_root
    full = Path(os.path.normpath(Path(name) if Path(name).is_absolute() else root / name))
    relative = os.path.relpath(full, root)
    if relative == "." or relative.startswith(".."):
        raise UsageError(f"--target must be a file inside the project ({root}), not {name}")
    return Target(Path(relative).as_posix(), full, "project")


def user_target(name: str) -> Target | None:
    """The user-level instruction file an agent reads for ``name`` (CLAUDE.md → ~/.claude/CLAUDE.md)."""
    base = Path(name).name
    agent = USER_FILES.get(base)
    return Target(base, agent_home(agent) / base, "user") if agent else None


def entry_targets(entry: dict[str, Any]) -> list[str]:
    """The instruction files an adopted entry is written into."""
    names = entry.get("targets")
    if isinstance(names, list) and names:
        return [str(n) for n in names]
    return [str(entry["target"])] if entry.get("target") else []


def lines_for(entries: Iterable[dict[str, Any]], names: Iterable[str], scope: str) -> list[str]:
    """Body lines of one file's block: the unretired entries written into any of its ``names``."""
    wanted = set(names)
    chosen = [e for e in entries if not e.get("retired") and wanted & set(entry_targets(e))]
    return block_lines(chosen, scope)


def by_file(targets: Iterable[Target]) -> list[list[Target]]:
    """Targets grouped by the real file they name (CLAUDE.md is often a symlink to AGENTS.md)."""
    groups: dict[str, list[Target]] = {}
    for target in targets:
        groups.setdefault(os.path.realpath(target.path), []).append(target)
    return [groups[k] for k in sorted(groups)]


# ---------------------------------------------------------------- changes and backups


@dataclass
class Change:
    """One file a command is about to write or delete, and what rollback needs to undo it."""

    path: Path
    kind: str  # instruction | claims | decisions | staged
    scope: str  # project | user
    before: bytes | None
    after: bytes | None  # None: the file is deleted
    names: list[str] = field(default_factory=list)  # instruction files: the target names entries use
    separator: str = ""  # instruction files: what was added before an appended block
    ids: list[str] = field(default_factory=list)  # claims files: the entries changed
    appended: list[str] = field(default_factory=list)  # decisions: the lines added

    @property
    def changes_anything(self) -> bool:
        return self.before != self.after


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def _sha(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def _jsonl_bytes(records: Iterable[dict[str, Any]]) -> bytes:
    """What ``store.write_jsonl`` writes for these records, sorted by id."""
    return "".join(_line(r) for r in sorted(records, key=lambda r: str(r["id"]))).encode("utf-8")


def _json_lines(text: str) -> list[str]:
    """The lines of a JSON-lines text, each with its newline: a record ends at a newline only, never at
    the U+2028, U+0085 or form feed that ``json.dumps(ensure_ascii=False)`` leaves raw inside a string."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def _whole_lines(data: bytes | None) -> bytes:
    """An append-only log without a torn last record."""
    if not data:
        return b""
    return data if data.endswith(b"\n") else data[: data.rfind(b"\n") + 1]


def _backup_number(name: str) -> int:
    tail = name.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _backup_dirs(paths: Paths) -> list[Path]:
    if not paths.backups.is_dir():
        return []
    found = [d for d in paths.backups.iterdir() if d.is_dir() and (d / "manifest.json").is_file()]
    return sorted(found, key=lambda d: (_backup_number(d.name), d.name))


def _new_backup_id(paths: Paths) -> str:
    # a global counter orders backups even when the clock (AGENT_MEMORY_NOW) stands still or goes back
    taken = [_backup_number(d.name) for d in paths.backups.iterdir()] if paths.backups.is_dir() else []
    return f"{now().strftime('%Y%m%dT%H%M%SZ')}-{max(taken, default=0) + 1}"


# The order commit changes files in, so that a command killed half-way only needs running again:
# instruction files first (their block is regenerated from the entries, so an early write is
# idempotent), then the claims files a re-run reads to see what is left to do, then the decision
# log, and the staged proposals last (while one is still there, a re-run still has its work).
APPLY_ORDER = ("instruction", "claims", "decisions", "staged")


def commit(paths: Paths, command: str, summary: str, changes: list[Change]) -> str:
    """Back up every file about to change, write the manifest, then make the changes.

    Returns the backup id, or ``""`` when nothing would change (then nothing is written).
    """
    real = [c for c in changes if c.changes_anything]
    if not real:
        return ""
    backup_id = _new_backup_id(paths)
    folders = {"project": paths.backups / backup_id, "user": paths.user_backups / backup_id}
    if any(c.scope == "user" for c in real) and folders["user"].exists():
        folders["user"] = paths.user_backups / f"{backup_id}-{paths.project_name}"
    records: list[dict[str, Any]] = []
    listing: dict[str, str] = {}
    for number, change in enumerate(real, 1):
        folder = folders[change.scope]
        copy = ""
        if change.before is not None:
            copy_path = folder / "files" / f"{number}-{change.path.name}"
            atomic_write(copy_path, change.before)
            with contextlib.suppress(OSError):
                os.chmod(copy_path, change.path.stat().st_mode & 0o777)
            copy = str(copy_path)
        listing[str(change.path)] = copy or "did not exist"
        records.append(
            {
                "path": str(change.path),
                "kind": change.kind,
                "scope": change.scope,
                "names": change.names,
                "existed": change.before is not None,
                "backup": copy or None,
                "after_sha256": _sha(change.after),
                "separator": change.separator,
                "ids": change.ids,
                "appended": change.appended,
            }
        )
    manifest = {
        "id": backup_id,
        "command": command,
        "summary": summary,
        "at": iso(now()),
        "files": listing,
        "changes": records,
        "user_backup": str(folders["user"]) if any(c.scope == "user" for c in real) else "",
        "rolled_back": False,
        "rolled_back_at": "",
    }
    _write_manifests(manifest, folders)
    for change in sorted(real, key=lambda c: APPLY_ORDER.index(c.kind)):
        if change.after is None:
            with contextlib.suppress(FileNotFoundError):
                change.path.unlink()
        elif change.kind == "claims":
            records_after = [json.loads(line) for line in _json_lines(change.after.decode("utf-8")) if line.strip()]
            write_jsonl(change.path, records_after)
        else:
            atomic_write(change.path, change.after)
    return backup_id


def _write_manifests(manifest: dict[str, Any], folders: dict[str, Path]) -> None:
    write_json(folders["project"] / "manifest.json", manifest)
    if manifest["user_backup"]:
        mine = [r for r in manifest["changes"] if r["scope"] == "user"]
        user_copy = dict(manifest, changes=mine, files={r["path"]: manifest["files"][r["path"]] for r in mine})
        write_json(Path(manifest["user_backup"]) / "manifest.json", user_copy)


# ---------------------------------------------------------------- shared helpers


def _scrubber(paths: Paths) -> Callable[[str], str]:
    """Removes absolute paths and the OS user name from text bound for shared files."""
    from .redact import scrubber

    return scrubber(str(paths.project_root))


@contextlib.contextmanager
def _locked(paths: Paths, user: bool) -> Iterator[None]:
    """The project store's lock, and the user store's too when user-level files change."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(StoreLock(paths.store))
        if user:
            stack.enter_context(StoreLock(paths.user))
        yield


def _claims_change(path: Path, scope: str, before: bytes | None, records: list[dict[str, Any]], ids: list[str]) -> Change:
    return Change(path, "claims", scope, before, _jsonl_bytes(records), ids=sorted(set(ids)))


def _decisions_change(paths: Paths, decisions: list[dict[str, Any]]) -> Change:
    before = _read(paths.decisions)
    lines = [_line(d) for d in decisions]
    after = _whole_lines(before) + "".join(lines).encode("utf-8")
    return Change(paths.decisions, "decisions", "project", before, after, appended=lines)


def _display(target: Target) -> str:
    if target.scope == "project":
        return target.name
    with contextlib.suppress(ValueError):
        return f"~/{target.path.relative_to(Path.home()).as_posix()}"
    return str(target.path)


def _instruction_change(same_file: list[Target], entries: list[dict[str, Any]]) -> Change:
    """The new block of one instruction file, written through a symlink rather than over it."""
    first = same_file[0]
    real = Path(os.path.realpath(first.path))
    names = sorted({t.name for t in same_file})
    before = _read(real)
    after, separator = rewrite_file(before, lines_for(entries, names, first.scope), _display(first))
    return Change(real, "instruction", first.scope, before, after, names=names, separator=separator)


def _staged_file(paths: Paths, proposal_id: str) -> Path:
    return paths.staged / f"{proposal_id}.md"


def _short(text: str, limit: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# ---------------------------------------------------------------- adopt


@dataclass
class AdoptReport:
    """What one adopt did: adopted, already there, refused (with why), files changed, backup id."""

    adopted: list[dict[str, Any]] = field(default_factory=list)
    unchanged: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    backup: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "adopted": self.adopted,
            "unchanged": self.unchanged,
            "refused": self.refused,
            "files": self.files,
            "backup": self.backup or None,
        }


def _entry(claim: Claim, proposal: Proposal, targets: list[Target], scrub: Callable[[str], str]) -> dict[str, Any]:
    """The L2/L3 record of an adopted claim: no transcript paths, no absolute paths, no user names."""
    sources = [
        {"session": s["session"], "line": s["line"], "timestamp": s["timestamp"], "quote": scrub(str(s["quote"]))}
        for s in claim.sources(local=False)
    ]
    names = [t.name for t in targets]
    return {
        "id": claim.id,
        "text": scrub(claim.text),
        "kind": claim.kind,
        "keys": sorted({scrub(k) for k in claim.keys}),
        "stated": claim.stated,
        "verified": claim.verified,
        "sessions": list(proposal.sessions),
        "days": list(proposal.days),
        "projects": sorted({scrub(p) for p in proposal.projects}),
        "first_seen": claim.first_seen,
        "adopted_at": iso(now()),
        "proposal": proposal.id,
        "path": proposal.path,
        "target": names[0],
        "targets": names,
        "contested": False,
        "contested_by": [],
        "retired": False,
        "retired_for": "",
        "sources": sources,
    }


def _why_not(claim: Claim | None, to_tier: str) -> str:
    if claim is None:
        return "its claim is no longer in the store"
    if claim.blocking:
        return "; ".join(claim.blocking)
    return f"it no longer passes the gate to {to_tier}"


def adopt(paths: Paths, ids: list[str], every: bool = False, target: str | None = None) -> AdoptReport:
    """Apply staged proposals: L2 into the project's files, L3 into the user's; back up first."""
    if every and ids:
        raise UsageError("give proposal ids or --all, not both")
    if not every and not ids:
        raise UsageError("say which proposals to adopt: ids from 'agent-memory promote', or --all")
    config = load_config(paths.config)
    report = AdoptReport()
    with contextlib.ExitStack() as locks:
        locks.enter_context(StoreLock(paths.store))
        staged = {str(p["id"]): p for p in staged_proposals(paths)}
        if every and not staged:
            return report
        result = plan(paths, config)
        fresh = {p.id: p for p in result.proposals}
        l2 = {str(r["id"]): r for r in load_claims(paths.l2)}
        l3 = {str(r["id"]): r for r in load_claims(paths.l3)}
        done = {str(r.get("proposal")): r for r in [*l2.values(), *l3.values()] if r.get("proposal") and not r.get("retired")}
        if every:
            chosen = sorted(staged)
        else:
            known = set(staged) | set(fresh) | set(done)
            chosen = list(dict.fromkeys(match_id(i, known, "proposal") for i in ids))
        if any(pid in fresh and fresh[pid].target_tier == "L3" for pid in chosen):
            locks.enter_context(StoreLock(paths.user))
            l3 = {str(r["id"]): r for r in load_claims(paths.l3)}  # again, now that no other project writes it
        l2_before, l3_before = _read(paths.l2), _read(paths.l3)
        by_id = result.by_id()
        scrub = _scrubber(paths)
        names = [target] if target else list(config["targets"])
        project_targets = [project_target(paths, n) for n in names]
        changes: list[Change] = []
        touched: dict[Path, Target] = {}
        changed_ids: dict[str, list[str]] = {"L2": [], "L3": []}
        for pid in chosen:
            staged_path = _staged_file(paths, pid)
            proposal = fresh.get(pid)
            front = staged.get(pid, {})
            if proposal is None:
                if pid in done:
                    report.unchanged.append({"id": pid, "claim_id": done[pid]["id"], "text": done[pid]["text"]})
                else:
                    claim = by_id.get(str(front.get("claim_id", "")))
                    to_tier = str(front.get("to", "L2"))
                    if claim is not None and claim.tier == to_tier:
                        report.unchanged.append({"id": pid, "claim_id": claim.id, "text": claim.text})
                    else:
                        report.refused.append({"id": pid, "reason": _why_not(claim, to_tier)})
                        continue
                if staged_path.exists():
                    changes.append(Change(staged_path, "staged", "project", staged_path.read_bytes(), None))
                continue
            claim = by_id[proposal.claim_id]
            if proposal.target_tier == "L2":
                targets = project_targets
                store, tier = l2, "L2"
            else:
                found = [t for t in (user_target(n) for n in names) if t is not None]
                targets = list({t.path: t for t in found}.values())
                store, tier = l3, "L3"
                if not targets:
                    known_files = ", ".join(USER_FILES)
                    report.refused.append({"id": pid, "reason": f"no user-level instruction file for {', '.join(names)} (known: {known_files})"})
                    continue
            existing = store.get(claim.id)
            if existing is not None and not existing.get("retired"):
                report.unchanged.append({"id": pid, "claim_id": claim.id, "text": existing["text"]})
            else:
                store[claim.id] = _entry(claim, proposal, targets, scrub)
                changed_ids[tier].append(claim.id)
                for t in targets:
                    touched[t.path] = t
                report.adopted.append(
                    {"id": pid, "claim_id": claim.id, "text": store[claim.id]["text"], "to": tier,
                     "targets": [_display(t) for t in targets]}
                )
            if staged_path.exists():
                changes.append(Change(staged_path, "staged", "project", staged_path.read_bytes(), None))
        if changed_ids["L2"]:
            changes.append(_claims_change(paths.l2, "project", l2_before, list(l2.values()), changed_ids["L2"]))
        if changed_ids["L3"]:
            changes.append(_claims_change(paths.l3, "user", l3_before, list(l3.values()), changed_ids["L3"]))
        for same_file in by_file(touched.values()):
            entries = list((l2 if same_file[0].scope == "project" else l3).values())
            changes.append(_instruction_change(same_file, entries))
        summary = "adopted " + ", ".join(a["id"] for a in report.adopted) if report.adopted else "removed staged files of adopted proposals"
        report.backup = commit(paths, "adopt", summary, changes)
        report.files = [str(c.path) for c in changes if c.changes_anything]
    return report


# ---------------------------------------------------------------- reject, verify, resolve


def reject(paths: Paths, ids: list[str]) -> list[dict[str, Any]]:
    """Drop proposals and record the decision, so the claim waits for new evidence."""
    with StoreLock(paths.store):
        result = plan(paths)
        staged = {str(p["id"]): p for p in staged_proposals(paths)}
        fresh = {p.id: p for p in result.proposals}
        chosen = list(dict.fromkeys(match_id(i, set(staged) | set(fresh), "proposal") for i in ids))
        by_id = result.by_id()
        scrub = _scrubber(paths)
        moment = iso(now())
        decisions, done, changes = [], [], []
        for pid in chosen:
            proposal = fresh.get(pid)
            front = staged.get(pid, {})
            claim_id = proposal.claim_id if proposal else str(front.get("claim_id", ""))
            claim = by_id.get(claim_id)
            keys = list(claim.keys) if claim else [str(k) for k in front.get("keys", [])]
            decisions.append(
                {
                    "action": "reject",
                    "proposal_id": pid,
                    "claim_id": claim_id,
                    "keys": sorted({scrub(k) for k in keys}),
                    "atoms": sorted(str(a["id"]) for a in claim.atoms) if claim else [],
                    "projects": sorted(str(p) for p in front.get("projects", [])),
                    "at": moment,
                }
            )
            text = claim.text if claim else str(front.get("text", ""))
            done.append({"id": pid, "claim_id": claim_id, "text": text})
            staged_path = _staged_file(paths, pid)
            if staged_path.exists():
                changes.append(Change(staged_path, "staged", "project", staged_path.read_bytes(), None))
        changes.append(_decisions_change(paths, decisions))
        commit(paths, "reject", "rejected " + ", ".join(chosen), changes)
    return done


def verify(paths: Paths, claim_ref: str) -> dict[str, Any]:
    """Record that a person confirmed a claim (the one-observation path to L2)."""
    with StoreLock(paths.store):
        result = plan(paths)
        by_id = result.by_id()
        claim = by_id[match_id(claim_ref, by_id, "claim")]
        already = claim.verified
        if not already:
            scrub = _scrubber(paths)
            decision = {"action": "verify", "claim_id": claim.id, "keys": sorted({scrub(k) for k in claim.keys}), "at": iso(now())}
            commit(paths, "verify", f"verified {claim.id}", [_decisions_change(paths, [decision])])
        after = plan(paths)
        proposal = next((p for p in after.proposals if p.claim_id == claim.id), None)
        blocking = after.by_id()[claim.id].blocking if claim.id in after.by_id() else []
    return {
        "claim_id": claim.id,
        "text": claim.text,
        "already": already,
        "proposal": proposal.id if proposal else None,
        "blocking": list(blocking),
    }


def resolve(paths: Paths, claim_ref: str, keep_ref: str) -> dict[str, Any]:
    """Settle a contradiction: KEEP stands, the other claim is retired (kept on record, never promoted)."""
    with _locked(paths, user=paths.l3.exists()):
        result = plan(paths)
        by_id = result.by_id()
        claim = by_id[match_id(claim_ref, by_id, "claim")]
        keep = by_id[match_id(keep_ref, by_id, "claim")]
        if claim.id == keep.id:
            raise UsageError("a claim cannot be resolved in favour of itself: give the claim to keep with --keep")
        if keep.id not in claim.contested_by:
            raise UsageError(
                f"{claim.id} and {keep.id} do not contradict each other now, so there is nothing to resolve"
                " (see 'agent-memory inspect --contested')"
            )
        scrub = _scrubber(paths)
        decision = {
            "action": "resolve",
            "claim_id": claim.id,
            "keys": sorted({scrub(k) for k in claim.keys}),
            "keep_id": keep.id,
            "keep_keys": sorted({scrub(k) for k in keep.keys}),
            "at": iso(now()),
        }
        changes = [_decisions_change(paths, [decision])]
        retired_in: list[str] = []
        for tier, path, scope in (("L2", paths.l2, "project"), ("L3", paths.l3, "user")):
            before = _read(path)
            records = {str(r["id"]): r for r in load_claims(path)}
            ids: list[str] = []
            entry = records.get(claim.id)
            if entry is not None and not entry.get("retired"):
                records[claim.id] = dict(entry, retired=True, retired_for=keep.id, contested=False, contested_by=[])
                ids.append(claim.id)
                retired_in.append(tier)
            other = records.get(keep.id)
            if other is not None and claim.id in other.get("contested_by", []):
                rest = sorted(set(other["contested_by"]) - {claim.id})
                records[keep.id] = dict(other, contested=bool(rest), contested_by=rest)
                ids.append(keep.id)
            if not ids:
                continue
            changes.append(_claims_change(path, scope, before, list(records.values()), ids))
            if entry is not None and claim.id in ids:
                found = [project_target(paths, n) if scope == "project" else user_target(n) for n in entry_targets(entry)]
                for same_file in by_file(t for t in found if t is not None):
                    changes.append(_instruction_change(same_file, list(records.values())))
        backup = commit(paths, "resolve", f"resolved {claim.id} in favour of {keep.id}", changes)
    return {"claim_id": claim.id, "keep_id": keep.id, "text": claim.text, "keep_text": keep.text,
            "retired_in": retired_in, "backup": backup or None}


# ---------------------------------------------------------------- rollback


def _last_backup(paths: Paths) -> tuple[Path, dict[str, Any]] | None:
    for folder in reversed(_backup_dirs(paths)):
        manifest = read_json(folder / "manifest.json", {})
        if isinstance(manifest, dict) and manifest.get("command") in ROLLBACK_COMMANDS and not manifest.get("rolled_back"):
            return folder, manifest
    return None


def _label(record: dict[str, Any]) -> str:
    names = record.get("names") or []
    return ", ".join(names) if record.get("scope") == "project" and names else Path(record["path"]).name


def rollback(paths: Paths) -> dict[str, Any] | None:
    """Undo the last adopt (or resolve) not yet rolled back; None when there is nothing to undo.

    A file untouched since is restored byte for byte (or deleted, if that command created it).
    A file changed since keeps the later changes: claims files get back only the entries that
    command changed, the decision log loses only its lines, an instruction file's block is
    regenerated from the restored entries.
    """
    last = _last_backup(paths)
    if last is None:
        return None
    folder, manifest = last
    user = any(r.get("scope") == "user" for r in manifest["changes"])
    with _locked(paths, user=user):
        plans: list[tuple[dict[str, Any], bytes | None, bytes | None]] = []  # record, current, backup copy
        regenerate: list[dict[str, Any]] = []
        for record in manifest["changes"]:
            path = Path(record["path"])
            current = _read(path)
            copy = Path(record["backup"]).read_bytes() if record.get("backup") else None
            if _sha(current) == record.get("after_sha256"):
                plans.append((record, current, copy))
            elif record["kind"] == "instruction":
                if current is not None:
                    found = _locate(_decode(current), _label(record))
                    if found is not None:
                        _check_untouched(found, _label(record))
                regenerate.append(record)
            else:
                plans.append((record, current, copy))
        restored, removed = [], []
        for record, current, copy in plans:
            path = Path(record["path"])
            if _sha(current) == record.get("after_sha256") or record["kind"] == "staged":
                if copy is None:
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
                    removed.append(str(path))
                else:
                    atomic_write(path, copy)
                    restored.append(str(path))
            elif record["kind"] == "claims":
                previous = {str(r["id"]): r for r in (json.loads(x) for x in _json_lines((copy or b"").decode("utf-8")) if x.strip())}
                now_records = {str(r["id"]): r for r in load_claims(path)}
                for claim_id in record.get("ids", []):
                    if claim_id in previous:
                        now_records[claim_id] = previous[claim_id]
                    else:
                        now_records.pop(claim_id, None)
                write_jsonl(path, sorted(now_records.values(), key=lambda r: str(r["id"])))
                restored.append(str(path))
            elif record["kind"] == "decisions":
                lines = _json_lines(_decode(current) if current else "")
                for line in record.get("appended", []):
                    if line in lines:
                        lines.remove(line)
                atomic_write(path, _encode("".join(lines)))
                restored.append(str(path))
        for record in regenerate:
            path = Path(record["path"])
            current = _read(path)
            if current is None:
                continue
            source = paths.l2 if record["scope"] == "project" else paths.l3
            lines = lines_for(load_claims(source), record.get("names", []), record["scope"])
            copy = Path(record["backup"]).read_bytes() if record.get("backup") else None
            had_block = copy is not None and _locate(_decode(copy), _label(record)) is not None
            if not lines and not had_block:
                atomic_write(path, remove_block(current, record.get("separator", ""), _label(record)))
            else:
                atomic_write(path, rewrite_file(current, lines, _label(record))[0])
            restored.append(str(path))
        manifest.update(rolled_back=True, rolled_back_at=iso(now()))
        folders = {"project": folder, "user": Path(manifest["user_backup"]) if manifest.get("user_backup") else folder}
        _write_manifests(manifest, folders)
    return {"backup": manifest["id"], "command": manifest["command"], "summary": manifest.get("summary", ""),
            "restored": restored, "removed": removed}


# ---------------------------------------------------------------- commands


def _paths(args: argparse.Namespace) -> Paths:
    return Paths.resolve(getattr(args, "memory_dir", None))


def _emit(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def cmd_adopt(args: argparse.Namespace) -> int:
    """``agent-memory adopt ID...|--all [--target FILE]``."""
    paths = _paths(args)
    report = adopt(paths, list(args.ids), every=args.all, target=args.target)
    for refused in report.refused:
        print(f"agent-memory: {refused['id']} not adopted: {refused['reason']}", file=sys.stderr)
    if args.json:
        _emit(report.as_json())
    elif not (report.adopted or report.unchanged or report.refused):
        print("nothing staged to adopt")
    else:
        for item in report.adopted:
            print(f"adopted {item['id']} into {item['to']} ({', '.join(item['targets'])}): {_short(item['text'])}")
        for item in report.unchanged:
            print(f"{item['id']} is already adopted: {_short(item['text'])}")
        if report.backup:
            print(f"backup {report.backup} in {paths.backups} (undo with 'agent-memory rollback')")
    return 1 if report.refused else 0


def cmd_reject(args: argparse.Namespace) -> int:
    """``agent-memory reject ID...``."""
    done = reject(_paths(args), list(args.ids))
    if args.json:
        _emit({"rejected": done})
    else:
        for item in done:
            print(f"rejected {item['id']}: {_short(item['text'])} (not proposed again without new evidence)")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """``agent-memory verify ID``."""
    found = verify(_paths(args), args.id)
    if args.json:
        _emit({"verified": found})
        return 0
    state = "was already verified" if found["already"] else "verified"
    if found["proposal"]:
        nxt = f"now proposed as {found['proposal']}; stage it with 'agent-memory promote --write'"
    elif found["blocking"]:
        nxt = "still blocked: " + "; ".join(found["blocking"])
    else:
        nxt = "nothing to promote"
    print(f"{found['claim_id']} {state}: {_short(found['text'])} ({nxt})")
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    """``agent-memory resolve ID --keep KEEP_ID``."""
    found = resolve(_paths(args), args.id, args.keep)
    if args.json:
        _emit({"resolved": found})
        return 0
    where = f"; retired in {' and '.join(found['retired_in'])}" if found["retired_in"] else ""
    print(f"kept {found['keep_id']} ({_short(found['keep_text'], 40)}), retired {found['claim_id']} ({_short(found['text'], 40)}){where}")
    return 0


def cmd_rollback(args: argparse.Namespace) -> int:
    """``agent-memory rollback``."""
    found = rollback(_paths(args))
    if args.json:
        _emit({"rolled_back": found})
        return 0
    if found is None:
        print("nothing to roll back")
        return 0
    files = len(found["restored"]) + len(found["removed"])
    print(f"rolled back {found['command']} {found['backup']} ({found['summary']}): {files} file(s) restored")
    return 0
