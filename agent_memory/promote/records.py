"""The records a promotion pass makes: the ``Claim``, the ``Proposal`` and the ``Plan`` of one pass.

Standard library only: the session-end worker stages through these.
"""

from __future__ import annotations

import bisect
import heapq
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from ..claims.cache import L1View, Summary
from ..claims.key import Key
from ..claims.wording import short_hash


_NOTHING = frozenset({"", None, 0})  # values a gate does not count (as the sorted lists leave them out)
_COUNTS = re.compile(r"(?:held in )?(\d+) of (\d+) (?:sessions|distinct days|observations|projects|days)")



@dataclass
class Claim:
    """Atoms that say the same thing, with everything a gate or a person needs to know."""

    id: str
    key: Key
    keys: list[str]
    text: str
    kind: str
    tier: str = "L1"  # where it lives now: L1, or L2 / L3 once adopted
    summary: Summary = field(default_factory=Summary, repr=False)  # its atoms counted
    atom_source: Callable[[], list[dict[str, Any]]] | None = field(default=None, repr=False, compare=False)
    _atoms: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)
    record: dict[str, Any] | None = None  # the adopted L2/L3 entry, if any
    stated: bool = False
    verified: bool = False
    redacted: bool = False
    contested_by: dict[str, str] = field(default_factory=dict)  # other claim id → why
    ambiguous_with: list[str] = field(default_factory=list)
    retired_for: str = ""  # the claim kept over this one by resolve
    superseded_by: dict[str, Any] | None = None  # what replaced it once adopted: id, text, at, sources
    rejected: bool = False
    rejected_l3: set[str] | None = None  # projects that held it when its L2→L3 proposal was rejected
    retracted_at: str = ""  # a person took it back with forget (ISO time); it waits until said again after that
    blocking: list[str] = field(default_factory=list)
    joined: list[dict[str, str]] = field(default_factory=list)  # why its wordings are one claim: keys a, b and why

    @property
    def atoms(self) -> list[dict[str, Any]]:
        """Its L1 atoms by id, read from L1 the first time any claim of the pass asks."""
        if self._atoms is None:
            found = self.atom_source() if self.atom_source else []
            self._atoms = sorted(found, key=lambda a: a["id"])
        return self._atoms

    @property
    def observations(self) -> int:
        return self.summary.count

    @property
    def contested(self) -> bool:
        return bool(self.contested_by)

    def count(self, what: str) -> int:
        """How many distinct non-empty sessions, days or projects (a gate's number, without sorting)."""
        found = self.summary.counted(what)
        if self.record and self.record.get(what):
            found = found | set(self.record[what])
        return len(found) - len(found & _NOTHING)

    @property
    def sessions(self) -> list[str]:
        found = self.summary.counted("sessions") | set((self.record or {}).get("sessions", []))
        return sorted(filter(None, found))

    @property
    def days(self) -> list[str]:
        found = self.summary.counted("days") | set((self.record or {}).get("days", []))
        return sorted(filter(None, found))

    @property
    def projects(self) -> list[str]:
        found = self.summary.projects | set((self.record or {}).get("projects", []))
        return sorted(filter(None, found))

    @property
    def first_seen(self) -> str:
        stamps = [self.summary.first] if self.summary.first else []
        if self.record and self.record.get("first_seen"):
            stamps.append(self.record["first_seen"])
        return min(stamps) if stamps else ""

    def sources(self, local: bool = True) -> list[dict[str, Any]]:
        """One INTERFACE ``S`` per observation; ``local=False`` drops transcript paths."""
        seen = []
        for atom in sorted(self.atoms, key=lambda a: (a.get("timestamp", ""), a.get("session", ""), a.get("line", 0))):
            seen.append(
                {
                    "session": atom.get("session", ""),
                    "transcript": atom.get("transcript", "") if local else "",
                    "line": atom.get("line", 0),
                    "timestamp": atom.get("timestamp", ""),
                    "quote": atom.get("quote", ""),
                }
            )
        if self.record:
            have = {(s["session"], s["line"]) for s in seen}
            for src in self.record.get("sources", []):
                if (src.get("session", ""), src.get("line", 0)) not in have:
                    seen.append({"session": src.get("session", ""), "transcript": "", "line": src.get("line", 0),
                                 "timestamp": src.get("timestamp", ""), "quote": src.get("quote", "")})
        return seen

    def as_json(self, local: bool = True) -> dict[str, Any]:
        """The INTERFACE ``A`` shape."""
        return {
            "id": self.id,
            "text": self.text,
            "kind": self.kind,
            "tier": self.tier,
            "stated": self.stated,
            "verified": self.verified,
            "redacted": self.redacted,
            "contested": self.contested,
            "sessions": self.sessions,
            "days": self.days,
            "projects": self.projects,
            "sources": self.sources(local),
            "blocking": list(self.blocking),
        }


