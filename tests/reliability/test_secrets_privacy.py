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
import json
import os
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


def password(seed: int, n: int = 16) -> str:
    """A password with capitals, small letters and digits, whatever the seed."""
    for k in range(1000):
        value = random_chars(seed + k, ALNUM, n)
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value) and any(c.islower() for c in value):
            return value
    raise AssertionError("no mixed password")


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _b64_wrapped(seed: int) -> tuple[str, str, str]:
    inner = "ghp_" + random_chars(seed, ALNUM, 36)
    return "echo ", base64.b64encode(inner.encode()).decode(), " | base64 -d"


def _split(seed: int, sep: str) -> tuple[str, str]:
    body = random_chars(seed, ALNUM, 36)
    return "ghp_", body[:20] + sep + body[20:]


# The families that read commands, sentences and config files, and the disguises: each gets its
# own property below (a few examples each), besides joining the sampled one above.
NEW_FAMILIES: dict[str, Callable[[int], tuple[str, ...]]] = {
    "cli-mysql": lambda s: ("mysql -uapp -p", password(s), " shop"),
    "cli-mysql-long-flag": lambda s: ("mysql --password=", password(s), " shop"),
    "cli-sshpass": lambda s: ("sshpass -p ", password(s), " ssh build"),
    "cli-docker-login": lambda s: ("docker login -u ci -p ", password(s), " registry.internal"),
    "cli-mongo": lambda s: ("mongo -u admin -p ", password(s), " admin"),
    "cli-redis": lambda s: ("redis-cli -h cache -a ", password(s), " ping"),
    "cli-zip": lambda s: ("zip -P ", password(s), " out.zip notes.txt"),
    "cli-openssl": lambda s: ("openssl enc -aes-256-cbc -k ", password(s), " -in a -out b"),
    "cli-sudo": lambda s: ("echo ", password(s), " | sudo -S true"),
    "cli-curl": lambda s: ("curl -u deploy:", password(s), " https://ci.internal/api"),
    "cli-pgpassword": lambda s: ("PGPASSWORD=", password(s), " psql -h db shop"),
    "stated-en": lambda s: ("the staging database password is ", password(s)),
    "stated-ja": lambda s: ("パスワードは ", password(s), " です"),
    "stated-ja-label": lambda s: ("DBパスワード: ", password(s)),
    "stated-zh": lambda s: ("密码是 ", password(s)),
    "stated-token-en": lambda s: ("the deploy token is ", password(s, 32)),
    "stated-token-ja": lambda s: ("トークンは ", password(s, 32), " です"),
    "cli-setx": lambda s: ("setx API_KEY ", password(s, 24)),
    "cookie": lambda s: ("Cookie: sessionid=", password(s, 32), "; theme=dark"),
    "cli-keytool": lambda s: ("keytool -genkey -keystore ks.jks -storepass ", password(s), " -alias app"),
    "stdin-password": lambda s: ("echo ", password(s), " | docker login -u ci --password-stdin"),
    "sql-password": lambda s: ("ALTER USER 'app'@'%' IDENTIFIED BY '", password(s), "';"),
    "cli-fish-set": lambda s: ("set -gx OPENAI_TOKEN ", password(s, 32)),
    "full-width-equals": lambda s: ("DB_PASSWORD＝", password(s)),
    "full-width-colon": lambda s: ("api_token：", password(s, 32)),
    "netrc": lambda s: ("machine git.internal login ci password ", password(s)),
    "pgpass": lambda s: ("db.internal:5432:shop:app:", password(s)),
    "azure-sas": lambda s: ("https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2026-01-01&sp=r&sig=",
                            random_chars(s, ALNUM, 40) + "%3D"),
    "aws-secret-bare": lambda s: ("", password(s, 30) + random_chars(s + 7, ALNUM + "/+", 10)),
    "split-newline": lambda s: _split(s, "\n"),
    "split-zero-width": lambda s: _split(s, "\u200b"),
    "full-width-letters": lambda s: (fullwidth("ghp_"), fullwidth(random_chars(s, ALNUM, 36))),
    "base64-wrapped": _b64_wrapped,
}
FAMILIES.update(NEW_FAMILIES)

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
    """Every 12-character piece of the secret that holds at least four characters of its random part (fixed
    text such as a PEM header may stay: it tells nothing; with fewer random characters a piece can match what
    replaced the secret by chance, as "…password r" matches "password redactedsecret")."""
    secret = prefix + body + suffix
    last = min(len(prefix) + len(body) - 4, len(secret) - 12)
    return [secret[i:i + 12] for i in range(max(0, len(prefix) - 8), last + 1)]


