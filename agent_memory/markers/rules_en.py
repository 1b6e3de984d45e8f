"""English marker rules, and the English vetoes and claim check the engine applies.

The vetoes run on every sentence, whatever its language: English question words, hedges and
"for now" show up inside Japanese and Chinese turns as well.
"""

from __future__ import annotations

import re

from .rule import EVERYTHING, Guard, MarkerRule, Reverser, lazy
from .rule import I as _I

__all__ = ["CONNECTOR", "HEADERS", "RULES", "STATED", "STATED_CUES", "agent_reply_start", "has_claim", "one_off", "vetoes"]

# ---------------------------------------------------------------------------- vetoes

_EN_QUESTION_RE = lazy(
    # ("No, I meant, why don't we keep it in the cache": a question after a "no, I meant" lead-in)
    r"\?\W*$|^\W*(?:(?:ok|okay|so|and|but|also|hey|hmm|then|btw|no|nope|i\s+mean|i\s+meant)\s*,?\s+)*"
    r"(?:should|shall|do|does|did|can|could|would|will|is|are|was|were|am|have|has|may|"
    r"why\s+(?:don'?t|doesn'?t|can'?t|won'?t|wouldn'?t|isn'?t|aren'?t)|why|what(?!\s+(?:i|we)\s+(?:just\s+)?(?:learned|found\s+out)\b)|how|where|which|who|whom|whose|"
    r"isn't|aren't|don't|doesn't|won't|wouldn't|"
    r"shouldn't|can't|couldn't)\s+(?:we|i|you|it|they|this|that|there|he|she|the|a|an|my|"
    r"our|your|these|those|all|any)\b",
    _I,
)
_EN_HEDGE_RE = lazy(
    r"\b(?:maybe|perhaps|probably|possibly|might|may\s+(?:be|want|need|have)|i\s+think|i\s+guess|"
    r"i\s+suppose|i\s+assume|i\s+feel\s+like|i'?m\s+not\s+sure|not\s+sure|unsure|i\s+wonder|wondering|"
    r"could|kind\s+of|kinda|sort\s+of|seems?\s+(?:like|to)|i\s+believe|it\s+appears|"
    r"presumably|arguably|in\s+theory|(?:un)?likely|hopefully|i'?m\s+guessing|not\s+certain|if\s+possible|"
    r"if\s+you\s+can|would\s+be\s+(?:nice|good|great|better|ideal)|"
    r"it'?d\s+be\s+(?:nice|good|great|better|ideal)|i\s+wish|not\s+100%|iirc|afaik)\b",
    _I,
)
ONE_OFF_RE = lazy(
    r"\b(?:just\s+this\s+once|this\s+once|for\s+now|for\s+the\s+(?:time\s+being|moment)|"
    r"this\s+time|temporar(?:y|ily)|for\s+today|today(?<!learned\stoday)|tonight|right\s+now|"
    r"just\s+for\s+(?:this|now|the\s+demo)|only\s+(?:for\s+)?this\s+(?:once|time|pr|task|one|branch|commit)|"
    r"for\s+this\s+(?:pr|task|ticket|commit|one|session|demo|run|release|sprint|change)|"
    r"in\s+this\s+(?:pr|session|task|commit|ticket|sprint)|"
    r"until\s+(?:we|i|the|it|next|further\s+testing)|yet|at\s+the\s+moment|currently|"
    r"for\s+the\s+next\s+(?:hour|few|couple|day|week)|"
    # someone else is at work on the tree: a hold on the task at hand ("another agent is working on …")
    r"(?:another|the\s+other|a\s+different|other)\s+(?:agent|session|instance|claude|codex|process|window|terminal|"
    r"developer|dev|person)s?\s+(?:is|are)\b|(?:someone|somebody)\s+else\s+is\b|"
    r"there(?:'s|\s+is|\s+are)\s+(?:another|other)\s+(?:agents?|sessions?|instances?)\b|"
    r"(?:i|we)\s+have\s+(?:another|other)\s+(?:agents?|sessions?|instances?)\b|"
    r"in\s+this\s+(?:branch|worktree|pr\s+stack)|on\s+this\s+branch)\b",
    _I,
)
_EN_NEGATED_RE = lazy(
    # ("nvm" is also Node's version manager: "I use nvm to manage node versions")
    r"\b(?:never\s*mind|nevermind|nvm(?<!use\snvm)(?<!with\snvm)(?<!via\snvm)(?<!using\snvm)(?!\s+(?:to|for|install|use|ls|alias|"
    r"exec|run|version)\b)|scratch\s+that|"
    r"(?<!n't\s)(?<!not\s)(?<!never\s)forget\s+(?:it|that|about\s+(?:it|that))\b(?!\s+\w+\s+(?:is|are))|"
    r"ignore\s+(?:that|this|what\s+i\s+said|my\s+(?:last|previous))|disregard|cancel\s+that|"
    r"doesn'?t\s+matter|not\s+(?:always|necessarily|every\s+time)|(?:isn'?t|aren'?t|doesn'?t|"
    r"don'?t|won'?t|didn'?t|wasn'?t)\s+always|not\s+a\s+(?:hard\s+)?rule|no\s+need\s+to\s+always|"
    r"(?:that'?s|it'?s)\s+(?:fine|ok|okay)\s+(?:either\s+way|as\s+is))\b",
    _I,
)
_EN_REPORTED_RE = lazy(
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
_EN_HYPOTHETICAL_RE = lazy(
    r"^\W*(?:what\s+if|suppose|supposing|imagine|hypothetically|in\s+theory|had\s+we|were\s+we)\b"
    r"|^\W*(?:(?:and|but|so|also)\s+)?(?:if|even\s+if|unless)\b.*\b(?:would|could|might|'d|did|were|had)\b"
    r"|\bwould\s+(?:have|be)\b.*\bif\b"
    # "reads as if we start a new branch always", "we would want the same data": a picture, not a rule
    r"|\bas\s+(?:if|though)\b|\bwe\s+would\s+(?!rather\b|prefer\b)"
    # "you should never have done that": a complaint about what happened, not a rule for what comes
    r"|\b(?:should|shouldn'?t|must)\s+(?:never\s+|not\s+|always\s+)?have\s+(?!to\b)[a-z]+(?:ed|en|ne|wn|ht|de)\b",
    _I,
)
_EN_ASSISTANT_RE = lazy(
    r"^\W*(?:(?:sure|certainly|absolutely|of\s+course|understood|great|got\s+it|noted|"
    r"will\s+do|you'?re\s+(?:absolutely\s+)?right|good\s+catch|thanks?(?:\s+you)?)[!,.\s]+)*"
    r"(?:i'?ll|i\s+will|i'?m\s+going\s+to|(?:i'?ve|i\s+have)(?!\s+changed\s+my\s+mind\b)|let\s+me|here'?s|here\s+is|"
    r"i'?d\s+be\s+happy|i\s+apologi[sz]e|i\s+understand|i\s+now\s+understand|i\s+can\s+see|"
    r"i\s+see\s+that|i\s+notice[sd]?|i\s+found|i\s+checked)\b",
    _I,
)
_EN_I_WILL_RE = lazy(r"\b(?:i'?ll|i\s+will|i'?m\s+going\s+to|i\s+shall)\b", _I)

# ------------------------------------------------------------------------ claim check

_EN_CLAIM_RE = lazy(
    r"\b(?:is|are|was|were|isn't|aren't|should|must|needs?|uses?|lives?|runs?|goes|belongs|"
    r"means|instead|not|only|never|always|has|have|it's|that's|they're|there's|"
    r"we|listens|points|targets?|defaults?|returns?|expects?|requires?)\b|\b\w+'s\b|\d",
    _I,
)
_EN_EMPTY_CLAIM_RE = lazy(
    r"^\W*(?:then\s+)?(?:(?:it|that|this)(?:'s|\s+is)\s+(?:fine|ok|okay|good|great|perfect|correct|right|"
    r"alright|done|enough|not\s+needed|not\s+necessary|unnecessary|not\s+a\s+problem|no\s+problem|"
    r"what\s+i\s+(?:want|meant|asked))\b|let'?s\b|please\b|can\s+you\b|could\s+you\b|"
    r"(?:try|do|redo|fix|revert|undo|change|go|start|stop)\b)",
    _I,
)
# ----------------------------------------------------------------------- rules (en)

# clause-opening filler an imperative may follow: "Also, please always ..."
_LEAD = (
    r"(?:^|[,;:—–]\s*|\s[-–—]\s+|\(\s*)"
    r"(?:(?:please|pls|plz|and|also|but|so|then|ok|okay|oh|hey|just|again|seriously|yes|yeah|yep|as\s+always|"
    r"remember\s+to|make\s+sure\s+(?:to|you|we|that\s+you)|be\s+sure\s+to|ensure\s+(?:you|we)|"
    r"try\s+to|you\s+should|we\s+should|you\s+must|we\s+must|let'?s|let\s+us|"
    # "I'd like you to always ask before deleting files"
    r"i'?d\s+like\s+you\s+to|i\s+would\s+like\s+you\s+to|i\s+(?:want|need)\s+you\s+to)\s*,?\s+)*"
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
    r"ever\s+mind|really|actually|said|asked|told|received|returns|loads?|shows?|"
    r"completes?|completed|ends?|stops?|gonna|going|will|would|could|can|again|have\s+to|"
    r"need\s+to|happens?|occurs?|\d|"
    # a verb in the past: "…, and never stabilized", "we never shipped on Fridays" tell what happened (the base forms
    # that end in -ed are rules: "never embed secrets", "never exceed 100 lines")
    r"(?!(?:need|feed|seed|embed|shed|proceed|exceed|succeed|speed|breed|bleed|heed|weed|shred|wed|bed|red)\b)[a-z]{2,}ed)\b"
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
    r"watch|work|rebuild|present|propose|try|consult|outline|discuss|don'?t|do\s+not|never|always|make\s+sure|please|no)\b"
)

RULES: list[MarkerRule] = []


def _en(rule_id: str, kind: str, cue: str, pattern: str, claim: str = "none",
        guard: Guard | None = None, description: str = "", reverses: Reverser | None = None) -> None:
    RULES.append(
        MarkerRule(rule_id, kind, "en", cue, pattern, claim, guard, description, reverses, _I)
    )


# "can you update CLAUDE.md that we always run fmt with lint": a request to write a rule into an instruction file.
# The request is phrased as a question, but the clause after "that" is the person's rule; the question veto
# reads only that clause (a real question still ends in "?").
_INSTRUCTION_FILE = r"(?:claude|agents|gemini|conventions|copilot-instructions)\.md"  # (CONVENTIONS.md: aider's)
_INTO_FILE = (
    r"^\W*(?:(?:ok|okay|also|and|then|now)\s*,?\s+)?(?:(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?"
    r"(?:update|add\s+(?:a\s+(?:note|line|rule)\s+)?(?:to|in)|note\s+in|write\s+(?:down\s+)?(?:in|into|to)|"
    r"put\s+(?:a\s+(?:note|line|rule)\s+)?in(?:to)?|document\s+in|mention\s+in)\s+(?:the\s+|our\s+|your\s+)?"
    + _INSTRUCTION_FILE + r"\s+(?:that|to\s+say(?:\s+that)?|saying(?:\s+that)?|so\s+that|:)\s+"
    # the file named first: "in AGENTS.md, note that you shall always use pixi run"
    r"|(?:in|to|into)\s+(?:the\s+|our\s+|your\s+)?" + _INSTRUCTION_FILE + r"\s*,?\s*(?:please\s+)?(?:note|add|write(?:\s+down)?|"
    r"mention|say|state|document|record)\s+(?:that\s+|:\s*))"
)
_INTO_FILE_RE = lazy(_INTO_FILE, _I)
_en(
    "en.instruction.into_instruction_file", "instruction",
    "claude.md|agents.md|gemini.md|conventions.md|copilot-instructions.md",
    _INTO_FILE + r"(?P<claim>[^?]{8,})",
    guard=lambda s, m: _standing(s, m),
    description="'can you update CLAUDE.md that we should always run fmt together with lint'",
)
# The same for an editor's rule file: "can you update the task-decomposition cursor rule to make sure that …",
# "write me a cursor rule that prevents the agent from ever …". The rule the person states is the claim.
_INTO_RULE = (
    r"^\W*(?:(?:ok|okay|also|and|then|now|great|looks\s+good|sounds\s+good)\s*[,.!]?\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?"
    r"(?:(?:update|change|amend|edit)\s+(?:the|my|our|that|this|your)\s+(?:[\w.@-]+\s+){0,3}?(?:cursor\s+|agent\s+|claude\s+)?"
    r"rules?(?:\s+file)?\s+(?:to\s+(?:specify|say|require|mention|state|make\s+sure|ensure)|so\s+that)"
    r"|(?:write|add|create|make)\s+(?:me\s+|us\s+)?an?\s+(?:new\s+)?(?:cursor|claude|agent|project|global|user)\s+rule\s+"
    r"(?:that|which|saying|stating|to))\s+(?:that\s+)?"
)
_INTO_RULE_RE = lazy(_INTO_RULE, _I)
# a request to write what the turn lists into a rule or instruction file: "can you draft an update to my cursor rule
# …", "add these to CLAUDE.md", "propose an update to my @team.mdc rule" (the engine reads the list's items as rules)
LIST_INTO_RULES_RE = lazy(
    r"(?:^\W*|\b(?:can|could|will)\s+you\s+(?:please\s+)?|\bplease\s+|\blet'?s\s+)"
    r"(?:update|add|draft|write(?:\s+up)?|propose|create|edit|amend|append|put)\b[^.?!\n]{0,60}?(?:\bcursor\s+rules?\b|"
    r"\.mdc\b|\brules?\s+file\b|\b(?:claude|agents|gemini|conventions)\.md\b|copilot-instructions|\b(?:my|our|the|your)\s+"
    r"(?:[\w@./-]+\s+){0,2}(?:cursor\s+|agent\s+|project\s+)?rules?\b)",
    _I,
)
_en(
    "en.instruction.into_rule_file", "instruction",
    "rule",
    _INTO_RULE + r"(?P<claim>[^?]{8,})",
    guard=lambda s, m: not re.search(r"\b(?:it|this|these|those|yet|today|now)\b", m.group("claim"), _I),
    description="'update the cursor rule to make sure that every task has a number', 'write me a cursor rule that …'",
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
_FAIL_NEGATED_RE = lazy(
    r"\b(?:should|must|to|can|can't|cannot|could|would|might|may|won'?t|don'?t|doesn'?t|didn'?t|"
    r"isn'?t|aren'?t|wasn'?t|not|never|make\s+it|let\s+it)\s+(?:\w+\s+)?(?:always\s+|consistently\s+|\w+ly\s+)?$",
    _I,
)
_FAIL_NOT_RE = lazy(
    r"\b(?:sometimes|occasionally|intermittent(?:ly)?|flaky|flakes|flaking|randomly|"
    r"once\s+in\s+a\s+while|now\s+and\s+then|some\s+of\s+the\s+time|rarely|"
    r"fail[-\s]fast|fail[-\s]safe|fails?\s+(?:gracefully|loudly|fast|early|closed|open))\b"
    # "write a test that always fails": the spec of something to build, not a report
    r"|\b(?:a|an|one)\s+(?:\w+\s+){0,2}that\s+(?:always|consistently|reliably)\s+" + _FAIL_VERB + r"\b",
    _I,
)


# "it still fails every time", "I keep getting this error every time", "same error again, it always crashes": the fix
# just tried did not take, a report on the bug at hand rather than a failure that stands
_FAIL_PERSISTS_RE = lazy(
    r"\b(?:still|again|keep\s+getting|keeps\s+(?:happening|failing|crashing|breaking|erroring)|same\s+(?:error|issue|problem|"
    r"thing|result)|this\s+(?:error|issue|bug|problem|exception)|(?:is|are)\s+now|now\s+(?:it|they))\b",
    _I,
)


def _fail_ok(sentence: str, m: re.Match[str]) -> bool:
    if _FAIL_NOT_RE.search(sentence) or _FAIL_PERSISTS_RE.search(sentence):
        return False
    verb = _FAIL_VERB_RE.search(sentence, m.start())
    at = verb.start() if verb is not None and verb.start() < m.end() else m.start()
    return not _FAIL_NEGATED_RE.search(sentence[max(0, at - 40) : at])


_FAIL_VERB_RE = lazy(r"\b" + _FAIL_VERB + r"\b", _I)


_STILL_BROKEN_RE = lazy(
    r"\b(?:still|again|there'?s|there\s+is|there\s+are|line\s+\d+|errors?|fails?|failing|failed|broken|red|"
    r"crash(?:es|ed|ing)?|doesn'?t\s+work|not\s+working|same\s+(?:issue|problem|error)|"
    r"(?:that|this|the\s+other)\s+one|(?:is|are)n'?t\s+there|(?:is|are)\s+not\s+there|missing|(?:don'?t|doesn'?t)\s+exist|"
    r"not\s+(?:showing|visible|shown|displayed|present|loaded|saved|updated|fixed))\b",
    _I,
)

# correction
_en(
    "en.correction.wrong", "correction",
    "wrong|incorrect|not right|not correct|not true|not accurate|not quite|not how|mistaken|inaccurate|backwards",
    r"^\W*(?:(?:no+|nope|nah|hmm+|uh|um|wait|hold\s+on|oh|sorry)\s*[,.!—–-]*\s+)*"
    r"(?:(?:that'?s|that\s+is|this\s+is|you'?re|you\s+are|your\s+\w+\s+is|"
    r"that\s+(?:part|assumption|claim|statement)\s+is)\s+(?:(?:all|completely|totally|just|"
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
    # "No, there's still an error on line 40" reports the state of the task, it corrects no belief; "No, it should
    # read from the config" asks for a change to the work at hand
    # "No. We just want a working package that does one thing": after the no, the one deliverable asked for
    guard=lambda s, m: not _STILL_BROKEN_RE.search(s)
    and not re.match(r"\W*(?:all\s+(?:we|i)\s+(?:want|need)\s+is|(?:we|i)\s+(?:just\s+|only\s+|simply\s+|really\s+)?(?:want|need))\s+(?:an?|one)\b", s[m.end():], _I),
    description="'No, the default branch is main' — a flat no followed by a claim",
)
_en(
    "en.correction.actually", "correction",
    r"actually",
    r"^\W*(?:(?:no|wait|oh|hmm|sorry)\s*[,.!]*\s+)*actually\s*,?\s+"
    # "actually the bug is in the parser" describes the bug at hand
    r"(?!the\s+(?:real\s+|actual\s+)?(?:bug|issue|problem|error|cause|root\s+cause|culprit|fix|crash|failure)\b)"
    r"(?:it|that|this|they|we|the\s+[\w.\-/` ]{1,40}?|our\s+[\w.\-/ ]{1,40}?|[\w.\-/`]{2,40})\s+"
    r"(?:should\s+be|is\s+supposed\s+to\s+be|needs\s+to\s+be|has\s+to\s+be|must\s+be|is|are|was|"
    r"were|'s|'re|uses?|lives?\s+(?:in|under)|runs?\s+on|listens\s+on|targets?|defaults\s+to)\s+"
    r"(?!(?:fine|ok|okay|good|great|correct|right|done|working|better|worse|pretty|really|"
    r"quite|not\s+(?:needed|necessary|a\s+problem))\b)\S",
    guard=lambda s, m: stable_fact(s[m.start():]),
    description="'Actually it should be X' — a restated fact",
)
# "It should error, not continue", "the status should be IN-REVIEW, not DONE": one named thing of the work at hand
# and what it should become is a change asked for now; a class of things ("tests should live in spec/") stays a rule.
_EN_CHANGE_ASKED_RE = lazy(
    r"^\W*(?:(?:no|nope|and|also|but|so|ok|okay|then)\s*,?\s+)*(?:it|this|that|(?:the|this|that)\s+(?!(?:tests|files|"
    r"commits|branches|prs|docs|names|ids|logs|dates|times|users)\b)[\w-]+(?:\s+[\w-]+)?)\s+(?:should|must|needs?\s+to|has\s+to|"
    r"ought\s+to|is\s+supposed\s+to)\s+(?:be|say|show|return|read|print|error|fail|use|go|point|include|contain|have|"
    r"handle|display|render|open|close|save|load|send)\b",
    _I,
)
# a sentence that opens on a request for a change to the work at hand
_EN_TASK_REQUEST_RE = lazy(
    r"^\W*(?:(?:ok|okay|yes|now|then|so|please|pls)\W+)*(?:remove|revert|delete|fix|add|implement|update|change|refactor|rename|"
    r"move|create|write|rewrite|replace|drop|undo)\b",
    _I,
)
_EN_POINTED_SUBJECT_RE = lazy(r"^\W*(?:(?:no|nope|and|but|so)\s*,?\s+)?(?:that|this|these|those)\s+[\w-]+\s+(?:is|are|was|were)\b", _I)
_en(
    "en.correction.x_not_y", "correction",
    ", not|,not|rather than|instead of",
    r"\b(?:(?:is|are|was|were|should\s+be|must\s+be|needs\s+to\s+be|has\s+to\s+be|it'?s|that'?s|"
    r"they'?re|we\s+use|it\s+uses|uses|lives\s+(?:in|under)|goes\s+(?:in|under|to|into)|"
    r"runs\s+on|listens\s+on|targets?|points\s+to|defaults\s+to|i\s+meant|i\s+said|"
    # the person's own setup: "I'm on fish, not bash", "we run Postgres, not MySQL"
    r"i'?m\s+(?:on|using|running)|i\s+am\s+(?:on|using|running)|we'?re\s+(?:on|using|running)|"
    r"(?:i|we)\s+(?:use|run|deploy\s+(?:to|on)|host\s+on|develop\s+on|work\s+on))\s+"
    r"[^,;.!?]{1,60}?,\s*not"
    # "instead of" is also how code is described ("it uses X instead of Y"): only after a norm
    r"|(?:should\s+be|must\s+be|needs\s+to\s+be|has\s+to\s+be|is\s+supposed\s+to\s+be|we\s+use|"
    r"it'?s|that'?s)\s+[^,;.!?]{1,60}?\s+(?:rather\s+than|instead\s+of))\s+"
    r"(?!(?:just|only|even|sure|yet|now|always|necessarily|really|quite|working|needed|a\s+problem|"
    r"that|this|the\s+other\s+way)\b)\S",
    # "The suppression comment is inaccurate: X is passed from the CLI, not derived from git": a review's finding on
    # one thing in the code at hand
    guard=lambda s, m: not _EN_CHANGE_ASKED_RE.match(s) and not _EN_POINTED_SUBJECT_RE.match(s)
    and not re.match(r"\W*the\s+[^:]{1,50}?\s+(?:is|are)\s+(?:now\s+)?(?:inaccurate|incorrect|misleading|outdated|stale|"
                     r"wrong|out\s+of\s+date|out\s+of\s+sync)\s*:", s, _I)
    and not re.search(r"\bthe\s+same\b|\bstill\b|\bagain\b", s, _I) and not _POINTED_RE.search(s[: m.end()])
    # "remove the cache, we don't need it, it is spread across members, not centralized": the reason for a request
    and not _EN_TASK_REQUEST_RE.match(s)
    and not re.match(r"\s*[a-z]+ing\b", s[m.end() - 1:], _I) and stable_fact(s),
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
    "til|today i learned|just learned|learned today|learned|found out",
    r"^\W*(?:(?-i:TIL)|(?-i:T\.I\.L\.?)|today\s+i\s+learned|today\s+i\s+found\s+out|"
    r"(?:i\s+)?just\s+learned|i\s+learned\s+today|"
    r"what\s+(?:i|we)\s+(?:just\s+)?(?:learned|found\s+out)(?:\s+today)?(?=\s*[:—–]))\b\s*[:,—–-]?\s*(?:that\s+)?",
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
# "turns out editing merged migrations breaks everyone's DB": what doing a kind of thing does, found the hard way
_en(
    "en.lesson.turns_out", "lesson",
    "turns out|turned out",
    r"^\W*(?:(?:so|ok|okay|well|ugh|fyi)\s*,?\s+)*(?:it\s+)?turn(?:s|ed)\s+out(?:\s+that)?\s+(?P<claim>[a-z]+ing\s+"
    r"[^?]{2,80}?\b(?:breaks?|broke|corrupts?|wipes?|deletes?|kills?|hangs?|crash(?:es)?|loses?|drops?|resets?|"
    r"overwrites?|locks?)\b[^?,;]*)",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(m.group("claim")) and _points_here(s, m),
    description="'turns out editing merged migrations breaks everyone's DB'",
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
    """'I'd rather not.' states no preference: something must follow the verb ('I prefer tabs.' is enough)."""
    cue = re.search(r"\b(?:prefer(?:ence\s+is)?|rather)\b", sentence[m.start() :], _I)
    rest = sentence[m.start() + cue.end() :] if cue else sentence[m.end() :]
    words = [w for w in (w.strip(".") for w in re.findall(r"[\w`'./-]+", rest)) if w and w.lower() not in _FILLER_WORDS]
    # "I'd prefer a dropdown here": a pick for the place at hand (a closing "here" after the choice)
    if words and words[-1].lower() == "here" and not re.search(r"\bwe\s+(?:\S+\s+){1,6}here\b|\baround\s+here\b", rest, _I):
        return False
    return len(words) >= (1 if cue and cue.group(0).lower().startswith("prefer") else 2)


# preference
_en(
    "en.preference.prefer", "preference",
    r"prefer",
    r"\b(?:i|we)\s+(?:\w+ly\s+|much\s+|do\s+|still\s+)?prefer\b(?!\s+(?:not\s+to\s+)?(?:to\s+)?(?:wait|hold))"
    r"|\b(?:i|we)'?d\s+(?:much\s+|really\s+|strongly\s+)?prefer\b|\b(?:i|we)\s+would\s+(?:much\s+|really\s+)?prefer\b"
    r"|\b(?:my|our)\s+(?:strong\s+|personal\s+|general\s+)?preference\s+is\b"
    r"|" + _LEAD + r"prefer\s+\S.*\b(?:over|to|rather\s+than|instead\s+of)\s+\S"
    # "Prefer functional components.": a kind of thing preferred, said alone
    r"|^\W*(?:(?:please|pls|also|and|generally|in\s+general)\s*,?\s+)*prefer\s+(?:(?!(?:the|a|an|this|that|my|your|its|our|"
    r"these|those)\b)[a-z][\w-]*\s+){0,2}?(?!(?:yes|this|its|was|has|does|always|sometimes|perhaps|unless|less)\b)"
    r"[a-z][a-z'-]*[a-z](?<!ss)(?<!us)(?<!is)s\W*$",
    guard=_has_object,
    description="'I prefer X over Y', 'Prefer X to Y'",
)
_en(
    "en.preference.rather", "preference",
    r"rather",
    r"\b(?:i'?d|i\s+would|we'?d|we\s+would)\s+(?:much\s+|really\s+|honestly\s+|always\s+)?rather\b",
    # "I'd rather have the product fail loudly than …": how the product behaves is a feature asked for
    guard=lambda s, m: _has_object(s, m) and not re.search(
        # "This is nice but I'd rather have a list": a verdict on the output just shown, then what it should become
        r"\b(?:this|that|it)(?:'s|\s+is|\s+looks)\s+(?:\w+\s+)?(?:nice|good|great|fine|ok|okay|cool|neat|better|close)\b"
        r"[^.!?]{0,20}?\bbut\s+(?:i|we)\b|\brather\s+(?:have|make|let|see)\s+(?:the|our|my|this)\s+(?:product|app|application|site|ui|bot|service|system|"
        r"server|page|screen|tool)\b"
        # "I'd rather keep the current layout", "I'd rather go with option 2": a pick among what is on the table now
        r"|\brather\s+(?:not\s+)?(?:you\s+|we\s+)?(?:\w+\s+){0,2}?(?:with\s+)?(?:the\s+(?:current|existing|old|new|first|second|"
        r"third|last|other|previous|original)|this|that|these|those|option\s+\w+|it)\b", s, _I),
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
# "always show explicit guest", "always display the total": what a screen shows is a feature ("always show me the
# plan" is a way of working)
_EN_UI_ALWAYS_RE = lazy(
    # ("for test --all let's ALWAYS sort by size": the order a command's output comes in)
    r"\balways\s+(?:sort|order|group|rank)\s+(?:\w+\s+)?by\b|"
    r"\balways\s+(?:show|display|render|hide|highlight|list)\s+(?!(?:me|us|your|the\s+(?:plan|diff|changes|output|commands?|"
    r"full|errors?|tests?|logs?|reasoning|steps|files?|sources?|code)|what|how|why|which|a\s+(?:plan|diff|summary))\b)",
    _I,
)
_EN_AGAIN_RE = lazy(r"\bagain\b", _I)
_EN_NOT_ALWAYS_RE = lazy(
    r"\b(?:doesn'?t|don'?t|does\s+not|do\s+not|not|won'?t|shouldn'?t)\s+(?:need\s+to\s+|have\s+to\s+|necessarily\s+|"
    r"really\s+)?always\b",
    _I,
)
_en(
    "en.instruction.always", "instruction",
    r"always",
    r"(?:(?:" + _LEAD + r"|^\W*in\s+(?-i:[A-Z][\w#+.]*)\s*,?\s+)always\s+(?!" + _ALWAYS_BAD_NEXT + r")[\w`#@]"
    r"|" + _MODAL + r"always\s+(?!" + _MODAL_BAD_NEXT + r")[\w`]"
    r"|" + _WE + r"always\s+(?!" + _ALWAYS_BAD_NEXT + r")[\w`]"
    # a moment of the work, then the rule with no comma between: "When you lose connection to the MCP always re-check …"
    # ("when you are done always tell me" closes this piece of work)
    r"|^\W*(?:when(?:ever)?|if|before|after|once)\s+(?:you|we)\s+(?!(?:are\s+|'re\s+)?(?:done|finished|ready|back|finish|complete)\b)"
    r"[^,;.?]{3,60}?\s+always\s+(?!" + _ALWAYS_BAD_NEXT + r")[\w`]"
    r"|\balways\s+make\s+sure\b)",
    # "X doesn't need to always ask": a habit taken off, not a rule
    # "Always keep the old behaviour when you refactor this function": a pointing word binds it to the task;
    # "the menu should always show Back" asks for a feature
    # ("always run it again" repeats a step of the task; "never … again" is how a rule is said, so only here)
    guard=lambda s, m: not _EN_NOT_ALWAYS_RE.search(s) and _points_here(s, m) and _modal_subject_ok(s, m)
    and not _EN_UI_ALWAYS_RE.search(s) and not _EN_AGAIN_RE.search(s, m.start()),
    description="'Always run X', 'you should always', 'make sure to always', 'we always X'",
)
_en(
    "en.instruction.never", "instruction",
    "ever|under no circumstances",
    r"(?:" + _LEAD + r"(?:never(?:\s+ever)?|under\s+no\s+circumstances\s*,?)\s+(?!" + _NEVER_BAD_NEXT + r")[\w`]"
    r"|" + _MODAL + r"never\s+(?!" + _MODAL_BAD_NEXT + r")[\w`]"
    r"|" + _WE + r"never\s+(?!" + _NEVER_BAD_NEXT + r")[\w`]"
    r"|\b(?:don'?t|do\s+not)\s+ever\b|\bnever\s+ever\b)",
    guard=lambda s, m: _points_here(s, m) and _modal_subject_ok(s, m),
    description="'Never push to main', 'don't ever', 'you should never'",
)
# "Force pushes are forbidden", "emojis are never allowed in commit messages", "git show on big files – BANNED": a
# prohibition said of a kind of thing rather than to the agent
_en(
    "en.instruction.not_allowed", "instruction",
    "allowed|permitted|forbidden|banned|prohibited|off limits|off-limits",
    r"^\W*(?!(?:it|this|that|these|those|what|which|there)\b)(?:[\w`.'/()!-]+\s+){1,6}?(?:is|are)\s+(?:(?:never|not|no\s+longer)\s+"
    r"(?:allowed|permitted)|(?:strictly\s+)?(?:forbidden|banned|prohibited|off[\s-]limits))\b"
    r"|^\W*(?!(?:it|this|that)\b)(?:[\w`.'/()-]+\s+){1,6}?[-–—:]\s*(?:banned|forbidden|prohibited)\b",
    guard=lambda s, m: _points_here(s, m) and _standing(s, m),
    description="'Force pushes are forbidden', 'emojis are never allowed in commit messages', 'git show on big files – BANNED'",
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
    # "Going forward, let's focus on the login page": the plan of the work at hand
    # ("make a plan going forward": the plan for the work at hand)
    r"(?<!\bplan\s)(?<!\bplans\s)(?<!\bpath\s)(?<!\bsteps\s)(?<!\bway\s)\b(?:going|moving)\s+forward\b(?!\s+with\b)(?!\s*,?\s*(?:let'?s|let\s+us|we'?ll|we\s+will|i'?ll|i\s+will|we\s+need\s+to)\s+"
    r"(?:(?:first\s+|just\s+|now\s+)?(?:focus|work|start|look|tackle|move|continue|finish|get|turn|begin|concentrate))\b)"
    r"|" + _LEAD + r"(?:in\s+(?:the\s+)?future|next\s+time|for\s+(?:all\s+)?future\s+(?:work|changes|prs|"
    r"commits|tasks|sessions))\s*,?\s+(?!(?:we\s+)?(?:might|may|could)\b)"
    # "in the future, I'd like to add auth": a plan for the product, not a way of working
    r"(?!(?:i|we)(?:'d|\s+would|'ll|\s+will|\s+want|\s+plan|\s+hope|\s+need)\s+(?:like\s+to\s+|love\s+to\s+|want\s+to\s+|to\s+)?"
    r"(?:add|build|implement|support|enable|create|explore|move|migrate|expand|extend|ship|launch|have|get|make|develop|write)\b)\w",
    # "OK, going forward.": on with the work, nothing said of how
    guard=lambda s, m: len(re.sub(r"\b(?:ok(?:ay)?|yes|sure|so|and|then|going|moving|forward|in|the|future|next|time)\b|\W", " ", s,
                                  flags=_I).split()) >= 2,
    description="'Going forward, ...', 'In the future, ...', 'Next time, ...'",
)
# the lesson put after the work it corrects: "run the linter yourself next time", "ask me first next time". What it
# asks must say how the work is done (before doing something, first, instead, by oneself, with care); a task put off
# ("add the charts next time", "fix it next time", "save it for next time") says only what is done.
_en(
    "en.instruction.next_time_lesson", "instruction",
    "next time",
    r"^\W*(?:(?:ok(?:ay)?|no|nope|and|also|so|but|please|pls)\s*[,.!]?\s+)*(?!let'?s\b|let\s+(?:us|me)\b|maybe\b)"
    + _IMPERATIVE + r"[^?\n]{0,80}?\b(?:before\s+(?:you\s+)?\w+ing|first|instead|yourself|properly|(?:more\s+)?carefully)\b"
    r"[^?\n]{0,40}?(?<!\bfor)(?<!\buntil)(?<!\btill)(?<!\bthe)\s+next\s+time\s*(?:,?\s*(?:please|pls|ok|okay))?\W*$",
    description="'run the linter yourself next time', 'ask me first next time'",
)


# "whenever I click on share, …", "every time the user taps the card, …": a person using the product, whose
# behaviour the sentence then asks for (a feature), not a moment of the work
_USING_THE_PRODUCT_RE = lazy(
    r"\b(?:whenever|every\s+(?:single\s+)?time|each\s+time|any\s*time)\s+(?:i|the\s+users?|a\s+user|users|someone|"
    r"anyone|people)\s+(?:click|tap|press|hover|scroll|swipe|drag|refresh|reload|log\s*in|sign\s*(?:in|up)|visit|"
    r"navigate)", _I,
)


def _whenever_guard(sentence: str, m: re.Match[str]) -> bool:
    return not re.search(
        r"\bwhenever\s+(?:you(?:'re|\s+are)?\s+(?:ready|free|done|can|get\s+a|have\s+(?:a|time)|"
        r"want|like|feel)|possible|convenient|it\s+suits)", sentence, _I,
    ) and not _USING_THE_PRODUCT_RE.search(sentence)


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
    # "in this repo you will copy all of the skill's files": what this piece of work will do there, not how work is done
    guard=lambda s, m: not re.search(r"\byou(?:'ll|\s+will)\s+(?!always\b|never\b|only\b|find\b)[a-z]", s, _I),
    description="'In this repo, PRs target develop', 'We use tabs in this project'",
)
_en(
    "en.instruction.remember", "instruction",
    "remember|in mind|forget",
    r"^\W*(?:(?:also|and|please|ok|okay|so)\s*,?\s+)*(?:please\s+)?(?:remember|keep\s+in\s+mind|"
    r"bear\s+in\s+mind|never\s+forget|don'?t\s+forget|do\s+not\s+forget)"
    r"(?:\s+(?:this|that|for\s+next\s+time|for\s+later|for\s+the\s+future))?\s*(?:that\b|[:,—–-])\s*",
    claim="after",
    # "Keep in mind, let's keep the doc short": a proposal for the work at hand follows, not something to keep
    # "Keep in mind that the intended functionality is …": what the task at hand is for, not something to keep
    # "Do it! Remember, keep it simple": a cheer for the work just approved ("it" is that work), no rule to keep
    guard=lambda s, m: not re.match(r"\W*let'?s\b|[^.!?]*\bwill\b|\W*(?:keep|make|get|do|finish|ship)\s+it\b|\W*(?:the|our|my)\s+(?:intended\s+|expected\s+|desired\s+|main\s+|end\s+)?"
                                    r"(?:functionality|behaviou?r|purpose|goal|idea|intent(?:ion)?|point|plan|problem|issue|bug|"
                                    r"task|requirement)s?\b", s[m.end():], _I),
    description="'Remember that X', 'Keep in mind: X'",
)


# ------------------------------------------------------- standing rules without always/never
#
# What makes a prohibition or a requirement durable rather than a constraint on the task at
# hand: a generic object ("comments", "anything outside packages/", "any commit"), a class
# subject ("All tests", "Handlers"), a condition that recurs ("before you start any task",
# "before committing"), or a convention ("we use ..."). A definite or pointing object ("the
# header", "it", "this file") belongs to the current task and never fires.

# "this repo", "this project": the whole the rules are about, not a thing of the task at hand
_OUR_WHOLE = r"(?:repo|repository|project|codebase|code\s*base|monorepo|workspace|team|org|company)"
# words that tie a clause to the task at hand (a relative "that" and "this repo" do not)
_HERE_AND_NOW_RE = lazy(
    # ("current required information": things as they stand in the work at hand; "the current file" in a rule about
    # every file is each one's own, "the current LTS" a release)
    r"\b(?:it|these|those|them|yet|again|else|anymore|today|tonight|tomorrow|above|below|my\s+last|your\s+last|"
    r"(?<!the\s)(?<!its\s)(?<!each\s)current(?!\s+(?:lts|version|release|stable|major|minor|node|python|go|java|rust))|"
    # ("do not introduce other env variables": beyond what the task at hand has; other people's work is a class)
    r"(?<!the\s)(?<!any\s)(?<!no\s)other(?!\s+(?:people|people'?s|teams?|users?|developers?|contributors?|agents?|than)\b)|"
    r"(?<!\w\ws\s)that(?!'?s\s+(?:a|the|our)\s+(?:rule|convention|policy|standard)\b)(?!\s+(?:just|only|always|never|are|is|"
    r"were|was|have|has|can|could|will|would|should|must|do|does|don'?t|doesn'?t|aren'?t|isn'?t|[a-z]+s)\b)|"
    r"this(?!\s+" + _OUR_WHOLE + r"\b)|"
    # ("the new toolbar", "the local one": one thing of the task, picked out among others)
    r"the\s+(?:same|other|last|next|first|second|previous|new|one|two|three|both|[a-z]+\s+one(?!\s+of)))\b",
    _I,
)
_NOW_RE = lazy(r"\bnow\b", _I)
# the object or subject is a whole class of things
_GENERIC = (
    r"(?:any|anything|anyone|anybody|every|everything|all|no|new|extra|unnecessary|unrelated|"
    r"generated|third[-\s]party|external|global|raw|real|direct|manual|hardcoded|hard-coded|"
    r"(?!(?:this|its|is|was|has|does|yes|us|thus|plus|always|sometimes|perhaps|unless|less|"
    r"process|access|address|class|status|progress|success|miss|pass|bus|focus|alias|canvas|"
    r"bonus|virus|campus|chaos|ios|macos|os|js|ts|css|sass|dns|aws|gcs|kubernetes|redis|postgres)\b)"
    r"[a-z][a-z'-]*[a-z](?<!ss)(?<!us)(?<!is)s)\b"
)
# what makes a plain step recur: a command-line flag or a config file it names ("pass -n auto to pytest", "in
# tsconfig.json"), a period ("once a month", "every 90 days"), or a class of things right after the verb ("wrap
# time-sensitive tests in …")
_CONFIG_FILE = r"(?:[\w.-]*\.(?:json|jsonc|toml|ya?ml|ini|cfg|conf|lock|env|rc|editorconfig)|\.[\w-]+rc|\.env(?:\.\w+)?|Makefile|Dockerfile)"
_PERIOD = (
    r"(?:once|twice)\s+(?:a|per|every)\s+(?:day|week|month|quarter|year|sprint|release)|every\s+\d+\s+(?:days|weeks|months)|"
    r"every\s+(?:day|morning|week|month|quarter|year|sprint|release)|(?:daily|weekly|monthly|nightly)\b"
)
_RECURS_RE = lazy(
    r"(?<![\w-])--?[a-z][\w-]*(?=\s|$|[.,;!])|(?<![\w.])" + _CONFIG_FILE + r"(?![\w])|\b(?:" + _PERIOD + r")"
    r"|^[a-z-]+\s+(?:(?!(?:the|a|an|this|that|my|your|our|its|these|those)\b)[a-z][\w-]*\s+){0,2}" + _GENERIC,
    _I,
)
_NOT_RULE_VERBS = (
    r"(?:know|think|worry|understand|see|get|forget|remember|care|mind|like|want|need|have|feel|agree|"
    r"believe|mean|seem|bother|stop|go|let|wait|hesitate|panic|apologi[sz]e|hold|leave|quit)\b"
)
# particles and adverbs between a verb and its object: "don't push directly to"
_PARTICLES = r"(?:(?:up|down|out|in|into|on|onto|off|to|from|with|through|over|around|about|directly|ever|blindly|just|also)\s+)*"


def _clause(sentence: str, m: re.Match[str]) -> str:
    return m.group("claim") if m.re.groupindex.get("claim") and m.group("claim") else sentence[m.start():]


# where a rule's own clause ends and a reason or a second thought begins
_CLAUSE_END_RE = lazy(r"[,;—–]|\s-\s|\b(?:because|since|as|so)\b", _I)


# the work in hand named as such: "after making the changes", "each step", "before you finish", "before we can merge"
_TASK_STEP_RE = lazy(
    r"\b(?:the\s+(?:task|changes?|fix|fixes|step|implementation|feature|refactor(?:ing)?|edits?|work|bug)(?![\w/.-])"
    r"(?!\s+(?:is|are|flags?|workflow|branch(?:es)?|title|description|number|ids?|template|specs?|files?|folder|status|"
    r"list|board|tracker|runner|name|service|command|module|table|store|queue|model|manager|api|backend|system|types?|schema"
    r")\b)|(?:each|every|this|that)\s+(?:step|phase|stage)\b|"
    r"before\s+(?:you|we)\s+(?:can\s+|are\s+)?(?:finish(?:ed)?|continue|proceed|move\s+on|wrap\s+up|done|hand\s+(?:it|this)\s+back)"
    r"|before\s+we\s+can\b"
    # what was just done: "every file you touched", "the tests we added"
    r"|\b(?:you|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:touched|changed|modified|edited|created|wrote|added|made|fixed|updated|"
    r"deleted|removed|introduced)\b)",
    _I,
)


_OPENING_CONNECTOR_RE = lazy(r"^\W*(?:(?:so|as|since|because|and|but|also|please|pls)\b\W*)+", _I)


def _standing(sentence: str, m: re.Match[str]) -> bool:
    """The clause a rule found is not tied to the task at hand ("yet", "it", "the header", "now", "the changes")."""
    # (a clause that opens with "so" or "as" is cut after it, not at it)
    clause = _CLAUSE_END_RE.split(_OPENING_CONNECTOR_RE.sub("", _clause(sentence, m)), 1)[0]
    return not _HERE_AND_NOW_RE.search(clause) and not _NOW_RE.search(clause) and not _TASK_STEP_RE.search(clause)


# what an "always" / "never" rule may not point at: one thing of the work at hand ("this function", "for this",
# "these files", "the same branch"); "it" may stand for the class the rule names ("always pin it to a version")
_POINTED_RE = lazy(
    # ("this key for the sandbox: sk_…" names what follows the colon, it points at nothing of the task)
    r"\b(?:this(?!\s+" + _OUR_WHOLE + r"\b)(?![^:]*:)|"
    r"these(?![^:]*:)|those|yet|"
    r"the\s+(?:same|other|last|next|previous|new|[a-z]+\s+one(?!\s+of)))\b",
    _I,
)


def _standing_unpointed(sentence: str, m: re.Match[str]) -> bool:
    """``_standing``, and the claim points at no one thing of the task ("the new API", "these", "the same font")."""
    return _standing(sentence, m) and not _POINTED_RE.search(m.group("claim"))


# "the same" the sentence itself defines points at nothing of the task: "X and Y in the same migration", "in the
# same release that stops reading it", "in the same PR as the change", "in the same PR when you add a key"
_SAME_DEFINED_RE = lazy(
    r"\band\s+[^,;?]{1,60}?\s+(?:in|into|within|inside)\s+the\s+same\s+[\w-]+\b"
    r"|\b(?:in|into|within|inside)\s+the\s+same\s+[\w-]+\s+(?:that|which|as|when|whenever|where)\b",
    _I,
)


def _points_here(sentence: str, m: re.Match[str]) -> bool:
    """The clause of an "always" / "never" rule names no thing of the work at hand (``_POINTED_RE``, the task)."""
    clause = _OPENING_CONNECTOR_RE.sub("", _clause(sentence, m))
    if "same" in clause:  # (before the cut: "in the same commit as …" holds a clause-ending "as")
        clause = _SAME_DEFINED_RE.sub(" ", clause)
    clause = _CLAUSE_END_RE.split(clause, 1)[0]
    return not _POINTED_RE.search(clause) and not _TASK_STEP_RE.search(clause)


def _standing_fact(sentence: str, m: re.Match[str]) -> bool:
    """As ``_standing``, but "now" is allowed: "the runner is Vitest now" states a lasting change."""
    return not _HERE_AND_NOW_RE.search(_clause(sentence, m))


# "Don't write any code", "DO NOT RUN ANY COMMANDS", "do not create any new unit tests": a hold on this turn's work
# (what the person wants first is talk), unless a condition makes it recur ("… without asking", "… before tests pass")
# "do not do any work", "don't take any actions beyond reporting", "don't make any changes to our theme"
_NO_WORK = (
    r"\b(?:don'?t|do\s+not)\s+(?:do|take|make|perform)\s+(?:any\s+)?(?:\w+\s+)?(?:work|actions?|changes|edits|modifications|steps)\b"
    r"(?![^.!?]*\b(?:without|until|unless|before|after|when(?:ever)?|if)\b)"
)
_EN_HOLD_RE = lazy(
    r"\b(?:don'?t|do\s+not)\s+(?:write|run|create|make|implement|change|touch|edit|modify|start|code|build|add|execute)"
    # ("do not write or edit any files")
    r"(?:\s*(?:,|or|and)\s+(?:write|run|create|make|change|touch|edit|modify|delete|remove|add|execute))?"
    # (the words after it hold no condition: "don't implement anything without my approval" recurs)
    r"(?:\s+out)?\s+(?:any(?:thing)?|new|more|actual)\b(?:\s+(?!(?:without|until|unless|before|after|when(?:ever)?|if)\b)[\w-]+){0,3}?"
    r"\s*(?:[.!,;](?!\w)|$|\s+(?:or|and|yet|now)\b)"
    r"(?![^.!?]*\b(?:without|until|unless|before|after|when(?:ever)?|if)\b)"
    r"|" + _NO_WORK,
    _I,
)
_EN_NO_WORK_RE = lazy(_NO_WORK, _I)
_en(
    "en.instruction.dont", "instruction",
    "don't|dont|do not|don’t",
    r"(?:^|[,;:—–]\s*|\s[-–—]\s+)(?P<claim>(?:(?:please|pls|and|also|but|so|ok|okay|yes|yeah|yep|seriously|again)\s*,?\s+)*"
    r"(?:don'?t|do\s+not)\s+(?!ever\b)(?:(?!(?:really|actually|only|early|apply|reply|rely|supply)\b)[a-z]+ly\s+)?"
    # ("leave" is a practice here, "don't leave debug prints in", unless nothing of a kind follows)
    r"(?!" + _NOT_RULE_VERBS.replace("|leave|", "|") + r")[a-z][\w-]*\s+" + _PARTICLES
    + r"(?:(?:(?!(?:the|a|an|this|that|my|your|his|her|their|its|any|some)\b)[a-z][\w./-]*\s+){0,2}" + _GENERIC
    # a moment that recurs: "on a Friday", "without touching the changelog", "with fewer than 2 approvals"
    + r"|[^?,;]{0,40}?\b(?:on\s+(?:a\s+)?(?:fridays?|weekends?|mondays?|holidays?)|without\s+[a-z]+ing|"
    r"with\s+(?:fewer|less)\s+than)\b"
    # every place at once: "don't import lodash anywhere" ("anywhere else" / "near" stay with the task)
    + r"|[^?,;]{0,40}?\banywhere\b(?!\s+(?:else|near|close)\b)"
    + r"|(?:me|us|the\s+user)\s+(?:for|to|about|whether|if|before)\s+(?!(?:it|this|that)\b)"
    # the project's own config or its history: "don't disable strict in tsconfig.json", "don't check .env into git"
    + r"|[^?,;]{0,40}?\b(?:in|into|to|from)\s+(?:(?:the\s+)?(?:git|version\s+control|the\s+repo)\b|" + _CONFIG_FILE + r"(?![\w]))"
    # a kind of code it holds for: "don't mock the database in tests", "don't log tokens in production"
    + r"|[^?,;]{0,40}?\bin\s+(?:(?:unit|integration|e2e|end-to-end)\s+)?(?:tests|production|prod)\b(?![/\w-]|\.\w)"
    # a command-line flag names a step that recurs: "don't pass --force to the deploy script"
    + r"|[^?,;]{0,40}?(?<![\w-])--[a-z][\w-]+"
    # a manner of the work: "don't edit the lockfile by hand", "don't bump versions manually" (a tool does it; not
    # "don't write the loop by hand, use that helper", a thing pointed at)
    + r"|(?![^?,;]*\bit\b)(?![^?]*\b(?:this|that|these|those)\b)[^?,;]{0,40}?\b(?:by\s+hand|manually)\b"
    + r"|(?:a|an)\s+(?:single|new|extra)\b|(?:unless|without|before|until\s+(?:you|i)\s+"
    r"(?:ask|say|confirm|approve)))[^?]*"
    # an act banned by its verb alone, no object to point at: "DO NOT force push.", "don't speculate"
    r"|(?:don'?t|do\s+not)\s+(?:ever\s+)?(?:force[\s-]?push|speculate|guess|hallucinate|make\s+(?:things|stuff)\s+up)"
    r"(?:\s+(?:about|on)\s+[^?]{1,40})?\s*[.!]*$)",
    # "don't commit anything, another agent is working": a bare "anything" is a hold on the task at hand
    guard=lambda s, m: _standing(s, m) and not re.search(
        r"\b(?:don'?t|do\s+not)\s+[a-z]+\s+(?:anything|everything)\s*(?:[,;.!—–]|$)"
        # "don't mess things up", "don't screw stuff up", "don't break things": a caution about the work at hand, no
        # practice named
        r"|\b(?:don'?t|do\s+not)\s+(?:[a-z]+\s+(?:things|stuff)\s+up|break\s+(?:things|stuff))\b"
        r"|\bany\s+of\s+(?:the|these|those|this|that|my|your|our)\b"
        # "don't add a new models.py": one file named, the one that is already there; a kind stays ("new .md files")
        r"|\b(?:don'?t|do\s+not)\s+(?:create|make|add|write)\s+(?:an?\s+)?new\s+[\w-]+\.[a-z]{1,5}\b", s, _I)
    and not _EN_HOLD_RE.search(s),
    description="'Don't add comments that restate the code', 'Do NOT modify anything outside packages/'",
)
# what people ban outright in a word or two ("No mocks.", "No emojis or em-dashes.", "No terminal execution without my
# permission"): practices of the agent's work, not things of the task ("no errors", "no changes")
_BANNED_PRACTICE = (
    r"(?:emojis?|emoticons|em[\s-]?dashes|mocks?|mocking|stubs?|stubbing|monkey[\s-]?patch(?:es|ing)?|placeholders|todos|"
    r"force[\s-]?push(?:es|ing)?|magic\s+numbers|globals|global\s+(?:state|variables)|abbreviations|any\s+types|"
    r"print\s+statements|console\.logs?|inline\s+styles|default\s+exports|trailing\s+whitespace|hard[\s-]?cod(?:ed|ing)(?:\s+\w+)?|"
    r"workarounds|hacks|shortcuts|fallbacks|silent\s+(?:failures|fallbacks|catches)|bare\s+excepts|wildcard\s+imports|"
    r"(?:new|extra|external|third[\s-]party)\s+dependencies|(?:code\s+)?modifications|(?:code\s+)?changes|execution|commits|pushes|"
    r"scope\s+(?:creep|expansion)|(?:terminal|shell)\s+commands|deletions?|file\s+deletions?|refactors|rewrites|"
    r"disclaimers|apologies|preambles|summaries|co[\s-]?authored[\s-]?by(?:\s+lines)?|ai\s+attribution|semicolons)"
)
# (a whole thing of the task can hide behind those words: "No changes in the diff" holds no "without"/"unless")
_NO_PRACTICE_RE = lazy(
    r"^\W*no\s+(?:[a-z'-]+\s+){0,2}?" + _BANNED_PRACTICE + r"(?:\s*(?:,|/|\bor\b|\band\b|,\s*or)\s*(?:[a-z'-]+\s+){0,2}?"
    + _BANNED_PRACTICE + r")*(?:\s+(?:without|unless|beyond|outside|before)\b[^?]*)?\s*[.!]*$",
    _I,
)
_CHANGE_WORDS_RE = lazy(r"\b(?:changes|modifications|execution|commits|pushes|deletions?|refactors|rewrites)\b", _I)


def _no_practice(sentence: str) -> bool:
    """Whether ``sentence`` bans a practice outright; changes, commits and the like only with a condition or a kind
    ("No unauthorized code modifications", "No commits without my approval"; not "No changes.")."""
    m = _NO_PRACTICE_RE.match(sentence)
    if m is None:
        return False
    if _CHANGE_WORDS_RE.search(sentence):
        return bool(re.search(r"\b(?:without|unless|beyond|outside|before|unauthori[sz]ed|unrequested|unasked|unapproved|"
                              r"unnecessary|unrelated|surprise)\b", sentence, _I))
    return True


# an outright ban said with its emphasis: "Absolutely no actions that the user did not request", "under no
# circumstances push to main"
_en(
    "en.instruction.absolutely_no", "instruction",
    "absolutely no|under no circumstances",
    r"^\W*(?:(?:please|and|also|but|so)\s*,?\s+)*(?P<claim>absolutely\s+no\s+(?!(?:idea|clue|way|problem|worries|rush|need|doubt|"
    r"chance|one|reason|luck|difference|change|changes|effect|impact|sense)\b)[a-z][^?]{3,}"
    r"|under\s+no\s+circumstances\s*,?\s+(?:should\s+you\s+|you\s+should\s+|must\s+you\s+|do\s+you\s+|(?:are\s+)?you\s+(?:to|allowed\s+to)\s+)?"
    r"[a-z][^?]{2,})",
    guard=_standing,
    description="'Absolutely no actions the user did not request', 'under no circumstances push to main'",
)
_en(
    "en.instruction.no_x", "instruction",
    "no ",
    r"^\W*(?P<claim>no\s+(?!(?:more|longer|need|idea|problem|worries|luck|way|thanks|doubt|matter|one|"
    r"errors?|warnings?|issues?|problems?|changes?|results?|output|difference|updates?|response|"
    r"reply|tests?\s+(?:fail|pass)|files?|logs?)\b)"
    r"(?:[a-z][\w.-]*\s+){0,2}?" + _GENERIC + r"\s+(?:in|inside|within|on|across|anywhere\s+in|for)\s+"
    r"(?:(?:the\s+)?(?:code(?:base)?|repo(?:sitory)?|project|main|master|production|prod|source)\b|"
    r"(?:[a-z][\w-]*\s+){0,2}?" + _GENERIC + r")[^?]*"
    r"|no\s+(?:[a-z][\w-]*\s+){0,2}?" + _GENERIC + r"\s*(?:,|\.|;|—|-)?\s*ever\b[^?]*"
    r"|no\s+(?!(?:more|longer|need|idea|problem|worries|luck|way|doubt|matter)\b)[\w`:'().-]+(?:\s+[\w`:'().-]+){0,3}?\s+"
    r"anywhere\b(?!\s+(?:near|close|else)\b)[^?]*)",
    guard=_standing,
    description="'No emojis in commit messages.', 'No force pushes, ever.', 'No bare excepts anywhere'",
)


def _gerund_base(word: str) -> str:
    """mocking -> mock, running -> run, using -> use: the base form when the spelling makes it plain."""
    if not word.endswith("ing") or len(word) < 5:
        return word
    stem = word[:-3]
    if stem in ("add", "err", "egg", "inn"):
        return stem
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]
    if re.search(r"(?:[^aeiou][aeiou][cgksvz]|[^aeiou][aeiou]t(?<!et)|[aeiou]r[cgsv]|as|us|[^aeiou]at|iz|yz|ov|dg)$", stem):
        return stem + "e"
    return stem


def _reverse_stop(sentence: str, m: re.Match[str]) -> str:
    return _base_first(m.group("rev"))


def _base_first(words: str) -> str:
    """"running the tests first" -> "run the tests first": what a gerund phrase asks, as a rule says it."""
    first, *rest = words.split(None, 1)
    return " ".join([_gerund_base(first), *rest])


def _reverse_plain(sentence: str, m: re.Match[str]) -> str:
    return m.group("rev")


# reversals: the person revokes a rule; the marker says which
_en(
    "en.instruction.reversal_anymore", "instruction",
    "anymore|any more|any longer",
    r"^\W*(?:(?:please|pls|and|also|but|so|ok|okay|oh|hey|btw)\s*,?\s+)*(?:(?:you\s+)?(?:don'?t|do\s+not)\s+"
    r"(?:(?:have|need)\s+to\s+(?P<rev3>[a-z][\w-]*\b[^?]*?)|(?!" + _NOT_RULE_VERBS + r")(?P<rev>[a-z][\w-]*\b[^?]*?)"
    # a concern lifted: "don't worry about commit subject length anymore", "don't bother with type stubs any more"
    r"|(?:worry|bother)\s+(?:about|with)\s+(?P<rev4>(?!(?:it|this|that|them|me|us)\b)[a-z`][^?]*?)"
    # "don't bother adding type hints anymore": what is no longer asked, as a gerund
    r"|bother\s+(?P<rev5>(?!(?:doing|trying|asking|checking\s+(?:it|this|that)\b))[a-z]+ing\b[^?]*?))"
    r"|(?P<who>we|i)\s+(?:don'?t|do\s+not)\s+(?P<rev2>(?:use|run|deploy|support|ship|maintain|write|host|"
    r"allow|require|keep|target|publish|need)\b[^?]*?))\s+(?:anymore|any\s+longer"
    # ("don't add any more features": a quantity, what the task at hand is to stop at)
    r"|any\s+more(?=\s*(?:[,.;:!)—–-]|$|\s+(?:in|on|for|at|with|please|pls|going|from|since|because|unless|when|as|now)\b)))\b",
    # "I don't need the old scripts anymore, delete them": things of the task that can go, not a rule that is lifted
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(
        (m.group("rev") or m.group("rev2") or m.group("rev3") or m.group("rev4") or m.group("rev5") or "")
        .replace("anymore", ""))
    and not (re.match(r"need\s+(?:the|those|these|that|this|my|our|your|its)\b", m.group("rev2") or "", _I)
             and (m.group("who").lower() == "i" or re.search(r"\b(?:delete|remove|drop|clean\s+up|get\s+rid\s+of)\b", s, _I))),
    reverses=lambda s, m: (m.group("rev") or m.group("rev3") or m.group("rev4")
                           or (_base_first(m.group("rev5")) if m.group("rev5") else None)
                           or f"{m.group('who')} {m.group('rev2')}"),
    description="'Don't run the linter before every commit anymore' — reverses 'run the linter before every commit'",
)
# a rule lifted with the reason it is no longer needed: "Don't bother adding request IDs to log lines, the tracing
# middleware correlates them now"; "You can run terraform apply directly now, no need to show me the plan first"
_en(
    "en.instruction.reversal_not_needed", "instruction",
    "bother|no need",
    r"^\W*(?:(?:please|pls|and|also|but|so|ok|okay|oh|btw)\s*,?\s+)*(?P<claim>(?:you\s+)?(?:don'?t|do\s+not)\s+bother\s+"
    # (what does it now is named: "it works now" reports the task)
    r"(?P<rev>(?!(?:doing|trying|asking|checking\s+(?:it|this|that)\b))[a-z]+ing\b[^,;?]{2,60}?)\s*[,;—–-]+\s*"
    r"(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:does|do|handles?|correlates?|takes\s+care\s+of|covers?|adds?|"
    r"generates?|runs?|checks?|catches?)\s+(?:it|them|that|this|those)\s+(?:\w+\s+)?now\b[^?]*"
    r"|you\s+can\s+(?:now\s+)?[a-z][^,;?]{2,60}?\s+(?:directly|straight\s+away)\s+now\s*[,;—–-]+\s*"
    r"no\s+need\s+to\s+(?P<rev2>[a-z][^,;?]*?\s+first))\s*[.!]*$",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(m.group("rev") or m.group("rev2") or "")
    and bool(m.group("rev2") or re.search(_GENERIC, m.group("rev") or "", _I)),
    reverses=lambda s, m: m.group("rev2") or _base_first(m.group("rev")),
    description="'Don't bother adding request IDs to log lines, the middleware does it now', "
    "'You can run terraform apply directly now, no need to show me the plan first'",
)
_en(
    "en.instruction.reversal_stop", "instruction",
    "stop |quit ",
    r"(?:^|[,;:—–]\s*|\s[-–—]\s+)(?:(?:please|pls|and|also|but|so|ok|okay|oh|hey|seriously)\s*,?\s+)*"
    r"(?:stop|quit)\s+(?P<rev>(?!(?:working|doing|trying|waiting|talking|looking|being|thinking|going|stopping|pausing|"
    r"everything|anything|nothing|there|here|it|that|this|now|right|for)\b)[a-z]+ing\b"
    r"(?:\s+(?!(?:it|that|this|them|those|these|now|yet)\b)[^,;.!?]+?)?)(?=\s*(?:[,;.!]|$|\s+and\s+|\s+—))",
    # "stop fucking with the permissions": exasperation at what the agent is doing right now
    guard=lambda s, m: _standing(s, m) and not re.match(
        r"(?:fucking|effing|screwing|messing|mucking|fooling|dicking|farting|fiddling|faffing)\b", m.group("rev"), _I),
    reverses=_reverse_stop,
    description="'Stop mocking the database in the integration tests' — reverses 'mock the database ...'",
)
_en(
    "en.instruction.reversal_no_more", "instruction",
    "no more",
    r"^\W*(?:(?:and|also|but|so|ok|okay|please)\s*,?\s+)*no\s+more\s+(?P<rev>(?!(?:than|errors?|warnings?|"
    r"problems?|issues?|bugs?|failures?|crash(?:es)?|output|data|items?|results?|space|memory|tokens?|credits?|"
    r"time|ideas?|questions?|changes?|files?|it|that|this|of)\b)[a-z`][\w`'./ -]{1,60}?)"
    r"(?:\s*,?\s*(?:please|ever|period|going\s+forward|from\s+now\s+on))?"
    # what replaces it may follow: "no more os.path.join please, pathlib", "no more ADRs, just explain it in the PR"
    r"(?:\s*[,;—–]\s*(?:(?:use|just|go\s+with|switch\s+to|prefer)\s+[^?]{1,80}?|[\w`.()/-]+(?:\s+[\w`.()/-]+)?)"
    r"(?:\s+(?:instead|please|pls))?)?\s*[.!]*$",
    guard=_standing,
    reverses=_reverse_plain,
    description="'No more force pushes.' — reverses 'force pushes'",
)
_en(
    "en.instruction.reversal_no_longer", "instruction",
    "no longer",
    r"(?:^|[,;:—–]\s*)(?:(?:and|also|but|so|ok|okay|btw|fyi|note)\s*,?\s+)*(?:"
    r"(?P<who>(?:the\s+|our\s+)?[\w`./-]+(?:\s+[\w`./-]+){0,3}?)\s+(?P<cop>is|are)\s+no\s+longer\s+"
    r"(?P<rev>(?:used|needed|required|supported|maintained|allowed|deployed|installed|in\s+use|part\s+of|"
    r"the\s+\w+|a\s+\w+|an\s+\w+|our\s+\w+|how|where|called|named|run|done|kept)\b(?:[^?;.!]|\.(?=\w))*)"
    r"|(?P<who2>we|i)\s+no\s+longer\s+(?P<rev2>(?:use|run|deploy|support|need|ship|maintain|write|host|allow|"
    r"require|want|keep|target|publish)\b(?:[^?;.!]|\.(?=\w))*))",
    guard=lambda s, m: not re.match(r"(?:it|this|that|they|he|she)$", (m.group("who") or "x").strip(), _I)
    and not _HERE_AND_NOW_RE.search(m.group("rev") or m.group("rev2") or ""),
    reverses=lambda s, m: (f"{m.group('who')} {m.group('cop')} {m.group('rev')}" if m.group("rev")
                           else f"{m.group('who2')} {m.group('rev2')}"),
    description="'Redis is no longer needed for the tests', 'we no longer deploy on Fridays'",
)

# a rule restated because it was broken: "I told you not to use mocks in the integration tests"
_en(
    "en.instruction.told_you", "instruction",
    "told you|said|asked you",
    r"^\W*(?:(?:no|nope|again|seriously|ugh|come\s+on|hey)\s*[,.!]*\s+)*(?:i|we)\s+(?:already\s+|just\s+|clearly\s+)?"
    r"(?:told\s+you|said|asked\s+you)\s*(?:,\s*)?(?:that\s+)?(?:you\s+should\s+|we\s+)?"
    r"(?P<rule>(?:not\s+to|never\s+to|to\s+never|to\s+always|always\s+to|don'?t|do\s+not|never|always)\s+[a-z][^?]*)",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(_CLAUSE_END_RE.split(m.group("rule"), 1)[0].split(" before ")[0]),
    description="'I told you not to use mocks in the integration tests' — the rule, said again",
)

_CONDITION_IT_RE = lazy(r"\b(?:once|after|when|whenever|before|until|if)\s+(?:it|they)\b", _I)
# a step for every new thing of a kind: "add docstrings to all new functions", "write tests for every new endpoint"
_en(
    "en.instruction.every_new", "instruction",
    "new",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?P<rule>"
    r"(?!(?:don'?t|do\s+not|never|no|please|always|make\s+sure)\b)" + _IMPERATIVE
    + r"[^?]{0,60}?\b(?:all|every|each|any)\s+new\s+[a-z][\w-]*[^?]*)",
    guard=lambda s, m: _standing(s, m) and _points_here(s, m),
    description="'Add docstrings to all new functions', 'write tests for every new endpoint'",
)
_en(
    "en.instruction.remember_to", "instruction",
    "remember to|don't forget to|do not forget to|never forget to",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|oh|btw)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?:remember|don'?t\s+forget|"
    r"do\s+not\s+forget|never\s+forget)\s+to\s+(?:always\s+)?(?P<rule>" + _IMPERATIVE + r"[^?]*)",
    # ("once it's merged": the "it" of a condition is the thing the step names, as after "when you add an endpoint")
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(_CONDITION_IT_RE.sub("", _clause(s, m)))
    and not re.search(r"\b(?:done|finished|ready|when\s+you'?re|after\s+that)\b", s, _I)
    and bool(re.search(r"\b(?:before|after|when|whenever|once|every|each|any|all)\b", m.group("rule"), _I)
             or _RECURS_RE.search(m.group("rule"))),
    description="'Remember to run the tests before committing', 'Remember to pass -n auto to pytest' "
    "(a recurring step, not 'remember to push it')",
)
# a choice made for one place of the work at hand: "use a map instead of a for loop", "use the existing helper
# instead of writing a new one", "use flexbox instead of grid for the header", "use a Set instead of an array there"
# (read on the rule the match names, which opens on its verb)
_ONE_PICK_RE = lazy(
    r"^(?:go\s+with|stick\s+(?:to|with)|[a-z]+)\s+(?:the\s+(?:existing|new|old|current|same|first|second|last|previous|original)\s"
    # (one thing against one thing; "use a dataclass instead of passing dicts around" sets a kind against a practice)
    r"|an?\s[^,]*?(?:instead\s+of|rather\s+than|over|,\s*not)\s+(?:an?|the|this|that)\s)"
    r"|\bfor\s+the\s+(?!(?:tests|project|repo|codebase|whole)\b)[a-z]+(?<!s)\W*$|\bthere\W*$",
    _I,
)
_CODE_SPAN = r"`[^`]{1,40}`"
_en(
    "en.instruction.use_instead", "instruction",
    "instead of|rather than|over|, not|unless|` not `",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw|oh|just)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?P<rule>(?:use|prefer|pick|choose|go\s+with|"
    r"stick\s+(?:to|with)|(?:write|call|import|run|put|keep|place|store|pin)(?!\s+(?:the|my|your)\b))\s+"
    r"(?!(?:the\s+other|another|a\s+different|it|this|that|these|those|them)\b)"
    r"(?:[\w`'./@+%<> -]{1,40}?\s*(?:,\s*not|instead\s+of|rather\s+than|over"
    # the one exception that needs the other: "use val unless you really need to reassign"
    r"|unless\s+(?:you|we)\s+(?:really\s+|absolutely\s+|actually\s+)?(?:need|have|must))\s+(?!(?:it|this|that|them)\b)[\w`'./@+-][^?]*"
    # one command or name against another, in code spans, no comma: "Use `uv pip …` not `pip …`" (a cue on every
    # " not " would cost the marker pass a tenth)
    r"|" + _CODE_SPAN + r"\s+not\s+" + _CODE_SPAN + r"\s*(?:[.!;,]|$)[^?]*))",
    guard=lambda s, m: _standing(s, m) and not _ONE_PICK_RE.search(m.group("rule")),
    description="'use yarn, not npm', 'Use pathlib instead of os.path', 'Use `uv pip` not `pip`' — a tool or style chosen for good",
)
_en(
    "en.instruction.everywhere", "instruction",
    "everywhere|throughout|in all|in every|across the|across our",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw)\s*,?\s+)*(?:please\s+)?"
    # ("we should use one logger by default across our codebase": the team's way, said as a need)
    r"(?:(?:we|you)\s+(?:need\s+to|should|must|have\s+to)\s+)?(?:always\s+)?(?:use|prefer|avoid|follow|stick\s+to|keep|write)\s+"
    r"[^?]{1,60}?\b(?:everywhere|throughout\s+(?:the|our)\s+(?:code(?:base)?|project|repo)|in\s+all\s+(?:files|modules|new\s+code|code)|"
    r"across\s+(?:the|our)\s+(?:code(?:base)?|repo|project)|in\s+every\s+(?:file|module|function|package))\b",
    guard=_standing,
    description="'Use type hints everywhere.'",
)
_en(
    "en.instruction.avoid", "instruction",
    "avoid",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw|generally|in\s+general)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?:try\s+to\s+)?avoid\s+"
    r"(?!(?:the|this|that|it|these|those|them|my|your|doing\s+that|touching\s+the)\b)[a-z`][^?]*",
    guard=_standing,
    description="'Avoid global state.', 'avoid regex for parsing HTML'",
)
_en(
    "en.instruction.reply_language", "instruction",
    "english|japanese|chinese|german|french|spanish|korean|portuguese|language",
    # the person's own language, whichever it is: "reply in the same language as the user", "respond in the user's language"
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?:you\s+(?:should|must)\s+)?"
    r"(?:respond|reply|answer|talk|speak|communicate|write)\s+(?:to\s+(?:me|the\s+user)\s+)?in\s+(?:the\s+)?"
    r"(?:same\s+language\s+as\s+(?:me|the\s+user|my\s+(?:messages?|questions?|prompts?))|(?:the\s+)?user'?s\s+language|"
    r"my\s+language|language\s+(?:i|the\s+user)\s+(?:write|writes|use|uses|ask|asks)\b)"
    r"|^\W*(?:(?:also|and|please|pls|ok|okay|btw)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?:(?:respond|reply|answer|talk|speak|"
    r"communicate|chat)\s+(?:to\s+me\s+|with\s+me\s+)?|(?:write|keep)\s+(?:all\s+)?(?:your\s+|the\s+)?(?:answers|responses|"
    r"replies|comments|commit\s+messages|code\s+comments|docs|docstrings|identifiers|variable\s+names|logs|log\s+messages)\s+)in\s+(?:english|japanese|chinese|german|french|spanish|korean|portuguese)\b"
    # the convention said as a note, the kind of text and its language alone: "Comments in English only"
    r"|^\W*(?:all\s+)?(?:code\s+)?(?:comments|commit\s+messages|docstrings|docs|documentation|identifiers|variable\s+names|"
    r"log\s+messages|error\s+messages|pr\s+(?:titles|descriptions))\s+(?:are\s+)?(?:written\s+)?"
    r"(?:only\s+)?in\s+(?:english|japanese|chinese|german|french|spanish|korean|portuguese)(?:\s+only)?\W*$",
    description="'Please respond in English.', 'Write commit messages in English.', 'Comments in English only'",
)
_en(
    "en.correction.setup", "correction",
    "i'm on|i am on|we're on|we are on|our |port|the |my |this ",
    r"^\W*(?:(?:no|nope|btw|fyi|also|and|note|actually|oh)\s*[,:]?\s+)*(?:"
    r"(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:on|using|running)\s+(?!(?:it|the|a|an|my|our|this|that|board|track|break|"
    r"vacation|leave|call|main|master|develop|staging|prod|page|step|line|mobile|phone|holiday)\b)"
    r"[\w.+#-]+(?:\s+v?\d[\w.]*)?\W*$"
    # "Our CI runs on GitHub Actions", "all our services are deployed on Kubernetes", "the project uses Poetry for
    # dependency management": what the project is built with or runs on, its whole or a layer as the subject
    # (what the project uses is a convention: en.instruction.we_use)
    r"|(?:all\s+(?:of\s+)?)?our\s+[\w-]+(?:\s+[\w-]+)?\s+(?:runs?\s+on|is\s+on|uses|lives\s+(?:in|on)|(?:is|are)\s+hosted\s+on|"
    r"deploys\s+to|(?:is|are)\s+deployed\s+(?:on|to)|(?:is|are)\s+written\s+in|(?:is|are)\s+built\s+with)\s+"
    r"(?!(?:it|this|that)\b)\S[^?]*"
    r"|(?:the|this)\s+(?:project|repo|repository|codebase|monorepo|backend|frontend|api|site|website)\s+(?:runs\s+on|"
    r"(?:is|are)\s+hosted\s+on|deploys\s+to|(?:is|are)\s+deployed\s+(?:on|to)|(?:is|are)\s+written\s+in|(?:is|are)\s+built\s+with)"
    r"\s+(?!(?:it|this|that|an?|the|some|my|your|love|care|pride|haste|a\s+hurry)\b)[\w`.+#-]+(?:\s+v?\d[\w.]*)?"
    r"(?:(?:\s*,\s*|\s+and\s+|,\s+and\s+)[\w`.+#-]+){0,4}\W*$"
    r"|(?:our|the|my)\s+(?:[\w-]+\s+)?(?:server|api|app|backend|frontend|database|db|service)\s+(?:(?:runs|listens|is)\s+on\s+port|listens\s+on(?:\s+port)?)\s+:?\d+"
    r"(?:\s+(?:locally|in\s+dev(?:elopment)?|by\s+default))?\W*$"
    r"|(?:our|my|the)\s+(?:default\s+|main\s+|primary\s+)?(?:language|stack|runtime|package\s+manager|test\s+runner|"
    r"framework|database|orm|linter|formatter|ci|shell|editor|os|cloud|branch|backend|frontend|bundler|build\s+tool|"
    r"message\s+broker|auth\s+provider)\s+(?:here\s+)?(?:is|are)\s+"
    r"(?!(?:broken|down|slow|failing|red|empty|wrong|not|still|now|it|this|that|a\s+mess|so|too|very|open|closed|"
    r"frozen|stuck|busy|full|gone|missing|new|old|fine|ok|okay|up|off|on|done|ready|locked|dirty|clean|different|"
    r"outdated|deprecated|unknown)\b)[\w`.+#-]+(?:\s+v?\d[\w.]*)?(?:(?:\s*,\s*|\s+and\s+|,\s+and\s+)[\w`.+#-]+(?:\s+v?\d[\w.]*)?){0,4}"
    r"\W*$)",
    guard=_standing_fact,
    description="'we're on node 20', 'Our CI runs on GitHub Actions.'",
)
# a choice of the setup the person made and reports: "we picked pnpm as the package manager", "we went with Postgres
# as our database" (after the person's own words and a comma too); what was chosen must be a part of the setup
_en(
    "en.correction.chose_as", "correction",
    "chose|chosen|picked|went with|settled on|opted for",
    r"(?:^\W*|[,;]\s+(?:and\s+|so\s+)?)(?:(?:btw|fyi|also|note)\s*[,:]?\s+)?(?P<claim>(?:i|we)\s+(?:have\s+|'ve\s+)?"
    r"(?:chose|chosen|picked|went\s+with|settled\s+on|opted\s+for)\s+[`'\"]?[\w.+#@/-]+(?:\s+v?\d[\w.]*)?[`'\"]?\s+"
    r"as\s+(?:the|our|my)\s+(?:default\s+|main\s+|primary\s+)?(?:package\s+manager|pkg\s+manager|language|stack|runtime|"
    r"test\s+runner|framework|database|db|orm|linter|formatter|bundler|build\s+tool|auth\s+provider|host|hosting|ci|"
    r"shell|editor|cloud|deploy\s+target|message\s+broker|queue|cache|ui\s+library|component\s+library|css\s+framework)"
    r"(?:\s+(?:here|for\s+(?:this|the)\s+(?:project|repo|app)))?\W*$)",
    description="'we picked pnpm as the package manager', 'we went with Postgres as our database'",
)

