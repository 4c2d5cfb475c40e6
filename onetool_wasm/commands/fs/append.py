"""append: add inline content (the words after the path) or piped stdin to the end of a file."""
from __future__ import annotations

from ...result import CommandResult
from ..spec import CommandContext, CommandSpec
from .write import store


async def cmd_append(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await store(ctx, "append", args, stdin)


APPEND = CommandSpec(
    name="append",
    summary="Append to a file from inline content or stdin.",
    usage="append <path> [content]",
    details=('Examples:\n  append /notes/todo.txt "next item"\n'
             "  cat /tmp/out.txt | append /notes/archive.txt"),
    group="fs",
    handler=cmd_append,
    accepts_stdin=True, min_args=1, conformance_args=("/t.txt", "x"), kind="write",
)


COMMANDS = [APPEND]
