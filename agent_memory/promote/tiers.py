"""The tiers as files: L1 atoms and chunks, L2 and L3 claims, decisions, the project registry.

Also says which files feed the shared index and how each record becomes a row.
Standard library only (hooks read L2/L3 and search L1 through here).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import StoreError
from ..shapes import CLAIM, CLAIM_REQUIRED, DECISION, DECISION_REQUIRED, atom_ok, problem, read_committed
from ..store import Paths, StoreLock, read_json, read_jsonl, refuse_foreign_store, write_json

if TYPE_CHECKING:  # the index loads only for the commands that read or write it
    from ..claims.cache import ReadL1
    from ..index import Index, Row, Source


def iter_atoms(paths: Paths) -> Iterator[dict[str, Any]]:
    """Every atom in L1, in the order written (a torn, corrupt or wrong-shaped line is skipped)."""
    for _line, record in read_jsonl(paths.atoms):
        if record.get("id") and atom_ok(record):
            yield record


def load_claims(path: Path, strict: bool = False) -> list[dict[str, Any]]:
    """The claims of an L2 or L3 file, in file order; a wrong-shaped line is reported and skipped
    (``strict``, for code that rewrites the file and so would drop it: ``MalformedLine``)."""
    return [r for _line, r in read_committed(path, CLAIM, CLAIM_REQUIRED, strict) if r["id"]]


def load_decisions(path: Path) -> list[dict[str, Any]]:
    """Human decisions (reject, verify, resolve), oldest first; a wrong-shaped line is reported and skipped."""
    return [r for _line, r in read_committed(path, DECISION, DECISION_REQUIRED)]


# ---------------------------------------------------------------- the registry of projects


def load_registry(paths: Paths) -> dict[str, dict[str, str]]:
    """Known projects by name: ``{"store": abs path, "root": abs path}`` (local file only)."""
    found = read_json(paths.registry, {})
    projects = found.get("projects", {}) if isinstance(found, dict) else {}
    return {k: v for k, v in projects.items() if isinstance(v, dict) and isinstance(v.get("store"), str)}


def register_project(paths: Paths) -> None:
    """Record this project's store in the user registry (needed by the L2→L3 gate).

    Projects share the registry: it is re-read and written under the user store's lock, or two
    projects ingesting at once would each write back a registry without the other.
    """
    entry = {"store": str(paths.store), "root": str(paths.project_root)}
    try:
        if load_registry(paths).get(paths.project_name) == entry:
            return
        with StoreLock(paths.user):
            projects = load_registry(paths)
            projects[paths.project_name] = entry
            write_json(paths.registry, {"projects": projects})
    except StoreError as exc:
        raise OSError(str(exc)) from exc  # callers treat the registry as optional: they catch OSError


# ---------------------------------------------------------------- index sources


def _l1_row(kind: str) -> Any:
    """How an L1 record (an atom or a past-session chunk) becomes a row, citing its line.

    An atom's row carries its claim key, which groups observations for prompt recall.
    """
    from ..claims.key import atom_key
    from ..index import Row

    def make(record: dict[str, Any]) -> Row | None:
        if not record.get("id") or not isinstance(record.get("text"), str) or (kind == "atom" and not atom_ok(record)):
            return None
        meta = {
            "session": record.get("session", ""),
            "transcript": record.get("transcript", ""),
            "line": record.get("line", 0),
            "timestamp": record.get("timestamp", ""),
            "quote": record.get("quote", ""),
            "project": record.get("project", ""),
        }
        if kind == "atom":
            meta["atom_kind"] = record.get("kind", "")
            meta["redacted"] = bool(record.get("redacted"))
        key = atom_key(record) if kind == "atom" else None
        claim = key.text if key is not None and key.tokens else ""
        return Row(kind=kind, ref=str(record["id"]), text=record["text"], date=str(record.get("timestamp", "")), meta=meta,
                   claim=claim)

    return make


def _claim_row(tier: str) -> Any:
    from ..index import Row

    def make(record: dict[str, Any]) -> Row | None:
        if not record.get("id") or problem(record, CLAIM, CLAIM_REQUIRED):
            return None
        first = (record.get("sources") or [{}])[0]
        return Row(
            kind="claim",
            ref=str(record["id"]),
            text=record["text"],
            date=str(record.get("adopted_at", "") or record.get("first_seen", "")),
            meta={
                "tier": tier,
                "session": first.get("session", ""),
                "transcript": "",
                "line": first.get("line", 0),
                "timestamp": first.get("timestamp", ""),
                "quote": first.get("quote", ""),
                "contested": bool(record.get("contested")),
            },
        )

    return make


def index_sources(paths: Paths, atoms_read: "ReadL1 | None" = None) -> list[Source]:
    """The files that feed the project's index; ``atoms_read``: L1's atoms as just read and parsed, with where each
    line starts (``claims.cache.make_all_keys``), for a read of the whole file to take rather than parse again."""
    from ..index import Source

    parsed = (atoms_read[0], dict(atoms_read[1])) if atoms_read is not None else None
    return [
        Source("atoms", paths.atoms, _l1_row("atom"), append_only=True, parsed=parsed),
        Source("chunks", paths.chunks, _l1_row("chunk"), append_only=True),
        Source("L2", paths.l2, _claim_row("L2")),
        Source("L3", paths.l3, _claim_row("L3")),
    ]


def open_index(paths: Paths, sync: bool = True, rederive: bool = True,
               atoms_read: "ReadL1 | None" = None) -> Index:
    """The project's index, brought up to date first unless ``sync`` is False. With ``rederive`` (the
    writers), an index whose claim keys older claim code made is made again; the prompt hook passes False and
    reads what it finds, so an upgrade never rebuilds a whole index inside a hook. ``atoms_read``: as
    ``index_sources``.

    A store that cannot hold an index file (missing, read-only) gets one in memory,
    built from the same sources: slower, never wrong.
    """
    from ..index import Index

    refuse_foreign_store(paths.store)  # no index.db written through a .memory that leads out of the project
    try:
        paths.store.mkdir(parents=True, exist_ok=True)
        index = Index(paths.index, index_sources(paths, atoms_read), derived=_claims_version() if rederive else "")
        if sync:
            index.sync()
        return index
    except (OSError, _sqlite_errors()):
        index = Index(":memory:", index_sources(paths, atoms_read))
        index.sync()
        return index


def _claims_version() -> str:
    """The version of the code that makes claim keys, which the index keeps per atom."""
    from ..claims.cache import code_version

    return code_version()


def _sqlite_errors() -> type[Exception]:
    import sqlite3

    return sqlite3.Error
