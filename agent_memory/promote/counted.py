"""The promotion pass from counted evidence: a claim nothing touches is gated on its counts alone.

Most claim keys of a long history are one-off rules: no other key is near them, no adopted record
or decision names them, and too few sessions hold them to pass. Their claim is the key alone, so
what the gates say of them follows from the counts the claim tables keep (``evidence``, made by
the gate statement of ``sql.py``). The pass builds claims in Python only for the rest, and gives
the same proposals and refusals as building every claim. Standard library only.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Sequence

from ..claims.cache import L1View
from ..claims.partial import Partial
from ..claims.key import Key, claim_key
from ..store import Paths
from .records import Listing, listed
from .tiers import load_claims, load_decisions


def named(paths: Paths) -> tuple[set[str], set[str], list[list[str]], set[str]]:
    """What adopted records and decisions name: (key texts, claim ids, each live record's key texts by preference,
    the atom ids decisions name)."""
    texts: set[str] = set()
    ids: set[str] = set()
    atoms: set[str] = set()
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
        ids.update(str(i) for i in decision.get("claim_ids", []) or [])
        for field in ("atoms", "keep_atoms"):
            atoms.update(str(a) for a in decision.get(field, []) or [])
    ids.discard("")
    return texts, ids, records, atoms


def _reasons(shape: tuple[int, int, int, int], gates: dict[str, Any]) -> list[str]:
    """Why a key on its own does not pass, from its (sessions, days, stated, redacted), as ``gates._gate_l2`` says it."""
    sessions, days, stated, redacted = shape
    need = gates["l2_stated"] if stated else gates["l2"]
    reasons = ["redacted"] if redacted else []
    if sessions < need["sessions"]:
        reasons.append(f"{sessions} of {need['sessions']} sessions")
    if days < need["days"]:
        reasons.append(f"{days} of {need['days']} distinct days")
    return reasons


def split(paths: Paths, config: dict[str, Any], similarity: float) -> tuple[L1View, Refusals] | None:
    """(the L1 view of the keys that need a whole claim, the refusals of every other key), or None when
    the tables do not cover L1 or cannot be read (then the pass reads everything). The view reads
    bucket rows as the pass asks, so the tables stay open for the pass, and after it until the
    refusals are asked for (a pass that stages never asks)."""
    tables = Partial.opening(paths, similarity)  # L1's prefix is hashed while the tables are read
    if tables is None:
        return None
    try:
        view, read = _split(tables, paths, config, similarity)
    except (sqlite3.Error, ValueError, KeyError, TypeError):
        view = None  # damaged tables cost the pass its speed, never its result
    try:
        covers = tables.covers()
    except BaseException:
        tables.close()
        raise
    if view is None or not covers:
        tables.close()
        return None
    return view, Refusals(tables, read, config["gates"])


def _split(tables: Partial, paths: Paths, config: dict[str, Any], similarity: float) -> tuple[L1View, set[int]]:
    texts, ids, records, atoms = named(paths)
    held = tables.ids_of(texts)
    wanted = set(held.values()) | tables.claims_named(ids) | tables.keys_of_atoms(atoms) | tables.may_pass(config["gates"])
    # adopted wordings L1 does not hold: the pass relates them to L1's keys, so their neighbours are read whole
    around: list[Key] = [claim_key(own[0]) for own in records if not any(t in held for t in own)]
    return tables.view(wanted, around, similarity)


class Refusals:
    """The refusals of the keys a pass only counted, read when first asked for."""

    def __init__(self, tables: Partial, read: set[int], gates: dict[str, Any]) -> None:
        self.tables, self.read, self.gates = tables, read, gates
        self.found: list[dict[str, Any]] | None = None

    def __call__(self) -> list[dict[str, Any]]:
        """The refusals, by claim id (all of them are on the way to L2)."""
        if self.found is None:
            try:
                rows = self.tables.evidence()  # refuses tables that changed since the pass read them
            finally:
                self.tables.close()
            gates, read = self.gates, self.read
            # few count shapes: each worded once
            worded = {shape: _reasons(shape, gates) for shape in {row[4:8] for row in rows}}
            found = [{"claim_id": row[1], "text": row[2], "reasons": [*worded[row[4:8]]], "to": "L2"}
                     for row in rows if row[0] not in read]
            self.found = found
        return self.found

    def listing(self, built: Sequence[dict[str, Any]], limit: int) -> Listing:
        """``listed`` of these refusals and the ``built`` ones (the pass's own, by tier and claim id), reading only
        the counted refusals that can be among the first ``limit``: the redacted first, then the nearest."""
        if self.found is not None:
            return listed(sorted([*self.found, *built], key=lambda b: (b["to"], b["claim_id"])), limit)
        total, plain, held, nearest = self.tables.listing(self.read, self.gates, limit)
        gates = self.gates
        made = [{"claim_id": row[1], "text": row[2], "reasons": _reasons(row[4:8], gates), "to": "L2"}
                for row in held + nearest]
        first = listed(sorted([*made, *built], key=lambda b: (b["to"], b["claim_id"])), limit)
        return Listing(total + len(built), plain + first.waiting - len(nearest), first.shown)
