"""A turn made ready for the marker rules: what the person did not say in their own voice masked, then sentences.

Folding (full-width forms, curly apostrophes), masking (code fences, inline code, quotes,
``>`` lines, URLs, wrappers, pasted logs and code lines, each kept at its length so offsets
still point into the turn) and splitting into sentence spans (line breaks, enders,
abbreviations that do not end one). ``engine`` runs the rules over what this gives.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from .rule import lang_of, lazy


# --------------------------------------------------------------------------- text prep

# Full-width ASCII, half-width katakana and curly apostrophes folded one character to
# one character, so offsets into the matching text are offsets into the person's text.
def _fold_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for cp in range(0xFF01, 0xFFEF):
        folded = unicodedata.normalize("NFKC", chr(cp))
        if len(folded) == 1 and folded != chr(cp):
            table[cp] = folded
    # keep the Japanese sentence enders and brackets recognisable as such
    for keep in "！？（）：":
        table.pop(ord(keep), None)
    table[0x2019] = "'"
    table[0x2018] = "'"
    table[0x00A0] = " "
    return table


_FOLD = _fold_table()
_NEEDS_FOLD = lazy("[\u2018\u2019\u00a0\uff01-\uffee]")

_NEWLINES = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_NEWLINE_RE = lazy("[" + _NEWLINES + "]")


def _lines(text: str) -> list[str]:
    """The lines of ``text``, split on each of ``_NEWLINES``; the last one may be left out when it is empty."""
    # str.splitlines breaks on the same characters, in C and far faster than the regex, but takes "\r\n" as one
    # break and leaves out the empty line after a last break; without "\r" its lines are the regex's, at the same
    # offsets, and the callers skip empty lines
    if "\r" in text:
        return _NEWLINE_RE.split(text)
    return text.splitlines()


def fold_text(text: str) -> str:
    """Same-length normalisation used for matching only."""
    if not text.isascii() and _NEEDS_FOLD.search(text):  # (every character folded lies past ASCII)
        return text.translate(_FOLD)
    return text


def collapse(text: str) -> str:
    return " ".join(text.split())


_NOT_NEWLINE_RE = lazy("[^" + _NEWLINES + "]+")


_OTHER_BREAK_RE = lazy("[" + _NEWLINES[1:] + "]")  # the line breaks but "\n"


def _blank(match: re.Match[str]) -> str:
    """Replace a span by spaces, keeping its line breaks (so line numbering holds)."""
    span = match.group(0)
    if _OTHER_BREAK_RE.search(span) is None:
        # broken by "\n" alone (a fenced block as typed): its lines at their lengths, with no call back per line
        return "\n".join(" " * len(line) for line in span.split("\n"))
    return _NOT_NEWLINE_RE.sub(lambda line: " " * (line.end() - line.start()), span)


def _hide_inner(match: re.Match[str]) -> str:
    """Replace the inside of a quote / inline code by placeholder letters.

    Placeholder letters keep the quoted thing acting as a word ("always run `make`"),
    while no marker word inside it can match.
    """
    s = match.group(0)
    return s[0] + "x" * (len(s) - 2) + s[-1]


# a fence to the line that closes it, or to the end: the lines in between are skipped whole (a closing line
# starts a line, and the end is reached by the last line's rest), so a long block costs little per character
_FENCE_RE = lazy(
    r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(?:[^\n]*\n)*?(?:[ \t]*\1[ \t]*$|[^\n]*\Z)", re.M
)
_QUOTE_LINE_RE = lazy(r"^[ \t]*>.*$", re.M)
# files and folders attached at the head of a line ("@TODO.md Periodically run …", "@rules/ @.cursor/ add …"): what
# the client reads in beside the words, not the sentence's first word ("@types/node must be pinned" names a package)
_ATTACHED_RE = lazy(r"^[ \t]*(?:@(?:[\w./-]*\.[A-Za-z]\w{0,5}|[\w.-]+(?:/[\w.-]+)*/)(?![\w/])[ \t]*)+(?=\S)", re.M)
_INLINE_CODE_RE = lazy(r"`[^`\n]+`")
# a URL, without the sentence punctuation that may follow it
_URL_RE = lazy(
    r"\b(?:(?:https?|ftp|file)://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]。、]"
)
_QUOTES_RE = lazy(
    r"\"[^\"\n]{1,300}\"|\u201c[^\u201d\n]{1,300}\u201d|「[^」\n]{1,300}」"
    r"|『[^』\n]{1,300}』|\u00ab[^\u00bb\n]{1,300}\u00bb"
)
_QUOTE_MARKS_RE = lazy("[\"\u201c「『\u00ab]")  # what every quotation _QUOTES_RE hides opens with
# blocks that wrap injected or tool text: <system-reminder>…</system-reminder>, <command-args>…
_WRAPPER_RE = lazy(r"<([a-z][a-z0-9]*[-_][a-z0-9_-]+)(?:\s[^>]*)?>.*?</\1\s*>", re.S)
HEADING_RE = lazy(r"^[ \t]*#{1,6}[ \t]+\S", re.M)

# Lines of pasted logs and stack traces (case matters: log levels are upper case).
_LOG_LINE_RE = lazy(
    r"""^\s*(?:
      Traceback\ \(most\ recent\ call\ last\)
    | File\ ".*",\ line\ \d+
    | at\ \S+.*\(.*:\d+(?::\d+)?\)\s*$
    | at\ \S+:\d+:\d+\s*$
    | \d{4}-\d{2}-\d{2}[T\ ]\d{2}:\d{2}
    | \[?\d{2}:\d{2}:\d{2}
    | \[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\]
    | (?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|PANIC)(?:\s*[:\]|]|\s+\S+\s*:)
      (?!\s*(?i:never|always|do\ not|don't|must)\b)  # "CRITICAL: NEVER commit …" is a label on a rule
    | [EF]\s{2,}\S
    | (?:FAILED|PASSED|ERROR|FAIL|PASS|SKIPPED|XFAIL)\s+\S+
    | npm\ (?:ERR!|WARN|error)
    | (?:error|warning)(?:\[[A-Z]?\d+\])?:\s
    | \$\ \S
    | [\w.]*(?:Error|Exception|Warning|Fault)(?::\s|\s*$)
    | Caused\ by:
    | -->\s
    | \d+\s+\|
    | [│├└┌┐┘┬┴┼─]
    | =+\s.*(?:passed|failed|FAILURES|ERRORS|test\ session\ starts)
    | \^{2,}
    | [✓✔✗✘×]\s
    | thread\ '.*'\ panicked
    | goroutine\ \d+
    | panic:\s
    | (?:make|ninja|gradle|cargo|yarn|pnpm)(?:\[\d+\])?:\s
    | exit\ (?:code|status)\ \d+
    | \d+→
    | Process\ finished\ with\ exit\ code
    )""",
    re.X,
)

# Lines of pasted source code (lowercase keywords followed by code punctuation).
_CODE_LINE_RE = lazy(
    r"""^\s*(?:
      (?:async\s+)?def\s+\w+\s*\(
    | class\s+\w+\s*[:(\{<]
    | import\s+[\w.]+(?:\s+as\s+\w+)?\s*;?\s*$
    | import\s+(?:\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+\S
    | from\s+[\w.]+\s+import\s
    | (?:const|let|var)\s+[\w{}\[\], ]+\s*=
    | (?:export\s+)?(?:default\s+)?(?:async\s+)?function\b\s*\w*\s*\(
    | (?:public|private|protected)\s+(?:static\s+)?[\w<>\[\]]+\s+\w+\s*[(=;]
    | return\b.*;\s*$
    | (?:if|for|while|switch)\s*\(.*\)\s*\{?\s*$
    | \#include\b | \#define\b
    | package\s+[\w.]+;?\s*$
    | (?:pub\s+)?fn\s+\w+\s*[<(]
    | func\s+(?:\(\w+\s+\*?\w+\)\s*)?\w+\s*\(
    | [}\])]+[;,)]*\s*$
    | (?P<ends>.*;\s*$|.*\{\s*$)  # (not .*[;{]: after .* a literal lets the regex engine skip back to it in C)
    | @\w+(?:\(.*\))?\s*$
    | </?[a-zA-Z][\w-]*(?:\s[^>]*)?/?>\s*$
    | [\w.\[\]"']+\s*(?:=|:)\s*[\[{]\s*$
    | (?://|/\*|\*/|<!--)
    | ['"][\w@/.:-]+['"]\s*:\s
    )""",
    re.X,
)
_INDENTED_CODE_RE = lazy(r"^(?: {4,}|\t+)(?![-*+\u2022] |\d+[.)] ).*[(){}\[\];=<>].*$")


# markdown emphasis around the person's own words: "**NEVER** run ..." reads as "NEVER run ..."
_EMPHASIS_RE = lazy(r"(?<![\w*])(\*\*|__|\*)(?=[^\s*_])([^*\n]{1,80}?)(?<=[^\s*_])\1(?![\w*])")


def _unemphasise(match: re.Match[str]) -> str:
    marks = " " * len(match.group(1))
    return marks + match.group(2) + marks


def _hidden(text: str) -> str:
    """Wrappers, fences, ``>`` lines, URLs, inline code, quotes and emphasis hidden, at their length.

    Each pattern runs only where the characters it needs are present (a fence's ``` or ~~~, a URL's ://
    or www., inline code's backtick, a quotation's opening mark).
    """
    masked = _WRAPPER_RE.sub(_blank, text) if "</" in text else text
    if "```" in masked or "~~~" in masked:
        masked = _FENCE_RE.sub(_blank, masked)
    if ">" in masked:
        masked = _QUOTE_LINE_RE.sub(_blank, masked)
    if "://" in masked or "www." in masked:
        masked = _URL_RE.sub(lambda m: "x" * len(m.group(0)), masked)
    if "`" in masked:
        masked = _INLINE_CODE_RE.sub(_hide_inner, masked)
    if '"' in masked or (not masked.isascii() and _QUOTE_MARKS_RE.search(masked)):  # (the other marks lie past ASCII)
        masked = _QUOTES_RE.sub(_hide_inner, masked)
    if "*" in masked or "__" in masked:
        masked = _EMPHASIS_RE.sub(_unemphasise, masked)
    return masked


def _code_line(line: str) -> bool:
    """A line of source code; Japanese and Chinese prose ends a clause on 「；」, folded to ";", and a line of it that
    only ends so is no code."""
    m = _CODE_LINE_RE.match(line)
    return m is not None and (m.group("ends") is None or lang_of(line) == "en")


def mask(text: str) -> tuple[str, int, int]:
    """Hide everything the person did not say in their own voice.

    Returns the masked text (same length as ``text``) and, for the unfenced lines, how
    many look like pasted code or log output and how many are non-blank.
    """
    masked = _hidden(text)
    code: list[tuple[int, int]] = []  # where the lines that look like code or logs are
    prose_lines = 0
    at = 0
    for line in _lines(masked):
        start = at
        at += len(line) + 1
        if not line or line.isspace():
            continue
        # ("NoneType" is Python's own word for None, in its error output only: "…PathLike object, not NoneType")
        # (an indented line opens on a space or a tab: the regex is asked only then)
        if _LOG_LINE_RE.match(line) or _code_line(line) or (line[0] in " \t" and _INDENTED_CODE_RE.match(line)) \
                or "NoneType" in line:
            code.append((start, at - 1))
        else:
            prose_lines += 1
    if code:
        out: list[str] = []
        kept = 0
        for start, end in code:
            out.append(masked[kept:start])
            out.append(" " * (end - start))
            kept = end
        out.append(masked[kept:])
        masked = "".join(out)
    if "@" in masked:  # (after the lines are judged: the blank it leaves is no code's indent)
        masked = _ATTACHED_RE.sub(_blank, masked)
    return masked, len(code), len(code) + prose_lines


# ------------------------------------------------------------------ sentence splitting

_BULLET_RE = lazy(
    r"^[ \t]*(?:[-*+\u2022・●■◆→>](?:[ \t]*\[[ xX]\])?[ \t]*"
    r"|\d{1,3}[.)）][ \t]+|[a-zA-Z][.)][ \t]+|[(（]\d{1,3}[)）][ \t]*|#{1,6}[ \t]+)"
)
_ENDER = (
    r"[。！？]+[」』）)\]\"'\u201d]*"
    r"|[.!?]+[)\]\"'\u201d」』]*(?=\s|$)"
    r"|[!?]+(?=[^\x00-\x7f])"
    # typed in haste, no space after the ender: "as closely as possible.I want to avoid stubs" (a word of two lower-case
    # letters before it, a word that opens a sentence after it; "main.py", "Node.js", "React.Component" hold together)
    r"|(?<=[a-z][a-z])[.!?]+(?=(?:I|I'm|I'd|I'll|We|We're|Please|Also|Always|Never|Don't|Do|Use|Now|Then|And|But|So|"
    r"Let's|You|Make|Keep|Remember)\b)"
)
_ENDER_RE = lazy(_ENDER)
# Where an ender starts, group 1 the ender. Every branch of _ENDER_RE opens with one of these characters: the regex
# opens on their set and consumes only that one, the ender read by a lookahead inside a one-character lookbehind, so
# the regex engine skips in C to the places an ender may start and on past those where none does (a dot in "main.py").
_ENDER_AT_RE = lazy("[.!?。！？](?<=(?=(" + _ENDER + ")).)")
_ABBREV = frozenset(
    "e.g eg i.e ie etc vs v cf approx fig no nr incl esp ex resp al mr mrs ms dr prof st jr sr ca "
    "viz min max sec aka w.r.t wrt".split()
)


class Span(NamedTuple):
    start: int
    end: int
    bullet: bool  # the sentence opens a bulleted / numbered line
    line: int  # index of the line it is on
    line_start: bool  # the sentence opens its line
    line_end: bool  # the sentence closes its line


def sentence_spans(text: str) -> list[Span]:
    """Sentence spans of ``text``: split on line breaks and sentence enders.

    English needs an ender followed by white space (so ``main.py``, ``v1.2.3`` and URLs
    hold together) and skips "e.g." and friends; Japanese enders split at once.
    """
    spans: list[Span] = []
    pos = 0
    for line_no, line in enumerate(_lines(text)):
        base = pos
        pos += len(line) + 1
        if not line or line.isspace():
            continue
        bullet_m = _BULLET_RE.match(line)
        offset = bullet_m.end() if bullet_m else 0
        bounds = [offset]
        at = offset
        while True:
            m = _ENDER_AT_RE.search(line, at)
            if m is None:
                break
            at = m.end(1)
            ender = m.group(1)
            if ender[0] == "." and ender.rstrip(")]\"'\u201d」』") == ".":
                dot = m.start()
                # the word before the dot: at most 12 characters back, not before the bullet
                before = line[max(offset, dot - 12) : dot]
                token = before.split()[-1] if before and not before[-1].isspace() else ""
                token = token.lower().lstrip("([")
                if token in _ABBREV and not (token == "etc" and _next_is_upper(line, at)):
                    continue
            bounds.append(at)
        bounds.append(len(line))
        kept: list[tuple[int, int]] = []
        for k in range(len(bounds) - 1):
            s, e = bounds[k], bounds[k + 1]
            piece = line[s:e]
            core = piece.strip()
            if core:
                s += len(piece) - len(piece.lstrip())
                kept.append((s, s + len(core)))
        last = len(kept) - 1
        for i, (s, e) in enumerate(kept):
            spans.append(Span(base + s, base + e, bool(bullet_m) and i == 0, line_no, i == 0, i == last))
    return spans


def _next_is_upper(line: str, at: int) -> bool:
    rest = line[at:].lstrip()
    return bool(rest) and rest[0].isupper()


def split_sentences(text: str) -> list[str]:
    """The sentences of a turn, whitespace-collapsed, bullets stripped."""
    folded = fold_text(text)
    protected = _URL_RE.sub(lambda m: "x" * len(m.group(0)), folded)
    protected = _INLINE_CODE_RE.sub(_hide_inner, protected)
    return [collapse(text[s.start : s.end]) for s in sentence_spans(protected)]
