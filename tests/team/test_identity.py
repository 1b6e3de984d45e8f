"""The repository's identity agrees across remote spellings; without a remote it comes from the name, and says so."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agent_memory.team.identity import normalise_remote, pseudonym, repository
from helpers_store import make_store


@pytest.mark.parametrize("url", [
    "git@github.com:Acme/Shop.git",
    "https://github.com/acme/shop",
    "https://github.com/acme/shop.git",
    "https://ann:ghp_secrettoken@github.com/acme/shop.git/",
    "ssh://git@github.com/acme/shop.git",
    "ssh://git@github.com:22/acme/shop",
    "git://github.com/acme/shop.git",
])
def test_ssh_https_and_dot_git_forms_agree(url: str) -> None:
    assert normalise_remote(url) == "github.com/acme/shop"


@pytest.mark.parametrize("url, expected", [
    ("git@gitlab.example.com:group/sub/shop.git", "gitlab.example.com/group/sub/shop"),
    ("file:///srv/git/shop.git", "srv/git/shop"),
    ("/srv/git/shop.git", "srv/git/shop"),
    ("https://github.com/acme/shop-api", "github.com/acme/shop-api"),
])
def test_other_remotes_keep_what_tells_them_apart(url: str, expected: str) -> None:
    assert normalise_remote(url) == expected


def test_a_token_in_the_remote_url_never_reaches_the_identity() -> None:
    assert normalise_remote("https://x:ghp_abc@github.com/a/b") == normalise_remote("git@github.com:a/b.git")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_two_clones_of_one_remote_agree_and_a_project_without_one_says_so(tmp_path: Path) -> None:
    first, second = make_store(tmp_path / "a", "shop"), make_store(tmp_path / "b", "shop-clone")
    for store, url in ((first, "git@github.com:acme/shop.git"), (second, "https://github.com/Acme/shop")):
        (store.project / ".git").rmdir()
        _git(store.project, "init", "-q")
        _git(store.project, "remote", "add", "origin", url)
    a, b = repository(first.paths), repository(second.paths)
    assert a == b and a.source == "remote" and len(a.identity) == 16
    bare = repository(make_store(tmp_path / "c", "shop").paths)
    assert bare.source == "project name" and bare.identity != a.identity


def test_pseudonyms_depend_on_the_salt() -> None:
    assert pseudonym(b"k1", "person", "r") != pseudonym(b"k2", "person", "r")
    assert pseudonym(b"k1", "person", "r") == pseudonym(b"k1", "person", "r")
    assert pseudonym(b"k1", "person", "r") != pseudonym(b"k1", "person", "other repository")
