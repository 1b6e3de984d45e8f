"""Text the person pasted rather than said, told apart from what they typed.

A screen of an agent or a terminal, a review bot's finding, diff lines, a checklist, a template, a prompt written for
another model or laid out as labelled lists, a rule file with its front matter, an injected tag block, a markdown
document, the agent's words quoted back: ``pasted_reason`` names the first such material a turn holds, ``unpasted``
blanks it (offsets kept, so a marker's text is always the person's own words). Each check runs only where its cue
occurs, so plain turns pay nothing. Standard library only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import rules_en, rules_ja, rules_zh
from .rule import lazy

__all__ = ["header_rule", "pasted_from", "pasted_reason", "unpasted"]

# A short line ending in ":" that makes the bullets under it durable ("From now on:").
_HEADER_RULES: tuple[tuple[re.Pattern[str], str], ...] = (*rules_en.HEADERS, *rules_ja.HEADERS, *rules_zh.HEADERS)
_HEADER_END_RE = lazy(r"[:：]\s*$")


def header_rule(sentence: str) -> str | None:
    """The rule a header line the person typed opens ("From now on:"), or None: its bullets are theirs, not a
    pasted section's."""
    if not _HEADER_END_RE.search(sentence) or len(sentence) > 80:
        return None
    for pattern, rule_id in _HEADER_RULES:
        if pattern.search(sentence):
            return rule_id
    return None


# Text the person pasted rather than said: an agent's or a terminal's screen (❯ or › prompt, ● and ⎿ tool lines, └
# under a command, box drawing), a review bot's finding ("Medium Severity", "Suggested fix:"), a hook's message, or diff lines. What
# follows a screen is blanked to the end of the turn, a review leaves only the lead-in line, diff lines go alone.
_SCREEN_LINE_RE = lazy(r"(?m)^[ \t]*[❯›●⎿└✻⏺▐╭╰│▝▘]")
# a shell's prompt opening a line: "PS C:\Users\me> adb devices", "user@host:~/app$ make" (a pasted terminal session),
# with the environment it runs in ("(venv) user@host:~$ …"), or pasted straight after the person's own words in the same
# line (「你能让它下载吗，(ai) me@box:~/work$ gemini --help」)
_SHELL_PROMPT_RE = lazy(r"(?m)(?:^|(?<=[，。：；！？、]))[ \t]*(?:\([\w.-]+\)[ \t]*)?"
                        r"(?:PS [A-Za-z]:\\[^\n>]*>[ \t]+|[\w.-]+@[\w.-]+:[~/][^\n$#]*[$#] [ \t]*)\S")


def _shell_cue(text: str) -> bool:
    """Whether what a shell's prompt needs occurs at all (substring tests: most turns have none of it)."""
    return ("PS " in text and ":\\" in text) or ("@" in text and ("$ " in text or "# " in text))


