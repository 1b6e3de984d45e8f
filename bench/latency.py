"""Hook latency: the hooks as an agent runs them, against a bare interpreter start, at each store size."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Callable, Sequence

from . import synth
from .measure import Command, Outcome, Samples, interleaved
from .profiling import import_times, profile_command
from .report import Section, ratio, secs
from .stores import Store

GOAL = 3.0  # hook median ≤ 3 × ``python -I -S -c pass`` at the largest store
PROMPTS = (
    "The checkout tests are failing again after the pricing change, can you run pytest -q and fix them?",
    "Add a retry with backoff around the postgres client in the billing worker.",
    "Why does the e2e job keep failing on macOS? Check the last CI logs.",
    "Please open a PR for the search refactor and make sure lint passes first.",
    "checkoutのテストが落ちている原因を調べてください。",
)
BASELINE = "python -I -S -c pass"


def console_script() -> str:
    """The ``agent-memory`` console script installed next to this interpreter."""
    folder = Path(sys.executable).parent
    for name in ("agent-memory", "agent-memory.exe"):
        if (folder / name).exists():
            return str(folder / name)
    return "agent-memory"


def _payload(store: Store, event: str, prompt: str = "") -> bytes:
    session = synth.new_session_id(len(prompt) + store.target)
    # the live session's transcript sits among the project's past sessions, as Claude Code keeps them
    folder = next(iter(sorted(p for p in store.history.iterdir() if p.is_dir())), store.history)
    body: dict[str, object] = {
        "session_id": session,
        "transcript_path": str(folder / f"{session}.jsonl"),
        "cwd": str(store.project),
        "permission_mode": "default",
    }
    if event == "user-prompt-submit":
        body.update(hook_event_name="UserPromptSubmit", prompt=prompt)
    else:
        body.update(hook_event_name="SessionStart", source="startup")
    return json.dumps(body).encode("utf-8")


def _prompted(argv: list[str], store: Store, env: dict[str, str], cwd: str) -> Callable[[int], Command]:
    """user-prompt-submit with the i-th prompt."""

    def make(i: int) -> Command:
        stdin = _payload(store, "user-prompt-submit", PROMPTS[i % len(PROMPTS)])
        return Command(argv, stdin=stdin, env=env, cwd=cwd)

    return make


def installed(event: str) -> list[str]:
    """The command ``agent-memory install`` writes into an agent's settings for ``event``."""
    from agent_memory.launcher import hook_command

    return shlex.split(hook_command("claude", event))


INSTALLED = "installed hook"  # the goal is measured on what agents really run


def _commands(store: Store) -> dict[str, Command | Callable[[int], Command]]:
    env = dict(os.environ)
    cwd = str(store.project)
    script = console_script()
    found: dict[str, Command | Callable[[int], Command]] = {
        BASELINE: Command([sys.executable, "-I", "-S", "-c", "pass"], env=env, cwd=cwd)
    }
    for event in ("user-prompt-submit", "session-start"):
        forms = ((INSTALLED, installed(event)), ("agent-memory hook", [script, "hook", event]),
                 ("python -m agent_memory hook", [sys.executable, "-m", "agent_memory", "hook", event]))
        for label, argv in forms:
            name = f"{label} {event}"
            if event == "user-prompt-submit":
                found[name] = _prompted(argv, store, env, cwd)
            else:
                found[name] = Command(argv, stdin=_payload(store, event), env=env, cwd=cwd)
    return found


def _valid(outcome: Outcome) -> tuple[bool, int]:
    """Whether a hook's output is what an agent accepts, and how many characters of context it carried."""
    if outcome.returncode != 0:
        return False, 0
    text = outcome.stdout.decode("utf-8", "replace").strip()
    if not text:
        return True, 0
    try:
        found = json.loads(text)
    except ValueError:
        return False, 0
    context = found.get("hookSpecificOutput", {}).get("additionalContext", "") if isinstance(found, dict) else ""
    return True, len(context)


def run(stores: Sequence[Store], reps: int, profile: bool = True) -> Section:
    """Median wall time of each hook per store size, as a multiple of the bare interpreter's."""
    section = Section("hooks", "1. Hook latency")
    section.say(
        f"Each hook runs as a new process with realistic hook JSON on stdin, in the project folder, as Claude Code "
        f"runs it: the command `agent-memory install` writes (this interpreter with `-I -S` and the package's "
        f"`run_hook.py`; the goal is measured on it), and for comparison the `agent-memory` console script and "
        f"`python -m agent_memory`. Baseline: `{BASELINE}`, timed in the same round-robin. Medians of {reps} runs "
        f"after one warm-up; user-prompt-submit cycles through {len(PROMPTS)} prompts. Every process runs with "
        f"cached bytecode, as after `pip install` (the warm-up writes it). Goal: ≤ {GOAL:.0f}× the baseline at the "
        f"largest store. *CPU × baseline* is the same ratio of user + system time: on a busy machine, where the wall "
        f"times of a run wander, it is the steadier of the two.",
        "",
    )
    rows = []
    worst: dict[str, float] = {}
    largest = stores[-1] if stores else None
    for store in stores:
        commands = _commands(store)
        context: dict[str, int] = {}
        failures: dict[str, int] = {}

        def check(name: str, outcome: Outcome) -> None:
            if name == BASELINE:
                return
            ok, chars = _valid(outcome)
            context[name] = chars
            if not ok:
                failures[name] = failures.get(name, 0) + 1

        cpu: dict[str, Samples] = {}
        samples = interleaved(commands, reps, warmup=1, after=check, cpu=cpu)
        base, cpu_base = samples[BASELINE].median, cpu[BASELINE].median
        for name, found in samples.items():
            if name == BASELINE:
                rows.append((f"{store.atoms:,}", name, secs(found.median), "1.00×", "1.00×", "", ""))
                continue
            r = found.median / base
            rows.append((f"{store.atoms:,}", name, secs(found.median), ratio(r), ratio(cpu[name].median / cpu_base),
                         f"{context.get(name, 0):,}", str(failures.get(name, 0))))
            if store is largest:
                worst[name] = r
    section.table(("L1 atoms", "command", "median", "× baseline", "CPU × baseline", "context chars", "bad outputs"), rows)
    if largest is not None:
        for name, r in worst.items():
            if name.startswith(INSTALLED):
                event = name.rsplit(" ", 1)[-1]
                section.goal(f"hook {event} at {largest.atoms:,} atoms (installed command)", ratio(r), f"≤ {GOAL:.0f}×",
                             r <= GOAL)
        missed = [n for n, r in worst.items() if r > GOAL and n.startswith(INSTALLED)]
        if profile and missed:
            section.profiles.append(_profile(largest, missed))
    return section


def _profile(store: Store, missed: list[str]) -> str:
    lines = [f"### Hooks at {store.atoms:,} atoms", ""]
    env = dict(os.environ)
    for name in missed:
        event = name.rsplit(" ", 1)[-1]
        stdin = _payload(store, event, PROMPTS[0])
        argv = installed(event)
        seconds, imports = import_times(argv, stdin, env, str(store.project))
        lines += [f"`{INSTALLED} {event}` under `-X importtime`: {seconds * 1000:.0f} ms importing.", "", *imports, ""]
        lines += [f"`{INSTALLED} {event}` under cProfile:", "", *profile_command(argv, stdin, env, str(store.project)), ""]
    return "\n".join(lines)
