"""A claim's frame: what a person says to do or not to do, whatever the words they said it in.

People repeat a rule in other words: "Use httpx instead of requests", "Don't use requests, use httpx",
"prefer httpx over requests". The frame reads a wording as clauses, keeps the ones that state the rule
(a reason — "the hook does it now", 「CI で回るので」 — is not the rule), and reduces each to a polarity
and a set of canonical content words: verbs folded into classes (prefer / go with / switch to → use;
execute → run; modify / touch → edit), nouns and verbs to one form (committing / commits → commit),
"pull request" → pr, and the words that carry no rule dropped (modals, "directly", "every time",
"is fine", where a rule puts a thing: "go in", "live under", "put in"). A later clause with the other
polarity and the same verb is the rule's alternative: "Don't use requests, use httpx" is "use httpx,
not requests". Word order is not identity: the key's words are sorted.

Tables and small functions only; ``key.claim_key`` runs them. Standard library only.
"""

from __future__ import annotations

import re
from typing import Any

# the verbs of one class say one thing; the class's first word stands for all of them
_VERB_CLASSES = {
    "use": "use using used uses prefer prefers preferred preferring utilize utilise employ choose pick favor favour"
           " shop rely",
    "run": "run runs running ran execute executes executing executed invoke invokes invoking invoked"
           " listen listens listening listened",
    "edit": "edit edits editing edited modify modifies modifying modified change changes changing changed touch"
            " touches touching touched alter alters altering altered tweak tweaks tweaking tweaked",
    "delete": "delete deletes deleting deleted remove removes removing removed erase erases erasing erased",
    "commit": "commit commits committing committed commiting",
    "push": "push pushes pushing pushed",
    "merge": "merge merges merging merged",
    "deploy": "deploy deploys deploying deployed ship ships shipping shipped",
    "target": "target targets targeting targeted against",
    "check": "check checks checking checked verify verifies verifying verified confirm confirms confirming confirmed"
             " double-check validate validates validating validated",
    "pin": "pin pins pinned pinning lock locks locked locking",
    "upgrade": "upgrade upgrades upgraded upgrading bump bumps bumped bumping",
    "mock": "mock mocks mocked mocking stub stubs stubbed stubbing",
}
VERB_OF = {form: verb for verb, forms in _VERB_CLASSES.items() for form in forms.split()}

# what a prerequisite is said before: "never merge before CI is green" is "CI green before merging"
GUARDED = frozenset({"commit", "push", "merge", "deploy", "release", "publish"})

# the languages a rule may ask to write or answer in, as English and Japanese / Chinese name them
LANGUAGES = frozenset(
    """english japanese chinese korean german french spanish portuguese russian italian dutch
    英語 日本語 中国語 韓国語 ドイツ語 フランス語 スペイン語 英文 中文 日文 韓文 英语 汉语 漢語 日语 韩语 韩文 简体中文 繁体中文""".split()
)
OFF = "switchedoff"  # the word a switched-off setting leaves: it turns the clause's polarity over

# slots: words a frame names its value by; two wordings that differ only by one are still one claim
PERMITTED = "may"
SLOTS = frozenset({"use", "target", "with", "via", "to", "into", "on", "at", PERMITTED})
# a clause that allows rather than asks: its key carries PERMITTED, which no frame comparison counts
_PERMISSION = re.compile(r"\b(?:(?:is|are|s|re|be) (?:fine|ok|okay|allowed|acceptable|permitted)|(?:you|we) (?:can|may)"
                         r"|can (?:go|be|stay|keep)|feel free|go ahead|it'?s ok(?:ay)? to|fine to|ok(?:ay)? to)\b")


# "wherever you can", "if possible", "as much as possible": how far a rule reaches, not a permission
_AS_FAR_AS = re.compile(r"\b(?:wherever|whenever|where|when|if|as much as|as far as|as often as) (?:you|we|i) "
                        r"(?:can|could|possibly can)\b|\b(?:wherever|where|if|when(?:ever)?|as much as|as far as) possible\b")