_STYLE_QUALITY = (
    r"(?:small|smaller|short|shorter|atomic|focused|pure|descriptive|meaningful|readable|explicit|simple|minimal|"
    r"consistent|idiomatic|typed|immutable|tiny|single[-\s]purpose|self[-\s]explanatory|concise|flat|shallow|"
    r"lowercase|uppercase|camel[-\s]?case|snake[-\s]?case|kebab[-\s]?case|pascal[-\s]?case|single|double)"
)
_en(
    "en.instruction.style", "instruction",
    "keep|make|write|use|indent|prefer",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw|generally)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?:"
    r"(?:keep|make)\s+(?:all\s+|your\s+)?" + _GENERIC + r"\s+(?:as\s+)?" + _STYLE_QUALITY + r"\b"
    r"|(?:write|use|prefer)\s+(?:only\s+)?" + _STYLE_QUALITY + r"\s+(?:[\w-]+\s+)?" + _GENERIC + r"(?:\s+(?:for|in)\s+"
    + _GENERIC + r"(?:\s+in\s+[\w.+#-]+)?)?\s*(?:please\s*)?[.!]*$"
    r"|(?:use\s+)?\d[-\s]space\s+(?:indentation|indents?)(?:\s+please)?[.!]*$"
    # a length limit on a class of things: "keep commit subjects under 50 characters"
    r"|keep\s+(?:all\s+|your\s+)?(?:[\w-]+\s+){0,2}?" + _GENERIC + r"\s+(?:to|under|below|within|at)\s+(?:most\s+)?"
    r"(?:\d+|a\s+few|a\s+hundred)\s+(?:characters|chars|lines|words|columns|loc)\b(?:\s*(?:max|maximum|or\s+(?:less|fewer)))?[.!]*$)",
    guard=_standing,
    description="'Keep PRs small.', 'Write small functions.', 'Use single quotes for strings in JS.', '2-space indentation'",
)
# "Use httpx for HTTP calls", "use freezegun for date-dependent tests": a tool chosen for a kind of job
_en(
    "en.instruction.use_for", "instruction",
    "use|prefer",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw|oh)\s*,?\s+)*(?:please\s+)?(?:always\s+)?(?P<rule>(?:use|prefer)\s+"
    r"(?!(?:the|a|an|this|that|these|those|it|them|my|your|our|some|any|one|another|same|other)\b)`?[\w.@/+-]+`?"
    r"(?:\s+(?!for\b)[a-z][\w.-]*)?\s+for\s+(?:all\s+|any\s+|every\s+)?"
    r"(?!(?:the|this|that|these|those|it|them|my|your|now|today|a|an|me|us)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})"
    r"\s*(?:[.!,;]|$)",
    guard=lambda s, m: _standing(s, m) and _points_here(s, m),
    description="'Use httpx for HTTP calls', 'use freezegun for date-dependent tests' — a tool for a kind of job",
)
# a way of doing a kind of thing, both sides classes: "Include function name in log messages", "Add column comments
# in SQLModel fields", "Store docs in backend/app/api/docs/<domain>/<action>.md" (not "add tests for the parser":
# a class the task names, nor "add a settings page")
_PRACTICE_VERBS = (
    # (verbs whose letters sit inside common words — use, add, keep — would wake every rule's checks on most sentences)
    r"(?:prefer|include|store|document|prefix|suffix|annotate|validate|sanitize|escape|declare|register|colocate|co-locate)"
)
_NO_CLASS = (
    r"(?:anything|everything|something|nothing|the|a|an|this|that|these|those|it|them|my|your|his|her|our|some|any|"
    r"one|another|same|other|more|all\s+the)"
)
_PREPOSITIONS = r"(?:for|in|on|to|into|under|with|as|at|inside|across|via|per)"
_en(
    "en.instruction.practice_for", "instruction",
    "prefer|include|store|document|prefix|suffix|annotate|validate|sanitize|escape|declare|register|locate",
    r"^\W*(?:(?:also|and|please|pls|always)\s*,?\s+)*(?P<claim>" + _PRACTICE_VERBS + r"\s+(?!" + _NO_CLASS + r"\b)[a-z][\w.-]*"
    r"(?:\s+(?!" + _PREPOSITIONS + r"\b|when\b|before\b|after\b|instead\b|by\b|from\b)[a-z][\w.-]*){0,3}\s+" + _PREPOSITIONS
    + r"\s+(?:(?:(?:all|every|each|any)\s+)?(?!" + _NO_CLASS + r"\b)(?:[A-Za-z][\w.-]*\s+){0,2}(?-i:[a-z][\w-]*s)\b(?!\.\w)"
    r"|[\w.-]*/[\w./<>{}*-]+))\s*(?:[.!;]|$)",
    guard=_standing,
    description="'Include function name in log messages', 'Store docs in backend/app/api/docs/<domain>/<action>.md'",
)
_ARTIFACTS = (
    r"(?:prs|pull\s+requests|commits|migrations|tests|fixtures|components|docs|scripts|configs?|secrets|env\s+vars|"
    r"assets|images|styles|types|hooks|utils|helpers|models|routes|handlers|logs|releases|deploys|deployments|"
    r"feature\s+branches|branches|new\s+\w+s|api\s+keys|credentials|translations|stories|schemas|snapshots)"
)
_en(
    "en.instruction.location", "instruction",
    "go |live |belong|target|are kept|are stored|point to|land in",
    r"^\W*(?:(?:also|and|btw|fyi|note|ok|okay|so|but|no)\s*[,:]?\s+)*(?:all\s+)?(?:[\w-]+\s+){0,2}" + _ARTIFACTS
    + r"\s+(?:always\s+)?(?:(?:go|live|belong|land|are\s+kept|are\s+stored)\s+(?:in|into|under|against|to|on|at|with)|"
    r"target|point\s+(?:to|at))\s+"
    r"(?!(?:it|this|that|the\s+wrong|wrong|stale|missing|away)\b)\S[^?]*",
    guard=_standing_fact,
    description="'PRs go against develop.', 'Migrations live in db/migrations.'",
)
_en(
    "en.preference.x_not_y", "preference",
    ", not",
    r"^\W*(?!(?:yes|no|ok|okay|fine|good|bad|great|later|now|today|tomorrow|him|her|me|you|that|this|it|here|there|"
    r"sure|maybe|soon|first|second|again|once|twice|not|close|exact|exactly|almost|warm|hot|cold|big|small|more|less|"
    r"better|worse|right|wrong|correct|true|false|up|down|left|on|off|in|out|one|two|both|use|prefer|pick|choose|"
    r"write|run|call|import|go|try|do|make|keep|add|"
    # a task's own verbs: "compare against main, not the current branch" is what to do now
    r"compare|check|merge|push|pull|commit|test|build|deploy|read|open|move|put|set|change|fix|update|delete|"
    r"remove|rename|start|stop|show|print|return|switch|revert|rebase|send|save|load|apply|edit|create|install|"
    r"look|point|diff|sort|list|copy|base|branch|target)\b)[\w`.+#-]+(?:\s+[\w`.+#-]+){0,2}\s*,\s*not\s+"
    r"(?!(?:yet|now|today|here|there|really|quite|exactly|sure|that|this|it|me|you|bad|great|good)\b)[\w`.+#-]+(?:\s+[\w`.+#-]+){0,2}\s*[.!]*$",
    guard=_standing,
    description="'Tabs, not spaces.'",
)
# one named thing refused for another, and nothing more said: "I don't want setup.py, just pyproject.toml!" (a file,
# a package or a versioned name on one side at least: "I don't want a summary, just the code" is this answer's shape)
_en(
    "en.instruction.not_x_just_y", "instruction",
    "don't want|dont want|do not want",
    r"^\W*(?:(?:also|and|but|so|no|again)\s*[,!.]?\s+)*(?P<claim>(?:i|we)\s+(?:don'?t|do\s+not)\s+want\s+"
    r"(?P<x>(?!(?:a|an|the|any|it|this|that|these|those|them|you|to)\b)[\w`.@/+-]+(?:\s+[\w`.@/+-]+)?)\s*[,;—–]+\s*"
    r"(?:just|only)\s+(?P<y>(?!(?:a|an|the|it|this|that|these|those|them)\b)[\w`.@/+-]+(?:\s+[\w`.@/+-]+)?))\s*[.!]*$",
    guard=lambda s, m: any(re.search(r"[\w-][./@+][\w-]|\w\d|`", m.group(side)) for side in ("x", "y")),
    description="'I don't want setup.py, just pyproject.toml!'",
)
# a record kept current as the work goes on: "Keep the changelog up to date as you go", "Keep this spec updated as
# decisions are made" (a document of the project and a span that recurs; "keep me updated", "keep the PR updated
# with main" are the task's)
_KEPT_RECORDS = (
    r"(?:readme|changelog|change\s+log|docs|documentation|spec|specification|todo(?:\.md)?|todo\s+list|roadmap|"
    r"log(?:\.md)?|notes|plan|architecture\s+(?:doc|notes)|adrs?|api\s+docs|openapi\s+spec|schema\s+docs|"
    r"[\w-]+\.md)"
)
_en(
    "en.instruction.keep_record_current", "instruction",
    "up to date|updated|current|in sync",
    _LEAD + r"(?P<claim>keep\s+(?:the\s+|our\s+|my\s+|this\s+|that\s+|@)?(?:[\w-]+\s+)?" + _KEPT_RECORDS
    + r"\s+(?:file\s+)?(?:(?:always\s+)?(?:up[\s-]to[\s-]date|updated|current|in\s+sync)\s+"
    r"(?:as\s+(?:you\s+go|we\s+go|decisions\s+are\s+made|(?:you|we)\s+(?:work|develop|change|build|make)\b)|"
    r"with\s+every\s+\w+|after\s+(?:every|each)\s+\w+|throughout\b|at\s+all\s+times|whenever\s+[^?]+|"
    r"when(?:ever)?\s+(?:you|we)\s+\w+)|(?:always\s+)?(?:up[\s-]to[\s-]date|updated|current|in\s+sync)\s*[.!]*$)[^?]*)",
    guard=lambda s, m: not re.search(r"\b(?:now|today|before\s+the\s+(?:demo|release|meeting))\b",
                                     m.group("claim"), _I),
    description="'Keep the changelog up to date as you go', 'Keep this spec updated as decisions are made'",
)
# how work is cut: "One change per commit.", "one assertion per test", "one component per file" (a unit of the work
# in a unit of the project; "one per line" or "one at a time" names neither)
_en(
    "en.instruction.one_per", "instruction",
    "one ",
    r"^\W*(?:(?:also|and|please|pls|btw|generally|strictly)\s*,?\s+)*(?:(?:keep|use|make|stick\s+to)\s+(?:it\s+to\s+)?)?"
    r"(?P<claim>(?:only\s+)?one\s+(?!(?:more|of|or|thing|time|at|by|day|line|more|last|second|sec|moment|minute)\b)[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*)?\s+per\s+(?:commit|pr|pull\s+request|file|module|test|function|class|component|branch|migration|"
    r"change|feature|package|story|ticket|issue|endpoint|route|page|screen|folder|directory|service)\b[^?]*)",
    guard=_standing,
    description="'One change per commit.', 'one assertion per test', 'one component per file'",
)
# a step that waits for the person: "Wait for explicit confirmation before editing any file" ("wait for my ok before
# merging this" is the task's)
_en(
    "en.instruction.wait_for_approval", "instruction",
    "wait for",
    _LEAD + r"(?P<claim>(?:always\s+)?wait\s+for\s+(?:my\s+|an?\s+|the\s+user'?s?\s+|user\s+)?(?:explicit\s+|written\s+|clear\s+)?"
    r"(?:confirmation|approval|go[\s-]ahead|sign[\s-]off|ok|okay|permission)\s+(?:from\s+(?:me|the\s+user)\s+)?"
    r"before\s+(?!(?:it|this|that|doing\s+(?:it|this|that))\b)[a-z]+ing\b[^?]*)",
    guard=_standing_unpointed,
    description="'Wait for explicit confirmation before editing any file'",
)

