"""A rule pattern compiles to one that finds exactly what its plain reading finds.

A token boundary that opens a pattern is checked after the literal that follows it (so a
search looks for the literal in C): every match, its span and its groups, is the same as with
the boundary checked first.
"""

from __future__ import annotations

import functools
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.redact import checks
from agent_memory.redact.rules import RULES

from .test_rules import FAMILIES

_PATTERNS = [p for rule in RULES for p in rule.patterns if isinstance(p, checks._Deferred)]


@functools.cache
def plain(pattern: checks._Deferred) -> re.Pattern[str]:
    """The pattern with its boundaries substituted where they stand, the leading one first."""
    source = checks._BOUNDARY_RE.sub(lambda m: f"(?:(?<![{m.group(1)}])|(?<=\\\\[nrt]))", pattern._source)
    return re.compile(source, pattern._flags)


def _pieces(pattern: checks._Deferred) -> list[str]:
    # the pattern's own literal runs (its prefix among them), cut short, and what surrounds a token
    runs = re.findall(r"[A-Za-z0-9_=]+", pattern._source)
    lead = checks._LEADING_LITERAL.match(pattern._source)
    heads = [lead.group(2).replace("\\", "")] * 8 if lead else []
    return runs + heads + [r[: len(r) // 2] for r in runs if len(r) > 1] + [
        "\\n", "\\t", "\\r", "\\", "-", "_", ".", " ", "\n", "x", "Q", "7", "=", "|"
    ] * 3


_PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


_GLUE = st.sampled_from(["\\n", "\\t", "\\r", "\\", "-", "_", ".", " ", "\n", "x", "Q", "7", "=", "|", ""])


@_PROPERTY
@given(st.data())
def test_every_pattern_finds_what_its_plain_reading_finds(data: st.DataObject) -> None:
    pattern = data.draw(st.sampled_from(_PATTERNS))
    pieces = st.sampled_from(_pieces(pattern)) | st.text(max_size=3)
    text = "".join(data.draw(st.lists(pieces, max_size=25)))
    if data.draw(st.booleans()):  # around a real secret of some family, so that the patterns match
        snippet, _secret = FAMILIES[data.draw(st.sampled_from(sorted(FAMILIES)))](random.Random(data.draw(st.integers(0, 2**32))))
        cut = data.draw(st.integers(0, len(text)))
        text = text[:cut] + data.draw(_GLUE) + snippet + data.draw(_GLUE) + text[cut:]
    for every in _PATTERNS:  # each on the same text: a secret is read by the patterns of its family
        fast, slow = every, plain(every)
        assert [(m.span(), m.groups()) for m in fast.finditer(text)] == [(m.span(), m.groups()) for m in slow.finditer(text)]
    fast, slow = pattern, plain(pattern)
    for at in range(0, len(text) + 1, max(1, len(text) // 60)):
        a, b = fast.match(text, at), slow.match(text, at)
        assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups()))


def test_an_opening_boundary_moves_behind_its_literal_only_when_nothing_quantifies_it() -> None:
    assert checks._boundaries(r"(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}").startswith("npm_(?:(?<![A-Za-z0-9]npm_)")
    assert checks._boundaries(r"(?<![\w\-])mongo\w*").startswith("mongo(?:")
    assert checks._boundaries(r"(?<![\w\-])7z[az]?").startswith("7z(?:")
    assert checks._boundaries(r"(?<![A-Za-z0-9])ab?c").startswith("a(?:(?<![A-Za-z0-9]a)")
    assert checks._boundaries(r"(?<![A-Za-z0-9])a*").startswith("(?:(?<![A-Za-z0-9])")
    assert checks._boundaries(r"(?<![A-Za-z0-9])(?:AC|SK)").startswith("(?:(?<![A-Za-z0-9])")
