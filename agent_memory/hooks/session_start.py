"""session-start: the adopted claims the agent does not already load from its own instruction files."""

from __future__ import annotations

import os

from .. import agents, fastjson
from .cache import HookCache, budget_of, cached_config, version, watching
from .entry import TAG_CONTESTED, Budget, fit
from .where import as_paths, log

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    from pathlib import Path
    from typing import Any, Iterable

    from ..store import Paths
    from ..layout import Layout
    from .where import AnyPaths


HEADINGS = {
    "L2": "Adopted for this project (agent-memory; each reviewed by a person):",
    "L3": "Adopted across your projects (agent-memory):",
}


def cached_session_start(where: "Layout", agent: str, cwd: str, cache: HookCache) -> str:
    """``session_start_context``, recomputed only when a file it reads has changed.

    The entry lists every file it came from (the tiers, the config, every place an instruction
    file or review entry could be); which places those are follows from the head (the folders,
    the agent's home, the plugin) and the agent's own settings files, which are on the list.
    """
    if not os.path.isdir(where.store) and not os.path.isfile(where.l3):
        return ""  # nothing adopted anywhere
    head = [version(), agent, cwd, os.path.realpath(cwd) if cwd else "", where.project_root, where.store, where.user,
            *agents.get(agent).cache_keys()]
    name = f"session-start {agent} {where.store} {cwd}"
    found = cache.get_watching(name, head)
    if isinstance(found, str):
        return found
    watched = [where.l2, where.l3, where.contested, where.config, where.staged,
               *instruction_candidates(where.project_root, agent, cwd),
               *(path for path, _call in review_candidates(agent, where.project_root))]
    sig = [head, watching(watched)]  # taken before the files are read: a change while reading makes it stale
    from .where import RUN

    failed = RUN["errors"]
    text = session_start_context(as_paths(where), agent, cached_config(where, cache), cwd)
    if RUN["errors"] == failed:  # a context computed while something failed is not remembered: it fails visibly each time
        cache.put(name, sig, text)
    return text


def with_warning(where: "Layout", agent: str, text: str, config: "dict[str, Any]") -> str:
    """Session-start's context with one line first when memory is unhealthy (never cached: the run log moves)."""
    from .. import hooklog

    days = config.get("health", {}).get("ingest_days", 3) if isinstance(config.get("health"), dict) else 3
    line = hooklog.warning(where.store, where.ingested, float(days))
    if not line:
        return text
    budget = Budget(agent, int(budget_of(config, "session_start_chars", 6000)))
    lines = text.split("\n") if text else []
    while lines and not budget.fits(budget.zero(), budget.cost("\n".join([line, *lines]))):
        lines.pop(-2 if len(lines) > 1 else -1)  # a claim goes before the closing note does
    return "\n".join([line, *lines])


def _since(record: "dict[str, Any]") -> str:
    """`` (since 2026-03)``: the month a claim was first seen (else adopted), or ``""``."""
    when = str(record.get("first_seen") or record.get("adopted_at") or "")
    return f" (since {when[:7]})" if len(when) >= 7 and when[4:5] == "-" else ""


def session_start_context(paths: "Paths", agent: str, config: "dict[str, Any]", cwd: str = "") -> str:
    """Adopted L2 + L3 claims the agent does not already load, contested ones tagged; whole lines within budget."""
    from ..promote.tiers import load_claims

    adopted: list[tuple[str, list[dict[str, Any]]]] = []
    for tier, path in (("L2", paths.l2), ("L3", paths.l3)):
        try:
            adopted.append((tier, [r for r in load_claims(path) if not r.get("retired")]))
        except Exception as exc:
            log(paths, f"read {tier}", exc)
    groups: list[tuple[str, list[str]]] = []
    dated: list[tuple[str, list[str]]] = []
    if any(records for _tier, records in adopted):
        contested_keys = _contested_keys(paths)
        carried = _Carried(instruction_files(paths, agent, cwd))
        seen: set[str] = set()
        for tier, records in adopted:
            lines: list[str] = []
            ages: list[str] = []
            for record in records:
                text = " ".join(str(record["text"]).split())
                key = _key_text(text)
                ident = key or _plain(text)
                if not text or ident in seen:
                    continue
                contested = bool(record.get("contested")) or key in contested_keys or any(
                    k in contested_keys for k in record.get("keys", []) if isinstance(k, str)
                )
                if not contested and carried.holds(record, text, key):
                    continue
                seen.add(ident)
                lines.append(f"- {TAG_CONTESTED + ' ' if contested else ''}{text}")
                ages.append(_since(record))
            # contested claims first: they are what the agent must not follow blindly
            order = sorted(range(len(lines)), key=lambda i: not lines[i].startswith(f"- {TAG_CONTESTED}"))
            if lines:
                groups.append((HEADINGS[tier], [lines[i] for i in order]))
                dated.append((HEADINGS[tier], [lines[i] + ages[i] for i in order]))
    staged = _staged_count(str(paths.staged))
    note = f"{staged} proposal{'s' if staged != 1 else ''} await{'s' if staged == 1 else ''} review: {review_call(agent, str(paths.project_root))}" if staged else ""
    budget = Budget(agent, int(budget_of(config, "session_start_chars", 6000)))
    more = "({n} more adopted claim{s} not shown: agent-memory inspect --tier L2)"
    plain = fit(groups, note, budget, more)
    if dated != groups:
        # each claim's age where the budget allows it; when it would cost a claim, the claims go without
        aged = fit(dated, note, budget, more)
        if aged.count("\n- ") == plain.count("\n- "):
            return aged
    return plain


