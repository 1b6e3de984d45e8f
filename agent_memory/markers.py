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

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .model import Marker

__all__ = [
    "RULES",
    "MarkerRule",
    "corpus_report",
    "find_markers",
    "is_stated",
    "split_sentences",
]

KIND_PRIORITY: tuple[str, ...] = ("correction", "failure", "lesson", "preference", "instruction")

MAX_SENTENCE_CHARS = 300  # longer "sentences" are pasted prose, not something typed
MAX_TURN_CHARS = 12_000  # beyond this a turn is a pasted document


@dataclass(frozen=True)
class MarkerRule:
    """One marker rule: a stable id, the kind it yields, and how it is recognised.

    ``cue`` lists, ``|``-separated, lower-case words one of which must occur for
    ``pattern`` to match; all cues together are the prefilter run on every turn (plain
    substring tests: far cheaper than any regex over a long pasted turn).

    ``claim`` says whether the words after the match must carry a claim: ``"none"``
    (the sentence is the claim), ``"after"`` (in the same sentence) or
    ``"after_or_next"`` (or in the next one: "That's wrong. The port is 5432.").
    """

    rule_id: str
    kind: str
    lang: str
    cue: str
    pattern: re.Pattern[str]
    claim: str = "none"
    guard: Callable[[str, re.Match[str]], bool] | None = None  # extra check: (sentence, match)
    description: str = ""

    @property
    def keywords(self) -> tuple[str, ...]:
        return tuple(self.cue.split("|"))

    def matches(self, sentence: str) -> re.Match[str] | None:
        """The rule's match in a (masked) sentence, guard included; None when it does not fire."""
        lowered = sentence.lower()
        if not any(k in lowered for k in self.keywords):
            return None
        m = self.pattern.search(sentence)
        if m is None or (self.guard is not None and not self.guard(sentence, m)):
            return None
        return m


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


# ---------------------------------------------------------------- language detection

_KANA_RE = re.compile("[\u3040-\u30ff\uff66-\uff9f]")
_HAN_RE = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _lang(sentence: str) -> str:
    if _KANA_RE.search(sentence):
        return "ja"
    if _HAN_RE.search(sentence):
        return "zh"
    return "en"


# ---------------------------------------------------------------------- vetoes (en)

_I = re.IGNORECASE
_TRAIL_RE = re.compile(r"[\s.!。！~〜…)\]\"'\u201d」』w笑]+$|\s*[\U0001F300-\U0001FAFF\u2600-\u27bf]+$")

_EN_QUESTION_RE = re.compile(
    r"\?\W*$|^\W*(?:(?:ok|okay|so|and|but|also|hey|hmm|then|btw)\s*,?\s+)*"
    r"(?:should|shall|do|does|did|can|could|would|will|is|are|was|were|am|have|has|may|"
    r"why|what|how|where|which|who|whom|whose|isn't|aren't|don't|doesn't|won't|wouldn't|"
    r"shouldn't|can't|couldn't)\s+(?:we|i|you|it|they|this|that|there|he|she|the|a|an|my|"
    r"our|your|these|those|all|any)\b",
    _I,
)
_EN_HEDGE_RE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|might|may\s+(?:be|want|need|have)|i\s+think|i\s+guess|"
    r"i\s+suppose|i\s+feel\s+like|i'?m\s+not\s+sure|not\s+sure|unsure|i\s+wonder|wondering|"
    r"could|kind\s+of|kinda|sort\s+of|seems?\s+(?:like|to)|i\s+believe|it\s+appears|"
    r"presumably|arguably|in\s+theory|(?:un)?likely|hopefully|i'?m\s+guessing|not\s+certain|if\s+possible|"
    r"if\s+you\s+can|would\s+be\s+(?:nice|good|great|better|ideal)|"
    r"it'?d\s+be\s+(?:nice|good|great|better|ideal)|i\s+wish|not\s+100%|iirc|afaik)\b",
    _I,
)
_EN_ONE_OFF_RE = re.compile(
    r"\b(?:just\s+this\s+once|this\s+once|for\s+now|for\s+the\s+(?:time\s+being|moment)|"
    r"this\s+time|temporar(?:y|ily)|for\s+today|today(?<!learned\stoday)|tonight|right\s+now|"
    r"just\s+for\s+(?:this|now|the\s+demo)|only\s+(?:for\s+)?this\s+(?:once|time|pr|task|one|branch|commit)|"
    r"for\s+this\s+(?:pr|task|ticket|commit|one|session|demo|run|release|sprint|change)|"
    r"in\s+this\s+(?:pr|session|task|commit|ticket|sprint)|"
    r"until\s+(?:we|i|the|it|next|further\s+testing)|yet|at\s+the\s+moment|currently|"
    r"for\s+the\s+next\s+(?:hour|few|couple|day|week))\b",
    _I,
)
_EN_NEGATED_RE = re.compile(
    r"\b(?:never\s*mind|nevermind|nvm|scratch\s+that|"
    r"(?<!n't\s)(?<!not\s)(?<!never\s)forget\s+(?:it|that|about\s+(?:it|that))\b(?!\s+\w+\s+(?:is|are))|"
    r"ignore\s+(?:that|this|what\s+i\s+said|my\s+(?:last|previous))|disregard|cancel\s+that|"
    r"doesn'?t\s+matter|not\s+(?:always|necessarily|every\s+time)|(?:isn'?t|aren'?t|doesn'?t|"
    r"don'?t|won'?t|didn'?t|wasn'?t)\s+always|not\s+a\s+(?:hard\s+)?rule|no\s+need\s+to\s+always|"
    r"(?:that'?s|it'?s)\s+(?:fine|ok|okay)\s+(?:either\s+way|as\s+is))\b",
    _I,
)
_EN_REPORTED_RE = re.compile(
    r"(?:\b(?:he|she|they|someone|somebody|people|everyone|it|the\s+(?:docs?|documentation|"
    r"readme|guide|article|blog|post|tutorial|error(?:\s+message)?|message|log|linter|compiler|"
    r"reviewer|bot|ticket|issue|spec|manual|comment|book|team|lead|manager|boss|client|"
    r"customer|pm|output|warning|changelog|assistant|model|ai|agent|llm)|my\s+(?:boss|manager|"
    r"lead|colleague|coworker|co-worker|teammate|friend|team)|(?-i:(?!You\b|We\b|As\b)[A-Z][a-z]+))"
    r"\s+(?:said|says|told\s+(?:me|us)|tells\s+(?:me|us)|wrote|writes|mentioned|claims?|"
    r"claimed|suggested|suggests|insists?|insisted|recommends?|recommended|thinks|"
    r"thought)\b|\baccording\s+to\b|\b(?:i|we)\s+(?:was|were)\s+told\b|"
    r"\bi\s+(?:heard|read)\s+(?:that|somewhere|online)\b|\bquote\s*:|\bquoting\b|"
    r"\bthe\s+(?:agent|assistant|model|ai|bot)'?s?\s+(?:reply|answer|response|suggestion)\b)",
    _I,
)
_EN_HYPOTHETICAL_RE = re.compile(
    r"^\W*(?:what\s+if|suppose|supposing|imagine|hypothetically|in\s+theory|had\s+we|were\s+we)\b"
    r"|^\W*(?:(?:and|but|so|also)\s+)?(?:if|even\s+if|unless)\b.*\b(?:would|could|might|'d|did|were|had)\b"
    r"|\bwould\s+(?:have|be)\b.*\bif\b",
    _I,
)
_EN_ASSISTANT_RE = re.compile(
    r"^\W*(?:(?:sure|certainly|absolutely|of\s+course|understood|great|got\s+it|noted|"
    r"will\s+do|you'?re\s+(?:absolutely\s+)?right|good\s+catch|thanks?(?:\s+you)?)[!,.\s]+)*"
    r"(?:i'?ll|i\s+will|i'?m\s+going\s+to|i'?ve|i\s+have|let\s+me|here'?s|here\s+is|"
    r"i'?d\s+be\s+happy|i\s+apologi[sz]e|i\s+understand|i\s+now\s+understand|i\s+can\s+see|"
    r"i\s+see\s+that|i\s+notice[sd]?|i\s+found|i\s+checked)\b",
    _I,
)
_EN_I_WILL_RE = re.compile(r"\b(?:i'?ll|i\s+will|i'?m\s+going\s+to|i\s+shall)\b", _I)
_TURN_ASSISTANT_RE = re.compile(
    r"^\s*(?:Certainly[!,.]|Understood[!,.]|Absolutely[!,.]|You'?re absolutely right|I apologi[sz]e|"
    r"Great question|Here'?s (?:a|the|what|how)|I'll (?:now|start|go ahead)|Let me (?:start|check|"
    r"look|explain|summari[sz]e)|承知(?:しました|いたしました)|"
    r"かしこまりました|ご指摘ありがとう|"
    r"申し訳(?:あり|ござい)ません)"
)

