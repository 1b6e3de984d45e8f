"""Forget: take back a claim. An adopted one leaves every block it was written into, after a backup.

The L2/L3 entry stays on record, retired and stamped ``retracted_at``; a ``forget`` decision in
``decisions.jsonl`` keeps the gates from proposing the claim again until the person says it
again after that moment. A claim only in L1 is forgotten the same way: the decision alone, and
its staged proposal withdrawn; prompt recall leaves it out too (``hooks/prompt.py``) until it is
said again. It goes through adopt's backup transaction, so ``rollback`` undoes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotFound
from ..promote import plan, staged_proposals
from ..clock import iso, now
from ..store import Paths
from ..promote.tiers import load_claims
from .adopt import scrubber_for, staged_file
from .backups import Change, claims_change, commit, instruction_change, locked, read_or_none
from .block import entry_targets
from .decisions import decisions_change
from .targets import by_file, project_target, user_target
from .why import resolve_why


@dataclass
class Forgotten:
    """What one forget did (or, in a dry run, would do)."""

    claim_id: str
    text: str
    tiers: list[str] = field(default_factory=list)  # L2 / L3: where it was adopted
    files: list[str] = field(default_factory=list)  # the files that change
    backup: str = ""
    at: str = ""
    dry_run: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"claim_id": self.claim_id, "text": self.text, "tiers": self.tiers, "files": self.files,
                "backup": self.backup or None, "retracted_at": self.at, "dry_run": self.dry_run}


def forget(paths: Paths, ref: str, dry_run: bool = False) -> Forgotten:
    """Retract the one claim ``ref`` names (an id, a prefix of ≥6, or its words): an adopted claim first, else
    one only in L1.

    Raises ``NotFound`` / ``Ambiguous`` when ``ref`` names no claim or several.
    """
    with locked(paths, user=paths.l3.exists()):
        result = plan(paths)
        adopted = [c for c in result.claims if c.tier in ("L2", "L3")]
        remembered = [c for c in result.claims if c.tier == "L1" and not c.retracted_at]
        if not adopted and not remembered:
            raise NotFound("no claim to forget (see 'agent-memory inspect --tier L1')")
        try:
            claim = resolve_why(ref, adopted) if adopted else resolve_why(ref, remembered)
        except NotFound:
            if not adopted or not remembered:
                raise
            claim = resolve_why(ref, remembered)  # words of a claim not adopted: it is forgotten in L1
        moment = iso(now())
        scrub = scrubber_for(paths)
        decision = {"action": "forget", "claim_id": claim.id, "keys": sorted({scrub(k) for k in claim.keys}),
                    "atoms": sorted(str(a["id"]) for a in claim.atoms), "at": moment}
        changes: list[Change] = [decisions_change(paths, [decision])]
        done = Forgotten(claim.id, claim.text, at=moment, dry_run=dry_run)
        for tier, path, scope in (("L2", paths.l2, "project"), ("L3", paths.l3, "user")):
            records = {str(r["id"]): r for r in load_claims(path)}
            entry = records.get(claim.id)
            if entry is None or entry.get("retired"):
                continue
            before = read_or_none(path)
            records[claim.id] = dict(entry, retired=True, retired_for="", retracted_at=moment)
            changes.append(claims_change(path, scope, before, list(records.values()), [claim.id]))
            done.tiers.append(tier)
            found = [project_target(paths, n) if scope == "project" else user_target(n) for n in entry_targets(entry)]
            for same_file in by_file(t for t in found if t is not None):
                changes.append(instruction_change(paths, same_file, list(records.values())))
        if claim.tier == "L1":
            done.tiers.append("L1")
            for proposal in staged_proposals(paths):
                staged_path = staged_file(paths, str(proposal.get("id", "")))
                if str(proposal.get("claim_id", "")) == claim.id and staged_path.exists():
                    changes.append(Change(staged_path, "staged", "project", staged_path.read_bytes(), None))
        if "L3" in done.tiers:
            # the user store remembers it too, so no other project proposes it for L3 again
            changes.append(_user_decision(paths, decision))
        done.files = [str(c.path) for c in changes if c.changes_anything]
        if not dry_run:
            done.backup = commit(paths, "forget", f"forgot {claim.id}", changes)
    return done


def _user_decision(paths: Paths, decision: dict[str, Any]) -> Change:
    """The forget decision appended to the user store's decision log (rollback takes the line out again)."""
    before = read_or_none(paths.user_decisions)
    line = json.dumps(decision, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
    kept = before if not before or before.endswith(b"\n") else before[: before.rfind(b"\n") + 1]
    return Change(paths.user_decisions, "decisions", "user", before, (kept or b"") + line.encode("utf-8"), appended=[line])
