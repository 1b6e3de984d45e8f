"""How user text reaches FTS5 and LIKE: one quoting for the writer's search and the hooks' reader.

Every term goes into a ``MATCH`` expression as a double-quoted phrase and into ``LIKE`` with
its wildcards escaped, so no query, however odd, is read as FTS5 syntax or a pattern.
Standard library only, and nothing imported: the prompt hook loads it.
"""

from __future__ import annotations

LIKE_ESCAPE = "\\"


def phrase(term: str) -> str:
    """``term`` as one FTS5 phrase string (inner double quotes doubled)."""
    return '"' + term.replace('"', '""') + '"'


def any_of(terms: "list[str] | tuple[str, ...]") -> str:
    """An FTS5 expression matching rows that hold any of ``terms``, each as a phrase."""
    return " OR ".join(phrase(t) for t in terms)


def like_pattern(term: str) -> str:
    """A ``LIKE … ESCAPE '\\'`` pattern matching ``term`` anywhere, its ``%``, ``_`` and ``\\`` literal."""
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def trigrams(text: str) -> list[str]:
    """The distinct three-character pieces of ``text``, in order."""
    return list(dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2)))
