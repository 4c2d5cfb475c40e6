"""hostname: the sandbox's host name (commands/system/_identity.py); it cannot be changed."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import NONE, result_of
from ..spec import CommandContext, CommandSpec
from ._identity import HOSTNAME, gnu_options

USAGE = "hostname [-s|-f]"
_LONG = {"short": ("s", NONE), "fqdn": ("f", NONE), "long": ("f", NONE)}


async def cmd_hostname(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    _, operands = gnu_options("hostname", USAGE, args, "sf", _LONG)
    if operands:
        return result_of(b"", ["hostname: you must be root to change the host name"], 1)
    return result_of(f"{HOSTNAME}\n".encode(), [])


HOSTNAME_SPEC = CommandSpec(
    name="hostname", summary="Print the host name.", usage=USAGE,
    details="The sandbox's host is `onetool`.\nExamples:\n  hostname\n  hostname -s",
    group="system", handler=cmd_hostname, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind="read", usage_exit_code=1,
)

COMMANDS = [HOSTNAME_SPEC]
