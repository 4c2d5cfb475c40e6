"""uniq: report or omit repeated adjacent lines, as GNU uniq in the C locale.

`-c -d -D/--all-repeated[=none|prepend|separate] -u -i -f N -s N -w N -z --group[=METHOD]`,
and the operands `[INPUT [OUTPUT]]`: an OUTPUT file receives the result (the command then
writes). Runs of equal lines are closed as input arrives, so uniq streams.
"""
from __future__ import annotations

import re
from itertools import groupby
from dataclasses import dataclass
from typing import Sequence

from ...result import TEXT, CommandResult, ok_bytes
from ...vfs.errors import VFSError
from ..helpers import fail, format_vfs_error, usage_error
from ..lines import (ASCII_UPPER, STDIN, open_sources, parse_count, read_inputs, record_blocks, run_as_handler, source_blocks,
                     split_lines, split_records, with_stream)
from ..options import OptionSpec, getopt
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec

UNIQ_USAGE = "uniq [-c] [-d] [-i] [-u] [path]"
_UNIQ_OPTIONS = OptionSpec("uniq", UNIQ_USAGE, flags="cdDiuz", values="fsw",
                           long={"count": "c", "repeated": "d", "all-repeated": "D", "ignore-case": "i",
                                 "unique": "u", "skip-fields": "f", "skip-chars": "s", "check-chars": "w",
                                 "zero-terminated": "z"})
_FIELD = re.compile(rb"[ \t]*[^ \t]*")
_DELIMIT = ("none", "prepend", "separate")
_GROUPS = ("separate", "prepend", "append", "both")


@dataclass
class UniqOptions:
    count: bool = False
    repeated: bool = False
    all_repeated: bool = False
    unique: bool = False
    fold: bool = False
    skip_fields: int = 0
    skip_chars: int = 0
    check_chars: int | None = None
    delimit: str = "none"      # -D's method
    group: str | None = None   # --group's method
    eol: bytes = b"\n"         # -z: NUL

    def key(self, line: bytes) -> bytes:
        """The part of a line GNU uniq compares (-f, -s, -w, -i)."""
        pos = 0
        for _ in range(self.skip_fields):
            pos = _FIELD.match(line, pos).end()
        key = line[pos + self.skip_chars:]
        if self.check_chars is not None:
            key = key[:self.check_chars]
        return key.translate(ASCII_UPPER) if self.fold else key


def _method(name: str, value: str, choices: Sequence[str]) -> str:
    matches = [choice for choice in choices if choice.startswith(value)] if value else []
    if value in choices:
        return value
    if len(matches) != 1:
        valid = ", ".join(f"'{choice}'" for choice in choices)
        raise fail(f"uniq: invalid argument '{value}' for '--{name}'. Valid arguments are: {valid}. "
                   f"Usage: {UNIQ_USAGE}")
    return matches[0]


def _methods(args: list[str], options: UniqOptions) -> list[str]:
    """Take out the long options with an optional value (`--all-repeated=M`, `--group[=M]`)."""
    rest: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return rest + args[index:]
        name, has_value, value = arg.partition("=")
        if name == "--group":
            options.group = _method("group", value, _GROUPS) if has_value else "separate"
        elif name == "--all-repeated" and has_value:
            options.all_repeated = True
            options.delimit = _method("all-repeated", value, _DELIMIT)
        else:
            rest.append(arg)
    return rest


def _uniq_options(args: list[str]) -> tuple[UniqOptions, list[str]]:
    options = UniqOptions()
    parsed, operands = getopt(_UNIQ_OPTIONS, _methods(list(args), options))
    flags = {"c": "count", "d": "repeated", "D": "all_repeated", "u": "unique", "i": "fold"}
    numbers = {"f": "skip_fields", "s": "skip_chars", "w": "check_chars"}
    for name, value in parsed:
        if name == "z":
            options.eol = b"\0"
        elif name in flags:
            setattr(options, flags[name], True)
        else:
            setattr(options, numbers[name], parse_count("uniq", f"-{name}", value or ""))
    if options.group is not None and (options.count or options.repeated or options.all_repeated or options.unique):
        raise fail(f"uniq: --group is mutually exclusive with -c/-d/-D/-u. Usage: {UNIQ_USAGE}")
    if options.count and options.all_repeated:
        raise fail("uniq: printing all duplicated lines and repeat counts is meaningless. "
                   f"Usage: {UNIQ_USAGE}")
    return options, operands


