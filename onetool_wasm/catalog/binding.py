"""A tool catalog bound to one request: invoke tools, with events, call records and limits.

Each call: parse the input (schema) -> authorize -> execute -> parse the output.
Events are appended in order (started, then authorized or denied, then completed, failed,
cancelled or timed_out); every call leaves one record in `calls`. A per-call timeout or
cancel signal can only shorten what the binding allows, never extend it.
No threads: an async execute is raced against the deadline and the cancel signals on the
running event loop; a sync execute cannot be interrupted, so it is checked before it starts
and may read `ctx.signal.cancelled` / `ctx.remaining()` to stop early itself.
"""
from __future__ import annotations

import asyncio
import inspect
import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .validation import format_problems, validate

if TYPE_CHECKING:
    from .tools import ToolCatalog, ToolDefinition


class CancelSignal:
    """Set once with a reason; listeners hear about it (call cancel() on the loop's thread)."""

    def __init__(self) -> None:
        self.reason: str | None = None
        self._listeners: list[Callable[[str], None]] = []

    @property
    def cancelled(self) -> bool:
        return self.reason is not None

    def cancel(self, reason: str = "cancelled") -> None:
        if self.reason is None:
            self.reason = reason
            for listener in list(self._listeners):
                listener(reason)

    def add_listener(self, listener: Callable[[str], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None


class _AnySignal:
    """Cancelled when any of its signals is (the bound one or the call's own)."""

    def __init__(self, signals: Iterable[CancelSignal]) -> None:
        self.signals = [s for s in signals if s is not None]

    @property
    def reason(self) -> str | None:
        return next((s.reason for s in self.signals if s.cancelled), None)

    @property
    def cancelled(self) -> bool:
        return self.reason is not None


# --- errors ----------------------------------------------------------------------------------

class ToolError(Exception):
    code = "failed"

    def __init__(self, message: str, tool_id: str, details: Any = None) -> None:
        super().__init__(message)
        self.tool_id = tool_id
        self.details = details
        self.invocation: Invocation | None = None


class UnknownToolError(ToolError):
    code = "unknown_tool"


class ToolInputError(ToolError):
    code = "input_rejected"


class ToolDeniedError(ToolError):
    code = "denied"


class ToolOutputError(ToolError):
    code = "output_rejected"


class ToolTimeoutError(ToolError):
    code = "timed_out"


class ToolCancelledError(ToolError):
    code = "cancelled"


class ToolExecutionError(ToolError):
    code = "failed"


# --- records ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ToolEvent:
    type: str          # started | authorized | denied | completed | failed | cancelled | timed_out
    tool_id: str
    call_id: int
    seq: int
    at_ms: float
    detail: str = ""


@dataclass
class Invocation:
    call_id: int
    tool_id: str
    input: Any
    status: str = "running"   # completed | input_rejected | denied | failed | output_rejected | ...
    error: str | None = None
    started_ms: float = 0.0
    ended_ms: float | None = None

    @property
    def duration_ms(self) -> float | None:
        return None if self.ended_ms is None else self.ended_ms - self.started_ms


@dataclass(frozen=True)
class ToolResult:
    value: Any
    invocation: Invocation


@dataclass
class ToolContext:
    """What authorize/execute see: the bound app, the call, its signal and deadline."""
    app: Any
    tool: "ToolDefinition"
    call_id: int
    signal: _AnySignal
    deadline: float | None = None          # time.monotonic() value
    timeout: float | None = None           # seconds this call was given when it started
    events: list[ToolEvent] = field(default_factory=list, repr=False)

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


# --- the bound catalog ---------------------------------------------------------------------------

class BoundCatalog:
    def __init__(self, catalog: "ToolCatalog", app: Any, timeout: float | None,
                 cancel: CancelSignal | None) -> None:
        _check_timeout(timeout)
        self.catalog = catalog
        self.app = app
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.signal = cancel if cancel is not None else CancelSignal()
        self.events: list[ToolEvent] = []
        self.calls: list[Invocation] = []
        self._ids = itertools.count(1)
        self._seq = itertools.count(1)

    def cancel(self, reason: str = "cancelled") -> None:
        """Cancel the binding: running and later calls end as cancelled."""
        self.signal.cancel(reason)

    async def invoke(self, tool_id: str, input: Any = None, timeout: float | None = None,
                     cancel: CancelSignal | None = None) -> ToolResult:
        tool = self.catalog.tools.get(tool_id)
        if tool is None:
            raise UnknownToolError(f"unknown tool: {tool_id} (tools: {', '.join(self.catalog.tools.ids())})",
                                   tool_id)
        _check_timeout(timeout)
        record = Invocation(next(self._ids), tool_id, input if input is not None else {},
                            started_ms=_now_ms())
        self.calls.append(record)
        deadline = self._call_deadline(timeout)
        ctx = ToolContext(self.app, tool, record.call_id, _AnySignal([self.signal, cancel]), deadline,
                          self._call_timeout(timeout), self.events)
        self._event("started", record)
        try:
            value = await self._run(tool, record, ctx, [s for s in (self.signal, cancel) if s is not None])
        except ToolError as error:
            error.invocation = record
            self._finish(record, error.code, str(error))
            raise
        except asyncio.CancelledError:
            self._finish(record, "cancelled", f"{tool_id}: cancelled: the caller was cancelled")
            raise
        self._finish(record, "completed", None)
        return ToolResult(value, record)

    def invoke_sync(self, tool_id: str, input: Any = None, timeout: float | None = None,
                    cancel: CancelSignal | None = None) -> ToolResult:
        """From synchronous code. Sync tools run directly; async ones need no running event loop."""
        tool = self.catalog.tools.get(tool_id)
        coroutine = self.invoke(tool_id, input, timeout, cancel)
        if tool is None or not _is_async(tool):
            return _drive(coroutine, tool_id)
        try:
            return asyncio.run(coroutine)
        except RuntimeError as error:
            if "running event loop" not in str(error):
                raise
            coroutine.close()
            raise RuntimeError(f"{tool_id} is async: inside a running event loop use `await bound.invoke(...)`") from None

    def _call_timeout(self, timeout: float | None) -> float | None:
        """The seconds this call gets: its own timeout, unless the binding has less left."""
        left = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        if timeout is None or (left is not None and left < timeout):
            return left
        return timeout

    def _call_deadline(self, timeout: float | None) -> float | None:
        """The earlier of the binding's deadline and this call's: a call can only shorten it."""
        candidates = [d for d in (self.deadline, None if timeout is None else time.monotonic() + timeout)
                      if d is not None]
        return min(candidates) if candidates else None

    async def _run(self, tool: "ToolDefinition", record: Invocation, ctx: ToolContext,
                   signals: list[CancelSignal]) -> Any:
        problems = validate(tool.input_schema, record.input)
        if problems:
            raise ToolInputError(f"{tool.id}: input rejected: " + format_problems("invalid input", problems, None),
                                 tool.id, [str(p) for p in problems])
        await self._authorize(tool, record, ctx)
        self._check_limits(tool.id, ctx)
        try:
            outcome = tool.execute(record.input, ctx)
        except ToolError:
            raise
        except Exception as error:
            raise _execution_error(tool.id, error) from error
        value = await _race(outcome, tool.id, ctx, signals)
        return self._parse_output(tool, value)

    async def _authorize(self, tool: "ToolDefinition", record: Invocation, ctx: ToolContext) -> None:
        if tool.authorize is None:
            self._event("authorized", record)
            return
        try:
            verdict = tool.authorize(record.input, ctx)
            if inspect.isawaitable(verdict):
                verdict = await verdict
        except Exception as error:
            verdict = str(error) or type(error).__name__
        reason = _refusal(verdict)
        if reason is not None:
            self._event("denied", record, reason)
            raise ToolDeniedError(f"{tool.id}: denied by authorize: {reason}", tool.id)
        self._event("authorized", record)

    def _check_limits(self, tool_id: str, ctx: ToolContext) -> None:
        if ctx.signal.cancelled:
            raise ToolCancelledError(f"{tool_id}: cancelled: {ctx.signal.reason}", tool_id)
        if ctx.deadline is not None and ctx.remaining() == 0:
            raise ToolTimeoutError(f"{tool_id}: timed out: the deadline passed before it started", tool_id)

    def _parse_output(self, tool: "ToolDefinition", value: Any) -> Any:
        try:
            parsed = tool.parse_output(value) if tool.parse_output is not None else value
        except Exception as error:
            raise ToolOutputError(f"{tool.id}: output rejected: {str(error) or type(error).__name__}", tool.id) from None
        problems = validate(tool.output_schema, parsed)
        if problems:
            raise ToolOutputError(f"{tool.id}: output rejected: " + "; ".join(str(p) for p in problems),
                                  tool.id, [str(p) for p in problems])
        return parsed

    def _event(self, kind: str, record: Invocation, detail: str = "") -> None:
        self.events.append(ToolEvent(kind, record.tool_id, record.call_id, next(self._seq), _now_ms(), detail))

    def _finish(self, record: Invocation, status: str, error: str | None) -> None:
        record.status, record.error, record.ended_ms = status, error, _now_ms()
        if status in ("completed", "cancelled", "timed_out"):
            self._event(status, record, error or "")
        elif status != "denied":  # a denial already has its event
            self._event("failed", record, error or "")


async def _race(outcome: Any, tool_id: str, ctx: ToolContext, signals: list[CancelSignal]) -> Any:
    """Await an async execute against the deadline and the cancel signals."""
    if not inspect.isawaitable(outcome):
        return outcome
    task = asyncio.ensure_future(outcome)
    stop = asyncio.get_running_loop().create_future()
    removers = [s.add_listener(lambda reason: stop.done() or stop.set_result(reason)) for s in signals]
    try:
        done, _ = await asyncio.wait({task, stop}, timeout=ctx.remaining(), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for remove in removers:
            remove()
    if task in done:
        stop.cancel()
        return _task_value(task, tool_id)
    task.cancel()
    await asyncio.wait({task}, timeout=1.0)  # let it clean up; a tool that ignores cancel is left
    if stop.done():
        raise ToolCancelledError(f"{tool_id}: cancelled: {stop.result()}", tool_id)
    stop.cancel()
    raise ToolTimeoutError(f"{tool_id}: timed out after {round(ctx.timeout or 0.0, 3):g}s", tool_id)


def _task_value(task: "asyncio.Future[Any]", tool_id: str) -> Any:
    error = task.exception()
    if error is None:
        return task.result()
    if isinstance(error, ToolError):
        raise error
    raise _execution_error(tool_id, error) from error


def _execution_error(tool_id: str, error: BaseException) -> ToolExecutionError:
    return ToolExecutionError(f"{tool_id}: failed: {type(error).__name__}: {error}", tool_id)


def _refusal(verdict: Any) -> str | None:
    """authorize may return True/None (allowed), False, a reason string, or {"allowed", "reason"}."""
    if verdict is None or verdict is True:
        return None
    if verdict is False:
        return "not authorized"
    if isinstance(verdict, str):
        return verdict or "not authorized"
    if isinstance(verdict, dict):
        if verdict.get("allowed", verdict.get("allow")) is True:
            return None
        return str(verdict.get("reason") or "not authorized")
    return None if verdict else "not authorized"


def _drive(coroutine: Any, tool_id: str) -> ToolResult:
    """Run a coroutine that never suspends (a sync tool) without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise ToolExecutionError(f"{tool_id}: returned an awaitable: use `await bound.invoke(...)`", tool_id)


def _is_async(tool: "ToolDefinition") -> bool:
    return any(inspect.iscoroutinefunction(fn) for fn in (tool.execute, tool.authorize) if fn is not None)


def _check_timeout(timeout: float | None) -> None:
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0):
        raise ValueError(f"timeout must be a non-negative number of seconds, got {timeout!r}")


def _now_ms() -> float:
    return time.monotonic() * 1000
