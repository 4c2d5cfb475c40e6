"""The fs group: commands over the rooted virtual file system."""
from __future__ import annotations

from ..result import CommandResult, err, ok
from ..textutil import format_size, looks_binary
from ..vfs.errors import VFSError
from .helpers import format_vfs_error, read_text_input
from .spec import CommandContext, CommandFailed, CommandSpec


async def cmd_cat(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if not args:
        return ok(await read_text_input(ctx, "cat", None, stdin))
    parts = [await read_text_input(ctx, "cat", None, stdin) if path == "-" else await _cat_file(ctx, path)
             for path in args]
    return ok("".join(parts))


async def _cat_file(ctx: CommandContext, path: str) -> str:
    normalized = ctx.vfs.normalize(path)
    try:
        data = await ctx.vfs.read_bytes(path)
    except VFSError as error:
        raise CommandFailed(await format_vfs_error(ctx, "cat", path, error, not_found_label="file not found")) from None
    if looks_binary(data):
        raise CommandFailed(err(f"cat: binary file ({format_size(len(data))}): {normalized}. Use: stat {normalized}"))
    return data.decode("utf-8", errors="replace")


def content_from_args_or_stdin(command: str, args: list[str], stdin: bytes) -> bytes:
    """Inline content (args after the path, joined by spaces) or piped stdin."""
    if len(args) > 1:
        return " ".join(args[1:]).encode("utf-8")
    if stdin:
        return stdin
    raise CommandFailed(err(f"{command}: no content provided. Pass content inline or pipe it via stdin."))


async def cmd_write(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    data = content_from_args_or_stdin("write", args, stdin)
    try:
        target = await ctx.vfs.write_bytes(args[0], data)
    except VFSError as error:
        return await format_vfs_error(ctx, "write", args[0], error)
    return ok(f"wrote {format_size(len(data))} to {target}")


CAT = CommandSpec(
    name="cat",
    summary="Read text from one or more files, or splice piped stdin with `-`.",
    usage="cat [path ...|-]",
    details=("Reads rooted text files or piped text. Use `-` to splice piped stdin into the file list. "
             "For directories use ls. For binary content use stat.\n"
             "Examples:\n  cat /notes/todo.txt\n  cat /notes/a.txt /notes/b.txt\n"
             "  grep ERROR /logs/app.log | cat\n  grep ERROR /logs/app.log | cat /notes/header.txt -"),
    group="fs",
    handler=cmd_cat,
    accepts_stdin=True, min_args=0, conformance_args=("/missing",),
)

WRITE = CommandSpec(
    name="write",
    summary="Write a file from inline content or stdin.",
    usage="write <path> [content]",
    details=('Examples:\n  write /notes/todo.txt "line one"\n'
             '  search "refund issue" | write /reports/refund.txt'),
    group="fs",
    handler=cmd_write,
    accepts_stdin=True, min_args=1, conformance_args=("/t.txt", "x"), kind="write",
)

COMMANDS = [CAT, WRITE]
