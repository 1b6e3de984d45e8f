"""The read-only tools the MCP server offers an agent: search, why, contested, status.

Each tool checks its arguments itself (a wrong type, an empty or huge query, control characters: a
``ToolRefused``, never an exception the server does not expect), calls the library function the CLI
calls, and hands back one JSON document that passed the privacy rules of staged files (no secret, no
absolute path, no user name, nothing our hooks injected) and fits the agent's output budget. Nothing
here adopts, forgets or writes a file a person reviews; ``search`` keeps the shadow index current, as
``agent-memory search`` does. Standard library only: the server's SDK is not needed to test these.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .errors import AgentMemoryError
from .store import Paths

MAX_QUERY_CHARS = 500  # a question, not a document: longer is refused before anything is searched
MAX_HITS = 20
DEFAULT_HITS = 5
QUOTE_CHARS = 300  # of a hit's or an observation's quote, as staged files show it

TOOLS: dict[str, dict[str, Any]] = {
    "search": {
        "description": ("Ranked recall over this project's memory: rules the person stated in past sessions, adopted "
                        "claims and past question/answer exchanges. Each hit says where it came from (tier, session, "
                        "transcript line) and on which day. Ask it things like 'why do we use pnpm here?'."),
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "words to look for (plain words; no search syntax needed)"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_HITS,
                          "description": f"how many hits (default {DEFAULT_HITS})"},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
    "why": {
        "description": ("Where one remembered claim came from: every wording the person used, each session, day and "
                        "transcript line, whether it is adopted, contested or verified. Give a claim id or some of its "
                        "words; several or no matching claims give an error naming them, never a guess."),
        "inputSchema": {
            "type": "object",
            "properties": {"claim": {"type": "string", "description": "a claim id (or its first 6+ characters) or words of the claim"}},
            "required": ["claim"],
            "additionalProperties": False,
        },
    },
    "contested": {
        "description": ("Every open contradiction in this project's memory: pairs of rules the person said that "
                        "disagree (e.g. two different PR base branches) and that no one has settled yet."),
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    },
    "status": {
        "description": ("Whether this project's memory is working: healthy or not and why, last ingest, hook errors "
                        "and timings, store sizes, proposals waiting for review, open contradictions."),
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}


class ToolRefused(AgentMemoryError):
    """A tool call the server answers with a tool error: bad arguments, or no single claim to show."""


# ---------------------------------------------------------------- arguments


def _arguments(name: str, arguments: Any) -> dict[str, Any]:
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolRefused(f"{name} takes an object of arguments, not {type(arguments).__name__}")
    allowed = set(TOOLS[name]["inputSchema"]["properties"])
    extra = sorted(str(k)[:40] for k in arguments if k not in allowed)
    if extra:
        raise ToolRefused(f"{name} takes no argument {', '.join(extra)}" + (f" (it takes: {', '.join(sorted(allowed))})" if allowed else ""))
    for key in TOOLS[name]["inputSchema"].get("required", []):
        if key not in arguments:
            raise ToolRefused(f"{name} needs the argument {key!r}")
    return arguments


def _text(value: Any, what: str) -> str:
    """A query as words: a string, control and format characters dropped, not empty, not huge."""
    from .redact import neutralise

    if not isinstance(value, str):
        raise ToolRefused(f"{what} must be a string, not {type(value).__name__}")
    if len(value) > MAX_QUERY_CHARS * 4:  # refused before any work on it, whatever it holds
        raise ToolRefused(f"{what} is {len(value)} characters long; at most {MAX_QUERY_CHARS}")
    cleaned = " ".join(neutralise(value.replace("\x00", " ")).split())
    if not cleaned:
        raise ToolRefused(f"{what} is empty")
    if len(cleaned) > MAX_QUERY_CHARS:
        raise ToolRefused(f"{what} is {len(cleaned)} characters long; at most {MAX_QUERY_CHARS}")
    return cleaned


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToolRefused(f"{what} must be a whole number, not {type(value).__name__}")
    if not 1 <= value <= MAX_HITS:
        raise ToolRefused(f"{what} must be between 1 and {MAX_HITS}")
    return value


# ---------------------------------------------------------------- privacy


class Cleaner:
    """What every string of an answer passes, as a staged file's text does: control characters out, secrets
    redacted, project paths relative, homes ``~``, user names ``<user>``, and no block our hooks injected."""

    def __init__(self, paths: Paths) -> None:
        from .redact import scrubber

        self._scrub = scrubber(str(paths.project_root))
        self._seen: dict[str, str] = {}

    def text(self, value: str) -> str:
        done = self._seen.get(value)
        if done is None:
            from .redact import neutralise, redact
            from .transcripts.injected import strip_injected

            done = self._scrub(redact(strip_injected(neutralise(value))).text)
            if len(self._seen) < 4096:
                self._seen[value] = done
        return done

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(k)): self.value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.value(v) for v in value]
        return value


# ---------------------------------------------------------------- the budget


def budget(agent: str) -> tuple[int, str]:
    """What the agent keeps of one answer, in its unit: the limit its module states for one hook's context."""
    from . import agents

    if agent in agents.NAMES:
        limit: tuple[int, str] = agents.get(agent).limit
        return limit
    return (10_000, "chars")


