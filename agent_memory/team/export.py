"""``agent-memory export``: one person's atoms of this repository as flat rows that can be shared.

A row is the evidence gate's row (``claims.evidence.ROW_COLUMNS``) plus the atom's wording: claim key, kind,
time, day, pseudonymous session and person, a keyed pasted-block id, the repository's identity, and the
stated/redacted/contested flags; then the export's format version and the person's former pseudonyms. No
quote, transcript path, working folder, line or user name is ever in one. A redacted atom is not exported at
all, nor one of a claim the person forgot or rejected; a row whose wording still shows a secret, a home path
or a user name after scrubbing is held back. Nothing goes that the person has not seen: the dry run records a
digest of what it showed and the export refuses rows that differ from it. Standard library only (Parquet
needs the ``[team]`` extra).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from ..claims.key import PURPOSE, atom_key
from ..clock import iso, now
from ..errors import AgentMemoryError
from ..claims.evidence import ROW_COLUMNS
from ..store import Paths, atomic_write, read_json, write_json
from .identity import Repository, pseudonym, repository, salt

# The version of the rows this code writes. Version 1 is the rows written before versions: the gate's columns
# and ``text``, no ``format`` or ``formerly``, and a ``block`` that hashed the pasted turn unkeyed.
FORMAT_VERSION = 2
# an export row: the gate's columns, the wording a reviewer of the team's proposals reads, then what the gate
# needs to read the rows right
EXPORT_COLUMNS: dict[str, tuple[str, str]] = {
    **ROW_COLUMNS,
    "text": ("TEXT", "the atom's wording: redacted, paths made relative, homes and user names scrubbed"),
    "format": ("INTEGER", "the export format's version (2); a row without it is of version 1"),
    "formerly": ("TEXT", "this person's pseudonyms under the salts they exported with before, comma-separated"),
}
# the columns of each format version the gate reads
VERSION_COLUMNS: dict[int, tuple[str, ...]] = {1: (*ROW_COLUMNS, "text"), 2: tuple(EXPORT_COLUMNS)}
FORMATS = ("jsonl", "parquet")
# why a row was held back, in the order a person reads them
HELD = ("redacted", "secret", "path", "user name", "forgotten", "rejected")


class NotSeen(AgentMemoryError):
    """The rows to export are not the rows the last ``export --dry-run`` showed."""


class MissingExtra(AgentMemoryError):
    """An optional extra (``[team]``, ``[spark]``) is needed and not installed."""


@dataclass
class Export:
    """What an export would write: its rows, where they come from, what was held back and why."""

    rows: list[dict[str, Any]]
    repository: Repository
    person: str
    since: str = ""
    held_back: dict[str, int] = field(default_factory=dict)
    other_projects: int = 0  # atoms of other projects in the same store, never exported from here
    formerly: list[str] = field(default_factory=list)  # this person's pseudonyms under earlier salts, oldest first
    salt_changed: bool = False  # the pseudonym differs from the last dry run's: the salt is new since

    @property
    def digest(self) -> str:
        """What the person saw, as one hash: the rows in their canonical order and spelling."""
        digest = hashlib.sha256()
        for row in self.rows:
            digest.update(json.dumps(row, ensure_ascii=False, sort_keys=True).encode("utf-8") + b"\n")
        return digest.hexdigest()

    def summary(self) -> dict[str, Any]:
        """The export's JSON description (INTERFACE: ``export --json``)."""
        return {
            "rows": len(self.rows),
            "claims": len({r["claim"] for r in self.rows}),
            "repository": self.repository.identity,
            "repository_from": self.repository.source,
            "person": self.person,
            "since": self.since or None,
            "held_back": dict(self.held_back),
            "other_projects": self.other_projects,
            "format_version": FORMAT_VERSION,
            "formerly": list(self.formerly),
            "salt_changed": self.salt_changed,
            "digest": self.digest,
        }


def _atoms(paths: Paths) -> Iterable[dict[str, Any]]:
    from ..promote.tiers import iter_atoms

    return iter_atoms(paths)


@dataclass
class _Decided:
    """What the person's own plan says of their claims: contested keys, and what they forgot or rejected."""

    contested: set[str] = field(default_factory=set)
    withheld_keys: dict[str, str] = field(default_factory=dict)  # claim key → "forgotten" | "rejected"
    withheld_atoms: dict[str, str] = field(default_factory=dict)  # atom id → the same


