"""Sessions go to their own project: ingest inside a project, the backfill of every project, no path, outside any repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_home import FakeHome, make_fake_home

from agent_memory import agents
from agent_memory.projects import repository, sort_transcripts

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-03-20T12:00:00Z"


def cli(fake: FakeHome, cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("AGENT_MEMORY", "CLAUDE_", "CODEX_", "GEMINI_", "COPILOT_"))}
    base.update(fake.env(), AGENT_MEMORY_NOW=NOW, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "agent_memory", *args], cwd=cwd, env=base, capture_output=True,
                          text=True, timeout=180)


def atoms(project: Path) -> list[dict[str, Any]]:
    path = project / ".memory" / "L1" / "atoms.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


@pytest.fixture
def fake(tmp_path: Path) -> FakeHome:
    return make_fake_home(tmp_path)


# ---------------------------------------------------------------- 1. the store follows the session's project


def test_outside_a_repository_commands_that_write_refuse_with_one_line(fake: FakeHome) -> None:
    for args in (("ingest", str(fake.home / ".claude" / "projects")), ("promote", "--write"), ("adopt", "--all"),
                 ("install", "--agent", "claude"), ("reindex",), ("forget", "pytest")):
        done = cli(fake, fake.home, *args)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
        assert "no git repository" in done.stderr and "--memory-dir" in done.stderr
    assert not (fake.home / ".memory").exists() and not (fake.home / "CLAUDE.md").exists()
    assert not (fake.home / ".claude" / "settings.json").exists()
    # what needs no project still works there: a user-level install, a dry run, and a store named outright
    assert cli(fake, fake.home, "install", "--agent", "claude", "--scope", "user").returncode == 0
    assert cli(fake, fake.home, "promote").returncode == 0
    named = cli(fake, fake.home, "--memory-dir", str(fake.home / "mine"), "ingest", str(fake.home / ".claude"), "--json")
    assert named.returncode == 0, named.stderr
    assert not (fake.home / ".memory").exists()


def test_inside_a_project_ingest_files_its_own_sessions_and_counts_the_rest(fake: FakeHome) -> None:
    api = fake.projects["api"]
    done = cli(fake, api, "ingest", str(fake.home / ".claude" / "projects"), str(fake.home / ".codex"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["sessions"] == 2  # its Claude session, and its Codex one, run in a subfolder of it
    assert report["skipped"] == {"other_projects": 4, "outside_a_repository": 1, "folder_not_here": 0, "no_folder": 0}
    assert report["other_projects"] == {"docs": 2, "web": 2}
    assert any("contract tests" in a["text"] for a in atoms(api))
    assert not any(word in a["text"] for a in atoms(api) for word in ("storybook", "link checker", "scratch notes"))
    assert all(a["project"] == "api" for a in atoms(api))
    said = cli(fake, api, "ingest", str(fake.home / ".claude" / "projects"))
    assert "left out 2 session(s) of other projects (docs: 1, web: 1)" in said.stderr
    assert "--all-projects" in said.stderr
    assert not (fake.projects["web"] / ".memory").exists()  # nothing is filed anywhere else


def test_the_backfill_files_every_session_in_its_own_project_and_registers_each(fake: FakeHome) -> None:
    done = cli(fake, fake.home, "ingest", "--all-projects", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert sorted(p["project"] for p in report["projects"]) == ["api", "docs", "web"]
    assert report["skipped"]["outside_a_repository"] == 1  # the session run in the home folder goes nowhere
    for name, project in fake.projects.items():
        kept = atoms(project)
        assert len({a["session"] for a in kept}) == 4, name  # one session of each agent
        assert {a["project"] for a in kept} == {name}
        assert not any("scratch notes" in a["text"] for a in kept)
    assert not (fake.home / ".memory").exists()
    registry = json.loads((fake.home / ".agent-memory" / "projects.json").read_text(encoding="utf-8"))["projects"]
    assert sorted(registry) == ["api", "docs", "web"]
    again = json.loads(cli(fake, fake.home, "ingest", "--all-projects", "--json").stdout)
    assert again["atoms_added"] == 0  # idempotent, as ingest is


def test_all_projects_takes_no_store_of_its_own(fake: FakeHome) -> None:
    done = cli(fake, fake.home, "--memory-dir", str(fake.home / "one"), "ingest", "--all-projects")
    assert done.returncode == 2 and "--all-projects" in done.stderr


def test_sorting_names_why_a_session_was_left_out(fake: FakeHome, tmp_path: Path) -> None:
    api = fake.projects["api"]
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(json.dumps({"type": "user", "cwd": "/nowhere/on/this/machine/shop", "sessionId": "n1",
                                     "parentUuid": None, "uuid": "u1", "timestamp": NOW,
                                     "message": {"role": "user", "content": "Always lint."}}) + "\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HOME", str(fake.home))
        files = agents.get("claude").history(None) + [str(elsewhere)]
        found = sort_transcripts(files, repository(str(api)))
    assert [Path(p).name for p in found.here] == ["c-api.jsonl"]
    assert len(found.absent) == 1 and len(found.outside) == 1
    assert sorted(Path(r).name for r in found.elsewhere) == ["docs", "web"]


# ---------------------------------------------------------------- 2. ingest with no path


def test_ingest_without_a_path_reads_this_projects_sessions_from_every_agents_own_folder(fake: FakeHome) -> None:
    web = fake.projects["web"]
    done = cli(fake, web, "ingest", "--json")
    assert done.returncode == 0, done.stderr
    kept = atoms(web)
    assert sorted({a["agent"] for a in kept}) == ["claude", "codex", "copilot", "gemini"]
    assert {a["project"] for a in kept} == {"web"} and json.loads(done.stdout)["sessions"] == 4


def test_ingest_without_a_path_follows_each_agents_own_variable(tmp_path: Path) -> None:
    moved = {"claude": tmp_path / "cc", "codex": tmp_path / "cx", "gemini": tmp_path / "gm", "copilot": tmp_path / "cp"}
    fake = make_fake_home(tmp_path, homes=moved)
    env = {"CLAUDE_CONFIG_DIR": str(moved["claude"]), "CODEX_HOME": str(moved["codex"]),
           "GEMINI_CLI_HOME": str(moved["gemini"]), "COPILOT_HOME": str(moved["copilot"])}
    docs = fake.projects["docs"]
    done = cli(fake, docs, "ingest", "--json", env=env)
    assert done.returncode == 0, done.stderr
    assert sorted({a["agent"] for a in atoms(docs)}) == ["claude", "codex", "copilot", "gemini"]
    # without the variables the default folders hold nothing: said in one line naming where it looked
    nothing = cli(fake, docs, "ingest")
    assert nothing.returncode == 1 and "no session of" in nothing.stderr and ".claude" in nothing.stderr


def test_a_session_of_another_project_handed_to_a_hook_is_not_filed_here(fake: FakeHome) -> None:
    api, web = fake.projects["api"], fake.projects["web"]
    from agent_memory.hooks.worker import run_job

    with pytest.MonkeyPatch.context() as env:
        env.setenv("HOME", str(fake.home))
        env.setenv("AGENT_MEMORY_HOME", str(fake.home / ".agent-memory"))
        env.delenv("AGENT_MEMORY_DIR", raising=False)
        web_session = agents.get("claude").history(str(web))
        api_session = agents.get("claude").history(str(api))
        run_job({"store": "", "cwd": str(api), "files": web_session + api_session, "stage": "never"})
    assert {a["project"] for a in atoms(api)} == {"api"}


def test_nothing_is_adopted_into_a_file_outside_the_project_root(fake: FakeHome) -> None:
    api = fake.projects["api"]
    assert cli(fake, fake.home, "ingest", "--all-projects").returncode == 0
    assert cli(fake, api, "promote", "--write").returncode == 0
    for target in ("../outside.md", str(fake.home / "CLAUDE.md")):
        done = cli(fake, api, "adopt", "--all", "--target", target)
        assert done.returncode == 1 and "inside the project" in done.stderr
    assert not (fake.home / "src" / "outside.md").exists() and not (fake.home / "CLAUDE.md").exists()
    assert cli(fake, api, "adopt", "--all").returncode == 0
    assert "contract tests" in (api / "CLAUDE.md").read_text(encoding="utf-8")
    # a store named from the home folder still adopts nothing into the home folder's CLAUDE.md
    mine = ("--memory-dir", str(fake.home / "mine"))
    assert cli(fake, fake.home, *mine, "ingest", str(fake.home / ".claude"), str(fake.home / ".codex"),
               str(fake.home / ".copilot")).returncode == 0
    assert cli(fake, fake.home, *mine, "promote", "--write").returncode == 0
    done = cli(fake, fake.home, *mine, "adopt", "--all")
    assert done.returncode == 1 and "no git repository" in done.stderr
    assert not (fake.home / "CLAUDE.md").exists()
