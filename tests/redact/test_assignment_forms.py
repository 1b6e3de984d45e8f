"""A secret whose name and value are joined by more than an operator.

Code and config name a secret in many shapes besides ``NAME = value``: a subscript
(``os.environ["API_KEY"] = …``), a type between them (``SECRET_KEY: str = …``, ``apiKey: string = …``),
a call's two strings (``define("DB_PASSWORD", …)``, ``getenv("API_KEY", "<default>")``,
``HTTPBasicAuth("user", …)``), a name that is a field's value with the secret in a sibling ``value``
(Kubernetes ``env``, ECS task definitions, ``<add key=… value=…/>``), a Terraform variable's default,
an XML element, a property list. Each value is checked as the plain assignment's would be; what names
no secret, or holds code, stays.
"""

from __future__ import annotations

import random
import re

import pytest

from agent_memory.redact import redact

from .test_families import pw

_RNG = random.Random(90210)


def _tok(n: int = 24) -> str:
    return pw(n, _RNG)


# «…» marks what must disappear
JOINED = [
    f'os.environ["API_KEY"] = "«{_tok()}»"',
    f"config['api_key'] = '«{_tok()}»'",
    f'SECRET_KEY: str = "«{_tok()}»"',
    f'const apiKey: string = "«{_tok()}»";',
    f'let api_key: &str = "«{_tok()}»";',
    f'api_key: Optional[str] = "«{_tok()}»"',
    f'token: str | None = "«{_tok()}»"',
    f'map.put("password", "«{_tok(14)}»");',
    f'config.set("api_key", "«{_tok()}»")',
    f'define("DB_PASSWORD", "«{_tok(14)}»");',
    f'key = os.getenv("API_KEY", "«{_tok()}»")',
    f'{{"name": "API_KEY", "value": "«{_tok()}»"}}',
    f'{{\\"name\\": \\"API_KEY\\", \\"value\\": \\"«{_tok()}»\\"}}',  # as a transcript's JSON carries it
    f'- name: API_TOKEN\n  value: "«{_tok()}»"',
    f"env:\n  - name: DB_PASSWORD\n    value: «{_tok(14)}»",
    f'<add key="ApiKey" value="«{_tok()}»" />',
    f"<password>«{_tok(14)}»</password>",
    f"<key>API_KEY</key>\n\t<string>«{_tok()}»</string>",
    f'api_key <- "«{_tok()}»"',
    f'{{"auths": {{"registry.example.com": {{"auth": "«{_tok(28)}»"}}}}}}',  # a Docker config
    f"AUTH=«{_tok()}»",
    f'requests.get(url, auth=("bob", "«{_tok(14)}»"))',  # a basic-auth pair: the password is the second
    f'variable "db_password" {{\n  default = "«{_tok(14)}»"\n}}',  # a Terraform variable's default
    f'variable "api_token" {{\n  type        = string\n  sensitive   = true\n  default     = "«{_tok()}»"\n}}',
    f'session.auth = HTTPBasicAuth("bob", "«{_tok(14)}»")',  # a constructor named for credentials: user, password
    f'new NetworkCredential("ci", "«{_tok(14)}»")',
]

LEFT = [
    'fields = ("password", "confirm_password")',
    'required = ["token", "secret"]',
    "print(\"token\", token)",
    'os.environ["API_KEY"] = api_key',
    "SECRET_KEY: str = Field(default=...)",
    'token: str = ""',
    "api_key: str = settings.api_key",
    "def login(password: str = None):",
    "<password>${DB_PASSWORD}</password>",
    "<key>API_KEY</key><string>$(API_KEY)</string>",
    '{"name": "token", "value": 42}',
    "- name: API_TOKEN\n  valueFrom:\n    secretKeyRef:\n      name: api",
    "tokens <- tokenize(text)",
    'key = os.getenv("API_KEY", "")',
    'password = request.form.get("password", "")',
    "<token>true</token>",
    'headers["Authorization"] = f"Bearer {token}"',
    'cache_key: str = "user_profile_v2"',
    'token: "{{ .Values.token }}"',
    f"author: {_tok()}",  # "auth" only as a word of its own
    "authentication: required",
    "oauth_token_url: https://oauth2.example.com/token",
    '"auth": "none"',
    "useAuth: true",
    "auth=(user, password)",
    'HTTPBasicAuth("bob", password)',
    'getToken("scope", "default")',
    'useAuth("admin", "readonly")',
    'variable "db_password" {\n  default = ""\n}',
    'variable "region" {\n  default = "eu-west-1"\n}',
    'variable "db_password" {\n  type = string\n}\nvariable "greeting" {\n  default = "Hello4World2"\n}',
    # a keyword at the end of a URL is no name: the next string is another field's name
    '"token_uri":"https://oauth2.googleapis.com/token","auth_provider_x509_cert_url":"https://x.test/certs"',
]

_MARKED = re.compile("«(.*?)»", re.S)


@pytest.mark.parametrize("marked", JOINED)
def test_every_joined_secret_is_redacted(marked: str) -> None:
    text = _MARKED.sub(lambda m: m.group(1), marked)
    out = redact(text)
    for secret in _MARKED.findall(marked):
        assert not [secret[i : i + 8] for i in range(len(secret) - 7) if secret[i : i + 8] in out.text], out.text
    # only the value goes: the name, the quotes and what joins them stay
    assert re.sub(r"\[REDACTED:[a-z-]+\]", "", out.text) == _MARKED.sub("", marked)


@pytest.mark.parametrize("text", LEFT)
def test_what_names_no_secret_or_holds_code_stays(text: str) -> None:
    assert redact(text).text == text