def _decided(paths: Paths) -> _Decided:
    """The keys this person holds a contradiction for or retired in favour of another claim, and the claims they
    took back (``forget``) or rejected with no evidence since: those stay on this machine, as in their own gates."""
    from ..promote.gates import plan

    found = _Decided()
    for claim in plan(paths).claims:
        if claim.contested or claim.retired_for:
            found.contested.update(claim.keys)
        why = "forgotten" if claim.retracted_at else "rejected" if claim.rejected else ""
        if why:
            found.withheld_keys.update(dict.fromkeys(claim.keys, why))
            found.withheld_atoms.update(dict.fromkeys(claim.summary.ids, why))
    return found


def key_words(key: str) -> str:
    """A claim key as plain words: a purpose word's mark (``+install``) taken off, so the checks for paths and
    names read the word itself."""
    return " ".join(word[len(PURPOSE):] if word.startswith(PURPOSE) else word for word in key.split(" "))


def scrub_key(key: str, clean: Callable[[str], str]) -> str:
    """A claim key scrubbed word by word, each purpose word's mark kept."""
    return " ".join(PURPOSE + clean(word[len(PURPOSE):]) if word.startswith(PURPOSE) and len(word) > len(PURPOSE)
                    else clean(word) for word in key.split(" "))


def _why_held(wording: str, key: str, clean: Callable[[str], str], names: list[str]) -> str:
    """Why a scrubbed wording (or its key) may not leave the machine, ``""`` when it may."""
    from ..redact import contains_secret, home_names, scrub_paths

    for text in (wording, key):
        if "[REDACTED" in text.upper() or contains_secret(text):
            return "secret"
    for text in (wording, key):
        if names and scrub_paths(text, "", "", names) != text:
            return "user name"
        if home_names(text) or clean(text) != text:
            return "path"
    return ""


def _pseudonyms_before(paths: Paths, repo: Repository, person: str) -> tuple[list[str], bool]:
    """This person's former pseudonyms for the repository, and whether the salt changed since the last dry run.

    The last dry run's record names the pseudonym it showed; a different one for the same repository means a new
    salt (a lost or replaced ``team-salt``). The old pseudonym then goes with every row, so a team gate that also
    reads the old export counts this person once.
    """
    seen = read_json(paths.export_seen, None)
    if not isinstance(seen, dict) or seen.get("repository") != repo.identity:
        return [], False
    before = [str(p) for p in seen.get("formerly", []) if isinstance(p, str) and _PSEUDONYM.fullmatch(p)]
    last = str(seen.get("person") or "")
    if _PSEUDONYM.fullmatch(last) and last != person:
        return [p for p in before if p != person] + [last], True
    return [p for p in before if p != person], False


_PSEUDONYM = re.compile(r"[0-9a-f]{16}")


def _block_of(atom: dict[str, Any], key: bytes, repo: Repository, clean: Callable[[str], str]) -> str:
    """The pasted block an atom came from, as an HMAC under the person's salt of the turn's scrubbed text.

    Atoms of one pasted turn share its quote, so they share this id and count as one session at most; the id is
    keyed by the salt and read from the scrubbed quote only, so it tells no one what was pasted, nor whose home.
    """
    from ..redact import neutralise

    block = str(atom.get("block") or "")
    quote = " ".join(clean(neutralise(str(atom.get("quote") or ""))).split())
    if not (_PSEUDONYM.fullmatch(block) and quote):
        return ""
    return pseudonym(key, "block", repo.identity, quote)


