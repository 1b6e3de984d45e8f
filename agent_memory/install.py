"""Put the hooks and the review entry into an agent's own config, and take them out again.

Where they go, for each scope, and in what form, is the agent's (``agents/<name>.py``: ``settings_file``,
``hook_events``, ``hook_entry``, ``review_entries``, ``review_text``). User scope follows each agent's own
variable for its home, as the agent itself does; without it, the folder in the home directory.

Every settings file holds ``{"hooks": {Event: [...]}}``, each item a group ``{"matcher"?, "hooks": [handler]}``
or a handler itself; a handler is ``{"type": "command", <the agent's command field>: …}``. Our entries are the ones whose command runs ``agent_memory/run_hook.py`` (or
``-m agent_memory hook``, as earlier versions wrote); nothing
else is ever changed or removed. Before the first change to a file, its exact bytes are kept in
``$AGENT_MEMORY_HOME/backups/install/`` so that ``uninstall`` gives them back byte for byte when
nothing but our entries changed since.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fastjson import JSON_ERRORS
from . import agents
from .errors import UsageError
from .launcher import LAUNCHER, hook_command, project_hook_command, write_launcher
from .store import Paths, atomic_write, read_json, write_json

# ours: ``… -I -S …/agent_memory/run_hook.py VERB``, or ``… -m agent_memory hook VERB`` as earlier versions wrote
_OURS = re.compile(r"(?:^|\s)-m\s+agent_memory\s+hook\s|agent_memory[/\\]run_hook\.py[\'\"]?\s|"
                   + re.escape(LAUNCHER) + r"\b.*\shook\s")
_CLI_VERBS = "promote|inspect|adopt|reject|verify|resolve|rollback|search|ingest|reindex|status|report|forget|merge|split"
COMMAND_MARK_TEXT = "written by agent-memory install; agent-memory uninstall removes it"
COMMAND_MARK = f"<!-- {COMMAND_MARK_TEXT} -->"

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
    moved_from: list[Path] = field(default_factory=list)  # files an earlier install put our hooks in

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
            "moved_from": [str(p) for p in self.moved_from],
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
    """Where the hooks go for an agent and scope (home from the agent, project from ``Paths``)."""
    me = agents.get(agent)
    if scope not in ("project", "user"):
        raise UsageError(f"unknown scope {scope!r}: expected project or user")
    paths = paths or Paths.resolve()
    root = str(paths.project_root)
    if scope == "user":
        home = Path(me.home())
        # nothing above the agent's home folder is created or removed (its parent: the folder itself may be new)
        base = Path.home() if Path.home() in home.parents else home.parent
    else:
        base = paths.project_root
    entries = me.review_entries(root)
    commands = Path(entries[0][0]) if scope == "project" else Path(entries[1][0])
    return Target(agent, scope, Path(me.settings_file(scope, root)), commands, base)


# ---------------------------------------------------------------- the entries


def hook_events(agent: str) -> tuple[tuple[str, str, int], ...]:
    """The (event, verb, timeout) entries install writes for ``agent``."""
    return agents.get(agent).hook_events()


def hook_entry(agent: str, verb: str, timeout: int, portable: bool = False) -> dict[str, Any]:
    """One hook handler in the agent's own format (``portable``: the command a committed file may hold)."""
    command = project_hook_command(agent, verb) if portable else hook_command(agent, verb)
    return agents.get(agent).hook_entry(verb, timeout, command)


def portable_for(agent: str, scope: str) -> bool:
    """Whether the hooks for ``scope`` go in a file a team commits, so they may name no path of this machine."""
    return scope == "project" and not agents.get(agent).local_project_settings


def is_ours(handler: Any, field: str = "command") -> bool:
    """An entry install wrote (by any interpreter): its command (in ``field``) runs ``run_hook.py`` or
    ``-m agent_memory hook``."""
    return isinstance(handler, dict) and isinstance(handler.get(field), str) and bool(_OURS.search(handler[field]))


def _is_group(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("hooks"), list)


