"""user-prompt-submit: the claims from earlier sessions that are relevant to this prompt, read from the index."""

from __future__ import annotations

import os

from .. import agents, fastjson
from ..text import PROMPT_SCAN_CHARS, PROMPT_TERMS, is_cjk, is_relevant, passes, prompt_terms, prompt_words, relevance
from .cache import budget_of, setting
from .entry import TAG_CONTESTED, Budget, fit
from .where import as_paths, log

__all__ = ["PROMPT_SCAN_CHARS", "PROMPT_TERMS", "is_relevant", "prompt_context", "prompt_terms", "relevance"]

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    import sqlite3
    from typing import Any

    from .where import AnyPaths


PROMPT_HEADING = "From earlier sessions in this project (agent-memory; not reviewed yet, a hint rather than a rule):"


# an index built from scratch over more L1 than this takes longer than an agent waits on a prompt hook
INLINE_REBUILD_BYTES = 8 * 1024 * 1024


def _contested_file(paths: "AnyPaths") -> bytes:
    """``L1/contested.json`` as bytes ("" when missing or unreadable)."""
    try:
        with open(str(paths.contested), "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return b""
    except OSError as exc:
        log(paths, "read contested", exc)
        return b""


def _is_contested(contested: bytes, key: str) -> bool:
    """Whether ``contested.json`` (as bytes) holds ``key``, without parsing what may be megabytes of JSON.

    In that file a claim key occurs only as an object key: the key's JSON string followed by
    a colon (values are lists of claim ids). Both the file's own encoding and an ASCII-escaped
    one are looked for.
    """
    forms = {fastjson.quoted(key, ascii) for ascii in (False, True)}  # one form when the key is ASCII
    return any((form + ":").encode("utf-8") in contested for form in forms)


def forgotten_keys(paths: "AnyPaths") -> "dict[str, str]":
    """The claim keys a person took back with ``forget``, each with when (``decisions.jsonl``, parsed only when it
    holds a forget: most stores have none, and the file is read on every prompt)."""
    try:
        with open(str(paths.decisions), "rb") as handle:
            data = handle.read()
    except OSError:
        return {}
    found: "dict[str, str]" = {}
    if b'"forget"' not in data:
        return found
    for record in fastjson.objects_holding(data.splitlines(), b'"forget"'):
        at = record.get("at") if record.get("action") == "forget" else None
        keys = record.get("keys") if isinstance(at, str) else None
        for key in keys if isinstance(keys, list) else ():
            if isinstance(key, str) and at > found.get(key, ""):
                found[key] = at
    return found


def person_prompt(prompt: str) -> str:
    """The prompt without any block our own hooks injected: recall looks for what the person asked, not for our echo."""
    if not prompt:
        return prompt
    from ..transcripts.injected import strip_injected

    return strip_injected(prompt)


def prompt_context(paths: "AnyPaths", config: "dict[str, Any]", prompt: str, agent: str = agents.DEFAULT) -> str:
    """The L1 claims relevant to ``prompt``, with date and evidence; "" when none is.

    Candidates are the index's claim keys that share a term with the prompt (bm25 × time
    decay); the relevance floor keeps those sharing enough of their content terms.
    """
    if not os.path.isfile(str(paths.atoms)):
        return ""
    cut = prompt_words(person_prompt(prompt))  # never search on what we injected ourselves
    terms = list(cut)
    if not terms:
        return ""
    limit = max(1, int(budget_of(config, "prompt_atoms", 5)))
    budget = Budget(agent, int(budget_of(config, "prompt_chars", 1500)))
    min_score = min(setting(config, "recall", "min_score", 0.3), 1.0)
    half_life = setting(config, "recall", "half_life_days", 30.0) or 30.0
    from ..index import prompt as lookup

    con, index = _recall_connection(paths)
    if con is None:
        return ""
    try:
        # the index stems the keys' words its own way: it is searched by the prompt's words as typed (a term
        # such as "pric", from "pricing", is no word of any key); relevance compares the terms
        words = list(dict.fromkeys(cut[t] for t in terms if not is_cjk(t)))
        found = lookup.matching_keys(con, words, [t for t in terms if is_cjk(t)], max(8 * limit, 40),
                                     lookup.now_epoch(), half_life)
        groups = []
        forgotten = forgotten_keys(paths) if found else {}
        for rank, (key, text, atom_terms) in enumerate(found):
            if key in forgotten and _last_said(con, key) <= forgotten[key]:
                continue  # taken back with forget, not said again since
            score = relevance(terms, atom_terms)
            if passes(score, terms, atom_terms, min_score):
                groups.append((score, rank, key, text))
        ranked = sorted(groups, key=lambda g: (-g[0][0], -g[0][1], g[1]))
        claim_of = lookup.claims_of(con, [g[2] for g in ranked]) if len(ranked) > 1 else {}
        shown: set[str] = set()
        chosen = []
        for group in ranked:  # one rule said in several wordings is shown once, in its best-scoring wording
            claim = claim_of.get(group[2], group[2])
            if claim not in shown and len(chosen) < limit:
                shown.add(claim)
                chosen.append(group)
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
    return fit([(PROMPT_HEADING, lines)], "", budget)


def _last_said(con: "sqlite3.Connection", key: str) -> str:
    """When a claim key was last observed (its newest atom's timestamp, as the index keeps it)."""
    row = con.execute("SELECT last FROM keys WHERE key = ?", (key,)).fetchone()
    return str(row[0]) if row else ""


def _recall_connection(paths: "AnyPaths") -> "tuple[sqlite3.Connection | None, Any]":
    """The index file when it is current; else the index synced (or built in memory) first.

    (None, None) when there is no usable index and L1 is too large to index while a prompt
    waits: a detached worker builds it, and this prompt goes without recall.
    """
    from ..index import prompt as lookup

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
            from . import worker

            worker.run_worker(paths, [], "never", 0.0)
            return None, None
    from ..promote.tiers import open_index

    index = open_index(as_paths(paths), rederive=False)
    return index.con, index

