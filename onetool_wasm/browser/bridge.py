"""What the page supplies, seen from Python: adapters, consent, providers, HTTP.

Everything here goes through one coroutine function, `call(method, params)`, which the
worker implements by asking the page (web/js/onetool.js answers: `search`, `fetch`,
`confirm`, `operation`, `http`) and which raises PageError when the page's function threw.
An interrupt() while Python waits for the page rejects the call with `InterruptError`:
that becomes asyncio.CancelledError, which no command swallows, and the session reports
the command as interrupted.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable, Mapping

from ..adapters import FetchResponse, SearchHit
from ..catalog.mcp_http import connect_mcp_http
from ..catalog.openapi import OpenApiProvider
from ..catalog.operations import FunctionProvider, OperationError, Provider
from ..catalog.transport import Response
from ..consent import ConsentRequest

PageCall = Callable[[str, dict[str, Any]], Awaitable[Any]]
INTERRUPT_ERROR = "InterruptError"


class PageError(Exception):
    """A page function failed; `name` and `message` are those of its JavaScript error."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


class PageBridge:
    def __init__(self, call: PageCall) -> None:
        self._call = call

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        try:
            return await self._call(method, params)
        except PageError as error:
            if error.name == INTERRUPT_ERROR:
                raise asyncio.CancelledError(error.message) from None
            raise

    # -- adapters and consent ----------------------------------------------------------------

    def adapters(self, wanted: Mapping[str, bool] | None) -> dict[str, Any]:
        wanted = wanted or {}
        return {"search": PageSearch(self) if wanted.get("search") else None,
                "fetch": PageFetch(self) if wanted.get("fetch") else None}

    async def confirm(self, request: ConsentRequest) -> Any:
        return await self.call("confirm", {"request": request.to_dict()})

    # -- providers ------------------------------------------------------------------------------

    async def providers(self, descriptors: list[Mapping[str, Any]]) -> list[Provider]:
        return [await self._provider(d) for d in descriptors]

    async def _provider(self, descriptor: Mapping[str, Any]) -> Provider:
        if descriptor.get("type") == "openapi":
            return await self._openapi_provider(descriptor)
        if descriptor.get("type") == "mcp":
            namespace = descriptor["namespace"]
            return await connect_mcp_http(namespace, descriptor["mcp"], transport=PageTransport(self, namespace),
                                          headers=descriptor.get("headers"), summary=descriptor.get("summary"),
                                          secrets=descriptor.get("secrets") or ())
        namespace = descriptor["namespace"]
        operations = [self._operation(namespace, op) for op in descriptor.get("operations") or ()]
        return FunctionProvider(namespace, operations, descriptor.get("summary") or "", descriptor.get("secrets") or ())

    def _operation(self, namespace: str, op: Mapping[str, Any]) -> dict[str, Any]:
        name = op.get("name")

        async def handler(input: dict[str, Any]) -> Any:
            try:
                return await self.call("operation", {"namespace": namespace, "name": name, "input": input})
            except PageError as error:
                raise OperationError(error.message or error.name) from None

        entry = {"name": name, "handler": handler, "summary": op.get("summary") or "",
                 "description": op.get("description") or "", "kind": op.get("kind"),
                 "input_schema": op.get("inputSchema"), "output_schema": op.get("outputSchema")}
        return {key: value for key, value in entry.items() if value is not None}

    async def _openapi_provider(self, descriptor: Mapping[str, Any]) -> OpenApiProvider:
        namespace = descriptor.get("namespace")
        transport = PageTransport(self, namespace or "")
        document = descriptor["openapi"]
        if isinstance(document, str) and not document.lstrip().startswith("{"):
            document = await self._fetch_document(transport, document)
        provider = OpenApiProvider(document, descriptor.get("baseUrl"), descriptor.get("headers"), transport,
                                   namespace=namespace, summary=descriptor.get("summary"),
                                   query=descriptor.get("query"))
        transport.namespace = provider.namespace
        return provider

    async def _fetch_document(self, transport: "PageTransport", url: str) -> Any:
        status, _, body = await transport.request("GET", url, {"accept": "application/json"}, None)
        if status != 200:
            raise ValueError(f"OpenAPI document {url}: HTTP {status}")
        return json.loads(body.decode("utf-8"))


class PageSearch:
    def __init__(self, bridge: PageBridge) -> None:
        self.bridge = bridge

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        hits = await self.bridge.call("search", {"query": query, "limit": limit}) or []
        return [SearchHit(str(h.get("title", "")), str(h.get("snippet", "")), str(h.get("source", "")))
                for h in hits]


class PageFetch:
    def __init__(self, bridge: PageBridge) -> None:
        self.bridge = bridge

    async def fetch(self, resource: str) -> FetchResponse | None:
        response = await self.bridge.call("fetch", {"resource": resource})
        if response is None:
            return None
        return FetchResponse(response.get("contentType") or "", response.get("payload"))


class PageTransport:
    """OpenApiProvider's and MCP-over-HTTP providers' HTTP through the page's `fetch` (or the provider's own)."""

    def __init__(self, bridge: PageBridge, namespace: str) -> None:
        self.bridge = bridge
        self.namespace = namespace

    async def request(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        params = {"namespace": self.namespace, "method": method, "url": url, "headers": dict(headers), "body": body}
        try:
            reply = await self.bridge.call("http", params)
        except PageError as error:
            raise OperationError(f"cannot reach {url}: {error.message or error.name}") from None
        headers_out = {str(k).lower(): str(v) for k, v in (reply.get("headers") or {}).items()}
        return int(reply["status"]), headers_out, bytes(reply.get("body") or b"")
