"""Value checks the redaction rules share: entropy, placeholders, templates, and the per-family validators.

The generic ``name = value`` and ``--password`` finders are in ``assignments``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, cast

FLAGS = re.ASCII  # every rule pattern's, and the scanner's own

Validator = Callable[["re.Match[str]"], bool]
Finder = Callable[[str, int, int], Iterator[tuple[int, int, str]]]
TokenCheck = Callable[[str], bool]  # a whole base64-like run of the text → is it a secret


# ---------------------------------------------------------------------------
# value checks shared by the rules

PLACEHOLDER_WORDS = (
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
GENERIC_PLACEHOLDER_WORDS = PLACEHOLDER_WORDS + (
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
VALUE_WORDS = frozenset(
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


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    counts: dict[str, int] = {}
    for ch in value:
        counts[ch] = counts.get(ch, 0) + 1
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def is_template(value: str) -> bool:
    """``${VAR}``, ``{{ var }}``, ``<your-key>``, ``%s`` and friends."""
    return bool(_TEMPLATE_RE.match(value.strip("\"'`")))


def mostly_filler(value: str) -> bool:
    """True for ``xxxx``-style stand-ins: most characters are x, X, *, # or dots."""
    core = [c for c in value if c.isalnum() or c in _FILLER]
    if not core:
        return True
    filler = sum(1 for c in core if c in _FILLER)
    return filler >= 0.6 * len(core)


def has_words(value: str, words: Iterable[str]) -> bool:
    low = value.lower()
    return any(w in low for w in words)


def b64_text(value: str) -> str | None:
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
    if is_template(value) or mostly_filler(value):
        return True
    # "hf_FakeFakeFake…" is a stand-in; a random key that happens to contain "fake" is not.
    return has_words(value, PLACEHOLDER_WORDS) and entropy(value) < 3.5


def secret_of(m: re.Match[str]) -> str:
    return m.group("s") if "s" in m.re.groupindex and m.group("s") is not None else m.group(0)


def strict(m: re.Match[str]) -> bool:
    return not _is_placeholder(secret_of(m))


def aws_key_id_ok(m: re.Match[str]) -> bool:
    return strict(m) and not m.group(0).endswith("EXAMPLE")  # AWS's documented AKIA…EXAMPLE


def lenient(m: re.Match[str]) -> bool:
    # For these formats even x-filled values count as findings (detect-secrets and
    # secretlint flag them, and a needless redaction costs little); only template
    # syntax and explicit stand-in words are excused.
    value = secret_of(m)
    return not (is_template(value) or stand_in(value, PLACEHOLDER_WORDS))


def letters_and_digits(value: str) -> bool:
    """Has at least one digit and one letter."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def random_looking(value: str, min_len: int = 8) -> bool:
    """Heuristic for machine-made credentials, as opposed to words, numbers and paths."""
    if len(value) < min_len:
        return False
    if letters_and_digits(value):
        return entropy(value) >= 2.5
    if value.isalpha() or re.fullmatch(r"[A-Za-z_\-.]+", value):
        upper = sum(c.isupper() for c in value)
        lower = sum(c.islower() for c in value)
        return len(value) >= 20 and upper >= 3 and lower >= 3 and entropy(value) >= 3.8
    return len(value) >= 16 and entropy(value) >= 3.5 and not value.isdigit()


def all_of(*checks: Validator) -> Validator:
    def run(m: re.Match[str]) -> bool:
        return all(check(m) for check in checks)

    return run


def min_entropy(bits: float) -> Validator:
    return lambda m: entropy(secret_of(m)) >= bits


def needs_mixed(m: re.Match[str]) -> bool:
    return letters_and_digits(secret_of(m))


# ---------------------------------------------------------------------------
# pattern helpers

TOKEN_START = r"(?<![A-Za-z0-9])"  # a token starts here
TOKEN_END = r"(?![A-Za-z0-9])"  # a token ends here


_BOUNDARY_RE = re.compile(r"\(\?<!\[((?:\\.|[^\]\\])+)\]\)")
# a pattern's opening token boundary and the literal characters right after it (none of them quantified)
_LEADING_LITERAL = re.compile(r"\(\?<!\[((?:\\.|[^\]\\])+)\]\)((?:[A-Za-z0-9_=]|\\[^A-Za-z0-9])+)(?![*+?{])")


def _boundaries(source: str) -> str:
    """``source`` with each token boundary also holding right after ``\\n``; one that opens the pattern is
    checked after the literal that follows it, so that a search looks for that literal in C instead of
    trying the boundary at every position (the same matches: the literal is what the check reads back over)."""
    lead = _LEADING_LITERAL.match(source)
    if lead is None:
        return _BOUNDARY_RE.sub(_boundary, source)
    chars, literal = lead.groups()
    rest = _BOUNDARY_RE.sub(_boundary, source[lead.end() :])
    return f"{literal}(?:(?<![{chars}]{literal})|(?<=\\\\[nrt]{literal})){rest}"


def _boundary(m: re.Match[str]) -> str:
    """A token boundary that also holds right after an escaped line break (``\\n`` as written in JSON)."""
    return f"(?:(?<![{m.group(1)}])|(?<=\\\\[nrt]))"


def rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A rule pattern, compiled when first used; a token boundary ``(?<![…])`` also holds right after ``\\n``.

    Text inside JSON strings has its line breaks as the two characters ``\\n``, so the
    letter before a token may really be the end of an escape. Most text never reaches most
    rules, so a process that redacts a little does not pay for compiling them all.
    """
    return cast("re.Pattern[str]", _Deferred(pattern, FLAGS | flags))


