"""GNU ls's options, long format and multi-column formats, for `ls` in the bash language.

The VFS keeps no owners or links: the long format shows the node's permission bits
(`chmod`; the defaults `-rw-r--r--` / `drwxr-xr-x` where the VFS keeps none), owner and
group `user`, a directory's link count as 2 plus its subdirectories, sizes, and modification
times in the host's zone (or the context's), as GNU prints them: `Mon DD HH:MM` within six
months, `Mon DD  YYYY` beyond.

Formats: output never goes to a terminal, so one name a line is the default (GNU's for a
pipe); `-C` (columns), `-x` (across), `-m` (commas), `-l` and `-1` follow GNU: the last one
given wins. Columns are laid out in `-w COLS` (else $COLUMNS, else 80; 0 is no limit) as
GNU's calculate_columns does, padded with tabs of 8 (`-T 0`: spaces only).
"""
from __future__ import annotations

import datetime as dt
import math
import time
from typing import TYPE_CHECKING

from ._modes import mode_of, mode_string

if TYPE_CHECKING:
    from .ls import LsEntry, LsOptions

# Accepted without effect here: q N (names print as they are), U v (name order), G.
FLAGS = "1aAlRhtSrdFpCxqNUvGognmwT"
_FORMAT_LETTERS = {"1": "single", "C": "columns", "x": "across", "m": "commas",
                   "l": "long", "g": "long", "o": "long", "n": "long"}
_WITH_VALUE = {"w": "width", "T": "tabsize"}
LONG_FLAGS = {"--all": "a", "--almost-all": "A", "--recursive": "R", "--human-readable": "h",
              "--reverse": "r", "--directory": "d", "--classify": "F"}
_LONG_VALUES = {"--width": "w", "--tabsize": "T"}
_FORMAT_WORDS = {"across": "across", "horizontal": "across", "commas": "commas", "long": "long",
                 "verbose": "long", "single-column": "single", "vertical": "columns"}
_SIX_MONTHS_MS = 183 * 86_400_000
_MIN_COLUMN_WIDTH = 3


class LsUsageError(Exception):
    """A bad option: the message is GNU's first line (`ls: invalid option -- 'k'`)."""


def parse_flags(args: list[str]) -> tuple[set[str], list[str], dict[str, object]]:
    """(flags, operands, values): GNU's bundled letters and long forms; `values` holds
    "format" (the last format option), "width" and "tabsize". Raises LsUsageError."""
    flags: set[str] = set()
    operands: list[str] = []
    values: dict[str, object] = {"format": "single"}
    ended = False
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if ended or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name in _LONG_VALUES:
                if not eq:
                    if index >= len(args):
                        raise LsUsageError(f"ls: option '{name}' requires an argument")
                    value, index = args[index], index + 1
                _set_value(values, _WITH_VALUE[_LONG_VALUES[name]], value)
            elif name == "--time-style":
                if not eq:
                    if index >= len(args):
                        raise LsUsageError("ls: option '--time-style' requires an argument")
                    value, index = args[index], index + 1
                values["time_style"] = _time_style(value)
            elif arg == "--full-time":
                values["time_style"], values["format"] = "full-iso", "long"
                flags.add("l")
            elif name == "--format" and eq:
                if value not in _FORMAT_WORDS:
                    raise LsUsageError(f"ls: invalid argument '{value}' for '--format'")
                values["format"] = _FORMAT_WORDS[value]
                if values["format"] == "long":
                    flags.add("l")
            elif arg in LONG_FLAGS:
                flags.add(LONG_FLAGS[arg])
            else:
                raise LsUsageError(f"ls: unrecognized option '{arg}'")
        else:
            position = 1
            while position < len(arg):
                letter = arg[position]
                position += 1
                if letter not in FLAGS:
                    raise LsUsageError(f"ls: invalid option -- '{letter}'")
                if letter in _WITH_VALUE:
                    value = arg[position:]
                    if not value:
                        if index >= len(args):
                            raise LsUsageError(f"ls: option requires an argument -- '{letter}'")
                        value, index = args[index], index + 1
                    _set_value(values, _WITH_VALUE[letter], value)
                    break
                flags.add(letter)
                if letter in _FORMAT_LETTERS and not (letter == "1" and values["format"] == "long"):
                    values["format"] = _FORMAT_LETTERS[letter]  # -1 has no effect after -l
    return flags, operands, values