def permits(clause: str) -> bool:
    """Whether a clause allows something ("X is fine now", "you can push to main") rather than asks for it."""
    return bool(_PERMISSION.search(_AS_FAR_AS.sub(" ", clause)))

# phrases folded before the words are cut: one thing named one way
_PHRASES = [
    (re.compile(r"\b(?:pull|merge) requests?\b"), " pr "),
    (re.compile(r"\bprs\b"), " pr "),
    # "by" ends where a rule holds: "in src/generated/ by hand" holds in src/generated, and is done by hand
    (re.compile(r"\b(?:by hand|manually|manual|hand[-_ ]edit(?:ed|ing|s)?)\b"), " by edit byhand "),
    (re.compile(r"\bcheck(?:ed|ing|s)? ((?:\S+ ){0,3}?)in(?:to)? (?:git|the repo|version control)\b"), r" commit \1 "),
    (re.compile(r"\b(?:reach|reaches|reaching|reached) for\b"), " use "),
    # what is forbidden to import or call is forbidden to use: "don't import moment", "never call unwrap()"
    (re.compile(r"\b(never|not|don'?t|do not|stop|avoid) (?:import|call)(?:ing)?\b"), r" \1 use "),
    (re.compile(r"\b(?:go|goes|going|went|stick|sticks|sticking|stuck|opt|opts|opting) (?:with|for|to)\b"), " use "),
    (re.compile(r"\b(?:switch|switches|switching|switched|move|moves|moving|moved|revert|reverts|reverting"
                r"|reverted|go|goes|going) back to\b"), " use "),
    (re.compile(r"\b(?:switch|switches|switching|switched) to\b"), " use "),
    # "switch the API responses to camelCase": what they use; "keep merged branches around": do not delete them
    (re.compile(r"\b(?:switch|switches|switching|switched) ((?:the |our |all )?\S+(?: \S+)?) to\b"),
     r" \1 use "),
    (re.compile(r"\bkeep(?:s|ing)? ((?:\S+ ){0,3}?\S+) (?:around|alive)\b"), r" not delete \1 "),
    (re.compile(r"\bi'?d rather\b"), " use "),
    (re.compile(r"\bkeep (\S+(?: \S+){0,2}) out of\b"), r" not \1 "),
    (re.compile(r"\b(?:off limits|not allowed|forbidden|prohibited|banned|not ok|not okay)\b"), " not "),
    (re.compile(r"\b(?:no need (?:to|for)|don'?t need to|do not need to|needn'?t|not necessary to|unnecessary to)\b"),
     " not "),
    # a limit said any way is "max N": "50 chars max", "at most 50", "no longer than 50", "under 400 lines"
    (re.compile(r"\b(?:(?:at most|no more than|not more than|no longer than|not longer than|up to|under|below|within"
                r"|less than|fewer than|maximum of|max of)(?= \d)|maximum|tops)\b"), " max "),
    # "never write a subject longer than 50 characters" asks for at most 50: the limit, turned over
    (re.compile(r"\b(?:never|don'?t|do not|not|no) ((?:\S+ ){0,5}?)(?:longer|more|bigger|larger|over) than (?=\d)"),
     r" \1 max "),
    # "the first line of the commit message" is its subject
    (re.compile(r"\b(?:the |a )?first line of (?:the |a |each |every )?commit(?: message)?\b"), " commit subject "),
    (re.compile(r"\bno longer\b"), " not "),
    # "I'd rather", "i'd like": the speaker, gone before apostrophes go and "id" becomes the identifier ("request ID")
    (re.compile(r"\bi['\u2019]d\b"), " i "),
    (re.compile(r"\b(?:is|are|be|s|re) optional\b"), " never "),  # "type hints are optional now" (not a contrast)
    # "skip X", "forget about X": do not do X ("don't skip the tests" turns it over again)
    (re.compile(r"\b(?:skip|skips|skipped|skipping|forget about|forgets about)\b"), f" {OFF} "),
    (re.compile(r"\b(?:don'?t|do not|no need to) bother(?: with| to)?\b"), " never "),
    (re.compile(r"\b(?:unnecessary|not necessary|not needed|not required)\b"), " never "),
    (re.compile(r"\b(?:get|got|getting) rid of\b|^(?:just )?(?:drop|ditch|stop using|quit using)\b"), " not use "),
    (re.compile(r"\bnext to\b"), " beside "),  # "next" alone may be a branch's name
    # "pass -n auto to pytest" is "run pytest with -n auto"; "the base branch for PRs is develop", "PRs target develop"
    (re.compile(r"\bpass(?:es|ed|ing)?\s+(\S+(?:\s+\S+)?)\s+to\b"), r" with \1 to "),
    (re.compile(r"\b(?:the\s+)?(?:base|target)\s+branch(?:\s+for\s+((?:every|each|all|any)\s+)?(\S+))?\s+(?:is|should be|=)\b"),
     r" \2 target "),
    # a setting switched off is the setting, negated; switched on, the setting: "never turn strict off" keeps it on
    (re.compile(r"\b(?:turn|switch)(?:s|ed|ing)? off\b|(?<![\w-])disabl(?:e|es|ed|ing)\b(?! (?:comments?|lines?)\b)"
                r"|\bfalse\b"), f" {OFF} "),
    (re.compile(r"\b(?:turn|switch)(?:s|ed|ing)? (\S+(?: \S+)?) off\b"), rf" {OFF} \1 "),
    (re.compile(r"\b(?:turn|switch)(?:s|ed|ing)? on\b|(?<![\w-])enabl(?:e|es|ed|ing)\b|\btrue\b"
                r"|\b(?:stays?|staying|stayed|kept|keeps?|left|leave|is|are|be|turned|switched) on$"), " "),
    (re.compile(r"\benv(?:ironment)?[ _-]?var(?:iable)?s?\b"), " environment_variable "),
    (re.compile(r"\bensur(?:e|es|ed|ing)(?: that)?\b"), " "),  # "ensure X" asks for X, as "make sure" does
    (re.compile(r"\bonce\b"), " after "),
    (re.compile(r"\b(?:wait|waits|waiting|waited) (?:for|until)\b"), " before "),  # "wait for CI before merging"
    (re.compile(r"\buntil\b"), " before "),
    # a project's conventional documents are said by name: CHANGELOG.md is "the changelog"
    (re.compile(r"\b(changelog|readme|contributing|license|licence|authors|security|history|news|todo)"
                r"\.(?:md|txt|rst)\b"), r" \1 "),
    (_AS_FAR_AS, " "),
    # "…, no exceptions" says how firmly the rule holds, not a thing it rejects
    (re.compile(r"\bno exceptions?\b|\bwithout (?:any )?exceptions?\b|\bno excuses\b"), " "),
    (re.compile(r"\bas well\b|\bevery time\b|\beach time\b|\bfor good\b|\bfrom now on\b|\bgoing forward\b"
                r"|\bin this (?:repo|repository|project|codebase)\b|\bin the (?:repo|repository|project|codebase)\b"), " "),
]

