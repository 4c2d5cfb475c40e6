"""fold, expand and unexpand: line widths and tabs, as GNU coreutils in the C locale.

fold breaks lines longer than -w columns (80), at the last blank with -s, counting bytes
with -b (else a TAB goes to the next multiple of 8, a backspace steps back, a CR returns to
column 0). expand turns TABs into spaces and unexpand blanks into TABs, at stops every 8
columns or as -t lists them (`-t 4`, `-t 2,5`, a last `/N`: every N after, `+N`: N apart).
All three stream line by line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..result import CommandResult
from .helpers import no_input_error
from .lines import Source, source_blocks, with_stream
from .options import usage_failure
from .spec import CommandContext, CommandFailed, CommandIO, CommandSpec
from .getopt import NONE, REQUIRED, OperandError, gnu_getopt, read_operand, result_of

_OBSOLETE_NUMBER = re.compile(r"-([0-9]+)(.*)", re.DOTALL)
_MAX_COLUMNS = 1 << 40
_MAX_TAB = 1 << 20


def _split_obsolete(args: list[str], letter: str) -> list[str]:
    """`fold -5` / `expand -2,4`: a leading-digit option is the obsolete form of -w / -t."""
    out: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        match = _OBSOLETE_NUMBER.fullmatch(arg)
        if match and not (out and out[-1] in (f"-{letter}",)):
            out.extend([f"-{letter}", match.group(1) + match.group(2)] if letter == "t" or not match.group(2)
                       else [f"-{letter}", match.group(1), "-" + match.group(2)])
        else:
            out.append(arg)
    return out


async def _run_lines(ctx: CommandContext, command: str, paths: list[str], stdin: bytes,
                     convert) -> CommandResult:
    """The handler's loop: every operand's bytes through `convert` (a function of a block)."""
    out: list[bytes] = []
    errors: list[str] = []
    for path in paths or ["-"]:
        try:
            out.append(convert(await read_operand(ctx, command, path, stdin)))
        except OperandError as error:
            errors.append(str(error))
    return result_of(b"".join(out), errors)


async def _stream_lines(ctx: CommandContext, command: str, paths: list[str], io: CommandIO, convert) -> int:
    status = 0
    for path in paths or ["-"]:
        if path == "-":
            if not io.stdin_is_pipe:
                raise CommandFailed(no_input_error(command))
            async for block in source_blocks(Source("-", None), io, command, text=False):
                await io.stdout.write(convert(block))
            continue
        try:
            await io.stdout.write(convert(await read_operand(ctx, command, path, b"")))
        except OperandError as error:
            await io.error(str(error))
            status = 1
    return status


# ---------------------------------------------------------------- fold

FOLD_USAGE = "fold [-b] [-s] [-w WIDTH] [FILE...]"
_FOLD_LONG = {"bytes": ("b", NONE), "spaces": ("s", NONE), "width": ("w", REQUIRED)}


@dataclass
class FoldOptions:
    width: int = 80
    count_bytes: bool = False
    spaces: bool = False


def parse_fold(args: list[str]) -> tuple[FoldOptions, list[str]]:
    raw, paths = gnu_getopt("fold", FOLD_USAGE, _split_obsolete(args, "w"), "bsw:", _FOLD_LONG)
    options = FoldOptions()
    for key, value in raw:
        if key == "b":
            options.count_bytes = True
        elif key == "s":
            options.spaces = True
        else:
            text = (value or "").strip()
            if not (text.isdigit() and text.isascii()):
                raise CommandFailed(result_of(b"", [f"fold: invalid number of columns: '{value}'"]))
            if int(text[:20]) < 1 or int(text[:20]) > _MAX_COLUMNS:
                raise CommandFailed(result_of(b"", [f"fold: invalid number of columns: '{value}': "
                                                    "Numerical result out of range"]))
            options.width = int(text)
    return options, paths


def _advance(column: int, byte: int, count_bytes: bool) -> int:
    if count_bytes:
        return column + 1
    if byte == 8:
        return column - 1 if column > 0 else 0
    if byte == 13:
        return 0
    if byte == 9:
        return column + 8 - column % 8
    return column + 1


def fold_line(line: bytes, options: FoldOptions) -> bytes:
    """One line (without its newline) folded as GNU's fold_file does, byte by byte."""
    out = bytearray()
    pending = bytearray()
    column = 0
    for byte in line:
        while True:
            column = _advance(column, byte, options.count_bytes)
            if column <= options.width:
                pending.append(byte)
                break
            if options.spaces:
                blank = max(pending.rfind(b" "), pending.rfind(b"\t"))
                if blank >= 0:
                    out += pending[:blank + 1] + b"\n"
                    del pending[:blank + 1]
                    column = 0
                    for kept in pending:
                        column = _advance(column, kept, options.count_bytes)
                    continue
            if not pending:
                pending.append(byte)
                break
            out += pending + b"\n"
            pending.clear()
            column = 0
    return bytes(out + pending)


def fold_block(data: bytes, options: FoldOptions) -> bytes:
    lines = data.split(b"\n")
    return b"\n".join(fold_line(line, options) for line in lines)


