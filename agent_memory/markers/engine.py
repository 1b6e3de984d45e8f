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
from dataclasses import replace

from ..model import Marker
from . import rules_en, rules_ja, rules_zh
from .cues import CueIndex
from .pasted import header_rule, pasted_from, pasted_reason, unpasted
from .rule import EVERYTHING, KIND_PRIORITY, MAX_SENTENCE_CHARS, TRAIL_RE, I, MarkerRule, lang_of, lazy
from .sentences import HEADING_RE, Span, collapse, fold_text, mask, sentence_spans

__all__ = ["RULES", "find_markers", "is_stated"]

MAX_TURN_CHARS = 12_000  # beyond this a turn is a pasted document


_TURN_ASSISTANT_RE = lazy(
    r"^\s*(?:Certainly[!,.]|Understood[!,.]|Absolutely[!,.]|You'?re absolutely right|I apologi[sz]e|"
    r"Great question|Here'?s (?:a|the|what|how)|I'll (?:now|start|go ahead)|Let me (?:start|check|"
    r"look|explain|summari[sz]e)|承知(?:しました|いたしました)|"
    r"かしこまりました|ご指摘ありがとう|"
    r"申し訳(?:あり|ござい)ません)"
)


# --------------------------------------------------------------------- vetoes, claims

_LANG_TABLES = {"ja": rules_ja, "zh": rules_zh}


ONE_OFF_KINDS: frozenset[str] = frozenset({"instruction", "preference", "correction"})
_CLAUSE_CUT_RE = lazy(r"[,;，；、]|\s[—–-]+\s|\s(?=(?:but|and)\s)", I)
_CONNECTOR_RES = {
    "en": lazy(r"\W*" + rules_en.CONNECTOR, I),
    "ja": lazy(r"\W*" + rules_ja.CONNECTOR),
    "zh": lazy(r"\W*" + rules_zh.CONNECTOR),
}


_DURABLE_CONNECTOR_RE = lazy(r"今後|これから|次回から|次から|以后|以後|今后")


def _hard_vetoed(sentence: str, lang: str) -> frozenset[str]:
    """Kinds a sentence may not yield whatever clause says it: questions, hedges, reports, hypotheticals."""
    if len(sentence) > MAX_SENTENCE_CHARS:
        return EVERYTHING
    core = TRAIL_RE.sub("", sentence)
    vetoed = rules_en.vetoes(sentence, core)
    table = _LANG_TABLES.get(lang)
    if table is not None and vetoed != EVERYTHING:
        vetoed |= table.vetoes(sentence, core)
    return vetoed


def one_off_word(text: str, lang: str = "") -> str:
    """The word of ``text`` that binds it to the task at hand ("for now", 今回, 这次), "" when none.

    English words count in every language; another language's own when ``lang`` names it, or all when ``lang`` is "".
    """
    if not lang:
        tables = (rules_en, *_LANG_TABLES.values())
    else:
        tables = (rules_en, _LANG_TABLES[lang]) if lang in _LANG_TABLES else (rules_en,)
    for table in tables:
        found = table.ONE_OFF_RE.search(text)
        if found:
            return found.group(0)
    return ""


def _one_off(text: str, lang: str) -> bool:
    return bool(one_off_word(text, lang))


def _vetoed(sentence: str, lang: str) -> frozenset[str]:
    """Kinds a sentence may not yield, for the reasons listed in the module docstring."""
    return _with_one_off(_hard_vetoed(sentence, lang), sentence, lang)


def _with_one_off(hard: frozenset[str], sentence: str, lang: str) -> frozenset[str]:
    """The hard vetoes of a sentence and, when it says "for now" / 今回 / 这次, the kinds a one-off rules out."""
    if hard != EVERYTHING and _one_off(sentence, lang):
        return hard | ONE_OFF_KINDS
    return hard


