"""The engine's shortcuts change nothing: its markers are those of trying every rule, every veto, in order.

``_every_rule`` is the engine as plainly written: each sentence's vetoes first, then each rule of its language
with the rule's own cue test, pattern and guard. ``find_markers`` picks the rules a sentence can reach from one
cue scan, skips over-long sentences and works the vetoes out only once a pattern matched.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agent_memory.markers import RULES, engine, find_markers, is_stated, rules_en, rules_zh, pasted
from agent_memory.markers.rule import KIND_PRIORITY, MarkerRule, lang_of
from agent_memory.markers.sentences import HEADING_RE, fold_text, mask, sentence_spans
from agent_memory.model import Marker

_BY_LANG = {
    "en": [r for r in RULES if r.lang == "en"],
    "ja": [r for r in RULES if r.lang in ("ja", "en")],
    "zh": [r for r in RULES if r.lang in ("zh", "en")],
}


def _any_cue(text: str) -> bool:
    lowered = text.lower()
    return any(rule._cue_re.search(lowered) for rule in RULES)


def _worth(text: str) -> bool:
    if not text or len(text) > engine.MAX_TURN_CHARS or not _any_cue(text):
        return False
    if engine._TURN_ASSISTANT_RE.match(text):
        return False
    headings = len(HEADING_RE.findall(text)) if "#" in text else 0
    return not (headings >= engine._MARKDOWN_DOC_HEADINGS or (headings >= 2 and len(text) > 1500))


def _plain_unpasted(text: str) -> str:
    """engine._unpasted without its cue-word prefilter: screens, review findings, diff lines and documents blanked."""
    screen = pasted._SCREEN_LINE_RE.search(text)
    if screen is not None:
        text = pasted._blank(text, screen.start(), len(text))
    review = pasted._REVIEW_RE.search(text)
    if review is not None:
        first_line = text.find("\n")
        text = pasted._blank(text, first_line if 0 <= first_line < review.start() else 0, len(text))
    for diff in [*pasted._DIFF_LINE_RE.finditer(text), *pasted._NUMBERED_DIFF_LINE_RE.finditer(text)]:
        text = pasted._blank(text, diff.start(), diff.end())
    sections = pasted._prompt_sections(text)
    if sections is not None:
        text = pasted._blank(text, sections.start(), len(text))
    document = pasted._DOC_LINE_RE.search(text)
    if document is not None:
        text = pasted._blank(text, document.start(), len(text))
    for quoted in list(pasted._QUOTED_AGENT_RE.finditer(text)):
        text = pasted._blank(text, quoted.start(), quoted.end())
    return text


def _pasted_from(text: str) -> int | None:
    """pasted.pasted_from without its cue-word prefilter: where a shell session, a titled section, a quoted web
    page, an assistant's replies to its user or an agent's reply in English start."""
    shell = pasted._SHELL_PROMPT_RE.search(text)
    starts = [s for s in (shell.start() if shell else None, pasted._titled_section(text), pasted._pointed_page(text),
                          rules_zh.reply_to_user_start(text), rules_en.agent_reply_start(text)) if s is not None]
    return min(starts) if starts else None


def _every_rule(text: str) -> list[Marker]:
    """find_markers without its shortcuts."""
    if not isinstance(text, str) or not _worth(text):
        return []
    text = _plain_unpasted(text)
    if not text.strip():
        return []
    masked, code_lines, lines = mask(fold_text(text))
    if code_lines >= 3 and code_lines >= 0.6 * lines:
        return []
    if not _any_cue(masked):
        return []
    spans = sentence_spans(masked)
    found: list[tuple[int, int, Marker]] = []
    keep_asks: set[int] = set()
    seen: set[str] = set()
    header: tuple[str, int, bool] | None = None
    asked_list = False
    skip_next = False
    for i, span in enumerate(spans):
        if skip_next:
            skip_next = False
            continue
        sentence = masked[span.start : span.end]
        if engine._MATERIAL_RE.search(sentence) and not is_stated(sentence):
            break
        if header is not None and span.line_start and not span.bullet:
            header = None
        if header is None and asked_list and span.bullet and span.line_start:
            header = ("en.instruction.into_rule_file", span.line, False)
        if len(sentence) <= engine.MAX_SENTENCE_CHARS and rules_en.LIST_INTO_RULES_RE.search(sentence):
            asked_list = True
        if header is None and not _any_cue(sentence):
            continue
        lang = lang_of(sentence)
        vetoed = engine._vetoed(sentence, lang)
        header_id = pasted.header_rule(sentence) if span.line_end else None
        if header_id is not None and not vetoed and i + 1 < len(spans) and spans[i + 1].bullet:
            header = (header_id, span.line, is_stated(sentence))
            continue
        chosen: MarkerRule | None = None
        match: re.Match[str] | None = None
        clause_at = 0
        end = span.end
        stated = False
        hard = engine._hard_vetoed(sentence, lang)
        if len(hard) < len(KIND_PRIORITY):
            for rule in _BY_LANG[lang]:
                if rule.kind in hard:
                    continue
                m = rule.matches(sentence)
                if m is None:
                    continue
                if rule.kind in vetoed:
                    apart = engine._stands_apart(sentence, m.start(), lang)
                    if apart is None:
                        continue
                    clause_at = apart
                extra = engine._claim_end(rule, m, sentence, lang, i, spans, masked)
                if extra is None:
                    continue
                chosen, match = rule, m
                if extra:
                    end = spans[i + 1].end
                    skip_next = True
                break
        if chosen is None:
            # nothing heard in the sentence as a whole: after a reminder's opening words ("note that …"), else in its
            # clauses, each as a sentence of its own
            # (a sentence past the longest typed one is judged clause by clause only, as the engine judges it)
            clause = engine._after_lead(text, masked, span.start, span.end, span.line, sentence, sentence.lower()) \
                if lang == "en" and len(sentence) <= engine.MAX_SENTENCE_CHARS else None
            if clause is None:
                clause = engine._clause_marker(text, masked, span, lang)
            if clause is not None:
                if clause.text not in seen:
                    seen.add(clause.text)
                    found.append((i, i, clause))
                continue
        if chosen is None:
            if len(sentence) <= 60 and len(vetoed) < len(KIND_PRIORITY) and is_stated(sentence):
                keep_asks.add(i)
            if header is None or not span.bullet or "instruction" in vetoed or not engine._bullet_claim(sentence, header[0]):
                continue
            chosen = engine._RULE_BY_ID[header[0]]
            stated = header[2]
        # (the claim is made as the engine makes it: what is compared is which rule is chosen, and where)
        marker = engine._marker(text, masked, span, clause_at, end, chosen, match,
                                stated or (header is not None and span.bullet and header[2]))
        if not marker.text or marker.text in seen:
            continue
        seen.add(marker.text)
        found.append((i, i + 1 if end != span.end else i, marker))
    cut = _pasted_from(text)
    if cut is not None:
        found = [(first, last, m) for first, last, m in found if spans[first].start < cut]
    return [
        replace(m, stated=True) if not m.stated and (first - 1 in keep_asks or last + 1 in keep_asks) else m
        for first, last, m in found
    ]


_CUE_WORDS = sorted({k for r in RULES for k in r.keywords})
_EXAMPLES = sorted({q for r in RULES for q in re.findall(r"'([^']{4,})'|「([^」]{2,})」", r.description) for q in q if q})
_PIECES = st.one_of(
    st.sampled_from(_CUE_WORDS),
    st.sampled_from(_EXAMPLES),
    st.sampled_from(
        [
            " ", " ", ". ", "! ", "? ", "。", "、", "，", ", but ", " and ", "\n", "\n- ", "\n1. ", "\n> ", "\n```\n",
            "`", '"', "「", "」", "**", "From now on:\n- ", "今後は:\n- ", "以后：\n- ", "Summarize the following:\n",
            "this time", "for now", "今回は", "这次", "I think", "?", "we use pnpm", "the tests", "before committing",
            "https://x.io/a", "e.g. ", "Remember that.", "です", "してください", "不要", "A" * 310, "İ", "ſ", "Σ",
            "maybe ", "he said ", "what if ", "Should we ", "yet", "I'll ", "lesson learned: ", "TIL ", "fails every time",
            "always crashes on CI", "かもしれない", "と思う", "吗", "也许",
            "\n❯ ", "\n› ", "\n  └ ", "\n● ", "\n  ⎿ ", "Medium Severity\n", "\n+   // ", "\n-   ", "Suggested fix: ",
            "; ", " also ", ", and we ", "can you look at it, ", "keep going", "the second option",
        ]
    ),
    st.text(max_size=8),
)
_TURNS = st.one_of(
    st.lists(_PIECES, max_size=30).map("".join),
    # a rule's own example with a few words around it: near a veto, a one-off, a header or another claim
    st.tuples(st.lists(_PIECES, max_size=3).map("".join), st.sampled_from(_EXAMPLES),
              st.lists(_PIECES, max_size=3).map("".join)).map("".join),
)


@settings(max_examples=1500, deadline=None)
@given(_TURNS)
@example("note forI use fishDirect pushes to main are OK now")  # a reminder's lead, then a rule the clauses miss
@example("note that as a rule, we want business logic in per-domain modulesAbsolutely no actions the user did not "
         "requestcan you update CLAUDE.md that we should always run fmt together with lint, everAbsolutely no actions "
         "the user did not requestnote that as a rule, we want business logic in per-domain modules")  # (over 300)
def test_the_shortcuts_give_what_every_rule_gives(text: str) -> None:
    assert find_markers(text) == _every_rule(text)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.rule_id)
def test_every_rule_compiles_and_its_examples_agree(rule: MarkerRule) -> None:
    assert rule.pattern.pattern == rule.source
    for example in re.findall(r"'([^']{4,})'|「([^」]{2,})」", rule.description):
        text = "".join(example)
        assert find_markers(text) == _every_rule(text)


def test_a_sentence_over_the_typed_limit_yields_nothing_and_keeps_a_header_open() -> None:
    long = "always run the linter " * 20
    text = f"From now on:\n- {long.strip()}.\n- always run the tests before pushing."
    assert find_markers(text) == _every_rule(text)
    assert [m.text for m in find_markers(text)] == ["always run the tests before pushing."]


_WORDY = st.one_of(
    _TURNS,
    st.lists(st.sampled_from(["remember", "REMEMBER", "Remember", "keep", "in", "mind", "from", "now", "on", "here",
                              "going", "forward", "note", "to", "self", "make", "a", "save", "this", "memory",
                              "ſ", "K", "İ", "覚えておいて", "今後", "记住", "从现在", "following", "error", "log",
                              ":", "：", "次の仕様", "以下需求", "below", " ", "\n", "here's", "the", "plan", "this", "output",
                              "spec", "stories", "仕様", "要求", "规格", "traceback", "got", "sort", "notes"]),
                   max_size=12).map(" ".join),
)


@settings(max_examples=1500, deadline=None)
@given(_WORDY)
def test_the_stated_and_material_prefilters_only_skip_texts_the_full_patterns_miss(text: str) -> None:
    folded = fold_text(text)
    assert is_stated(text) == bool(engine._STATED_RE.search(folded))
    assert engine._stated(folded, folded.lower()) == bool(engine._STATED_RE.search(folded))
    if engine._MATERIAL_RE.search(text):
        assert engine._material_cue(text, text.lower())


@given(st.lists(st.sampled_from([" ", "   ", "\t", "\n", "\r", "1", "42", "12345", "+", "-", "x", " +", " -"]),
                max_size=30).map("".join))
def test_the_numbered_diff_gate_finds_what_the_line_pattern_finds(text: str) -> None:
    """The pasted-diff check asks two literal-led patterns whether a numbered diff line exists: as the line pattern."""
    gate = pasted._NUMBERED_DIFF_FIRST_RE.match(text) or pasted._NUMBERED_DIFF_NEXT_RE.search(text)
    assert (gate is not None) == (pasted._NUMBERED_DIFF_LINE_RE.search(text) is not None)