_TIME_STYLES = ("full-iso", "long-iso", "iso", "locale")


def _time_style(value: str) -> str:
    """GNU's --time-style: a named style (a `posix-` prefix is the same in the C locale), or
    `+FORMAT` (strftime; a newline in it separates the recent-file format: the first is kept)."""
    style = value[len("posix-"):] if value.startswith("posix-") else value
    if style.startswith("+"):
        return style.split("\n", 1)[0]
    if style not in _TIME_STYLES:
        raise LsUsageError(f"ls: invalid argument '{value}' for 'time style'")
    return style


def _set_value(values: dict[str, object], key: str, text: str) -> None:
    try:
        number = int(text, 10) if text.strip() == text and text.lstrip("+").isdigit() else -1
    except ValueError:
        number = -1
    if number < 0:
        what = "line width" if key == "width" else "tab size"
        raise LsUsageError(f"ls: invalid {what}: '{text}'")
    values[key] = number


def ordered(entries: list["LsEntry"], options: "LsOptions") -> list["LsEntry"]:
    """-t newest first, -S largest first (ties by name), -r reversed; `.` and `..` lead."""
    synthetic = [entry for entry in entries if entry.synthetic]
    rest = [entry for entry in entries if not entry.synthetic]
    if options.sort == "time":
        rest.sort(key=lambda entry: (-entry.info.modified_epoch_ms, entry.name.encode("utf-8", "surrogateescape")))
    elif options.sort == "size":
        rest.sort(key=lambda entry: (-_size(entry), entry.name.encode("utf-8", "surrogateescape")))
    if options.reverse:
        rest.reverse()
    return synthetic + rest


def decorated(entry: "LsEntry", options: "LsOptions") -> str:
    if (options.classify or options.slash) and entry.info.is_dir:
        return entry.name + "/"
    if options.classify and not entry.info.is_dir and mode_of(entry.info) & 0o111:
        return entry.name + "*"
    return entry.name


def long_lines(entries: list["LsEntry"], options: "LsOptions", links: dict[str, int],
               zone: dt.tzinfo | None, with_total: bool) -> list[str]:
    """`total N` (1 KiB blocks, as a 4 KiB-block file system counts them) and one line an entry."""
    now_ms = time.time() * 1000
    sizes = [_human(_size(e)) if options.human else str(_size(e)) for e in entries]
    counts = [str(links.get(e.info.path, 2) if e.info.is_dir else 1) for e in entries]
    size_width = max((len(s) for s in sizes), default=1)
    link_width = max((len(c) for c in counts), default=1)
    lines = []
    if with_total:
        blocks = sum(_blocks(e) for e in entries)
        lines.append(f"total {_human(blocks * 1024) if options.human else blocks}")
    for entry, size, count in zip(entries, sizes, counts):
        mode = mode_string(mode_of(entry.info), entry.info.is_dir)
        stamp = _timestamp(entry.info.modified_epoch_ms, now_ms, zone, options.time_style)
        lines.append(f"{mode} {count:>{link_width}} user user {size:>{size_width}} {stamp} {decorated(entry, options)}")
    return lines


# -- -C, -x, -m ------------------------------------------------------------------------------

def multi_column(names: list[str], fmt: str, width: int, tabsize: int) -> str:
    """GNU's print_many_per_line (-C), print_horizontal (-x), print_with_separator (-m)."""
    if not names:
        return ""
    if fmt == "commas":
        return _commas(names, width)
    by_columns = fmt == "columns"
    cols, widths = _columns(names, width, by_columns)
    rows = len(names) // cols + (len(names) % cols != 0)
    lines = []
    if by_columns:
        for row in range(rows):
            line, pos, index, col = [], 0, row, 0
            while True:
                name = names[index]
                line.append(name)
                column_width = widths[col]
                col += 1
                index += rows
                if index >= len(names):
                    break
                line.append(_indent(pos + _width(name), pos + column_width, tabsize))
                pos += column_width
            lines.append("".join(line))
    else:
        line, pos = [names[0]], 0
        previous = _width(names[0])
        column_width = widths[0]
        for index in range(1, len(names)):
            col = index % cols
            if col == 0:
                lines.append("".join(line))
                line, pos = [], 0
            else:
                line.append(_indent(pos + previous, pos + column_width, tabsize))
                pos += column_width
            line.append(names[index])
            previous, column_width = _width(names[index]), widths[col]
        lines.append("".join(line))
    return "\n".join(lines)


