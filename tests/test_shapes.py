"""The record shapes: the written-out checks (an adopted claim's sources, an atom read from JSON) say what the
composed checks say."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from agent_memory.shapes import ATOM, ATOM_REQUIRED, CLAIM, SOURCE, _list_of, atom_ok, problem

_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=2))
_SOURCE = st.dictionaries(st.sampled_from(["session", "line", "timestamp", "quote", "other"]), _VALUES, max_size=5)


@given(st.one_of(st.lists(_SOURCE, max_size=4), _VALUES))
def test_sources_are_checked_field_by_field(value: Any) -> None:
    assert CLAIM["sources"](value) == _list_of(SOURCE)(value)


def test_a_source_line_that_is_not_a_number_is_named() -> None:
    record = {"id": "a", "text": "b", "sources": [{"session": "s", "line": True}]}
    assert problem(record, CLAIM, ("id", "text"))
    assert not problem({**record, "sources": [{"session": "s", "line": 3}]}, CLAIM, ("id", "text"))


class _Text(str):
    """A string of another type than JSON gives: the written-out check leaves it to the composed one."""


_FIELD_VALUES = st.one_of(_VALUES, st.lists(st.one_of(st.text(max_size=2), st.integers()), max_size=3),
                          st.text(max_size=3).map(_Text), st.tuples(st.text(max_size=2)))
_ATOMS = st.dictionaries(st.sampled_from([*ATOM, "other"]), _FIELD_VALUES, max_size=8)


@given(st.one_of(_ATOMS, st.builds(lambda rest: {"id": "a", "text": "b", **rest}, _ATOMS), _VALUES))
@example({"id": "a", "text": "b", "redaction_rules": ["email", 1]})
@example({"id": "a", "text": _Text("b"), "line": 3})
@example({"id": "a", "text": "b", "stated": 1})
def test_an_atom_is_checked_as_the_composed_check_would(record: Any) -> None:
    assert atom_ok(record) == (not problem(record, ATOM, ATOM_REQUIRED))
