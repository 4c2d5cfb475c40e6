"""The runtime as an MCP stdio server with one tool, `run` (CPython; needs the `mcp` extra).

The official SDK speaks the protocol. Around it, this module keeps the server answering:
* every line from the client is checked before the SDK sees it (`check_message`): invalid
  JSON, a batch, another `jsonrpc` version, an id that is null, a float or an object,
  `params` that are not an object, input nested too deeply: each gets a JSON-RPC error
  object instead of silence; lone surrogates become U+FFFD;
* runs happen on a worker thread (`RunWorker`, one run at a time), so a long `sed` never
  stops the server from answering a ping or a cancel; `notifications/cancelled` stops the
  run at its next check; closing stdin stops the running command and ends the server.
With a policy, a write that needs consent asks the client's user through MCP elicitation (an
approve switch and the input's scalar fields, prefilled); a client that cannot elicit answers
"unavailable", which the policy's `on_no_confirm` settles.
A result carries the text block a model reads, and the same run as `structuredContent`
(`OUTPUT_SCHEMA`). `isError` means something went wrong: a non-zero status that came with an
error message, or a status that says the run could not do its work (not found, limits,
cancelled). A quiet non-zero status is an answer: `grep` finding nothing, `diff` finding
differences, `test -f` saying no.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import io
import json
import re
import sys
import threading
from typing import Any, AsyncIterator

from . import __version__
from .consent import ConsentRequest
from .runtime import AgentCLI, RunExecution
from .tooldef import build_tool_definition

SERVER_NAME = "onetool-wasm"
MAX_DEPTH = 64  # JSON nesting a request may have; deeper input is refused, not parsed
MAX_LINE_BYTES = 16 * 1024 * 1024

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602

# Exit statuses that mean the run did not do its work, message or not.
FAILED_RUN_STATUSES = frozenset({124, 125, 126, 127, 130})

_TRACE_COMMAND = {
    "type": "object",
    "properties": {"argv": {"type": "array", "items": {"type": "string"}}, "stdinBytes": {"type": "integer"},
                   "stdoutBytes": {"type": "integer"}, "stderr": {"type": "string"},
                   "exitCode": {"type": "integer"}, "contentType": {"type": "string"},
                   "durationMs": {"type": "integer"}},
}
OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "commandLine": {"type": "string"},
        "exitCode": {"type": "integer"},
        "durationMs": {"type": "integer"},
        "contentType": {"type": "string"},
        "stderr": {"type": "string"},
        "stdoutMode": {"enum": ["plain", "truncated", "binary-guard"]},
        "savedPath": {"type": ["string", "null"]},
        "totalBytes": {"type": ["integer", "null"]},
        "totalLines": {"type": ["integer", "null"]},
        "pipeline": {"type": "array", "items": {
            "type": "object",
            "properties": {"relationFromPrevious": {"enum": [None, ";", "&&", "||"]}, "executed": {"type": "boolean"},
                           "exitCode": {"type": ["integer", "null"]}, "skippedReason": {"type": ["string", "null"]},
                           "commands": {"type": "array", "items": _TRACE_COMMAND}},
        }},
    },
    "required": ["commandLine", "exitCode", "durationMs", "contentType", "stderr", "stdoutMode", "pipeline"],
}


class MissingExtra(RuntimeError):
    """The `mcp` package is not installed."""


def structured(execution: RunExecution) -> dict[str, Any]:
    """The run as `structuredContent` (upstream's field names)."""
    p = execution.presentation
    return {"commandLine": execution.command_line, "exitCode": execution.exit_code,
            "durationMs": execution.duration_ms, "contentType": execution.content_type,
            "stderr": execution.stderr, "stdoutMode": p.stdout_mode, "savedPath": p.saved_path,
            "totalBytes": p.total_bytes, "totalLines": p.total_lines,
            "pipeline": [pipeline.to_dict() for pipeline in execution.trace]}


def is_failed_run(execution: RunExecution) -> bool:
    """isError: a non-zero status that came with an error message, or one that means the
    run could not do its work."""
    status = execution.exit_code
    return status in FAILED_RUN_STATUSES or (status != 0 and bool(execution.stderr.strip()))


# -- the worker that runs command lines -------------------------------------------------------

class RunWorker:
    """Runs command lines one at a time on a daemon thread with its own event loop, so the
    server's loop stays free to answer pings, cancels and the end of input."""

    def __init__(self, runtime: AgentCLI) -> None:
        self.runtime = runtime
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="onetool-runs", daemon=True)
        self._thread.start()
        self._lock = asyncio.run_coroutine_threadsafe(_make_lock(), self.loop).result()
        self._current: threading.Event | None = None
        self._asker: Any = None  # how the running call asks its human (MCP elicitation)
        outer = runtime.ctx.cancelled
        runtime.ctx.cancelled = lambda: self._stopping() or outer()

    def _stopping(self) -> bool:
        current = self._current
        return current is not None and current.is_set()

    async def run(self, command: str, asker: Any = None) -> RunExecution:
        """Run on the worker; if the caller is cancelled, the run is told to stop and this
        re-raises (the run ends at its next check: a loop, a line, a command). `asker`
        answers the consent requests of this run (`confirm`)."""
        stop = threading.Event()
        future = asyncio.run_coroutine_threadsafe(self._run(command, stop, asker), self.loop)
        try:
            return await asyncio.wrap_future(future)
        except BaseException:
            stop.set()
            raise

    async def _run(self, command: str, stop: threading.Event, asker: Any) -> RunExecution:
        async with self._lock:
            self._current, self._asker = stop, asker
            try:
                return await self.runtime.run_detailed(command)
            finally:
                self._current = self._asker = None

    async def confirm(self, request: ConsentRequest) -> Any:
        """The runtime's `confirm`: the running call's human, through its client."""
        if self._asker is None:
            return "unavailable"
        return await self._asker(request)

    def stop_all(self) -> None:
        """Ask the running command to stop (the server is ending)."""
        current = self._current
        if current is not None:
            current.set()