_REVIEW_RE = lazy(
    r"\b(?:(?:Low|Medium|High|Critical)\s+Severity|Suggested\s+fix:|Useful\?\s+React\s+with|Verdict:|"
    r"Reviewer:|\(Should\s+Fix\)|Operation\s+stopped\s+by\s+hook)"
)
_DIFF_LINE_RE = lazy(r"(?m)^[+-][ \t]{3,}\S.*$")  # (a bullet has one space: "- item")
# a diff line as an agent's screen shows it, indented under its line number: "      24 +# imports are declared"
_NUMBERED_DIFF_LINE_RE = lazy(r"(?m)^[ \t]{3,}\d{1,5} [+-].*$")
# whether there is one: the turn's first line, then each line break (a literal first, which the regex engine finds in
# C, where "^" in multi-line mode is tried at every character)
_NUMBERED_DIFF_FIRST_RE = lazy(r"[ \t]{3,}\d{1,5} [+-]")
_NUMBERED_DIFF_NEXT_RE = lazy(r"\n[ \t]{3,}\d{1,5} [+-]")
# A checklist ("- [ ] Always run lint" and more items) comes from a PR or prompt template, not from the person's own
# rules; one box alone may be the person's own to-do line.
_CHECKLIST_ITEMS = 2
_CHECKBOX_RE = lazy(r"(?m)^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[[ xX]\][ \t].*$")
# A template's placeholders ("{{file}}", "$ARGUMENTS", "{FEATURE_NAME}", "[PROJECT NAME]"): the whole turn is a
# prompt file pasted or expanded, its rules are the template author's.
_TEMPLATE_RE = lazy(r"\{\{\s*[\w.-]+\s*\}\}|\$ARGUMENTS\b|\{[A-Z][A-Z0-9_]{2,}\}|\[[A-Z][A-Z0-9_]*(?: [A-Z0-9_]+)+\]")
# A prompt written for another model, pasted whole: "You are Prep Chef GPT — …", "ROLE: …", "YOUR TASKS:". What
# follows its first line is that prompt's rules, not the person's.
_PROMPT_RE = lazy(
    r"(?m)^[ \t]*(?:You\s+are\s+(?:an?\s+|the\s+|now\s+|acting\s+as\s+|[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*\s+"
    r"(?:GPT|Bot|AI|Assistant|Agent)\b)|(?:ROLE|YOUR\s+TASKS?|OBJECTIVE|PERSONA|SYSTEM\s+PROMPT)\s*:"
    # a tool's prompt to a model, opening on the format of its answer: "Return either one or more <observation> blocks"
    r"|(?:Return|Respond\s+with|Reply\s+with|Output)\s+(?:only\s+|either\s+|exactly\s+)?(?:one\s+or\s+more\s+|an?\s+|the\s+)?"
    r"(?:<[a-z]|JSON\b|XML\b|valid\s+(?:JSON|XML|YAML)))"
)
# A prompt or rule file pasted whole, front matter and all ("---\ndescription: …\nglobs: …\n---"): its rules are the file's.
_FRONT_MATTER_RE = lazy(r"(?m)^---[ \t]*\n(?:[ \t]*[\w-]+[ \t]*:[^\n]*\n){1,12}---[ \t]*$")
# A block a tool or a client injected into the turn: <system-reminder>…</system-reminder>, <reminder>, <context>
_TAG_BLOCK_RE = lazy(r"<([a-z][a-z0-9_-]*)(?:\s[^<>\n]*)?>[\s\S]*?</\1>")  # (<steps CRITICAL="TRUE">…</steps> too)
# A document written in markdown (an agent's summary, a plan, a task spec): a heading, a bold label ("**Root cause:**",
# "- **Files**:"), a table row or a status emoji opening a line. People type prose; these are pasted, and what
# follows the first one is blanked to the end of the turn (the person's own lead-in above it is kept). A shouted
# word in bold ("**NEVER** run …", "**IMPORTANT:** …") is the person's emphasis, not a label.
_DOC_LINE_RE = lazy(
    r"(?m)^[ \t]*(?:#{1,6}[ \t]+\S|(?:[-*+][ \t]+|\d+[.)][ \t]+)?\*\*(?![A-Z]+:?\*\*)[^*\n]{2,60}(?:\*\*[ \t]*:|:\*\*)"
    r"|\|[^\n]*\|[ \t]*$|[\u2705\u274c\u26a0\U0001F527\U0001F3AF\U0001F4CB\U0001F680\u2728\U0001F4A1\U0001F50D\U0001F4DD"
    r"\U0001F7E2\U0001F534])"
)
# The agent's words quoted back to it ("you wrote: …", "Claude said:"): the rest of that line, or, when the colon
# ends the line, the paragraph under it, is the agent's text, not the person's.
_QUOTED_AGENT_RE = lazy(
    r"(?im)\b(?:you|claude|cursor|codex|gemini|the\s+(?:agent|assistant|ai|model))(?:'ve|\s+have|\s+just)?\s+"
    r"(?:wrote|said|say|mentioned|suggested|claimed|stated|proposed|replied|answered|recommended|concluded)\s*:"
    r"(?:[ \t]*\S[^\n]*|[ \t]*\n(?:[ \t]*\S[^\n]*(?:\n|$))*)"
)
_QUOTING_VERBS = ("wrote", "said", "say", "mentioned", "suggested", "claimed", "stated", "proposed", "replied", "answered",
                  "recommended", "concluded")
