"""How two claim keys stand: one claim, a contradiction (and why), or two claims; and candidate blocking.

Exact keys are one claim; near keys (a typo, an inflection) merge only when every difference
is small and no value changed. Contradictions are negation flips, value swaps in the same
frame, and swapped contrasts ("X not Y" / "Y not X"). Blocking buckets name every key a key
could merge or clash with, so no pass compares all pairs. Standard library only.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import AbstractSet, Iterable

from .frame import GUARDED, LANGUAGES, PERMITTED, SLOTS, VERB_LEMMAS, VERB_OF, is_verb, lemma
from .key import CONTRAST, FROM, PURPOSE, SCOPE, TO, Key, trigram_similarity
from ..text import CJK as _CJK, HIRAGANA

_HIRAGANA = re.compile(f"^[{HIRAGANA}]*$")

# the word before a value that makes it single-valued: a swap there is a contradiction
_SLOT_WORDS = frozenset(
    """against into onto to port use using via version branch target targeting base on at with from
    ポート ブランチ バージョン 用 使用""".split()
)
# the slot words that, in a key's sorted words, still say a value takes one place: "use X", "PRs target X",
# "indent with X", "port N" (a preposition such as "to" or "on" may belong to any of the key's words)
_ROLES = (PURPOSE, SCOPE, TO, FROM)
_SWAP_SLOTS = frozenset("use target with via port version branch base ポート ブランチ バージョン 用 使用".split())
_SLOT_CUES_JA = re.compile("(?:ブランチ|ポート|バージョン|使う|使用|使って|向け|に対して|へ|に|用)")
# words that open a condition: a value after them says when the rule applies, not what it is
_CONDITIONS = frozenset(w for word in "before after when whenever if unless until while once".split()
                        for w in (word, lemma(word)))  # keys hold the lemma: "befor", "whil"
# what makes a number a quantity rather than a name: the word before it, or a unit after it
_NUMBER_SLOTS = frozenset("port timeout limit max min length width size retry retri version".split())
_NUMBER_SLOTS_CJK = ("ポート", "ポートは", "端口", "端口是", "は", "を", "に", "为", "是")
_UNITS = ("second", "sec", "minute", "min", "hour", "day", "week", "month", "releas", "retri", "retry", "attempt",
          "worker", "thread", "time", "char", "column", "space", "line", "ms", "mb", "gb", "kb", "percent", "%",
          "秒", "分", "時間", "日", "回", "行", "文字", "天", "次", "个", "小时", "分钟")
# values of a slot that takes one of them whatever the words around it: the language to write or answer in
_LANGUAGES = tuple(sorted(LANGUAGES, key=lambda w: (-len(w), w)))  # the longest name first

CLASS_VERBS = frozenset(VERB_OF.values())
# words of a rule's form, not its subject: "the conventional commits format", "type hints on function signatures"
# and the verbs that say only that something is done to what the rule names ("check ruff", "edit the changelog")
# and the verbs that say only that something is done to what the rule names ("check ruff", "edit the changelog",
# "pytest passes before committing"); "the main branch" is main, "Python version 3.12" Python 3.12
FORM_WORDS = frozenset("format style convention syntax pattern standard signatur typ prefix suffix default"
                        " run check edit pass branch version".split())
_BRANCH = frozenset({"branch"})
# words that finish a verb rather than name a thing ("propagate it up", "clean them out")
_PARTICLES = frozenset("up down out off over away back".split())
# words that narrow how a thing is named without naming another ("the feature branch", "the PR", "a new clone")
_QUALIFIERS = frozenset("featur pr new fresh local current whole own exist port".split())  # "on port 3000" / "on 3000"
_DIGIT = re.compile(r"\d")
_CJK_START = re.compile(f"[{_CJK}]")
_OBJECT = re.compile(r"[/_]|\.[a-z]|^\.|^\d+\.\d|^-|^!")  # a path, file name, identifier, version or flag


def _is_value(token: str) -> bool:
    return token == "redactedsecret" or _DIGIT.search(token) is not None or is_object(token)


def is_object(token: str) -> bool:
    """A path, file name, dotted identifier or version: it names one thing, so another one is another thing."""
    return _OBJECT.search(token) is not None and not _CJK_START.match(token)


def _language_swap(x: str, y: str) -> str:
    """The same words with one language named instead of another ("英語" / "日本語", "用英文写" / "用中文写")."""
    for first in _LANGUAGES:
        if first not in x:
            continue
        for second in _LANGUAGES:
            if second != first and second in y and x.replace(first, "\x00", 1) == y.replace(second, "\x00", 1):
                return f"language: {first} / {second}"
    return ""


@lru_cache(maxsize=1 << 16)
def _typo(a: str, b: str) -> bool:
    """Two tokens that differ only by a slip of the keyboard or an inflection."""
    if _is_value(a) or _is_value(b):
        return False
    if _CJK_START.match(a) and _CJK_START.match(b):
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal" and not (_HIRAGANA.match(a[i1:i2]) and _HIRAGANA.match(b[j1:j2]) and max(i2 - i1, j2 - j1) <= 2):
                return False
        return True
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 2:
        return False
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.8


@dataclass(frozen=True)
class Relation:
    """How two keys stand: the same claim, a contradiction (with why), or unrelated."""

    kind: str  # same | contradiction | distinct
    reason: str = ""


SAME = Relation("same")
DISTINCT = Relation("distinct")
# why two keys are one claim, as `inspect --why` says it
_same_because = partial(Relation, "same")
_ONE_FRAME = _same_because("the same words once a slot word or a named alternative is set aside")
_ONE_AIM = _same_because("the same rule, one wording also saying what it is for")
_RULED_OUT = _same_because("a prohibition, and the choice that replaces what it prohibits")
_SLIP = _same_because("the same words but for a slip of the keyboard or an inflection")
_OTHER_ROLES = _same_because("the same words, one wording saying where a thing goes or holds, the other not")
_ONE_WORD_MORE = _same_because("the same rule, one wording naming one thing more precisely")
_SAYS_MORE = _same_because("the same rule, one wording adding words that name no other thing, place or moment")
_ONE_CHOICE = _same_because("the same choice: one thing taken over another, where the rule holds said alike")


def candidate(a: Key, b: Key) -> str:
    """Why two keys may be one claim, for a person to settle ("" when nothing says so): the same polarity,
    and one frame the other's with up to three words more (a condition, a scope, a detail), or the same frame
    said for two ends. Only asked of keys ``relate`` finds distinct."""
    if a.negated != b.negated:
        return ""
    ca, aa = frame_of(a.tokens)
    cb, ab = frame_of(b.tokens)
    if aa and ab and aa != ab:
        return ""
    ca, cb = ca - purpose_of(ca), cb - purpose_of(cb)
    small, large = (ca, cb) if len(ca) <= len(cb) else (cb, ca)
    extra = large - small
    if len(small) + len(aa | ab) >= 2 and small < large and len(extra) <= 3 and not any(_is_value(t) for t in extra):
        return "one wording says more: " + " ".join(sorted(w.lstrip(PURPOSE + SCOPE + TO + FROM) for w in extra))
    if ca == cb and ca:
        return "the same rule said for two ends"
    return ""


def apart(a: Key, b: Key, merge_similarity: float = 0.85) -> bool:
    """Whether two keys can never be one claim, whatever joins each of them to others: they clash, or (not
    being one claim themselves) differ by polarity, by a value, a condition or a language one of them alone
    names, or by where a thing goes or holds. Clusters joined through near wordings stop where such a pair
    would meet."""
    if a.tokens == b.tokens:
        return a.negated != b.negated
    kind = relate(a, b, merge_similarity).kind
    if kind != "distinct":
        return kind == "contradiction"
    ca, aa = frame_of(a.tokens)
    cb, ab = frame_of(b.tokens)
    if a.negated != b.negated:
        (cn, _an), (_cp, ap) = ((ca, aa), (cb, ab)) if a.negated else ((cb, ab), (ca, aa))
        # a prohibition and a choice that rejects some of what it prohibits may be one rule said two ways
        if not (ap and _overlap(things_of(cn), things_of(ap))):
            return True
    bare_a, bare_b = _bare_set(ca), _bare_set(cb)
    for mine, theirs in ((bare_a, bare_b), (bare_b, bare_a)):
        for word in mine - theirs:
            if (_is_value(word) or word in _CONDITIONS or word in _LANGUAGES) and not _overlap({word}, theirs):
                return True  # "… 3.12" / "… 3.11", "before pushing" / "after pushing", in English / in German
    for words, theirs in ((ca, bare_b), (cb, bare_a)):
        if any(w[:1] in (SCOPE, TO, FROM) and unmarked(w) not in theirs for w in words):
            return True  # "… in the tests", "… to develop": where it holds or goes, said by one alone
    return False


def relate(a: Key, b: Key, merge_similarity: float = 0.85) -> Relation:
    """Whether two claim keys are one claim, a contradiction, or two claims."""
    if a.negated == b.negated and a.tokens == b.tokens:
        return SAME
    if not a.tokens or not b.tokens:
        return DISTINCT
    ca, aa = frame_of(a.tokens)
    cb, ab = frame_of(b.tokens)
    # one frame: the same thing done, said with or without its slot word ("PRs go into develop" / "open PRs
    # against develop") and whatever alternative it names ("use httpx" / "use httpx instead of requests";
    # "not beside the module" / "not next to the source files" is how it was said, not what it asks)
    same_frame = bool(ca) and ca == cb
    # said with or without what it is for ("prefer httpx over requests for HTTP calls"), never for two ends
    pa, pb = purpose_of(ca), purpose_of(cb)
    same_aim = bool(ca - pa) and ca - pa == cb - pb and (not pa or not pb) and aa == ab
    if a.negated != b.negated:
        negative, positive = (a, b) if a.negated else (b, a)
        cn, an = frame_of(negative.tokens)
        cp, ap = frame_of(positive.tokens)
        if not an and ap and _rules_out(cn, cp, ap):
            return _RULED_OUT  # "don't use requests" is what "use httpx instead of requests" rules out
        if same_frame or a.tokens == b.tokens or _near(a.tokens, b.tokens, merge_similarity) \
                or _same_words_other_roles(ca, cb) or _same_words_other_roles(ca - _BRANCH, cb - _BRANCH):
            return Relation("contradiction", "negation flip")  # (「main 分支」 is main, as "the main branch" is)
        # a broad prohibition against a rule that does what it forbids in more words ("stop using -n auto" /
        # "always run pytest with -n auto"); a broad permission beside a narrower prohibition, or a narrower
        # permission beside a broad prohibition ("docs-only changes may go to main"), is left alone
        forbidden, done = cn - purpose_of(cn), cp - purpose_of(cp)
        if len(forbidden) >= 2 and forbidden < done and len(done - forbidden) <= 3 and not an and not ap \
                and PERMITTED not in positive.tokens and purpose_of(cn) <= cp and not _done_first(forbidden, done) \
                and len(_plain_nouns(done - forbidden)) <= 1:
            return Relation("contradiction", "prohibits what the rule does")
        return DISTINCT
    if same_frame:
        return _ONE_FRAME
    if _same_words_other_roles(ca, cb) and aa == ab:
        return _OTHER_ROLES
    if same_aim:
        return _ONE_AIM
    if not a.negated and ca - pa == cb - pb and ca - pa and (not pa or not pb) and (not aa or not ab):
        return _ONE_AIM  # "use f-strings for string formatting" / "use f-strings, not str.format"
    if not a.negated and _same_choice(ca, aa, cb, ab):
        return _ONE_CHOICE
    if _one_word_more(ca, aa, cb, ab):
        return _ONE_WORD_MORE
    if _says_more(ca, aa, cb, ab):
        return _SAYS_MORE
    if not a.negated and (_takes_rejected(ca, aa, cb, ab) or _takes_rejected(cb, ab, ca, aa)):
        return Relation("contradiction", "choice reversed")  # "use requests" after "use httpx, not requests"
    if _swapped_contrast(a.tokens, b.tokens):
        return Relation("contradiction", "swapped values")
    if _near(a.tokens, b.tokens, merge_similarity):
        return _SLIP
    slot = _value_swap(a.tokens, b.tokens, a.negated)
    if slot:
        return Relation("contradiction", slot)
    return DISTINCT


def _plain_nouns(words: frozenset[str]) -> set[str]:
    """The words that may name a subject of their own: not an act, a moment, a value, a rule's form, a place
    or a particle ("the payments worker uses X" is about the payments worker, narrower than "never use X")."""
    return {w for w in words if w[:1] not in _ROLES and w not in CLASS_VERBS and w not in VERB_LEMMAS
            and w not in _CONDITIONS and w not in FORM_WORDS and w not in _PARTICLES and not _is_value(w)}


def _done_first(forbidden: frozenset[str], done: frozenset[str]) -> bool:
    """Whether the rule names what is forbidden only as the moment of its own step: "run pytest before pushing
    to main" is not pushing to main, and "never push to main" does not forbid it."""
    more = {unmarked(w) for w in done - forbidden}
    if not more & _CONDITIONS or more & GUARDED:
        return False  # ("always squash commits when you merge": the moment is merging, its own step)
    acts = {w for w in map(unmarked, forbidden) if w in CLASS_VERBS or w in VERB_LEMMAS}
    return bool(acts) and acts <= GUARDED  # ("never delete merged branches" forbids deleting, not merging)


