"""What older rules let into the store, cut out of it: L1 redacted again when the rules change.

Atoms and chunks are redacted before they are written, by the rules of that day. When the rules'
code changes (``rules_digest``), the next writer — ingest, reindex — reads every atom and chunk
once under the store lock, redacts their text and quote again, drops fields no longer written
(``secret_hash``), and rewrites a file only when a line of it changed (streamed, atomically). When
anything changed, the index and the claim tables are deleted and built again from the new L1. ``L1/redaction.json`` records
the rules L1 was last checked against. Standard library only.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..fastjson import JSON_ERRORS
from ..store import Paths, read_json, remove_database, rewrite_lines, write_json

RULE_FILES = ("rules.py", "checks.py", "assignments.py", "scanner.py", "joins.py")
TEXT_FIELDS = ("text", "quote")
STALE_FIELDS = ("secret_hash",)  # written by earlier versions; a digest of a secret is not kept either


@lru_cache(maxsize=1)
def rules_digest() -> str:
    """Changes whenever the code that decides what is a secret changes."""
    digest = hashlib.sha1(b"redact-stored-1")
    for name in RULE_FILES:
        digest.update((Path(__file__).with_name(name)).read_bytes())
    return digest.hexdigest()[:16]


def marker(paths: Paths) -> Path:
    return Path(paths.l1_dir) / "redaction.json"


def redact_stored(paths: Paths) -> int:
    """Bring L1 up to the present rules (caller holds the store lock); returns how many records changed."""
    want = rules_digest()
    seen = read_json(marker(paths), {})
    if isinstance(seen, dict) and seen.get("rules") == want:
        return 0
    changed = sum(rewrite_lines(Path(path), _again) for path in (paths.atoms, paths.chunks))
    if changed:
        _discard_derived(paths)
    if Path(paths.l1_dir).is_dir():
        write_json(marker(paths), {"rules": want})
    return changed


def _discard_derived(paths: Paths) -> None:
    """The index and the claim tables go whole, to be built again from the redacted L1: rows deleted in place
    would leave the old text in their files' free pages and in FTS5's segments."""
    for base in (Path(paths.index), Path(paths.claims_db)):
        remove_database(base)


def _again(raw: bytes) -> bytes | None:
    """One stored line redacted by the present rules, or None when they leave it as it is."""
    try:
        record: Any = json.loads(raw)
    except JSON_ERRORS:
        return None  # not a record: its reader skips it, and so does this
    if not isinstance(record, dict):
        return None
    from . import redact

    changed = False
    for name in STALE_FIELDS:
        if name in record:
            del record[name]
            changed = True
    fired: set[str] = set()
    for name in TEXT_FIELDS:
        value = record.get(name)
        if isinstance(value, str) and value:
            found = redact(value)
            if found.rule_ids:
                record[name] = found.text
                fired.update(found.rule_ids)
    if fired:
        changed = True
        record["redacted"] = True
        if isinstance(record.get("redaction_rules"), list):
            record["redaction_rules"] = sorted(set(record["redaction_rules"]) | fired)
    if not changed:
        return None
    return (json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")
