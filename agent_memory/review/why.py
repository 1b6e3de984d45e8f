"""What is remembered and why: claims per tier, the provenance of one claim, open contradictions.

Everything here reads; nothing is written. ``--why`` never applies time decay: it shows
every observation exactly as stored, with whether its transcript still exists.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any, Iterable, TextIO

from ..claims import claim_key, normalise
from ..errors import Ambiguous, NotFound
from ..promote import Claim, Plan, plan
from ..claims.wording import short_hash
from ..store import Paths
from ..text import CJK as _CJK  # the one CJK definition

MIN_PREFIX = 6  # shortest id prefix accepted anywhere an id is asked for

_WORD = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*")  # a Latin word ends where CJK begins (t-wadaの)
_IS_CJK = re.compile(f"[{_CJK}]")


# ---------------------------------------------------------------- resolving ids and text


def match_id(wanted: str, ids: Iterable[str], what: str) -> str:
    """The one id that ``wanted`` names: itself, or a unique prefix of at least six characters."""
    wanted = wanted.strip()
    known = sorted(set(ids))
    if wanted in known:
        return wanted
    if len(wanted) < MIN_PREFIX:
        raise NotFound(f"no {what} has the id {wanted!r} (a prefix needs at least {MIN_PREFIX} characters)")
    found = [i for i in known if i.startswith(wanted)]
    if not found:
        raise NotFound(f"no {what} has an id starting with {wanted!r}")
    if len(found) > 1:
        raise Ambiguous(f"{len(found)} {what}s have ids starting with {wanted!r} ({_listing(found)}): give more characters")
    return found[0]


def match_proposal(wanted: str, claim_of: dict[str, str]) -> str:
    """The one proposal ``wanted`` names: its id (or prefix), else the id (or prefix) of the claim it proposes.
    ``claim_of`` maps proposal ids to claim ids."""
    try:
        return match_id(wanted, claim_of, "proposal")
    except NotFound:
        if len(wanted.strip()) < MIN_PREFIX:
            raise
        by_claim: dict[str, list[str]] = {}
        for pid, cid in claim_of.items():
            by_claim.setdefault(cid, []).append(pid)
        try:
            claim_id = match_id(wanted, by_claim, "proposal")
        except NotFound:
            raise NotFound(f"no proposal and no proposed claim has the id {wanted!r}: ids from 'agent-memory promote'") from None
        if len(by_claim[claim_id]) > 1:
            raise Ambiguous(f"claim {claim_id} has {len(by_claim[claim_id])} proposals ({_listing(sorted(by_claim[claim_id]))}):"
                            " give the proposal id")
        return by_claim[claim_id][0]


def _listing(ids: list[str], limit: int = 4) -> str:
    shown = ", ".join(f"{i[:8]}…" for i in ids[:limit])
    return shown + (", …" if len(ids) > limit else "")


def _one_line(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _words(text: str) -> list[str]:
    """Words of ``text`` folded as claim identity folds them; CJK runs stay whole (matched as substrings)."""
    folded = normalise(text) or " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    return _WORD.findall(folded.replace("’", "'"))


def _haystacks(claim: Claim) -> list[str]:
    texts = {claim.text, *(str(a.get("text", "")) for a in claim.atoms)}
    return sorted(t for t in texts if t)


def _matches(query: list[str], claim: Claim) -> bool:
    """Whether one wording of the claim (or its key) holds every query word."""
    candidates = [_words(t) for t in _haystacks(claim)]
    candidates += [key.replace("¬", " ").split() for key in claim.keys]
    for words in candidates:
        have = set(words)
        joined = " ".join(words)
        if all((w in joined) if _IS_CJK.match(w) else (w in have) for w in query):
            return True
    return False


def _exact(text: str, claim: Claim) -> bool:
    norm = normalise(text)
    if norm and any(normalise(t) == norm for t in _haystacks(claim)):
        return True
    key = claim_key(text)
    return bool(key.tokens) and key.text in claim.keys


def resolve_why(text: str, claims: list[Claim]) -> Claim:
    """The one claim TEXT names: an id (or prefix), else the claims holding all its words, one exact match winning."""
    wanted = text.strip()
    if not wanted:
        raise NotFound("--why needs an id or some words of the claim")  # names no claim: exit 3, as any miss
    by_id = {c.id: c for c in claims}
    if re.fullmatch(rf"[0-9a-f]{{{MIN_PREFIX},}}", wanted):
        ids = [i for i in by_id if i.startswith(wanted)]
        if not ids:  # a proposal's id names its claim too
            proposals = {short_hash("proposal", c.id, tier): c.id for c in claims for tier in ("L2", "L3")}
            ids = sorted({proposals[p] for p in proposals if p.startswith(wanted)})
        if len(ids) == 1:
            return by_id[ids[0]]
        if len(ids) > 1:
            raise Ambiguous(f"{len(ids)} claims have ids starting with {wanted!r} ({_listing(ids)}): give more characters")
        atom_owner = [c for c in claims if any(str(a.get("id", "")).startswith(wanted) for a in c.atoms)]
        if len(atom_owner) == 1:
            return atom_owner[0]
    query = _words(wanted)
    shown = _one_line(wanted)
    if not query:
        raise NotFound(f"no claim matches {shown!r}: use a claim id from 'agent-memory inspect --tier L1'")
    found = [c for c in claims if _matches(query, c)]
    if len(found) == 1:
        return found[0]
    exact = [c for c in found if _exact(wanted, c)]
    if len(exact) == 1:
        return exact[0]
    if not found:
        raise NotFound(f"no claim matches {shown!r}: try fewer words, or list claims with 'agent-memory inspect --tier L1'")
    ids = sorted(c.id for c in (exact or found))
    raise Ambiguous(f"{len(ids)} claims match {shown!r}: use an id ({_listing(ids)}) or more words")


# ---------------------------------------------------------------- the views as data


def tier_claims(result: Plan, tier: str) -> list[Claim]:
    """The claims that live in ``tier`` now (an adopted claim is listed under its new tier)."""
    return [c for c in result.claims if c.tier == tier]


def why_json(claim: Claim) -> dict[str, Any]:
    """The INTERFACE ``A`` shape of one claim, each source saying whether its transcript still exists."""
    found = claim.as_json()
    # why each observation read as standing, not for the task at hand (atoms written before it have none)
    scopes = {(a.get("session", ""), a.get("line", 0)): a["scope"] for a in getattr(claim, "atoms", ()) if a.get("scope")}
    for source in found["sources"]:
        source["exists"] = bool(source["transcript"]) and Path(source["transcript"]).is_file()
        if (source["session"], source["line"]) in scopes:
            source["scope"] = scopes[(source["session"], source["line"])]
    found["contested_by"] = sorted(claim.contested_by)
    found["one_claim_because"] = [dict(j) for j in claim.joined]
    if claim.superseded_by:
        found["superseded_by"] = claim.superseded_by
    return found


_STANDING = {"L3": 0, "L2": 1}  # which side of a pair is listed as the claim: an adopted one before an L1 one


def contested(result: Plan) -> list[dict[str, Any]]:
    """Every open contradiction once: each pair under its higher-tier side (else the smaller id) as ``claim``,
    with the other side in ``contested_by``, so both ids are named and no pair is listed twice."""
    by_id = result.by_id()
    listed: set[frozenset[str]] = set()
    entries = []
    for claim in sorted(result.claims, key=lambda c: (_STANDING.get(c.tier, 2), c.id)):
        others = []
        for other in sorted(claim.contested_by):
            pair = frozenset((claim.id, other))
            if other in by_id and other != claim.id and pair not in listed:
                listed.add(pair)
                others.append(by_id[other])
        if others:
            entries.append({"claim": claim.as_json(), "contested_by": [o.as_json() for o in others]})
    return entries


def _flags(claim: Claim) -> list[str]:
    names = ("stated", "verified", "redacted", "contested")
    return [name for name in names if getattr(claim, name)]


# ---------------------------------------------------------------- printing


def _print_tier_plain(claims: list[Claim], tier: str, out: TextIO) -> None:
    out.write(f"{tier}: {len(claims)} claim(s)\n")
    for claim in claims:
        flags = " ".join(f"[{f}]" for f in _flags(claim))
        out.write(
            f"\n{claim.id}  {claim.kind}  sessions {len(claim.sessions)}  days {len(claim.days)}"
            f"  projects {', '.join(claim.projects) or '-'}{'  ' + flags if flags else ''}\n"
        )
        out.write(f"  {_one_line(claim.text, 300)}\n")
        if claim.blocking:
            label = "blocked" if tier == "L1" else "not in L3 yet"
            out.write(f"  {label}: {'; '.join(claim.blocking)}\n")


def print_tier_table(claims: list[Claim], tier: str, console: Any) -> None:
    """A rich table of one tier's claims (for a terminal)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{tier}: {len(claims)} claim(s)", title_justify="left", show_lines=False)
    table.add_column("claim", overflow="fold", ratio=3)
    table.add_column("kind")
    table.add_column("sessions", justify="right")
    table.add_column("days", justify="right")
    table.add_column("projects", overflow="fold")
    table.add_column("flags")
    if tier != "L3":
        table.add_column("blocked by" if tier == "L1" else "not in L3 because", overflow="fold", ratio=2)
    for claim in claims:
        name = Text()
        name.append(claim.id[:8], style="bold cyan")
        name.append("\n" + _one_line(claim.text, 200))
        row: list[Any] = [
            name,
            claim.kind,
            str(len(claim.sessions)),
            str(len(claim.days)),
            Text(", ".join(claim.projects)),
            Text(" ".join(_flags(claim)), style="yellow"),
        ]
        if tier != "L3":
            row.append(Text("; ".join(claim.blocking), style="dim"))
        table.add_row(*row)
    console.print(table)