# words that say how strongly or how, not what: a rule said with or without them is one rule
_WEAK = frozenset(
    """need needs needed have has had got gotta want wants should must shall will would can could may might ought
    allowed allow fine ok okay acceptable permitted free freely feel ahead anymore longer again back now
    ever every each always time times first anything everything all whole entire only just here there
    directly direct straight right instead rather please pls plz kindly thanks really actually also too still
    sure make makes made do does did done doing be is are was were been being am let lets
    keep keeps kept keeping go goes going went live lives living belong belongs belonging sit sits put puts
    putting place places placed store stores stored stay stays remain remains follow follows
    write writes writing wrote written open opens opened opening create creates created
    repo repository project codebase file files thing things stuff way lot around anywhere everywhere
    in onto under of from by for within inside beside besides alongside through across more
    a an the i we you they he she it its our your my me us this that these those them their
    and or but so then also yes
    code codes statement statements call calls clause clauses line lines folder folders directory directories
    dir dirs mode modes setting settings entry entries
    add adds added adding update updates updated updating include includes included including
    remember note important fyi theyre youre were weve ive im its thats theres lets whats
    necessary needed required mandatory""".split()
)

# a later clause that says why, not what: dropped from the frame
_REASON = re.compile(
    r"^(?:because|cause|since|as|so|otherwise|which|that'?s|thats|it'?s|it is|its|there'?s|there|they|the|this"
    r"|that|these|those|we'?ve|we have|we'?re|we are|we|i'?ve|i have|i|now|until|even|ever|every|it|turns out"
    r"|learned|learnt|lesson|he|she|our|my|your|you'?re|otherwise)\b"
)
# a later clause that states a rule begins with one of these (after an adverb)
_ADVERBS = frozenset("always never just please pls and but then instead rather also so".split())
_NEGATIONS = frozenset("never not no don't dont do_not avoid stop doesn't doesnt shouldn't shouldnt mustn't mustnt"
                       " cannot can't cant won't wont".split())