def _rules_out(cn: frozenset[str], cp: frozenset[str], ap: frozenset[str]) -> bool:
    """Whether a prohibition forbids what a choice rejects, about the same subject: it names every rejected
    thing and nothing the choice does not say, and holds wherever the choice holds ("don't use requests" /
    "use httpx instead of requests"; "never hand-edit the terraform state" / "change the terraform state with
    `terraform state mv`, not by hand"; not "… in the tests", said by the choice alone)."""
    forbidden, rejected, said = _bare_set(cn), _bare_set(ap), _bare_set(cp)
    places = _bare_set(w for w in cp if w[:1] == SCOPE)
    if not places <= forbidden or not all(_overlap({word}, forbidden) for word in rejected):
        return False  # (moment.js and moment name one library)
    return all(word in said or _overlap({word}, rejected) for word in forbidden - rejected)


def _one_word_more(ca: frozenset[str], aa: frozenset[str], cb: frozenset[str], ab: frozenset[str]) -> bool:
    """One frame the other's and one plain word more ("delete the branch after merging" / "delete the feature
    branch once it's merged"), the same alternative or one named by one wording alone. Not a value, a place,
    a role or a purpose: "… in the tests", "… to develop", "port 8080" make another rule."""
    if aa and ab and aa != ab:
        return False
    small, large = (ca, cb) if len(ca) < len(cb) else (cb, ca)
    if len(large) - len(small) != 1 or not small < large or len(small - purpose_of(small)) < 3:
        return False  # "use python 3.11" / "use python 3.11 and poetry": two words say too little to add to
    (extra,) = large - small
    if extra not in _QUALIFIERS:
        return False  # "bump the zod version" / "bump the version": a name more is another thing
    return extra[:1] not in _ROLES and not _is_value(extra) and not _CJK_START.match(extra) \
        and extra not in _CONDITIONS and extra not in CLASS_VERBS and not is_verb(extra) \
        and extra not in _LANGUAGES


