"""Finding transcript files and the project a session ran in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_memory.transcripts import iter_transcript_files, project_root


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


def test_folders_are_walked_recursively_in_sorted_order(tmp_path: Path) -> None:
    root = tmp_path / "projects"
    for rel in [
        "b/2.jsonl",
        "a/z.json",
        "a/y.jsonl",
        "a/deeper/x.jsonl",
        "c.jsonl",
        "notes.txt",
        "a/img.png",
    ]:
        touch(root / rel)
    found = list(iter_transcript_files([str(root)]))
    assert found == sorted(found)
    assert [os.path.relpath(p, root) for p in found] == [
        "a/deeper/x.jsonl",
        "a/y.jsonl",
        "a/z.json",
        "b/2.jsonl",
        "c.jsonl",
    ]
    assert list(iter_transcript_files([str(root)])) == found


def test_files_are_yielded_as_given_and_once(tmp_path: Path) -> None:
    one = touch(tmp_path / "one.log")
    folder = tmp_path / "dir"
    two = touch(folder / "two.jsonl")
    found = list(iter_transcript_files([str(one), str(folder), str(two), str(one)]))
    assert found == [str(one), str(two)]


def test_nothing_given_nothing_found() -> None:
    assert list(iter_transcript_files([])) == []


def test_project_root_is_the_nearest_git_ancestor(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    deep = repo / "src" / "pkg"
    deep.mkdir(parents=True)
    assert project_root(str(deep)) == str(repo)
    assert project_root(str(repo)) == str(repo)
    assert project_root(str(deep) + "/") == str(repo)


def test_git_file_marks_a_worktree_root(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    (outer / ".git").mkdir(parents=True)
    worktree = outer / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text("gitdir: ../.git/worktrees/wt\n")
    assert project_root(str(worktree / "x")) == str(worktree)


def test_without_git_the_cwd_itself_is_the_project(tmp_path: Path) -> None:
    plain = tmp_path / "plain" / "dir"
    plain.mkdir(parents=True)
    if any((p / ".git").exists() for p in plain.parents):
        pytest.skip("the temporary folder sits inside a git checkout")
    assert project_root(str(plain)) == str(plain)
    assert project_root("/definitely/not/here") == "/definitely/not/here"


def test_empty_cwd_stays_empty() -> None:
    assert project_root("") == ""
