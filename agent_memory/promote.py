"""The promotion pass: atoms → claims → gates → proposals, and the reasons for every refusal.

``plan()`` reads and never writes (the dry run); ``stage()`` writes one reviewable file
per proposal into ``<store>/staged/`` and marks adopted claims that became contested.
The same L1 gives the same plan whatever order it was ingested in. Standard library
only: the session-end hook stages through here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Iterable

from . import claimcache
from .claimcache import L1View, Summary
from .claims import CONTRAST, Key, claim_key, relate
from .config import load_config
from .store import Paths, StoreLock, atomic_write, now, parse_time, read_json, read_jsonl, write_json, write_jsonl
from .tiers import load_claims, load_decisions, load_registry


_NOTHING = frozenset({"", None, 0})  # values a gate does not count (as the sorted lists leave them out)


def short_hash(*parts: Any) -> str:
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:12]


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
    rejected: bool = False
    rejected_l3: set[str] | None = None  # projects that held it when its L2→L3 proposal was rejected
    retracted_at: str = ""  # a person took it back with forget (ISO time); it waits until said again after that
    blocking: list[str] = field(default_factory=list)

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
        found: set[str] = getattr(self.summary, what)
        if self.record and self.record.get(what):
            found = found | set(self.record[what])
        return len(found) - len(found & _NOTHING)

    @property
    def sessions(self) -> list[str]:
        found = self.summary.sessions | set((self.record or {}).get("sessions", []))
        return sorted(s for s in found if s)

    @property
    def days(self) -> list[str]:
        found = self.summary.days | set((self.record or {}).get("days", []))
        return sorted(d for d in found if d)

    @property
    def projects(self) -> list[str]:
        found = self.summary.projects | set((self.record or {}).get("projects", []))
        return sorted(p for p in found if p)

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


@dataclass
class Plan:
    """What one promotion pass found."""

    claims: list[Claim]
    proposals: list[Proposal]
    blocked: list[dict[str, Any]]

    def by_id(self) -> dict[str, Claim]:
        return {c.id: c for c in self.claims}


# ---------------------------------------------------------------- building claims


@dataclass
class _Group:
    key: Key
    summary: Summary = field(default_factory=Summary)
    record: dict[str, Any] | None = None
    tier: str = "L1"


def _groups(paths: Paths, view: L1View) -> list[_Group]:
    keys = view.relations.keys
    groups = {text: _Group(keys[text], summary) for text, summary in view.summaries.items()}
    for tier, path in (("L2", paths.l2), ("L3", paths.l3)):
        for record in load_claims(path):
            if record.get("retired"):
                continue
            key = claim_key(record["text"])
            group = groups.setdefault(key.text, _Group(key))
            if group.record is None or tier == "L3":
                group.record, group.tier = record, tier
    return sorted(groups.values(), key=lambda g: (g.key.text, g.key.negated))


def _similarity(config: dict[str, Any]) -> float:
    return float(config["identity"]["merge_similarity"])


def build_claims(paths: Paths, config: dict[str, Any], view: L1View | None = None) -> list[Claim]:
    """Every claim of the store: L1 atoms clustered, adopted L2/L3 entries, decisions applied."""
    similarity = _similarity(config)
    view = view or claimcache.load(paths, similarity)
    groups = _groups(paths, view)
    # adopted wordings L1 does not hold join the candidate pairs here, never in the cache
    relations = view.relations.extend([g.key for g in groups if g.key.text not in view.relations.keys], similarity)
    position = {g.key.text: i for i, g in enumerate(groups)}
    same: dict[int, set[int]] = defaultdict(set)
    clashes: list[tuple[int, int, str]] = []
    for (i, j), (kind, reason, i_corrects, j_corrects) in sorted(
        ((position[a], position[b]), rel) for (a, b), rel in relations.pairs.items()
    ):
        if kind == "same":
            same[i].add(j)
            same[j].add(i)
        elif kind == "contradiction":
            clashes.append((i, j, reason))
        elif i_corrects and _is_correction(groups[i]):
            clashes.append((i, j, "corrected"))
        elif j_corrects and _is_correction(groups[j]):
            clashes.append((j, i, "corrected"))

    # a group whose near neighbours are not all one claim is ambiguous: it merges with none
    ambiguous = {i for i, near in same.items() if any(y not in same[x] for x in near for y in near if x < y)}
    owner: dict[int, int] = {}
    for i in range(len(groups)):
        if i in owner:
            continue
        owner[i] = i
        if i in ambiguous:
            continue
        for j in same.get(i, ()):
            if j not in ambiguous:
                owner[j] = i
    members: dict[int, list[int]] = defaultdict(list)
    for i, head in owner.items():
        members[head].append(i)

    claims: dict[int, Claim] = {}
    for head, idxs in members.items():
        claims[head] = _claim_of([groups[i] for i in idxs], view)
    by_group = {i: claims[owner[i]] for i in owner}
    for i in ambiguous:
        near = sorted({by_group[j].id for j in same[i]})
        by_group[i].ambiguous_with = near
    for i, j, reason in clashes:
        ci, cj = by_group[i], by_group[j]
        if ci is cj:
            continue
        ci.contested_by.setdefault(cj.id, reason)
        cj.contested_by.setdefault(ci.id, reason)
    result = sorted(claims.values(), key=lambda c: c.id)
    _apply_decisions(paths, result)
    return result


def _is_correction(group: _Group) -> bool:
    return CONTRAST in group.key.tokens and group.summary.correction


def _atoms_of(view: L1View, groups: list[_Group]) -> list[dict[str, Any]]:
    return [a for g in groups for a in view.atoms_of(g.key.text)]


def _claim_of(groups: list[_Group], view: L1View) -> Claim:
    adopted = [g for g in groups if g.record is not None]
    summary = groups[0].summary
    if len(groups) > 1:
        summary = Summary()
        for group in groups:
            summary.merge(group.summary)
    keys = sorted({g.key.text for g in groups})
    if adopted:
        best = sorted(adopted, key=lambda g: (g.tier != "L3", g.key.text))[0]
        record = best.record or {}
        claim = Claim(
            id=str(record["id"]), key=best.key, keys=sorted(set(keys) | set(record.get("keys", []))),
            text=str(record["text"]), kind=str(record.get("kind", "instruction")), tier=best.tier, record=record,
        )
        claim.stated = bool(record.get("stated"))
        claim.verified = bool(record.get("verified"))
    else:
        head = min(groups, key=lambda g: g.key.text)
        texts, kinds = summary.texts, summary.kinds
        # the most frequent wording, then the earliest, then the smallest
        text = sorted(texts, key=lambda t: (-texts[t][0], texts[t][1], t))[0]
        kind = sorted(kinds, key=lambda k: (-kinds[k], k))[0]
        claim = Claim(id=short_hash("claim", head.key.text), key=head.key, keys=keys, text=text, kind=kind)
    claim.summary = summary
    claim.atom_source = partial(_atoms_of, view, groups)
    claim.stated = claim.stated or summary.stated
    claim.redacted = summary.redacted
    return claim


def _apply_decisions(paths: Paths, claims: list[Claim]) -> None:
    decisions = load_decisions(paths.decisions)
    if not decisions:
        return
    by_key: dict[str, Claim] = {}
    by_id: dict[str, Claim] = {}
    for claim in claims:
        by_id[claim.id] = claim
        for key in claim.keys:
            by_key.setdefault(key, claim)

    def find(claim_id: str, keys: Iterable[str]) -> Claim | None:
        if claim_id in by_id:
            return by_id[claim_id]
        for key in keys:
            if key in by_key:
                return by_key[key]
        return None

    for decision in decisions:
        target = find(str(decision.get("claim_id", "")), decision.get("keys", []))
        if target is None:
            continue
        action = decision["action"]
        if action == "verify":
            target.verified = True
        elif action == "reject":
            if decision.get("proposal_id") == short_hash("proposal", target.id, "L3"):
                # an L2→L3 proposal: new evidence is a project that did not hold it yet
                target.rejected_l3 = set(decision.get("projects", []))
            else:
                seen = set(decision.get("atoms", []))
                target.rejected = bool(target.observations) and all(i in seen for i in target.summary.ids)
        elif action == "resolve":
            kept = find(str(decision.get("keep_id", "")), decision.get("keep_keys", []))
            target.retired_for = kept.id if kept else str(decision.get("keep_id", ""))
            if kept is not None:
                kept.contested_by.pop(target.id, None)
                target.contested_by.pop(kept.id, None)
        elif action == "forget":
            target.retracted_at = max(target.retracted_at, str(decision.get("at", "")))
    for claim in claims:
        if claim.retracted_at and _said_since(claim, claim.retracted_at):
            claim.retracted_at = ""  # the person said it again after taking it back: new evidence
    for claim in claims:
        if claim.retired_for:
            # a retired claim no longer contests anything
            for other in claims:
                other.contested_by.pop(claim.id, None)


# ---------------------------------------------------------------- the gates


def _gate_l2(claim: Claim, gates: dict[str, Any]) -> tuple[str, list[str]]:
    """The path a claim takes from L1 to L2, or the reasons it cannot yet."""
    hard = _hard_reasons(claim)
    sessions, days = claim.count("sessions"), claim.count("days")
    default, stated, verified = gates["l2"], gates["l2_stated"], gates["l2_verified"]
    if not hard:
        if sessions >= default["sessions"] and days >= default["days"]:
            return "default", []
        if claim.stated and sessions >= stated["sessions"] and days >= stated["days"]:
            return "stated", []
        if claim.verified and claim.observations >= verified["observations"]:
            return "verified", []
    need = stated if claim.stated else default
    reasons = list(hard)
    if sessions < need["sessions"]:
        reasons.append(f"{sessions} of {need['sessions']} sessions")
    if days < need["days"]:
        reasons.append(f"{days} of {need['days']} distinct days")
    if claim.verified and claim.observations < verified["observations"]:
        reasons.append(f"{claim.observations} of {verified['observations']} observations")
    return "", reasons


def _said_since(claim: Claim, moment: str) -> bool:
    """Whether an observation of the claim is timestamped after ``moment`` (reads only this claim's atoms)."""
    after = parse_time(moment)
    if after is None:
        return False
    for atom in claim.atoms:
        stamp = parse_time(str(atom.get("timestamp") or "")) if atom.get("timestamp") else None
        if stamp is not None and stamp > after:
            return True
    return False


def _hard_reasons(claim: Claim) -> list[str]:
    reasons = []
    if claim.redacted:
        reasons.append("redacted")
    if claim.retracted_at:
        reasons.append(f"retracted on {claim.retracted_at[:10]}, not said again since")
    if claim.retired_for:
        reasons.append(f"retired in favour of {claim.retired_for}")
    if claim.contested:
        reasons.append("contested by " + ", ".join(sorted(claim.contested_by)))
    if claim.ambiguous_with:
        reasons.append("ambiguous: close to " + ", ".join(claim.ambiguous_with))
    if claim.rejected:
        reasons.append("rejected, no new evidence since")
    return reasons


def _cross_project(paths: Paths, claims: list[Claim], config: dict[str, Any], moment: datetime) -> tuple[list[Proposal], list[dict[str, Any]]]:
    """L2 → L3: claims held in the L2 of enough projects for long enough, contested nowhere."""
    gate = config["gates"]["l3"]
    similarity = float(config["identity"]["merge_similarity"])
    held: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)  # claim id → (project, record)
    local = [c for c in claims if c.tier == "L2"]
    local_by_key = {k: c for c in local for k in c.keys}
    current = os.path.realpath(paths.store)
    for claim in local:
        held[claim.id].append((paths.project_name, claim.record or {}))
    for name, entry in sorted(load_registry(paths).items()):
        store = Path(entry["store"])
        if os.path.realpath(store) == current:
            continue
        for record in load_claims(store / "L2.jsonl"):
            if record.get("retired"):
                continue
            key = claim_key(record["text"])
            match = local_by_key.get(key.text)
            if match is None:
                for claim in local:
                    if relate(claim.key, key, similarity).kind == "same":
                        match = claim
                        break
            if match is not None:
                held[match.id].append((name, record))
    proposals, blocked = [], []
    in_l3 = {c.id for c in claims if c.tier == "L3"}
    # claims a person took back from L3 (in any project): the user store keeps those decisions
    retracted = [(str(d.get("claim_id", "")), set(d.get("keys", [])), str(d.get("at", "")))
                 for d in load_decisions(paths.user_decisions) if d.get("action") == "forget"]
    for claim in local:
        if claim.id in in_l3:
            continue
        entries = held[claim.id]
        projects = sorted({name for name, _r in entries})
        stamps = [r.get("first_seen", "") for _n, r in entries if r.get("first_seen")] + ([claim.first_seen] if claim.first_seen else [])
        first = parse_time(min(stamps)) if stamps else None
        age = (moment - first).days if first else 0
        reasons = _hard_reasons(claim)
        if any(r.get("contested") for _n, r in entries) and not claim.contested:
            reasons.append("contested in another project")
        if claim.rejected_l3 is not None and set(projects) <= claim.rejected_l3:
            reasons.append("rejected, no new evidence since")
        when = max((at for cid, keys, at in retracted if cid == claim.id or keys & set(claim.keys)), default="")
        if when and not _said_since(claim, when):
            reasons.append(f"retracted from L3 on {when[:10]}, not said again since")
        if len(projects) < gate["projects"]:
            reasons.append(f"held in {len(projects)} of {gate['projects']} projects")
        if age < gate["age_days"]:
            reasons.append(f"{max(age, 0)} of {gate['age_days']} days")
        if reasons:
            blocked.append({"claim_id": claim.id, "text": claim.text, "reasons": reasons, "to": "L3"})
            continue
        sessions = sorted({s for _n, r in entries for s in r.get("sessions", [])} | set(claim.sessions))
        days = sorted({d for _n, r in entries for d in r.get("days", [])} | set(claim.days))
        proposals.append(
            Proposal(
                id=short_hash("proposal", claim.id, "L3"), claim_id=claim.id, text=claim.text, source_tier="L2",
                target_tier="L3", path="cross-project", kind=claim.kind, sessions=tuple(sessions), days=tuple(days),
                projects=tuple(projects), keys=tuple(claim.keys), evidence_source=partial(_evidence, claim, 5),
            )
        )
    return proposals, blocked