_IMPERATIVES = frozenset(VERB_OF) | frozenset(
    """add write put keep open create name pin set pass wrap freeze log format catch throw raise call
    test lint build install update bump link mark prefix split move rename document comment type annotate""".split()
)
# an opening that only says the last turn was wrong ("wrong folder", "no"): not the rule
# "wrong folder." says the last turn was wrong; "no tabs" is a rule, only "no" / "nope" alone is not
_WRONG = re.compile(r"^(?:(?:wrong|not quite|incorrect)(?: \S+)?|no|nope)$")

_MODAL = re.compile(r"\b(?:must|should|never|always|needs? to|has to|have to|(?:is|are|s|re) (?:fine|ok|okay|allowed"
                    r"|acceptable|permitted|not allowed|forbidden|off limits))\b")
_CONDITION_OPENS = re.compile(r"^(?:before|after|when|whenever|if|once|until|unless|while)\b")
# ("!" ends a clause after a word, "now!", or as "!!!"; "!important" and Kotlin's "!!" standing alone are names)
_CLAUSE_END = re.compile(r"(?<=[^\s.])[.?](?=\s|$)|[,;?。！？；，、]|(?<=[^\s`(!])!+|(?<!\S)!{3,}|!+(?=\s*$)|:(?=\s)|\s[—–-]{1,2}\s"
                         r"|\s(?=(?:because|now that|since (?:we|it|they|the|that|this|i)\b))"
                         r"|\s(?=or (?:else|the|it|they|you|we|everything|nothing)\b[^,.;]*?\b(?:never|won'?t|will|would"
                         r"|can'?t|cannot|breaks?|fails?|end up|gets?)\b)")


_CUTS = re.compile(r"(?P<mark>[`(（\[)）\]])|" + _CLAUSE_END.pattern)


def clauses(text: str) -> list[str]:
    """The wording cut into clauses, outside parentheses and code spans (whose commas list examples); a
    clause that opens with a condition ("before you commit,") stays with the clause it conditions."""
    out: list[str] = []
    depth, start, ticks = 0, 0, False
    for m in _CUTS.finditer(text):  # only the places that open or close a span, or may end a clause
        mark = m.group("mark")
        if mark == "`":
            ticks = not ticks
        elif mark:
            if not ticks and mark in "(（[":
                depth += 1
            elif not ticks and depth:
                depth -= 1
        elif not ticks and depth == 0:
            out.append(text[start : m.start()])
            start = m.end()
    out.append(text[start:])
    joined: list[str] = []
    for piece in (c.strip() for c in out):
        if not piece:
            continue
        if joined and _CONDITION_OPENS.match(joined[-1]) and not joined[-1].endswith("\x00"):
            joined[-1] = joined[-1] + " " + piece + "\x00"
        else:
            joined.append(piece)
    out = []
    for piece in (c.rstrip("\x00") for c in joined):
        # "drop freezegun and inject a clock instead": what replaces a thing dropped is a rule of its own
        split = _DROP_AND.match(piece)
        out.extend((piece[: split.start(1)], piece[split.end(1) :].strip()) if split else (piece,))
    return out


_DROP_AND = re.compile(r"^(?:just |please |pls )?(?:drop|stop using|quit using|ditch|don'?t use|do not use|never use|"
                       r"avoid)\b.*?( and)(?= (?:just |instead |then )?(?:use|read|inject|write|put|add|switch|move|call|"
                       r"pass|set|create|go|rely|load|pull|store|keep)\b)")


