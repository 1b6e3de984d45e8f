"""The claim tables: L1 counted by claim key, kept in SQLite and brought up to date with what ingest appends.

``L1/claims.db`` (derived, rebuildable from L1 at any time) holds one row per claim key (its
identity, claim id and shown wording), one flat row per atom (``atoms``: what the gates count,
no quote, no transcript path), the atom rows of each key of more than one atom folded into one packed
row (``summaries``: what a pass builds a claim from, read without touching the atom rows), each key's
wordings, the blocking buckets as (bucket, key) rows,
the candidate pairs that are more than two claims (``pairs``) and each key's evidence as the gate
statement (``claims/evidence.py``) counts it (``evidence``, recounted only for keys that gained atoms). A writer (ingest, ``promote
--write``) under the store lock folds in only the atoms after the covered prefix of L1 (named by
length and SHA-1); anything else (missing, damaged, rewritten L1, other code or settings) means
building the tables again from L1. Readers never write: the dry run counts atoms the tables do
not cover yet in memory. Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from ..store import Paths
from .key import Key, atom_key

SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE keys (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE, negated INTEGER NOT NULL, tokens TEXT NOT NULL,
                   claim TEXT NOT NULL, shown TEXT NOT NULL);
CREATE TABLE atoms (key INTEGER NOT NULL, id TEXT NOT NULL, offset INTEGER NOT NULL, kind TEXT NOT NULL, ts TEXT NOT NULL,
                    day TEXT NOT NULL, session TEXT NOT NULL, project TEXT NOT NULL, block TEXT NOT NULL,
                    stated INTEGER NOT NULL, redacted INTEGER NOT NULL);
CREATE INDEX atoms_by_key ON atoms (key);
CREATE INDEX keys_by_claim ON keys (claim);
CREATE TABLE texts (key INTEGER NOT NULL, text TEXT NOT NULL, count INTEGER NOT NULL, stamp TEXT NOT NULL,
                    PRIMARY KEY (key, text)) WITHOUT ROWID;
CREATE TABLE buckets (bucket INTEGER NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (bucket, key)) WITHOUT ROWID;
CREATE TABLE pairs (a INTEGER NOT NULL, b INTEGER NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL,
                    ab INTEGER NOT NULL, ba INTEGER NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE TABLE l1_file (identity TEXT NOT NULL);  -- L1's identity when the tables last covered all of it
CREATE TABLE summaries (key INTEGER PRIMARY KEY, first INTEGER NOT NULL, data TEXT NOT NULL);  -- keys of 2+ atoms
CREATE TABLE evidence (claim TEXT NOT NULL, key INTEGER NOT NULL, shown TEXT NOT NULL, observations INTEGER NOT NULL,
                       sessions INTEGER NOT NULL, days INTEGER NOT NULL, stated INTEGER NOT NULL,
                       redacted INTEGER NOT NULL, PRIMARY KEY (claim, key)) WITHOUT ROWID;
"""
_SEP = "\x1f"  # joins a key's tokens (whitespace to Python, so never inside a token)


def db_path(paths: Paths) -> Path:
    return Path(paths.claims_db)


class NotPlain(Exception):
    """An atom off the schema (a kind, session, day or project that is not text): such a store keeps no tables."""


def bucket_id(bucket: tuple[str, ...]) -> int:
    """A bucket as a 63-bit number (the tables hold numbers, not the tuples of tokens)."""
    return int.from_bytes(hashlib.sha1(_SEP.join(bucket).encode("utf-8")).digest()[:8], "big") >> 1


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute("PRAGMA secure_delete=ON")  # rows of an L1 redacted again leave no old wording in free pages
    return con


