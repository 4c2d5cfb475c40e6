"""tac (lines in reverse order) and rev (each line's bytes reversed), as GNU coreutils and
util-linux print them in the C locale.

tac must read all its input before printing; rev streams line by line.
"""
from __future__ import annotations

from ..result import TEXT, CommandResult, ok_bytes
from .getopt import NONE, REQUIRED, OperandError, gnu_getopt, read_operand, read_operands, result_of
from .helpers import no_input_error
from .lines import source_blocks, with_stream, Source
from .options import usage_failure
from .spec import CommandContext, CommandFailed, CommandIO, CommandSpec

# ---------------------------------------------------------------- tac

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


# ---------------------------------------------------------------- rev

REV_USAGE = "rev [FILE...]"


def rev_block(block: bytes) -> bytes:
    """Each line's bytes reversed; newlines stay at the ends (C locale: bytes, not characters)."""
    lines = block.split(b"\n")
    return b"\n".join(line[::-1] for line in lines)


def _rev_paths(args: list[str]) -> list[str]:
    return gnu_getopt("rev", REV_USAGE, args, "", {})[1]


REV_ERROR = "rev: cannot open {path}: {reason}"


async def cmd_rev(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    paths = _rev_paths(args)
    if not paths:
        data = await read_operand(ctx, "rev", "-", stdin)
        return ok_bytes(rev_block(data), TEXT)
    inputs, errors = await read_operands(ctx, "rev", [f"./{p}" if p == "-" else p for p in paths], stdin, REV_ERROR)
    return result_of(b"".join(rev_block(data) for _, data in inputs), [e.replace("./-", "-") for e in errors])


async def stream_rev(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """rev line by line as stdin arrives; files (rev reads `-` as a file name) whole."""
    paths = _rev_paths(args)
    if not paths:
        if not io.stdin_is_pipe:
            raise CommandFailed(no_input_error("rev"))
        async for block in source_blocks(Source("-", None), io, "rev", text=False):
            await io.stdout.write(rev_block(block))
        return 0
    status = 0
    for path in paths:
        try:
            data = await read_operand(ctx, "rev", f"./{path}" if path == "-" else path, b"", REV_ERROR)
        except OperandError as error:
            await io.error(str(error).replace("./-", "-"))
            status = 1
            continue
        await io.stdout.write(rev_block(data))
    return status


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

REV = with_stream(CommandSpec(
    name="rev",
    summary="Reverse the bytes of each line, as util-linux rev.",
    usage=REV_USAGE,
    details=("Prints each line of every FILE (or stdin) with its bytes in reverse order.\n"
             "Examples:\n  echo hello | rev\n  rev /data/names.txt\n  rev file.txt | cut -d . -f 1 | rev"),
    group="text", handler=cmd_rev,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_rev)

COMMANDS = [TAC, REV]