# opens on the colon, so the regex engine skips in C to the few colons and looks behind each for a verb
_QUOTING_COLON_RE = lazy(":(?:" + "|".join(f"(?<={v}:)|(?<={v} :)" for v in _QUOTING_VERBS) + ")", re.IGNORECASE)


def _quotes_agent(text: str) -> bool:
    """Whether the turn quotes the agent back ("you wrote: …", "Claude said:")."""
    return ":" in text and _QUOTING_COLON_RE.search(text) is not None and _QUOTED_AGENT_RE.search(text) is not None


_DOC_EMOJI_RE = lazy(r"[\u2705\u274c\u26a0\u2728\U0001F4A1-\U0001F7E2]")


def _doc_cue(text: str) -> bool:
    """Whether a character a markdown document line needs occurs at all (substring tests; the emoji only past ASCII)."""
    return "#" in text or "**" in text or "|" in text or (not text.isascii() and _DOC_EMOJI_RE.search(text) is not None)
_ASKS_INTO_RULES_RE = rules_en.LIST_INTO_RULES_RE
_PASTE_CUES = ("❯", "\n›", "└", "●", "⎿", "✻", "⏺", "▐", "╭", "╰", "│", "▝", "▘", "Severity", "Suggested", "React with",
               "Verdict", "Reviewer", "Should Fix", "stopped by hook", "\n+  ", "\n-  ", "\n+\t", "\n-\t")
# one pass over the turn says whether any check can fire; each check then has its own cue, so a turn with a brace
# or a bracket runs one regex, not all of them
_PASTE_CUE_RE = lazy("|".join(re.escape(cue) for cue in _PASTE_CUES))
# what a line opening the turn shows of a screen or a diff (the cues above find those lines after a newline; Codex's
# prompt › opens a line, where a test runner's "✓ suite › case" has it inside one)
_PASTED_OPENINGS = ("+  ", "-  ", "+\t", "-\t", "›")


def _paste_cue(text: str) -> bool:
    """Whether a screen's, a review's or a diff's cue occurs in the turn (each check has its own regex after it)."""
    return _PASTE_CUE_RE.search(text) is not None or text.startswith(_PASTED_OPENINGS)


def _template_cue(text: str) -> bool:
    """Whether a character a template's placeholder opens with occurs (substring tests, faster than a regex's set)."""
    return "{" in text or "[" in text or "$" in text


_CHECKBOX_CUE = r"\[[ xX]\]"
_CHECKBOX_CUE_RE = lazy(_CHECKBOX_CUE)
_PROMPT_CUE = r"You are|ROLE|YOUR TASK|OBJECTIVE|PERSONA|SYSTEM PROMPT|Return|Respond|Reply|Output"
_PROMPT_CUE_RE = lazy(_PROMPT_CUE)
# the three cues above in one pass: most turns hold none of them, and one search over the turn says so
_SCREEN_PROMPT_OR_BOX_CUE_RE = lazy("|".join((*(re.escape(cue) for cue in _PASTE_CUES), _PROMPT_CUE, _CHECKBOX_CUE)))


