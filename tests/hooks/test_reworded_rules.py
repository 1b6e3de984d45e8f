"""A rule said in other words, through the installed hooks: three wordings on three days become one proposal,
and once adopted, a reversal in other words is injected ``[contested]`` at the next session start for every agent."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from .conftest import PATIENT, HookEnv, claude_transcript, hook_output

WORDINGS = ["Always use httpx, never requests.", "Don't use requests here, use httpx instead.",
            "Don't use requests in this repo, use httpx."]
REVERSAL = "Switch back to requests, the httpx client was overkill for us."


def _session_end(env: HookEnv, session: str, day: str, text: str) -> None:
    path = claude_transcript(env.tmp / f"{session}.jsonl", session, env.root, [(f"{day}T10:00:00Z", text)])
    done = env.run("session-end", env.payload("session-end", session_id=session, transcript_path=str(path), reason="exit"))
    assert (done.returncode, done.stdout) == (0, ""), done.stderr


def test_three_wordings_are_proposed_once_and_a_reversal_is_contested_at_session_start(env: HookEnv) -> None:
    env.config(**PATIENT)
    for n, text in enumerate(WORDINGS):
        _session_end(env, f"s{n}", f"2025-09-0{n + 1}", text)
    staged = list((env.store / "staged").glob("*.md"))
    assert len(staged) == 1, [p.name for p in staged]
    body = staged[0].read_text(encoding="utf-8")
    assert all(text in body for text in WORDINGS)

    adopt = subprocess.run([sys.executable, "-m", "agent_memory", "adopt", "--all"], cwd=env.root, env=env.vars(),
                           capture_output=True, text=True, timeout=120)
    assert adopt.returncode == 0, adopt.stderr
    adopted = (env.root / "CLAUDE.md").read_text(encoding="utf-8")
    line = next(l for l in adopted.splitlines() if "httpx" in l)

    _session_end(env, "s9", "2025-09-10", REVERSAL)
    for agent in ("claude", "codex", "gemini"):
        out = env.run("session-start", env.payload("session-start", agent), agent=agent)
        context = hook_output(out.stdout, agent, "session-start") or ""
        shown = [re.sub(r" \(since \d{4}-\d{2}\)$", "", l) for l in context.splitlines()]  # the claim's age
        assert line.replace("- ", "- [contested] ", 1) in shown, (agent, context)
    assert env.errors() == []


def test_a_rule_said_two_ways_is_recalled_once_after_promote(env: HookEnv) -> None:
    said = ["Use httpx instead of requests.", "Prefer httpx over requests for HTTP calls."]
    env.ingest(*(claude_transcript(env.tmp / f"s{n}.jsonl", f"s{n}", env.root, [(f"2025-09-0{n + 1}T10:00:00Z", text)])
                 for n, text in enumerate(said)))  # ingested, not yet staged

    def hints() -> list[str]:
        out = env.run("user-prompt-submit", env.payload("user-prompt-submit", prompt="add the http client with httpx"))
        return [l for l in (hook_output(out.stdout, "claude", "user-prompt-submit") or "").splitlines() if "httpx" in l]

    assert len(hints()) == 2  # two keys, not yet known as one claim
    assert subprocess.run([sys.executable, "-m", "agent_memory", "promote", "--write"], cwd=env.root, env=env.vars(),
                          capture_output=True, timeout=120).returncode == 0
    assert len(hints()) == 1


# a rule adopted, then reversed in other words (each language's shapes), through the installed hooks
REVERSED = [
    ("Always add type hints to new functions.", "Don't bother adding type hints to new functions anymore.", "hints"),
    ("Always use httpx, never requests.", "Go back to requests instead of httpx.", "httpx"),
    ("Never push directly to the main branch.", "Pushing directly to main is fine now.", "main"),
    ("mainに直接pushしないでください。", "mainへの直接pushは解禁します。", "main"),
    ("以后都用 pnpm，不要用 npm。", "不用 pnpm 了，换回 npm。", "pnpm"),
    ("每次提交前都要跑测试。", "以后提交前不需要跑测试。", "测试"),
    # a reversal naming fewer words than the rule said ("stop wrapping errors" for a rule of wrapping them when
    # returned, with fmt.Errorf)
    ("Always wrap errors with fmt.Errorf when you return them.", "Stop wrapping errors, just return them as they are.",
     "wrap"),
    ("Always pin base images by digest in every Dockerfile.", "Don't pin the base images anymore.", "digest"),
    # a rule named and called off, and a guarded step done without the one the rule asks for
    ("每次提交前都要跑测试。", "提交前跑测试这条规则取消了。", "测试"),
    ("Always squash commits before merging.", "The rule about squashing commits before merging is lifted.", "squash"),
    ("Always squash commits before merging.", "Merge without squashing from now on.", "squash"),
    # a permission whose reason follows it
    ("Never hardcode strings.", "Hardcoded strings are fine, we're dropping i18n.", "hardcode"),
    ("Never run containers as root.", "Running containers as root is fine, drop the USER lines.", "root"),
]


@pytest.mark.parametrize("rule, reversal, word", REVERSED, ids=[r[2] + str(n) for n, r in enumerate(REVERSED)])
def test_an_adopted_rule_reversed_in_other_words_is_contested_at_session_start(env: HookEnv, rule: str, reversal: str,
                                                                                word: str) -> None:
    env.config(**PATIENT)
    for n in range(3):
        _session_end(env, f"s{n}", f"2025-09-0{n + 1}", rule)
    adopt = subprocess.run([sys.executable, "-m", "agent_memory", "adopt", "--all"], cwd=env.root, env=env.vars(),
                           capture_output=True, text=True, timeout=120)
    assert adopt.returncode == 0, adopt.stderr
    line = next(l for l in (env.root / "CLAUDE.md").read_text(encoding="utf-8").splitlines() if word in l)

    _session_end(env, "s9", "2025-09-10", reversal)
    out = env.run("session-start", env.payload("session-start", "claude"))
    context = hook_output(out.stdout, "claude", "session-start") or ""
    shown = [re.sub(r" \(since \d{4}-\d{2}\)$", "", l) for l in context.splitlines()]
    assert line.replace("- ", "- [contested] ", 1) in shown, context
    assert env.errors() == []
