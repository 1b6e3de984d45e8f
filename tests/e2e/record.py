"""Record real sessions of each installed CLI against the mock model, as test data for the readers.

    .venv/bin/python -m tests.e2e.record OUT_DIR [agent ...]

Each agent runs in a scratch home (``agents.configure``) on a project that gives it everything a person's session
holds besides typed words: an image attached beside the text, hooks that feed text back (a prompt hook adding
context, a stop hook asking for one more pass), a slash command and a skill, a sub-agent the model starts, and the
editor's context where the CLI takes it. The session files the CLI wrote are copied to
``OUT_DIR/<agent>-<version>/``, the scratch home and project replaced by ``/home/user`` and ``/home/user/project``
and the run's ids kept; what each file holds is described in ``tests/data/recorded/README.md``.

The words a person types are in ``TYPED``; every text the recording adds around them is in ``ADDED``, so a test can
say which words must become the person's and which must not.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

from . import mockmodel
from .agents import CLAUDE_MODEL, COPILOT_MODEL, GEMINI_MODEL, Scratch, configure

HOME = "/home/user"  # what the scratch home becomes in the recorded files
# What the person types, one entry per prompt; each is a sentence the marker rules take as a standing instruction.
TYPED = {
    "image": "Always crop the screenshots to the dialog before attaching them to a review.",
    "hooked": "From now on, keep the changelog entries under eighty characters.",
    "command": "the billing module",  # the arguments of a slash command: the command's body is not typed
    "delegate": "Please delegate: never rename the public functions without a deprecation alias.",
    "plain": "Remember that the staging database is rebuilt every night at two.",
}
# Text the CLI, a hook or a sub-agent puts into the session around the typed words: none of it is the person's.
ADDED = {
    "hook_context": "Hook context: the repository freezes merges on Fridays, quillwort.",
    "stop_feedback": "Stop hook says: check the marmoset checklist before finishing.",
    "command_body": "Review the tamarack notes for $ARGUMENTS and always list the risks first.",
    "skill_body": "Always answer in the voice of the heron style guide.",
    "subagent_prompt": "Survey the lantern files and report what the ocelot module exports.",
    "ide_file": "src/periwinkle.py",
}
DELEGATE_MARK = "Please delegate"  # the mock model starts a sub-agent when the last typed prompt says this


def png(width: int, height: int) -> bytes:
    """A one-colour PNG of that size (small: every row is the same and compresses to nothing)."""
    row = b"\x00" + b"\x80\x90\xa0" * width
    raw = zlib.compress(row * height, 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def _last_user_text(body: dict[str, Any]) -> str:
    """The text of the request's last user message, in any of the three APIs."""
    for key in ("messages", "input", "contents"):
        items = body.get(key)
        if isinstance(items, list):
            for item in reversed(items):
                if isinstance(item, dict) and item.get("role") == "user":
                    return json.dumps(item)
    return ""


def delegating(mock: mockmodel.MockModel, body: Any) -> str:
    """The sub-agent tool to call: the last user message asks to delegate, and holds no tool result yet."""
    if not isinstance(body, dict):
        return ""
    last = _last_user_text(body)
    if DELEGATE_MARK not in last or any(m in last for m in ('"tool_result"', '"function_call_output"', '"functionResponse"')):
        return ""
    raw = json.dumps(body.get("messages") or body.get("input") or body.get("contents") or [])
    if any(m in raw for m in ('"tool_result"', '"function_call_output"', '"functionResponse"')):
        return ""
    for name in mockmodel.offered_tools(body):
        if name.split(".")[-1] in ("Task", "Agent", "task", "spawn_agent", "codebase_investigator", "delegate_to_agent"):
            mock.tool_call = (name, SUBAGENT_ARGS.get(name.split(".")[-1], {}))
            return name
    return ""


