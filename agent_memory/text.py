"""Text as every stage cuts it: what counts as CJK, folding, stop words, words, stems, content terms.

Claim keys, prompt terms, query planning and ``inspect`` all cut text here, so they agree.
It also holds the relevance floor of prompt recall, cheap enough for every prompt.

Claim identity (``claims.claim_key``) is precise and costly to load; recall only asks which
content words a prompt and an atom share. These terms come from the same normalisation
(NFKC, case folding, light stemming, Japanese particles and endings). Words are cut by
character class, and Japanese particles and endings by word lists, rather than by regular
expressions: importing ``re`` costs about as much as starting the interpreter, and nothing here
loads it (claim keys compile the same lists as patterns).
"""

from __future__ import annotations

PROMPT_SCAN_CHARS = 4000  # a pasted log is not read whole to find what a prompt is about
PROMPT_TERMS = 32

# words that say little about what a text is about; they never count towards relevance
_WEAK = frozenset(
    """use using used new make made get got let want need like thing things way also just now ok okay yes sure
    help try see look know think go going what how why where when which who whose there here some any all more
    most much many one two other again still into onto out up down over thank thanks hi hello
    and or but if than as at by for from in on to with without about before after while whether via per
    their them these those has have had having""".split()
)
# the word lists and Japanese patterns of claim keys (claims.py builds on them too)
NEGATION_WORDS = frozenset({"never", "not", "dont", "don't", "doesnt", "doesn't", "no", "avoid", "stop", "shouldnt",
                            "shouldn't", "mustnt", "mustn't", "cannot", "cant", "can't", "wont", "won't", "nobody",
                            "neither"})
EMPHASIS_WORDS = frozenset({"always", "ever", "every", "each", "time", "whenever", "forever", "constantly"})
STOP_WORDS = frozenset(
    """a an the i we you they he she it its it's our your my me us this that these those is are was were be been
    being am should must shall will would could can may might do does did please pls kindly just really actually
    also very then so of s t ll d re ve m""".split()
)
# the words a search query drops before bm25: a wider English list, pronouns and function words included
QUERY_STOP_WORDS = frozenset(
    """a about above after again all also am an and any are as at be been before being below between both but by
    can could did do does doing down during each else ever few for from further get got had has have having he her
    here hers herself him himself his how i if in into is it its itself just let me might more most much must my
    myself now of off on once only or other ought our ours ourselves out over own per same shall she should so some
    such than that the their theirs them themselves then there these they this those through to too under until up
    upon us very was we were what whatever when whenever where whether which while who whom whose why will with
    would yet you your yours yourself yourselves
    d ll m re s t ve""".split()
)
# Japanese (and some Chinese) words of polarity and form, as regular expressions for claim keys and as word lists
# for the prompt hook (which never loads ``re``): at one place the first word listed wins, as in an alternation.
NEGATION_JA = "(?:しない|しません|ないで|ない(?:こと|ように)?|禁止|ダメ|だめ|いけない|べからず|するな|な$|不要|别|別|不能)"
_NEGATIONS_JA = ("しない", "しません", "ないで", "ないこと", "ないように", "ない", "禁止", "ダメ", "だめ", "いけない", "べからず",
                 "するな", "不要", "别", "別", "不能")  # NEGATION_JA word by word, but for "な", which counts only last
_EMPHASES_JA = ("必ず", "常に", "絶対に", "絶対", "いつも", "毎回", "決して", "今後は", "今後", "これからは", "一律", "都要", "总是",
                "總是", "一定要", "永远", "永遠")
EMPHASIS_JA = "(?:" + "|".join(_EMPHASES_JA) + ")"
_ENDINGS_JA = ("してください", "して下さい", "しないでください", "してね", "してほしい", "しましょう", "して", "します", "する",
               "しない", "ください", "下さい", "ること", "こと", "ように", "です", "ます", "だ", "よ", "ね", "。")
