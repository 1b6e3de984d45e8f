"""Measure the filter on a labelled corpus: recall on positives, false positives on negatives."""

from __future__ import annotations

import re
from pathlib import Path

from .scanner import contains_secret, redact

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


# AWS's documented sample credentials: benign by policy (see checks.DOC_EXAMPLE)
_DOCUMENTED = re.compile(r"(?<![A-Z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{9}EXAMPLE(?![A-Z0-9])|[A-Za-z0-9/+]{30}EXAMPLEKEY")


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
    secret survives. Positives that are a vendor's documented sample key (AWS's
    ``AKIA…EXAMPLE``), which the filter leaves alone on purpose, are counted apart
    (``documented_examples``) and left out of ``recall``; ``recall_all`` keeps them. ``corpus_dir`` holds positives.txt, negatives.txt and
    negatives_near_miss.txt (``line<TAB>kind[<TAB>source]``).
    """
    root = Path(corpus_dir)
    positives = _read_corpus(root / "positives.txt")
    missed: list[tuple[str, str]] = []
    examples: list[tuple[str, str]] = []
    for row in positives:
        line, kind = row[0], row[1] if len(row) > 1 else ""
        if _DOCUMENTED.search(line):
            examples.append((line, kind))
            continue
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
    n_pos, n_neg, n_near = len(positives) - len(examples), len(negatives), len(near)
    return {
        "positives": n_pos,
        "caught": n_pos - len(missed),
        "recall": (n_pos - len(missed)) / n_pos if n_pos else 0.0,
        "recall_all": (n_pos - len(missed)) / len(positives) if positives else 0.0,
        "documented_examples": examples,
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

