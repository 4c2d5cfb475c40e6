"""connect_mcp_http: another MCP server's tools as operations over streamable HTTP (a real
server: the official SDK's MCPServer.streamable_http_app(), served by uvicorn on a thread,
answering with event streams or, with json_response=True, with JSON)."""
from __future__ import annotations

import json
import socket
import sys
import threading
import time
from typing import TypedDict

import pytest

from .helpers import arun, zero_duration

if sys.platform == "emscripten":
    pytest.skip("no sockets inside Pyodide: the test server runs on CPython", allow_module_level=True)
mcp = pytest.importorskip("mcp", reason="the MCP SDK (for the test server) is not installed "
                                        "(pip install 'onetool-wasm[test]')")

import uvicorn  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402
from mcp.server.transport_security import TransportSecuritySettings  # noqa: E402
from mcp.types import ToolAnnotations  # noqa: E402

from onetool_wasm import create_agent_cli  # noqa: E402
from onetool_wasm.catalog import McpHttpProvider, McpUnavailable, OperationError, connect_mcp_http  # noqa: E402
from onetool_wasm.catalog import UrllibTransport, mcp_http  # noqa: E402


# -- the server (also used by e2e/test_mcp_http_provider.py) --------------------------------------

class Note(TypedDict):
    name: str
    text: str


class Deleted(TypedDict):
    deleted: str
    remaining: int


def notes_server() -> MCPServer:
    notes = {"todo": "buy milk", "secret": "the key is s3cr3t-value"}
    server = MCPServer("notes", instructions="Notes kept by a test server over HTTP.")

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    def read_note(name: str) -> Note:
        """Read one note by name.

        Returns its text."""
        if name not in notes:
            raise ToolError(f"no note named {name}")
        return {"name": name, "text": notes[name]}

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False))
    def delete_note(name: str) -> Deleted:
        """Delete a note."""
        notes.pop(name, None)
        return {"deleted": name, "remaining": len(notes)}

    return server


