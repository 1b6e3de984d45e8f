"""The record shapes: the written-out check of an adopted claim's sources says what the composed checks say."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agent_memory.shapes import CLAIM, SOURCE, _list_of, problem

_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=2))
_SOURCE = st.dictionaries(st.sampled_from(["session", "line", "timestamp", "quote", "other"]), _VALUES, max_size=5)


@given(st.one_of(st.lists(_SOURCE, max_size=4), _VALUES))
def test_sources_are_checked_field_by_field(value: Any) -> None:
    assert CLAIM["sources"](value) == _list_of(SOURCE)(value)


def test_a_source_line_that_is_not_a_number_is_named() -> None:
    record = {"id": "a", "text": "b", "sources": [{"session": "s", "line": True}]}
    assert problem(record, CLAIM, ("id", "text"))
    assert not problem({**record, "sources": [{"session": "s", "line": 3}]}, CLAIM, ("id", "text"))
