"""comm, join and cmp: compare two sorted files line by line, join them on a field, or
compare them byte by byte, as GNU coreutils / diffutils do in the C locale (byte order).

comm prints three columns (only in FILE1, only in FILE2, in both; -1 -2 -3 hide them);
join prints the lines whose join fields match (-a / -v for unpaired ones, -o for the
fields to show); cmp reports the first differing byte (-l: every one, -s: status only).
comm and join warn once a file is out of order (exit 1 at the end), as GNU does.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..result import CommandResult
from .helpers import FS_ERRORS
from .options import usage_failure
from .spec import CommandContext, CommandFailed, CommandSpec
from .getopt import NONE, OPTIONAL, REQUIRED, OperandError, gnu_getopt, read_operand, result_of

MAX_JOIN_OUTPUT = 64 * 1024 * 1024
ASCII_FOLD = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def records_of(data: bytes, end: bytes) -> list[bytes]:
    records = data.split(end)
    if records[-1] == b"":
        records.pop()
    return records


def two_operands(command: str, usage: str, paths: list[str]) -> None:
    if not paths:
        raise usage_failure(command, "missing operand", usage)
    if len(paths) == 1:
        raise usage_failure(command, f"missing operand after '{paths[0]}'", usage)
    if len(paths) > 2:
        raise usage_failure(command, f"extra operand '{paths[2]}'", usage)


async def read_two(ctx: CommandContext, command: str, paths: list[str], stdin: bytes,
                   status: int = 1) -> tuple[bytes, bytes]:
    """Both operands' bytes; the first that cannot be read ends the command."""
    try:
        first = await read_operand(ctx, command, paths[0], stdin)
        second = await read_operand(ctx, command, paths[1], b"" if paths[0] == "-" else stdin)
    except OperandError as error:
        raise CommandFailed(result_of(b"", [str(error)], status)) from None
    return first, second


# ---------------------------------------------------------------- comm

COMM_USAGE = "comm [-1] [-2] [-3] [--output-delimiter=STR] FILE1 FILE2"
_COMM_LONG = {"check-order": ("check", NONE), "nocheck-order": ("nocheck", NONE),
              "output-delimiter": ("delimiter", REQUIRED), "total": ("total", NONE),
              "zero-terminated": ("z", NONE)}


@dataclass
class Order:
    """GNU's order check: off, on (fatal), or by default only once lines went unpaired."""
    mode: str = "default"
    seen_unpairable: bool = False
    warned: list[bool] = field(default_factory=lambda: [False, False])
    errors: list[str] = field(default_factory=list)

    def active(self) -> bool:
        return self.mode == "on" or (self.mode == "default" and self.seen_unpairable)


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


# ---------------------------------------------------------------- join

JOIN_USAGE = "join [-t CHAR] [-1 FIELD] [-2 FIELD] [-a FILENUM] [-v FILENUM] [-e EMPTY] [-o FORMAT] [-i] FILE1 FILE2"
_JOIN_LONG = {"ignore-case": ("i", NONE), "check-order": ("check", NONE), "nocheck-order": ("nocheck", NONE),
              "zero-terminated": ("z", NONE), "header": ("header", NONE)}


@dataclass
class JoinOptions:
    fields: list[int] = field(default_factory=lambda: [0, 0])  # 0-based join fields
    unpaired: list[bool] = field(default_factory=lambda: [False, False])
    only_unpaired: bool = False
    empty: bytes | None = None
    format: list[tuple[int, int]] | None = None  # (file 0/1/2 for the join field, field index)
    auto: bool = False
    tab: bytes | None = None
    ignore_case: bool = False
    header: bool = False
    end: bytes = b"\n"
    order: Order = field(default_factory=Order)


def _field_number(text: str) -> int:
    if not (text.isdigit() and text.isascii()) or int(text) < 1:
        raise usage_failure("join", f"invalid field number: '{text}'", JOIN_USAGE)
    return min(int(text), 1 << 31) - 1


def _file_number(text: str) -> int:
    if text not in ("1", "2"):
        raise usage_failure("join", f"invalid file number: '{text}'", JOIN_USAGE)
    return int(text) - 1


def _output_format(text: str) -> list[tuple[int, int]]:
    spec: list[tuple[int, int]] = []
    for item in text.replace(",", " ").replace("\t", " ").split():
        if item == "0":
            spec.append((0, 0))
            continue
        file_number, dot, number = item.partition(".")
        if file_number not in ("1", "2") or not dot:
            raise usage_failure("join", f"invalid field specifier: '{item}'", JOIN_USAGE)
        spec.append((int(file_number), _field_number(number)))
    return spec


