"""whoami: the user name the sandbox runs as (commands/system/_identity.py)."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import result_of
from ..spec import CommandContext, CommandSpec
from ._identity import extra_operand, gnu_options, user_name

USAGE = "whoami"


async def cmd_whoami(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    _, operands = gnu_options("whoami", USAGE, args, "")
    if operands:
        return result_of(b"", [extra_operand("whoami", operands[0])], 1)
    return result_of(f"{user_name(ctx)}\n".encode(), [])


WHOAMI = CommandSpec(
    name="whoami", summary="Print the user name, as GNU whoami.", usage=USAGE,
    details=("Prints the sandbox's user: $USER, else `user` (there is no real account).\n"
             "Examples:\n  whoami\n  echo \"running as $(whoami)\""),
    group="system", handler=cmd_whoami, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind="read", usage_exit_code=1,
)

COMMANDS = [WHOAMI]