def _print_why(found: dict[str, Any], out: TextIO) -> None:
    flags = [f for f in ("stated", "verified", "redacted", "contested") if found[f]]
    out.write(f"{found['id']}  {found['tier']}  {found['kind']}{'  [' + '] ['.join(flags) + ']' if flags else ''}\n")
    out.write(f"  {found['text']}\n")
    out.write(
        f"  {len(found['sessions'])} session(s) on {len(found['days'])} day(s)"
        f" in {', '.join(found['projects']) or 'no named project'}\n"
    )
    if found["blocking"]:
        out.write(f"  blocked: {'; '.join(found['blocking'])}\n")
    if found["contested_by"]:
        out.write(f"  contested by: {', '.join(found['contested_by'])}\n")
    if found.get("one_claim_because"):
        out.write(f"  one claim in {len({w for j in found['one_claim_because'] for w in (j['a'], j['b'])})} wordings:\n")
        for joined in found["one_claim_because"]:
            out.write(f"    '{joined['a']}' and '{joined['b']}': {joined['why']}\n")
    replaced = found.get("superseded_by")
    if replaced:
        out.write(f"  superseded by {replaced['id']} on {str(replaced['at'])[:10]}: {replaced['text']}\n")
        for src in replaced.get("sources", []):
            out.write(f"    said in session {src['session']} line {src['line']} ({str(src['timestamp'])[:10] or 'no date'})\n")
    out.write(f"\n{len(found['sources'])} observation(s):\n")
    for src in found["sources"]:
        if src["transcript"]:
            state = "transcript present" if src["exists"] else "transcript no longer exists"
            where = f"{src['transcript']}:{src['line']} ({state})"
        else:
            where = f"line {src['line']} (transcript path not kept in {found['tier']})"
        out.write(f"- session {src['session']}  {src['timestamp'][:10] or 'no date'}  {where}\n")
        if src.get("scope"):
            out.write(f"    standing because: {src['scope']}\n")
        for line in str(src["quote"]).splitlines() or [""]:
            out.write(f"    > {line}\n")


