"""Claim identity a person settles: merge claims the rules kept apart, split one they joined, and the
candidate merges worth a look.

The rules merge wordings only when sure ("when unsure, do not merge"). What they are unsure of is listed as
a candidate: one wording says a word or two more than another (a condition, a scope or a detail that may or
may not matter), the same rule said for two ends, or a wording close to more than one claim. A ``merge`` or
``split`` decision is appended to ``decisions.jsonl`` through adopt's backup transaction, so ``rollback``
undoes it, and the promotion pass clusters by it (``promote.gates._identity_decisions``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..claims import candidate
from ..claims import cache as claimcache
from ..claims.relations import buckets_of_keys, candidate_pairs
from ..config import load_config
from ..errors import UsageError
from ..promote import Plan, plan
from ..promote.records import Claim
from ..clock import iso, now
from ..store import Paths, StoreLock
from .adopt import scrubber_for
from .backups import commit
from .decisions import decisions_change
from .why import match_id


@dataclass(frozen=True)
class Candidate:
    """Two claims that may be one, and why a person might think so."""

    a: Claim
    b: Claim
    why: str

    def as_json(self) -> dict[str, Any]:
        return {"claims": [_brief(self.a), _brief(self.b)], "why": self.why}


def _brief(claim: Claim) -> dict[str, Any]:
    return {"id": claim.id, "text": claim.text, "tier": claim.tier, "sessions": len(claim.sessions),
            "days": len(claim.days)}


def candidates(paths: Paths, result: Plan | None = None) -> list[Candidate]:
    """Pairs of claims the rules kept apart that may be one claim, most evidence first (``result``: the whole
    pass, when the caller has it already)."""
    config = load_config(paths.config)
    result = result or plan(paths, config)
    view = claimcache.load(paths, float(config["identity"]["merge_similarity"]))
    keys = view.relations.keys
    owner = {text: claim for claim in result.claims for text in claim.keys}
    buckets = buckets_of_keys({text: key for text, key in keys.items() if text in owner})
    found: dict[frozenset[str], Candidate] = {}
    for x, y in dict.fromkeys(candidate_pairs(buckets)):
        a, b = owner[x], owner[y]
        pair = frozenset((a.id, b.id))
        if a is b or pair in found or b.id in a.contested_by or a.retired_for or b.retired_for:
            continue
        why = candidate(keys[x], keys[y])
        if why:
            found[pair] = Candidate(*sorted((a, b), key=lambda c: c.id), why)
    by_id = result.by_id()
    for claim in result.claims:
        for other in claim.ambiguous_with:
            pair = frozenset((claim.id, other))
            if other in by_id and pair not in found:
                found[pair] = Candidate(*sorted((claim, by_id[other]), key=lambda c: c.id),
                                        "close to more than one claim")
    return sorted(found.values(), key=lambda c: (-(len(c.a.sessions) + len(c.b.sessions)), c.a.id, c.b.id))


def merge(paths: Paths, refs: list[str]) -> dict[str, Any]:
    """Record that the named claims are one claim (every wording and source kept); returns the claim."""
    with StoreLock(paths.store):
        result = plan(paths)
        by_id = result.by_id()
        chosen = list(dict.fromkeys(match_id(r, by_id, "claim") for r in refs))
        if len(chosen) < 2:
            raise UsageError("merge needs two or more different claims (ids from 'agent-memory inspect --candidates')")
        claims = [by_id[i] for i in chosen]
        for a, b in combinations(claims, 2):
            if b.id in a.contested_by:
                raise UsageError(f"{a.id} and {b.id} contradict each other: settle that with 'agent-memory resolve'")
        scrub = scrubber_for(paths)
        decision = {"action": "merge", "claim_id": chosen[0], "claim_ids": chosen,
                    "keys": sorted({scrub(k) for c in claims for k in c.keys}),
                    "atoms": sorted({str(a["id"]) for c in claims for a in c.atoms}), "at": iso(now())}
        backup = commit(paths, "merge", "merged " + ", ".join(chosen), [decisions_change(paths, [decision])])
        after = plan(paths).claims
        joined = next((c for c in after if set(decision["keys"]) <= set(c.keys)), None)
    return {"merged": chosen, "claim_id": joined.id if joined else "", "text": joined.text if joined else "",
            "backup": backup or None}


def split(paths: Paths, ref: str) -> dict[str, Any]:
    """Record that one claim's wordings are not one claim: each of its keys stands alone from now on."""
    with StoreLock(paths.store):
        result = plan(paths)
        by_id = result.by_id()
        claim = by_id[match_id(ref, by_id, "claim")]
        if len(claim.keys) < 2:
            raise UsageError(f"{claim.id} is said in one wording only: there is nothing to split")
        scrub = scrubber_for(paths)
        decision = {"action": "split", "claim_id": claim.id, "keys": sorted({scrub(k) for k in claim.keys}),
                    "atoms": sorted(str(a["id"]) for a in claim.atoms), "at": iso(now())}
        backup = commit(paths, "split", f"split {claim.id}", [decisions_change(paths, [decision])])
        after = [c for c in plan(paths).claims if set(c.keys) & set(decision["keys"])]
    return {"split": claim.id, "into": [{"id": c.id, "text": c.text} for c in sorted(after, key=lambda c: c.id)],
            "backup": backup or None}
