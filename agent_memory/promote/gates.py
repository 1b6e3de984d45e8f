"""The promotion pass: atoms → claims → gates → proposals, and the reasons for every refusal.

``plan()`` reads and never writes (the dry run); ``staging.stage()`` writes what it proposes.
The same L1 gives the same plan whatever order it was ingested in. Standard library
only: the session-end hook stages through here.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..claims import cache as claimcache
from ..claims.cache import L1View, Summary
from ..claims.key import CONTRAST, Key, claim_key
from .records import Claim, Plan, Proposal
from ..claims.wording import short_hash, shown_text
from ..claims.relate import apart, relate
from ..config import load_config
from ..clock import now, parse_iso
from ..store import Paths
from .supersede import superseded
from .tiers import load_claims, load_decisions, load_registry


# ---------------------------------------------------------------- building claims


@dataclass
class _Group:
    key: Key
    summary: Summary = field(default_factory=Summary)
    record: dict[str, Any] | None = None
    tier: str = "L1"
    superseded_by: dict[str, Any] | None = None  # from a retired record: what replaced it


def _groups(paths: Paths, view: L1View) -> list[_Group]:
    keys = view.relations.keys
    groups = {text: _Group(keys[text], summary) for text, summary in view.summaries.items()}
    for tier, path in (("L2", paths.l2), ("L3", paths.l3)):
        for record in load_claims(path):
            if record.get("retired"):
                former = groups.get(_record_key(record, keys).text)
                if former is not None and isinstance(record.get("superseded_by"), dict):
                    former.superseded_by = record["superseded_by"]
                continue
            key = _record_key(record, keys)
            group = groups.setdefault(key.text, _Group(key))
            if group.record is None or tier == "L3":
                group.record, group.tier = record, tier
    return sorted(groups.values(), key=lambda g: (g.key.text, g.key.negated))


def _identity_decisions(paths: Paths, groups: list[_Group]) -> tuple[dict[tuple[str, ...], str], set[str]]:
    """What people said of identity, in the order they said it: the key sets they merged (with when) and
    the keys they split apart. A later split takes its keys out of an earlier merge; a later merge
    takes its keys out of an earlier split; merges that share a key join. A decision names keys and atoms:
    the keys its atoms are filed under now count too, so it outlives a change of how wordings become keys."""
    merges: dict[tuple[str, ...], str] = {}
    splits: set[str] = set()
    owner: dict[str, str] = {}
    for decision in load_decisions(paths.decisions):
        action = decision.get("action")
        if action not in ("merge", "split"):
            continue
        keys = {k for k in decision.get("keys", []) or [] if isinstance(k, str)}
        atoms = [a for a in decision.get("atoms", []) or [] if isinstance(a, str)]
        if atoms:
            if not owner:
                owner.update((i, g.key.text) for g in groups for i in g.summary.ids)
            keys |= {owner[a] for a in atoms if a in owner}
        if action == "split":
            merges = {rest: at for kept, at in merges.items()
                      if len(rest := tuple(k for k in kept if k not in keys)) > 1}
            splits |= keys
        else:
            splits -= keys
            merges[tuple(sorted(keys))] = str(decision.get("at", ""))
    return merges, splits


def _record_key(record: dict[str, Any], known: dict[str, Key]) -> Key:
    """An adopted claim's key: its wording's, unless L1 holds one of the keys it was adopted under (a
    reversal's key comes from the claim it revokes, not from its words)."""
    key = claim_key(record["text"])
    if key.text in known:
        return key
    for text in record.get("keys", []) or []:
        if isinstance(text, str) and text in known:
            return known[text]
    return key


def merge_similarity(config: dict[str, Any]) -> float:
    """How alike two wordings must be to count as one claim (`identity.merge_similarity` in config.yaml)."""
    return float(config["identity"]["merge_similarity"])


def _join(groups: list[Any], same: dict[int, set[int]], similarity: float,
          kinds: Mapping[tuple[str, str], str] | None = None) -> tuple[dict[int, int], dict[int, set[int]]]:
    """Clusters of wordings joined along their "same" links, taken in the order of their keys' texts (so
    the result does not depend on the order atoms arrived in). Near-identity is not transitive: a link that
    would put two wordings that can never be one claim (``relate.apart``: a clash, another polarity, value,
    condition, language or place) in one cluster is not taken, and its two ends are reported ambiguous.
    ``kinds``: how pairs already related stand (``relate``'s kind, by the two keys' texts in order).
    Returns each group's cluster head and, per group, the groups a refused link led to."""
    known = kinds or {}

    def apart_keys(x: Key, y: Key) -> bool:
        # ``apart`` of two keys of other words relates them first: one claim is never apart, a contradiction
        # always; a stored pair says which already (``relate``'s kind does not depend on the order of the two)
        kind = known.get((x.text, y.text) if x.text < y.text else (y.text, x.text))
        if kind in ("same", "contradiction") and x.tokens != y.tokens:
            return kind == "contradiction"
        return apart(x, y, similarity)

    head = list(range(len(groups)))
    members: dict[int, list[int]] = {i: [i] for i in range(len(groups))}
    refused: dict[int, set[int]] = defaultdict(set)

    def root(i: int) -> int:
        while head[i] != i:
            head[i] = head[head[i]]
            i = head[i]
        return i

    links = sorted({(min(i, j), max(i, j)) for i, near in same.items() for j in near},
                   key=lambda ij: (groups[ij[0]].key.text, groups[ij[1]].key.text))
    for i, j in links:
        a, b = root(i), root(j)
        if a == b:
            continue
        if len(members[a]) * len(members[b]) > _JOIN_LIMIT or any(
                apart_keys(groups[x].key, groups[y].key) for x in members[a] for y in members[b]):
            refused[i].add(j)
            refused[j].add(i)
            continue
        if len(members[a]) < len(members[b]):
            a, b = b, a
        head[b] = a
        members[a] += members.pop(b)
    return {i: root(i) for i in range(len(groups))}, refused


_JOIN_LIMIT = 400  # pairs checked before two clusters join; more is a common word, not one rule


def build_claims(paths: Paths, config: dict[str, Any], view: L1View | None = None) -> list[Claim]:
    """Every claim of the store: L1 atoms clustered, adopted L2/L3 entries, decisions applied."""
    similarity = merge_similarity(config)
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

    merges, splits = _identity_decisions(paths, groups)
    for i in (position[k] for k in splits if k in position):
        for j in same.pop(i, set()):  # a person said this wording is a claim of its own
            same[j].discard(i)
    owner, refused = _join(groups, same, similarity, {pair: rel[0] for pair, rel in relations.pairs.items()})
    forced = {position[k] for keys in merges for k in keys if k in position}  # a person said: never ambiguous
    if merges:  # a person said these claims are one: their clusters join
        parent: dict[int, int] = {}

        def root(head: int) -> int:
            while parent.get(head, head) != head:
                head = parent[head]
            return head

        for keys in merges:
            heads = sorted({root(owner[position[k]]) for k in keys if k in position})
            for head in heads[1:]:
                parent[head] = heads[0]
        owner = {i: root(head) for i, head in owner.items()}
    members: dict[int, list[int]] = defaultdict(list)
    for i, head in owner.items():
        members[head].append(i)

    claims: dict[int, Claim] = {}
    for head, idxs in members.items():
        claims[head] = _claim_of([groups[i] for i in idxs], view)
    by_group = {i: claims[owner[i]] for i in owner}
    for i, others in refused.items():
        if i in forced:
            continue
        near = sorted({by_group[j].id for j in others} - {by_group[i].id})
        if near:
            by_group[i].ambiguous_with = near
    for (a, b), (kind, reason, _x, _y) in relations.pairs.items():
        i, j = position[a], position[b]
        if kind == "same" and by_group[i] is by_group[j] and j in same.get(i, ()):
            by_group[i].joined.append({"a": a, "b": b, "why": reason or "the same words"})
    for keys, at in merges.items():
        claim = by_group.get(position[keys[0]]) if keys and keys[0] in position else None
        if claim is not None:
            claim.joined.append({"a": keys[0], "b": " | ".join(keys[1:]), "why": f"merged by a person on {at[:10]}"})
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
    keys = sorted({g.key.text for g in groups}) if len(groups) > 1 else [groups[0].key.text]
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
        head = min(groups, key=lambda g: g.key.text) if len(groups) > 1 else groups[0]
        texts, kinds = summary.texts, summary.kinds
        text = summary.shown or shown_text(texts)  # the claim tables keep one key's wording worked out
        kind = min(kinds, key=lambda k: (-kinds[k], k)) if len(kinds) > 1 else next(iter(kinds))
        ident = head.summary.claim_id or short_hash("claim", head.key.text)
        claim = Claim(id=ident, key=head.key, keys=keys, text=text, kind=kind)
    claim.summary = summary
    claim.superseded_by = next((g.superseded_by for g in groups if g.superseded_by), None)
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

    by_atom: dict[str, Claim] = {}

    def find(claim_id: str, keys: Iterable[str], atoms: Iterable[str] = ()) -> Claim | None:
        if claim_id in by_id:
            return by_id[claim_id]
        for key in keys:
            if key in by_key:
                return by_key[key]
        # the claim's atoms: they outlive a change of how wordings become keys, and so its id
        atoms = [a for a in atoms if isinstance(a, str)]
        if atoms and not by_atom:
            by_atom.update((i, claim) for claim in claims for i in claim.summary.ids)
        owners = {id(by_atom[a]): by_atom[a] for a in atoms if a in by_atom}
        return next(iter(owners.values())) if len(owners) == 1 else None

    for decision in decisions:
        target = find(str(decision.get("claim_id", "")), decision.get("keys", []), decision.get("atoms", []) or [])
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
            kept = find(str(decision.get("keep_id", "")), decision.get("keep_keys", []), decision.get("keep_atoms", []) or [])
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
        if claim.retired_for or claim.rejected:
            # a retired claim, or one a person rejected (a replacement they did not want), contests nothing
            for other_id in list(claim.contested_by):
                other = by_id.get(other_id)
                if other is not None:
                    other.contested_by.pop(claim.id, None)


# ---------------------------------------------------------------- the gates


def _gate_l2(claim: Claim, gates: dict[str, Any], replaces: Iterable[str] = ()) -> tuple[str, list[str]]:
    """The path a claim takes from L1 to L2, or the reasons it cannot yet.

    A claim that replaces adopted ones (``replaces``: a later reversal or correction) needs no
    more evidence: the person changed their mind once, and a reviewer decides.
    """
    replaced = set(replaces)
    hard = _hard_reasons(claim, replaced)
    sessions, days = claim.count("sessions"), claim.count("days")
    default, stated, verified = gates["l2"], gates["l2_stated"], gates["l2_verified"]
    if not hard:
        if replaced:
            return "supersedes", []
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
    after = parse_iso(moment)
    if after is None:
        return False
    for atom in claim.atoms:
        stamp = parse_iso(str(atom.get("timestamp") or "")) if atom.get("timestamp") else None
        if stamp is not None and stamp > after:
            return True
    return False


def _hard_reasons(claim: Claim, replaced: set[str] | None = None) -> list[str]:
    reasons = []
    if claim.redacted:
        reasons.append("redacted")
    if claim.retracted_at:
        reasons.append(f"retracted on {claim.retracted_at[:10]}, not said again since")
    if claim.retired_for:
        reasons.append(f"retired in favour of {claim.retired_for}")
    clashes = sorted(set(claim.contested_by) - (replaced or set()))
    if clashes:
        reasons.append("contested by " + ", ".join(clashes))
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
        first = parse_iso(min(stamps)) if stamps else None
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


def plan(paths: Paths, config: dict[str, Any] | None = None, view: L1View | None = None, every: bool = True) -> Plan:
    """The dry run: every proposal and every refusal with its reasons; writes nothing.

    ``view`` is L1 as already read. ``every=False`` builds whole claims only where the gates need
    them (``counted``): the same proposals and refusals, but ``claims`` holds only those claims.
    """
    config = config or load_config(paths.config)
    with claimcache.gc_paused():
        if view is None and not every:
            from .counted import split

            found = split(paths, config, merge_similarity(config))
            if found is not None:
                return _plan(paths, config, *found)
        return _plan(paths, config, view)


def _plan(paths: Paths, config: dict[str, Any], view: L1View | None,
          counted: Callable[[], list[dict[str, Any]]] | None = None) -> Plan:
    moment = now()
    view = view or claimcache.load(paths, merge_similarity(config))
    claims = build_claims(paths, config, view)
    gates = config["gates"]
    proposals: list[Proposal] = []
    blocked: list[dict[str, Any]] = []
    retired_for: dict[str, list[str]] = defaultdict(list)  # kept claim → adopted claims it replaces
    for claim in claims:
        if claim.retired_for and claim.tier in ("L2", "L3"):
            retired_for[claim.retired_for].append(claim.id)
    by_id = {c.id: c for c in claims}
    for claim in claims:
        if claim.tier != "L1":
            continue
        later = superseded(claim, by_id)
        path, reasons = _gate_l2(claim, gates, later)
        claim.blocking = reasons
        if not path:
            blocked.append({"claim_id": claim.id, "text": claim.text, "reasons": reasons, "to": "L2"})
            continue
        replaces = tuple(sorted({*retired_for.get(claim.id, ()), *later}))
        proposals.append(
            Proposal(
                id=short_hash("proposal", claim.id, "L2"), claim_id=claim.id, text=claim.text, source_tier="L1",
                target_tier="L2", path=path, kind=claim.kind, sessions=tuple(claim.sessions), days=tuple(claim.days),
                projects=tuple(claim.projects), keys=tuple(claim.keys), replaces=replaces,
                evidence_source=partial(_evidence, claim, None),
            )
        )
    cross, cross_blocked = _cross_project(paths, claims, config, moment)
    for item in cross_blocked:
        by_id[item["claim_id"]].blocking = item["reasons"]
    proposals.extend(cross)
    blocked.extend(cross_blocked)
    proposals.sort(key=lambda p: p.id)
    return Plan(claims=claims, proposals=proposals, refused=blocked, complete=counted is None, view=view, counted=counted)