def merge_hooks(settings: dict[str, Any], agent: str, events: tuple[tuple[str, str, int], ...] | None = None,
                portable: bool = False) -> dict[str, Any]:
    """The settings with our three entries in place; an entry of ours already there is updated where it stands.

    An entry of ours under an event no longer used (Codex's Stop once it has SessionEnd) goes.
    """
    events = events or hook_events(agent)
    me = agents.get(agent)
    field = me.command_field
    data = copy.deepcopy(settings)
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise MalformedSettings('"hooks" is not an object')
    wanted_events = {event for event, _verb, _timeout in events}
    for event in [e for e in hooks if e not in wanted_events]:
        pruned, removed = strip_hooks({"hooks": {event: hooks[event]}}, field)
        if removed:
            if "hooks" in pruned and event in pruned["hooks"]:
                hooks[event] = pruned["hooks"][event]
            else:
                del hooks[event]
    for event, verb, timeout in events:
        wanted = hook_entry(agent, verb, timeout, portable)
        groups = hooks.get(event)
        fresh = {"hooks": [wanted]} if me.grouped else wanted
        if groups is None:
            hooks[event] = [fresh]
            continue
        if not isinstance(groups, list):
            raise MalformedSettings(f'"hooks.{event}" is not a list')
        placed = False
        kept_groups = []
        for group in groups:
            if is_ours(group, field):  # a handler standing on its own, where the agent has no groups
                if not placed:
                    kept_groups.append(wanted)
                    placed = True
                continue
            if _is_group(group) and any(is_ours(h, field) for h in group["hooks"]):
                handlers = []
                for handler in group["hooks"]:
                    if not is_ours(handler, field):
                        handlers.append(handler)
                    elif not placed:
                        handlers.append(wanted)
                        placed = True
                if not handlers:
                    continue  # held only a duplicate of ours
                group = {**group, "hooks": handlers}
            kept_groups.append(group)
        if not placed:
            kept_groups.append(fresh)
        hooks[event] = kept_groups
    return data


def strip_hooks(settings: dict[str, Any], field: str = "command") -> tuple[dict[str, Any], int]:
    """The settings without our entries (their command in ``field``), and how many were removed; containers only
    we filled go too."""
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
            if is_ours(group, field):
                removed += 1
                continue
            if _is_group(group):
                handlers = [h for h in group["hooks"] if not is_ours(h, field)]
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
    except JSON_ERRORS as exc:
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
    me = agents.get(agent)
    portable = portable_for(agent, scope)
    try:
        merged = merge_hooks(current.data if current.raw is not None else me.new_settings(scope), agent, events, portable)
    except MalformedSettings as exc:
        raise MalformedSettings(f"{target.settings}: {exc}; refusing to change it") from None
    report = InstallReport(agent, scope, target.settings, events=[e for e, _v, _t in events])
    report.notes = list(agents.get(agent).notes)
    created = _missing_dirs(target.settings, target.base)
    if target.commands is not None:
        created += [d for d in _missing_dirs(target.commands, target.base) if d not in created]
    if merged != current.data:
        _, ours_before = strip_hooks(current.data, me.command_field)
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
    if scope == "project":
        write_launcher(paths)  # what the committed hooks and review entry run on this machine
        if me.local_project_settings:
            _keep_out_of_git(paths.project_root, target.settings)
        for former in me.former_settings_files(scope, str(paths.project_root)):
            if _take_out(paths, Path(former), me, scope):
                report.moved_from.append(Path(former))
    return report


def _keep_out_of_git(root: Path, path: Path) -> None:
    """A local settings file stays out of git: named in ``.git/info/exclude`` (local too) unless git ignores it."""
    git_dir = root / ".git"
    if not git_dir.is_dir():
        return
    relative = path.relative_to(root).as_posix()
    try:
        done = subprocess.run(["git", "-C", str(root), "check-ignore", "-q", relative], capture_output=True, timeout=20,
                              stdin=subprocess.DEVNULL)
        if done.returncode == 0:
            return
    except (OSError, subprocess.SubprocessError):
        pass
    exclude = git_dir / "info" / "exclude"
    try:
        existing = exclude.read_text(encoding="utf-8")
    except FileNotFoundError:
        existing = ""
    except (OSError, UnicodeDecodeError):
        return
    if f"/{relative}" in existing.splitlines():
        return
    exclude.parent.mkdir(parents=True, exist_ok=True)
    separator = "" if not existing or existing.endswith("\n") else "\n"
    atomic_write(exclude, f"{existing}{separator}{_EXCLUDE_MARK}\n/{relative}\n")