# ---------------------------------------------------------------------- vetoes (ja)

# question marks, question endings, question words; 「教えて」 asks for information
_JA_QUESTION_RE = re.compile(
    r"[?？]|(?:ですか|ますか|でしょうか|"
    r"ませんか|かな|かね|っけ|(?<!と)(?<!なん)か)$"
    r"|どっち(?!でも)|どちら(?!でも)|なぜ|"
    r"なんで(?!も)|何で(?!も)|どうして(?!も)|"
    r"どうすれば|どうやって(?!も)|"
    r"どう(?:思|です|する|しよう|かな)|"
    r"どれ(?!でも|も)"
    r"|教えて(?:ください|ほしい|欲しい|もらえる)?$"
)
_JA_HEDGE_RE = re.compile(
    r"かもしれ|かも(?:ね|です|$)|たぶん|多分|"
    r"おそらく|恐らく|気がする|気がします|"
    r"ような気|ようです|みたい(?:です|だ|$)|"
    r"らしい|でしょう|だろう|かなぁ|"
    r"できれば|可能であれば|かも$"
)
# "I think": vetoes all but preferences (see _vetoed)
_JA_THINK_RE = re.compile(r"と思(?:う|い|っ)|と感じ")
_JA_ONE_OFF_RE = re.compile(
    r"今回|とりあえず|一旦|いったん|"
    r"今だけ|今日(?!の学び|学んだ)|暫定|"
    r"一時的|仮で|ひとまず|今は|"
    r"この(?:PR|タスク|ブランチ|コミット)(?:では|だけ)|"
    r"まだ|しばらく"
)
_JA_NEGATED_RE = re.compile(
    r"やっぱり?(?:いい|やめ|なし|大丈夫)|"
    r"気にしないで|忘れて(?:ください|$|。)|"
    r"取り消し|なしで|必ずしも|"
    r"いつも(?:ありがとう|お世話|助か)|"
    r"とは限らない|わけではない"
    # 「今後ともよろしくお願いします」 is a greeting
    r"|よろしく"
)
_JA_REPORTED_RE = re.compile(
    r"(?:と|って)言(?:って(?:い|た|ま)|われ)|"
    r"と書いて|によると|とのこと|"
    r"だそう(?:です|だ)|と聞いた|って聞いた"
)
_JA_HYPOTHETICAL_RE = re.compile(
    r"仮に|としたら|とすれば|もし.*(?:たら|なら).*(?:のに|けど)"
)
# past tense: a report of what happened, not a rule
_JA_PAST_RE = re.compile(
    r"(?:た|だ|でした|ました|だった)(?:よ|ね|けど|が|のに)?$"
)
_JA_ASSISTANT_RE = re.compile(
    # 気をつけます: the speaker's own promise, not a rule for the agent
    r"気をつけ(?:ます|る)|(?:いたします|致します|させて(?:いただ|頂)きます)(?:ね)?$"
    r"|^(?:承知|かしこまり)"
)

# ---------------------------------------------------------------------- vetoes (zh)

_ZH_QUESTION_RE = re.compile(
    r"[?？]|[吗嗎呢吧]$|是不是|要不要|能不能|"
    r"可不可以|为什么|為什麼|怎么|怎麼|哪个|哪個"
)
_ZH_HEDGE_RE = re.compile(
    r"也许|也許|可能|或许|或許|大概|"
    r"我觉得|我覺得|好像|应该吧|應該吧"
)
_ZH_ONE_OFF_RE = re.compile(
    r"这次|這次|暂时|暫時|先这样|先這樣|"
    r"今天|临时|臨時|目前"
)
_ZH_NEGATED_RE = re.compile(r"算了|不用了|没事|沒事")
_ZH_REPORTED_RE = re.compile(
    r"[他她]说|[他她]說|据说|據說|听说|聽說|"
    r"文档说|文檔說"
)
# 假如…会: a hypothetical
_ZH_HYPOTHETICAL_RE = re.compile(r"(?:假如|假設|假设|要是).*[会會]")


def _vetoed(sentence: str, lang: str) -> frozenset[str]:
    """Kinds a sentence may not yield, for the reasons listed in the module docstring."""
    everything = frozenset(KIND_PRIORITY)
    if len(sentence) > MAX_SENTENCE_CHARS:
        return everything
    core = _TRAIL_RE.sub("", sentence)
    if _EN_QUESTION_RE.search(core) or _EN_NEGATED_RE.search(sentence):
        return everything
    if _EN_REPORTED_RE.search(sentence) or _EN_HYPOTHETICAL_RE.search(sentence):
        return everything
    if _EN_ASSISTANT_RE.search(sentence) or _EN_HEDGE_RE.search(sentence):
        return everything
    vetoed: set[str] = set()
    if _EN_ONE_OFF_RE.search(sentence):
        vetoed |= {"instruction", "preference", "correction"}
    if _EN_I_WILL_RE.search(sentence):
        vetoed.add("instruction")  # a promise of the speaker's, not a rule for the agent
    if lang == "ja":
        if _JA_QUESTION_RE.search(core) or _JA_NEGATED_RE.search(sentence):
            return everything
        if _JA_REPORTED_RE.search(sentence) or _JA_HYPOTHETICAL_RE.search(sentence):
            return everything
        if _JA_HEDGE_RE.search(core) or _JA_ASSISTANT_RE.search(core):
            return everything
        if _JA_THINK_RE.search(sentence):
            # 「〜の方がいいと思います」 is the ordinary way to state a preference
            vetoed |= everything - {"preference"}
        if _JA_ONE_OFF_RE.search(sentence):
            vetoed |= {"instruction", "preference", "correction"}
        if _JA_PAST_RE.search(core):
            vetoed |= {"instruction", "preference"}
    elif lang == "zh":
        if _ZH_QUESTION_RE.search(core) or _ZH_NEGATED_RE.search(sentence):
            return everything
        if _ZH_REPORTED_RE.search(sentence) or _ZH_HYPOTHETICAL_RE.search(sentence):
            return everything
        if _ZH_HEDGE_RE.search(sentence):
            return everything
        if _ZH_ONE_OFF_RE.search(sentence):
            vetoed |= {"instruction", "preference", "correction"}
    return frozenset(vetoed)


# ------------------------------------------------------------------------ claim checks

_EN_CLAIM_RE = re.compile(
    r"\b(?:is|are|was|were|isn't|aren't|should|must|needs?|uses?|lives?|runs?|goes|belongs|"
    r"means|instead|not|only|never|always|has|have|it's|that's|they're|there's|"
    r"we|listens|points|targets?|defaults?|returns?|expects?|requires?)\b|\b\w+'s\b|\d",
    _I,
)
_EN_EMPTY_CLAIM_RE = re.compile(
    r"^\W*(?:(?:it|that|this)(?:'s|\s+is)\s+(?:fine|ok|okay|good|great|perfect|correct|right|"
    r"alright|done|enough|not\s+needed|not\s+necessary|unnecessary|not\s+a\s+problem|no\s+problem|"
    r"what\s+i\s+(?:want|meant|asked))\b|let'?s\b|please\b|can\s+you\b|could\s+you\b|"
    r"(?:try|do|redo|fix|revert|undo|change|go|start|stop)\b)",
    _I,
)
# copula / polite declaratives; requests (ください, して, お願いします) are not claims
_JA_CLAIM_RE = re.compile(
    r"ではなく|じゃなく|でなく|"
    r"(?:です|だ|である|ます|ません|はず|"
    r"べき|正しい|が正解|ですよ|だよ|"
    r"ですね|んです|のです|ている|てる|"
    r"でした|だった)(?:よ|ね)?$"
)
_JA_REQUEST_END_RE = re.compile(
    r"(?:お願いします|ください|下さい|"
    r"ませんか|ましょう|てくれ|して)(?:ね|よ)?$"
)
# 是 应该 應該 而是 才是 才对 才對 用的是 要用
_ZH_CLAIM_RE = re.compile(
    r"是|应该|應該|才对|才對|要用|用的"
)


