"""Who and where the sandbox says it is, for whoami, id, uname, hostname and nproc.

There is no real machine behind a run: the user is the environment's `USER` (the shell's
default `user`) with uid and gid 1000, the host is `onetool`, the kernel is Linux and the
machine `wasm32` (the runtime may be in a browser), and one processor (nothing runs beside
a command). Scripts that ask get the same answers on every run.
"""
from __future__ import annotations

from ..getopt import Options, gnu_getopt, result_of
from ..spec import CommandContext, CommandFailed

UID = GID = 1000
HOSTNAME = "onetool"
PROCESSORS = 1
# uname's fields, in the order -a prints them (-p and -i are "unknown" and left out of -a).
UNAME = {"s": "Linux", "n": HOSTNAME, "r": "6.1.0-onetool", "v": "#1 SMP onetool-wasm",
         "m": "wasm32", "p": "unknown", "i": "unknown", "o": "GNU/Linux"}


def user_name(ctx: CommandContext) -> str:
    return ctx.environment.get("USER") or ctx.environment.get("LOGNAME") or "user"


def extra_operand(command: str, operand: str) -> str:
    return f"{command}: extra operand '{operand}'\nTry '{command} --help' for more information."


def gnu_options(command: str, usage: str, args: list[str], short: str,
                long: dict | None = None) -> tuple[Options, list[str]]:
    """gnu_getopt, failing with GNU's two lines (`invalid option -- 'x'`, then `Try ...`)."""
    try:
        return gnu_getopt(command, usage, args, short, long)
    except CommandFailed as failure:
        first = failure.result.stderr.split(". Usage:", 1)[0].split("\n", 1)[0]
        raise CommandFailed(result_of(b"", [f"{first}\nTry '{command} --help' for more information."], 1)) from None
