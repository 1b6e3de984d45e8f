"""Compile the rule table into a few byte-level passes and run them: ``redact`` and ``contains_secret``."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from agent_memory.model import Redaction

from .checks import (
    _F,
)
from .rules import (
    RULES,
    Rule,
    _PRIORITY,
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
    """Regex text (to be latin-1 encoded) for exactly the bytes ``members``."""
    ms = sorted(set(members))
    if len(ms) == 1:
        return re.escape(chr(ms[0]))
    return "[" + "".join("\\" + chr(b) if chr(b) in "^-]\\" else re.escape(chr(b)) for b in ms) + "]"


def _atom(atom: str, table: list[int], ignore_case: bool = True) -> str:
    """One regex atom (literal, escape or class) mapped through ``table`` as a byte class."""
    matcher = re.compile(atom, _F | (re.IGNORECASE if ignore_case else 0))
    return _byte_class(table[b] for b in range(256) if matcher.fullmatch(chr(b)))


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


def _overlap(a: _Hook, b: _Hook) -> bool:
    """Whether two hooks of one pass can both match at the same position."""
    for offset in range(-max(a.anchor, b.anchor), max(len(a.literal) - a.anchor, len(b.literal) - b.anchor)):
        i, j = a.anchor + offset, b.anchor + offset
        if 0 <= i < len(a.literal) and 0 <= j < len(b.literal):
            x, y = a.literal[i], b.literal[j]
            if x != y and (a.exact or b.exact or _LOWER[x] != _LOWER[y]):
                return False
    return True


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
        anchor = _choose_anchor(literal.lower(), _ANCHOR_FREQ, bool(after))
        space = _LOW
        if anchor is None and exact:
            anchor, space = _choose_anchor(literal, _EXACT_ANCHOR_FREQ, bool(after)), _EXACT
        if anchor is None:
            raise ValueError(f"hook {literal!r} has no anchor character")
        text = literal if exact else literal.lower()
        after_re = re.compile(after, _F | re.IGNORECASE) if after else None
        entry = _Hook(text.encode("latin-1"), anchor, after_re, tuple(dict.fromkeys(rules)), exact)
        scanned = text if space == _EXACT else text.lower()
        by_pass.setdefault((space, ord(scanned[anchor])), []).append(entry)
    passes: list[_Pass] = []
    groups: dict[str, tuple[_Hook, ...]] = {}
    for (space, anchor_byte), hooks in sorted(by_pass.items()):
        table = _LOWER if space == _LOW else _IDENTITY
        literal_branches: list[tuple[list[str], str]] = []
        assert_branches: dict[str, list[str]] = {}  # look-ahead → look-behinds sharing it
        for h in hooks:
            name = f"h{len(groups)}"
            # Hooks that can match at the same spot as this one are confirmed with it.
            groups[name] = (h,) + tuple(g for g in hooks if g is not h and _overlap(h, g))
            atoms = [_atom(re.escape(chr(b)), table, space == _LOW) for b in h.literal]
            behind = f"(?<={''.join(atoms)})" if h.anchor else ""  # checked after the suffix
            ahead = f"(?={_mapped_regex(h.after.pattern, table)})" if h.after is not None else ""
            suffix = atoms[h.anchor + 1 :]
            if suffix:
                literal_branches.append((suffix, behind + ahead + f"(?P<{name}>)"))
            else:
                assert_branches.setdefault(ahead, []).append(behind + f"(?P<{name}>)")
        alts = [_trie(literal_branches)] if literal_branches else []
        for ahead, behinds in sorted(assert_branches.items()):
            alts.append(ahead + ("(?:" + "|".join(behinds) + ")" if len(behinds) > 1 else behinds[0]))
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        pattern = re.compile((re.escape(chr(anchor_byte)) + body).encode("latin-1"))
        passes.append((space, anchor_byte, pattern))
    return tuple(passes), groups


_PASSES, _HOOK_GROUPS = _build_scanner()


def _hook_hits(text: str) -> dict[Rule, list[tuple[int, int]]]:
    """Every (rule → hook spans) present in ``text``; empty for text with nothing secret-like."""
    raw = text.encode("latin-1", "replace")  # one byte per character: offsets stay valid
    low = raw.lower()
    copies = (low, raw)
    short = len(raw) < 4096  # for short text a membership test is cheaper than a search
    hits: dict[Rule, list[tuple[int, int]]] = {}
    for space, anchor_byte, pattern in _PASSES:
        data = copies[space]
        if short and anchor_byte not in data:
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


def _findings(text: str) -> list[tuple[int, int, str]]:
    """All validated secret spans as (start, end, rule_id), possibly overlapping."""
    hits = _hook_hits(text)
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
            best = pid if _PRIORITY.get(pid, 99) <= _PRIORITY.get(rule_id, 99) else rule_id
            merged[-1] = (ps, max(pe, end), best)
        else:
            merged.append((start, end, rule_id))
    return merged


# ---------------------------------------------------------------------------
# public API

_MAX_ROUNDS = 8


def redact(text: str) -> Redaction:
    """Replace every secret in ``text`` by ``[REDACTED:<rule_id>]``; clean text comes back as is."""
    found = _findings(text)
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
        found = _findings(text)
        if not found:
            break
    return Redaction(text, tuple(sorted(ids)))


def contains_secret(text: str) -> bool:
    """Whether :func:`redact` would change ``text``."""
    return bool(_findings(text))


def secret_hash(text: str) -> str:
    """SHA-256 hex digest of the original text, stored instead of plaintext for redacted records."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