def _has_claim(text: str, lang: str, kind: str = "correction") -> bool:
    """Whether the words after a cue state something.

    A correction must restate a fact (a copula, "X, not Y"): "No, fix it" corrects an
    action, not a belief. After a lesson or "remember that" any few words will do.
    """
    core = _TRAIL_RE.sub("", text).strip(" \t,.:;、。，：-—–")
    if kind != "correction":
        if lang == "en" and _lang(core) == "en":
            return len(core.split()) >= 3
        return len(core) >= 6
    if lang == "ja":
        if len(core) < 4:
            return False
        has_contrast = re.search("ではなく|じゃなく|でなく", core)
        if _JA_REQUEST_END_RE.search(core) and not has_contrast:
            return False
        return bool(_JA_CLAIM_RE.search(core) or has_contrast)
    if lang == "zh":
        return len(core) >= 4 and bool(_ZH_CLAIM_RE.search(core))
    if len(core.split()) < 2 or _EN_EMPTY_CLAIM_RE.search(core) or _EN_REQUEST_START_RE.match(core):
        return False
    return bool(_EN_CLAIM_RE.search(core))


# ----------------------------------------------------------------------- rules (en)

# clause-opening filler an imperative may follow: "Also, please always ..."
_LEAD = (
    r"(?:^|[,;:—–]\s*|\s[-–—]\s+|\(\s*)"
    r"(?:(?:please|pls|plz|and|also|but|so|then|ok|okay|oh|hey|just|again|seriously|"
    r"remember\s+to|make\s+sure\s+(?:to|you|we|that\s+you)|be\s+sure\s+to|ensure\s+(?:you|we)|"
    r"try\s+to|you\s+should|we\s+should|you\s+must|we\s+must|let'?s|let\s+us)\s*,?\s+)*"
)
_FAIL_WORDS = (
    r"fails?|failed|failing|crash(?:es|ed)?|breaks?|broke|errors?|hangs?|hung|times?\s+out|"
    r"timed\s+out|throws?|threw|dies|died"
)
_ALWAYS_BAD_NEXT = (
    r"(?:been|be\s+(?:the\s+)?(?:case|like|same)|the|a|an|this|that|these|those|there|same|so|"
    r"like|on|off|has|have|had|was|were|is|are|am|seems?|seemed|happens?|happened|gets?\s+stuck|"
    r"got|fails?|failed|failing|crash(?:es|ed)?|breaks?|broke|errors?|hangs?|hung|times?\s+out|"
    r"timed\s+out|throws?|threw|dies|died|appreciate|love|loved|liked?|enjoy|forget|forgets|forgot|"
    r"wanted|thought|knew|felt|did|does|used\s+to|will|would|can|could|here|there|welcome|"
    r"available|true|false|null|none|\d)\b"
)
# "X should always ...": after a modal only a few words show it is not a rule
_MODAL = (
    r"\b(?:should|must|shall|need\s+to|needs\s+to|have\s+to|has\s+to|ought\s+to|"
    r"make\s+sure\s+(?:to|you|we|it|that)|be\s+sure\s+to|ensure\s+(?:you|we|it|that)|"
    r"remember\s+to)\s+"
)
_MODAL_BAD_NEXT = (
    r"(?:been|be\s+the\s+case|be\s+reached|happen|occur|have\s+to|need\s+to|the|a|an|"
    + _FAIL_WORDS
    + r"|\d)\b"
)
# "we always ...", "let's always ...": a habit unless the verb says otherwise
_WE = r"\b(?:let'?s|let\s+us|we|please)\s+"
_NEVER_BAD_NEXT = (
    r"(?:mind|been|ending|the|a|an|this|that|seen|heard|knew|know|thought|worked|works|"
    r"happened|happens|did|does|was|were|is|are|had|has|finish(?:es|ed)?|got|gets|used\s+to|"
    r"ever\s+mind|really|actually|said|asked|told|received|returns?|loads?|shows?|"
    r"completes?|completed|ends?|stops?|gonna|going|will|would|could|can|again|have\s+to|"
    r"need\s+to|happens?|occurs?|\d)\b"
)
_IMPERATIVE = (
    r"(?:add|apply|ask|avoid|await|back\s+up|base|be|bump|build|call|cd|check|clean|close|commit|"
    r"compile|confirm|create|declare|default|define|delete|deploy|describe|document|"
    r"double-check|drop|ensure|escape|explain|export|fetch|follow|format|generate|give|go|"
    r"handle|ignore|import|include|install|keep|label|leave|let|lint|link|log|make|mark|"
    r"mention|merge|migrate|move|name|notify|open|pass|pin|ping|prefer|prefix|print|pull|push|"
    r"put|read|rebase|rebuild|regenerate|reference|remove|rename|reply|report|request|rerun|"
    r"re-run|respond|restart|return|review|run|save|send|set|show|sign|skip|sort|source|"
    r"specify|split|squash|start|stick|stop|store|suffix|switch|tag|target|tell|test|treat|"
    r"type|update|upgrade|use|validate|verify|wait|wrap|write|answer|activate|attach|cache|"
    r"cite|clear|comment|copy|cover|disable|enable|end|exclude|expose|fix|flag|freeze|get|"
    r"group|hide|kill|limit|list|load|lock|lower|mock|note|order|parse|patch|place|post|"
    r"protect|prune|quote|raise|record|reduce|refactor|refresh|register|reject|release|"
    r"reload|replace|reset|resolve|restore|retry|reuse|revert|rotate|scan|search|seed|ship|"
    r"simplify|snapshot|stage|strip|submit|summari[sz]e|sync|trim|truncate|upload|vendor|warn|"
    r"watch|work|rebuild|don'?t|do\s+not|never|always|make\s+sure|please|no)\b"
)

_EN_RULES: list[MarkerRule] = []


def _en(rule_id: str, kind: str, cue: str, pattern: str, claim: str = "none",
        guard: Callable[[str, re.Match[str]], bool] | None = None, description: str = "") -> None:
    _EN_RULES.append(
        MarkerRule(rule_id, kind, "en", cue, re.compile(pattern, _I), claim, guard, description)
    )


_FAIL_VERB = (
    r"(?:fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|break(?:s|ing)?|broke|error(?:s|ed)?(?:\s+out)?|"
    r"throws?(?:\s+an?\s+\w+)?|panic(?:s|ked)?|segfaults?|hangs?|hung|freezes?|froze|"
    r"times?\s+out|timed\s+out|dies|died|blows?\s+up|explodes?|ooms?|oom-?kills?|goes\s+red|"
    r"flatlines|deadlocks?|returns\s+(?:a\s+|an\s+)?(?:500|502|503|504|404|401|403|error|errors|"
    r"nan|null|none|undefined|empty)|exits?\s+(?:with\s+)?(?:code\s+|status\s+)?[1-9]\d*|"
    r"(?:is|are|comes?\s+back|turns?)\s+(?:red|broken|empty)|gets?\s+killed|segv)"
)
# a negator or modal right before the failure verb: "doesn't always fail", "should fail"
_FAIL_NEGATED_RE = re.compile(
    r"\b(?:should|must|to|can|can't|cannot|could|would|might|may|won'?t|don'?t|doesn'?t|didn'?t|"
    r"isn'?t|aren'?t|wasn'?t|not|never|make\s+it|let\s+it)\s+(?:\w+\s+)?(?:always\s+|consistently\s+|\w+ly\s+)?$",
    _I,
)
_FAIL_NOT_RE = re.compile(
    r"\b(?:sometimes|occasionally|intermittent(?:ly)?|flaky|flakes|flaking|randomly|"
    r"once\s+in\s+a\s+while|now\s+and\s+then|some\s+of\s+the\s+time|rarely|"
    r"fail[-\s]fast|fail[-\s]safe|fails?\s+(?:gracefully|loudly|fast|early|closed|open))\b"
    # "write a test that always fails": the spec of something to build, not a report
    r"|\b(?:a|an|one)\s+(?:\w+\s+){0,2}that\s+(?:always|consistently|reliably)\s+" + _FAIL_VERB + r"\b",
    _I,
)


def _fail_ok(sentence: str, m: re.Match[str]) -> bool:
    if _FAIL_NOT_RE.search(sentence):
        return False
    verb = _FAIL_VERB_RE.search(sentence, m.start())
    at = verb.start() if verb is not None and verb.start() < m.end() else m.start()
    return not _FAIL_NEGATED_RE.search(sentence[max(0, at - 40) : at])


_FAIL_VERB_RE = re.compile(r"\b" + _FAIL_VERB + r"\b", _I)