def _says_more(ca: frozenset[str], aa: frozenset[str], cb: frozenset[str], ab: frozenset[str]) -> bool:
    """One wording's words all said by the other, which adds up to three plain words: not a value, a place,
    a condition, a language or an end ("run ruff before committing" / "run `ruff check` before every commit";
    "never deploy on Fridays" / "never deploy to production on a Friday" is an end, so two rules). What each
    rejects must agree where both say it."""
    if aa and ab and not _overlap(_bare_set(aa), _bare_set(ab)):
        return False
    bare_a, bare_b = _bare_set(ca), _bare_set(cb)
    small, large = (bare_a, bare_b) if len(bare_a) < len(bare_b) else (bare_b, bare_a)
    extra = large - small
    if not small < large or len(extra) > 3 or len(small) < 2 or not things_of(frozenset(small)):
        return False
    return extra <= FORM_WORDS


def _same_words_other_roles(ca: frozenset[str], cb: frozenset[str]) -> bool:
    """The same words with a role said in one wording and not the other ("update CHANGELOG.md in every PR" /
    "add a line to the changelog for each pull request"); where both say where a thing goes or comes from,
    they must say it alike ("from develop to main" is not "from main to develop")."""
    if not ca or _plain_frame(ca) != _plain_frame(cb):
        return False  # (".unwrap()" and "unwrap" name one method)
    ends_a = {w for w in ca if w[:1] in (TO, FROM)}
    ends_b = {w for w in cb if w[:1] in (TO, FROM)}
    return not ends_a or not ends_b or ends_a == ends_b