def size(text: str, unit: str) -> int:
    if unit == "bytes":
        return len(text.encode("utf-8"))
    if unit == "escaped":  # Gemini shows < and > as &lt; and &gt;
        return len(text) + 3 * (text.count("<") + text.count(">"))
    return len(text)


def render(found: dict[str, Any], agent: str, listed: str = "") -> str:
    """``found`` as compact JSON within the agent's budget: entries of the ``listed`` list are dropped from the end
    (and counted in ``left_out``) until it fits; what still does not fit has its long strings cut."""
    limit, unit = budget(agent)
    text = json.dumps(found, ensure_ascii=False)
    if size(text, unit) <= limit:
        return text
    items = list(found.get(listed, [])) if listed else []
    shown = dict(found)
    while items:
        items.pop()
        shown[listed] = items
        shown["left_out"] = len(found[listed]) - len(items)
        text = json.dumps(shown, ensure_ascii=False)
        if size(text, unit) <= limit:
            return text
    cut = 2000
    while cut >= 20:
        text = json.dumps(_cut_strings(shown, cut), ensure_ascii=False)
        if size(text, unit) <= limit:
            return text
        cut //= 2
    return json.dumps({"error": "the answer does not fit this agent's output budget", "left_out": len(found.get(listed, []))})


def _cut_strings(value: Any, cut: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= cut else value[: cut - 1] + "…"
    if isinstance(value, dict):
        return {k: _cut_strings(v, cut) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, cut) for v in value]
    return value


# ---------------------------------------------------------------- the tools


def _quote(text: Any) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"


_TIER = {"atoms": "L1", "chunks": "past session", "L2": "L2", "L3": "L3"}


def search(paths: Paths, arguments: dict[str, Any]) -> dict[str, Any]:
    from .recall import search as recall

    query = _text(arguments["query"], "query")
    limit = _count(arguments.get("limit", DEFAULT_HITS), "limit")
    hits, withheld = [], 0
    for hit in recall(paths, query, limit=limit):
        src = hit.source()
        if "[REDACTED" in hit.text or "[REDACTED" in str(src["quote"]):
            withheld += 1  # quarantined, as in staged files: that a secret was there is not for an agent to see
            continue
        hits.append({
            "text": hit.text, "kind": hit.kind, "day": hit.date[:10], "score": round(hit.score, 4),
            "source": {"tier": _TIER.get(hit.source_name, hit.source_name), "session": src["session"],
                       "line": src["line"], "quote": _quote(src["quote"])},
        })
    return {"query": query, "hits": hits, **({"withheld_redacted": withheld} if withheld else {})}


def _claim(found: dict[str, Any]) -> dict[str, Any]:
    """A claim as an agent reads it: the contract's ``A`` shape without transcript paths (local only)."""
    keep = {k: v for k, v in found.items() if k != "sources"}
    keep["sources"] = [
        {"session": s.get("session", ""), "day": str(s.get("timestamp", ""))[:10], "line": s.get("line", 0),
         "quote": _quote(s.get("quote", "")), **({"scope": s["scope"]} if s.get("scope") else {})}
        for s in found.get("sources", [])
    ]
    return keep


def why(paths: Paths, arguments: dict[str, Any]) -> dict[str, Any]:
    from .errors import Ambiguous, NotFound
    from .promote import plan
    from .review.why import resolve_why, why_json

    wanted = _text(arguments["claim"], "claim")
    try:
        claim = resolve_why(wanted, plan(paths).claims)
    except (Ambiguous, NotFound) as exc:
        raise ToolRefused(str(exc).replace("--why", "why")) from None
    return {"claim": _claim(why_json(claim))}


def contested(paths: Paths, arguments: dict[str, Any]) -> dict[str, Any]:
    from .promote import plan
    from .review.why import contested as open_contradictions

    return {"contested": [{"claim": _claim(e["claim"]), "contested_by": [_claim(c) for c in e["contested_by"]]}
                          for e in open_contradictions(plan(paths))]}


def status(paths: Paths, arguments: dict[str, Any]) -> dict[str, Any]:
    from .health import status as health

    found = health(paths)
    found.pop("store", None)  # an absolute path, local only; whether it exists is what the agent needs
    return found


RUN: dict[str, Callable[[Paths, dict[str, Any]], dict[str, Any]]] = {
    "search": search, "why": why, "contested": contested, "status": status,
}
LISTED = {"search": "hits", "contested": "contested", "why": "", "status": ""}


def call(paths: Paths, name: Any, arguments: Any, agent: str = "") -> str:
    """One tool call's answer as text; ``ToolRefused`` for anything the caller got wrong or that names no one claim."""
    if not isinstance(name, str) or name not in RUN:
        raise ToolRefused(f"no tool named {str(name)[:60]!r}: the tools are {', '.join(TOOLS)}")
    found = RUN[name](paths, _arguments(name, arguments))
    return render(Cleaner(paths).value(found), agent, LISTED[name])
