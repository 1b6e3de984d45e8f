"""Gate numbers and budgets from ``<store>/config.yaml``, over documented defaults.

The config may change the numbers, never the rules. Hooks must not import ``yaml``
(it costs tens of milliseconds), so the small YAML subset our config uses is read
here with the standard library; anything outside that subset falls back to PyYAML.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Iterable

from .errors import UsageError

class Setting:
    """One setting, declared once: its dotted name, type, default, the check a value must pass, and what it is for."""

    __slots__ = ("name", "kind", "default", "low", "high", "doc")

    def __init__(self, name: str, kind: type, default: Any, doc: str, low: float = 0, high: float | None = None) -> None:
        self.name, self.kind, self.default, self.low, self.high, self.doc = name, kind, default, low, high, doc

    def check(self, value: Any, path: Path) -> Any:
        """The value as the setting takes it, or a UsageError naming the file and the setting."""
        if self.kind is list:
            value = [value] if isinstance(value, str) else value
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise UsageError(f"{path}: {self.name} must be a list of file names")
            return value
        whole = self.kind is int
        number = isinstance(value, int) if whole else isinstance(value, (int, float))
        # "not value >= low" refuses NaN too, which would silently fail every comparison made with it
        if isinstance(value, bool) or not number or not value >= self.low or (self.high is not None and value > self.high):
            span = f"from {self.low:g} to {self.high:g}" if self.high is not None else f"≥ {self.low:g}"
            raise UsageError(f"{path}: {self.name} must be a {'whole number' if whole else 'number'} {span}")
        return value


SETTINGS: tuple[Setting, ...] = (
    Setting("gates.l2.sessions", int, 3, "L1 -> L2: distinct sessions a claim was seen in"),
    Setting("gates.l2.days", int, 2, "L1 -> L2: distinct UTC days"),
    Setting("gates.l2_stated.sessions", int, 2, "L1 -> L2 for a claim the person asked to keep: sessions"),
    Setting("gates.l2_stated.days", int, 2, "L1 -> L2 for a stated claim: days"),
    Setting("gates.l2_verified.observations", int, 1, "L1 -> L2 for a verified claim: observations (no day rule)"),
    Setting("gates.l3.projects", int, 2, "L2 -> L3: projects holding the claim in L2"),
    Setting("gates.l3.age_days", int, 30, "L2 -> L3: days since the claim was first observed"),
    Setting("targets", list, ["CLAUDE.md"], "instruction files adopt writes into, relative to the project root"),
    Setting("budgets.session_start_chars", float, 6000, "session-start context, in characters"),
    Setting("budgets.prompt_atoms", float, 5, "user-prompt-submit: at most this many atoms"),
    Setting("budgets.prompt_chars", float, 1500, "user-prompt-submit: at most this many characters"),
    Setting("budgets.session_end_seconds", float, 1.0, "session-end work done inline before a background worker takes over"),
    Setting("budgets.catchup_seconds", float, 0.5, "session-start catch-up of transcripts never ingested or grown"),
    Setting("recall.half_life_days", float, 30, "time decay of search scores"),
    Setting("recall.min_score", float, 0.3, "relevance floor of prompt recall (above 1 reads as 1)"),
    Setting("identity.merge_similarity", float, 0.85, "two wordings are one claim at or above this similarity", high=1.0),
    Setting("health.stale_days", float, 90, "report: an adopted claim not said again for this many days is stale"),
    Setting("health.ingest_days", float, 3, "status: sessions going on while nothing was ingested for this many days"),
    Setting("health.not_followed_sessions", int, 2, "report: corrections of an adopted claim in this many sessions after it"),
)
_BY_NAME = {s.name: s for s in SETTINGS}
# recall may also hold the semantic extra's own switches (recall.semantic_weight, recall.semantic …)
OPEN_SECTIONS = frozenset({"recall"})
_EXTRA_NUMBERS = {"recall.semantic_weight": Setting("recall.semantic_weight", float, 0.0, "semantic extra: weight of embeddings")}


def _nest(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for name, value in pairs:
        *parents, leaf = name.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


# the defaults as the nested mapping the config file has (derived from SETTINGS, never typed again)
DEFAULTS: dict[str, Any] = _nest((s.name, s.default) for s in SETTINGS)


def default(name: str) -> Any:
    """The declared default of one setting (``"budgets.prompt_atoms"``)."""
    return copy.deepcopy(_BY_NAME[name].default)


def setting(config: dict[str, Any], name: str) -> Any:
    """One setting of a loaded config, by dotted name; the declared default where it is absent."""
    node: Any = config
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            return default(name)
        node = node[part]
    return node


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


def _flat(tree: dict[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name not in _BY_NAME:
            yield from _flat(value, name + ".")
        else:
            yield name, value


def _refuse_unknown(loaded: dict[str, Any], path: Path) -> None:
    """A misspelt setting ("gate:", "session:") would silently leave the default in force: say so instead."""
    sections = {name.split(".")[0] for name in _BY_NAME}
    for key, value in loaded.items():
        if key not in sections:
            raise UsageError(f"{path}: unknown setting {key!r} (known: {', '.join(DEFAULTS)})")
        if key in OPEN_SECTIONS or not isinstance(value, dict):
            continue  # a section given as a scalar is refused by _check, with its own message
        for name, _ in _flat(value, key + "."):
            if name not in _BY_NAME:
                parent = name.rsplit(".", 1)[0]
                known = sorted({n[len(parent) + 1:].split(".")[0] for n in _BY_NAME if n.startswith(parent + ".")})
                if not known:  # a whole misspelt group: name the group, with its siblings
                    parent, known = key, sorted({n.split(".")[1] for n in _BY_NAME if n.startswith(key + ".")})
                    name = f"{key}.{name.split('.')[1]}"
                raise UsageError(f"{path}: unknown setting {name} (known: {', '.join(known)})")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value
    return base


def _check(config: dict[str, Any], path: Path) -> None:
    """Every declared setting passes its own check; the semantic extra's numbers are numbers too."""
    for section in ("gates", "budgets", "recall", "identity", "health"):
        if not isinstance(config.get(section), dict):
            raise UsageError(f"{path}: {section} must be a mapping")
    for gate, numbers in config["gates"].items():
        if not isinstance(numbers, dict):
            raise UsageError(f"{path}: gates.{gate} must be a mapping")
    for item in SETTINGS:
        *parents, leaf = item.name.split(".")
        node = config
        for part in parents:
            node = node[part]
        node[leaf] = item.check(node[leaf], path)
    for name, extra in _EXTRA_NUMBERS.items():
        section, key = name.split(".")
        if key in config[section]:
            extra.check(config[section][key], path)


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