# conditions that recur: "before you start any task", "before committing", "when you add a route"
_RECURRING = (
    r"(?:(?:you|we|anyone|someone)\s+(?:\w+\s+)?(?:start|begin|write|add|create|commit|push|open|make|change|"
    r"modify|touch|edit|run|deploy|merge|release|rename|delete|remove|install|upgrade|refactor|finish|"
    r"introduce|implement|submit|ship|generate|update|fix)\s+(?:any|every|each|a|an|new|" + _GENERIC + r"|"
    # a kind of things named by a bare plural: "when you write test commands", "before you add routes"
    r"(?!(?:the|this|that|these|those|it|them|my|your|our|their|its|some|all)\b)(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*[^s\W]s)\b|"
    r"(?:any|every|each|a\s+new|new)\s+\w+|[a-z]+ing\b(?<!thing)(?<!during)(?<!morning)(?<!evening)|"
    # an event that recurs: "when a bug appears", "when CI fails", "if a migration is added"
    r"(?:(?:an?|one|any)\s+(?:\w+\s+)?\w+|ci|the\s+(?:build|ci|pipeline)|tests?)\s+(?:appears|shows\s+up|fails|breaks|goes\s+red|"
    r"is\s+(?:added|changed|removed|renamed|merged|created|opened|reported|red))\b|"
    # "when there's a bug", "after 2 failed attempts": a kind of event, a count of tries
    r"there(?:'s|\s+is)\s+an?\s+(?!(?:second|minute|moment|chance)\b)[a-z]+\b|"
    r"(?:\d+|two|three|a\s+few|several)\s+(?:failed\s+|unsuccessful\s+)?(?:attempts|tries|failures|retries)\b)"
)
_IT_RE = lazy(r"\b(?:it|them)\b", _I)  # (after a condition, "it" is what the condition named: "when you add an endpoint, document it")


