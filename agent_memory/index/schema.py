"""The index's tables: plain rows, and FTS5 tables kept in step with them.

Each searchable table (``docs``: every row; ``keys``: one row per claim key) gets the same
pair of external-content FTS5 tables, ``<table>_words`` (porter stemming, bm25) and
``<table>_tri`` (trigrams, only for texts holding CJK), generated here once rather than typed
out per table. A ``docs`` row keeps what ranking and the hooks read; the rest of a record
(its quote, transcript path, project) stays in its source file, at the row's byte offset.
A file whose ``meta.schema`` is not ``SCHEMA_VERSION`` is dropped and rebuilt from its
sources. Nothing is imported: the prompt hook reads ``SCHEMA_VERSION`` from here.
"""

from __future__ import annotations

SCHEMA_VERSION = "10"

# Only texts holding CJK go into the trigram tables, and of a document only its CJK runs (``docs.cjk``):
# trigram routes serve CJK query pieces alone, which lie inside one run, and the English around them was
# most of the table (and of what an ingest spent in FTS5). (A superset of both the query planner's and
# terms.py's CJK ranges.)
CJK_CLASS = "[\u3005-\u3007\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
CJK_GLOB = f"*{CJK_CLASS}*"
CJK_JOIN = " "  # between a document's CJK runs: no trigram of CJK characters alone spans it

WORDS_TOKENIZER = "porter unicode61 remove_diacritics 2"
TRIGRAM_TOKENIZER = "trigram"

# The docs table's own indexes. A new index file is filled without them and they are made once at the end:
# sorting every row once costs a fifth of keeping four b-trees in order row by row (hash ids land all over them).
# Its ids' index too (a UNIQUE column's could not be dropped): the fill keeps its ids apart itself meanwhile.
DOCS_INDEXES = (
    ("docs_id", "CREATE UNIQUE INDEX IF NOT EXISTS docs_id ON docs(id)"),
    ("docs_source", "CREATE INDEX IF NOT EXISTS docs_source ON docs(source)"),
    ("docs_ref", "CREATE INDEX IF NOT EXISTS docs_ref ON docs(ref)"),
    ("docs_claim", "CREATE INDEX IF NOT EXISTS docs_claim ON docs(claim, session) WHERE claim != ''"),
    ("docs_span", "CREATE INDEX IF NOT EXISTS docs_span ON docs(span) WHERE span IS NOT NULL"),
)

