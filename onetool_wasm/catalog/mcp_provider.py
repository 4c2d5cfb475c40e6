"""Another MCP server's tools as operations behind `api` (CPython: the server runs as a subprocess).

    provider = McpProvider("notes", sys.executable, ["notes_server.py"])
    runtime = await create_agent_cli(providers=[provider])
    ...
    await provider.aclose()          # or runtime.ctx.operations.aclose(): the server process ends

The official SDK's stdio client (`mcp.client.stdio`) starts the server and speaks the
protocol; the session lives on a thread of its own with its own event loop, so calls can come
from any loop (a runtime's, the MCP server's worker, asyncio.run). Each tool becomes an
operation:

    name -> name              description -> summary (first line) and description
    inputSchema -> input      outputSchema -> output (structured content is the result)
    annotations.readOnlyHint true -> kind "read"; destructiveHint true -> "sensitive"
    (always asks); destructiveHint false -> "write"; no hints -> the policy reads the name

A tool's error result is an OperationError with its text. A server that cannot start, or
that ends during a call, is an OperationError naming the server, with the end of its stderr.
Inside Pyodide there are no subprocesses: McpProvider says so (a server over streamable HTTP,
through the page's fetch, is connect_mcp_http in mcp_http.py).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import sys
import tempfile
import threading
from typing import Any, Iterable, Mapping, Sequence

from .operations import Operation, OperationError, Provider, _check_name

PYODIDE_MESSAGE = ("McpProvider runs the MCP server as a subprocess over stdio, and Pyodide cannot start "
                   "processes; connect to a server over streamable HTTP instead, through the page's fetch: "
                   "await connect_mcp_http(namespace, url, transport=...) (onetool_wasm.catalog.mcp_http), "
                   "or in the page the provider {namespace, mcp: url}")
STDERR_TAIL = 2000  # characters of the server's stderr quoted in an error


class McpUnavailable(RuntimeError):
    """No MCP client here: Pyodide, or the `mcp` package is not installed."""


def _sdk() -> Any:
    if sys.platform == "emscripten":
        raise McpUnavailable(PYODIDE_MESSAGE)
    try:
        from mcp import ClientSession, StdioServerParameters, types
        from mcp.client.stdio import stdio_client
        from mcp.shared.exceptions import MCPError
    except ImportError as error:
        raise McpUnavailable("McpProvider needs the official MCP SDK: pip install 'onetool-wasm[mcp]' "
                             f"(or pip install 'mcp>=2.3'); {error}") from None
    return ClientSession, StdioServerParameters, stdio_client, MCPError, types


class McpProvider(Provider):
    """The tools of an MCP server (started as `command args...`) as operations of `namespace`."""

    def __init__(self, namespace: str, command: str, args: Sequence[str] = (), *,
                 env: Mapping[str, str] | None = None, cwd: str | None = None, summary: str | None = None,
                 secrets: Iterable[str] = (), timeout: float | None = 60.0, connect_timeout: float = 30.0) -> None:
        client_session, parameters, stdio_client, mcp_error, types = _sdk()
        super().__init__(namespace, (), summary or "", secrets)
        self.command_line = " ".join([command, *args])
        self.timeout = timeout
        params = parameters(command=command, args=list(args), env=dict(env) if env is not None else None, cwd=cwd)
        self._connection = _Connection(params, f"{namespace}", client_session, stdio_client, mcp_error, types)
        self._names: dict[str, str] = {}  # operation name -> the server's tool name
        info, instructions, tools = self._connection.start(connect_timeout, self._label)
        if summary is None:
            self.summary = _first_line(instructions) or _first_line(getattr(info, "title", None)) or \
                f"Tools of the MCP server {getattr(info, 'name', None) or command}"
        for tool in tools:
            operation = self._operation(tool)
            self._names[operation.name] = tool.name
            self.add(operation)

    @property
    def _label(self) -> str:
        return f"MCP server {self.namespace} ({self.command_line})"

    @property
    def closed(self) -> bool:
        return self._connection.closed

    def _operation(self, tool: Any) -> Operation:
        name = operation_name(tool.name)
        description = (tool.description or "").strip()
        title = getattr(tool, "title", None) or getattr(getattr(tool, "annotations", None), "title", None)
        return Operation(namespace=self.namespace, name=name, handler=self._handler(tool.name),
                         summary=_first_line(description) or _first_line(title) or name,
                         description=description, kind=kind_from_annotations(getattr(tool, "annotations", None)),
                         input_schema=dict(tool.input_schema or {"type": "object", "properties": {}}),
                         output_schema=dict(tool.output_schema) if tool.output_schema else None)

    def _handler(self, tool_name: str) -> Any:
        async def handler(input: dict[str, Any]) -> Any:
            return await self._connection.call(tool_name, input, self.timeout, self._label)
        return handler

    def close(self) -> None:
        """End the session; the server process ends (its stdin closes; killed if it lingers)."""
        self._connection.close()
        self._connection.release()

    async def aclose(self) -> None:
        await asyncio.wrap_future(self._connection.close_future())
        self._connection.join()
        self._connection.release()

    def __enter__(self) -> "McpProvider":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def operation_name(tool_name: str) -> str:
    """A tool's name as an operation name: characters `api` cannot parse become `_`."""
    try:
        _check_name(tool_name, "operation name")
    except ValueError:
        return "".join("_" if ch.isspace() or ch in ":|;&\"'" else ch for ch in tool_name) or "tool"
    return tool_name