async def _make_lock() -> asyncio.Lock:
    return asyncio.Lock()


# -- consent through MCP elicitation ---------------------------------------------------------------

def consent_schema(request: ConsentRequest) -> dict[str, Any]:
    """The form a client shows: an approve switch, then every top-level scalar field of the
    input, prefilled (edits are validated again by the gate)."""
    properties: dict[str, Any] = {"approve": {"type": "boolean", "title": f"Allow {request.ref}?", "default": False}}
    if isinstance(request.input, dict):
        for key, value in request.input.items():
            kind = _scalar_type(value)
            if kind is not None and key != "approve":
                properties[key] = {"type": kind, "default": value}
    return {"type": "object", "properties": properties, "required": ["approve"]}


def _scalar_type(value: Any) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string" if isinstance(value, str) else None


def decision_from_elicitation(action: str, content: dict[str, Any] | None, request: ConsentRequest) -> Any:
    """What confirm answers for an elicitation result (read by consent.read_decision)."""
    if action != "accept" or not (content or {}).get("approve"):
        return "declined"
    edits = {key: value for key, value in (content or {}).items() if key != "approve"}
    if not edits or not isinstance(request.input, dict):
        return "approved"
    return {"approved": True, "input": {**request.input, **edits}}


def elicitation_asker(session: Any, request_id: Any) -> Any:
    """Ask the calling client's user: an elicitation/create request sent from the call's own
    handler (the SDK's back-channel belongs to it). A client that cannot elicit, or a
    connection without server-initiated requests (protocol 2026-07-28), answers "unavailable"."""
    async def ask(request: ConsentRequest) -> Any:
        capabilities = getattr(session, "client_capabilities", None)
        if capabilities is None or getattr(capabilities, "elicitation", None) is None:
            return "unavailable"
        if not getattr(session, "can_send_request", True):
            return "unavailable"  # a 2026-07-28 connection: no server-initiated requests
        result = await session.elicit_form(request.prompt, consent_schema(request), related_request_id=request_id)
        return decision_from_elicitation(result.action, result.content, request)
    return ask


async def run_answering(runner: RunWorker, command: str, ask: Any) -> RunExecution:
    """Run `command` on the worker; its consent requests come back here, to the handler's
    task, which asks (`ask`) and hands the answer back to the waiting run."""
    loop = asyncio.get_running_loop()
    questions: asyncio.Queue[tuple[ConsentRequest, concurrent.futures.Future[Any]]] = asyncio.Queue()

    async def relay(request: ConsentRequest) -> Any:  # runs on the worker's loop
        answer: concurrent.futures.Future[Any] = concurrent.futures.Future()
        loop.call_soon_threadsafe(questions.put_nowait, (request, answer))
        return await asyncio.wrap_future(answer)

    run = asyncio.ensure_future(runner.run(command, relay))
    try:
        while True:
            question = asyncio.ensure_future(questions.get())
            await asyncio.wait({run, question}, return_when=asyncio.FIRST_COMPLETED)
            if not question.done():
                question.cancel()
                return run.result()
            request, answer = question.result()
            try:
                answer.set_result(await ask(request))
            except BaseException as error:  # the gate turns any failure into a decline
                answer.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
    finally:
        run.cancel()


# -- checking what the client sends -------------------------------------------------------------