async def cmd_fold(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = parse_fold(args)
    return await _run_lines(ctx, "fold", paths, stdin, lambda data: fold_block(data, options))


async def stream_fold(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    options, paths = parse_fold(args)
    return await _stream_lines(ctx, "fold", paths, io, lambda data: fold_block(data, options))


# ---------------------------------------------------------------- tab stops

@dataclass
class TabStops:
    stops: list[int]
    extend: int = 0  # a last `/N`
    increment: int = 0  # a last `+N`

    def next(self, column: int, index: int) -> tuple[int, int, bool]:
        """(next stop after `column`, the list index reached, past the last stop)."""
        if len(self.stops) == 1 and not (self.extend or self.increment):
            size = self.stops[0]
            return column + size - column % size, index, False
        while index < len(self.stops):
            if column < self.stops[index]:
                return self.stops[index], index, False
            index += 1
        if self.extend:
            return column + self.extend - column % self.extend, index, False
        if self.increment:
            last = self.stops[-1] if self.stops else 0
            return column + self.increment - (column - last) % self.increment, index, False
        return 0, index, True


def parse_tabs(command: str, texts: list[str]) -> TabStops:
    """-t values as GNU reads them: numbers separated by commas or blanks, ascending, not 0;
    the last may be `/N` or `+N`."""
    tabs = TabStops(stops=[])
    items = [item for text in texts for item in re.split(r"[,\s]+", text) if item]
    for position, item in enumerate(items):
        prefix = item[0] if item[0] in "/+" else ""
        digits = item[len(prefix):]
        if not (digits.isdigit() and digits.isascii()):
            raise CommandFailed(result_of(b"", [f"{command}: tab size contains invalid character(s): '{item}'"]))
        value = int(digits[:20])
        if value > _MAX_TAB:  # a TAB would become this many spaces: refuse rather than build them
            raise CommandFailed(result_of(b"", [f"{command}: tab stop {digits} is too large "
                                                f"(at most {_MAX_TAB}); use a smaller -t"]))
        if prefix and position != len(items) - 1:
            raise CommandFailed(result_of(b"", [f"{command}: '{prefix}' specifier only allowed with the last value"]))
        if prefix and value == 0:
            raise CommandFailed(result_of(b"", [f"{command}: tab size cannot be 0"]))
        if prefix == "/":
            tabs.extend = value
        elif prefix == "+":
            tabs.increment = value
        else:
            if value == 0:
                raise CommandFailed(result_of(b"", [f"{command}: tab size cannot be 0"]))
            if tabs.stops and value <= tabs.stops[-1]:
                raise CommandFailed(result_of(b"", [f"{command}: tab sizes must be ascending"]))
            tabs.stops.append(value)
    if not tabs.stops and not (tabs.extend or tabs.increment):
        tabs.stops = [8]
    return tabs


# ---------------------------------------------------------------- expand

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


def _tab_options(command: str, args: list[str], short: str, long: dict) -> tuple[list, list[str], TabStops]:
    raw, paths = gnu_getopt(command, EXPAND_USAGE if command == "expand" else UNEXPAND_USAGE,
                            _split_obsolete(args, "t"), short, long)
    tabs = parse_tabs(command, [value or "" for key, value in raw if key == "t"])
    return raw, paths, tabs


async def cmd_expand(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    raw, paths, tabs = _tab_options("expand", args, "it:", _EXPAND_LONG)
    initial = any(key == "i" for key, _ in raw)
    return await _run_lines(ctx, "expand", paths, stdin, lambda data: _by_line(data, expand_line, tabs, initial))


async def stream_expand(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    raw, paths, tabs = _tab_options("expand", args, "it:", _EXPAND_LONG)
    initial = any(key == "i" for key, _ in raw)
    return await _stream_lines(ctx, "expand", paths, io, lambda data: _by_line(data, expand_line, tabs, initial))


def _by_line(data: bytes, convert, tabs: TabStops, flag: bool) -> bytes:
    return b"\n".join(convert(line, tabs, flag) for line in data.split(b"\n"))


# ---------------------------------------------------------------- unexpand

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
    raw, paths, tabs = _tab_options("unexpand", args, "at:", _UNEXPAND_LONG)
    keys = [key for key, _ in raw]
    entire = ("a" in keys or "t" in keys) and "first" not in keys
    return paths, tabs, entire


async def cmd_unexpand(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    paths, tabs, entire = _unexpand_settings(args)
    return await _run_lines(ctx, "unexpand", paths, stdin, lambda data: _by_line(data, unexpand_line, tabs, entire))


async def stream_unexpand(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    paths, tabs, entire = _unexpand_settings(args)
    return await _stream_lines(ctx, "unexpand", paths, io, lambda data: _by_line(data, unexpand_line, tabs, entire))


FOLD = with_stream(CommandSpec(
    name="fold",
    summary="Wrap lines to a width, as GNU fold.",
    usage=FOLD_USAGE,
    details=("Breaks every line longer than -w WIDTH columns (default 80). -s: break after the last "
             "blank that fits; -b: count bytes (else a TAB moves to the next multiple of 8).\n"
             "Examples:\n  fold -w 40 /notes.txt\n  fold -s -w 72 message.txt\n  echo abcdef | fold -w 2"),
    group="text", handler=cmd_fold,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_fold)

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

COMMANDS = [FOLD, EXPAND, UNEXPAND]