def kind_from_annotations(annotations: Any) -> str | None:
    if annotations is None:
        return None
    read_only = getattr(annotations, "read_only_hint", None)
    destructive = getattr(annotations, "destructive_hint", None)
    if read_only is True:
        return "read"
    if destructive is True:
        return "sensitive"
    if destructive is False or read_only is False:
        return "write"
    return None


def _first_line(text: Any) -> str:
    return text.strip().split("\n", 1)[0].strip() if isinstance(text, str) else ""


class _Connection:
    """One client session on a daemon thread with its own event loop."""

    def __init__(self, params: Any, label: str, client_session: Any, stdio_client: Any, mcp_error: Any,
                 types: Any) -> None:
        self.params = params
        self._session_class, self._stdio_client, self._mcp_error, self._types = \
            client_session, stdio_client, mcp_error, types
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=f"mcp-provider-{label}", daemon=True)
        self._thread.start()
        self.errlog = tempfile.TemporaryFile()  # the server's stderr, quoted when it fails
        self.session: Any = None
        self.closed = False
        self.crashed = False  # the server closed the connection during a call
        self._stop: asyncio.Event | None = None
        self._main: concurrent.futures.Future[Any] | None = None
        self._lock = threading.Lock()

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self, timeout: float, label: str) -> tuple[Any, Any, list[Any]]:
        ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._main = asyncio.run_coroutine_threadsafe(self._serve(ready), self.loop)
        try:
            return ready.result(timeout)
        except concurrent.futures.TimeoutError:
            self.close()
            raise OperationError(f"{label} did not answer within {timeout:g}s{self.stderr_tail()}") from None
        except BaseException as error:
            self.close()  # the process has ended: its stderr is complete
            raise OperationError(f"{label} could not start: {_reason(error, self._mcp_error)}"
                                 f"{self.stderr_tail()}") from None
        finally:
            if self.closed:
                self.errlog.close()

    async def _serve(self, ready: concurrent.futures.Future[Any]) -> None:
        self._stop = asyncio.Event()
        try:
            async with self._stdio_client(self.params, errlog=self.errlog) as (read, write):
                async with self._session_class(read, write) as session:
                    info = await session.initialize()
                    tools: list[Any] = []
                    cursor = None
                    while True:
                        params = self._types.PaginatedRequestParams(cursor=cursor) if cursor else None
                        listing = await session.list_tools(params=params)
                        tools += listing.tools
                        cursor = listing.next_cursor
                        if not cursor:
                            break
                    self.session = session
                    ready.set_result((info.server_info, info.instructions, tools))
                    await self._stop.wait()
        except BaseException as error:
            if not ready.done():
                ready.set_exception(error)
            if not isinstance(error, Exception):
                raise
        finally:
            self.session = None

    def close_future(self) -> concurrent.futures.Future[Any]:
        """Stop the session (from any thread); the future is done once the process has ended."""
        with self._lock:
            first = not self.closed
            self.closed = True
        main = self._main
        if first and main is not None and not main.done():
            def stop() -> None:
                if self._stop is not None and self.session is not None:
                    self._stop.set()
                else:
                    main.cancel()  # still connecting: the transport's shutdown ends the process
            self.loop.call_soon_threadsafe(stop)
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()
        if main is None:
            done.set_result(None)
        else:
            main.add_done_callback(lambda _: done.done() or done.set_result(None))
        return done

    def close(self) -> None:
        try:
            self.close_future().result(timeout=15)
        except concurrent.futures.TimeoutError:
            pass
        self.join()

    def release(self) -> None:
        self.errlog.close()

    def join(self) -> None:
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
        if not self._thread.is_alive() and not self.loop.is_closed():
            self.loop.close()

    # -- calls --------------------------------------------------------------------------------------

    async def call(self, name: str, arguments: dict[str, Any], timeout: float | None, label: str) -> Any:
        if self.closed:
            raise OperationError(f"{label} is closed")
        future = asyncio.run_coroutine_threadsafe(self._call(name, arguments, timeout, label), self.loop)
        return await asyncio.wrap_future(future)

    async def _call(self, name: str, arguments: dict[str, Any], timeout: float | None, label: str) -> Any:
        session = self.session
        if session is None or self.crashed:
            raise OperationError(f"{label} is not running (it exited or crashed){self.stderr_tail()}")
        try:
            result = await session.call_tool(name, arguments, read_timeout_seconds=timeout)
        except self._mcp_error as error:
            if _closed(error):
                self.crashed = True
                raise OperationError(f"{label} exited during the call to {name} (the connection closed)"
                                     f"{self.stderr_tail()}") from None
            if _timed_out(error):
                raise OperationError(f"{label}: {name} timed out after {timeout:g}s") from None
            raise OperationError(f"{label}: {name}: {error.message}") from None
        except RuntimeError as error:  # e.g. structured content that does not match the output schema
            raise OperationError(f"{label}: {name}: {error}") from None
        return result_value(result)

    def stderr_tail(self) -> str:
        try:  # pread: the server shares the file offset, which must stay at the end
            fd = self.errlog.fileno()
            start = max(0, os.fstat(fd).st_size - 4 * STDERR_TAIL)
            text = os.pread(fd, 4 * STDERR_TAIL, start).decode("utf-8", errors="replace")
        except (OSError, ValueError):  # closed
            return ""
        text = text.strip()
        if not text:
            return ""
        if len(text) > STDERR_TAIL:
            text = "…" + text[-STDERR_TAIL:]
        return f"\nServer stderr:\n{text}"


