"""One way to cut text: what counts as CJK, folding, words, stems, content terms."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory import text


@pytest.mark.parametrize(
    "value, expected",
    [("pnpm", False), ("日本語", True), ("テスト", True), ("ﾃｽﾄ", True), ("々", True), ("한국어", True), ("中文test", True),
     ("café", False), ("", False), ("Ω", False)],
)
def test_is_cjk(value: str, expected: bool) -> None:
    assert text.is_cjk(value) is expected


@settings(max_examples=500, deadline=None)
@given(st.characters())
def test_is_cjk_agrees_with_the_published_class(ch: str) -> None:
    assert text.is_cjk(ch) == bool(re.match(f"[{text.CJK}]", ch))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_words_is_the_documented_expression(value: str) -> None:
    assert text.words(value) == re.findall(r"\d+(?:\.\d+)*|[^\W\d_]+", value)


@pytest.mark.parametrize(
    "value, expected",
    [("Ｐｎｐｍ", "pnpm"), ("STRASSE", "strasse"), ("Straße", "strasse"), ("ﾃｽﾄ", "テスト"), ("plain", "plain")],
)
def test_fold(value: str, expected: str) -> None:
    assert text.fold(value) == expected


@pytest.mark.parametrize(
    "word, expected",
    [("running", "runn"), ("pushed", "push"), ("boxes", "box"), ("tests", "test"), ("class", "class"), ("is", "is"),
     ("sing", "sing"), ("bed", "bed")],
)
def test_stem(word: str, expected: str) -> None:
    assert text.stem(word) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("Always run the tests before pushing", ["run", "test", "push"]),
        ("Don't use npm, use pnpm", ["npm", "pnpm"]),
        ("Python 3.11 please", ["python", "3.11"]),
        ("今後は pnpm を使ってください", ["pnpm", "使って"]),
        ("checkoutのテスト", ["checkout", "テスト"]),
        ("the a an of", []),
    ],
)
def test_content_terms(value: str, expected: list[str]) -> None:
    assert text.content_terms(value) == expected


def test_prompt_terms_are_bounded() -> None:
    many = " ".join(f"word{i}x" for i in range(100))
    assert len(text.prompt_terms(many)) == text.PROMPT_TERMS
    assert text.content_terms("x" * 10 + " " + "late " * 2000 + "tail") == ["xxxxxxxxxx", "late"]  # past the scan window: unread


def test_relevance_floor() -> None:
    prompt = text.prompt_terms("how do I run the integration tests")
    assert text.is_relevant(prompt, text.content_terms("Always run integration tests with make itest"), 0.3)
    assert not text.is_relevant(prompt, text.content_terms("Never push to main"), 0.3)
    assert text.relevance([], ["a"]) == (0.0, 0)
