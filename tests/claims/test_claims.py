"""Claim identity and contradictions: tables a person can read and extend."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.claims import claim_key, normalise, relate, replaced_by_correction, trigram_similarity


def _relation(a: str, b: str) -> str:
    return relate(claim_key(a), claim_key(b)).kind


MERGE = [
    ("Always open PRs against dev", "Please always open PRs against dev."),
    ("Remember: always run pytest before pushing", "always run the pytest before you push"),
    ("Always run pytest before pushing", "ALWAYS run pytest before pushing!!"),
    ("use pnpm, not npm", "Use pnpm — not npm"),
    ("From now on, never commit .env files", "never commit .env files"),
    ("You should always squash commits", "always squash commits"),
    ("Always run the linter before committing", "Always run the linter before commiting"),  # a typo
    ("ｐｎｐｍ を使って", "pnpm を使って"),  # full-width
    ("コミット前に必ずテストを実行する", "コミット前には必ずテストを実行して"),
    ("今後はpnpmを使って", "今後はpnpmを使う"),
    ("覚えておいて: 必ず main に直接 push しない", "必ず main に直接 push しない"),
]

DISTINCT = [
    ("always run pytest", "always run mypy"),
    ("Always open PRs against dev", "Always squash commits"),
    ("use python 3.11", "use python 3.11 and poetry"),
    ("テストをまとめる", "テストをわける"),
    ("never use print for logging", "always write docstrings"),
]

CONTRADICT = [
    ("Always open PRs against dev", "Always open PRs against main", "value swap"),
    ("We deploy on port 8080", "We deploy on port 8443", "value swap"),
    ("Always run pytest before pushing", "Never run pytest before pushing", "negation flip"),
    ("Use tabs for indentation", "Don't use tabs for indentation", "negation flip"),
    ("use pnpm, not npm", "use npm, not pnpm", "swapped values"),
    ("必ずdevブランチにPRを出す", "必ずmainブランチにPRを出す", "value swap"),
    ("コミット前に必ずテストを実行する", "コミット前にテストを実行しない", "negation flip"),
    ("ポートは8080を使う", "ポートは8443を使う", "value swap"),
]


@pytest.mark.parametrize(("a", "b"), MERGE)
def test_same_claim(a: str, b: str) -> None:
    assert _relation(a, b) == "same"


@pytest.mark.parametrize(("a", "b"), DISTINCT)
def test_two_claims(a: str, b: str) -> None:
    assert _relation(a, b) == "distinct"


@pytest.mark.parametrize(("a", "b", "why"), CONTRADICT)
def test_contradiction_both_directions(a: str, b: str, why: str) -> None:
    forward, backward = relate(claim_key(a), claim_key(b)), relate(claim_key(b), claim_key(a))
    assert forward.kind == backward.kind == "contradiction"
    assert why in forward.reason


def test_correction_replaces_earlier_claim() -> None:
    correction = claim_key("No, that's wrong: use port 8443, not 8080")
    assert replaced_by_correction(correction, claim_key("use port 8080"))
    assert not replaced_by_correction(correction, claim_key("use port 9000"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Remember: Always run pytest!", "always run pytest"),
        ("Please, use pnpm.", "use pnpm"),
        ("ＡＢＣ　テスト", "abc テスト"),
        ("覚えておいて：今後は lint を実行", "lint を実行"),
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


def test_trigram_similarity_works_for_cjk() -> None:
    assert trigram_similarity("コミット前にテスト", "コミット前にテスト") == 1.0
    assert trigram_similarity("コミット前にテスト", "デプロイ後に確認") < 0.3


@given(st.text(max_size=80), st.text(max_size=80))
def test_relation_is_symmetric_and_never_raises(a: str, b: str) -> None:
    assert relate(claim_key(a), claim_key(b)).kind == relate(claim_key(b), claim_key(a)).kind


@given(st.text(max_size=80))
def test_a_claim_is_itself(a: str) -> None:
    assert relate(claim_key(a), claim_key(a)).kind in ("same", "distinct")  # distinct only when empty
