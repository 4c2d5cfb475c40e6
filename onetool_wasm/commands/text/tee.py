"""tee: copy stdin to files and to stdout, as GNU tee."""
from __future__ import annotations

from ...result import CommandResult, ok_bytes
from ...vfs.errors import VFSError
from ..helpers import content_type_for, format_vfs_error
from ..lines import run_as_handler, with_stream, write_result
from ..options import OptionSpec, getopt
from ..getopt import plain_operands
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec


TEE_USAGE = "tee [-a] [path ...]"


_TEE_OPTIONS = OptionSpec("tee", TEE_USAGE, flags="aip", long={"append": "a", "ignore-interrupts": "i"})


async def cmd_tee(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await run_as_handler(stream_tee, ctx, args, stdin)
    options, paths = getopt(_TEE_OPTIONS, args)
    append = any(name == "a" for name, _ in options)
    for path in paths:
        try:
            if append:
                await ctx.vfs.append_bytes(path, stdin)
            else:
                await ctx.vfs.write_bytes(path, stdin)
        except VFSError as error:
            raise CommandFailed(await format_vfs_error(ctx, "tee", path, error)) from None
    return ok_bytes(stdin, content_type_for(stdin))


async def stream_tee(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    options, paths = getopt(_TEE_OPTIONS, args)
    append = any(name == "a" for name, _ in options)
    status = 0
    targets = []
    parents = ctx.grammar != "bash"  # GNU tee does not create a missing directory
    for path in paths:  # created or emptied up front, as GNU tee opens its files
        try:
            await (ctx.vfs.append_bytes if append else ctx.vfs.write_bytes)(path, b"", parents)
            targets.append(path)
        except VFSError as error:
            status = await write_result(io, await format_vfs_error(ctx, "tee", path, error))
    copied = bytearray()
    try:
        while chunk := await io.stdin.read():
            if targets:
                copied += chunk
            await io.stdout.write(chunk)
    finally:  # a closed stdout ends tee (as SIGPIPE does), but the files keep what it read
        for path in targets:
            try:
                await (ctx.vfs.append_bytes if append else ctx.vfs.write_bytes)(path, bytes(copied))
            except VFSError as error:
                status = await write_result(io, await format_vfs_error(ctx, "tee", path, error))
    return status


def tee_targets(args: list[str]) -> list[str]:
    """The files tee truncates (none with -a: it appends)."""
    if any(arg in ("-a", "--append") or (arg.startswith("-") and not arg.startswith("--") and "a" in arg)
           for arg in args):
        return []
    return plain_operands(args)


TEE = with_stream(CommandSpec(
    targets=tee_targets,
    name="tee",
    summary="Copy stdin to files and pass it through to stdout.",
    usage=TEE_USAGE,
    details=("Writes piped input to each path (replacing it, or appending with -a) and prints the input "
             "unchanged, so a pipeline can save an intermediate result and keep going.\n"
             "Examples:\n  grep ERROR /logs/app.log | tee /reports/errors.txt | wc -l\n"
             "  echo done | tee -a /notes/log.txt\n  sort /tmp/names.txt | tee /tmp/a.txt /tmp/b.txt"),
    group="text", handler=cmd_tee,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("/tmp/tee.txt",), kind="write",
), stream_tee)

COMMANDS = [TEE]
