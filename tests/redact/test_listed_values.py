"""A secret assigned in brackets or as a list: a shell array, a list, a value in parentheses, YAML items.

``SECRET_KEY=(…)``, ``TOKENS=("…" "…")``, ``"api_keys": ["…", "…"]`` and ``api_keys:`` over ``- …``
lines name their values as plainly as ``SECRET_KEY=…`` does, so every element that would be
redacted on its own is redacted there too; code in brackets (calls, comprehensions, templates,
words) stays as it is.
"""

from __future__ import annotations

import random
import re

import pytest

from agent_memory.redact import redact

from .test_families import pw

_RNG = random.Random(4417)


def _tok(n: int = 24) -> str:
    return pw(n, _RNG)


# «…» marks what must disappear
LISTED = [
    f"SECRET_KEY=(«{_tok(20)}»)",
    f"export SECRET_KEY=(«{_tok(12)}#{_tok(6)}!»)",  # a shell array's punctuation is its value's own
    f'TOKENS=("«{_tok()}»" "«{_tok()}»")',
    f'password = ("«{_tok(10)}&3»")',
    f'SECRET_KEY = ("«django-insecure-{_tok(30)}»")',
    f'{{"client_secret": ["«{_tok()}»"]}}',
    f'{{\\"client_secret\\": [\\"«{_tok()}»\\", \\"«{_tok()}»\\"]}}',  # as a transcript's JSON carries it
    f"password=[«{_tok(14)}»]",
    f'api_tokens = [ "«{_tok()}»", "x" ]',
    f'"api_keys": [\n    "«{_tok()}»",\n    "«{_tok()}»"\n]',
    f"api_keys:\n  - «{_tok()}»\n  - «{_tok()}»\nother: 1",  # a YAML list: an item per line
    f'passwords:\r\n  - "«{_tok(14)}»"',
]

CODE = [
    "SECRET_KEY=$(cat /run/secrets/key)",
    "password=(getpass())",
    "secret=(a+b)",
    'keys = ["name", "email"]',
    "token = (await client.auth())",
    'api_key=(os.getenv("API_KEY"))',
    "tokens = [tokenize(x) for x in lines]",
    "tokens = [\n    tokenize(line)\n]",
    'password = ("Enter password: ")',
    'secrets: [ "${{ secrets.X }}" ]',
    "PASSWORD=(${DB_PASSWORD})",
    'tokens = ["<s>", "</s>"]',
    'special_tokens = ["[CLS]", "[SEP]", "[PAD]"]',
    "token_ids = [101, 2023, 102]",
    "max_tokens=(4096)",
    "password=(None)",
    "key=(k for k in keys)",
    "secret_key = [SECRET_KEY]",
    'secrets = [\n  "prod-db",\n  "staging"\n]',
    "keys: [up, down, left, right]",
    'password_fields = ["password", "confirm"]',
    "Secrets:\n- never commit them\n- rotate them monthly",  # a heading over a list, in prose
    "tokens:\n  - foo\n  - bar",
]

_MARKED = re.compile("«(.*?)»", re.S)


@pytest.mark.parametrize("marked", LISTED)
def test_every_listed_secret_is_redacted(marked: str) -> None:
    text = _MARKED.sub(lambda m: m.group(1), marked)
    secrets = _MARKED.findall(marked)
    out = redact(text)
    assert out.redacted, out.text
    for secret in secrets:
        pieces = {secret[i : i + 8] for i in range(len(secret) - 7)}
        assert not [p for p in pieces if p in out.text], out.text
    # what is around the values stays: the brackets, the quotes, the name
    assert out.text.replace("[REDACTED:generic-secret]", "").replace("[REDACTED:password-assignment]", "") \
        .replace("[REDACTED:high-entropy-assignment]", "") == _MARKED.sub("", marked)


@pytest.mark.parametrize("text", CODE)
def test_code_in_brackets_is_left_alone(text: str) -> None:
    assert redact(text).text == text