def _takes_rejected(ca: frozenset[str], aa: frozenset[str], cb: frozenset[str], ab: frozenset[str]) -> bool:
    """Whether rule a takes what choice b rejects, where b holds ("use requests" after "use httpx, not
    requests"; "print() is fine for debug output" after "never print for debug output, log it"): what a is
    for is said by b too, and neither holds in a narrower place."""
    if aa or not ab:
        return False
    purpose = purpose_of(ca)
    subject = ca & cb  # what both speak of ("unit tests"), beside the value they differ on
    if _plain_frame(ca - purpose - subject) != _plain_frame(ab - purpose_of(ab)):
        return False  # (".unwrap" and "unwrap" name one method; "new code in Java" takes what "Kotlin, not Java" rejects)
    said = {unmarked(w) for w in cb | ab}
    if not {unmarked(w) for w in purpose} <= said:
        return False
    value = cb - subject - purpose_of(cb)
    scope_b = {w for w in cb if w[:1] == SCOPE}
    if value and value <= scope_b:
        return True  # "unit tests go in tests/unit/, not next to the source files": the place is the value
    rejected = _bare_set(ab)  # ("in Java" is where the rule holds and the thing the choice rejects)
    return {w for w in ca if w[:1] == SCOPE and unmarked(w) not in rejected} == scope_b


