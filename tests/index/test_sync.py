"""The index's words inside identifiers: the shortcut that skips plain words gives what the full walk gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.index.sync import _identifier_words
from agent_memory.text import identifier_words

# the characters that decide where identifiers start, end and split, with a few of every class
PIECES = st.text(alphabet=list("aAzZ09._/-\\_ \n,:;'\"()éÉǅ²½あ一٣ß"), max_size=40)


@settings(max_examples=3000)
@given(text=PIECES | st.text(max_size=30))
def test_identifier_words_are_those_of_the_full_walk(text: str) -> None:
    assert _identifier_words(text) == identifier_words(text)


def test_a_chunk_keeps_its_identifier_words_in_order() -> None:
    text = "Fixed getUserName in src/cart/v3/handlers.py; python3 and the Checkout module, v2 too."
    assert _identifier_words(text) == identifier_words(text) != []
