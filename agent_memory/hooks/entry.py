"""A hook from its command line to what it tells the agent: arguments, stdin, the event's work, failing open, and
the budget a context must fit in (the agent's own form and limit are its module's, in ``agents/``)."""

from __future__ import annotations

import os
import sys
import time

from .. import agents, fastjson
from .cache import HookCache, cached_config
from .where import RUN, has_project, log, log_anywhere, store_for, text_field

TYPE_CHECKING = False  # typing itself is not imported on the hot path
if TYPE_CHECKING:  # pragma: no cover - types only
    import argparse
    from typing import Any


EVENTS = ("session-start", "user-prompt-submit", "session-end")


SWITCHES = {
    "session-start": "AGENT_MEMORY_SESSIONSTART",
    "user-prompt-submit": "AGENT_MEMORY_USERPROMPTSUBMIT",
    "session-end": "AGENT_MEMORY_SESSIONEND",
}


STDIN_TIMEOUT = 2.0  # seconds to wait for the hook JSON; some agents never close stdin


STDIN_LIMIT = 8 * 1024 * 1024


class HookArgs:
    """What a hook command line says: the event, the agent, and an optional store folder."""

    def __init__(self, event: str, agent: str = agents.DEFAULT, memory_dir: str | None = None) -> None:
        self.event, self.agent, self.memory_dir = event, agent, memory_dir


def hook_args(argv: list[str]) -> HookArgs | None:
    """``[--memory-dir D] hook EVENT [--agent A] [--memory-dir D]`` read by hand, or None for anything else."""
    memory_dir = None
    rest = list(argv)
    if rest[:1] == ["--memory-dir"] and len(rest) >= 2:
        memory_dir, rest = rest[1], rest[2:]
    if rest[:1] != ["hook"] or "-h" in rest or "--help" in rest:
        return None
    event, agent = "", agents.DEFAULT
    items = iter(rest[1:])
    for item in items:
        if item in ("--agent", "--memory-dir"):
            value = next(items, "")
            if item == "--agent":
                agent = value
            else:
                memory_dir = value
        elif item.startswith("--agent="):
            agent = item.split("=", 1)[1]
        elif item.startswith("--memory-dir="):
            memory_dir = item.split("=", 1)[1]
        elif not event:
            event = item
    return HookArgs(event, agent, memory_dir)


def main(argv: list[str]) -> int:
    """``run_hook.py EVENT [--agent A] [--memory-dir D]``: one hook; always exits 0."""
    args = hook_args(["hook", *argv])
    return cmd_hook(args) if args is not None else 0


def cmd_hook(args: "argparse.Namespace | HookArgs") -> int:
    """``agent-memory hook EVENT``: run one hook; never raises, always returns 0."""
    started = time.monotonic()
    RUN.update(store="", errors=0)
    try:
        event = str(getattr(args, "event", "") or "")
        agent = str(getattr(args, "agent", "") or agents.DEFAULT)
        if event not in EVENTS or agent not in agents.NAMES:
            return 0
        if os.environ.get(SWITCHES[event], "").strip() == "0":
            return 0
        raw = read_stdin(STDIN_TIMEOUT)
        output = run_hook(event, agent, raw, getattr(args, "memory_dir", None), started)
        if output is not None:
            emit(output)
    except BaseException as exc:  # fail open, whatever it was
        log_anywhere(getattr(args, "memory_dir", None), f"hook {getattr(args, 'event', '?')}", exc)
    from .. import hooklog

    hooklog.record(RUN["store"], str(getattr(args, "event", "")), str(getattr(args, "agent", "")),
                   time.monotonic() - started, RUN["errors"])
    return 0


def run_hook(event: str, agent: str, raw: bytes, memory_dir: str | None, started: float) -> "dict[str, Any] | None":
    """One hook from its raw stdin to the JSON to print (None: print nothing)."""
    payload, problem = parse_payload(raw)
    payload = agents.get(agent).hook_input(payload)
    where = store_for(memory_dir, text_field(payload, "cwd") or os.getcwd())
    if problem:
        log(where, f"hook {event}", problem)
    cache = HookCache(where.l1_dir)
    if event == "session-start":
        from .session_end import catch_up
        from .session_start import cached_session_start, with_warning

        # a project without a store still gets the L3 claims: remember those in the user store
        start_cache = cache if os.path.isdir(where.l1_dir) else HookCache(where.user)
        text = cached_session_start(where, agent, text_field(payload, "cwd"), start_cache)
        text = with_warning(where, agent, text, cached_config(where, cache))
        output = context_output(agent, event, text)
        if output is not None:
            emit(output)  # the context goes out first; catching up must not delay it
        if has_project(where, memory_dir):
            catch_up(where, agent, payload, cache)
        return None
    if event == "user-prompt-submit":
        from .prompt import person_prompt, prompt_context

        # Gemini hands BeforeAgent the prompt with our own session-start context in front of it
        prompt = person_prompt(text_field(payload, "prompt"))
        if not prompt or not os.path.isfile(where.atoms):
            return None
        return context_output(agent, event, prompt_context(where, cached_config(where, cache), prompt, agent))
    if payload and has_project(where, memory_dir):
        from .session_end import session_end

        session_end(where, agent, payload, cached_config(where, cache), started)
    return None


