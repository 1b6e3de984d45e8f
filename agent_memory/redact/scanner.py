"""Compile the rule table into a few byte-level passes and run them: ``redact`` and ``contains_secret``."""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from agent_memory.model import Redaction

from .checks import FLAGS
from .joins import join_wrapped
from .scrub import INVISIBLE
from .rules import (
    PRIORITY,
    RULES,
    Rule,
)

# ---------------------------------------------------------------------------
# the scanner
#
# CPython's ``re`` searches quickly only for a pattern that starts with one fixed
# character (an alternation of many literals makes it interpret a character set at
# every position, some forty times slower); each alternative tried and each search
# call also cost. So hooks are grouped by an anchor, a rare character they contain,
# and each group becomes one pattern: the anchor, then a trie of what follows it.
# Text is scanned as latin-1 bytes (one byte per character, so offsets equal string
# indexes), lower-cased except for hooks that must match case exactly.

# Share (%) of each anchor character in agent transcripts; a hook is anchored on its rarest.
_ANCHOR_FREQ: dict[str, float] = {
    "~": 0.01, "@": 0.06, "|": 0.09, "z": 0.13, "=": 0.3, "x": 0.4, "k": 0.5, "_": 0.5,
    ":": 0.9, "b": 0.9, ".": 1.2, "p": 1.9, "-": 2.0, "c": 2.6,
}  # fmt: skip
# For hooks with none of those (mysql, sudo, 7z): rough shares of other characters in English and code.
_FALLBACK_FREQ: dict[str, float] = {
    "q": 0.1, "7": 0.1, "j": 0.15, "v": 0.9, "y": 1.5, "w": 1.5, "g": 1.8, "f": 2.0, "u": 2.7, "m": 2.8,
    "d": 3.3, "l": 3.8, "h": 4.0, "r": 5.5, "s": 5.8, "n": 6.2, "i": 6.5, "o": 7.0, "a": 7.5, "t": 8.5, "e": 11.0,
}  # fmt: skip
# Hooks written in capitals (AKIA, ASIA, AC, SK, -H, GR1348941) match case exactly; those
# without a lower-case anchor are scanned in the original text, anchored on a capital.
_EXACT_ANCHOR_FREQ: dict[str, float] = {"G": 0.18, "A": 0.33}
_LOW, _EXACT = 0, 1  # which copy of the text a pass scans
_LOWER = [ord(chr(b).lower()) if b < 128 else b for b in range(256)]
_IDENTITY = list(range(256))


@dataclass(frozen=True, eq=False)
class _Hook:
    literal: bytes  # as written if ``exact``, else lower case
    anchor: int  # index of the anchor character in ``literal``
    after: re.Pattern[str] | None  # checked on the original text, ignoring case
    rules: tuple[Rule, ...]
    exact: bool


def _choose_anchor(literal: str, freq: dict[str, float], has_after: bool) -> int | None:
    best: tuple[float, int] | None = None
    for i, ch in enumerate(literal):
        if ch not in freq:
            continue
        # An anchor with nothing after it is confirmed by look-arounds, which cost
        # several times a literal comparison.
        cost = freq[ch] * (1.0 if i + 1 < len(literal) else (3.0 if has_after else 50.0))
        if best is None or cost < best[0]:
            best = (cost, i)
    return None if best is None else best[1]


def _byte_class(members: Iterable[int]) -> str:
    """Regex text (to be latin-1 encoded) for exactly the bytes ``members``, consecutive ones as ranges."""
    ms = sorted(set(members))
    if len(ms) == 1:
        return re.escape(chr(ms[0]))
    parts: list[str] = []
    i = 0
    while i < len(ms):
        j = i
        while j + 1 < len(ms) and ms[j + 1] == ms[j] + 1:
            j += 1
        if j - i >= 2:  # a range is shorter to parse than its members: patterns compile faster
            parts.append(f"{_in_class(ms[i])}-{_in_class(ms[j])}")
        else:
            parts.extend(_in_class(b) for b in ms[i : j + 1])
        i = j + 1
    return "[" + "".join(parts) + "]"


def _in_class(b: int) -> str:
    return "\\" + chr(b) if chr(b) in "^-]\\" else re.escape(chr(b))


_BYTES = tuple(map(chr, range(256)))
_ATOMS: dict[tuple[str, bytes, bool], str] = {}  # the same few letters recur in every hook: each class is made once


