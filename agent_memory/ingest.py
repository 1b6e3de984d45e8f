"""L0 → L1: read transcripts, find atoms in the person's own words, redact, append.

Incremental: a transcript that grew is read from where the last ingest stopped, and
atom ids are content hashes, so re-reading anything adds nothing. Standard library only
(the session-end hook ingests through here).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from . import markers, redact
from .model import AgentMemoryError, Redaction, Turn
from .store import Paths, StoreLock, append_jsonl, day_of, ensure_store, find_project_root, read_json, write_json
from .tiers import open_index, register_project
from .transcripts import iter_transcript_files, read_transcript

QUOTE_LIMIT = 2000  # characters of the person's turn kept as the quote
CHUNK_LIMIT = 4000  # characters of one question/answer chunk
SECRET_REACH = 8192  # longer than any one secret, a PEM block included: how far past a cut redaction reads


@dataclass
class IngestReport:
    """What one ingest call did (the JSON of ``agent-memory ingest``)."""

    sessions: set[str] = field(default_factory=set)
    atoms_added: int = 0
    quarantined: int = 0
    chunks_added: int = 0
    files: int = 0
    skipped_lines: int = 0
    errors: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"sessions": len(self.sessions), "atoms_added": self.atoms_added, "quarantined": self.quarantined}


def _hash(*parts: Any) -> str:
    body = "\x1f".join(str(p) for p in parts)
    return hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]


def project_of(turn_cwd: str, fallback: str, override: str | None) -> str:
    """The project a session belongs to: ``--project``, else its cwd's git root name."""
    if override:
        return override
    if turn_cwd:
        root = find_project_root(turn_cwd) if os.path.isdir(turn_cwd) else Path(turn_cwd)
        return root.name or fallback
    return fallback


def redacted_prefix(text: str, limit: int) -> Redaction:
    """The first ``limit`` characters of ``text``, redacted before the cut, never after.

    Cutting first would keep the front half of a secret that straddles the cut, which no rule
    recognises on its own; redacting a window that reaches past the cut replaces it whole.
    """
    if len(text) <= limit:
        return redact.redact(text)
    window = redact.redact(text[: limit + SECRET_REACH])
    return Redaction(window.text[:limit], window.rule_ids)


BLOCK_CHARS = 300  # a turn this long (whitespace folded) may be pasted material: its atoms carry its block


def paste_block(text: str) -> str:
    """The block id of a long turn (16 hex of the SHA-256 of its whitespace-folded text), else "".

    The gates count every atom of one block as one session at most, so a template pasted
    verbatim every session is not taken for the person restating its rules.
    """
    folded = " ".join(text.split())
    if len(folded) < BLOCK_CHARS:
        return ""
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:16]


def atoms_from_turn(turn: Turn, project: str) -> list[dict[str, Any]]:
    """The atoms a person's turn holds, redacted, each citing its transcript line."""
    if turn.role != "user":
        return []
    found = markers.find_markers(turn.text)
    if not found:
        return []
    quote = redacted_prefix(turn.text, QUOTE_LIMIT)
    block = paste_block(turn.text)
    atoms = []
    for marker in found:
        clean = redact.redact(marker.text)
        anchor = turn.timestamp or f"line{turn.line}"
        atom = {
            "id": _hash(turn.agent, turn.session, anchor, marker.kind, marker.text),
            "kind": marker.kind,
            "rule": marker.rule_id,
            "text": clean.text,
            "stated": marker.stated,
            "redacted": clean.redacted,
            "redaction_rules": sorted(set(clean.rule_ids) | set(quote.rule_ids)),
            "quote": quote.text,
            "agent": turn.agent,
            "session": turn.session,
            "project": project,
            "cwd": turn.cwd,
            "timestamp": turn.timestamp,
            "day": day_of(turn.timestamp),
            "transcript": turn.source,
            "line": turn.line,
        }
        if clean.redacted:
            atom["secret_hash"] = redact.secret_hash(marker.text)
        if block:
            atom["block"] = block
        atoms.append(atom)
    return atoms


def chunks_from_turns(turns: Iterable[Turn], project: str) -> list[dict[str, Any]]:
    """Question/answer chunks for recall: a person's turn with the assistant's reply text."""
    chunks: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    replies: list[str] = []

    def close() -> None:
        if current is None:
            return
        body = current["question"]
        answer = " ".join(replies).strip()
        if answer:
            body = f"{body}\n{answer}"
        clean = redacted_prefix(body, CHUNK_LIMIT)
        chunks.append(
            {
                "id": _hash("chunk", current["session"], current["timestamp"] or current["line"], current["question"][:200]),
                "text": clean.text,
                "redacted": clean.redacted,
                "session": current["session"],
                "agent": current["agent"],
                "project": project,
                "timestamp": current["timestamp"],
                "transcript": current["transcript"],
                "line": current["line"],
                "quote": redacted_prefix(current["question"], QUOTE_LIMIT).text,
            }
        )

    for turn in turns:
        if turn.role == "user":
            close()
            current = {
                "question": turn.text,
                "session": turn.session,
                "agent": turn.agent,
                "timestamp": turn.timestamp,
                "transcript": turn.source,
                "line": turn.line,
            }
            replies = []
        elif current is not None and turn.session == current["session"]:
            if sum(len(r) for r in replies) < CHUNK_LIMIT:
                replies.append(turn.text)
    close()
    return chunks


