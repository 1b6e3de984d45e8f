"""The scanner's byte-level shortcuts answer exactly what the plain character walks they replace would.

Each shortcut (base64 runs found with ``bytes.find``, line breaks inside a key found in a
marked copy, full-width and invisible characters looked for in the UTF-8 bytes, byte classes
written as ranges and made without compiling, hook overlap compared as slices, every hook
found by a few anchored passes, words looked for only where their first character is) is checked
against the plain reading, and ``redact`` with every plain reading put back gives the same
text and the same rule ids.
"""

from __future__ import annotations

import base64
import random
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agent_memory.redact import joins, redact, scanner

from .test_families import fullwidth
from .test_rules import FAMILIES, planted, sentences

_PROPERTY = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)


# ---------------------------------------------------------------------------
# the plain readings


def plain_runs(text: str, min_len: int, raw: bytes | None = None) -> list[tuple[int, int]]:
    """Base64-alphabet runs of at least ``min_len`` characters, with up to two ``=`` after each."""
    runs = []
    for m in re.finditer(rf"[A-Za-z0-9+/]{{{max(min_len, 1)},}}", text):
        end = m.end()
        while end < len(text) and end - m.end() < 2 and text[end] == "=":
            end += 1
        runs.append((m.start(), end))
    return runs


def plain_joins(text: str, raw: bytes | None = None) -> tuple[str, list[int], list[int]] | None:
    """Every line break walked character by character."""
    join = joins._JOIN_CHARS
    cuts = []
    at = text.find("\n")
    while at >= 0:
        lo = at - 1 if at and text[at - 1] == "\r" else at
        end = at + 1
        at = text.find("\n", end)
        if lo < 8 or text[lo - 1] not in join:
            continue
        while end < len(text) and text[end] in " \t":
            end += 1
        if not join.issuperset(text[end : end + 2] or "."):
            continue
        run = lo
        while run > 0 and lo - run < 200 and text[run - 1] in join:
            run -= 1
        piece = text[run:lo]
        if len(piece) < 8 or not any(c.isalpha() for c in piece) or not (
            any(c.isdigit() for c in piece)
            or (any(c in "_-+/" for c in piece) and not piece.islower() and not piece.isupper())
        ):
            continue
        cuts.append((lo, end))
    if not cuts:
        return None
    parts, keep, joints, last = [], [], [], 0
    for lo, end in cuts:
        parts.append(text[last:lo])
        keep.extend(range(last, lo))
        joints.append(len(keep))
        last = end
    parts.append(text[last:])
    keep.extend(range(last, len(text)))
    return "".join(parts), keep, joints


def plain_visible(text: str) -> tuple[str, list[int] | None]:
    """The unusual characters looked for in the text itself."""
    if text.isascii() or not scanner._UNUSUAL.search(text):
        return text, None
    view = text.translate(scanner._FOLD)
    if not scanner.INVISIBLE.search(view):
        return view, None
    keep = [i for i, ch in enumerate(view) if not scanner.INVISIBLE.match(ch)]
    return "".join(view[i] for i in keep), keep


def plain_hook_hits(text: str, raw: bytes | None = None) -> dict[object, list[tuple[int, int]]]:
    """Every hook looked for at every place its literal occurs, its look-ahead tried there."""
    raw = scanner._latin1(text)
    low = raw.lower()
    hits: dict[object, list[tuple[int, int]]] = {}
    for hook in _HOOKS:
        data = raw if hook.exact else low
        at = data.find(hook.literal)
        while at >= 0:
            end = at + len(hook.literal)
            if hook.after is None or hook.after.match(text, end):
                for rule in hook.rules:
                    hits.setdefault(rule, []).append((at, end))
            at = data.find(hook.literal, at + 1)
    for spans in hits.values():
        spans.sort()
    return hits


_HOOKS = tuple(dict.fromkeys(h for group in scanner._HOOK_GROUPS.values() for h in group))


def plain_overlap(a: scanner._Hook, b: scanner._Hook, space: int) -> bool:
    for offset in range(-max(a.anchor, b.anchor), max(len(a.literal) - a.anchor, len(b.literal) - b.anchor)):
        i, j = a.anchor + offset, b.anchor + offset
        if 0 <= i < len(a.literal) and 0 <= j < len(b.literal):
            x, y = a.literal[i], b.literal[j]
            if x != y and (space == scanner._EXACT or scanner._LOWER[x] != scanner._LOWER[y]):
                return False
    return True


# ---------------------------------------------------------------------------
# text that exercises them: runs, padding, wrapped keys, CRLF, indentation, full-width, invisibles