def open_for_reading(paths: Paths, version: str, similarity: float) -> sqlite3.Connection | None:
    """The tables when they exist and were made by this code with these settings, read-only; else None."""
    path = db_path(paths)
    if not path.is_file():
        return None
    try:
        # autocommit: a reader's own temporary tables must not hold a transaction open on the tables
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False, isolation_level=None)
        # a reader's temporary tables (keys it asks about) live in memory: in a file, each row of one was a
        # transaction of its own, written and truncated (thousands of system calls at 100k atoms)
        con.execute("PRAGMA temp_store=MEMORY")
        if meta(con).get("version") != version or meta(con).get("similarity") != repr(similarity):
            con.close()
            return None
        return con
    except sqlite3.Error:
        return None


def meta(con: sqlite3.Connection) -> dict[str, str]:
    return dict(con.execute("SELECT name, value FROM meta"))


def covered(con: sqlite3.Connection) -> tuple[int, str]:
    """The L1 prefix the tables cover: (bytes, SHA-1)."""
    found = meta(con)
    return int(found.get("l1_bytes", "0")), found.get("l1_sha1", "")


@contextlib.contextmanager
def writing(paths: Paths, version: str, similarity: float) -> Iterator[sqlite3.Connection]:
    """The tables open for a writer (who holds the store lock): made anew when missing, damaged or foreign."""
    path = db_path(paths)
    con = None
    try:
        con = _connect(path)
        found = meta(con)
        if found.get("version") != version or found.get("similarity") != repr(similarity):
            raise sqlite3.DatabaseError("made by other code or settings")
    except sqlite3.Error:
        if con is not None:
            con.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        con = _connect(path)
        # one transaction: each statement on its own would write and sync a journal of its own
        con.execute("BEGIN")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                con.execute(statement)
        # they cover L1's first 0 bytes, whose SHA-1 is that of nothing
        con.executemany("INSERT INTO meta VALUES (?, ?)", [("version", version), ("similarity", repr(similarity)),
                                                           ("l1_bytes", "0"), ("l1_sha1", hashlib.sha1().hexdigest())])
        con.execute("COMMIT")
    try:
        yield con
    finally:
        con.close()


def reset(con: sqlite3.Connection) -> None:
    """Empty every table (L1 was rewritten: everything is counted again), in one transaction."""
    con.execute("BEGIN")
    for table in ("keys", "atoms", "texts", "buckets", "pairs", "summaries", "evidence"):
        con.execute(f"DELETE FROM {table}")
    con.execute("UPDATE meta SET value = '0' WHERE name = 'l1_bytes'")
    con.execute("DELETE FROM l1_file")
    con.execute("COMMIT")


def _plain(atom: dict[str, Any]) -> tuple[Any, ...]:
    values = (atom.get("kind", "instruction"), atom.get("timestamp", "") or "", atom.get("day", ""),
              atom.get("session", ""), atom.get("project", ""))
    block = atom.get("block")
    if not all(type(v) is str for v in values):
        raise NotPlain("kind, timestamp, day, session or project")
    return (*values, block if block and isinstance(block, str) else "",
            1 if atom.get("stated") else 0, 1 if atom.get("redacted") else 0)


def _among(con: sqlite3.Connection, sql: str, values: Iterable[Any]) -> Iterator[tuple[Any, ...]]:
    """The rows of ``sql`` (whose ``{marks}`` is an ``IN`` list) for these values, 500 at a time (SQLite's
    limit on parameters is lower on old builds)."""
    wanted = list(values)
    for start in range(0, len(wanted), 500):
        part = wanted[start:start + 500]
        yield from con.execute(sql.format(marks=",".join("?" * len(part))), part)


def key_ids(con: sqlite3.Connection, texts: Iterable[str]) -> dict[str, int]:
    return dict(_among(con, "SELECT text, id FROM keys WHERE text IN ({marks})", texts))


