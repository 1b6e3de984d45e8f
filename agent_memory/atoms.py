"""What one read turn gives L1: the atoms a person's turn holds and the question/answer chunks of a session, their
text redacted and scrubbed before anything is derived from it. Pure: ``ingest.py`` runs it inline or in a worker.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any, Iterable

from . import markers, redact
from .clock import day_of
from .model import Redaction, Turn
from .store import find_project_root

QUOTE_LIMIT = 2000  # characters of the person's turn kept as the quote
CHUNK_LIMIT = 4000  # characters of one question/answer chunk
SECRET_REACH = 8192  # longer than any one secret, a PEM block included: how far past a cut redaction reads


def _hash(*parts: Any) -> str:
    body = "\x1f".join(str(p) for p in parts)
    return hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]


def project_of(turn_cwd: str, fallback: str, override: str | None) -> str:
    """The project a session belongs to: ``--project``, else its cwd's git root name."""
    if override:
        return override
    if turn_cwd:
        if os.path.isdir(turn_cwd):
            return find_project_root(turn_cwd).name or fallback
        # another machine's folder: its last part, whichever separator it was written with
        return re.split(r"[\\/]", turn_cwd.rstrip("\\/"))[-1] or fallback
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


_REDACTED = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")


def _session_scrubber(cwd: str) -> Any:
    """Scrubbing for a session run in ``cwd`` (maybe on another machine): its project's paths made relative."""
    root = str(find_project_root(cwd)) if cwd and os.path.isdir(cwd) else cwd
    return redact.session_scrubber(cwd, root)


def atoms_from_turn(turn: Turn, project: str, cwd: str = "",
                    scrubbers: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The atoms a person's turn holds, each citing its transcript line.

    Their text and quote are made once, here, before any claim key is derived from them:
    control and format characters dropped, secrets redacted, paths and user names scrubbed
    (paths under the session's project, ``cwd`` or the turn's own, become relative to it).
    ``scrubbers`` keeps one scrubber per folder across the turns of one read.
    """
    if turn.role != "user":
        return []
    said = redact.neutralise(turn.text)
    found = markers.find_markers(said)
    if not found:
        return []
    # Redact the whole turn before cutting it into sentences: a key wrapped over two lines is
    # only recognisable whole, and the quote may then be cut anywhere.
    whole = redact.redact(said)
    if whole.redacted:
        found = markers.find_markers(whole.text)
    folder = cwd or turn.cwd
    scrub = scrubbers.get(folder) if scrubbers is not None else None
    if scrub is None:
        scrub = _session_scrubber(folder)
        if scrubbers is not None:
            scrubbers[folder] = scrub
    quote = whole.text[:QUOTE_LIMIT]
    quote_rules = set(_REDACTED.findall(quote))
    quote_text = scrub(quote)
    block = paste_block(whole.text)
    atoms = []
    for marker in found:
        clean = redact.redact(marker.text)
        text = scrub(clean.text)
        rules = set(_REDACTED.findall(clean.text))
        anchor = turn.timestamp or f"line{turn.line}"
        atom = {
            # the id hashes the text as kept: a hash of the original would let anyone who reads
            # L1 test guesses at a redacted secret or a scrubbed user name
            "id": _hash(turn.agent, turn.session, anchor, marker.kind, text),
            "kind": marker.kind,
            "rule": marker.rule_id,
            "text": text,
            "stated": marker.stated,
            "scope": markers.durable_reason(marker, said),
            "redacted": bool(rules),
            "redaction_rules": sorted(rules | quote_rules),
            "quote": quote_text,
            "agent": turn.agent,
            "session": turn.session,
            "project": project,
            "cwd": turn.cwd,
            "timestamp": turn.timestamp,
            "day": day_of(turn.timestamp),
            "transcript": turn.source,
            "line": turn.line,
        }
        if marker.reverses:
            atom["reverses"] = scrub(redact.redact(marker.reverses).text)
        if block:
            atom["block"] = block
        atoms.append(atom)
    return atoms


def chunks_from_turns(turns: Iterable[Turn], project: str) -> list[dict[str, Any]]:
    """Question/answer chunks for recall: a person's turn with the assistant's reply text."""
    chunks: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    replies: list[str] = []
    replied = 0  # characters in replies

    def close() -> None:
        if current is None:
            return
        said = current["question"]
        question = redact.neutralise(said)
        answer = " ".join(replies).strip()
        if not answer:
            body = question
        elif said.endswith("\r"):
            body = redact.neutralise(f"{said}\n{answer}")  # its "\r" and the "\n" after it are one line break
        else:
            body = f"{question}\n{redact.neutralise(answer)}"
        clean = redacted_prefix(body, CHUNK_LIMIT)
        # The body opens with the question, whole, and a line break (the window redacted reaches past it). A
        # secret in the question is still found with lines after it (tested, not proven: DESIGN), so where
        # nothing was found in the body the question is not redacted a second time.
        if clean.redacted or len(question) > QUOTE_LIMIT:
            quote = redacted_prefix(question, QUOTE_LIMIT).text
        else:
            quote = question
        chunks.append(
            {
                # hashed from the redacted question, so no secret can be guessed from the id
                "id": _hash("chunk", current["session"], current["timestamp"] or current["line"], quote[:200]),
                "text": clean.text,
                "redacted": clean.redacted,
                "session": current["session"],
                "agent": current["agent"],
                "project": project,
                "timestamp": current["timestamp"],
                "transcript": current["transcript"],
                "line": current["line"],
                "quote": quote,
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
            replies, replied = [], 0
        elif current is not None and turn.session == current["session"]:
            if replied < CHUNK_LIMIT:
                replies.append(turn.text)
                replied += len(turn.text)
    close()
    return chunks