class NotesHttpServer:
    """`NotesHttpServer(json_response=..., cors=...).start()`: `url` is http://127.0.0.1:<port>/mcp;
    `requests` lists (method, Mcp-Session-Id, MCP-Protocol-Version) of each request."""

    def __init__(self, *, json_response: bool = False, cors: bool = False) -> None:
        self.json_response = json_response
        app = notes_server().streamable_http_app(
            json_response=json_response,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
        if cors:
            from starlette.middleware.cors import CORSMiddleware
            app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["*"], allow_headers=["*"],
                               expose_headers=["Mcp-Session-Id"])
        self.requests: list[tuple[str, str | None, str | None]] = []

        async def recording(scope, receive, send):
            if scope["type"] == "http":
                headers = dict(scope["headers"])
                self.requests.append((scope["method"], _text(headers.get(b"mcp-session-id")),
                                      _text(headers.get(b"mcp-protocol-version"))))
            await app(scope, receive, send)

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.server = uvicorn.Server(uvicorn.Config(recording, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> "NotesHttpServer":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the MCP HTTP test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def _text(value: bytes | None) -> str | None:
    return value.decode("latin-1") if value is not None else None


# -- tests ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module", params=["sse", "json"])
def server(request):
    running = NotesHttpServer(json_response=request.param == "json").start()
    yield running
    running.stop()


@pytest.fixture()
def provider(server):
    value = arun(connect_mcp_http("notes", server.url, secrets=["s3cr3t-value"]))
    yield value
    arun(value.aclose())


def runtime_with(provider, **options):
    return arun(create_agent_cli(providers=[provider], **options))


def run(runtime, line):
    return zero_duration(arun(runtime.run(line)))


def test_tools_become_operations_with_kinds_and_schemas(provider):
    assert isinstance(provider, McpHttpProvider)
    read, delete = provider.operations
    assert (read.ref, read.kind, read.summary) == ("notes:read_note", "read", "Read one note by name.")
    assert read.description == "Read one note by name.\n\n        Returns its text."
    assert read.input_schema["required"] == ["name"]
    assert read.output_schema["required"] == ["name", "text"]
    assert set(read.output_schema["properties"]) == {"name", "text"}
    assert (delete.ref, delete.kind, delete.summary, delete.output_schema["required"]) == (
        "notes:delete_note", "write", "Delete a note.", ["deleted", "remaining"])
    assert provider.summary == "Notes kept by a test server over HTTP."
    assert provider.protocol_version == "2025-11-25"


def test_the_session_id_and_protocol_version_go_with_every_later_request(server, provider):
    arun(provider.call_tool("read_note", {"name": "todo"}))
    session = provider.session_id
    assert session
    mine = [entry for entry in server.requests if entry[1] == session]
    assert [method for method, _, _ in mine] == ["POST", "POST", "POST"]  # initialized, tools/list, tools/call
    assert {version for _, _, version in mine} == {"2025-11-25"}
    arun(provider.aclose())
    assert server.requests[-1] == ("DELETE", session, "2025-11-25")
    assert provider.closed
    with pytest.raises(OperationError, match=rf"^MCP server notes \({server.url}\) is closed$"):
        arun(provider.call_tool("read_note", {"name": "todo"}))


def test_calls_through_api_and_the_namespace_command(provider):
    runtime = runtime_with(provider)
    assert run(runtime, "notes read_note name=todo") == (
        '{\n  "name": "todo",\n  "text": "buy milk"\n}\n\n[exit:0 | 0ms]')
    assert run(runtime, "api call notes:read_note name=todo | json get text") == "buy milk\n\n[exit:0 | 0ms]"
    assert run(runtime, "api operations notes") == (
        "notes operations:\n"
        "  notes:read_note    read      — Read one note by name.\n"
        "  notes:delete_note  write     — Delete a note. (needs confirmation)\n\n"
        "Use: api describe <namespace:operation>\n"
        "Call: api call <namespace:operation> [json | key=value ...]\n\n[exit:0 | 0ms]")
    out = run(runtime, "notes read_note name=secret")
    assert "s3cr3t-value" not in out and "the key is **REDACTED**" in out


def test_a_tool_error_is_an_operation_error_with_its_text(provider):
    runtime = runtime_with(provider)
    assert run(runtime, "notes read_note name=nope") == (
        "[error] notes: notes:read_note failed: Error executing tool read_note: no note named nope\n\n[exit:1 | 0ms]")
    assert run(runtime, "notes read_note").startswith(
        "[error] notes: invalid input for notes:read_note (1 problem):\n  - at /: 'name' is a required property")


def test_the_policy_asks_before_the_write_tool(provider):
    asked = []
    declined = runtime_with(provider, confirm=lambda request: asked.append(request.ref) or "declined")
    assert run(declined, "notes delete_note name=todo") == (
        "[error] notes: notes:delete_note was declined by the user; nothing was run\n\n[exit:1 | 0ms]")
    assert run(declined, "notes read_note name=todo | json get text") == "buy milk\n\n[exit:0 | 0ms]"
    approved = runtime_with(provider, confirm=lambda request: asked.append(request.ref) or "approved")
    assert run(approved, "notes delete_note name=secret") == (
        '{\n  "deleted": "secret",\n  "remaining": 1\n}\n\n[exit:0 | 0ms]')
    assert asked == ["notes:delete_note", "notes:delete_note"]


def test_a_forgotten_session_is_opened_again(server, provider):
    old = provider.session_id
    provider.session_id = "no-such-session"  # as if the server had restarted
    assert arun(provider.call_tool("read_note", {"name": "todo"})) == {"name": "todo", "text": "buy milk"}
    assert provider.session_id not in (old, "no-such-session")


def test_an_unreachable_url_gives_a_clear_error():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/mcp"
    with pytest.raises(OperationError) as caught:
        arun(connect_mcp_http("notes", url, timeout=5))
    assert caught.value.message.startswith(
        f"MCP server notes ({url}): initialize: cannot reach http://127.0.0.1:{port}: [Errno 111] Connection refused")


def test_a_wrong_path_is_an_http_error(server):
    url = server.url.replace("/mcp", "/nothing")
    with pytest.raises(OperationError) as caught:
        arun(connect_mcp_http("notes", url))
    assert (caught.value.message, caught.value.status) == (
        f"MCP server notes ({url}): initialize: HTTP 404: Not Found", 404)


def test_event_streams_are_parsed_and_other_messages_ignored():
    stream = (b"event: message\r\ndata: {\"jsonrpc\": \"2.0\", \"method\": \"notifications/message\"}\r\n\r\n"
              b": a comment\nid: 7\ndata: {\"jsonrpc\": \"2.0\",\ndata:  \"id\": 3, \"result\": {}}\n\n")
    assert mcp_http._messages(stream, "text/event-stream") == [
        {"jsonrpc": "2.0", "method": "notifications/message"}, {"jsonrpc": "2.0", "id": 3, "result": {}}]
    assert mcp_http._messages(b'{"jsonrpc": "2.0", "id": 1, "result": {"a": 1}}', "application/json") == [
        {"jsonrpc": "2.0", "id": 1, "result": {"a": 1}}]


def test_pyodide_points_mcp_provider_to_streamable_http(monkeypatch):
    from onetool_wasm.catalog import McpProvider
    monkeypatch.setattr(sys, "platform", "emscripten")
    with pytest.raises(McpUnavailable, match=r"connect to a server over streamable HTTP instead, through the "
                                             r"page's fetch: await connect_mcp_http\(namespace, url"):
        McpProvider("notes", sys.executable, [])


def test_a_json_rpc_error_is_reported_with_its_message(server, provider):
    with pytest.raises(OperationError) as caught:
        arun(provider._request("no/such/method", {}))
    assert caught.value.message == (
        f"MCP server notes ({server.url}): no/such/method: Method not found (JSON-RPC error -32601)")


class RecordingTransport(UrllibTransport):
    def __init__(self):
        super().__init__(timeout=30)
        self.answers = []

    async def request(self, method, url, headers, body):
        status, response_headers, data = await super().request(method, url, headers, body)
        sent = json.loads(body).get("method") if body else None
        self.answers.append((method, sent, status, response_headers.get("content-type")))
        return status, response_headers, data


def test_answers_come_as_event_streams_or_json_as_the_server_chooses(server):
    transport = RecordingTransport()
    provider = arun(connect_mcp_http("notes", server.url, transport=transport))
    assert arun(provider.call_tool("read_note", {"name": "todo"})) == {"name": "todo", "text": "buy milk"}
    arun(provider.aclose())
    media = "application/json" if server.json_response else "text/event-stream"
    assert transport.answers == [
        ("POST", "initialize", 200, media), ("POST", "notifications/initialized", 202, "application/json"),
        ("POST", "tools/list", 200, media), ("POST", "tools/call", 200, media),
        ("DELETE", None, 200, "application/json")]


def test_a_page_descriptor_becomes_a_provider_over_the_page_http_call(server):
    from onetool_wasm.browser.bridge import PageBridge
    calls = []

    async def page_call(method, params):  # what web/js/onetool.js answers, here with urllib
        calls.append((method, params["namespace"], params["method"]))
        status, headers, body = await UrllibTransport().request(
            params["method"], params["url"], params["headers"], params["body"])
        return {"status": status, "headers": headers, "body": body}

    [provider] = arun(PageBridge(page_call).providers([
        {"type": "mcp", "namespace": "notes", "mcp": server.url, "headers": {"authorization": "Bearer t0ken-xyz"},
         "summary": None, "secrets": []}]))
    assert isinstance(provider, McpHttpProvider)
    assert [op.ref for op in provider.operations] == ["notes:read_note", "notes:delete_note"]
    assert provider.secrets == ("Bearer t0ken-xyz",)
    assert run(runtime_with(provider), "notes read_note name=todo | json get text") == "buy milk\n\n[exit:0 | 0ms]"
    assert calls == [("http", "notes", "POST")] * 4


def test_close_from_synchronous_code_ends_the_session(server):
    provider = arun(connect_mcp_http("notes", server.url))
    session = provider.session_id
    provider.close()
    assert provider.closed and server.requests[-1] == ("DELETE", session, "2025-11-25")
    provider.close()  # once only
    assert server.requests[-1] == ("DELETE", session, "2025-11-25") and len(
        [entry for entry in server.requests if entry[0] == "DELETE" and entry[1] == session]) == 1
