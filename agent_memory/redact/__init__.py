"""Redaction filter: every atom, quote and index row passes through here before it is stored.

Secrets are replaced by ``[REDACTED:<rule_id>]``. The rules are data (:mod:`.rules`, with
the value checks they share in :mod:`.checks`); :mod:`.scanner` compiles and runs them;
:mod:`.scrub` removes user names and home folders from text that is committed or shared;
:mod:`.corpus` measures the filter on a labelled corpus.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# name → the module it lives in: loaded when first asked for, so that a caller who only scrubs paths
# (staging's unchanged files, for one) does not pay for compiling the rules
_HOMES = {
    "corpus_report": "corpus",
    "RULES": "rules", "Rule": "rules",
    "contains_secret": "scanner", "redact": "scanner",
    "home_names": "scrub", "neutralise": "scrub", "os_user_names": "scrub", "scrub_paths": "scrub",
    "scrubber": "scrub", "session_scrubber": "scrub",
}
_MODULES = frozenset({"assignments", "checks", "corpus", "joins", "rules", "scanner", "scrub"})

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return import_module(f"{__name__}.{name}")
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