class _Carried:
    """What the agent's own instruction files already say, to test claims against."""

    def __init__(self, files: Iterable["tuple[Path, int]"]) -> None:
        import re

        self.text = ""
        self.lines: set[str] = set()
        self.keys: set[str] = set()
        parts = []
        for path, size in files:
            try:
                with open(path, "rb") as handle:
                    data = handle.read(size) if size >= 0 else handle.read()
            except OSError:
                continue
            # a file cut at the agent's limit: its last, partial line is not what the agent was told
            body = data.decode("utf-8", errors="replace")
            if size >= 0 and len(data) == size:
                body = body.rsplit("\n", 1)[0] if "\n" in body else ""
            parts.append(body)
            for raw in body.splitlines():
                line = _plain_line(raw)
                # a line, or one sentence of it: never a mere substring ("use tabs" is not "never use tabs in go")
                for piece in {line, *re.split(r"(?<=[.!?;。])\s+", line)}:
                    piece = _plain(piece)
                    if piece:
                        self.lines.add(piece)
                        key = _key_text(piece)
                        if key:
                            self.keys.add(key)
        self.text = "\n".join(parts)

    def holds(self, record: dict[str, Any], text: str, key: str) -> bool:
        if not self.text:
            return False
        if _plain(text) in self.lines or (key and key in self.keys):
            return True
        claim_id = record.get("id")
        return isinstance(claim_id, str) and len(claim_id) >= 8 and claim_id in self.text


def _plain(text: str) -> str:
    import unicodedata

    # undo what makes a claim inert inside an instruction file (&lt; &gt; and a full-width @)
    folded = unicodedata.normalize("NFKC", text).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return " ".join(folded.casefold().split()).strip(" .;:,!。")


def _plain_line(raw: str) -> str:
    import re

    line = re.sub(r"<!--.*?-->", " ", raw)
    line = re.sub(r"^\s*(?:[-*+•]|\d+[.)])\s+", "", line)
    line = re.sub(r"^\\(?=\S)", "", line.replace("**", "").replace("`", ""))
    return _plain(line)


def instruction_candidates(root: str, agent: str, cwd: str = "") -> list[str]:
    """Every path whose existence or content changes which instruction files the agent loads."""
    return agents.get(agent).candidates(root, cwd)


def instruction_files(paths: "AnyPaths", agent: str, cwd: str = "") -> "list[tuple[Path, int]]":
    """The instruction files the agent loads by itself that exist, each with how many bytes of it it reads (-1: all)."""
    from pathlib import Path

    return [(Path(p), n) for p, n in agents.get(agent).loaded(str(paths.project_root), cwd)]


def review_candidates(agent: str, root: str) -> list[tuple[str, str]]:
    """Every review entry this agent could have, in the order it is named: the plugin's, the project's, the user's."""
    me = agents.get(agent)
    plugin = me.plugin_review_entry()
    return ([plugin] if plugin else []) + me.review_entries(root)


def review_call(agent: str, root: str) -> str:
    """How the person reviews proposals in this agent: the entry install wrote, where one exists; else the command line."""
    for path, call in review_candidates(agent, root):
        if os.path.isfile(path):
            return call
    return "agent-memory promote"


def _staged_count(folder: str) -> int:
    try:
        with os.scandir(folder) as entries:
            return sum(1 for e in entries if e.name.endswith(".md") and e.is_file())
    except OSError:
        return 0


def _contested_keys(paths: "AnyPaths") -> set[str]:
    try:
        found = fastjson.read_file(str(paths.contested), None)
    except OSError as exc:
        log(paths, "read contested", exc)
        return set()
    return {k for k in found if isinstance(k, str)} if isinstance(found, dict) else set()


def _key_text(text: str) -> str:
    from ..claims import claim_key

    try:
        return claim_key(text).text
    except Exception:
        return ""