_LETS_PLAN_RE = lazy(r"\s*(?:let'?s|let\s+us)\s+(?!(?:always|never|make\s+it\s+a\s+rule)\b)", _I)


def _then_clause(sentence: str, m: re.Match[str]) -> str:
    """The request after a leading condition ("Before X, <this>"), up to where its own clause ends."""
    parts = re.split(r"[,;:]", sentence[m.start():], maxsplit=2)
    return _CLAUSE_END_RE.split(_OPENING_CONNECTOR_RE.sub("", parts[1]), 1)[0] if len(parts) > 1 else ""


_en(
    "en.instruction.conditional", "instruction",
    "before|after|when|once|only|twice|every |daily|weekly|monthly|nightly",
    r"^\W*(?:(?:also|and|please|ok|okay|btw|oh)\s*,?\s+)*(?:"
    # (a polite "can you" after a recurring condition still asks for a habit: "When you run tests, can you avoid …")
    # (the condition may be a label: "After any correction from the user: update the lessons file")
    r"(?:before|after|when|once|any\s+time)\s+" + _RECURRING + r"[^,:?]{0,80}[,:]\s*(?:please\s+)?(?:can\s+you\s+(?:please\s+)?)?"
    r"(?:always\s+)?" + _IMPERATIVE + r"[^?]*"
    # ("Must confirm with the user before any action": a rule file's line, its subject left out)
    r"|(?:please\s+)?(?:(?:make\s+sure|be\s+sure|ensure)\s+(?:to|you|that\s+you)\s+|(?:you\s+)?must\s+(?:always\s+)?)?"
    r"(?!(?:be|go|let|wait|start|stop|get)\b)"
    + _IMPERATIVE + r"[^?]{0,80}?\b(?:before|after|when|whenever)\s+"
    + _RECURRING + r"[^?]*"
    r"|only\s+(?:ever\s+)?(?!(?:fix|do|change|look)\b)(?:touch|edit|access|modify|talk\s+to|" + _IMPERATIVE + ")"
    + r"[^?]{0,80}?\b(?:when|if|after|once|through|via|from|with|in)\b[^?]*"
    # a step on a period: "rotate the API keys every 90 days", "prune old branches weekly"
    r"|(?:please\s+)?(?!(?:be|go|let|wait|start|stop|get|don'?t|do\s+not|never|no|please|make\s+sure)\b)" + _IMPERATIVE
    + r"[^?]{0,60}?\b(?:" + _PERIOD + r")\s*(?:[.!,;]|$)[^?]*)",
    # "Before taking any action, explain how you would solve it": the request after the condition points at the task
    guard=lambda s, m: _standing(s, m) and not _HERE_AND_NOW_RE.search(_IT_RE.sub("", _then_clause(s, m)))
    # "Before implementing, let's write a prompt": a plan for the work at hand, unless it says always / never
    and not _LETS_PLAN_RE.match(_then_clause(s, m)) and not re.search(
        r"\b(?:done|ready|finished|back(?!\s+up\b)|free|able|available|possible|there(?!'s\s+an?\b|\s+is\s+an?\b))\b|"
        r"\b(?:you'?re|you\s+are)\s+sure\b|"
        # how a feature is to behave: "when adding dietary restrictions from bookings …", "…, no need for quick buttons"
        r"\b(?:before|after|when|once)\s+(?!(?:committing|pushing|merging|deploying|releasing|starting|finishing|coding|"
        r"testing|debugging|refactoring|implementing|installing|upgrading|publishing|reviewing|rebasing|tagging)\b)[a-z]+ing\s+"
        r"(?!(?:any|every|each|a|an|new|the\s+(?:code|tests?|repo|branch|pr|build|app|project)|code|tests?|changes|files?|"
        r"commits?|prs?|pull\s+requests?|branches|dependencies|packages|migrations?|features?|components?|endpoints?|docs|"
        r"functions?|types?|modules?|scripts?|anything|something|stuff)\b)(?:[a-z-]+\s+){1,3}(?:from|to|into|in|on|for)\b|"
        r",\s*no\s+need\b|"
        # the order of calls in the code at hand: "add null checks before calling remove()"
        r"\b(?:before|after|when)\s+(?:calling|invoking|accessing|rendering|returning|parsing|fetching|loading|saving|"
        r"processing|initiali[sz]ing|instantiating|mounting|unmounting|dispatching|emitting|reading\s+from|writing\s+to)\b|"
        r"\bwhen\s+i\b|\bif\s+(?:it|that|this)\b|\bwhat\s+(?:you|we)\s+(?:just\s+)?(?:changed|did|fixed|updated|found)\b"
        # "add a method …, and when any sync runs, the whitelist will be ignored": how a feature is to behave
        r"|\bwill\s+(?:be|not|never|always|only|automatically)\b|^\W*(?:please\s+)?(?:add|create|implement|build|make)\s+"
        r"(?:an?\s+|new\s+)?(?:method|function|feature|endpoint|option|flag|button|page|screen|route|field|setting|command)s?\b",
        s, _I),
    description="'Before you start any task, show me a plan', 'Run the tests before committing', "
    "'Only touch the client through the wrapper'",
)

