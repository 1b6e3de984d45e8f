"""The redaction rule table: one entry per family of secrets, each with a stable ``rule_id``.

Rules are data. Each ``rule_id`` is written into records, so renaming one is a breaking change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .assignments import ASSIGN_AFTER, FLAG_WORDS, assignment_finder, setting_ok
from .checks import (
    TOKEN_END,
    TOKEN_START,
    Finder,
    TokenCheck,
    Validator,
    all_of,
    artifactory_ok,
    authorization_ok,
    aws_key_id_ok,
    bare_aws_secret,
    bearer_ok,
    cli_value_ok,
    config_value_ok,
    cookie_finder,
    curl_ok,
    header_flag_ok,
    high_entropy_env_ok,
    is_template,
    lenient,
    min_entropy,
    mostly_filler,
    needs_mixed,
    pem_ok,
    pgpass_finder,
    random_looking,
    rx,
    secret_of,
    signature_ok,
    stated_cjk_ok,
    stated_token_ok,
    stated_value_ok,
    strict,
    url_ok,
)


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
    anchored: bool = False  # patterns start at the hook: matched there, not searched for around it
    words: tuple[str, ...] = ()  # hooks outside latin-1 (パスワード, 密码), found by plain substring search
    token: TokenCheck | None = None  # for a bare shape with no literal: run on every base64-like run of the text


def _prefixed(
    rule_id: str,
    description: str,
    prefixes: tuple[str, ...],
    body: str,
    *,
    validator: Validator | None = strict,
    after: str = "",
    left: str = TOKEN_START,
    right: str = TOKEN_END,
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
        patterns=(rx(f"{left}(?:{alt}){body}{right}"),),
        validator=validator,
        after=after,
        reach=reach,
        priority=priority,
    )


# ---------------------------------------------------------------------------
# the rules

_PEM = rx(
    r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-{3,5}"
    r"(?P<body>(?:[A-Za-z0-9+/=\s:,.\\]|-(?!-)){0,20000})"
    r"(?:-{3,5}END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-{3,5})?"
)
_TOK = "A-Za-z0-9_\\-"
# a command-line value: quoted, or a run up to the next blank or shell operator
_CLI_VALUE = r"""(?P<s>'[^'\n]{1,200}'|"[^"\n]{1,200}"|[^\s'"`;|&<>()]{1,200})"""
# the options between a command and the flag that gives its password
_OPTS = r"[^\n|;&]{0,300}?"
# a value in a sentence: quoted, or a run that does not end in punctuation
_STATED_VALUE = r"""(?P<s>"[^"\s]{3,128}"|'[^'\s]{3,128}'|`[^`\s]{3,128}`|[^\s"'`]{2,127}[^\s"'`.,;:!?)\]}])"""
# what a credential's word may be followed by before its copula: "… for the staging db"
_WHAT_FOR = r"(?:[ \t]+(?:for|of|on|to|at)[ \t]+[^\s.,;:]{1,60}(?:[ \t]+[^\s.,;:]{1,60}){0,3}?)?"
# a value an echo or a printf hands on to a pipe
_ECHOED = (r"(?<![\w\-])(?:echo(?:[ \t]+-[neE]+)*|printf(?:[ \t]+(?:'%s(?:\\n)?'|\"%s(?:\\n)?\"))?)[ \t]+"
           + _CLI_VALUE)
_PASSWORD_WORDS = ("パスワード", "暗証番号", "パスフレーズ", "合言葉", "密码", "密碼", "口令")
_TOKEN_WORDS = ("トークン", "キー", "シークレット", "秘密鍵", "令牌", "密钥", "密鑰", "秘钥", "金鑰")


def _cjk_stated(words: tuple[str, ...]) -> re.Pattern[str]:
    """「<word>は X」, 「<word>: X」, <word>是 X, for one of ``words``."""
    return re.compile("(?:" + "|".join(words) + r")[ \t]*(?P<op>は|が|を|って|是|为|為|:|=)[ \t]*"
                      r"(?P<q>[「『\"'`])?(?P<s>[!-~]{2,127}[A-Za-z0-9#$%&*+\-/=@^_~])")


