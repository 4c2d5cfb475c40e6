"""tac: lines (or `-s SEP` records) in reverse order; it must read all its input before printing."""
from __future__ import annotations

from ...result import CommandResult
from ..getopt import NONE, REQUIRED, gnu_getopt, read_operands, result_of
from ..options import usage_failure
from ..spec import CommandContext, CommandSpec


TAC_USAGE = "tac [-s SEP] [-b] [-r] [FILE...]"


_TAC_LONG = {"separator": ("s", REQUIRED), "before": ("b", NONE), "regex": ("r", NONE)}


def tac_bytes(data: bytes, separator: bytes, before: bool) -> bytes:
    """The records of `data` in reverse order; each keeps its separator (after it, or
    before it with -b), as GNU tac does: an unterminated last record stays unterminated."""
    if not data:
        return b""
    pieces = data.split(separator)
    if before:
        head, records = pieces[0], [separator + piece for piece in pieces[1:]]
        return b"".join(reversed(records)) + head
    last = pieces.pop()
    records = [piece + separator for piece in pieces]
    return last + b"".join(reversed(records))


async def cmd_tac(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = gnu_getopt("tac", TAC_USAGE, args, "s:br", _TAC_LONG)
    separator, before = b"\n", False
    for key, value in options:
        if key == "s":
            separator = (value or "").encode("utf-8")
            if not separator:
                raise usage_failure("tac", "separator cannot be empty", TAC_USAGE)
        elif key == "b":
            before = True
        else:
            raise usage_failure("tac", "-r (regular expression separators) is not supported; use a plain -s SEP",
                                TAC_USAGE)
    inputs, errors = await read_operands(ctx, "tac", paths, stdin, "tac: failed to open '{path}' for reading: {reason}")
    return result_of(b"".join(tac_bytes(data, separator, before) for _, data in inputs), errors)


TAC = CommandSpec(
    name="tac",
    summary="Print lines (or SEP-separated records) in reverse order, as GNU tac.",
    usage=TAC_USAGE,
    details=("Reads every FILE (or stdin, `-`) whole and prints its records last first; a record keeps "
             "its separator (a newline unless -s SEP), -b puts the separator before each record.\n"
             "Examples:\n  tac /logs/app.log | head -n 5\n  seq 3 | tac\n  printf 'a,b,c' | tac -s ,"),
    group="text", handler=cmd_tac,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
)


COMMANDS = [TAC]