# a step after every unit of work, typed without a comma or inside a longer request: "… and then after every fix
# rerun the linter" (the conditional rule above reads a condition that opens its sentence and ends on a comma)
_en(
    "en.instruction.after_every_change", "instruction",
    "after every|after each",
    r"\b(?P<claim>after\s+(?:every|each)\s+(?:single\s+)?(?:code\s+)?(?:change|edit|fix|commit|task|feature|modification|"
    r"iteration|story|milestone)s?\s*,?\s+(?:(?:please|always)\s+)?(?:commit|push|run|rerun|re-run|lint|format|test|"
    r"rebuild|typecheck|type-check)\b[^?]*)",
    guard=_standing,
    description="'… and then after every fix rerun the linter'",
)


def _caps_imperative(sentence: str, m: re.Match[str]) -> bool:
    words = re.findall(r"[A-Za-z']+", sentence)
    caps = [w for w in words if len(w) >= 2 and w.isupper()]
    return len(caps) >= 2 and len(words) >= 2 and not re.search(
        r"\b(?:IT|THAT|THIS|THEM|THESE|THOSE|YET|AGAIN|NOW|HERE|ALREADY)\b"
        # "EXPLAIN WHY", "TELL ME WHAT HAPPENED": a shouted demand for an answer about what just happened
        r"|^\W*(?:PLEASE\s+)?(?:EXPLAIN|SHOW|TELL)\s+(?:ME\s+|US\s+)?(?:WHY|WHAT|HOW|WHERE|WHO|WHICH)\b"
        # "READ THE SERVER JSON from @https://…": a step on one file or address the person points at
        r"|(?<![\w.])@[\w./:-]", sentence) and not (
        # "CHECK DISK USAGE", "RUN THE EVAL": a step shouted bare is the next thing to do; a way of working says
        # when ("RUN THE LINTER FIRST", "… BEFORE YOU PICK A LIBRARY"), a tool or a manner needs no moment ("USE PNPM")
        _CAPS_STEP_RE.match(sentence) and not _CAPS_WHEN_RE.search(sentence))


_CAPS_STEP_RE = lazy(r"(?-i:^\W*(?:PLEASE\s+)?(?:CHECK|RUN|TEST|VERIFY|CONFIRM|SEARCH|LOOK\s+UP|BUILD|UPDATE|ADD|COMMIT|"
                     r"PUSH|SHOW|READ|WRITE|DOCUMENT|LINT|FORMAT|EXPLAIN|PLAN|THINK)\b)")
_CAPS_WHEN_RE = lazy(r"(?-i:\b(?:FIRST|ALWAYS|NEVER|BEFORE|AFTER|EVERY|EACH|WHEN|WHENEVER|UNTIL|UNLESS|INSTEAD|ONLY)\b)")


_CAPS_VERBS = (
    r"(?:READ|RUN|USE|ASK|CHECK|WRITE|KEEP|TEST|VERIFY|CONFIRM|FOLLOW|COMMIT|PUSH|BUILD|UPDATE|ADD|"
    r"AVOID|PREFER|LINT|FORMAT|DOCUMENT|SEARCH|LOOK\s+UP|STICK|SHOW|WAIT|PLAN|THINK|EXPLAIN|REPLY|RESPOND|ANSWER)"
)
_en(
    "en.instruction.caps", "instruction",
    "read|run|use|ask|check|write|keep|test|verify|confirm|follow|commit|push|build|update|add|avoid|prefer|lint|"
    "format|document|search|look up|stick|show|wait|plan|think|explain|reply|respond|answer",
    r"(?-i:^\W*(?:PLEASE\s+)?" + _CAPS_VERBS + r"\s+(?:[A-Z][A-Z'/.-]*\s+)*(?:[A-Z][A-Z'/.-]*)(?:\s|$|[.!,]))",
    guard=_caps_imperative,
    description="'READ THE DOCS FIRST before guessing an API.' (shouting is how rules get repeated)",
)

# a line that calls itself a rule: "Rule: ask before installing packages", "MANDATORY: all edits must be tested",
# "RULE 1 - NO FILE DELETION", and a practice marked banned after it: "git show <commit>:<file> - BANNED"
_RULE_LABEL_ASKS_RE = lazy(
    r"(?:please\s+)?(?:no|never|always|don'?t|do\s+not|only|" + _IMPERATIVE + r")\b"
    r"|(?:all|every|each|any)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:must|should|have\s+to|has\s+to|need\s+to|needs\s+to|are\s+to)\b",
    _I,
)
_en(
    "en.instruction.rule_label", "instruction",
    "rule|mandatory|non-negotiable|banned|forbidden|prohibited|not allowed",
    # ("CRITICAL: fix the login first" is urgency, said of the task)
    r"^\W*(?:(?:hard|golden|house|strict|iron|our|the|one|new)\s+)?(?:rule|mandatory|non-negotiable)(?:\s*#?\s*\d+)?"
    r"\s*(?::|[-—–]\s)\s*(?P<claim>\S[^?]{5,})"
    r"|^\W*(?P<banned>\S[^?]{2,80}?)\s+[-—–:]+\s*(?-i:BANNED|FORBIDDEN|PROHIBITED|NOT\s+ALLOWED)\W*$",
    guard=lambda s, m: _standing(s, m) and (bool(m.group("banned")) or bool(_RULE_LABEL_ASKS_RE.match(m.group("claim")))),
    description="'Rule: ask before installing packages', 'RULE 1 - NO FILE DELETION', 'git show <commit>:<file> - BANNED'",
)

_CODE_NOUNS = (
    r"(?:prs|pull\s+requests|commits|commit\s+messages|migrations|tests|fixtures|components|docs|scripts|configs|"
    r"secrets|env\s+vars|assets|styles|types|hooks|utils|helpers|models|routes|handlers|logs|releases|deploys|"
    r"deployments|branches|api\s+keys|credentials|translations|stories|schemas|snapshots|functions|methods|classes|"
    r"modules|files|endpoints|apis|queries|imports|exports|variables|constants|names|comments|docstrings|errors|"
    r"exceptions|changes|builds|jobs|workflows|dependencies|packages|strings|dates|timestamps|ids|"
    r"services|controllers|views|templates|tables|columns|indexes|events|messages|reviews|tickets|issues)"
)
# what the product is made of: "the menu should always show Back" asks for a feature, not for a way of working
_PRODUCT_NOUN_RE = lazy(
    r"(?:app|apps|application|ui|tui|gui|cli|menu|menus|page|pages|screen|screens|button|buttons|backend|frontend|server|"
    r"program|tool|product|system|feature|dialog|window|output|bot|game|site|website|dashboard|widget|command|commands|"
    r"subcommand|user|users|customer|customers|player|players|form|modal|popup|view|display|prompt|banner|sidebar)$",
    _I,
)
_SUBJECT_LEAD_RE = lazy(
    r"^\W*(?:(?:also|and|but|so|ok|okay|btw|note|remember|please)\s*[,:]?\s+)*",
    _I,
)
_MODAL_OPEN_RE = lazy(r"(?:should|must|shall|need|needs|have|has|ought|are|is)\b", _I)


# one thing of the work that stays a standing subject in the singular: "the main branch should always be green"
_SINGULAR_WORK_RE = lazy(
    r"(?:readme|changelog|branch|main|master|trunk|lockfile|repo|repository|codebase|ci|build|pipeline|history|"
    r"documentation|config|configuration|code|linter|formatter|agent|assistant|ai|model|llm)$",
    _I,
)


def _works_here(subject: str) -> bool:
    """Whether a modal's subject may be how work is done here: not a part of the product ("the menu", "the app",
    "users") nor one named thing ("the center swatch"), whose behaviour is a feature request."""
    words = _SUBJECT_LEAD_RE.sub("", subject.strip(" ,;:—–-")).split()
    if not words:
        return True
    last = words[-1].strip("`'\".,")
    if _PRODUCT_NOUN_RE.match(last):
        return False
    if words[0].lower() in ("the", "this", "that", "its", "my", "our", "your") and not last.lower().endswith("s"):
        return bool(_SINGULAR_WORK_RE.match(last)) or "." in last
    return True


_FIRST_MODAL_RE = lazy(r"\b(?:should|must|shall|needs?|ha(?:ve|s)\s+to|are\s+to|is\s+to|are\s+supposed|gets?|requires?)\b", _I)


def _class_subject_ok(sentence: str) -> bool:
    """For "all X must …": X is not a part of the product (``_works_here``, plural forms included)."""
    modal = _FIRST_MODAL_RE.search(sentence)
    if modal is None:
        return True
    words = _SUBJECT_LEAD_RE.sub("", sentence[: modal.start()]).split()
    if not words:
        return True
    last = words[-1].strip("`'\".,").lower()
    return not (_PRODUCT_NOUN_RE.match(last) or _PRODUCT_NOUN_RE.match(last[:-1] if last.endswith("s") else last)
                or _PRODUCT_DATA_RE.match(last))


def _modal_subject_ok(sentence: str, m: re.Match[str]) -> bool:
    """For "X should always …" (not "make sure to always …"): X is who or what works here (``_works_here``)."""
    if not _MODAL_OPEN_RE.match(sentence, m.start()):
        return True
    cut = max(sentence.rfind(c, 0, m.start()) for c in ",;:—–")
    return _works_here(sentence[cut + 1 : m.start()])

# requirements with must / have to, on a class of things or on how work is done here
_MODAL_REQ = (
    r"(?:must|have\s+to|has\s+to|need\s+to|needs\s+to|are\s+to|is\s+to|are\s+supposed\s+to|"
    r"should\s+(?:(?:not|only|never)\s+)?(?:always|never|be|follow|use|go|live|stay|have|include|target|start|end|match|"
    r"reference|pass|call|contain|mention|explain|describe))"
)
# a rule said after an announcement of it: "I also want to mention that all code should pass our CI tests"
_SAYS_THAT = (
    r"(?:(?:i|we)\s+(?:also\s+)?(?:want|wanted|would\s+like|'d\s+like)\s+to\s+(?:mention|note|add|say|stress|emphasi[sz]e|"
    r"point\s+out|be\s+clear)\s+that\s+|note\s+that\s+|fyi,?\s+(?:that\s+)?|that\s+"
    # "This is very important: EVERY TEST SHOULD PASS"
    r"|(?:this\s+is\s+|it'?s\s+)?(?:very\s+|really\s+|super\s+|extremely\s+)?(?:important|critical|crucial)\s*[:!—–-]\s*)?"
)
_en(
    "en.instruction.must", "instruction",
    "must|have to|has to|need to|needs to|should|supposed to|needs|need a|gets|get a|requires|want to",
    r"^\W*(?:(?:also|and|please|ok|okay|btw|remember|note)\s*[,:]?\s+)*" + _SAYS_THAT + r"(?P<claim>(?:"
    r"(?:all|every|each|any)\s+(?!of\b)(?:[\w`-]+\s+){0,3}?(?:" + _MODAL_REQ + r"|needs?\s+(?:a|an|its|their|(?:(?:two|three|\d+|at\s+least\s+\w+)\s+)?(?:[\w-]+\s+)?"
    + _GENERIC + r")|gets?\s+(?:a|an|its)|"
    r"requires?\s+(?:a|an))(?:\s+\S|\W*$)"
    # a class of the work's own things: "Handlers have to be idempotent" (not "Passwords must be 12 characters",
    # which specifies the product)
    r"|(?!(?:tests\s+should\s+pass)\b)(?:[a-z][\w-]*\s+)?" + _CODE_NOUNS + r"\s+" + _MODAL_REQ
    + r"\s+(?!be\s+able\b|see\b|get\b)\S"
    # "we need to use a queue here" is the task's need; "you have to use X here" is how work is done
    r"|(?:(?:you|we)\s+(?:really\s+)?(?:must|have\s+to|should|are\s+supposed\s+to)|you'?re\s+supposed\s+to|"
    # ("we need to use a queue here" is the task's need; "you need to use a verifying double" how work is done)
    r"you\s+(?:really\s+)?need\s+to)\s+(?:be\s+)?"
    r"(?:use|using|follow|following|stick\s+to|go\s+through|keep|put|write|run|target|pin|prefer|avoid|work\s+(?:in|from|on))\b"
    r"(?![^?]*\binstead\W*$)(?![^?]*\b(?:a\s+different|another|a\s+better|something)\b)[^?]*)[^?]*)",
    # "All menus should have a back option": what a part of the product must do is a feature request
    guard=lambda s, m: _standing(s, m) and _class_subject_ok(s),
    description="'All tests must pass before any commit', 'Handlers have to be idempotent', "
    "'you have to use the repository pattern for data access here'",
)
_en(
    "en.instruction.we_use", "instruction",
    "we use|we're using|we are using|we deploy|we run|we keep|we follow|we write|we manage|we host|we ship|we pin|"
    "we don't|we dont|we do not|we only|uses|relies on|built with|built on",
    r"^\W*(?:(?:also|and|btw|fyi|note|ok|okay|so|but)\s*[,:]?\s+)*(?:here\s+)?(?:we\s+(?:always\s+|only\s+|don'?t\s+|do\s+not\s+)?"
    # ("we keep hitting rate limits", "we keep getting 404s": what goes wrong again and again, no convention)
    r"(?:use|'re\s+using|are\s+using|deploy|run|keep(?!\s+(?:on\s+)?(?:running|getting|hitting|seeing|having|breaking|"
    r"failing|losing|going|coming|ending|finding|making|doing|adding|forgetting|fixing|reverting)\b)|follow|write|manage|"
    r"host|ship|pin|do(?!\s+not\b|n'?t\b)|allow|merge|commit)"
    # "this repo uses Turborepo", "our codebase relies on zod for every schema": the same said of the whole
    r"|(?:this|our|the)\s+(?:project|repo|repository|codebase|monorepo|team)\s+(?:uses|relies\s+on|is\s+built\s+(?:with|on)))\s+"
    # ("the project uses the wrong node", "uses 4GB of RAM", "uses way too many dependencies": how it fares now)
    r"(?!(?:a\s+lot|too|so|many|much|more|less|it|this|that|them|the\s+same|any\s+more|anymore|the\s+wrong|way|lots|tons|"
    r"up|an?\s+(?:old|outdated|ancient|huge|ton)|\d)\b)\S[^?]*",
    guard=lambda s, m: _standing(s, m) and not re.search(r"\b(?:for|in)\s+(?:this|the)\s+(?:test|fix|task|pr|demo|example)\b|\bto\s+(?:test|debug|reproduce|check)\b", s, _I),
    description="'We use uv for dependencies', 'we deploy with Helm', 'this repo uses Turborepo' — the project's conventions",
)

# stated facts about the project or the person's setup
_en(
    "en.correction.called", "correction",
    "called|named",
    r"^\W*(?:(?:no|nope|btw|fyi|also|and|note|actually)\s*[,:]?\s+)*(?:the|our|my)\s+[\w./` -]{2,40}?\s+(?:here\s+|in\s+this\s+repo\s+)?"
    r"(?:is|are)\s+(?:called|named)\s+(?!(?:twice|once|again|when|from|by|with|on|in|every|multiple|after|before|"
    r"recursively|too|only|directly|automatically|something|whatever|it|that|this)\b)\S+(?:\s+\S+)?\W*$",
    description="'the main branch here is called trunk'",
)
_en(
    "en.correction.moved", "correction",
    "moved|switched|migrated",
    r"^\W*(?:(?:no|nope|btw|fyi|also|and|note|actually)\s*[,:]?\s+)*(?:we(?:'ve|\s+have)?\s+(?:moved|switched|migrated)|"
    # (the person's own move is a fact when it names what they left: "I migrated from zsh to fish"; "I switched to
    # agent finally" reports a step)
    r"i(?:'ve|\s+have)\s+(?:moved|switched|migrated)\s+(?:the\s+(?:project|repo|codebase|app)|everything|all\s+\w+)|"
    r"i(?:'ve|\s+have)?\s+(?:moved|switched|migrated)(?=\s+(?:over\s+)?(?:off|away\s+from|from)\s+\S+\s+to\s+))\s+"
    r"(?:over\s+)?(?:off|away\s+from|from|to)\s+(?!(?:the\s+other|another|a\s+different|a\s+new\s+branch|it|this|that)\b)"
    r"(?![^,.]*\b(?:branch|tab|window|folder|directory|file|page|screen|laptop|desk|room|meeting)\b)\S[^?]*",
    guard=_standing_fact,
    description="'We moved off Jest, the test runner is Vitest now.'",
)

# preferences without prefer / rather
_QUALITY = (
    r"(?:type[-\s]safe|strictly\s+typed|fully\s+typed|typed|idiomatic|readable|simple|minimal|boring|explicit|"
    r"dependency[-\s]free|framework[-\s]free|functional|immutable|pure|small|short|concise|terse|documented)"
)
_en(
    "en.preference.i_want", "preference",
    "i want|we want|i need|i'd like|i like|i love|i hate|i dislike|can't stand",
    r"^\W*(?:(?:also|and|but|so|ok|okay|btw|honestly|personally)\s*,?\s+)*(?:"
    # a class named up front: "for local tests, I want them to be simple and run quickly"
    r"for\s+(?:all\s+)?(?:[\w-]+\s+){0,2}?" + _GENERIC + r"\s*,\s*(?:i|we)\s+(?:want|like|need|prefer)\s+them\s+to\s+"
    r"(?:be|stay|run|use|have|follow)\s+\S"
    r"|(?:i|we)\s+(?:want|like|need)\s+(?P<what>everything|all\s+(?:of\s+)?(?:the\s+)?(?:code|[\w-]+s)|(?:the\s+)?code(?:base)?|"
    r"my\s+[\w-]+|(?:[\w-]+\s+)?" + _GENERIC + r")\s+(?:to\s+(?:be|stay)|in|written\s+in|kept|as)\s+\S"
    r"|(?:i|we)\s+(?:want|like)\s+(?:this|it)\s+(?:to\s+be|to\s+stay)\s+" + _QUALITY
    + r"\b[^?]*\b(?:end\s+to\s+end|everywhere|throughout|all\s+the\s+way)"
    r"|(?:i|we)\s+(?:really\s+)?(?:like|love|hate|dislike|can'?t\s+stand|don'?t\s+like)\s+"
    r"(?!(?:it|this|that|the|your|how|what|when|where|to|these|those|them|you|working|being)\b)(?:[\w-]+,?\s+){0,2}?"
    + _GENERIC + r"(?:\s*[.!,]|\s+(?:over|more|better|than|in|and|but)\b|$))",
    guard=lambda s, m: _standing(s, m) or bool(re.search(r"\bend\s+to\s+end\b", s, _I)),
    description="'I want everything in TypeScript', 'I like small PRs'",
)
_en(
    "en.preference.keep_short", "preference",
    "keep|be concise|be brief|be terse",
    r"^\W*(?:(?:also|and|please|pls|ok|okay)\s*,?\s+)*(?:keep\s+(?:your\s+|the\s+)?(?:answers|responses|replies|explanations|"
    r"summaries|messages|comments|commit\s+messages|pr\s+descriptions|output)\s+(?:short|brief|concise|terse|"
    r"minimal|small|tight|to\s+the\s+point|under\s+\w+)|be\s+(?:more\s+)?(?:concise|brief|terse))\b",
    description="'Keep answers short.', 'Be concise.'",
)
_en(
    "en.instruction.keep_in_mind_after", "instruction",
    "in mind|remember that",
    r"^(?P<claim>\W*(?!(?:no|yes|ok|okay|and|so)\b)[^?]{12,}?)\s*[,;—–-]+\s*(?:so\s+|and\s+)?(?:please\s+)?"
    r"(?:(?:keep|bear)\s+(?:that|this)\s+in\s+mind\b|remember\s+(?:that|this)\W*$)",
    # after a bare "remember that" the claim must stand on its own ("it was broken, remember that" recalls an event)
    guard=lambda s, m: "remember" not in m.group(0)[m.end("claim"):].lower() or not _HERE_AND_NOW_RE.search(m.group("claim")),
    description="'I run the API in WSL, keep that in mind for localhost URLs.', 'Secrets come from 1Password via op "
    "run, remember that' — the claim comes first",
)
_en(
    "en.instruction.note_in_file", "instruction",
    "claude.md|agents.md|gemini.md|copilot-instructions|cursorrules|memory",
    r"\b(?:note|rule|line|reminder|section|something)?\s*(?:in|to|into)\s+(?:the\s+)?(?:CLAUDE\.md|AGENTS\.md|GEMINI\.md|"
    r"\.cursorrules|copilot-instructions\.md|(?:your\s+)?memory)\s*(?:that\b|saying\b(?:\s+that\b)?|:)\s*(?P<claim>[^?]{8,})",
    description="'... and put a note in CLAUDE.md that UI strings always go through the i18n helper'",
)

# ------------------------------------------------- permissions, reversals and terse rules
#
# People lift a rule as often as they set one ("It's OK to edit merged migrations now", "Go back to npm"),
# and state many rules in a clipped form ("black, line-length 100, always"). Each of these shapes needs a
# mark of standing ("now", "again", "for good", "always", a class of things) and no pointing word.

_ANYMORE = r"(?:anymore|any\s+more|any\s+longer|going\s+forward|from\s+now\s+on)"
_en(
    "en.instruction.reversal_no_need", "instruction",
    "no need",
    r"(?:^|[,;:—–]\s*)(?:(?:ok|okay|so|and|also|btw|fyi)\s*,?\s+)*no\s+need\s+(?:to\s+(?P<rev>[a-z][^?,;]*?)|"
    r"for\s+(?P<rev2>[^?,;]*?))\s*,?\s*" + _ANYMORE + r"\b",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(m.group("rev") or m.group("rev2") or ""),
    reverses=lambda s, m: m.group("rev") or f"use {m.group('rev2')}",
    description="'No need to run ruff before committing anymore' — reverses 'run ruff before committing'",
)
_PERMIT = r"(?:fine|ok|okay|alright|allowed|acceptable|optional)"
_RELEASE = r"(?:now|again|from\s+now\s+on|going\s+forward)"


