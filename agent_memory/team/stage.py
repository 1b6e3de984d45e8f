"""Team proposals: the claims that pass the team gate, staged in ``<store>/staged/`` for a human like any other.

A team proposal is a staged file in the format ``promote.staging`` writes and ``read_staged`` reads, with
``from: "team"``, ``path: "team"`` and a ``team`` field of counts. It says how many people, sessions and
days held the claim, never who: no pseudonym, session or day list is written. ``agent-memory adopt`` puts
it into the project's instruction files. Standard library only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from ..claims.key import Key
from ..claims.relate import relate
from ..claims.wording import short_hash, shown_text
from ..promote.staging import from_team
from ..promote.tiers import load_claims, load_decisions
from ..store import Paths, StoreLock, atomic_write
from .export import scrub_key
from .gate import Evidence

TEAM = "team"  # the staged files' ``from`` and ``path``


@dataclass(frozen=True)
class TeamProposal:
    """A claim enough people hold, waiting for a human: counts only, never who."""

    id: str
    claim_id: str
    key: str
    text: str
    kind: str
    people: int
    sessions: int
    days: int
    first_day: str
    last_day: str

    def counts(self) -> dict[str, Any]:
        return {"people": self.people, "sessions": self.sessions, "days": self.days,
                "first_day": self.first_day, "last_day": self.last_day}

    def as_json(self) -> dict[str, Any]:
        """The INTERFACE team proposal shape (``team promote --json``)."""
        return {"id": self.id, "claim_id": self.claim_id, "text": self.text, "kind": self.kind, "from": TEAM,
                "to": "L2", "path": TEAM, **self.counts()}


@dataclass
class TeamPlan:
    """What a team pass found: proposals, and the claims that came close with why they did not pass."""

    proposals: list[TeamProposal]
    blocked: list[dict[str, Any]] = field(default_factory=list)
    rows: int = 0
    other_repositories: int = 0


def _key_of(text: str) -> Key:
    negated = text.startswith("¬ ")
    return Key(negated, tuple((text[2:] if negated else text).split()))


def _contradicted(passing: list[dict[str, Any]], every: list[dict[str, Any]]) -> dict[str, str]:
    """Passing claims that another claim in the exports contradicts (one person's "use npm, not pnpm" against
    others' "use pnpm"): claim → the contradicting key. Only keys sharing all tokens but one are compared."""
    postings: dict[str, set[str]] = {}
    for claim in every:
        for token in set(_key_of(claim["claim"]).tokens):
            postings.setdefault(token, set()).add(claim["claim"])
    found: dict[str, str] = {}
    for claim in passing:
        key = _key_of(claim["claim"])
        tokens = set(key.tokens)
        shared: dict[str, int] = {}
        for token in tokens:
            for other in postings.get(token, ()):
                shared[other] = shared.get(other, 0) + 1
        for other, n in sorted(shared.items()):
            if other != claim["claim"] and n >= len(tokens) - 1 and relate(key, _key_of(other)).kind == "contradiction":
                found[claim["claim"]] = other
                break
    return found


def plan_team(paths: Paths, evidence: Evidence, thresholds: dict[str, int]) -> TeamPlan:
    """Proposals from the gate's evidence, less what is adopted, rejected with no new evidence, or contradicted."""
    adopted = {str(r["id"]) for r in load_claims(paths.l2) if not r.get("retired")}
    adopted_keys = {str(k) for r in load_claims(paths.l2) if not r.get("retired") for k in r.get("keys", [])}
    rejected: dict[str, str] = {}
    for decision in load_decisions(paths.decisions):
        if decision.get("action") == "reject":
            for key in decision.get("keys", []):
                rejected[str(key)] = max(rejected.get(str(key), ""), str(decision.get("at", ""))[:10])
    passing = evidence.passing()
    contradicted = _contradicted(passing, evidence.claims)
    proposals, blocked = [], []
    for claim in passing:
        claim_id = short_hash("claim", claim["claim"])
        reasons = []
        if claim_id in adopted or claim["claim"] in adopted_keys:
            continue
        if claim["claim"] in contradicted:
            reasons.append("contradicted by another claim in the exports")
        if claim["claim"] in rejected and claim["last_day"] <= rejected[claim["claim"]]:
            reasons.append("rejected, no new evidence since")
        wordings = evidence.wordings.get(claim["claim"], [])
        text = shown_text({t: [n, first] for t, _k, n, first in _merged(wordings)}) if wordings else claim["claim"]
        if reasons:
            blocked.append({"claim_id": claim_id, "text": text, "reasons": reasons, **_counts(claim)})
            continue
        kinds: dict[str, int] = {}
        for _t, kind, n, _f in wordings:
            kinds[kind] = kinds.get(kind, 0) + n
        kind = sorted(kinds, key=lambda k: (-kinds[k], k))[0] if kinds else "instruction"
        proposals.append(TeamProposal(id=short_hash("team-proposal", claim_id, "L2"), claim_id=claim_id,
                                      key=claim["claim"], text=text, kind=kind, **_counts(claim)))
    for claim in evidence.claims:
        if not claim["path"] and claim["people"] >= 2:
            # wordings are only read for the claims that pass: the key stands in for the rest
            blocked.append({"claim_id": short_hash("claim", claim["claim"]), "text": claim["claim"],
                            "reasons": _reasons(claim, thresholds), **_counts(claim)})
    proposals.sort(key=lambda p: p.id)
    blocked.sort(key=lambda b: b["claim_id"])
    return TeamPlan(proposals, blocked, evidence.rows, evidence.other_repositories)


def _merged(wordings: list[tuple[str, str, int, str]]) -> list[tuple[str, str, int, str]]:
    """One entry per wording whatever its kind (counts added, earliest time kept)."""
    by_text: dict[str, list[Any]] = {}
    for text, kind, n, first in wordings:
        seen = by_text.setdefault(text, [text, kind, 0, first])
        seen[2] += n
        seen[3] = min(seen[3], first)
    return [tuple(v) for v in by_text.values()]  # type: ignore[misc]


def _counts(claim: dict[str, Any]) -> dict[str, Any]:
    return {name: claim[name] for name in ("people", "sessions", "days", "first_day", "last_day")}


def _reasons(claim: dict[str, Any], thresholds: dict[str, int]) -> list[str]:
    """Why a claim held by several people did not pass, in words a person reads."""
    reasons = []
    if claim["contested"]:
        reasons.append("contested")
    if claim["redacted"]:
        reasons.append("redacted")
    for name, what in (("people", "people"), ("sessions", "sessions"), ("days", "distinct days")):
        if claim[name] < thresholds[name]:
            reasons.append(f"{claim[name]} of {thresholds[name]} {what}")
    return reasons


def render(proposal: TeamProposal, clean: Callable[[str], str]) -> str:
    """A team proposal as a staged file: ``promote.staging``'s format (JSON front matter, the claim, evidence)."""
    front = {
        "id": proposal.id, "claim_id": proposal.claim_id, "from": TEAM, "to": "L2", "path": TEAM,
        "kind": proposal.kind, "sessions": [], "days": [], "projects": [], "replaces": [],
        "keys": [scrub_key(proposal.key, clean)], "team": proposal.counts(),
    }
    lines = ["---", *(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in front.items()), "---", "",
             " ".join(clean(proposal.text).split()), ""]
    span = proposal.first_day if proposal.first_day == proposal.last_day else f"{proposal.first_day} to {proposal.last_day}"
    lines.append(f"Evidence: held by {proposal.people} people in {proposal.sessions} session(s) on {proposal.days} "
                 f"day(s), {span}; path: team (no one contested it). Who said it is not recorded.")
    lines += ["", f"Adopt: `agent-memory adopt {proposal.id}` · reject: `agent-memory reject {proposal.id}`", ""]
    return "\n".join(lines)


def stage_team(paths: Paths, result: TeamPlan) -> dict[str, int]:
    """Write the team proposals (only files whose bytes change), withdraw team proposals that no longer pass."""
    from ..redact import scrubber
    from ..store import ensure_store

    ensure_store(paths)
    clean = scrubber(str(paths.project_root))
    counts = {"staged": 0, "unchanged": 0, "withdrawn": 0}
    with StoreLock(paths.store):
        paths.staged.mkdir(parents=True, exist_ok=True)
        wanted = {f"{p.id}.md": p for p in result.proposals}
        for name, proposal in sorted(wanted.items()):
            target = paths.staged / name
            body = render(proposal, clean)
            try:
                same = target.read_text(encoding="utf-8") == body
            except (OSError, UnicodeDecodeError):
                same = False
            if not same:
                atomic_write(target, body)
            counts["unchanged" if same else "staged"] += 1
        for old in sorted(paths.staged.glob("*.md")):
            if old.name not in wanted and from_team(old):
                old.unlink()
                counts["withdrawn"] += 1
    return counts


def adoptable(front: dict[str, Any], project: str) -> tuple[Any, Any]:
    """The ``Claim`` and ``Proposal`` adopt writes into L2 for a staged team proposal.

    A team proposal's evidence is in other people's stores, so it carries its own: the counts, the first
    day, the wording and key. No session id, day list or source is recorded (never who).
    """
    from ..claims.cache import Summary
    from ..promote.records import Claim, Proposal

    keys = [str(k) for k in front.get("keys", [])]
    counts = front.get("team") if isinstance(front.get("team"), dict) else {}
    first = str(counts.get("first_day", ""))
    claim = Claim(id=str(front["claim_id"]), key=_key_of(keys[0] if keys else ""), keys=keys,
                  text=str(front.get("text", "")), kind=str(front.get("kind", "instruction")),
                  summary=Summary(first=f"{first}T00:00:00Z" if first else ""))
    proposal = Proposal(id=str(front["id"]), claim_id=claim.id, text=claim.text, source_tier=TEAM, target_tier="L2",
                        path=TEAM, kind=claim.kind, sessions=(), days=(), projects=(project,), keys=tuple(keys))
    return claim, proposal
