"""Put the hooks and the ``/cs-memory`` command into an agent's own config, and take them out again.

| agent | project scope | user scope | events → hook |
|---|---|---|---|
| claude | ``.claude/settings.json`` | ``$CLAUDE_CONFIG_DIR/settings.json`` | SessionStart, UserPromptSubmit, SessionEnd |
| codex | ``.codex/hooks.json`` | ``$CODEX_HOME/hooks.json`` | SessionStart, UserPromptSubmit, SessionEnd (Stop before 0.171) |
| gemini | ``.gemini/settings.json`` | ``$GEMINI_CLI_HOME/.gemini/settings.json`` | SessionStart, BeforeAgent, SessionEnd |

User scope follows each agent's own variable for its home (``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``,
``GEMINI_CLI_HOME``), as the agent itself does; without it, the folder in the home directory.

All three files share one shape: ``{"hooks": {Event: [{"matcher"?, "hooks": [{"type": "command",
"command": …}]}]}}``. Our entries are the ones whose command runs ``agent_memory/run_hook.py`` (or
``-m agent_memory hook``, as earlier versions wrote); nothing
else is ever changed or removed. Before the first change to a file, its exact bytes are kept in
``$AGENT_MEMORY_HOME/backups/install/`` so that ``uninstall`` gives them back byte for byte when
nothing but our entries changed since.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .model import UsageError
from .store import Paths, atomic_write, read_json, write_json

# (agent's event, our hook verb, timeout in the unit the agent uses)
HOOK_EVENTS: dict[str, tuple[tuple[str, str, int], ...]] = {
    # seconds; Claude Code lets SessionEnd hooks run max(1.5 s, min(the largest timeout configured, 60 s))
    # (or $CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS): 5 s is what ours asks
    "claude": (("SessionStart", "session-start", 30), ("UserPromptSubmit", "user-prompt-submit", 10), ("SessionEnd", "session-end", 5)),
    # seconds; Codex clamps a SessionEnd timeout to 3 s; the hook only hands work to a background worker
    "codex": (("SessionStart", "session-start", 30), ("UserPromptSubmit", "user-prompt-submit", 10), ("SessionEnd", "session-end", 3)),
    # milliseconds
    "gemini": (("SessionStart", "session-start", 30000), ("BeforeAgent", "user-prompt-submit", 10000), ("SessionEnd", "session-end", 5000)),
}
# a Codex without SessionEnd: Stop, after every turn (the worker stages only when the turn added evidence)
CODEX_STOP = ("Stop", "session-end", 10)
CODEX_SESSION_END_SINCE = (0, 171, 0)  # the first Codex CLI seen to run SessionEnd hooks

SETTINGS_FILES = {"claude": (".claude", "settings.json"), "codex": (".codex", "hooks.json"), "gemini": (".gemini", "settings.json")}

# ours: ``… -I -S …/agent_memory/run_hook.py VERB``, or ``… -m agent_memory hook VERB`` as earlier versions wrote
_OURS = re.compile(r"(?:^|\s)-m\s+agent_memory\s+hook\s|agent_memory[/\\]run_hook\.py[\'\"]?\s")
_CLI_VERBS = "promote|inspect|adopt|reject|verify|resolve|rollback|search|ingest|reindex|status|report|forget|merge|split"
COMMAND_MARK_TEXT = "written by agent-memory install; agent-memory uninstall removes it"
COMMAND_MARK = f"<!-- {COMMAND_MARK_TEXT} -->"

NOTES = {
    "codex": [
        "Codex runs a new or changed hook only after you trust it: open /hooks in Codex and trust the three agent-memory hooks.",
        "Codex reads a project's .codex/hooks.json only when the project itself is trusted.",
    ],
    "gemini": [
        "Gemini CLI runs a project's hooks only in a folder it trusts (headless in an untrusted folder it exits 55): "
        "trust the folder when Gemini asks, or with /permissions.",
    ],
}


class MalformedSettings(UsageError):
    """An agent's settings file is not a JSON object of the expected shape; nothing was changed."""


