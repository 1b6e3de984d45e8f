"""Claim keys: a claim's wording normalised into its identity (polarity and content tokens).

A claim's identity is its *key*: the wording normalised (NFKC, case, width, punctuation,
filler, marker scaffolding, light stemming) into a polarity and an ordered sequence of
content tokens. How two keys stand (one claim, a contradiction, two claims) is ``relate``'s
business. Standard library only.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..text import CJK as _CJK  # the one CJK definition
from . import cjk, frame
from ..text import (
    HIRAGANA,
    EMPHASIS_JA,
    EMPHASIS_WORDS,
    ENDINGS_JA,
    NEGATION_JA,
    NEGATION_WORDS,
    PARTICLE_SPLIT_JA,
    PARTICLES_JA,
    STOP_WORDS,
    stem,
)

CONTRAST = "≠"  # token standing for "not / instead of / rather than / ではなく" inside a claim

_HIRAGANA = re.compile(f"^[{HIRAGANA}]*$")
# an identifier, path, file name or version is one token: its parts name one object ("src/cart/v3/handlers.py")
_IDENT = (r"\.?[a-z0-9][a-z0-9_]*(?:[./_-][a-z0-9_]+)*(?:[/_]|\.(?=[a-z_]))[a-z0-9_]+(?:[./_-][a-z0-9_]+)*/?"
          r"|[a-z0-9_]+/(?![a-z0-9_])"
          r"|\.[a-z][a-z0-9_]*(?:-[a-z0-9_]+)*"
          r"|[a-z]+[0-9][a-z0-9]*(?:-[a-z0-9]+)*|[a-z]+(?:-[a-z]+)*-[0-9][a-z0-9]*(?:-[a-z0-9]+)*"
          # a command-line flag and a bang-word name one thing: "--force", "-n", "!important"
          r"|--?[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![a-z0-9_-])|![a-z][a-z0-9]*(?:-[a-z0-9]+)*"
          # an operator standing alone is a name too: "==" / "===", "SELECT *" (an arrow says a change, not a name)
          r"|(?<![=!<>&|?*])(?:===?|!==?|!!|&&|\|\||\?\?|\*)(?![=!<>&|?*\w])")
_IDENT_SPAN = re.compile(rf"(?<![a-z0-9_./-])(?:{_IDENT})(?![a-z0-9_])")
_TOKEN = re.compile(rf"(?<![a-z0-9_./-])(?:{_IDENT})(?![a-z0-9_])|\d+(?:\.\d+)*|[^\W\d_{_CJK}]+|[{_CJK}]+|{CONTRAST}|≢|⊤")

_IT_IS = r"(?:it'?s|it is|that'?s|that is|they'?re|they are|we use|use)\s+"
_NOT_X_BUT_Y = re.compile(
    rf"^(?:{_IT_IS})?not\s+(?P<x>[^,;.!?]{{1,40}}?)\s*,?\s+(?:but\s+(?:{_IT_IS})?|{_IT_IS})(?P<y>[^,;.!?]{{1,40}}?)"
    r"(?P<end>[,;.!?]|$)"
)
_NOT_X_BUT_Y_ZH = re.compile(r"^不是(?P<x>[^，,。；;！!？?]{1,30})[，,]\s*(?:而)?是(?P<y>[^，,。；;！!？?]{1,30})(?P<end>[，,。；;！!？?]|$)")
_SCAFFOLD = re.compile(
    r"^(?:\s|[,.:;、。:：—-]|!(?![a-z]))*(?:(?:no|nope|wrong|not quite|incorrect)(?=\s*(?:[,.:;—-]|!(?![a-z])))|"
    r"(?:that's|thats|that is|it's|this is) (?:wrong|not right|incorrect|not correct)|actually|"
    r"違います|違う|ちがう|そうじゃなくて|そうではなくて|いや|不对|不對|"
    r"remember(?: that)?|please|pls|kindly|note to self|from now on|going forward|"
    r"(?:our|the|a|my) (?:team )?(?:rule|convention|policy|standard|house rule)s?(?: (?:is|here))?(?=\s*(?:[:—-]|$))|"
    r"lesson learned|lessons learned|til|gotcha|important|fyi|ok|okay|also|and|so|btw|hey|"
    r"覚えておいて(?:ください)?|今後は|これからは|今後|以後|以后|记住|記住|教訓|学び)(?=\W|$|[{cjk}])".format(cjk=_CJK),
    re.IGNORECASE,
)
_CONJUNCTION_CJK = re.compile(r"^(?:あと|それと|それから|还有|另外|而且)(?=[、，,\s])")
# what a wording opens with that is not a word; the dot of a file name (".env must never…") and the bang of a
# name ("!important is banned") are kept
_REDACTED = re.compile(r"\[redacted:[^\]]*\]")  # a mark redaction left: the secret it stands for, one word
_LEADING_PUNCTUATION = re.compile(r"^(?:[ ,:;、。:—-]|!(?![a-z])|\.(?![a-z0-9_]))+")
_PUNCTUATION = re.compile(r"[^\w\s'.]|(?<!\d)\.|\.(?!\d)")
_AT_MOST = re.compile(r"(?:≤|<=)(?= ?\d)")
# a code span of punctuation alone names an operator ("`?`", "`?.`", "`->`"), which punctuation would erase
_SYMBOL_SPAN = re.compile(r"`([?!.:<>=-]{1,3})`")
_NAMED_OPERATORS = re.compile(r"===?|!==?|!!")  # (already one token each, as they are)


def _symbol_name(match: re.Match[str]) -> str:
    symbol = match.group(1)
    if _NAMED_OPERATORS.fullmatch(symbol):
        return match.group(0)
    return " op_" + symbol.encode().hex() + " "


_FILLER_PHRASES = re.compile(r"\b(?:need|needs|have|has|want|wants|going|got) to\b|\bmake sure (?:to|that|you)?\b|\bplease\b")
_CONTRAST_EN = re.compile(r"(?:,\s*|\s+)(?:not|instead of|rather than|over|than|vs\.?|versus)\s+(?=\S)")
_CONTRAST_JA = re.compile("(?:ではなく(?:て)?|じゃなく(?:て)?|でなく|じゃなしに)")  # 「Y ではなく X」: Y is rejected
_CONTRAST_ZH_NOT = re.compile("(?:而不是|而非|不是)")  # 「X 而不是 Y」: Y is rejected
TOPIC = "⊤"  # ends the topic of a Japanese clause (「X は」) that holds a contrast
_TOPIC_JA = re.compile("(?<=[^\u3040-\u309f\\s])\\s*は\\s*(?=[^\u3040-\u309f])")
REJECTED_BEFORE = "≢"  # the words before it are the ones a Japanese contrast rejects
# "用 pnpm，不要用 npm": the second clause rejects the value the first one accepts
_CONTRAST_ZH = re.compile(r"(用\S*?)\s*(?:不要|别|別|不|而不是)\s*(?=(?:使)?用)")
# emphasis of Chinese rules ("must"), like always / 必ず
_EMPHASIS_ZH = re.compile("(?:必须|必需|务必|務必|一定要)")
# "need to" of Chinese rules, and the forms of 使う ("use") one claim is said in
_FILLER_CJK = re.compile("(?<!不)需要在|(?<!不)需要")  # (「不需要」 is "need not": a negation, kept)
_USE_JA = re.compile("使(?:って|う|い|わ)")
_USE_ZH = re.compile("(?:换|換|改|切)回(?:到|成)?(?=\\s*[A-Za-z])|用回")  # 「换回 npm」 is using npm again
# 「プッシュする前に」 is 「プッシュ前に」; 「実行し」 (a verb's stem form) is 「実行」
_SURU_MAE = re.compile("する(?=前)")
_RENYOU_SHI = re.compile("(?<=[\u4e00-\u9fff])し$")
# 别再 / 不再 (“no longer”) negate like 别 / 不; 了 standing alone is a sentence particle
_AGAIN_ZH = re.compile("(别|別|不)再在?")
_PARTICLES_ZH = frozenset({"了", "吧", "呢", "啊"})
# what a reversal adds to the rule it revokes, when no ``reverses`` wording came with it
_REVERSAL_WORDS = frozenset({"anymore", "longer"})
_NEG_EN = NEGATION_WORDS
_POSITIVE_ADVERBS = EMPHASIS_WORDS
_STOP = STOP_WORDS
_NEG_JA = re.compile(NEGATION_JA)
_POSITIVE_JA = re.compile(EMPHASIS_JA)
_ENDINGS_JA = re.compile(ENDINGS_JA)
_PARTICLE_SPLIT = re.compile(PARTICLE_SPLIT_JA)
_CJK_RUN = re.compile(f"[{_CJK}]")
# a word of hyphenated letters is one word: "docker-compose" names another tool than "docker compose"
_COMPOUND = re.compile(r"(?<![\w.-])[a-z]+(?:-[a-z]+)+(?![\w-])")
# 「X は読みにくいので使わないで」: a reason inside the clause, between the topic and the rule
_INLINE_REASON_JA = re.compile("(?<=[はを])[^、。はを]{1,24}?ので(?=[^\\s、。])")
_NEG_ZH_CUT = re.compile("(?=不要|别|別|不能)")  # 「函数名不要用下划线」 is cut before 不要
# a later Japanese or Chinese clause that gives a reason (「CI で回るので」, 因为…), or states a rule
_REASON_CJK = re.compile("(?:ので|から|ため|为了|因为|所以|由于|のため)$|^(?:因为|所以|由于|なぜなら)")
_RULE_CJK = re.compile(NEGATION_JA + "|(?:ください|して|こと|て$|で$|禁止|不要|别|別|请|要|用|使用)")
_USE_CJK = frozenset({"使用", "用", "use"})
_NEED_NOT_JA = re.compile("(?:し)?なくて(?:も)?(?:いい|よい|良い|大丈夫|構わない|構いません)(?:です)?")
# more ways Japanese and Chinese say "not" or "no longer" (「もう要りません」, 「やめて」, 不用), "without"
# (a rule "don't commit without running pytest" is "run pytest before committing"), and "may"
_NEG_MORE_CJK = re.compile("要りません|要らない|いらない|いりません|不用|不需要|无需|無需|没必要|不得(?![不了已])|(?:やめ|止め)(?:て|る|ます)?")
_WITHOUT_CJK = re.compile("ずに|没(?!问题|关系)|未经")
# how a Japanese permission ends (「pushしてもいいです」): said by ``_PERMIT_CJK``, not a word of the rule
_PERMIT_END_JA = re.compile("(?:(?:し)?(?:ても|でも)(?:大丈夫|構わない|構いません|かまわない|かまいません|いい|良い|よい)"
                            "|解禁(?:します|しました|とします|にします|にしました)?)(?:です|よ)?$")
_PERMIT_CJK = re.compile("(?:ても|でも)(?:大丈夫|構わ|構い|かまわ|かまい|いい|良い|よい|ok)|解禁|可以|没问题|没关系|也行|就行|允许")
# examples of what a rule names: a parenthesised list ("(feat:, fix:, chore:)"), "like `feat:` or `fix:`",
# "e.g. …" / "such as …" / "for example …" to the end of the clause
_EXAMPLES = re.compile(r"\s*\((?:e\.g\.?|eg|like|such as|for example)?[^()]*?(?:,[^()]*)+\)"
                       r"|\s*\((?:e\.g\.?|eg|like|such as|for example)\b[^()]*\)"
                       r"|\s+like\s+`[^`]+`(?:\s*(?:,|or|and|/)\s*`[^`]+`)*"
                       r"|,?\s+(?:e\.g\.?|such as|for example)\s(?:`[^`]*`|[^,;!?`.]|\.(?=\S))*")
# an action a prerequisite is said before ("merge before CI is green", "commit without running pytest")
# (the action is the clause's verb, "merge before …"; in "squash commits before merging" commits are a thing)
_GUARDED = re.compile(r"^(?:(?:please|pls|always|never|ever|just|do not|don't|dont|no|you|we|can|may|could|should|must"
                      r"|it's|it is|is|ok|okay|fine|to)\s+)*(?:%s)\w*\s+(?:\S+\s+){0,4}?(?P<cue>before|until|without)\b"
                      % "|".join(sorted(frame.GUARDED)))
_BEFORE = frame.lemma("before")
_DEPLOY, _PRODUCTION = frame.lemma("deploy"), frame.lemma("production")
_PRONOUN = re.compile(r"\b(?:it|them)\b")
_OBJECT_TOKEN = re.compile(r"[/_.]|\d")  # a path, file name or identifier among a clause's words
PURPOSE = "+"  # marks a word of what a rule is for ("for installing packages"); "~" would read as a home folder
SCOPE = "@"  # marks a word of where a rule holds ("in the tests", "under src/")
TO, FROM = ">", "<"  # mark a word of where something goes ("to main") or comes from ("from checkout")
_MARKS = {"for": PURPOSE, "in": SCOPE, "under": SCOPE, "inside": SCOPE, "within": SCOPE,
          "to": TO, "into": TO, "onto": TO, "against": TO, "from": FROM}
_UNMARKS = frozenset("on at with via by".split())
_BEFORE_AN_ACT = frozenset({"always", "never", "forever", "constantly"})  # adverbs that open the rule's act
_COPULA = frozenset("is are was were be being been".split())
_CONDITION_WORDS = frozenset("when whenever before after if unless until while once during".split())
_ALT_ENDS = frozenset("in on for at when whenever before after during while under inside within with to".split())
@dataclass(frozen=True)
class Key:
    """A claim's identity: polarity and ordered content tokens."""

    negated: bool
    tokens: tuple[str, ...]
    text: str = field(init=False, repr=False, compare=False)  # the key as one string, its sort order

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", ("¬ " if self.negated else "") + " ".join(self.tokens))

    @property
    def digest(self) -> str:
        return hashlib.sha1(self.text.encode("utf-8")).hexdigest()[:16]


