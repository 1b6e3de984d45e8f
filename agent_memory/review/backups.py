"""The review transaction: back up every file a command changes, then change them; rollback undoes the last.

Every command that changes a file first copies it into a backup folder with a manifest, so
``rollback`` can undo the last adopt (or resolve) exactly.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..clock import iso, now
from ..store import FileChanged, Paths, StoreLock, atomic_write, check_unchanged, read_json, write_json
from ..shapes import CLAIM, CLAIM_REQUIRED, malformed_lines
from ..promote.tiers import load_claims
from ..errors import UsageError
from .block import (check_untouched, decode_file, decode_text, drop_emptied, encode_text, lines_for, locate,
                    remove_block, rewrite_file)
from .targets import Target, display

ROLLBACK_COMMANDS = ("adopt", "resolve", "forget", "merge", "split")  # the commands whose changes rollback undoes

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
    label: str = ""  # how a person names the file in a message (CLAUDE.md, ~/.claude/CLAUDE.md)

    @property
    def changes_anything(self) -> bool:
        return self.before != self.after


def read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def sha256_of(data: bytes | None) -> str | None:
    return hashlib.sha256(data).hexdigest() if data is not None else None


def json_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def jsonl_bytes(records: Iterable[dict[str, Any]]) -> bytes:
    """What ``store.write_jsonl`` writes for these records, sorted by id."""
    return "".join(json_line(r) for r in sorted(records, key=lambda r: str(r["id"]))).encode("utf-8")


def json_lines(text: str) -> list[str]:
    """The lines of a JSON-lines text, each with its newline: a record ends at a newline only, never at
    the U+2028, U+0085 or form feed that ``json.dumps(ensure_ascii=False)`` leaves raw inside a string."""
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


def whole_lines(data: bytes | None) -> bytes:
    """An append-only log without a torn last record."""
    if not data:
        return b""
    return data if data.endswith(b"\n") else data[: data.rfind(b"\n") + 1]


def _backup_number(name: str) -> int:
    tail = name.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _backup_dirs(paths: Paths) -> list[Path]:
    return _backup_dirs_in(paths.backups)


def _backup_dirs_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    found = [d for d in folder.iterdir() if d.is_dir() and (d / "manifest.json").is_file()]
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
    _precheck(real, command)
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
                "after_sha256": sha256_of(change.after),
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
    _apply(sorted(real, key=lambda c: APPLY_ORDER.index(c.kind)), command, list(folders.values()))
    return backup_id


def _apply(ordered: list[Change], command: str, backup_folders: list[Path]) -> None:
    """Make the changes, each file re-checked just before it is replaced: a person's edit made since the
    file was read is never written over. When one changed, the changes already made are undone, the
    backup is dropped, and ``FileChanged`` says which file."""
    done: list[Change] = []
    change = ordered[0]
    try:
        for change in ordered:
            if change.after is None:
                check_unchanged(change.path, change.before)
                with contextlib.suppress(FileNotFoundError):
                    change.path.unlink()
            else:
                atomic_write(change.path, change.after, expect=change.before)
            done.append(change)
    except FileChanged:
        for undo in reversed(done):
            with contextlib.suppress(FileChanged, OSError):
                if undo.before is None:
                    check_unchanged(undo.path, undo.after)
                    undo.path.unlink()
                else:
                    atomic_write(undo.path, undo.before, expect=undo.after)
        for folder in backup_folders:
            shutil.rmtree(folder, ignore_errors=True)
        label = change.label or change.path.name
        raise FileChanged(f"{label} changed while {command} was running, so nothing was changed: run {command} again") from None


def _precheck(real: list[Change], command: str) -> None:
    """Refuse before anything is written when a file no longer holds what the command read."""
    for change in real:
        if read_or_none(change.path) != change.before:
            label = change.label or change.path.name
            raise FileChanged(f"{label} changed while {command} was running, so nothing was changed: run {command} again")


def _write_manifests(manifest: dict[str, Any], folders: dict[str, Path]) -> None:
    write_json(folders["project"] / "manifest.json", manifest)
    if manifest["user_backup"]:
        mine = [r for r in manifest["changes"] if r["scope"] == "user"]
        user_copy = dict(manifest, changes=mine, files={r["path"]: manifest["files"][r["path"]] for r in mine})
        write_json(Path(manifest["user_backup"]) / "manifest.json", user_copy)


@contextlib.contextmanager
def locked(paths: Paths, user: bool) -> Iterator[None]:
    """The project store's lock, and the user store's too when user-level files change."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(StoreLock(paths.store))
        if user:
            stack.enter_context(StoreLock(paths.user))
        yield


def claims_change(path: Path, scope: str, before: bytes | None, records: list[dict[str, Any]], ids: list[str]) -> Change:
    """A rewrite of an L2/L3 file: the records sorted by id, then any wrong-shaped line it held, kept as it was."""
    after = jsonl_bytes(records) + malformed_lines(before, CLAIM, CLAIM_REQUIRED)
    return Change(path, "claims", scope, before, after, ids=sorted(set(ids)))


