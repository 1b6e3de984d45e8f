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


def _term_in_by_definition(term: str, others: set[str]) -> bool:
    """The relevance floor's match as documented: equal; for CJK a substring either way; else a near-equal prefix."""
    if term in others:
        return True
    if text.is_cjk(term):
        return any(len(o) >= 2 and (term in o or o in term) for o in others)
    for other in others:
        short, long = sorted((term, other), key=len)
        if len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 2:
            return True
    return False


_stems = st.sampled_from(["config", "configur", "configure", "configured", "deploy", "deploys", "deployer", "test",
                          "tests", "testing", "run", "runs", "テスト", "テストを", "使って", "pnpm", "npm", "migrat"])
# terms as content_terms cuts them: CJK or not, never both
_terms = st.lists(_stems | st.text(alphabet="abcde", min_size=1, max_size=7) | st.text(alphabet="テスを", min_size=1, max_size=4),
                  min_size=1, max_size=12)


@settings(max_examples=400, deadline=None)
@given(_terms, _terms)
def test_relevance_counts_what_the_definition_counts(prompt: list[str], atom: list[str]) -> None:
    shared = sum(1 for term in prompt if _term_in_by_definition(term, set(atom)))
    assert text.relevance(prompt, atom) == (shared / min(len(prompt), len(atom)), shared)


@pytest.mark.parametrize(
    "prompt, atom, shared",
    [(["configur"], ["configure"], 1), (["configure"], ["configur"], 1), (["config"], ["configured"], 0),
     (["run"], ["runs"], 0), (["deploy"], ["deployer"], 1), (["テスト"], ["テストを"], 1), (["npm"], ["pnpm"], 0)],
)
def test_relevance_joins_near_equal_prefixes_only(prompt: list[str], atom: list[str], shared: int) -> None:
    assert text.relevance(prompt, atom)[1] == shared


@pytest.mark.parametrize(
    "value, expected",
    [
        ("see src/cart/v3/handlers.py", ["src/cart/v3/handlers.py"]),  # a path, whole
        ("call getUserName now", ["getUserName"]),  # camelCase
        ("get_user_name", ["get_user_name"]),  # snake_case
        ("x-request-id header", ["x-request-id"]),  # joined by dashes
        ("use python3 and numpy 1.26.4", ["python3", "1.26.4"]),  # letters with digits; a version
        ("v3 at 10am", ["v3", "10am"]),
        ("plain words 42", []),  # plain words and plain numbers are not identifiers
        ("a..b -- c", []),  # doubled joiners are punctuation
        ("src/cart and src/cart", ["src/cart"]),  # each once
    ],
)
def test_identifiers(value: str, expected: list[str]) -> None:
    assert text.identifiers(value) == expected


def test_identifier_parts_are_the_file_name_the_pieces_and_their_words() -> None:
    assert text.identifier_parts("src/Cart/v3/getUser.py") == [
        "getuser.py", "src", "cart", "v3", "getuser", "py", "v", "3", "get", "user"]
    assert text.identifier_parts("plain") == []


def test_identifier_words_are_what_a_word_tokenizer_cannot_see_apart() -> None:
    assert text.identifier_words("getUserName and python3") == ["get", "user", "name", "python"]
    assert text.identifier_words("src/cart/handlers.py") == []  # each piece is already a word


def _identifier_words_walked(value: str) -> list[str]:
    """The definition ``identifier_words`` keeps: every identifier ``identifiers`` finds, cut into its words."""
    found: dict[str, None] = {}
    for ident in text.identifiers(value):
        for piece in text._split_joiners(ident):
            for word in text._sub_words(piece):
                if len(word) >= 2:
                    found[word.casefold()] = None
    return list(found)


# the characters that decide where identifiers start, end and split, with a few of every class
_IDENT_ALPHABET = "aqzAQZ059._/-\\_ \n,:;'\"()çÉßǅ²½٣あ一ﾃ"


@settings(max_examples=3000, deadline=None)
@given(st.text(st.sampled_from(_IDENT_ALPHABET), max_size=40) | st.text(max_size=30))
def test_identifier_words_are_the_words_of_the_identifiers_walked_one_character_at_a_time(value: str) -> None:
    assert text.identifier_words(value) == _identifier_words_walked(value)
    assert text.identifier_words(value) == _identifier_words_walked(value)  # the second time from what runs gave


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(_IDENT_ALPHABET), max_size=40), min_size=1, max_size=6))
def test_identifier_words_lose_nothing_when_their_memory_starts_again_midway(values: list[str]) -> None:
    remembered = text._RUN_MEMORY
    text._RUN_MEMORY = 2  # cleared again and again, in the middle of a text
    try:
        for value in values:
            assert text.identifier_words(value) == _identifier_words_walked(value)
    finally:
        text._RUN_MEMORY = remembered
        text._RUN_WORDS.clear()