def normalise(text: str) -> str:
    """NFKC, case and width folded, marker scaffolding and filler removed, punctuation as spaces."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if "[redacted:" in folded:
        folded = _REDACTED.sub(" redactedsecret ", folded)
    folded = folded.replace("’", "'")
    previous = None
    east = not folded.isascii()  # (conjunctions of Japanese and Chinese are said in CJK characters)
    while previous != folded:
        previous = folded
        folded = _LEADING_PUNCTUATION.sub("", _CONJUNCTION_CJK.sub("", _SCAFFOLD.sub("", folded)) if east
                                          else _SCAFFOLD.sub("", folded))
    folded = _FILLER_PHRASES.sub(" ", folded)
    # punctuation becomes space; apostrophes stay (don't), and so do dots inside numbers (3.11) and
    # identifiers, paths and file names whole (src/cart/v3/handlers.py, us-east-1)
    pieces = []
    start = 0
    for match in _IDENT_SPAN.finditer(folded):
        pieces.append(_PUNCTUATION.sub(" ", folded[start : match.start()]))
        pieces.append(f" {match.group(0)} ")
        start = match.end()
    pieces.append(_PUNCTUATION.sub(" ", folded[start:]))
    return " ".join("".join(pieces).split())


@lru_cache(maxsize=200_000)
def claim_key(text: str) -> Key:
    """The identity key of one claim's wording: its frame's polarity and sorted words (``frame.py``)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    if "(" in folded or "like" in folded or "e.g" in folded or "such as" in folded or "for example" in folded:
        folded = _EXAMPLES.sub(" ", folded)  # examples show the rule; they are not more of it
    if "not" in folded or "不是" in folded:
        # "it's not npm, it's pnpm", "not npm but pnpm", 「不是 npm，是 pnpm」: the rejected thing said first
        folded = _NOT_X_BUT_Y.sub(r"\g<y>, not \g<x>\g<end>", folded, count=1)
        folded = _NOT_X_BUT_Y_ZH.sub(r"是\g<y>不是\g<x>\g<end>", folded, count=1)
    if "`" in folded:
        folded = _SYMBOL_SPAN.sub(_symbol_name, folded)  # "use `?` instead of .unwrap()": `?` is a name
    if "≤" in folded or "<=" in folded:
        folded = _AT_MOST.sub(" max ", folded)  # "≤ 50 chars" is "50 chars max" (punctuation is cut below)
    # polarity, core, alt, verb, states a rule, only rejects ("not next to the source files"), the clause
    parts: list[tuple[bool, list[str], list[str], str | None, bool, bool, str, frozenset[str]]] = []
    japanese = cjk.is_japanese(folded)
    for n, clause in enumerate(frame.clauses(folded)):
        norm = normalise(_COMPOUND.sub(lambda m: m.group(0).replace("-", "_"), clause))
        if not norm:
            continue
        east = _CJK_RUN.search(norm) is not None
        if east:
            if parts and _REASON_CJK.search(norm):
                continue  # 「CI で回るので」: why, not what
            rule = n == 0 or _RULE_CJK.search(norm) is not None
            if "ので" in norm:
                norm = _INLINE_REASON_JA.sub("", norm)
            verb = None
        else:
            if n == 0 and frame.is_wrong(norm):
                continue  # "wrong folder." only says the last turn was wrong
            rule = frame.states_rule(norm)
            if not rule and parts and frame.is_reason(norm):
                continue  # "…, the pre-commit hook does it now": why, not what
            if parts and frame.is_consequence(norm):
                continue  # "…, or the hooks never run": what happens otherwise
            verb = frame.lead_verb(norm)
        negated, core, alt, topic = _clause_tokens(norm, japanese)
        permitted = not negated and (_PERMIT_CJK.search(norm) if east else frame.permits(norm))
        if not east:
            guarded = _GUARDED.search(norm)
            if guarded and guarded.group("cue") != "without" and (negated or permitted):
                # "never merge before CI is green" asks for CI green before merging; "you can merge before
                # CI is green" lifts that rule
                negated = not negated
            elif guarded and not negated and guarded.group("cue") == "without" and "without" in core:
                # "merge without squashing", "you can push without running the tests": the step skipped before
                # the guarded one, prohibited ("never squash before merging")
                negated, permitted = True, False
                core = [t for t in core if t != "without"] + ([] if _BEFORE in core else [_BEFORE])
            elif guarded and not negated and _BEFORE not in core:
                core.append(_BEFORE)  # "don't commit without running pytest": pytest before committing
        if permitted:
            core = core + [frame.PERMITTED]
        if core or alt:
            parts.append((negated, core, alt, verb, rule, norm.startswith("not "), norm, topic))
    if not parts:
        return Key(False, ())
    # the rule is the first clause that states one; another clause of the other polarity that does the same
    # thing (or names only a thing) is its alternative: "don't use requests, use httpx"
    main = next((p for p in parts if p[4] and not p[5]), parts[0])
    if not main[4] and len(parts) > 1 and not _CJK_RUN.search(main[6]) \
            and all(not p[4] and not p[2] and p[3] is None and p[0] == main[0] and len(p[1]) <= 2 for p in parts):
        # "black, line-length 100, always": a rule said as a list of what it names, no clause a rule alone
        main = (main[0], [t for p in parts for t in p[1]], [], None, False, main[5], main[6], main[7])
    at = next((i for i, p in enumerate(parts) if p is main), 0)
    if main[0] and main[3] is None and not main[2] and len(main[1]) <= 2 and at and not parts[at - 1][0] \
            and not parts[at - 1][2] and not _CJK_RUN.search(main[6]):
        # "border widths stay in px, never rem": a bare "never X" after a statement is what the statement
        # rejects, the statement is the rule
        before = parts[at - 1]
        main = (False, before[1], list(main[1]), before[3], True, False, before[6], before[7])
    negated, core, alt, verb, _rule, _bare, said, topic = main
    core, alt = list(core), list(alt)
    named: list[tuple] = []
    if _PRONOUN.search(said):
        # "src/generated/ is generated code, never touch it manually": "it" is the thing the clause before
        # named, and that clause says what it is, not what to do instead
        for part in parts:
            if part is not main and not part[4] and not part[2]:
                things = [t for t in part[1] if _OBJECT_TOKEN.search(t)]
                if things:
                    core += [t for t in things if t not in core]
                    named.append(part)
    for part in parts:
        other_negated, other_core, other_alt, other_verb, other_rule, _other_bare, _other_said, _topic = part
        if part is main or part in named or other_negated == negated or other_alt:
            continue
        if not other_rule and (other_verb is not None or len(other_core) > 2):
            continue  # a clause that states nothing of its own ("xdist makes the fixtures flaky")
        if frame.PERMITTED in core:
            continue  # "unwrap is fine in the library, stop rewriting it": what the old rule made people do
        if verb and other_verb and verb != other_verb:
            continue  # a companion rule ("never push to main, open a PR") is not this rule's alternative
        if verb is None and other_verb is None and len(other_core) > 1 and len(core) > 1 \
                and not (_USE_CJK & set(core) and _USE_CJK & set(other_core)) \
                and not (_USE_CJK & set(other_core) and len(set(other_core) - _USE_CJK) == 1):
            continue  # (「pip は使わないで」 after a rule naming one thing to use is that rule's alternative)
        # where the rule holds and what it is for stay with the rule, whichever clause said them:
        # "don't use double quotes in typescript, single quotes" rejects double quotes, in TypeScript
        if negated:  # "don't use requests, use httpx": the positive clause states the rule
            alt = [t for t in core if t not in other_core and not _held(t) and t not in topic]
            core, negated = list(other_core) + [t for t in core if (_held(t) or t in topic) and t not in other_core], False
            if all(t in frame.LANGUAGES for t in other_core) and any(t in frame.LANGUAGES for t in alt):
                # "コメントを英語で書かないで、日本語で": the language is swapped; what is written in it stays
                core += [t for t in alt if t not in frame.LANGUAGES]
                alt = [t for t in alt if t in frame.LANGUAGES]
        else:  # "use pnpm, not npm" / "we're a pnpm shop, don't use npm"
            alt += [t for t in other_core if t not in core and not _held(t)]
            core += [t for t in other_core if t not in core and _held(t)]
    if _DEPLOY in core:  # production is where a deploy goes unless another place is named
        core = [t for t in core if t.lstrip(TO + SCOPE) != _PRODUCTION]
    core_set = sorted(set(core))
    alt_set = sorted(set(alt) - set(core_set) - frame.SLOTS)
    if not core_set:
        return Key(negated, tuple(alt_set))
    return Key(negated, tuple(core_set) + ((CONTRAST,) + tuple(alt_set) if alt_set else ()))


