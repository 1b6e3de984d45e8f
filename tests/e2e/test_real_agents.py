"""The real Claude Code, Codex CLI, Gemini CLI and GitHub Copilot CLI, each run once with our hooks installed, against a mock model.

For each agent: past sessions give the store 130 rules seen on three days and one deploy habit seen
once; the rules are adopted into an instruction file this agent does not read, so only session-start
can bring them; one real non-interactive run follows. The model request must carry the adopted
rules (whole lines, within what the agent keeps of hook context) and the recalled habit, every hook
must exit 0, and the transcript the CLI wrote must be ingested with the person's words and nothing
the hooks injected. Nothing leaves the machine: the model is on 127.0.0.1 and every proxy variable
points at a local proxy that refuses. Skipped where node or the agent's CLI is absent.
"""

from __future__ import annotations

import datetime
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from agent_formats import claude_transcript

from agent_memory.launcher import LAUNCHER

from . import mockmodel
from .agents import Scratch, available, command, configure, request_texts, trust_codex_hooks, wrap_with_exit_log

AGENTS = ("claude", "codex", "gemini", "copilot")
# the file each agent does not read by itself: adopted there, a rule reaches the agent only through session-start
UNREAD = {"claude": "AGENTS.md", "codex": "CLAUDE.md", "gemini": "AGENTS.md", "copilot": "CLAUDE.local.md"}
# what each agent keeps of one hook's context, and how it counts (characters or UTF-8 bytes)
LIMITS = {"claude": (10_000, "chars"), "codex": (10_000, "bytes"), "gemini": (10_000, "chars"), "copilot": (10_000, "chars")}
WORDS = ("amber basil cedar delta ember fable garnet harbor indigo juniper kestrel lumen maple nectar onyx pepper "
         "quartz raven saffron tundra umber velvet willow xenon yarrow zephyr").split()
# English and Japanese: more than any agent keeps in characters, and in UTF-8 bytes
RULES = [f"Always run the {WORDS[i % 26]} suite number {i} against the {WORDS[(i * 7 + 3) % 26]} fixtures with the "
         f"{WORDS[(i * 11 + 5) % 26]} database seeded before pushing anything that touches module {i}." for i in range(50)] + [
         f"モジュール{i}を変更したら、プッシュする前に必ず {WORDS[i % 26]}-{WORDS[(i * 7 + 3) % 26]} のフィクスチャで "
         f"make test-{i} を実行してください。" for i in range(50, 130)]
