"""write: put inline content (the words after the path) or piped stdin into a file; says
what it wrote. `append` is the same into the end of a file."""
from __future__ import annotations

from ...result import CommandResult, ok
from ...textutil import format_size
from ..fs_common import FS_ERRORS, file_write_failure
from ..helpers import fail, line_end
from ..spec import CommandContext, CommandSpec


def content_from_args_or_stdin(command: str, args: list[str], stdin: bytes) -> bytes:
    """Inline content (args after the path, joined by spaces) or piped stdin."""
    if len(args) > 1:
        return " ".join(args[1:]).encode("utf-8")
    if stdin:
        return stdin
    raise fail(f"{command}: no content provided. Pass content inline or pipe it via stdin.")


async def store(ctx: CommandContext, command: str, args: list[str], stdin: bytes) -> CommandResult:
    data = content_from_args_or_stdin(command, args, stdin)
    operation = ctx.vfs.append_bytes if command == "append" else ctx.vfs.write_bytes
    try:
        target = await operation(args[0], data)
    except FS_ERRORS as error:
        return await file_write_failure(ctx, command, args[0], error)
    verb = "appended" if command == "append" else "wrote"
    return ok(f"{verb} {format_size(len(data))} to {target}" + line_end(ctx))


async def cmd_write(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await store(ctx, "write", args, stdin)


WRITE = CommandSpec(
    targets=lambda args: list(args[:1]),
    name="write",
    summary="Write a file from inline content or stdin.",
    usage="write <path> [content]",
    details=('Examples:\n  write /notes/todo.txt "line one"\n'
             '  search "refund issue" | write /reports/refund.txt'),
    group="fs",
    handler=cmd_write,
    accepts_stdin=True, min_args=1, conformance_args=("/t.txt", "x"), kind="write",
)


COMMANDS = [WRITE]