def fold_phrases(clause: str) -> str:
    """One clause (normalised: lower case) with the phrases of ``_PHRASES`` folded.

    A phrase is looked for only in a clause holding one of the words every match of it starts with (``needles``):
    most clauses hold none of most phrases, and a substring test costs a fraction of a search."""
    folds = _FOLDS or _make_folds()
    for pattern, replacement, needles in folds:
        if needles is not None:
            for needle in needles:
                if needle in clause:
                    break
            else:
                continue
        if pattern.search(clause):
            clause = pattern.sub(replacement, clause)
    return clause


_FOLDS: list[tuple[re.Pattern[str], str, tuple[str, ...] | None]] = []


def _make_folds() -> list[tuple[re.Pattern[str], str, tuple[str, ...] | None]]:
    _FOLDS[:] = [(pattern, replacement, needles(pattern)) for pattern, replacement in _PHRASES]
    return _FOLDS


def needles(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Strings one of which is in every text ``pattern`` matches in (what a match starts with, after its assertions),
    or None where the pattern does not say (a class, an optional start, flags that fold case)."""
    try:  # the parser ``re`` compiles with: its own module from Python 3.11
        from re import _constants as constants, _parser as parser  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - Python 3.10
        import sre_constants as constants
        import sre_parse as parser
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        found = _starts(list(parser.parse(pattern.pattern, pattern.flags)), constants)
    except (re.error, TypeError, ValueError, AttributeError):
        return None
    if not found or not all(found):
        return None
    return tuple(sorted(n for n in found if not any(o != n and o in n for o in found)))  # "go" stands for "going"


def _starts(items: list[Any], c: Any) -> set[str] | None:
    """What every match of this parsed sequence starts with (its first literal run, or each branch's), or None."""
    for at, (op, arg) in enumerate(items):
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue  # takes no characters
        if op is c.LITERAL:
            run = []
            for next_op, next_arg in items[at:]:
                if next_op is not c.LITERAL:
                    break
                run.append(chr(next_arg))
            said, end = "".join(run), at + len(run)
            # the parser takes a common start out of alternatives ("drop|ditch" is "d" and "rop|itch"): put it back
            rest = _starts(items[end:], c) if end < len(items) and items[end][0] in (c.BRANCH, c.SUBPATTERN) else None
            return {said + more for more in rest} if rest else {said}
        if op is c.SUBPATTERN:
            return None if arg[1] & re.IGNORECASE else _starts(list(arg[-1]), c)  # (?i:…): any case
        if op is c.BRANCH:
            found: set[str] = set()
            for branch in arg[1]:
                starts = _starts(list(branch), c)
                if not starts:
                    return None
                found |= starts
            return found
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, _high, item = arg
            starts = _starts(list(item), c)
            if starts is None or low >= 1:
                return starts
            after = _starts(items[at + 1:], c)  # none of it: what follows starts the match
            return None if after is None else starts | after
        return None
    return None


# a later clause that says what happens otherwise ("…, or the hooks never run"): not a rule of its own
_CONSEQUENCE = re.compile(r"^(?:or|otherwise|or else|else)\b")


def is_consequence(clause: str) -> bool:
    return bool(_CONSEQUENCE.match(clause))


# "…, release-please generates it now", "…, the wrapper script sets it": something else does it, the reason
_DONE_BY_OTHER = re.compile(r"^[\w.@/-]+(?:[ -][\w.@/-]+){0,2} (?:does|handles|generates|covers|runs|sets|fixes|formats"
                            r"|checks|takes care of|manages|updates) (?:it|them|that|this|those|updates|everything)\b")


def is_reason(clause: str) -> bool:
    """A later clause that gives a reason or an aside rather than a rule."""
    return bool(_REASON.match(clause) or _DONE_BY_OTHER.match(clause))


def states_rule(clause: str) -> bool:
    """A clause that is itself an instruction: it starts (after an adverb) with a negation or a verb, opens
    with a condition, or says what must, should or may be done."""
    if _CONDITION_OPENS.match(clause) or _MODAL.search(clause) or permits(clause):
        return True
    words = clause.replace("do not", "do_not").split()
    for word in words:
        if word in _ADVERBS:
            continue
        return word in _NEGATIONS or word in _IMPERATIVES
    return False


def is_wrong(clause: str) -> bool:
    return bool(_WRONG.match(clause))


# short names people type for the long ones: one thing, one word
_ALIASES = {
    "ts": "typescript", "js": "javascript", "py": "python", "k8s": "kubernetes", "kube": "kubernetes", "tf": "terraform",
    "db": "database", "dbs": "database", "ids": "id", "prod": "production", "creds": "credential", "cred": "credential",
    "deps": "dependency", "dep": "dependency", "documentation": "doc", "docs": "doc", "configuration": "config",
    "configs": "config", "msg": "message", "msgs": "message", "func": "function", "funcs": "function",
    "fn": "function", "args": "argument", "arg": "argument", "lib": "library", "libs": "library",
    "pkg": "package", "pkgs": "package", "env": "environment", "vars": "variable", "var": "variable",
    "annotation": "hint", "annotations": "hint", "annotate": "hint",
    "img": "image", "imgs": "image", "param": "argument", "params": "argument", "parameter": "argument",
    "parameters": "argument", "char": "character", "chars": "character", "ctx": "context",
    "stylesheet": "css", "stylesheets": "css", "architectural": "architecture", "title": "subject",
    "titles": "subject", "pixel": "px", "pixels": "px", "err": "error", "errs": "error", "int": "integer",
    "ints": "integer", "migrate": "migration", "migrates": "migration", "migrated": "migration",
    "migrating": "migration",
    "green": "pass",  # "CI is green" is "CI passes"
    "hash": "sha", "credential": "secret", "credentials": "secret", "approve": "approval", "approv": "approval",
    # two reviewers approving is two approvals
    "approver": "approval", "approvers": "approval", "reviewer": "approval", "reviewers": "approval",
    # a count said in words is the count: "two approvals" / "2 approvals" ("one" is also a pronoun)
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
    "ten": "10",
}


def lemma(word: str) -> str:
    """One form for a word's inflections (commits / committing / committed → commit); a verb its class;
    a short name its long one (ts → typescript)."""
    word = _ALIASES.get(word, word)
    verb = VERB_OF.get(word)
    if verb:
        return verb
    if not word.isalpha():
        return word
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ied"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        word = word[:-2]
    elif len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith("es") and word[-3] in "sxzh":
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e") and not word.endswith("ese"):  # a language keeps its name
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return VERB_OF.get(word, word)


def is_verb(word: str) -> bool:
    """A word a rule's verb may be ("run", "use", "keep"): after "to" it makes an infinitive."""
    return word in _IMPERATIVES or word in _WEAK_VERBS


_WEAK_VERBS = frozenset("be do have get go make keep put write open create follow stay leave let wait pass".split())
# the verbs above as a key holds them ("name" → "nam", "create" → "creat")
VERB_LEMMAS = frozenset(lemma(word) for word in _IMPERATIVES | _WEAK_VERBS)


def is_weak(word: str) -> bool:
    return word in _WEAK or word in _WEAK_CJK


# Japanese and Chinese words of where and how a rule is written down, not what it says
_WEAK_CJK = frozenset(
    """書いて 書く 書き 書か 置いて 置く 置き 付けて 付ける 行って お願い お願いします 全部 全て すべて 配下
    写 写成 放 放到 放在 放到 都 全部 所有""".split()
)


def lead_verb(clause: str) -> str | None:
    """The verb a clause opens with, past adverbs and negations, as its class ("Don't use npm" → use)."""
    for word in clause.replace("do not", "do_not").replace("'", "").split():
        if word in _ADVERBS or word in _NEGATIONS or word in {"dont", "doesnt", "shouldnt", "cant", "wont"}:
            continue
        if word in VERB_OF:
            return VERB_OF[word]
        if word in _IMPERATIVES:
            return lemma(word)
        return None
    return None