_EXCLUDE_MARK = "# agent-memory: this machine's hooks"


def _let_into_git(root: Path, path: Path) -> None:
    """Take back the lines ``_keep_out_of_git`` added (the file goes when nothing else is left in it)."""
    exclude = root / ".git" / "info" / "exclude"
    try:
        lines = exclude.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return
    ours = {_EXCLUDE_MARK, f"/{path.relative_to(root).as_posix()}"}
    kept = [line for line in lines if line not in ours]
    if len(kept) == len(lines):
        return
    if kept:
        atomic_write(exclude, "\n".join(kept) + "\n")
        return
    exclude.unlink()
    try:
        exclude.parent.rmdir()
    except OSError:
        pass


def _take_out(paths: Paths, settings: Path, me: Any, scope: str) -> bool:
    """Our entries out of one settings file; the file as it was before our first change when nothing else changed."""
    record = _load_record(paths, settings)
    if not (settings.exists() or settings.is_symlink()):
        return False
    current = _read_settings(settings)
    stripped, removed = strip_hooks(current.data, me.command_field)
    if not removed:
        return False
    if record and record.get("existed") and isinstance(record.get("original"), str) and _same_as(record["original"], stripped):
        _write(settings, record["original"].encode("utf-8"))
    elif record and not record.get("existed") and _canonical(stripped) in ({}, me.new_settings(scope)):
        settings.unlink()
    else:
        _write(settings, render_settings(stripped, current.text))
    if record:
        try:
            _record_path(paths, settings).unlink()
        except OSError:
            pass
    return True


def uninstall(agent: str, scope: str, paths: Paths | None = None) -> InstallReport:
    """Remove exactly our entries; a file nothing else changed in gets its original bytes back."""
    paths = paths or Paths.resolve()
    target = target_for(agent, scope, paths)
    report = InstallReport(agent, scope, target.settings, events=[e for e, _v, _t in hook_events(agent)])
    me = agents.get(agent)
    record = _load_record(paths, target.settings)
    if target.settings.exists() or target.settings.is_symlink():
        current = _read_settings(target.settings)
        stripped, removed = strip_hooks(current.data, me.command_field)
        if removed:
            report.changed = True
            if record and record.get("existed") and isinstance(record.get("original"), str) and _same_as(record["original"], stripped):
                _write(target.settings, record["original"].encode("utf-8"))
            elif record and not record.get("existed") and _canonical(stripped) in ({}, me.new_settings(scope)):
                target.settings.unlink()
            else:
                _write(target.settings, render_settings(stripped, current.text))
    for former in me.former_settings_files(scope, str(paths.project_root)):
        report.changed = _take_out(paths, Path(former), me, scope) or report.changed
    if scope == "project" and me.local_project_settings:
        _let_into_git(paths.project_root, target.settings)
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
    except JSON_ERRORS:
        return False
    return bool(_canonical(before) == _canonical(stripped))


# ---------------------------------------------------------------- /cs-memory


def command_template() -> str:
    """The review command as shipped (``agent_memory/data/cs-memory.md``): the one text every agent's entry is made from."""
    try:
        return (Path(__file__).resolve().parent / "data" / "cs-memory.md").read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"this installation lacks agent_memory/data/cs-memory.md ({exc.strerror or exc}); reinstall it") from exc


def render_command(agent: str, runner: str, mark: bool = True) -> str:
    """The review entry for ``agent``, running the command line as ``runner``, in the form the agent loads."""
    body = re.sub(rf"(?<![\w/.-])agent-memory(?= (?:{_CLI_VERBS})\b)", lambda _m: runner, command_template())
    return agents.get(agent).review_text(body, COMMAND_MARK_TEXT if mark else "")


def command_text(agent: str = agents.DEFAULT, portable: bool = False) -> str:
    """The review entry install writes for ``agent``: run by this very interpreter, or (``portable``, for a file a
    team commits) by this machine's launcher, found when it runs."""
    return render_command(agent, f'"{LAUNCHER}"' if portable else f"{shlex.quote(sys.executable)} -m agent_memory")


def _install_command(paths: Paths, target: Target) -> bool:
    assert target.commands is not None
    wanted = command_text(target.agent, portable=target.scope == "project")
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
