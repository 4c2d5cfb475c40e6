"""Run one registered command directly, without parsing or presentation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..commands.registry import CommandRegistry
from ..commands.selection import create_command_registry
from ..commands.spec import Adapters, CommandContext, CommandSpec, invoke_command
from ..memory import SimpleMemory
from ..result import CommandResult
from ..vfs.memory import MemoryVFS


def create_test_command_registry(**selection: Any) -> CommandRegistry:
    return create_command_registry(**selection)


def create_test_command_context(vfs: Any = None, registry: CommandRegistry | None = None,
                                memory: SimpleMemory | None = None, adapters: Any = None,
                                max_materialized_bytes: int | None = None,
                                output_dir: str = "/output") -> CommandContext:
    return CommandContext(
        vfs=vfs if vfs is not None else MemoryVFS(),
        registry=registry if registry is not None else create_test_command_registry(),
        memory=memory if memory is not None else SimpleMemory(),
        adapters=Adapters.coerce(adapters),
        max_materialized_bytes=max_materialized_bytes,
        output_dir=output_dir,
    )


@dataclass(frozen=True)
class RegisteredCommandRun:
    ctx: CommandContext
    result: CommandResult
    spec: CommandSpec


async def run_registered_command(name: str, args: list[str] | tuple[str, ...] = (), *,
                                 ctx: CommandContext | None = None,
                                 stdin: bytes | str = b"") -> RegisteredCommandRun:
    ctx = ctx if ctx is not None else create_test_command_context()
    spec = ctx.registry.get(name)
    if spec is None:
        raise KeyError(f"expected command to exist: {name}")
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    return RegisteredCommandRun(ctx, await invoke_command(spec, ctx, list(args), data), spec)


def stdout_text(value: CommandResult | RegisteredCommandRun | bytes) -> str:
    if isinstance(value, RegisteredCommandRun):
        value = value.result
    data = value.stdout if isinstance(value, CommandResult) else value
    return data.decode("utf-8", errors="replace")