ENDINGS_JA = "(?:" + "|".join(_ENDINGS_JA) + ")+$"  # one or more of them, to the end
# a one-character particle between two non-hiragana characters separates content words
PARTICLE_SPLIT_JA = "(?<=[^\u3040-\u309f])[はがをにでとのもへや](?=[^\u3040-\u309f])"
PARTICLES_JA = "をはがにでとのもへや"
# grammar, negation, emphasis and contrast: what a claim's polarity is made of, not its topic
_SKIP = _WEAK | STOP_WORDS | NEGATION_WORDS | EMPHASIS_WORDS | {"instead", "rather", "versus", "vs", "remember"}
# The one definition of CJK text, as regular-expression class bodies (no brackets) for those who compile
# patterns: ideographic marks, kana, CJK ideographs (with extension A), hangul, compatibility
# ideographs and half-width katakana.
HIRAGANA = "\u3040-\u309f"
KATAKANA = "\u30a0-\u30ff\uff66-\uff9f"
HAN = "\u3005-\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK = "\u3005-\u3007\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_CJK_FIRST = "\u3005"  # no CJK character sorts below this one


def _cjk_char(ch: str) -> bool:
    return (
        "\u3040" <= ch <= "\u9fff"
        or "\u3005" <= ch <= "\u3007"
        or "\uac00" <= ch <= "\ud7af"
        or "\uf900" <= ch <= "\ufaff"
        or "\uff66" <= ch <= "\uff9f"
    )


def is_cjk(term: str) -> bool:
    """Whether a text holds any CJK character (the one test every stage uses)."""
    return any(_cjk_char(ch) for ch in term)


def fold(text: str) -> str:
    """NFKC, then case folding: the form every comparison of words is made in (ASCII is its own NFKC form)."""
    if not text.isascii():
        import unicodedata

        text = unicodedata.normalize("NFKC", text)
    return text.casefold()


def _replaced(text: str, found: "tuple[str, ...]", by: str, last: str = "") -> str:
    """``text`` with each of ``found`` replaced by ``by``, left to right, the first listed winning at a place (what
    ``re.sub`` does with their alternation); ``last`` too where it ends the text."""
    firsts = {word[0] for word in found}
    out: list[str] = []
    at = start = 0
    while at < len(text):
        word = next((w for w in found if text.startswith(w, at)), None) if text[at] in firsts else None
        if word is None and last and at == len(text) - len(last) and text.endswith(last):
            word = last
        if word is None:
            at += 1
            continue
        out += (text[start:at], by)
        at = start = at + len(word)
    out.append(text[start:])
    return "".join(out)


def _without_endings(text: str) -> str:
    """``text`` without the longest tail made wholly of ``_ENDINGS_JA`` (what ``re.sub(ENDINGS_JA, "", text)`` does)."""
    ends = [False] * len(text) + [True]  # ends[i]: text[i:] is made of endings
    for at in range(len(text) - 1, -1, -1):
        ends[at] = any(text.startswith(e, at) and ends[at + len(e)] for e in _ENDINGS_JA)
    return text[: ends.index(True)]


def _hiragana(ch: str) -> bool:
    return "\u3040" <= ch <= "\u309f"


def _particle_split(text: str) -> list[str]:
    """``text`` cut at each one-character particle between two characters that are not hiragana (PARTICLE_SPLIT_JA)."""
    pieces, start = [], 0
    for at in range(1, len(text) - 1):
        if text[at] in PARTICLES_JA and not _hiragana(text[at - 1]) and not _hiragana(text[at + 1]):
            pieces.append(text[start:at])
            start = at + 1
    pieces.append(text[start:])
    return pieces


def words(text: str) -> list[str]:
    """Runs of letters, and numbers with their inner dots (``3.11``); ``_`` and punctuation separate.

    The same cut as the regular expression ``\\d+(?:\\.\\d+)*|[^\\W\\d_]+``.
    """
    found = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isdecimal():
            j = i + 1
            while j < n and (text[j].isdecimal() or (text[j] == "." and j + 1 < n and text[j + 1].isdecimal())):
                j += 1
        elif ch.isalnum():
            j = i + 1
            while j < n and text[j].isalnum() and not text[j].isdecimal():
                j += 1
        else:
            i += 1
            continue
        found.append(text[i:j])
        i = j
    return found


# characters that join the pieces of one identifier: src/cart/v3/handlers.py, get_user_name, 1.26.4, x-request-id
IDENT_JOINERS = "._/-\\"


def identifiers(text: str) -> list[str]:
    """The identifiers of a text, whole, in order: paths, file names, versions, snake_case and camelCase names,
    words with digits attached (``v3``, ``python3``, ``10am``). Plain words and plain numbers are not identifiers.
    """
    found: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if not (text[i].isalnum() or text[i] in IDENT_JOINERS):
            i += 1
            continue
        j = i
        while j < n and (text[j].isalnum() or text[j] in IDENT_JOINERS):
            j += 1
        run = text[i:j].strip(IDENT_JOINERS)
        i = j
        if len(run) >= 2 and _is_identifier(run) and run not in found:
            found.append(run)
    return found


