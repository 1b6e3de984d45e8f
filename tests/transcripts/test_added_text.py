"""Text an agent adds to a typed turn is cut out of it, whatever its words: image notes, editor context, hook
feedback, peer and teammate messages, system reminders, text beside a tool's answer.

Every shape is built from fresh made-up words (a seed per case), so that nothing here holds because of a wording:
what the reader goes by is where the text sits and how the agent marks it. Each added text is a standing instruction
in form, so a leak would become an atom.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

import pytest

from agent_memory.agents.reading import read_transcript
from agent_memory.ingest import atoms_from_turn

SEEDS = range(6)


class Words:
    """Made-up words from one seed: none is English, so none can be in a block list."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.name = self.word()  # one name a shape uses twice (a file, a tag)

    def word(self) -> str:
        consonants, vowels = "bdfgklmnprstvz", "aeiou"
        return "".join(self.rng.choice(consonants) + self.rng.choice(vowels) for _ in range(self.rng.randint(3, 4)))

    def camel(self) -> str:
        return self.word().capitalize() + self.word().capitalize()

    def rule(self) -> str:
        """A standing instruction in form, in made-up words."""
        return f"Always {self.word()} the {self.word()} {self.word()} before every {self.word()}."

    def typed(self) -> str:
        return f"From now on, never {self.word()} the {self.word()} without a {self.word()}."


def _words_of(text: str) -> set[str]:
    return {w.strip(".,:;!?\"'<>()[]{}").lower() for w in text.split()} - {""}


def _check(tmp_path: Path, name: str, lines: list[str] | str, typed: list[str], added: str, agent: str) -> None:
    """The user turns are exactly ``typed``; no word that only ``added`` holds reaches a turn or an atom."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(lines if isinstance(lines, str) else "".join(lines), encoding="utf-8")
    turns = [t for t in read_transcript(str(path), agent).turns if t.role == "user"]
    assert [t.text for t in turns] == typed
    own = _words_of(added) - _words_of(" ".join(typed)) - {"always", "the", "before", "every"}
    for turn in turns:
        kept = _words_of(turn.text) | {w for a in atoms_from_turn(turn, "p") for w in _words_of(a["text"] + " " + a["quote"])}
        assert not own & kept, (own & kept, turn.text)


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


# ------------------------------------------------------------------------------------------------ Claude Code


def _claude(content: Any, **fields: Any) -> str:
    return _line({"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w/p", "sessionId": "s1",
                  "version": "2.1.332", "type": "user", "message": {"role": "user", "content": content}, "uuid": "u1",
                  "timestamp": "2026-12-01T10:00:00Z", **fields})


def _blocks(*texts: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": t} for t in texts]


# (name, how the agent adds ``added`` to ``typed``: the record(s), and whether the typed words stay a turn)
CLAUDE: list[tuple[str, Callable[[Words, str, str], list[str]]]] = [
    ("image note after the words", lambda w, t, a: [_claude(_blocks(
        f"{t}\n[Image: original {w.rng.randint(900, 4000)}x{w.rng.randint(900, 4000)}, {a}]"))]),
    ("image note as a block", lambda w, t, a: [_claude([{"type": "image", "source": {"type": "base64", "data": "AA"}},
                                                         *_blocks(t, f"[Image: source: /tmp/{w.word()}.png {a}]")])]),
    ("image notes of other kinds", lambda w, t, a: [_claude(_blocks(
        f"[Image could not be processed: {a}]\n{t}\n[Image not shown, read it from /tmp/{w.word()}.png]"))]),
    ("image placeholder", lambda w, t, a: [_claude(f"[Image #{w.rng.randint(1, 9)}] {t}"),
                                           _claude(f"[Image: {a}]", isMeta=True)]),
    ("hook feedback after the words", lambda w, t, a: [_claude(f"{t}\n\n{w.camel()} hook feedback:\n{a}")]),
    ("hook feedback as a block", lambda w, t, a: [_claude(_blocks(t, f"{w.camel()} hook feedback:\n{a}"))]),
    ("hook feedback as a record", lambda w, t, a: [_claude(t), _claude(f"{w.camel()} hook feedback:\n{a}")]),
    ("hook error with a matcher", lambda w, t, a: [_claude(t), _claude(_blocks(f"{w.camel()}:{w.word()} hook error: {a}"))]),
    ("peer message after the words", lambda w, t, a: [_claude(
        f"{t}\n\nAnother Claude session sent a message: {a}")]),
    ("peer message as a block", lambda w, t, a: [_claude(_blocks(t, f"A teammate session sent you a message:\n{a}"))]),
    ("peer message as a record", lambda w, t, a: [_claude(t), _claude(f"Another Claude session sent a message: {a}")]),
    ("a peer's message while working", lambda w, t, a: [_claude(
        f"{t}\n\nA peer session sent a message while you were working:\n{a}")]),
    ("a coordinator's or a plugin's message", lambda w, t, a: [_claude(_blocks(
        t, f"The {w.word()} plugin sent a message:\n{a}", f"The coordinator sent a message while you were working: {a}"))]),
    ("a cross-session element", lambda w, t, a: [_claude(
        f'{t}\n<cross-session-message from="{w.word()}">\n{a}\n</cross-session-message>')]),
    ("system reminder after the words", lambda w, t, a: [_claude(f"{t}\n<system-reminder>\n{a}\n</system-reminder>")]),
    ("an element of a new name", lambda w, t, a: [_claude(_blocks(t, f'<{w.word()}-{w.word()} id="{w.word()}">\n{a}\n'
                                                                     f"</PLACEHOLDER>"))]),
    ("an unclosed element of a new name", lambda w, t, a: [_claude(f"{t}\n<{w.word()}_{w.word()}>\n{a}")]),
    ("teammate message", lambda w, t, a: [_claude(_blocks(f'<teammate-message teammate_id="{w.word()}">{a}'
                                                         "</teammate-message>", t))]),
]


def _close_element(lines: list[str]) -> list[str]:
    """The test's element closed by its own name (``PLACEHOLDER`` stands for it in the table)."""
    out = []
    for line in lines:
        if "</PLACEHOLDER>" in line:
            record = json.loads(line)
            for block in record["message"]["content"]:
                text = block["text"]
                if text.startswith("<") and "</PLACEHOLDER>" in text:
                    block["text"] = text.replace("</PLACEHOLDER>", f"</{text[1:].split(' ', 1)[0]}>")
            line = _line(record)
        out.append(line)
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,shape", CLAUDE, ids=[n for n, _ in CLAUDE])
def test_claude_keeps_the_typed_words_and_cuts_what_was_added(tmp_path: Path, seed: int, name: str,
                                                              shape: Callable[[Words, str, str], list[str]]) -> None:
    words = Words(seed)
    typed, added = words.typed(), words.rule()
    lines = _close_element(shape(words, typed, added))
    _check(tmp_path, "s1.jsonl", lines, [typed], added, "claude")