# A docs row holds what ranking and the hooks read, and where its record is: ``at``, the byte offset of its
# line in the source file, from which a shown hit's other fields (quote, transcript path, project…) are read;
# ``place`` (a ``places`` row: session and transcript) and ``line`` say where it was said, for telling one
# exchange from its neighbours; ``stamp`` is the record's own timestamp where it is not ``date``; ``session``
# is filled for claim rows only (the prompt hook counts evidence by it); ``cjk`` is what ``docs_tri`` indexes,
# and ``span`` (rows with CJK only) the whole text's length in trigrams, by which the trigram routes weigh a
# match as bm25 over the whole text would.
_TABLES = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(
    name TEXT PRIMARY KEY, path TEXT NOT NULL, sig TEXT NOT NULL,
    offset INTEGER NOT NULL DEFAULT 0, head TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS places(
    rowid INTEGER PRIMARY KEY, session TEXT NOT NULL, transcript TEXT NOT NULL, UNIQUE(session, transcript));
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, source TEXT NOT NULL,
    kind TEXT NOT NULL, ref TEXT NOT NULL, date TEXT NOT NULL, text TEXT NOT NULL,
    at INTEGER NOT NULL, place INTEGER, line INTEGER, stamp TEXT,
    claim TEXT NOT NULL DEFAULT '', session TEXT NOT NULL DEFAULT '', extra TEXT NOT NULL DEFAULT '',
    cjk TEXT NOT NULL DEFAULT '', span INTEGER);
{docs_indexes}
CREATE TABLE IF NOT EXISTS contested(key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys(
    rowid INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, text TEXT NOT NULL, terms TEXT NOT NULL,
    last TEXT NOT NULL, redacted INTEGER NOT NULL, extra TEXT NOT NULL DEFAULT '');
""".replace("{docs_indexes}", "".join(f"{create};\n" for _name, create in DOCS_INDEXES).rstrip("\n"))

# a claim key's row follows its atoms: made by the first (``KEY_UPSERT``, run by the writer for each new
# atom in order), its date and redaction raised by each later one, dropped with the last
KEY_UPSERT = (
    "INSERT INTO keys(key, text, terms, last, redacted, extra) VALUES (?,?,?,?,?,?) "
    "ON CONFLICT(key) DO UPDATE SET last = max(last, excluded.last), redacted = max(redacted, excluded.redacted)"
)
_KEY_TRIGGERS = """
CREATE TRIGGER IF NOT EXISTS docs_key_ad AFTER DELETE ON docs
    WHEN old.claim != '' AND NOT EXISTS (SELECT 1 FROM docs WHERE claim = old.claim AND claim != '') BEGIN
    DELETE FROM keys WHERE key = old.claim;
END;
"""

# every table this schema creates, for dropping an index of another version (FTS tables first)
TABLES = ("docs_words", "docs_tri", "keys_words", "keys_tri", "keys", "docs", "places", "contested", "claim_of", "sources",
          "meta")


# What an FTS5 table gathers in memory before it writes a segment (its own default is 1 MB): a rebuild fills each table
# with one statement, and at 1 MB the 224k rows of a 100k-atom store were written as many small segments and merged
# again (the docs' words took 1.65 s of CPU, 1.3 s with this). Kept in the table's config: written once, with it.
FTS_PENDING_BYTES = 32 << 20


def external_fts(name: str, content: str, columns: tuple[str, ...], tokenize: str, trigger: str, when: str = "") -> str:
    """An FTS5 table over ``columns`` of ``content`` (external content) and the trigger that takes a deleted row out.

    ``when`` limits which rows it holds (a condition on the row, written with ``{row}`` for
    ``new`` or ``old``); ``trigger`` prefixes the trigger's name. Rows go in by batch: the writer
    adds each batch with one ``fill`` statement.
    """
    on_delete = f" WHEN {when.format(row='old')}" if when else ""
    names = ", ".join(columns)
    old = ", ".join(f"old.{c}" for c in columns)
    return f"""
CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5(
    {names}, content='{content}', content_rowid='rowid', tokenize='{tokenize}');
INSERT INTO {name}({name}, rank) VALUES ('hashsize', {FTS_PENDING_BYTES});
CREATE TRIGGER IF NOT EXISTS {trigger}_ad AFTER DELETE ON {content}{on_delete} BEGIN
    INSERT INTO {name}({name}, rowid, {names}) VALUES ('delete', old.rowid, {old});
END;
"""


def fill(name: str, content: str, columns: tuple[str, ...], when: str = "") -> str:
    """The statement that indexes the rows of ``content`` after rowid ``?`` in one of its FTS tables."""
    names = ", ".join(columns)
    also = f" AND {when.format(row=content)}" if when else ""
    return f"INSERT INTO {name}(rowid, {names}) SELECT rowid, {names} FROM {content} WHERE rowid > ?{also}"


def _searchable(table: str, tri_columns: tuple[str, ...], tri_rows: str) -> str:
    """The words and trigram tables of one searchable table.

    The words table also indexes ``extra``: the words inside the text's identifiers that the
    tokenizer cannot see apart (``getUserName`` → get user name, ``python3`` → python).
    """
    return external_fts(f"{table}_words", table, _WORDS_COLUMNS, WORDS_TOKENIZER, table) + external_fts(
        f"{table}_tri", table, tri_columns, TRIGRAM_TOKENIZER, f"{table}_tri", tri_rows
    )


_WORDS_COLUMNS = ("text", "extra")
_KEYS_CJK = f"{{row}}.text GLOB '{CJK_GLOB}'"
_DOCS_CJK = "{row}.cjk != ''"

# Documents arrive by the thousand (an ingest, a rebuild): one statement per batch indexes them in
# about two thirds of the time a trigger per row takes, and packs the index tighter. Claim keys arrive with
# their atoms, a batch's new keys at once, and are indexed so too: a row indexed by a trigger is a statement
# of its own, and FTS5 writes a segment of the index at every statement's end (53k segments, merged again
# and again, for the keys of 85k atoms).
DOCS_FILL = (fill("docs_words", "docs", _WORDS_COLUMNS), fill("docs_tri", "docs", ("cjk",), _DOCS_CJK))
KEYS_FILL = (fill("keys_words", "keys", _WORDS_COLUMNS), fill("keys_tri", "keys", ("text",), _KEYS_CJK))


DDL = _TABLES + _searchable("docs", ("cjk",), _DOCS_CJK) + _searchable("keys", ("text",), _KEYS_CJK) + _KEY_TRIGGERS


def drop_all() -> str:
    """SQL that removes every table of any schema version."""
    return "".join(f"DROP TABLE IF EXISTS {name};" for name in TABLES)
