"""mv: move or rename files and directories. The bash language speaks GNU coreutils (several
sources into a directory, -T -t -n -u -v -f -i); the strict grammar keeps upstream's
`mv <src> <dst>` with its `moved` report."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import copy_targets
from ..spec import CommandContext, CommandSpec
from ._mutate import transfer

MV_USAGE = "mv <src> <dst>"


async def cmd_mv(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await transfer(ctx, "mv", args, MV_USAGE)


MV = CommandSpec(
    targets=copy_targets,
    name="mv",
    summary="Move or rename a file or directory.",
    usage=MV_USAGE,
    details=("Moves files or directories to a new rooted destination path. "
             "The destination must not already exist.\n"
             "Examples:\n  mv /drafts/qbr.md /archive/qbr.md"),
    group="fs",
    handler=cmd_mv,
    # Upstream allows 3 args (`mv -- <src> <dst>`): checked in the handler, as for cp.
    accepts_stdin=False, min_args=2, conformance_args=("/a", "/b"), kind="write",
)

COMMANDS = [MV]
