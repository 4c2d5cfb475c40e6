"""head: the first lines or bytes of each input, as GNU head (see _slice.py)."""
from __future__ import annotations

from ...result import CommandResult
from ..lines import with_stream
from ._slice import HEAD_USAGE, slice_command, stream_slice
from ..spec import CommandContext, CommandIO, CommandSpec


async def cmd_head(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await slice_command("head", ctx, args, stdin)


async def stream_head(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    return await stream_slice("head", ctx, args, io)


HEAD = with_stream(CommandSpec(
    name="head",
    summary="Show the first N lines or bytes from stdin or a file.",
    usage=HEAD_USAGE,
    details=('Examples:\n  head -n 20 /logs/app.log\n  head -c 16 /notes/todo.txt\n'
             '  search "refund API" | head -n 5'),
    group="text", handler=cmd_head,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_head)

COMMANDS = [HEAD]
