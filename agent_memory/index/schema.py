"""The index's tables: plain rows, and FTS5 tables kept in step with them by triggers.

Each searchable table (``docs``: every row; ``keys``: one row per claim key) gets the same
pair of external-content FTS5 tables, ``<table>_words`` (porter stemming, bm25) and
``<table>_tri`` (trigrams, only for texts holding CJK), generated here once rather than typed
out per table. A file whose ``meta.schema`` is not ``SCHEMA_VERSION`` is dropped and rebuilt
from its sources. Nothing is imported: the prompt hook reads ``SCHEMA_VERSION`` from here.
"""

from __future__ import annotations

SCHEMA_VERSION = "6"

# Only texts holding CJK go into the trigram tables: trigram routes serve CJK query terms alone, and
# indexing every English chunk three characters at a time was most of what an ingest spent in FTS5.
# (A superset of both the query planner's and terms.py's CJK ranges.)
CJK_GLOB = "*[\u3005-\u3007\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]*"

WORDS_TOKENIZER = "porter unicode61 remove_diacritics 2"
TRIGRAM_TOKENIZER = "trigram"

_TABLES = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(
    name TEXT PRIMARY KEY, path TEXT NOT NULL, sig TEXT NOT NULL,
    offset INTEGER NOT NULL DEFAULT 0, head TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
    kind TEXT NOT NULL, ref TEXT NOT NULL, date TEXT NOT NULL, text TEXT NOT NULL, meta TEXT NOT NULL,
    claim TEXT NOT NULL DEFAULT '', terms TEXT NOT NULL DEFAULT '', session TEXT NOT NULL DEFAULT '',
    extra TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS docs_source ON docs(source);
CREATE INDEX IF NOT EXISTS docs_ref ON docs(ref);
CREATE INDEX IF NOT EXISTS docs_claim ON docs(claim, session) WHERE claim != '';
CREATE TABLE IF NOT EXISTS contested(key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS keys(
    rowid INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, text TEXT NOT NULL, terms TEXT NOT NULL,
    last TEXT NOT NULL, redacted INTEGER NOT NULL, extra TEXT NOT NULL DEFAULT '');
"""

# a claim key's row follows its atoms: made by the first, its date and redaction raised by each
# later one, dropped with the last
_KEY_TRIGGERS = """
CREATE TRIGGER IF NOT EXISTS docs_key_ai AFTER INSERT ON docs WHEN new.claim != '' BEGIN
    INSERT INTO keys(key, text, terms, last, redacted, extra)
        VALUES (new.claim, new.text, new.terms, new.date, coalesce(json_extract(new.meta, '$.redacted'), 0), new.extra)
        ON CONFLICT(key) DO UPDATE SET last = max(last, excluded.last), redacted = max(redacted, excluded.redacted);
END;
CREATE TRIGGER IF NOT EXISTS docs_key_ad AFTER DELETE ON docs
    WHEN old.claim != '' AND NOT EXISTS (SELECT 1 FROM docs WHERE claim = old.claim AND claim != '') BEGIN
    DELETE FROM keys WHERE key = old.claim;
END;
"""

# every table this schema creates, for dropping an index of another version (FTS tables first)
TABLES = ("docs_words", "docs_tri", "keys_words", "keys_tri", "keys", "docs", "contested", "sources", "meta")


def external_fts(name: str, content: str, columns: tuple[str, ...], tokenize: str, trigger: str, when: str = "",
                 batched: bool = False) -> str:
    """An FTS5 table over ``columns`` of ``content`` (external content) and the triggers that keep it in step.

    ``when`` limits which rows it holds (a condition on the row, written with ``{row}`` for
    ``new`` or ``old``); ``trigger`` prefixes the trigger names. A ``batched`` table has no
    insert trigger: its writer adds each batch of rows with one ``fill`` statement instead.
    """
    on_insert = f" WHEN {when.format(row='new')}" if when else ""
    on_delete = f" WHEN {when.format(row='old')}" if when else ""
    names = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    insert = "" if batched else f"""
CREATE TRIGGER IF NOT EXISTS {trigger}_ai AFTER INSERT ON {content}{on_insert} BEGIN
    INSERT INTO {name}(rowid, {names}) VALUES (new.rowid, {new});
END;"""
    return f"""
CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5(
    {names}, content='{content}', content_rowid='rowid', tokenize='{tokenize}');{insert}
CREATE TRIGGER IF NOT EXISTS {trigger}_ad AFTER DELETE ON {content}{on_delete} BEGIN
    INSERT INTO {name}({name}, rowid, {names}) VALUES ('delete', old.rowid, {old});
END;
"""


def fill(name: str, content: str, columns: tuple[str, ...], when: str = "") -> str:
    """The statement that indexes the rows of ``content`` after rowid ``?`` in a batched FTS table."""
    names = ", ".join(columns)
    also = f" AND {when.format(row=content)}" if when else ""
    return f"INSERT INTO {name}(rowid, {names}) SELECT rowid, {names} FROM {content} WHERE rowid > ?{also}"


def _searchable(table: str, batched: bool = False) -> str:
    """The words and trigram tables of one searchable table.

    The words table also indexes ``extra``: the words inside the text's identifiers that the
    tokenizer cannot see apart (``getUserName`` → get user name, ``python3`` → python).
    """
    return external_fts(f"{table}_words", table, _WORDS_COLUMNS, WORDS_TOKENIZER, table, batched=batched) + external_fts(
        f"{table}_tri", table, _TRI_COLUMNS, TRIGRAM_TOKENIZER, f"{table}_tri", _CJK_ROW, batched
    )


_WORDS_COLUMNS = ("text", "extra")
_TRI_COLUMNS = ("text",)
_CJK_ROW = f"{{row}}.text GLOB '{CJK_GLOB}'"

# Documents arrive by the thousand (an ingest, a rebuild): one statement per batch indexes them in
# about two thirds of the time a trigger per row takes, and packs the index tighter. Claim keys keep
# their triggers: they are made and raised one by one, by the docs trigger below.
DOCS_FILL = (fill("docs_words", "docs", _WORDS_COLUMNS), fill("docs_tri", "docs", _TRI_COLUMNS, _CJK_ROW))


DDL = _TABLES + _searchable("docs", batched=True) + _searchable("keys") + _KEY_TRIGGERS


def drop_all() -> str:
    """SQL that removes every table of any schema version."""
    return "".join(f"DROP TABLE IF EXISTS {name};" for name in TABLES)
