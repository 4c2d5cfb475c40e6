"""cut: select bytes (-b), characters (-c) or delimited fields (-f) of each line, as GNU cut.

A LIST is ranges separated by commas (or blanks): `N`, `N-`, `-M`, `N-M`. Ranges are
sorted and overlapping ones merged; output keeps input order. `-c` counts UTF-8
characters (GNU in a UTF-8 locale), `-b` counts bytes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...result import TEXT, CommandResult, ok_bytes
from ..helpers import fail
from ..lines import (join_records, split_records, open_each, read_inputs, record_blocks, run_as_handler, source_blocks,
                     split_lines, with_stream)
from ..options import OptionSpec, getopt
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec

USAGE = "cut -b LIST|-c LIST|-f LIST [-d DELIM] [-s] [--complement] [path ...]"
_OPTIONS = OptionSpec(
    "cut", USAGE, flags="snz", values="bcdf",
    long={"bytes": "b", "characters": "c", "fields": "f", "delimiter": "d", "only-delimited": "s",
          "zero-terminated": "z",
          "complement": "complement", "output-delimiter": "output-delimiter"},
    long_values=frozenset({"output-delimiter"}))
_ITEM_SEPARATORS = re.compile(r"[, \t]")
_MAX = 1 << 62  # "to the end of the line"

Range = tuple[int, int]  # 1-based, inclusive


def error(message: str) -> CommandFailed:
    return fail(f"cut: {message}. Usage: {USAGE}")


def parse_list(text: str, unit: str) -> list[Range]:
    """GNU's LIST grammar and messages; `unit` is "f" (fields) or "b"/"c" (positions)."""
    numbered = "fields are numbered from 1" if unit == "f" else "byte/character positions are numbered from 1"
    ranges: list[Range] = []
    for item in _ITEM_SEPARATORS.split(text):
        low, dash, high = item.partition("-")
        if item == "-":
            raise error("invalid range with no endpoint: -")
        if not dash:
            value = _position(item, text, unit, numbered)
            ranges.append((value, value))
            continue
        if "-" in high:
            raise error("invalid field range" if unit == "f" else "invalid byte or character range")
        start = _position(low, text, unit, numbered) if low else 1
        end = _position(high, text, unit, numbered, allow_zero=True) if high else _MAX
        if end < start:
            raise error("invalid decreasing range")
        ranges.append((start, end))
    return merge(ranges)


def _position(item: str, text: str, unit: str, numbered: str, allow_zero: bool = False) -> int:
    if not item or (item.isdigit() and item.isascii() and int(item) == 0 and not allow_zero):
        raise error(numbered)
    if not (item.isdigit() and item.isascii()):
        kind = "field value" if unit == "f" else "byte/character position"
        raise error(f"invalid {kind} '{text}'")
    return int(item)


def merge(ranges: list[Range]) -> list[Range]:
    """Sorted, overlapping ranges joined (adjacent ones stay apart, as GNU keeps them)."""
    merged: list[Range] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def complement(ranges: list[Range]) -> list[Range]:
    gaps: list[Range] = []
    next_free = 1
    for low, high in ranges:
        if low > next_free:
            gaps.append((next_free, low - 1))
        next_free = max(next_free, high + 1)
    if next_free <= _MAX:
        gaps.append((next_free, _MAX))
    return gaps


@dataclass
class CutOptions:
    unit: str = ""  # "b", "c" or "f"
    ranges: list[Range] = field(default_factory=list)
    delimiter: bytes | None = None
    output_delimiter: bytes | None = None
    only_delimited: bool = False
    complement: bool = False
    eol: bytes = b"\n"  # -z: NUL-ended records
    paths: list[str] = field(default_factory=list)


def parse_options(args: list[str]) -> CutOptions:
    parsed, paths = getopt(_OPTIONS, args)
    options = CutOptions(paths=paths)
    list_text = ""
    for name, value in parsed:
        if len(name) == 1 and name in "bcf":
            if options.unit:
                raise error("only one list may be specified")
            options.unit, list_text = name, value or ""
        elif name == "d":
            options.delimiter = _delimiter(value or "")
        elif name == "s":
            options.only_delimited = True
        elif name == "z":
            options.eol = b"\0"
        elif name == "complement":
            options.complement = True
        elif name == "output-delimiter":
            options.output_delimiter = (value or "").encode("utf-8")
    _check_combination(options)
    options.ranges = parse_list(list_text, options.unit)
    if options.complement:
        options.ranges = complement(options.ranges)
    return options


def _delimiter(value: str) -> bytes:
    data = value.encode("utf-8")
    if len(value) > 1:
        raise error("the delimiter must be a single character")
    return data or b"\0"  # GNU reads -d '' as the NUL byte


def _check_combination(options: CutOptions) -> None:
    if not options.unit:
        raise error("you must specify a list of bytes, characters, or fields")
    if options.unit != "f" and options.delimiter is not None:
        raise error("an input delimiter may be specified only when operating on fields")
    if options.unit != "f" and options.only_delimited:
        raise error("suppressing non-delimited lines makes sense only when operating on fields")