class _Deferred:
    """Stands in for a compiled pattern (every attribute is the compiled one's) until it is first used."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in _Deferred.__slots__:
            raise AttributeError(name)  # not a pattern's attribute (or copied before its fields were set)
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(_boundaries(self._source), self._flags)
        return getattr(compiled, name)



# ---------------------------------------------------------------------------
# validators of individual rules


def pem_ok(m: re.Match[str]) -> bool:
    body = re.sub(r"\\[nrt]|\s", "", m.group("body"))
    body = re.sub(r"^(?:Proc-Type|DEK-Info|Comment):[^\\]*", "", body)
    core = re.sub(r"[^A-Za-z0-9+/=]", "", body)
    return len(core) >= 20 and not mostly_filler(body) and not has_words(body, ("...",))


def artifactory_ok(m: re.Match[str]) -> bool:
    value = m.group(0)
    # Short x-filled values are how the detect-secrets suite writes real findings; long
    # filler runs are documentation.
    if len(value) >= 20 and mostly_filler(value[3:]):
        return False
    return lenient(m)


_URL_PLACEHOLDER_PASSWORDS = frozenset({"password", "passwd", "mypassword", "yourpassword", "pass:word"})


def _userinfo_ok(user: str, password: str) -> bool:
    """Reject templated, stand-in or trivially fake credentials in a URL or ``curl -u``."""
    for part in (user, password):
        if part and is_template(part):
            return False
    secret = password or user
    low = secret.lower()
    if len(secret) < 4 or low in _URL_PLACEHOLDER_PASSWORDS:
        return False
    if user and password and user.lower() == low:
        return False
    if len(set(low)) == 1 or mostly_filler(secret):
        return False
    return not stand_in(secret, PLACEHOLDER_WORDS + ("your", "replace"))


def url_ok(m: re.Match[str]) -> bool:
    user, _, password = m.group("s").partition(":")
    return _userinfo_ok(user, password)


_CURL_PLACEHOLDERS = frozenset({"pass", "password", "passwd", "pwd", "token", "secret", "apikey", "api_key", "key"})


def curl_ok(m: re.Match[str]) -> bool:
    raw = m.group("s")
    cred = raw.replace('"', "").replace("'", "")
    if ":" not in cred:
        return False
    user, _, password = cred.partition(":")
    if not user and not password:
        return False
    if password.lower() in _CURL_PLACEHOLDERS:
        return False
    if not password and not letters_and_digits(user):
        return False  # "-u name:" prompts for a password; only a random-looking name is a secret
    return _userinfo_ok(user, password)


_SCHEME_WORDS = frozenset({"bearer", "basic", "token", "digest", "api-token", "apikey", "jwt", "bot", "key"})


def _header_value_ok(value: str) -> bool:
    if len(value) < 6 or value.lower() in _SCHEME_WORDS or value.lower() in VALUE_WORDS:
        return False
    if is_template(value) or mostly_filler(value) or value[0] in "{($<[":
        return False
    return not stand_in(value, PLACEHOLDER_WORDS + ("...", "your", "example"))


def authorization_ok(m: re.Match[str]) -> bool:
    value = m.group("s")
    if "=" in value.rstrip("=") or re.fullmatch(r"[A-Za-z_]+=", value):
        return False  # parameters (OAuth 1.0's oauth_consumer_key="…", Digest's username="…"), not one value
    return _header_value_ok(value) and random_looking(value, 6)


def bearer_ok(m: re.Match[str]) -> bool:
    value = m.group("s")
    return _header_value_ok(value) and random_looking(value, 12)


_HEADER_NAME_WORDS = ("token", "key", "auth", "secret", "api", "password", "session", "cookie", "credential")


def header_flag_ok(m: re.Match[str]) -> bool:
    name = m.group("name").lower()
    if not any(w in name for w in _HEADER_NAME_WORDS) or name in ("content-type", "accept"):
        return False
    return _header_value_ok(m.group("s"))


_ENV_BENIGN_NAMES = re.compile(
    r"(?i)(?:^|_)(?:id|uuid|guid|hash|sha\d*|md5|digest|checksum|integrity|etag|signature|sig|nonce|"
    r"commit|ref|rev|revision|version|ver|fingerprint|path|url|uri|dir|file|name|host|image|tag|build)s?$"
)


def high_entropy_env_ok(m: re.Match[str]) -> bool:
    value, name = m.group("s"), m.group("name")
    if _ENV_BENIGN_NAMES.search(name) or not letters_and_digits(value):
        return False
    if re.fullmatch(r"[0-9a-fA-F]+", value):
        return False
    return entropy(value) >= 4.2 and not stand_in(value)


# ---------------------------------------------------------------------------
# credentials on command lines, in prose and in config files

DOC_EXAMPLE = re.compile(r"EXAMPLE(?:KEY)?$")  # AWS documents its sample keys as …EXAMPLE / …EXAMPLEKEY


def unquoted(value: str) -> tuple[str, bool]:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        return value[1:-1], True
    return value, False


def _plain_value_ok(value: str) -> bool:
    """A literal credential, not a variable, stand-in, flag or word that names the credential."""
    low = value.lower()
    if len(value) < 3 or value[0] in "-$%<{[(" or "$(" in value or "${" in value:
        return False
    if low in VALUE_WORDS or is_template(value) or mostly_filler(value) or len(set(low)) <= 2:
        return False
    if "://" in value or value.startswith(("/", "~/", "./")):
        return False
    return not stand_in(value)


def stand_in(value: str, words: tuple[str, ...] = GENERIC_PLACEHOLDER_WORDS) -> bool:
    """Holds a stand-in word ("your_token", "FakeFake…"), unless the value is a random password that
    merely happens to contain one ("FAkE7oGNrVg6YlVw")."""
    return has_words(value, words) and not _random_beside_words(value, words)


def _random_beside_words(value: str, words: tuple[str, ...]) -> bool:
    """What is left of ``value`` without the stand-in words is still a password of its own: long, letters
    and digits only (no separators between words), mixed-case with digits, and varied."""
    low, rest = value.lower(), value
    for word in words:
        at = low.find(word)
        while at >= 0:
            rest = rest[:at] + "\x00" * len(word) + rest[at + len(word):]
            at = low.find(word, at + len(word))
    rest = rest.replace("\x00", "")
    mixed = any(c.isupper() for c in rest) and any(c.islower() for c in rest) and any(c.isdigit() for c in rest)
    words = re.fullmatch(r"(?:[A-Z]?[a-z]{2,})+\d{0,6}", rest) is not None and _pronounceable(rest)  # ApiKeyForStaging123
    return len(rest) >= 12 and rest.isascii() and rest.isalnum() and mixed and not words and entropy(rest) >= 2.5


def _pronounceable(value: str) -> bool:
    """Its capitalised parts read as words: each holds a vowel and no four consonants run together (a random
    ``gtywWnnPjwe5`` is shaped like ``ApiKeyForStaging123`` one time in six thousand; shaped like this too, one in seventy thousand)."""
    parts = re.findall(r"[A-Z]?[a-z]+", value)
    return all(re.search("[aeiouAEIOU]", p) for p in parts) and re.search("[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]{4}",
                                                                          "".join(parts)) is None


def cli_value_ok(m: re.Match[str]) -> bool:
    """A password given to a command (``-pPASS``, ``-a PASS``, ``echo PASS | sudo -S``)."""
    value, _ = unquoted(secret_of(m))
    return _plain_value_ok(value)


def wordy(value: str) -> bool:
    """Reads as words: ``required``, ``stored``, ``session_id_v2``; a password has digits, symbols or mixed case."""
    parts = [p for p in re.split(r"[_\-.]", value) if p]
    return bool(parts) and all(re.fullmatch(r"[a-z]+|[A-Z]?[a-z]+|v?\d{1,3}|[A-Z]{2,5}", p) for p in parts) and any(
        len(p) >= 4 and p.isalpha() for p in parts
    )


def stated_value_ok(m: re.Match[str]) -> bool:
    """A password stated in a sentence (``the password is X``, 「パスワードは X」): quoted, or shaped like one."""
    value, quoted = unquoted(secret_of(m))
    if not _plain_value_ok(value) or len(value) < 4:
        return False
    if quoted:
        return True
    if value.isdigit():
        return len(value) >= 6
    return (len(value) >= 6 and not wordy(value) and not value.isalpha()) or random_looking(value, 8)


def stated_token_ok(m: re.Match[str]) -> bool:
    """A token, key or secret stated in a sentence (``the API token is X``, ``use token X``, ``OAuth: X``,
    「トークンは X」): only a value that could be nothing but machine-made, since "the key is X" names far more
    keys to a map than credentials."""
    value, _ = unquoted(secret_of(m))
    if not _plain_value_ok(value) or len(value) < 16 or wordy(value) or "/" in value:
        return False  # (a slashed value is a path)
    if "=" in value.rstrip("=") or "[REDACTED:" in value:
        return False  # NAME=value is an assignment, which the assignment rules read with its name kept
    if "." in value:
        # a dotted value is a name or a version (settings.SECRET_KEY, google.oauth2.credentials), unless a part
        # of it is a token on its own: Google's ya29.<token>
        return any(_machine_made(part) for part in value.split("."))
    return _machine_made(value)


def _machine_made(value: str) -> bool:
    """A run of letters and digits no person types as words: long hex, or mixed case with digits and varied."""
    if len(value) < 16 or wordy(value):
        return False
    if re.fullmatch(r"[0-9a-fA-F]{32,}", value):
        return True
    if all(_CAMEL_WORDS.fullmatch(part) or re.fullmatch(r"[A-Z]{1,6}|\d{1,4}", part) for part in re.split(r"[-_]", value)):
        return False  # getUserNameFromSession, X-MS-Exchange-AuthSource: words run together
    digits = sum(c.isdigit() for c in value)
    upper = sum(c.isupper() for c in value)
    lower = sum(c.islower() for c in value)
    if upper >= 2 and lower >= 2 and (digits >= 2 or len(value) >= 20):
        return entropy(value) >= (3.0 if digits >= 2 else 3.5)
    return len(value) >= 24 and digits >= 2 and upper + lower >= 4 and entropy(value) >= 3.3


_CAMEL_WORDS = re.compile(r"(?:[a-z]+|[A-Z][a-z]+)(?:[A-Z][a-z]+|[0-9])*")


def config_value_ok(m: re.Match[str]) -> bool:
    """The password field of a ``.netrc`` or ``.pgpass`` line."""
    value, _ = unquoted(secret_of(m))
    if not _plain_value_ok(value) or len(value) < 4:
        return False
    return not (value.isalpha() and value.islower() and len(value) < 8)


_PGPASS_HOST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-*[]")
_PGPASS_REST = re.compile(r"(?:\d{2,5}|\*):[^:\s\"'`]+:[^:\s\"'`]+:(?P<s>[^\s\"'`]{1,256})")


def pgpass_finder(text: str, hs: int, he: int) -> Iterator[tuple[int, int, str]]:
    """``host:port:database:user:password`` around the colon after the host at ``hs``."""
    start = hs
    while start > 0 and hs - start < 253 and text[start - 1] in _PGPASS_HOST:
        start -= 1
    host = text[start:hs]
    if not host or (start > 0 and text[start - 1] not in " \t\n\"'`=>(["):
        return
    if not (host == "*" or "." in host or host.lower() == "localhost" or any(c.isalpha() for c in host)):
        return  # 00:11:22:33:44 is a MAC address, 12:30:00:… a time
    m = _PGPASS_REST.match(text, he)
    if m is None:
        return
    value = m.group("s")
    if re.fullmatch(r"[0-9a-fA-F:]+", value) or not config_value_ok(m):
        return
    yield m.start("s"), m.end("s"), "pgpass-password"


# a cookie header's value (``Cookie: a=1; b=2``, ``Set-Cookie: sid=…; Path=/``, ``--cookie 'sid=…'``), to the end
# of its line or quote; and one ``name=value`` pair of it
_COOKIE_LINE = re.compile(r"""[ \t]*[:=]?[ \t]*\\{0,2}["']?(?P<pairs>[^\r\n"'`]{1,4000})""")
_COOKIE_PAIR = re.compile(r"(?P<name>[^=;\s]{1,100})=(?P<value>[^;\s]{1,4000})")
# what a Set-Cookie line says of its cookie, not a cookie
_COOKIE_ATTRIBUTES = frozenset("path domain expires max-age samesite priority partitioned version comment".split())


def cookie_finder(text: str, hs: int, he: int) -> Iterator[tuple[int, int, str]]:
    """The values of a cookie header that are random enough to be a session: a cookie is a credential.

    ``theme=dark; lang=en`` stays; so does a cookie that is a template or a stand-in.
    """
    line = _COOKIE_LINE.match(text, he)
    if line is None:
        return
    for pair in _COOKIE_PAIR.finditer(text, line.start("pairs"), line.end("pairs")):
        value = pair.group("value")
        if pair.group("name").lower() in _COOKIE_ATTRIBUTES or not _plain_value_ok(value):
            continue
        if random_looking(value, 16) or (len(value) >= 20 and letters_and_digits(value)):
            yield pair.start("value"), pair.end("value"), "cookie-value"


def signature_ok(m: re.Match[str]) -> bool:
    value = secret_of(m)
    return len(value) >= 20 and entropy(value) >= 3.5 and not stand_in(value)


def bare_aws_secret(run: str) -> bool:
    """A lone 40-character AWS secret access key: random base64 with digits, capitals and small letters."""
    if len(run) != 40 or re.fullmatch(r"[0-9a-fA-F]+", run) or run.startswith("/"):
        return False
    if "//" in run and not re.fullmatch(r"[A-Za-z0-9+]+//[A-Za-z0-9+]+", run):
        return False  # a path or an address ("a//b/c"); a key draws "//" once in about a hundred
    digits = sum(c.isdigit() for c in run)
    upper = sum(c.isupper() for c in run)
    lower = sum(c.islower() for c in run)
    # one key in about a hundred draws fewer than two digits: one is enough beside high entropy
    if digits < 1 or upper < 4 or lower < 4 or DOC_EXAMPLE.search(run) or b64_text(run) is not None:
        return False  # too regular, AWS's sample, or base64 of readable text
    return entropy(run) >= 4.2 and not stand_in(run)


def stated_cjk_ok(m: re.Match[str]) -> bool:
    """「パスワード: X」 or 「パスワードは「X」」 is as plain as ``password=X``; 「パスワードは X」 must look like one."""
    value = m.group("s")
    if m.group("q") or m.group("op") in (":", "="):
        return _plain_value_ok(value) and len(value) >= 4
    return stated_value_ok(m)