def add_atoms(con: sqlite3.Connection, atoms: list[tuple[int, dict[str, Any]]]) -> tuple[dict[str, Key], dict[str, int],
                                                                                    list[tuple[Any, ...]]]:
    """Insert the rows of these atoms; returns (keys new to the tables, id of every key touched, the rows inserted)."""
    from .wording import short_hash

    keyed = [(offset, atom, atom_key(atom)) for offset, atom in atoms]  # each atom's key once
    by_key: dict[str, Key] = {}
    for _offset, _atom, key in keyed:
        if key.tokens and key.text not in by_key:
            by_key[key.text] = key
    ids = key_ids(con, by_key)
    new = {text: key for text, key in by_key.items() if text not in ids}
    if new:
        # the ids SQLite would give them one insert at a time (the largest so far, plus one), in one statement
        start = int(con.execute("SELECT coalesce(max(id), 0) FROM keys").fetchone()[0]) + 1
        ids.update((text, start + n) for n, text in enumerate(new))
        con.executemany("INSERT INTO keys (id, text, negated, tokens, claim, shown) VALUES (?, ?, ?, ?, ?, '')",
                        [(ids[text], text, 1 if key.negated else 0, _SEP.join(key.tokens), short_hash("claim", text))
                         for text, key in new.items()])
    rows = []
    texts: dict[tuple[int, str], list[Any]] = {}
    for offset, atom, key in keyed:
        if key.text not in ids:
            continue
        ident = ids[key.text]
        plain = _plain(atom)
        rows.append((ident, atom["id"], offset, *plain))
        seen = texts.get((ident, atom["text"]))
        if seen is None:
            texts[(ident, atom["text"])] = [1, plain[1]]
        else:
            seen[0] += 1
            seen[1] = min(seen[1], plain[1])
    con.executemany("INSERT INTO atoms VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    con.executemany("INSERT INTO texts VALUES (?, ?, ?, ?) ON CONFLICT (key, text) DO UPDATE SET "
                    "count = count + excluded.count, stamp = MIN(stamp, excluded.stamp)",
                    [(k, t, c, s) for (k, t), (c, s) in texts.items()])
    return new, {text: ids[text] for text in by_key}, rows


def wordings_of(con: sqlite3.Connection, keys: Iterable[int]) -> dict[int, dict[str, list[Any]]]:
    """``wordings`` of each of these keys, in one statement (a new set of tables asks for every key)."""
    con.execute("CREATE TEMP TABLE IF NOT EXISTS worded (id INTEGER PRIMARY KEY)")
    con.execute("DELETE FROM temp.worded")
    con.executemany("INSERT OR IGNORE INTO temp.worded VALUES (?)", [(k,) for k in keys])
    found: dict[int, dict[str, list[Any]]] = {}
    for key, text, count, stamp in con.execute("SELECT key, text, count, stamp FROM texts WHERE key IN "
                                               "(SELECT id FROM temp.worded) ORDER BY key, text"):
        found.setdefault(key, {})[text] = [count, stamp]
    con.execute("DELETE FROM temp.worded")
    return found


class StoredBuckets(Mapping[tuple[str, ...], list[str]]):
    """The bucket rows, a bucket at a time (members by key text); only looked up, never listed."""

    def __init__(self, con: sqlite3.Connection, names: Mapping[int, str]) -> None:
        self.con, self.names = con, names
        self.found: dict[tuple[str, ...], list[str]] = {}

    def __getitem__(self, bucket: tuple[str, ...]) -> list[str]:
        members = self.found.get(bucket)
        if members is None:
            # a member this reader did not load keeps its place (the bucket's size), under a name no key has
            members = [self.names.get(k, f"\x00{k}") for (k,) in
                       self.con.execute("SELECT key FROM buckets WHERE bucket = ?", (bucket_id(bucket),))]
            self.found[bucket] = members
        if not members:
            raise KeyError(bucket)
        return members

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        raise NotImplementedError("the bucket rows are looked up, never listed")

    def __len__(self) -> int:
        return int(self.con.execute("SELECT COUNT(DISTINCT bucket) FROM buckets").fetchone()[0])