def _held(token: str) -> bool:
    """A word of where a rule holds or what it is for ("in the tests", "for HTTP calls")."""
    return token[:1] in (SCOPE, PURPOSE) and len(token) > 1


def _clause_tokens(norm: str, japanese: bool = False) -> tuple[bool, list[str], list[str], frozenset[str]]:
    """One clause's polarity, content words, the words it rejects ("X instead of Y" → Y) and the words a
    Chinese clause says before its negation (「函数名不要用下划线」: the topic, not what is rejected)."""
    negated = False
    east = not norm.isascii()  # the Japanese and Chinese forms below are all said in CJK characters
    marked = norm
    if east:
        contrast = _CONTRAST_JA.search(norm)
        if contrast:  # 「テストファイルは src/ ではなく tests/ に」: the topic before は is not what is rejected
            topic = _TOPIC_JA.search(norm, 0, contrast.start())
            if topic:
                norm = norm[: topic.start()] + f" {TOPIC} " + norm[topic.end() :]
        marked = _CONTRAST_ZH_NOT.sub(f" {CONTRAST} ", _CONTRAST_JA.sub(f" {REJECTED_BEFORE} ", norm))
        if "用" in marked:
            marked = _CONTRAST_ZH.sub(rf"\1 {CONTRAST} ", marked)
        marked = _EMPHASIS_ZH.sub("", marked)
        marked = _FILLER_CJK.sub("", marked)
        marked = _USE_ZH.sub("用", _USE_JA.sub("使用", marked))
        marked = _AGAIN_ZH.sub(lambda m: "不要" if m.group(1) == "不" else m.group(1), _SURU_MAE.sub("", marked))
    marked = frame.fold_phrases(marked)
    if east and ("もう" in marked or "なくて" in marked):  # 「もう〜しない」 is "no longer"; 「〜しなくていい」 "need not"
        marked = _NEED_NOT_JA.sub("しない", marked.replace("もう", " "))
    marked = _CONTRAST_EN.sub(lambda m: _contrast_or_negation(m, marked), marked)
    if east and _POSITIVE_JA.search(marked):
        marked = _POSITIVE_JA.sub(" ", marked)
    core: list[str] = []
    alt: list[str] = []
    weak: list[str] = []  # kept only when nothing else is left: "any は禁止" is about `any`
    topic_words = 0  # the words of a topic (「X は」) that a contrast after it does not reject
    said_before = 0
    mark = ""  # PURPOSE after "for", SCOPE after "in", nothing after a condition or another preposition
    tokens = core
    raws = _TOKEN.findall(marked.replace("n't", " not").replace("'", ""))
    for at, raw in enumerate(raws):
        if raw == CONTRAST:
            if core:
                tokens = alt
            continue
        if tokens is alt and alt and raw in _ALT_ENDS:
            tokens = core  # "over double quotes in TS files": what is rejected ends where its context starts
        if raw == TOPIC:
            topic_words = len(core)
            continue
        if raw == REJECTED_BEFORE:
            if tokens is core:
                alt.extend(core[topic_words:])
                del core[topic_words:]
            continue
        if raw[0] >= "\u3040" and re.match(f"[{_CJK}]", raw[0]):
            pieces = _PARTICLE_SPLIT.split(raw)
            if not japanese and not negated:
                pieces = [cut for piece in pieces for cut in _NEG_ZH_CUT.split(piece)]
            for piece in pieces:
                if _NEG_JA.search(piece) or _NEG_MORE_CJK.search(piece):
                    if not negated and not japanese and tokens is core:
                        said_before = len(core)  # 「函数名不要用下划线」: what comes before 不要 is what the rule is about
                    negated = True
                    piece = _NEG_MORE_CJK.sub("", _NEG_JA.sub("", piece))
                piece = _RENYOU_SHI.sub("", _ENDINGS_JA.sub("", _PERMIT_END_JA.sub("", piece))).strip(PARTICLES_JA)
                if not piece or piece in _PARTICLES_ZH:
                    continue
                for word in cjk.words(piece, japanese):
                    if frame.is_weak(word) or word in cjk.WEAK or word == "run":  # 実行 / 跑: as "run ruff"
                        weak.append(word)
                    else:
                        tokens.append(word)
            continue
        if raw in _NEG_EN:
            negated = True
            if raw in _BEFORE_AN_ACT:
                mark = ""  # "in Kotlin never declare with var": where it holds ends where the rule starts
            continue
        if raw == frame.OFF:
            negated = not negated  # "don't turn strict off": strict stays on
            continue
        if raw in _COPULA:
            mark = ""  # "the branch for billing is main": the value is no longer what it is for
        if raw in _POSITIVE_ADVERBS:
            if raw in _BEFORE_AN_ACT:
                mark = ""  # "in Kotlin always declare with val": "declare" is the act, not a place
            continue
        if raw in _STOP or raw in _REVERSAL_WORDS:
            continue
        if raw in _MARKS:
            if raw == "to" and at + 1 < len(raws) and frame.is_verb(raws[at + 1]):
                continue  # "remember to run": an infinitive, not where something goes
            mark = _MARKS[raw]  # "for installing packages": what it is for; "in the tests": where it holds;
            continue  # "to main": where it goes; "from checkout": where it comes from
        if raw in _CONDITION_WORDS or raw in _UNMARKS:
            mark = ""
        if frame.is_weak(raw):
            weak.append(raw)
            continue
        word = raw.strip("/") if _IDENT_SPAN.fullmatch(raw) else frame.lemma(raw)
        if word == "run" and not _names_thing(raws, at):
            weak.append(word)  # "run ruff" says no more than "ruff before committing"; "docker compose run" does
            continue
        tokens.append(mark + word if mark and tokens is core else word)
        if word == "target":
            mark = TO  # "PRs target develop": develop is where they go, as "against develop" says
    if not core and not alt:
        core = weak
    core, alt = _branch_named(core), _branch_named(alt)
    if negated and "without" in core and not _CJK_RUN.search(norm):
        # "don't write functions without type hints": every function has them
        negated = False
        core = [t for t in core if t != "without"]
    elif negated and _WITHOUT_CJK.search(norm):
        # 「pytest を走らせずにコミットしない」: never committing without running it is running it before
        negated = False
        core.append(frame.lemma("before"))
    return negated, core, alt, frozenset(core[:said_before] if negated and len(core) > said_before else ())