RULES: tuple[Rule, ...] = (
    Rule(
        "private-key",
        "PEM/OpenSSH/PGP private key block, also on one line with literal \\n",
        hooks=("-----BEGIN",),
        after=r"[ A-Z0-9]{0,40}PRIVATE KEY",
        patterns=(_PEM,),
        validator=pem_ok,
        reach=20200,
    ),
    Rule(
        "aws-access-key-id",
        "AWS access key id (AKIA/ASIA/ABIA/ACCA/A3T…)",
        hooks=("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        after="[A-Z0-9]{16}",
        patterns=(rx(TOKEN_START + r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}" + TOKEN_END),),
        validator=aws_key_id_ok,
    ),
    _prefixed(
        "aws-bedrock-api-key",
        "Amazon Bedrock API key",
        ("ABSK", "bedrock-api-key-"),
        "[A-Za-z0-9+/]{100,1200}={0,2}",
        validator=lambda m: not mostly_filler(m.group(0)),
        right=r"(?![A-Za-z0-9+/=])",
        reach=1300,
    ),
    Rule(
        "aws-account-id",
        "AWS account number assigned to an aws…account…id name",
        hooks=("account",),
        patterns=(
            rx(
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
        validator=all_of(strict, min_entropy(3.0)),
    ),
    Rule(
        "azure-client-secret",
        "Azure AD / Entra client secret (…Q~…)",
        hooks=("Q~",),
        patterns=(
            rx(
                r"(?<![A-Za-z0-9_~.\-])(?P<s>[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34})"
                r"(?![A-Za-z0-9_~\-]|\.[A-Za-z0-9_~\-])"  # a full stop after it ends a sentence
            ),
        ),
        validator=all_of(strict, needs_mixed),
        back=6,
        reach=40,
    ),
    Rule(
        "azure-credential",
        "Azure tenant/client id or secret assigned to an azure/ad_ name, storage account key",
        hooks=("azure", "ad_tenant", "ad_client", "AccountKey", "SharedAccessKey"),
        patterns=(
            rx(
                r"(?:(?i:azure)|(?<![A-Za-z0-9])(?i:ad))[\w.\-]{0,30}?(?i:tenant|client)[_\-.]?(?i:id|secret)\w{0,10}\\{0,2}[\"']?"
                r"[ \t]{0,5}(?:=>|:=|=|:)[ \t]{0,5}\\{0,2}[\"'`]?(?P<s>[A-Za-z0-9_~.\-]{16,64})"
            ),
            rx(r"(?:AccountKey|SharedAccessKey)=(?P<s>[A-Za-z0-9+/]{40,100}={0,2})"),
        ),
        validator=strict,
        back=3,
        reach=140,
        priority=15,
    ),
    Rule(
        "github-token",
        "GitHub personal/OAuth/app/refresh token and fine-grained PAT",
        hooks=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        patterns=(
            rx(TOKEN_START + r"gh[pousr]_[A-Za-z0-9]{36,255}" + TOKEN_END),
            rx(TOKEN_START + r"ghs_[0-9]{1,20}_eyJ[A-Za-z0-9_\-]{10,1500}(?:\.[A-Za-z0-9_\-]{2,1500}){1,2}"),
            rx(TOKEN_START + r"github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])"),
        ),
        validator=strict,
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
            rx(
                TOKEN_START + r"(?:glpat|gldt|glft|glsoat|glrt|glcbt|glimt|glptt|glagent|gloas|glffct)-"
                r"[A-Za-z0-9_\-]{20,1024}(?:\.[A-Za-z0-9_\-]{2,40}){0,2}(?![A-Za-z0-9_\-])"
            ),
            rx(TOKEN_START + r"GR1348941[A-Za-z0-9_\-]{20,64}(?![A-Za-z0-9_\-])"),
        ),
        validator=all_of(strict, min_entropy(2.8)),
        reach=1200,
    ),
    Rule(
        "slack-token",
        "Slack bot/user/app/config tokens (xox…, xapp-)",
        hooks=("xoxb-", "xoxa-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-"),
        patterns=(
            rx(TOKEN_START + r"xox[abposre]-\d{8,14}-[A-Za-z0-9\-]{8,250}" + TOKEN_END),
            rx(TOKEN_START + r"xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{40,250}" + TOKEN_END),
            rx(TOKEN_START + r"xapp-\d-[A-Z0-9]{8,20}-\d{8,16}-[a-z0-9]{32,80}" + TOKEN_END),
        ),
        validator=strict,
    ),
    Rule(
        "slack-webhook",
        "Slack incoming webhook / workflow URL",
        hooks=("hooks.slack.com/",),
        patterns=(
            rx(r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_+\-]{4,40}(?:/[A-Za-z0-9_+\-]{4,80}){1,3}"),
        ),
        back=8,
        reach=260,
    ),
    Rule(
        "discord-webhook",
        "Discord webhook URL",
        hooks=("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"),
        patterns=(
            rx(r"(?:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d{5,30}/[A-Za-z0-9_\-]{20,100}"),
        ),
        back=16,
        reach=200,
    ),
    Rule(
        "discord-bot-token",
        "Discord bot token (id.timestamp.hmac)",
        hooks=(".",),
        after=r"[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27}",
        patterns=(rx(r"[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![A-Za-z0-9_\-])"),),
        validator=needs_mixed,
        back=30,
        reach=50,
        expand=_TOK,
    ),
    Rule(
        "telegram-bot-token",
        "Telegram bot token (id:AA…)",
        hooks=(":AA",),
        after=r"[A-Za-z0-9_\-]{32}",
        # also right after "bot", as every Bot API address carries it: https://api.telegram.org/bot<token>/getMe
        patterns=(rx(r"(?:(?<![A-Za-z0-9_])|(?<=bot))\d{8,10}:AA[A-Za-z0-9_\-]{32,33}(?![A-Za-z0-9_\-])"),),
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
            rx(r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9_\-]{16,200}T3BlbkFJ[A-Za-z0-9_\-]{16,200}(?![A-Za-z0-9_\-])"),
        ),
        validator=strict,
        back=210,
        reach=210,
    ),
    Rule(
        "anthropic-api-key",
        "Anthropic API/admin key (sk-ant-…)",
        hooks=("sk-ant-",),
        patterns=(
            rx(r"(?<![A-Za-z0-9_\-])sk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_\-]{32,300}(?![A-Za-z0-9_\-])"),
        ),
        validator=strict,
    ),
    Rule(
        "llm-api-key",
        "Other LLM provider keys: sk-… (OpenAI-compatible), pplx-, r8_, xai-, lsv2_",
        hooks=("sk-", "pplx-", "r8_", "xai-", "lsv2_"),
        patterns=(
            rx(r"(?<![A-Za-z0-9_\-])sk-(?!ant-)[A-Za-z0-9_\-]{32,300}(?![A-Za-z0-9_\-])"),
            rx(TOKEN_START + r"(?:pplx-[A-Za-z0-9]{40,64}|r8_[A-Za-z0-9]{36,40}|xai-[A-Za-z0-9]{60,100})" + TOKEN_END),
            rx(TOKEN_START + r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}" + TOKEN_END),
        ),
        validator=all_of(strict, lambda m: random_looking(m.group(0), 20)),
        after=r"[A-Za-z0-9_\-]{20}",
        reach=320,
        priority=12,
    ),
    _prefixed("groq-api-key", "Groq API key", ("gsk_",), "[A-Za-z0-9]{52}"),
    Rule(
        "huggingface-token",
        "Hugging Face user/org access token",
        hooks=("hf_", "api_org_"),
        patterns=(rx(TOKEN_START + r"hf_[A-Za-z0-9]{34,37}" + TOKEN_END), rx(TOKEN_START + r"api_org_[A-Za-z0-9]{34,37}" + TOKEN_END)),
        validator=lambda m: lenient(m) if m.group(0).startswith("hf_") else strict(m),
    ),
    Rule(
        "npm-token",
        "npm access token and .npmrc _auth/_authToken values",
        hooks=("npm_", "_authToken", "_auth"),
        patterns=(
            rx(TOKEN_START + r"npm_[A-Za-z0-9]{36}" + TOKEN_END),
            rx(r"_auth(?:Token)?[ \t]*=[ \t]*(?P<s>[^\s\"'`]{6,512})"),
        ),
        validator=lambda m: not is_template(secret_of(m)),
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
        validator=lenient,
        after="[a-z0-9]{32}",
    ),
    Rule(
        "mailchimp-api-key",
        "Mailchimp API key (hex-usN)",
        hooks=("-us",),
        after=r"\d{1,2}(?![A-Za-z0-9])",
        patterns=(rx(TOKEN_START + r"[a-f0-9]{32}-us\d{1,2}" + TOKEN_END),),
        back=33,
        reach=6,
    ),
    Rule(
        "onepassword-token",
        "1Password service-account token and account secret key",
        hooks=("ops_eyJ", "A3-"),
        patterns=(
            rx(TOKEN_START + r"ops_eyJ[A-Za-z0-9+/=_\-]{60,4000}"),
            rx(TOKEN_START + r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}" + TOKEN_END),
        ),
        validator=strict,
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
            rx(TOKEN_START + r"glc_[A-Za-z0-9+/]{32,400}={0,2}(?![A-Za-z0-9+/=])"),
            rx(TOKEN_START + r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}" + TOKEN_END),
        ),
        validator=all_of(strict, min_entropy(3.0)),
    ),
    Rule(
        "vault-token",
        "HashiCorp Vault service/batch/recovery token",
        hooks=("hvs.", "hvb.", "hvr.", "s."),
        patterns=(
            rx(TOKEN_START + r"hv[sbr]\.[A-Za-z0-9_\-]{24,400}(?![A-Za-z0-9_\-])"),
            rx(r"(?<![A-Za-z0-9_.\-])s\.[A-Za-z0-9]{24}" + TOKEN_END),
        ),
        validator=all_of(strict, needs_mixed),
        after=r"[A-Za-z0-9_\-]{20}",
    ),
    _prefixed("linear-api-key", "Linear API key", ("lin_api_",), "[A-Za-z0-9]{40,64}"),
    Rule(
        "notion-token",
        "Notion integration token",
        hooks=("ntn_", "secret_"),
        patterns=(rx(TOKEN_START + r"ntn_\d{11}[A-Za-z0-9]{35}" + TOKEN_END), rx(TOKEN_START + r"secret_[A-Za-z0-9]{43}" + TOKEN_END)),
        validator=all_of(strict, lambda m: any(c.isalpha() for c in m.group(0)[15:])),
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
            rx(TOKEN_START + r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}" + TOKEN_END),
            rx(r"(?i:sourcegraph)[\w.\-]{0,20}\\?[\"']?[ \t]{0,5}[:=][ \t]{0,5}\\?[\"']?(?P<s>[a-fA-F0-9]{40})" + TOKEN_END),
        ),
        validator=strict,
        reach=120,
    ),
    _prefixed("intra42-secret", "42 intra API client secret", ("s-s4t2ud-", "s-s4t2af-"), "[a-f0-9]{64}"),
    _prefixed("octopus-deploy-key", "Octopus Deploy API key", ("API-",), "[A-Z0-9]{26}", left=r"(?<![A-Za-z0-9_\-])"),
    Rule(
        "facebook-token",
        "Facebook/Meta access tokens (EAA…, app-id|secret)",
        hooks=("EAAM", "EAAC", "EAAG", "facebook"),
        patterns=(
            rx(TOKEN_START + r"EAA[MCG][A-Za-z0-9]{100,500}" + TOKEN_END),
            rx(r"(?<![0-9])\d{15,16}(?:\||%7C)[A-Za-z0-9_\-]{27,40}(?![A-Za-z0-9_\-])"),
        ),
        validator=strict,
        back=20,
        reach=520,
    ),
    Rule(
        "artifactory-token",
        "JFrog Artifactory API key / reference token",
        hooks=("AKC", "AP"),
        after="[A-Za-z0-9]{8}",
        patterns=(
            rx(r"(?<![A-Za-z0-9])(?:AKC[A-Za-z0-9]{10,80}|AP[0-9A-F][A-Za-z0-9]{8,80})(?![A-Za-z0-9])"),
        ),
        validator=artifactory_ok,
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
        validator=all_of(strict, min_entropy(3.0)),
        after="[a-fA-F0-9]{64}",
    ),
    Rule(
        "jwt",
        "JSON Web Token (header.payload[.signature])",
        hooks=(".eyJ",),
        patterns=(
            rx(
                r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,1500}\.eyJ[A-Za-z0-9_\-]{2,8000}"
                r"(?:\.[A-Za-z0-9_\-]{8,2000})?(?![A-Za-z0-9_\-])"
            ),
        ),
        validator=strict,
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
            rx(
                r"://(?P<s>[^\s:/?#@\"'`<>\[\]{}\\|]{0,128}:[^\s/?#\"'`<>\[\]{}\\|]{1,256})@(?=[A-Za-z0-9\[])"
            ),
        ),
        validator=url_ok,
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
            rx(
                r"(?<![A-Za-z0-9_\-])(?:-u|--user)(?:[ \t]+|=)(?P<s>\"[^\"\n\\]{1,200}\"(?::\"[^\"\n\\]{0,200}\")?"
                r"|'[^'\n\\]{1,200}'|[^\s\"'\\]{1,200}(?:'[^'\n\\]{0,200}'|\"[^\"\n\\]{0,200}\")?)"
            ),
        ),
        validator=curl_ok,
        back=1,
        reach=640,
        priority=20,
    ),
    Rule(
        "auth-header",
        "Authorization / Bearer / API-token header values",
        hooks=("authorization", ("-H", r"[ \t]"), ("--header", r"[ \t]")),
        patterns=(
            rx(
                r"(?i:authorization)\\{0,2}[\"']?[ \t]{0,5}[:=][ \t]{0,5}\\{0,2}[\"']?"
                r"(?:(?i:bearer|basic|token|api-token|apikey|api-key|digest|bot|jwt|sso-key|otp|oauth)[ \t]+)?"
                r"(?P<s>[^\s\"'`\\,;]{6,4000})"
            ),
        ),
        validator=authorization_ok,
        back=1,
        reach=4100,
        priority=20,
    ),
    Rule(
        "bearer-token",
        "Bearer token outside an Authorization header",
        hooks=("bearer",),
        after=r"[ \t]+[A-Za-z0-9\-._~+/]{12}",
        patterns=(rx(r"(?<![A-Za-z0-9])[Bb]earer[ \t]+(?P<s>[A-Za-z0-9\-._~+/]{12,4000}=*)"),),
        validator=bearer_ok,
        reach=4100,
        priority=21,
    ),
    Rule(
        "header-credential",
        "curl -H / --header with a token, key or auth header",
        hooks=("-H", "--header"),
        after=r"[ \t]",
        patterns=(
            rx(
                r"(?:-H|--header)[ \t]+\\{0,2}[\"']?(?P<name>[A-Za-z][A-Za-z0-9_\-]{0,40})[ \t]*:[ \t]*"
                r"(?P<s>[^\s\"'\\]{6,4000})"
            ),
        ),
        validator=header_flag_ok,
        reach=4200,
        priority=22,
    ),
    Rule(
        "cookie-value",
        "a session cookie: the random values of a Cookie / Set-Cookie header or of curl's --cookie / -b",
        hooks=(("cookie", r"[ \t]*:[ \t]*[^\s=;]{1,100}="), ("--cookie", r"[ \t=]+"), ("-b", r"[ \t]+[\"']?[^\s=;]{1,100}=")),
        finder=cookie_finder,
        priority=21,
    ),
    Rule(
        "password-assignment",
        "password-like name assigned a literal (.env, YAML, JSON, code, CLI flags)",
        hooks=("password", "passwd", "passphrase", "pwd", "pass") + tuple((flag, r"[ \t=]") for flag in FLAG_WORDS),
        after=ASSIGN_AFTER % 4,
        finder=assignment_finder,
        priority=30,
    ),
    Rule(
        "generic-secret",
        "secret/token/key/credential name assigned a random-looking literal",
        hooks=("secret", "token", "credential", "key", "auth"),
        after=ASSIGN_AFTER % 8,
        finder=assignment_finder,
        priority=31,
    ),
    Rule(
        "aws-secret-access-key",
        "AWS secret access key: named by the assignment finder when an aws/secret_access name holds 40 base64 chars",
        hooks=(),
        priority=14,
    ),
    Rule(
        "bare-aws-secret",
        "a lone 40-character AWS secret access key, with no name beside it (any named rule takes precedence)",
        hooks=(),
        token=bare_aws_secret,
        priority=45,
    ),
    Rule(
        "high-entropy-assignment",
        ".env line NAME=<long random base64/base62 value>",
        hooks=("=",),
        after=r"[A-Za-z0-9+/_\-]{20}",
        patterns=(
            rx(
                r"(?:^|(?<=\\n)|(?<=\\r))[ \t]{0,8}(?:export[ \t]+)?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,60})="
                r"(?P<s>[A-Za-z0-9+/_\-]{20,512}={0,3})(?=[\s\"';]|\\[nrt]|$)",
                re.MULTILINE,
            ),
        ),
        validator=high_entropy_env_ok,
        back=90,
        reach=520,
        priority=40,
    ),
    # -- credentials on the command lines of common tools -------------------------------
    Rule(
        "cli-password",
        "password given on a command line: mysql -pX, sshpass -p, docker login -p, mongo -p, redis-cli -a, "
        "zip -P, 7z -pX, openssl -k / pass:X, SSHPASS=, keytool -storepass, sqlcmd -P, ssh-keygen -N, "
        "mysqladmin password X, az login -p and friends",
        hooks=(
            *((cmd, _OPTS + r"[ \t]-p\S") for cmd in ("mysql", "mariadb", "7z")),
            ("sshpass", _OPTS + r"[ \t]-p"),
            *((cmd, r"[ \t]+login") for cmd in ("docker", "podman", "buildah", "nerdctl", "skopeo")),
            ("mongo", _OPTS + r"[ \t](?:-p|--password)"),
            ("redis-cli", _OPTS + r"[ \t](?:-a|--pass)"),
            *((cmd, _OPTS + r"[ \t]-P") for cmd in ("zip", "unzip", "zipcloak")),
            ("openssl", _OPTS + r"[ \t]-k[ \t]"),
            ("-pass", r"(?:in|out|word)?[ \t]+pass:"),
            ("SSHPASS", "="), ("REDISCLI_AUTH", "="), ("MYSQL_PWD", "="),
            *((flag, r"[ \t]") for flag in ("-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass",
                                              "-destkeypass")),
            ("sqlcmd", _OPTS + r"[ \t]-P"), ("ssh-keygen", _OPTS + r"[ \t]-[NP]"), ("mysqladmin", _OPTS + r"[ \t]password"),
            ("az", r"[ \t]+login" + _OPTS + r"[ \t](?:-p|--password)"),
        ),
        patterns=tuple(
            rx(p)
            for p in (
                r"(?<![\w\-])(?:mysql\w*|mariadb[\w\-]*)(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+-p" + _CLI_VALUE,
                r"(?<![\w\-])sshpass(?:[ \t]+-[^p\s]\S*)*[ \t]+-p[ \t]*" + _CLI_VALUE,
                r"(?<![\w\-])(?:docker|podman|buildah|nerdctl|skopeo)[ \t]+login"
                r"(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+(?:-p|--password)(?:[ \t]+|=)" + _CLI_VALUE,
                r"(?<![\w\-])mongo\w*(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+(?:-p|--password)(?:[ \t]+|=)?" + _CLI_VALUE,
                r"(?<![\w\-])redis-cli(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+(?:-a|--pass)(?:[ \t]+|=)?" + _CLI_VALUE,
                r"(?<![\w\-])(?:zip|unzip|zipcloak)(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+-P[ \t]*" + _CLI_VALUE,
                r"(?<![\w\-])7z[az]?(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+-p" + _CLI_VALUE,
                r"(?<![\w\-])openssl(?:[ \t]+[^\s|;&]+){0,30}?[ \t]+-k[ \t]+" + _CLI_VALUE,
                r"-(?:pass|passin|passout|password)[ \t]+pass:" + _CLI_VALUE,
                r"(?<![\w])(?:SSHPASS|REDISCLI_AUTH|MYSQL_PWD)=" + _CLI_VALUE,
                # keytool, jarsigner: the keystore's and the key's passwords
                r"-(?:src|dest)?(?:store|key)pass[ \t]+(?!:)" + _CLI_VALUE,
                r"(?<![\w\-])sqlcmd(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+-P[ \t]*" + _CLI_VALUE,
                r"(?<![\w\-])ssh-keygen(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+-[NP][ \t]*" + _CLI_VALUE,
                r"(?<![\w\-])mysqladmin(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+password[ \t]+" + _CLI_VALUE,
                r"(?<![\w\-])az[ \t]+login(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+(?:-p|--password)(?:[ \t]+|=)" + _CLI_VALUE,
            )
        ),
        validator=cli_value_ok,
        anchored=True,
        reach=600,
        priority=18,
    ),
    Rule(
        "stdin-password",
        "a password piped into a command that reads it from stdin: echo X | docker login --password-stdin",
        hooks=("--password-stdin",),
        patterns=(
            rx(_ECHOED + r"[ \t]*\|[ \t]*[\w./-]+(?:[ \t]+[^\s|;&]+){0,20}?[ \t]+--password-stdin"),
        ),
        validator=cli_value_ok,
        back=400,
        reach=20,
        priority=18,
    ),
    Rule(
        "sql-password",
        "a password set in SQL: CREATE USER … IDENTIFIED BY 'X', ALTER USER … IDENTIFIED WITH plugin BY 'X'",
        # (" by '": its "b" is a byte the scanner already looks for; "identified" would cost every text a pass)
        hooks=(" by '", ' by "', " by password '"),
        patterns=(rx(r"(?i:identified[ \t]+(?:with[ \t]+\w+[ \t]+)?by[ \t]+(?:password[ \t]+)?)(?P<s>'[^'\n]{1,256}'|\"[^\"\n]{1,256}\")"),),
        validator=cli_value_ok,
        back=80,
        reach=300,
        priority=18,
    ),
    Rule(
        "sudo-password",
        "a password piped into sudo -S: echo X | sudo -S …, sudo -S … <<< X",
        hooks=("sudo",),
        patterns=(
            rx(_ECHOED + r"[ \t]*\|[ \t]*sudo(?:[ \t]+-[A-Za-z]*)*?[ \t]+-[A-Za-z]*S"),
            rx(r"(?<![\w\-])sudo(?:[ \t]+-[A-Za-z]*)*?[ \t]+-[A-Za-z]*S\b[^\n|;&]*?<<<[ \t]*" + _CLI_VALUE),
        ),
        validator=cli_value_ok,
        back=240,
        reach=300,
        priority=18,
    ),
    Rule(
        "cli-setting",
        "a secret handed to a command that sets a named value: setx API_KEY X, fish's set -gx API_TOKEN X, "
        "aws configure set aws_secret_access_key X, npm config set //host/:_authToken X, gh secret set NAME --body X, "
        "git config --global github.token X",
        # (not "set" alone: a literal that common would cost every text a pass of its own)
        hooks=("setx", ("set -", r"[A-Za-z]{1,4}(?:[ \t]+-[A-Za-z]{1,4})*[ \t]+[\w.-]"),
               ("configure", r"[ \t]+set[ \t]"), ("config", r"[ \t]+(?:set[ \t]|--|[\w.-]+[ \t])"),
               ("secret", r"[ \t]+set[ \t]")),
        patterns=(
            rx(
                r"(?i:(?<![\w\-])(?:setx|set(?:[ \t]+-[a-z]{1,4})+|aws[ \t]+configure[ \t]+set|"
                r"(?:npm|pnpm|yarn)[ \t]+config[ \t]+set[ \t]+(?:\S{0,200}:)?|gh[ \t]+secret[ \t]+set|"
                r"git[ \t]+config(?:[ \t]+--[a-z-]+)*))"
                r"[ \t]*(?P<name>[\w.-]{1,80})(?:[ \t]+(?:--body|-b))?[ \t]*[ \t=]"
                r"""(?P<s>"[^"\n]{3,256}"|'[^'\n]{3,256}'|[^\s"'`;|&<>]{3,256})"""
            ),
        ),
        validator=setting_ok,
        back=12,
        reach=600,
        priority=18,
    ),
    # -- a password stated in a sentence, in English, Japanese or Chinese ---------------------
    Rule(
        "stated-password",
        "a password stated in prose: 'the staging database password is X', 'log in with password X', "
        "「パスワードは X です」, 「DBパスワード: X」, 密码是 X",
        hooks=("password", "passphrase", "passcode", "passwd"),
        words=_PASSWORD_WORDS,
        patterns=(
            rx(
                r"(?i:(?<![\w\-])(?:password|passphrase|passcode|passwd)" + _WHAT_FOR +
                r"[ \t]+(?:is[ \t]+now|is[ \t]+set[ \t]+to|has[ \t]+been[ \t]+(?:set|changed)[ \t]+to|is|was|"
                r"(?:should|will|would)[ \t]+be|became|reads)[ \t]*:?[ \t]*)" + _STATED_VALUE
            ),
            rx(r"(?i:(?<![\w\-])(?:with|use|using|enter|type)[ \t]+(?:the[ \t]+)?(?:password|passphrase)[ \t]+)" + _STATED_VALUE),
            _cjk_stated(_PASSWORD_WORDS),
        ),
        validator=lambda m: stated_cjk_ok(m) if "op" in m.re.groupindex else stated_value_ok(m),
        back=30,
        reach=300,
        priority=19,
    ),
    Rule(
        "stated-secret",
        "a token, key or secret stated in prose: 'the API token is X', 'my secret key for the bot is X', "
        "'use token X', 'OAuth: X', 「トークンは X です」, 令牌是 X; only values no person would type as words",
        # the copula after the word, or after a few words that say what it is for: "key" alone is everywhere in code;
        # "token" right before a value as long as a token ("token X"), and "OAuth" as a header's label ("OAuth: X")
        hooks=("token", "secret", "key", ("token", r"[ \t]+[\"'`]?[^\s\"'`]{16}"),
               ("oauth", r"""\\{0,2}["']?[ \t]*:[ \t]*\\{0,2}["'`]?[^\s"'`]{16}""")),
        after="s?" + _WHAT_FOR + r"[ \t]+(?:is|are|was|were|has|should|will|would|reads)[ \t]",
        words=_TOKEN_WORDS,
        patterns=(
            rx(
                r"(?i:(?<![\w\-])(?:token|secret|key)s?" + _WHAT_FOR +
                r"[ \t]+(?:is[ \t]+now|is[ \t]+set[ \t]+to|has[ \t]+been[ \t]+(?:set|changed)[ \t]+to|is|are|was|were|"
                r"(?:should|will|would)[ \t]+be|reads)[ \t]*:?[ \t]*)" + _STATED_VALUE
            ),
            rx(r"(?i:(?<![\w\-])token[ \t]+)" + _STATED_VALUE),
            rx(r"""(?i:(?<![A-Za-z0-9])oauth\\{0,2}["']?[ \t]*:[ \t]*\\{0,2})""" + _STATED_VALUE),
            _cjk_stated(_TOKEN_WORDS),
        ),
        validator=stated_token_ok,
        back=30,
        reach=300,
        priority=46,  # the least specific name: any family that also knows the value names it
    ),
    # -- credentials in config-file forms ----------------------------------------------
    Rule(
        "netrc-password",
        ".netrc entries: 'machine H login U password X' (one line or several), 'default … password X'",
        hooks=("machine", "login"),
        patterns=(
            rx(r"(?<![\w\-])(?:machine[ \t]+\S+|default)(?:\s+(?:login|account|port)\s+\S+){0,3}\s+password\s+(?P<s>\S{1,256})"),
            rx(r"(?<![\w\-])login\s+\S+\s+password\s+(?P<s>\S{1,256})"),
        ),
        validator=config_value_ok,
        anchored=True,
        reach=600,
        priority=17,
    ),
    Rule(
        "pgpass-password",
        ".pgpass lines 'host:port:database:user:password'",
        hooks=((":", r"(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:\S"),),
        finder=pgpass_finder,
        priority=17,
    ),
    # -- signed URLs and cloud signatures ---------------------------------------------------
    Rule(
        "cloud-signature",
        "the signature or session token of a signed cloud URL: Azure SAS sig=, X-Amz-Signature, "
        "X-Amz-Security-Token, X-Goog-Signature",
        hooks=(("sig=", r"[A-Za-z0-9%+/]{20}"), "x-amz-signature=", "x-amz-security-token=", "x-goog-signature="),
        patterns=(
            rx(r"(?<![A-Za-z0-9_\-])sig=(?P<s>[A-Za-z0-9%+/=]{20,400})"),
            rx(r"(?i:x-(?:amz|goog)-(?:signature|security-token))=(?P<s>[A-Za-z0-9%+/=_\-]{20,4000})"),
        ),
        validator=signature_ok,
        reach=4100,
        priority=16,
    ),
    Rule(
        "base64-wrapped",
        "base64 that decodes to text holding a secret (echo … | base64 -d, a Kubernetes secret)",
        hooks=(),
        priority=13,
    ),
)

PRIORITY: dict[str, int] = {r.rule_id: r.priority for r in RULES}
