"""Prompt recall of identifier-specific rules, through the hook command agents run.

A store holds one-off rules naming different files ("Never edit src/cart/v3/handlers.py by
hand."), each said once in its own session and read by the real ingest; optionally on top of
a synthetic store of about N atoms (``bench.stores.build``). The last sessions add a general
rule about the same kind of edit and its contradiction, so one recent, broadly matching claim
is contested, as in a store that has lived a while. Prompts then ask about one file each
("Can I edit src/cart/v3/handlers.py by hand?") through ``python -I -S
agent_memory/run_hook.py user-prompt-submit --agent claude``; a prompt counts when the first
line the hook injects is the rule about that very file.

Run ``python -m bench.recall_identifiers [--background N] [--prompts K]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.measure import environ_restored  # noqa: E402

MODULES = ("cart", "billing", "auth", "search", "orders", "users", "catalog", "shipping", "payments", "reports",
           "inventory", "notify", "admin", "export", "import", "sessions", "pricing", "reviews", "coupons", "media",
           "audit", "tax", "gateway", "checkout")
FILES = ("handlers", "models", "views", "api", "utils", "schema", "tasks", "forms", "serializers", "client")
START = datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc)
GENERAL = ("Never edit the generated files under src by hand.",
           "Always edit the generated files under src by hand when the generator is broken.")


def rule_paths(count: int, seed: int = 11) -> list[str]:
    """``count`` different file paths, ``src/<module>/v<n>/<file>.py``: neighbours share module, version or file name."""
    rng = random.Random(seed)
    every = [f"src/{m}/v{v}/{f}.py" for m in MODULES for f in FILES for v in (1, 2, 3)]
    rng.shuffle(every)
    return every[:count]


def _record(session: str, line: int, stamp: str, role: str, text: str) -> dict[str, Any]:
    base = {"sessionId": session, "uuid": f"{session}-{line}", "timestamp": stamp, "cwd": "/project"}
    if role == "user":
        return {**base, "type": "user", "message": {"role": "user", "content": text}}
    return {**base, "type": "assistant", "message": {"id": f"m-{session}-{line}", "role": "assistant", "model": "bench",
                                                     "content": [{"type": "text", "text": text}]}}


def write_sessions(folder: Path, paths: list[str]) -> datetime:
    """One Claude Code transcript per rule (then the general rule and its contradiction); returns the last time."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = [f"Never edit {p} by hand." for p in paths] + list(GENERAL)
    moment = START
    for i, text in enumerate(texts):
        moment = START + timedelta(hours=12 * i)
        session = f"rule-{i:05d}"
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        lines = [_record(session, 1, stamp, "user", text), _record(session, 2, stamp, "assistant", "Understood.")]
        (folder / f"{session}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return moment


def hook_command() -> list[str]:
    """What ``agent-memory install`` writes for Claude Code's UserPromptSubmit."""
    from agent_memory.launcher import hook_command as installed

    return shlex.split(installed("claude", "user-prompt-submit"))


def first_line(context: str) -> str:
    """The first recalled rule in the hook's context ("" when none)."""
    for line in context.splitlines():
        if line.startswith("- "):
            return line[2:]
    return ""


def ask(project: Path, prompt: str, env: dict[str, str]) -> str:
    """The context the installed hook injects for ``prompt``."""
    body = {"session_id": "bench-live", "transcript_path": str(project / "live.jsonl"), "cwd": str(project),
            "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    done = subprocess.run(hook_command(), input=json.dumps(body).encode(), capture_output=True, cwd=str(project),
                          env=env, timeout=120)
    if not done.stdout.strip():
        return ""
    found = json.loads(done.stdout)
    return str(found.get("hookSpecificOutput", {}).get("additionalContext", ""))


def evaluate(rules: int = 240, prompts: int = 25, background: int = 0, work: Path | None = None,
             seed: int = 11) -> dict[str, Any]:
    """Share of identifier prompts whose first recalled rule is the one about the file asked."""
    own = tempfile.TemporaryDirectory(prefix="idents-") if work is None else None
    root = Path(own.name) if own else Path(work)  # type: ignore[arg-type]
    try:
        env = _sandbox(root)
        project, build_seconds = _store(root, rules, background, env)
        from agent_memory.store import Paths

        paths = Paths(store=project / ".memory", user=Path(env["AGENT_MEMORY_HOME"]), project_root=project)
        asked = random.Random(seed + 1).sample(rule_paths(rules, seed), min(prompts, rules))
        results = []
        for path in asked:
            context = ask(project, f"Can I edit {path} by hand?", env)
            top = first_line(context)
            results.append({"path": path, "first": top[:120], "hit": f" {path} " in f" {top} "})
        hits = sum(r["hit"] for r in results)
        with open(paths.atoms, "rb") as handle:
            atoms = sum(1 for _ in handle)
        return {
            "rules": rules,
            "background_target": background,
            "atoms": atoms,
            "contested": len(json.loads(paths.contested.read_text(encoding="utf-8"))) if paths.contested.exists() else 0,
            "prompts": len(results),
            "first_is_the_file_asked": hits,
            "share": round(hits / max(len(results), 1), 4),
            "build_seconds": round(build_seconds, 1),
            "misses": [r for r in results if not r["hit"]][:5],
        }
    finally:
        if own:
            own.cleanup()


def _sandbox(root: Path) -> dict[str, str]:
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env.update(HOME=str(home), AGENT_MEMORY_HOME=str(home / ".agent-memory"))
    return env


def _store(root: Path, rules: int, background: int, env: dict[str, str]) -> tuple[Path, float]:
    """The project with its store: a synthetic one of ``background`` atoms (or none), then the rules on top."""
    started = time.perf_counter()
    with environ_restored("HOME", "AGENT_MEMORY_HOME", "AGENT_MEMORY_NOW"):
        os.environ.update(HOME=env["HOME"], AGENT_MEMORY_HOME=env["AGENT_MEMORY_HOME"])
        if background:
            from bench import stores

            os.environ["AGENT_MEMORY_NOW"] = "2026-02-24T00:00:00Z"
            project = stores.build(root / "background", background, env={**env, "AGENT_MEMORY_NOW": "2026-02-24T00:00:00Z"},
                                   reuse=True).project
        else:
            project = root / "project"
            (project / ".git").mkdir(parents=True, exist_ok=True)
        last = write_sessions(root / f"rules-{rules}", rule_paths(rules))
        now = (last + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        os.environ["AGENT_MEMORY_NOW"] = now
        env["AGENT_MEMORY_NOW"] = now
        from agent_memory.ingest import ingest
        from agent_memory.promote import stage
        from agent_memory.store import Paths

        paths = Paths.resolve(cwd=str(project))
        report = ingest(paths, [str(root / f"rules-{rules}")], agent="claude")
        if report.errors:
            raise RuntimeError(f"ingest failed: {report.errors[:3]}")
        stage(paths)  # finds the contradiction and copies the contested keys into the index
    return project, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", type=int, default=240)
    parser.add_argument("--prompts", type=int, default=25)
    parser.add_argument("--background", type=int, default=0, help="atoms of a synthetic store under the rules")
    parser.add_argument("--workdir", help="keep (and reuse) the built stores here")
    args = parser.parse_args(argv)
    work = Path(args.workdir) if args.workdir else None
    found = evaluate(args.rules, args.prompts, args.background, work)
    print(json.dumps(found, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
