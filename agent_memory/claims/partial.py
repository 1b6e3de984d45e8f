"""The claim tables read only as far as a pass asks: every key's counted evidence, whole summaries for a few.

Standard library only: the session-end worker stages through here.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any, Iterable, Mapping

from ..errors import StoreError
from ..store import Paths
from . import tables
from .cache import L1View, code_version, summaries_packed
from .l1bytes import identity_text, prefix_hash, tail_lines
from .key import Key
from .relations import Relations, buckets_of, sides


class Partial:
    """The claim tables for a pass that asks only for what it needs.

    Every key's evidence comes as counted rows; whole summaries are read only for the keys the
    pass names (those a relation, an adopted record or a decision touches, and those that may
    pass a gate). Only tables that cover all of L1 are read this way: a pass over tables that are
    behind reads everything (``load``).
    """

    def __init__(self, paths: Paths, con: sqlite3.Connection, size: int, digest: str) -> None:
        self.paths, self.con, self.size, self.digest = paths, con, size, digest
        self._check: threading.Thread | None = None
        self._covers: bool | BaseException = False

    @classmethod
    def open(cls, paths: Paths, similarity: float) -> "Partial | None":
        """The tables when they cover L1 as it stands, else None."""
        found = cls.opening(paths, similarity)
        if found is not None and not found.covers():
            found.close()
            return None
        return found

    @classmethod
    def opening(cls, paths: Paths, similarity: float) -> "Partial | None":
        """The tables, read while L1's covered prefix is hashed beside the reads (tens of megabytes at a long
        history); ``covers`` says whether they cover L1, and nothing read may be used before it says so."""
        con = tables.open_for_reading(paths, code_version(), similarity)
        if con is None:
            return None
        try:
            size, digest = tables.covered(con)
        except sqlite3.Error:
            con.close()
            return None
        found = cls(paths, con, size, digest)
        try:
            known = tables.covered_identity(con)
        except sqlite3.Error:
            known = ""
        if known and known == identity_text(paths.atoms):
            # L1 is the very file the writer counted whole (same device, inode, size and times): nothing to hash
            found._covers = True
            return found
        # hashing and reading the file let the interpreter go: the hash costs the pass little beside its reads
        found._check = threading.Thread(target=found._hash, name="claim tables prefix", daemon=True)
        found._check.start()
        return found

    def _hash(self) -> None:
        try:
            seen = prefix_hash(self.paths.atoms, self.size)
            self._covers = seen is not None and seen.hexdigest() == self.digest and not tail_lines(self.paths.atoms, self.size)
        except BaseException as exc:  # raised again by ``covers``, in the pass's own thread
            self._covers = exc

    def covers(self) -> bool:
        """Whether the tables cover L1 as it stands: its first bytes as they were counted, and no atom after them
        (``StoreError`` when L1 cannot be read)."""
        if self._check is not None:
            self._check.join()
            self._check = None
        if isinstance(self._covers, BaseException):
            raise self._covers
        return self._covers

    def close(self) -> None:
        self.con.close()

    def ids_of(self, texts: Iterable[str]) -> dict[str, int]:
        """Key text → id for the texts the tables hold."""
        return tables.key_ids(self.con, set(texts))

    def claims_named(self, claim_ids: Iterable[str]) -> set[int]:
        return tables.claims_named(self.con, claim_ids)

    def keys_of_atoms(self, atom_ids: Iterable[str]) -> set[int]:
        return tables.keys_of_atoms(self.con, atom_ids)

    def evidence(self) -> list[tuple[Any, ...]]:
        """Every key's evidence by claim id — key id, claim id, shown wording, observations, sessions, days, stated,
        redacted — from the very tables the pass read (else ``StoreError``)."""
        self._unchanged()
        return tables.evidence_rows(self.con).fetchall()

    def _unchanged(self) -> None:
        if tables.covered(self.con) != (self.size, self.digest):
            raise StoreError(f"{self.paths.claims_db} changed while promote read it; run it again")

    def listing(self, skip: set[int], gates: Mapping[str, Any], limit: int) -> tuple[int, int, list[tuple[Any, ...]],
                                                                                   list[tuple[Any, ...]]]:
        """``tables.refusal_listing`` for the keys not in ``skip``, under ``gates`` (else ``StoreError``, as ``evidence``)."""
        self._unchanged()
        need = (int(gates["l2"]["sessions"]), int(gates["l2"]["days"]),
                int(gates["l2_stated"]["sessions"]), int(gates["l2_stated"]["days"]))
        return tables.refusal_listing(self.con, skip, need, limit)

    def may_pass(self, gates: Mapping[str, Any]) -> set[int]:
        """Keys whose counts alone could let them through, and keys with no shown wording kept."""
        return tables.may_pass(self.con, int(gates["l2"]["sessions"]), int(gates["l2"]["days"]),
                               int(gates["l2_stated"]["sessions"]), int(gates["l2_stated"]["days"]))

    def view(self, wanted: set[int], around: list[Key], similarity: float) -> tuple[L1View, set[int]]:
        """L1 as promote sees it, with summaries for ``wanted``, every key in a relation, and every key a
        relation would join to one of ``around`` (keys L1 does not hold: adopted wordings); and the ids of
        the keys it summarised."""
        con = self.con
        paired = tables.paired(con)
        members = tables.bucket_members(con, {tables.bucket_id(side) for k in around for b in buckets_of(k)
                                              for side in (b, *sides(b))})
        names, keys, shown = tables.load_keys_of(con, wanted | paired | members)
        relations = Relations(keys, tables.load_pairs(con, names), tables.StoredBuckets(con, names))
        ids = {text: ident for ident, text in names.items()}
        grown = relations.extend(around, similarity)
        wanted = wanted | paired | {ids[t] for pair in grown.pairs for t in pair if t in ids}
        summaries = summaries_packed(*tables.summary_rows(con, wanted), names, shown)
        # the view's relations know only the keys read: the pass relates ``around`` to them again, as ever
        view = L1View(summaries, relations,
                      self.size, self.digest, covered=self.size, path=self.paths.atoms)
        view.total = tables.atom_count(con)
        return view, wanted
