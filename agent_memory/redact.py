"""Redaction filter: every atom, quote and index row passes through here before it is stored.

Secrets are replaced by ``[REDACTED:<rule_id>]``. Rules are data (:data:`RULES`); each
has a stable ``rule_id`` that is written into records, so renaming one is a breaking
change. :func:`scrub_paths` separately removes user names and home directories from
text that is committed or shared.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agent_memory.model import Redaction

__all__ = [
    "RULES",
    "Rule",
    "contains_secret",
    "corpus_report",
    "redact",
    "scrub_paths",
    "secret_hash",
]

_F = re.ASCII

Validator = Callable[["re.Match[str]"], bool]
Finder = Callable[[str, int, int], Iterator[tuple[int, int, str]]]


@dataclass(frozen=True, eq=False)
class Rule:
    """One family of secrets: how to find it cheaply, how to match it, how to reject look-alikes.

    ``hooks`` are literal strings, compared without regard to case, at least one of
    which occurs in every match; they drive the prefilter. A match may start at most
    ``back`` characters before its hook and end at most ``reach`` characters after it.
    The secret is the pattern's ``s`` group when it has one, else the whole match.
    """

    rule_id: str
    description: str
    hooks: tuple[str | tuple[str, str], ...]  # literal (any case), or (literal, its own ``after``)
    patterns: tuple[re.Pattern[str], ...] = ()
    validator: Validator | None = None
    after: str = ""  # regex the text right after a hook must match for the hook to count
    back: int = 0
    reach: int = 600
    priority: int = 10  # lower wins when two findings overlap
    expand: str = ""  # characters a finding is widened over on both sides
    finder: Finder | None = None  # custom search run at each hook instead of patterns


# ---------------------------------------------------------------------------
# value checks shared by the rules

_PLACEHOLDER_WORDS = (
    "fake",
    "dummy",
    "placeholder",
    "redacted",
    "changeme",
    "change_me",
    "notreal",
    "not_real",
    "not-real",
    "notarealkey",
    "not_a_real",
    "your_",
    "your-",
    "yourtoken",
    "yourkey",
    "yourapikey",
    "replace_",
    "replace-",
    "replaceme",
    "insert_",
    "insert-",
)
# Extra words that mark a value as a stand-in when the format itself proves nothing.
_GENERIC_PLACEHOLDER_WORDS = _PLACEHOLDER_WORDS + (
    "example",
    "sample",
    "xxxx",
    "****",
    "...",
    "\u2026",
    "<",
    ">",
    "secret_value",
    "mypassword",
)
_VALUE_WORDS = frozenset(
    "password passwd pass pwd secret secrets token tokens key keys apikey api_key value values "
    "none null nil undefined true false yes no string str bytes text number int integer bool "
    "boolean any object dict list optional required env environ default empty blank test "
    "testing demo admin root user username bearer basic digest auth credential credentials "
    "hidden masked private public changeit letmein qwerty abc123 123456 12345678 foobar".split()
)
_TEMPLATE_RE = re.compile(
    r"""^(?:
        \$\{[^}]*\}? | \$\([^)]*\)? | \$[A-Za-z_][A-Za-z0-9_]* | \$\d |
        \{\{.*\}\}? | \{%.*%?\}? |
        \{[A-Za-z_][A-Za-z_ .\-]*\} |
        <[^>]*>? | %\(?[A-Za-z_]*\)?[sd] | %[A-Z_]+% | \[[^\]]*\]?
    )""",
    re.VERBOSE,
)
_FILLER = frozenset("xX*#\u2022.")


def _entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _is_template(value: str) -> bool:
    """``${VAR}``, ``{{ var }}``, ``<your-key>``, ``%s`` and friends."""
    return bool(_TEMPLATE_RE.match(value.strip("\"'`")))


def _mostly_filler(value: str) -> bool:
    """True for ``xxxx``-style stand-ins: most characters are x, X, *, # or dots."""
    core = [c for c in value if c.isalnum() or c in _FILLER]
    if not core:
        return True
    filler = sum(1 for c in core if c in _FILLER)
    return filler >= 0.6 * len(core)


def _has_words(value: str, words: Iterable[str]) -> bool:
    low = value.lower()
    return any(w in low for w in words)


def _b64_text(value: str) -> str | None:
    """Decode ``value`` as base64 when it is printable ASCII text, else ``None``."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    try:
        decoded = raw.decode("ascii")
    except UnicodeDecodeError:
        return None
    return decoded if decoded.isprintable() else None


def _is_placeholder(value: str) -> bool:
    """Strict check for prefixed tokens: template syntax, filler runs or low-entropy stand-in words."""
    if _is_template(value) or _mostly_filler(value):
        return True
    # "hf_FakeFakeFake…" is a stand-in; a random key that happens to contain "fake" is not.
    return _has_words(value, _PLACEHOLDER_WORDS) and _entropy(value) < 3.5


def _secret_of(m: re.Match[str]) -> str:
    return m.group("s") if "s" in m.re.groupindex and m.group("s") is not None else m.group(0)


def _strict(m: re.Match[str]) -> bool:
    return not _is_placeholder(_secret_of(m))


def _lenient(m: re.Match[str]) -> bool:
    # For these formats even x-filled values count as findings (detect-secrets and
    # secretlint flag them, and a needless redaction costs little); only template
    # syntax and explicit stand-in words are excused.
    value = _secret_of(m)
    return not (_is_template(value) or _has_words(value, _PLACEHOLDER_WORDS))


def _mixed(value: str) -> bool:
    """Has at least one digit and one letter."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _random_looking(value: str, min_len: int = 8) -> bool:
    """Heuristic for machine-made credentials, as opposed to words, numbers and paths."""
    if len(value) < min_len:
        return False
    if _mixed(value):
        return _entropy(value) >= 2.5
    if value.isalpha() or re.fullmatch(r"[A-Za-z_\-.]+", value):
        upper = sum(c.isupper() for c in value)
        lower = sum(c.islower() for c in value)
        return len(value) >= 20 and upper >= 3 and lower >= 3 and _entropy(value) >= 3.8
    return len(value) >= 16 and _entropy(value) >= 3.5 and not value.isdigit()


def _all_of(*checks: Validator) -> Validator:
    def run(m: re.Match[str]) -> bool:
        return all(check(m) for check in checks)

    return run


def _min_entropy(bits: float) -> Validator:
    return lambda m: _entropy(_secret_of(m)) >= bits


def _needs_mixed(m: re.Match[str]) -> bool:
    return _mixed(_secret_of(m))


# ---------------------------------------------------------------------------
# pattern helpers

_L = r"(?<![A-Za-z0-9])"  # a token starts here
_R = r"(?![A-Za-z0-9])"  # a token ends here


_BOUNDARY_RE = re.compile(r"\(\?<!\[((?:\\.|[^\]\\])+)\]\)")


