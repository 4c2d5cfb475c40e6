"""date: print a moment in a chosen format, as GNU coreutils date does in the C locale.

Now is `ctx.clock()` (a host or test injects it); the zone is `$TZ` when the shell
exports one, else `ctx.timezone`, else UTC (the sandbox's default, so that output does not
depend on the host); -u is UTC. `-d STRING` reads GNU's date strings (`_datetime_parse`),
`-r FILE` takes a file's modification time, `-f FILE` one date a line; `+FORMAT` is
gnulib's strftime (`_datetime_format`), -I / -R / --rfc-3339 GNU's fixed formats. Setting
the clock (`-s`, `date MMDDhhmm`) is refused: the sandbox's clock is not ours to change.
"""
from __future__ import annotations

import math
import re

from ...result import TEXT, CommandResult
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS, read_file_bytes
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec
from ._datetime_format import (UTC, BrokenDown, Zone, broken_down, days_from_civil, days_in_month,
                               format_time, zone_from_tz, zone_of)
from ._datetime_parse import parse_datetime

USAGE = "date [OPTION]... [+FORMAT]"
DEFAULT_FORMAT = "%a %b %e %H:%M:%S %Z %Y"
_SHORT = "d:f:I::r:Rs:u"
_LONG = {
    "date": ("d", REQUIRED), "file": ("f", REQUIRED), "iso-8601": ("I", OPTIONAL), "reference": ("r", REQUIRED),
    "rfc-email": ("R", NONE), "rfc-822": ("R", NONE), "rfc-2822": ("R", NONE), "rfc-3339": ("rfc-3339", REQUIRED),
    "set": ("s", REQUIRED), "utc": ("u", NONE), "universal": ("u", NONE), "debug": ("debug", NONE),
    "help": ("help", NONE), "version": ("version", NONE),
}
ISO_FORMATS = {"date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
               "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z"}
ISO_ORDER = ("hours", "minutes", "date", "seconds", "ns")
RFC_3339_FORMATS = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z", "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}
RFC_EMAIL_FORMAT = "%a, %d %b %Y %H:%M:%S %z"
TRY = "Try 'date --help' for more information."
CANNOT_SET = ("date: cannot set date: the clock of this sandbox cannot be changed (date only prints "
              "dates here; use -d STRING to show another moment)")


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


def _argmatch(option: str, value: str, choices: tuple[str, ...]) -> str:
    """GNU's argmatch: the exact word, or the only one it begins."""
    if value in choices:
        return value
    found = [choice for choice in choices if choice.startswith(value)]
    if len(found) == 1:
        return found[0]
    kind = "ambiguous" if len(found) > 1 else "invalid"
    listed = "\n".join(f"  - '{choice}'" for choice in choices)
    raise _failure(f"date: {kind} argument '{value}' for '--{option}'", "Valid arguments are:", listed, TRY)


class _Request:
    """What the command line asks for."""

    def __init__(self) -> None:
        self.date: str | None = None
        self.file: str | None = None
        self.reference: str | None = None
        self.set: str | None = None
        self.utc = False
        self.format: str | None = None
        self.help = False

    def output_format(self, fmt: str) -> None:
        if self.format is not None:
            raise _failure("date: multiple output formats specified")
        self.format = fmt


def _parse_args(args: list[str]) -> tuple[_Request, list[str]]:
    options, operands = gnu_getopt("date", USAGE, args, _SHORT, _LONG)
    request = _Request()
    for key, value in options:
        if key == "d":
            request.date = value
        elif key == "f":
            request.file = value
        elif key == "r":
            request.reference = value
        elif key == "s":
            request.set = value
        elif key == "u":
            request.utc = True
        elif key == "I":
            request.output_format(ISO_FORMATS[_argmatch("iso-8601", value, ISO_ORDER) if value is not None else "date"])
        elif key == "R":
            request.output_format(RFC_EMAIL_FORMAT)
        elif key == "rfc-3339":
            request.output_format(RFC_3339_FORMATS[_argmatch("rfc-3339", value or "", ("date", "seconds", "ns"))])
        elif key == "help":
            request.help = True
        elif key == "version":
            raise usage_failure("date", "--version is not supported", USAGE)
        # --debug: accepted; the parse is not narrated
    given = sum(item is not None for item in (request.date, request.file, request.reference))
    if given > 1:
        raise _failure("date: the options to specify dates for printing are mutually exclusive", TRY)
    if request.set is not None and given:
        raise _failure("date: the options to print and set the time may not be used together", TRY)
    if len(operands) > 1:
        raise _failure(f"date: extra operand '{operands[1]}'", TRY)
    if operands and operands[0].startswith("+"):
        request.output_format(operands[0][1:])
        operands = []
    elif operands and (request.set is not None or given):
        raise _failure(f"date: the argument '{operands[0]}' lacks a leading '+';",
                       "when using an option to specify date(s), any non-option",
                       "argument must be a format string beginning with '+'", TRY)
    return request, operands


def now_of(ctx: CommandContext) -> tuple[int, int]:
    """ctx.clock() as (seconds, nanoseconds)."""
    moment = float(ctx.clock())
    seconds = math.floor(moment)
    ns = min(int(round((moment - seconds) * 1_000_000_000)), 999_999_999)
    return seconds, ns


