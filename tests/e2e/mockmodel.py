"""A model server on 127.0.0.1 that answers Claude Code, Codex CLI and Gemini CLI, and records what they sent.

Each API in the form its CLI streams it: Anthropic Messages (server-sent events), OpenAI Responses
(server-sent events) and Gemini ``streamGenerateContent?alt=sse``. Every answer is the same short
text; what matters is what the CLI sent, which ``requests`` keeps. A test that needs the model to
call a tool sets ``tool_call``: a request offering a tool named so (or ending in it) and holding no
tool result yet is answered with a call of that tool, in the API's own form.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

REPLY = "Noted."


@dataclass
class Recorded:
    """One request a CLI made: method, path and JSON body (None when it had none)."""

    method: str
    path: str
    body: Any


@dataclass
class MockModel:
    """The running server: its base URL and the requests it has seen, in order."""

    server: ThreadingHTTPServer
    requests: list[Recorded] = field(default_factory=list)
    tool_call: "tuple[str, dict[str, Any]] | None" = None  # (tool name or its ending, arguments) the model calls

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def bodies(self, path_part: str) -> list[Any]:
        return [r.body for r in self.requests if path_part in r.path and r.body is not None]


def _sse(events: list[tuple[str | None, dict[str, Any]]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode("utf-8")


def anthropic_stream(model: str) -> bytes:
    """A whole Messages API answer as the stream of events Claude Code reads."""
    usage = {"input_tokens": 10, "output_tokens": 2, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    return _sse([
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_mock", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": usage}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": REPLY}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                           "usage": {"output_tokens": 2}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def anthropic_message(model: str) -> dict[str, Any]:
    return {"id": "msg_mock", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": REPLY}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 2}}


def responses_stream(model: str) -> bytes:
    """A whole Responses API answer as the event stream Codex reads."""
    item = {"type": "message", "id": "msg_mock", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": REPLY, "annotations": []}]}
    response = {"id": "resp_mock", "object": "response", "model": model, "status": "completed", "output": [item],
                "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 2,
                          "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 12}}
    return _sse([
        ("response.created", {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": {**item, "status": "in_progress", "content": []}}),
        ("response.output_text.delta", {"type": "response.output_text.delta", "item_id": "msg_mock", "output_index": 0, "content_index": 0, "delta": REPLY}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": response}),
    ])


CALL_ID = "toolu_mock_call"


def offered_tools(body: Any) -> list[str]:
    """The names of the tools a request offers the model, whatever the API (``namespace.name`` inside Codex's namespaces)."""
    if not isinstance(body, dict):
        return []
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            if tool.get("type") == "namespace":
                names += [f"{tool.get('name')}.{t.get('name')}" for t in tool.get("tools") or [] if isinstance(t, dict)]
                continue
            names += [str(tool["name"])] if "name" in tool else []
            names += [str(f.get("name")) for f in tool.get("functionDeclarations") or [] if isinstance(f, dict)]
    return names


def wanted_tool(mock: "MockModel", body: Any) -> str:
    """The offered tool to call now: ``tool_call`` is set, an offered tool of a memory server ends in its name, and
    the request holds no tool result yet."""
    if mock.tool_call is None or not isinstance(body, dict):
        return ""
    raw = json.dumps(body)
    if any(mark in raw for mark in ('"tool_result"', '"function_call_output"', '"functionResponse"')):
        return ""
    wanted = mock.tool_call[0]
    found = [n for n in offered_tools(body) if n.endswith(wanted) and "memory" in n]
    return found[0] if found else ""


def anthropic_tool_stream(model: str, name: str, arguments: dict[str, Any]) -> bytes:
    """A Messages API answer that calls one tool."""
    usage = {"input_tokens": 10, "output_tokens": 2, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    return _sse([
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_mock_call", "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": usage}}),
        ("content_block_start", {"type": "content_block_start", "index": 0,
                                 "content_block": {"type": "tool_use", "id": CALL_ID, "name": name, "input": {}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                 "delta": {"type": "input_json_delta", "partial_json": json.dumps(arguments)}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                           "usage": {"output_tokens": 2}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def responses_tool_stream(model: str, name: str, arguments: dict[str, Any]) -> bytes:
    """A Responses API answer that calls one function."""
    namespace, _, name = name.rpartition(".")  # a tool inside a namespace is called by its name and the namespace's
    item = {"type": "function_call", "id": "fc_mock", "call_id": CALL_ID, "name": name, "arguments": json.dumps(arguments),
            "status": "completed", **({"namespace": namespace} if namespace else {})}
    response = {"id": "resp_mock_call", "object": "response", "model": model, "status": "completed", "output": [item],
                "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 2,
                          "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 12}}
    return _sse([
        ("response.created", {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": {**item, "arguments": ""}}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": response}),
    ])


def gemini_tool_chunk(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": arguments}}]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
            "modelVersion": "mock"}


def gemini_chunk() -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": REPLY}]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 2, "totalTokenCount": 12},
            "modelVersion": "mock"}


class _Handler(BaseHTTPRequestHandler):
    mock: MockModel

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _body(self) -> Any:
        size = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(size) if size else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        self.mock.requests.append(Recorded("GET", self.path, None))
        if "/models" in self.path:
            self._send(200, json.dumps({"data": [], "models": []}).encode(), "application/json")
        else:
            self._send(404, b"{}", "application/json")

    def do_HEAD(self) -> None:  # noqa: N802
        self.mock.requests.append(Recorded("HEAD", self.path, None))
        self._send(200, b"", "text/plain")

    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        self.mock.requests.append(Recorded("POST", self.path, body))
        model = body.get("model", "mock") if isinstance(body, dict) else "mock"
        path = self.path.split("?", 1)[0]
        tool = wanted_tool(self.mock, body)
        arguments = self.mock.tool_call[1] if self.mock.tool_call else {}
        if tool and path.endswith("/v1/messages") and isinstance(body, dict) and body.get("stream"):
            self._send(200, anthropic_tool_stream(model, tool, arguments), "text/event-stream")
            return
        if tool and path.endswith("/responses"):
            self._send(200, responses_tool_stream(model, tool, arguments), "text/event-stream")
            return
        if tool and path.endswith(":streamGenerateContent"):
            self._send(200, _sse([(None, gemini_tool_chunk(tool, arguments))]), "text/event-stream")
            return
        if path.endswith("/v1/messages/count_tokens"):
            self._send(200, b'{"input_tokens": 10}', "application/json")
        elif path.endswith("/v1/messages"):
            if isinstance(body, dict) and body.get("stream"):
                self._send(200, anthropic_stream(model), "text/event-stream")
            else:
                self._send(200, json.dumps(anthropic_message(model)).encode(), "application/json")
        elif path.endswith("/responses"):
            self._send(200, responses_stream(model), "text/event-stream")
        elif path.endswith(":streamGenerateContent"):
            self._send(200, _sse([(None, gemini_chunk())]), "text/event-stream")
        elif path.endswith(":generateContent"):
            self._send(200, json.dumps(gemini_chunk()).encode(), "application/json")
        elif path.endswith(":countTokens"):
            self._send(200, b'{"totalTokens": 10}', "application/json")
        else:
            self._send(404, b"{}", "application/json")


def start() -> MockModel:
    """Serve on a free port of 127.0.0.1, in a daemon thread."""
    handler = type("Handler", (_Handler,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    mock = MockModel(server)
    handler.mock = mock
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return mock


def refusing_proxy() -> tuple[ThreadingHTTPServer, str]:
    """A proxy address that answers every request with 403: whatever tries to leave the machine goes nowhere."""

    class Refuse(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _refuse(self) -> None:
            self.send_response(403)
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST = do_CONNECT = do_HEAD = do_PUT = _refuse  # noqa: N815

    server = ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}"