def _evidence(claim: Claim, limit: int | None) -> tuple[dict[str, Any], ...]:
    return tuple(claim.sources(local=False)[:limit])


def plan(paths: Paths, config: dict[str, Any] | None = None, view: L1View | None = None) -> Plan:
    """The dry run: every proposal and every refusal with its reasons; writes nothing.

    ``view`` is L1 as already read (``stage`` passes the one it saves to the claim cache).
    """
    config = config or load_config(paths.config)
    with claimcache.gc_paused():
        return _plan(paths, config, view)


def _plan(paths: Paths, config: dict[str, Any], view: L1View | None) -> Plan:
    moment = now()
    claims = build_claims(paths, config, view)
    gates = config["gates"]
    proposals: list[Proposal] = []
    blocked: list[dict[str, Any]] = []
    retired_for: dict[str, list[str]] = defaultdict(list)  # kept claim → adopted claims it replaces
    for claim in claims:
        if claim.retired_for and claim.tier in ("L2", "L3"):
            retired_for[claim.retired_for].append(claim.id)
    for claim in claims:
        if claim.tier != "L1":
            continue
        path, reasons = _gate_l2(claim, gates)
        claim.blocking = reasons
        if not path:
            blocked.append({"claim_id": claim.id, "text": claim.text, "reasons": reasons, "to": "L2"})
            continue
        replaces = tuple(retired_for.get(claim.id, ()))
        proposals.append(
            Proposal(
                id=short_hash("proposal", claim.id, "L2"), claim_id=claim.id, text=claim.text, source_tier="L1",
                target_tier="L2", path=path, kind=claim.kind, sessions=tuple(claim.sessions), days=tuple(claim.days),
                projects=tuple(claim.projects), keys=tuple(claim.keys), replaces=replaces,
                evidence_source=partial(_evidence, claim, None),
            )
        )
    cross, cross_blocked = _cross_project(paths, claims, config, moment)
    by_id = {c.id: c for c in claims}
    for item in cross_blocked:
        by_id[item["claim_id"]].blocking = item["reasons"]
    proposals.extend(cross)
    blocked.extend(cross_blocked)
    proposals.sort(key=lambda p: p.id)
    blocked.sort(key=lambda b: (b["to"], b["claim_id"]))
    return Plan(claims=claims, proposals=proposals, blocked=blocked)


