"""Masking keeps a turn's shape: a hidden block becomes spaces with its line breaks where they were."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from agent_memory.markers import sentences
from agent_memory.text import HAN, HIRAGANA, KATAKANA


def test_a_blanked_span_keeps_every_line_break_and_nothing_else() -> None:
    every = "".join(map(chr, range(0x110000)))
    blanked = sentences._blank(re.match("(?s).*", every))  # type: ignore[arg-type]
    assert blanked == "".join(c if c in sentences._NEWLINES else " " for c in every)


@given(st.text(max_size=120) | st.lists(st.sampled_from(["\n", "\r", "\u2028", "\x85", "a", "✓", " "])).map("".join))
def test_a_span_broken_by_newlines_alone_is_blanked_as_every_other_span(text: str) -> None:
    """A span broken by "\\n" alone takes a path of its own: the same spaces and breaks as the general one."""
    blanked = sentences._blank(re.match("(?s).*", text))  # type: ignore[arg-type]
    assert blanked == "".join(c if c in sentences._NEWLINES else " " for c in text)


def test_a_fenced_block_is_masked_at_its_length() -> None:
    text = "Always run make.\n```\nrm -rf build\r\nnever mind\n```\nDone."
    masked, _code, _lines = sentences.mask(text)
    assert len(masked) == len(text)
    assert masked.startswith("Always run make.\n") and masked.endswith("\nDone.")
    assert "never" not in masked and masked.count("\n") == text.count("\n")


def test_files_attached_at_a_lines_head_are_blanked_after_the_lines_are_judged() -> None:
    text = "@TODO.md Periodically run the linter.\n@rules/ @.cursor/ Always write tests first.\n@types/node is pinned."
    masked, code, _lines = sentences.mask(text)
    assert code == 0  # the blank a mention leaves is no indented code
    assert masked.split("\n")[0].lstrip() == "Periodically run the linter."
    assert masked.split("\n")[1].lstrip() == "Always write tests first."
    assert masked.split("\n")[2] == "@types/node is pinned."  # a scoped package, no file: the sentence's own word
    assert sentences.mask("see @README.md first")[0] == "see @README.md first"  # inside a sentence it is a word of it


def test_a_sentence_typed_without_a_space_after_its_end_is_split_before_a_word_that_opens_one() -> None:
    spans = sentences.sentence_spans
    text = "as closely as possible.I want to avoid stubs"
    assert [text[s.start:s.end] for s in spans(text)] == ["as closely as possible.", "I want to avoid stubs"]
    for whole in ("use React.Component here", "see main.py and Node.js", "e.g.I think so", "v1.2.Then"):
        assert len(spans(whole)) == 1, whole


def _mask_every_pattern(text: str) -> str:
    """``mask``'s substitutions, each run whatever the text holds."""
    masked = sentences._WRAPPER_RE.sub(sentences._blank, text)
    masked = sentences._FENCE_RE.sub(sentences._blank, masked)
    masked = sentences._QUOTE_LINE_RE.sub(sentences._blank, masked)
    masked = sentences._URL_RE.sub(lambda m: "x" * len(m.group(0)), masked)
    masked = sentences._INLINE_CODE_RE.sub(sentences._hide_inner, masked)
    masked = sentences._QUOTES_RE.sub(sentences._hide_inner, masked)
    return sentences._EMPHASIS_RE.sub(sentences._unemphasise, masked)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["```", "~~~", "`", ">", " > ", "://", "http", "ftp", "www.", "w", ".", "\n", "\r", " ",
                                 "\t", "a", "never", '"', "「", "」", "*", "**", "__", "</", "<x-y>", "</x-y>"]), max_size=30)
       .map("".join))
def test_masking_skips_only_the_patterns_that_cannot_match(text: str) -> None:
    assert sentences._hidden(text) == _mask_every_pattern(text)


# --------------------------------------------------------------- the plain forms the fast ones replaced

_ORIGINAL_FENCE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)