def check_message(line: str) -> tuple[str | None, dict[str, Any] | None]:
    """(the line to hand to the SDK, None) or (None, the JSON-RPC error to answer with);
    (None, None) for a line to ignore (blank, or a bad notification: no one awaits a reply)."""
    if not line.strip():
        return None, None
    if len(line) > MAX_LINE_BYTES:
        return None, _error(None, INVALID_REQUEST, f"message larger than {MAX_LINE_BYTES} bytes")
    if _nesting(line) > MAX_DEPTH:
        return None, _error(_shallow_id(line), INVALID_REQUEST, f"input nested deeper than {MAX_DEPTH} levels")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None, _error(None, PARSE_ERROR, "Parse error: not valid JSON")
    if isinstance(message, list):
        return None, _error(None, INVALID_REQUEST, "batches are not supported: send one message a line")
    if not isinstance(message, dict):
        return None, _error(None, INVALID_REQUEST, "a message must be a JSON object")
    problem = _request_problem(message)
    if problem is not None:
        return None, problem
    return json.dumps(_without_surrogates(message), ensure_ascii=False), None


def _request_problem(message: dict[str, Any]) -> dict[str, Any] | None:
    has_id = "id" in message
    request_id = message.get("id")
    id_ok = isinstance(request_id, (str, int)) and not isinstance(request_id, bool)
    if has_id and not id_ok:
        return _error(None, INVALID_REQUEST, "id must be a string or an integer")
    shown_id = request_id if id_ok else None
    if message.get("jsonrpc") != "2.0":
        return _error(shown_id, INVALID_REQUEST, 'jsonrpc must be "2.0"') if has_id else None
    if "method" in message:
        if not isinstance(message["method"], str):
            return _error(shown_id, INVALID_REQUEST, "method must be a string") if has_id else None
        if "params" in message and not isinstance(message["params"], dict):
            return _error(shown_id, INVALID_PARAMS, "params must be an object") if has_id else None
    elif not has_id or not ("result" in message or "error" in message):
        return _error(shown_id, INVALID_REQUEST, "not a request, a notification or a response")
    return None