def transcripts(folder: Path, agent: str, text: str, root: Path) -> list[Path]:
    """The secret's session, and one on the next day that repeats the marker: its claim is adopted, quotes and all."""
    return _two_sessions(folder, agent, [("2026-03-10T10:00:00Z", text), ("2026-03-10T10:05:00Z", MARKER)], root)


def _two_sessions(folder: Path, agent: str, first: list[tuple[str, str]], root: Path) -> list[Path]:
    """``first`` as one session of ``agent``'s, and a second on the next day that repeats the marker."""
    made = []
    for n, turns in enumerate((first, [("2026-03-11T10:00:00Z", MARKER)])):
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
    seen = {piece: _forms(piece) for piece in wanted}
    for path, data in files.items():
        for piece, forms in seen.items():
            for form in forms:
                assert form not in data, f"a piece of the secret ({piece!r}, as {form!r}) is in {path}"


def _forms(piece: str) -> set[bytes]:
    """The bytes a piece could be stored as: as written, JSON-escaped, without its invisible
    characters or line break, folded to ASCII."""
    import json
    import unicodedata

    texts = {piece, piece.replace("\n", "\\n"), piece.replace("\u200b", ""), unicodedata.normalize("NFKC", piece)}
    texts |= {t.replace("\n", "") for t in set(texts)}
    found = {t.encode() for t in texts if len(t) >= 8}
    found |= {json.dumps(t)[1:-1].encode() for t in texts if len(t) >= 8}
    return found


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


def transcripts_of(folder: Path, agent: str, texts: list[str], root: Path) -> list[Path]:
    """Like :func:`transcripts`, with one turn per text in the first session."""
    first = [(f"2026-03-10T10:{k:02d}:00Z", t) for k, t in enumerate(texts)] + [("2026-03-10T11:00:00Z", MARKER)]
    return _two_sessions(folder, agent, first, root)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), where=st.sampled_from(PLACES), agent=st.sampled_from(["claude", "codex", "gemini"]))
@example(seed=188, where="in-claim", agent="claude")  # a netrc password starting with "r" next to "redactedsecret"
def test_every_new_family_never_reaches_disk(env: Env, seed: int, where: str, agent: str) -> None:
    """A fresh random secret of every command, sentence, config-file and disguised shape, one per turn:
    after ingest, promote --write, adopt and a search, no piece of any is in any file (index.db included)."""
    planted = {family: _parts(make, seed + n) for n, (family, make) in enumerate(sorted(NEW_FAMILIES.items()))}
    with tempfile.TemporaryDirectory(dir=env.tmp) as scratch:
        case = make_env(Path(scratch))
        texts = [place(where, "".join(parts), 0) for parts in planted.values()]
        run_pipeline(case, transcripts_of(case.tmp / "t", agent, texts, case.root))
        for family, (prefix, body, suffix) in planted.items():
            try:
                assert_no_piece_on_disk(case, prefix, body, suffix)
            except AssertionError as exc:
                raise AssertionError(f"{family}: {exc}") from None


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(NEW_FAMILIES))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), where=st.sampled_from(PLACES), pad=PADS, agent=st.sampled_from(["claude", "codex", "gemini"]))
def test_each_new_family_never_reaches_disk(env: Env, family: str, seed: int, where: str, pad: int, agent: str) -> None:
    """Per family, many examples and every paste length: the same property."""
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


def _said_twice_and_adopted(env: Env, texts: list[str], session: str, cwd: "Path | str") -> dict[Path, str]:
    """Two sessions on two days, run in ``cwd``, say ``texts``; stage and adopt everything; return the shareable files."""
    from agent_memory.review.adopt import adopt
    from agent_memory.ingest import ingest
    from agent_memory.promote import stage

    (env.root / "CLAUDE.md").write_text("# Project\n", encoding="utf-8")
    files = []
    for n, day in enumerate(("2026-03-09", "2026-03-10")):
        turns = [(f"{day}T10:{k:02d}:00Z", t) for k, t in enumerate(texts)]
        files.append(write_jsonl(env.tmp / "t" / f"s{n}.jsonl", claude_lines(f"{session}-{n}", cwd, turns)))
    paths = env.paths()
    ingest(paths, [str(f) for f in files])
    result, _ = stage(paths)
    assert len(result.proposals) == len(texts), [b["reasons"] for b in result.blocked]
    shared = {p: p.read_text(encoding="utf-8") for p in sorted((env.store / "staged").glob("*.md"))}
    adopt(paths, [], every=True)
    for path in (env.store / "L2.jsonl", env.user / "L3.jsonl", env.root / "CLAUDE.md", env.home / ".claude" / "CLAUDE.md"):
        if path.is_file():
            shared[path] = path.read_text(encoding="utf-8")
    return shared