def result_value(result: Any) -> Any:
    """A CallToolResult as the operation's value: its structured content, else its content."""
    if result.is_error:
        raise OperationError(_content_text(result.content) or "the tool reported an error",
                             details=result.structured_content)
    if result.structured_content is not None:
        return result.structured_content
    blocks = [_block(block) for block in result.content]
    if len(blocks) == 1 and isinstance(blocks[0], str):
        try:
            return json.loads(blocks[0])
        except ValueError:
            return blocks[0]
    return blocks


def _block(block: Any) -> Any:
    if getattr(block, "type", None) == "text":
        return block.text
    data = block.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(data.get("data"), str):  # base64 image or audio: described, not shown
        data["data"] = f"<{len(data['data']) * 3 // 4} bytes of base64 data not shown>"
    return data


def _content_text(content: Any) -> str:
    return "\n".join(block.text for block in content or () if getattr(block, "type", None) == "text").strip()


def _closed(error: Any) -> bool:
    return getattr(getattr(error, "error", None), "code", None) == -32000 or "Connection closed" in str(error)


def _timed_out(error: Any) -> bool:
    code = getattr(getattr(error, "error", None), "code", None)
    return code == -32001 or "timed out" in str(error).lower()


def _reason(error: BaseException | None, mcp_error: Any) -> str:
    if error is None:
        return ""
    if isinstance(error, BaseExceptionGroup):  # noqa: F821 (3.11+)
        leaves = list(error.exceptions)
        return "; ".join(_reason(leaf, mcp_error) for leaf in leaves) or type(error).__name__
    if isinstance(error, mcp_error) and _closed(error):
        return "the server closed the connection (it exited or crashed)"
    if isinstance(error, mcp_error):
        return error.message
    if isinstance(error, FileNotFoundError):
        return f"command not found: {error.filename or error}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
