"""AgentCLI: parse a command line, run it, present the result.

Two languages: the bash-compatible shell (`onetool_wasm.shell`: parser, interpreter), the
default; and the upstream one-tool grammar (`grammar="strict"`), a chain of pipelines of
argv run here stage after stage with upstream's rules.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any, Callable, Iterable, Mapping

from .commands.naming import unknown_command_message
from .commands.registry import CommandRegistry
from .commands.selection import create_command_registry, normalize_selection
from .commands.spec import Adapters, CommandContext, CommandIO, CommandSpec, invoke_command
from .memory import SimpleMemory
from .policy import Policy
from .presentation import OutputLimits, Presentation, present, require_non_negative_int, spill_files
from .redaction import redact_execution
from .result import OCTET, CommandResult, err, ok, printable
from .textutil import looks_binary
from .shell import ChainItem, ParseError, Pipeline, parse_command_line
from .shell.interpreter import Interpreter, RunRecord, StepRecord
from .shell.limits import Budget, LimitExceeded, ShellLimits
from .shell.parser import parse_until_error
from .shell.state import ShellState
from .streams import BufferWriter, EmptyReader, StreamLimit
from .vfs.base import VFS
from .vfs.memory import MemoryVFS


@dataclass(frozen=True)
class CommandTrace:
    argv: tuple[str, ...]
    stdin_bytes: int
    stdout_bytes: int
    stderr: str
    exit_code: int
    content_type: str
    duration_ms: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"argv": list(self.argv), "stdinBytes": self.stdin_bytes, "stdoutBytes": self.stdout_bytes,
                "stderr": self.stderr, "exitCode": self.exit_code, "contentType": self.content_type,
                "durationMs": self.duration_ms}


@dataclass(frozen=True)
class PipelineTrace:
    relation_from_previous: str | None  # None, ";", "&&", "||" (upstream's name)
    executed: bool
    exit_code: int | None = None
    commands: tuple[CommandTrace, ...] = ()
    skipped_reason: str | None = None  # "previous_succeeded" | "previous_failed"

    def to_dict(self) -> dict[str, Any]:
        return {"relationFromPrevious": self.relation_from_previous, "executed": self.executed,
                "exitCode": self.exit_code, "skippedReason": self.skipped_reason,
                "commands": [command.to_dict() for command in self.commands]}


@dataclass(frozen=True)
class RunExecution:
    command_line: str
    exit_code: int
    duration_ms: int
    stdout: bytes
    stderr: str
    content_type: str
    trace: tuple[PipelineTrace, ...]
    presentation: Presentation

    def to_dict(self) -> dict[str, Any]:
        """The run as JSON-ready data, in upstream's camelCase names (stdout stays bytes)."""
        p = self.presentation
        return {
            "commandLine": self.command_line, "exitCode": self.exit_code, "durationMs": self.duration_ms,
            "stdout": self.stdout, "stderr": self.stderr, "contentType": self.content_type,
            "trace": [pipeline.to_dict() for pipeline in self.trace],
            "presentation": {"text": p.text, "body": p.body, "stdoutMode": p.stdout_mode, "savedPath": p.saved_path,
                             "totalBytes": p.total_bytes, "totalLines": p.total_lines},
        }


@dataclass
class _ChainOutcome:
    result: CommandResult
    trace: list[PipelineTrace] = field(default_factory=list)


GRAMMARS = ("bash", "strict")


