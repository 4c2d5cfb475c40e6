"""comm: lines common to two sorted files, in three columns (`-123`, `--output-delimiter`, order checks)."""
from __future__ import annotations

from ...result import CommandResult
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..getopt import NONE, REQUIRED, gnu_getopt, result_of
from ._two_files import Order, read_two, records_of, two_operands


COMM_USAGE = "comm [-1] [-2] [-3] [--output-delimiter=STR] FILE1 FILE2"


_COMM_LONG = {"check-order": ("check", NONE), "nocheck-order": ("nocheck", NONE),
              "output-delimiter": ("delimiter", REQUIRED), "total": ("total", NONE),
              "zero-terminated": ("z", NONE)}


async def cmd_comm(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = gnu_getopt("comm", COMM_USAGE, args, "123z", _COMM_LONG)
    show = [True, True, True]
    order, delimiter, total, end = Order(), b"\t", False, b"\n"
    for key, value in options:
        if key in "123":
            show[int(key) - 1] = False
        elif key == "check":
            order.mode = "on"
        elif key == "nocheck":
            order.mode = "off"
        elif key == "delimiter":
            delimiter = (value or "").encode("utf-8") or b"\0"
        elif key == "total":
            total = True
        else:
            end = b"\0"
    two_operands("comm", COMM_USAGE, paths)
    first, second = await read_two(ctx, "comm", paths, stdin)
    out, counts = comm_lines(records_of(first, end), records_of(second, end), show, delimiter, end, order)
    if total:
        out += delimiter.join(str(count).encode() for count in counts) + delimiter + b"total" + end
    if any(order.warned):
        order.errors.append("comm: input is not in sorted order")
    return result_of(out, order.errors)


def comm_lines(left: list[bytes], right: list[bytes], show: list[bool], delimiter: bytes, end: bytes,
               order: Order) -> tuple[bytes, list[int]]:
    out = bytearray()
    counts = [0, 0, 0]
    i = j = 0
    while i < len(left) or j < len(right):
        if i >= len(left):
            diff = 1
        elif j >= len(right):
            diff = -1
        else:
            diff = (left[i] > right[j]) - (left[i] < right[j])
        column = 2 if diff == 0 else 0 if diff < 0 else 1
        order.seen_unpairable |= diff != 0
        counts[column] += 1
        if show[column]:
            line = left[i] if column != 1 else right[j]
            out += delimiter * sum(show[:column]) + line + end
        if diff <= 0:
            i += 1
            _check(order, left, i, 0, "comm")
        if diff >= 0:
            j += 1
            _check(order, right, j, 1, "comm")
    return bytes(out), counts


def _check(order: Order, lines: list[bytes], index: int, which: int, command: str) -> None:
    if index >= len(lines) or index == 0 or not order.active() or order.warned[which]:
        return
    if lines[index - 1] > lines[index]:
        order.warned[which] = True
        message = f"{command}: file {which + 1} is not in sorted order"
        if order.mode == "on":
            raise CommandFailed(result_of(b"", [*order.errors, message]))
        order.errors.append(message)


COMM = CommandSpec(
    name="comm",
    summary="Compare two sorted files line by line, as GNU comm.",
    usage=COMM_USAGE,
    details=("Prints three columns: lines only in FILE1, lines only in FILE2 (after one TAB), lines in "
             "both (after two). -1, -2, -3 hide a column; --output-delimiter=STR replaces the TAB; "
             "--total adds the counts. Inputs must be sorted in byte order (LC_ALL=C sort): comm warns and "
             "exits 1 otherwise (--nocheck-order: silent). `-` is stdin.\n"
             "Examples:\n  comm -12 a.txt b.txt\n  comm -23 <(sort all.txt) <(sort done.txt)\n"
             "  sort new.txt | comm -13 old.txt -"),
    group="text", handler=cmd_comm,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-", "/dev/null"), kind="read",
)


COMMANDS = [COMM]
