"""rev: each line's bytes reversed, as util-linux prints them in the C locale; streams line by line."""
from __future__ import annotations

from ...result import TEXT, CommandResult, ok_bytes
from ..getopt import OperandError, gnu_getopt, read_operand, read_operands, result_of
from ..helpers import no_input_error
from ..lines import source_blocks, with_stream, Source
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec


REV_USAGE = "rev [FILE...]"


def rev_block(block: bytes) -> bytes:
    """Each line's bytes reversed; newlines stay at the ends (C locale: bytes, not characters)."""
    lines = block.split(b"\n")
    return b"\n".join(line[::-1] for line in lines)


def _rev_paths(args: list[str]) -> list[str]:
    return gnu_getopt("rev", REV_USAGE, args, "", {})[1]


REV_ERROR = "rev: cannot open {path}: {reason}"


async def cmd_rev(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    paths = _rev_paths(args)
    if not paths:
        data = await read_operand(ctx, "rev", "-", stdin)
        return ok_bytes(rev_block(data), TEXT)
    inputs, errors = await read_operands(ctx, "rev", [f"./{p}" if p == "-" else p for p in paths], stdin, REV_ERROR)
    return result_of(b"".join(rev_block(data) for _, data in inputs), [e.replace("./-", "-") for e in errors])


async def stream_rev(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """rev line by line as stdin arrives; files (rev reads `-` as a file name) whole."""
    paths = _rev_paths(args)
    if not paths:
        if not io.stdin_is_pipe:
            raise CommandFailed(no_input_error("rev"))
        async for block in source_blocks(Source("-", None), io, "rev", text=False):
            await io.stdout.write(rev_block(block))
        return 0
    status = 0
    for path in paths:
        try:
            data = await read_operand(ctx, "rev", f"./{path}" if path == "-" else path, b"", REV_ERROR)
        except OperandError as error:
            await io.error(str(error).replace("./-", "-"))
            status = 1
            continue
        await io.stdout.write(rev_block(data))
    return status


REV = with_stream(CommandSpec(
    name="rev",
    summary="Reverse the bytes of each line, as util-linux rev.",
    usage=REV_USAGE,
    details=("Prints each line of every FILE (or stdin) with its bytes in reverse order.\n"
             "Examples:\n  echo hello | rev\n  rev /data/names.txt\n  rev file.txt | cut -d . -f 1 | rev"),
    group="text", handler=cmd_rev,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_rev)


COMMANDS = [REV]
