"""Masking keeps a turn's shape: a hidden block becomes spaces with its line breaks where they were."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.markers import sentences


def test_a_blanked_span_keeps_every_line_break_and_nothing_else() -> None:
    every = "".join(map(chr, range(0x110000)))
    blanked = sentences._blank(re.match("(?s).*", every))  # type: ignore[arg-type]
    assert blanked == "".join(c if c in sentences._NEWLINES else " " for c in every)


def test_a_fenced_block_is_masked_at_its_length() -> None:
    text = "Always run make.\n```\nrm -rf build\r\nnever mind\n```\nDone."
    masked, _code, _lines = sentences.mask(text)
    assert len(masked) == len(text)
    assert masked.startswith("Always run make.\n") and masked.endswith("\nDone.")
    assert "never" not in masked and masked.count("\n") == text.count("\n")


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