@lru_cache(maxsize=1 << 17)
def _plain_frame(words: frozenset[str]) -> frozenset[str]:
    """A frame's words bare and without a leading dot: what two frames compare by, made once a frame."""
    return frozenset(w.lstrip(".") or w for w in _bare_frame(words))


def _same_choice(ca: frozenset[str], aa: frozenset[str], cb: frozenset[str], ab: frozenset[str]) -> bool:
    """Two choices of one thing over another ("prefer dataclasses over plain dicts" / "use a dataclass
    instead of passing dicts around"): both name what they reject, share a thing taken and a thing
    rejected, neither takes what the other rejects, and they hold in the same place."""
    if not aa or not ab:
        return False
    if not _places_alike(ca, cb):
        return False  # "… in the tests" is a narrower rule
    pa, pb = purpose_of(ca), purpose_of(cb)
    if pa and pb and pa != pb:
        return False  # "… for CLI parsing" / "… for date handling": two ends
    placed_a, placed_b = _said_places(ca, cb), _said_places(cb, ca)
    ends_a, ends_b = _bare_set(ca - unroled(ca) - placed_a), _bare_set(cb - unroled(cb) - placed_b)
    if (ends_a or ends_b) and not _overlap(ends_a, ends_b):
        return False  # "open PRs against main, not dev" / "… against next, not dev": another value taken
    taken_a, taken_b = things_of(unroled(ca) | placed_a), things_of(unroled(cb) | placed_b)
    if not _overlap(taken_a, taken_b) or not _overlap(things_of(aa), things_of(ab)):
        return False
    if _overlap(taken_a, things_of(ab)) or _overlap(taken_b, things_of(aa)):
        return False
    # one names no thing the other does not ("use a dataclass, not a dict" / "model records as dataclasses,
    # not dicts"); each naming its own ("deploy ratings to us-east-1" / "deploy sessions to us-east-1") is two
    nouns_a = {w for w in taken_a if not is_verb(w)}
    nouns_b = {w for w in taken_b if not is_verb(w)}
    shared = {w for w in nouns_a if _overlap({w}, nouns_b)} | {w for w in nouns_b if _overlap({w}, nouns_a)}
    return not (nouns_a - shared and nouns_b - shared)


def _places_alike(ca: frozenset[str], cb: frozenset[str]) -> bool:
    """Whether every place one frame says the rule holds in is a word of the other ("reports are rendered in
    Europe/Berlin" / "reports use Europe/Berlin"): a place said by one alone makes a narrower rule."""
    for mine, theirs in ((ca, cb), (cb, ca)):
        said = _bare_set(theirs)
        if any(w[:1] == SCOPE and unmarked(w) not in said for w in mine):
            return False
    return True


def _said_places(words: frozenset[str], other: frozenset[str]) -> frozenset[str]:
    """The places of one frame the other says as a thing ("rendered in Europe/Berlin" / "use Europe/Berlin")."""
    said = _bare_set(other)
    return frozenset(w for w in words if w[:1] == SCOPE and unmarked(w) in said and PURPOSE + unmarked(w) not in other)


def unroled(words: frozenset[str]) -> frozenset[str]:
    """A frame's words without those that say where it holds or goes: they are the place, not the thing."""
    return frozenset(w for w in words if w[:1] not in (SCOPE, TO, FROM))


# A key's frame and the sets made from it are asked for again in every pair the key stands in (a bucket pairs
# each key with dozens of others): they are made once a frame and kept.
_PER_FRAME = 1 << 17