# correction
_en(
    "en.correction.wrong", "correction",
    "wrong|incorrect|not right|not correct|not true|not accurate|not quite|not how|mistaken|inaccurate|backwards",
    r"^\W*(?:(?:no+|nope|nah|hmm+|uh|um|wait|hold\s+on|oh|sorry)\s*[,.!—–-]*\s+)*"
    r"(?:(?:that'?s|that\s+is|this\s+is|you'?re|you\s+are|your\s+\w+\s+is|"
    r"that\s+(?:part|assumption|claim|statement)\s+is)\s+(?:(?:all|completely|totally|still|just|"
    r"simply|actually|definitely|not\s+quite|a\s+bit)\s+)?(?:wrong|incorrect|not\s+(?:right|correct|"
    r"true|accurate|how\s+(?:it|this|that)\s+works)|mistaken|inaccurate|backwards)"
    r"|you\s+(?:got|have)\s+(?:it|that|this)\s+(?:wrong|backwards)|(?:wrong|incorrect|not\s+quite))\b",
    claim="after_or_next",
    description="'that's wrong / not right' followed by the corrected claim",
)
_en(
    "en.correction.no", "correction",
    "no,|no.|no!|no -|no —|no –|no—|no–|nope",
    r"^[^\w'\"`]*(?:no+|nope)(?:\s*[,.!]+|\s*[—–]+|\s+-+)\s*(?:no\s*[,.!]+\s*)?",
    claim="after",
    description="'No, the default branch is main' — a flat no followed by a claim",
)
_en(
    "en.correction.actually", "correction",
    r"actually",
    r"^\W*(?:(?:no|wait|oh|hmm|sorry)\s*[,.!]*\s+)*actually\s*,?\s+"
    r"(?:it|that|this|they|we|the\s+[\w.\-/` ]{1,40}?|our\s+[\w.\-/ ]{1,40}?|[\w.\-/`]{2,40})\s+"
    r"(?:should\s+be|is\s+supposed\s+to\s+be|needs\s+to\s+be|has\s+to\s+be|must\s+be|is|are|was|"
    r"were|'s|'re|uses?|lives?\s+(?:in|under)|runs?\s+on|listens\s+on|targets?|defaults\s+to)\s+"
    r"(?!(?:fine|ok|okay|good|great|correct|right|done|working|better|worse|pretty|really|"
    r"quite|not\s+(?:needed|necessary|a\s+problem))\b)\S",
    description="'Actually it should be X' — a restated fact",
)
_en(
    "en.correction.x_not_y", "correction",
    ", not|,not|rather than|instead of",
    r"\b(?:(?:is|are|was|were|should\s+be|must\s+be|needs\s+to\s+be|has\s+to\s+be|it'?s|that'?s|"
    r"they'?re|we\s+use|it\s+uses|uses|lives\s+(?:in|under)|goes\s+(?:in|under|to|into)|"
    r"runs\s+on|listens\s+on|targets?|points\s+to|defaults\s+to|i\s+meant|i\s+said)\s+"
    r"[^,;.!?]{1,60}?,\s*not"
    # "instead of" is also how code is described ("it uses X instead of Y"): only after a norm
    r"|(?:should\s+be|must\s+be|needs\s+to\s+be|has\s+to\s+be|is\s+supposed\s+to\s+be|we\s+use|"
    r"it'?s|that'?s)\s+[^,;.!?]{1,60}?\s+(?:rather\s+than|instead\s+of))\s+"
    r"(?!(?:just|only|even|sure|yet|now|always|necessarily|really|quite|working|needed|a\s+problem|"
    r"that|this|the\s+other\s+way)\b)\S",
    description="'the port is 5432, not 5433' — a claim set against what it replaces",
)

# failure
_en(
    "en.failure.always_fails", "failure",
    "always|consistently|reliably|deterministically|invariably|100%|without fail",
    r"\b(?:always|consistently|reliably|deterministically|invariably|100%\s+of\s+the\s+time|"
    r"without\s+fail)\s+" + _FAIL_VERB + r"\b",
    guard=_fail_ok,
    description="'X always crashes when Y'",
)
_en(
    "en.failure.every_time", "failure",
    "every|each time|whenever|consistently|reliably|no matter|100%",
    _FAIL_VERB + r"\b[^.?!]{0,80}?\b(?:every\s+(?:single\s+)?(?:time|run|build|attempt|push|deploy)|"
    r"each\s+time|on\s+every\s+(?:run|build|push|commit|pr|deploy|ci\s+run|machine|platform)|"
    r"whenever|100%\s+of\s+the\s+time|consistently|reliably|deterministically|without\s+fail|"
    r"no\s+matter\s+what)\b"
    r"|\b(?:every|each)\s+(?:single\s+)?time\s+(?:i|we|you|it|the|a|someone|ci|this)\b[^.?!]{0,80}?\b"
    + _FAIL_VERB + r"\b",
    guard=_fail_ok,
    description="'the e2e job fails every time on macOS', 'every time I run X it hangs'",
)
_en(
    "en.failure.reproducible", "failure",
    r"reproduc|repro",
    r"\b(?:100%\s+reproducible|reproducible\s+(?:every\s+time|100%|on\s+every|reliably|"
    r"consistently)|reliably\s+reproducible|reproduces\s+(?:every\s+time|consistently|reliably|"
    r"100%|always|on\s+every)|(?:always|consistently|reliably)\s+reproduces|can\s+reproduce\s+"
    r"(?:it\s+|this\s+)?(?:every\s+(?:single\s+)?time|reliably|consistently|100%)|"
    r"repros?\s+(?:every\s+time|100%|reliably|consistently))",
    guard=_fail_ok,
    description="'100% reproducible', 'reproduces every time'",
)

# lesson
_en(
    "en.lesson.lesson_learned", "lesson",
    "lesson|takeaway|hard way",
    r"^\W*(?:(?:ok|okay|so|well|big|important)\s*,?\s+)?(?:lessons?\s+learned|the\s+lesson(?:\s+here)?\s+(?:is|was)|"
    r"lesson|(?:key\s+)?takeaway|learned\s+the\s+hard\s+way|hard[-\s]won\s+lesson)\s*"
    r"(?:[:—–-]|that\b|,)\s*"
    r"|\blearned\s+(?:that\s+)?the\s+hard\s+way\s*(?:that\b|[:,—–-])\s*"
    r"|[,;—–-]\s*lesson\s+learned\W*$",
    claim="after_or_next",
    description="'Lesson learned: ...', '..., lesson learned.'",
)
_en(
    "en.lesson.til", "lesson",
    "til|today i learned|just learned|learned today",
    r"^\W*(?:(?-i:TIL)|(?-i:T\.I\.L\.?)|today\s+i\s+learned|today\s+i\s+found\s+out|"
    r"(?:i\s+)?just\s+learned|i\s+learned\s+today)\b\s*[:,—–-]?\s*(?:that\s+)?",
    claim="after_or_next",
    description="'TIL ...' (upper case only: 'til' is 'until')",
)
_en(
    "en.lesson.gotcha", "lesson",
    "gotcha|pitfall|footgun|watch out|beware|trap",
    r"^\W*(?:gotcha|pitfall|footgun|watch\s+out|beware|trap)\s*[:—–]\s*"
    r"|\b(?:one|a|another|the|big|nasty|known|classic|sneaky|subtle)\s+(?:gotcha|footgun|pitfall|trap)"
    r"\s*(?:(?:here\s+)?is\b|here\s*[:—–]|with\s+\S+(?:\s+\S+)?\s*(?:is\b|[:—–])|[:—–])\s*",
    claim="after_or_next",
    description="'Gotcha: ...' (not 'Gotcha, thanks')",
)
_en(
    "en.lesson.note_to_self", "lesson",
    "note to self|nb|n.b.|memo|future reference|note for",
    r"^\W*(?:note\s+to\s+(?:self|future\s+self|myself)|(?-i:NB|N\.B\.)|memo|for\s+future\s+reference|"
    r"note\s+for\s+(?:the\s+)?future(?:\s+me)?)\s*[:,—–-]\s*",
    claim="after_or_next",
    description="'Note to self: ...', 'For future reference, ...'",
)

_FILLER_WORDS = frozenset("not to it that this so either one them those these".split())


def _has_object(sentence: str, m: re.Match[str]) -> bool:
    """'I'd rather not.' states no preference: something must follow the verb."""
    words = re.findall(r"[\w`'./-]+", sentence[m.end() :])
    return len([w for w in words if w.lower() not in _FILLER_WORDS]) >= 2


