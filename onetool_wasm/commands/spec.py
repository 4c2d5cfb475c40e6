"""What a command is (CommandSpec) and what it sees when it runs (CommandContext)."""
from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, Sequence, Union

from ..result import CommandResult, err
from ..streams import Reader, Writer

if TYPE_CHECKING:
    from ..memory import SimpleMemory
    from ..vfs.base import VFS

Handler = Callable[["CommandContext", list[str], bytes], Union[CommandResult, Awaitable[CommandResult]]]
# A streaming handler reads stdin as it arrives and writes as it goes (pipelines run their
# stages concurrently); it returns the exit status. See docs/WRITING_COMMANDS.md.
StreamHandler = Callable[["CommandContext", list[str], "CommandIO"], Awaitable[int]]
Kind = Union[str, Callable[[Sequence[str]], str]]

OUTPUT_DIR = "/.system/cmd-output"


class CommandLookup(Protocol):
    """What a running command may ask of the registry (registry.CommandRegistry is one).
    A protocol, so this module, which the registry imports, never imports the registry."""
    read_only: bool

    def get(self, name: str) -> "CommandSpec | None": ...
    def has(self, name: str) -> bool: ...
    def names(self) -> list[str]: ...
    def all(self) -> list["CommandSpec"]: ...


@dataclass
class Adapters:
    """Host-supplied tools: `search(query, limit)` and `fetch(resource)`, sync or async."""
    search: Any = None
    fetch: Any = None

    @classmethod
    def coerce(cls, value: Any) -> "Adapters":
        if value is None:
            return cls()
        if isinstance(value, Adapters):
            return value
        if isinstance(value, dict):
            return cls(search=value.get("search"), fetch=value.get("fetch"))
        return cls(search=getattr(value, "search", None), fetch=getattr(value, "fetch", None))


@dataclass
class CommandContext:
    vfs: "VFS"
    registry: CommandLookup
    memory: "SimpleMemory"
    adapters: Adapters = field(default_factory=Adapters)
    max_materialized_bytes: int | None = None
    output_dir: str = OUTPUT_DIR
    output_counter: int = 0
    # Set by the host (the browser's interrupt()) to ask long commands to stop early.
    cancelled: Callable[[], bool] = lambda: False
    # Policy and consent: with a policy, built-ins are gated as `<group>:<command>`;
    # `confirm(request)` asks a human. `operations` is the OperationCatalog behind `api`.
    policy: Any = None
    confirm: Any = None
    operations: Any = None
    # The zone local times are shown in (`diff` headers, `date`); None is the host's own zone.
    timezone: Any = None
    # Seconds since the epoch, now (`date`, `touch`, `find -mmin`); a host or test injects
    # a fixed clock through create_agent_cli(clock=...).
    clock: Callable[[], float] = time.time
    # "bash" (the shell language: GNU texts, silent mkdir/cp/mv/rm/touch) or "strict" (the
    # upstream grammar and its texts). The runtime sets it; a bare context is "strict".
    grammar: str = "strict"
    # The exported variables of the shell running the command (`env`, `printenv`).
    environment: dict[str, str] = field(default_factory=dict)
    # Set by the shell when stdin is a pipe or a redirect: empty stdin is then empty input,
    # not "no input provided".
    stdin_is_pipe: bool = False
    # Set by the shell: run another command (`xargs`, `find -exec`, awk's `system`) as the
    # shell would, behind the same policy and limits: `await ctx.run_argv(argv, stdin)`
    # -> CommandResult with its stdout, stderr and exit status; `timeout_seconds=N` stops it
    # after N seconds with status 124 (`timeout`). None outside a shell.
    run_argv: Callable[..., Awaitable[CommandResult]] | None = None


@dataclass
class CommandIO:
    """The streams a streaming handler sees. Writing to stdout may raise BrokenPipe (the
    reader is gone): let it propagate, the shell turns it into status 141 as bash does."""
    stdin: Reader
    stdout: Writer
    stderr: Writer
    stdin_is_pipe: bool = False   # False: nothing was piped or redirected in (EOF at once)

    async def error(self, message: str) -> None:
        """One line on stderr."""
        await self.stderr.write(message.encode("utf-8", errors="replace") + b"\n")


class CommandFailed(Exception):
    """Raised by helpers (read_text_input, ...) to end a command with a prepared result."""

    def __init__(self, result: CommandResult) -> None:
        super().__init__(result.stderr)
        self.result = result


@dataclass(frozen=True)
class CommandSpec:
    name: str
    summary: str
    usage: str
    details: str
    handler: Handler
    accepts_stdin: bool | None = None
    min_args: int | None = None
    max_args: int | None = None
    requires_adapter: str | None = None
    conformance_args: tuple[str, ...] = ()
    kind: Kind = "read"
    group: str = "custom"
    # Arity failures print `<name>: usage: <usage>` unless a command words its own.
    arity_message: str | None = None
    usage_exit_code: int = 1
    # Optional: the same command reading and writing as data flows (see StreamHandler).
    stream: StreamHandler | None = None
    # Optional: the paths a call may replace or truncate (candidates: the gate keeps those
    # that exist as files). A policy with `confirmOverwrites` asks before such a call.
    targets: Callable[[Sequence[str]], list[str]] | None = None

    def kind_for(self, args: Sequence[str]) -> str:
        """The command's kind for these arguments ("read", "write", "sensitive")."""
        return self.kind(args) if callable(self.kind) else self.kind

    def help_text(self) -> str:
        return f"{self.name}: {self.summary}\nUsage: {self.usage}\n\n{self.details}"


async def invoke_command(spec: CommandSpec, ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    """Run a spec's handler after the checks its metadata promises (stdin, arity)."""
    if spec.accepts_stdin is False and stdin:
        return err(f"{spec.name}: does not accept stdin")
    too_few = spec.min_args is not None and len(args) < spec.min_args
    too_many = spec.max_args is not None and len(args) > spec.max_args
    if too_few or too_many:
        message = spec.arity_message or f"usage: {spec.usage}"
        return err(f"{spec.name}: {message}", spec.usage_exit_code)
    try:
        result = spec.handler(ctx, list(args), bytes(stdin))
        if inspect.isawaitable(result):
            result = await result
    except CommandFailed as failure:
        return failure.result
    if not isinstance(result, CommandResult):
        raise TypeError(f"command {spec.name} returned {type(result).__name__}, not CommandResult")
    return result