# ---------------------------------------------------------------- staging


def render_proposal(proposal: Proposal, paths: Paths, clean: Callable[[str], str] | None = None) -> str:
    """A staged proposal as Markdown with front matter (JSON values are valid YAML flow).

    ``clean`` is this project's path scrubber, when the caller already made one.
    """
    if clean is None:
        from .redact import scrubber

        clean = scrubber(str(paths.project_root))

    front = {
        "id": proposal.id,
        "claim_id": proposal.claim_id,
        "from": proposal.source_tier,
        "to": proposal.target_tier,
        "path": proposal.path,
        "kind": proposal.kind,
        "sessions": list(proposal.sessions),
        "days": list(proposal.days),
        "projects": list(proposal.projects),
        "replaces": list(proposal.replaces),
        "keys": [clean(k) for k in proposal.keys],
    }
    lines = ["---"]
    lines += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in front.items()]
    lines += ["---", "", " ".join(clean(proposal.text).split()), ""]
    lines.append(
        f"Evidence: {len(proposal.sessions)} session(s) on {len(proposal.days)} day(s)"
        f" in {', '.join(proposal.projects) or 'this project'}; path: {proposal.path}."
    )
    if proposal.replaces:
        lines.append(f"Replaces adopted claim(s): {', '.join(proposal.replaces)}.")
    lines.append("")
    for src in proposal.evidence:
        quote = clean(" ".join(str(src.get("quote", "")).split()))[:300]
        lines.append(f"- {str(src.get('timestamp', ''))[:10]} session {str(src.get('session', ''))[:8]} line {src.get('line', 0)}: {json.dumps(quote, ensure_ascii=False)}")
    lines.append("")
    lines.append(f"Adopt: `agent-memory adopt {proposal.id}` · reject: `agent-memory reject {proposal.id}`")
    return "\n".join(lines) + "\n"