# preference
_en(
    "en.preference.prefer", "preference",
    r"prefer",
    r"\b(?:i|we)\s+(?:\w+ly\s+|much\s+|do\s+|still\s+)?prefer\b(?!\s+(?:not\s+to\s+)?(?:to\s+)?(?:wait|hold))"
    r"|\b(?:i|we)'?d\s+(?:much\s+|really\s+|strongly\s+)?prefer\b|\b(?:i|we)\s+would\s+(?:much\s+|really\s+)?prefer\b"
    r"|\b(?:my|our)\s+(?:strong\s+|personal\s+|general\s+)?preference\s+is\b"
    r"|" + _LEAD + r"prefer\s+\S.*\b(?:over|to|rather\s+than|instead\s+of)\s+\S",
    guard=_has_object,
    description="'I prefer X over Y', 'Prefer X to Y'",
)
_en(
    "en.preference.rather", "preference",
    r"rather",
    r"\b(?:i'?d|i\s+would|we'?d|we\s+would)\s+(?:much\s+|really\s+|honestly\s+|always\s+)?rather\b",
    guard=_has_object,
    description="'I'd rather X than Y'",
)
_en(
    "en.preference.like_better", "preference",
    "better|more than|fan of|best",
    r"\b(?:i|we)\s+(?:really\s+|much\s+|definitely\s+)?(?:like|love)\s+"
    r"(?!(?:it|this|that|these|those|the\s+new|the\s+old|the\s+first|the\s+second|the\s+last|how|what|"
    r"your|the\s+way|where)\b)[^.?!]{1,60}?\s+(?:(?:much\s+|a\s+lot\s+|way\s+)?better|more)(?:\s+than\b|\W*$|\s*,)"
    r"|\bi'?m\s+(?:a\s+|not\s+a\s+)?(?:big\s+|huge\s+)?fan\s+of\b"
    r"|\b(?:i|we)\s+(?:like|love)\s+(?!(?:it|this|that)\b)[^.?!]{1,40}?\s+(?:the\s+)?best\b",
    description="'I like X better than Y'",
)

# instruction
_en(
    "en.instruction.always", "instruction",
    r"always",
    r"(?:" + _LEAD + r"always\s+(?!" + _ALWAYS_BAD_NEXT + r")[\w`]"
    r"|" + _MODAL + r"always\s+(?!" + _MODAL_BAD_NEXT + r")[\w`]"
    r"|" + _WE + r"always\s+(?!" + _ALWAYS_BAD_NEXT + r")[\w`]"
    r"|\balways\s+make\s+sure\b)",
    description="'Always run X', 'you should always', 'make sure to always', 'we always X'",
)
_en(
    "en.instruction.never", "instruction",
    "ever|under no circumstances",
    r"(?:" + _LEAD + r"(?:never(?:\s+ever)?|under\s+no\s+circumstances\s*,?)\s+(?!" + _NEVER_BAD_NEXT + r")[\w`]"
    r"|" + _MODAL + r"never\s+(?!" + _MODAL_BAD_NEXT + r")[\w`]"
    r"|" + _WE + r"never\s+(?!" + _NEVER_BAD_NEXT + r")[\w`]"
    r"|\b(?:don'?t|do\s+not)\s+ever\b|\bnever\s+ever\b)",
    description="'Never push to main', 'don't ever', 'you should never'",
)
_en(
    "en.instruction.from_now_on", "instruction",
    "from now|from here|henceforth|from this point|starting now|from today",
    r"\b(?:from\s+now\s+on|from\s+here\s+on(?:\s+out)?|from\s+this\s+point\s+(?:on|forward)|"
    r"henceforth|starting\s+now|from\s+today\s+on)\b",
    description="'From now on, ...'",
)
_en(
    "en.instruction.going_forward", "instruction",
    "going forward|moving forward|future|next time",
    r"\b(?:going|moving)\s+forward\b(?!\s+with\b)"
    r"|" + _LEAD + r"(?:in\s+(?:the\s+)?future|next\s+time|for\s+(?:all\s+)?future\s+(?:work|changes|prs|"
    r"commits|tasks|sessions))\s*,?\s+(?!(?:we\s+)?(?:might|may|could)\b)\w",
    description="'Going forward, ...', 'In the future, ...', 'Next time, ...'",
)


def _whenever_guard(sentence: str, m: re.Match[str]) -> bool:
    return not re.search(
        r"\bwhenever\s+(?:you(?:'re|\s+are)?\s+(?:ready|free|done|can|get\s+a|have\s+(?:a|time)|"
        r"want|like|feel)|possible|convenient|it\s+suits)", sentence, _I,
    )


_en(
    "en.instruction.whenever", "instruction",
    "whenever|every time|each time|anytime|any time|every single time",
    r"^\W*(?:(?:also|and|please|ok|okay)\s*,?\s+)*(?:whenever|every\s+(?:single\s+)?time|each\s+time|any\s*time)\s+"
    r"[^,]{2,100},\s*(?:please\s+)?" + _IMPERATIVE +
    r"|^\W*(?:(?:also|and|please|ok|okay)\s*,?\s+)*(?:whenever|every\s+(?:single\s+)?time|each\s+time|any\s*time)\s+"
    r"[^,]{2,100},\s*(?:you|we)\s+(?:should|must|need\s+to|have\s+to)\b"
    r"|^\W*(?:(?:also|and|please|ok|okay)\s*,?\s+)*" + _IMPERATIVE +
    r"[^?]*\b(?:whenever|every\s+(?:single\s+)?time|each\s+time|any\s*time)\s+(?:you|we|i|someone|anyone)\b",
    guard=_whenever_guard,
    description="'Whenever you touch X, regenerate Y', 'Run X every time you Y'",
)
_en(
    "en.instruction.in_this_project", "instruction",
    "this project|this repo|this codebase|this code|this monorepo|this workspace|this team|"
    "our project|our repo|our codebase|our monorepo|our team|here we",
    r"^\W*(?:(?:also|and|but|ok|okay|note|fyi|btw)\s*,?\s+)*(?:in|within|across)\s+(?:this|our)\s+"
    r"(?:project|repo|repository|codebase|code\s*base|monorepo|workspace|team|org)\b\s*,?\s+"
    r"(?:we|you|all|every|each|always|never|don'?t|do\s+not|no\b|nothing|everything|please\s+"
    r"(?:use|always|never|don'?t|prefer|target|keep|follow|avoid)|use|prefer|target|keep|follow|avoid|"
    r"stick|the\s+[\w./` -]{1,40}?\s+(?:is|are|must|should|lives?|goes|go)\b|"
    r"[\w./`-]+\s+(?:is|are|must|should|lives?|goes|go)\b)"
    r"|\b(?:we|you)\s+(?:use|don'?t|do\s+not|never|always|prefer|follow|target|keep|put|write|run|"
    r"deploy|ship|pin|avoid|stick)\b.*\b(?:in|for|across)\s+(?:this|our)\s+(?:project|repo|repository|"
    r"codebase|monorepo|team)\b"
    r"|^\W*(?:please\s+)?(?:don'?t|do\s+not|never|no)\b.*\b(?:in|across)\s+(?:this|our)\s+"
    r"(?:project|repo|repository|codebase|monorepo)\b"
    r"|\bhere\s+we\s+(?:use|don'?t|always|never|prefer|target|follow)\b",
    description="'In this repo, PRs target develop', 'We use tabs in this project'",
)
_en(
    "en.instruction.remember", "instruction",
    "remember|in mind|forget",
    r"^\W*(?:(?:also|and|please|ok|okay|so)\s*,?\s+)*(?:please\s+)?(?:remember|keep\s+in\s+mind|"
    r"bear\s+in\s+mind|never\s+forget|don'?t\s+forget|do\s+not\s+forget)"
    r"(?:\s+(?:this|that|for\s+next\s+time|for\s+later|for\s+the\s+future))?\s*(?:that\b|[:,—–-])\s*",
    claim="after",
    description="'Remember that X', 'Keep in mind: X'",
)

# ----------------------------------------------------------------------- rules (ja)

_CJK_RULES: list[MarkerRule] = []


def _cjk(rule_id: str, kind: str, cue: str, pattern: str, claim: str = "none",
         guard: Callable[[str, re.Match[str]], bool] | None = None, description: str = "",
         lang: str = "ja") -> None:
    _CJK_RULES.append(MarkerRule(rule_id, kind, lang, cue, re.compile(pattern), claim, guard, description))


