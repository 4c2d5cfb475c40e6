"""cp: copy files and directories. The bash language speaks GNU coreutils (several sources
into a directory, -r -a -p -T -t -n -u -v -f -i); the strict grammar keeps upstream's
`cp <src> <dst>` with its `copied` report."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import copy_targets
from ..spec import CommandContext, CommandSpec
from ._mutate import transfer

CP_USAGE = "cp <src> <dst>"


async def cmd_cp(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await transfer(ctx, "cp", args, CP_USAGE)


CP = CommandSpec(
    targets=copy_targets,
    name="cp",
    summary="Copy a file or directory inside the rooted virtual file system.",
    usage=CP_USAGE,
    details=("Copies files or directories to a new rooted destination path. "
             "The destination must not already exist.\n"
             "Examples:\n  cp /drafts/qbr.md /reports/qbr-v1.md"),
    group="fs",
    handler=cmd_cp,
    # Upstream allows 3 args (`cp -r <src> <dst>`, `cp -- <src> <dst>`): checked in the
    # handler, since the bash language takes several sources.
    accepts_stdin=False, min_args=2, conformance_args=("/a", "/b"), kind="write",
)

COMMANDS = [CP]