@lru_cache(maxsize=_PER_FRAME)
def things_of(words: frozenset[str]) -> frozenset[str]:
    """The words of a frame that name something (not its verb, role or what it is for)."""
    return frozenset(unmarked(w) for w in words if w[:1] != PURPOSE and w not in CLASS_VERBS and w not in SLOTS)


def _bare_set(words: Iterable[str]) -> frozenset[str]:
    if isinstance(words, frozenset):
        return _bare_frame(words)
    return frozenset(unmarked(w) for w in words)


@lru_cache(maxsize=_PER_FRAME)
def _bare_frame(words: frozenset[str]) -> frozenset[str]:
    return frozenset(unmarked(w) for w in words)


def _overlap(xs: AbstractSet[str], ys: AbstractSet[str]) -> bool:
    """Whether two sets of words name a common thing (".format" and "str.format" name one method); a verb
    both say counts only where one of them names nothing else ("log it" / "log with the logging module",
    not "pin actions to a SHA" / "pin images to a digest")."""
    nouns_x, nouns_y = {w for w in xs if not is_verb(w)}, {w for w in ys if not is_verb(w)}
    if nouns_x and nouns_y:
        xs, ys = nouns_x, nouns_y
    if xs & ys:
        return True
    return any(len(x) > 2 and len(y) > 2 and (x.endswith("." + y.lstrip(".")) or y.endswith("." + x.lstrip("."))
                                              or x.startswith(y + ".") or y.startswith(x + "."))
               for x in xs for y in ys if "." in x or "." in y)


@lru_cache(maxsize=_PER_FRAME)
def purpose_of(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words if w.startswith(PURPOSE))


