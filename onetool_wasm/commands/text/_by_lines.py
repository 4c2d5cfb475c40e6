"""What fold, expand and unexpand share: obsolete `-N` options, running a per-line transform
over files or a stream, and tab stops (`-t LIST`)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from ...result import CommandResult
from ..helpers import no_input_error
from ..lines import Source, source_blocks
from ..spec import CommandContext, CommandFailed, CommandIO
from ..getopt import OperandError, gnu_getopt, read_operand, result_of


_OBSOLETE_NUMBER = re.compile(r"-([0-9]+)(.*)", re.DOTALL)


MAX_COLUMNS = 1 << 40


MAX_TAB = 1 << 20


def split_obsolete(args: list[str], letter: str) -> list[str]:
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


async def run_lines(ctx: CommandContext, command: str, paths: list[str], stdin: bytes,
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


async def stream_lines(ctx: CommandContext, command: str, paths: list[str], io: CommandIO, convert) -> int:
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
        if value > MAX_TAB:  # a TAB would become this many spaces: refuse rather than build them
            raise CommandFailed(result_of(b"", [f"{command}: tab stop {digits} is too large "
                                                f"(at most {MAX_TAB}); use a smaller -t"]))
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


def tab_options(command: str, usage: str, args: list[str], short: str, long: dict) -> tuple[list, list[str], TabStops]:
    raw, paths = gnu_getopt(command, usage, split_obsolete(args, "t"), short, long)
    tabs = parse_tabs(command, [value or "" for key, value in raw if key == "t"])
    return raw, paths, tabs


def by_line(data: bytes, convert, tabs: TabStops, flag: bool) -> bytes:
    return b"\n".join(convert(line, tabs, flag) for line in data.split(b"\n"))

