"""Masking keeps a turn's shape: a hidden block becomes spaces with its line breaks where they were."""

from __future__ import annotations

import re

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
