"""The generic ``name = value`` finders: assignments (``DB_PASSWORD=…``, ``"apiKey": "…"``) and ``--password`` flags.

A keyword (password, secret, token, key, …) inside a name makes its value a candidate; the
value checks of ``checks`` then decide whether it is a secret or a stand-in for one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .checks import (
    DOC_EXAMPLE,
    GENERIC_PLACEHOLDER_WORDS,
    PLACEHOLDER_WORDS,
    VALUE_WORDS,
    b64_text,
    entropy,
    has_words,
    is_template,
    letters_and_digits,
    mostly_filler,
    random_looking,
    rx,
    stand_in,
    unquoted,
    wordy,
)

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
    "auth": (_SECRET_TIER, True),  # a Docker config's "auth", AUTH=…; not author, OAuth, authority
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
# a value: quoted (its quote maybe escaped, as inside JSON), or bare up to a blank or a delimiter
_VALUE = r"""(?:
        (?P<bs>\\{0,2})(?P<q>["'`])(?P<qv>(?:[^"'`\\\s]|\\\\(?![nrt])){1,512})(?P=bs)(?P=q)
      | (?P<uv>(?:[^\s"'`,;&()\[\]{}<>\\]|\\\\(?![nrt])){1,512})
    )"""
_BLANKS = r"[ \t\r\n]{0,40}"  # inside brackets, where elements may sit on lines of their own
_ITEM = r"\r?\n[ \t]{0,40}-[ \t]{1,8}"  # the start of a YAML list's next item
# What joins a name to its value, right after the name (and the quote closing it, if any):
#   an operator, after a subscript's "]" or a type (``os.environ["API_KEY"] = …``, ``SECRET_KEY: str = …``);
#   a sibling "value" field, where the name is a field's value (``{"name": "API_KEY", "value": "…"}``,
#   ``- name: API_TOKEN`` over ``value: …``, ``<add key="ApiKey" value="…"/>``);
#   a comma, between a call's two strings (``define("DB_PASSWORD", "…")``, ``getenv("API_KEY", "…")``);
#   a call of a constructor named for credentials, its second string (``HTTPBasicAuth("user", "…")``).
_ASSIGN_RE = rx(
    r"""(?P<cq>\\{0,2}["'`])?
    (?:
        (?P<sub>\])?[ \t]{0,8}
        (?P<ann>:[ \t]{0,8}&?(?:'\w+[ \t]+)?[A-Za-z_][\w.:]*(?:\[[\w.,:\[\]\ \t|]{0,60}\])?
            (?:[ \t]{0,8}\|[ \t]{0,8}None)?[ \t]{0,8}(?==(?!=)))?
        (?P<op>:=|=>|<-|=(?!=)|:(?![:/]))
      | (?P<field>[ \t,;\r\n]{1,40}(?:\\{0,2}["'`])?(?i:value)(?:\\{0,2}["'`])?[ \t]{0,8}[:=])
      | (?P<pair>[ \t]{0,8},)
      | (?P<call>\([ \t]{0,8}\\{0,2}["'`][^"'`\\\n]{1,100}\\{0,2}["'`][ \t]{0,8},)  # HTTPBasicAuth("user", "…")
    )[ \t]{0,8}
    (?:(?P<open>[(\[]""" + _BLANKS + r""")|(?P<item>""" + _ITEM + r"""))?  # a shell array, a list, a value in parentheses
    """ + _VALUE,
    re.VERBOSE,
)
# before a name that is a field's value: ``"name": "``, ``name: ``, ``key="``
_NAMED_BY_FIELD = re.compile(r"""(?i:name|key)(?:\\{0,2}["'`])?[ \t]{0,8}[:=][ \t]{0,8}(?:\\{0,2}["'`])?$""")
# a Terraform variable's block, from after its name to its default: ``variable "db_password" {`` … ``default = ``
_TF_VARIABLE = re.compile(r"""variable[ \t]{1,8}["']?$""")
_TF_DEFAULT = rx(r"""["']?[ \t]*\{[^{}]{0,600}?(?<![\w-])default[ \t]*=[ \t]*""" + _VALUE, re.VERBOSE)
# an element's text (``<password>…</password>``), and a property list's value (``<key>API_KEY</key> <string>…``)
_ELEMENT_RE = re.compile(r"[ \t]{0,8}(?P<qv>[^\s<>\"'`]{1,512})[ \t]{0,8}</")
_PLIST_RE = re.compile(r"</key>\s{0,40}<string>[ \t]{0,8}(?P<qv>[^\s<>]{1,512})[ \t]{0,8}</string>")
_NEXT_ELEMENT_RE = rx(_BLANKS + r",?" + _BLANKS + _VALUE, re.VERBOSE)
_NEXT_ITEM_RE = rx(_ITEM + _VALUE, re.VERBOSE)
_MAX_ELEMENTS = 64
_FLAG_VALUE_RE = rx(
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
    if random_looking(value):
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
    return not any(random_looking(p, 16) for p in segments)


def _value_ok(value: str, tier: str, quoted: bool, name: str, label: str) -> bool:
    low = value.lower()
    if _DEFERRED.match(value):
        return False
    if low in VALUE_WORDS or low == name.lower() or is_template(value):
        return False
    if DOC_EXAMPLE.search(value):
        return False  # AWS's documented sample keys
    if label == "aws-secret-access-key":
        return not mostly_filler(value) and not stand_in(value, PLACEHOLDER_WORDS)
    if "redacted" in low or "://" in value or _looks_like_path(value):
        return False
    if value.startswith((".", "-", "&", "*", "|", ">", "^")):
        return False
    if value.startswith("!") and not random_looking(value[1:]):
        return False  # a YAML tag (!Ref, !secret) or a negation; "!" before random characters is a password
    if mostly_filler(value) or stand_in(value):
        return False
    decoded = b64_text(value) if len(value) >= 16 else None
    if decoded is not None and has_words(decoded, GENERIC_PLACEHOLDER_WORDS + ("lorem", "hello")):
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
    if wordy(value):
        return False  # session_key=session_id_v2 names a field; a key is not made of words
    if re.search(r"\.(?:json|ya?ml|toml|txt|env|pem|key|crt|cer|p12|pfx|js|ts|py|md|html|sh|ini|cfg|conf|log)$", low):
        return False
    if tier == _KEY_TIER:
        strong = re.fullmatch(r"[0-9a-fA-F]{32,}", value) or (
            len(value) >= 20
            and sum(c.isdigit() for c in value) >= 2
            and sum(c.isupper() for c in value) >= 2
            and sum(c.islower() for c in value) >= 2
        )
        return bool(strong) and entropy(value) >= 3.0
    return random_looking(value, 8)


def _label_for(name: str, tier: str, value: str) -> str:
    low = name.lower().replace("-", "_")
    if tier != _PASSWORD_TIER and len(value) == 40 and ("aws" in low or "secret_access" in low or "secretaccess" in low):
        if re.fullmatch(r"[A-Za-z0-9/+]{40}", value):
            return "aws-secret-access-key"
    return "password-assignment" if tier == _PASSWORD_TIER else "generic-secret"


def _tier_at(text: str, lo: int, hi: int, ke: int, keyword: str) -> str | None:
    """The tier the name at ``[lo, hi)`` has by its keyword ending at ``ke`` (its boundaries checked already); None
    when the name says it is not the secret itself (a public key, ``…_id``, ``…_url``)."""
    low = text[lo:hi].lower()
    if "public" in low or "pubkey" in low:
        return None
    tail = _camel_split(text[ke:hi])
    if tail and tail[-1] in _EXCLUDED_TAILS:
        return None
    if keyword != "key":
        return _KEYWORDS[keyword][0]
    head = "_".join(_camel_split(text[lo:ke]))
    return _SECRET_TIER if head.endswith(_STRONG_KEY_NAMES) else _KEY_TIER


def _secret_label(value: str, tier: str, quoted: bool, name: str) -> str | None:
    """The rule id a value assigned to ``name`` is redacted under; None when it is no secret (a stand-in, a word…)."""
    label = _label_for(name, tier, value)
    return label if _value_ok(value, tier, quoted, name, label) else None


def assignment_finder(text: str, hs: int, he: int) -> Iterator[tuple[int, int, str]]:
    """Find ``<name containing a keyword> = <value>`` around the keyword at ``[hs, he)``."""
    literal = text[hs:he]
    if literal.startswith("--"):
        yield from _flag_finder(text, hs, he)
        return
    keyword = literal.lower()
    lo, hi = _name_bounds(text, hs, he)
    if not _keyword_boundaries_ok(text, hs, he, keyword, lo):
        return
    tier = _tier_at(text, lo, hi, he, keyword)
    if tier is None:
        return
    name = text[lo:hi].strip(".-")
    if _TF_VARIABLE.search(text, max(0, lo - 20), lo):
        yield from _terraform_default(text, hi, name, tier)
        return
    m = _ASSIGN_RE.match(text, hi)
    if not m:
        yield from _element_value(text, lo, hi, name, tier)
        return
    if m.group("field") is not None and not _NAMED_BY_FIELD.search(text, max(0, lo - 40), lo):
        return  # "…, value" after a name that is no field's value
    # two strings in a call: many calls list field names ("password", "confirm"), so only an unmistakable value
    paired = m.group("pair") is not None
    if paired and (m.group("cq") is None or lo == 0 or text[lo - 1] not in "\"'`"):
        return  # (the name must be the whole first string: not the end of "https://…/token")
    if m.group("call") is not None:
        # a constructor named for what it holds (HTTPBasicAuth, NetworkCredential): a user, then the password
        if m.group("cq") is not None or not text[lo:hi].lower().endswith(("auth", "credential", "credentials")):
            return
        paired = True
    listed = m.group("open") is not None or m.group("item") is not None
    following = _NEXT_ELEMENT_RE if m.group("item") is None else _NEXT_ITEM_RE
    # .env line (NAME=value): the value runs to the next blank, symbols included
    env = m.group(0).startswith("=") and not any(c.islower() for c in name) and not listed
    # "Token: abc" in prose is a heading far more often than a credential: only unmistakable values count
    heading = m.group("op") == ":" and m.group("cq") is None and tier != _PASSWORD_TIER
    for _ in range(_MAX_ELEMENTS):  # one value, or each element of a list of them
        found = _assigned(text, m, env, listed, heading)
        if found is None:
            return
        start, end, value, quoted = found
        if paired and not (quoted and _unmistakable(value)):
            return
        label = _secret_label(value, tier, quoted, name)
        if label is not None:
            yield start, end, label
        if not listed:
            return
        m = following.match(text, m.end())
        if not m:
            return


def _assigned(text: str, m: re.Match[str], env: bool, listed: bool, heading: bool) -> tuple[int, int, str, bool] | None:
    """The value ``m`` found as (start, end, value, quoted); None when it reads as code or as a heading."""
    quoted = m.group("qv") is not None
    value = m.group("qv") if quoted else m.group("uv")
    start, end = (m.start("qv"), m.end("qv")) if quoted else (m.start("uv"), m.end("uv"))
    if not quoted:
        if env:
            found = _ENV_VALUE_RE.match(text, start)
            if found:
                value, end = found.group(0), found.end()
        elif end < len(text) and text[end] in "([":
            return None  # a call or subscript: code, not a literal
        elif not listed:  # (inside brackets, punctuation is the value's own)
            trimmed = value.rstrip(".,:;!?")  # the end of a sentence, not of the value
            end -= len(value) - len(trimmed)
            value = trimmed
    if heading and not quoted and not _unmistakable(value):
        return None
    return start, end, value, quoted


def _terraform_default(text: str, hi: int, name: str, tier: str) -> Iterator[tuple[int, int, str]]:
    """``variable "db_password" {`` … ``default = "…"``: the variable's default, read as its assigned value."""
    m = _TF_DEFAULT.match(text, hi)
    found = _assigned(text, m, False, False, False) if m is not None else None
    if found is not None:
        start, end, value, quoted = found
        label = _secret_label(value, tier, quoted, name)
        if label is not None:
            yield start, end, label


def _unmistakable(value: str) -> bool:
    return random_looking(value, 16) or (len(value) >= 10 and letters_and_digits(value))


def _element_value(text: str, lo: int, hi: int, name: str, tier: str) -> Iterator[tuple[int, int, str]]:
    """``<password>…</password>``, and ``<key>API_KEY</key>`` followed by ``<string>…</string>``."""
    if lo > 0 and text[lo - 1] == "<" and text.startswith(">", hi):
        m = _ELEMENT_RE.match(text, hi + 1)
    elif text.endswith("<key>", 0, lo):
        m = _PLIST_RE.match(text, hi)
    else:
        return
    if m is None:
        return
    label = _secret_label(m.group("qv"), tier, True, name)
    if label is not None:
        yield m.start("qv"), m.end("qv"), label


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


# ---------------------------------------------------------------- a command that sets a named value

_KEYWORD_RE = re.compile("|".join(sorted(_KEYWORDS, key=len, reverse=True)), re.I)


def _tier_of(name: str) -> str | None:
    """The tier of the first keyword ``name`` holds as a word (as an assignment's name is read); None for none."""
    for m in _KEYWORD_RE.finditer(name):
        keyword = m.group(0).lower()
        if _keyword_boundaries_ok(name, m.start(), m.end(), keyword, 0):
            return _tier_at(name, 0, len(name), m.end(), keyword)
    return None


def setting_ok(m: re.Match[str]) -> bool:
    """``setx API_KEY X``, ``aws configure set aws_secret_access_key X``…: a secret's name, then a literal value."""
    name = m.group("name")
    tier = _tier_of(name)
    if tier is None:
        return False
    value, quoted = unquoted(m.group("s"))
    return _secret_label(value, tier, quoted, name) is not None


# what must follow a keyword for the finder to run: ``_ASSIGN_RE``'s joins (its operator then a value's first
# characters), or an element's or a property list's name
ASSIGN_AFTER = (
    r"""[A-Za-z0-9_.\-]{0,60}(?:(?:\\{0,2}["'`])?\]?[ \t]{0,8}(?::[ \t]{0,8}[&'\w.:\[\], \t|]{1,60}?)?"""
    r"""(?::=|=>|<-|=(?!=)|:(?![:/]))"""
    r"""[ \t]{0,8}(?:[(\[]|(?:\r?\n[ \t]{0,40}-[ \t]{1,8})?\\{0,2}["'`]?[^\s"'`,;&)\]}<>\\]{%d})"""
    r"""|\\{0,2}["'`][ \t]{0,8},[ \t]{0,8}\\{0,2}["'`]|s?\([ \t]{0,8}\\{0,2}["'`]"""
    r"""|(?:\\{0,2}["'`]|\r?\n)[ \t,;\r\n]{0,40}(?:\\{0,2}["'`])?value(?:\\{0,2}["'`])?[ \t]{0,8}[:=]"""
    r"""|["']?[ \t]*\{"""
    r"""|>[ \t]{0,8}[^\s<>]|</key>)"""
)
FLAG_WORDS = ("--password", "--pass", "--passwd", "--token", "--secret", "--api-key", "--apikey",
               "--auth-token", "--access-token", "--client-secret", "--secret-key", "--access-key")  # fmt: skip