_KEY_COLUMNS = "SELECT id, text, negated, tokens, claim, shown FROM keys"


def load_keys(con: sqlite3.Connection) -> tuple[dict[int, str], dict[str, Key], dict[str, tuple[str, str]]]:
    """(key id → text, text → key, text → (claim id, shown wording)) for every key of the tables."""
    return _keys_of_rows(con.execute(_KEY_COLUMNS))


def _keys_of_rows(rows: Iterable[tuple[Any, ...]]) -> tuple[dict[int, str], dict[str, Key], dict[str, tuple[str, str]]]:
    names: dict[int, str] = {}
    keys: dict[str, Key] = {}
    shown: dict[str, tuple[str, str]] = {}
    for ident, text, negated, tokens, claim, wording in rows:
        names[ident] = text
        keys[text] = Key(bool(negated), tuple(tokens.split(_SEP)) if tokens else ())
        shown[text] = (claim, wording)
    return names, keys, shown


def bucket_members(con: sqlite3.Connection, buckets: Iterable[int]) -> set[int]:
    return {k for (k,) in _among(con, "SELECT key FROM buckets WHERE bucket IN ({marks})", buckets)}


def paired(con: sqlite3.Connection) -> set[int]:
    return {k for (k,) in con.execute("SELECT a FROM pairs UNION SELECT b FROM pairs")}


def load_some_keys(con: sqlite3.Connection, wanted: Iterable[int]) -> tuple[dict[int, str], dict[str, Key]]:
    """(key id → text, text → key) for these key ids."""
    names, keys, _shown = load_keys_of(con, wanted)
    return names, keys


def load_keys_of(con: sqlite3.Connection, wanted: Iterable[int]) -> tuple[dict[int, str], dict[str, Key], dict[str, tuple[str, str]]]:
    """``load_keys`` for these key ids only."""
    return _keys_of_rows(_among(con, _KEY_COLUMNS + " WHERE id IN ({marks})", wanted))


def atom_count(con: sqlite3.Connection) -> int:
    return int(con.execute("SELECT COUNT(*) FROM atoms").fetchone()[0])


def load_pairs(con: sqlite3.Connection, names: Mapping[int, str]) -> dict[tuple[str, str], tuple[str, str, bool, bool]]:
    return {(names[a], names[b]): (kind, reason, bool(ab), bool(ba)) for a, b, kind, reason, ab, ba in
            con.execute("SELECT a, b, kind, reason, ab, ba FROM pairs")}


def save_relations(con: sqlite3.Connection, ids: Mapping[str, int], memberships: list[tuple[int, int]],
                   dropped: Iterable[tuple[str, str]], added: Mapping[tuple[str, str], tuple[str, str, bool, bool]]) -> None:
    """New (bucket, key) rows, and the pairs dropped and added. A count from L1's first line gives its rows as they
    come: it writes with the whole table in its page cache, where sorting a million rows first cost more than it saved."""
    con.executemany("INSERT OR IGNORE INTO buckets VALUES (?, ?)", memberships)
    con.executemany("DELETE FROM pairs WHERE a = ? AND b = ?", [(ids[a], ids[b]) for a, b in dropped])
    con.executemany("INSERT OR REPLACE INTO pairs VALUES (?, ?, ?, ?, ?, ?)",
                    [(ids[a], ids[b], kind, reason, int(ab), int(ba)) for (a, b), (kind, reason, ab, ba) in added.items()])