@lru_cache(maxsize=_PER_FRAME)
def frame_of(tokens: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """What a key does and what it rejects, without the slot words that name no value."""
    core, rejected = core_of(tokens), _rejected(tokens)
    return frozenset(core) - SLOTS, frozenset(rejected) - SLOTS


def _near(a: tuple[str, ...], b: tuple[str, ...], threshold: float) -> bool:
    """Same length, every differing token a slip or an inflection, and close as whole wordings."""
    if len(a) != len(b):
        return False
    differing = [(x, y) for x, y in zip(a, b) if x != y]
    if not differing or len(differing) > max(1, len(a) // 3):
        return not differing
    if not all(_typo(x, y) for x, y in differing):
        return False
    if all(_CJK_START.match(x) for x, _y in differing):
        return True  # only okurigana or particles differ: short keys would fail a trigram bar for nothing
    return trigram_similarity(" ".join(a), " ".join(b)) >= threshold


def unmarked(token: str) -> str:
    """A word without the mark of its role ("to main" and a rejected "main" name one value)."""
    return token[1:] if token[:1] in _ROLES and len(token) > 1 else token


def _bare(tokens: Iterable[str]) -> list[str]:
    return [unmarked(t) for t in tokens]


@lru_cache(maxsize=_PER_FRAME)
def _contrast_words(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A contrast's tokens without slot words ("用 merge 就行，不要 rebase" swaps "rebase, 别 merge" as it allows),
    and all of them bare and sorted."""
    kept = tuple(t for t in tokens if t not in SLOTS)
    return kept, tuple(sorted(_bare(kept)))


def _swapped_contrast(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    if CONTRAST not in a or CONTRAST not in b:
        return False
    (a, words_a), (b, words_b) = _contrast_words(a), _contrast_words(b)
    if words_a != words_b or CONTRAST not in a or CONTRAST not in b:
        return False
    ia, ib = a.index(CONTRAST), b.index(CONTRAST)
    if sorted(_bare(a[:ia])) == sorted(_bare(b[:ib])):
        return False
    # what one takes the other rejects, both ways ("use pnpm, not npm" / "use npm, not pnpm")
    return bool(set(_bare(a[:ia])) & set(_bare(b[ib + 1:]))) and bool(set(_bare(b[:ib])) & set(_bare(a[ia + 1:])))


def _value_swap(a: tuple[str, ...], b: tuple[str, ...], negated: bool = False) -> str:
    """A value replaced in the same frame where the slot takes one value ("port 8080" / "port 8443").

    Prohibitions hold for a set ("never push to main", "never push to release" both stand), and
    a different path, file, identifier or version is a different object, never a new value.
    """
    if negated:
        return ""
    ca, cb = core_of(a), core_of(b)
    if len(ca) != len(cb):
        # a slot word said in one wording only ("PRs target main" / "open PRs against trunk"): where a thing
        # goes, swapped, is still a swap
        ca, cb = tuple(t for t in ca if t not in SLOTS), tuple(t for t in cb if t not in SLOTS)
        differ = set(ca) ^ set(cb)
        if len(ca) != len(cb) or not differ or any(t[:1] not in (TO, FROM) for t in differ):
            return ""
    if len(ca) < 1:
        return ""
    sa, sb = set(ca), set(cb)
    only_a, only_b = sa - sb, sb - sa
    if len(only_a) != 1 or len(only_b) != 1:
        return ""
    x, y = next(iter(only_a)), next(iter(only_b))
    language = _language_swap(x, y)
    if language:
        return language
    if x in _SLOT_WORDS or y in _SLOT_WORDS:
        return ""  # "Python: use 3.12" / "Python version 3.12": a slot word said or not
    if (_CJK_START.match(x) and len(x) < 2) or (_CJK_START.match(y) and len(y) < 2):
        return ""  # one kanji or hanzi is a stem cut from its word, not surely a value
    role = x[0] if x[0] in _ROLES else ""
    if role != (y[0] if y[0] in _ROLES else ""):
        return ""  # a value and a word of another role ("to main" / "from main") are two things
    if role in (PURPOSE, SCOPE):
        return ""  # "… in TypeScript" / "… in Python": where a rule holds, and both can
    x, y = x[len(role):], y[len(role):]
    if len(ca) < 2 or _typo(x, y) or is_object(x) or is_object(y):
        return ""
    if x.isdigit() and y.isdigit():
        # a port, a limit or an amount is a value; "migration 0041" / "PR 12" name something
        return f"value swap: {x} / {y}" if _amount(sa, x) else ""
    if CONTRAST in a and CONTRAST in b and not (set(_rejected(a)) & set(_rejected(b))) - _SLOT_WORDS:
        return ""  # "pnpm, not npm" and "pytest, not unittest": two choices for two jobs
    if len([t for t in ca if t not in _SLOT_WORDS]) < 2:
        return ""  # "use pnpm" / "use pytest": nothing says it is the same job
    if _CONDITIONS & sa:
        return ""  # "… before pushing to dev" / "… to release": a condition, and both can hold
    if role:
        return f"value swap: {x} / {y}"  # "PRs go into develop" / "… into main": one place they go
    slots = sa & _SWAP_SLOTS
    if slots:
        return f"value swap after '{min(slots)}': {x} / {y}"
    joined = " ".join(ca)
    if _CJK_START.search(joined) and not _CJK_START.match(x) and not _CJK_START.match(y) and _SLOT_CUES_JA.search(joined):
        return f"value swap: {x} / {y}"
    return ""


def _amount(tokens: set[str], number: str) -> bool:
    """Whether a number is a quantity of its slot: beside "port", "timeout", … or a unit."""
    if number.startswith("0") and len(number) > 1:
        return False  # zero-padded: a sequence number (0041), not an amount
    return any(t in _NUMBER_SLOTS or t.endswith(_NUMBER_SLOTS_CJK) or t.startswith(_UNITS) for t in tokens if t != number)


def _rejected(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """What a contrast rejects: the tokens after it ("use X, not Y" → "Y")."""
    return tokens[tokens.index(CONTRAST) + 1 :] if CONTRAST in tokens else ()


def core_of(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """The accepted part of a claim: what precedes a contrast ("use X, not Y" → "use X")."""
    return tokens[: tokens.index(CONTRAST)] if CONTRAST in tokens else tokens


def replaced_by_correction(correction: Key, other: Key) -> bool:
    """A correction "X, not Y" contradicts an earlier claim that says Y in the same frame."""
    if CONTRAST not in correction.tokens or correction.negated != other.negated:
        return False
    accepted, rejected = _sides(correction.tokens)
    if not accepted or not rejected:
        return False
    said = _sides(other.tokens)[0]
    replaced = accepted - said  # the accepted value, where the other claim said the rejected one
    return 1 <= len(replaced) <= 2 and (accepted - replaced) | rejected == said


@lru_cache(maxsize=1 << 17)
def _sides(tokens: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """What a key takes and what it rejects, bare: asked of a key in every pair it stands in."""
    return frozenset(_bare(core_of(tokens))), frozenset(_bare(_rejected(tokens)))
