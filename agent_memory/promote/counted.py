"""The promotion pass from counted evidence: a claim nothing touches is gated on its counts alone.

Most claim keys of a long history are one-off rules: no other key is near them, no adopted record
or decision names them, and too few sessions hold them to pass. Their claim is the key alone, so
what the gates say of them follows from the counts the claim tables keep (``evidence``, made by
the gate statement of ``sql.py``). The pass builds claims in Python only for the rest, and gives
the same proposals and refusals as building every claim. Standard library only.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any, Iterator

from ..claims.cache import Evidence, L1View, Partial
from ..claims.key import Key, claim_key
from ..store import Paths
from .tiers import load_claims, load_decisions


def named(paths: Paths) -> tuple[set[str], set[str], list[list[str]]]:
    """What adopted records and decisions name: (key texts, claim ids, each live record's key texts by preference)."""
    texts: set[str] = set()
    ids: set[str] = set()
    records: list[list[str]] = []
    for path in (paths.l2, paths.l3):
        for record in load_claims(path):
            own = [claim_key(record["text"]).text] + [k for k in record.get("keys", []) or [] if isinstance(k, str)]
            texts.update(own)
            ids.add(str(record["id"]))
            if not record.get("retired"):
                records.append(own)
    for decision in load_decisions(paths.decisions):
        for field in ("keys", "keep_keys"):
            texts.update(k for k in decision.get(field, []) or [] if isinstance(k, str))
        ids.update(str(decision.get(field, "")) for field in ("claim_id", "keep_id"))
    ids.discard("")
    return texts, ids, records


def may_pass(row: Evidence, gates: dict[str, Any]) -> bool:
    """Whether the counts alone could let the key through (those claims are built whole)."""
    default, stated = gates["l2"], gates["l2_stated"]
    if row.redacted:
        return False
    if row.sessions >= default["sessions"] and row.days >= default["days"]:
        return True
    return row.stated and row.sessions >= stated["sessions"] and row.days >= stated["days"]


def refusal(row: Evidence, gates: dict[str, Any]) -> dict[str, Any]:
    """The blocked entry of a key on its own (as ``gates._gate_l2`` words it for such a claim)."""
    need = gates["l2_stated"] if row.stated else gates["l2"]
    reasons = ["redacted"] if row.redacted else []
    if row.sessions < need["sessions"]:
        reasons.append(f"{row.sessions} of {need['sessions']} sessions")
    if row.days < need["days"]:
        reasons.append(f"{row.days} of {need['days']} distinct days")
    return {"claim_id": row.claim_id, "text": row.shown, "reasons": reasons, "to": "L2"}


@contextlib.contextmanager
def split(paths: Paths, config: dict[str, Any], similarity: float) -> Iterator[tuple[L1View, list[dict[str, Any]]] | None]:
    """(the L1 view of the keys that need a whole claim, the refusals of every other key), or None when
    the tables do not cover L1 (then the pass reads everything). The view reads bucket rows as the
    pass asks, so the tables stay open until the pass is done."""
    tables = Partial.open(paths, similarity)
    try:
        found = _split(tables, paths, config, similarity) if tables is not None else None
    except (sqlite3.Error, ValueError, KeyError, TypeError):
        found = None  # damaged tables cost the pass its speed, never its result
    try:
        yield found
    finally:
        if tables is not None:
            tables.close()


def _split(tables: Partial, paths: Paths, config: dict[str, Any], similarity: float) -> tuple[L1View, list[dict[str, Any]]]:
    texts, ids, records = named(paths)
    held = tables.ids_of(texts)
    wanted = set(held.values()) | tables.claims_named(ids)
    # adopted wordings L1 does not hold: the pass relates them to L1's keys, so their neighbours are read whole
    around: list[Key] = [claim_key(own[0]) for own in records if not any(t in held for t in own)]
    gates = config["gates"]
    rows = tables.evidence()
    wanted.update(r.key for r in rows if not r.shown or may_pass(r, gates))
    view, read = tables.view(wanted, around, similarity)
    return view, [refusal(r, gates) for r in rows if r.key not in read]
