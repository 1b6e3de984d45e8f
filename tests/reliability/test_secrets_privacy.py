"""Secrets and personal paths never reach disk where they should not (hypothesis).

A fake secret of a covered family is planted anywhere in a user turn that also carries a marker:
inside the claim, in another sentence, in code, or after a long paste so that it straddles the
quote (2,000) and chunk (4,000) cut points. After ingest, promote --write and a search, no
12-character piece of it is in any file under the project store or the user store, the index
database and its WAL included. Separately, random OS user names and absolute paths in the
person's claims never reach staged proposals, L2, L3 or the instruction files.
"""

from __future__ import annotations

import base64
import hashlib
import re
import tempfile
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from agent_memory import redact

from .support import Env, claude_lines, codex_records, gemini_session, make_env, text_files, word_in, write_jsonl

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
HEX = "0123456789abcdef"
B64URL = ALNUM + "-_"
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
SLOW = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def random_chars(seed: int, alphabet: str, n: int) -> str:
    """``n`` characters that look random whatever the seed (so shrinking never yields 'AAAA…' stand-ins)."""
    out: list[str] = []
    block = 0
    while len(out) < n:
        digest = hashlib.sha256(f"{seed}:{block}".encode()).digest()
        out.extend(alphabet[b % len(alphabet)] for b in digest)
        block += 1
    return "".join(out[:n])


def _pem(seed: int) -> tuple[str, str, str]:
    body = base64.b64encode(b"".join(hashlib.sha512(f"{seed}:{n}".encode()).digest() for n in range(6))).decode()
    lines = "\n".join(body[i:i + 64] for i in range(0, len(body), 64))
    return "-----BEGIN RSA PRIVATE KEY-----\n", lines, "\n-----END RSA PRIVATE KEY-----"


def _parts(make: Callable[[int], tuple[str, ...]], seed: int) -> tuple[str, str, str]:
    found = make(seed)
    return (found[0], found[1], found[2] if len(found) > 2 else "")


# family: seed → (fixed prefix, random part[, fixed suffix]); the planted secret is all of it in a row
FAMILIES: dict[str, Callable[[int], tuple[str, ...]]] = {
    "github-token": lambda s: ("ghp_", random_chars(s, ALNUM, 36)),
    "github-fine-grained": lambda s: ("github_pat_", random_chars(s, ALNUM, 22) + "_" + random_chars(s + 1, ALNUM, 59)),
    "gitlab-token": lambda s: ("glpat-", random_chars(s, ALNUM, 20)),
    "aws-access-key-id": lambda s: ("AKIA", random_chars(s, UPPER32, 16)),
    "aws-secret-access-key": lambda s: ("aws_secret_access_key = ", random_chars(s, ALNUM + "/+", 40)),
    "anthropic-api-key": lambda s: ("sk-ant-api03-", random_chars(s, B64URL, 93) + "AA"),
    "openai-api-key": lambda s: ("sk-proj-", random_chars(s, ALNUM, 20) + "T3BlbkFJ" + random_chars(s + 1, ALNUM, 20)),
    "slack-token": lambda s: ("xoxb-", random_chars(s, "0123456789", 12) + "-" + random_chars(s + 1, "0123456789", 13) + "-" + random_chars(s + 2, ALNUM, 24)),
    "stripe-key": lambda s: ("sk_live_", random_chars(s, ALNUM, 24)),
    "gcp-api-key": lambda s: ("AIza", random_chars(s, B64URL, 35)),
    "huggingface-token": lambda s: ("hf_", random_chars(s, ALNUM[:52], 34)),
    "npm-token": lambda s: ("npm_", random_chars(s, ALNUM, 36)),
    "sendgrid-api-key": lambda s: ("SG.", random_chars(s, B64URL, 22) + "." + random_chars(s + 1, B64URL, 43)),
    "docker-token": lambda s: ("dckr_pat_", random_chars(s, B64URL, 27)),
    "databricks-token": lambda s: ("dapi", random_chars(s, HEX, 32)),
    "digitalocean-token": lambda s: ("dop_v1_", random_chars(s, HEX, 64)),
    "jwt": lambda s: ("eyJhbGciOiJIUzI1NiJ9.eyJ", random_chars(s, B64URL, 30) + "." + random_chars(s + 1, B64URL, 43)),
    "url-credentials": lambda s: ("postgres://deploy:", random_chars(s, ALNUM, 18), "@db.internal.example:5432/app"),
    "password-assignment": lambda s: ("DB_PASSWORD=", random_chars(s, ALNUM + "!#%", 20)),
    "generic-secret": lambda s: ("api_token = '", random_chars(s, ALNUM, 32), "'"),
    "bearer-token": lambda s: ("Authorization: Bearer ", random_chars(s, B64URL, 40)),
    "private-key": _pem,
}

MARKER = "From now on, always deploy the billing service through the release pipeline."
FILLER = "the build log says the cache was warm and nothing else happened here "