def _columns(names: list[str], line_length: int, by_columns: bool) -> tuple[int, list[int]]:
    count = len(names)
    max_idx = count if line_length == 0 else max(1, line_length // _MIN_COLUMN_WIDTH)
    max_cols = min(max_idx, count)
    valid = [True] * max_cols
    line_len = [(i + 1) * _MIN_COLUMN_WIDTH for i in range(max_cols)]
    widths = [[_MIN_COLUMN_WIDTH] * (i + 1) for i in range(max_cols)]
    for number, name in enumerate(names):
        length = _width(name)
        for i in range(max_cols):
            if not valid[i]:
                continue
            idx = number // ((count + i) // (i + 1)) if by_columns else number % (i + 1)
            real = length + (0 if idx == i else 2)
            if widths[i][idx] < real:
                line_len[i] += real - widths[i][idx]
                widths[i][idx] = real
                valid[i] = line_length == 0 or line_len[i] < line_length
    cols = max_cols
    while cols > 1 and not valid[cols - 1]:
        cols -= 1
    return cols, widths[cols - 1]


def _width(name: str) -> int:
    return len(name.encode("utf-8", "surrogateescape"))


def _indent(start: int, end: int, tabsize: int) -> str:
    out = []
    while start < end:
        if tabsize and end // tabsize > (start + 1) // tabsize:
            out.append("\t")
            start += tabsize - start % tabsize
        else:
            out.append(" ")
            start += 1
    return "".join(out)


def _commas(names: list[str], line_length: int) -> str:
    out: list[str] = []
    pos = 0
    for number, name in enumerate(names):
        length = _width(name) if line_length else 0
        if number:
            if not line_length or pos + length + 2 < line_length:
                pos += 2
                out.append(", ")
            else:
                pos = 0
                out.append(",\n")
        out.append(name)
        pos += length
    return "".join(out)


# -- sizes and times -------------------------------------------------------------------------

def _size(entry: "LsEntry") -> int:
    return 4096 if entry.info.is_dir else entry.info.size


def _blocks(entry: "LsEntry") -> int:
    size = _size(entry)
    return -(-size // 4096) * 4


def _human(size: int) -> str:
    """GNU's -h: bytes as they are below 1024, else rounded up, one decimal under 10."""
    if size < 1024:
        return str(size)
    value = float(size)
    for unit in "KMGTPE":
        value /= 1024
        if value < 1024 or unit == "E":
            tenths = math.ceil(value * 10) / 10
            return f"{tenths:.1f}{unit}" if tenths < 10 else f"{math.ceil(value)}{unit}"
    return str(size)


def _timestamp(epoch_ms: int, now_ms: float, zone: dt.tzinfo | None, style: str = "locale") -> str:
    try:
        moment = dt.datetime.fromtimestamp(epoch_ms / 1000, tz=zone or dt.timezone.utc)
        if zone is None:
            moment = moment.astimezone()
    except (OverflowError, OSError, ValueError):
        return "Jan  1  1970"
    recent = abs(now_ms - epoch_ms) < _SIX_MONTHS_MS
    if style == "full-iso":
        return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{epoch_ms % 1000:03d}000000 " + moment.strftime("%z")
    if style == "long-iso":
        return moment.strftime("%Y-%m-%d %H:%M")
    if style == "iso":
        return moment.strftime("%m-%d %H:%M" if recent else "%Y-%m-%d ")
    if style.startswith("+"):
        return moment.strftime(style[1:])
    month = moment.strftime("%b")
    if recent:
        return f"{month} {moment.day:>2} {moment.hour:02d}:{moment.minute:02d}"
    return f"{month} {moment.day:>2}  {moment.year}"