def zone_for(ctx: CommandContext, utc: bool) -> Zone:
    if utc:
        return UTC
    tz = ctx.environment.get("TZ")
    if tz is not None:
        return zone_from_tz(tz)
    return zone_of(ctx.timezone)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'" if "'" in text else f"'{text}'"


def _show(fmt: str, moment: tuple[int, int], zone: Zone) -> bytes:
    tm: BrokenDown = broken_down(moment[0], moment[1], zone)
    return (format_time(fmt, tm) + "\n").encode("utf-8", "surrogateescape")


async def cmd_date(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    request, operands = _parse_args(args)
    if request.help:
        return CommandResult((DATE.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    zone = zone_for(ctx, request.utc)
    fmt = request.format if request.format is not None else DEFAULT_FORMAT
    now = now_of(ctx)
    if request.file is not None:
        return await _batch(ctx, request.file, stdin, fmt, now, zone)
    if request.reference is not None:
        return CommandResult(_show(fmt, await _modified(ctx, request.reference), zone), "", 0, TEXT)
    text = request.date if request.date is not None else request.set
    if text is not None:
        moment = parse_datetime(text, now, zone)
        if moment is None:
            raise _failure(f"date: invalid date {_quoted(text)}")
        if request.set is not None:
            return CommandResult(_show(fmt, moment, zone), CANNOT_SET, 1, TEXT)
        return CommandResult(_show(fmt, moment, zone), "", 0, TEXT)
    if operands:  # date MMDDhhmm[[CC]YY][.ss]: setting the clock
        moment = _posix_time(operands[0], now, zone)
        if moment is None:
            raise _failure(f"date: invalid date {_quoted(operands[0])}")
        return CommandResult(_show(fmt, moment, zone), CANNOT_SET, 1, TEXT)
    return CommandResult(_show(fmt, now, zone), "", 0, TEXT)


async def _modified(ctx: CommandContext, path: str) -> tuple[int, int]:
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        info = None
    if info is None or not info.exists:
        raise _failure(f"date: {path}: No such file or directory")
    seconds, ms = divmod(int(info.modified_epoch_ms), 1000)
    return seconds, ms * 1_000_000


async def _batch(ctx: CommandContext, path: str, stdin: bytes, fmt: str, now: tuple[int, int],
                 zone: Zone) -> CommandResult:
    """-f FILE: one date a line; an invalid line is reported and the rest still printed."""
    if path == "-":
        data = stdin
    else:
        try:
            data = await read_file_bytes(ctx, "date", path)
        except FS_ERRORS:
            raise _failure(f"date: {path}: No such file or directory") from None
    out: list[bytes] = []
    errors: list[str] = []
    for line in data.decode("utf-8", "surrogateescape").splitlines():
        moment = parse_datetime(line, now, zone)
        if moment is None:
            errors.append(f"date: invalid date {_quoted(line)}")
            continue
        out.append(_show(fmt, moment, zone))
    return CommandResult(b"".join(out), "\n".join(errors), 1 if errors else 0, TEXT)


_POSIX = re.compile(r"(\d{8}|\d{10}|\d{12})(?:\.(\d{2}))?")


def _posix_time(text: str, now: tuple[int, int], zone: Zone) -> tuple[int, int] | None:
    """`MMDDhhmm[[CC]YY][.ss]`, the operand that sets the clock."""
    match = _POSIX.fullmatch(text)
    if match is None:
        return None
    digits, seconds = match.group(1), int(match.group(2) or 0)
    month, day, hour, minute = (int(digits[i:i + 2]) for i in range(0, 8, 2))
    if len(digits) == 8:
        year = broken_down(now[0], 0, zone).year
    elif len(digits) == 10:
        year = int(digits[8:])
        year += 2000 if year < 69 else 1900
    else:
        year = int(digits[8:])
    if not (1 <= month <= 12 and 1 <= day <= days_in_month(year, month) and hour < 24 and minute < 60
            and seconds < 60):
        return None
    local = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + seconds
    return zone.to_epoch(local), 0


DATE = CommandSpec(
    name="date",
    summary="Print the date and time, or another moment, in a chosen format (GNU date).",
    usage=USAGE,
    details=("Prints now (default format `Thu Jan  4 10:00:00 UTC 2024`), or the moment of -d STRING "
             "(GNU's forms: `2024-01-15 10:30`, `2024-01-15T10:30:00Z`, `@1700000000`, `yesterday`, "
             "`3 days ago`, `+2 hours`, `next monday`, `Jan 15 2024`...), of -r FILE (its modification "
             "time), or of each line of -f FILE. +FORMAT uses strftime's conversions (%Y %m %d %H %M %S "
             "%s %N %z %Z %a %b %j %F %T...; flags - _ 0 ^ # and widths such as %-d %_H %3N); -I[date|"
             "hours|minutes|seconds|ns], -R and --rfc-3339=date|seconds|ns are the standard formats; "
             "-u shows UTC. The zone is $TZ if set, else the host's setting, else UTC. The clock cannot "
             "be set here (-s is refused).\n"
             "Examples:\n  date +%F\n  date -u +%Y-%m-%dT%H:%M:%SZ\n  date -d @1700000000\n"
             "  date -d '2024-01-15 +3 days' +%A\n  date -d yesterday +%Y%m%d\n  date -Iseconds\n"
             "  date -r notes.txt +%s"),
    group="system", handler=cmd_date,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
)

COMMANDS = [DATE]
