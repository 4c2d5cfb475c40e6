"""join: lines of two sorted files joined on a field (`-t -1 -2 -a -v -e -o -i`), as GNU does."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from ...result import CommandResult
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec
from ..getopt import NONE, gnu_getopt, result_of
from ._two_files import ASCII_FOLD, Order, read_two, records_of, two_operands


MAX_JOIN_OUTPUT = 64 * 1024 * 1024


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


COMMANDS = [JOIN]
