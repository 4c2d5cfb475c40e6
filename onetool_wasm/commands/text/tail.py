"""tail: the last lines or bytes of each input (or from line/byte N on), as GNU tail (see _slice.py)."""
from __future__ import annotations

from ...result import CommandResult
from ..lines import with_stream
from ._slice import TAIL_USAGE, slice_command, stream_slice
from ..spec import CommandContext, CommandIO, CommandSpec


async def cmd_tail(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await slice_command("tail", ctx, args, stdin)


async def stream_tail(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    return await stream_slice("tail", ctx, args, io)


TAIL = with_stream(CommandSpec(
    name="tail",
    summary="Show the last N lines or bytes from stdin or a file.",
    usage=TAIL_USAGE,
    details=("Examples:\n  tail -n 20 /logs/app.log\n  tail -c 16 /notes/todo.txt\n"
             "  cat /logs/app.log | tail -n 50"),
    group="text", handler=cmd_tail,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_tail)

COMMANDS = [TAIL]