SUBAGENT_ARGS = {
    "Task": {"description": "Survey files", "prompt": ADDED["subagent_prompt"], "subagent_type": "general-purpose"},
    "Agent": {"description": "Survey files", "prompt": ADDED["subagent_prompt"], "subagent_type": "general-purpose"},
    "task": {"name": "survey", "description": "Survey files", "prompt": ADDED["subagent_prompt"], "agent_type": "explore"},
    "spawn_agent": {"message": ADDED["subagent_prompt"]},
    "codebase_investigator": {"objective": ADDED["subagent_prompt"]},
    "delegate_to_agent": {"agent_name": "codebase_investigator", "objective": ADDED["subagent_prompt"]},
}


def _hook_script(project: Path, name: str, source: str) -> str:
    path = project / ".hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    return f"{sys.executable} {path}"


PROMPT_HOOK = f"""import json, sys
event = json.load(sys.stdin)
print(json.dumps({{"hookSpecificOutput": {{"hookEventName": event.get("hook_event_name") or "UserPromptSubmit",
                  "additionalContext": {ADDED["hook_context"]!r}}}}}))
"""
# Copilot CLI takes a bare additionalContext
COPILOT_PROMPT_HOOK = f"""import json, sys
json.load(sys.stdin)
print(json.dumps({{"additionalContext": {ADDED["hook_context"]!r}}}))
"""
# asks for one more pass once: a stop hook that blocks every time would never let the run end
STOP_HOOK = f"""import json, sys
event = json.load(sys.stdin)
if event.get("stop_hook_active"):
    sys.exit(0)
print(json.dumps({{"decision": "block", "reason": {ADDED["stop_feedback"]!r}}}))
"""


def run(argv: list[str], scratch: Scratch, env: dict[str, str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=str(scratch.project), env=env, capture_output=True, text=True, timeout=240,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)
    if done.returncode != 0:
        print(f"{argv[0]} exited {done.returncode}:\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}", file=sys.stderr)
    return done


def record_claude(scratch: Scratch, env: dict[str, str]) -> Path:
    project = scratch.project
    claude_dir = project / ".claude"
    (claude_dir / "commands").mkdir(parents=True)
    (claude_dir / "commands" / "review-notes.md").write_text(
        "---\ndescription: Review notes\n---\n" + ADDED["command_body"] + "\n", encoding="utf-8")
    _skill(claude_dir / "skills")
    prompt_hook = _hook_script(project, "prompt.py", PROMPT_HOOK)
    stop_hook = _hook_script(project, "stop.py", STOP_HOOK)
    settings = {"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": prompt_hook}]}],
        "Stop": [{"hooks": [{"type": "command", "command": stop_hook}]}],
    }, "permissions": {"allow": ["Task", "Agent", "Skill", "Read"]}}
    (claude_dir / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    image = png(2629, 2334)
    (project / "shot.png").write_bytes(image)
    session = "0c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e"
    base = ["claude", "--model", CLAUDE_MODEL, "--session-id", session]
    # the image beside typed text, as a client sends it: one user message of two blocks
    message = {"type": "user", "message": {"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": base64.b64encode(image).decode()}},
        {"type": "text", "text": TYPED["image"]}]}}
    run([*base, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"], scratch, env,
        stdin=json.dumps(message) + "\n")
    resume = ["claude", "--model", CLAUDE_MODEL, "--resume", session]
    for prompt in (TYPED["hooked"], "/review-notes " + TYPED["command"], TYPED["delegate"], f"@shot.png {TYPED['plain']}"):
        run([*resume, "-p", prompt, "--output-format", "json"], scratch, env)
    return scratch.home / ".claude" / "projects"


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    wanted = argv[1:] or ["claude", "codex", "gemini", "copilot"]
    mockmodel.wanted_tool = delegating  # the mock calls the sub-agent tool instead of a memory tool
    model = mockmodel.start()
    proxy, proxy_url = mockmodel.refusing_proxy()
    try:
        for agent in wanted:
            with tempfile.TemporaryDirectory() as tmp:
                root = Path(tmp)
                home, project = root / "home", root / "home" / "project"
                project.mkdir(parents=True)
                (home / "tmp").mkdir()
                subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True, timeout=60)
                scratch = Scratch(home, project, model.url, proxy_url, root / "exits.log", Path(sys.executable).parent)
                env = configure(scratch, agent)
                version = subprocess.run([agent, "--version"], capture_output=True, text=True, env=env).stdout
                version = next((w for w in version.replace("codex-cli", "").split() if w[:1].isdigit()), "unknown").rstrip(".")
                found = RECORDERS[agent](scratch, env)
                target = out / f"{agent}-{version}"
                copy_scrubbed(found, target, home)
                print(f"{agent} {version}: {sorted(str(p.relative_to(target)) for p in target.rglob('*') if p.is_file())}")
    finally:
        model.close()
        proxy.shutdown()
    return 0


