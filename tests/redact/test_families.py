"""Tables for the redaction families that read commands, sentences and config files, and for the
ways a secret is disguised (full-width letters, a zero-width space, a line break, base64).

«…» marks what must disappear; ``None`` means the text must come back unchanged. Each family
also has a hypothesis property that plants fresh random secrets of its shape and reads every
file the tool writes (tests/reliability/test_secrets_privacy.py).
"""

from __future__ import annotations

import base64
import random
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agent_memory.redact import contains_secret, redact

_RNG = random.Random(20261201)
_OWN = random.Random(20261202)
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
B64 = ALNUM + "+/"


def pw(n: int = 12, rng: random.Random = _RNG) -> str:
    """A password with capitals, small letters and digits (no stand-in words)."""
    while True:
        value = "".join(rng.choice(ALNUM) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value) and any(c.islower() for c in value):
            if not any(w in value.lower() for w in ("test", "fake", "xxx", "example", "sample", "dummy")):
                return value


def aws_secret(rng: random.Random = _RNG) -> str:
    while True:
        value = "".join(rng.choice(B64) for _ in range(40))
        if sum(c.isdigit() for c in value) >= 3 and not value.startswith("/") and "//" not in value:
            return value


def fullwidth(text: str) -> str:
    """ASCII letters, digits and punctuation in their full-width forms."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


# fmt: off
FAMILY_TABLES: dict[str, list[tuple[str, str | None]]] = {
    "cli-password": [
        (f"mysql -uroot -p«{pw()}» shop", "cli-password"),
        (f"mysqldump -h db -u app -p'«{pw()}»' shop > dump.sql", "cli-password"),
        (f"mysql --password=«{pw()}» shop", "password-assignment"),
        ("mysql -u root -p shop", None),  # -p then a blank: mysql asks for the password
        (f"sshpass -p «{pw()}» ssh deploy@build", "cli-password"),
        ("sshpass -p $SSHPASS ssh deploy@build", None),
        (f"docker login -u ci -p «{pw()}» registry.internal", "cli-password"),
        (f"podman login --username ci --password «{pw()}» quay.io", "cli-password"),
        ("docker login -u ci --password-stdin registry.internal", None),
        (f"mongo -u admin -p «{pw()}» --authenticationDatabase admin", "cli-password"),
        (f"mongosh --username admin --password=«{pw()}»", "cli-password"),
        (f"redis-cli -h cache -a «{pw()}» ping", "cli-password"),
        (f"zip -P «{pw()}» backup.zip notes.txt", "cli-password"),
        (f"7z a -p«{pw()}» archive.7z dir", "cli-password"),
        (f"openssl enc -aes-256-cbc -k «{pw()}» -in a -out b", "cli-password"),
        (f"openssl pkcs12 -export -passout pass:«{pw()}» -out cert.p12", "cli-password"),
        ("zip -r backup.zip src && docker ps", None),
        (f"curl -u deploy:«{pw()}» https://ci.internal/api", "curl-credentials"),
        (f"PGPASSWORD=«{pw()}» psql -h db shop", "password-assignment"),
        (f"SSHPASS=«{pw()}» sshpass -e ssh build", "cli-password"),
        # (their own generator, from here on: the rows above keep the values they were written with)
        (f"keytool -genkey -keystore ks.jks -storepass «{pw(14, _OWN)}» -keypass «{pw(14, _OWN)}»", "cli-password"),
        (f"sqlcmd -S db -U sa -P «{pw(14, _OWN)}» -Q 'select 1'", "cli-password"),
        (f"ssh-keygen -t ed25519 -N '«{pw(14, _OWN)}»' -f deploy_key", "cli-password"),
        (f"mysqladmin -u root password «{pw(14, _OWN)}»", "cli-password"),
        (f"az login -u ci@example.com -p «{pw(14, _OWN)}»", "cli-password"),
        ("ssh-keygen -t ed25519 -N '' -f deploy_key", None),
        ("keytool -list -storepass:env STOREPASS", None),
        ("az login --use-device-code", None),
        ("sqlcmd -S db -U sa -P $SA_PASSWORD", None),
    ],
    "stdin-password": [
        (f"echo '«{pw(14, _OWN)}»' | docker login -u ci --password-stdin registry.internal", "stdin-password"),
        (f"printf '%s' «{pw(14, _OWN)}» | helm registry login r.internal -u ci --password-stdin", "stdin-password"),
        ("cat token.txt | docker login --password-stdin", None),
        ("echo $TOKEN | docker login -u ci --password-stdin", None),
    ],
    "sql-password": [
        (f"ALTER USER 'app'@'%' IDENTIFIED BY '«{pw(14, _OWN)}»';", "sql-password"),
        (f"CREATE USER 'app'@'localhost' IDENTIFIED WITH mysql_native_password BY '«{pw(14, _OWN)}»';", "sql-password"),
        (f"GRANT ALL ON shop.* TO 'app'@'%' IDENTIFIED BY \"«{pw(14, _OWN)}»\";", "sql-password"),
        ("the user is identified by their email", None),
        ("IDENTIFIED BY ?", None),
    ],
    "sudo-password": [
        (f"echo «{pw()}» | sudo -S apt-get update", "sudo-password"),
        (f"printf '%s\\n' «{pw()}» | sudo -S true", "sudo-password"),
        (f"sudo -S id <<< '«{pw()}»'", "sudo-password"),
        ('echo "$PASSWORD" | sudo -S apt-get update', None),
        ("echo done | sudo tee /etc/motd", None),
    ],
    "stated-password": [
        (f"the staging database password is «{pw()}»", "stated-password"),
        (f"The password for the staging db is now «{pw()}».", "stated-password"),
        ("the password for the wiki is 'hunter'", "stated-password"),
        (f"log in with password «{pw()}» and then reset it", "stated-password"),
        ("the password is required", None),
        ("the password is stored in the vault", None),
        ("the password is at least 12 characters", None),
        (f"パスワードは «{pw()}» です", "stated-password"),
        (f"パスワードは«{pw()}»です", "stated-password"),
        (f"DBパスワード: «{pw()}»", "stated-password"),
        (f"パスワード：«{pw()}»", "stated-password"),
        ("パスワードは変更しました", None),
        ("パスワードは8文字以上にしてください", None),
        (f"密码是 «{pw()}»", "stated-password"),
        (f"数据库密码：«{pw()}»", "stated-password"),
        ("密码是必填项", None),
    ],
    "netrc-password": [
        (f"machine api.example.com login bob password «{pw()}»", "netrc-password"),
        (f"machine git.internal\nlogin ci\npassword «{pw()}»\n", "netrc-password"),
        (f"default login anonymous password «{pw()}»", "netrc-password"),
        ("the machine learning login page", None),
        ("login with password reset", None),
    ],
    "pgpass-password": [
        (f"db.internal:5432:shop:app:«{pw()}»", "pgpass-password"),
        (f"echo 'localhost:5432:*:postgres:«{pw()}»' > ~/.pgpass", "pgpass-password"),
        (f"use `db.internal:5432:shop:app:«{pw()}»` there", "pgpass-password"),
        # a random password that happens to hold a stand-in word is still a password; a stand-in is not
        ("deploy with db.internal:5432:shop:app:«FAkE7oGNrVg6YlVw» on staging", "pgpass-password"),
        ("db.internal:5432:shop:app:FakePassword123", None),
        ("00:11:22:33:44:55", None),  # a MAC address
        ("12:30:00:12:45", None),
    ],
    "cloud-signature": [
        (f"https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2026-01-01&sp=r&sig=«{pw(30)}%3D»",
         "cloud-signature"),
        (f"https://b.s3.amazonaws.com/k?X-Amz-Signature=«{''.join(_RNG.choice('0123456789abcdef') for _ in range(64))}»",
         "cloud-signature"),
        ("the sig=short value", None),
    ],
    "bare-aws-secret": [
        (f"the aws secret is «{aws_secret()}» for now", "bare-aws-secret"),
        (f"«{aws_secret()}»", "bare-aws-secret"),
        (f"aws_secret_access_key = «{aws_secret()}»", "aws-secret-access-key"),
        ("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", None),  # AWS's documented sample
        ("commit da39a3ee5e6b4b0d3255bfef95601890afd80709", None),  # hex: a SHA-1
        ("src/components/Button/index/ListItem42", None),
        ("the key is «H4DUkCqXDaHSmTQpHyoUArgrSYClXyFctxYb+KTd»", "bare-aws-secret"),  # one digit: one key in a hundred
        ("«lnSCYiHAM9vpSPsy7M0f7ycs3pB7LRgWaXp//PRX»", "bare-aws-secret"),  # "//" drawn by chance
        ("see docs//guides/Button/index/ListItem42/a", None),  # a path with a doubled slash
    ],
    "base64-wrapped": [
        (f"echo «{base64.b64encode(('ghp_' + pw(36)).encode()).decode()}» | base64 -d", "base64-wrapped"),
        (f"data: «{base64.b64encode(('password=' + pw()).encode()).decode()}»", "base64-wrapped"),
        (f"echo {base64.b64encode(b'hello there, general kenobi').decode()} | base64 -d", None),
    ],
    "cookie-value": [
        (f"Cookie: sessionid=«{pw(32, _OWN)}»; csrftoken=abc", "cookie-value"),
        (f"Set-Cookie: auth=«{pw(40, _OWN)}»; Path=/; HttpOnly", "cookie-value"),
        (f"curl -b 'sid=«{pw(24, _OWN)}»' https://app.internal/api", "cookie-value"),
        (f'curl --cookie "sid=«{pw(24, _OWN)}»; theme=dark" https://app.internal/', "cookie-value"),
        (f"curl -H 'cookie: session=«{pw(24, _OWN)}»' https://app.internal/", "cookie-value"),  # (not the whole header)
        ("Cookie: theme=dark; lang=en", None),
        ("Set-Cookie: id=a3fWa; Expires=Thu, 21 Oct 2021 07:28:00 GMT", None),
        ("the cookie: chocolate=chip", None),
        ("git checkout -b feature/login", None),
    ],
    "cli-setting": [
        (f"aws configure set aws_secret_access_key «{pw(40, _OWN)}»", "cli-setting"),
        (f'setx API_KEY "«{pw(24, _OWN)}»"', "cli-setting"),
        (f"set -gx OPENAI_TOKEN «{pw(32, _OWN)}»", "cli-setting"),
        (f"set -x -g DB_PASSWORD «{pw(14, _OWN)}»", "cli-setting"),
        (f"npm config set //registry.npmjs.org/:_authToken «{pw(36, _OWN)}»", "cli-setting"),
        (f'gh secret set DEPLOY_TOKEN --body "«{pw(24, _OWN)}»"', "cli-setting"),
        (f"git config --global github.token «{pw(32, _OWN)}»", "cli-setting"),
        ('git config --global user.name "Bob Smith"', None),
        ("git config credential.helper store", None),
        ("set -euo pipefail", None),
        ("set -x PATH $PATH /usr/local/bin", None),
        ("set -gx GPG_KEY_ID ABCD1234EFGH5678", None),  # an id of a key, not a key
        ("aws configure set region us-east-1", None),
        ("gh secret set API_TOKEN < token.txt", None),
        ('gh secret set API_TOKEN --body "$TOKEN"', None),
        ("npm config set registry https://registry.npmjs.org/", None),
        ("set -x API_TOKEN (cat ~/.token)", None),
    ],
    "stated-secret": [  # (its own generator: the tables above keep the values they were written with)
        (f"the deploy token is «{pw(24, _OWN)}»", "stated-secret"),
        (f"My API key is «{pw(32, _OWN)}».", "stated-secret"),
        (f"the secret key for the bot is «{pw(20, _OWN)}», keep it safe", "stated-secret"),
        (f"The webhook secret has been changed to «{pw(28, _OWN)}»", "stated-secret"),
        (f"the tokens for staging were «{pw(24, _OWN)}» and more", "stated-secret"),
        (f"the key is «{''.join(_OWN.choice('0123456789abcdef') for _ in range(32))}»", "stated-secret"),
        (f"トークンは «{pw(24, _OWN)}» です", "stated-secret"),
        (f"APIキーは«{pw(24, _OWN)}»です", "stated-secret"),
        (f"令牌是 «{pw(24, _OWN)}»", "stated-secret"),
        ("the token is expired", None),
        ("the key is to keep functions small", None),
        ("the cache key is user:1234:profile", None),
        ("the key is config_v2_prod_2024", None),
        ("the primary key is 42", None),
        ("the key for sorting is createdAt", None),
        ("the key is getUserNameFromSessionCache", None),
        ("the token is stored in ~/.config/gh/hosts.yml", None),
        ("the key is settings.SECRET_KEY", None),
        ("the secret is NEXT_PUBLIC_API_URL2", None),
        ("キーはEnterです", None),
        ("トークン数は 128000 です", None),
        ("the token is X-MS-Exchange-Organization-AuthSource", None),  # a header's name: words run together
        # NAME=value after "the token is": the assignment names it, and its name stays
        (f"the token is SVC_ACCT_TOKEN=«{pw(32, _OWN)}» now", "generic-secret"),
        # "token X" with no verb, and "OAuth:" as a header's label: the same judgement of the value
        (f"use token «{pw(24, _OWN)}» for the staging registry", "stated-secret"),
        (f"Token «{pw(20, _OWN)}»", "stated-secret"),
        (f"the CSRF token `«{pw(32, _OWN)}»`.", "stated-secret"),
        (f"token «{''.join(_OWN.choice('0123456789abcdef') for _ in range(40))}»", "stated-secret"),
        (f"OAuth: «{pw(28, _OWN)}»", "stated-secret"),
        (f'"OAuth": "«{pw(28, _OWN)}»"', "stated-secret"),
        (f"X-OAuth: «{pw(28, _OWN)}»", "stated-secret"),
        (f"OAuth: ya29.«{pw(38, _OWN)}»", "stated-secret"),  # Google's: a dotted value with a token in it
        (f"the token is ya29.«{pw(38, _OWN)}»", "stated-secret"),
        ("token expiry is 3600 seconds", None),
        ("the token budget is 2000", None),
        ("token budget exceeded: 200000 tokens", None),
        ("the token is expired", None),
        ("refresh the token before it expires", None),
        ("token getAccessTokenSilently returns a promise", None),
        ("the token usage_statistics_enabled flag", None),
        ("token 1234567890123456789", None),  # digits only: a number
        ("token X-MS-Exchange-Organization-AuthSource", None),
        ("token 9f86d081", None),  # too short to be a token
        ("OAuth: google.oauth2.credentials", None),
        ("OAuth: see docs/auth.md", None),
        ("OAuth: RefreshTokenRotationPolicy", None),
        ("OAuth 2.0 needs a redirect URI", None),
    ],
}
# Disguises of a known shape: read as a person would, so the usual rule still names it.
# (text, the part that must go, rule)
_P1, _P2, _P3, _P4, _P5 = pw(), pw(32), pw(36), pw(18), pw(20)
DISGUISED: list[tuple[str, str, str]] = [
    (fullwidth(f"password={_P1}"), fullwidth(_P1), "password-assignment"),
    (f"password＝{_P1}", _P1, "password-assignment"),
    (f"API_TOKEN：{_P2}", _P2, "generic-secret"),
    (fullwidth("ghp_" + _P3), fullwidth(_P3), "github-token"),
    ("ghp_" + _P4 + "\u200b" + _P4, _P4, "github-token"),
    ("AKIAQ3EGRTFQ\u2060WXYZ2345", "Q3EGRTFQ", "aws-access-key-id"),
    ("ghp_" + _P5 + "\n" + _P4[:16], _P5, "github-token"),
    ("key: AKIAQ3EGRTFQ\n  WXYZ2345", "Q3EGRTFQ", "aws-access-key-id"),
]
# Item 15: look-alikes that must stay.
BENIGN = [
    "session_key=session_id_v2",
    "AKIAIOSFODNN7EXAMPLE",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "cache_key = user_profile_v2",
    "the line ends with build42\nnext line",
]
# fmt: on

_MARKED = re.compile("«(.*?)»", re.S)


def _unmark(text: str) -> tuple[str, list[str]]:
    return _MARKED.sub(lambda m: m.group(1), text), _MARKED.findall(text)


@pytest.mark.parametrize(
    ("family", "marked", "expected"),
    [(family, text, expected) for family, cases in FAMILY_TABLES.items() for text, expected in cases],
    ids=[f"{family}-{i}" for family, cases in FAMILY_TABLES.items() for i in range(len(cases))],
)
def test_family_table(family: str, marked: str, expected: str | None) -> None:
    text, secrets = _unmark(marked)
    result = redact(text)
    if expected is None:
        assert result.text == text and not contains_secret(text), result
        return
    assert expected in result.rule_ids, result
    for secret in secrets:
        assert secret not in result.text, result.text


@pytest.mark.parametrize(("text", "secret", "expected"), DISGUISED)
def test_a_disguised_secret_is_read_as_what_it_is(text: str, secret: str, expected: str) -> None:
    result = redact(text)
    assert expected in result.rule_ids, result
    assert secret not in result.text, result


@pytest.mark.parametrize("text", BENIGN)
def test_documented_samples_and_field_names_stay(text: str) -> None:
    assert redact(text).text == text


def _random(seed: int, n: int) -> str:
    """``n`` characters that look random whatever the seed (shrinking never yields '0000…Aa')."""
    rng = random.Random(seed)
    return pw(n, rng)


PASSWORD = st.builds(_random, st.integers(0, 2**32), st.integers(10, 24))
FORMS = [
    "mysql -uapp -p{s} shop", "sshpass -p {s} ssh build", "docker login -u ci -p {s} reg.internal",
    "mongo -u admin -p {s} admin", "redis-cli -a {s} ping", "zip -P {s} out.zip a", "openssl enc -k {s} -in a",
    "echo {s} | sudo -S true", "the staging database password is {s}", "パスワードは {s} です", "DBパスワード: {s}",
    "密码是 {s}", "password＝{s}", "machine h.internal login ci password {s}", "db.internal:5432:shop:app:{s}",
]


@settings(max_examples=60, deadline=None)
@given(secret=PASSWORD, form=st.sampled_from(FORMS))
def test_no_form_keeps_a_random_password(secret: str, form: str) -> None:
    """Whatever the password, each command, sentence and config form loses it."""
    result = redact(form.format(s=secret))
    assert secret not in result.text, result.text


@settings(max_examples=60, deadline=None)
@given(secret=st.builds(_random, st.integers(0, 2**32), st.integers(12, 20)), word=st.sampled_from(["FAkE", "fake", "Sample", "xxxx"]),
       at=st.integers(0, 20), form=st.sampled_from(FORMS))
@example(secret="W0ezlJlzB0lj", word="FAkE", at=0, form="mysql -uapp -p{s} shop")  # repeats: entropy under 3 bits
@example(secret="gtywWnnPjwe5", word="FAkE", at=0, form="mysql -uapp -p{s} shop")  # shaped like CamelCase words
def test_a_random_password_holding_a_stand_in_word_is_still_lost(secret: str, word: str, at: int, form: str) -> None:
    """A random password that happens to contain "fake" or "sample" is a password, not a stand-in."""
    spliced = secret[:at] + word + secret[at:]
    result = redact(form.format(s=spliced))
    assert spliced not in result.text, result.text


@settings(max_examples=40, deadline=None)
@given(secret=PASSWORD, cut=st.integers(1, 9), how=st.sampled_from(["\u200b", "\u2060", "\ufeff", "\u00ad"]))
def test_an_invisible_character_does_not_hide_a_key(secret: str, cut: int, how: str) -> None:
    key = "ghp_" + (secret * 4)[:36]
    result = redact(f"use {key[:4 + cut]}{how}{key[4 + cut:]} here")
    assert key[6:18] not in result.text.replace(how, ""), result.text