def test_a_chunk_keeps_its_identifier_words_in_order() -> None:
    value = "Fixed getUserName in src/cart/v3/handlers.py; python3 and the Checkout module, v2 too."
    assert text.identifier_words(value) == _identifier_words_walked(value) == ["get", "user", "name", "python"]


def test_identifier_words_end_a_run_where_identifiers_ends_one() -> None:
    for c in map(chr, [*range(128), *range(128, 0x110000, 97)]):
        value = f"getUser{c}Name v3{c}x"
        assert text.identifier_words(value) == _identifier_words_walked(value)


@pytest.mark.parametrize(
    "value, expected",
    [
        ("Fix getUserName in src/cart/handlers.py",
         ["fix", "getusername", "user", "name", "src/cart/handlers.py", "handlers.py", "src", "cart", "handler", "py"]),
        ("checkoutのテストが落ちている", ["checkout", "テスト", "落ちている"]),  # a CJK run cut from the Latin one, particles split
        ("It doesn't work; don't retry", ["work", "retry"]),  # contractions: negation is grammar, never a term
    ],
)
def test_content_terms_of_identifiers_and_mixed_scripts(value: str, expected: list[str]) -> None:
    assert text.content_terms(value) == expected


# The prompt hook cuts Japanese without ``re``; claim keys cut it with the patterns. Both must cut alike, and the
# patterns must stay what they were (claim keys are stored).
_JA_PIECES = ["しない", "しません", "ないで", "ないこと", "ないように", "ない", "な", "禁止", "だめ", "いけない", "するな", "不要", "別",
              "必ず", "常に", "絶対に", "今後は", "今後", "これからは", "总是", "してください", "して", "します", "する", "こと",
              "ように", "です", "ます", "だ", "よ", "ね", "。", "は", "が", "を", "に", "で", "と", "の", "も", "へ", "や",
              "テスト", "pnpm", "使う", "必", "今", "し", "て", "く", "だ", "コード", "日本", " ", "x", "\n"]
_NEGATION_BEFORE = "(?:しない|しません|ないで|ない(?:こと|ように)?|禁止|ダメ|だめ|いけない|べからず|するな|な$|不要|别|別|不能)"
_EMPHASIS_BEFORE = "(?:必ず|常に|絶対に|絶対|いつも|毎回|決して|今後は|今後|これからは|一律|都要|总是|總是|一定要|永远|永遠)"
_ENDINGS_BEFORE = ("(?:してください|して下さい|しないでください|してね|してほしい|しましょう|して|します|する|しない|"
                   "ください|下さい|ること|こと|ように|です|ます|だ|よ|ね|。)+$")


def test_the_japanese_patterns_are_what_claim_keys_were_made_with() -> None:
    assert (text.NEGATION_JA, text.EMPHASIS_JA, text.ENDINGS_JA) == (_NEGATION_BEFORE, _EMPHASIS_BEFORE, _ENDINGS_BEFORE)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_JA_PIECES), max_size=12).map("".join))
def test_japanese_is_cut_without_re_as_the_patterns_cut_it(value: str) -> None:
    piece = value.replace(" ", "").replace("\n", "")  # what the hook cuts: a run split on white space
    assert text._replaced(value, text._EMPHASES_JA, " ") == re.sub(text.EMPHASIS_JA, " ", value)
    assert text._replaced(piece, text._NEGATIONS_JA, "", last="な") == re.sub(text.NEGATION_JA, "", piece)
    assert text._without_endings(piece) == re.sub(text.ENDINGS_JA, "", piece)
    assert text._particle_split(piece) == re.split(text.PARTICLE_SPLIT_JA, piece)


def test_a_japanese_prompt_is_cut_into_its_content_words() -> None:
    assert text.content_terms("今後は必ずpnpmを使ってください。テストは禁止しないで") == ["pnpm", "使って", "テスト"]


@given(st.lists(st.text(st.sampled_from(_IDENT_ALPHABET + " 要不テスト"), max_size=30), min_size=1, max_size=5))
def test_a_texts_terms_do_not_depend_on_the_tokens_cut_before_it(texts: list[str]) -> None:
    last = " ".join(texts)
    warm = [text.content_terms(t) for t in texts] + [text.content_terms(last)]
    text._TOKEN_TERMS.clear()
    assert text.content_terms(last) == warm[-1]
    text._TOKEN_TERMS.clear()
    assert [text.content_terms(t) for t in texts] == warm[:-1]