class AgentCLI:
    """One `run` tool over a registry of commands and a virtual file system."""

    def __init__(self, ctx: CommandContext, output_limits: OutputLimits, grammar: str = "bash",
                 shell_limits: ShellLimits | None = None, shell_session: bool = False) -> None:
        if grammar not in GRAMMARS:
            raise ValueError(f"grammar must be one of {', '.join(GRAMMARS)}, not {grammar!r}")
        self.ctx = ctx
        self.ctx.grammar = grammar
        self.registry = ctx.registry
        self.output_limits = output_limits
        self.grammar = grammar
        self.shell_limits = shell_limits or ShellLimits()
        # With a session, variables, functions and the cwd carry from one run to the next.
        self.shell_state: ShellState | None = ShellState.fresh() if shell_session else None

    async def initialize(self) -> None:
        await self.ctx.vfs.mkdir(self.ctx.output_dir, True)
        # Number spill files after the ones already there (another process, an earlier
        # session), so none is overwritten.
        existing = await spill_files(self.ctx)
        self.ctx.output_counter = max([self.ctx.output_counter, *(number for number, _, _ in existing)])

    async def aclose(self) -> None:
        """Release what the runtime holds open: providers' connections (an MCP server's
        process). The runtime is not used after this."""
        operations = self.ctx.operations
        if operations is not None and hasattr(operations, "aclose"):
            await operations.aclose()

    async def run(self, command_line: str) -> str:
        """The text block for the model: output, [error]/[stderr], footer."""
        return (await self.run_detailed(command_line)).presentation.text

    async def run_detailed(self, command_line: str) -> RunExecution:
        """Run a command line; lone surrogates in it (a JavaScript host can send them) become
        U+FFFD, as TextEncoder makes them, so no command or path ever meets one."""
        started = time.perf_counter()
        if self.grammar == "bash":
            outcome = await self._execute_shell(printable(command_line))
        else:
            try:
                outcome = await self._execute_chain(parse_command_line(printable(command_line)))
            except ParseError as error:
                outcome = _ChainOutcome(err(error.message, 2))
        result = outcome.result
        presentation = await present(self.ctx, result, started, self.output_limits)
        return redact_execution(RunExecution(command_line, result.exit_code, presentation.duration_ms, result.stdout,
                                             result.stderr, result.content_type, tuple(outcome.trace), presentation),
                                self.ctx)

    def build_tool_description(self, variant: str = "full-tool-description") -> str:
        from .tooldef import build_tool_description
        return build_tool_description(self.registry, variant, self.ctx.operations, self.grammar,
                                      self.shell_state is not None)

    async def _execute_shell(self, command_line: str) -> _ChainOutcome:
        """The bash language: parse, interpret over streams, collect stdout and stderr."""
        script, syntax_error = parse_until_error(command_line)
        limits = self.shell_limits
        state = self.shell_state if self.shell_state is not None else ShellState.fresh()
        stdout = BufferWriter(limits.max_output_bytes, "the run's output")
        stderr = BufferWriter(limits.max_output_bytes, "the run's error output")
        record = RunRecord()
        shell = Interpreter(self.ctx, state, Budget(limits, self.ctx.cancelled), self._gate_for_shell, record)
        shell.stderr = stderr
        shell.traced = True
        io = CommandIO(EmptyReader(), stdout, stderr)
        try:
            status = await shell.run_main(script, io)
            if syntax_error is not None and not shell.exited:
                # The lines before the error ran, as bash runs them; then the shell stops.
                status = 2
                stderr.data += (f"bash: line {syntax_error.line}, column {syntax_error.column}: "
                                f"{syntax_error.message}\n").encode()
        except LimitExceeded as limit:
            status = limit.status
            stderr.data += limit.message.encode()
        except StreamLimit as limit:
            status = 1
            stderr.data += f"{limit}; send less to the output (| head, > file)".encode()
        text = stderr.data.decode("utf-8", "replace").rstrip("\n")
        output = bytes(stdout.data)
        content_type = OCTET if looks_binary(output) else record.content_type
        result = CommandResult(output, text, status, content_type)
        return _ChainOutcome(result, [_pipeline_trace(step) for step in record.steps])

    async def _gate_for_shell(self, spec: CommandSpec, args: list[str], ctx: CommandContext):
        if ctx.policy is None or spec.group == "api":
            return args
        from .catalog.gate import gate_command
        return await gate_command(ctx, spec, args)

    async def _execute_chain(self, chain: list[ChainItem]) -> _ChainOutcome:
        stdout = bytearray()
        last = ok("")
        trace: list[PipelineTrace] = []
        for item in chain:
            skipped = _skip_reason(item.relation, last.exit_code)
            if skipped:
                trace.append(PipelineTrace(item.relation, False, skipped_reason=skipped))
                continue
            last, commands = await self._execute_pipeline(item.pipeline)
            trace.append(PipelineTrace(item.relation, True, last.exit_code, tuple(commands)))
            _append_output(stdout, last.stdout)
        return _ChainOutcome(CommandResult(bytes(stdout), last.stderr, last.exit_code, last.content_type), trace)

    async def _execute_pipeline(self, pipeline: Pipeline) -> tuple[CommandResult, list[CommandTrace]]:
        stdin = b""
        result = ok("")
        commands: list[CommandTrace] = []
        for command in pipeline.commands:
            started = time.perf_counter()
            result = await self._dispatch(list(command.argv), stdin)
            commands.append(CommandTrace(command.argv, len(stdin), len(result.stdout), result.stderr,
                                         result.exit_code, result.content_type,
                                         round((time.perf_counter() - started) * 1000)))
            if result.exit_code != 0:
                break
            stdin = result.stdout
        return result, commands

    async def _dispatch(self, argv: list[str], stdin: bytes) -> CommandResult:
        spec = self.registry.get(argv[0])
        if spec is None:
            return err(unknown_command_message(argv[0], self.registry.names()), 127)
        try:
            args = await self._gate(spec, argv[1:])
            if isinstance(args, CommandResult):
                return args  # refused by the policy or the human: nothing ran
            return await invoke_command(spec, self.ctx, args, stdin)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a crashing handler fails its stage, not the runtime
            return err(f"internal runtime error: {str(error) or type(error).__name__}")

    async def _gate(self, spec: CommandSpec, args: list[str]) -> list[str] | CommandResult:
        """With a policy, a built-in is a subject `<group>:<command>`; `api` commands gate each call."""
        if self.ctx.policy is None or spec.group == "api":
            return args
        from .catalog.gate import gate_command
        return await gate_command(self.ctx, spec, args)