_PIECES = st.sampled_from(
    ("AKIAQ3EGRT7X", "Zx9+/Qw", "abcdefgh", "ABCDEFGH12", "a1b2c3d4e5", "key_part-", "/usr/lib/x86_64", "==", "=",
     "\n", "\r\n", "\n  ", "\n\t", " ", ".", ":", "_", "-", "é", "漢字", "\u200b", "\ufeff", "ｐａｓｓ", "\u3000", "𝐀")
)  # fmt: skip
_BYTEISH = st.lists(_PIECES, max_size=40).map("".join)


def _cased(literal: str) -> st.SearchStrategy[str]:
    return st.lists(st.booleans(), min_size=len(literal), max_size=len(literal)).map(
        lambda flips: "".join(c.swapcase() if f else c for c, f in zip(literal, flips))
    )


# hook literals in any case, cut short or whole, and what their look-aheads ask for after them
_HOOK_PIECES = st.one_of(
    st.sampled_from([h.literal.decode("latin-1") for h in _HOOKS]).flatmap(
        lambda lit: st.one_of(_cased(lit), st.integers(1, len(lit)).map(lambda n: lit[:n]))
    ),
    st.sampled_from(("=", ":", ":=", "=>", "@", " ", "\t", "\n", "-", ".", "_", "~", "|", "'", '"', "://", "user:pw@", "5432:", "*:")),
    st.tuples(st.sampled_from(("abcdefXYZ0123456789", "0123456789abcdef", "AZ09_-", "aB3+/x")), st.integers(1, 70)).map(
        lambda t: "".join(t[0][i % len(t[0])] for i in range(t[1]))
    ),
    st.sampled_from(("é", "ſ", "K", "漢", "\u200b", "ｐ")),
)
_NEAR_HOOKS = st.lists(_HOOK_PIECES, max_size=30).map("".join)
_ANY = st.text(max_size=80)


@_PROPERTY
@given(st.one_of(_BYTEISH, _ANY), st.sampled_from((1, 2, 8, 16, 40)))
@example("A" * 16 + "==" + "B" * 16 + "=" * 3, 16)
def test_runs_are_the_maximal_base64_runs(text: str, min_len: int) -> None:
    assert list(scanner._runs(text, min_len)) == plain_runs(text, min_len)


@_PROPERTY
@given(st.one_of(_BYTEISH, _ANY))
@example("ghp_A1b2C3d4E5\n   f6G7h8")
@example("x" * 7 + "1\r\nAB")
@example("key: Ab3dEf7h\nzz")  # exactly eight join characters before the break
@example("a1" * 150 + "\nzz")
@example("Ab3dEf7h\r\nzz")  # eight before a CRLF from the very start
@example("\r\n\nAb3dEf7h\n\tzz")
def test_joins_cut_the_same_line_breaks(text: str) -> None:
    assert scanner.join_wrapped(text) == plain_joins(text)


_WIDE = st.text(alphabet=st.characters(min_codepoint=0x2000, max_codepoint=0x10FFFF), max_size=20)


@_PROPERTY
@given(st.one_of(_BYTEISH, _ANY, _WIDE))
@example("\ud835\udc00")  # a surrogate pair as two code points: neither is a mathematical letter
def test_the_visible_text_is_the_same(text: str) -> None:
    assert scanner._visible(text) == plain_visible(text)


def test_every_code_point_is_unusual_in_utf8_exactly_when_it_is_in_text() -> None:
    search, plain = scanner._UNUSUAL_UTF8.search, scanner._UNUSUAL.search
    wrong = [
        c for c in range(sys.maxunicode + 1) if bool(search(chr(c).encode("utf-8", "surrogatepass"))) != bool(plain(chr(c)))
    ]
    assert wrong == []


_SPANS = st.tuples(st.integers(0, 255), st.integers(0, 255)).map(lambda t: set(range(min(t), max(t) + 1)))


def _as_latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


@_PROPERTY
@given(st.one_of(_NEAR_HOOKS, _BYTEISH, _ANY).map(_as_latin1))
def test_every_hook_is_found_where_its_literal_and_look_ahead_are(text: str) -> None:
    # in latin-1 text, where the scanned copy is the text itself; beyond it the passes read the
    # copy, in which any other character is "?"
    assert scanner._hook_hits(text) == plain_hook_hits(text)


@_PROPERTY
@given(st.one_of(_NEAR_HOOKS, _BYTEISH, _ANY),
       st.lists(st.tuples(st.integers(0, 120), st.sampled_from("密Пſ\u212a，“。\u3000\u2028😀")), max_size=6))