def instruction_change(paths: Paths, same_file: list[Target], entries: list[dict[str, Any]]) -> Change:
    """The new block of one instruction file, written through a symlink rather than over it; a block left
    with no claim goes whole (with the separator adopt added before it, when the backups still say which)."""
    first = same_file[0]
    real = Path(os.path.realpath(first.path))
    names = sorted({t.name for t in same_file})
    before = read_or_none(real)
    lines = lines_for(entries, names, first.scope)
    if lines:
        after, separator = rewrite_file(before, lines, display(first))
    else:
        separator = ""
        after = before if before is None else drop_emptied(before, display(first), _appended_separator(paths, real, first.scope))
    return Change(real, "instruction", first.scope, before, after, names=names, separator=separator, label=display(first))


def _appended_separator(paths: Paths, path: Path, scope: str) -> str:
    """What adopt put before the block it appended to ``path``: the separator recorded by the newest command,
    not rolled back, that found the file without a block ("" when no backup says)."""
    folder = paths.backups if scope == "project" else paths.user_backups
    manifests = [read_json(d / "manifest.json", {}) for d in _backup_dirs_in(folder)]
    ordered = sorted((m for m in manifests if isinstance(m, dict)),
                     key=lambda m: (str(m.get("at", "")), _backup_number(str(m.get("id", "")))))
    label = path.name
    for manifest in reversed(ordered):
        if manifest.get("rolled_back"):
            continue
        for record in manifest.get("changes", []):
            if not isinstance(record, dict) or record.get("path") != str(path) or record.get("kind") != "instruction":
                continue
            try:
                copy = Path(record["backup"]).read_bytes() if record.get("backup") else None
                if copy is None or locate(decode_file(copy, label)[0], label) is None:
                    return str(record.get("separator") or "")
            except (OSError, ValueError, UsageError):
                return ""  # a backup that cannot be read says nothing: the separator stays
    return ""


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
    """Undo the last adopt (or resolve, forget, merge, split) not yet rolled back; None when there is nothing to undo.

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
    with locked(paths, user=user):
        plans: list[tuple[dict[str, Any], bytes | None, bytes | None]] = []  # record, current, backup copy
        regenerate: list[dict[str, Any]] = []
        for record in manifest["changes"]:
            path = Path(record["path"])
            current = read_or_none(path)
            copy = Path(record["backup"]).read_bytes() if record.get("backup") else None
            if sha256_of(current) == record.get("after_sha256"):
                plans.append((record, current, copy))
            elif record["kind"] == "instruction":
                if current is not None:
                    found = locate(decode_file(current, _label(record))[0], _label(record))
                    if found is not None:
                        check_untouched(found, _label(record))
                regenerate.append(record)
            else:
                plans.append((record, current, copy))
        restored, removed = [], []
        try:
            for record, current, copy in plans:
                path = Path(record["path"])
                if sha256_of(current) == record.get("after_sha256") or record["kind"] == "staged":
                    if copy is None:
                        check_unchanged(path, current)
                        with contextlib.suppress(FileNotFoundError):
                            path.unlink()
                        removed.append(str(path))
                    else:
                        atomic_write(path, copy, expect=current)
                        restored.append(str(path))
                elif current is None and copy is None:
                    continue  # the command was cut short before it wrote this file: nothing of it to take back
                elif record["kind"] == "claims":
                    previous = {str(r["id"]): r for r in (json.loads(x) for x in json_lines((copy or b"").decode("utf-8")) if x.strip())}
                    now_records = {str(r["id"]): r for r in load_claims(path)}
                    for claim_id in record.get("ids", []):
                        if claim_id in previous:
                            now_records[claim_id] = previous[claim_id]
                        else:
                            now_records.pop(claim_id, None)
                    atomic_write(path, jsonl_bytes(now_records.values()) + malformed_lines(current, CLAIM, CLAIM_REQUIRED), expect=current)
                    restored.append(str(path))
                elif record["kind"] == "decisions":
                    lines = json_lines(decode_text(current) if current else "")
                    for line in record.get("appended", []):
                        if line in lines:
                            lines.remove(line)
                    if not lines and copy is None:  # the command made the file: it goes again
                        check_unchanged(path, current)
                        path.unlink()
                        removed.append(str(path))
                        continue
                    atomic_write(path, encode_text("".join(lines)), expect=current)
                    restored.append(str(path))
            for record in regenerate:
                path = Path(record["path"])
                current = read_or_none(path)
                if current is None:
                    continue
                source = paths.l2 if record["scope"] == "project" else paths.l3
                lines = lines_for(load_claims(source), record.get("names", []), record["scope"])
                copy = Path(record["backup"]).read_bytes() if record.get("backup") else None
                had_block = copy is not None and locate(decode_file(copy, _label(record))[0], _label(record)) is not None
                if not lines and not had_block:
                    atomic_write(path, remove_block(current, record.get("separator", ""), _label(record)), expect=current)
                else:
                    atomic_write(path, rewrite_file(current, lines, _label(record))[0], expect=current)
                restored.append(str(path))
        except FileChanged as exc:
            raise FileChanged(f"{exc.name} changed while rollback was running: run rollback again"
                              " (what it restored stays restored)", exc.name) from None
        manifest.update(rolled_back=True, rolled_back_at=iso(now()))
        folders = {"project": folder, "user": Path(manifest["user_backup"]) if manifest.get("user_backup") else folder}
        _write_manifests(manifest, folders)
    return {"backup": manifest["id"], "command": manifest["command"], "summary": manifest.get("summary", ""),
            "restored": restored, "removed": removed}