@dataclass
class InstallReport:
    """What install or uninstall did, for the person and for ``--json``."""

    agent: str
    scope: str
    settings: Path
    changed: bool = False
    events: list[str] = field(default_factory=list)
    command_file: Path | None = None
    command_changed: bool = False
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "scope": self.scope,
            "settings": str(self.settings),
            "changed": self.changed,
            "events": self.events,
            "command_file": str(self.command_file) if self.command_file else None,
            "command_changed": self.command_changed,
            "notes": self.notes,
        }


# ---------------------------------------------------------------- where


@dataclass(frozen=True)
class Target:
    """The files one (agent, scope) install touches."""

    agent: str
    scope: str
    settings: Path
    commands: Path | None  # the review entry: /cs-memory for Claude Code and Gemini CLI, the $cs-memory skill for Codex
    base: Path  # the project root or the home folder: nothing above it is created or removed


def target_for(agent: str, scope: str, paths: Paths | None = None) -> Target:
    """Where the hooks go for an agent and scope (home from ``Path.home()``, project from ``Paths``)."""
    if agent not in HOOK_EVENTS:
        raise UsageError(f"unknown agent {agent!r}: expected one of {', '.join(HOOK_EVENTS)}")
    folder, name = SETTINGS_FILES[agent]
    if scope == "user":
        from .layout import agent_home

        config = Path(agent_home(agent))
        # nothing above the agent's home folder is created or removed (its parent: the folder itself may be new)
        base = Path.home() if Path.home() in config.parents else config.parent
    elif scope == "project":
        paths = paths or Paths.resolve()
        base = paths.project_root
        config = base / folder
    else:
        raise UsageError(f"unknown scope {scope!r}: expected project or user")
    from .layout import review_entries

    entries = review_entries(agent, str(paths.project_root if paths else Paths.resolve().project_root))
    commands = Path(entries[0][0]) if scope == "project" else Path(entries[1][0])
    return Target(agent, scope, config / name, commands, base)


# ---------------------------------------------------------------- the entries


def hook_command(agent: str, verb: str) -> str:
    """The command an agent runs: this very interpreter and this package's ``run_hook.py``, both absolute.

    ``-I -S``: no site-packages scan, no ``PYTHON*`` variables, no user site; the hook needs
    only the standard library and the script finds the package itself. Independent of PATH
    and cwd.
    """
    from .hooks.worker import worker_script

    return f"{shlex.quote(sys.executable)} -I -S {shlex.quote(worker_script())} {verb} --agent {agent}"


def codex_version() -> tuple[int, ...] | None:
    """The version of the ``codex`` on PATH, None when there is none or it does not say."""
    import shutil
    import subprocess

    found = shutil.which("codex")
    if not found:
        return None
    try:
        done = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.(\d+)\.(\d+)", done.stdout)
    return tuple(int(n) for n in match.groups()) if match else None


def hook_events(agent: str) -> tuple[tuple[str, str, int], ...]:
    """The (event, verb, timeout) entries for ``agent``: for Codex, SessionEnd where it has it, else Stop."""
    if agent != "codex":
        return HOOK_EVENTS[agent]
    version = codex_version()
    if version is not None and version >= CODEX_SESSION_END_SINCE:
        return HOOK_EVENTS[agent]
    return tuple(CODEX_STOP if verb == "session-end" else (e, verb, t) for e, verb, t in HOOK_EVENTS[agent])


def hook_entry(agent: str, verb: str, timeout: int) -> dict[str, Any]:
    """One hook handler in the agent's own format."""
    if agent == "gemini":
        # "name" is how Gemini CLI's /hooks enable|disable refers to a hook
        return {
            "name": f"agent-memory-{verb}",
            "type": "command",
            "command": hook_command(agent, verb),
            "timeout": timeout,
            "description": f"agent-memory {verb}",
        }
    return {"type": "command", "command": hook_command(agent, verb), "timeout": timeout}


def is_ours(handler: Any) -> bool:
    """An entry install wrote (by any interpreter): its command runs ``run_hook.py`` or ``-m agent_memory hook``."""
    return isinstance(handler, dict) and isinstance(handler.get("command"), str) and bool(_OURS.search(handler["command"]))