@pytest.mark.parametrize("seed", SEEDS)
def test_claude_a_typed_word_like_an_event_or_a_tag_stays(tmp_path: Path, seed: int) -> None:
    """What the cuts look for, typed inside a sentence, is the person's: only where the agent puts it is it cut."""
    words = Words(seed)
    typed = [f"Stop using the {words.word()} hook error handler we wrote.",
             f"Always wrap the {words.word()} in a <div> before rendering.",
             f"Never send {words.word()} a message from the {words.word()} agent without a retry.",
             f"The {words.word()} team sent a message: always rebase before merging."]
    _check(tmp_path, "s1.jsonl", [_claude(t) for t in typed], typed, "", "claude")


# ------------------------------------------------------------------------------------------------ Codex CLI


def _codex(kind: str, payload: dict[str, Any]) -> str:
    return _line({"timestamp": "2026-12-01T10:00:00.000Z", "type": kind, "payload": payload})


def _codex_meta(version: str) -> str:
    return _codex("session_meta", {"id": "s1", "cwd": "/w/p", "originator": "codex_cli_rs", "cli_version": version,
                                   "source": "cli"})


def _user_item(*texts: str) -> str:
    return _codex("response_item", {"type": "message", "role": "user",
                                    "content": [{"type": "input_text", "text": t} for t in texts]})


def _item_event(item: dict[str, Any]) -> str:
    return _codex("event_msg", {"type": "item_completed", "thread_id": "s1", "turn_id": "t1", "item": item})