def _plain_code_line(line: str) -> bool:
    """A line of source code, but not Japanese or Chinese prose whose only code-like mark is a closing 「；」 (";")."""
    m = sentences._CODE_LINE_RE.match(line)
    return m is not None and (m.group("ends") is None or re.search(f"[{HIRAGANA}{KATAKANA}{HAN}]", line) is None)


def _plain_mask(text: str) -> tuple[str, int, int]:
    """``mask`` a line at a time, every line rebuilt."""
    masked = sentences._hidden(text)
    out: list[str] = []
    code = prose = 0
    for line in re.split("([" + sentences._NEWLINES + "])", masked):
        if (len(line) == 1 and line in sentences._NEWLINES) or not line.strip():
            out.append(line)
        elif (any(p.match(line) for p in (sentences._LOG_LINE_RE, sentences._INDENTED_CODE_RE)) or _plain_code_line(line)
              or "NoneType" in line):
            code += 1
            out.append(" " * len(line))
        else:
            prose += 1
            out.append(line)
    return sentences._ATTACHED_RE.sub(sentences._blank, "".join(out)), code, code + prose


def _plain_spans(text: str) -> list[tuple[int, int, bool, int, bool, bool]]:
    """``sentence_spans`` with the ender regex tried everywhere and words walked back a character at a time."""
    spans = []
    pos = 0
    for line_no, line in enumerate(sentences._NEWLINE_RE.split(text)):
        base = pos
        pos += len(line) + 1
        if not line.strip():
            continue
        bullet_m = sentences._BULLET_RE.match(line)
        offset = bullet_m.end() if bullet_m else 0
        cuts = []
        for m in sentences._ENDER_RE.finditer(line, offset):
            if m.group(0).startswith(".") and m.group(0).rstrip(")]\"'\u201d」』") == ".":
                j = m.start()
                while j > offset and m.start() - j < 12 and not line[j - 1].isspace():
                    j -= 1
                token = line[j : m.start()].lower().lstrip("([")
                if token in sentences._ABBREV and not (token == "etc" and sentences._next_is_upper(line, m.end())):
                    continue
            cuts.append(m.end())
        bounds = [offset, *cuts, len(line)]
        kept = []
        for s, e in zip(bounds, bounds[1:]):
            while s < e and line[s].isspace():
                s += 1
            while e > s and line[e - 1].isspace():
                e -= 1
            if s < e:
                kept.append((s, e))
        for i, (s, e) in enumerate(kept):
            spans.append((base + s, base + e, bool(bullet_m) and i == 0, line_no, i == 0, i == len(kept) - 1))
    return spans


_LINES = st.lists(
    st.sampled_from(["```", "````", "~~~", " ```py", "`", "\n", "\r", "\u2028", " ", "\t", "    ", "\u3000", "a", "x y",
                     ".", ". ", "e.g.", "(e.g.", "etc.", " Etc", "v1.2", "main.py", "!", "?", "!?", "。", "！", "？", "」",
                     ")", "\"", "- ", "* [x] ", "1. ", "a) ", "# ", "> ", "def f(x):", "x = {", "}", "ERROR: x",
                     "$ ls", "    f(x);", "never", "Always use pnpm", "https://a.b/c.", "İ", "é", "@a.md ", "@src/",
                     "@types/x"]),
    max_size=40,
).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(_LINES, st.text(max_size=80)))
@example("㐀;")  # CJK prose ending on a folded 「；」: no line of code
@example("Try it\nos.PathLike object, not NoneType. Will try")  # a Python error's line, wrapped
def test_fences_lines_and_sentences_are_cut_as_the_plain_forms_cut_them(text: str) -> None:
    assert sentences._FENCE_RE.sub(sentences._blank, text) == _ORIGINAL_FENCE_RE.sub(sentences._blank, text)
    assert sentences.mask(text) == _plain_mask(text)
    assert [tuple(s) for s in sentences.sentence_spans(text)] == _plain_spans(text)


def test_folding_twice_changes_nothing() -> None:
    every = "".join(map(chr, range(0x20, 0x10000)))
    assert sentences.fold_text(sentences.fold_text(every)) == sentences.fold_text(every)
