"""BrowserSession: one runtime for one page instance, built from the options of createOneTool().
BrowserSessions: the sessions of one worker, by instance id (several `<onetool-sandbox>`
elements, or `createOneTool({shared: true})` instances, share one worker and one Pyodide).

The worker hands every request of the page to `handle(method, params)`; values go back
with camelCase keys, bytes as bytes (web/js/wire.js turns them into Uint8Array). A command
stopped by interrupt() (KeyboardInterrupt from the shared interrupt buffer, a cancelled
page call, or the cancel flag seen after it returned) is reported like any failed command,
with exit code 130.
"""
from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Mapping

from .. import __version__
from ..presentation import present
from ..result import err
from ..runtime import AgentCLI, RunExecution, create_agent_cli
from ..tooldef import build_tool_definition
from ..vfs.listing import walk
from ..vfs.memory import MemoryVFS
from .bridge import PageBridge
from .vfs import BrowserVFS, Store

INTERRUPTED_EXIT_CODE = 130
INTERRUPTED_MESSAGE = "interrupted: the command was stopped before it finished"
DEFAULT_DB_NAME = "one-tool-vfs"
REQUESTS = ("run", "runDetailed", "toolDefinition", "reset", "listFiles", "readFile", "writeFile", "close")


class BrowserSession:
    def __init__(self, options: Mapping[str, Any], bridge: PageBridge,
                 make_store: Callable[[str], Store] | None = None,
                 cancelled: Callable[[], bool] = lambda: False) -> None:
        self.options = dict(options)
        self.bridge = bridge
        self.make_store = make_store
        self.cancelled = cancelled
        self.vfs: Any = None
        self.runtime: AgentCLI | None = None
        self.providers: list[Any] = []

    async def start(self) -> dict[str, Any]:
        self.providers = await self.bridge.providers(self.options.get("providers") or [])
        self.vfs = self._make_vfs()
        await self._seed()
        self.runtime = await self._make_runtime()
        return {"storage": self._storage(), "onetoolVersion": __version__}

    async def handle(self, method: str, params: Mapping[str, Any]) -> Any:
        if method not in REQUESTS:
            raise ValueError(f"unknown request: {method}")
        return await getattr(self, "_" + _snake(method))(**params)

    # -- requests --------------------------------------------------------------------------

    async def _run(self, line: str) -> str:
        return (await self._execute(line)).presentation.text

    async def _run_detailed(self, line: str) -> dict[str, Any]:
        return execution_to_dict(await self._execute(line))

    async def _tool_definition(self, format: str = "openai", toolName: str = "run",
                               descriptionVariant: str = "full-tool-description") -> dict[str, Any]:
        return build_tool_definition(self.runtime, toolName, descriptionVariant, format)

    async def _reset(self) -> None:
        if isinstance(self.vfs, BrowserVFS):
            await self.vfs.clear()
        else:
            self.vfs = self._make_vfs()
        await self._seed()
        self.runtime = await self._make_runtime()

    async def _list_files(self) -> list[dict[str, Any]]:
        if isinstance(self.vfs, BrowserVFS):
            await self.vfs.open()
            entries = self.vfs.entries()
        else:
            entries = []
            for path, is_dir in await walk(self.vfs, "/"):
                info = await self.vfs.stat(path)
                entries.append((path, is_dir, info.size, info.modified_epoch_ms))
            entries.sort()
        return [{"path": p, "isDir": d, "size": s, "mtimeMs": m} for p, d, s, m in entries]

    async def _read_file(self, path: str) -> bytes:
        return await self.vfs.read_bytes(path)

    async def _write_file(self, path: str, data: str | bytes) -> str:
        return await self.vfs.write_bytes(path, data.encode("utf-8") if isinstance(data, str) else data)

    async def _close(self) -> None:
        if isinstance(self.vfs, BrowserVFS):
            self.vfs.close()

    # -- running a command ------------------------------------------------------------------

    async def _execute(self, line: str) -> RunExecution:
        started = time.perf_counter()
        try:
            execution = await _interruptible(self.runtime.run_detailed(line))
        except (KeyboardInterrupt, asyncio.CancelledError):
            return await self._interrupted(line, started)
        if self.cancelled():
            return await self._interrupted(line, started)
        return execution

    async def _interrupted(self, line: str, started: float) -> RunExecution:
        result = err(INTERRUPTED_MESSAGE, INTERRUPTED_EXIT_CODE)
        presentation = await present(self.runtime.ctx, result, started, self.runtime.output_limits)
        return RunExecution(line, result.exit_code, presentation.duration_ms, result.stdout, result.stderr,
                            result.content_type, (), presentation)

    # -- building --------------------------------------------------------------------------------

    def _storage(self) -> dict[str, Any]:
        storage = self.options.get("storage") or {}
        if storage.get("kind") == "memory":
            return {"kind": "memory"}
        return {"kind": "indexeddb", "name": storage.get("name") or DEFAULT_DB_NAME}

    def _make_vfs(self) -> Any:
        storage = self._storage()
        policy = self.options.get("resourcePolicy")
        if storage["kind"] == "memory":
            return MemoryVFS(resource_policy=policy)
        store = self.make_store(storage["name"]) if self.make_store else None
        return BrowserVFS(storage["name"], resource_policy=policy, store=store)

    async def _seed(self) -> None:
        """`files` make the world of a new (or reset) store; a store with files keeps them."""
        files = self.options.get("files") or {}
        if not files:
            return
        if isinstance(self.vfs, BrowserVFS):
            await self.vfs.open()
            if not self.vfs.is_empty():
                return
        for path, data in files.items():
            await self.vfs.write_bytes(path, data.encode("utf-8") if isinstance(data, str) else data)

    async def _make_runtime(self) -> AgentCLI:
        options = self.options
        runtime = await create_agent_cli(
            vfs=self.vfs,
            adapters=self.bridge.adapters(options.get("adapters")),
            policy=options.get("policy"),
            confirm=self.bridge.confirm if options.get("confirm") else None,
            providers=self.providers or None,
            output_limits=options.get("outputLimits"),
            builtin_commands=options.get("builtinCommands"),
            execution_policy=options.get("executionPolicy"),
            grammar=options.get("grammar") or "bash",
            shell_session=bool(options.get("shellSession")),
        )
        runtime.ctx.cancelled = self.cancelled
        return runtime