def _stands_apart(sentence: str, at: int, lang: str) -> int | None:
    """Where the clause a rule matched in starts, when it stands apart from a one-off request before it.

    "Skip the tests this time, but always run lint before pushing": the one-off words lie before,
    in another request, and the clause with the rule opens with "but" and is free of them. None
    when the one-off words bind the rule too.
    """
    cuts = [m for m in _CLAUSE_CUT_RE.finditer(sentence, 0, at + 1)]
    if not cuts:
        return None
    cut = cuts[-1].end()
    before, clause = sentence[:cut], sentence[cut:]
    connector = _CONNECTOR_RES[lang].match(clause)
    if connector is None or not _one_off(before, lang) or _one_off(clause, lang):
        return None
    # the kept claim starts after "but" / 但是; 「今後」 and 以后 are part of it
    if _DURABLE_CONNECTOR_RE.match(clause.lstrip(" ,、，")):
        return cut + len(clause) - len(clause.lstrip(" ,、，"))
    return cut + connector.end()


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
_CUES = CueIndex(RULES)
# the rules a sentence's language may use: English cues show up inside Japanese and Chinese turns
_LANG_BITS: dict[str, int] = {"en": _CUES.bits(("en",)), "ja": _CUES.bits(("ja", "en")), "zh": _CUES.bits(("zh", "en"))}


def _has_keyword(text: str) -> bool:
    """The prefilter: does any rule's cue word occur at all? (one regex pass over the text)"""
    return _CUES.holds_any(text.lower())


# ------------------------------------------------------------------------ stated / headers

_STATED_RE = lazy("|".join((rules_en.STATED, rules_ja.STATED, rules_zh.STATED)), I)


# one of these words occurs wherever _STATED_RE matches (each of its branches needs one), read with the same
# flags; in ASCII text, where case folds only within ASCII, the lower-cased text holding one says the same
_STATED_CUE_RE = lazy("|".join((rules_en.STATED_CUES, rules_ja.STATED_CUES, rules_zh.STATED_CUES)), I)
_STATED_ASCII_CUE_RE = lazy(rules_en.STATED_CUES)


def is_stated(sentence: str) -> bool:
    """Whether the person explicitly asked for this to be kept ("remember", 「今後は」)."""
    return _stated(fold_text(sentence))


def _stated(folded: str, lowered: str | None = None) -> bool:
    """``is_stated`` of a text already folded; ``lowered`` is ``folded.lower()`` when the caller has it."""
    if folded.isascii():
        if _STATED_ASCII_CUE_RE.search(folded.lower() if lowered is None else lowered) is None:
            return False
    elif _STATED_CUE_RE.search(folded) is None:
        return False
    return _STATED_RE.search(folded) is not None


