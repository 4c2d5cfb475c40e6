"""HTTP for OpenAPI providers, behind a small protocol a host can replace.

    class Transport(Protocol):
        async def request(self, method, url, headers, body) -> (status, headers, body_bytes)

On CPython the default is urllib (blocking: no threads in the runtime path, and a call is
one request). Inside Pyodide there are no sockets: the page supplies a transport built on
its `fetch`; until then calls fail with a message saying so.
"""
from __future__ import annotations

import sys
from typing import Mapping, Protocol, runtime_checkable

from .operations import OperationError

Response = tuple[int, dict[str, str], bytes]


@runtime_checkable
class Transport(Protocol):
    async def request(self, method: str, url: str, headers: Mapping[str, str],
                      body: bytes | None) -> Response: ...


class UrllibTransport:
    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout

    async def request(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        import urllib.error
        import urllib.request
        request = urllib.request.Request(url, data=body, headers=dict(headers), method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, _headers(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, _headers(error.headers), error.read()
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise OperationError(f"cannot reach {_origin(url)}: {reason}") from None


class UnavailableTransport:
    """Pyodide without a host transport: say how to provide one."""

    async def request(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        raise OperationError("no HTTP transport in this environment: the host must pass "
                             "OpenApiProvider(..., transport=...) (in the browser: the page's fetch)")


def default_transport() -> Transport:
    return UnavailableTransport() if sys.platform == "emscripten" else UrllibTransport()


def _headers(headers: object) -> dict[str, str]:
    items = headers.items() if hasattr(headers, "items") else []
    return {str(key).lower(): str(value) for key, value in items}


def _origin(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}" if rest else url