@dataclass(frozen=True)
class Proposal:
    """A staged promotion waiting for a human."""

    id: str
    claim_id: str
    text: str
    source_tier: str
    target_tier: str
    path: str  # default | stated | verified | cross-project
    kind: str
    sessions: tuple[str, ...]
    days: tuple[str, ...]
    projects: tuple[str, ...]
    keys: tuple[str, ...]
    replaces: tuple[str, ...] = ()
    evidence_source: Callable[[], tuple[dict[str, Any], ...]] | None = field(default=None, repr=False, compare=False)

    @property
    def evidence(self) -> tuple[dict[str, Any], ...]:
        """The observations a reviewer reads (from L1, only when asked: the dry run never is)."""
        return self.evidence_source() if self.evidence_source else ()

    def as_json(self) -> dict[str, Any]:
        """The INTERFACE ``P`` shape (plus kind and replaces)."""
        return {
            "id": self.id,
            "claim_id": self.claim_id,
            "text": self.text,
            "from": self.source_tier,
            "to": self.target_tier,
            "path": self.path,
            "sessions": list(self.sessions),
            "days": list(self.days),
            "projects": list(self.projects),
            "kind": self.kind,
            "replaces": list(self.replaces),
        }


def shortfall(reasons: Sequence[str]) -> int | None:
    """Sessions, days, observations or projects a refusal still misses; None when a reason is not a count."""
    missing = 0
    for reason in reasons:
        found = _COUNTS.fullmatch(reason)
        if found is None:
            return None
        missing += int(found[2]) - int(found[1])
    return missing


@dataclass(frozen=True)
class Listing:
    """The refusals a person is shown first, out of how many (``waiting``: those missing only evidence)."""

    total: int
    waiting: int
    shown: list[dict[str, Any]]


def listed(blocked: Sequence[dict[str, Any]], limit: int) -> Listing:
    """Those held for another reason than counts, which a person can act on (in ``blocked``'s order), then
    the claims nearest to passing (fewest missing, then tier and claim id): ``limit`` in all."""
    held, waiting = [], []
    known: dict[tuple[str, ...], int | None] = {}  # refusals share a few reason lists: each is read once
    for b in blocked:
        reasons = tuple(b["reasons"])
        if reasons not in known:
            known[reasons] = shortfall(reasons)
        short = known[reasons]
        if short is None:
            held.append(b)
        else:
            waiting.append((short, b["to"], b["claim_id"], b))
    nearest = heapq.nsmallest(max(limit - len(held), 0), waiting, key=lambda w: w[:3])
    return Listing(len(blocked), len(waiting), (held + [w[3] for w in nearest])[:limit])


class Counted(Protocol):
    """The refusals of the claims a pass only counted: all of them, or the first a person is shown."""

    def __call__(self) -> list[dict[str, Any]]: ...

    def listing(self, built: Sequence[dict[str, Any]], limit: int) -> Listing: ...


@dataclass
class Plan:
    """What one promotion pass found (``complete``: ``claims`` holds every claim, not only those the gates needed whole)."""

    claims: list[Claim]
    proposals: list[Proposal]
    refused: list[dict[str, Any]]  # the refusals of the claims in ``claims``
    complete: bool = True
    view: L1View | None = field(default=None, repr=False, compare=False)  # the L1 the pass read
    counted: Counted | None = field(default=None, repr=False, compare=False)
    _blocked: list[dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    @property
    def blocked(self) -> list[dict[str, Any]]:
        """Every refusal with its reasons, by tier and claim id (those of counted claims read when first asked)."""
        if self._blocked is None:
            order = (lambda b: (b["to"], b["claim_id"]))
            found = sorted(self.refused, key=order)
            if self.counted:  # already in order, and many: the few built refusals go in between
                counted = list(self.counted())
                for one in found:
                    bisect.insort(counted, one, key=order)
                found = counted
            self._blocked = found
        return self._blocked

    def listing(self, limit: int) -> Listing:
        """``listed(self.blocked, limit)``, without reading every counted refusal when they are not read yet."""
        if self.counted is None or self._blocked is not None:
            return listed(self.blocked, limit)
        return self.counted.listing(sorted(self.refused, key=lambda b: (b["to"], b["claim_id"])), limit)

    def by_id(self) -> dict[str, Claim]:
        return {c.id: c for c in self.claims}