def parse_join(args: list[str]) -> tuple[JoinOptions, list[str]]:
    raw, paths = gnu_getopt("join", JOIN_USAGE, args, "a:e:i1:2:j:o:t:v:z", _JOIN_LONG)
    options = JoinOptions()
    for key, value in raw:
        text = value or ""
        if key == "a":
            options.unpaired[_file_number(text)] = True
        elif key == "v":
            options.unpaired[_file_number(text)] = True
            options.only_unpaired = True
        elif key in "12":
            options.fields[int(key) - 1] = _field_number(text)
        elif key == "j":
            options.fields = [_field_number(text)] * 2
        elif key == "e":
            options.empty = text.encode("utf-8")
        elif key == "o":
            options.auto = text == "auto"
            options.format = None if options.auto else (options.format or []) + _output_format(text)
        elif key == "t":
            options.tab = _tab(text)
        elif key == "i":
            options.ignore_case = True
        elif key == "z":
            options.end = b"\0"
        elif key == "header":
            options.header = True
        else:
            options.order.mode = "on" if key == "check" else "off"
    return options, paths


def _tab(text: str) -> bytes:
    data = text.encode("utf-8")
    if data == b"\\0":
        return b"\0"
    if len(data) > 1:
        raise usage_failure("join", f"multi-character tab '{text}'", JOIN_USAGE)
    return data or b"\n"  # -t '': the whole line is the field


def split_fields(line: bytes, tab: bytes | None) -> list[bytes]:
    if tab is None:  # GNU: runs of blanks (and newlines) separate; a trailing run ends an empty field
        stripped = line.lstrip(b" \t\n")
        return re.split(b"[ \t\n]+", stripped) if stripped else []
    return line.split(tab)


def _key(fields: list[bytes], index: int, ignore_case: bool) -> bytes:
    value = fields[index] if index < len(fields) else b""
    return value.translate(ASCII_FOLD) if ignore_case else value


class JoinFile:
    """One input: its lines split in fields, read in groups of equal keys."""

    def __init__(self, name: str, lines: list[bytes], which: int, options: JoinOptions) -> None:
        self.name, self.which, self.options = name, which, options
        self.rows = [split_fields(line, options.tab) for line in lines]
        self.lines = lines
        self.index = 0

    def key(self, index: int) -> bytes:
        return _key(self.rows[index], self.options.fields[self.which], self.options.ignore_case)

    def advance(self, errors: list[str]) -> None:
        self.index += 1
        order = self.options.order
        if self.index < len(self.rows) and order.active() and not order.warned[self.which]:
            if self.key(self.index - 1) > self.key(self.index):
                order.warned[self.which] = True
                message = (f"join: {self.name}:{self.index + 1}: is not sorted: "
                           f"{self.lines[self.index].decode('utf-8', 'replace')}")
                if order.mode == "on":
                    raise CommandFailed(result_of(b"", [*errors, message]))
                errors.append(message)


def join_line(options: JoinOptions, left: list[bytes] | None, right: list[bytes] | None) -> bytes:
    """One output line: the default layout, or -o's fields (missing ones as -e)."""
    separator = options.tab if options.tab not in (None, b"\n") else b" "
    empty = options.empty if options.empty is not None else b""
    rows = (left, right)
    if options.format is not None:
        picked = []
        for file_number, index in options.format:
            if file_number == 0:
                source = 0 if left is not None else 1
                row, index = rows[source], options.fields[source]
            else:
                row = rows[file_number - 1]
            picked.append(row[index] if row is not None and index < len(row) else empty)
        return separator.join(picked) + options.end
    keyed = left if left is not None else right
    key_index = options.fields[0 if left is not None else 1]
    parts = [keyed[key_index] if keyed is not None and key_index < len(keyed) else empty]
    for source, row in enumerate(rows):
        if row is not None:
            parts.extend(value for index, value in enumerate(row) if index != options.fields[source])
    return separator.join(parts) + options.end


def _auto_format(options: JoinOptions, first: JoinFile, second: JoinFile) -> None:
    if not options.auto:
        return
    widths = [len(file.rows[0]) if file.rows else 0 for file in (first, second)]
    options.format = [(0, 0)] + [(source + 1, index) for source in (0, 1) for index in range(widths[source])
                                  if index != options.fields[source]]