def read_staged(path: Path) -> dict[str, Any]:
    """The front matter and claim text of one staged proposal file."""
    text = path.read_text(encoding="utf-8")
    front: dict[str, Any] = {}
    lines = text.split("\n")
    if not lines or lines[0] != "---":
        raise ValueError(f"{path.name} has no front matter")
    end = lines.index("---", 1)
    for line in lines[1:end]:
        key, _, value = line.partition(": ")
        front[key] = json.loads(value)
    body = [line for line in lines[end + 1 :]]
    front["text"] = next((line for line in body if line.strip()), "")
    return front


def staged_proposals(paths: Paths) -> list[dict[str, Any]]:
    """Every readable staged proposal, by id."""
    found = []
    if paths.staged.is_dir():
        for path in sorted(paths.staged.glob("*.md")):
            try:
                found.append(read_staged(path))
            except (ValueError, OSError, UnicodeDecodeError):
                continue
    return found


def stage(paths: Paths, config: dict[str, Any] | None = None) -> tuple[Plan, dict[str, int]]:
    """``promote --write``: stage proposals idempotently, drop stale ones, mark contested L2."""
    config = config or load_config(paths.config)
    counts = {"staged": 0, "unchanged": 0, "withdrawn": 0}
    with StoreLock(paths.store):
        view = claimcache.refresh(paths, _similarity(config))
        result = plan(paths, config, view)
        paths.staged.mkdir(parents=True, exist_ok=True)
        written = _StagedFiles(paths, view)
        claims = result.by_id()
        wanted = {f"{p.id}.md": p for p in result.proposals}
        for name, proposal in sorted(wanted.items()):
            counts["staged" if written.stage(name, proposal, claims[proposal.claim_id]) else "unchanged"] += 1
        for old in paths.staged.glob("*.md"):
            if old.name not in wanted:
                old.unlink()
                counts["withdrawn"] += 1
        written.save()
        _mark_contested(paths, result)
        contested = _contested_keys(result)
        if read_json(paths.contested, None) != contested:
            write_json(paths.contested, contested)
        _index_contested(paths, contested)
    return result, counts