class _Seen:
    """Which record ids the store already holds: the index, plus this call's own."""

    def __init__(self, index: Any) -> None:
        self.index = index
        self.added: set[tuple[str, str]] = set()

    def first(self, kind: str, ref: str) -> bool:
        key = (kind, ref)
        if key in self.added or self.index.has(kind, ref):
            return False
        self.added.add(key)
        return True


def ingest(
    paths: Paths,
    inputs: Iterable[str],
    project: str | None = None,
    agent: str = "auto",
    chunks: bool = True,
) -> IngestReport:
    """Read transcripts (files or folders) into the store's L1; idempotent and incremental."""
    ensure_store(paths)
    report = IngestReport()
    files = list(iter_transcript_files(inputs))
    with StoreLock(paths.store):
        state: dict[str, Any] = read_json(paths.ingested, {})
        if not isinstance(state, dict):
            state = {}
        index = open_index(paths)
        try:
            seen = _Seen(index)
            new_atoms: list[dict[str, Any]] = []
            new_chunks: list[dict[str, Any]] = []
            for path in files:
                report.files += 1
                _ingest_file(path, state, project, agent, paths, report, seen, new_atoms, new_chunks, chunks)
            append_jsonl(paths.atoms, new_atoms)
            if chunks:
                append_jsonl(paths.chunks, new_chunks)
            write_json(paths.ingested, state)
            index.sync()
            if new_atoms:
                _refresh_claim_cache(paths)
        finally:
            index.close()
        try:
            register_project(paths)
        except OSError:
            pass  # the registry only matters for L2→L3; a read-only home must not fail ingest
    return report


def _refresh_claim_cache(paths: Paths) -> None:
    """Fold the new atoms into promote's claim cache, if the store keeps one (``promote --write`` makes it).

    Only the appended atoms are read. The cache is a speed-up: nothing here may fail an ingest.
    """
    if not paths.claim_cache.exists():
        return
    from . import claimcache  # claim identity is loaded only for stores that keep the cache
    from .config import load_config

    try:
        similarity = float(load_config(paths.config)["identity"]["merge_similarity"])
        claimcache.refresh(paths, similarity)
    except (AgentMemoryError, OSError, ValueError, KeyError, TypeError):
        pass


def _ingest_file(
    path: str,
    state: dict[str, Any],
    project: str | None,
    agent: str,
    paths: Paths,
    report: IngestReport,
    seen: "_Seen",
    new_atoms: list[dict[str, Any]],
    new_chunks: list[dict[str, Any]],
    with_chunks: bool,
) -> None:
    key = os.path.abspath(path)
    try:
        stat = os.stat(key)
    except OSError as exc:
        report.errors.append(f"{path}: {exc.strerror or exc}")
        return
    prior = state.get(key) if isinstance(state.get(key), dict) else None
    sig = [stat.st_size, stat.st_mtime_ns]
    if prior and prior.get("sig") == sig:
        report.sessions.update(prior.get("sessions", []))
        return
    start_offset, start_line = 0, 0
    if prior and isinstance(prior.get("offset"), int) and 0 <= prior["offset"] <= stat.st_size:
        start_offset, start_line = prior["offset"], int(prior.get("line", 0))
    try:
        result = read_transcript(key, agent=agent, start_offset=start_offset, start_line=start_line)
    except AgentMemoryError as exc:
        report.errors.append(f"{path}: {exc}")
        return
    report.skipped_lines += result.skipped
    sessions = set(prior.get("sessions", [])) if prior else set()
    sessions.update(result.sessions)
    report.sessions.update(result.sessions)
    fallback = project or paths.project_name
    for turn in result.turns:
        name = project_of(turn.cwd or result.cwd, fallback, project)
        for atom in atoms_from_turn(turn, name):
            if not seen.first("atom", atom["id"]):
                continue
            new_atoms.append(atom)
            report.atoms_added += 1
            if atom["redacted"]:
                report.quarantined += 1
    if with_chunks:
        name = project_of(result.cwd, fallback, project)
        for chunk in chunks_from_turns(result.turns, name):
            if seen.first("chunk", chunk["id"]):
                new_chunks.append(chunk)
                report.chunks_added += 1
    state[key] = {
        "sig": sig,
        "offset": result.end_offset,
        "line": result.end_line,
        "sessions": sorted(sessions),
    }