def count_evidence(con: sqlite3.Connection, keys: Iterable[int]) -> None:
    """Recount these keys' evidence with the gate statement itself (its counts only: the path is the reader's)."""
    from .evidence import evidence_sql

    con.execute("CREATE TEMP TABLE IF NOT EXISTS recount (id INTEGER PRIMARY KEY)")
    con.execute("DELETE FROM temp.recount")
    con.executemany("INSERT OR IGNORE INTO temp.recount VALUES (?)", [(k,) for k in keys])
    con.execute("CREATE TEMP VIEW IF NOT EXISTS recounted AS SELECT key AS claim, kind, ts, day, session, project, "
                "'' AS person, block, stated, redacted, 0 AS contested FROM atoms WHERE key IN (SELECT id FROM temp.recount)")
    # kept in claim-id order with the key's claim id and shown wording, so a pass reads it in one scan, no join
    con.execute("INSERT OR REPLACE INTO evidence SELECT k.claim, k.id, k.shown, e.observations, e.sessions, e.days, "
                "e.stated, e.redacted FROM (" + evidence_sql("recounted", {}) + ") e JOIN keys k ON k.id = e.claim")
    con.execute("DELETE FROM temp.recount")


def evidence_rows(con: sqlite3.Connection) -> Iterator[tuple[Any, ...]]:
    """Every key's evidence by claim id: key id, claim id, shown wording, observations, sessions, days, stated, redacted."""
    return con.execute("SELECT key, claim, shown, observations, sessions, days, stated, redacted FROM evidence "
                       "ORDER BY claim, key")