def _is_identifier(run: str) -> bool:
    letters = digits = False
    previous = ""
    for ch in run:
        if ch in IDENT_JOINERS:
            if previous in IDENT_JOINERS:
                return False  # "a..b", "--": punctuation, not one name
            return True if _joined(run) else False
        if ch.isdecimal():
            digits = True
        elif ch.isalpha():
            if letters and ch.isupper() and previous.islower():
                return True  # camelCase
            letters = True
        previous = ch
    return letters and digits


def _joined(run: str) -> bool:
    """Whether every joiner in ``run`` stands between two letters or digits."""
    for k, ch in enumerate(run):
        if ch in IDENT_JOINERS and not (0 < k < len(run) - 1 and run[k - 1].isalnum() and run[k + 1].isalnum()):
            return False
    return True


def identifier_parts(ident: str) -> list[str]:
    """What an identifier is made of, casefolded: its file name (of a path), its pieces between joiners, and the
    words and numbers of each piece (camelCase and digits split off): ``src/Cart/v3/getUser.py`` → getuser.py, src,
    cart, v3, getuser, py, v, 3, get, user."""
    parts: list[str] = []
    if "/" in ident or "\\" in ident:
        base = ident.replace("\\", "/").rsplit("/", 1)[-1]
        if any(j in base for j in IDENT_JOINERS):
            parts.append(base.casefold())
    pieces = [p for p in _split_joiners(ident) if p]
    parts.extend(p.casefold() for p in pieces)
    for piece in pieces:
        parts.extend(w.casefold() for w in _sub_words(piece))
    return [p for p in dict.fromkeys(parts) if p != ident.casefold()]


def identifier_words(text: str) -> list[str]:
    """The words inside a text's identifiers that a word tokenizer does not see apart: camelCase pieces and
    letters cut from digits (``getUserName`` → get, user, name; ``python3`` → python), casefolded.

    The runs ``identifiers`` walks one character at a time are found here in C: the text's bytes go
    through a table into their classes, and only a run holding a place where a word can be cut (a
    letter beside a digit, a lower-case letter before an upper-case one) or a non-ASCII character is
    cut into words at all; what each such run gives is remembered.
    """
    raw = text.encode("utf-8", "surrogatepass")
    classes = raw.translate(_RUN_CLASSES)
    # each search is a pass over the whole text: a letter beside a digit is looked for only where a digit is, in
    # the classes with both cases as one; a non-ASCII character only where there is one
    looks = [(classes, b"aA")]
    if b"0" in classes:
        letters = classes.translate(_LETTERS_AS_ONE)
        looks += ((letters, b"L0"), (letters, b"0L"))
    if not text.isascii():
        looks.append((classes, b"x"))
    runs: set[tuple[int, int]] = set()
    for where, cut in looks:
        at = where.find(cut)
        while at >= 0:
            end = classes.find(b" ", at)
            if end < 0:
                end = len(classes)
            runs.add((classes.rfind(b" ", 0, at) + 1, end))
            at = where.find(cut, end)
    if not runs:
        return []
    memory = _RUN_WORDS
    found: dict[str, None] = {}
    for start, end in sorted(runs):
        run = raw[start:end]
        got = memory.get(run)
        if got is None:
            if len(memory) >= _RUN_MEMORY:
                memory.clear()
            got = memory[run] = _run_words(run)
        found.update(dict.fromkeys(got))
    return list(found)


def _byte_class(b: int) -> int:
    """What a byte is to an identifier run: a = lower, A = upper, 0 = digit, . = joiner, x = part of a
    multi-byte character (decided after decoding), space = none (it ends a run)."""
    ch = chr(b)
    if b >= 0x80:
        return ord("x")
    if ch in IDENT_JOINERS:
        return ord(".")
    if ch.isdigit():
        return ord("0")
    if ch.isalpha():
        return ord("a") if ch.islower() else ord("A")
    return ord(" ")


_RUN_CLASSES = bytes(_byte_class(b) for b in range(256))
# where ``_sub_words`` cuts an ASCII piece (letters beside digits: a0 A0 0a 0A; lower before upper: aA), and any
# non-ASCII character (x): a run holding none of them gives no words. Beside digits, both cases are one class (L).
_LETTERS_AS_ONE = bytes.maketrans(b"aA", b"LL")
_JOINER_BYTES = IDENT_JOINERS.encode()
_RUN_WORDS: dict[bytes, tuple[str, ...]] = {}  # a run's words, remembered across texts
_RUN_MEMORY = 200_000  # runs remembered before the memory starts again