# Characters outside latin-1 of every kind an atom may accept (CJK and Cyrillic letters, letters that fold to
# ASCII ones, punctuation, spaces, an emoji): the scanned copy holds each of them as "?" (``_latin1``).
_BEYOND_LATIN1 = "密Пſ\u212a\u0131\ufb00，“。\u3000\u2028\U0001f600"


def _atom(atom: str, table: list[int], ignore_case: bool = True) -> str:
    """One regex atom (literal, escape or class) mapped through ``table`` as a byte class.

    An atom that accepts a character outside latin-1 accepts the ``?`` that stands for it in the copy.
    """
    key = (atom, bytes(table), ignore_case)
    made = _ATOMS.get(key)
    if made is None:
        matcher = re.compile(atom, FLAGS | (re.IGNORECASE if ignore_case else 0)).fullmatch
        members = [table[b] for b, ch in enumerate(_BYTES) if matcher(ch)]
        if any(matcher(ch) for ch in _BEYOND_LATIN1):
            members.append(table[ord("?")])
        made = _ATOMS[key] = _byte_class(members)
    return made


def _literal_atom(byte: int, table: list[int], ignore_case: bool) -> str:
    """``_atom`` of one literal character, without compiling it: ASCII case folding pairs only ASCII letters."""
    ch = chr(byte)
    same = {ch, ch.swapcase()} if ignore_case and ch.isascii() and ch.isalpha() else {ch}
    return _byte_class(table[ord(c)] for c in same)


_ATOM_RE = re.compile(r"\\.|\[(?:\\.|[^\]\\])+\]|[^\\\[\](){}|*+?]")
_QUANT_RE = re.compile(r"\{\d+(?:,\d*)?\}")