def _print_contested(entries: list[dict[str, Any]], out: TextIO) -> None:
    if not entries:
        out.write("no open contradictions\n")
        return
    pairs = sum(len(entry["contested_by"]) for entry in entries)
    out.write(f"{pairs} open contradiction(s):\n")
    for entry in entries:
        claim = entry["claim"]
        out.write(f"\n{claim['id']}  {claim['tier']}  {_one_line(claim['text'], 200)}\n")
        for other in entry["contested_by"]:
            out.write(f"  contested by {other['id']}  {other['tier']}  {_one_line(other['text'], 200)}\n")
    out.write("\nsettle one with: agent-memory resolve ID --keep KEEP_ID\n")


def _print_candidates(found: list[Any], out: TextIO) -> None:
    if not found:
        out.write("no candidate merges\n")
        return
    out.write(f"{len(found)} pair(s) of claims that may be one claim:\n")
    for pair in found:
        out.write(f"\n{pair.a.id}  {_one_line(pair.a.text, 200)}\n{pair.b.id}  {_one_line(pair.b.text, 200)}\n")
        out.write(f"  why: {pair.why}\n")
    out.write("\nmerge a pair with: agent-memory merge ID ID (split ID and rollback undo it)\n")


def _emit(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


def cmd_inspect(args: argparse.Namespace) -> int:
    """``agent-memory inspect``: one tier, one claim's provenance, or the open contradictions."""
    paths = Paths.resolve(getattr(args, "memory_dir", None))
    result = plan(paths)
    if args.why is not None:
        found = why_json(resolve_why(args.why, result.claims))
        if args.json:
            _emit({"claim": found})
        else:
            _print_why(found, sys.stdout)
        return 0
    if getattr(args, "candidates", False):
        from .merge import candidates

        found_pairs = candidates(paths, result)
        if args.json:
            _emit({"candidates": [c.as_json() for c in found_pairs]})
        else:
            _print_candidates(found_pairs, sys.stdout)
        return 0
    if args.contested:
        entries = contested(result)
        if args.json:
            _emit({"contested": entries})
        else:
            _print_contested(entries, sys.stdout)
        return 0
    claims = tier_claims(result, args.tier)
    if args.json:
        _emit({"atoms": [c.as_json() for c in claims]})
        return 0
    from rich.console import Console

    console = Console(highlight=False)
    if console.is_terminal:
        print_tier_table(claims, args.tier, console)
    else:
        _print_tier_plain(claims, args.tier, sys.stdout)
    return 0