# the names a repository's long-lived branch goes by: "to the main branch" is "to main"
_BRANCH_NAMES = frozenset({"main", "master", "develop", "development", "dev", "trunk"})


def _branch_named(tokens: list[str]) -> list[str]:
    """These tokens without a "branch" said after the name of the branch a rule goes to or comes from ("push to the
    main branch" is "push to main"). Unmarked, the word stays: it is what tells a value swap in 「devブランチに」."""
    if len(tokens) < 2 or not any(t[-6:] == "branch" for t in tokens):
        return tokens
    return [t for i, t in enumerate(tokens)
            if not (i and tokens[i - 1][:1] in (TO, FROM, SCOPE) and t == tokens[i - 1][:1] + "branch"
                    and tokens[i - 1][1:] in _BRANCH_NAMES)]


def _names_thing(raws: list[str], at: int) -> bool:
    """Whether the word at ``at`` is a subcommand: after a word that names a thing, and before another
    thing or nothing ("docker compose run", "npm run build"; not "the server runs on port 3000")."""
    if at == 0:
        return False
    after = raws[at + 1] if at + 1 < len(raws) else ""
    if after and (after in _STOP or after in _MARKS or after in _UNMARKS or after in _CONDITION_WORDS
                  or after in _NEG_EN or frame.is_weak(after)):
        return False
    before = raws[at - 1]
    return not (before in _STOP or before in _NEG_EN or before in _POSITIVE_ADVERBS or before in _MARKS
                or before in _CONDITION_WORDS or before in (CONTRAST, REJECTED_BEFORE, "without") or frame.is_weak(before)
                or frame.is_verb(before))