def _reverse_permission(sentence: str, m: re.Match[str]) -> str:
    if m.group("act"):
        return f"don't {m.group('act')}"
    if m.group("who2"):
        return f"{m.group('who2')} not allowed"
    return f"{m.group('who')} {m.group('cop')} not allowed"


_en(
    "en.instruction.reversal_permission", "instruction",
    "it's ok|its ok|is ok|are ok|it's fine|is fine|are fine|its fine|okay|alright|allowed|acceptable|optional|can be|can go|can stay|may be|may go|may stay",
    r"^\W*(?:(?:ok|okay|so|and|also|btw|fyi|actually)\s*,?\s+)*(?P<claim>(?:"
    r"(?:it'?s|it\s+is)\s+" + _PERMIT + r"\s+(?:for\s+(?:you|us)\s+)?to\s+(?P<act>[a-z][^?,;]*?)"
    r"|(?P<who>(?!(?:it|this|that|everything|all|the\s+\w+)\b)[\w`.()/-]+(?:\s+[\w`.()/-]+){0,5}?)\s+"
    r"(?P<cop>is|are|can\s+(?:be|go|stay)|may\s+(?:be|go|stay))\s+(?:" + _PERMIT + r"|[^?,;]{1,40}?))"
    r"\s*,?\s+" + _RELEASE + r"\b"
    # "Hardcoded English strings are fine, we're dropping i18n", "Running as root in the container is fine, drop the
    # USER lines": the rule's end said after the permission, by its reason or by undoing what it made
    r"|(?P<who2>(?!(?:it|this|that|everything|all|the\s+\w+)\b)[\w`.()/-]+(?:\s+[\w`.()/-]+){0,5}?)\s+(?:is|are)\s+"
    + _PERMIT + r"(?:\s+(?:too|for\s+us|here))?(?=\s*[,;—–-]+\s*(?:(?:we'?re|we\s+are|we)\s+(?:dropping|only|no\s+longer|not|"
    r"moving|moved|switching|switched)\b|(?:just\s+)?(?:drop|stop|remove|delete)\s+(?:the|all|those|these|every)\b)))",
    # "The build is OK now" reports the task's state: a lifted rule is about an act or a class of things
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(m.group("act") or m.group("who") or m.group("who2")) and bool(
        m.group("act") or re.search(r"\b[a-z]+ing\b|" + _GENERIC, m.group("who") or m.group("who2") or "", _I)),
    reverses=_reverse_permission,
    description="'It's OK to edit merged migrations now', 'Direct pushes to main are OK now' — lifts a prohibition",
)
_en(
    "en.instruction.permission", "instruction",
    "it's ok|its ok|is ok|are ok|it's fine|is fine|are fine|its fine|okay|alright|allowed|acceptable|optional|can go|can be|can skip|can stay|can keep|can use|can land|may go|may be|may skip|may stay|may keep|may use|may land",
    r"^\W*(?:(?:ok|okay|so|and|also|btw|fyi|but)\s*,?\s+)*(?P<claim>(?:"
    r"(?:it'?s|it\s+is)\s+" + _PERMIT + r"\s+to\s+(?P<act>[a-z][^?]*)"
    r"|(?!(?:it|this|that|these|those|they|you|we|i|everything|all|the)\b)(?:[\w`.()/-]+\s+){0,3}?" + _GENERIC
    + r"\s+(?:(?:are|is)\s+" + _PERMIT + r"\s+(?:for|in|on|inside|when|if)\b"
    r"|(?:can|may)\s+(?:go|be\s+(?:merged|pushed|written|kept|used)|skip|stay|keep|use|land)\b)[^?]*"
    # an act or a construct allowed for a kind of things: "editing snapshots by hand is fine for small fixes",
    # "`any` is OK in tests"
    r"|(?:(?!(?:nothing|everything|something|anything|thing|morning|evening)\b)[a-z]+ing\b(?:\s+[\w`.()/-]+){0,5}?|`[^`]+`)\s+"
    r"(?:is|are)\s+" + _PERMIT + r"\s+(?:for|in|on|inside)\s+(?:(?:all|any)\s+)?(?:[\w-]+\s+){0,2}?" + _GENERIC + r"[^?]*))",
    # a permission for a class of things ("docs-only changes", "the CLI entry points"), not for the thing at hand
    guard=lambda s, m: (not m.group("act") and _standing(s, m)) or bool(
        m.group("act") and not _HERE_AND_NOW_RE.search(m.group("act")) and not _NOW_RE.search(m.group("act"))
        and re.search(_GENERIC, m.group("act"), _I)),
    description="'It's fine to push docs-only changes straight to main', 'Hotfixes can go out on Fridays'",
)


def _reverse_back(sentence: str, m: re.Match[str]) -> str:
    return f"don't use {m.group('rev')}"