async def cmd_join(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = parse_join(args)
    two_operands("join", JOIN_USAGE, paths)
    data = await read_two(ctx, "join", paths, stdin)
    files = [JoinFile(path, records_of(raw, options.end), which, options)
             for which, (path, raw) in enumerate(zip(paths, data))]
    out = bytearray()
    errors: list[str] = []
    if options.header and files[0].rows and files[1].rows:
        out += join_line(options, files[0].rows[0], files[1].rows[0])
        for file in files:
            file.index = 1
    elif options.header:
        for file in files:
            file.index = min(1, len(file.rows))
    _auto_format(options, files[0], files[1])
    out += merge(files[0], files[1], options, errors)
    if any(options.order.warned):
        errors.append("join: input is not in sorted order")
    return result_of(bytes(out), errors)


def merge(first: JoinFile, second: JoinFile, options: JoinOptions, errors: list[str]) -> bytes:
    out = bytearray()
    while first.index < len(first.rows) and second.index < len(second.rows):
        diff = (first.key(first.index) > second.key(second.index)) - (first.key(first.index) < second.key(second.index))
        if diff:
            options.order.seen_unpairable = True
            file = first if diff < 0 else second
            if options.unpaired[file.which]:
                row = file.rows[file.index]
                out += join_line(options, row if file is first else None, row if file is second else None)
            file.advance(errors)
            continue
        groups = [_group(file, errors) for file in (first, second)]
        if not options.only_unpaired:
            for left in groups[0]:
                for right in groups[1]:
                    out += join_line(options, left, right)
                if len(out) > MAX_JOIN_OUTPUT:  # many lines sharing a key multiply
                    raise CommandFailed(result_of(b"", [f"join: output is larger than {MAX_JOIN_OUTPUT} bytes: "
                                                        "lines sharing a key pair with each other; narrow the inputs"]))
    for file in (first, second):
        while file.index < len(file.rows):
            if options.unpaired[file.which]:
                row = file.rows[file.index]
                out += join_line(options, row if file is first else None, row if file is second else None)
            file.advance(errors)
    return bytes(out)


def _group(file: JoinFile, errors: list[str]) -> list[list[bytes]]:
    """The run of rows sharing the current key (the file moves past it)."""
    key = file.key(file.index)
    group = [file.rows[file.index]]
    file.advance(errors)
    while file.index < len(file.rows) and file.key(file.index) == key:
        group.append(file.rows[file.index])
        file.advance(errors)
    return group


# ---------------------------------------------------------------- cmp

CMP_USAGE = "cmp [-b] [-l] [-s] [-i SKIP] [-n LIMIT] FILE1 [FILE2 [SKIP1 [SKIP2]]]"
_CMP_LONG = {"print-bytes": ("b", NONE), "verbose": ("l", NONE), "quiet": ("s", NONE), "silent": ("s", NONE),
             "ignore-initial": ("i", REQUIRED), "bytes": ("n", REQUIRED), "help": ("help", NONE),
             "version": ("version", OPTIONAL)}
TROUBLE = 2
_SUFFIXES = {"": 1, "kB": 1000, "K": 1024, "KiB": 1024, "MB": 10**6, "M": 1 << 20, "MiB": 1 << 20,
             "GB": 10**9, "G": 1 << 30, "GiB": 1 << 30}


def _cmp_number(text: str, what: str) -> int:
    digits = text.rstrip("kKMGiB")
    suffix = text[len(digits):]
    if not (digits.isdigit() and digits.isascii()) or suffix not in _SUFFIXES:
        raise usage_failure("cmp", f"invalid {what} '{text}'", CMP_USAGE, TROUBLE)
    return min(int(digits) * _SUFFIXES[suffix], 1 << 62)


def shown_byte(byte: int) -> str:
    """How cmp -b shows a byte: printable as is, control as ^X, high bytes as M-x."""
    prefix = ""
    if byte >= 128:
        prefix, byte = "M-", byte - 128
    if byte < 32:
        return f"{prefix}^{chr(byte + 64)}"
    if byte == 127:
        return f"{prefix}^?"
    return prefix + chr(byte)


async def cmd_cmp(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        raw, paths = gnu_getopt("cmp", CMP_USAGE, args, "bli:n:s", _CMP_LONG)
    except CommandFailed as failure:
        raise CommandFailed(result_of(b"", [failure.result.stderr], TROUBLE)) from None
    verbose = print_bytes = silent = False
    skips, limit = [0, 0], None
    for key, value in raw:
        if key == "b":
            print_bytes = True
        elif key == "l":
            verbose = True
        elif key == "s":
            silent = True
        elif key == "i":
            first, _, second = (value or "").partition(":")
            skips = [_cmp_number(first, "--ignore-initial value"), _cmp_number(second or first, "--ignore-initial value")]
        elif key == "n":
            limit = _cmp_number(value or "", "--bytes value")
        else:
            raise usage_failure("cmp", f"--{key} is not supported", CMP_USAGE, TROUBLE)
    if not paths:
        raise usage_failure("cmp", "missing operand after 'cmp'", CMP_USAGE, TROUBLE)
    if len(paths) > 4:
        raise usage_failure("cmp", f"extra operand '{paths[4]}'", CMP_USAGE, TROUBLE)
    for index, extra in enumerate(paths[2:4]):
        skips[index] = _cmp_number(extra, "--ignore-initial value")
    names = [paths[0], paths[1] if len(paths) > 1 else "-"]
    try:
        left, right = await read_two(ctx, "cmp", names, stdin, TROUBLE)
    except FS_ERRORS as error:  # pragma: no cover - read_operand words these
        raise CommandFailed(result_of(b"", [f"cmp: {error}"], TROUBLE)) from None
    left, right = left[skips[0]:], right[skips[1]:]
    if limit is not None:
        left, right = left[:limit], right[:limit]
    return compare(names, left, right, verbose, print_bytes, silent)


def compare(names: list[str], left: bytes, right: bytes, verbose: bool, print_bytes: bool,
            silent: bool) -> CommandResult:
    common = min(len(left), len(right))
    first = next((index for index in range(common) if left[index] != right[index]), None)
    if first is None and len(left) == len(right):
        return result_of(b"", [], 0)
    if silent:
        return result_of(b"", [], 1)
    if verbose:
        return _verbose(names, left, right, print_bytes)
    if first is not None:
        line = left[:first].count(b"\n") + 1
        text = f"{names[0]} {names[1]} differ: {'byte' if print_bytes else 'char'} {first + 1}, line {line}"
        if print_bytes:
            text += (f" is {left[first]:3o} {shown_byte(left[first])} "
                     f"{right[first]:3o} {shown_byte(right[first])}")
        return result_of((text + "\n").encode("utf-8"), [], 1)
    return result_of(b"", [_eof_message(names, left, right, with_line=True)], 1)


def _eof_message(names: list[str], left: bytes, right: bytes, with_line: bool) -> str:
    shorter = 0 if len(left) < len(right) else 1
    data = (left, right)[shorter]
    if not data:
        return f"cmp: EOF on {names[shorter]} which is empty"
    where = f"after byte {len(data)}"
    if with_line:
        line = data[:-1].count(b"\n") + 1
        where += f", line {line}"
    return f"cmp: EOF on {names[shorter]} {where}"


def _verbose(names: list[str], left: bytes, right: bytes, print_bytes: bool) -> CommandResult:
    common = min(len(left), len(right))
    width = len(str(common)) if common else 1
    lines = []
    for index in range(common):
        a, b = left[index], right[index]
        if a == b:
            continue
        if print_bytes:
            lines.append(f"{index + 1:>{width}} {a:3o} {shown_byte(a):<4} {b:3o} {shown_byte(b)}")
        else:
            lines.append(f"{index + 1:>{width}} {a:3o} {b:3o}")
    out = "".join(line + "\n" for line in lines).encode("utf-8")
    errors = [_eof_message(names, left, right, with_line=False)] if len(left) != len(right) else []
    return result_of(out, errors, 1)


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

JOIN = CommandSpec(
    name="join",
    summary="Join the lines of two sorted files on a common field, as GNU join.",
    usage=JOIN_USAGE,
    details=("For each pair of lines whose join fields match (field 1; -1 N / -2 N / -j N to choose), "
             "prints the field, then the other fields of FILE1, then those of FILE2. Fields are separated "
             "by blanks, or by -t CHAR. -a N: also print the unpairable lines of file N; -v N: only those; "
             "-o FORMAT: the fields to print (0 for the join field, N.M for field M of file N, or auto), "
             "-e EMPTY for missing ones; -i: ignore case. Inputs sorted on the join field (LC_ALL=C "
             "sort -k1,1).\n"
             "Examples:\n  join users.txt orders.txt\n  join -t , -1 2 -2 1 a.csv b.csv\n"
             "  join -a 1 -e NONE -o 0,1.2,2.2 a.txt b.txt"),
    group="text", handler=cmd_join,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-", "/dev/null"), kind="read",
)

CMP = CommandSpec(
    name="cmp",
    summary="Compare two files byte by byte, as GNU cmp.",
    usage=CMP_USAGE,
    details=("Says where FILE1 and FILE2 (default stdin) first differ, or on which one EOF came first. "
             "-l: every differing byte (offset, octal values); -b: show the bytes too; -s: no output, "
             "only the status; -i SKIP[:SKIP2]: skip leading bytes; -n N: compare at most N bytes. Exit "
             "status 0: same, 1: different, 2: trouble.\n"
             "Examples:\n  cmp a.bin b.bin\n  cmp -s a.txt b.txt && echo same\n  cmp -l old.dat new.dat | head"),
    group="text", handler=cmd_cmp,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-", "/dev/null"), kind="read",
    usage_exit_code=2,
)

COMMANDS = [COMM, JOIN, CMP]