def merge_hooks(settings: dict[str, Any], agent: str, events: tuple[tuple[str, str, int], ...] | None = None) -> dict[str, Any]:
    """The settings with our three entries in place; an entry of ours already there is updated where it stands.

    An entry of ours under an event no longer used (Codex's Stop once it has SessionEnd) goes.
    """
    events = events or HOOK_EVENTS[agent]
    data = copy.deepcopy(settings)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MalformedSettings('"hooks" is not an object')
    wanted_events = {event for event, _verb, _timeout in events}
    for event in [e for e in hooks if e not in wanted_events]:
        pruned, removed = strip_hooks({"hooks": {event: hooks[event]}})
        if removed:
            if "hooks" in pruned and event in pruned["hooks"]:
                hooks[event] = pruned["hooks"][event]
            else:
                del hooks[event]
    for event, verb, timeout in events:
        wanted = hook_entry(agent, verb, timeout)
        groups = hooks.get(event)
        if groups is None:
            hooks[event] = [{"hooks": [wanted]}]
            continue
        if not isinstance(groups, list):
            raise MalformedSettings(f'"hooks.{event}" is not a list')
        placed = False
        kept_groups = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list) and any(is_ours(h) for h in group["hooks"]):
                handlers = []
                for handler in group["hooks"]:
                    if not is_ours(handler):
                        handlers.append(handler)
                    elif not placed:
                        handlers.append(wanted)
                        placed = True
                if not handlers:
                    continue  # held only a duplicate of ours
                group = {**group, "hooks": handlers}
            kept_groups.append(group)
        if not placed:
            kept_groups.append({"hooks": [wanted]})
        hooks[event] = kept_groups
    return data


