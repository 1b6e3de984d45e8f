"""Scrubbing text a person typed in a session run elsewhere, and dropping control characters: one table each."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent_memory.redact import home_names, neutralise, scrub_paths, session_scrubber

# (cwd of the session, text, expected)
SESSION_CASES: list[tuple[str, str, str]] = [
    ("/home/alice/work/shop", "run /home/alice/work/shop/scripts/check.sh now", "run scripts/check.sh now"),
    ("/home/alice/work/shop", "run ~/work/shop/scripts/check.sh now", "run scripts/check.sh now"),
    ("/home/alice/work/shop", "read fixture from /home/alice/dataset/shop.csv", "read fixture from ~/dataset/shop.csv"),
    ("/home/alice/work/shop", "ask alice first", "ask <user> first"),
    ("/Users/bob/src/app", "build from /Users/bob/src/app/web", "build from web"),
    ("/Users/bob/src/app", "copy /Users/carol/x.txt", "copy ~/x.txt"),
    ("/mnt/c/Users/frank/proj", "WSL /mnt/c/Users/frank/proj/a.py here", "WSL a.py here"),
    ("/mnt/c/Users/frank/proj", "then /mnt/c/Users/frank/notes.md", "then ~/notes.md"),
    ("C:\\Users\\dan\\proj", "run C:\\Users\\dan\\proj\\tools\\x.ps1", "run tools\\x.ps1"),
    ("\\\\fileserver\\home$\\erin\\proj", "see \\\\fileserver\\home$\\erin\\docs\\a.txt", "see ~\\docs\\a.txt"),
    ("", "see ~hank/notes.md and ~/x", "see ~/notes.md and ~/x"),
    ("", "hank said so", "hank said so"),  # a name no path gave away stays
    ("", "cd /home/ivan/x and tell ivan", "cd ~/x and tell <user>"),
    ("/srv/build/shop", "keep /srv/build/shop/ci.yml", "keep ci.yml"),
    ("", "approx ~5 minutes", "approx ~5 minutes"),
]


@pytest.mark.parametrize(("cwd", "text", "expected"), SESSION_CASES)
def test_session_scrubber(cwd: str, text: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("agent_memory.redact.os_user_names", lambda: [])
    assert session_scrubber(cwd)(text) == expected


def test_a_home_gives_its_user_name_away() -> None:
    assert home_names("/home/alice/a and C:\\Users\\Bob\\b and ~carol/c and /home/root/x") == ["Bob", "alice", "carol"]


def test_the_local_home_and_user_go_too(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setattr("agent_memory.redact.os_user_names", lambda: ["zed7"])
    monkeypatch.setenv("HOME", "/opt/people/zed7")
    assert session_scrubber("/home/alice/shop")("/opt/people/zed7/notes by zed7") == "~/notes by <user>"


def test_scrub_paths_keeps_its_contract() -> None:
    assert scrub_paths("/home/ann/proj/src/a.py", project_root="/home/ann/proj") == "src/a.py"


CONTROL_CASES: list[tuple[str, str]] = [
    ("plain text", "plain text"),
    ("tab\tand\nnewline", "tab\tand\nnewline"),
    ("red \x1b[31mtext\x1b[0m", "red [31mtext[0m"),
    ("bell\x07", "bell"),
    ("evil \u202eexe.txt", "evil exe.txt"),
    ("isolate \u2066x\u2069", "isolate x"),
    ("zero\u200bwidth", "zerowidth"),
    ("bom\ufeff", "bom"),
    ("tag \U000e0041\U000e0042", "tag "),
    ("crlf\r\nline", "crlf\nline"),
    ("over\rwrite", "over\nwrite"),
    ("c1 \x9b31m", "c1 31m"),
    ("日本語のテキスト", "日本語のテキスト"),
    ("emoji 👍🏽 stays", "emoji 👍🏽 stays"),
]


@pytest.mark.parametrize(("text", "expected"), CONTROL_CASES)
def test_neutralise(text: str, expected: str) -> None:
    assert neutralise(text) == expected


def test_every_character_neutralise_drops_is_unprintable() -> None:
    # neutralise returns a text that is printable once tab and newline are left out without looking
    # further: that is only sound while no character the pattern takes is printable
    from agent_memory.redact.scrub import _CONTROL

    taken = _CONTROL.findall("".join(map(chr, range(0x110000))))  # every code point once
    assert "\u202e" in taken and "\x1b" in taken
    assert [c for c in taken if c.isprintable()] == []


def test_the_ascii_neutralise_keeps_is_what_the_pattern_leaves() -> None:
    # ASCII text made only of these is returned as it is without running the pattern
    from agent_memory.redact.scrub import _CONTROL, _PLAIN_ASCII

    assert {c for c in map(chr, range(128)) if not _CONTROL.search(c)} == set(_PLAIN_ASCII.decode("ascii"))


@given(st.text(st.sampled_from("ab \t\n\r\x1b\x07\u202e\u200b\ufeff\x9b日本👍\u3000\u00a0\u2028"), max_size=40) | st.text(max_size=40))
def test_neutralise_changes_only_what_the_pattern_takes(text: str) -> None:
    from agent_memory.redact.scrub import _CONTROL

    assert neutralise(text) == _CONTROL.sub(lambda m: "\n" if m.group(0)[0] == "\r" else "", text)