class BrowserSessions:
    """The sessions of one worker, one per page instance, each with its own runtime, file
    system, memory, policy, consent and providers. `make_session(instance, options)` builds
    one (with a bridge and a cancel flag of that instance only).

    Requests: `open` {options} starts the instance's session (its info), `close` ends it;
    every other request goes to the instance's session (BrowserSession.handle)."""

    def __init__(self, make_session: Callable[[str, Mapping[str, Any]], BrowserSession]) -> None:
        self.make_session = make_session
        self.sessions: dict[str, BrowserSession] = {}

    async def request(self, instance: str, method: str, params: Mapping[str, Any]) -> Any:
        if not isinstance(instance, str) or not instance:
            raise ValueError(f"a request needs an instance id, got {instance!r}")
        if method == "open":
            return await self._open(instance, params.get("options") or {})
        session = self.sessions.get(instance)
        if session is None:
            raise LookupError(f"no session {instance!r} in this worker")
        if method == "close":
            del self.sessions[instance]
        return await session.handle(method, params)

    async def _open(self, instance: str, options: Mapping[str, Any]) -> dict[str, Any]:
        if instance in self.sessions:
            raise ValueError(f"session {instance!r} is already open")
        session = self.make_session(instance, options)
        info = await session.start()  # a failure (a bad provider) leaves no session behind
        self.sessions[instance] = session
        return info


async def _interruptible(command: Awaitable[RunExecution]) -> RunExecution:
    """The command's own frames: the interrupt signal raises KeyboardInterrupt only below
    this one, which runs only while `_execute` awaits it inside its `try`."""
    return await command


def on_interrupt_signal(signum: int, frame: Any) -> None:
    """SIGINT handler for the worker (the shared interrupt buffer): raise KeyboardInterrupt
    only inside a running command, where `_execute` catches it. Anywhere else (the event
    loop's own code between two steps of a command, or `_execute` itself before or after its
    `try`) it would escape the loop as an uncaught error; there the cancel flag, still set,
    stops the command instead."""
    while frame is not None:
        if frame.f_code is _INTERRUPTIBLE_CODE:
            raise KeyboardInterrupt
        frame = frame.f_back


_INTERRUPTIBLE_CODE = _interruptible.__code__


def execution_to_dict(execution: RunExecution) -> dict[str, Any]:
    return execution.to_dict()


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name)