def _privacy_run(env: Env, name: str, parts: list[str]) -> dict[Path, str]:
    """Two sessions in this project say the claims; stage and adopt everything; return the shareable files."""
    return _said_twice_and_adopted(env, _texts(name, parts, env), "privacy", env.root)


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


# ---------------------------------------------------------------- a transcript written on another machine

HOME_FORMS = {
    "posix": ("/home/{name}", "/"),
    "macos": ("/Users/{name}", "/"),
    "wsl": ("/mnt/c/Users/{name}", "/"),
    "windows": ("C:\\Users\\{name}", "\\"),
    "unc": ("\\\\fileserver\\home$\\{name}", "\\"),
}
FOREIGN_CLAIMS = (
    "From now on, always run {project}{sep}scripts{sep}check.sh before pushing.",
    "From now on, always run ~/work/shop/scripts/lint.sh before committing.",
    "From now on, always read fixtures from {home}{sep}{tail} when testing.",
    "From now on, always copy the notes from ~{name}/notes before a release.",
    "From now on, always keep dumps in {other} and never in the repository.",
)


def _foreign_run(env: Env, name: str, form: str, parts: list[str]) -> dict[Path, str]:
    """Two sessions, run in another person's home on another machine, say the claims; stage and adopt."""
    home_t, sep = HOME_FORMS[form]
    home = home_t.format(name=name)
    project = sep.join([home, "work", "shop"])
    others = {"posix": f"/Users/{name}/dumps", "macos": f"/home/{name}/dumps", "wsl": f"C:\\Users\\{name}\\dumps",
              "windows": f"/mnt/d/Users/{name}/dumps", "unc": f"/home/{name}/dumps"}
    values = {"project": project, "home": home, "sep": sep, "tail": sep.join(parts), "name": name, "other": others[form]}
    return _said_twice_and_adopted(env, [c.format(**values) for c in FOREIGN_CLAIMS], "foreign", project)