LONG = 1500  # a string longer than this (an image's bytes, a system prompt) is cut to its start in the copy
TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNoaGgAAAMEAYFL09IQAAAAAElFTkSuQmCC"


def _shrunk(value: Any) -> Any:
    """``value`` with every long string cut: base64 becomes a one-pixel PNG, text its first lines and a mark."""
    if isinstance(value, str) and len(value) > LONG:
        if " " not in value[:200] and "\n" not in value[:200]:
            return TINY_PNG
        return value[:400] + " [cut for the recording]"
    if isinstance(value, dict):
        return {key: _shrunk(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shrunk(item) for item in value[:12]]  # (a tool list or a schema: its first entries show its shape)
    return value


def _shrink_line(line: str) -> str:
    """A JSONL line with its long strings cut, written back as the CLIs write theirs (compact, UTF-8 as it is)."""
    if len(line) <= LONG:
        return line
    try:
        value = json.loads(line)
    except ValueError:
        return line
    return json.dumps(_shrunk(value), ensure_ascii=False, separators=(",", ":"))


def copy_scrubbed(found: Path, target: Path, home: Path) -> None:
    """Every session file under ``found``, the scratch home written as ``HOME`` (also where JSON escapes it, and in
    the folder names agents derive from a path), this interpreter as ``python3``, long strings cut."""
    import re

    if target.exists():
        shutil.rmtree(target)
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(home))
    pairs = [(sys.executable, "python3"), (str(home), HOME), (json.dumps(str(home))[1:-1], HOME),
             (os.path.realpath(home), HOME), (slug, HOME.replace("/", "-"))]
    for path in sorted(found.rglob("*")):
        if not path.is_file() or path.suffix not in (".jsonl", ".json"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".jsonl" or text.count("\n") > 1 and not text.lstrip().startswith("{\n"):
            text = "".join(_shrink_line(line[:-1] if line.endswith("\n") else line) + ("\n" if line.endswith("\n") else "")
                           for line in text.splitlines(keepends=True))
        else:
            try:
                text = json.dumps(_shrunk(json.loads(text)), ensure_ascii=False, indent=2)
            except ValueError:
                pass
        for old, new in pairs:
            text = text.replace(old, new)
        relative = Path(str(path.relative_to(found)).replace(slug, HOME.replace("/", "-")).replace(str(home), HOME))
        dest = target / relative
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")


def _skill(folder: Path) -> None:
    (folder / "heron").mkdir(parents=True)
    (folder / "heron" / "SKILL.md").write_text(
        "---\nname: heron\ndescription: The heron style guide\n---\n" + ADDED["skill_body"] + "\n", encoding="utf-8")


def _claude_style_hooks(project: Path, prompt_event: str, stop_event: str) -> dict[str, Any]:
    return {prompt_event: [{"hooks": [{"type": "command", "command": _hook_script(project, "prompt.py", PROMPT_HOOK)}]}],
            stop_event: [{"hooks": [{"type": "command", "command": _hook_script(project, "stop.py", STOP_HOOK)}]}]}


def record_codex(scratch: Scratch, env: dict[str, str]) -> Path:
    from .agents import trust_codex_hooks

    project = scratch.project
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(
        json.dumps({"hooks": _claude_style_hooks(project, "UserPromptSubmit", "Stop")}), encoding="utf-8")
    _skill(project / ".agents" / "skills")
    prompts = scratch.home / ".codex" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / "review-notes.md").write_text(ADDED["command_body"] + "\n", encoding="utf-8")
    with open(scratch.home / ".codex" / "config.toml", "a", encoding="utf-8") as handle:
        handle.write("\n[features]\nmulti_agent = true\n")
    trust_codex_hooks(scratch, env)
    (project / "shot.png").write_bytes(png(2629, 2334))
    first = run(["codex", "exec", "--json", "-i", "shot.png", "--", TYPED["image"]], scratch, env)
    thread = next((json.loads(line).get("thread_id") for line in first.stdout.splitlines()
                   if '"thread.started"' in line), None)
    for prompt in (TYPED["hooked"], "/prompts:review-notes " + TYPED["command"], "$heron " + TYPED["plain"],
                   TYPED["delegate"]):
        argv = ["codex", "exec", "--json", "resume", thread, prompt] if thread else ["codex", "exec", "--json", prompt]
        run(argv, scratch, env)
    return scratch.home / ".codex" / "sessions"