def _c(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Compile a rule pattern; a token boundary ``(?<![…])`` also holds right after ``\\n``.

    Text inside JSON strings has its line breaks as the two characters ``\\n``, so the
    letter before a token may really be the end of an escape.
    """
    pattern = _BOUNDARY_RE.sub(lambda m: f"(?:(?<![{m.group(1)}])|(?<=\\\\[nrt]))", pattern)
    return re.compile(pattern, _F | flags)


def _prefixed(
    rule_id: str,
    description: str,
    prefixes: tuple[str, ...],
    body: str,
    *,
    validator: Validator | None = _strict,
    after: str = "",
    left: str = _L,
    right: str = _R,
    reach: int = 600,
    priority: int = 10,
) -> Rule:
    """A token that starts with one of ``prefixes`` followed by ``body``."""
    alt = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    if not after:
        head = re.match(r"(\[[^\]]+\])\{(\d+)", body)
        after = f"{head.group(1)}{{{head.group(2)}}}" if head else ""
    return Rule(
        rule_id=rule_id,
        description=description,
        hooks=prefixes,
        patterns=(_c(f"{left}(?:{alt}){body}{right}"),),
        validator=validator,
        after=after,
        reach=reach,
        priority=priority,
    )


# ---------------------------------------------------------------------------
# validators of individual rules


def _pem_ok(m: re.Match[str]) -> bool:
    body = re.sub(r"\\[nrt]|\s", "", m.group("body"))
    body = re.sub(r"^(?:Proc-Type|DEK-Info|Comment):[^\\]*", "", body)
    core = re.sub(r"[^A-Za-z0-9+/=]", "", body)
    return len(core) >= 20 and not _mostly_filler(body) and not _has_words(body, ("...",))


def _artifactory_ok(m: re.Match[str]) -> bool:
    value = m.group(0)
    # Short x-filled values are how the detect-secrets suite writes real findings; long
    # filler runs are documentation.
    if len(value) >= 20 and _mostly_filler(value[3:]):
        return False
    return _lenient(m)


_URL_PLACEHOLDER_PASSWORDS = frozenset({"password", "passwd", "mypassword", "yourpassword", "pass:word"})


def _userinfo_ok(user: str, password: str) -> bool:
    """Reject templated, stand-in or trivially fake credentials in a URL or ``curl -u``."""
    for part in (user, password):
        if part and _is_template(part):
            return False
    secret = password or user
    low = secret.lower()
    if len(secret) < 4 or low in _URL_PLACEHOLDER_PASSWORDS:
        return False
    if user and password and user.lower() == low:
        return False
    if len(set(low)) == 1 or _mostly_filler(secret):
        return False
    return not _has_words(secret, _PLACEHOLDER_WORDS + ("your", "replace"))


def _url_ok(m: re.Match[str]) -> bool:
    user, _, password = m.group("s").partition(":")
    return _userinfo_ok(user, password)


_CURL_PLACEHOLDERS = frozenset({"pass", "password", "passwd", "pwd", "token", "secret", "apikey", "api_key", "key"})


def _curl_ok(m: re.Match[str]) -> bool:
    raw = m.group("s")
    cred = raw.replace('"', "").replace("'", "")
    if ":" not in cred:
        return False
    user, _, password = cred.partition(":")
    if not user and not password:
        return False
    if password.lower() in _CURL_PLACEHOLDERS:
        return False
    if not password and not _mixed(user):
        return False  # "-u name:" prompts for a password; only a random-looking name is a secret
    return _userinfo_ok(user, password)


_SCHEME_WORDS = frozenset({"bearer", "basic", "token", "digest", "api-token", "apikey", "jwt", "bot", "key"})


def _header_value_ok(value: str) -> bool:
    if len(value) < 6 or value.lower() in _SCHEME_WORDS or value.lower() in _VALUE_WORDS:
        return False
    if _is_template(value) or _mostly_filler(value) or value[0] in "{($<[":
        return False
    return not _has_words(value, _PLACEHOLDER_WORDS + ("...", "your", "example"))


def _authorization_ok(m: re.Match[str]) -> bool:
    value = m.group("s")
    return _header_value_ok(value) and _random_looking(value, 6)


def _bearer_ok(m: re.Match[str]) -> bool:
    value = m.group("s")
    return _header_value_ok(value) and _random_looking(value, 12)


_HEADER_NAME_WORDS = ("token", "key", "auth", "secret", "api", "password", "session", "cookie", "credential")


def _header_flag_ok(m: re.Match[str]) -> bool:
    name = m.group("name").lower()
    if not any(w in name for w in _HEADER_NAME_WORDS) or name in ("content-type", "accept"):
        return False
    return _header_value_ok(m.group("s"))


_ENV_BENIGN_NAMES = re.compile(
    r"(?i)(?:^|_)(?:id|uuid|guid|hash|sha\d*|md5|digest|checksum|integrity|etag|signature|sig|nonce|"
    r"commit|ref|rev|revision|version|ver|fingerprint|path|url|uri|dir|file|name|host|image|tag|build)s?$"
)


def _high_entropy_env_ok(m: re.Match[str]) -> bool:
    value, name = m.group("s"), m.group("name")
    if _ENV_BENIGN_NAMES.search(name) or not _mixed(value):
        return False
    if re.fullmatch(r"[0-9a-fA-F]+", value):
        return False
    return _entropy(value) >= 4.2 and not _has_words(value, _GENERIC_PLACEHOLDER_WORDS)


# ---------------------------------------------------------------------------
# generic "name = value" assignments

_PASSWORD_TIER, _SECRET_TIER, _KEY_TIER = "password", "secret", "key"

# Keyword → (tier, needs a word boundary on its left).
_KEYWORDS: dict[str, tuple[str, bool]] = {
    "password": (_PASSWORD_TIER, False),
    "passwd": (_PASSWORD_TIER, False),
    "passphrase": (_PASSWORD_TIER, False),
    "pwd": (_PASSWORD_TIER, True),
    "pass": (_PASSWORD_TIER, True),
    "secret": (_SECRET_TIER, False),
    "token": (_SECRET_TIER, False),
    "credential": (_SECRET_TIER, False),
    "key": (_KEY_TIER, True),
}
# Words that, glued in front of "key", still name a secret ("apikey", "secretkey").
_KEY_COMPOUNDS = (
    "api", "secret", "access", "private", "auth", "master", "license", "signing", "encryption",
    "session", "client", "app", "account", "service", "consumer", "storage", "subscription",
    "webhook", "admin", "deploy", "shared", "sas", "hmac", "crypt", "sign", "priv", "dev",
)  # fmt: skip
_STRONG_KEY_NAMES = (
    "apikey", "api_key", "api-key", "secretkey", "secret_key", "accesskey", "access_key",
    "privatekey", "private_key", "authkey", "auth_key", "masterkey", "master_key",
    "encryptionkey", "encryption_key", "signingkey", "signing_key", "clientkey", "client_key",
    "sessionkey", "session_key", "licensekey", "license_key", "appkey", "app_key",
    "accountkey", "account_key", "subscriptionkey", "subscription_key",
)  # fmt: skip
# Trailing name parts that turn a secret-sounding name into metadata about the secret.
_EXCLUDED_TAILS = frozenset(
    "id ids uuid guid name names url uri urls path paths file files dir type types count counts "
    "size len length limit limits max min version field fields var variable variables env param "
    "params label prompt hint policy regex pattern format expiry expires expiration expire ttl "
    "timeout header headers prefix suffix mode enabled required provider method kind style class "
    "index usage rate cost budget endpoint host port user username email hash salt store manager "
    "helper handler validator validation error errors message msg text input placeholder location "
    "ref arn reference source rotation created updated at date time timestamp bits algorithm alg "
    "encoding schema location option options flag flags config setting settings fingerprint".split()
)
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_ASSIGN_RE = _c(
    r"""(?P<cq>\\{0,2}["'`])?[ \t]{0,8}(?P<op>:=|=>|=(?!=)|:(?![:/]))[ \t]{0,8}
    (?:
        (?P<bs>\\{0,2})(?P<q>["'`])(?P<qv>(?:[^"'`\\\s]|\\\\(?![nrt])){1,512})(?P=bs)(?P=q)
      | (?P<uv>(?:[^\s"'`,;&()\[\]{}<>\\]|\\\\(?![nrt])){1,512})
    )""",
    re.VERBOSE,
)
_FLAG_VALUE_RE = _c(
    r"""[ \t]*=?[ \t]*(?:(?P<q>["'])(?P<qv>[^"'\s\\]{1,512})(?P=q)|(?P<uv>[^\s"'`,;&()\[\]{}<>\\-][^\s"'`,;&()\[\]{}<>\\]{0,511}))"""
)
_ENV_VALUE_RE = re.compile(r"[^\s\"'`\\]{1,512}")
_CODE_VALUE_RE = re.compile(
    r"^(?:[A-Za-z_][A-Za-z_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|(?:self|this|os|env|process|config|settings|args|opts|options|ctx|params|request|req|cls)\b.*)$"
)


def _camel_split(name: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]


def _identifier_like(value: str) -> bool:
    """Reads as a name made of a few words (``getpass``, ``DB_PASSWORD``, ``dbPasswordValue``), not as random letters."""
    if _random_looking(value):
        return False
    parts = [p for chunk in value.split("_") for p in _camel_split(chunk)]
    return 0 < len(parts) <= 4 and all(len(p) >= 2 for p in parts)


def _name_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Extend ``[start, end)`` over identifier characters (at most 60 each side)."""
    lo = start
    while lo > 0 and start - lo < 60 and text[lo - 1] in _NAME_CHARS:
        if lo >= 2 and text[lo - 2] == "\\" and text[lo - 1] in "nrt":
            break  # the "n" of an escaped line break is not part of the name
        lo -= 1
    hi = end
    n = len(text)
    while hi < n and hi - end < 60 and text[hi] in _NAME_CHARS:
        hi += 1
    return lo, hi


def _keyword_boundaries_ok(text: str, ks: int, ke: int, keyword: str, name_lo: int) -> bool:
    tier, needs_left = _KEYWORDS[keyword]
    before = text[ks - 1] if ks > name_lo else ""
    after = text[ke] if ke < len(text) else ""
    # Right side: end of name, a separator, camel-case hump, digit or a plural "s" ending.
    if after and after.islower():
        if not (after == "s" and (ke + 1 >= len(text) or not text[ke + 1].isalpha() or text[ke + 1].isupper())):
            return False
    if not needs_left or not before:
        return True
    if not before.isalpha():
        return True
    if before.islower() and text[ks].isupper():
        return True  # camel case: apiKey, dbPass
    if keyword == "key":
        head = text[name_lo:ks].lower()
        return head.endswith(_KEY_COMPOUNDS)
    return False


# Values in these formats belong to their own rule; when that rule rejected them (too short,
# wrong shape) a generic rule should not overrule it.
_DEFERRED = re.compile(
    r"(?:xox[abposre][-.]|xapp-|gh[pousr]_|github_pat_|gl[a-z]{2,6}-|[sr]k_(?:live|test)_"
    r"|A(?:KIA|SIA|BIA|CCA)|AIza|SG\.|npm_|hv[sbr]\.|sk-ant-)"
)


def _looks_like_path(value: str) -> bool:
    """``/usr/lib``, ``./x``, ``~/.ssh/id``; a lone random segment after "/" may be base64."""
    if not value.startswith(("/", "./", "../", "~/")):
        return False
    segments = [p for p in value.split("/") if p not in ("", ".", "..", "~")]
    if not all(re.fullmatch(r"[\w.\-@]+", p) for p in segments):
        return False
    return not any(_random_looking(p, 16) for p in segments)


def _value_ok(value: str, tier: str, quoted: bool, name: str, label: str) -> bool:
    low = value.lower()
    if _DEFERRED.match(value):
        return False
    if low in _VALUE_WORDS or low == name.lower() or _is_template(value):
        return False
    if label == "aws-secret-access-key":
        return not _mostly_filler(value) and not _has_words(value, _PLACEHOLDER_WORDS)
    if "redacted" in low or "://" in value or _looks_like_path(value):
        return False
    if value.startswith((".", "-", "&", "*", "|", ">", "^")):
        return False
    if value.startswith("!") and not _random_looking(value[1:]):
        return False  # a YAML tag (!Ref, !secret) or a negation; "!" before random characters is a password
    if _mostly_filler(value) or _has_words(value, _GENERIC_PLACEHOLDER_WORDS):
        return False
    decoded = _b64_text(value) if len(value) >= 16 else None
    if decoded is not None and _has_words(decoded, _GENERIC_PLACEHOLDER_WORDS + ("lorem", "hello")):
        return False  # base64 of a stand-in phrase
    if len(set(low)) <= 2:
        return False
    if not quoted and _CODE_VALUE_RE.match(value):
        return False
    if re.fullmatch(r"\d+(?:\.\d+)*[a-z]{0,3}", low):
        return tier == _PASSWORD_TIER and len(value) >= 6 and "." not in value
    if tier == _PASSWORD_TIER:
        if not quoted and re.fullmatch(r"[A-Za-z_]+", value) and _identifier_like(value):
            return False  # a bare identifier is a variable, not a literal
        return len(value) >= 4
    if re.search(r"\.(?:json|ya?ml|toml|txt|env|pem|key|crt|cer|p12|pfx|js|ts|py|md|html|sh|ini|cfg|conf|log)$", low):
        return False
    if tier == _KEY_TIER:
        strong = re.fullmatch(r"[0-9a-fA-F]{32,}", value) or (
            len(value) >= 20
            and sum(c.isdigit() for c in value) >= 2
            and sum(c.isupper() for c in value) >= 2
            and sum(c.islower() for c in value) >= 2
        )
        return bool(strong) and _entropy(value) >= 3.0
    return _random_looking(value, 8)


def _label_for(name: str, tier: str, value: str) -> str:
    low = name.lower().replace("-", "_")
    if tier != _PASSWORD_TIER and len(value) == 40 and ("aws" in low or "secret_access" in low or "secretaccess" in low):
        if re.fullmatch(r"[A-Za-z0-9/+]{40}", value):
            return "aws-secret-access-key"
    return "password-assignment" if tier == _PASSWORD_TIER else "generic-secret"


def _assignment_finder(text: str, hs: int, he: int) -> Iterator[tuple[int, int, str]]:
    """Find ``<name containing a keyword> = <value>`` around the keyword at ``[hs, he)``."""
    literal = text[hs:he]
    if literal.startswith("--"):
        yield from _flag_finder(text, hs, he)
        return
    keyword = literal.lower()
    lo, hi = _name_bounds(text, hs, he)
    if not _keyword_boundaries_ok(text, hs, he, keyword, lo):
        return
    tier = _KEYWORDS[keyword][0]
    name = text[lo:hi].strip(".-")
    if "public" in name.lower() or "pubkey" in name.lower():
        return
    tail = _camel_split(text[he:hi])
    if tail and tail[-1] in _EXCLUDED_TAILS:
        return
    if keyword == "key":
        head = "_".join(_camel_split(text[lo:he]))
        tier = _SECRET_TIER if head.endswith(_STRONG_KEY_NAMES) else _KEY_TIER
    m = _ASSIGN_RE.match(text, hi)
    if not m:
        return
    quoted = m.group("qv") is not None
    value = m.group("qv") if quoted else m.group("uv")
    start, end = (m.start("qv"), m.end("qv")) if quoted else (m.start("uv"), m.end("uv"))
    if not quoted and m.group(0).startswith("=") and not any(c.islower() for c in name):
        # .env line (NAME=value): the value runs to the next blank, symbols included.
        env = _ENV_VALUE_RE.match(text, start)
        if env:
            value, end = env.group(0), env.end()
    elif not quoted and end < len(text) and text[end] in "([":
        return  # a call or subscript: code, not a literal
    elif not quoted:
        trimmed = value.rstrip(".,:;!?")  # the end of a sentence, not of the value
        end -= len(value) - len(trimmed)
        value = trimmed
    if m.group("op") == ":" and not quoted and tier != _PASSWORD_TIER and m.group("cq") is None:
        # "Token: abc" in prose is a heading far more often than a credential; still catch
        # unmistakable values.
        if not (_random_looking(value, 16) or (len(value) >= 10 and _mixed(value))):
            return
    label = _label_for(name, tier, value)
    if _value_ok(value, tier, quoted, name, label):
        yield start, end, label


def _flag_finder(text: str, hs: int, he: int) -> Iterator[tuple[int, int, str]]:
    """``--password hunter2`` / ``--token=abc`` on a command line."""
    n = len(text)
    hi = he
    while hi < n and hi - he < 40 and (text[hi].isalnum() or text[hi] in "-_"):
        hi += 1
    name = text[hs + 2 : hi]
    tail = _camel_split(name.replace("-", "_").split("_")[-1]) if name else []
    if tail and tail[-1] in _EXCLUDED_TAILS:
        return
    m = _FLAG_VALUE_RE.match(text, hi)
    if not m:
        return
    quoted = m.group("qv") is not None
    value = m.group("qv") if quoted else m.group("uv")
    start, end = (m.start("qv"), m.end("qv")) if quoted else (m.start("uv"), m.end("uv"))
    tier = _PASSWORD_TIER if "pass" in name.lower() else _SECRET_TIER
    label = "password-assignment" if tier == _PASSWORD_TIER else "generic-secret"
    if _value_ok(value, tier, quoted, name, label):
        yield start, end, label


_ASSIGN_AFTER = (
    r"""[A-Za-z0-9_.\-]{0,60}(?:\\{0,2}["'`])?[ \t]{0,8}(?::=|=>|=(?!=)|:(?![:/]))"""
    r"""[ \t]{0,8}\\{0,2}["'`]?[^\s"'`,;&)\]}<>\\]{%d}"""
)
_FLAG_WORDS = ("--password", "--pass", "--passwd", "--token", "--secret", "--api-key", "--apikey",
               "--auth-token", "--access-token", "--client-secret", "--secret-key", "--access-key")  # fmt: skip


# ---------------------------------------------------------------------------
# the rules

_PEM = _c(
    r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-{3,5}"
    r"(?P<body>(?:[A-Za-z0-9+/=\s:,.\\]|-(?!-)){0,20000})"
    r"(?:-{3,5}END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-{3,5})?"
)
_TOK = "A-Za-z0-9_\\-"

RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        "PEM/OpenSSH/PGP private key block, also on one line with literal \\n",
        hooks=("-----BEGIN",),
        after=r"[ A-Z0-9]{0,40}PRIVATE KEY",
        patterns=(_PEM,),
        validator=_pem_ok,
        reach=20200,
    ),
    Rule(
        "aws-access-key-id",
        "AWS access key id (AKIA/ASIA/ABIA/ACCA/A3T…)",
        hooks=("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        after="[A-Z0-9]{16}",
        patterns=(_c(_L + r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}" + _R),),
        validator=_strict,
    ),
    _prefixed(
        "aws-bedrock-api-key",
        "Amazon Bedrock API key",
        ("ABSK", "bedrock-api-key-"),
        "[A-Za-z0-9+/]{100,1200}={0,2}",
        validator=lambda m: not _mostly_filler(m.group(0)),
        right=r"(?![A-Za-z0-9+/=])",
        reach=1300,
    ),
    Rule(
        "aws-account-id",
        "AWS account number assigned to an aws…account…id name",
        hooks=("account",),
        patterns=(
            _c(
                r"(?i:aws)[\w.\-]{0,10}(?i:account)[_\-]?(?i:id)\\{0,2}[\"']?[ \t]{0,5}(?:=>|:=|=|:)[ \t]{0,5}"
                r"\\{0,2}[\"']?(?P<s>\d{4}-?\d{4}-?\d{4})(?![\d\-])"
            ),
        ),
        back=20,
        reach=60,
        priority=20,
    ),
    _prefixed(
        "gcp-api-key",
        "Google API key (AIza…)",
        ("AIza",),
        "[0-9A-Za-z_\\-]{35}",
        left=r"(?<![A-Za-z0-9_\-])",
        right=r"(?![A-Za-z0-9_\-])",
        validator=_all_of(_strict, _min_entropy(3.0)),
    ),
    Rule(
        "azure-client-secret",
        "Azure AD / Entra client secret (…Q~…)",
        hooks=("Q~",),
        patterns=(
            _c(
                r"(?<![A-Za-z0-9_~.\-])(?P<s>[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})"
                r"(?![A-Za-z0-9_~\-]|\.[A-Za-z0-9_~\-])"  # a full stop after it ends a sentence
            ),
        ),
        validator=_all_of(_strict, _needs_mixed),
        back=6,
        reach=40,
    ),
    Rule(
        "azure-credential",
        "Azure tenant/client id or secret assigned to an azure/ad_ name, storage account key",
        hooks=("azure", "ad_tenant", "ad_client", "AccountKey", "SharedAccessKey"),
        patterns=(
            _c(
                r"(?:(?i:azure)|(?<![A-Za-z0-9])(?i:ad))[\w.\-]{0,30}?(?i:tenant|client)[_\-.]?(?i:id|secret)\w{0,10}\\{0,2}[\"']?"
                r"[ \t]{0,5}(?:=>|:=|=|:)[ \t]{0,5}\\{0,2}[\"'`]?(?P<s>[A-Za-z0-9_~.\-]{16,64})"
            ),
            _c(r"(?:AccountKey|SharedAccessKey)=(?P<s>[A-Za-z0-9+/]{40,100}={0,2})"),
        ),
        validator=_strict,
        back=3,
        reach=140,
        priority=15,
    ),
    Rule(
        "github-token",
        "GitHub personal/OAuth/app/refresh token and fine-grained PAT",
        hooks=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        patterns=(
            _c(_L + r"gh[pousr]_[A-Za-z0-9]{36,255}" + _R),
            _c(_L + r"ghs_[0-9]{1,20}_eyJ[A-Za-z0-9_\-]{10,1500}(?:\.[A-Za-z0-9_\-]{2,1500}){1,2}"),
            _c(_L + r"github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])"),
        ),
        validator=_strict,
        reach=3100,
    ),
    Rule(
        "gitlab-token",
        "GitLab personal/deploy/runner/trigger/agent/OAuth tokens",
        hooks=(
            "glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "glcbt-", "glimt-", "glptt-", "glagent-",
            "gloas-", "glffct-", "GR1348941",
        ),  # fmt: skip
        patterns=(
            _c(
                _L + r"(?:glpat|gldt|glft|glsoat|glrt|glcbt|glimt|glptt|glagent|gloas|glffct)-"
                r"[A-Za-z0-9_\-]{20,1024}(?:\.[A-Za-z0-9_\-]{2,40}){0,2}(?![A-Za-z0-9_\-])"
            ),
            _c(_L + r"GR1348941[A-Za-z0-9_\-]{20,64}(?![A-Za-z0-9_\-])"),
        ),
        validator=_all_of(_strict, _min_entropy(2.8)),
        reach=1200,
    ),
    Rule(
        "slack-token",
        "Slack bot/user/app/config tokens (xox…, xapp-)",
        hooks=("xoxb-", "xoxa-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-"),
        patterns=(
            _c(_L + r"xox[abposre]-\d{8,14}-[A-Za-z0-9\-]{8,250}" + _R),
            _c(_L + r"xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{40,250}" + _R),
            _c(_L + r"xapp-\d-[A-Z0-9]{8,20}-\d{8,16}-[a-z0-9]{32,80}" + _R),
        ),
        validator=_strict,
    ),
    Rule(
        "slack-webhook",
        "Slack incoming webhook / workflow URL",
        hooks=("hooks.slack.com/",),
        patterns=(
            _c(r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_+\-]{4,40}(?:/[A-Za-z0-9_+\-]{4,80}){1,3}"),
        ),
        back=8,
        reach=260,
    ),
    Rule(
        "discord-webhook",
        "Discord webhook URL",
        hooks=("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
        patterns=(
            _c(r"(?:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{5,30}/[A-Za-z0-9_\-]{20,100}"),
        ),
        back=16,
        reach=200,
    ),
    Rule(
        "discord-bot-token",
        "Discord bot token (id.timestamp.hmac)",
        hooks=(".",),
        after=r"[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27}",
        patterns=(_c(r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![A-Za-z0-9_\-])"),),
        validator=_needs_mixed,
        back=30,
        reach=50,
        expand=_TOK,
    ),
    Rule(
        "telegram-bot-token",
        "Telegram bot token (id:AA…)",
        hooks=(":AA",),
        after=r"[A-Za-z0-9_\-]{32}",
        patterns=(_c(r"(?<![A-Za-z0-9_])\d{8,10}:AA[A-Za-z0-9_\-]{32,33}(?![A-Za-z0-9_\-])"),),
        back=11,
        reach=40,
    ),
    _prefixed(
        "stripe-key",
        "Stripe secret/restricted key and webhook secret",
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
        "[A-Za-z0-9]{24,247}",
    ),
    Rule(
        "openai-api-key",
        "OpenAI API key (sk-, sk-proj-, sk-svcacct-, sk-admin- with the T3BlbkFJ marker)",
        hooks=("T3BlbkFJ",),
        patterns=(
            _c(r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9_\-]{16,200}T3BlbkFJ[A-Za-z0-9_\-]{16,200}(?![A-Za-z0-9_\-])"),
        ),
        validator=_strict,
        back=210,
        reach=210,
    ),
    Rule(
        "anthropic-api-key",
        "Anthropic API/admin key (sk-ant-…)",
        hooks=("sk-ant-",),
        patterns=(
            _c(r"(?<![A-Za-z0-9_\-])sk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_\-]{32,300}(?![A-Za-z0-9_\-])"),
        ),
        validator=_strict,
    ),
    Rule(
        "llm-api-key",
        "Other LLM provider keys: sk-… (OpenAI-compatible), pplx-, r8_, xai-, lsv2_",
        hooks=("sk-", "pplx-", "r8_", "xai-", "lsv2_"),
        patterns=(
            _c(r"(?<![A-Za-z0-9_\-])sk-(?!ant-)[A-Za-z0-9_\-]{32,300}(?![A-Za-z0-9_\-])"),
            _c(_L + r"(?:pplx-[A-Za-z0-9]{40,64}|r8_[A-Za-z0-9]{36,40}|xai-[A-Za-z0-9]{60,100})" + _R),
            _c(_L + r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}" + _R),
        ),
        validator=_all_of(_strict, lambda m: _random_looking(m.group(0), 20)),
        after=r"[A-Za-z0-9_\-]{20}",
        reach=320,
        priority=12,
    ),
    _prefixed("groq-api-key", "Groq API key", ("gsk_",), "[A-Za-z0-9]{52}"),
    Rule(
        "huggingface-token",
        "Hugging Face user/org access token",
        hooks=("hf_", "api_org_"),
        patterns=(_c(_L + r"hf_[A-Za-z0-9]{34,37}" + _R), _c(_L + r"api_org_[A-Za-z0-9]{34,37}" + _R)),
        validator=lambda m: _lenient(m) if m.group(0).startswith("hf_") else _strict(m),
    ),
    Rule(
        "npm-token",
        "npm access token and .npmrc _auth/_authToken values",
        hooks=("npm_", "_authToken", "_auth"),
        patterns=(
            _c(_L + r"npm_[A-Za-z0-9]{36}" + _R),
            _c(r"_auth(?:Token)?[ \t]*=[ \t]*(?P<s>[^\s\"'`]{6,512})"),
        ),
        validator=lambda m: not _is_template(_secret_of(m)),
    ),
    _prefixed(
        "sendgrid-api-key",
        "SendGrid API key",
        ("SG.",),
        r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}",
        right=r"(?![A-Za-z0-9_\-])",
    ),
    _prefixed(
        "twilio-key",
        "Twilio account SID / API key SID",
        ("AC", "SK"),
        "[a-z0-9]{32}",
        validator=_lenient,
        after="[a-z0-9]{32}",
    ),
    Rule(
        "mailchimp-api-key",
        "Mailchimp API key (hex-usN)",
        hooks=("-us",),
        after=r"\d{1,2}(?![A-Za-z0-9])",
        patterns=(_c(_L + r"[a-f0-9]{32}-us\d{1,2}" + _R),),
        back=33,
        reach=6,
    ),
    Rule(
        "onepassword-token",
        "1Password service-account token and account secret key",
        hooks=("ops_eyJ", "A3-"),
        patterns=(
            _c(_L + r"ops_eyJ[A-Za-z0-9+/=_\-]{60,4000}"),
            _c(_L + r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}" + _R),
        ),
        validator=_strict,
        reach=4100,
    ),
    _prefixed("shopify-token", "Shopify access/app/shared-secret tokens", ("shpat_", "shpca_", "shppa_", "shpss_"), "[A-Za-z0-9]{32,64}"),
    _prefixed("cloudflare-api-token", "Cloudflare API tokens and keys", ("cfat_", "cfut_", "cfk_"), "[A-Za-z0-9]{40}[a-f0-9]{8}"),
    _prefixed("databricks-token", "Databricks personal access token", ("dapi",), "[a-fA-F0-9]{32}(?:-\\d)?", after="[a-fA-F0-9]{32}"),
    _prefixed("docker-token", "Docker Hub personal access token", ("dckr_pat_", "dckr_oat_"), "[A-Za-z0-9_\\-]{24,64}", right=r"(?![A-Za-z0-9_\-])"),
    _prefixed("figma-token", "Figma personal access token", ("figd_",), "[A-Za-z0-9_\\-]{38,64}", right=r"(?![A-Za-z0-9_\-])"),
    Rule(
        "grafana-token",
        "Grafana cloud API / service-account token",
        hooks=("glc_", "glsa_"),
        patterns=(
            _c(_L + r"glc_[A-Za-z0-9+/]{32,400}={0,2}(?![A-Za-z0-9+/=])"),
            _c(_L + r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" + _R),
        ),
        validator=_all_of(_strict, _min_entropy(3.0)),
    ),
    Rule(
        "vault-token",
        "HashiCorp Vault service/batch/recovery token",
        hooks=("hvs.", "hvb.", "hvr.", "s."),
        patterns=(
            _c(_L + r"hv[sbr]\.[A-Za-z0-9_\-]{24,400}(?![A-Za-z0-9_\-])"),
            _c(r"(?<![A-Za-z0-9_.\-])s\.[A-Za-z0-9]{24}" + _R),
        ),
        validator=_all_of(_strict, _needs_mixed),
        after=r"[A-Za-z0-9_\-]{20}",
    ),
    _prefixed("linear-api-key", "Linear API key", ("lin_api_",), "[A-Za-z0-9]{40,64}"),
    Rule(
        "notion-token",
        "Notion integration token",
        hooks=("ntn_", "secret_"),
        patterns=(_c(_L + r"ntn_\d{11}[A-Za-z0-9]{35}" + _R), _c(_L + r"secret_[A-Za-z0-9]{43}" + _R)),
        validator=_all_of(_strict, lambda m: any(c.isalpha() for c in m.group(0)[15:])),
    ),
    _prefixed(
        "tailscale-key",
        "Tailscale API/auth/client/webhook keys",
        ("tskey-",),
        r"[a-z]{2,12}-[A-Za-z0-9]{6,20}-[A-Za-z0-9]{16,64}",
        left=r"(?<![A-Za-z])",
    ),
    _prefixed("vercel-token", "Vercel access/integration/AI-gateway tokens", ("vcp_", "vci_", "vca_", "vcr_", "vck_"), "[A-Za-z0-9]{24,64}"),
    Rule(
        "sourcegraph-token",
        "Sourcegraph access token",
        hooks=("sgp_", "sourcegraph"),
        patterns=(
            _c(_L + r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}" + _R),
            _c(r"(?i:sourcegraph)[\w.\-]{0,20}\\?[\"']?[ \t]{0,5}[:=][ \t]{0,5}\\?[\"']?(?P<s>[a-fA-F0-9]{40})" + _R),
        ),
        validator=_strict,
        reach=120,
    ),
    _prefixed("intra42-secret", "42 intra API client secret", ("s-s4t2ud-", "s-s4t2af-"), "[a-f0-9]{64}"),
    _prefixed("octopus-deploy-key", "Octopus Deploy API key", ("API-",), "[A-Z0-9]{26}", left=r"(?<![A-Za-z0-9_\-])"),
    Rule(
        "facebook-token",
        "Facebook/Meta access tokens (EAA…, app-id|secret)",
        hooks=("EAAM", "EAAC", "EAAG", "facebook"),
        patterns=(
            _c(_L + r"EAA[MCG][A-Za-z0-9]{100,500}" + _R),
            _c(r"(?<![0-9])\d{15,16}(?:\||%7C)[A-Za-z0-9_\-]{27,40}(?![A-Za-z0-9_\-])"),
        ),
        validator=_strict,
        back=20,
        reach=520,
    ),
    Rule(
        "artifactory-token",
        "JFrog Artifactory API key / reference token",
        hooks=("AKC", "AP"),
        after="[A-Za-z0-9]{8}",
        patterns=(
            _c(r"(?<![A-Za-z0-9])(?:AKC[A-Za-z0-9]{10,80}|AP[0-9A-F][A-Za-z0-9]{8,80})(?![A-Za-z0-9])"),
        ),
        validator=_artifactory_ok,
        reach=100,
    ),
    _prefixed(
        "digitalocean-token",
        "DigitalOcean personal/OAuth/refresh tokens",
        ("dop_v1_", "doo_v1_", "dor_v1_"),
        "[a-f0-9]{64}",
    ),
    _prefixed("pypi-token", "PyPI upload token", ("pypi-AgEIcHlwaS5vcmc",), "[A-Za-z0-9_\\-]{50,300}", right=r"(?![A-Za-z0-9_\-])"),
    _prefixed("square-token", "Square access token / OAuth secret", ("sq0atp-", "sq0csp-"), "[A-Za-z0-9_\\-]{22,60}", right=r"(?![A-Za-z0-9_\-])"),
    _prefixed("age-secret-key", "age encryption secret key", ("AGE-SECRET-KEY-1",), "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    _prefixed(
        "hex-private-key",
        "0x-prefixed 32-byte hex key (wallet private key)",
        ("0x",),
        "[a-fA-F0-9]{64}",
        validator=_all_of(_strict, _min_entropy(3.0)),
        after="[a-fA-F0-9]{64}",
    ),
    Rule(
        "jwt",
        "JSON Web Token (header.payload[.signature])",
        hooks=(".eyJ",),
        patterns=(
            _c(
                r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,1500}\.eyJ[A-Za-z0-9_\-]{2,8000}"
                r"(?:\.[A-Za-z0-9_\-]{8,2000})?(?![A-Za-z0-9_\-])"
            ),
        ),
        validator=_strict,
        back=1600,
        reach=10100,
        priority=15,
    ),
    Rule(
        "url-credentials",
        "user:password embedded in a URL (scheme://user:pass@host)",
        hooks=(":",),
        after=r"[^\s/?#@\"'`<>\[\]{}\\|]{1,256}@",
        patterns=(
            _c(
                r"://(?P<s>[^\s:/?#@\"'`<>\[\]{}\\|]{0,128}:[^\s/?#\"'`<>\[\]{}\\|]{1,256})@(?=[A-Za-z0-9\[])"
            ),
        ),
        validator=_url_ok,
        back=140,
        reach=260,
        priority=20,
    ),
    Rule(
        "curl-credentials",
        "credentials passed with curl -u / --user",
        hooks=("-u", "--user"),
        after=r"(?:[ \t]+|=)",
        patterns=(
            _c(
                r"(?<![A-Za-z0-9_\-])(?:-u|--user)(?:[ \t]+|=)(?P<s>\"[^\"\n\\]{1,200}\"(?::\"[^\"\n\\]{0,200}\")?"
                r"|'[^'\n\\]{1,200}'|[^\s\"'\\]{1,200}(?:'[^'\n\\]{0,200}'|\"[^\"\n\\]{0,200}\")?)"
            ),
        ),
        validator=_curl_ok,
        back=1,
        reach=640,
        priority=20,
    ),
    Rule(
        "auth-header",
        "Authorization / Bearer / API-token header values",
        hooks=("authorization", ("-H", r"[ \t]"), ("--header", r"[ \t]")),
        patterns=(
            _c(
                r"(?i:authorization)\\{0,2}[\"']?[ \t]{0,5}[:=][ \t]{0,5}\\{0,2}[\"']?"
                r"(?:(?i:bearer|basic|token|api-token|apikey|api-key|digest|bot|jwt|sso-key|otp)[ \t]+)?"
                r"(?P<s>[^\s\"'`\\,;]{6,4000})"
            ),
        ),
        validator=_authorization_ok,
        back=1,
        reach=4100,
        priority=20,
    ),
    Rule(
        "bearer-token",
        "Bearer token outside an Authorization header",
        hooks=("bearer",),
        after=r"[ \t]+[A-Za-z0-9\-._~+/]{12}",
        patterns=(_c(r"(?<![A-Za-z0-9])[Bb]earer[ \t]+(?P<s>[A-Za-z0-9\-._~+/]{12,4000}=*)"),),
        validator=_bearer_ok,
        reach=4100,
        priority=21,
    ),
    Rule(
        "header-credential",
        "curl -H / --header with a token, key or auth header",
        hooks=("-H", "--header"),
        after=r"[ \t]",
        patterns=(
            _c(
                r"(?:-H|--header)[ \t]+\\{0,2}[\"']?(?P<name>[A-Za-z][A-Za-z0-9_\-]{0,40})[ \t]*:[ \t]*"
                r"(?P<s>[^\s\"'\\]{6,4000})"
            ),
        ),
        validator=_header_flag_ok,
        reach=4200,
        priority=22,
    ),
    Rule(
        "password-assignment",
        "password-like name assigned a literal (.env, YAML, JSON, code, CLI flags)",
        hooks=("password", "passwd", "passphrase", "pwd", "pass") + tuple((flag, r"[ \t=]") for flag in _FLAG_WORDS),
        after=_ASSIGN_AFTER % 4,
        finder=_assignment_finder,
        priority=30,
    ),
    Rule(
        "generic-secret",
        "secret/token/key/credential name assigned a random-looking literal",
        hooks=("secret", "token", "credential", "key"),
        after=_ASSIGN_AFTER % 8,
        finder=_assignment_finder,
        priority=31,
    ),
    Rule(
        "aws-secret-access-key",
        "AWS secret access key: named by the assignment finder when an aws/secret_access name holds 40 base64 chars",
        hooks=(),
        priority=14,
    ),
    Rule(
        "high-entropy-assignment",
        ".env line NAME=<long random base64/base62 value>",
        hooks=("=",),
        after=r"[A-Za-z0-9+/_\-]{20}",
        patterns=(
            _c(
                r"(?:^|(?<=\\n)|(?<=\\r))[ \t]{0,8}(?:export[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,60})="
                r"(?P<s>[A-Za-z0-9+/_\-]{20,512}={0,3})(?=[\s\"';]|\\[nrt]|$)",
                re.MULTILINE,
            ),
        ),
        validator=_high_entropy_env_ok,
        back=90,
        reach=520,
        priority=40,
    ),
)

_PRIORITY: dict[str, int] = {r.rule_id: r.priority for r in RULES}

# ---------------------------------------------------------------------------
# the scanner
#
# CPython's ``re`` searches quickly only for a pattern that starts with one fixed
# character (an alternation of many literals makes it interpret a character set at
# every position, some forty times slower); each alternative tried and each search
# call also cost. So hooks are grouped by an anchor, a rare character they contain,
# and each group becomes one pattern: the anchor, then a trie of what follows it.
# Text is scanned as latin-1 bytes (one byte per character, so offsets equal string
# indexes), lower-cased except for hooks that must match case exactly.

# Share (%) of each anchor character in agent transcripts; a hook is anchored on its rarest.
_ANCHOR_FREQ: dict[str, float] = {
    "~": 0.01, "@": 0.06, "|": 0.09, "z": 0.13, "=": 0.3, "x": 0.4, "k": 0.5, "_": 0.5,
    ":": 0.9, "b": 0.9, ".": 1.2, "p": 1.9, "-": 2.0, "c": 2.6,
}  # fmt: skip
# Hooks written in capitals (AKIA, ASIA, AC, SK, -H, GR1348941) match case exactly; those
# without a lower-case anchor are scanned in the original text, anchored on a capital.
_EXACT_ANCHOR_FREQ: dict[str, float] = {"G": 0.18, "A": 0.33}
_LOW, _EXACT = 0, 1  # which copy of the text a pass scans
_LOWER = [ord(chr(b).lower()) if b < 128 else b for b in range(256)]
_IDENTITY = list(range(256))


@dataclass(frozen=True, eq=False)
class _Hook:
    literal: bytes  # as written if ``exact``, else lower case
    anchor: int  # index of the anchor character in ``literal``
    after: re.Pattern[str] | None  # checked on the original text, ignoring case
    rules: tuple[Rule, ...]
    exact: bool


def _choose_anchor(literal: str, freq: dict[str, float], has_after: bool) -> int | None:
    best: tuple[float, int] | None = None
    for i, ch in enumerate(literal):
        if ch not in freq:
            continue
        # An anchor with nothing after it is confirmed by look-arounds, which cost
        # several times a literal comparison.
        cost = freq[ch] * (1.0 if i + 1 < len(literal) else (3.0 if has_after else 50.0))
        if best is None or cost < best[0]:
            best = (cost, i)
    return None if best is None else best[1]


def _byte_class(members: Iterable[int]) -> str:
    """Regex text (to be latin-1 encoded) for exactly the bytes ``members``."""
    ms = sorted(set(members))
    if len(ms) == 1:
        return re.escape(chr(ms[0]))
    return "[" + "".join("\\" + chr(b) if chr(b) in "^-]\\" else re.escape(chr(b)) for b in ms) + "]"


def _atom(atom: str, table: list[int], ignore_case: bool = True) -> str:
    """One regex atom (literal, escape or class) mapped through ``table`` as a byte class."""
    matcher = re.compile(atom, _F | (re.IGNORECASE if ignore_case else 0))
    return _byte_class(table[b] for b in range(256) if matcher.fullmatch(chr(b)))


_ATOM_RE = re.compile(r"\\.|\[(?:\\.|[^\]\\])+\]|[^\\\[\](){}|*+?]")
_QUANT_RE = re.compile(r"\{\d+(?:,\d*)?\}")


def _mapped_regex(pattern: str, table: list[int]) -> str:
    """A hook's look-ahead rewritten for a scanned copy of the text, without case flags.

    Negative look-arounds are dropped: the result only has to accept whatever the
    original accepts, since the original is checked afterwards.
    """
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith(("(?!", "(?<!"), i):
            depth = 0
            while True:
                if pattern[i] == "\\":
                    i += 2
                    continue
                depth += {"(": 1, ")": -1}.get(pattern[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        head = next((h for h in ("(?<=", "(?:", "(?=") if pattern.startswith(h, i)), None)
        quant = _QUANT_RE.match(pattern, i)
        if head or quant or pattern[i] in "()|*+?":
            token = head or (quant.group(0) if quant else pattern[i])
            out.append(token)
            i += len(token)
            continue
        atom = _ATOM_RE.match(pattern, i)
        if atom is None:
            raise ValueError(f"cannot rewrite {pattern!r} at {i}")
        out.append(_atom(atom.group(0), table))
        i = atom.end()
    return "".join(out)


def _trie(branches: list[tuple[list[str], str]]) -> str:
    """Alternation of ``(atoms, tail)`` nested on the first atom."""
    by_first: dict[str, list[tuple[list[str], str]]] = {}
    ends: list[str] = []
    for atoms, tail in branches:
        if atoms:
            by_first.setdefault(atoms[0], []).append((atoms[1:], tail))
        else:
            ends.append(tail)
    alts = [first + _trie(rest) for first, rest in sorted(by_first.items())] + ends
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


def _overlap(a: _Hook, b: _Hook) -> bool:
    """Whether two hooks of one pass can both match at the same position."""
    for offset in range(-max(a.anchor, b.anchor), max(len(a.literal) - a.anchor, len(b.literal) - b.anchor)):
        i, j = a.anchor + offset, b.anchor + offset
        if 0 <= i < len(a.literal) and 0 <= j < len(b.literal):
            x, y = a.literal[i], b.literal[j]
            if x != y and (a.exact or b.exact or _LOWER[x] != _LOWER[y]):
                return False
    return True


_Pass = tuple[int, int, "re.Pattern[bytes]"]  # (space, anchor byte, pattern)


def _build_scanner() -> tuple[tuple[_Pass, ...], dict[str, tuple[_Hook, ...]]]:
    grouped: dict[tuple[str, str], list[Rule]] = {}
    for rule in RULES:
        for hook in rule.hooks:
            literal, after = hook if isinstance(hook, tuple) else (hook, rule.after)
            key = literal if literal.isupper() else literal.lower()
            grouped.setdefault((key, after), []).append(rule)
    by_pass: dict[tuple[int, int], list[_Hook]] = {}
    for (literal, after), rules in grouped.items():
        exact = literal.isupper()
        anchor = _choose_anchor(literal.lower(), _ANCHOR_FREQ, bool(after))
        space = _LOW
        if anchor is None and exact:
            anchor, space = _choose_anchor(literal, _EXACT_ANCHOR_FREQ, bool(after)), _EXACT
        if anchor is None:
            raise ValueError(f"hook {literal!r} has no anchor character")
        text = literal if exact else literal.lower()
        after_re = re.compile(after, _F | re.IGNORECASE) if after else None
        entry = _Hook(text.encode("latin-1"), anchor, after_re, tuple(dict.fromkeys(rules)), exact)
        scanned = text if space == _EXACT else text.lower()
        by_pass.setdefault((space, ord(scanned[anchor])), []).append(entry)
    passes: list[_Pass] = []
    groups: dict[str, tuple[_Hook, ...]] = {}
    for (space, anchor_byte), hooks in sorted(by_pass.items()):
        table = _LOWER if space == _LOW else _IDENTITY
        literal_branches: list[tuple[list[str], str]] = []
        assert_branches: dict[str, list[str]] = {}  # look-ahead → look-behinds sharing it
        for h in hooks:
            name = f"h{len(groups)}"
            # Hooks that can match at the same spot as this one are confirmed with it.
            groups[name] = (h,) + tuple(g for g in hooks if g is not h and _overlap(h, g))
            atoms = [_atom(re.escape(chr(b)), table, space == _LOW) for b in h.literal]
            behind = f"(?<={''.join(atoms)})" if h.anchor else ""  # checked after the suffix
            ahead = f"(?={_mapped_regex(h.after.pattern, table)})" if h.after is not None else ""
            suffix = atoms[h.anchor + 1 :]
            if suffix:
                literal_branches.append((suffix, behind + ahead + f"(?P<{name}>)"))
            else:
                assert_branches.setdefault(ahead, []).append(behind + f"(?P<{name}>)")
        alts = [_trie(literal_branches)] if literal_branches else []
        for ahead, behinds in sorted(assert_branches.items()):
            alts.append(ahead + ("(?:" + "|".join(behinds) + ")" if len(behinds) > 1 else behinds[0]))
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        pattern = re.compile((re.escape(chr(anchor_byte)) + body).encode("latin-1"))
        passes.append((space, anchor_byte, pattern))
    return tuple(passes), groups


_PASSES, _HOOK_GROUPS = _build_scanner()


def _hook_hits(text: str) -> dict[Rule, list[tuple[int, int]]]:
    """Every (rule → hook spans) present in ``text``; empty for text with nothing secret-like."""
    raw = text.encode("latin-1", "replace")  # one byte per character: offsets stay valid
    low = raw.lower()
    copies = (low, raw)
    short = len(raw) < 4096  # for short text a membership test is cheaper than a search
    hits: dict[Rule, list[tuple[int, int]]] = {}
    for space, anchor_byte, pattern in _PASSES:
        data = copies[space]
        if short and anchor_byte not in data:
            continue
        # search() in a loop: a finditer() scanner object costs more than the scan itself
        m = pattern.search(data)
        while m is not None:
            pos = m.start()
            for hook in _HOOK_GROUPS[m.lastgroup]:  # type: ignore[index]
                s = pos - hook.anchor
                if s < 0 or not (raw if hook.exact else low).startswith(hook.literal, s):
                    continue
                e = s + len(hook.literal)
                if hook.after is not None and not hook.after.match(text, e):
                    continue
                for rule in hook.rules:
                    hits.setdefault(rule, []).append((s, e))
            m = pattern.search(data, pos + 1)
    for spans in hits.values():
        spans.sort()
    return hits


def _windows(spans: list[tuple[int, int]], back: int, reach: int, n: int) -> Iterator[tuple[int, int]]:
    """Merge the search windows around each hook so no character is scanned twice per rule."""
    lo = hi = -1
    for s, e in spans:
        a, b = max(0, s - back), min(n, e + reach)
        if a <= hi:
            hi = max(hi, b)
            continue
        if hi >= 0:
            yield lo, hi
        lo, hi = a, b
    if hi >= 0:
        yield lo, hi


def _expand(text: str, start: int, end: int, chars: str) -> tuple[int, int]:
    allowed = re.compile(f"[{chars}]")
    while start > 0 and allowed.match(text[start - 1]):
        start -= 1
    while end < len(text) and allowed.match(text[end]):
        end += 1
    return start, end


def _findings(text: str) -> list[tuple[int, int, str]]:
    """All validated secret spans as (start, end, rule_id), possibly overlapping."""
    hits = _hook_hits(text)
    if not hits:
        return []
    found: set[tuple[int, int, str]] = set()
    n = len(text)
    for rule, spans in hits.items():
        if rule.finder is not None:
            covered = -1
            for s, e in spans:
                if s < covered:
                    continue  # inside a value this rule already took
                for finding in rule.finder(text, s, e):
                    found.add(finding)
                    covered = max(covered, finding[1])
            continue
        for lo, hi in _windows(spans, rule.back, rule.reach, n):
            for pattern in rule.patterns:
                for m in pattern.finditer(text, lo, hi):
                    if m.end() == hi < n:
                        # The window may have cut the match short: match again unbounded.
                        m = pattern.match(text, m.start()) or m
                    if rule.validator is not None and not rule.validator(m):
                        continue
                    if "s" in pattern.groupindex and m.group("s") is not None:
                        start, end = m.span("s")
                    else:
                        start, end = m.span()
                    if rule.expand:
                        start, end = _expand(text, start, end, rule.expand)
                    if end > start:
                        found.add((start, end, _refine(rule, m)))
    return sorted(found)


def _refine(rule: Rule, m: re.Match[str]) -> str:
    if rule.rule_id == "llm-api-key" and "T3BlbkFJ" in m.group(0):
        return "openai-api-key"
    return rule.rule_id


def _merge(found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Union overlapping spans; the most specific (lowest priority number) rule names the result."""
    merged: list[tuple[int, int, str]] = []
    for start, end, rule_id in found:
        if merged and start < merged[-1][1]:
            ps, pe, pid = merged[-1]
            best = pid if _PRIORITY.get(pid, 99) <= _PRIORITY.get(rule_id, 99) else rule_id
            merged[-1] = (ps, max(pe, end), best)
        else:
            merged.append((start, end, rule_id))
    return merged


# ---------------------------------------------------------------------------
# public API

_MAX_ROUNDS = 8


def redact(text: str) -> Redaction:
    """Replace every secret in ``text`` by ``[REDACTED:<rule_id>]``; clean text comes back as is."""
    found = _findings(text)
    if not found:
        return Redaction(text)
    ids: set[str] = set()
    # A marker's brackets can make a token boundary where a secret was glued to the one
    # just removed, so repeat until nothing is found (every round removes original text).
    for _ in range(_MAX_ROUNDS):
        parts: list[str] = []
        last = 0
        for start, end, rule_id in _merge(found):
            parts.append(text[last:start])
            parts.append(f"[REDACTED:{rule_id}]")
            ids.add(rule_id)
            last = end
        parts.append(text[last:])
        text = "".join(parts)
        found = _findings(text)
        if not found:
            break
    return Redaction(text, tuple(sorted(ids)))


def contains_secret(text: str) -> bool:
    """Whether :func:`redact` would change ``text``."""
    return bool(_findings(text))


def secret_hash(text: str) -> str:
    """SHA-256 hex digest of the original text, stored instead of plaintext for redacted records."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------------
# path scrubbing

_SEP = r"(?:\\\\|\\|/)"
_PATH_START = r"(?<![\w.\-~])(?:(?<=://)|(?<![/\\]))"
_PATH_END = r"(?=$|[\\/\s\"'`)\]},;:<>|]|\.(?![\w\-]))"
_PATH_NEXT = r"(?=[^\s\\/\"'`<>|])"


def _root_regex(root: str) -> re.Pattern[str] | None:
    """Regex for ``root`` as a path prefix in any separator style; group ``sep`` is the separator after it."""
    root = root.rstrip("/\\")
    if not root:
        return None
    windows = bool(re.match(r"^[A-Za-z]:", root)) or "\\" in root
    body = _SEP.join(re.escape(p) for p in re.split(r"[\\/]+", root))
    flags = re.IGNORECASE if windows else 0
    return re.compile(f"{_PATH_START}{body}(?:(?P<sep>{_SEP}){_PATH_NEXT}|{_PATH_END})", flags)


_OTHER_HOME = re.compile(
    _PATH_START
    + r"(?:/home/|/Users/|[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))(?P<name>[^\\/\s\"'`:*?<>|]+)"
    + _PATH_END,
    re.IGNORECASE,
)


def scrub_paths(text: str, project_root: str = "", home: str = "", user_names: Iterable[str] = ()) -> str:
    """Make text shareable: paths in ``project_root`` become relative, homes become ``~``, user names ``<user>``."""
    root_re = _root_regex(project_root)
    if root_re is not None:
        text = root_re.sub(lambda m: "" if m.group("sep") else ".", text)
    home_re = _root_regex(home)
    if home_re is not None:
        text = home_re.sub(lambda m: "~" + (m.group("sep") or ""), text)
    text = _OTHER_HOME.sub("~", text)
    names = sorted({n.strip() for n in user_names if len(n.strip()) >= 2}, key=len, reverse=True)
    if names:
        alt = "|".join(re.escape(n) for n in names)
        text = re.sub(rf"(?<![\w\-<])(?:{alt})(?![\w\->]|\.\w)", "<user>", text, flags=re.IGNORECASE)
    return text


# ---------------------------------------------------------------------------
# measuring the filter on a labelled corpus

_CRED_URL = re.compile(r"://(?P<u>[^\s:/?#@\"'`<>\[\]{}\\|]{0,128}):(?P<p>[^\s/?#\"'`<>\[\]{}\\|]{0,256})@[\w\[]")
_CURL_USER = re.compile(r"(?:^|\s)(?:-u|--user)(?:\s+|=)(\"[^\"]*\"(?::\"[^\"]*\")?|'[^']*'|\S+)")
_HEADER = re.compile(
    r"(?i)(?:authorization|api-token|token|x-api-key|x-jfrog-art-api)\s*:\s*"
    r"(?:(?:bearer|basic|token|api-token)\s+)?([^\s\"']+)"
)
_PEM_BODY = re.compile(r"-----BEGIN[^-]*-----(.*?)(?:-----END|$)", re.S)
_SPLIT = re.compile(r"\\[nrt]|[\s\"'`()\[\]<>,;{}]+|=>|:=|=|:(?!//)")


def _secret_parts(line: str) -> list[str]:
    """The credential inside a corpus line, found independently of the rules."""
    m = _PEM_BODY.search(line)
    if m:
        return [p for p in re.split(r"\\n|\s", m.group(1)) if p]
    m = _CRED_URL.search(line)
    if m and (m.group("u") or m.group("p")):
        return [f"{m.group('u')}:{m.group('p')}"]
    m = _CURL_USER.search(line)
    if m and ":" in m.group(1):
        cred = m.group(1).replace('"', "").replace("'", "")
        user, _, password = cred.partition(":")
        return [password or user]
    m = _HEADER.search(line)
    if m:
        return [m.group(1)]
    tokens = [t.strip(".!?") for t in _SPLIT.split(line) if t and t.strip(".!?")]
    tokens = [t for t in tokens if not t.startswith("/")] or tokens
    if not tokens:
        return [line]
    with_digit = [t for t in tokens if any(c.isdigit() for c in t)]
    pool = with_digit or tokens
    return [max(pool, key=len)]


def _survives(secret: str, redacted: str, context: str) -> bool:
    if len(secret) < 12:
        return secret in redacted and secret not in context
    return any(secret[i : i + 12] in redacted for i in range(len(secret) - 11))


def _read_corpus(path: Path) -> list[list[str]]:
    if not path.exists():
        return []
    rows = []
    for raw in path.read_text(encoding="utf-8").split("\n"):
        if raw.strip():
            rows.append(raw.split("\t"))
    return rows


def corpus_report(corpus_dir: str | Path) -> dict[str, object]:
    """Recall on positives, false positives on negatives and the near-miss flag rate.

    A positive counts as caught when a rule fires and no 12-character piece of its
    secret survives. ``corpus_dir`` holds positives.txt, negatives.txt and
    negatives_near_miss.txt (``line<TAB>kind[<TAB>source]``).
    """
    root = Path(corpus_dir)
    positives = _read_corpus(root / "positives.txt")
    missed: list[tuple[str, str]] = []
    for row in positives:
        line, kind = row[0], row[1] if len(row) > 1 else ""
        result = redact(line)
        secrets = _secret_parts(line)
        context = line
        for s in secrets:
            context = context.replace(s, "")
        if not result.redacted or any(_survives(s, result.text, context) for s in secrets):
            missed.append((line, kind))
    negatives = _read_corpus(root / "negatives.txt")
    false_pos = [(row[0], row[1] if len(row) > 1 else "") for row in negatives if contains_secret(row[0])]
    near = _read_corpus(root / "negatives_near_miss.txt")
    near_flagged = [(row[0], row[1] if len(row) > 1 else "") for row in near if contains_secret(row[0])]
    n_pos, n_neg, n_near = len(positives), len(negatives), len(near)
    return {
        "positives": n_pos,
        "caught": n_pos - len(missed),
        "recall": (n_pos - len(missed)) / n_pos if n_pos else 0.0,
        "missed": missed,
        "negatives": n_neg,
        "false_positives": len(false_pos),
        "fp_rate": len(false_pos) / n_neg if n_neg else 0.0,
        "false_positive_lines": false_pos,
        "near_miss": n_near,
        "near_miss_flagged": len(near_flagged),
        "near_miss_rate": len(near_flagged) / n_near if n_near else 0.0,
        "near_miss_lines": near_flagged,
    }


# OS account names too common to be anyone's: replacing them would mangle ordinary words
_GENERIC_USERS = frozenset({"root", "user", "admin", "runner", "ubuntu", "guest", "nobody"})


def os_user_names() -> list[str]:
    """The OS user name, when it is specific enough to scrub from shared files."""
    import getpass

    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        return []
    return [name] if name and name.lower() not in _GENERIC_USERS else []


def scrubber(project_root: str) -> Callable[[str], str]:
    """``scrub_paths`` bound to this project, the home folder and the OS user name."""
    from pathlib import Path

    home, names = str(Path.home()), os_user_names()
    return lambda text: scrub_paths(text, project_root, home, names)
