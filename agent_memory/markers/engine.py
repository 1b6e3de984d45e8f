"""Marker rules: the durable claims a person typed in one user turn.

A marker is a sentence of the person's own that carries a claim meant to outlive the
task at hand: a rule ("always rebase before pushing"), a correction ("the port is
5432, not 5433"), a preference ("I'd rather use pytest than unittest"), a named lesson
("TIL: ...") or a reproducible failure ("the e2e job fails every time on macOS").

The rules are tuned for precision: a missed claim costs little (the person will say it
again), a false one pollutes memory. So a sentence is dropped whenever it is a question,
a hedge, a one-off or temporary request, a negated marker ("never mind"), reported
speech, a hypothetical, assistant-like prose, or longer than a typed sentence should be;
text in code fences, inline code, quotes, ``>`` lines, URLs and pasted logs never fires.

One sentence gives at most one marker. When several rules match, the kind is chosen by
a fixed priority: correction > failure > lesson > preference > instruction. Corrections
come first because a sentence that corrects usually also states the fact it corrects
to; failures before lessons because "X always crashes when Y" is the more specific
claim; instructions last because their cue words ("always", 必ず) are the most common.

Rule ids are stored in atoms: renaming one is a breaking change.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from ..model import Marker
from . import rules_en, rules_ja, rules_zh
from .rule import EVERYTHING, KIND_PRIORITY, MAX_SENTENCE_CHARS, TRAIL_RE, I, MarkerRule, lang_of

__all__ = ["RULES", "find_markers", "is_stated", "split_sentences"]

MAX_TURN_CHARS = 12_000  # beyond this a turn is a pasted document


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
_NEEDS_FOLD = re.compile("[\u2018\u2019\u00a0\uff01-\uffee]")

_NEWLINES = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_NEWLINE_RE = re.compile("[" + _NEWLINES + "]")


def _fold(text: str) -> str:
    """Same-length normalisation used for matching only."""
    if _NEEDS_FOLD.search(text):
        return text.translate(_FOLD)
    return text


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _blank(match: re.Match[str]) -> str:
    """Replace a span by spaces, keeping its line breaks (so line numbering holds)."""
    return "".join(c if c in _NEWLINES else " " for c in match.group(0))


def _hide_inner(match: re.Match[str]) -> str:
    """Replace the inside of a quote / inline code by placeholder letters.

    Placeholder letters keep the quoted thing acting as a word ("always run `make`"),
    while no marker word inside it can match.
    """
    s = match.group(0)
    return s[0] + "x" * (len(s) - 2) + s[-1]


_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
_QUOTE_LINE_RE = re.compile(r"^[ \t]*>.*$", re.M)
_INLINE_CODE_RE = re.compile(r"`[^`\n]+`")
# a URL, without the sentence punctuation that may follow it
_URL_RE = re.compile(
    r"\b(?:(?:https?|ftp|file)://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]。、]"
)
_QUOTES_RE = re.compile(
    r"\"[^\"\n]{1,300}\"|\u201c[^\u201d\n]{1,300}\u201d|「[^」\n]{1,300}」"
    r"|『[^』\n]{1,300}』|\u00ab[^\u00bb\n]{1,300}\u00bb"
)
# blocks that wrap injected or tool text: <system-reminder>…</system-reminder>, <command-args>…
_WRAPPER_RE = re.compile(r"<([a-z][a-z0-9]*[-_][a-z0-9_-]+)(?:\s[^>]*)?>.*?</\1\s*>", re.S)
_HEADING_RE = re.compile(r"^[ \t]*#{1,6}[ \t]+\S", re.M)

# Lines of pasted logs and stack traces (case matters: log levels are upper case).
_LOG_LINE_RE = re.compile(
    r"""^\s*(?:
      Traceback\ \(most\ recent\ call\ last\)
    | File\ ".*",\ line\ \d+
    | at\ \S+.*\(.*:\d+(?::\d+)?\)\s*$
    | at\ \S+:\d+:\d+\s*$
    | \d{4}-\d{2}-\d{2}[T\ ]\d{2}:\d{2}
    | \[?\d{2}:\d{2}:\d{2}
    | \[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\]
    | (?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|PANIC)(?:\s*[:\]|]|\s+\S+\s*:)
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
_CODE_LINE_RE = re.compile(
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
    | .*[;{]\s*$
    | @\w+(?:\(.*\))?\s*$
    | </?[a-zA-Z][\w-]*(?:\s[^>]*)?/?>\s*$
    | [\w.\[\]"']+\s*(?:=|:)\s*[\[{]\s*$
    | (?://|/\*|\*/|<!--)
    | ['"][\w@/.:-]+['"]\s*:\s
    )""",
    re.X,
)
_INDENTED_CODE_RE = re.compile(r"^(?: {4,}|\t+)(?![-*+\u2022] |\d+[.)] ).*[(){}\[\];=<>].*$")


# markdown emphasis around the person's own words: "**NEVER** run ..." reads as "NEVER run ..."
_EMPHASIS_RE = re.compile(r"(?<![\w*])(\*\*|__|\*)(?=[^\s*_])([^*\n]{1,80}?)(?<=[^\s*_])\1(?![\w*])")


def _unemphasise(match: re.Match[str]) -> str:
    marks = " " * len(match.group(1))
    return marks + match.group(2) + marks


def _mask(text: str) -> tuple[str, int, int]:
    """Hide everything the person did not say in their own voice.

    Returns the masked text (same length as ``text``) and, for the unfenced lines, how
    many look like pasted code or log output and how many are non-blank.
    """
    masked = _WRAPPER_RE.sub(_blank, text) if "</" in text else text
    masked = _FENCE_RE.sub(_blank, masked)
    masked = _QUOTE_LINE_RE.sub(_blank, masked)
    masked = _URL_RE.sub(lambda m: "x" * len(m.group(0)), masked)
    masked = _INLINE_CODE_RE.sub(_hide_inner, masked)
    masked = _QUOTES_RE.sub(_hide_inner, masked)
    if "*" in masked or "__" in masked:
        masked = _EMPHASIS_RE.sub(_unemphasise, masked)
    out: list[str] = []
    code_lines = 0
    prose_lines = 0
    for line in re.split("([" + _NEWLINES + "])", masked):
        if len(line) == 1 and line in _NEWLINES:
            out.append(line)
            continue
        if not line.strip():
            out.append(line)
            continue
        if _LOG_LINE_RE.match(line) or _CODE_LINE_RE.match(line) or _INDENTED_CODE_RE.match(line):
            code_lines += 1
            out.append(" " * len(line))
        else:
            prose_lines += 1
            out.append(line)
    return "".join(out), code_lines, code_lines + prose_lines


# ------------------------------------------------------------------ sentence splitting

_BULLET_RE = re.compile(
    r"^[ \t]*(?:[-*+\u2022・●■◆→>](?:[ \t]*\[[ xX]\])?[ \t]*"
    r"|\d{1,3}[.)）][ \t]+|[a-zA-Z][.)][ \t]+|[(（]\d{1,3}[)）][ \t]*|#{1,6}[ \t]+)"
)
_ENDER_RE = re.compile(
    r"[。！？]+[」』）)\]\"'\u201d]*"
    r"|[.!?]+[)\]\"'\u201d」』]*(?=\s|$)"
    r"|[!?]+(?=[^\x00-\x7f])"
)
_ABBREV = frozenset(
    "e.g eg i.e ie etc vs v cf approx fig no nr incl esp ex resp al mr mrs ms dr prof st jr sr ca "
    "viz min max sec aka w.r.t wrt".split()
)


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    bullet: bool  # the sentence opens a bulleted / numbered line
    line: int  # index of the line it is on
    line_start: bool  # the sentence opens its line
    line_end: bool  # the sentence closes its line


def _spans(text: str) -> list[_Span]:
    """Sentence spans of ``text``: split on line breaks and sentence enders.

    English needs an ender followed by white space (so ``main.py``, ``v1.2.3`` and URLs
    hold together) and skips "e.g." and friends; Japanese enders split at once.
    """
    spans: list[_Span] = []
    pos = 0
    for line_no, line in enumerate(_NEWLINE_RE.split(text)):
        base = pos
        pos += len(line) + 1
        if not line.strip():
            continue
        bullet_m = _BULLET_RE.match(line)
        offset = bullet_m.end() if bullet_m else 0
        bullet = bool(bullet_m)
        cuts: list[int] = []
        for m in _ENDER_RE.finditer(line, offset):
            if m.group(0).startswith(".") and m.group(0).rstrip(")]\"'\u201d」』") == ".":
                j = m.start()
                while j > offset and m.start() - j < 12 and not line[j - 1].isspace():
                    j -= 1
                token = line[j : m.start()].lower().lstrip("([")
                if token in _ABBREV and not (token == "etc" and _next_is_upper(line, m.end())):
                    continue
            cuts.append(m.end())
        bounds = [offset, *cuts, len(line)]
        pieces = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
        kept: list[tuple[int, int]] = []
        for s, e in pieces:
            while s < e and line[s].isspace():
                s += 1
            while e > s and line[e - 1].isspace():
                e -= 1
            if s < e:
                kept.append((s, e))
        for i, (s, e) in enumerate(kept):
            spans.append(
                _Span(base + s, base + e, bullet and i == 0, line_no, i == 0, i == len(kept) - 1)
            )
    return spans


def _next_is_upper(line: str, at: int) -> bool:
    rest = line[at:].lstrip()
    return bool(rest) and rest[0].isupper()


def split_sentences(text: str) -> list[str]:
    """The sentences of a turn, whitespace-collapsed, bullets stripped."""
    folded = _fold(text)
    protected = _URL_RE.sub(lambda m: "x" * len(m.group(0)), folded)
    protected = _INLINE_CODE_RE.sub(_hide_inner, protected)
    return [_collapse(text[s.start : s.end]) for s in _spans(protected)]


_TURN_ASSISTANT_RE = re.compile(
    r"^\s*(?:Certainly[!,.]|Understood[!,.]|Absolutely[!,.]|You'?re absolutely right|I apologi[sz]e|"
    r"Great question|Here'?s (?:a|the|what|how)|I'll (?:now|start|go ahead)|Let me (?:start|check|"
    r"look|explain|summari[sz]e)|承知(?:しました|いたしました)|"
    r"かしこまりました|ご指摘ありがとう|"
    r"申し訳(?:あり|ござい)ません)"
)


# --------------------------------------------------------------------- vetoes, claims

_LANG_TABLES = {"ja": rules_ja, "zh": rules_zh}


def _vetoed(sentence: str, lang: str) -> frozenset[str]:
    """Kinds a sentence may not yield, for the reasons listed in the module docstring."""
    if len(sentence) > MAX_SENTENCE_CHARS:
        return EVERYTHING
    core = TRAIL_RE.sub("", sentence)
    vetoed = rules_en.vetoes(sentence, core)
    table = _LANG_TABLES.get(lang)
    if table is not None and vetoed != EVERYTHING:
        vetoed |= table.vetoes(sentence, core)
    return vetoed


def _has_claim(text: str, lang: str, kind: str = "correction") -> bool:
    """Whether the words after a cue state something.

    A correction must restate a fact (a copula, "X, not Y"): "No, fix it" corrects an
    action, not a belief. After a lesson or "remember that" any few words will do.
    """
    core = TRAIL_RE.sub("", text).strip(" \t,.:;、。，：-—–")
    if kind != "correction":
        if lang == "en" and lang_of(core) == "en":
            return len(core.split()) >= 3
        return len(core) >= 6
    table = _LANG_TABLES.get(lang, rules_en)
    return table.has_claim(core)


# ------------------------------------------------------------------------- the rules

# Rules in the order they are tried: kind priority first, then reversals, then as listed.
RULES: tuple[MarkerRule, ...] = tuple(
    sorted(
        [*rules_en.RULES, *rules_ja.RULES, *rules_zh.RULES],
        # within a kind, reversals first: "以后不再用 X" revokes a rule before it can read as one
        key=lambda r: (KIND_PRIORITY.index(r.kind), "reversal" not in r.rule_id),
    )
)
_RULES_BY_LANG: dict[str, tuple[MarkerRule, ...]] = {
    "en": tuple(r for r in RULES if r.lang == "en"),
    "ja": tuple(r for r in RULES if r.lang in ("ja", "en")),
    "zh": tuple(r for r in RULES if r.lang in ("zh", "en")),
}
_KEYWORDS: tuple[str, ...] = tuple(sorted({k for r in RULES for k in r.keywords}))


def _has_keyword(text: str) -> bool:
    """The prefilter: does any rule's cue word occur at all?"""
    lowered = text.lower()
    return any(k in lowered for k in _KEYWORDS)

# ------------------------------------------------------------------------ stated / headers

_STATED_RE = re.compile("|".join((rules_en.STATED, rules_ja.STATED, rules_zh.STATED)), I)


def is_stated(sentence: str) -> bool:
    """Whether the person explicitly asked for this to be kept ("remember", 「今後は」)."""
    return bool(_STATED_RE.search(_fold(sentence)))


# A short line ending in ":" that makes the bullets under it durable ("From now on:").
_HEADER_RULES: tuple[tuple[re.Pattern[str], str], ...] = (*rules_en.HEADERS, *rules_ja.HEADERS, *rules_zh.HEADERS)
_HEADER_END_RE = re.compile(r"[:：]\s*$")


def _header_rule(sentence: str) -> str | None:
    if not _HEADER_END_RE.search(sentence) or len(sentence) > 80:
        return None
    for pattern, rule_id in _HEADER_RULES:
        if pattern.search(sentence):
            return rule_id
    return None


_SCAFFOLD_RE = re.compile(
    r"^(?:(?:please|pls|ok|okay|also|and|so)\s*,?\s+)?(?:remember(?:\s+(?:this|that))?|"
    r"keep\s+in\s+mind|bear\s+in\s+mind|note\s+to\s+(?:self|future\s+self|myself)|for\s+future\s+reference|"
    r"lessons?\s+learned|lesson|(?:key\s+)?takeaway|(?-i:TIL)|today\s+i\s+learned|gotcha|pitfall|"
    r"footgun|memo|(?-i:NB))\s*(?:[:—–-]+\s*|,\s*|\s+(?=that\s))(?:that\s+)?"
    r"|^(?:今日の|自分用)?(?:教訓|学び|気づき|メモ|備忘録|"
    r"踩坑|教训)\s*[:：]\s*",
    I,
)


def _trim(text: str) -> str:
    """The claim with "remember:"/"TIL"/「教訓:」 scaffolding removed when enough is left."""
    m = _SCAFFOLD_RE.match(text)
    if m and len(text) - m.end() >= 6:
        return text[m.end() :]
    return text


# ---------------------------------------------------------------------------- finding

_MARKDOWN_DOC_HEADINGS = 3


def _worth_splitting(text: str) -> bool:
    """Cheap checks done before any sentence is split."""
    if not text or len(text) > MAX_TURN_CHARS:
        return False
    if not _has_keyword(text):
        return False
    if _TURN_ASSISTANT_RE.match(text):
        return False
    headings = len(_HEADING_RE.findall(text)) if "#" in text else 0
    if headings >= _MARKDOWN_DOC_HEADINGS or (headings >= 2 and len(text) > 1500):
        return False  # a pasted spec / issue / prompt with its own headings
    return True


def _claim_end(
    rule: MarkerRule, m: re.Match[str], sentence: str, lang: str, i: int, spans: list[_Span], masked: str
) -> int | None:
    """Where the claim a rule found ends: this sentence (0), the next one (1), or None."""
    if rule.claim == "none":
        return 0
    rest = sentence[m.end() :]
    if _has_claim(rest, lang, rule.kind):
        return 0
    if TRAIL_RE.sub("", rest).strip(" ,:;、-—–"):
        return None
    # a trailing cue ("..., lesson learned", 「…という教訓」) follows its claim
    if m.start() > 0 and _has_claim(sentence[: m.start()], lang, rule.kind):
        return 0
    if rule.claim != "after_or_next" or i + 1 >= len(spans):
        return None
    nxt = spans[i + 1]
    if masked[spans[i].end : nxt.start].strip():
        return None
    nxt_sentence = masked[nxt.start : nxt.end]
    nxt_lang = lang_of(nxt_sentence)
    if rule.kind in _vetoed(nxt_sentence, nxt_lang) or not _has_claim(nxt_sentence, nxt_lang, rule.kind):
        return None
    return 1


def find_markers(text: str) -> list[Marker]:
    """The durable claims in one user turn, in order; [] when there are none."""
    if not isinstance(text, str) or not _worth_splitting(text):
        return []
    folded = _fold(text)
    masked, code_lines, lines = _mask(folded)
    if code_lines >= 3 and code_lines >= 0.6 * lines:
        return []  # mostly pasted code or log output
    if not _has_keyword(masked):
        return []
    spans = _spans(masked)
    found: list[tuple[int, int, Marker]] = []  # first and last span of each marker
    keep_asks: set[int] = set()  # spans that only ask to keep something: "Remember this."
    seen: set[str] = set()
    header: tuple[str, int, bool] | None = None  # (rule id, line, stated) of an open "From now on:"
    skip_next = False
    for i, span in enumerate(spans):
        if skip_next:
            skip_next = False
            continue
        sentence = masked[span.start : span.end]
        if header is not None and span.line_start and not span.bullet:
            header = None
        if header is None and not _has_keyword(sentence):
            continue
        lang = lang_of(sentence)
        vetoed = _vetoed(sentence, lang)
        header_id = _header_rule(sentence) if span.line_end else None
        if header_id is not None and not vetoed:
            if i + 1 < len(spans) and spans[i + 1].bullet:
                header = (header_id, span.line, is_stated(sentence))
                continue
        chosen: MarkerRule | None = None
        match: re.Match[str] | None = None
        end = span.end
        stated = False
        if len(vetoed) < len(KIND_PRIORITY):
            for rule in _RULES_BY_LANG[lang]:
                if rule.kind in vetoed:
                    continue
                m = rule.matches(sentence)
                if m is None:
                    continue
                extra = _claim_end(rule, m, sentence, lang, i, spans, masked)
                if extra is None:
                    continue
                chosen, match = rule, m
                if extra:
                    end = spans[i + 1].end
                    skip_next = True
                break
        if chosen is None:
            if len(sentence) <= 60 and len(vetoed) < len(KIND_PRIORITY) and is_stated(sentence):
                keep_asks.add(i)
            if header is None or not span.bullet or "instruction" in vetoed or not _bullet_claim(sentence):
                continue
            chosen = _RULE_BY_ID[header[0]]
            stated = header[2]
        claim = _trim(_collapse(text[span.start : end]))
        if match is not None and end == span.end and match.re.groupindex.get("claim") and match.group("claim"):
            # the rule names the clause that carries the claim
            clause = text[span.start + match.start("claim") : span.start + match.end("claim")]
            claim = _collapse(clause).strip(" ,;:—–-") or claim
        stated = stated or is_stated(masked[span.start : end])
        if not claim or claim in seen:
            continue
        seen.add(claim)
        last = i + 1 if end != span.end else i
        reverses = ""
        if match is not None and chosen.reverses is not None:
            reverses = _collapse(chosen.reverses(text[span.start : span.end], match)).rstrip(" .!。！")
        found.append((i, last, Marker(kind=chosen.kind, rule_id=chosen.rule_id, text=claim, stated=stated,
                                      reverses=reverses)))
    # "Always use pnpm. Remember that." asks to keep the claim next to it
    return [
        replace(m, stated=True) if not m.stated and (first - 1 in keep_asks or last + 1 in keep_asks) else m
        for first, last, m in found
    ]


def _bullet_claim(sentence: str) -> bool:
    """A bullet under a durable header: anything with at least two words / four characters."""
    core = TRAIL_RE.sub("", sentence).strip()
    if lang_of(core) == "en":
        return len(core.split()) >= 2
    return len(core) >= 4


_RULE_BY_ID: dict[str, MarkerRule] = {r.rule_id: r for r in RULES}
