"""paste: merge lines of files side by side (or, with -s, each file onto one line), as GNU
coreutils paste in the C locale.

-d LIST gives the delimiters, used in turn (escapes \\n \\t \\\\ and \\0 for none); a file
that runs out gives empty columns; `-` is stdin, and naming it several times deals its
lines out in turn (`paste - -` makes two columns).
"""
from __future__ import annotations

from ...result import CommandResult
from ..spec import CommandContext, CommandSpec
from ..getopt import NONE, REQUIRED, gnu_getopt, read_operands, result_of
from ..options import usage_failure

USAGE = "paste [-s] [-d LIST] [-z] [FILE...]"
_LONG = {"serial": ("s", NONE), "delimiters": ("d", REQUIRED), "zero-terminated": ("z", NONE)}
_ESCAPES = {"n": b"\n", "t": b"\t", "\\": b"\\", "0": b"", "b": b"\b", "f": b"\f", "r": b"\r", "v": b"\v"}


def parse_delimiters(text: str) -> list[bytes]:
    """The delimiter list: each entry one character (or none, for \\0)."""
    data = text.encode("utf-8")
    delimiters: list[bytes] = []
    index = 0
    while index < len(data):
        byte = data[index:index + 1]
        if byte == b"\\":
            if index + 1 >= len(data):
                raise usage_failure("paste", f"delimiter list ends with an unescaped backslash: {text}", USAGE)
            following = data[index + 1:index + 2].decode("latin-1")
            delimiters.append(_ESCAPES.get(following, data[index + 1:index + 2]))
            index += 2
            continue
        delimiters.append(byte)
        index += 1
    return delimiters


def split_records(data: bytes, end: bytes) -> list[bytes]:
    records = data.split(end)
    if records[-1] == b"":
        records.pop()
    return records


def serial(files: list[list[bytes]], delimiters: list[bytes], end: bytes) -> bytes:
    """-s: each file's lines joined on one line, delimiters in turn from the first."""
    out = bytearray()
    for records in files:
        for index, record in enumerate(records):
            if index:
                out += delimiters[(index - 1) % len(delimiters)] if delimiters else b""
            out += record
        out += end
    return bytes(out)


def parallel(files: list[list[bytes]], delimiters: list[bytes], end: bytes) -> bytes:
    """Line i of every file side by side, until the longest runs out."""
    out = bytearray()
    rows = max((len(records) for records in files), default=0)
    for row in range(rows):
        for column, records in enumerate(files):
            if column:
                out += delimiters[(column - 1) % len(delimiters)] if delimiters else b""
            if row < len(records):
                out += records[row]
        out += end
    return bytes(out)


async def cmd_paste(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = gnu_getopt("paste", USAGE, args, "sd:z", _LONG)
    is_serial, delimiters, end = False, [b"\t"], b"\n"
    for key, value in options:
        if key == "s":
            is_serial = True
        elif key == "d":
            delimiters = parse_delimiters(value or "")
        else:
            end = b"\0"
    paths = paths or ["-"]
    inputs, errors = await read_operands(ctx, "paste", paths, stdin)
    if errors:
        return result_of(b"", errors)
    by_path: dict[str, bytes] = {}
    for path, data in inputs:
        by_path.setdefault(path, data)  # stdin is read by the first `-`
    stdin_records = split_records(by_path.get("-", b""), end)
    dashes = paths.count("-")
    files: list[list[bytes]] = []
    dash_index = 0
    for path in paths:
        if path != "-":
            files.append(split_records(by_path[path], end))
        elif is_serial:
            files.append(stdin_records if dash_index == 0 else [])
            dash_index += 1
        else:  # several `-`: stdin's lines dealt out in turn
            files.append(stdin_records[dash_index::dashes])
            dash_index += 1
    body = serial(files, delimiters, end) if is_serial else parallel(files, delimiters, end)
    return result_of(body, [])


PASTE = CommandSpec(
    name="paste",
    summary="Merge lines of files side by side, as GNU paste.",
    usage=USAGE,
    details=("Prints line 1 of every FILE joined by TABs, then line 2, and so on (a shorter file gives "
             "empty columns). -d LIST: delimiters used in turn (\\n, \\t, \\\\, \\0 for none); -s: each "
             "file's lines on one line instead; `-` is stdin (`paste - -` makes two columns of it).\n"
             "Examples:\n  paste /names.txt /ages.txt\n  paste -d , a.txt b.txt\n  seq 6 | paste - - -\n"
             "  paste -s -d + numbers.txt"),
    group="text", handler=cmd_paste,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
)

COMMANDS = [PASTE]
