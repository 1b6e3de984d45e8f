"""Human decisions besides adopt: reject, verify, resolve, each recorded in ``decisions.jsonl``."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..promote import plan, staged_proposals
from ..clock import iso, now
from ..store import Paths, StoreLock
from ..promote.tiers import load_claims
from .adopt import emit, paths_of, scrubber_for, short, staged_file
from .backups import Change, claims_change, commit, instruction_change, json_line, locked, read_or_none, whole_lines
from .block import entry_targets
from .targets import by_file, project_target, user_target
from .why import match_id, match_proposal

def decisions_change(paths: Paths, decisions: list[dict[str, Any]]) -> Change:
    before = read_or_none(paths.decisions)
    lines = [json_line(d) for d in decisions]
    after = whole_lines(before) + "".join(lines).encode("utf-8")
    return Change(paths.decisions, "decisions", "project", before, after, appended=lines)


# ---------------------------------------------------------------- reject, verify, resolve


def reject(paths: Paths, ids: list[str]) -> list[dict[str, Any]]:
    """Drop proposals and record the decision, so the claim waits for new evidence."""
    with StoreLock(paths.store):
        result = plan(paths)
        staged = {str(p["id"]): p for p in staged_proposals(paths)}
        fresh = {p.id: p for p in result.proposals}
        known = {**{pid: str(front.get("claim_id", "")) for pid, front in staged.items()},
                 **{pid: p.claim_id for pid, p in fresh.items()}}
        chosen = list(dict.fromkeys(match_proposal(i, known) for i in ids))
        by_id = result.by_id()
        scrub = scrubber_for(paths)
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
            staged_path = staged_file(paths, pid)
            if staged_path.exists():
                changes.append(Change(staged_path, "staged", "project", staged_path.read_bytes(), None))
        changes.append(decisions_change(paths, decisions))
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
            scrub = scrubber_for(paths)
            decision = {"action": "verify", "claim_id": claim.id, "keys": sorted({scrub(k) for k in claim.keys}),
                        "atoms": sorted(str(a["id"]) for a in claim.atoms), "at": iso(now())}
            commit(paths, "verify", f"verified {claim.id}", [decisions_change(paths, [decision])])
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
    with locked(paths, user=paths.l3.exists()):
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
        scrub = scrubber_for(paths)
        decision = {
            "action": "resolve",
            "claim_id": claim.id,
            "keys": sorted({scrub(k) for k in claim.keys}),
            "atoms": sorted(str(a["id"]) for a in claim.atoms),
            "keep_id": keep.id,
            "keep_keys": sorted({scrub(k) for k in keep.keys}),
            "keep_atoms": sorted(str(a["id"]) for a in keep.atoms),
            "at": iso(now()),
        }
        changes = [decisions_change(paths, [decision])]
        retired_in: list[str] = []
        for tier, path, scope in (("L2", paths.l2, "project"), ("L3", paths.l3, "user")):
            before = read_or_none(path)
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
            changes.append(claims_change(path, scope, before, list(records.values()), ids))
            if entry is not None and claim.id in ids:
                found = [project_target(paths, n) if scope == "project" else user_target(n) for n in entry_targets(entry)]
                for same_file in by_file(t for t in found if t is not None):
                    changes.append(instruction_change(paths, same_file, list(records.values())))
        backup = commit(paths, "resolve", f"resolved {claim.id} in favour of {keep.id}", changes)
    return {"claim_id": claim.id, "keep_id": keep.id, "text": claim.text, "keep_text": keep.text,
            "retired_in": retired_in, "backup": backup or None}


def cmd_reject(args: argparse.Namespace) -> int:
    """``agent-memory reject ID...``."""
    done = reject(paths_of(args), list(args.ids))
    if args.json:
        emit({"rejected": done})
    else:
        for item in done:
            print(f"rejected {item['id']}: {short(item['text'])} (not proposed again without new evidence)")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """``agent-memory verify ID``."""
    found = verify(paths_of(args), args.id)
    if args.json:
        emit({"verified": found})
        return 0
    state = "was already verified" if found["already"] else "verified"
    if found["proposal"]:
        nxt = f"now proposed as {found['proposal']}; stage it with 'agent-memory promote --write'"
    elif found["blocking"]:
        nxt = "still blocked: " + "; ".join(found["blocking"])
    else:
        nxt = "nothing to promote"
    print(f"{found['claim_id']} {state}: {short(found['text'])} ({nxt})")
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    """``agent-memory resolve ID --keep KEEP_ID``."""
    found = resolve(paths_of(args), args.id, args.keep)
    if args.json:
        emit({"resolved": found})
        return 0
    where = f"; retired in {' and '.join(found['retired_in'])}" if found["retired_in"] else ""
    print(f"kept {found['keep_id']} ({short(found['keep_text'], 40)}), retired {found['claim_id']} ({short(found['text'], 40)}){where}")
    return 0