def record_gemini(scratch: Scratch, env: dict[str, str]) -> Path:
    project = scratch.project
    settings_path = scratch.home / ".gemini" / "settings.json"
    settings = json.loads(settings_path.read_text(encoding="utf-8"))
    settings["hooks"] = _claude_style_hooks(project, "BeforeAgent", "AfterAgent")
    settings.setdefault("experimental", {})["enableAgents"] = True
    settings_path.write_text(json.dumps(settings), encoding="utf-8")
    (project / ".gemini" / "commands").mkdir(parents=True)
    (project / ".gemini" / "commands" / "review-notes.toml").write_text(
        'description = "Review notes"\nprompt = """' + ADDED["command_body"].replace("$ARGUMENTS", "{{args}}") + '"""\n',
        encoding="utf-8")
    _skill(project / ".gemini" / "skills")
    (project / "shot.png").write_bytes(png(2629, 2334))
    base = ["gemini", "-m", GEMINI_MODEL, "--output-format", "json", "--yolo"]
    run([*base, "-p", f"@shot.png {TYPED['image']}"], scratch, env)
    for prompt in (TYPED["hooked"], "/review-notes " + TYPED["command"], TYPED["delegate"], TYPED["plain"]):
        run([*base, "--resume", "latest", "-p", prompt], scratch, env)
    return scratch.home / ".gemini" / "tmp"


def record_copilot(scratch: Scratch, env: dict[str, str]) -> Path:
    project = scratch.project
    hooks = {"version": 1, "hooks": {
        "userPromptSubmitted": [{"type": "command", "bash": _hook_script(project, "prompt.py", COPILOT_PROMPT_HOOK),
                                 "timeoutSec": 10}],
        "agentStop": [{"type": "command", "bash": _hook_script(project, "stop.py", STOP_HOOK), "timeoutSec": 10}],
    }}
    (project / ".github" / "hooks").mkdir(parents=True)
    (project / ".github" / "hooks" / "record.json").write_text(json.dumps(hooks), encoding="utf-8")
    _skill(project / ".github" / "skills")
    (project / "shot.png").write_bytes(png(2629, 2334))
    base = ["copilot", "--output-format", "json", "--no-auto-update", "--allow-all-tools"]
    run([*base, "-p", f"@shot.png {TYPED['image']}"], scratch, env)
    for prompt in (TYPED["hooked"], "/heron " + TYPED["command"], TYPED["delegate"], TYPED["plain"]):
        run([*base, "--continue", "-p", prompt], scratch, env)
    return Path(env.get("COPILOT_HOME") or scratch.home / ".copilot") / "session-state"


RECORDERS = {"claude": record_claude, "codex": record_codex, "gemini": record_gemini, "copilot": record_copilot}

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