@example("postgres://admin:x@db", [(17, "密")])
def test_a_hook_among_characters_beyond_latin1_is_found_as_in_latin1_text(text: str, inserted: list[tuple[int, str]]) -> None:
    # the passes read a copy in which such a character is "?": every look-ahead that takes it takes the "?"
    for at, ch in sorted(inserted, reverse=True):
        text = text[:at] + ch + text[at:]
    assert scanner._hook_hits(text) == plain_hook_hits(text)


@_PROPERTY
@given(st.one_of(_ANY, st.lists(st.sampled_from([w for r in scanner._WORD_RULES for w in r.words] + ["é", "—", "→", "🙂", "a", "\ud800"]), max_size=8).map("".join)))
def test_text_said_to_hold_no_word_holds_none(text: str) -> None:
    if any(w in text for r in scanner._WORD_RULES for w in r.words):
        assert scanner._may_hold_words(text)


@_PROPERTY
@given(st.one_of(st.sets(st.integers(0, 255), min_size=1), _SPANS))
def test_a_byte_class_matches_exactly_its_members(members: set[int]) -> None:
    pattern = re.compile(scanner._byte_class(members).encode("latin-1"))
    assert {b for b in range(256) if pattern.fullmatch(bytes([b]))} == members


def test_a_literal_atom_is_the_class_its_pattern_compiles_to() -> None:
    for table in (scanner._LOWER, scanner._IDENTITY):
        for ignore_case in (True, False):
            for b in range(256):
                compiled = scanner._atom(re.escape(chr(b)), table, ignore_case)
                assert scanner._literal_atom(b, table, ignore_case) == compiled


def test_hooks_overlap_as_the_character_walk_says() -> None:
    hooks = list(dict.fromkeys(h for group in scanner._HOOK_GROUPS.values() for h in group))
    rng = random.Random(7)
    for _ in range(3000):
        a = bytes(rng.choice(b"aAbB-_") for _ in range(rng.randint(1, 6)))
        b = bytes(rng.choice(b"aAbB-_") for _ in range(rng.randint(1, 6)))
        hooks.append(scanner._Hook(a, rng.randrange(len(a)), None, (), False))
        hooks.append(scanner._Hook(b, rng.randrange(len(b)), None, (), True))
    for a, b in zip(hooks, hooks[1:] + hooks[:1]):
        for space in (scanner._LOW, scanner._EXACT):
            assert scanner._overlap(a, b, space) == plain_overlap(a, b, space)


# ---------------------------------------------------------------------------
# redact as a whole, with the plain readings put back


@st.composite
def disguised(draw: st.DrawFn) -> str:
    """A few planted secrets, each maybe wrapped, full-width, base64-encoded or split by a zero-width space."""
    pieces = [draw(sentences())]
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
        snippet, _secret = FAMILIES[draw(st.sampled_from(sorted(FAMILIES)))](rng)
        how = draw(st.sampled_from(("as is", "wrapped", "crlf", "full-width", "base64", "zero-width")))
        cut = draw(st.integers(min_value=0, max_value=len(snippet)))
        if how == "wrapped":
            snippet = snippet[:cut] + "\n" + draw(st.sampled_from(("", "  ", "\t"))) + snippet[cut:]
        elif how == "crlf":
            snippet = snippet[:cut] + "\r\n" + snippet[cut:]
        elif how == "full-width":
            snippet = fullwidth(snippet)
        elif how == "base64":
            snippet = "echo " + base64.b64encode(snippet.encode()).decode() + " | base64 -d"
        elif how == "zero-width":
            snippet = snippet[:cut] + "\u200b" + snippet[cut:]
        pieces.append(snippet)
        pieces.append(draw(st.one_of(sentences(), _BYTEISH)))
    glue = draw(st.sampled_from((" ", "\n", "\r\n", "; ", "\n\n")))
    return glue.join(pieces)


@contextmanager
def plain_readings() -> Iterator[None]:
    """The scanner with every shortcut replaced by its plain reading."""
    saved = {name: getattr(scanner, name) for name in ("_runs", "join_wrapped", "_visible", "_may_hold_words")}
    scanner._runs, scanner.join_wrapped, scanner._visible = plain_runs, plain_joins, plain_visible  # type: ignore[assignment]
    scanner._may_hold_words = lambda text: True  # type: ignore[assignment]
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(scanner, name, fn)


@_PROPERTY
@given(st.one_of(disguised(), planted().map(lambda case: case[1]), _BYTEISH))
def test_redact_is_the_same_with_the_plain_readings(text: str) -> None:
    fast = redact(text)
    with plain_readings():
        plain = redact(text)
    assert (fast.text, fast.rule_ids) == (plain.text, plain.rule_ids)