def _index_contested(paths: Paths, contested: dict[str, list[str]]) -> None:
    """The contested keys into the index too, so the prompt hook need not scan ``contested.json``.

    Only an optimisation: the hook checks the file's signature and reads the file when the
    index disagrees, so a failure here is let go.
    """
    from .lookup import signature
    from .tiers import open_index

    sig = signature(str(paths.contested))
    try:
        with open_index(paths, sync=False) as index:
            if index.path is not None and index.contested_signature() != (sig or ""):
                index.set_contested(contested, sig)
    except Exception:  # noqa: BLE001 - the hook falls back to the file
        pass


class _StagedFiles:
    """Staged files and what each was rendered from, so an unchanged proposal is neither re-rendered nor re-read.

    ``L1/stage-cache.json`` keeps, per staged file, a fingerprint of everything its bytes
    depend on (the proposal, its atoms' ids, adopted sources) and the file's size and mtime
    when written, under a digest of the scrubbing context and the code that renders. It holds for the L1 prefix it
    names; a file edited since, a different fingerprint or a rewritten L1 means rendering
    and comparing as if there were no record.
    """

    def __init__(self, paths: Paths, view: L1View) -> None:
        from .redact import os_user_names, scrubber

        self.paths, self.view = paths, view
        self.clean = lru_cache(maxsize=None)(scrubber(str(paths.project_root)))
        # a digest, so the record holds no home folder or user name of its own
        self.context = short_hash(_render_version(), paths.project_root, Path.home(), *os_user_names())
        self.files: dict[str, list[Any]] = {}
        self.rendered = False
        self.known = self._load()

    def _load(self) -> dict[str, Any]:
        found = read_json(self.paths.stage_cache, {})
        try:
            size, digest = int(found["l1_bytes"]), str(found["l1_sha1"])
            if (size, digest) != (self.view.end, self.view.digest) and not claimcache.is_prefix(self.paths, size, digest):
                return {}
            return dict(found["files"]) if found.get("context") == self.context else {}
        except (TypeError, KeyError, ValueError, AttributeError):
            return {}

    def stage(self, name: str, proposal: Proposal, claim: Claim) -> bool:
        """Write one proposal's file when its bytes would change; True when written."""
        target = self.paths.staged / name
        inputs = _fingerprint(proposal, claim)
        before = self.known.get(name)
        if isinstance(before, list) and before[:1] == [inputs] and before[1:] == _stat(target):
            self.files[name] = before
            return False
        body = render_proposal(proposal, self.paths, self.clean)
        self.rendered = True
        try:
            changed = target.read_text(encoding="utf-8") != body
        except (FileNotFoundError, UnicodeDecodeError):
            changed = True
        if changed:
            atomic_write(target, body)
        self.files[name] = [inputs, *_stat(target)]
        return changed

    def save(self) -> None:
        """Record what was rendered, for the next pass; a pass that rendered nothing leaves the record as it is.

        (Entries of withdrawn files stay until then: a file that is gone never matches its size and mtime.)
        A record that cannot be written costs only time.
        """
        if not self.rendered:
            return
        record = {"context": self.context, "l1_bytes": self.view.end, "l1_sha1": self.view.digest, "files": self.files}
        try:
            write_json(self.paths.stage_cache, record)
        except OSError:
            pass