def _mapped_regex(pattern: str, table: list[int]) -> str:
    """A hook's look-ahead rewritten for a scanned copy of the text, without case flags.

    Negative look-arounds are dropped: the result only has to accept whatever the
    original accepts, since the original is checked afterwards.
    """
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith(("(?!", "(?<!"), i):
            depth = 0
            while True:
                if pattern[i] == "\\":
                    i += 2
                    continue
                depth += {"(": 1, ")": -1}.get(pattern[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        head = next((h for h in ("(?<=", "(?:", "(?=") if pattern.startswith(h, i)), None)
        quant = _QUANT_RE.match(pattern, i)
        if head or quant or pattern[i] in "()|*+?":
            token = head or (quant.group(0) if quant else pattern[i])
            out.append(token)
            i += len(token)
            continue
        atom = _ATOM_RE.match(pattern, i)
        if atom is None:
            raise ValueError(f"cannot rewrite {pattern!r} at {i}")
        out.append(_atom(atom.group(0), table))
        i = atom.end()
    return "".join(out)


def _trie(branches: list[tuple[list[str], str]]) -> str:
    """Alternation of ``(atoms, tail)`` nested on the first atom."""
    by_first: dict[str, list[tuple[list[str], str]]] = {}
    ends: list[str] = []
    for atoms, tail in branches:
        if atoms:
            by_first.setdefault(atoms[0], []).append((atoms[1:], tail))
        else:
            ends.append(tail)
    alts = [first + _trie(rest) for first, rest in sorted(by_first.items())] + ends
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


def _overlap(a: _Hook, b: _Hook, space: int) -> bool:
    """Whether two hooks of one pass (scanning copy ``space``) can both match at the same position."""
    # aligned on their anchors, the characters both literals cover must agree
    lo, hi = -min(a.anchor, b.anchor), min(len(a.literal) - a.anchor, len(b.literal) - b.anchor)
    x, y = a.literal[a.anchor + lo : a.anchor + hi], b.literal[b.anchor + lo : b.anchor + hi]
    return x == y if space == _EXACT else x.lower() == y.lower()


def _latin1(text: str) -> bytes:
    """``text`` as one byte per character (others as ``?``), so byte offsets are string indexes."""
    return text.encode("latin-1", "replace")


_Pass = tuple[int, int, "re.Pattern[bytes]"]  # (space, anchor byte, pattern)


def _build_scanner() -> tuple[tuple[_Pass, ...], dict[str, tuple[_Hook, ...]]]:
    grouped: dict[tuple[str, str], list[Rule]] = {}
    for rule in RULES:
        for hook in rule.hooks:
            literal, after = hook if isinstance(hook, tuple) else (hook, rule.after)
            key = literal if literal.isupper() else literal.lower()
            grouped.setdefault((key, after), []).append(rule)
    by_pass: dict[tuple[int, int], list[_Hook]] = {}
    for (literal, after), rules in grouped.items():
        exact = literal.isupper()
        # a hook in capitals is looked for on a capital in the text as written: rarer than any
        # letter of it in the lower-cased copy, and it keeps look-behinds out of the busy passes
        anchor, space = (_choose_anchor(literal, _EXACT_ANCHOR_FREQ, bool(after)), _EXACT) if exact else (None, _LOW)
        if anchor is None:
            anchor, space = _choose_anchor(literal.lower(), _ANCHOR_FREQ, bool(after)), _LOW
        if anchor is None and not exact:
            anchor = _choose_anchor(literal.lower(), _FALLBACK_FREQ, bool(after))
        if anchor is None:
            raise ValueError(f"hook {literal!r} has no anchor character")
        text = literal if exact else literal.lower()
        after_re = re.compile(after, FLAGS | re.IGNORECASE) if after else None
        entry = _Hook(text.encode("latin-1"), anchor, after_re, tuple(dict.fromkeys(rules)), exact)
        scanned = text if space == _EXACT else text.lower()
        by_pass.setdefault((space, ord(scanned[anchor])), []).append(entry)
    passes: list[_Pass] = []
    groups: dict[str, tuple[_Hook, ...]] = {}
    for (space, anchor_byte), hooks in sorted(by_pass.items()):
        table = _LOWER if space == _LOW else _IDENTITY
        literal_branches: list[tuple[list[str], str]] = []
        assert_branches: dict[str, list[str]] = {}  # look-ahead → look-behinds sharing it
        before: dict[str, set[int] | None] = {}  # look-ahead → the bytes just before the anchor of its hooks
        for h in hooks:
            name = f"h{len(groups)}"
            # Hooks that can match at the same spot as this one are confirmed with it.
            groups[name] = (h,) + tuple(g for g in hooks if g is not h and _overlap(h, g, space))
            atoms = [_literal_atom(b, table, space == _LOW) for b in h.literal]
            behind = f"(?<={''.join(atoms)})" if h.anchor else ""  # checked after the suffix
            ahead = f"(?={_mapped_regex(h.after.pattern, table)})" if h.after is not None else ""
            suffix = atoms[h.anchor + 1 :]
            if suffix:
                literal_branches.append((suffix, behind + ahead + f"(?P<{name}>)"))
            else:
                assert_branches.setdefault(ahead, []).append(behind + f"(?P<{name}>)")
                bytes_before = before.setdefault(ahead, set())
                if bytes_before is not None and h.anchor:
                    bytes_before.add(table[h.literal[h.anchor - 1]])
                else:
                    before[ahead] = None
        alts = [_trie(literal_branches)] if literal_branches else []
        for ahead, behinds in sorted(assert_branches.items()):
            # the look-behinds first: each is one fixed-length check, the look-ahead may scan far;
            # and before them one check of the byte before the anchor (and the anchor), which most anchors fail
            first = before[ahead]
            screen = f"(?<={_byte_class(first)}{re.escape(chr(anchor_byte))})" if first and len(behinds) > 1 else ""
            alts.append(screen + ("(?:" + "|".join(behinds) + ")" if len(behinds) > 1 else behinds[0]) + ahead)
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        pattern = re.compile((re.escape(chr(anchor_byte)) + body).encode("latin-1"))
        passes.append((space, anchor_byte, pattern))
    return tuple(passes), groups


_PASSES, _HOOK_GROUPS = _build_scanner()


def _hook_hits(text: str, raw: bytes | None = None) -> dict[Rule, list[tuple[int, int]]]:
    """Every (rule → hook spans) present in ``text``; empty for text with nothing secret-like.

    ``raw`` is ``text`` as latin-1 bytes, when the caller has it already.
    """
    if raw is None:
        raw = _latin1(text)
    low = raw.lower()
    copies = (low, raw)
    hits: dict[Rule, list[tuple[int, int]]] = {}
    for space, anchor_byte, pattern in _PASSES:
        data = copies[space]
        if anchor_byte not in data:  # memchr: many times faster than the search it saves
            continue
        # search() in a loop: a finditer() scanner object costs more than the scan itself
        m = pattern.search(data)
        while m is not None:
            pos = m.start()
            for hook in _HOOK_GROUPS[m.lastgroup]:  # type: ignore[index]
                s = pos - hook.anchor
                if s < 0 or not (raw if hook.exact else low).startswith(hook.literal, s):
                    continue
                e = s + len(hook.literal)
                if hook.after is not None and not hook.after.match(text, e):
                    continue
                for rule in hook.rules:
                    hits.setdefault(rule, []).append((s, e))
            m = pattern.search(data, pos + 1)
    for spans in hits.values():
        spans.sort()
    return hits


def _windows(spans: list[tuple[int, int]], back: int, reach: int, n: int) -> Iterator[tuple[int, int]]:
    """Merge the search windows around each hook so no character is scanned twice per rule."""
    lo = hi = -1
    for s, e in spans:
        a, b = max(0, s - back), min(n, e + reach)
        if a <= hi:
            hi = max(hi, b)
            continue
        if hi >= 0:
            yield lo, hi
        lo, hi = a, b
    if hi >= 0:
        yield lo, hi


def _expand(text: str, start: int, end: int, chars: str) -> tuple[int, int]:
    allowed = re.compile(f"[{chars}]")
    while start > 0 and allowed.match(text[start - 1]):
        start -= 1
    while end < len(text) and allowed.match(text[end]):
        end += 1
    return start, end


def _scan(text: str, raw: bytes | None = None) -> list[tuple[int, int, str]]:
    """Validated spans of the hooked rules as (start, end, rule_id), possibly overlapping."""
    hits = _hook_hits(text, raw)
    if not text.isascii() and _may_hold_words(text):
        for rule in _WORD_RULES:
            spans = [(i, i + len(w)) for w in rule.words if w in text for i in _occurrences(text, w)]
            if spans:
                hits[rule] = sorted(spans)
    if not hits:
        return []
    found: set[tuple[int, int, str]] = set()
    n = len(text)
    for rule, spans in hits.items():
        if rule.finder is not None:
            covered = -1
            for s, e in spans:
                if s < covered:
                    continue  # inside a value this rule already took
                for finding in rule.finder(text, s, e):
                    found.add(finding)
                    covered = max(covered, finding[1])
            continue
        if rule.anchored:
            for s, e in spans:
                for pattern in rule.patterns:
                    m = pattern.match(text, s, min(n, e + rule.reach))
                    if m is not None and (rule.validator is None or rule.validator(m)):
                        start, end = m.span("s") if "s" in pattern.groupindex and m.group("s") is not None else m.span()
                        if end > start:
                            found.add((start, end, rule.rule_id))
            continue
        for lo, hi in _windows(spans, rule.back, rule.reach, n):
            for pattern in rule.patterns:
                for m in pattern.finditer(text, lo, hi):
                    if m.end() == hi < n:
                        # The window may have cut the match short: match again unbounded.
                        m = pattern.match(text, m.start()) or m
                    if rule.validator is not None and not rule.validator(m):
                        continue
                    if "s" in pattern.groupindex and m.group("s") is not None:
                        start, end = m.span("s")
                    else:
                        start, end = m.span()
                    if rule.expand:
                        start, end = _expand(text, start, end, rule.expand)
                    if end > start:
                        found.add((start, end, _refine(rule, m)))
    return sorted(found)




def _occurrences(text: str, word: str) -> Iterator[int]:
    i = text.find(word)
    while i >= 0:
        yield i
        i = text.find(word, i + 1)


_WORD_RULES = tuple(r for r in RULES if r.words)
# the first character of each word (パ, 暗, 合, 密, 口): text holding none of them holds no word
_WORD_FIRSTS = tuple(sorted({w[0] for r in _WORD_RULES for w in r.words}))


def _may_hold_words(text: str) -> bool:
    """Whether ``text`` may hold a word of ``_WORD_RULES``: a search for one character (a ``memchr``) per first character."""
    return any(first in text for first in _WORD_FIRSTS)


_TOKEN_CHECKS = tuple((r, r.token) for r in RULES if r.token is not None)
_B64_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_B64_MIN = 16  # base64 of anything a rule can recognise is longer
_B64_URLSAFE = str.maketrans("-_", "+/")


_B64_MARK = bytes(120 if b in _B64_CHARS else 32 for b in range(256))  # b"x" for a base64 character, else b" "


def _runs(text: str, min_len: int, raw: bytes | None = None) -> Iterator[tuple[int, int]]:
    """Spans of base64-alphabet runs of at least ``min_len`` characters (``=`` padding included)."""
    # Marked as x (base64) or blank, a long run is a row of x: bytes.find looks for it in C,
    # and most text has none at all.
    marked = (_latin1(text) if raw is None else raw).translate(_B64_MARK)
    least = b"x" * max(min_len, 1)
    n = len(marked)
    start = marked.find(least)
    while start >= 0:  # the first row of x at or after a blank starts a run
        end = marked.find(b" ", start + len(least))
        if end < 0:
            end = n
        run_end = end
        while end < n and end - run_end < 2 and text[end] == "=":
            end += 1
        yield start, end
        start = marked.find(least, end)


def _wrapped(text: str, depth: int, raw: bytes | None = None) -> list[tuple[int, int, str]]:
    """Bare shapes (a lone AWS secret key) and base64 that decodes to text holding a secret."""
    found: list[tuple[int, int, str]] = []
    if len(text) < _B64_MIN:
        return found
    for start, end in _runs(text, _B64_MIN, raw):
        run = text[start:end]
        for rule, token in _TOKEN_CHECKS:
            if token(run):
                found.append((start, end, rule.rule_id))
                break
        else:
            if depth == 0 and _ASCII_LEADS.issuperset(run[::4]) and not _STAND_IN.match(run):
                inner = _b64_decoded(run)
                if inner is not None and _findings(inner, depth + 1):
                    found.append((start, end, "base64-wrapped"))
    return found


_STAND_IN = re.compile(r"(?i)dummy|fake|example|sample|placeholder")  # a blob that says it is one
# Each 4-character group of base64 that encodes ASCII starts with one of these (its first
# six bits are below 32): a cheap test that a run could hide text at all.
_ASCII_LEADS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef")


def _b64_decoded(run: str) -> str | None:
    """``run`` decoded as base64 when that gives readable text, else ``None``."""
    core = run.rstrip("=")
    if len(core) % 4 == 1:
        return None
    try:
        raw = base64.b64decode(core.translate(_B64_URLSAFE) + "=" * (-len(core) % 4), validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    printable = sum(1 for c in decoded if c.isprintable() or c in "\n\t")
    return decoded if printable >= 0.95 * len(decoded) else None


# Characters that fold to ASCII under NFKC one for one (full-width letters, digits and
# punctuation, the ideographic space, mathematical letters): scanned folded, so
# ``ｐａｓｓｗｏｒｄ＝…`` reads as ``password=…`` with every offset unchanged.
_FOLD = {
    c: f
    for c in (*range(0xFF01, 0xFF5F), 0x3000, *range(0xFE50, 0xFE6C), *range(0x1D400, 0x1D800))
    if len(f := unicodedata.normalize("NFKC", chr(c))) == 1 and f.isascii()
}
_UNUSUAL_SET = "\uff01-\uff5e\u3000\ufe50-\ufe6b\U0001d400-\U0001d7ff" + INVISIBLE.pattern[1:-1]
_UNUSUAL = re.compile(f"[{_UNUSUAL_SET}]")


def _utf8_class(members: str) -> re.Pattern[bytes]:
    """A bytes pattern matching the UTF-8 of exactly the characters of the class body ``members`` (``a-z`` ranges).

    UTF-8 is self-synchronising: a character's bytes found in encoded text are that character,
    so searching the bytes (in C, one byte at a time) answers what searching the text would.
    """
    chars: list[str] = []
    i = 0
    while i < len(members):
        if i + 2 < len(members) and members[i + 1] == "-":
            chars.extend(map(chr, range(ord(members[i]), ord(members[i + 2]) + 1)))
            i += 3
        else:
            chars.append(members[i])
            i += 1
    lasts: dict[bytes, list[int]] = {}
    for ch in chars:
        code = ch.encode("utf-8", "surrogatepass")
        lasts.setdefault(code[:-1], []).append(code[-1])
    branches = [([re.escape(chr(b)) for b in head], _byte_class(tail)) for head, tail in lasts.items()]
    return re.compile(_trie(branches).encode("latin-1"))


_UNUSUAL_UTF8 = _utf8_class(_UNUSUAL_SET)
_ASCII_BYTES = bytes(range(128))
_JOINED_PRIORITY = 20  # only the token families (below this) may read across a line break


def _visible(text: str) -> tuple[str, list[int] | None]:
    """``text`` folded to ASCII where NFKC allows and without invisible characters; the map back, if offsets moved."""
    # ASCII bytes are whole characters in UTF-8: without them the search reads only the other characters
    if text.isascii() or not _UNUSUAL_UTF8.search(text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)):
        return text, None
    view = text.translate(_FOLD)
    if not INVISIBLE.search(view):
        return view, None
    keep = [i for i, ch in enumerate(view) if not INVISIBLE.match(ch)]
    return "".join(view[i] for i in keep), keep


def _back(found: Iterable[tuple[int, int, str]], keep: list[int]) -> list[tuple[int, int, str]]:
    return [(keep[s], keep[e - 1] + 1, r) for s, e, r in found if e > s]


def _findings(text: str, depth: int = 0) -> list[tuple[int, int, str]]:
    """All validated secret spans as (start, end, rule_id), possibly overlapping.

    The text is read as a person would: full-width letters as ASCII, zero-width characters
    skipped, a key wrapped over two lines joined, base64 decoded.
    """
    view, keep = _visible(text)
    raw = _latin1(view)
    found = _scan(view, raw)
    if len(view) >= _B64_MIN:
        found += _wrapped(view, depth, raw)
    joined = join_wrapped(view, raw) if "\n" in view else None
    if joined is not None:
        whole, where, joints = joined
        across = [
            (s, e, r)
            for s, e, r in _scan(whole) + _wrapped(whole, depth)
            if PRIORITY.get(r, 99) < _JOINED_PRIORITY and any(s < j < e for j in joints)
        ]
        found += _back(across, where)
    if keep is not None:
        found = _back(found, keep)
    return sorted(set(found))


def _refine(rule: Rule, m: re.Match[str]) -> str:
    if rule.rule_id == "llm-api-key" and "T3BlbkFJ" in m.group(0):
        return "openai-api-key"
    return rule.rule_id


def _merge(found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Union overlapping spans; the most specific (lowest priority number) rule names the result."""
    merged: list[tuple[int, int, str]] = []
    for start, end, rule_id in found:
        if merged and start < merged[-1][1]:
            ps, pe, pid = merged[-1]
            best = pid if PRIORITY.get(pid, 99) <= PRIORITY.get(rule_id, 99) else rule_id
            merged[-1] = (ps, max(pe, end), best)
        else:
            merged.append((start, end, rule_id))
    return merged


# ---------------------------------------------------------------------------
# public API

_MAX_ROUNDS = 8
_MARKER = "[REDACTED:"
_MARKER_RE = re.compile(r"\[REDACTED:([a-z0-9-]{1,40})\]")


def _unmarked(text: str) -> str:
    """``text`` with the rule id inside each redaction marker blanked, offsets kept.

    ``[REDACTED:stated-password]`` followed by ``="X"`` is not a password's name: read as one, each round
    would take whatever follows a marker for a secret. The brackets stay, for the token boundary they make.
    """
    if _MARKER not in text:
        return text
    return _MARKER_RE.sub(lambda m: _MARKER + " " * len(m.group(1)) + "]", text)


def redact(text: str) -> Redaction:
    """Replace every secret in ``text`` by ``[REDACTED:<rule_id>]``; clean text comes back as is."""
    found = _findings(_unmarked(text))
    if not found:
        return Redaction(text)
    ids: set[str] = set()
    # A marker's brackets can make a token boundary where a secret was glued to the one
    # just removed, so repeat until nothing is found (every round removes original text).
    for _ in range(_MAX_ROUNDS):
        parts: list[str] = []
        last = 0
        for start, end, rule_id in _merge(found):
            parts.append(text[last:start])
            parts.append(f"[REDACTED:{rule_id}]")
            ids.add(rule_id)
            last = end
        parts.append(text[last:])
        text = "".join(parts)
        found = _findings(_unmarked(text))
        if not found:
            break
    return Redaction(text, tuple(sorted(ids)))


def contains_secret(text: str) -> bool:
    """Whether :func:`redact` would change ``text``."""
    return bool(_findings(_unmarked(text)))