CODEX: list[tuple[str, Callable[[Words, str, str], list[str]]]] = [
    # rollouts with no event copy: the response items are read
    ("a stop hook's prompt", lambda w, t, a: [_codex_meta("0.160.0"), _user_item(t), _user_item(
        f'<hook_prompt hook_run_id="stop:1:/w/p/.codex/{w.word()}.json">{a}</hook_prompt>')]),
    ("the tags around an image", lambda w, t, a: [_codex_meta("0.160.0"), _codex("response_item", {
        "type": "message", "role": "user", "content": [
            {"type": "input_text", "text": f'<image name=[Image #1] path="{w.word()}.png">'},
            {"type": "input_image", "image_url": "data:image/png;base64,AA"}, {"type": "input_text", "text": "</image>"},
            {"type": "input_text", "text": t}]})]),
    ("a block of a new name", lambda w, t, a: [_codex_meta("0.160.0"), _user_item(
        f"<{w.name}_{w.word()}>\n{a}\n</{w.name}_" + "PLACEHOLDER>"), _user_item(t)]),
    # 0.171 on: the UserMessage item is the typed input, beside any item the CLI sends on in the user role
    ("typed input beside an image", lambda w, t, a: [_codex_meta("0.171.0"), _item_event(
        {"type": "UserMessage", "id": "m1", "content": [{"type": "local_image", "path": f"{w.word()}.png"},
                                                       {"type": "text", "text": t, "text_elements": []}]}),
        _user_item(f'<image name=[Image #1] path="{w.word()}.png">', "</image>", t)]),
    ("typed input and a hook's prompt", lambda w, t, a: [_codex_meta("0.171.0"), _item_event(
        {"type": "UserMessage", "id": "m1", "content": [{"type": "text", "text": t, "text_elements": []}]}),
        _user_item(t), _item_event({"type": "HookPrompt", "id": "m2", "fragments": [{"text": a, "hookRunId": "stop:1"}]}),
        _user_item(f"<{w.word()}_{w.word()}>{a}</{w.word()}_{w.word()}>")]),
]


def _closed(text: str) -> str:
    """``text`` with each ``</x_PLACEHOLDER>`` (or ``-``) closing the element it ends, by that element's name."""
    while "PLACEHOLDER>" in text:
        end = text.index("PLACEHOLDER>")
        close = text.rindex("</", 0, end)
        start = text.rindex("<", 0, close)
        while text[start + 1] == "/":
            start = text.rindex("<", 0, start)
        name = text[start + 1 :].split(">", 1)[0].split(" ", 1)[0].split("\\", 1)[0]
        text = text[:close] + f"</{name}>" + text[end + len("PLACEHOLDER>") :]
    return text


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,shape", CODEX, ids=[n for n, _ in CODEX])
def test_codex_keeps_the_typed_words_and_cuts_what_was_added(tmp_path: Path, seed: int, name: str,
                                                             shape: Callable[[Words, str, str], list[str]]) -> None:
    words = Words(seed)
    typed, added = words.typed(), words.rule()
    lines = [_closed(line) for line in shape(words, typed, added)]
    _check(tmp_path, "rollout-2026-12-01T10-00-00-s1.jsonl", lines, [typed], added, "codex")


# ------------------------------------------------------------------------------------------------ Gemini CLI


def _gemini(messages: list[dict[str, Any]]) -> str:
    full = [{"id": f"m{n}", "timestamp": "2026-12-01T10:00:00Z", **m} for n, m in enumerate(messages)]
    return json.dumps({"sessionId": "s1", "projectHash": "ab" * 32, "startTime": "2026-12-01T10:00:00Z",
                       "lastUpdated": "2026-12-01T10:00:00Z", "messages": full})


def _editor_context(w: Words, a: str) -> str:
    return ("Here is the user's editor context as a JSON object. This is for your information only.\n```json\n"
            + json.dumps({"activeFile": {"path": f"/w/p/{w.word()}.py", "selectedText": a}}, indent=2) + "\n```")