def refusal_listing(con: sqlite3.Connection, skip: Iterable[int], need: tuple[int, int, int, int],
                    limit: int) -> tuple[int, int, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """For the keys not in ``skip``: (how many, how many of them are not redacted, the first ``limit`` redacted by
    claim id, the ``limit`` others nearest to the gate ``need`` — (sessions, days, stated sessions, stated days)
    — by sessions and days still missing, then claim id); rows as ``evidence_rows``."""
    con.execute("CREATE TEMP TABLE IF NOT EXISTS skipped (id INTEGER PRIMARY KEY)")
    con.execute("DELETE FROM temp.skipped")
    con.executemany("INSERT OR IGNORE INTO temp.skipped VALUES (?)", [(k,) for k in skip])
    rest = "key NOT IN (SELECT id FROM temp.skipped)"
    columns = "key, claim, shown, observations, sessions, days, stated, redacted"
    total, plain = con.execute(f"SELECT count(*), count(*) - total(redacted) FROM evidence WHERE {rest}").fetchone()
    held = con.execute(f"SELECT {columns} FROM evidence WHERE redacted = 1 AND {rest} ORDER BY claim, key LIMIT ?",
                       (limit,)).fetchall()
    missing = ("CASE WHEN stated THEN max(0, :ss - sessions) + max(0, :sd - days) "
               "ELSE max(0, :s - sessions) + max(0, :d - days) END")
    nearest = con.execute(f"SELECT {columns} FROM evidence WHERE redacted = 0 AND {rest} "
                          f"ORDER BY {missing}, claim, key LIMIT :limit",
                          dict(zip(("s", "d", "ss", "sd"), need), limit=limit)).fetchall()
    return int(total), int(plain), held, nearest


def may_pass(con: sqlite3.Connection, sessions: int, days: int, stated_sessions: int, stated_days: int) -> set[int]:
    """Keys whose evidence meets the default or (when stated) the stated gate and is not redacted; and keys
    whose shown wording is not kept."""
    return {k for (k,) in con.execute(
        "SELECT key FROM evidence WHERE shown = '' OR (redacted = 0 AND "
        "((sessions >= ? AND days >= ?) OR (stated = 1 AND sessions >= ? AND days >= ?)))",
        (sessions, days, stated_sessions, stated_days))}


def keys_of_atoms(con: sqlite3.Connection, atom_ids: Iterable[str]) -> set[int]:
    """The keys these atoms are filed under (a decision names its claim's atoms, which outlive a change of key)."""
    return {k for (k,) in _among(con, "SELECT key FROM atoms WHERE id IN ({marks})", sorted(set(atom_ids)))}


def claims_named(con: sqlite3.Connection, claim_ids: Iterable[str]) -> set[int]:
    """The keys whose own claim id is one of these."""
    return {k for (k,) in _among(con, "SELECT id FROM keys WHERE claim IN ({marks})", sorted(set(claim_ids)))}


def _pick(con: sqlite3.Connection, keys: Iterable[int]) -> None:
    con.execute("CREATE TEMP TABLE IF NOT EXISTS picked (id INTEGER PRIMARY KEY)")
    con.execute("DELETE FROM temp.picked")
    con.executemany("INSERT OR IGNORE INTO temp.picked VALUES (?)", [(k,) for k in keys])


def rows_of_keys(con: sqlite3.Connection, keys: Iterable[int]) -> list[tuple[Any, ...]]:
    """Every atom row of these keys (key id, atom id, offset, kind, ts, day, session, project, block, stated,
    redacted), in L1 order."""
    _pick(con, keys)
    rows = con.execute("SELECT key, id, offset, kind, ts, day, session, project, block, stated, redacted "
                       "FROM atoms WHERE key IN (SELECT id FROM temp.picked) ORDER BY rowid").fetchall()
    con.execute("DELETE FROM temp.picked")
    return rows


def save_summaries(con: sqlite3.Connection, packed: Iterable[tuple[int, int, str]]) -> None:
    """Keys' atom rows as a pass reads them, for keys of more than one atom (a key of one is its atom row): (key id,
    where in L1 its first atom is, the rows folded, packed)."""
    con.executemany("INSERT OR REPLACE INTO summaries VALUES (?, ?, ?)", packed)


def summary_rows(con: sqlite3.Connection, keys: Iterable[int] | None = None) -> tuple[
        list[tuple[int, int, str]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """For these keys (every key when None): the packed summaries of those of more than one atom (key id, where its
    first atom is, data), the atom rows of the others (``rows_of_keys`` shape; one atom each, kept once) and
    their wordings (``all_wordings`` shape)."""
    where = ""
    if keys is not None:
        _pick(con, keys)
        where = "WHERE key IN (SELECT id FROM temp.picked)"
    packed = con.execute(f"SELECT key, first, data FROM summaries {where}").fetchall()
    rows = con.execute("SELECT key, id, offset, kind, ts, day, session, project, block, stated, redacted FROM atoms "
                       f"WHERE key NOT IN (SELECT key FROM summaries {where}) {where.replace('WHERE', 'AND')} "
                       "ORDER BY rowid").fetchall()
    texts = con.execute(f"SELECT key, text, count, stamp FROM texts {where}").fetchall()
    if keys is not None:
        con.execute("DELETE FROM temp.picked")
    return packed, rows, texts


def set_covered(con: sqlite3.Connection, size: int, digest: str, identity: str = "") -> None:
    """The tables now cover L1's first ``size`` bytes, whose SHA-1 is ``digest``; ``identity``: the file's identity
    (``l1bytes.identity_text``) when those bytes are the whole file, else ""."""
    con.executemany("UPDATE meta SET value = ? WHERE name = ?", [(str(size), "l1_bytes"), (digest, "l1_sha1")])
    # apart from meta: it names the file, not what the tables hold (two stores of one L1 hold the same tables)
    con.execute("DELETE FROM l1_file")
    if identity:
        con.execute("INSERT INTO l1_file VALUES (?)", (identity,))


def covered_identity(con: sqlite3.Connection) -> str:
    """The identity L1 had when the tables were last brought up to the whole of it ("" when not known)."""
    found = con.execute("SELECT identity FROM l1_file").fetchone()
    return str(found[0]) if found else ""


def set_shown(con: sqlite3.Connection, shown: Mapping[int, str]) -> None:
    con.executemany("UPDATE keys SET shown = ? WHERE id = ?", [(text, ident) for ident, text in shown.items()])


def all_wordings(con: sqlite3.Connection) -> Iterator[tuple[int, str, int, str]]:
    return con.execute("SELECT key, text, count, stamp FROM texts")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
