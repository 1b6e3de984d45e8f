"""Staging: the proposal files ``adopt`` reads (Markdown with JSON front matter), and writing them.

``stage()`` is ``promote --write``: one reviewable file per proposal in ``<store>/staged/``,
stale ones withdrawn, adopted claims that became contested marked. Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from .. import shapes
from ..claims import cache as claimcache
from ..claims import l1bytes
from ..claims.cache import L1View
from ..config import load_config
from ..store import Paths, StoreLock, atomic_write, log_error, read_json, read_jsonl, write_json, write_jsonl
from .gates import merge_similarity, plan
from .records import Claim, Plan, Proposal
from ..claims.wording import short_hash


def render_proposal(proposal: Proposal, paths: Paths, clean: Callable[[str], str] | None = None) -> str:
    """A staged proposal as Markdown with front matter (JSON values are valid YAML flow).

    ``clean`` is this project's path scrubber, when the caller already made one.
    """
    if clean is None:
        from ..redact import scrubber

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
                front = read_staged(path)
            except (ValueError, OSError, UnicodeDecodeError) as exc:
                shapes.report(path, 1, f"not a staged proposal ({type(exc).__name__})")
                continue
            why = shapes.problem(front, shapes.STAGED, shapes.STAGED_REQUIRED)
            if why:  # a hand edit of a committed file: said, with its line, and skipped
                field = why.split(" ", 1)[0]
                lines = path.read_text(encoding="utf-8").split("\n")
                shapes.report(path, next((n for n, line in enumerate(lines, 1) if line.startswith(f"{field}: ")), 1), why)
                continue
            found.append(front)
    return found


def stage(paths: Paths, config: dict[str, Any] | None = None) -> tuple[Plan, dict[str, int]]:
    """``promote --write``: stage proposals idempotently, drop stale ones, mark contested L2.

    The pass builds whole claims only where the gates need them (``plan(every=False)``): the
    returned plan's ``claims`` are those, every proposal's and every contested claim's among them.
    """
    config = config or load_config(paths.config)
    counts = {"staged": 0, "unchanged": 0, "withdrawn": 0}
    with StoreLock(paths.store):
        claimcache.keep_up(paths, merge_similarity(config))
        result = plan(paths, config, every=False)
        view = result.view
        assert view is not None  # a pass always says what it read
        paths.staged.mkdir(parents=True, exist_ok=True)
        written = _StagedFiles(paths, view)
        claims = result.by_id()
        wanted = {f"{p.id}.md": p for p in result.proposals}
        for name, proposal in sorted(wanted.items()):
            counts["staged" if written.stage(name, proposal, claims[proposal.claim_id]) else "unchanged"] += 1
        for old in paths.staged.glob("*.md"):
            if old.name not in wanted and not from_team(old):
                old.unlink()
                counts["withdrawn"] += 1
        written.save()
        _mark_contested(paths, result)
        contested = _contested_keys(result)
        if read_json(paths.contested, None) != contested:
            write_json(paths.contested, contested)
        _index_contested(paths, contested)
        _index_claims(paths, result)
    return result, counts


def from_team(path: Path) -> bool:
    """A team proposal (``agent-memory team promote``) is staged from others' exports: a person's pass leaves it."""
    try:
        return read_staged(path).get("from") == "team"
    except (ValueError, OSError, UnicodeDecodeError):
        return False


def _index_contested(paths: Paths, contested: dict[str, list[str]]) -> None:
    """The contested keys into the index too, so the prompt hook need not scan ``contested.json``.

    Only an optimisation: the hook checks the file's signature and reads the file when the
    index disagrees, so a failure here is let go.
    """
    from ..index.prompt import signature
    from .tiers import open_index

    sig = signature(str(paths.contested))
    try:
        with open_index(paths, sync=False) as index:
            if index.path is not None and index.contested_signature() != (sig or ""):
                index.set_contested(contested, sig)
    except Exception as exc:  # noqa: BLE001 - the hook falls back to the file; logged, not raised
        log_error(paths, "promote: contested keys into the index", exc)


def _index_claims(paths: Paths, result: Plan) -> None:
    """Which keys are wordings of one claim, into the index for the prompt hook (an optimisation: a failure
    costs only a rule shown in two wordings, so it is logged, not raised)."""
    from .tiers import open_index

    claim_of = {key: claim.id for claim in result.claims if len(claim.keys) > 1 for key in claim.keys}
    try:
        with open_index(paths, sync=False) as index:
            if index.path is not None:
                index.set_claims(claim_of)
    except Exception as exc:  # noqa: BLE001
        log_error(paths, "promote: claim keys into the index", exc)


class _StagedFiles:
    """Staged files and what each was rendered from, so an unchanged proposal is neither re-rendered nor re-read.

    ``L1/stage-cache.json`` keeps, per staged file, a fingerprint of everything its bytes
    depend on (the proposal, its atoms' ids, adopted sources) and the file's size and mtime
    when written, under a digest of the scrubbing context and the code that renders. It holds for the L1 prefix it
    names; a file edited since, a different fingerprint or a rewritten L1 means rendering
    and comparing as if there were no record.
    """

    def __init__(self, paths: Paths, view: L1View) -> None:
        from ..redact import os_user_names, scrubber

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
            if (size, digest) != (self.view.end, self.view.digest) and not l1bytes.is_prefix(self.paths, size, digest):
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
        except OSError as exc:
            log_error(self.paths, "promote: stage cache", exc)


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
    from .. import redact

    digest = hashlib.sha1()
    for source in (__file__, redact.scrub.__file__):
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
