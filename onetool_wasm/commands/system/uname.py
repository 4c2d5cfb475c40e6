"""uname: what the sandbox says its system is (commands/system/_identity.py)."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import NONE, result_of
from ..spec import CommandContext, CommandSpec
from ._identity import UNAME, extra_operand, gnu_options

USAGE = "uname [-asnrvmpio]"
_LONG = {"all": ("a", NONE), "kernel-name": ("s", NONE), "nodename": ("n", NONE),
         "kernel-release": ("r", NONE), "kernel-version": ("v", NONE), "machine": ("m", NONE),
         "processor": ("p", NONE), "hardware-platform": ("i", NONE), "operating-system": ("o", NONE)}


async def cmd_uname(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands = gnu_options("uname", USAGE, args, "asnrvmpio", _LONG)
    if operands:
        return result_of(b"", [extra_operand("uname", operands[0])], 1)
    chosen = {key for key, _ in options}
    if "a" in chosen:  # -a leaves out the fields that are unknown, as GNU does
        chosen |= {key for key, value in UNAME.items() if value != "unknown"}
    fields = [UNAME[key] for key in UNAME if key in chosen] or [UNAME["s"]]
    return result_of((" ".join(fields) + "\n").encode(), [])


UNAME_SPEC = CommandSpec(
    name="uname", summary="Print system information, as GNU uname.", usage=USAGE,
    details=("The sandbox reports Linux on a `wasm32` machine named `onetool` (the same on every run).\n"
             "Examples:\n  uname\n  uname -a\n  uname -m"),
    group="system", handler=cmd_uname, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind="read", usage_exit_code=1,
)

COMMANDS = [UNAME_SPEC]