def strip_hooks(settings: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The settings without our entries, and how many were removed; containers only we filled go too."""
    data = copy.deepcopy(settings)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, 0
    removed = 0
    emptied_events = 0
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept_groups = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                handlers = [h for h in group["hooks"] if not is_ours(h)]
                if len(handlers) != len(group["hooks"]):
                    removed += len(group["hooks"]) - len(handlers)
                    if not handlers:
                        continue
                    group = {**group, "hooks": handlers}
            kept_groups.append(group)
        if groups and not kept_groups:
            del hooks[event]
            emptied_events += 1
        else:
            hooks[event] = kept_groups
    if emptied_events and not hooks:
        del data["hooks"]
    return data, removed


def _canonical(settings: Any) -> Any:
    """Settings with empty hook lists and an empty ``hooks`` dropped: what "the same" means for a restore."""
    if not isinstance(settings, dict):
        return settings
    data = copy.deepcopy(settings)
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        for event in [e for e, groups in hooks.items() if groups == []]:
            del hooks[event]
        if not hooks:
            del data["hooks"]
    return data


# ---------------------------------------------------------------- reading and writing settings


@dataclass
class _Settings:
    path: Path
    raw: bytes | None  # None: the file does not exist
    data: dict[str, Any]

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8") if self.raw is not None else ""


def _read_settings(path: Path) -> _Settings:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return _Settings(path, None, {})
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedSettings(f"{path} is not UTF-8 text; refusing to change it") from exc
    if not text.strip():
        return _Settings(path, raw, {})
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except ValueError as exc:
        detail = str(exc).split(":")[-1].strip() if ":" in str(exc) else str(exc)
        raise MalformedSettings(f"{path} is not valid JSON ({exc.__class__.__name__}: {detail}); refusing to change it") from exc
    if not isinstance(data, dict):
        raise MalformedSettings(f"{path} does not hold a JSON object; refusing to change it")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise MalformedSettings(f'{path}: "hooks" is not an object; refusing to change it')
    return _Settings(path, raw, data)


def render_settings(data: dict[str, Any], like: str = "") -> str:
    """JSON text in the style of ``like`` (indent, escaping, line endings, final newline)."""
    indent: str | int = 2
    found = re.search(r"\n([ \t]+)\S", like)
    if found:
        unit = found.group(1)
        indent = unit if "\t" in unit else len(unit)
    ascii_only = bool(like) and "\\u" in like and all(ord(ch) < 128 for ch in like)
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    newline = "\r\n" if "\r\n" in like else "\n"
    if newline != "\n":
        text = text.replace("\n", newline)
    if not like or like.endswith(("\n", "\r")):
        text += newline
    if like.startswith("\ufeff"):
        text = "\ufeff" + text
    return text


def _write(path: Path, text: str | bytes) -> None:
    """Replace a settings file atomically, keeping its permissions (a link is followed, not replaced)."""
    real = path.resolve() if path.is_symlink() else path
    try:
        mode = real.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    atomic_write(real, text)
    try:
        os.chmod(real, mode)
    except OSError:
        pass


# ---------------------------------------------------------------- the pristine copy


def _record_path(paths: Paths, settings: Path) -> Path:
    digest = hashlib.sha1(str(settings.absolute()).encode("utf-8")).hexdigest()[:16]
    return paths.user_backups / "install" / f"{digest}.json"


def _load_record(paths: Paths, settings: Path) -> dict[str, Any] | None:
    try:
        found = read_json(_record_path(paths, settings), None)
    except Exception:
        return None
    if isinstance(found, dict) and found.get("path") == str(settings.absolute()):
        return found
    return None


def _missing_dirs(path: Path, base: Path) -> list[Path]:
    """The folders between ``base`` and ``path`` that do not exist yet, outermost first."""
    missing = []
    for folder in reversed(path.parents):
        if folder == base or base not in folder.parents:
            continue
        if not folder.exists():
            missing.append(folder)
    return missing


# ---------------------------------------------------------------- install / uninstall


def install(agent: str, scope: str, paths: Paths | None = None) -> InstallReport:
    """Merge our hooks into the agent's settings (and add ``/cs-memory`` for Claude Code); idempotent."""
    paths = paths or Paths.resolve()
    target = target_for(agent, scope, paths)
    current = _read_settings(target.settings)
    events = hook_events(agent)
    try:
        merged = merge_hooks(current.data, agent, events)
    except MalformedSettings as exc:
        raise MalformedSettings(f"{target.settings}: {exc}; refusing to change it") from None
    report = InstallReport(agent, scope, target.settings, events=[e for e, _v, _t in events])
    report.notes = list(NOTES.get(agent, []))
    created = _missing_dirs(target.settings, target.base)
    if target.commands is not None:
        created += [d for d in _missing_dirs(target.commands, target.base) if d not in created]
    if merged != current.data:
        _, ours_before = strip_hooks(current.data)
        if not ours_before:
            # the file as the person wrote it, kept before our first change
            record = {
                "path": str(target.settings.absolute()),
                "existed": current.raw is not None,
                "original": current.text if current.raw is not None else None,
                "created": [str(d) for d in created],
            }
            write_json(_record_path(paths, target.settings), record)
        _write(target.settings, render_settings(merged, current.text))
        report.changed = True
    if target.commands is not None:
        report.command_file = target.commands
        report.command_changed = _install_command(paths, target)
    return report


def uninstall(agent: str, scope: str, paths: Paths | None = None) -> InstallReport:
    """Remove exactly our entries; a file nothing else changed in gets its original bytes back."""
    paths = paths or Paths.resolve()
    target = target_for(agent, scope, paths)
    report = InstallReport(agent, scope, target.settings, events=[e for e, _v, _t in hook_events(agent)])
    record = _load_record(paths, target.settings)
    if target.settings.exists() or target.settings.is_symlink():
        current = _read_settings(target.settings)
        stripped, removed = strip_hooks(current.data)
        if removed:
            report.changed = True
            if record and record.get("existed") and isinstance(record.get("original"), str) and _same_as(record["original"], stripped):
                _write(target.settings, record["original"].encode("utf-8"))
            elif record and not record.get("existed") and not _canonical(stripped):
                target.settings.unlink()
            else:
                _write(target.settings, render_settings(stripped, current.text))
    if target.commands is not None:
        report.command_file = target.commands
        report.command_changed = _remove_command(target.commands)
    if record:
        for folder in reversed([Path(d) for d in record.get("created", [])]):
            try:
                folder.rmdir()  # only when empty: a folder the person has used since stays
            except OSError:
                pass
        try:
            _record_path(paths, target.settings).unlink()
        except OSError:
            pass
    return report


def _same_as(original: str, stripped: dict[str, Any]) -> bool:
    try:
        before = json.loads(original.lstrip("\ufeff")) if original.strip() else {}
    except ValueError:
        return False
    return bool(_canonical(before) == _canonical(stripped))


# ---------------------------------------------------------------- /cs-memory


def command_template() -> str:
    """The review command as shipped (``agent_memory/data/cs-memory.md``): the one text every agent's entry is made from."""
    try:
        return (Path(__file__).resolve().parent / "data" / "cs-memory.md").read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"this installation lacks agent_memory/data/cs-memory.md ({exc.strerror or exc}); reinstall it") from exc