# "the rule about squashing before merging is lifted", "drop the rule that we never push to main": a rule named and
# called off
_en(
    "en.instruction.reversal_rule", "instruction",
    "rule",
    r"^\W*(?:(?:ok|okay|so|also|and|btw|fyi|update)\s*[,:]?\s+)*(?:"
    r"(?:the\s+)?rule\s+(?:about|that|to|of)\s+(?P<rev>(?!(?:it|this|that|these|those)\b)[^,.;?!]{4,80}?)\s+(?:is|has\s+been)\s+"
    r"(?:gone|dropped|lifted|cancell?ed|retired|scrapped|no\s+longer\s+in\s+effect)"
    r"|(?:please\s+)?(?:drop|scrap|retire|lift|cancel)\s+the\s+rule\s+(?:about|that|to)\s+"
    r"(?P<rev2>(?!(?:it|this|that|these|those)\b)[^,.;?!]{4,80}?))\s*(?:now|from\s+now\s+on)?\s*[.!]*\s*$",
    reverses=lambda s, m: m.group("rev") or m.group("rev2"),
    description="'the rule about squashing before merging is lifted', 'drop the rule that we never push to main'",
)
_en(
    "en.instruction.reversal_back", "instruction",
    "back to|again",
    r"^\W*(?:(?:ok|okay|so|and|also|btw|please|pls|let'?s|go\s+ahead\s+and|just)\s*,?\s+)*(?:"
    r"(?:go|switch|move|revert|change|get)\s+(?:\w+\s+)?back\s+to\s+(?:using\s+)?(?P<rev>[\w`.@/+-]+(?:\s+[\w`.@/+-]+)?)"
    # what it replaces, named: "go back to requests instead of httpx"
    r"(?:\s+(?:instead\s+of|rather\s+than)\s+(?!(?:the|this|that|it|these|those)\b)[\w`.@/+-]+(?:\s+[\w`.@/+-]+)?)?"
    r"(?:\s+for\s+(?:all\s+)?(?:[\w-]+\s+){0,2}?" + _GENERIC + r")?"
    r"|(?:use|allow|enable|bring\s+back)\s+(?P<rev2>[\w`.@/+()-]+(?:\s+[\w`.@/+()-]+)?)\s+again)\s*(?:[,;.!—–]|$)",
    guard=lambda s, m: not re.match(
        r"(?:the|a|an|my|your|our|it|this|that|them|step|main|master|where|what|how|work|sleep|normal|"
        r"default|before|previous|original|square)\b", (m.group("rev") or m.group("rev2") or ""), _I)
    and not re.search(r"\b(?:branch|commit|page|tab|screen|file|step|version|line|state|plan|task)\b"
                      # "go back to app 1", "back to option B": one of the task's numbered or lettered items
                      r"|^[\w-]+\s+(?:\d+|[a-z])$", m.group("rev") or m.group("rev2") or "", _I),
    reverses=lambda s, m: f"don't use {m.group('rev') or m.group('rev2')}",
    description="'Go back to npm', 'Switch back to requests', 'Use docker-compose again' — lifts a rule against it",
)
_en(
    "en.instruction.reversal_drop", "instruction",
    "drop |ditch |get rid of",
    r"(?:^|[,;:—–]\s*)(?:(?:ok|okay|so|and|also|btw|please|pls|let'?s|just)\s*,?\s+)*(?:drop|ditch|get\s+rid\s+of)\s+"
    r"(?P<rev>(?!(?:it|this|that|them|these|those|me|the\s+table|the\s+column|the\s+db|the\s+database|a\s+line|a\s+note)\b)"
    r"[^,;.?!]{2,40}?)\s*(?:,|\band\b|;|—|$)(?=[^?]*\b(?:instead|like\s+before|for\s+good|altogether|entirely|"
    r"handles?|does|do|now|anymore|from\s+now\s+on|going\s+forward)\b)",
    guard=lambda s, m: not re.search(r"\b(?:table|column|database|db|index|row|branch|commit|stash)\b", m.group("rev"), _I),
    reverses=lambda s, m: f"use {m.group('rev')}",
    description="'Drop freezegun and inject a clock object instead' — reverses 'use freezegun'",
)
_FOR_GOOD_VERBS = r"(?:turn|switch|drop|retire|remove|disable|enable|stop|move|keep|kill|delete|ditch|replace|use|make|set)"
_en(
    "en.instruction.for_good", "instruction",
    "for good|once and for all|permanently",
    r"^\W*(?:(?:ok|okay|so|and|also|please|pls|let'?s|let\s+us|just)\s*,?\s+)*(?P<claim>" + _FOR_GOOD_VERBS
    + r"\b[^?]{2,80}?\b(?:for\s+good|once\s+and\s+for\s+all|permanently)\b[^?]*)",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(m.group("claim")),
    description="'Let's turn strict off in tsconfig for good'",
)
_en(
    "en.instruction.changed_mind", "instruction",
    "changed my mind|change of plan",
    r"^\W*(?:(?:ok|okay|so|and|actually|hmm)\s*,?\s+)*(?:(?:i'?ve|i\s+have|i)\s+)?changed\s+my\s+mind\s+(?:on|about)\s+"
    r"(?!(?:it|this|that|the|your|these|those)\b)[\w`.@/+-]+(?:\s+[\w`.@/+-]+){0,2}\s*[,:;—–-]+\s*"
    r"(?!(?:let'?s\s+)?(?:keep|leave|revert|undo)\s+(?:it|this|that)\b)\w[^?]{6,}",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(re.split(r"[,:;—–]", m.group(0), 1)[-1]),
    description="'I've changed my mind on snapshots, use toMatchSnapshot freely.'",
)
# "don't hardcode the names, use this template": what to do instead is pointed at in the work at hand
_POINTED_INSTEAD_RE = lazy(r"[,;]\s*(?:(?:just|please|pls)\s+)?[a-z]+(?:\s+(?:to|on|with))?\s+(?:this|that|these|those|the\s+one)\b", _I)
_en(
    "en.instruction.dont_use_instead", "instruction",
    "don't|dont|do not|don’t",
    r"(?:^|[,;:—–]\s*)(?P<claim>(?:(?:please|pls|and|also|but|so|ok|okay|no)\s*,?\s+)*(?:don'?t|do\s+not)\s+"
    r"(?!" + _NOT_RULE_VERBS + r")(?:[a-z]+ly\s+)?[a-z][\w-]*\s+"
    r"(?!(?:it|this|that|them|these|those|anything|everything|something|me|us|him|her)\b)[^,;.?!]{1,50}?\s*[,;]\s*"
    r"(?:(?:just|please|pls)\s+)?(?:(?:use|run|write|fix|open|call|prefer|go\s+with|stick\s+to|import|inject|"
    r"create|rely\s+on|let|add|put|keep|log|raise|assert|catch|ask|read)\b[^?]*"
    r"|ever\b[^?]*|[\w`.()%-]+(?:\s+[\w`.()%-]+)?\s+(?:please|pls|instead)\W*$))",
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(_CLAUSE_END_RE.split(m.group("claim"), 1)[0])
    and not _EN_NO_WORK_RE.search(s) and not _POINTED_INSTEAD_RE.search(m.group("claim")),
    description="'Don't use docker-compose, use docker compose', 'don't use .format(), f-strings please'",
)
_en(
    "en.instruction.no_please", "instruction",
    "no ",
    r"^\W*(?P<claim>no\s+(?!(?:more|longer|need|idea|problem|worries|luck|way|thanks|doubt|matter|one|"
    r"errors?|warnings?|issues?|problems?|changes?|results?|output|difference|updates?|response|"
    r"reply|files?|logs?|questions?)\b)(?:[\w`().-]+\s+){0,3}?" + _GENERIC
    + r"(?:\s+(?:on|in|at|for|before|after|inside)\s+[\w.-]+){0,2}(?:\s+without\s+(?:an?\s+)?[\w.-]+(?:\s+[\w.-]+)?)?"
    r"\s*,?\s*(?:please|pls|plz)\b[^?]*"
    # one name that only code has: "no GlobalScope please", "no !important pls", "no `any` please"
    r"|no\s+(?:(?-i:[A-Za-z][a-z\d]+[A-Z]\w*)|![a-z][\w-]*|`[^`]+`|[a-z_][\w.]*\(\))\s*,?\s*(?:please|pls|plz)\b[^?]*)",
    guard=_standing,
    description="'no deploys on friday please', 'No eslint-disable lines please.'",
)
_en(
    "en.instruction.no_practice", "instruction",
    "no ",
    r"^\W*(?P<claim>no\s+[^?]+)",
    guard=lambda s, m: _no_practice(s) and _standing(s, m),
    description="'No mocks.', 'No emojis or em-dashes.', 'No terminal execution without explicit user permission'",
)
_en(
    "en.instruction.trailing_always", "instruction",
    "always|every time|every single time|, ever|,ever|period",
    r"^\W*(?!(?:same|thanks?|thank\s+you|as|like|not|it|that|this|i|you|he|she|they)\b)(?P<claim>[^?]{6,}?\S)"
    r"(?:\s*,\s*|\s+)(?:(?:please|pls)\s*,?\s*)?(?<!\bas\s)(?<!\blike\s)(?:always|every\s+(?:single\s+)?time|"
    r"(?<=,\s)ever|(?<=,)ever|period)\s*(?:pls|please|plz)?"
    # a reason may follow: "pytest -n auto every time pls, the suite is slow otherwise"
    r"(?:\s*[,;—–]\s*(?:because|since|as|otherwise|or\s+else|the|it'?s?|they)\b[^?]*)?\W*$",
    # "it crashes every time" is a failure (tried before), "same as always" no rule
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(m.group("claim")) and not re.search(
        r"\b(?:the\s+)?(?:users?|customers?|guests?|players?|visitors?)\b|"
        r"\b(?:happens?|happened|get|gets|got|see|sees|saw|shows?|showed|was|were|did|does|do\s+you|you\s+do|"
        r"same)\b|" + _FAIL_WORDS, m.group("claim"), _I),
    description="'black, line-length 100, always', 'pytest -n auto every time pls', 'don't push to main, ever.'",
)
_en(
    "en.instruction.always_fact", "instruction",
    "always",
    r"^\W*(?:(?:also|and|btw|fyi|note(?:\s+that)?|ok|okay|so|remember)\s*[,:]?\s+)*(?!(?:it|this|that|they|he|she|i|you|we)\b)"
    r"(?P<claim>(?:[\w`./<>-]+\s+){1,5}?(?:(?:is|are)\s+)?always\s+(?:named|called|prefixed|suffixed|written|formatted|"
    r"kept|stored|placed|run|executed|built|deployed|merged|squashed|rebased|reviewed|tested|pinned|signed|tagged|"
    r"go|goes|live|lives|belong|belongs|need|needs|use|uses|target|targets|start|starts|end|ends|follow|follows|"
    r"include|includes|require|requires|stay|stays|point|points|come|comes|run|runs|get|gets)\b[^?]*)",
    guard=_standing_fact,
    description="'Release branches are always named release/<version>', 'Shared fixtures always go in tests/fixtures/'",
)
_en(
    "en.instruction.stays", "instruction",
    "stays|stay |remains|remain ",
    r"^\W*(?:(?:also|and|btw|fyi|note|ok|okay|so)\s*[,:]?\s+)*(?!(?:it|this|that|they|he|she|i|you|we)\b)"
    r"(?P<claim>(?:[\w`./-]+\s+){1,5}?(?:stays?|remains?|must\s+(?:stay|remain)|should\s+(?:stay|remain))\s+"
    r"(?:on|off|enabled|disabled|strict|pinned|private|public|untouched|frozen|read-only|in\s+\S+|out\s+of\s+\S+)\b[^?]*)",
    # "Guests will stay on the cottage longer": what will happen, and to the product's users
    guard=lambda s, m: _standing(s, m) and not re.search(r"\bwill\s+(?:stay|remain)\b|\b(?:users?|customers?|guests?|players?)\b", s, _I),
    description="'TypeScript strict mode stays on', 'The API module must stay private'",
)
_en(
    "en.instruction.shop", "instruction",
    "shop|house",
    r"^\W*(?:(?:also|and|btw|fyi|note|ok|okay|so|remember)\s*[,:]?\s+)*(?:we'?re|we\s+are|this\s+is)\s+an?\s+"
    r"(?P<what>[\w.+#-]+(?:\s+[\w.+#-]+)?)\s+(?:shop|house)\b[^?]*",
    description="'we're a pnpm shop, don't use npm'",
)
# the mark of a standing rule said after it: "don't slap a retry on a flaky test, remember", "every log line needs
# the request id, don't forget it", "(remember) alt on every image, no exceptions"
_en(
    "en.instruction.remember_after", "instruction",
    "remember|forget|exception",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|so)\s*,?\s+)*(?:remember\s*[:,]?\s+(?=[a-z`])|(?=(?:please\s+|pls\s+)?"
    r"(?:" + _IMPERATIVE + r"|(?:every|each|all)\s+[a-z][\w-]*)\s))(?P<claim>[^?]{8,}?)\s*(?:[,;—–]|\s-)\s*(?:remember|"
    r"(?:and\s+)?don'?t\s+forget(?:\s+(?:it|that|this))?|no\s+exceptions?|without\s+(?:any\s+)?exceptions?)\s*[.!]*\s*$",
    # a kind of thing or a moment that recurs ("on a flaky test", "every image"), not "fix the login bug, remember"
    guard=lambda s, m: _standing(s, m) and bool(
        re.search(r"\b(?:a|an|any|every|each|all|never|always|no|before|after|when|whenever)\b", m.group("claim"), _I)
        or _RECURS_RE.search(m.group("claim"))),
    description="'don't add retries to flaky tests, remember', 'every log line needs the request id, don't forget it'",
)
_en(
    "en.instruction.remember_fact", "instruction",
    "remember",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|so|oh|btw)\s*,?\s+)*(?:please\s+)?remember\s+(?:"
    r"(?:our|the|this|my)\s+(?:[\w-]+\s+){0,2}(?:rules?|config(?:uration)?|conventions?|polic(?:y|ies)|setup|style|"
    r"standards?|workflow)\s*[:—–-]\s*(?P<claim>\S[^?]{4,})"
    r"|(?:that\s+)?(?P<claim2>(?:(?:the|our|my)\s+(?:[\w`./-]+\s+){1,4}?|(?!(?:i|you|it|this|that|these|those|when|how|what|why|if|to|me|us|them)\b)(?:[\w`./-]+\s+){1,3}?(?:is|are|listens|runs|uses|lives|moved|needs|goes|"
    r"go|points|targets|defaults|belongs|deploys|builds)|we\s+(?:always\s+|never\s+)?(?:use|write|run|deploy|keep|"
    r"follow|ship|pin|target|squash|rebase|merge|name|put|prefer))\b[^?]{3,}))",
    guard=lambda s, m: _standing_fact(s, m) and not re.search(r"\bremember\s+(?:when|how|what|why|if)\b", s, _I),
    description="'Remember the local dev server listens on 3000', 'remember our rule: Friday deploys are off limits'",
)
_en(
    "en.instruction.for_every", "instruction",
    "every|each|all ",
    r"^\W*(?:(?:also|and|btw|fyi|note|ok|okay|so)\s*[,:]?\s+)*(?:the\s+)?(?P<claim>[\w-]+(?:\s+[\w-]+){0,2}\s+"
    r"(?:for|of|on|in)\s+(?:every|each|all|any)\s+[\w-]+\s+(?:is|are|should\s+be|must\s+be|has\s+to\s+be)\s+"
    r"(?!(?:broken|failing|red|wrong|missing|empty|gone|down|different|the\s+same)\b)\S[^?]*)",
    guard=_standing,
    description="'base branch for every PR is develop pls'",
)
def _standing_part(part: str) -> bool:
    """``_standing`` and ``_points_here`` on the part of a claim after its opener ("it's important to", "ensure that")."""
    clause = _CLAUSE_END_RE.split(part, 1)[0]
    return not (_HERE_AND_NOW_RE.search(clause) or _NOW_RE.search(clause) or _TASK_STEP_RE.search(clause)
                or _POINTED_RE.search(clause))


# what the product holds or shows: "make sure every item is in the list", "ensure all fields are validated"
_PRODUCT_DATA_RE = lazy(
    r"(?:item|entry|entries|row|element|record|field|value|card|column|image|link|cell|option|order|post|"
    r"product|icon|tab|section|slide)s?$",
    _I,
)


def _of_product(subject: str) -> bool:
    """Whether a class subject ("each button", "all pages", "every item") names a part of the product or its data,
    not of the work."""
    last = subject.split()[-1].strip("`.,").lower()
    return bool(_PRODUCT_NOUN_RE.match(last) or _PRODUCT_NOUN_RE.match(last[:-1] if last.endswith("s") else last)
                or _PRODUCT_DATA_RE.match(last))


# "Ensure that every .py file has a module docstring", "make sure each sentence is on its own line": what every
# thing of a kind is to be like, said as a check (not a state of the work: "make sure all tests are passing")
_EVERY_IS_STATE = (
    r"(?:passing|green|fixed|done|working|updated|up\s+to\s+date|correct|there|present|covered|gone|removed|deleted|"
    r"committed|pushed|merged|saved|finished|complete|completed|implemented|addressed|resolved|closed|checked\s+off|ok|okay|"
    r"fine|good|running|installed|in\s+place)\b"
)
_en(
    "en.instruction.ensure_every", "instruction",
    "ensure|make sure|be sure",
    # (not after "and": "implement X and make sure each page has a title" checks the work just asked for)
    _LEAD + r"(?P<claim>(?:ensure|make\s+sure|be\s+sure)\s+(?:that\s+)?(?P<rule>(?:every|each|all)\s+(?!of\b|the\b)"
    r"(?P<subject>(?:[\w.`-]+\s+){0,6}?[\w.`-]+)\s+(?:is|are|has|have|gets?|uses?|stays?|follows?|lives?|goes|ends?|"
    r"starts?|includes?|contains?|carries|carry)\s+(?!(?:not\s+)?" + _EVERY_IS_STATE + r")\S[^?]*))",
    # "make sure each button has a tooltip": a part of the product is a feature request
    guard=lambda s, m: _standing_part(m.group("rule")) and not _of_product(m.group("subject")),
    description="'Ensure that every .py file has a module docstring', 'make sure each sentence is on its own line'",
)
# "Keep all scaffolding modular", "keep each commit with working code", "keep every file under 300 lines"
_en(
    "en.instruction.keep_every", "instruction",
    "keep",
    _LEAD + r"(?P<claim>(?:always\s+)?keep\s+(?:all|every|each)\s+(?!of\b|the\b|my\b|your\b|these\b|those\b)"
    r"(?P<subject>(?:[\w.`-]+\s+){0,2}?[\w.`-]+)\s+(?!in\s+mind\b)(?:in|on|under|below|within|with|aligned|as|at|"
    r"[a-z][\w-]*(?:-[\w-]+)?\s+and\s+[a-z]|small|short|simple|focused|modular|separate|sorted|typed|tested|"
    r"documented|private|pure|atomic|minimal|consistent|compatible|stable|green|passing|working|readable|"
    r"self-contained|backward|backwards)\b[^?]*)",
    guard=lambda s, m: _standing(s, m) and _points_here(s, m) and not _of_product(m.group("subject")),
    description="'Keep all scaffolding agent-first and modular', 'keep each commit with working code'",
)
# "it's really important to keep changes small": a practice stressed as mattering, on a class of things
_en(
    "en.instruction.important_to", "instruction",
    "important|crucial|critical|essential|vital",
    r"(?:^|[,;:—–]\s*|\b(?:but|and|so)\s+)(?P<claim>(?:it'?s|it\s+is)\s+(?:(?:really|very|super|extremely|so|"
    r"absolutely)\s+)?(?:important|crucial|critical|essential|vital)\s+(?:to\s+|that\s+(?:you|we)\s+)(?P<rule>(?:never|never\s+ever)\s+"
    # ("it's important to never expose the API key": a prohibition needs no class of things)
    + _IMPERATIVE + r"[^?]*|(?:always\s+)?"
    r"(?!(?:understand|know|note|remember|see|get|have|be|fix|finish)\b)" + _IMPERATIVE
    + r"\s+" + _PARTICLES + r"(?:(?!(?:the|a|an|this|that|my|your|its|our)\b)[a-z][\w./-]*\s+){0,2}?" + _GENERIC + r"[^?]*))",
    guard=lambda s, m: _standing_part(m.group("rule")),
    description="'it's really important to keep changes small and simple', 'it is crucial to pin all dependencies'",
)
# "In every source file you create or edit, add a header with its path": a step for each thing of a kind as it is
# made (the present tense recurs; "every file you touched" is the work just done)
_MAKE_VERB = r"(?:create|write|add|edit|touch|make|open|change|modify|generate|author|update)"
_en(
    "en.instruction.in_every_you_make", "instruction",
    "every|each|any ",
    r"^\W*(?:(?:also|and|please|pls|ok|okay|btw|so)\s*,?\s+)*(?P<claim>(?:in|for|to|on|with|at\s+the\s+top\s+of)\s+"
    r"(?:every|each|any)\s+(?:[\w.`-]+\s+){0,2}?(?:you|we)\s+" + _MAKE_VERB + r"(?:\s+or\s+" + _MAKE_VERB + r")?\s*,\s*"
    r"(?:please\s+)?(?:always\s+)?(?P<rule>(?!(?:don'?t|do\s+not|never|no|please)\b)" + _IMPERATIVE + r"[^?]*))",
    guard=lambda s, m: _standing_part(m.group("rule")),
    description="'In every source file you create or edit, add a header with its path'",
)
# "Just a reminder that we use pnpm here", "I remind you the main directive that we rely on task-master": a rule
# the person has stated before, said again
_en(
    "en.instruction.remind_you", "instruction",
    "remind",
    r"(?:^\W*|[,;:]\s+)(?:(?:also|and|so|ok|okay|btw|again|but)\s*,?\s+)*(?:(?:just\s+)?(?:a\s+)?(?:friendly\s+|quick\s+|gentle\s+)?"
    r"reminder\s*(?:that\b|[:,—–-])|i\s+(?:(?:want|would\s+like|'d\s+like|have|need)\s+to\s+|must\s+)?(?:again\s+)?remind\s+you\s+"
    r"(?:again\s+)?(?:of\s+)?(?:(?:the|our|my)\s+(?:[\w-]+\s+)?(?:directive|rule|convention|policy|principle|agreement)\s+)?"
    r"(?:that\b|[:,—–-])?)\s*(?P<claim>[^?]{8,})",
    # "I remind you that I asked for a table": what was said in this session, about the task at hand
    # ("Just a reminder, the meeting is at 3": an event, no way of working is named)
    guard=lambda s, m: _standing_part(m.group("claim")) and not re.match(
        r"\W*(?:i|you|we)\s+(?:already\s+|just\s+|clearly\s+)?(?:asked|said|told|wanted|requested|mentioned|promised|agreed|"
        r"decided|discussed)\b", m.group("claim"), _I) and bool(re.search(
        r"\b(?:we|you|always|never|all|every|each|any|must|should|don'?t|do\s+not|uses?|rel(?:y|ies)|keep|prefer|only|no)\b",
        m.group("claim"), _I)),
    description="'Just a reminder that we use pnpm here', 'I remind you the main directive that we rely on X'",
)
# "Periodically run the full suite and react to the results", "regularly rebase on main": a step that recurs
_en(
    "en.instruction.periodically", "instruction",
    "periodically|regularly|every so often|from time to time|every now and then|every once in a while",
    _LEAD + r"(?P<claim>(?:periodically|regularly|every\s+so\s+often|from\s+time\s+to\s+time|every\s+now\s+and\s+then|"
    r"every\s+once\s+in\s+a\s+while)\s*,?\s+(?:do\s*:|(?!(?:don'?t|do\s+not|never|no|please)\b)" + _IMPERATIVE + r")[^?]*)",
    guard=lambda s, m: _standing(s, m) and _points_here(s, m),
    description="'Periodically run the full test suite and react to the results', 'regularly rebase on main'",
)
# the step first, its period after: "Run pnpm dedupe periodically", "rebase on main regularly"
_en(
    "en.instruction.periodically_after", "instruction",
    "periodically|regularly",
    r"^\W*(?:(?:also|and|please|pls)\s*,?\s+)*(?P<claim>(?!(?:don'?t|do\s+not|never|no|please)\b)" + _IMPERATIVE
    + r"\s+[^?,;]{1,40}?\s+(?:periodically|regularly)\b[^?]*)",
    guard=lambda s, m: _standing(s, m) and _points_here(s, m),
    description="'Run pnpm dedupe periodically', 'rebase feature branches on main regularly'",
)
# a named standard to follow: "Follow the Conventional Commits specification", "stick to the Google style guide"
_en(
    "en.instruction.follow_standard", "instruction",
    "follow|adhere|stick to|comply",
    r"^\W*(?:(?:also|and|please|pls)\s*,?\s+)*(?:always\s+)?(?P<claim>(?:follow|adhere\s+to|stick\s+to|comply\s+with)\s+(?:the\s+)?"
    r"(?-i:(?:[A-Z][\w.+-]*|PEP\s*\d+)(?:\s+[A-Z][\w.+-]*){0,3})\s+(?:specification|spec|conventions?|style\s+guide|style|"
    r"guidelines?|standards?|format|workflow|naming)\b[^?]*)",
    guard=_standing,
    description="'Follow the Conventional Commits specification', 'stick to the Google style guide'",
)


# ------------------------------------------------------------- rules real sessions state plainly

# "I use the fish shell", "we rely on PostHog for all tracking": a fact about the person's setup or the
# project's tooling, said without "always"; a named thing and a class word ("shell", "for all …")
_SETUP_NOUNS = (
    r"(?:shell|terminal|editor|ide|os|distro|browser|laptop|machine|keyboard\s+layout|package\s+manager|"
    r"runtime|database|db|orm|test\s+runner|linter|formatter|bundler|monorepo\s+tool|ci|cloud|registry)"
)
_SETUP_NAMES = (
    r"(?:fish|zsh|bash|nushell|powershell|pwsh|cmd\.exe|windows|macos|mac\s*os|linux|ubuntu|debian|fedora|arch|nixos|wsl2?|"
    r"vim|neovim|nvim|emacs|helix|vs\s*code|vscode|jetbrains|intellij|pycharm|webstorm|tmux|iterm2?|ghostty|wezterm|"
    r"apple\s+silicon|an?\s+m[1-4]\s+mac|an?\s+(?:intel\s+)?mac|a\s+windows\s+(?:machine|laptop|pc))"
)
# a tool by name (not "it", "this script"), and a class of things it keeps: "(my|all) python packages", "dotfiles"
_TOOL_NAMED = r"(?!(?:it|this|that|these|those|them|the|a|an|my|our)\b)[A-Za-z][\w.+#/-]*"
_CLASS_KEPT = (
    r"(?:(?:all\s+)?(?:my|our)\s+|all\s+(?:the\s+)?)?(?:[\w.+#-]+\s+)?(?:packages|dependencies|deps|environments|envs|"
    r"virtualenvs|versions|toolchains|dotfiles|secrets|releases|containers|python|node|runtimes)"
)
_en(
    "en.correction.setup_fact", "correction",
    "i manage|i use|i always use|i only use|i'm on|im on|i am on|i'm using|im using|i am using|i'm running|we're on|we are on|rely on|depend on|i run|we run|i work on|i develop on",
    # ("we use X" is en.instruction.we_use's)
    r"^\W*(?:(?:fyi|btw|also|and|but|no|nope|ok|okay|note)\s*[,:]?\s+)*(?P<claim>(?:i\s+(?:use|run|work\s+on|"
    r"develop\s+on|am\s+on|rely\s+on|depend\s+on)|i'?m\s+on|we\s+(?:rely\s+on|depend\s+on|run|are\s+on)|we'?re\s+on)\s+"
    r"(?!(?:it|this|that|these|those|them|a\s+lot|the\s+same)\b)(?:the\s+|an?\s+)?[A-Za-z][\w.+#/-]*"
    r"(?:\s+[A-Za-z][\w.+#/-]*)?\s+(?:" + _SETUP_NOUNS + r"\b|for\s+(?:all|every|everything|any)\b|"
    r"(?:everywhere|across\s+(?:all|the\s+(?:repo|project|codebase)))\b)[^?]*"
    # a shell, an editor or an OS named alone says as much: "I use fish", "I'm using zsh with oh-my-zsh"
    r"|(?:i\s+(?:use|run|am\s+on|am\s+using)|i'?m\s+(?:on|using|running))\s+(?:the\s+)?" + _SETUP_NAMES + r"\b(?!\s+(?:to|for)\s+(?:this|it|that)\b)[^?]*"
    # what the project leans on, said with its purpose: "we rely on Sentry for error tracking"
    r"|we\s+(?:rely|depend)\s+on\s+(?!(?:it|this|that|these|those|them|you|me)\b)[A-Za-z][\w.+#/-]*(?:\s+[A-Za-z][\w.+#/-]*)?\s+"
    r"(?:for|to)\s+(?!(?:it|this|that|now)\b)[a-z][^?]*"
    # the tool that keeps a whole class of the person's things: "I use uv to manage python packages", "I manage my
    # dotfiles with chezmoi" (a class in the plural, not "this file", "the tests")
    r"|i\s+(?:always\s+|only\s+)?(?:use\s+" + _TOOL_NAMED + r"\s+(?:to\s+manage|for\s+managing|for)\s+" + _CLASS_KEPT +
    r"|manage\s+" + _CLASS_KEPT + r"\s+(?:with|using|through|via)\s+" + _TOOL_NAMED + r")\b[^?]*)",
    guard=_standing_fact,
    description="'I use the fish shell', 'I use fish', 'we rely on PostHog for all tracking', "
    "'we rely on Sentry for error tracking', 'I use uv to manage python packages'",
)

# the kind of a project's ids, said flat: "order ids are ULIDs", "user IDs are UUIDs"
_en(
    "en.correction.id_kind", "correction",
    "ids are|id is|ids should be|id should be",
    r"^\W*(?:(?:no|nope|fyi|btw|also|and|but|note|remember)\s*[,:]?\s+)*(?P<claim>(?:the\s+|our\s+|all\s+)?"
    r"(?!(?:it|this|that|these|those|its)\b)(?:[\w-]+\s+){0,2}?ids?\s+(?:are|is|should\s+be|must\s+be)\s+(?:always\s+)?"
    r"(?:uuids?|ulids?|integers?|ints?|bigints?|strings?|snowflakes?|nanoids?|cuids?|ksuids?|numeric|(?:auto-?)?increment(?:ing|ed)?|"
    r"uuid\s*v\d|v\d\s+uuids?)\b[^?]*)",
    guard=_standing_fact,
    description="'order ids are ULIDs', 'user IDs are UUIDs, not integers'",
)

# a tool, option or API the project has moved off: what the agent must not reach for again
_en(
    "en.correction.deprecated_for", "correction",
    "deprecated|phased out|superseded",
    r"^\W*(?:(?:fyi|btw|also|and|but|no|nope|note|heads\s+up)\s*[,:]?\s+)*(?P<claim>(?!(?:it|this|that|which)\b)"
    r"[`'\"]?[A-Za-z][\w.+#/`'\"-]*(?:\s+[A-Za-z][\w.+#/`'\"-]*){0,3}\s+(?:is|are|was|were|has\s+been|have\s+been)\s+"
    r"(?:being\s+|now\s+|officially\s+)?(?:deprecated|phased\s+out|superseded)"
    r"(?:\s+(?:in\s+favou?r\s+of|by|for)\s+[`'\"]?[A-Za-z][^?]*|\s*[,;:—–-]+\s*(?:use|we\s+use|switch\s+to)\s+\S[^?]*))",
    guard=_standing_fact,
    description="'brews is being phased out in favor of homebrew_casks', 'the v1 client is deprecated, use v2'",
)
# a choice the person made on purpose: the agent must not "fix" it back
_en(
    "en.correction.deliberate_choice", "correction",
    "explicitly|deliberately|intentionally|purposely|on purpose|by design",
    r"^\W*(?:(?:fyi|btw|also|and|but|no|nope|note)\s*[,:]?\s+)*(?P<claim>(?:we|i)\s+(?:have\s+|had\s+)?"
    r"(?:explicitly|deliberately|intentionally|purposely|consciously)\s+(?:chose|choosed|chosen|picked|went\s+with|"
    r"decided\s+(?:on|to)|set|made|use|keep|kept|pinned?|removed|dropped|disabled|turned\s+off)\s+\S[^?]*"
    r"|(?!(?:it|this|that|these|those|which|what)\b)[`'\"]?[A-Za-z][\w.+#/`'\"-]*(?:\s+[A-Za-z][\w.+#/`'\"-]*){0,3}\s+"
    r"(?:is|are|was|were)\s+(?!(?:it|this|that|not)\b)(?:[\w.-]+\s+){0,3}?(?:on\s+purpose|by\s+design|"
    r"intentional(?:ly\s+\w+)?|deliberate(?:ly\s+\w+)?)\b[^?]*)",
    # the decision itself is what must not point at the task; a reason after a comma may ("…, this is fine")
    guard=lambda s, m: not _HERE_AND_NOW_RE.search(re.split(r"[,;]", m.group("claim"), maxsplit=1)[0]),
    description="'We explicitly chose Haiku as the default', 'the retry limit is 3 on purpose'",
)

# a standing scope said up front: "as a rule, …", "generally, …" (also after "note that" inside a longer request)
_en(
    "en.instruction.as_a_rule", "instruction",
    "as a rule|as a general rule|generally|in general|by convention|as a principle|on principle",
    r"(?:^\W*|[.;:]\s+|\bnote\s+that\s+|\b(?:and|also|but|so|ok|okay)\s*,?\s+)(?:as\s+a\s+(?:general\s+)?(?:rule|principle)|generally|"
    r"in\s+general|by\s+convention|on\s+principle)\s*,?\s+(?P<claim>(?:we|you|i)\s+(?:want|keep|use|avoid|prefer|put|"
    r"write|don'?t|do\s+not|never|always|should|must|need|try|like|organi[sz]e)\b[^?]{3,}|(?:use|keep|avoid|prefer|put|"
    r"write|don'?t|do\s+not|never|always|organi[sz]e)\b[^?]{3,})",
    guard=_standing,
    description="'note that as a rule, we want business logic in per-domain modules', 'generally we avoid global state'",
)
# the project's norm named as such: "our convention is kebab-case file names"
_en(
    "en.instruction.convention_is", "instruction",
    "convention|policy|standard|house style|practice",
    r"^\W*(?:(?:also|and|btw|fyi|note|so|but)\s*[,:]?\s+)*(?P<claim>(?:our|the\s+(?:project'?s|team'?s|repo'?s))\s+"
    r"(?:naming\s+|coding\s+|code\s+|commit\s+|branch(?:ing)?\s+|test(?:ing)?\s+)?(?:convention|policy|standard|house\s+style|"
    r"practice)s?\s+(?:here\s+)?(?:is|are)\s+(?:to\s+)?(?!(?:unclear|confusing|wrong|broken|different|weird|inconsistent|not|"
    r"outdated|documented|described|in|at|on)\b)\S[^?]*)",
    guard=_standing,
    description="'our convention is kebab-case file names', 'our policy is to squash-merge'",
)
# a taste stated as a dislike of a class of things: "I don't like nested types"
_en(
    "en.preference.taste", "preference",
    "don't like|dont like|do not like|hate|can't stand|cannot stand|like all|like every|like each|like our|like my",
    r"^\W*(?:(?:also|and|but|honestly|personally|fyi|btw)\s*,?\s+)*(?P<claim>i\s+(?:really\s+)?(?:don'?t|do\s+not)\s+like\s+"
    r"(?!(?:it|this|that|these|those|the|a|an|my|your|his|her|its|how|what|when\s+it)\b)[a-z][\w-]*"
    r"(?:s|ing|\s+[a-z][\w-]*s)\b[^?]*|i\s+(?:really\s+)?(?:hate|can'?t\s+stand|cannot\s+stand)\s+(?:it\s+)?when\s+you\s+"
    r"[^?]{3,}|i\s+(?:really\s+)?like\s+(?:all|every|each|our|my)\s+[\w-]+\s+to\s+[^?]{3,})",
    guard=_standing,
    description="'I don't like nested types', 'I hate when you rewrite whole files', 'I like all types to have their own file'",
)
# the project's layout said as a fact about every member of a class: "all config goes through env vars"
_en(
    "en.instruction.all_go_through", "instruction",
    "goes in|goes through|goes under|goes via|goes behind|go in|go through|go under|go via|go behind|"
    "lives in|lives through|lives under|lives via|lives behind|live in|live through|live under|live via|"
    "live behind|belongs in|belongs through|belongs under|belongs via|belongs behind|belong in|"
    "belong through|belong under|belong via|belong behind|stays in|stays through|stays under|stays via|"
    "stays behind|stay in|stay through|stay under|stay via|stay behind|comes in|comes through|"
    "comes under|comes via|comes behind|come in|come through|come under|come via|come behind|is kept in|"
    "is kept through|is kept under|is kept via|is kept behind|are kept in|are kept through|"
    "are kept under|are kept via|are kept behind",
    r"^\W*(?:(?:also|and|btw|fyi|note|so|but)\s*[,:]?\s+)*(?P<claim>(?:all|every|each)\s+(?:new\s+)?[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*)?\s+(?:goes?|lives?|belongs?|stays?|comes?|is\s+kept|are\s+kept)\s+(?:in|into|through|under|via|"
    r"behind|inside)\s+\S[^?]*)",
    guard=_standing_fact,
    description="'all config goes through env vars', 'every migration lives in db/migrations'",
)
# a rule the agent keeps breaking, said as a complaint: "you keep forgetting to run the formatter"
_en(
    "en.instruction.keep_forgetting", "instruction",
    "keep forgetting|always forget|keep not",
    r"\byou\s+(?:keep|always)\s+(?:forgetting|forget)\s+(?:to\s+)?(?P<claim>[a-z][\w-]*\s+[^?]{3,})",
    guard=_standing,
    description="'you keep forgetting to run the formatter'",
)
# what the team does not want, ever: "we don't want any new dependencies without discussion"
_en(
    "en.instruction.we_dont_want", "instruction",
    "don't want|dont want|do not want|never want|don't need|dont need|do not need",
    r"^\W*(?:(?:also|and|btw|fyi|note|so|but|no)\s*[,:]?\s+)*(?P<claim>we\s+(?:don'?t|do\s+not)\s+want\s+(?:any|to\s+(?:ever\s+)?"
    r"(?!(?:do|change|touch|break|lose|merge|ship|release)\s+(?:it|this|that|these|those|the)\b)"
    # ("we dont want to download the file, it is already there": one thing of the task)
    r"(?![a-z]+\s+the\s+[a-z]+(?<!s)\b(?!\s+of\b)))[^?]{3,}"
    # "I don't want toMatchSnapshot anywhere in the tests": a thing banned from everywhere
    r"|(?:i|we)\s+(?:don'?t|do\s+not|never)\s+want\s+(?!(?:it|this|that|them|you)\b)[^?]{1,50}?\s+anywhere\b"
    r"(?!\s+(?:near|close|else)\b)[^?]*"
    # a kind of things kept out of the person's code or history: "we don't need print statements in code", "we don't want
    # emojis in commit messages" (not the task's trouble: "I don't want errors in the code", nor "more files")
    r"|(?:i|we)\s+(?:really\s+)?(?:don'?t|do\s+not)\s+(?:want|need)\s+(?:any\s+)?"
    r"(?!(?:changes?|errors?|bugs?|issues?|problems?|warnings?|regressions?|breaking|more|new)\b)(?:[\w-]+\s+)?" + _GENERIC
    + r"\s+in\s+(?:(?:my|our|the)\s+)?(?:code(?:base)?|commits?|commit\s+messages?|prs?|pull\s+requests?|repo(?:sitory)?)\b[^?]*)",
    guard=_standing,
    description="'we don't want any new dependencies without discussion', 'we don't want to use ORMs', "
    "'I don't want toMatchSnapshot anywhere in the tests', 'we don't need print statements in code'",
)

# the agent's credit kept out of the history: "don't add claude as co-author", "never include the Co-Authored-By line",
# "no co-author trailers" (a co-author line is written on every commit, so a ban on it is a standing one)
_en(
    "en.instruction.no_coauthor", "instruction",
    "co-author|coauthor|co-authored|generated with",
    r"^\W*(?:(?:also|and|btw|please|pls|so|but|oh|ok|okay)\s*,?\s+)*(?P<claim>(?:please\s+)?(?:(?:don'?t|do\s+not|never)\s+(?:ever\s+)?|stop\s+)"
    r"(?:add(?:ing)?|includ(?:e|ing)|put(?:ting)?|list(?:ing)?|mention(?:ing)?|sign(?:ing)?|credit(?:ing)?|us(?:e|ing)|"
    r"writ(?:e|ing)|append(?:ing)?)\b[^?]{0,60}?(?:\bco-?authou?r(?:ed)?|\bgenerated\s+with)\b[^?]*"
    r"|no\s+(?:more\s+)?(?:[\w-]+\s+){0,2}?co-?authou?r(?:ed)?\b[^?]*)",
    guard=_standing,
    description="'don't add claude as co-author', 'never include the Co-Authored-By line in commits'",
)

# a habit asked for "as much as possible": "I want to avoid using mocks as much as possible"
_en(
    "en.preference.as_much_as_possible", "preference",
    "as much as possible|as much as we can|as far as possible|as closely as possible|wherever possible|whenever possible",
    r"(?P<claim>\b(?:i|we)(?:'d\s+|\s+would\s+|\s+(?:really\s+)?)(?:want|like|prefer|try|need|should)\s+"
    r"(?:us\s+|(?:our|the|my)\s+[\w -]{2,30}?\s+)?"
    r"to\s+(?:avoid|minimi[sz]e|limit|reduce|keep|stick\s+to|use|rely\s+on|reuse|replicate|mirror)\s+[^,.;?]{3,80}?\s+"
    r"(?:as\s+(?:much|far|closely)\s+as\s+(?:possible|we\s+can|i\s+can)|wherever\s+possible|whenever\s+possible)\b)",
    guard=_standing,
    description="'I want to avoid using mocks/stubs as much as possible', "
    "'I'd like our local testing to replicate production as closely as possible'",
)
# a manner asked for wherever it can hold: "use table driven tests where possible", "prefer composition over
# inheritance wherever practical" (a standing way of working, said as a bare imperative; "fix these where possible"
# points at the task)
_en(
    "en.instruction.where_possible", "instruction",
    "where possible|wherever possible|when possible|whenever possible|where practical|wherever practical|"
    "where feasible|wherever feasible",
    _LEAD + r"(?P<claim>(?:use|prefer|favou?r|reuse|write|avoid|pick|choose|stick\s+to|rely\s+on|go\s+with)\s+"
    r"(?!(?:it|this|that|these|those|them|the\s+(?:same|other|new|last|next|previous))\b)[^?,;:]{3,60}?\s+"
    r"(?:where(?:ver)?|when(?:ever)?)\s+(?:possible|practical|feasible)\b[^?]*)",
    guard=_standing_unpointed,
    description="'use table driven tests where possible', 'prefer composition over inheritance wherever practical'",
)
# a lasting taste in languages and tools: "I'm most comfortable in TypeScript"
_en(
    "en.preference.comfortable_with", "preference",
    "comfortable",
    r"^\W*(?:[^,;]{0,40},\s*)?(?:(?:also|and|but|fyi|btw|personally|honestly)\s*,?\s+)*(?P<claim>i'?m\s+(?:most|more|very|really|much\s+more)\s+"
    r"comfortable\s+(?:in|with|using|writing)\s+(?!(?:it|this|that|whatever|anything|either|both)\b)[A-Za-z][^?]*)",
    guard=_standing,
    description="'I'm most comfortable in JavaScript and TypeScript'",
)
# the person keeps a piece of the work for themselves: "I'm already running the dev server, I'll manage that"
_en(
    "en.instruction.ill_handle", "instruction",
    "no need|i'll manage|i'll handle|i'll take care|i will manage|i will handle|i will take care",
    r"(?P<claim>\b(?:i'?ll|i\s+will)\s+(?:always\s+)?(?:manage|handle|run|start|restart|take\s+care\s+of|do)\s+(?:the\s+|my\s+|all\s+)?"
    r"(?:dev\s+|local\s+)?(?:server|servers|services?|database|db|builds?|deploys?|deployments?|migrations?|commits?|"
    r"pushes|releases?|merges?|git|that|it)\b(?:\s+myself)?[^?.]*?\bno\s+need\s+(?:for\s+you\s+)?to\b[^?.]*"
    r"|\b(?:i'?m|i\s+am)\s+(?:already\s+)?(?:running|managing|handling)\s+(?:the\s+|my\s+)?(?:dev\s+|local\s+)?"
    r"(?:server|servers|services?|database|db|builds?)\b[^?.]*?\b(?:i'?ll|i\s+will)\s+(?:manage|handle|take\s+care\s+of)\b[^?.]*)",
    description="'I'm already running the dev server, and I'll manage that, so no need to do that yourself'",
)


_EN_REQUEST_START_RE = lazy(r"^\W*(?:(?:please|just|then|and)\s+)*" + _IMPERATIVE, _I)


# "It should always show the summary", "the menu must never hide Back", "users should never see a raw error": the
# subject is what the software does for its users, so the sentence asks for a feature, not for a way of working.
# (Tests, commits, PRs, docs and the code's own layout are the agent's work, and keep their rules.)
_EN_PRODUCT_SUBJECT_RE = lazy(
    r"^\W*(?:(?:and|also|so|but|ok|okay|then)\s*,?\s+)*(?:it|(?:the\s+)?(?:end\s+)?users?|(?:the|this|our|each|every)\s+"
    r"(?:[\w-]+\s+)?(?:app|application|command|subcommand|cli|tui|menu|page|screen|button|ui|output|table|endpoint|"
    r"server|program|prompt|dialog|form|view|component|summary|response|message|banner|modal|sidebar|header|footer|"
    r"widget|display|diff|report|game|bot|site|website|feature|option|flag))\s+(?:should|must|will|needs?\s+to|has\s+to|"
    r"shall)\s+(?:always|never|only|not|also)?\b",
    _I,
)


# "I'd like for chef Chopski to learn my tastes": a wish for what a product or a third party does
_EN_WISH_FOR_RE = lazy(
    r"^\W*(?:(?:also|and|so|but|ok|okay)\s*,?\s+)*i'?d\s+(?:like|love|want)\s+for\s+(?!(?:you|us|me|the\s+agent|claude|"
    r"codex|gemini|cursor|tests|all\s+tests|commits|prs|pull\s+requests|branches|docs)\b)",
    _I,
)
# "For example, …", "e.g. …": an illustration of something said around it
_EN_EXAMPLE_RE = lazy(r"^\W*(?:for\s+(?:example|instance)|e\.?g\.?|eg)\b", _I)


# "Never allow the user to submit twice", "it must redirect visitors to the login page": what the software does to the
# people who use it is a feature asked for, whoever the sentence's subject is
_EN_PRODUCT_ACT_RE = lazy(
    r"\b(?:always|never|must|should|shouldn'?t|needs?\s+to|ha(?:s|ve)\s+to|don'?t|do\s+not)\s+(?:not\s+)?"
    r"(?:allow|let|permit|force|prompt|notify|redirect|send|show|take|bring|lock|log\s+out)\s+(?:the\s+|a\s+|an\s+|our\s+|any\s+)?"
    r"(?:end\s+|new\s+|logged[\s-]in\s+)?(?:users?|visitors?|customers?|players?|members?|admins?|guests?|people|"
    r"students?|teachers?|buyers?|sellers?)\b"
    r"|\bnever\s+(?:show|display|render)\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+)?(?:button|menu|modal|popup|banner|"
    r"page|screen|tab|panel|field|input|label|tooltip|toast|icon|card|row|column|link)s?\b"
    # "dont allow calls to openai unless a flag is passed", "do not allow for installing codex": what the program permits
    r"|\b(?:don'?t|dont|do\s+not|never)\s+(?:allow|permit)\b(?!\s+(?:yourself|me|us)\b)",
    _I,
)
# "set ollama as default, dont allow calls to openai, turn off rate limits, use X as the default model": a list of
# changes to make in this piece of work, each clause a plain imperative; a rule among them says always / never / every
_EN_TODO_CLAUSE_RE = lazy(
    # ("stop pulling in X, write Y by hand": a habit ended is a rule, not a step of the work)
    r"(?:^|[,;]\s*(?:and\s+|then\s+)?)(?:please\s+)?(?!(?:don'?t|dont|do\s+not|never|always|no|please|make\s+sure|stop|quit)\b)"
    + _IMPERATIVE + r"\s",
    _I,
)
_EN_TODO_STANDING_RE = lazy(
    r"\b(?:always|never|every|whenever|each\s+time|any\s*time|from\s+now\s+on|going\s+forward|in\s+(?:this|our)\s+"
    r"(?:repo|repository|project|codebase))\b",
    _I,
)
_TODO_CLAUSES = 2


def _todo_list(sentence: str) -> bool:
    """Whether a sentence opens on a plain request and strings more on commas: the steps of the work at hand."""
    if sentence.count(",") + sentence.count(";") < _TODO_CLAUSES:
        return False
    opens = _EN_TODO_CLAUSE_RE.match(sentence.lstrip(" \t-*>(\"'"))  # the sentence itself opens on a request
    return opens is not None and len(_EN_TODO_CLAUSE_RE.findall(sentence)) >= _TODO_CLAUSES \
        and not _EN_TODO_STANDING_RE.search(sentence)
# "Create a script that always backs up the db first", "Implement retry logic: always retry 3 times": the spec of a
# thing to build, its behaviour in a relative clause or after the colon of the request
_EN_BUILD_SPEC_RE = lazy(
    r"^\W*(?:(?:please|pls|now|next|ok|okay|also|and|then)\s*,?\s+)*(?:can\s+you\s+|could\s+you\s+)?"
    r"(?:create|write|build|make|implement|generate|code|design|develop)\s+(?:me\s+|us\s+)?"
    # (a rule or a note to write holds the person's rule: "write a rule that we always lint first")
    r"(?!(?:an?|one|the|some)\s+(?:[\w./-]+\s+){0,2}?(?:rules?|guidelines?|instructions?|conventions?|polic(?:y|ies)|notes?|"
    r"memor(?:y|ies))\b)"
    r"(?:(?:an?|one|the|some)\s+(?:[\w./-]+\s+){0,3}?(?:that|which|who|so\s+that|to)\b|(?:[\w./-]+\s+){1,4}?[\w./-]+\s*:)",
    _I,
)
# ", always" / "every time" closing a sentence: the request itself is made a standing one
_EN_TRAILING_STANDING_RE = lazy(r"[,;—–]\s*(?:always|every\s+time|each\s+time|from\s+now\s+on|going\s+forward)\W*$", _I)
# "Keep going, don't stop after each subtask", "stop asking and just continue": a push to get on with the task at
# hand; what it forbids binds this run ("Continue to use pnpm" is a rule, not a push)
_EN_PUSH_ON_RE = lazy(
    r"^\W*(?:(?:ok|okay|yes|yep|great|good|cool|now|please|so|alright)\W+)*(?:keep\s+going|carry\s+on|go\s+on|proceed|"
    r"continue(?!\s+(?:to|using|with\s+using)\b))\b"
    r"|(?:,|\band|\bthen|\bjust)\s+(?:just\s+|please\s+)?(?:keep\s+going|continue|carry\s+on|go\s+on|proceed|"
    r"finish\s+(?:it|up|all|everything|the\s+\w+))\W*$"
    r"|\bstop\s+stopping\b",
    _I,
)
# "I prefer the second option", "go with option B", "the approach you suggested is better": an answer that picks
# one of the choices the agent offered for the task at hand
_EN_PICK_RE = lazy(
    r"\b(?:the\s+)?(?:first|second|third|fourth|last|latter|former|other|2nd|3rd)\s+(?:one|option|approach|version|"
    r"proposal|suggestion|choice|solution|variant|design|layout|idea)s?\b"
    r"|\boption\s+(?:[a-e1-9]|one|two|three|four)\b"
    r"|\b(?:you|claude|the\s+agent)\s+(?:just\s+)?(?:gave|suggested|proposed|listed|mentioned|offered|outlined|recommended)\b",
    _I,
)
# the trouble of the work at hand, named: "the real problem", "this bug", "your fix" (a diagnosis, a reply about it)
_TROUBLE_OF = r"(?:the|this|that|your|my|our)\s+(?:real\s+|actual\s+|main\s+|root\s+|only\s+)?"
_TROUBLE = (
    r"problem|issue|bug|error|cause|culprit|fix|difference|reason|question|point|goal|failure|crash|mistake|typo|change"
)
# "the problem is in the reducer, not the component", "the cause was the cache, not the network": a diagnosis of
# the bug at hand, not a fact that stays true
_EN_DIAGNOSIS_RE = lazy(
    r"^\W*(?:(?:actually|no|nope|ok|okay|so|but|and|hmm|well|i\s+think|i\s+guess|looks\s+like)\s*,?\s+)*"
    + _TROUBLE_OF + r"(?:leak|regression|breakage|" + _TROUBLE + r")s?\b",
    _I,
)


# "I'll manage the server, no need to do that yourself": what the person keeps is an arrangement for the agent
_EN_YOU_NEED_NOT_RE = lazy(r"\bno\s+need\s+(?:for\s+you\s+)?to\b|\byourself\b|\byou\s+don'?t\s+(?:need|have)\s+to\b", _I)


# A sentence in another language written in Latin letters (French, Spanish, Portuguese, Italian, German, Turkish):
# an English cue inside it (a setting's value "always" in a French sentence, a Spanish answer opening on "No,") is a
# word borrowed or quoted, not an English rule. Two of these function words, or of words with a dotless ı, tell it;
# English has none of them.
_EN_FOREIGN_WORDS = frozenset(
    "le la el il les des est une dans pour avec nous vous sont mais cette aux très être peut los las con para una del por "
    "que esto está pero muy não uma com você isso também agora della sono questo anche perché und nicht mit ist das "
    "ein eine auf für ich wir bitte oder auch wenn için bir ile olarak gibi daha çok".split()
)
_EN_FOREIGN_SIGNS = 2
_EN_WORD_RE = lazy(r"\w+")


def _foreign(sentence: str) -> bool:
    """Whether a sentence is written in another language in Latin letters (see ``_EN_FOREIGN_WORDS``): two of its
    words are those function words or hold a dotless ı (each counted where it stands)."""
    words = _EN_WORD_RE.findall(sentence)
    found = sum(map(_EN_FOREIGN_WORDS.__contains__, words))
    if "ı" in sentence:
        found += sum("ı" in word for word in words)
    return found >= _EN_FOREIGN_SIGNS


# An agent's reply pasted into the turn, in English: it opens on what it looked at and what it saw ("Looking at the
# stack trace you sent, I can see …", after the person's own lead-in and a colon too) and goes on to say what
# it will do ("Let me …", "Here's the fix", "Let's fix that"). Its rules ("Use X instead of Y") are the agent's
# proposal, not the person's.
_EN_AGENT_REPLY_RE = lazy(
    r"(?m)(?:^|(?<=:\s))[ \t]*Looking\s+at\s+[^\n]{1,160}?[,.]\s+(?:I\s+(?:can\s+|also\s+)?(?:see|notice|spot)|"
    r"the\s+(?:first|issue|problem|error|root)\b)"
)
_EN_AGENT_GOES_ON_RE = lazy(r"\bLet\s+me\b|\bHere(?:'s|\s+is)\s+(?:the|how|what)\b|\bLet's\s+(?:fix|update|modify|change|add)\b")


def agent_reply_start(text: str) -> int | None:
    """Where an agent's reply pasted into the turn starts (see ``_EN_AGENT_REPLY_RE``), or None."""
    if "Looking at" not in text:
        return None
    reply = _EN_AGENT_REPLY_RE.search(text)
    if reply is None or _EN_AGENT_GOES_ON_RE.search(text, reply.end()) is None:
        return None
    return reply.start()


# Signs that a sentence states no rule at all, in the order they are tried, each with whether it reads the core
# (the sentence without its trailing punctuation) rather than the whole sentence.
_EN_REFUSALS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (_EN_QUESTION_RE, True), (_EN_NEGATED_RE, False), (_EN_REPORTED_RE, False), (_EN_HYPOTHETICAL_RE, False),
    (_EN_ASSISTANT_RE, False), (_EN_HEDGE_RE, False),
)


def carries_over(before: str, clause: str, sentence: str) -> bool:
    """Whether words before ``clause`` of ``sentence`` reach into it: a report, a hypothetical, "never mind" (a
    question or a hedge stays in its own clause)."""
    return bool(_EN_NEGATED_RE.search(before) or _EN_REPORTED_RE.search(before) or _EN_HYPOTHETICAL_RE.search(before))


def vetoes(sentence: str, core: str) -> frozenset[str]:
    """Kinds an English cue in ``sentence`` rules out (``core``: the sentence without its trailing punctuation)."""
    into = _INTO_FILE_RE.match(core) if "." in core and "md" in core.lower() else None
    if into is None and "rule" in core.lower():
        into = _INTO_RULE_RE.match(core)
        if into is not None:  # "can you update the rule to make sure that X?" asks for X to be kept: no question
            sentence, core = sentence.rstrip(" ?"), core.rstrip(" ?")
    if into is not None:  # "can you update CLAUDE.md that …": the rule after "that" is what is judged
        sentence, core = sentence[into.end():], core[into.end():]
    if any(pattern.search(core if on_core else sentence) for pattern, on_core in _EN_REFUSALS) or _foreign(sentence):
        return EVERYTHING
    if _EN_I_WILL_RE.search(sentence) and not _EN_YOU_NEED_NOT_RE.search(sentence):
        return frozenset({"instruction"})  # a promise of the speaker's, not a rule for the agent
    if (_EN_PRODUCT_SUBJECT_RE.match(sentence) or _EN_WISH_FOR_RE.match(sentence) or _EN_PRODUCT_ACT_RE.search(sentence)
            or (_EN_BUILD_SPEC_RE.match(sentence) and not _EN_TRAILING_STANDING_RE.search(sentence))):
        return frozenset({"instruction", "preference"})  # how the software behaves: a feature request
    if _EN_PUSH_ON_RE.search(sentence) or _todo_list(sentence):
        return frozenset({"instruction"})  # get on with this task, or a list of its steps
    if _EN_PICK_RE.search(sentence):
        return frozenset({"instruction", "preference"})  # a choice among the agent's options for this task
    if _EN_DIAGNOSIS_RE.match(sentence):
        return frozenset({"correction"})  # where this bug lies
    if _EN_EXAMPLE_RE.match(sentence):
        return EVERYTHING  # an example of something, not the rule itself
    return frozenset()



# what opens a clause that stands apart from a one-off request before it:
# "Skip the tests this time, but from now on run lint before pushing"
CONNECTOR = r"(?:but|and|also|though|however|otherwise|generally|in\s+general|that\s+said)\b"


# What a stable fact of the project or the setup names, one of which a correction must hold: a name in code, a path, a
# version, a setup word ("the port", "the default branch", "ids"), a tool or a product named with a capital ("Postgres",
# "Vitest", "ULIDs"); and what feedback on the output names instead: the screen's parts and the figures of the task
# ("No, the line separator needs to align between the cards", "That is wrong. Trust should be around 4.6MM").
_EN_FACT_ANCHOR_RE = lazy(
    r"`[^`]+`|[\w.~-]*/[\w./~-]+|\b\w+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|sh|go|rs|rb|java|kt|lock|env|cfg|ini|sql)\b"
    r"|\bv?\d+\.\d+|\b[a-z]+(?:-[a-z0-9]+)*-\d+[a-z]?\b|\b[a-z]+_[a-z_]+\b|\d{2}:\d{2}"
    r"|(?<!^)(?<![.!?]\s)\b(?:[A-Z][a-z]{2,}\w*|[A-Z]{2,}s?)\b"
    r"|\b(?:to|into|from|on|off|targets?)\s+(?:main|master|develop|trunk)\b|\b(?:main|master|develop|trunk)\s+branch\b"
    # a choice made on purpose is a fact that stands ("no, we removed the session commands on purpose")
    r"|\b(?:on\s+purpose|deliberately|intentionally|by\s+design)\b"
    r"|\b(?:ports?|branch(?:es)?|versions?|database|db|schema|shell|os|runtime|framework|librar(?:y|ies)|packages?|"
    r"dependenc(?:y|ies)|modules?|repo|repository|monorepo|director(?:y|ies)|dirs?|folders?|paths?|env|environment|config|"
    r"configuration|settings|ids?|uuids?|ulids?|integers?|strings?|types?|keys?|endpoints?|api|cli|commands?|server|services?|"
    r"cluster|region|host|domain|cron|jobs?|workers?|pipeline|ci|deploy(?:s|ment)?|runner|tests?|linter|formatter|compiler|"
    r"builds?|timezone|encoding|format|license|default|production|prod|staging|local(?:ly)?|machine|laptop|tools?|"
    r"middleware|migrations?|orm|auth|"
    r"npm|pnpm|yarn|bun|pip|uv|poetry|conda|pixi|bash|zsh|fish|git|make|cargo|node|deno|python|docker|helm|terraform)\b",
)
_EN_SCREEN_OR_FIGURE_RE = lazy(
    r"\b(?:buttons?|pages?|modals?|screens?|cards?|layout|header|footer|sidebar|menus?|colou?rs?|fonts?|icons?|margins?|"
    r"padding|align(?:ed|ment)?|ui|ux|dropdowns?|tabs?|separators?|pixels?|px|totals?|around|sum|amounts?|cells?|rows?)\b"
    # two of the run's figures set side by side: "the 0.41 vs 0.27 spread is noise, not a bug"
    r"|\d[\w%]*\s*(?:vs\.?|versus)\s*\.?\d",
    _I,
)


def stable_fact(claim: str) -> bool:
    """Whether a correction's claim names a stable fact of the project or the setup rather than the output at hand."""
    return _EN_FACT_ANCHOR_RE.search(claim) is not None and _EN_SCREEN_OR_FIGURE_RE.search(claim) is None


def has_claim(core: str) -> bool:
    """Whether English words after a correction cue restate a fact, not an action ("No, fix it")."""
    if len(core.split()) < 2 or _EN_EMPTY_CLAIM_RE.search(core) or _EN_REQUEST_START_RE.match(core):
        return False
    if not stable_fact(core):
        return False
    if _EN_CHANGE_ASKED_RE.match(core) or (_EN_TASK_TALK_RE.match(core) and not _EN_CONTRAST_RE.search(core)):
        return False
    return bool(_EN_CLAIM_RE.search(core))


# What follows "No," or "that's wrong" in a reply about the work at hand, not a fact of the project: a thing pointed
# at ("it's the second one", "that function is called from two places", "those are two different bugs"), the
# task's own trouble ("the issue is that …"), what is needed or meant now ("we need to handle the empty case too",
# "I meant the other one"), or how the output looks ("the page is blank now", "the new version is worse"). A
# contrast keeps its fact ("No, it's Postgres, not MySQL"); "this repo uses pnpm" names the project.
_EN_TASK_TALK_RE = lazy(
    r"\W*(?:(?:it|that|this|those|these|they|there|here)(?:'s|'re|\s|$)(?!\s*(?:repo|repository|project|codebase|"
    r"monorepo|team|company|org|machine|laptop|computer|box)\b)"
    r"|" + _TROUBLE_OF + r"(?:idea|plan|" + _TROUBLE + r")s?\b"
    r"|(?:we|i|you)\s+(?:(?:still|also|just|really|only|actually)\s+)?(?:need|want|wanted|meant|mean|think|thought|"
    r"don'?t\s+(?:need|want)|do\s+not\s+(?:need|want)|have\s+to|should|must|can|could)\b"
    r"|[^.!?]*\b(?:is|are|looks?|seems?)\s+(?:still\s+|now\s+|even\s+|much\s+|a\s+lot\s+)?(?:blank|empty|broken|"
    r"worse|better|off|gone|slower|faster|same|different|fine|ok|okay|weird|ugly|wrong|no\s+good|not\s+good|bad)\b"
    # "No, in cells AF39 … you will see a subtraction": where to look in the work at hand
    r"|[^.!?]*\byou(?:'ll|\s+will|\s+can|\s+should)\s+(?:see|find|notice)\b|\W*in\s+(?:cells?|rows?|columns?|line|lines)\b"
    r"|[^.!?]*\bnow\W*$)",
    _I,
)
_EN_CONTRAST_RE = lazy(r"[,;]\s*not\s+\S|\bnot\s+\S+\s*[,;]|\binstead\s+of\b|\brather\s+than\b", _I)


# "remember", "from now on": the person asks for the claim to be kept
STATED = (
    r"\b(?<!i\s)(?<!you\s)(?<!we\s)(?<!n't\s)(?<!not\s)(?<!to\s)remember\b(?!\s+(?:when|how|why|what|if|whether|where|which)\b)"
    r"|\b(?:keep|bear)\s+(?:this\s+|that\s+|it\s+)?in\s+mind\b|\b(?:don'?t|do\s+not|never)\s+forget\b"
    r"|\bfrom\s+now\s+on\b|\b(?:going|moving)\s+forward\b(?!\s+with)|\bhenceforth\b|\bfrom\s+here\s+on\b"
    r"|\bfor\s+future\s+reference\b|\bnote\s+to\s+self\b|\bmake\s+a\s+note\b"
    r"|\b(?:commit|save|add)\s+(?:this|that|it)\s+to\s+(?:your\s+)?memory\b"
)
# one of these occurs wherever STATED matches (a word each of its branches needs)
STATED_CUES = r"remember|mind|forget|from|forward|henceforth|future|note|memory"

# A short line ending in ":" that makes the bullets under it durable ("From now on:").
HEADERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (lazy(r"\bfrom\s+now\s+on\b|\bfrom\s+here\s+on\b|\bhenceforth\b", _I), "en.instruction.from_now_on"),
    (lazy(r"\b(?:going|moving)\s+forward\b|\bin\s+(?:the\s+)?future\b", _I), "en.instruction.going_forward"),
    (lazy(r"\b(?:in|for)\s+(?:this|our)\s+(?:project|repo|repository|codebase|monorepo)\b", _I),
     "en.instruction.in_this_project"),
    (lazy(r"^\W*(?:please\s+)?(?:remember|keep\s+in\s+mind)\b", _I), "en.instruction.remember"),
    (lazy(r"^\W*always\W*$", _I), "en.instruction.always"),
    (lazy(r"^\W*never\W*$", _I), "en.instruction.never"),
)