# A prompt written for a model as sections, each a label line over its list ("Core constraint:\n- …", "Usage
# notes:\n- …", "Document Requirements\n\n- …": a label without a colon stands over a blank line): two such sections
# are a prompt file or a command pasted or expanded into the turn, and its rules are its author's. A durable header
# ("From now on:") is the person's own and no section.
_SECTION_RE = lazy(
    r"(?m)^[ \t]*(?:[A-Z][\w'&/() -]{1,48}:[ \t]*\n(?:[ \t]*\n)?"
    r"|\(?[A-Z][\w'&/()-]*,?(?:[ \t]+[\w'&/()-]+,?){1,6}[ \t]*\n[ \t]*\n)"
    r"[ \t]*(?:[-*•]|\d+[.)])[ \t]+\S"
)
_SECTIONS = 2
# the list item opening the line after a section's label: a section's match ends on one, each on a line of its own
_ITEM_LINE_RE = lazy(r"\n[ \t]*(?:[-*•]|\d+[.)])[ \t]+\S")


@lru_cache(maxsize=4)  # asked of a turn by ``pasted_reason``, then again by ``_unpasted``
def _prompt_sections(text: str) -> re.Match[str] | None:
    """The first section of a prompt written as two or more labelled lists, or None."""
    # a label ends in a colon or stands over a blank line: a turn without two of these has no two sections
    if text.count(":\n") + text.count("\n\n") < _SECTIONS:
        return None
    # nor without two list items on lines of their own (one regex that skips in C from line break to line break,
    # where finding the sections tries every line's start, and reading a line of prose as a title backtracks)
    if len(_ITEM_LINE_RE.findall(text)) < _SECTIONS:
        return None
    first: re.Match[str] | None = None
    count = 0
    for section in _SECTION_RE.finditer(text):
        if header_rule(section.group(0).split("\n", 1)[0].strip()) is not None:
            continue
        first = first or section
        count += 1
        if count >= _SECTIONS:
            return first
    return None


# A section of a document or a spec pasted without markdown: a title line ("Requirements", "Code Review Checklist",
# "Spec-Driven Approach", "Authentication") over two or more lines of its own. A title is a few words without a
# sentence's punctuation, in Title Case or ending on a word documents head their sections with; what follows it is
# the document's, not the person's (a durable header, "From now on:", is theirs). A web page pointed at by its address
# ("did you read this? https://…") and then quoted is pasted the same way.
_TITLE_WORDS = frozenset(
    "requirements requirement guidelines guideline rules constraints checklist overview summary features notes "
    "instructions conventions standards principles approach workflow usage setup installation configuration "
    "authentication practices description context background goals scope criteria tasks steps examples example "
    "assurance testing security performance architecture deployment limitations considerations objectives "
    "responsibilities policy policies specification specifications spec".split()
)
_TITLE_LINE_RE = lazy(r"^[ \t]*(?P<title>[A-Za-z][\w'&/()-]*(?:[ \t]+[\w'&/()-]+){0,4})[ \t]*:?[ \t]*\r?$")
# the sections of a Japanese or Chinese spec: 「要件」「機能：」「需求」
_CJK_TITLES = r"【?(?:機能)?(?:要件|仕様|機能|要求|制約|前提|概要|目的|背景|受け入れ条件|需求|功能|规格|規格|验收标准|驗收標準)】?"
_CJK_TITLE_RE = lazy(r"^[ \t]*" + _CJK_TITLES + r"[ \t]*[:：]?[ \t]*\r?$")
_SENTENCE_ENDS = frozenset(".!?。！？,;，；、")
# an address closing its line, and the words on that line that point at the page
# (a local address is the person's own app, no page to quote)
_LINE_END_URL_RE = lazy(r"https?://(?!localhost|127\.0\.0\.1|0\.0\.0\.0)\S+[ \t]*\r?(?=\n)")
_POINTING_RE = lazy(r"\b(?:read|see|check|look\s+at|docs?|documentation|article|says?|according\s+to)\b", re.IGNORECASE)
_MIN_SECTION_LINES = 2
_MIN_QUOTED_CHARS = 80


