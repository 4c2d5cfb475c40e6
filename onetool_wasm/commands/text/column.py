"""column -t: align the fields of lines into a table, as util-linux column in the C locale.

Fields are split on runs of blanks (leading and trailing ones ignored), or on any of the
characters of -s SEP (then every separator counts: empty fields stay). Each column is as
wide as its widest cell, cells are followed by two spaces (or -o STR), the last column is
not padded, and empty lines are skipped. Only table mode (-t) is supported: the default
mode fills columns to a terminal's width, which a sandbox does not have.
"""
from __future__ import annotations

import re

from ...result import CommandResult
from ..options import usage_failure
from ..spec import CommandContext, CommandSpec
from ..getopt import NONE, REQUIRED, gnu_getopt, read_operands, result_of

USAGE = "column -t [-s SEP] [-o STR] [FILE...]"
_LONG = {"table": ("t", NONE), "separator": ("s", REQUIRED), "output-separator": ("o", REQUIRED),
         "fillrows": ("x", NONE), "columns": ("c", REQUIRED)}


def split_cells(line: bytes, separators: bytes | None) -> list[bytes]:
    if separators is None:
        return line.replace(b"\t", b" ").split()
    return re.split(b"[" + re.escape(separators) + b"]", line)


def table(lines: list[bytes], separators: bytes | None, gap: bytes) -> bytes:
    rows = [split_cells(line, separators) for line in lines if line]
    if not rows:
        return b""
    count = max(len(row) for row in rows)
    widths = [max((len(row[index]) for row in rows if index < len(row)), default=0) for index in range(count)]
    out = bytearray()
    for row in rows:
        cells = row + [b""] * (count - len(row))
        for index, cell in enumerate(cells):
            if index == count - 1:
                out += cell
            else:
                out += cell + b" " * (widths[index] - len(cell)) + gap
        out += b"\n"
    return bytes(out)


async def cmd_column(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    raw, paths = gnu_getopt("column", USAGE, args, "ts:o:xc:", _LONG)
    is_table, separators, gap = False, None, b"  "
    for key, value in raw:
        if key == "t":
            is_table = True
        elif key == "s":
            separators = (value or "").encode("utf-8") or None
        elif key == "o":
            gap = (value or "").encode("utf-8")
    if not is_table:
        raise usage_failure("column", "only table mode is supported: add -t", USAGE)
    inputs, errors = await read_operands(ctx, "column", paths, stdin)
    if errors:
        return result_of(b"", errors)
    lines = [line for _, data in inputs for line in data.split(b"\n")]
    return result_of(table(lines, separators, gap), [])


COLUMN = CommandSpec(
    name="column",
    summary="Align fields into a table (column -t), as util-linux column.",
    usage=USAGE,
    details=("Splits every line of the FILEs (or stdin) into fields at blanks, or at any character of "
             "-s SEP, and prints them in columns as wide as their widest cell, two spaces apart (-o STR "
             "instead). Empty lines are dropped. Only -t (table) mode is supported.\n"
             "Examples:\n  column -t /data/table.txt\n  column -t -s , /data/users.csv\n"
             "  mount | column -t -o ' | '"),
    group="text", handler=cmd_column,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-t",), kind="read",
)

COMMANDS = [COLUMN]