def _run_words(run: bytes) -> tuple[str, ...]:
    """The identifier words of one run of bytes (a run holding other characters is cut as ``identifiers`` cuts it)."""
    if run.isascii():
        core = run.strip(_JOINER_BYTES)
        if len(core) < 2 or core.isdigit() or core.isalpha() and (core.islower() or core.isupper() or (
                core[:1].isupper() and core[1:].islower())):
            return ()  # a plain word or number (most runs)
        pieces = [run.decode()]
    else:
        found, piece = [], []
        for ch in run.decode("utf-8", "surrogatepass"):
            if ch.isalnum() or ch in IDENT_JOINERS:
                piece.append(ch)
            elif piece:
                found.append("".join(piece))
                piece = []
        pieces = [*found, "".join(piece)] if piece else found
    got: list[str] = []
    for piece in pieces:
        core = piece.strip(IDENT_JOINERS)
        if len(core) >= 2 and _is_identifier(core):
            got.extend(word.casefold() for part in _split_joiners(core) for word in _sub_words(part) if len(word) >= 2)
    return tuple(got)


def _split_joiners(ident: str) -> list[str]:
    pieces, start = [], 0
    for k, ch in enumerate(ident):
        if ch in IDENT_JOINERS:
            pieces.append(ident[start:k])
            start = k + 1
    pieces.append(ident[start:])
    return pieces


def _sub_words(piece: str) -> list[str]:
    """A piece cut where letters meet digits and where a lower-case letter meets an upper-case one."""
    words_found: list[str] = []
    start = 0
    for k in range(1, len(piece)):
        a, b = piece[k - 1], piece[k]
        if a.isdecimal() != b.isdecimal() or (a.islower() and b.isupper()):
            words_found.append(piece[start:k])
            start = k
    words_found.append(piece[start:])
    return words_found if len(words_found) > 1 else []


def _split_runs(word: str) -> list[tuple[bool, str]]:
    """A word cut where it changes between CJK and other letters: ``checkoutのテスト`` → two runs."""
    runs: list[tuple[bool, str]] = []
    start = 0
    current = _cjk_char(word[0])
    for i in range(1, len(word)):
        cjk = _cjk_char(word[i])
        if cjk != current:
            runs.append((current, word[start:i]))
            start, current = i, cjk
    runs.append((current, word[start:]))
    return runs


def stem(word: str) -> str:
    """Light English stemming shared with claim keys: -ing, -ed, -es after s/x/z, a plural -s."""
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 4 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def content_terms(text: str, limit: int = 0) -> list[str]:
    """The distinct content terms of a text, in order: no grammar, no weak words, no single letters."""
    return list(_term_words(text, limit))


def _term_words(text: str, limit: int = 0) -> dict[str, str]:
    """``content_terms``, each with the word it was first cut from (``pric`` from ``pricing``)."""
    folded = text[:PROMPT_SCAN_CHARS]
    if not folded.isascii():  # ASCII is its own NFKC form; case stays until identifiers are found (camelCase)
        import unicodedata

        folded = unicodedata.normalize("NFKC", folded)
    found: dict[str, str] = {}
    memo = _TOKEN_TERMS
    for token in folded.split():
        terms = memo.get(token)
        if terms is None:
            terms = _token_terms(token)
            if len(memo) < _TOKEN_MEMO:
                memo[token] = terms
        for term, word in terms:
            found.setdefault(term, word)
        if limit and len(found) >= limit:
            break
    if limit and len(found) > limit:
        return dict(list(found.items())[:limit])
    return found


# a token's terms do not depend on its neighbours, and most tokens of a store are a few common words: each is cut
# once per process (a plain dict: the prompt hook runs without ``functools``), up to this many tokens
_TOKEN_MEMO = 1 << 16
_TOKEN_TERMS: dict[str, tuple[tuple[str, str], ...]] = {}