def _is_title(line: str) -> bool:
    """Whether a line reads as a document's section title (not a rule, not a sentence, no durable header)."""
    m = _TITLE_LINE_RE.match(line)
    if m is None:
        return _CJK_TITLE_RE.match(line) is not None
    words = m.group("title").split()
    last = words[-1].lower().strip("()")
    # (a line in capitals is shouted, "YOUR CATCHPHRASE IS:", not a title in Title Case)
    title_case = len(words) >= 2 and all(w[:1].isupper() for w in words) and not m.group("title").isupper()
    if last in _TITLE_WORDS and words[-1][:1].isupper() or title_case:
        return header_rule(line.strip().rstrip(":") + ":") is None
    return False


@lru_cache(maxsize=4)  # asked of a turn by ``pasted_reason``, then again by ``unpasted``
def _titled_section(text: str) -> int | None:
    """Where a pasted section's title line starts (see ``_TITLE_WORDS``), or None: a short title line, then (after at
    most one blank line) two lines of text, the first of them no title itself."""
    if text.count("\n") < _MIN_SECTION_LINES:
        return None
    lines = text.split("\n")
    at = 0
    for i, line in enumerate(lines):
        # (a line over 60 characters, one that ends a sentence or one all in lower case is no title: most lines fail
        # here, before any regex; a Japanese or Chinese title has no case and goes on)
        if 0 < len(line) <= 60 and line[-1] not in _SENTENCE_ENDS and not line.islower() and _is_title(line):
            j = i + 1 if i + 1 < len(lines) and lines[i + 1].strip() else i + 2
            if j + 1 < len(lines) and lines[j].strip() and lines[j + 1].strip() and not _is_title(lines[j]):
                return None if _ASKS_INTO_RULES_RE.search(text) else at
        at += len(line) + 1
    return None