# failure verbs in the present (a state that holds), never たら/と (a condition)
_JA_FAIL = (
    r"(?:失敗(?:する|します|して(?:い)?(?:る|ます))"
    r"|落ち(?:る|ます|て(?:い)?(?:る|ます))"
    r"|[コこ]け(?:る|ます|て(?:い)?(?:る|ます))"
    r"|エラー(?:に(?:なる|なります|なって(?:い)?(?:る|ます))"
    r"|が(?:出る|出ます|出て(?:い)?(?:る|ます)|発生する|"
    r"発生します|起きる|起きます|返る|返ってくる))"
    r"|クラッシュ(?:する|します|して(?:い)?(?:る|ます))"
    r"|タイムアウト(?:する|します|して(?:い)?(?:る|ます)|になる|になります)"
    r"|固ま(?:る|ります)|止ま(?:る|ります)"
    r"|ハング(?:する|します)|異常終了(?:する|します)"
    r"|死(?:ぬ|にます)|(?:赤|レッド)に(?:なる|なります)"
    r"|再現(?:する|します|して(?:い)?(?:る|ます)))"
    # what may follow: end, sentence particles, because/but — never a noun (relative clause)
    r"(?=$|[。！!、,\s]|よ|ね|ん|の(?:で|だ|です|$)|"
    r"けど|が|から|みたい|っぽい|。)"
)
# "sometimes fails" is not a reproducible failure
_JA_FAIL_NOT_RE = re.compile(
    r"ことがある|ことがあります|時々|"
    r"たまに|ときどき|まれに|稀に|"
    r"ランダムに|不定期|フレーキー|flaky",
    _I,
)


def _ja_fail_ok(sentence: str, m: re.Match[str]) -> bool:
    return not _JA_FAIL_NOT_RE.search(sentence)


# endings that make a sentence with a durable cue a rule rather than a description
_JA_DIRECTIVE_END_RE = re.compile(
    r"(?:ください|下さい|て|で|こと|ように|"
    r"べき(?:です|だ)?|ましょう|しよう|"
    r"お願い(?:します)?|ほしい(?:です)?|欲しい(?:です)?|"
    r"禁止(?:です)?|厳禁(?:です)?|NG(?:です)?|ダメ(?:です)?|"
    r"だめ(?:です)?|いけない|いけません|ならない|"
    r"なりません|ない|ません|ます|です|だ|"
    r"[うくぐすつぬふぶむる])(?:よ|ね|な|ぞ|よね)?$"
)
# strict set for いつも / 毎回, which also open relative clauses ("いつも使ってるコマンドを教えて")
_JA_STRICT_END_RE = re.compile(
    r"(?:ください|下さい|こと|ように(?:して)?|"
    r"べき(?:です|だ)?|お願い(?:します)?|"
    r"しないで|禁止(?:です)?|ましょう|"
    r"てほしい(?:です)?|て欲しい(?:です)?|てね)(?:よ|ね)?$"
)


# 「必ず失敗するテスト」: 必ず inside a relative clause describes the thing to build
_JA_RELATIVE_RE = re.compile(
    r"必ず(?:失敗|落ち|通|成功|動|エラーに|パス)"
    r"[\u3040-\u309f]{0,4}?(?:する|る|く|す|なる)(?=[\u30a0-\u30ff\u4e00-\u9fff])"
)


# こと / 禁止 / ダメ / NG / いけない / ならない: endings that forbid
_JA_PROHIBIT_END_RE = re.compile(
    r"(?:こと|禁止|厳禁|ダメ|だめ|NG|いけない|"
    r"いけません|ならない|なりません)(?:です)?(?:よ|ね)?$"
)


def _ja_directive(sentence: str, m: re.Match[str] | None = None) -> bool:
    return bool(_JA_DIRECTIVE_END_RE.search(_TRAIL_RE.sub("", sentence)))


def _ja_strict(sentence: str, m: re.Match[str] | None = None) -> bool:
    return bool(_JA_STRICT_END_RE.search(_TRAIL_RE.sub("", sentence)))


# fillers a correction may open with: 「いや、」「それは」
_JA_SENT_START = (
    r"^[\s、,]*(?:(?:いやいや|いや|いいえ|いえ|ううん|うーん|あー|あ|えっと|え|ちょっと|"
    r"それは|そこは|それ|そこ|これは|これ)[、,\s!！]*)*"
)

# correction — 違います / 違う / 間違い(です) / 間違っています at the start of the sentence
_cjk(
    "ja.correction.chigau", "correction",
    "違|ちが|間違",
    _JA_SENT_START
    + r"(?:違(?:います|う|くて|って)|ちがいます|ちがう|"
    r"間違(?:い(?:です|だ)?|って(?:い)?(?:る|ます)))"
    r"(?:よ|ね|んです|んだ|んですけど|けど)?"
    r"(?=[、。!！,\s]|$)"
    r"|(?:は|が)(?:間違(?:って(?:い)?(?:る|ます)|いです|いだ)|"
    r"違(?:います|う))(?:よ|ね)?[。!！\s]*$",
    claim="after_or_next",
    description="「違います、ポートは5432です」",
)
# そうじゃなくて / そうではなくて / そうじゃない / そういう意味じゃなくて
_cjk(
    "ja.correction.soujanakute", "correction",
    "そうじゃ|そうでは|そういう",
    r"(?:そう|そういう(?:こと|意味))(?:じゃ|では)"
    r"(?:なくて|なく|ない(?:です)?|ありません)(?:よ|ね)?[、,。\s!！]*",
    claim="after_or_next",
    description="「そうじゃなくて、Xです」",
)
# 正しくは / 正しいのは / 正解は
_cjk(
    "ja.correction.tadashiku", "correction",
    "正し|正解",
    r"(?:正しくは|正しいのは|正解は)[、,\s]*",
    claim="after",
    description="「正しくはXです」",
)
# 〜ではなく〜です : a contrastive claim with a copula ending (requests are excluded)
_cjk(
    "ja.correction.dewanaku", "correction",
    "ではなく|じゃなく|でなく",
    r"[^、。]{1,40}(?:ではなく(?:て)?|じゃなく(?:て)?|でなく)[、,\s]*"
    r"[^。]{1,60}(?:です|だ|である|が正しい(?:です)?|"
    r"が正解(?:です)?|のはず(?:です)?|はずです|"
    r"ています|てます|ている|てる)(?:よ|ね)?[。!！\s]*$",
    description="「デフォルトブランチはmasterではなくmainです」",
)

# failure — 毎回 / いつも / 常に / 何度やっても / 100% … 失敗する
_cjk(
    "ja.failure.maikai", "failure",
    "毎回|いつも|常に|何度|何回|どうやっても|100|ずっと",
    r"(?:毎回|いつも|常に|何[度回](?:やって|実行して|試して|流して)も|"
    r"どうやっても|100[%％]|ずっと)[^。！？]{0,40}?" + _JA_FAIL,
    guard=_ja_fail_ok,
    description="「CIのmacOSジョブが毎回失敗する」",
)
# 必ず / 確実に / 絶対に … 落ちる
_cjk(
    "ja.failure.kanarazu", "failure",
    "必ず|確実に|絶対",
    r"(?:必ず(?!しも)|確実に|絶対に?)[^。！？]{0,40}?" + _JA_FAIL,
    guard=_ja_fail_ok,
    description="「このテストは必ず落ちる」",
)

# lesson — 教訓 / 学び / 気づき / 今日学んだこと
_cjk(
    "ja.lesson.kyoukun", "lesson",
    "教訓|学び|学んだ|気づき|反省点",
    r"^[\s、]*(?:今日の|今回の)?(?:教訓|学び|気づき|"
    r"学んだこと|反省点)\s*(?:[:：、]|は)\s*"
    r"|教訓として[、,\s]*"
    r"|(?:という|っていう)教訓"
    r"|(?:と|って|ことを)学んだ|(?:と|ことを)学びました",
    claim="after_or_next",
    description="「教訓: ...」「...という教訓」",
)
# メモ: / 備忘録: / 自分用メモ:
_cjk(
    "ja.lesson.memo", "lesson",
    "メモ|備忘|忘備|覚え書き",
    r"^[\s、]*(?:自分用)?(?:メモ|備忘録|備忘|忘備録|"
    r"覚え書き)\s*[:：]\s*",
    claim="after_or_next",
    description="「メモ: ...」",
)
# ハマりポイント / ハマりどころ / 落とし穴 / 罠
_cjk(
    "ja.lesson.hamari", "lesson",
    "ハマり|はまり|落とし穴|罠",
    r"(?:ハマり|はまり)(?:ポイント|どころ)\s*(?:[:：]|は|として)\s*"
    r"|(?:落とし穴|罠)\s*(?:[:：]|は|として)\s*",
    claim="after_or_next",
    description="「ハマりポイント: ...」",
)