def _contrast_or_negation(match: re.Match[str], text: str) -> str:
    """ "use pnpm, not npm" contrasts two values; "do not use npm" negates the claim."""
    before = text[: match.start()].split()
    if not before or before[-1] in _STOP or before[-1] in _NEG_EN or before[-1] in _POSITIVE_ADVERBS:
        return match.group(0)
    return f" {CONTRAST} "


@lru_cache(maxsize=1 << 16)
def _trigrams(text: str) -> frozenset[str]:
    padded = f"  {text} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def trigram_similarity(a: str, b: str) -> float:
    """Dice overlap of character trigrams; works for CJK and Latin alike."""
    ta, tb = _trigrams(a), _trigrams(b)
    if not ta or not tb:
        return 0.0
    return 2 * len(ta & tb) / (len(ta) + len(tb))


def atom_key(atom: dict[str, Any]) -> Key:
    """The identity key of one atom: its wording's frame, or for a reversal whose words name no rule of
    their own the negation of the claim it revokes."""
    text, reverses = str(atom.get("text", "")), str(atom.get("reverses") or "")
    if _MADE:
        made = _MADE.get((text, reverses))
        if made is not None:
            return made
    return _atom_key(text, reverses)


# the words that call a rule named with them off (「…这条规则取消了」, 「…というルールは廃止します」, "the rule about
# X is lifted"), as keys hold them
_CALLED_OFF = frozenset("取消 作废 作廢 废除 廢除 廃止 撤廃 なし 無し 取りやめ".split()) | {SCOPE + "effect"} | frozenset(
    frame.lemma(word) for word in "rule about gone lifted cancelled canceled retired scrapped dropped".split())


