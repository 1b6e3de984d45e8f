"""The first day, as a person meets it: a fresh install, the README's commands, their own history of three projects.

A fresh virtual environment gets the package (``pip install``, as README says), then, in a home with every agent's
session folders: the demo; the mistakes a newcomer makes first (ingest or install from the home folder); the
backfill of every project; ``ingest`` with no path inside one of them; promote, adopt, forget (an adopted rule and
one only remembered), export; and a project-scope install whose committed files name nothing of this machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from fake_home import make_fake_home

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv with the package installed from this checkout (not editable); its dependencies are this test
    environment's, so nothing but the build's own requirements is fetched."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
    python = venv / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(ROOT)], capture_output=True,
                          text=True, timeout=900, cwd=str(venv))
    if done.returncode != 0:
        pytest.skip(f"pip could not build the package here: {(done.stderr.strip().splitlines() or [''])[-1]}")
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    # rich, yaml and jsonschema from this environment; the .pth files there (an editable checkout) are not read
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return venv / "bin" / "agent-memory"


def test_a_newcomers_first_day(fresh: Path, tmp_path: Path) -> None:
    fake = make_fake_home(tmp_path)
    home, api = fake.home, fake.projects["api"]
    env = {"PATH": f"{fresh.parent}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb",
           "AGENT_MEMORY_NOW": "2026-03-20T12:00:00Z"}

    def am(cwd: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["agent-memory", *args], cwd=str(cwd), env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == code, f"agent-memory {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        return done

    assert str(ROOT) not in am(home, "--version").stdout
    am(tmp_path, "demo")

    # what a newcomer tries first, from the home folder: refused, one line each, nothing written there
    for args in (("ingest", str(home / ".claude" / "projects")), ("install",), ("promote", "--write"), ("adopt", "--all")):
        refused = am(home, *args, code=1)
        assert len(refused.stderr.strip().splitlines()) == 1 and "--memory-dir" in refused.stderr
    assert not (home / ".memory").exists() and not (home / "CLAUDE.md").exists()

    # the backfill: every session in its own project, and the session run in the home folder nowhere
    backfill = json.loads(am(home, "ingest", "--all-projects", "--json").stdout)
    assert sorted(p["project"] for p in backfill["projects"]) == ["api", "docs", "web"]
    assert backfill["skipped"]["outside_a_repository"] == 1
    registry = json.loads((home / ".agent-memory" / "projects.json").read_text(encoding="utf-8"))["projects"]
    assert sorted(registry) == ["api", "docs", "web"]

    # inside one project: ingest with no path finds its sessions in every agent's folder, all read already
    again = json.loads(am(api, "ingest", "--json").stdout)
    assert again["sessions"] == 4 and again["atoms_added"] == 0

    # promote and adopt: this project's rule, into this project's file, never outside it
    proposals = json.loads(am(api, "promote", "--write", "--json").stdout)["proposals"]
    assert [p["text"] for p in proposals if "contract tests" in p["text"]] and \
        not [p for p in proposals if "storybook" in p["text"] or "link checker" in p["text"]]
    am(api, "adopt", "--all", "--target", "../CLAUDE.md", code=1)
    am(api, "adopt", "--all")
    assert "contract tests" in (api / "CLAUDE.md").read_text(encoding="utf-8")
    assert not (home / "src" / "CLAUDE.md").exists()

    # forget: the adopted rule out of the file, and a fact said once, only remembered, out of recall and export
    am(api, "forget", "contract tests")
    assert "contract tests" not in (api / "CLAUDE.md").read_text(encoding="utf-8")
    payload = json.dumps({"session_id": "new", "cwd": str(api), "hook_event_name": "UserPromptSubmit",
                          "prompt": "where does the api service read its settings from? the staging vault?"})

    def recalled() -> str:
        done = subprocess.run(["agent-memory", "hook", "user-prompt-submit"], input=payload, cwd=str(api), env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0
        return done.stdout

    assert "staging vault" in recalled()
    forgot = json.loads(am(api, "forget", "staging vault", "--json").stdout)["forgotten"]
    assert forgot["tiers"] == ["L1"]
    assert "staging vault" not in recalled()
    am(api, "forget", "staging vault", code=3)  # nothing left that these words name

    # export: what would be shared, then shared; the forgotten stay home
    shown = json.loads(am(api, "export", "--dry-run", "--json").stdout)
    assert shown["held_back"].get("forgotten", 0) >= 2
    assert not any("staging vault" in r["text"] or "contract tests" in r["text"] for r in shown["rows"])
    am(api, "export", "--out", str(tmp_path / "api-export.jsonl"))

    # a project-scope install for each agent: the files a team commits name nothing of this machine
    for agent in ("claude", "codex", "gemini", "copilot"):
        am(api, "install", "--agent", agent, "--scope", "project")
    listed = subprocess.run(["git", "-C", str(api), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert ".claude/settings.local.json" not in listed and (api / ".claude" / "settings.local.json").is_file()
    machine = (str(home), str(tmp_path), str(fresh.parent), str(ROOT))
    leaked = [n for n in listed if any(m in (api / n).read_text(encoding="utf-8", errors="replace") for m in machine)]
    assert leaked == []
    assert os.access(home / ".agent-memory" / "bin" / "agent-memory", os.X_OK)
