"""nproc: how many processors commands may use (one: nothing runs beside a command)."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import NONE, REQUIRED, result_of
from ..spec import CommandContext, CommandSpec
from ._identity import PROCESSORS, extra_operand, gnu_options

USAGE = "nproc [--all] [--ignore=N]"


async def cmd_nproc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands = gnu_options("nproc", USAGE, args, "", {"all": ("all", NONE), "ignore": ("ignore", REQUIRED)})
    if operands:
        return result_of(b"", [extra_operand("nproc", operands[0])], 1)
    ignore = 0
    for key, value in options:
        if key == "ignore":
            if not value.isdigit():
                return result_of(b"", [f"nproc: invalid number: '{value}'"], 1)
            ignore = int(value)
    return result_of(f"{max(1, PROCESSORS - ignore)}\n".encode(), [])


NPROC = CommandSpec(
    name="nproc", summary="Print the number of processing units, as GNU nproc.", usage=USAGE,
    details="The sandbox has one: commands run one at a time.\nExamples:\n  nproc\n  echo \"jobs: $(nproc)\"",
    group="system", handler=cmd_nproc, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind="read", usage_exit_code=1,
)

COMMANDS = [NPROC]
