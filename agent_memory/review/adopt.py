"""Adopt: apply staged proposals, writing each claim into ``L2.jsonl`` (or the user's ``L3.jsonl``)
and regenerating the marked block in each instruction file; nothing outside the block is touched.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..config import load_config
from ..errors import UsageError
from ..promote import Claim, Proposal, plan, staged_proposals
from ..promote.supersede import superseded_record, superseding_decision
from ..clock import iso, now
from ..store import Paths, StoreLock
from ..promote.tiers import load_claims, load_decisions
from .backups import Change, claims_change, commit, instruction_change, read_or_none, rollback
from .block import entry_targets
from .targets import Target, by_file, display, project_target, user_file_names, user_target
from .why import match_proposal

def scrubber_for(paths: Paths) -> Callable[[str], str]:
    """Removes absolute paths and the OS user name from text bound for shared files."""
    from ..redact import scrubber

    return scrubber(str(paths.project_root))


def staged_file(paths: Paths, proposal_id: str) -> Path:
    return paths.staged / f"{proposal_id}.md"


def short(text: str, limit: int = 70) -> str:
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
        # the fields as they are, but "no backup" is null, not ""
        return {**vars(self), "backup": self.backup or None}


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


def _supersede(paths: Paths, replaces: list[str], new: dict[str, Any], tiers: dict[str, dict[str, dict[str, Any]]],
               changed_ids: dict[str, list[str]], touched: dict[Path, Target],
               recorded: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """Retire the adopted claims ``new`` replaces (kept on record as superseded), take their lines out of
    their blocks, and the decisions that keep them retired. Idempotent: a run cut short is completed."""
    decisions = []
    for old_id in replaces:
        for tier, records in tiers.items():
            old = records.get(old_id)
            if old is None or (old.get("retired") and old.get("retired_for") != new["id"]):
                continue
            if not old.get("retired"):
                records[old_id] = superseded_record(old, new)
                changed_ids[tier].append(old_id)
            if (old_id, str(new["id"])) not in recorded:
                recorded.add((old_id, str(new["id"])))
                decisions.append(superseding_decision(records[old_id], new, str(new.get("adopted_at", ""))))
            for name in entry_targets(old):
                found = project_target(paths, name) if tier == "L2" else user_target(name)
                if found is not None:
                    touched[found.path] = found
    return decisions


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
            known = {**{pid: str(front.get("claim_id", "")) for pid, front in staged.items()},
                     **{pid: str(record.get("id", "")) for pid, record in done.items()},
                     **{pid: p.claim_id for pid, p in fresh.items()}}
            chosen = list(dict.fromkeys(match_proposal(i, known) for i in ids))
        if any(pid in fresh and (fresh[pid].target_tier == "L3" or set(fresh[pid].replaces) & set(l3)) for pid in chosen):
            locks.enter_context(StoreLock(paths.user))
            l3 = {str(r["id"]): r for r in load_claims(paths.l3)}  # again, now that no other project writes it
        l2_before, l3_before = read_or_none(paths.l2), read_or_none(paths.l3)
        by_id = result.by_id()
        scrub = scrubber_for(paths)
        names = [target] if target else list(config["targets"])
        project_targets = [project_target(paths, n) for n in names]
        changes: list[Change] = []
        touched: dict[Path, Target] = {}
        changed_ids: dict[str, list[str]] = {"L2": [], "L3": []}
        decisions: list[dict[str, Any]] = []
        recorded = {(str(d.get("claim_id", "")), str(d.get("keep_id", ""))) for d in load_decisions(paths.decisions)
                    if d.get("action") == "resolve"}
        for pid in chosen:
            staged_path = staged_file(paths, pid)
            proposal = fresh.get(pid)
            front = staged.get(pid, {})
            team_claim = None
            if proposal is None and front.get("from") == "team" and pid not in done:
                from ..team.stage import adoptable  # its evidence is in the team's stores, not this one

                team_claim, proposal = adoptable(front, paths.project_name)
            if proposal is None:
                if pid in done:
                    report.unchanged.append({"id": pid, "claim_id": done[pid]["id"], "text": done[pid]["text"]})
                    # an adopt cut short after writing the claim still retires what it replaces
                    decisions += _supersede(paths, list(done[pid].get("replaces", [])), done[pid], {"L2": l2, "L3": l3},
                                            changed_ids, touched, recorded)
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
            claim = team_claim or by_id[proposal.claim_id]
            if proposal.target_tier == "L2":
                targets = project_targets
                store, tier = l2, "L2"
            else:
                found = [t for t in (user_target(n) for n in names) if t is not None]
                targets = list({t.path: t for t in found}.values())
                store, tier = l3, "L3"
                if not targets:
                    known_files = ", ".join(user_file_names())
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
                if proposal.replaces:
                    store[claim.id]["replaces"] = list(proposal.replaces)
                if team_claim is not None:
                    store[claim.id]["team"] = dict(front.get("team") or {})
                decisions += _supersede(paths, list(proposal.replaces), store[claim.id], {"L2": l2, "L3": l3},
                                        changed_ids, touched, recorded)
                report.adopted.append(
                    {"id": pid, "claim_id": claim.id, "text": store[claim.id]["text"], "to": tier,
                     "targets": [display(t) for t in targets]}
                )
            if staged_path.exists():
                changes.append(Change(staged_path, "staged", "project", staged_path.read_bytes(), None))
        if decisions:
            from .decisions import decisions_change  # decisions imports this module

            changes.append(decisions_change(paths, decisions))
        if changed_ids["L2"]:
            changes.append(claims_change(paths.l2, "project", l2_before, list(l2.values()), changed_ids["L2"]))
        if changed_ids["L3"]:
            changes.append(claims_change(paths.l3, "user", l3_before, list(l3.values()), changed_ids["L3"]))
        for same_file in by_file(touched.values()):
            entries = list((l2 if same_file[0].scope == "project" else l3).values())
            changes.append(instruction_change(paths, same_file, entries))
        summary = "adopted " + ", ".join(a["id"] for a in report.adopted) if report.adopted else "removed staged files of adopted proposals"
        report.backup = commit(paths, "adopt", summary, changes)
        report.files = [str(c.path) for c in changes if c.changes_anything]
    return report


# ---------------------------------------------------------------- commands


def paths_of(args: argparse.Namespace) -> Paths:
    return Paths.resolve(getattr(args, "memory_dir", None))


def emit(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def cmd_adopt(args: argparse.Namespace) -> int:
    """``agent-memory adopt ID...|--all [--target FILE]``."""
    paths = paths_of(args)
    report = adopt(paths, list(args.ids), every=args.all, target=args.target)
    for refused in report.refused:
        print(f"agent-memory: {refused['id']} not adopted: {refused['reason']}", file=sys.stderr)
    if args.json:
        emit(report.as_json())
    elif not (report.adopted or report.unchanged or report.refused):
        print("nothing staged to adopt")
    else:
        for item in report.adopted:
            print(f"adopted {item['id']} into {item['to']} ({', '.join(item['targets'])}): {short(item['text'])}")
        for item in report.unchanged:
            print(f"{item['id']} is already adopted: {short(item['text'])}")
        if report.backup:
            print(f"backup {report.backup} in {paths.backups} (undo with 'agent-memory rollback')")
    return 1 if report.refused else 0



def cmd_rollback(args: argparse.Namespace) -> int:
    """``agent-memory rollback``."""
    found = rollback(paths_of(args))
    if args.json:
        emit({"rolled_back": found})
        return 0
    if found is None:
        print("nothing to roll back")
        return 0
    files = len(found["restored"]) + len(found["removed"])
    print(f"rolled back {found['command']} {found['backup']} ({found['summary']}): {files} file(s) restored")
    return 0