GEMINI: list[tuple[str, Callable[[Words, str, str], list[dict[str, Any]]]]] = [
    ("text beside a tool's answer", lambda w, t, a: [
        {"type": "user", "content": [{"text": t}]}, {"type": "gemini", "content": "Noted."},
        {"type": "user", "content": [{"functionResponse": {"name": w.word(), "response": {"output": w.word()}}},
                                     {"text": a}]}]),
    ("the editor's context as a message", lambda w, t, a: [
        {"type": "user", "content": [{"text": _editor_context(w, a)}]}, {"type": "user", "content": [{"text": t}]}]),
    ("the editor's context beside the words", lambda w, t, a: [
        {"type": "user", "content": [{"text": t}, {"text": _editor_context(w, a)}]}]),
    ("a summary of the editor's changes", lambda w, t, a: [
        {"type": "user", "content": [{"text": t + "\n\nHere is a summary of changes in the user's editor context, in "
                                      "JSON format. This is for your information only.\n" + json.dumps({"a": a})}]}]),
    ("a hook's request to go on", lambda w, t, a: [
        {"type": "user", "content": [{"text": t}, {"text": f"<hook_context>{w.word()}</hook_context>"}],
         "displayContent": [{"text": t}]}, {"type": "gemini", "content": "Noted."},
        {"type": "user", "content": [{"text": a}], "displayContent": [{"text": t}]}]),
    ("a context part of a new name", lambda w, t, a: [
        {"type": "user", "content": [{"text": f'<{w.name}-{w.word()} kind="{w.word()}">\n{a}\n</{w.name}-PLACEHOLDER>'},
                                     {"text": t}]},
        {"type": "user", "content": [{"text": f"<{w.name}_{w.word()}>{a}</{w.name}_PLACEHOLDER>"}]}]),
    ("referenced files", lambda w, t, a: [
        {"type": "user", "content": [{"text": f"@{w.name}.md {t}"}, {"text": "\n--- Content from referenced files ---"},
                                     {"text": f"\nContent from @{w.name}.md:\n{a}"}],
         "displayContent": [{"text": f"@{w.name}.md {t}"}]}]),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,shape", GEMINI, ids=[n for n, _ in GEMINI])
def test_gemini_keeps_the_typed_words_and_cuts_what_was_added(tmp_path: Path, seed: int, name: str,
                                                              shape: Callable[[Words, str, str], list[Any]]) -> None:
    words = Words(seed)
    typed, added = words.typed(), words.rule()
    messages = shape(words, typed, added)
    shown = [m for m in messages if m["type"] == "user" and "displayContent" in m]
    expected = [t for m in messages[:1] for t in [shown[0]["displayContent"][0]["text"]]] if shown else [typed]
    _check(tmp_path, "session-2026-12-01T10-00-s1.json", _closed(_gemini(messages)), expected, added, "gemini")


# ------------------------------------------------------------------------------------------------ Copilot CLI


def _copilot(kind: str, data: dict[str, Any], **more: Any) -> str:
    return _line({"type": kind, "data": data, "id": f"e{random.random()}", "timestamp": "2026-12-01T10:00:00.000Z",
                  "parentId": None, **more})


def _copilot_start() -> str:
    return _copilot("session.start", {"sessionId": "s1", "copilotVersion": "1.0.102", "context": {"cwd": "/w/p"}})


COPILOT: list[tuple[str, Callable[[Words, str, str], list[str]]]] = [
    ("a stop hook's request", lambda w, t, a: [_copilot_start(), _copilot("user.message", {"content": t}),
        _copilot("hook.end", {"hookInvocationId": w.word(), "hookType": "agentStop", "success": True,
                              "output": {"decision": "block", "reason": a}}),
        _copilot("user.message", {"content": a, "delivery": "queued"})]),
    ("a sub-agent's prompt", lambda w, t, a: [_copilot_start(), _copilot("user.message", {"content": t}),
        _copilot("user.message", {"content": a, "source": f"agent-{w.word()}"}, agentId=w.word())]),
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,shape", COPILOT, ids=[n for n, _ in COPILOT])
def test_copilot_keeps_the_typed_words_and_cuts_what_was_added(tmp_path: Path, seed: int, name: str,
                                                               shape: Callable[[Words, str, str], list[str]]) -> None:
    words = Words(seed)
    typed, added = words.typed(), words.rule()
    _check(tmp_path, "session-state/s1/events.jsonl", shape(words, typed, added), [typed], added, "copilot")


@pytest.mark.parametrize("seed", SEEDS)
def test_copilot_a_stop_hooks_request_read_from_a_resume_point_is_not_typed(tmp_path: Path, seed: int) -> None:
    """The hook's end before the point where an earlier read stopped still marks the request after it."""
    words = Words(seed)
    typed, added = words.typed(), words.rule()
    lines = COPILOT[0][1](words, typed, added)
    path = tmp_path / "session-state" / "s1" / "events.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(lines), encoding="utf-8")
    offset = len("".join(lines[:-1]).encode("utf-8"))
    resumed = read_transcript(str(path), "copilot", start_offset=offset, start_line=len(lines) - 1)
    assert [t.text for t in resumed.turns if t.role == "user"] == []