def _pipeline_trace(step: StepRecord) -> PipelineTrace:
    commands = tuple(CommandTrace(c.argv, c.stdin_bytes, c.stdout_bytes, c.stderr, c.status, "text/plain",
                                  c.duration_ms) for c in step.commands)
    return PipelineTrace(step.relation, step.executed, step.status, commands, step.skipped_reason)


def _skip_reason(relation: str | None, previous_exit: int) -> str | None:
    if relation == "&&" and previous_exit != 0:
        return "previous_failed"
    if relation == "||" and previous_exit == 0:
        return "previous_succeeded"
    return None


def _append_output(stdout: bytearray, chunk: bytes) -> None:
    """Join pipeline outputs, adding a newline between two that would run together."""
    if chunk and stdout and stdout[-1:] != b"\n" and chunk[:1] != b"\n":
        stdout += b"\n"
    stdout += chunk


async def create_agent_cli(vfs: VFS | None = None, adapters: Any = None, memory: SimpleMemory | None = None,
                           registry: CommandRegistry | None = None,
                           builtin_commands: Mapping[str, Any] | bool | None = None,
                           commands: Iterable[CommandSpec] | None = None,
                           output_limits: Mapping[str, Any] | None = None,
                           execution_policy: Mapping[str, Any] | None = None,
                           policy: Any = None, confirm: Any = None, providers: Any = None,
                           grammar: str = "bash", shell_session: bool = False,
                           clock: Callable[[], float] | None = None, timezone: tzinfo | None = None) -> AgentCLI:
    """Build and initialise a runtime; every option is optional (a MemoryVFS by default).
    `grammar`: "bash" (the shell language) or "strict" (the upstream one-tool grammar).
    `shell_session`: keep shell variables, functions and the cwd from one run to the next.
    `clock`: seconds since the epoch, now (default time.time); `timezone`: the zone local
    times are shown in (default the host's)."""
    max_materialized, shell_limits = _execution_policy(execution_policy)
    ctx = CommandContext(
        vfs=vfs if vfs is not None else MemoryVFS(),
        registry=_resolve_registry(registry, builtin_commands, commands),
        memory=memory if memory is not None else SimpleMemory(),
        adapters=Adapters.coerce(adapters),
        max_materialized_bytes=max_materialized,
        policy=Policy.coerce(policy),
        confirm=confirm,
        timezone=timezone,
    )
    if clock is not None:
        ctx.clock = clock
    if providers:
        _register_operations(ctx, providers)
    runtime = AgentCLI(ctx, OutputLimits.from_options(output_limits), grammar, shell_limits, shell_session)
    await runtime.initialize()
    return runtime


def _register_operations(ctx: CommandContext, providers: Any) -> None:
    """`api` plus one command per namespace, on a copy of the registry (a shared one stays as it was)."""
    from .catalog.services import OperationCatalog
    from .commands.api import make_commands
    ctx.operations = OperationCatalog.coerce(providers)
    if ctx.registry.has("api"):
        raise ValueError("a command named 'api' is already registered; it is needed for providers")
    read_only = ctx.registry.read_only
    ctx.registry = CommandRegistry(ctx.registry.all())
    ctx.registry.read_only = read_only
    for spec in make_commands(ctx.operations, ctx.registry.names()):
        ctx.registry.register(spec)


def _resolve_registry(registry: CommandRegistry | None, builtin_commands: Mapping[str, Any] | bool | None,
                      commands: Iterable[CommandSpec] | None) -> CommandRegistry:
    if registry is not None:
        if builtin_commands is not None or commands is not None:
            raise ValueError("registry cannot be combined with builtin_commands or commands")
        return registry
    if builtin_commands is True:
        builtin_commands = None
    selection = {"include_groups": []} if builtin_commands is False else normalize_selection(builtin_commands)
    selection.pop("on_conflict", None)
    return create_command_registry(**selection, commands=commands, on_conflict="replace")


def _execution_policy(policy: Mapping[str, Any] | None) -> tuple[int | None, ShellLimits]:
    """`max_materialized_bytes` (what a command may hold in memory) and the shell's limits."""
    options = dict(policy or {})
    value = options.pop("max_materialized_bytes", options.pop("maxMaterializedBytes", None))
    if value is not None:
        require_non_negative_int(value, "execution_policy.max_materialized_bytes")
    return value, ShellLimits.from_options(options)


def run_sync(runtime: AgentCLI, command_line: str) -> str:
    """CPython convenience: run one command line from synchronous code."""
    return asyncio.run(runtime.run(command_line))