def _pointed_page(text: str) -> int | None:
    """Where the text quoted from a web page the person points at begins (the line after its address), or None."""
    if "http" not in text:
        return None
    for url in _LINE_END_URL_RE.finditer(text):
        if _POINTING_RE.search(text, text.rfind("\n", 0, url.start()) + 1, url.start()) is None:
            continue
        rest = text[url.end() :]
        if rest.count("\n") >= 2 and len(rest.strip()) >= _MIN_QUOTED_CHARS and not _ASKS_INTO_RULES_RE.search(text):
            return url.end()
        return None
    return None


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with ``[start, end)`` turned to spaces, line breaks kept (so every offset still holds)."""
    # (a line at a time: a regex substituting each character made a long pasted tail dear)
    blanked = "\n".join(" " * len(line) for line in text[start:end].split("\n"))
    return text[:start] + blanked + text[end:]


def pasted_reason(text: str) -> str:
    """Why (part of) a turn reads as pasted rather than said, or "" when it does not."""
    if _shell_start(text) is not None:
        return "pasted terminal or agent screen"
    eager = _eager_reason(text)
    if eager:
        return eager
    if _titled_section(text) is not None:
        return "pasted document section"
    if _pointed_page(text) is not None:
        return "pasted web page"
    if rules_zh.reply_to_user_start(text) is not None or rules_en.agent_reply_start(text) is not None:
        return "pasted assistant replies"
    return ""


def _eager_reason(text: str) -> str:
    """``pasted_reason`` of the material ``unpasted`` blanks before a turn is split: what a cue in the turn points at."""
    cued = _SCREEN_PROMPT_OR_BOX_CUE_RE.search(text) is not None
    if (cued and _PASTE_CUE_RE.search(text)) or text.startswith(_PASTED_OPENINGS):
        if _SCREEN_LINE_RE.search(text):
            return "pasted terminal or agent screen"
        if _REVIEW_RE.search(text):
            return "pasted review finding"
        if _DIFF_LINE_RE.search(text):
            return "pasted diff"
    if (" +" in text or " -" in text) and (_NUMBERED_DIFF_FIRST_RE.match(text) or _NUMBERED_DIFF_NEXT_RE.search(text)):
        return "pasted diff"
    if _template_cue(text) and _TEMPLATE_RE.search(text):
        return "pasted template"
    if "---" in text and _FRONT_MATTER_RE.search(text):
        return "pasted prompt file"
    if cued and _PROMPT_CUE_RE.search(text) and _PROMPT_RE.search(text):
        return "pasted prompt"
    if cued and _CHECKBOX_CUE_RE.search(text) and len(_CHECKBOX_RE.findall(text)) >= _CHECKLIST_ITEMS:
        return "pasted checklist"
    if "\n" in text and _prompt_sections(text) is not None:
        return "pasted prompt"
    if "</" in text and _TAG_BLOCK_RE.search(text):
        return "injected tag block"
    if _doc_cue(text) and _DOC_LINE_RE.search(text):
        return "pasted markdown document"
    if _quotes_agent(text):
        return "the agent's words quoted back"
    return ""


def unpasted(text: str) -> str:
    """The turn with what the person pasted blanked (offsets kept): see ``pasted_reason``; what ``pasted_from`` finds
    is left to the engine, which asks only of a turn that yielded a marker.

    Each check runs only where its cue occurs in the turn as given (blanking removes characters, never adds one).
    """
    if not _eager_reason(text):
        return text
    if _paste_cue(text):
        screen = _SCREEN_LINE_RE.search(text)
        if screen is not None:
            text = _blank(text, screen.start(), len(text))
        review = _REVIEW_RE.search(text)
        if review is not None:
            first_line = text.find("\n")
            lead_end = first_line if 0 <= first_line < review.start() else 0
            text = _blank(text, lead_end, len(text))
    if "+" in text or "-" in text:
        for diff in [*_DIFF_LINE_RE.finditer(text), *_NUMBERED_DIFF_LINE_RE.finditer(text)]:
            text = _blank(text, diff.start(), diff.end())
    if (_template_cue(text) and _TEMPLATE_RE.search(text)) or ("---" in text and _FRONT_MATTER_RE.search(text)):
        return _blank(text, 0, len(text))
    if _PROMPT_CUE_RE.search(text):
        prompt = _PROMPT_RE.search(text)
        if prompt is not None:
            text = _blank(text, prompt.start(), len(text))
    sections = _prompt_sections(text)
    if sections is not None:
        text = _blank(text, sections.start(), len(text))
    boxes = list(_CHECKBOX_RE.finditer(text)) if _CHECKBOX_CUE_RE.search(text) else []
    tags = list(_TAG_BLOCK_RE.finditer(text)) if "</" in text else []
    for pasted in (*(boxes if len(boxes) >= _CHECKLIST_ITEMS else ()), *tags):
        text = _blank(text, pasted.start(), pasted.end())
    if _doc_cue(text):
        document = _DOC_LINE_RE.search(text)
        if document is not None:
            text = _blank(text, document.start(), len(text))
    if _quotes_agent(text):
        for quoted in list(_QUOTED_AGENT_RE.finditer(text)):
            text = _blank(text, quoted.start(), quoted.end())
    return text


def pasted_from(text: str) -> int | None:
    """Where the rest of a turn is pasted, by the checks no single cue word can skip (a shell's prompt, a titled
    section, a web page quoted under its address, an assistant's replies to its own user or an agent's reply in
    English): the earliest of them, or None. Dearer than ``unpasted``'s checks, it is asked only of a turn that
    yielded a marker, whose markers from there on are dropped."""
    starts = [start for start in (_shell_start(text), _titled_section(text), _pointed_page(text),
                                  rules_zh.reply_to_user_start(text), rules_en.agent_reply_start(text))
              if start is not None]
    return min(starts) if starts else None


def _shell_start(text: str) -> int | None:
    """Where a shell session pasted with its prompts starts, or None."""
    if not _shell_cue(text):
        return None
    shell = _SHELL_PROMPT_RE.search(text)
    return None if shell is None else shell.start()