HABIT = "We deploy the billing service with helm upgrade, never with kubectl apply."
SAID = "From now on, always squash the fixup commits before opening a merge request."
PROMPT = f"{SAID} Also, how do we deploy the billing service to staging?"
RUN_TIMEOUT = 180
AM = str(Path(sys.executable).with_name("agent-memory"))


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[mockmodel.MockModel, str]]:
    model = mockmodel.start()
    proxy, proxy_url = mockmodel.refusing_proxy()
    yield model, proxy_url
    model.close()
    proxy.shutdown()
    proxy.server_close()


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=str(cwd), env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{shlex.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def assert_nothing_committed_names_this_machine(scratch: Scratch) -> None:
    """Every file git would commit in the project (tracked, or new and not ignored) holds no absolute path of this
    machine: not the home, the project, the interpreter or this checkout."""
    listed = subprocess.run(["git", "-C", str(scratch.project), "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, check=True, timeout=60).stdout.split()
    machine = (str(scratch.home), str(scratch.project), sys.executable, str(Path(__file__).resolve().parents[2]))
    assert listed
    leaked = [name for name in listed if any(m in (scratch.project / name).read_text(encoding="utf-8", errors="replace")
                                             for m in machine)]
    assert leaked == [], leaked


def _past_sessions(scratch: Scratch, env: dict[str, str]) -> None:
    """Three earlier sessions on three days, ingested, promoted and adopted into the file this agent does not read."""
    now = datetime.datetime.now(datetime.timezone.utc)
    files = []
    for day in range(3):
        stamp = (now - datetime.timedelta(days=7 - 2 * day)).strftime("%Y-%m-%dT%H:%M:%SZ")
        turns = [(stamp, rule) for rule in RULES] + ([(stamp, HABIT)] if day == 0 else [])
        files.append(str(claude_transcript(scratch.home / "past" / f"past-{day}.jsonl", f"past-{day}", scratch.project, turns)))
    _run([AM, "ingest", *files], scratch.project, env)
    _run([AM, "promote", "--write"], scratch.project, env)


def _atoms(store: Path) -> list[dict[str, Any]]:
    path = store / "L1" / "atoms.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _wait_for(predicate: Any, seconds: float) -> bool:
    """The detached session-end worker finishes on its own: look until it has, or the time is up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return bool(predicate())


def _size(text: str, unit: str) -> int:
    return len(text.encode("utf-8")) if unit == "bytes" else len(text)


def _scratch(tmp_path: Path, servers: tuple[mockmodel.MockModel, str], agent: str) -> tuple[Scratch, dict[str, str]]:
    """A home and a git repository (Codex runs only inside one it trusts), this agent configured against the mock model."""
    model, proxy_url = servers
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    (home / "tmp").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True, timeout=60)
    scratch = Scratch(home, project, model.url, proxy_url, tmp_path / "hook-exits.log", Path(sys.executable).parent)
    return scratch, configure(scratch, agent)


def _sent(model: mockmodel.MockModel, agent: str, argv: list[str], scratch: Scratch, env: dict[str, str]) -> list[str]:
    """Run the agent once (it must exit 0) and return the texts of the model requests that run made."""
    before = {id(r) for r in model.requests}
    done = subprocess.run(argv, cwd=str(scratch.project), env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{agent} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return request_texts(agent, [r.body for r in model.requests if id(r) not in before and r.method == "POST"])


@pytest.mark.parametrize("agent", AGENTS)
def test_a_real_run_carries_the_memory_and_is_remembered(agent: str, tmp_path: Path, servers: tuple[mockmodel.MockModel, str]) -> None:
    missing = available(agent)
    if missing:
        pytest.skip(missing)
    if agent == "gemini":
        # Gemini records our context inside the person's prompt: only the readers' stripping keeps it out
        pytest.importorskip("agent_memory.transcripts.injected")
    model = servers[0]
    scratch, env = _scratch(tmp_path, servers, agent)
    home, project = scratch.home, scratch.project
    store = project / ".memory"

    _past_sessions(scratch, env)
    _run([AM, "adopt", "--all", "--target", UNREAD[agent]], project, env)
    # budgets wide enough that the agent's own limit is what binds, and patient enough to see the worker finish
    with open(store / "config.yaml", "a", encoding="utf-8") as handle:
        handle.write("budgets:\n  session_start_chars: 20000\n  session_end_seconds: 20\n  catchup_seconds: 20\n")
    _run([AM, "install", "--agent", agent, "--scope", "project"], project, env)
    assert_nothing_committed_names_this_machine(scratch)
    installed = wrap_with_exit_log(scratch, agent)
    if agent == "claude":  # in settings.local.json, which git does not see: this machine's interpreter
        assert all(" -I -S " in c and "run_hook.py" in c for c in installed) and len(installed) >= 3
    else:  # in a file the team commits: found on each machine when it runs
        assert all(LAUNCHER in c and sys.executable not in c for c in installed) and len(installed) >= 3
    if agent == "codex":
        trusted = trust_codex_hooks(scratch, env)
        assert len(trusted) == len(installed)

    texts = _sent(model, agent, command(agent, PROMPT), scratch, env)

    # every hook ran and exited 0
    exits = scratch.exit_log.read_text(encoding="utf-8").split("\n") if scratch.exit_log.exists() else []
    ran = [line.split() for line in exits if line.strip()]
    assert {verb for verb, _code in ran} >= {"session-start", "user-prompt-submit", "session-end"}, ran
    assert all(code == "0" for _verb, code in ran), ran

    # the model saw the adopted rules (whole lines, within the agent's limit) and the recalled habit
    joined = "\n".join(texts)
    assert "Adopted for this project (agent-memory" in joined, joined[:3000]
    block = next(t for t in texts if "Adopted for this project (agent-memory" in t)
    start = block.index("Adopted for this project (agent-memory")
    shown = [rule for rule in RULES if rule in block]
    assert shown, block[start:start + 500]
    limit, unit = LIMITS[agent]
    lines = [line for line in block[start:].splitlines() if line.startswith("- ")]
    assert lines and all(line[2:] in RULES for line in lines), "a rule line was cut"
    assert _size("\n".join(lines), unit) <= limit
    if len(shown) < len(RULES):
        assert "more adopted claim" in block, "rules were left out without saying so"
    assert HABIT.rstrip(".") in joined, "prompt recall did not reach the model"

    # the transcript the CLI wrote was ingested: the person's words, none of what the hooks injected
    def said() -> list[dict[str, Any]]:
        return [a for a in _atoms(store) if "squash the fixup commits" in str(a.get("text"))]

    assert _wait_for(lambda: said(), 60), "the run's transcript was not ingested"
    atom_texts = [str(a.get("text")) for a in _atoms(store)]
    injected = ("agent-memory", "Adopted for this project", "From earlier sessions", "helm upgrade, never with kubectl apply (")
    leaked = [t for t in atom_texts if any(mark in t for mark in injected)]
    assert leaked == [], leaked
    # the habit was typed once, in a past session; the hooks' recall of it must not count as a second sighting
    assert sum(1 for t in atom_texts if "helm upgrade" in t) == 1
    assert not any(str(project) in t or str(home) in t for t in atom_texts)


CALLS = {"claude": "/cs-memory status", "codex": "$cs-memory status", "gemini": "/cs-memory status", "copilot": "/cs-memory status"}
TEMPLATE_MARK = "agent-memory keeps a memory that is earned, not asserted"


@pytest.mark.parametrize("agent", AGENTS)
def test_the_review_entry_install_writes_is_one_the_agent_loads(agent: str, tmp_path: Path,
                                                                servers: tuple[mockmodel.MockModel, str]) -> None:
    missing = available(agent)
    if missing:
        pytest.skip(missing)
    scratch, env = _scratch(tmp_path, servers, agent)
    report = json.loads(_run([AM, "install", "--agent", agent, "--scope", "project", "--json"], scratch.project, env).stdout)
    assert report["command_file"] and Path(report["command_file"]).is_file()
    if agent == "codex":
        trust_codex_hooks(scratch, env)
    joined = "\n".join(_sent(servers[0], agent, command(agent, CALLS[agent]), scratch, env))
    if agent == "copilot":
        # Copilot hands the model its skills by name and description; the body is read when the model calls its
        # skill tool, which a mock model never does: that the skill install wrote is among them is what shows here
        assert "<name>cs-memory</name>" in joined and "Review what agent-memory proposes to remember" in joined
        return
    # the entry's own text reached the model: the agent expanded the command (or read the skill) instead of passing the words on
    assert TEMPLATE_MARK in joined, joined[-2000:]
    assert f'"{LAUNCHER}" promote --json' in joined and "`agent-memory promote" not in joined
    assert_nothing_committed_names_this_machine(scratch)


def test_the_plugin_runs_its_own_copy_without_agent_memory_on_path(tmp_path: Path, servers: tuple[mockmodel.MockModel, str]) -> None:
    missing = available("claude")
    if missing:
        pytest.skip(missing)
    root = Path(__file__).resolve().parents[2]  # the repository is the plugin
    scratch, env = _scratch(tmp_path, servers, "claude")
    project = scratch.project
    (project / ".memory").mkdir()
    (project / ".memory" / "L2.jsonl").write_text(json.dumps({"id": "c1aaaaaaaaaa", "text": "Always run make lint before pushing",
                                                              "kind": "instruction"}) + "\n", encoding="utf-8")
    # a python3 on PATH, and no agent-memory anywhere on it
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env["PATH"] = f"{bin_dir}:/usr/local/bin:/usr/bin:/bin"
    assert not any((Path(p) / "agent-memory").exists() for p in env["PATH"].split(":"))
    joined = "\n".join(_sent(servers[0], "claude", ["claude", "-p", "/agent-memory:cs-memory status", "--plugin-dir", str(root),
                                                    "--model", "claude-sonnet-4-5", "--output-format", "json"], scratch, env))
    assert TEMPLATE_MARK in joined
    assert f'python3 "{root}/agent_memory/run_hook.py" cli promote --json' in joined  # the plugin root filled in
    assert "Always run make lint before pushing" in joined  # the plugin's own session-start hook ran
