"""printenv: the values of the named exported variables, or all of them."""
from __future__ import annotations

from ...result import CommandResult
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..getopt import NONE, gnu_getopt, result_of


PRINTENV_USAGE = "printenv [-0] [NAME]..."


async def cmd_printenv(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        raw, names = gnu_getopt("printenv", PRINTENV_USAGE, args, "0", {"null": ("0", NONE)})
    except CommandFailed as failure:
        raise CommandFailed(result_of(b"", [failure.result.stderr], 2)) from None
    end = "\0" if raw else "\n"
    environment = ctx.environment
    if not names:
        text = "".join(f"{name}={value}{end}" for name, value in environment.items())
        return result_of(text.encode("utf-8", "surrogateescape"), [])
    found = [environment[name] for name in names if "=" not in name and name in environment]
    text = "".join(value + end for value in found)
    return result_of(text.encode("utf-8", "surrogateescape"), [], 0 if len(found) == len(names) else 1)


PRINTENV = CommandSpec(
    name="printenv",
    summary="Print the values of environment variables, as GNU printenv.",
    usage=PRINTENV_USAGE,
    details=("Prints the value of each exported NAME (exit 1 if any is not set), or every variable as "
             "NAME=VALUE when none is given; -0 ends them with NUL.\n"
             "Examples:\n  printenv HOME\n  printenv | grep ^LC_\n  printenv -0 PATH HOME"),
    group="system", handler=cmd_printenv,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
    usage_exit_code=2,
)


COMMANDS = [PRINTENV]
