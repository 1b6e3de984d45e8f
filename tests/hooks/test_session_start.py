"""session-start: adopted claims reach the agent once, contested ones tagged, within budget; missed sessions caught up."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from .conftest import PATIENT, HookEnv, claude_transcript, codex_rollout, gemini_session, hook_output

PYTEST = {"id": "c1aaaaaaaaaa", "text": "Always run pytest -x before pushing"}
PNPM = {"id": "c2bbbbbbbbbb", "text": "Use pnpm, not npm"}
MAIN = {"id": "c3cccccccccc", "text": "Never commit to main directly"}


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_adopted_claims_are_injected_in_each_agents_form(env: HookEnv, agent: str) -> None:
    env.adopt(PYTEST, MAIN, {"id": "c4dddddddddd", "text": "An old rule nobody follows", "retired": True})
    env.adopt({"id": "c9eeeeeeeeee", "text": "Write commit messages in the imperative mood"}, user=True)
    result = env.run("session-start", agent=agent)
    assert result.returncode == 0
    context = hook_output(result.stdout, agent, "session-start")
    assert context is not None
    assert "- Always run pytest -x before pushing" in context
    assert "- Never commit to main directly" in context
    assert "- Write commit messages in the imperative mood" in context  # L3, from the user store
    assert "old rule" not in context


def test_a_claim_the_instruction_file_carries_is_left_out(env: HookEnv) -> None:
    env.adopt(PYTEST, MAIN)
    (env.root / "CLAUDE.md").write_text("# Rules\n\n- never commit to main directly.\n", encoding="utf-8")
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert "commit to main" not in context
    assert "- Always run pytest -x before pushing" in context


def test_the_adopt_block_counts_as_carried_even_with_inert_escapes(env: HookEnv) -> None:
    claim = {"id": "c5ffffffffff", "text": "# Mention @team in <release> notes"}
    env.adopt(claim, PYTEST)
    block = (
        "<!-- agent-memory:begin hash=0123456789abcdef; managed -->\n"
        "Adopted by agent-memory:\n"
        "- \\# Mention ＠team in &lt;release&gt; notes\n"
        "<!-- agent-memory:end -->\n"
    )
    (env.root / "CLAUDE.md").write_text(block, encoding="utf-8")
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert "release" not in context
    assert "pytest" in context


def test_only_the_agents_own_file_counts(env: HookEnv) -> None:
    env.adopt(MAIN)
    (env.root / "AGENTS.md").write_text("- Never commit to main directly\n", encoding="utf-8")
    # Claude Code does not read AGENTS.md, so the claim still has to reach it
    assert "commit to main" in (hook_output(env.run("session-start").stdout, "claude", "session-start") or "")
    assert env.run("session-start", agent="codex").stdout == ""


def test_the_user_level_instruction_file_counts(env: HookEnv) -> None:
    env.adopt(MAIN, PYTEST)
    (env.home / ".gemini").mkdir()
    (env.home / ".gemini" / "GEMINI.md").write_text("Never commit to main directly.\n", encoding="utf-8")
    context = hook_output(env.run("session-start", agent="gemini").stdout, "gemini", "session-start") or ""
    assert "commit to main" not in context and "pytest" in context


def test_a_contested_claim_is_always_injected_and_tagged(env: HookEnv) -> None:
    env.adopt({**PNPM, "contested": True, "contested_by": ["c7"]}, MAIN)
    (env.root / "CLAUDE.md").write_text("- Use pnpm, not npm\n- Never commit to main directly\n", encoding="utf-8")
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert "- [contested] Use pnpm, not npm" in context
    assert "commit to main" not in context


def test_contested_keys_staged_by_promote_tag_the_claim(env: HookEnv) -> None:
    from agent_memory.claims import claim_key

    env.adopt(PYTEST)
    (env.store / "L1").mkdir(parents=True)
    (env.store / "L1" / "contested.json").write_text(json.dumps({claim_key(PYTEST["text"]).text: ["c8"]}), encoding="utf-8")
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert "- [contested] Always run pytest -x before pushing" in context


def test_a_claim_in_l2_and_l3_reaches_the_agent_once(env: HookEnv) -> None:
    env.adopt(PYTEST)
    env.adopt({**PYTEST, "id": "c1zzzzzzzzzz"}, user=True)
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert context.count("pytest -x") == 1


def test_proposals_awaiting_review_get_a_one_line_note(env: HookEnv) -> None:
    (env.store / "staged").mkdir(parents=True)
    for name in ("p1.md", "p2.md"):
        (env.store / "staged" / name).write_text("---\n---\n", encoding="utf-8")
    context = hook_output(env.run("session-start").stdout, "claude", "session-start")
    assert context == "2 proposals await review: agent-memory promote"


@pytest.mark.parametrize(("agent", "call"), [("claude", "/cs-memory"), ("codex", "$cs-memory"), ("gemini", "/cs-memory")])
@pytest.mark.parametrize("scope", ["project", "user"])
def test_the_note_names_the_review_entry_this_agent_has(env: HookEnv, monkeypatch: pytest.MonkeyPatch,
                                                         agent: str, call: str, scope: str) -> None:
    from agent_memory import install
    from agent_memory.agents import codex
    from agent_memory.store import Paths

    (env.store / "staged").mkdir(parents=True)
    (env.store / "staged" / "p1.md").write_text("---\n---\n", encoding="utf-8")

    def note() -> str:
        return hook_output(env.run("session-start", agent=agent).stdout, agent, "session-start") or ""

    assert note() == "1 proposal awaits review: agent-memory promote"  # nothing installed: the command line
    monkeypatch.setattr(codex, "codex_version", lambda: codex.SESSION_END_SINCE)
    report = install.install(agent, scope, Paths.resolve(cwd=str(env.root)))
    assert report.command_file is not None and report.command_file.is_file()
    assert note() == f"1 proposal awaits review: {call}"
    install.uninstall(agent, scope, Paths.resolve(cwd=str(env.root)))
    assert note() == "1 proposal awaits review: agent-memory promote"


def test_under_the_plugin_the_note_names_the_plugins_command(env: HookEnv) -> None:
    (env.store / "staged").mkdir(parents=True)
    (env.store / "staged" / "p1.md").write_text("---\n---\n", encoding="utf-8")
    plugin = Path(__file__).resolve().parents[2]  # the repository is the plugin
    context = hook_output(env.run("session-start", env={"CLAUDE_PLUGIN_ROOT": str(plugin)}).stdout, "claude", "session-start")
    assert context == "1 proposal awaits review: /agent-memory:cs-memory"


def test_the_budget_is_kept_with_whole_lines_only(env: HookEnv) -> None:
    claims = [{"id": f"c{n:011d}", "text": f"Rule number {n} about the {'deploy ' * 5}pipeline"} for n in range(60)]
    env.adopt(*claims)
    (env.store / "staged").mkdir()
    (env.store / "staged" / "p1.md").write_text("x", encoding="utf-8")
    env.config(session_start_chars=700)
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert 0 < len(context) <= 700
    lines = context.splitlines()
    whole = {f"- {c['text']}" for c in claims}
    bullets = [line for line in lines if line.startswith("- ")]
    assert bullets and all(line in whole for line in bullets)
    assert re.fullmatch(r"\(\d+ more adopted claims not shown: agent-memory inspect --tier L2\)", lines[-2])
    assert int(lines[-2][1:].split()[0]) == len(claims) - len(bullets)
    assert lines[-1] == "1 proposal awaits review: agent-memory promote"


def test_a_budget_above_the_agents_cap_is_held_to_the_cap(env: HookEnv) -> None:
    env.adopt(*[{"id": f"c{n:011d}", "text": f"Rule {n}: " + f"keep the changelog of module{n} current " * 8}
                for n in range(200)])
    env.config(session_start_chars=50_000)
    context = hook_output(env.run("session-start").stdout, "claude", "session-start") or ""
    assert 9_000 < len(context) <= 10_000


# what each agent keeps of a hook's context, in its own unit: characters, UTF-8 bytes, characters with < and > escaped
AGENT_LIMITS = {"claude": (10_000, len), "codex": (10_000, lambda t: len(t.encode("utf-8"))),
                "gemini": (10_000, lambda t: len(t) + 3 * (t.count("<") + t.count(">")))}


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_each_agent_gets_whole_lines_within_its_own_limit(env: HookEnv, agent: str) -> None:
    # Japanese claims: three UTF-8 bytes a character, so Codex's byte limit binds long before 10,000 characters
    claims = [{"id": f"c{n:011d}", "text": f"モジュール{n}を変更したら、プッシュする前に必ず <fixture-{n}> で make test-{n} を実行してください。"}
              for n in range(300)]
    env.adopt(*claims)
    env.config(session_start_chars=20_000)
    context = hook_output(env.run("session-start", agent=agent).stdout, agent, "session-start") or ""
    limit, size = AGENT_LIMITS[agent]
    assert limit * 0.9 < size(context) <= limit
    whole = {f"- {c['text']}" for c in claims}
    bullets = [line for line in context.splitlines() if line.startswith("- ")]
    assert bullets and all(line in whole for line in bullets)
    assert context.splitlines()[-1] == f"({len(claims) - len(bullets)} more adopted claims not shown: agent-memory inspect --tier L2)"


def test_nothing_adopted_prints_nothing(env: HookEnv) -> None:
    env.store.mkdir()
    result = env.run("session-start")
    assert (result.returncode, result.stdout) == (0, "")


# ---------------------------------------------------------------- catching up on missed sessions


def _claude_folder(env: HookEnv) -> Path:
    return env.home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(env.root))


def test_claude_transcripts_never_ingested_are_caught_up(env: HookEnv) -> None:
    folder = _claude_folder(env)
    claude_transcript(folder / "old-1.jsonl", "old-1", env.root, [("2025-09-01T10:00:00Z", "From now on, always use pnpm for installs.")])
    claude_transcript(folder / "old-2.jsonl", "old-2", env.root, [("2025-09-02T10:00:00Z", "Remember: always use pnpm for installs.")])
    env.config(**PATIENT)
    payload = env.payload("session-start", transcript_path=str(folder / "now.jsonl"), source="startup")
    assert env.run("session-start", payload).returncode == 0
    assert {a["session"] for a in env.atoms()} == {"old-1", "old-2"}

    from agent_memory.hooks import pending_transcripts
    from agent_memory.store import Paths

    assert pending_transcripts(Paths.resolve(cwd=str(env.root)), "claude", payload) == []


def test_a_transcript_that_grew_is_caught_up(env: HookEnv) -> None:
    folder = _claude_folder(env)
    first = [("2025-09-01T10:00:00Z", "From now on, always use pnpm for installs.")]
    path = claude_transcript(folder / "s.jsonl", "s", env.root, first)
    env.ingest(path)
    claude_transcript(path, "s", env.root, [*first, ("2025-09-01T11:00:00Z", "Always rebase on main before you push.")])
    env.config(**PATIENT)
    env.run("session-start")
    assert len(env.atoms()) == 2


def test_codex_rollouts_of_this_project_are_caught_up(env: HookEnv) -> None:
    day = env.home / ".codex" / "sessions" / "2025" / "09" / "19"
    codex_rollout(day / "rollout-2025-09-19T10-00-00-aaa.jsonl", "aaa", env.root, [("2025-09-19T10:00:00Z", "From now on, always use pnpm for installs.")])
    codex_rollout(day / "rollout-2025-09-19T11-00-00-bbb.jsonl", "bbb", env.tmp / "elsewhere", [("2025-09-19T11:00:00Z", "Always use yarn here.")])
    env.config(**PATIENT)
    assert env.run("session-start", agent="codex").returncode == 0
    assert {a["session"] for a in env.atoms()} == {"aaa"}


def test_gemini_sessions_of_this_project_are_caught_up(env: HookEnv) -> None:
    chats = env.home / ".gemini" / "tmp" / hashlib.sha256(str(env.root).encode()).hexdigest() / "chats"
    gemini_session(chats / "session-2025-09-19T10-00-g1.json", "g1", env.root, [("2025-09-19T10:00:00Z", "From now on, always use pnpm for installs.")])
    env.config(**PATIENT)
    assert env.run("session-start", agent="gemini").returncode == 0
    assert {a["session"] for a in env.atoms()} == {"g1"}


def test_catching_up_is_switched_off_with_the_hook(env: HookEnv) -> None:
    folder = _claude_folder(env)
    claude_transcript(folder / "old.jsonl", "old", env.root, [("2025-09-01T10:00:00Z", "From now on, always use pnpm for installs.")])
    env.adopt(PYTEST)
    result = env.run("session-start", env={"AGENT_MEMORY_SESSIONSTART": "0"})
    assert (result.returncode, result.stdout) == (0, "")
    assert env.atoms() == []


def test_a_longer_rule_containing_the_claim_does_not_count(env: HookEnv) -> None:
    env.adopt({"id": "c6aaaaaaaaaa", "text": "Use tabs"})
    (env.root / "CLAUDE.md").write_text("- Never use tabs in Go files\n", encoding="utf-8")
    assert "- Use tabs" in (hook_output(env.run("session-start").stdout, "claude", "session-start") or "")
    (env.root / "CLAUDE.md").write_text("Indentation matters. Use tabs.\n", encoding="utf-8")
    assert env.run("session-start").stdout == ""


# ---------------------------------------------------------------- what each agent loads by itself

CLAIM = "Always run make lint before pushing"
FILLER = "- Keep the changelog in step with every release and note each breaking change in its own section.\n"
# (agent, files to write: path under the project ("~/" under the agent's home) -> text, whether session-start injects CLAIM)
LOADING = [
    ("codex", {"AGENTS.md": f"- {CLAIM}\n"}, False),
    ("codex", {"AGENTS.md": f"- {CLAIM}\n", "AGENTS.override.md": "- Ship on Fridays\n"}, True),  # the override replaces it
    ("codex", {"AGENTS.override.md": f"- {CLAIM}\n", "AGENTS.md": "- Ship on Fridays\n"}, False),
    ("codex", {"sub/AGENTS.md": f"- {CLAIM}\n"}, False),  # cwd is sub/: root down to cwd
    ("codex", {"CLAUDE.md": f"- {CLAIM}\n"}, True),
    ("codex", {"CLAUDE.md": f"- {CLAIM}\n", "~/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md"]\n'}, False),
    ("codex", {"CLAUDE.md": f"- {CLAIM}\n", "AGENTS.md": "- Ship on Fridays\n",
               "~/config.toml": 'project_doc_fallback_filenames = ["CLAUDE.md"]\n'}, True),  # a fallback only where no AGENTS.md
    ("codex", {"AGENTS.md": FILLER * 400 + f"- {CLAIM}\n"}, True),  # past the 32 KiB Codex reads
    ("codex", {"AGENTS.md": FILLER * 300 + f"- {CLAIM}\n"}, False),
    ("codex", {"AGENTS.md": FILLER * 400 + f"- {CLAIM}\n", "~/config.toml": "project_doc_max_bytes = 65536\n"}, False),
    ("codex", {"~/AGENTS.md": f"- {CLAIM}\n"}, False),
    ("codex", {"~/AGENTS.md": f"- {CLAIM}\n", "~/AGENTS.override.md": "- Ship on Fridays\n"}, True),
    ("gemini", {"GEMINI.md": f"- {CLAIM}\n"}, False),
    ("gemini", {"AGENTS.md": f"- {CLAIM}\n"}, True),
    ("gemini", {"AGENTS.md": f"- {CLAIM}\n", ".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}'}, False),
    ("gemini", {"GEMINI.md": f"- {CLAIM}\n", ".gemini/settings.json": '{"context": {"fileName": "AGENTS.md"}}'}, True),
    ("gemini", {"CONTEXT.md": f"- {CLAIM}\n", "~/settings.json": '{"context": {"fileName": ["GEMINI.md", "CONTEXT.md"]}}'}, False),
    ("gemini", {"~/GEMINI.md": f"- {CLAIM}\n"}, False),
    ("claude", {"CLAUDE.md": f"- {CLAIM}\n"}, False),
    ("claude", {"CLAUDE.local.md": f"- {CLAIM}\n"}, False),
    ("claude", {".claude/CLAUDE.md": f"- {CLAIM}\n"}, False),
    ("claude", {"../CLAUDE.local.md": f"- {CLAIM}\n"}, False),  # above the project: Claude reads up to /
    ("claude", {"~/CLAUDE.md": f"- {CLAIM}\n"}, False),
    ("claude", {"AGENTS.md": f"- {CLAIM}\n"}, True),
    ("claude", {"GEMINI.md": f"- {CLAIM}\n"}, True),
]


@pytest.mark.parametrize(("agent", "files", "injected"), LOADING)
def test_a_claim_is_injected_unless_a_file_the_agent_loads_carries_it(env: HookEnv, agent: str, files: dict[str, str],
                                                                       injected: bool) -> None:
    env.adopt({"id": "c5aaaaaaaaaa", "text": CLAIM})
    homes = {"claude": env.home / ".claude", "codex": env.home / ".codex", "gemini": env.home / ".gemini"}
    for name, text in files.items():
        path = homes[agent] / name[2:] if name.startswith("~/") else env.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    cwd = env.root / "sub"
    cwd.mkdir(exist_ok=True)
    payload = env.payload("session-start", agent, cwd=str(cwd))
    context = hook_output(env.run("session-start", payload, agent=agent).stdout, agent, "session-start") or ""
    assert (CLAIM in context) == injected, context