def _token_terms(token: str) -> tuple[tuple[str, str], ...]:
    """The terms of one whitespace-free token, in order, each with the word it was cut from."""
    found: list[tuple[str, str]] = []
    # an identifier counts whole (src/cart/v3/handlers.py, getUserName) and by the pieces plain words lose
    for ident in identifiers(token):
        found.append((ident.casefold(), ident.casefold()))
        for part in identifier_parts(ident):
            if len(part) >= 2 and part not in _SKIP and not part.isdecimal():
                found.append((part if not part.isalpha() else stem(part), part))
    token = token.casefold().replace("’", "'").replace("n't", " not").replace("'", "")
    for word in words(token):
        runs = _split_runs(word) if word[-1] >= _CJK_FIRST or word[0] >= _CJK_FIRST or not word.isascii() else [(False, word)]
        for cjk, run in runs:
            for term in _cjk_terms(run) if cjk else (stem(run),) if run not in _SKIP else ():
                if len(term) >= 2 and term not in _SKIP:
                    found.append((term, term if cjk else run))
    return tuple(found)


def _cjk_terms(run: str) -> list[str]:
    pieces = []
    for part in _replaced(run, _EMPHASES_JA, " ").split():
        for piece in _particle_split(part):
            piece = _without_endings(_replaced(piece, _NEGATIONS_JA, "", last="な")).strip(PARTICLES_JA)
            if piece:
                pieces.append(piece)
    return pieces


def prompt_terms(text: str) -> list[str]:
    """The content terms a prompt is searched by (at most ``PROMPT_TERMS``)."""
    learned = _TERMS_LEARNED.get(text)
    return list(learned) if learned is not None else content_terms(text, PROMPT_TERMS)


# prompt terms other processes made for this one (a reindex's workers, for the index it fills beside them)
_TERMS_LEARNED: dict[str, tuple[str, ...]] = {}
_TERMS_LEARNED_LIMIT = 200_000


def learn_prompt_terms(made: dict[str, tuple[str, ...]]) -> None:
    """Keep the ``prompt_terms`` of texts made elsewhere, for ``prompt_terms`` to find rather than make again."""
    if len(_TERMS_LEARNED) + len(made) > _TERMS_LEARNED_LIMIT:
        _TERMS_LEARNED.clear()
    _TERMS_LEARNED.update(made)


def prompt_words(text: str) -> dict[str, str]:
    """``prompt_terms``, each with the word it was cut from: what a full-text index that stems words its own way
    (FTS5's porter: "pricing" → "price", where ours gives "pric") is searched by."""
    return _term_words(text, PROMPT_TERMS)


def _term_in(term: str, others: set[str], cjk: bool, stubs: set[str]) -> bool:
    """Whether ``others`` holds ``term``: the same; for CJK a substring either way; else a near-equal prefix,
    the shorter side of four or more characters and the longer one or two more (``stubs``: every other so cut).

    Light stemming leaves "configur"/"configure" apart; the near-equal prefix joins them.
    """
    if term in others:
        return True
    if cjk:
        return any(len(o) >= 2 and (term in o or o in term) for o in others)
    n = len(term)
    return (n >= 4 and term in stubs) or (n >= 5 and term[:-1] in others) or (n >= 6 and term[:-2] in others)


def _stubs(others: set[str]) -> set[str]:
    """Each term cut short by one and by two characters, where four or more are left."""
    found = {o[:-1] for o in others if len(o) >= 5}
    found.update(o[:-2] for o in others if len(o) >= 6)
    return found


def relevance(prompt: list[str], atom: list[str]) -> tuple[float, int]:
    """How much a prompt and an atom share: the fraction of the smaller side's content terms, and the count.

    Scale-free (it does not depend on bm25 scores, which only rank within one query).
    """
    if not prompt or not atom:
        return 0.0, 0
    others = set(atom)
    stubs: set[str] | None = None
    shared = 0
    for term in prompt:
        if term in others:
            shared += 1
            continue
        if stubs is None:
            stubs = _stubs(others)
        shared += _term_in(term, others, term[0] >= _CJK_FIRST and is_cjk(term), stubs)
    return shared / min(len(prompt), len(atom)), shared


def passes(score: tuple[float, int], prompt: list[str], atom: list[str], min_score: float) -> bool:
    """The relevance floor on a computed ``relevance``: enough of the smaller side, never one common word alone."""
    fraction, shared = score
    return shared >= min(2, len(prompt), len(atom)) and fraction >= min_score


def is_relevant(prompt: list[str], atom: list[str], min_score: float) -> bool:
    """The relevance floor: enough of the smaller side shared, and never a single common word alone."""
    return passes(relevance(prompt, atom), prompt, atom, min_score)
