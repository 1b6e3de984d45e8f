"""Value checks the redaction rules share: entropy, placeholders, templates, and the assignment finders."""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterable, Iterator

_F = re.ASCII

Validator = Callable[["re.Match[str]"], bool]
Finder = Callable[[str, int, int], Iterator[tuple[int, int, str]]]


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


