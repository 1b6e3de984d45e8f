"""Supersession: a later reversal or correction of an adopted claim proposes to replace it.

An L1 claim that contradicts an adopted (L2/L3) claim, and was first said after every
observation of it, is the person changing their mind: it is staged with ``replaces``
naming the adopted claim instead of being blocked as contested. The adopted claim stays
contested (tagged at session start) until the replacement is adopted or rejected.
Standard library only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - types only
    from .records import Claim

ADOPTED = ("L2", "L3")


def superseded(claim: "Claim", by_id: dict[str, "Claim"]) -> list[str]:
    """The adopted claims ``claim`` replaces: those it contradicts and that were all said before it."""
    if claim.tier != "L1" or not claim.contested_by or not claim.summary.first:
        return []
    found = []
    for other_id in sorted(claim.contested_by):
        other = by_id.get(other_id)
        if other is None or other.tier not in ADOPTED:
            continue
        last = latest(other)
        if last and claim.summary.first > last:
            found.append(other_id)
    return found


def latest(claim: "Claim") -> str:
    """When the claim was last observed: its newest L1 atom or adopted source, else when it was adopted."""
    stamps = [str(a.get("timestamp", "")) for a in claim.atoms]
    record = claim.record or {}
    stamps += [str(s.get("timestamp", "")) for s in record.get("sources", []) if isinstance(s, dict)]
    stamps = [s for s in stamps if s]
    if stamps:
        return max(stamps)
    return str(record.get("adopted_at", "") or record.get("first_seen", ""))


def superseded_record(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """An adopted claim's record once ``new`` (an L2/L3 record) replaced it: out of every block, kept on
    record with its own sources and, under ``superseded_by``, what replaced it, when and where."""
    return dict(old, retired=True, retired_for=str(new["id"]), contested=False, contested_by=[],
                superseded_by={"id": str(new["id"]), "text": str(new["text"]), "at": str(new.get("adopted_at", "")),
                               "sources": list(new.get("sources", []))})


def superseding_decision(old: dict[str, Any], new: dict[str, Any], at: str) -> dict[str, Any]:
    """The decision that keeps the replaced claim retired when its L1 atoms are read again."""
    return {"action": "resolve", "claim_id": str(old["id"]), "keys": sorted(old.get("keys", [])),
            "keep_id": str(new["id"]), "keep_keys": sorted(new.get("keys", [])), "at": at, "superseded": True}
