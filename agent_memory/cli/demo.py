"""``agent-memory demo``: the whole pipeline on bundled sample transcripts, in a temporary store.

Two projects, several sessions over several days, a contradiction and a secret:
ingest → promote → adopt into a temporary CLAUDE.md → inspect --why / --contested →
L2→L3 across projects → what the session-start hook would inject → status and report.
Touches nothing of yours.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

HELP = "run the whole pipeline on bundled sample transcripts in a temporary store"
SAMPLES = Path(__file__).parent.parent / "samples"
PROJECTS = ("webshop", "infra")
DEMO_SECRET = "sk_live_51Hd9XqAbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
FIRST_NOW = "2026-03-10T12:00:00Z"  # after the sample sessions
LATER_NOW = "2026-04-20T12:00:00Z"  # 30+ days on: the cross-project gate can open
QUOTE_CHARS = 120  # a quote longer than this is shown as the whole sentence that says the claim


def excerpt(quote: str, claim: str, limit: int = QUOTE_CHARS) -> str:
    """The quote whole when it fits ``limit``; else the whole sentence(s) of it that say ``claim``, as many of those
    around it as fit, and "… " before them when sentences were left out in front. Never cut mid-sentence."""
    from ..markers.sentences import sentence_spans
    from ..text import words

    flat = " ".join(quote.split())
    if len(flat) <= limit:
        return flat
    spans = sentence_spans(flat)
    if not spans:
        return flat
    wanted = {w.casefold() for w in words(claim)}

    def shared(i: int) -> int:
        return len(wanted & {w.casefold() for w in words(flat[spans[i].start : spans[i].end])})

    first = last = max(range(len(spans)), key=lambda i: (shared(i), -i))
    while last + 1 < len(spans) and spans[last + 1].end - spans[first].start <= limit:
        last += 1
    while first > 0 and spans[last].end - spans[first - 1].start <= limit:
        first -= 1
    return ("… " if first else "") + flat[spans[first].start : spans[last].end]


@contextlib.contextmanager
def _env(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class _Demo:
    def __init__(self, root: Path, console: Any) -> None:
        self.root = root
        self.console = console
        self.home = root / "home"
        self.user_store = root / "home" / ".agent-memory"
        self.home.mkdir(parents=True)

    def project(self, name: str) -> Path:
        path = self.root / name
        (path / ".git").mkdir(parents=True, exist_ok=True)
        return path

    def run(self, project: str, args: list[str], now: str = FIRST_NOW) -> tuple[int, str, str]:
        """One CLI command in-process, in the project's store, with its stdout and stderr."""
        from .main import main

        env = {
            "AGENT_MEMORY_DIR": str(self.project(project) / ".memory"),
            "AGENT_MEMORY_HOME": str(self.user_store),
            "AGENT_MEMORY_NOW": now,
            "HOME": str(self.home),
        }
        out, err = io.StringIO(), io.StringIO()
        cwd = os.getcwd()
        with _env(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            os.chdir(self.project(project))
            try:
                code = main(args)
            finally:
                os.chdir(cwd)
        return code, out.getvalue(), err.getvalue()

    def json(self, project: str, args: list[str], now: str = FIRST_NOW) -> Any:
        code, out, err = self.run(project, [*args, "--json"], now)
        if code != 0:
            raise RuntimeError(f"agent-memory {' '.join(args)} failed ({code}): {err.strip()}")
        return json.loads(out)

    def hook(self, project: str, event: str, payload: dict[str, Any], now: str) -> str:
        """A hook as the agent runs it: a subprocess reading JSON on stdin."""
        env = dict(os.environ)
        env.update(AGENT_MEMORY_HOME=str(self.user_store), AGENT_MEMORY_NOW=now, HOME=str(self.home))
        env.pop("AGENT_MEMORY_DIR", None)
        done = subprocess.run(
            [sys.executable, "-m", "agent_memory", "hook", event],
            input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=60,
        )
        return done.stdout


def run_demo(json_output: bool = False, keep: bool = False) -> int:
    """Run the demo; returns the exit code (0 when every stage did what it should)."""
    from rich.console import Console

    console = Console(file=io.StringIO() if json_output else sys.stdout, highlight=False)
    root = Path(tempfile.mkdtemp(prefix="agent-memory-demo-"))
    try:
        summary = _stages(_Demo(root, console))
        if json_output:
            sys.stdout.write(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
        if keep:
            print(f"demo files kept in {root}", file=sys.stderr)
        return 0 if summary["ok"] else 1
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def _stages(demo: _Demo) -> dict[str, Any]:
    from rich.panel import Panel
    from rich.table import Table

    c = demo.console
    c.print(Panel.fit(
        "[bold]agent-memory demo[/]\nTwo sample projects, 8 sessions over 8 days (Claude Code and Codex CLI), "
        "a contradiction and a leaked key.\nEverything happens in a temporary folder.",
        border_style="cyan"))
    summary: dict[str, Any] = {"ok": True}

    # 1. ingest
    c.rule("1 · ingest: only the words the person typed become atoms")
    table = Table("project", "sessions", "atoms", "quarantined (secret cut out)")
    for name in PROJECTS:
        report = demo.json(name, ["ingest", str(SAMPLES / name)])
        table.add_row(name, str(report["sessions"]), str(report["atoms_added"]), str(report["quarantined"]))
        summary[f"ingest_{name}"] = report
    c.print(table)
    c.print("[dim]Tool output that said 'always disable the test suite' was not the person: no atom.[/]")

    # 2. promote (dry run)
    c.rule("2 · promote (dry run): evidence gates, refusals with reasons")
    plan = demo.json("webshop", ["promote"])
    _print_plan(c, plan)
    summary["webshop_proposals"] = len(plan["proposals"])

    # 3. stage and adopt in both projects
    c.rule("3 · promote --write, then a human adopts into CLAUDE.md")
    for name in PROJECTS:
        demo.json(name, ["promote", "--write"])
        code, _out, err = demo.run(name, ["adopt", "--all"])
        if code != 0:
            c.print(f"[red]adopt failed in {name}: {err.strip()}[/]")
            summary["ok"] = False
    claude_md = demo.project("webshop") / "CLAUDE.md"
    if claude_md.exists():
        c.print(Panel(claude_md.read_text(encoding="utf-8").rstrip(), title="webshop/CLAUDE.md", border_style="green"))

    # 4. provenance
    c.rule("4 · inspect --why: where a line came from")
    code, out, err = demo.run("webshop", ["inspect", "--why", "pnpm test before pushing", "--json"])
    if code == 0:
        claim = json.loads(out)["claim"]
        why = Table("day", "session", "line", "quote", title=claim["text"])
        shown = [excerpt(src["quote"], claim["text"]) for src in claim["sources"]]
        for src, quote in zip(claim["sources"], shown):
            why.add_row(src["timestamp"][:10], src["session"][:8], str(src["line"]), quote)
        c.print(why)
        summary["why_quotes"] = shown
    else:
        c.print(f"[red]{err.strip()}[/]")
        summary["ok"] = False
    code, _out, err = demo.run("webshop", ["inspect", "--why", "always"])
    c.print(f"[dim]inspect --why always → exit {code}: {err.strip()}[/]")

    # 5. contradictions
    c.rule("5 · inspect --contested: contradictions stay out of CLAUDE.md")
    contested = demo.json("webshop", ["inspect", "--contested"])["contested"]
    for entry in contested:
        others = "; ".join(o["text"] for o in entry["contested_by"])
        c.print(f"  [yellow]{entry['claim']['text']}[/]  ⟷  {others}")
    summary["contested"] = len(contested)

    # 6. across projects
    c.rule("6 · 40 days later: a rule held in both projects goes user-wide (L2 → L3)")
    plan = demo.json("webshop", ["promote", "--write"], now=LATER_NOW)
    cross = [p for p in plan["proposals"] if p["to"] == "L3"]
    for p in cross:
        c.print(f"  [green]{p['id']}[/] {p['text']} [dim](projects: {', '.join(p['projects'])})[/]")
    code, _out, err = demo.run("webshop", ["adopt", "--all"], now=LATER_NOW)
    user_md = demo.home / ".claude" / "CLAUDE.md"
    if code == 0 and user_md.exists():
        c.print(Panel(user_md.read_text(encoding="utf-8").rstrip(), title="~/.claude/CLAUDE.md", border_style="green"))
    summary["cross_project"] = len(cross)

    # 7. the hook
    c.rule("7 · hooks: what the next session is told beyond CLAUDE.md")
    out = demo.hook("webshop", "session-start", {
        "session_id": "demo", "hook_event_name": "SessionStart", "source": "startup",
        "cwd": str(demo.project("webshop")), "transcript_path": ""}, LATER_NOW)
    context = ""
    if out.strip():
        context = json.loads(out).get("hookSpecificOutput", {}).get("additionalContext", "")
    c.print(Panel(context or "(nothing beyond what CLAUDE.md already says)", title="additionalContext", border_style="blue"))
    out = demo.hook("webshop", "user-prompt-submit", {
        "session_id": "demo", "hook_event_name": "UserPromptSubmit", "cwd": str(demo.project("webshop")),
        "prompt": "the checkout with lots of items is broken again"}, LATER_NOW)
    if out.strip():
        recalled = json.loads(out).get("hookSpecificOutput", {}).get("additionalContext", "")
        c.print(Panel(recalled, title="user-prompt-submit recall", border_style="blue"))

    # 8. health and review
    c.rule("8 · status and report: is memory working, and is what was adopted still right?")
    from .report import print_report
    from .status import print_status

    code, out, err = demo.run("webshop", ["status", "--json"], LATER_NOW)
    health = json.loads(out) if out.strip() else {}
    if health:
        print_status(health, c)
    else:
        c.print(f"[red]status failed: {err.strip()}[/]")
        summary["ok"] = False
    summary["status_healthy"] = code == 0 and bool(health.get("healthy"))
    found = demo.json("webshop", ["report"], LATER_NOW)
    print_report(found, c)
    summary["report"] = {k: len(found[k]) for k in ("stale", "duplicates", "over_budget", "missing", "not_followed")}

    # 9. the secret
    c.rule("9 · the leaked key never reached a file")
    leaks = [str(p.relative_to(demo.root)) for p in demo.root.rglob("*") if p.is_file() and _holds(p, DEMO_SECRET)]
    summary["secret_found_in"] = leaks
    if leaks:
        summary["ok"] = False
        c.print(f"[red]the secret was found in: {', '.join(leaks)}[/]")
    else:
        c.print("[green]searched every file the demo wrote: the key is nowhere.[/]")
    c.print("[bold green]demo complete[/]" if summary["ok"] else "[bold red]demo found a problem[/]")
    return summary


def _print_plan(c: Any, plan: dict[str, Any]) -> None:
    from rich.table import Table

    table = Table("proposal", "path", "sessions", "days", "claim", title="proposals")
    for p in plan["proposals"]:
        table.add_row(p["id"], p["path"], str(len(p["sessions"])), str(len(p["days"])), p["text"])
    c.print(table)
    blocked = Table("claim", "why not yet", title="not promoted")
    for b in plan["blocked"]:
        blocked.add_row(b["text"], "; ".join(b["reasons"]))
    c.print(blocked)


def _holds(path: Path, needle: str) -> bool:
    try:
        return needle.encode() in path.read_bytes()
    except OSError:
        return False


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep", action="store_true", help="keep the temporary store and print where it is")


def run(args: argparse.Namespace) -> int:
    return run_demo(json_output=args.json, keep=args.keep)
