"""Gate numbers and budgets from ``<store>/config.yaml``, over documented defaults.

The config may change the numbers, never the rules. Hooks must not import ``yaml``
(it costs tens of milliseconds), so the small YAML subset our config uses is read
here with the standard library; anything outside that subset falls back to PyYAML.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from .model import UsageError

DEFAULTS: dict[str, Any] = {
    "gates": {
        "l2": {"sessions": 3, "days": 2},
        "l2_stated": {"sessions": 2, "days": 2},
        "l2_verified": {"observations": 1},
        "l3": {"projects": 2, "age_days": 30},
    },
    "targets": ["CLAUDE.md"],
    "budgets": {
        "session_start_chars": 6000,
        "prompt_atoms": 5,
        "prompt_chars": 1500,
        "session_end_seconds": 1.0,
        "catchup_seconds": 0.5,
    },
    "recall": {"half_life_days": 30, "min_score": 0.3},
    "identity": {"merge_similarity": 0.85},
    "health": {"stale_days": 90, "ingest_days": 3, "not_followed_sessions": 2},
}

CONFIG_TEMPLATE = """\
# agent-memory configuration for this project.
# The numbers may change; the rules of the gates never do (see DESIGN.md).

gates:
  # L1 -> L2: a claim seen in at least this many distinct sessions on this many distinct UTC days
  l2:
    sessions: 3
    days: 2
  # L1 -> L2 for a claim the person asked to keep ("remember ...", "from now on ...")
  l2_stated:
    sessions: 2
    days: 2
  # L1 -> L2 for a claim a human verified: this many observations, the day rule waived
  l2_verified:
    observations: 1
  # L2 -> L3: held in L2 of this many projects, first observed at least this many days ago
  l3:
    projects: 2
    age_days: 30

# Instruction files that adopt writes into, relative to the project root
# (CLAUDE.md for Claude Code, AGENTS.md for Codex CLI, GEMINI.md for Gemini CLI).
targets: [CLAUDE.md]

budgets:
  # session-start context, in characters (Claude Code caps hook context at 10,000)
  session_start_chars: 6000
  # user-prompt-submit: at most this many atoms, and this many characters
  prompt_atoms: 5
  prompt_chars: 1500
  # session-end work done inline before the rest is handed to a background worker
  session_end_seconds: 1.0
  # session-start catch-up of transcripts that were never ingested or have grown
  catchup_seconds: 0.5

recall:
  # time decay of search scores (never applied to inspect --why)
  half_life_days: 30
  # relevance floor for user-prompt-submit recall: below it, nothing is injected
  min_score: 0.3

identity:
  # two wordings are one claim at or above this character-trigram similarity (and no value differs);
  # a wording near two claims that are not one is merged with neither (ambiguity is refused)
  merge_similarity: 0.85

health:
  # report: an adopted claim not said again for this many days is stale
  stale_days: 90
  # status: sessions going on while nothing was ingested for this many days is unhealthy
  ingest_days: 3
  # report: a correction of an adopted claim in this many sessions after its adoption means it is not followed
  not_followed_sessions: 2
"""


def load_config(path: Path) -> dict[str, Any]:
    """The config at ``path`` merged over the defaults; a missing file gives the defaults."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return copy.deepcopy(DEFAULTS)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from exc
    try:
        loaded = parse_simple_yaml(text)
    except ValueError:
        import yaml  # only for configs outside the simple subset

        try:
            loaded = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            # the problem itself ("found character '\t' …") and its line, not PyYAML's context header
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            raise UsageError(f"{path} is not valid YAML: {problem}{where}") from exc
    if not isinstance(loaded, dict):
        raise UsageError(f"{path} must be a mapping of settings")
    _refuse_unknown(loaded, path)
    merged = _merge(copy.deepcopy(DEFAULTS), loaded)
    _check(merged, path)
    return merged


def _refuse_unknown(loaded: dict[str, Any], path: Path) -> None:
    """A misspelt setting ("gate:", "session:") would silently leave the default in force: say so instead."""
    for key, value in loaded.items():
        known = DEFAULTS.get(key)
        if key not in DEFAULTS:
            raise UsageError(f"{path}: unknown setting {key!r} (known: {', '.join(DEFAULTS)})")
        if not isinstance(known, dict) or not isinstance(value, dict) or key == "recall":
            continue  # recall may hold the semantic extra's own switches
        names = set(known)
        for inner, numbers in value.items():
            if inner not in names:
                raise UsageError(f"{path}: unknown setting {key}.{inner} (known: {', '.join(sorted(names))})")
            if key == "gates" and isinstance(numbers, dict):
                for number in numbers:
                    if number not in known[inner]:
                        raise UsageError(
                            f"{path}: unknown setting gates.{inner}.{number} (known: {', '.join(known[inner])})"
                        )


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value
    return base


# recall may also hold the semantic extra's settings (recall.semantic: true …); only these of it are numbers
_RECALL_NUMBERS = frozenset({"half_life_days", "min_score", "semantic_weight"})


def _check(config: dict[str, Any], path: Path) -> None:
    for section in ("gates", "budgets", "recall", "identity", "health"):
        if not isinstance(config.get(section), dict):
            raise UsageError(f"{path}: {section} must be a mapping")
    for section in ("budgets", "recall", "identity", "health"):
        for key, value in config[section].items():
            if section == "recall" and key not in _RECALL_NUMBERS:
                continue
            # "not value >= 0" refuses NaN too, which would silently fail every comparison made with it
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise UsageError(f"{path}: {section}.{key} must be a number ≥ 0")
    if config["identity"].get("merge_similarity", 0) > 1:
        raise UsageError(f"{path}: identity.merge_similarity must be a number from 0 to 1")
    for gate, numbers in config["gates"].items():
        if not isinstance(numbers, dict):
            raise UsageError(f"{path}: gates.{gate} must be a mapping")
        for key, value in numbers.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise UsageError(f"{path}: gates.{gate}.{key} must be a whole number ≥ 0")
    targets = config["targets"]
    if isinstance(targets, str):
        config["targets"] = [targets]
    elif not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise UsageError(f"{path}: targets must be a list of file names")


def _scalar(text: str) -> Any:
    text = text.strip()
    if not text:
        return None
    if text[0] in "\"'" and text[-1] == text[0] and len(text) >= 2:
        return text[1:-1]
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(part) for part in inner.split(",")] if inner else []
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "~"):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        pass
    if text[0] in "[{" or any(ch in text for ch in "{}&*!|>%@`"):
        raise ValueError("outside the simple subset")
    return text


def parse_simple_yaml(text: str) -> dict[str, Any]:
    """Parse nested ``key: value`` mappings with inline lists; raise ValueError otherwise."""
    root: dict[str, Any] = {}
    stack: list[tuple[int, dict[str, Any]]] = [(-1, root)]
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if line[indent:indent + 1].isspace():
            raise ValueError("tab in indentation")  # YAML refuses it: read as flat keys, the settings would vanish
        body = line.strip()
        if body.startswith("- ") or ":" not in body:
            raise ValueError("outside the simple subset")
        key, _, rest = body.partition(":")
        while stack and indent <= stack[-1][0]:
            stack.pop()
        if not stack:
            raise ValueError("bad indentation")
        parent = stack[-1][1]
        key = key.strip()
        if rest.strip():
            parent[key] = _scalar(rest)
        else:
            child: dict[str, Any] = {}
            parent[key] = child
            stack.append((indent, child))
    return root
