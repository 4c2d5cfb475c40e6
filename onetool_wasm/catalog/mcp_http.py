"""Another MCP server's tools as operations, over the streamable HTTP transport (no SDK).

    provider = await connect_mcp_http("notes", "https://host/mcp", headers={"authorization": "Bearer ..."})
    runtime = await create_agent_cli(providers=[provider])
    ...
    await provider.aclose()          # DELETE: the server may end the session

A minimal client of the MCP streamable HTTP transport (spec 2025-06-18 / 2025-11-25) over
the `Transport` protocol (transport.py), so it runs on CPython (urllib) and in Pyodide (the
page's fetch, browser/bridge.py). Each JSON-RPC message is a POST to the endpoint with
`Accept: application/json, text/event-stream`; the answer is JSON or an event stream whose
`data:` lines hold messages (the one with the request's id is the answer, others are
ignored). The `Mcp-Session-Id` the server gives at initialize goes with every later
request, as does `MCP-Protocol-Version`. The handshake: initialize, then the
notifications/initialized notification (202), then tools/list (following nextCursor).

Tools map to operations as in McpProvider (mcp_provider.py): names, summaries, schemas,
kinds from annotations, results (structured content, else content). Errors are
OperationError: the HTTP status, a JSON-RPC error's message, a tool's error text. A session
the server forgot (HTTP 404) is opened again once.
"""
from __future__ import annotations

import asyncio
import json
import sys
from types import SimpleNamespace
from typing import Any, Iterable, Mapping

from .mcp_provider import _first_line, kind_from_annotations, operation_name, result_value
from .openapi import _credentials
from .operations import Operation, OperationError, Provider
from .transport import Transport, UnavailableTransport, UrllibTransport

PROTOCOL_VERSION = "2025-11-25"
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26")
CLIENT_INFO = {"name": "onetool-wasm", "version": "1"}
ACCEPT = "application/json, text/event-stream"
BODY_EXCERPT = 300  # characters of an unexpected answer quoted in an error


async def connect_mcp_http(namespace: str, url: str, *, transport: Transport | None = None,
                           headers: Mapping[str, str] | None = None, summary: str | None = None,
                           secrets: Iterable[str] = (), timeout: float = 60.0) -> "McpHttpProvider":
    """Connect to the MCP server at `url`, list its tools: a provider of `namespace`.

    `headers` (e.g. authorization) go with every request; their values are hidden like
    `secrets`. `timeout` is the default transport's (on CPython); a given transport has its own.
    """
    provider = McpHttpProvider(namespace, url, transport=transport, headers=headers, summary=summary,
                               secrets=secrets, timeout=timeout)
    await provider.connect()
    return provider