# keys made by other processes (the forked workers that key a whole L1 at once), by (text, reverses); a long-lived
# process (the MCP server) that counts several stores keeps at most about as many as ``_atom_key``'s cache
_MADE: dict[tuple[str, str], Key] = {}
_MADE_LIMIT = 200_000


def learn_keys(made: dict[tuple[str, str], Key]) -> None:
    """Keep keys ``_atom_key`` made elsewhere, by (text, reverses), for ``atom_key`` to find."""
    if len(_MADE) + len(made) > _MADE_LIMIT:
        _MADE.clear()
    _MADE.update(made)


def unmade(wordings: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Of these (text, reverses) wordings, those whose key no other process has made for this one."""
    return [wording for wording in wordings if wording not in _MADE]


@lru_cache(maxsize=200_000)
def _atom_key(text: str, reverses: str) -> Key:
    said = claim_key(text)
    if reverses:
        revoked = claim_key(reverses)
        # "Worktrees are no longer needed" names part of the rule it revokes: the revoked rule is the whole
        # frame; "print() is fine for debug output, stop converting…" says more than what it stops
        # (a revoked rule said with the wording's own polarity was read back wrong: the wording is kept)
        named = set(said.tokens) - _CALLED_OFF  # ("drop the rule about X": X)
        if revoked.tokens and said.negated != revoked.negated and named - frame.SLOTS <= set(revoked.tokens):
            return Key(not revoked.negated, revoked.tokens)
        more = set(said.tokens) - set(revoked.tokens)
        if revoked.tokens and said.negated == revoked.negated and more and more <= _CALLED_OFF \
                and set(revoked.tokens) <= set(said.tokens):
            # 「提交前跑测试这条规则取消了」 says the whole rule it calls off, and that it is off: the rule, turned over
            return Key(not revoked.negated, revoked.tokens)
    return said
