"""fastjson reads and writes JSON exactly as the standard library does, for what the hooks exchange."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory import fastjson

# what the hooks write: dicts with string keys, lists, strings, whole numbers, booleans, None
_scalars = st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text()
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                       max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_values)
def test_dumps_matches_json_dumps(value: object) -> None:
    assert fastjson.dumps(value) == json.dumps(value, ensure_ascii=True)


@settings(max_examples=300, deadline=None)
@given(_values | st.floats(allow_nan=False))
def test_loads_reads_what_json_writes(value: object) -> None:
    text = json.dumps(value, ensure_ascii=False, indent=1)
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(text.encode("utf-8")) == json.loads(text)


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_quoted_matches_json_dumps(text: str) -> None:
    assert fastjson.quoted(text) == json.dumps(text, ensure_ascii=True)
    assert fastjson.quoted(text, ascii=False) == json.dumps(text, ensure_ascii=False)


@pytest.mark.parametrize(
    "text, expected",
    [
        ('  {"a": 1}\n', {"a": 1}),
        (b'\xef\xbb\xbf{"a": [1, 2]}', {"a": [1, 2]}),  # a UTF-8 byte-order mark, as json.loads allows
        ("[NaN]", None),  # compared by isnan below
        ("\t\r\n 7 \n", 7),
    ],
)
def test_loads_table(text: str | bytes, expected: object) -> None:
    value = fastjson.loads(text)
    if expected is None:
        assert isinstance(value, list) and math.isnan(value[0])
    else:
        assert value == expected


@pytest.mark.parametrize("text", ["", "   ", '{"a": 1} x', "{'a': 1}", '{"a": 1', "[1,]", b"\xff\xfe"])
def test_loads_refuses_what_json_refuses(text: str | bytes) -> None:
    with pytest.raises((ValueError, UnicodeDecodeError)):
        json.loads(text)
    with pytest.raises((ValueError, UnicodeDecodeError)):
        fastjson.loads(text)


def test_dumps_refuses_what_it_cannot_write() -> None:
    with pytest.raises(TypeError):
        fastjson.dumps({"a": object()})


def test_read_file_gives_the_default_for_missing_or_broken(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert fastjson.read_file(str(tmp_path / "missing.json"), {"d": 1}) == {"d": 1}
    torn = tmp_path / "torn.json"
    torn.write_bytes(b'{"a": [1, 2')
    assert fastjson.read_file(str(torn), []) == []
    good = tmp_path / "good.json"
    good.write_text('{"a": "\\u00e9"}', encoding="utf-8")
    assert fastjson.read_file(str(good), None) == {"a": "é"}


def test_objects_holding_parses_only_the_lines_with_the_word_and_passes_over_what_is_no_object() -> None:
    lines = [b'{"cwd": "/a"}', b'{"other": 1}', b'{"cwd": ', b'["cwd"]', b'\xff"cwd"', b'{"cwd": "/b"}\n']
    assert list(fastjson.objects_holding(lines, b'"cwd"')) == [{"cwd": "/a"}, {"cwd": "/b"}]