class McpHttpProvider(Provider):
    """The tools of an MCP server over streamable HTTP; build it with `connect_mcp_http`."""

    def __init__(self, namespace: str, url: str, *, transport: Transport | None = None,
                 headers: Mapping[str, str] | None = None, summary: str | None = None,
                 secrets: Iterable[str] = (), timeout: float = 60.0) -> None:
        self.headers = dict(headers or {})
        super().__init__(namespace, (), summary or "", [*secrets, *_credentials(self.headers, {})])
        self.url = url
        self.transport = transport if transport is not None else \
            UnavailableTransport() if sys.platform == "emscripten" else UrllibTransport(timeout)
        self._summary_given = summary is not None
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self.server_info: dict[str, Any] = {}
        self.closed = False
        self._next_id = 0
        self._closing: asyncio.Task[None] | None = None  # close() inside a running loop

    @property
    def _label(self) -> str:
        return f"MCP server {self.namespace} ({self.url})"

    # -- the session -----------------------------------------------------------------------------

    async def connect(self) -> None:
        await self._initialize()
        tools: list[dict[str, Any]] = []
        cursor = None
        while True:
            listing = await self._request("tools/list", {"cursor": cursor} if cursor else {})
            tools += [tool for tool in listing.get("tools") or () if isinstance(tool, Mapping)]
            cursor = listing.get("nextCursor")
            if not cursor:
                break
        for tool in tools:
            self.add(self._operation(tool))

    async def _initialize(self) -> None:
        self.session_id = None
        self.protocol_version = None
        result = await self._request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": CLIENT_INFO})
        version = result.get("protocolVersion")
        if version not in SUPPORTED_VERSIONS:
            raise OperationError(f"{self._label}: unsupported protocol version {version!r} "
                                 f"(this client speaks {', '.join(SUPPORTED_VERSIONS)})")
        self.protocol_version = version
        info = result.get("serverInfo") if isinstance(result.get("serverInfo"), Mapping) else {}
        self.server_info = dict(info)
        if not self._summary_given:
            self.summary = _first_line(result.get("instructions")) or _first_line(info.get("title")) or \
                f"Tools of the MCP server {info.get('name') or self.url}"
        await self._notify("notifications/initialized")

    def _operation(self, tool: Mapping[str, Any]) -> Operation:
        tool_name = str(tool.get("name") or "")
        annotations = tool.get("annotations") if isinstance(tool.get("annotations"), Mapping) else {}
        description = str(tool.get("description") or "").strip()
        title = tool.get("title") or annotations.get("title")
        name = operation_name(tool_name)
        hints = SimpleNamespace(read_only_hint=annotations.get("readOnlyHint"),
                                destructive_hint=annotations.get("destructiveHint"))
        output = tool.get("outputSchema")
        return Operation(namespace=self.namespace, name=name, handler=self._handler(tool_name),
                         summary=_first_line(description) or _first_line(title) or name, description=description,
                         kind=kind_from_annotations(hints if annotations else None),
                         input_schema=dict(tool.get("inputSchema") or {"type": "object", "properties": {}}),
                         output_schema=dict(output) if isinstance(output, Mapping) and output else None)

    def _handler(self, tool_name: str) -> Any:
        async def handler(input: dict[str, Any]) -> Any:
            return await self.call_tool(tool_name, input)
        return handler

    async def call_tool(self, tool_name: str, arguments: dict[str, Any]) -> Any:
        if self.closed:
            raise OperationError(f"{self._label} is closed")
        params = {"name": tool_name, "arguments": arguments}
        try:
            result = await self._request("tools/call", params, what=tool_name)
        except _SessionGone:
            await self._initialize()  # the server forgot the session (restarted, expired): once more
            result = await self._request("tools/call", params, what=tool_name)
        return result_value(_result(result))

    async def aclose(self) -> None:
        """End the session: DELETE with its id (failures ignored; a server may answer 405)."""
        if self.closed:
            return
        self.closed = True
        if self.session_id is None:
            return
        try:
            await self.transport.request("DELETE", self.url, self._headers(), None)
        except Exception:  # noqa: BLE001 (closing is best effort)
            pass

    def close(self) -> None:
        """As aclose, from synchronous code (inside a running loop: scheduled on it)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(self.aclose())
            return
        self._closing = loop.create_task(self.aclose())

    # -- JSON-RPC over HTTP ------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        headers = {**self.headers, "accept": ACCEPT, "content-type": "application/json"}
        if self.session_id:
            headers["mcp-session-id"] = self.session_id
        if self.protocol_version:
            headers["mcp-protocol-version"] = self.protocol_version
        return headers

    async def _post(self, message: dict[str, Any], what: str) -> tuple[int, dict[str, str], bytes]:
        body = json.dumps(message).encode("utf-8")
        try:
            return await self.transport.request("POST", self.url, self._headers(), body)
        except OperationError as error:
            raise OperationError(f"{self._label}: {what}: {error.message}") from None

    async def _notify(self, method: str) -> None:
        status, _, data = await self._post({"jsonrpc": "2.0", "method": method}, method)
        if not 200 <= status < 300:
            raise OperationError(f"{self._label}: {method}: HTTP {status}{_excerpt(data)}", status=status)

    async def _request(self, method: str, params: dict[str, Any], what: str | None = None) -> dict[str, Any]:
        self._next_id += 1
        request_id = self._next_id
        what = what or method
        status, headers, data = await self._post(
            {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}, what)
        if status == 404 and self.session_id and method != "initialize":
            raise _SessionGone(f"{self._label}: {what}: HTTP 404 (the server no longer knows the session)",
                               status=404)
        if method == "initialize" and headers.get("mcp-session-id"):
            self.session_id = headers["mcp-session-id"]
        messages = _messages(data, headers.get("content-type", ""))
        answer = next((m for m in messages if m.get("id") == request_id and ("result" in m or "error" in m)), None)
        if answer is not None and isinstance(answer.get("error"), Mapping):
            error = answer["error"]
            raise OperationError(f"{self._label}: {what}: {error.get('message') or 'error'} "
                                 f"(JSON-RPC error {error.get('code')})", details=error.get("data"))
        if not 200 <= status < 300:
            raise OperationError(f"{self._label}: {what}: HTTP {status}{_excerpt(data)}", status=status)
        if answer is None:
            raise OperationError(f"{self._label}: {what}: no JSON-RPC response with id {request_id} in the "
                                 f"answer{_excerpt(data)}")
        result = answer.get("result")
        if not isinstance(result, Mapping):
            raise OperationError(f"{self._label}: {what}: the result is not an object{_excerpt(data)}")
        return dict(result)


class _SessionGone(OperationError):
    """HTTP 404 for a request with a session id: the server no longer knows the session."""


def _messages(data: bytes, content_type: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an answer: a JSON body, or the `data:` of each server-sent event."""
    media = content_type.split(";")[0].strip().lower()
    text = data.decode("utf-8", errors="replace")
    if media == "text/event-stream":
        payloads, lines = [], []
        for line in [*text.splitlines(), ""]:
            if line == "":  # an event ends
                if lines:
                    payloads.append("\n".join(lines))
                lines = []
            elif line.startswith("data:"):
                value = line[5:]
                lines.append(value[1:] if value.startswith(" ") else value)
    else:
        payloads = [text]
    messages: list[dict[str, Any]] = []
    for payload in payloads:
        try:
            value = json.loads(payload)
        except ValueError:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                messages.append(item)
    return messages


def _result(result: Mapping[str, Any]) -> Any:
    """A tools/call result (JSON) shaped like the SDK's CallToolResult, for result_value."""
    return SimpleNamespace(is_error=bool(result.get("isError")), structured_content=result.get("structuredContent"),
                           content=[_Block(block) for block in result.get("content") or () if isinstance(block, Mapping)])


class _Block:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = dict(data)
        self.type = self.data.get("type")
        self.text = self.data.get("text")

    def model_dump(self, **_: Any) -> dict[str, Any]:
        return {key: value for key, value in self.data.items() if value is not None}


def _excerpt(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace").strip()
    if not text:
        return ""
    return ": " + (text if len(text) <= BODY_EXCERPT else text[:BODY_EXCERPT] + "…")