class UniqGroups:
    """Runs of adjacent lines with equal keys, fed in blocks of lines: a run is printed
    once a different line (or the end) closes it, so a run may span blocks."""

    def __init__(self, options: UniqOptions) -> None:
        self.options = options
        self.key = b""
        self.lines: list[bytes] = []  # the open run: its first line, or all of it for -D/--group
        self.size = 0
        self.printed = 0  # runs printed so far (for the separators of -D and --group)

    def feed(self, lines: list[bytes]) -> list[bytes]:
        """The output lines of the runs these lines close (a separator is an empty line)."""
        out: list[bytes] = []
        keep_all = self.options.all_repeated or self.options.group is not None
        options = self.options
        whole = not (options.skip_fields or options.skip_chars or options.fold or options.check_chars is not None)
        if whole and not keep_all:
            # Whole lines as keys, only a run's first line kept: groupby finds the runs in C.
            for line, run in groupby(lines):
                if self.size and line == self.key:
                    self.size += len(list(run))
                    continue
                self._close(out)
                self.key, self.lines, self.size = line, [line], len(list(run))
            return out
        for line in lines:
            key = line if whole else options.key(line)  # whole lines: no call per line
            if self.size and key == self.key:
                self.size += 1
                if keep_all:
                    self.lines.append(line)
                continue
            self._close(out)
            self.key, self.lines, self.size = key, [line], 1
        return out

    @property
    def whole_runs(self) -> bool:
        """Keys are whole lines and a run prints as its first line (feed_block applies)."""
        options = self.options
        return not (options.skip_fields or options.skip_chars or options.fold or options.check_chars is not None
                    or options.all_repeated or options.group is not None)

    def feed_block(self, block: bytes) -> list[bytes]:
        """feed(split_lines(block)) when whole_runs: a run of equal lines is measured by
        comparing the block's bytes with the line repeated (doubling, then halving), not
        line by line."""
        out: list[bytes] = []
        pos, n = 0, len(block)
        find, startswith = block.find, block.startswith
        while pos < n:
            end = find(b"\n", pos)
            if end < 0:  # a last line without its newline
                line, count, pos = block[pos:], 1, n
            else:
                unit = block[pos:end + 1]
                pos, count = end + 1, 1
                if startswith(unit, pos):
                    size, m = len(unit), 1
                    while startswith(unit * m, pos):
                        pos += m * size
                        count += m
                        m *= 2
                    m //= 2  # fewer than 2m more copies follow: take m, m/2, ... 1 as they fit
                    while m:
                        if startswith(unit * m, pos):
                            pos += m * size
                            count += m
                        m //= 2
                line = unit[:-1]
            if self.size and line == self.key:
                self.size += count
                continue
            self._close(out)
            self.key, self.lines, self.size = line, [line], count
        return out

    def finish(self) -> list[bytes]:
        out: list[bytes] = []
        self._close(out)
        if self.options.group in ("append", "both") and self.printed:
            out.append(b"")
        return out

    def _close(self, out: list[bytes]) -> None:
        options, size = self.options, self.size
        self.size = 0
        if not size:
            return
        if options.group is not None:
            if options.group in ("prepend", "both") or (self.printed and options.group in ("separate", "append")):
                out.append(b"")
            out.extend(self.lines)
            self.printed += 1
            return
        repeated = size > 1
        if (options.repeated or options.all_repeated) and not repeated or options.unique and repeated:
            return
        if options.all_repeated:
            if options.delimit == "prepend" or (options.delimit == "separate" and self.printed):
                out.append(b"")
            out.extend(self.lines)
        elif options.count:
            out.append(b"%7d %s" % (size, self.lines[0]))
        else:
            out.append(self.lines[0])
        self.printed += 1


def _join(lines: list[bytes], eol: bytes) -> bytes:
    return eol.join(lines) + eol if lines else b""


async def cmd_uniq(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await run_as_handler(stream_uniq, ctx, args, stdin, TEXT)
    options, paths = _uniq_options(args)
    if len(paths) > 1:
        raise CommandFailed(usage_error("uniq", UNIQ_USAGE))
    [(_, data)] = await read_inputs(ctx, "uniq", paths, stdin, text=options.eol == b"\n")
    groups = UniqGroups(options)
    if options.eol == b"\n" and groups.whole_runs:
        return ok_bytes(_join(groups.feed_block(data) + groups.finish(), options.eol), TEXT)
    lines = split_lines(data) if options.eol == b"\n" else split_records(data, options.eol)
    return ok_bytes(_join(groups.feed(lines) + groups.finish(), options.eol), TEXT)


async def stream_uniq(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    options, paths = _uniq_options(args)
    if len(paths) > 1 and ctx.grammar != "bash":
        raise CommandFailed(usage_error("uniq", UNIQ_USAGE))
    if len(paths) > 2:
        raise fail(f"uniq: extra operand '{paths[2]}'. Usage: {UNIQ_USAGE}")
    output = paths[1] if len(paths) > 1 else None
    [source] = await open_sources(ctx, "uniq", paths[:1], io, text=options.eol == b"\n")
    groups = UniqGroups(options)
    collected = bytearray()

    async def write(lines: list[bytes]) -> None:
        if not lines:
            return
        data = _join(lines, options.eol)
        if output is None:
            await io.stdout.write(data)
        else:
            collected.extend(data)

    if options.eol == b"\n" and groups.whole_runs:
        async for raw in source_blocks(source, io, "uniq", ctx.grammar != "bash"):
            await write(groups.feed_block(raw))
    else:
        async for block in record_blocks(source, io, "uniq", options.eol, ctx.grammar != "bash"):
            await write(groups.feed(block))
    await write(groups.finish())
    if output is not None:
        target = None if output == STDIN else output
        if target is None:
            await io.stdout.write(bytes(collected))
        else:
            try:
                await ctx.vfs.write_bytes(target, bytes(collected))
            except VFSError as error:
                raise CommandFailed(await format_vfs_error(ctx, "uniq", target, error)) from None
    return 0


def uniq_kind(args: Sequence[str]) -> str:
    """`uniq INPUT OUTPUT` writes OUTPUT; otherwise uniq only reads."""
    try:
        _, operands = _uniq_options(list(args))
    except CommandFailed:
        return "read"
    return "write" if len(operands) > 1 and operands[1] != STDIN else "read"


UNIQ = with_stream(CommandSpec(
    name="uniq",
    summary="Collapse adjacent duplicate lines from stdin or a file.",
    usage=UNIQ_USAGE,
    details=("Examples:\n  sort /logs/errors.txt | uniq -c\n  sort /logs/errors.txt | uniq -d\n"
             "  cat /notes/todo.txt | uniq\n  uniq -i /tmp/names.txt"),
    group="text", handler=cmd_uniq,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind=uniq_kind,
), stream_uniq)

COMMANDS = [UNIQ]