# preference — 〜の方が好き/いい, 〜より〜がいい (not こっち/前の: a choice among options shown)
_cjk(
    "ja.preference.hou_ga", "preference",
    "方が|ほうが|より",
    r"(?<!こっち)(?<!そっち)(?<!あっち)(?<!こちら)(?<!そちら)"
    r"(?<!あちら)(?<!前)(?<!元)(?<!最初)(?<!この)(?<!その)(?<!後)"
    r"(?<!まま)(?<!今)(?<!上)(?<!下)(?<!右)(?<!左)(?<!者)"
    r"の(?:方|ほう)が(?:好き|好み|いい|良い|よい|"
    r"嬉しい|うれしい|助かる|読みやすい|"
    r"分かりやすい|わかりやすい|使いやすい|"
    r"しっくり)"
    # an adjective before 方が, with verbs of taste (not いい: 「早い方がいい」 is urgency)
    r"|(?<!な)い(?:方|ほう)が(?:好き|好み|助かります|助かる|"
    r"読みやすい|分かりやすい|わかりやすい)"
    # a verb before 方が: only with 好き/好み, since 「〜した方がいい」 is advice, not taste
    r"|[うくぐすつぬぶむる](?:方|ほう)が(?:好き|好み)"
    r"|より(?:も)?[^。、]{1,30}?(?:の方|のほう)?(?:が|を)"
    r"(?:好き|好み|好む|いい|良い|よい|優先)",
    description="「npmよりpnpmの方が好き」",
)
# 〜が好きです / 〜派です / 〜を好む
_cjk(
    "ja.preference.suki", "preference",
    "好き|好み|好む|派",
    r"(?:が|は|も)(?:大)?(?:好き|好み)(?:です|だ|なんです|なんだ)?(?:よ|ね)?[。!！\s]*$"
    r"|を好む|派(?:です|だ|なんです|なんだ)(?:よ|ね)?[。!！\s]*$",
    description="「型ヒントは明示的に書く方が好きです」「タブ派です」",
)

# instruction
_cjk(
    "ja.instruction.kanarazu", "instruction", "必ず",
    r"必ず(?!しも)", guard=lambda s, m: _ja_directive(s) and not _JA_RELATIVE_RE.search(s),
    description="「PRを出す前に必ずlintを通してください」",
)
_cjk(
    "ja.instruction.tsuneni", "instruction", "常に",
    r"常に", guard=_ja_directive,
    description="「常に型ヒントを付けて」",
)
_cjk(
    "ja.instruction.zettai", "instruction", "絶対",
    r"絶対(?:に)?(?!パス|値|参照|URL|位置|座標|的|指定|"
    r"インポート|import|時間|温度|無理|だめ)",
    guard=lambda s, m: _ja_strict(s) or bool(_JA_PROHIBIT_END_RE.search(_TRAIL_RE.sub("", s))),
    description="「絶対にmainへ直接pushしないで」(not 絶対パス)",
)
_cjk(
    "ja.instruction.itsumo", "instruction", "いつも",
    r"いつも(?!通り|どおり|の|ありがとう|お世話|助か)",
    guard=_ja_strict,
    description="「いつも日本語で返答してください」",
)
_cjk(
    "ja.instruction.maikai", "instruction", "毎回",
    r"毎回", guard=_ja_strict,
    description="「毎回テストを実行してからコミットしてください」",
)
# 今後 / これからは / 次回から / 次から / 今度から
_cjk(
    "ja.instruction.kongo", "instruction",
    "今後|これから|次回|次から|今度から",
    r"今後(?:は|も|とも|ずっと|[、,\s])|これから(?:は|も|ずっと)|"
    r"次回(?:から|以降)|次から(?!次)|今度から",
    guard=_ja_directive,
    description="「今後はpnpmを使ってください」",
)
# このプロジェクトでは / このリポジトリでは / うちのチームでは
_cjk(
    "ja.instruction.kono_project", "instruction",
    "プロジェクト|リポ|レポジトリ|コードベース|チーム|モノレポ",
    r"(?:この|本|うちの|当)(?:プロジェクト|リポジトリ|レポジトリ|"
    r"リポ|コードベース|チーム|モノレポ)"
    r"(?:では|だと|においては|の(?:ルール|方針|規約)(?:は|として|で|[:：]))",
    guard=_ja_directive,
    description="「このリポジトリではPRはdevelopに向けます」",
)
_JA_OBOETE_STRIP_RE = re.compile(
    r"(?:これ|このこと|以下)?(?:を)?(?:覚え(?:て(?:おいて|ください|ね)|といて)|"
    r"記憶して(?:おいて|ください))(?:ください|ほしい|欲しい|ね)?[:：]?"
)


def _oboete_has_content(sentence: str, m: re.Match[str]) -> bool:
    """「覚えておいて」 alone keeps nothing: there must be something to remember."""
    return len(_JA_OBOETE_STRIP_RE.sub("", _TRAIL_RE.sub("", sentence))) >= 6


_cjk(
    "ja.instruction.oboete", "instruction", "覚え|記憶",
    r"覚え(?:て(?:おいて|ください|ね)|といて)|記憶して(?:おいて|ください)",
    guard=_oboete_has_content,
    description="「mainは保護ブランチだと覚えておいて」",
)
# 〜は禁止です
_cjk(
    "ja.instruction.kinshi", "instruction", "禁止|厳禁",
    r"(?:は|を|の)(?:禁止|厳禁)(?:です|だ|とする|とします|にします|でお願いします)?(?:よ|ね)?[。!！\s]*$",
    description="「mainへの直接pushは禁止です」",
)

# ----------------------------------------------------------------------- rules (zh)

# correction: 不对 / 错了 / 不是这样 … + 是/应该 ; 不是X，而是Y
_cjk(
    "zh.correction.budui", "correction",
    "不对|不對|错了|錯了|不是",
    r"^[\s，,]*(?:不对|不對|错了|錯了|不是这样|不是這樣|"
    r"你错了|你錯了|搞错了|搞錯了)[，,。!！\s]*",
    claim="after_or_next", lang="zh",
    description="「不对，端口是5432」",
)
# 不是X，而是Y / 是X，不是Y
_cjk(
    "zh.correction.bushi_ershi", "correction", "不是",
    r"不是[^，。,]{1,20}[，,]?\s*(?:而是|是)[^，。,]{1,30}"
    r"|是[^，。,]{1,30}[，,]\s*不是[^，。,]{1,30}",
    lang="zh",
    description="「不是Jest，而是Vitest」",
)
_cjk(
    "zh.failure.meici", "failure",
    "每次|总是|總是|一直|始终|始終|必现|必現|稳定|穩定|百分之百",
    r"(?:每次(?:都)?|总是|總是|一直|始终|始終|百分之百|稳定|穩定)"
    r"[^，。？]{0,20}?(?:失败|失敗|报错|報錯|崩溃|崩潰|挂掉|掛掉|"
    r"挂了|掛了|超时|超時|卡住|复现|復現)|必现|必現",
    lang="zh",
    description="「每次都失败」「必现」",
)
_cjk(
    "zh.lesson.jiaoxun", "lesson",
    "教训|教訓|踩坑|备忘|備忘|学到|學到",
    r"(?:经验|經驗)?(?:教训|教訓)(?:是|[:：])\s*|(?:踩坑记录|踩坑|备忘|備忘)[:：]\s*"
    r"|今天(?:学到|學到)(?:了)?[:：，,]?\s*",
    claim="after_or_next", lang="zh",
    description="「教训：...」「踩坑：...」",
)
_cjk(
    "zh.preference.xihuan", "preference",
    "喜欢|喜歡|偏好|倾向|傾向|宁愿|寧願|宁可|寧可",
    r"(?:我|我们|我們)(?:更|比较|比較|还是|還是)(?:喜欢|喜歡|偏好|倾向于?|傾向於?)"
    r"|(?:我|我们|我們)?(?:宁愿|寧願|宁可|寧可)|(?:我|我们|我們)偏好",
    lang="zh",
    description="「我更喜欢用pnpm」",
)
_cjk(
    "zh.instruction.yihou", "instruction",
    "以后|以後|今后|今後|现在开始|現在開始|今以后|今以後|往后|往後",
    r"(?:以后|以後|今后|今後|往后|往後)[，,\s]*(?:都|请|請|一律|统一|統一|要|不要|别|別|必须|必須|记得|記得|务必|務必|一定|禁止|不准)"
    r"|(?:从|從)(?:现在|現在|今天)开始|(?:从|從)(?:现在|現在|今天)開始|(?:从|從)今(?:以后|以後)",
    lang="zh",
    description="「以后都用pnpm」",
)
_cjk(
    "zh.instruction.yongyuan", "instruction",
    "永远|永遠|绝对|絕對|千万|千萬|务必|務必|始终|始終|总是|總是|每次都要|一律",
    r"(?:永远|永遠|绝对|絕對|千万|千萬)(?:不要|别|別|不能|不准|不可以|要)"
    r"|(?:务必|務必|始终|始終|总是|總是|每次都要|一律)(?:要|用|使用|先|把|在|写|寫|跑|执行|執行)",
    lang="zh",
    description="「永远不要直接推到main」",
)
_cjk(
    "zh.instruction.jizhu", "instruction", "记住|記住",
    r"(?:请|請)?(?:记住|記住)[:：，,]?",
    guard=lambda s, m: len(re.sub(r"(?:请|請)?(?:记住|記住)|[:：，,。\s]", "", s)) >= 5,
    lang="zh",
    description="「记住：测试用pytest」",
)