_SCAFFOLD_RE = lazy(
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
    headings = len(HEADING_RE.findall(text)) if "#" in text else 0
    if headings >= _MARKDOWN_DOC_HEADINGS or (headings >= 2 and len(text) > 1500):
        return False  # a pasted spec / issue / prompt with its own headings
    return True


def _claim_end(
    rule: MarkerRule, m: re.Match[str], sentence: str, lang: str, i: int, spans: list[Span], masked: str
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


# A sentence that introduces material to work on ("Summarize the following rules from our wiki:",
# 「次の仕様で実装してください」, 要求：): what follows it in the turn is that material, not the person's rules.
# Every English branch opens on a word boundary, written once before them all: the regex engine then tries the
# branches only where a word starts, not at every character.
_MATERIAL = (
    r"\b(?:(?:the\s+following|as\s+follows|below|summari[sz]e|translate|rewrite|proofread|paraphrase|"
    r"(?:user\s+)?stor(?:y|ies)|acceptance\s+criteria|requirements?|spec(?:ification)?s?|from\s+(?:our|the|their)\s+"
    r"(?:wiki|docs?|readme|handbook|guide|confluence|notion|style\s*guide))\b[^.!?\n]*[:：]"
    # "can you help me categorize and structure the feedback?": the notes that follow are material to sort
    r"|(?:categori[sz]e|organi[sz]e|structure|sort|group|triage|cluster)\s+(?:and\s+[a-z]+\s+)?(?:the|this|my|these|our)\s+"
    r"(?:[\w-]+\s+)?(?:feedback|notes|ideas|thoughts|comments|requests)\b"
    r"|(?:try|use|go\s+with|implement|apply|do)\s+(?:this|that|the\s+following)(?:\s+(?:approach|option|plan|fix|"
    r"suggestion|idea|one|instead))?\s*[:：]"
    # "Here's the plan:", "Here is what the other agent wrote:": pasted material follows
    r"|here(?:'?s|\s+is|\s+are)\s+(?:the\s+|my\s+|our\s+|an?\s+|what\s+|some\s+)?[\w' -]{2,40}[:：]\s*$"
    # (not a path's "::": "std::error::Error")
    r"|(?<!:)(?:(?:here'?s|this\s+is|i\s+got|got)\s+(?:the\s+|this\s+|an?\s+)?)?(?:error|output|log|logs|stack\s*trace|"
    r"traceback)(?:\s+(?:message|output))?\s*[:：](?!:)|(?:i\s+)?got\s+this\s*[:：])"
    r"|(?:次の|以下の|下記の)(?:仕様|要件|要求|内容|ルール|文章|テキスト|条件)|(?:仕様|要件|要求|条件)\s*[:：]"
    r"|(?:以下|下面|如下)(?:的)?(?:需求|要求|规则|規則|内容|內容|文字|规范|規範)|(?:需求|要求|规格|規格)\s*[:：]"
)
_MATERIAL_RE = lazy(_MATERIAL, I)
# the same read case-sensitively, for an ASCII sentence's lower case (its words are all written in lower case): in
# ASCII text, where case folds only within ASCII, it matches where _MATERIAL_RE does, and the regex engine can skip
# a branch on its first letter, which it cannot do when it ignores case
_MATERIAL_LOWER_RE = lazy(_MATERIAL)
# every branch of _MATERIAL_RE needs a colon, 下 or 次, or a verb of sorting and the notes it sorts: a sentence
# without them is not material. A colon is common ("src/app.py:12", "https://"), so a branch that needs one is tried
# only where one of its words occurs too (each branch holds one of _MATERIAL_WORDS).
_MATERIAL_CUE_RE = lazy("[:：下次]")
_MATERIAL_WORDS = (
    "follow", "below", "summari", "translate", "rewrite", "proofread", "paraphrase", "stor", "acceptance",
    "requirement", "spec", "from", "this", "that", "here", "error", "output", "log", "trace",
    "下", "次の", "仕様", "要件", "要求", "条件", "需求", "规格", "規格",
)
_NOTES = ("feedback", "notes", "ideas", "thoughts", "comments", "requests")
_SORTING = ("categori", "organi", "structur", "sort", "group", "triage", "cluster")


def _material_cue(sentence: str, lowered: str) -> bool:
    """Whether ``sentence`` (``lowered``: its lower case) holds what some branch of ``_MATERIAL_RE`` needs."""
    # (":" by a substring test; the other cues lie past ASCII)
    if (":" in sentence or (not sentence.isascii() and _MATERIAL_CUE_RE.search(sentence) is not None)) \
            and _holds_one(lowered, _MATERIAL_WORDS):
        return True
    return _holds_one(lowered, _SORTING) and _holds_one(lowered, _NOTES)


def _material(sentence: str, lowered: str) -> bool:
    """Whether ``sentence`` (``lowered``: its lower case) introduces material to work on (``_MATERIAL_RE``)."""
    if sentence.isascii():
        return _MATERIAL_LOWER_RE.search(lowered) is not None
    return _MATERIAL_RE.search(sentence) is not None


def _holds_one(lowered: str, words: tuple[str, ...]) -> bool:
    """Whether one of ``words`` occurs in ``lowered`` (a plain loop: it runs on every sentence of every turn)."""
    for word in words:
        if word in lowered:
            return True
    return False


def _marker(text: str, masked: str, span: Span, clause_at: int, end: int, rule: MarkerRule,
            match: re.Match[str] | None, stated: bool) -> Marker:
    """The marker a rule found in a sentence (its text "" when nothing is left of the claim): the claim from
    ``clause_at`` to ``end``, or the clause the rule names; stated when the person asked to keep it."""
    claim = _trim(collapse(text[span.start + clause_at : end]))
    if match is not None and end == span.end and match.re.groupindex.get("claim") and match.group("claim"):
        # the rule names the clause that carries the claim
        clause = text[span.start + match.start("claim") : span.start + match.end("claim")]
        claim = collapse(clause).strip(" ,;:—–-") or claim
    reverses = ""
    if claim and match is not None and rule.reverses is not None:
        reverses = collapse(rule.reverses(text[span.start : span.end], match)).rstrip(" .!。！")
    return Marker(kind=rule.kind, rule_id=rule.rule_id, text=claim,
                  stated=stated or is_stated(masked[span.start : end]), reverses=reverses)


def find_markers(text: str) -> list[Marker]:
    """The durable claims in one user turn, in order; [] when there are none."""
    if not isinstance(text, str) or not _worth_splitting(text):
        return []
    text = unpasted(text)
    if not text.strip():
        return []
    folded = fold_text(text)
    masked, code_lines, lines = mask(folded)
    if code_lines >= 3 and code_lines >= 0.6 * lines:
        return []  # mostly pasted code or log output
    if masked is not text and not _has_keyword(masked):  # (the same text: _worth_splitting found a cue in it)
        return []
    spans = sentence_spans(masked)
    found: list[tuple[int, int, Marker]] = []  # first and last span of each marker
    keep_asks: set[int] = set()  # spans that only ask to keep something: "Remember this."
    seen: set[str] = set()
    header: tuple[str, int, bool] | None = None  # (rule id, line, stated) of an open "From now on:"
    asked_list = False  # the turn asked for what it lists to go into a rule file
    skip_next = False
    for i, span in enumerate(spans):
        if skip_next:
            skip_next = False
            continue
        sentence = masked[span.start : span.end]
        lowered = sentence.lower()
        if _material_cue(sentence, lowered) and _material(sentence, lowered) and not is_stated(sentence):
            break  # the rest of the turn is material to work on ("今後は以下のルールで:" lists the person's own)
        if header is not None and span.line_start and not span.bullet:
            header = None
        if header is None and asked_list and span.bullet and span.line_start:
            header = (_ASKED_LIST_RULE, span.line, False)  # an item of the list asked into a rule file
        if len(sentence) > MAX_SENTENCE_CHARS:
            # pasted prose, or a run-on request whose clauses are judged one by one
            clause = _clause_marker(text, masked, span, lang_of(sentence))
            if clause is not None and clause.text not in seen:
                seen.add(clause.text)
                found.append((i, i, clause))
            continue
        found_cues = _CUES.mask(lowered)
        if not asked_list and ("rule" in lowered or ".md" in lowered) and rules_en.LIST_INTO_RULES_RE.search(sentence):
            asked_list = True
        if header is None and not found_cues:
            continue
        lang = lang_of(sentence)
        # the vetoes are the dear part: worked out only once something needs them
        hard: frozenset[str] | None = None
        vetoed: frozenset[str] | None = None
        header_id = header_rule(sentence) if span.line_end and i + 1 < len(spans) and spans[i + 1].bullet else None
        if header_id is not None:
            hard = _hard_vetoed(sentence, lang)
            vetoed = _with_one_off(hard, sentence, lang)
            if not vetoed:
                header = (header_id, span.line, is_stated(sentence))
                continue
        end = span.end
        stated = False
        chosen, match, clause_at, extra, hard, vetoed = _choose(sentence, lang, found_cues, hard, vetoed, i, spans, masked)
        if extra:
            end = spans[i + 1].end
            skip_next = True
        if chosen is None:
            # nothing heard in the sentence as a whole: perhaps after a reminder's opening words, or in one of its clauses
            part = _after_lead(text, masked, span.start, span.end, span.line, sentence, lowered) if lang == "en" else None
            if part is None and lang in _RUN_ON_CUTS and _may_run_on(sentence):
                part = _clause_marker(text, masked, span, lang)
            if part is not None:
                if part.text not in seen:
                    seen.add(part.text)
                    found.append((i, i, part))
                continue
        if chosen is None:
            if len(sentence) <= 60 and _stated(sentence, lowered):  # masked is folded: folding again is a no-op
                if vetoed is None:
                    vetoed = _with_one_off(_hard_vetoed(sentence, lang) if hard is None else hard, sentence, lang)
                if len(vetoed) < len(KIND_PRIORITY):
                    keep_asks.add(i)
            if header is None or not span.bullet or not _bullet_claim(sentence, header[0]):
                continue
            if vetoed is None:
                vetoed = _with_one_off(_hard_vetoed(sentence, lang) if hard is None else hard, sentence, lang)
            if "instruction" in vetoed:
                continue
            chosen = _RULE_BY_ID[header[0]]
            stated = header[2]
        marker = _marker(text, masked, span, clause_at, end, chosen, match,
                         stated or (header is not None and span.bullet and header[2]))
        if not marker.text or marker.text in seen:
            continue
        seen.add(marker.text)
        found.append((i, i + 1 if end != span.end else i, marker))
    if found:  # what is pasted from a line on, by the checks dear enough to ask only here, is not the person's
        cut = pasted_from(text)
        if cut is not None:
            found = [(first, last, m) for first, last, m in found if spans[first].start < cut]
    # "Always use pnpm. Remember that." asks to keep the claim next to it
    return [
        replace(m, stated=True) if not m.stated and (first - 1 in keep_asks or last + 1 in keep_asks) else m
        for first, last, m in found
    ]


def _choose(
    sentence: str, lang: str, found_cues: int, hard: frozenset[str] | None, vetoed: frozenset[str] | None,
    i: int, spans: list[Span], masked: str, skip: frozenset[str] = frozenset(),
) -> tuple[MarkerRule | None, re.Match[str] | None, int, int, frozenset[str] | None, frozenset[str] | None]:
    """The first rule that holds in a sentence, ``skip`` left out: (rule, match, where its claim starts, 1 when the
    claim is the next sentence, and the vetoes worked out on the way, None where nothing needed them)."""
    rules = _CUES.of(found_cues & _LANG_BITS[lang])
    if skip:
        rules = [rule for rule in rules if rule.rule_id not in skip]
    for rule in rules:
        m = rule.pattern.search(sentence)
        if m is None:
            continue
        # the rule's own guard before the sentence's vetoes: a guard reads one match, the vetoes the whole sentence
        # against every refusal, and most matches a guard turns down need no vetoes at all
        if rule.guard is not None and not rule.guard(sentence, m):
            continue
        if hard is None:
            hard = _hard_vetoed(sentence, lang)
        if rule.kind in hard:
            continue
        clause_at = 0
        if rule.kind in ONE_OFF_KINDS:
            if vetoed is None:
                vetoed = _with_one_off(hard, sentence, lang)
            if rule.kind in vetoed:
                apart = _stands_apart(sentence, m.start(), lang)
                if apart is None:
                    continue
                clause_at = apart
        extra = _claim_end(rule, m, sentence, lang, i, spans, masked)
        if extra is None:
            continue
        return rule, m, clause_at, extra, hard, vetoed
    return None, None, 0, 0, hard, vetoed


# Where a run-on English request starts a clause of its own: "; ", ", and also", ", and we …", ", but never …". A
# sentence that cannot be judged whole (a question in its first clause, over the typed limit) is judged clause by
# clause: "can you look at why the mock fails; you have to use a verifying double" keeps the rule after the ";".
# Chinese strings its clauses on commas: 「这个就是源码，你自己分析，不要动源码！」 keeps the last one.
_RUN_ON_CUTS = {
    "en": lazy(
        r";\s+|,\s+(?:and|but|plus)\s+(?=(?:we|you|please|always|never|don'?t|do\s+not|make\s+sure|remember)\b)"
        r"|,\s+(?:and\s+)?also\s*,?\s+(?=(?:we|you|i|please|always|never|don'?t|do\s+not|make\s+sure|remember)\b)"
        r"|,\s+(?:and|but)\s+(?=(?:keep|bear)\s+in\s+mind\b|note\s+that\b)|;\s*(?=note\s+that\b)",
        I,
    ),
    "zh": lazy(r"\s*[，,；;]\s*"),
}
_CARRIES_OVER = {"en": rules_en.carries_over, "zh": rules_zh.carries_over}
# rules that need the whole sentence to be sure of what they hear, never tried on one clause of it
_NOT_IN_A_CLAUSE = {"en": frozenset[str](), "zh": rules_zh.NOT_IN_A_CLAUSE}


def _may_run_on(sentence: str) -> bool:
    """Whether a comma or a semicolon, which every cut of ``_RUN_ON_CUTS`` opens on, occurs in the sentence."""
    return "," in sentence or ";" in sentence or (not sentence.isascii() and ("，" in sentence or "；" in sentence))


def _clause_marker(text: str, masked: str, span: Span, lang: str) -> Marker | None:
    """The first rule heard in one clause of a run-on English or Chinese sentence, each judged as a sentence of its own;
    None when the sentence has no such clause, says "for now" anywhere, or opens on words whose reach goes past a
    clause (a report, a hypothetical, "never mind")."""
    cut_re = _RUN_ON_CUTS.get(lang)
    if cut_re is None:
        return None
    sentence = masked[span.start : span.end]
    cuts = list(cut_re.finditer(sentence)) if _may_run_on(sentence) else []
    if not cuts:
        return None
    bounds = [0, *(c.end() for c in cuts)]
    ends = [*(c.start() for c in cuts), len(sentence)]
    one_off: bool | None = None  # worked out once a clause holds a cue: most clauses hold none
    for start, stop in zip(bounds, ends):
        clause = sentence[start:stop]
        if not clause.strip() or len(clause) > MAX_SENTENCE_CHARS:
            continue
        lowered = clause.lower()
        cues = _CUES.mask(lowered)
        if not cues or lang_of(clause) != lang or _CARRIES_OVER[lang](sentence[:start], clause, sentence):
            continue
        if one_off is None:
            one_off = _one_off(sentence, lang)
        if one_off:
            return None
        part = Span(span.start + start, span.start + stop, False, span.line, False, False)
        chosen, match, clause_at, _, _, _ = _choose(clause, lang, cues, None, None, 0, [part], masked,
                                                    _NOT_IN_A_CLAUSE[lang])
        if chosen is not None:
            marker = _marker(text, masked, part, clause_at, part.end, chosen, match, False)
            if marker.text:
                return marker
        elif lang == "en":
            led = _after_lead(text, masked, part.start, part.end, span.line, clause, lowered)
            if led is not None:
                return led
    return None


# What a reminder opens on before the rule it carries: "Remember we only deploy on Fridays", "keep in mind that all
# components live in src/ui", "FYI the API runs on port 8080 locally", "for the record, our design system uses 8px
# spacing everywhere". The rules are tried again on what follows (each rule's own opening words are few).
_LEAD_STARTS = ("remember", "keep in mind", "bear in mind", "note", "fyi", "btw", "by the way", "for the record",
                "just so you know", "heads up", "reminder")  # (a test in C before the regex: most sentences fail it)
_LEAD_PUNCT = " \t\"'*>(-–—"
_REMINDER_LEAD_RE = lazy(
    r"^\W*(?:remember(?:\s+that)?|(?:keep|bear)\s+in\s+mind(?:\s+that)?|"
    r"note(?:\s+that)?|fyi|btw|by\s+the\s+way|for\s+the\s+record|just\s+so\s+you\s+know|heads\s+up|reminder)"
    r"\s*[,:—–-]?\s+(?=\w)",
    I,
)


def _after_lead(text: str, masked: str, start: int, end: int, line: int, sentence: str, lowered: str) -> Marker | None:
    """The rule heard in an English sentence or clause (``lowered``: its lower case) once its reminder's opening words
    are set aside."""
    if not lowered.lstrip(_LEAD_PUNCT).startswith(_LEAD_STARTS):
        return None
    m = _REMINDER_LEAD_RE.match(sentence)
    if m is None:
        return None
    rest = sentence[m.end() :]
    cues = _CUES.mask(rest.lower())
    if not cues:
        return None
    part = Span(start + m.end(), end, False, line, False, False)
    chosen, match, clause_at, _, _, _ = _choose(rest, "en", cues, None, None, 0, [part], masked)
    if chosen is None:
        return None
    marker = _marker(text, masked, part, clause_at, part.end, chosen, match, is_stated(sentence))
    return marker if marker.text else None


# "Make the list below into my cursor rules: - …": the items of a list a turn asks to be written into a rule or
# instruction file are the rules (a "Workflow: 1) … 2) …" label item is an outline, a name of two words no rule)
_ASKED_LIST_RULE = "en.instruction.into_rule_file"
_LABELLED_ITEM_RE = lazy(r"^\W*[\w /&-]{1,30}:\s")


def _bullet_claim(sentence: str, rule_id: str = "") -> bool:
    """A bullet under a durable header: anything with at least two words / four characters."""
    core = TRAIL_RE.sub("", sentence).strip()
    if rule_id == _ASKED_LIST_RULE:  # a rule of its own, not a label or a name ("Product Manager")
        return not _LABELLED_ITEM_RE.match(sentence) and len(core.split()) >= 4
    if lang_of(core) == "en":
        return len(core.split()) >= 2
    return len(core) >= 4


_RULE_BY_ID: dict[str, MarkerRule] = {r.rule_id: r for r in RULES}