def read_stdin(timeout: float) -> bytes:
    """The hook JSON on stdin, without waiting past ``timeout`` for an EOF that may never come."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):
        return b""
    if os.isatty(fd):
        return b""
    chunks: list[bytes] = []
    # an agent has written its JSON by the time the interpreter is up: taking what is there first,
    # without waiting, usually finishes the read before ``select`` would even be loaded
    if _read_waiting(fd, chunks):
        return b"".join(chunks)
    import select

    size = sum(map(len, chunks))
    deadline = time.monotonic() + timeout
    while size < STDIN_LIMIT:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            ready, _w, _x = select.select([fd], [], [], remaining)
        except (OSError, ValueError):
            break
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if _finished(chunk, chunks):
            break
    return b"".join(chunks)


def _read_waiting(fd: int, chunks: list[bytes]) -> bool:
    """Append what ``fd`` holds already to ``chunks``, without blocking; True when the read is over
    (an EOF, one whole JSON object, the size limit or an error), False when more may still arrive."""
    try:
        blocking = os.get_blocking(fd)
        os.set_blocking(fd, False)
    except (OSError, AttributeError):
        return False  # no non-blocking reads here: wait for it with select
    size = 0
    try:
        while size < STDIN_LIMIT:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return False
            except OSError:
                return True
            if not chunk:
                return True
            chunks.append(chunk)
            size += len(chunk)
            if _finished(chunk, chunks):
                return True
        return True
    finally:
        try:
            os.set_blocking(fd, blocking)
        except OSError:
            pass


def _finished(last: bytes, chunks: list[bytes]) -> bool:
    # an agent that leaves stdin open still sent one whole JSON object: stop as soon as it parses
    return last.rstrip().endswith(b"}") and _is_json_object(b"".join(chunks))


def _is_json_object(data: bytes) -> bool:
    try:
        return isinstance(fastjson.loads(data), dict)
    except fastjson.JSON_ERRORS:
        return False


def parse_payload(raw: bytes) -> tuple[dict[str, Any], str]:
    """The hook JSON as a dict, and what was wrong with it ("" when nothing)."""
    if not raw.strip():
        return {}, "no hook JSON on stdin"
    try:
        value = fastjson.loads(raw)
    except fastjson.JSON_ERRORS as exc:
        return {}, f"stdin is not JSON: {exc}"
    if not isinstance(value, dict):
        return {}, f"stdin is JSON but not an object ({type(value).__name__})"
    wrong = [k for k in ("session_id", "transcript_path", "cwd", "prompt") if k in value and not isinstance(value[k], (str, type(None)))]
    if wrong:
        # a field of the wrong type is treated as absent
        return {k: v for k, v in value.items() if k not in wrong}, f"hook JSON fields of the wrong type: {', '.join(wrong)}"
    return value, ""


def emit(output: dict[str, Any]) -> None:
    # ASCII-only JSON: valid whatever encoding the agent reads stdout with
    try:
        sys.stdout.write(fastjson.dumps(output) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass


# ---------------------------------------------------------------- what a hook tells the agent

CONTEXT_CAP = 10_000  # characters: no hook says more than this, whatever the config asks


def measure(text: str, unit: str) -> int:
    """The size of ``text`` as an agent counts it."""
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "escaped":
        return len(text) + 3 * (text.count("<") + text.count(">"))
    return len(text)


class Budget:
    """Room for context: so many characters (the config's budget), and whatever the agent itself keeps."""

    def __init__(self, agent: str, chars: int) -> None:
        self.limits = [(max(0, min(int(chars), CONTEXT_CAP)), "chars")]
        limit, unit = agents.get(agent).limit if agent in agents.NAMES else (0, "chars")
        if limit:
            self.limits.append((limit, unit))

    def cost(self, text: str) -> list[int]:
        return [measure(text, unit) for _limit, unit in self.limits]

    def fits(self, used: list[int], extra: list[int]) -> bool:
        return all(u + e <= limit for u, e, (limit, _unit) in zip(used, extra, self.limits))

    def zero(self) -> list[int]:
        return [0] * len(self.limits)


TAG_CONTESTED = "[contested]"


def context_output(agent: str, event: str, text: str) -> "dict[str, Any] | None":
    if not text:
        return None
    return agents.get(agent).context_output(event, text)


def fit(groups: list[tuple[str, list[str]]], note: str, budget: Budget, more: str = "") -> str:
    """Whole lines only, within ``budget``: as many as fit, a count of the rest, then the note."""
    reserve = budget.cost(note + "\n") if note else budget.zero()
    out, left_out = _fill(groups, reserve, budget)
    if left_out and more:
        # make room for the line that says how many were left out
        widest = _add(reserve, budget.cost(more.format(n=10**6, s="s") + "\n"))
        out, left_out = _fill(groups, widest, budget)
        _append_within(out, more.format(n=left_out, s="s" if left_out != 1 else ""), budget, reserve)
    if note:
        _append_within(out, note, budget, budget.zero())
    return "\n".join(out)


def _add(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b)]


def _append_within(out: list[str], line: str, budget: Budget, reserve: list[int]) -> None:
    used = budget.cost("".join(x + "\n" for x in out))
    if budget.fits(_add(used, reserve), budget.cost(line)):
        out.append(line)


def _fill(groups: list[tuple[str, list[str]]], reserve: list[int], budget: Budget) -> tuple[list[str], int]:
    out: list[str] = []
    used = budget.zero()
    left_out = 0
    for heading, lines in groups:
        block = [heading]
        size = budget.cost(heading + "\n")
        for line in lines:
            cost = budget.cost(line + "\n")
            if budget.fits(_add(_add(used, size), reserve), cost):
                block.append(line)
                size = _add(size, cost)
            else:
                left_out += 1
        if len(block) > 1:
            out.extend(block)
            used = _add(used, size)
    return out, left_out