# how the plugin runs the command line: its own copy of the package, found from the plugin's root, never PATH
PLUGIN_RUNNER = 'python3 "${CLAUDE_PLUGIN_ROOT}/agent_memory/run_hook.py" cli'
INTRO = "The person ran `/cs-memory` with these arguments: `$ARGUMENTS`"


def render_command(agent: str, runner: str, mark: bool = True) -> str:
    """The review entry for ``agent``, running the command line as ``runner`` (a Claude command, a Gemini TOML, a Codex skill)."""
    body = re.sub(rf"(?<![\w/.-])agent-memory(?= (?:{_CLI_VERBS})\b)", lambda _m: runner, command_template())
    if agent == "claude":
        return body.rstrip("\n") + "\n" + (f"\n{COMMAND_MARK}\n" if mark else "")
    front, _, text = body.partition("\n---\n")
    described = re.search(r"^description: (.*)$", front, re.M)
    description = described.group(1).strip() if described else "Review what agent-memory proposes to remember"
    if agent == "gemini":
        text = text.replace(INTRO, INTRO.replace("$ARGUMENTS", "{{args}}"))
        prompt = text.strip("\n").replace("\\", "\\\\").replace('"""', '\\"""')
        return (f"# {COMMAND_MARK_TEXT}\n" if mark else "") + f"description = {json.dumps(description, ensure_ascii=False)}\n" \
            f'prompt = """\n{prompt}\n"""\n'
    text = text.replace(INTRO, "The person called `$cs-memory`; what they wrote with it are the arguments.")
    return f"---\nname: cs-memory\ndescription: {description}\n---\n\n{text.strip(chr(10))}\n" + (f"\n{COMMAND_MARK}\n" if mark else "")


def command_text(agent: str = "claude") -> str:
    """The review entry install writes for ``agent``: run by this very interpreter."""
    return render_command(agent, f"{shlex.quote(sys.executable)} -m agent_memory")


def _install_command(paths: Paths, target: Target) -> bool:
    assert target.commands is not None
    wanted = command_text(target.agent)
    try:
        existing = target.commands.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = None
    except (OSError, UnicodeDecodeError):
        return False
    if existing == wanted:
        return False
    if existing is not None and COMMAND_MARK_TEXT not in existing:
        return False  # a /cs-memory someone wrote: theirs stays
    _write(target.commands, wanted)
    return True


def _remove_command(path: Path) -> bool:
    try:
        existing = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if COMMAND_MARK_TEXT not in existing:
        return False
    path.unlink()
    return True


# ---------------------------------------------------------------- the CLI verbs


def _done(args: argparse.Namespace, change: "Callable[[str, str, Paths], Any]") -> Any:
    """Run ``install`` or ``uninstall`` for the command line; its report, or None once printed as JSON."""
    report = change(args.agent, args.scope, Paths.resolve(getattr(args, "memory_dir", None)))
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n")
        return None
    return report


def cmd_install(args: argparse.Namespace) -> int:
    """``agent-memory install``."""
    report = _done(args, install)
    if report is None:
        return 0
    events = ", ".join(report.events)
    if report.changed:
        print(f"installed the agent-memory hooks ({events}) in {report.settings}")
    else:
        print(f"the agent-memory hooks ({events}) are already in {report.settings}: nothing changed")
    if report.command_file is not None:
        call = _review_call(args.agent)
        if report.command_changed:
            print(f"added {call} as {report.command_file}")
        elif report.command_file.exists():
            print(f"{call} is already at {report.command_file}")
    for note in report.notes:
        print(note)
    return 0


def _review_call(agent: str) -> str:
    return "$cs-memory" if agent == "codex" else "/cs-memory"


def cmd_uninstall(args: argparse.Namespace) -> int:
    """``agent-memory uninstall``."""
    report = _done(args, uninstall)
    if report is None:
        return 0
    if report.changed:
        print(f"removed the agent-memory hooks from {report.settings}")
    else:
        print(f"no agent-memory hooks in {report.settings}: nothing changed")
    if report.command_changed and report.command_file is not None:
        print(f"removed {_review_call(args.agent)} ({report.command_file})")
    return 0
