"""read and mapfile/readarray: standard input into variables.

`read` takes one line and leaves the rest of the input for the next reader
(`while read line; do ...; done < file` and `{ read header; cat; }` work as in bash)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...commands.spec import CommandIO
from ...streams import StreamLimit

if TYPE_CHECKING:
    from ..interpreter import Interpreter

MAX_LINE = 16 << 20


async def builtin_read(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    raw, array, delimiter, count = False, None, "\n", None
    names: list[str] = []
    position = 0
    while position < len(args):
        arg = args[position]
        if arg == "--":
            names.extend(args[position + 1:])
            break
        if not arg.startswith("-") or arg == "-" or names:
            names.append(arg)
            position += 1
            continue
        letters = arg[1:]
        for index, letter in enumerate(letters):
            if letter == "r":
                raw = True
            elif letter == "s":
                continue
            elif letter in "apdntNu":
                value = letters[index + 1:] or (args[position + 1] if position + 1 < len(args) else None)
                if value is None:
                    await io.error(f"bash: line {shell.line}: read: -{letter}: option requires an argument")
                    return 2
                if not letters[index + 1:]:
                    position += 1
                if letter == "a":
                    array = value
                elif letter == "d":
                    delimiter = value[:1] or "\0"
                elif letter in "nN":
                    count = int(value) if value.isdigit() else None
                elif letter == "p":
                    pass  # the prompt goes to a terminal; there is none
                break
            else:
                await io.error(f"bash: line {shell.line}: read: -{letter}: invalid option")
                return 2
        position += 1
    try:
        line, complete = await _read_record(io, delimiter, count, raw)
    except StreamLimit as error:
        await io.error(f"bash: line {shell.line}: read: {error}")
        return 1
    if not complete and not line:
        _assign(shell, names, array, [] if array else [""] * max(1, len(names)), "")
        return 1
    ifs = shell.state.get("IFS")
    ifs = " \t\n" if ifs is None else ifs
    if array is not None:
        _assign(shell, [], array, _split_all(line, ifs), line)
    else:
        _assign(shell, names or ["REPLY"], None, _split_into(line, ifs, len(names or ["REPLY"]),
                                                            names == []), line)
    return 0 if complete else 1


async def _read_record(io: CommandIO, delimiter: str, count: int | None, raw: bool) -> tuple[str, bool]:
    """One record; without -r a backslash escapes the next character and `\\<newline>`
    continues the line. The bool is False when input ended before the delimiter."""
    stop = delimiter.encode("utf-8", "surrogateescape")[:1] or b"\0"
    if count is not None:
        data = bytearray()
        while len(data) < count:
            chunk = await io.stdin.read()
            if not chunk:
                break
            take = chunk[:count - len(data)]
            end = take.find(stop)
            if end >= 0:
                io.stdin.unread(chunk[end + 1:])
                data += take[:end]
                return data.decode("utf-8", "surrogateescape"), True
            io.stdin.unread(chunk[len(take):])
            data += take
        return data.decode("utf-8", "surrogateescape"), len(data) == count
    parts: list[str] = []
    while True:
        data, complete = await io.stdin.read_until(stop, MAX_LINE)
        text = data.decode("utf-8", "surrogateescape")
        if raw:
            return text, complete
        if complete and _ends_in_escape(text) and stop == b"\n":
            parts.append(_unescape(text[:-1]))
            continue
        parts.append(_unescape(text))
        return "".join(parts), complete


def _ends_in_escape(text: str) -> bool:
    trailing = len(text) - len(text.rstrip("\\"))
    return trailing % 2 == 1


def _unescape(text: str) -> str:
    out = []
    escaped = False
    for ch in text:
        if escaped:
            out.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        else:
            out.append(ch)
    return "".join(out)


def _split_all(line: str, ifs: str) -> list[str]:
    """`read -a`: every field."""
    fields = _split_into(line, ifs, len(line) + 1, False)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _split_into(line: str, ifs: str, count: int, reply: bool) -> list[str]:
    """Fields for `count` names: the last takes the rest of the line (inner separators
    kept, trailing IFS whitespace removed). REPLY alone keeps the line as it is."""
    if reply:
        return [line]
    whitespace = "".join(ch for ch in " \t\n" if ch in ifs)
    text = line.lstrip(whitespace)
    fields: list[str] = []
    while len(fields) < count - 1 and text:
        end = next((i for i, ch in enumerate(text) if ch in ifs), len(text))
        fields.append(text[:end])
        text = _skip_delimiter(text, end, ifs, whitespace)
    if len(fields) < count:
        fields.append(text.rstrip(whitespace) if whitespace else text)
    return fields + [""] * (count - len(fields))


def _skip_delimiter(text: str, start: int, ifs: str, whitespace: str) -> str:
    """The text after one delimiter: IFS whitespace around at most one other IFS character."""
    position = start
    while position < len(text) and text[position] in whitespace:
        position += 1
    if position < len(text) and text[position] in ifs and text[position] not in whitespace:
        position += 1
        while position < len(text) and text[position] in whitespace:
            position += 1
    return text[position:]


def _assign(shell: "Interpreter", names: list[str], array: str | None, values: list[str], line: str) -> None:
    if array is not None:
        shell.state.set_array(array, values)
        return
    for name, value in zip(names, values):
        shell.state.set(name, value)


async def builtin_mapfile(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """`mapfile [-t] [-d DELIM] [-n COUNT] [-s SKIP] [NAME]`: records of stdin into an array
    (lines, or records ending in DELIM; `-d ''` is NUL)."""
    strip, delimiter, count, skip = False, "\n", 0, 0
    names: list[str] = []
    position = 0
    while position < len(args):
        arg = args[position]
        if arg in ("-d", "-n", "-s", "-u", "-O", "-c", "-C") and position + 1 < len(args):
            value = args[position + 1]
            position += 2
            if arg == "-d":
                delimiter = value[:1] or "\0"
            elif arg in ("-n", "-s"):
                if not value.isdigit():
                    await io.error(f"bash: line {shell.line}: mapfile: {value}: invalid line count")
                    return 1
                count, skip = (int(value), skip) if arg == "-n" else (count, int(value))
            continue
        if arg == "-t":
            strip = True
        elif arg.startswith("-") and arg != "-":
            await io.error(f"bash: line {shell.line}: mapfile: {arg}: invalid option")
            return 2
        else:
            names.append(arg)
        position += 1
    data = (await io.stdin.read_all(shell.limits.max_expansion_bytes)).decode("utf-8", "surrogateescape")
    records = [record + delimiter for record in data.split(delimiter)]
    records[-1] = records[-1][:-1]  # the text after the last delimiter has none
    if not records[-1]:
        records.pop()
    records = records[skip:]
    if count:
        records = records[:count]
    if strip:
        records = [record[:-1] if record.endswith(delimiter) else record for record in records]
    shell.state.set_array(names[-1] if names else "MAPFILE", records)
    return 0


BUILTINS = {"read": builtin_read, "mapfile": builtin_mapfile, "readarray": builtin_mapfile}
