"""Why a claim reads as standing rather than bound to the task at hand: the reason kept on its atom.

The engine drops what binds a sentence to the task (one-off words such as "for now", 「今回」, 这次; pointing
words; another agent at work; questions, hedges, pasted screens). What it keeps, it keeps for a reason a reader
can check: the person asked to keep it, a standing word, a condition that recurs, a fact about their setup, a
rule they asked to be written into an instruction file, a choice made on purpose. ``durable_reason`` names that reason
in a few words, and what of the turn was set aside: one-off words that bound another request, pasted text.
"""

from __future__ import annotations

from ..model import Marker
from .engine import one_off_word
from .pasted import pasted_reason
from .rule import I, lazy

_STANDING_WORD_RE = lazy(
    r"\b(?:always|never|every(?:\s+time)?|whenever|any(?:thing|one)?|all|each|only\s+ever|ever)\b"
    r"|毎回|必ず|いつも|常に|絶対|決して|一律|永远|永遠|总是|總是|每次|始终|始終|一定|都要|不要|禁止",
    I,
)
_RECURRING_RE = lazy(
    r"\b(?:before|after|when(?:ever)?|while|until)\s+\w+|前に|時は|ときは|場合は|之前|以前|前先|时|時候|的时候",
    I,
)
_FILE_RULES = ("en.instruction.into_instruction_file", "en.instruction.note_in_file")
_SETUP_RULES = ("en.correction.setup_fact", "en.instruction.we_use", "ja.correction.environment", "zh.correction.setup")
# rules whose shape is itself the reason the claim stands
_SHAPE_REASONS = {
    "en.correction.deliberate_choice": "a choice the person made on purpose",
    "en.correction.deprecated_for": "something the project has moved off",
    "en.instruction.as_a_rule": "said as a rule",
    "en.instruction.convention_is": "named as the project's convention",
    "en.instruction.keep_forgetting": "a rule the agent keeps breaking",
    "zh.instruction.keep_forgetting": "a rule the agent keeps breaking",
}
def _one_off_elsewhere(claim: str, turn: str) -> str:
    """A one-off word ("for now", 今回, 这次) the turn holds outside the claim: it bound another request."""
    word = one_off_word(turn)
    return word if word and not one_off_word(claim) else ""


def durable_reason(marker: Marker, turn: str = "") -> str:
    """A few words on why ``marker`` is a standing claim; ``turn`` is the whole turn it came from."""
    if marker.stated:
        reason = "asked to keep it"
    elif marker.reverses:
        reason = "lifts a standing rule"
    elif marker.rule_id in _FILE_RULES:
        reason = "asked for the instruction file"
    elif marker.rule_id in _SHAPE_REASONS:
        reason = _SHAPE_REASONS[marker.rule_id]
    elif marker.rule_id in _SETUP_RULES or marker.kind == "correction":
        reason = "a fact about the person's setup or the project"
    elif marker.kind in ("lesson", "failure"):
        reason = "a lesson or a failure that recurs"
    else:
        word = _STANDING_WORD_RE.search(marker.text)
        recurring = _RECURRING_RE.search(marker.text)
        if word is not None:
            reason = f"a standing word: '{word.group(0)}'"
        elif recurring is not None:
            reason = f"a condition that recurs: '{recurring.group(0)}'"
        else:
            reason = "a rule about a class of things, no word ties it to the task"
    if turn:
        elsewhere = _one_off_elsewhere(marker.text, turn)
        if elsewhere:
            reason = f"{reason}; '{elsewhere}' binds only the rest of the turn"
        pasted = pasted_reason(turn)
        if pasted:
            reason = f"{reason}; {pasted} left out"
    return reason
