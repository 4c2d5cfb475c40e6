"""expand: tabs to spaces at tab stops (`-t LIST`, `-i` leading only), as GNU does."""
from __future__ import annotations

from ...result import CommandResult
from ..lines import with_stream
from ..spec import CommandContext, CommandIO, CommandSpec
from ..getopt import NONE, REQUIRED
from ._by_lines import TabStops, by_line, run_lines, stream_lines, tab_options


EXPAND_USAGE = "expand [-i] [-t LIST] [FILE...]"


_EXPAND_LONG = {"initial": ("i", NONE), "tabs": ("t", REQUIRED)}


def expand_line(line: bytes, tabs: TabStops, initial: bool) -> bytes:
    out = bytearray()
    column, index, convert = 0, 0, True
    for byte in line:
        if convert:
            if byte == 9:
                stop, index, last = tabs.next(column, index)
                stop = column + 1 if last else stop
                out += b" " * (stop - column)
                column = stop
                continue
            if byte == 8:
                column -= 1 if column else 0
                index -= 1 if index else 0
            else:
                column += 1
            convert = not initial or byte in (32, 9)
        out.append(byte)
    return bytes(out)


async def cmd_expand(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    raw, paths, tabs = tab_options("expand", EXPAND_USAGE, args, "it:", _EXPAND_LONG)
    initial = any(key == "i" for key, _ in raw)
    return await run_lines(ctx, "expand", paths, stdin, lambda data: by_line(data, expand_line, tabs, initial))


async def stream_expand(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    raw, paths, tabs = tab_options("expand", EXPAND_USAGE, args, "it:", _EXPAND_LONG)
    initial = any(key == "i" for key, _ in raw)
    return await stream_lines(ctx, "expand", paths, io, lambda data: by_line(data, expand_line, tabs, initial))


EXPAND = with_stream(CommandSpec(
    name="expand",
    summary="Convert TABs to spaces, as GNU expand.",
    usage=EXPAND_USAGE,
    details=("Replaces each TAB by spaces up to the next tab stop (every 8 columns, or -t N / -t LIST); "
             "-i: only TABs before the first non-blank.\n"
             "Examples:\n  expand table.tsv\n  expand -t 4 code.py\n  printf 'a\\tb\\n' | expand -t 2,6"),
    group="text", handler=cmd_expand,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_expand)


COMMANDS = [EXPAND]