def _error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def _nesting(text: str) -> int:
    """The deepest bracket nesting of a JSON text, strings skipped (linear, no parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _shallow_id(text: str) -> Any:
    """The id of a message too deep to parse, when it comes before the deep part."""
    match = re.match(r'\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")', text)
    if not match:
        return None
    value = json.loads(match.group(1))
    return value if isinstance(value, (str, int)) else None


def _without_surrogates(value: Any) -> Any:
    """Lone surrogates (JSON escapes can make them) as U+FFFD, as TextEncoder would."""
    if isinstance(value, str):
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value) \
            if _has_surrogate(value) else value
    if isinstance(value, list):
        return [_without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_without_surrogates(key): _without_surrogates(item) for key, item in value.items()}
    return value


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


class CheckedInput:
    """The client's lines as the SDK's stdio transport reads them (`async for line in ...`),
    with malformed ones answered here (`replies`) and never passed on; `on_end` runs when the
    client closes its end."""

    def __init__(self, lines: Any, on_end: Any = None) -> None:
        self._lines = lines
        self._on_end = on_end
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._lines:
            passed, reply = check_message(line)
            if reply is not None:
                await self.replies.put(reply)
            if passed is not None:
                yield passed + "\n"
        if self._on_end is not None:
            self._on_end()


# -- the server ---------------------------------------------------------------------------------

def build_server(runtime: AgentCLI, worker: RunWorker | None = None, tool_name: str = "run",
                 description_variant: str = "full-tool-description", layout: str | None = None) -> Any:
    """A low-level MCP server whose tool `run` runs a command line and returns its text block.
    With `layout` ("generic", "flat" or "auto"; the runtime needs providers), it also lists
    the operations as typed tools of that layout (catalog/layouts.py), called through the
    same policy, consent and redaction as `api`."""
    types, server_class, mcp_error = _sdk()
    runner = worker or RunWorker(runtime)
    if runtime.ctx.confirm is None:  # a host's own confirm wins; else the client's human decides
        runtime.ctx.confirm = runner.confirm
    definition = build_tool_definition(runtime, tool_name, description_variant, format="mcp")
    tool = types.Tool(name=tool_name, description=definition["description"],
                      input_schema=definition["inputSchema"], output_schema=OUTPUT_SCHEMA)
    operations = _layout_tools(runtime, layout, tool_name)
    tools = [tool, *(_mcp_tool(types, item) for item in (operations.tools() if operations else ()))]

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: Any) -> Any:
        if operations is not None and params.name != tool_name and operations.has_tool(params.name):
            result = await call_layout_tool(runner, operations, params.name, params.arguments or {},
                                            elicitation_asker(ctx.session, ctx.request_id),
                                            asks_client=runtime.ctx.confirm == runner.confirm)
            return types.CallToolResult(content=[types.TextContent(type="text", text=result.text)],
                                        structured_content=result.structured, is_error=result.is_error)
        if params.name != tool_name:
            if operations is not None:
                raise mcp_error(INVALID_PARAMS, f"unknown tool: {params.name}; this server's tools are "
                                                f"{', '.join([tool_name, *operations.names()])}")
            raise mcp_error(INVALID_PARAMS, f"unknown tool: {params.name}; this server has one tool, {tool_name}")
        command = (params.arguments or {}).get("command")
        if not isinstance(command, str):
            text = f"{tool_name} needs a string argument 'command' (the command line to run)"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
        execution = await run_answering(runner, command, elicitation_asker(ctx.session, ctx.request_id))
        return types.CallToolResult(content=[types.TextContent(type="text", text=execution.presentation.text)],
                                    structured_content=structured(execution), is_error=is_failed_run(execution))

    return server_class(SERVER_NAME, version=__version__, on_list_tools=list_tools, on_call_tool=call_tool)


def _layout_tools(runtime: AgentCLI, layout: str | None, tool_name: str) -> Any:
    if layout is None:
        return None
    from .catalog.layouts import OperationTools
    operations = OperationTools.for_runtime(runtime, layout)
    if operations.has_tool(tool_name):
        raise ValueError(f"an operation tool is named {tool_name}, like the command-line tool")
    return operations


def _mcp_tool(types: Any, item: Any) -> Any:
    annotations = item.annotations or {}
    return types.Tool(name=item.name, description=item.description, input_schema=dict(item.input_schema),
                      output_schema=dict(item.output_schema) if item.output_schema is not None else None,
                      annotations=types.ToolAnnotations(
                          title=annotations.get("title"), read_only_hint=annotations.get("readOnlyHint"),
                          destructive_hint=annotations.get("destructiveHint")) if annotations else None)


async def call_layout_tool(runner: RunWorker, operations: Any, name: str, arguments: dict[str, Any], ask: Any,
                           asks_client: bool = True) -> Any:
    """Call an operation tool on the worker's loop (a slow provider never stops the server from
    answering); with `asks_client`, its consent requests come back here to ask the client's
    user (`ask`), as run_answering does for runs; else the host's confirm answers them."""
    loop = asyncio.get_running_loop()
    questions: asyncio.Queue[tuple[ConsentRequest, concurrent.futures.Future[Any]]] = asyncio.Queue()

    async def relay(request: ConsentRequest) -> Any:  # runs on the worker's loop
        answer: concurrent.futures.Future[Any] = concurrent.futures.Future()
        loop.call_soon_threadsafe(questions.put_nowait, (request, answer))
        return await asyncio.wrap_future(answer)

    confirm = relay if asks_client else None
    call = asyncio.ensure_future(asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
        operations.handle_tool(name, arguments, confirm=confirm), runner.loop)))
    try:
        while True:
            question = asyncio.ensure_future(questions.get())
            await asyncio.wait({call, question}, return_when=asyncio.FIRST_COMPLETED)
            if not question.done():
                question.cancel()
                return call.result()
            request, answer = question.result()
            try:
                answer.set_result(await ask(request))
            except BaseException as error:  # the gate turns any failure into a decline
                answer.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
    finally:
        call.cancel()


def _sdk() -> tuple[Any, Any, Any]:
    try:
        from mcp import types
        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import MCPError
    except ImportError as error:
        raise MissingExtra("the MCP server needs the official MCP SDK: pip install 'onetool-wasm[mcp]' "
                           f"(or pip install 'mcp>=2.3'); {error}") from None
    return types, Server, MCPError


async def serve_stdio(runtime: AgentCLI, **options: Any) -> None:
    """Serve on this process's stdin and stdout until the client closes stdin."""
    _sdk()
    import anyio
    from mcp import types
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    worker = RunWorker(runtime)
    server = build_server(runtime, worker, **options)
    stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    checked = CheckedInput(stdin, on_end=worker.stop_all)
    try:
        async with stdio_server(stdin=checked) as (read_stream, write_stream):
            async def answer_malformed() -> None:
                while True:
                    reply = await checked.replies.get()
                    message = types.JSONRPCError.model_validate(reply)
                    await write_stream.send(SessionMessage(message))

            async with anyio.create_task_group() as group:
                group.start_soon(answer_malformed)
                await server.run(read_stream, write_stream, server.create_initialization_options())
                group.cancel_scope.cancel()
    finally:
        worker.stop_all()
