"""user-prompt-submit: relevant L1 atoms grouped by claim, with date and evidence; nothing when nothing is relevant."""

from __future__ import annotations

import json

import pytest

from agent_memory.hooks import is_relevant, prompt_terms, relevance

from .conftest import HookEnv, claude_transcript, hook_output

DOCKER = "From now on, always run the integration tests with docker compose before pushing."
STAGING = "Remember: deploy to staging only from the release branch."
MAKEFILE = "From now on, always use tabs in the Makefile."


@pytest.fixture
def store(env: HookEnv) -> HookEnv:
    """A store built by ingesting three Claude sessions on two days."""
    t = env.tmp / "transcripts"
    env.ingest(
        claude_transcript(t / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", DOCKER), ("2025-09-01T10:05:00Z", MAKEFILE)]),
        claude_transcript(t / "s2.jsonl", "s2", env.root, [("2025-09-03T09:00:00Z", DOCKER)]),
        claude_transcript(t / "s3.jsonl", "s3", env.root, [("2025-09-02T09:00:00Z", STAGING)]),
    )
    return env


def _context(env: HookEnv, prompt: str, agent: str = "claude") -> str | None:
    result = env.run("user-prompt-submit", env.payload("user-prompt-submit", agent, prompt=prompt), agent=agent)
    assert result.returncode == 0
    return hook_output(result.stdout, agent, "user-prompt-submit")


def test_a_relevant_claim_comes_with_its_date_and_evidence(store: HookEnv) -> None:
    context = _context(store, "Please run the integration tests for the checkout service")
    assert context is not None
    lines = context.splitlines()
    docker = [line for line in lines if "docker compose" in line]
    # two sessions said it: one line, the later day, two sessions
    assert len(docker) == 1 and docker[0].endswith("(2025-09-03; 2 sessions)")
    assert "staging" not in context


@pytest.mark.parametrize("agent", ["codex", "gemini"])
def test_each_agent_gets_its_own_form(store: HookEnv, agent: str) -> None:
    context = _context(store, "deploy the staging build", agent=agent)
    assert context is not None and "release branch" in context and "(2025-09-02; 1 session)" in context


@pytest.mark.parametrize(
    "prompt",
    [
        "What's the weather like in Paris today?",
        "Write a haiku about autumn leaves",
        "thanks, that looks good",
        "can you explain how the router works?",
        "why is this so slow",
        "ok",
        "Please update the README with the new API endpoint",
    ],
)
def test_an_unrelated_prompt_gets_nothing(store: HookEnv, prompt: str) -> None:
    result = store.run("user-prompt-submit", store.payload("user-prompt-submit", prompt=prompt))
    assert (result.returncode, result.stdout) == (0, "")


def test_a_contested_claim_is_tagged(store: HookEnv) -> None:
    from agent_memory.claims import claim_key

    key = claim_key(next(a["text"] for a in store.atoms() if "staging" in a["text"])).text
    (store.store / "L1" / "contested.json").write_text(json.dumps({key: ["c1"]}), encoding="utf-8")
    context = _context(store, "deploy to staging") or ""
    assert "- [contested] " in context and "release branch" in context


def test_a_redacted_atom_is_never_recalled(env: HookEnv) -> None:
    env.ingest(claude_transcript(env.tmp / "t.jsonl", "s1", env.root, [
        ("2025-09-01T10:00:00Z", "Remember: the deploy token for staging is ghp_abcdefghijklmnopqrstuvwxyz0123456789."),
    ]))
    assert any(a["redacted"] for a in env.atoms()), "the fixture must produce a redacted atom"
    result = env.run("user-prompt-submit", env.payload("user-prompt-submit", prompt="which deploy token for staging?"))
    assert (result.returncode, result.stdout) == (0, "")


def test_at_most_prompt_atoms_claims_within_prompt_chars(env: HookEnv) -> None:
    turns = [(f"2025-09-0{1 + n % 5}T10:00:00Z", f"From now on, always run the {name} tests before release.")
             for n, name in enumerate(["billing", "search", "checkout", "login", "export", "import", "audit", "report"])]
    env.ingest(claude_transcript(env.tmp / "t.jsonl", "s1", env.root, turns))
    env.config(prompt_atoms=3)
    context = _context(env, "run the tests before release") or ""
    assert len([line for line in context.splitlines() if line.startswith("- ")]) == 3
    env.config(prompt_atoms=8, prompt_chars=250)
    context = _context(env, "run the tests before release") or ""
    assert len(context) <= 250 and context.splitlines()[-1].startswith("- ")


def test_the_floor_follows_recall_min_score(store: HookEnv) -> None:
    prompt = "integration tests flaky on the payment gateway, retry queue and webhook signature"
    assert _context(store, prompt) is not None  # shares 2 of the atom's terms
    (store.store / "config.yaml").write_text("recall:\n  min_score: 0.9\n", encoding="utf-8")
    assert _context(store, prompt) is None


def test_no_store_means_no_output_and_no_store_created(env: HookEnv) -> None:
    result = env.run("user-prompt-submit", env.payload("user-prompt-submit", prompt="run the integration tests"))
    assert (result.returncode, result.stdout) == (0, "")
    assert not env.store.exists()


# ---------------------------------------------------------------- the relevance floor itself


@pytest.mark.parametrize(
    ("prompt", "atom", "relevant"),
    [
        ("run the integration tests", "always run the integration tests with docker compose", True),
        ("tests", "always run the integration tests with docker compose", True),  # a one-word prompt needs one word
        ("fix the docker build", "always run the integration tests with docker compose", False),  # one shared word
        ("what's the weather like today", "always run the integration tests with docker compose", False),
        ("use the new api", "use the new logger instead of print", False),  # only weak words shared
        ("configuring the linter", "configure the linter with ruff", True),  # inflections meet
        ("pnpm", "use pnpm, not npm", True),
        ("テストを実行して", "コミット前に必ずテストを実行する", True),
        ("天気はどう", "コミット前に必ずテストを実行する", False),
    ],
)
def test_relevance_floor_table(prompt: str, atom: str, relevant: bool) -> None:
    assert is_relevant(prompt_terms(prompt), prompt_terms(atom), 0.3) is relevant


def test_a_near_prefix_joins_inflections_but_not_other_words() -> None:
    assert is_relevant(["configur"], ["configure", "linter"], 0.3)
    assert not is_relevant(["important"], ["import", "order"], 0.3)


def test_relevance_does_not_depend_on_prompt_length() -> None:
    atom = prompt_terms("always run the integration tests with docker compose")
    short = prompt_terms("run the integration tests")
    long = prompt_terms("run the integration tests " + " ".join(f"word{n}" for n in range(30)))
    assert relevance(short, atom)[1] == relevance(long, atom)[1] == 3
    assert is_relevant(long, atom, 0.3)


def test_evidence_counts_every_session_of_the_claim_not_only_the_hits(env: HookEnv) -> None:
    from agent_memory.config import DEFAULTS
    from agent_memory.hooks import prompt_context
    from agent_memory.store import Paths

    files = [
        claude_transcript(env.tmp / "t" / f"s{n}.jsonl", f"s{n}", env.root,
                          [(f"2025-08-{1 + n % 28:02d}T10:00:00Z", DOCKER), (f"2025-08-{1 + n % 28:02d}T10:01:00Z", f"Always run the {n}th integration tests suite nightly.")])
        for n in range(60)  # more than one search returns
    ]
    env.ingest(*files)
    context = prompt_context(Paths.resolve(cwd=str(env.root)), {**DEFAULTS, "budgets": {**DEFAULTS["budgets"], "prompt_atoms": 1}},
                             "run the integration tests with docker compose")
    assert context.splitlines()[1].endswith("(2025-08-28; 60 sessions)")


@pytest.mark.parametrize("agent", ["gemini", "claude", "codex"])
def test_our_own_context_in_the_prompt_is_not_what_recall_searches(store: HookEnv, agent: str) -> None:
    pytest.importorskip("agent_memory.transcripts.injected")
    # Gemini CLI headless puts session-start's context in front of the person's prompt, and BeforeAgent gets both
    ours = ("Adopted for this project (agent-memory; each reviewed by a person):\n"
            + "".join(f"- Always run the integration tests with docker compose before pushing, suite {n}\n" for n in range(20)))
    prompt = f"<hook_context>{ours}</hook_context>\n\nHow do I deploy the staging build?"
    context = _context(store, prompt, agent=agent) or ""
    assert "release branch" in context
    assert "docker compose" not in context


def test_a_prompt_finds_keys_by_its_words_as_typed_however_the_terms_are_cut(env: HookEnv) -> None:
    # the terms are "pric" and "logg"; the index stems "pricing" to "price" and "logging" to "log"
    rule = "From now on, never mix pricing and logging code in one module."
    t = env.tmp / "transcripts"
    env.ingest(claude_transcript(t / "s1.jsonl", "s1", env.root, [("2025-09-01T10:00:00Z", rule)]))
    context = _context(env, "Is the pricing page still logging twice?")  # no other word in common
    assert context is not None and "never mix pricing and logging code" in context