def _foreign_property(env: Env, name: str, form: str, parts: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assume(name.lower() not in _boilerplate(env) and not any(name.lower() in p for p in parts))
    assume(name.lower() not in {"work", "shop", "scripts", "check", "lint", "notes", "dumps", "fileserver", "home"})
    with tempfile.TemporaryDirectory(dir=env.tmp) as scratch:
        case = make_env(Path(scratch))
        monkeypatch.setenv("LOGNAME", "qqlocaluser")  # this machine's user is someone else
        monkeypatch.setenv("HOME", str(case.home))
        shared = _foreign_run(case, name, form, parts)
        assert shared
        for path, text in shared.items():
            assert not word_in(name, text), f"the user name {name!r} is in {path}:\n{text}"
            for absolute in ("/home/", "/Users/", "/mnt/", "C:\\Users", "C:\\\\Users", "fileserver", "home$", "~" + name):
                assert absolute not in text, f"{absolute!r} is in {path}:\n{text}"
            assert "work/shop/scripts" not in text and "work\\shop\\scripts" not in text, f"a project path kept its home in {path}"
        staged = "\n".join(t for p, t in shared.items() if p.suffix == ".md" and p.parent.name == "staged")
        assert "scripts/check.sh" in staged.replace("\\", "/") and "scripts/lint.sh" in staged, staged


@FAST
@given(name=NAMES, form=st.sampled_from(sorted(HOME_FORMS)), parts=st.lists(COMPONENT, min_size=1, max_size=3))
@example(name="alice", form="posix", parts=["dataset", "shop"])
@example(name="frank", form="wsl", parts=["data"])
@example(name="erin", form="unc", parts=["data"])
def test_a_foreign_home_and_user_name_never_reach_shared_files(env: Env, monkeypatch: pytest.MonkeyPatch, name: str,
                                                               form: str, parts: list[str]) -> None:
    """A transcript from another machine (POSIX, macOS, WSL, Windows, UNC home share, ``~user``): no byte of its
    user name or home reaches staged, L2, L3 or instruction files, claim keys included, and paths under its
    project become project-relative."""
    _foreign_property(env, name, form, parts, monkeypatch)


# ---------------------------------------------------------------- no guessable digest, no raw control characters


def test_no_digest_of_a_redacted_sentence_is_stored(env: Env) -> None:
    """With the store in hand, a guess at a redacted password cannot be checked: no file holds a sha1 or
    sha256 of the sentence, the turn or the secret (each, and any 16-hex prefix of one)."""
    secret = "Sunshine2024"
    said = f"the staging database password is {secret}."
    sentence = f"Remember: {said}"
    files = transcripts(env.tmp / "t", "claude", f"{sentence}\n{MARKER}", env.root)
    run_pipeline(env, files)
    data = b"".join(text_files(env.store, env.user, env.root / "CLAUDE.md").values())
    assert secret.encode() not in data
    for text in (secret, said, sentence, f"{sentence}\n{MARKER}"):
        for algo in (hashlib.sha1, hashlib.sha256):
            digest = algo(text.encode()).hexdigest()
            assert digest[:16].encode() not in data, f"a {algo.__name__} of {text!r} is stored"
    atoms = [json.loads(line) for line in (env.store / "L1" / "atoms.jsonl").read_text(encoding="utf-8").splitlines()]
    assert any(a["redacted"] for a in atoms) and not any("secret_hash" in a for a in atoms)


CONTROLS = ["\x1b[31m", "\x07", "\u202e", "\u2066", "\u200b", "\x00", "\x7f", "\x9b", "\ufeff", "\U000e0041"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(picked=st.lists(st.sampled_from(CONTROLS), min_size=1, max_size=4))
@example(picked=["\x1b[31m", "\x07", "\u202e"])
def test_control_and_bidi_characters_never_stay_raw(env: Env, picked: list[str]) -> None:
    """ESC, BEL, bidi overrides and other control or format characters typed into a claim are in no atom,
    L2 entry, instruction file or session-start context, raw or JSON-escaped."""
    import shlex
    import subprocess

    from agent_memory.launcher import hook_command
    from hookjson import hook_output

    marked = "From now on, always run the " + "".join(f"{c}x{i}" for i, c in enumerate(picked)) + " suite before pushing."
    with tempfile.TemporaryDirectory(dir=env.tmp) as scratch:
        case = make_env(Path(scratch))
        made = []
        for n, day in enumerate(("2026-03-10", "2026-03-11")):
            made.append(write_jsonl(case.tmp / "t" / f"c{n}.jsonl", claude_lines(f"ctl-{n}", case.root, [(f"{day}T10:00:00Z", marked)])))
        run_pipeline(case, made + transcripts(case.tmp / "m", "claude", MARKER, case.root))
        instructions = (case.root / "CLAUDE.md").read_text(encoding="utf-8")
        (case.root / "CLAUDE.md").unlink()  # else session-start leaves out what the file already carries
        hook_env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
        hook_env.update(HOME=str(case.home), AGENT_MEMORY_HOME=str(case.user), AGENT_MEMORY_NOW="2026-03-12T09:00:00Z")
        payload = {"session_id": "now", "transcript_path": str(case.tmp / "now.jsonl"), "cwd": str(case.root),
                   "hook_event_name": "SessionStart"}
        done = subprocess.run(shlex.split(hook_command("claude", "session-start")), input=json.dumps(payload).encode(),
                              capture_output=True, cwd=str(case.tmp), env=hook_env, timeout=120)
        context = hook_output(done.stdout.decode("utf-8"), "claude", "session-start") or ""
        assert "x0" in context, "the claim must reach the context for this test to mean anything"
        l2 = (case.store / "L2.jsonl").read_text(encoding="utf-8")
        assert "x0" in l2
        places = {"context": context, "L2.jsonl": l2, "atoms": (case.store / "L1" / "atoms.jsonl").read_text(encoding="utf-8"),
                  "CLAUDE.md": instructions}
        for name, text in places.items():
            for c in picked:
                raw = c[0]
                assert raw not in text, f"{raw!r} is raw in {name}"
                assert json.dumps(raw)[1:-1] not in text, f"{raw!r} is escaped in {name}"


def test_documented_samples_and_field_names_are_not_quarantined(env: Env) -> None:
    """``session_key=session_id_v2`` and AWS's documented ``AKIAIOSFODNN7EXAMPLE`` are not secrets: the claims
    that mention them are ingested unredacted and can be staged."""
    from agent_memory.ingest import ingest

    claims = ["From now on, always set session_key=session_id_v2 in the test settings.",
              "From now on, always use AKIAIOSFODNN7EXAMPLE as the access key in the docs."]
    made = [write_jsonl(env.tmp / "t" / f"b{n}.jsonl", claude_lines(f"benign-{n}", env.root, [(f"{day}T10:0{k}:00Z", c) for k, c in enumerate(claims)]))
            for n, day in enumerate(("2026-03-09", "2026-03-10"))]
    ingest(env.paths(), [str(f) for f in made])
    atoms = [json.loads(line) for line in (env.store / "L1" / "atoms.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {a["text"] for a in atoms} == set(claims)
    assert not any(a["redacted"] for a in atoms)