_EN_REQUEST_START_RE = re.compile(r"^\W*(?:(?:please|just|then|and)\s+)*" + _IMPERATIVE, _I)

# Rules in the order they are tried: kind priority first, then as listed above.
RULES: tuple[MarkerRule, ...] = tuple(
    sorted(
        [*_EN_RULES, *_CJK_RULES],
        key=lambda r: KIND_PRIORITY.index(r.kind),
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

_STATED_RE = re.compile(
    r"\b(?<!i\s)(?<!you\s)(?<!we\s)(?<!n't\s)(?<!not\s)(?<!to\s)remember\b(?!\s+(?:when|how|why|what|if|whether|where|which)\b)"
    r"|\b(?:keep|bear)\s+(?:this\s+|that\s+|it\s+)?in\s+mind\b|\b(?:don'?t|do\s+not|never)\s+forget\b"
    r"|\bfrom\s+now\s+on\b|\b(?:going|moving)\s+forward\b(?!\s+with)|\bhenceforth\b|\bfrom\s+here\s+on\b"
    r"|\bfor\s+future\s+reference\b|\bnote\s+to\s+self\b|\bmake\s+a\s+note\b"
    r"|\b(?:commit|save|add)\s+(?:this|that|it)\s+to\s+(?:your\s+)?memory\b"
    r"|覚え(?:て(?:おいて|ください|ね)|といて)|記憶して"
    r"|今後|これから(?:は|も|ずっと)|次回から|今度から"
    r"|忘れないで"
    r"|记住|記住|以后|以後|今后|(?:从|從)(?:现在|現在|今)",
    _I,
)


def is_stated(sentence: str) -> bool:
    """Whether the person explicitly asked for this to be kept ("remember", 「今後は」)."""
    return bool(_STATED_RE.search(_fold(sentence)))


# A short line ending in ":" that makes the bullets under it durable ("From now on:").
_HEADER_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bfrom\s+now\s+on\b|\bfrom\s+here\s+on\b|\bhenceforth\b", _I), "en.instruction.from_now_on"),
    (re.compile(r"\b(?:going|moving)\s+forward\b|\bin\s+(?:the\s+)?future\b", _I), "en.instruction.going_forward"),
    (re.compile(r"\b(?:in|for)\s+(?:this|our)\s+(?:project|repo|repository|codebase|monorepo)\b", _I),
     "en.instruction.in_this_project"),
    (re.compile(r"^\W*(?:please\s+)?(?:remember|keep\s+in\s+mind)\b", _I), "en.instruction.remember"),
    (re.compile(r"^\W*always\W*$", _I), "en.instruction.always"),
    (re.compile(r"^\W*never\W*$", _I), "en.instruction.never"),
    (re.compile(r"今後|これから(?:は|も)|次回から"), "ja.instruction.kongo"),
    (re.compile(r"(?:この|本|うちの)(?:プロジェクト|リポジトリ|リポ)(?:では|のルール)"),
     "ja.instruction.kono_project"),
    (re.compile(r"覚え(?:て|といて)"), "ja.instruction.oboete"),
    (re.compile(r"^[\s、]*必ず[\s:：]*$"), "ja.instruction.kanarazu"),
    (re.compile(r"以后|以後|今后|(?:从|從)(?:现在|現在)"), "zh.instruction.yihou"),
    (re.compile(r"记住|記住"), "zh.instruction.jizhu"),
)
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
    _I,
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
    if _TRAIL_RE.sub("", rest).strip(" ,:;、-—–"):
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
    nxt_lang = _lang(nxt_sentence)
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
        lang = _lang(sentence)
        vetoed = _vetoed(sentence, lang)
        header_id = _header_rule(sentence) if span.line_end else None
        if header_id is not None and not vetoed:
            if i + 1 < len(spans) and spans[i + 1].bullet:
                header = (header_id, span.line, is_stated(sentence))
                continue
        chosen: MarkerRule | None = None
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
                chosen = rule
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
        stated = stated or is_stated(masked[span.start : end])
        if claim in seen:
            continue
        seen.add(claim)
        last = i + 1 if end != span.end else i
        found.append((i, last, Marker(kind=chosen.kind, rule_id=chosen.rule_id, text=claim, stated=stated)))
    # "Always use pnpm. Remember that." asks to keep the claim next to it
    return [
        replace(m, stated=True) if not m.stated and (first - 1 in keep_asks or last + 1 in keep_asks) else m
        for first, last, m in found
    ]


def _bullet_claim(sentence: str) -> bool:
    """A bullet under a durable header: anything with at least two words / four characters."""
    core = _TRAIL_RE.sub("", sentence).strip()
    if _lang(core) == "en":
        return len(core.split()) >= 2
    return len(core) >= 4


_RULE_BY_ID: dict[str, MarkerRule] = {r.rule_id: r for r in RULES}

# ---------------------------------------------------------------------------- corpus


def _score(rows: list[tuple[str | None, set[str]]]) -> dict[str, Any]:
    """Precision / recall over (expected kind, kinds found) pairs."""
    tp = fp = fn = 0
    positives = 0
    for expected, found in rows:
        if expected:
            positives += 1
        if expected and expected in found:
            tp += 1
        else:
            if found:
                fp += 1
            if expected:
                fn += 1
    predicted = tp + fp
    return {
        "precision": tp / predicted if predicted else 1.0,
        "recall": tp / positives if positives else 1.0,
        "turns": len(rows),
        "positives": positives,
        "tp": tp,
        "fp": fp,
        "fn": fn,
    }


def corpus_report(path: str | Path) -> dict[str, Any]:
    """Precision and recall of the rules on a labelled JSONL corpus, overall and split.

    Each line is ``{"text", "expected": kind | null, "lang", "note"?}``. A turn is a
    true positive when its expected kind is among the markers found, a false positive
    when markers are found but not of the expected kind (or none were expected). Rows
    noted ``"holdout"`` are also scored on their own, as are the rows tuned on.
    """
    rows: list[dict[str, object]] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
    found = [find_markers(str(row["text"])) for row in rows]
    pairs = [
        (str(row["expected"]) if row.get("expected") else None, {m.kind for m in markers})
        for row, markers in zip(rows, found, strict=True)
    ]

    def subset(field: str, value: str, same: bool = True) -> dict[str, Any]:
        return _score([pair for row, pair in zip(rows, pairs, strict=True) if (row.get(field) == value) is same])

    report = _score(pairs)
    langs = sorted({str(r.get("lang", "")) for r in rows})
    report["by_lang"] = {lang: subset("lang", lang) for lang in langs}
    report["holdout"] = subset("note", "holdout")
    report["tuned"] = subset("note", "holdout", same=False)
    report["errors"] = [
        {
            "text": row["text"],
            "expected": expected,
            "found": [(m.kind, m.rule_id, m.text) for m in markers],
            "lang": row.get("lang"),
            "note": row.get("note"),
        }
        for row, markers, (expected, kinds) in zip(rows, found, pairs, strict=True)
        if (expected and expected not in kinds) or (kinds and expected not in kinds)
    ]
    return report