def place(where: str, secret: str, pad: int) -> str:
    """A user turn with a marker sentence and the secret at ``where``; ``pad`` characters of paste before it."""
    paste = (FILLER * (pad // len(FILLER) + 1))[:pad]
    return {
        "in-claim": f"From now on, always deploy with {secret} on staging.",
        "claim-end": f"From now on, always use this token: {secret}",
        "before": f"{secret}\nFrom now on, always rotate the deploy key monthly.",
        "other-sentence": f"{MARKER} The key is {secret} for now.",
        "code": f"{MARKER}\n```\nexport TOKEN={secret}\n```",
        "inline-code": f"{MARKER} Use `{secret}` there.",
        "after-paste": f"{MARKER}\n{paste} {secret} and then more of the log follows here.",
        "in-paste": f"{MARKER}\n{paste[: pad // 2]} {secret} {paste[pad // 2:]}",
    }[where]


def pieces(prefix: str, body: str, suffix: str = "") -> list[str]:
    """Every 12-character piece of the secret that holds some of its random part (fixed text such as a
    PEM header may stay: it tells nothing)."""
    secret = prefix + body + suffix
    last = min(len(prefix) + len(body) - 1, len(secret) - 12)
    return [secret[i:i + 12] for i in range(max(0, len(prefix) - 11), last + 1)]


def transcripts(folder: Path, agent: str, text: str, root: Path) -> list[Path]:
    """The secret's session, and one on the next day that repeats the marker: its claim is adopted, quotes and all."""
    made = []
    for n, turns in enumerate(([("2026-03-10T10:00:00Z", text), ("2026-03-10T10:05:00Z", MARKER)],
                               [("2026-03-11T10:00:00Z", MARKER)])):
        session = f"secret-session-{n}"
        if agent == "claude":
            made.append(write_jsonl(folder / f"s{n}.jsonl", claude_lines(session, root, turns)))
        elif agent == "codex":
            made.append(write_jsonl(folder / f"rollout-2026-03-1{n}T10-00-00-{session}.jsonl", codex_records(session, root, turns)))
        else:
            made.append(gemini_session(folder / f"session-2026-03-1{n}T10-00-{session}.json", session, root, turns))
    return made


def run_pipeline(env: Env, files: list[Path]) -> None:
    """Everything that writes: ingest, staging, adopting into CLAUDE.md, a search that syncs the index."""
    from agent_memory.review.adopt import adopt
    from agent_memory.ingest import ingest
    from agent_memory.promote import stage
    from agent_memory.recall import search

    paths = env.paths()
    ingest(paths, [str(f) for f in files])
    result, _ = stage(paths)
    assert result.proposals, "nothing reached L2: the adopt path would go untested"
    adopt(paths, [], every=True)
    search(paths, "deploy key token")


def assert_no_piece_on_disk(env: Env, prefix: str, body: str, suffix: str = "") -> None:
    files = text_files(env.store, env.user, env.root / "CLAUDE.md")
    assert (env.store / "index.db").is_file()
    wanted = pieces(prefix, body, suffix)
    escaped = [p.replace("\n", "\\n") for p in wanted]
    for path, data in files.items():
        for piece, other in zip(wanted, escaped):
            for form in {piece, other}:
                assert form.encode() not in data, f"a piece of the secret ({form!r}) is in {path}"


PLACES = ("in-claim", "claim-end", "before", "other-sentence", "code", "inline-code", "after-paste", "in-paste")
PADS = st.one_of(st.integers(0, 400), st.integers(1880, 2000), st.integers(3850, 4000), st.integers(11850, 12000))


def _secret_property(env: Env, family: str, seed: int, where: str, pad: int, agent: str) -> None:
    prefix, body, suffix = _parts(FAMILIES[family], seed)
    secret = prefix + body + suffix
    assert redact.contains_secret(secret), f"the {family} secret is not caught on its own: {secret}"
    with tempfile.TemporaryDirectory(dir=env.tmp) as scratch:
        case = make_env(Path(scratch))
        run_pipeline(case, transcripts(case.tmp / "t", agent, place(where, secret, pad), case.root))
        assert_no_piece_on_disk(case, prefix, body, suffix)


@FAST
@given(family=st.sampled_from(sorted(FAMILIES)), seed=st.integers(0, 2**64), where=st.sampled_from(PLACES), pad=PADS,
       agent=st.sampled_from(["claude", "codex", "gemini"]))
@example(family="github-token", seed=7, where="after-paste", pad=1900, agent="claude")  # across the quote's cut
@example(family="anthropic-api-key", seed=3, where="after-paste", pad=3890, agent="claude")  # across the chunk's cut
@example(family="password-assignment", seed=11864, where="in-claim", pad=0, agent="claude")  # a password starting "!"
def test_a_planted_secret_never_reaches_disk(env: Env, family: str, seed: int, where: str, pad: int, agent: str) -> None:
    """No 12-character piece of a planted secret is in any file of either store, index and WAL included."""
    _secret_property(env, family, seed, where, pad, agent)


@pytest.mark.slow
@SLOW
@given(family=st.sampled_from(sorted(FAMILIES)), seed=st.integers(0, 2**64), where=st.sampled_from(PLACES), pad=PADS,
       agent=st.sampled_from(["claude", "codex", "gemini"]))
def test_a_planted_secret_never_reaches_disk_many(env: Env, family: str, seed: int, where: str, pad: int, agent: str) -> None:
    """The same property, many more examples."""
    _secret_property(env, family, seed, where, pad, agent)


# ---------------------------------------------------------------- user names and absolute paths

RESERVED = {"root", "user", "admin", "runner", "ubuntu"}
NAMES = st.from_regex(r"\A[A-Za-z][a-z0-9]{2,7}\Z", fullmatch=True).filter(lambda n: n.lower() not in RESERVED)
COMPONENT = st.from_regex(r"\A[a-z][a-z0-9_-]{1,8}\Z", fullmatch=True)

CLAIMS = (
    "From now on, always keep notes in {home_path} and ask {name} before deploying.",
    "From now on, always build from {mac_path} on the laptop.",
    "From now on, always copy configs from {win_path} first.",
    "From now on, always run {project_path} before pushing.",
    "From now on, always read {own_home} when you start.",
)


def _texts(name: str, parts: list[str], env: Env) -> list[str]:
    tail = "/".join(parts)
    values = {
        "name": name,
        "home_path": f"/home/{name}/{tail}/notes.md",
        "mac_path": f"/Users/{name}/{tail}",
        "win_path": "C:\\Users\\" + name + "\\" + "\\".join(parts),
        "project_path": f"{env.root}/{tail}/check.sh",
        "own_home": f"{env.home}/{tail}.md",
    }
    return [c.format(**values) for c in CLAIMS]


def _privacy_run(env: Env, name: str, parts: list[str]) -> dict[Path, str]:
    """Two sessions on two days say the claims; stage and adopt everything; return the shareable files."""
    from agent_memory.review.adopt import adopt
    from agent_memory.ingest import ingest
    from agent_memory.promote import stage

    (env.root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    files = []
    for n, day in enumerate(("2026-03-09", "2026-03-10")):
        turns = [(f"{day}T10:{k:02d}:00Z", t) for k, t in enumerate(_texts(name, parts, env))]
        files.append(write_jsonl(env.tmp / "t" / f"s{n}.jsonl", claude_lines(f"privacy-{n}", env.root, turns)))
    paths = env.paths()
    ingest(paths, [str(f) for f in files])
    result, _ = stage(paths)
    assert len(result.proposals) == len(CLAIMS), [b["reasons"] for b in result.blocked]
    shared = {p: p.read_text(encoding="utf-8") for p in sorted((env.store / "staged").glob("*.md"))}
    adopt(paths, [], every=True)
    for path in (env.store / "L2.jsonl", env.user / "L3.jsonl", env.root / "CLAUDE.md", env.home / ".claude" / "CLAUDE.md"):
        if path.is_file():
            shared[path] = path.read_text(encoding="utf-8")
    return shared


_VOCABULARY: set[str] = set()


def _boilerplate(env: Env) -> set[str]:
    """Words the files hold whatever the user is called (headings, field names): a name equal to one is not news."""
    if not _VOCABULARY:
        with tempfile.TemporaryDirectory(dir=env.tmp) as scratch:
            case = make_env(Path(scratch))
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv("LOGNAME", "qqzzxxname")
                patch.setenv("HOME", str(case.home))
                texts = _privacy_run(case, "qqzzxxname", ["proj"])
            for text in texts.values():
                _VOCABULARY.update(w.lower() for w in re.findall(r"[A-Za-z0-9]+", text))
    return _VOCABULARY


def _privacy_property(env: Env, name: str, parts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assume(name.lower() not in _boilerplate(env) and not any(name.lower() in p for p in parts))
    with tempfile.TemporaryDirectory(dir=env.tmp) as scratch:
        case = make_env(Path(scratch))
        monkeypatch.setenv("LOGNAME", name)  # the OS user name getpass reports
        monkeypatch.setenv("HOME", str(case.home))
        shared = _privacy_run(case, name, parts)
        for path, text in shared.items():
            assert not word_in(name, text), f"the user name {name!r} is in {path}:\n{text}"
            for absolute in ("/home/", "/Users/", "C:\\Users", "C:\\\\Users", str(case.tmp), str(case.home)):
                assert absolute not in text, f"{absolute!r} is in {path}:\n{text}"


@FAST
@given(name=NAMES, parts=st.lists(COMPONENT, min_size=1, max_size=3))
@example(name="Alice", parts=["src", "app"])
def test_user_names_and_absolute_paths_never_reach_shared_files(env: Env, monkeypatch: pytest.MonkeyPatch, name: str, parts: list[str]) -> None:
    """Staged proposals, L2, L3 and CLAUDE.md hold no OS user name and no absolute path, whatever they are."""
    _privacy_property(env, name, parts, monkeypatch)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=NAMES, parts=st.lists(COMPONENT, min_size=1, max_size=3))
def test_user_names_and_absolute_paths_never_reach_shared_files_many(env: Env, monkeypatch: pytest.MonkeyPatch, name: str, parts: list[str]) -> None:
    """The same property, many more examples."""
    _privacy_property(env, name, parts, monkeypatch)