def cut_fields(line: bytes, options: CutOptions) -> bytes | None:
    delimiter = options.delimiter or b"\t"
    if delimiter not in line:
        return None if options.only_delimited else line
    parts = line.split(delimiter)
    chosen = [part for low, high in options.ranges for part in parts[low - 1:min(high, len(parts))]]
    out_delimiter = options.output_delimiter if options.output_delimiter is not None else delimiter
    return out_delimiter.join(chosen)


def cut_positions(line: bytes, options: CutOptions) -> bytes:
    # Bytes that are not UTF-8 count as one character each (surrogateescape), never an error.
    text: bytes | str = line.decode("utf-8", "surrogateescape") if options.unit == "c" else line
    pieces = [text[low - 1:high] for low, high in options.ranges if low <= len(text)]
    if options.unit == "c":
        pieces = [piece.encode("utf-8", "surrogateescape") for piece in pieces]  # type: ignore[union-attr]
    return (options.output_delimiter or b"").join(pieces)  # type: ignore[arg-type]


def cut_block(data: bytes | list[bytes], options: CutOptions) -> list[bytes]:
    """The output lines for these input lines (bytes ending in "\n", or records already split)."""
    one_field = options.unit == "f" and len(options.ranges) == 1 and options.ranges[0][0] == options.ranges[0][1]
    if one_field and isinstance(data, bytes):
        found = _one_field_block(data, options)
        if found is not None:
            return found
    lines = split_lines(data) if isinstance(data, bytes) else data
    if one_field:
        return _one_field(lines, options)
    out: list[bytes] = []
    for line in lines:
        piece = cut_fields(line, options) if options.unit == "f" else cut_positions(line, options)
        if piece is not None:
            out.append(piece)
    return out


_BLOCK_PATTERNS: dict[tuple[bytes, int], re.Pattern[bytes]] = {}


def _one_field_block(data: bytes, options: CutOptions) -> list[bytes] | None:
    """`-f N` over a whole block of "\n"-ended lines by one regex scan: each line that has
    at least N-1 delimiters gives one match, field N. When every line matched (so none lacks
    the delimiter, or N is 1: a line without one is then its own field 1), that is the
    output; otherwise None (the per-line path handles lines without delimiters)."""
    delimiter, number = options.delimiter or b"\t", options.ranges[0][0]
    if len(delimiter) != 1 or delimiter == b"\n" or number > 256 or (number == 1 and options.only_delimited):
        return None
    if not data:
        return []
    pattern = _BLOCK_PATTERNS.get((delimiter, number))
    if pattern is None:
        d = re.escape(delimiter)
        other = b"[^" + d + b"\n]*"
        pattern = re.compile(b"^" + (b"(?:" + other + d + b"){%d}" % (number - 1) if number > 1 else b"") +
                             b"(" + other + b")", re.MULTILINE)
        _BLOCK_PATTERNS[(delimiter, number)] = pattern
    end = len(data) - 1 if data[-1] == 10 else len(data)  # the last line's "\n" is no line start
    found = pattern.findall(data, 0, end)
    return found if len(found) == data.count(b"\n", 0, end) + 1 else None


def _one_field(lines: list[bytes], options: CutOptions) -> list[bytes]:
    """`-f N`, the common case, without building every field of every line."""
    delimiter, number = options.delimiter or b"\t", options.ranges[0][0]
    out: list[bytes] = []
    append = out.append
    for line in lines:
        if delimiter not in line:
            if not options.only_delimited:
                append(line)
            continue
        parts = line.split(delimiter, number)  # field N is whole among the first N+1 pieces
        append(parts[number - 1] if len(parts) >= number else b"")
    return out


async def cmd_cut(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await run_as_handler(stream_cut, ctx, args, stdin, TEXT)
    options = parse_options(args)
    inputs = await read_inputs(ctx, "cut", options.paths, stdin)
    return ok_bytes(join_records([piece for _, data in inputs
                                  for piece in cut_block(data if options.eol == b"\n" else split_records(data, options.eol),
                                                         options)], options.eol), TEXT)


async def stream_cut(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """cut as stdin arrives: each block of whole lines is cut and written at once."""
    options = parse_options(args)
    sources, status = await open_each(ctx, "cut", options.paths, io, text=options.eol == b"\n")
    for source in sources:
        if source.error is not None:
            continue
        blocks = (source_blocks(source, io, "cut", ctx.grammar != "bash") if options.eol == b"\n"
                  else record_blocks(source, io, "cut", options.eol, ctx.grammar != "bash"))
        async for block in blocks:  # type: ignore[attr-defined]
            out = cut_block(block, options)
            if out:
                await io.stdout.write(join_records(out, options.eol))
    return status


CUT = with_stream(CommandSpec(
    name="cut",
    summary="Select fields, characters, or bytes from each line of stdin or a file.",
    usage=USAGE,
    details=("Fields (-f) are split on -d DELIM (default TAB); lines without the delimiter print whole "
             "unless -s. LIST is N, N-, -M or N-M, comma-separated; --complement selects the rest.\n"
             "Examples:\n  cut -d , -f 1,3 /data/users.csv\n  cut -d: -f2- /config/app.env\n"
             "  cut -c 1-19 /logs/app.log\n  cat /data/users.csv | cut -d , -f 2 | sort | uniq -c"),
    group="text", handler=cmd_cut,
    accepts_stdin=True, min_args=1, max_args=None, conformance_args=("-f", "1"), kind="read",
), stream_cut)

COMMANDS = [CUT]
