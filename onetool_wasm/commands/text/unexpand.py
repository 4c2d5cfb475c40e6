"""unexpand: runs of spaces back to tabs (`-a` everywhere, `--first-only`, `-t LIST`)."""
from __future__ import annotations

from ...result import CommandResult
from ..lines import with_stream
from ..spec import CommandContext, CommandIO, CommandSpec
from ..getopt import NONE, REQUIRED
from ._by_lines import TabStops, by_line, run_lines, stream_lines, tab_options


UNEXPAND_USAGE = "unexpand [-a] [--first-only] [-t LIST] [FILE...]"


_UNEXPAND_LONG = {"all": ("a", NONE), "first-only": ("first", NONE), "tabs": ("t", REQUIRED)}


def unexpand_line(line: bytes, tabs: TabStops, entire: bool) -> bytes:
    """GNU's unexpand for one line: runs of blanks that reach a tab stop become TABs (a
    single blank before a stop stays); only leading blanks unless `entire`."""
    out = bytearray()
    pending = bytearray()
    column, index = 0, 0
    convert, one_blank, previous_blank = True, False, True
    for byte in line:
        if convert:
            blank = byte in (32, 9)
            if blank:
                stop, index, last = tabs.next(column, index)
                if last:
                    convert = False
                if convert:
                    if byte == 9:
                        column = stop
                        if pending:
                            pending[0] = 9
                    else:
                        column += 1
                        if not (previous_blank and column == stop):
                            if column == stop:
                                one_blank = True
                            pending.append(byte)
                            previous_blank = True
                            continue
                        byte = 9
                        if pending:
                            pending[0] = 9
                    del pending[int(one_blank):]
            elif byte == 8:
                column -= 1 if column else 0
                index -= 1 if index else 0
            else:
                column += 1
            if pending:
                if len(pending) > 1 and one_blank:
                    pending[0] = 9
                out += pending
                pending.clear()
                one_blank = False
            previous_blank = blank
            convert = convert and (entire or blank)
        out.append(byte)
    if pending:
        if len(pending) > 1 and one_blank:
            pending[0] = 9
        out += pending
    return bytes(out)


def _unexpand_settings(args: list[str]) -> tuple[list[str], TabStops, bool]:
    raw, paths, tabs = tab_options("unexpand", UNEXPAND_USAGE, args, "at:", _UNEXPAND_LONG)
    keys = [key for key, _ in raw]
    entire = ("a" in keys or "t" in keys) and "first" not in keys
    return paths, tabs, entire


async def cmd_unexpand(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    paths, tabs, entire = _unexpand_settings(args)
    return await run_lines(ctx, "unexpand", paths, stdin, lambda data: by_line(data, unexpand_line, tabs, entire))


async def stream_unexpand(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    paths, tabs, entire = _unexpand_settings(args)
    return await stream_lines(ctx, "unexpand", paths, io, lambda data: by_line(data, unexpand_line, tabs, entire))


UNEXPAND = with_stream(CommandSpec(
    name="unexpand",
    summary="Convert leading spaces to TABs, as GNU unexpand.",
    usage=UNEXPAND_USAGE,
    details=("Replaces runs of blanks that reach a tab stop (every 8 columns, or -t LIST) by TABs: only "
             "leading ones, or all with -a (or -t; --first-only keeps to leading ones).\n"
             "Examples:\n  unexpand file.txt\n  unexpand -a -t 4 code.txt\n  expand x.tsv | unexpand -a"),
    group="text", handler=cmd_unexpand,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_unexpand)


COMMANDS = [UNEXPAND]