def _stat(path: Path) -> list[int]:
    try:
        found = path.stat()
    except OSError:
        return [-1, -1]
    return [found.st_size, found.st_mtime_ns]


def _fingerprint(proposal: Proposal, claim: Claim) -> str:
    """Everything a staged file's bytes depend on besides the scrubbing context and the code."""
    adopted = (claim.record or {}).get("sources", []) if claim.record else []
    body = json.dumps([proposal.as_json(), list(proposal.keys), sorted(claim.summary.ids), adopted],
                      ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha1(body.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _render_version() -> str:
    """Changes with the code that renders staged files (this module and the path scrubber)."""
    from . import redact

    digest = hashlib.sha1()
    for source in (__file__, redact.__file__):
        with contextlib.suppress(OSError):
            digest.update(Path(source).read_bytes())
    return digest.hexdigest()[:16]


def _contested_keys(result: Plan) -> dict[str, list[str]]:
    """Claim keys with an open contradiction, for hooks that must tag them without the claim graph."""
    found: dict[str, list[str]] = {}
    for claim in result.claims:
        if claim.contested:
            for key in claim.keys:
                found[key] = sorted(claim.contested_by)
    return found


def _mark_contested(paths: Paths, result: Plan) -> None:
    """An adopted claim that new evidence contradicts stays in L2, marked contested."""
    by_id = result.by_id()
    records = [r for _n, r in read_jsonl(paths.l2)]
    changed = False
    for record in records:
        claim = by_id.get(str(record.get("id")))
        contested_by = sorted(claim.contested_by) if claim else []
        if bool(record.get("contested")) != bool(contested_by) or record.get("contested_by", []) != contested_by:
            record["contested"] = bool(contested_by)
            record["contested_by"] = contested_by
            changed = True
    if changed:
        write_jsonl(paths.l2, records)