def build(paths: Paths, since: str = "") -> Export:
    """The rows this person would export from this repository (reads the store, writes nothing but the salt)."""
    from ..redact import neutralise, os_user_names, scrubber

    repo = repository(paths)
    key = salt(paths)
    person = pseudonym(key, "person", repo.identity)
    formerly, salt_changed = _pseudonyms_before(paths, repo, person)
    clean = scrubber(str(paths.project_root))
    names = os_user_names()
    decided = _decided(paths)
    held: Counter[str] = Counter()
    other = 0
    rows: list[dict[str, Any]] = []
    for atom in _atoms(paths):
        if str(atom.get("project", "")) not in ("", paths.project_name):
            other += 1
            continue
        day = str(atom.get("day", ""))
        if since and (not day or day < since):
            continue
        if atom.get("redacted"):
            held["redacted"] += 1
            continue
        wording = " ".join(clean(neutralise(str(atom.get("text", "")))).split())
        reverses = " ".join(clean(neutralise(str(atom.get("reverses") or ""))).split())
        claim = atom_key({"text": wording, "reverses": reverses}).text
        why = (_why_held(wording, key_words(claim), clean, names)
               or (_why_held(reverses, "", clean, names) if reverses else ""))
        why = why or decided.withheld_atoms.get(str(atom.get("id", ""))) or decided.withheld_keys.get(claim, "")
        if why:
            held[why] += 1
            continue
        if not claim:  # nothing but scaffolding: no claim to count
            continue
        session = str(atom.get("session", ""))
        rows.append({
            "claim": claim,
            "kind": str(atom.get("kind", "instruction")),
            "ts": str(atom.get("timestamp", "")),
            "day": day,
            "session": pseudonym(key, "session", repo.identity, session) if session else "",
            "project": repo.identity,
            "person": person,
            "block": _block_of(atom, key, repo, clean),
            "stated": int(bool(atom.get("stated"))),
            "redacted": 0,
            "contested": int(claim in decided.contested),
            "text": wording,
            "format": FORMAT_VERSION,
            "formerly": ",".join(formerly),
        })
    rows.sort(key=lambda r: (r["claim"], r["ts"], r["session"], r["text"]))
    return Export(rows=rows, repository=repo, person=person, since=since,
                  held_back={why: held[why] for why in HELD if held[why]}, other_projects=other,
                  formerly=formerly, salt_changed=salt_changed)


def record_seen(paths: Paths, export: Export) -> None:
    """The dry run's one write: a digest of the rows it showed, so the export can prove they were seen, and the
    pseudonyms they name, so the next export notices a new salt."""
    write_json(paths.export_seen, {"digest": export.digest, "rows": len(export.rows), "since": export.since,
                                   "at": iso(now()), "repository": export.repository.identity,
                                   "person": export.person, "formerly": list(export.formerly)})


def check_seen(paths: Paths, export: Export) -> None:
    """Refuse to export rows the person has not been shown by ``export --dry-run``."""
    seen = read_json(paths.export_seen, None)
    again = "agent-memory export --dry-run" + (f" --since {export.since}" if export.since else "")
    if not isinstance(seen, dict) or "digest" not in seen:
        raise NotSeen(f"nothing is exported that you have not seen: run '{again}' first, then export again")
    if seen.get("digest") != export.digest:
        raise NotSeen(f"the rows to export ({len(export.rows)}) differ from what the last dry run showed "
                      f"({seen.get('rows', '?')}): run '{again}' to see them, then export again")


def default_out(export: Export, fmt: str) -> Path:
    """A file name that does not clash when a team gathers everyone's exports in one folder."""
    return Path(f"memory-export-{export.person[:8]}.{fmt}")


def write(export: Export, out: Path, fmt: str = "jsonl") -> None:
    """Write the rows as JSON lines, or as Parquet through DuckDB (the ``[team]`` extra), atomically."""
    if fmt == "jsonl":
        body = "".join(json.dumps({c: r[c] for c in EXPORT_COLUMNS}, ensure_ascii=False) + "\n" for r in export.rows)
        atomic_write(out, body)
        return
    if fmt != "parquet":
        raise ValueError(f"unknown export format {fmt!r}")
    atomic_write(out, parquet_bytes(export.rows))


def parquet_bytes(rows: list[dict[str, Any]]) -> bytes:
    """The rows as one Parquet file's bytes (DuckDB writes it; the caller writes the file atomically)."""
    import tempfile

    duckdb = need_duckdb("Parquet exports")
    ddl = _export_ddl()
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "rows.parquet"
        db = duckdb.connect(":memory:")
        try:
            db.execute(ddl)
            if rows:
                db.executemany(f"INSERT INTO export_rows VALUES ({', '.join('?' * len(EXPORT_COLUMNS))})",
                               [tuple(r[c] for c in EXPORT_COLUMNS) for r in rows])
            db.execute(f"COPY export_rows TO '{target.as_posix()}' (FORMAT PARQUET)")
        finally:
            db.close()
        return target.read_bytes()


def _export_ddl() -> str:
    columns = ", ".join(f"{name} {kind} NOT NULL" for name, (kind, _meaning) in EXPORT_COLUMNS.items())
    return f"CREATE TABLE export_rows ({columns})"


def need_duckdb(what: str) -> Any:
    """The duckdb module, or one line saying which extra brings it."""
    try:
        import duckdb
    except ImportError:
        raise MissingExtra(f"{what} need DuckDB: pip install 'agent-memory[team]'") from None
    return duckdb
