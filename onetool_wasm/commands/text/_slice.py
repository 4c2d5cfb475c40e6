"""What head and tail share: their options, the slicing of whole inputs and of stdin as it
arrives, and the `==> name <==` headers. Not a command."""
from __future__ import annotations

import re
from dataclasses import dataclass
from ...result import OCTET, TEXT, CommandResult, ok_bytes
from ...textutil import looks_binary
from ..helpers import fail
from ..lines import BATCH, STDIN, binary_input_error, give_back, line_blocks, open_each, read_inputs, run_as_handler
from ..options import OptionSpec, getopt
from ..spec import CommandContext, CommandIO


HEAD_USAGE = "head [-n N|-c N|-N] [path]"


TAIL_USAGE = "tail [-n N|-c N|-N] [path]"


_SUFFIXES = {"": 1, "b": 512, "kB": 1000, "K": 1024, "KiB": 1024, "MB": 1000 ** 2, "M": 1024 ** 2,
             "MiB": 1024 ** 2, "GB": 1000 ** 3, "G": 1024 ** 3, "GiB": 1024 ** 3}


_COUNT = re.compile(r"([+-]?)([0-9]+)([a-zA-Z]*)")


@dataclass
class Slice:
    unit: str = "n"        # "n" lines or "c" bytes
    sign: str = ""         # "+" (from the start) or "-" (all but / last), "" default
    count: int = 10
    headers: bool | None = None  # None: only when several inputs
    eol: bytes = b"\n"    # -z: lines end with NUL
    text_only: bool = False  # the strict grammar refuses lines of binary data (upstream's rule)

    def refuses(self, piece: bytes) -> bool:
        """Lines of binary data are refused in the strict grammar; GNU takes any bytes."""
        return self.text_only and self.unit == "n" and self.eol == b"\n" and looks_binary(piece)


def _parse_slice(command: str, args: list[str], bash: bool = True) -> tuple[Slice, list[str]]:
    usage = HEAD_USAGE if command == "head" else TAIL_USAGE
    # -z (and tail's -f) belong to the bash language; the strict grammar keeps upstream's set.
    flags = ("qvzf" if command == "tail" else "qvz") if bash else "qv"
    spec = OptionSpec(command, usage, flags=flags, values="nc",
                      long={"lines": "n", "bytes": "c", "quiet": "q", "silent": "q", "verbose": "v",
                            **({"zero-terminated": "z"} if bash else {}),
                            **({"follow": "f"} if command == "tail" and bash else {})})
    options, paths = getopt(spec, _obsolete_counts(command, args))
    spec_slice = Slice(text_only=not bash)
    for name, value in options:
        if name in "qv":
            spec_slice.headers = name == "v"
            continue
        if name == "z":
            spec_slice.eol = b"\0"
            continue
        if name == "f":  # following a file that never grows ends where it ends: read once
            continue
        match = _COUNT.fullmatch(value or "")
        if not match or match.group(3) not in _SUFFIXES:
            raise fail(f"{command}: invalid integer for -{name}: {value}. Usage: {usage}")
        spec_slice.unit, spec_slice.sign = name, match.group(1)
        spec_slice.count = int(match.group(2)) * _SUFFIXES[match.group(3)]
    return spec_slice, paths


def _obsolete_counts(command: str, args: list[str]) -> list[str]:
    """`-5` means `-n 5`; for tail, a leading `+5` means `-n +5` (GNU's obsolete forms)."""
    out: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        is_value = index > 0 and args[index - 1] in ("-n", "-c", "--lines", "--bytes")
        if re.fullmatch(r"-[0-9]+", arg) and not is_value:
            out += ["-n", arg[1:]]
        elif command == "tail" and index == 0 and re.fullmatch(r"\+[0-9]+", arg):
            out += ["-n", arg]
        else:
            out.append(arg)
    return out


def first_lines(data: bytes, count: int, eol: bytes = b"\n") -> bytes:
    pos = 0
    for _ in range(count):
        newline = data.find(eol, pos)
        if newline < 0:
            return data
        pos = newline + 1
    return data[:pos]


def last_lines(data: bytes, count: int, eol: bytes = b"\n") -> bytes:
    if count <= 0:
        return b""
    pos = len(data) - 1 if data.endswith(eol) else len(data)
    for _ in range(count):
        newline = data.rfind(eol, 0, pos)
        if newline < 0:
            return data
        pos = newline
    return data[pos + 1:]


def head_slice(data: bytes, spec: Slice) -> bytes:
    if spec.unit == "c":
        return data[:max(len(data) - spec.count, 0)] if spec.sign == "-" else data[:spec.count]
    if spec.sign == "-":
        return data[:len(data) - len(last_lines(data, spec.count, spec.eol))]
    return first_lines(data, spec.count, spec.eol)


def tail_slice(data: bytes, spec: Slice) -> bytes:
    if spec.unit == "c":
        if spec.sign == "+":
            return data[max(spec.count - 1, 0):]
        return data[max(len(data) - spec.count, 0):] if spec.count else b""
    if spec.sign == "+":
        return data[len(first_lines(data, max(spec.count - 1, 0), spec.eol)):]
    return last_lines(data, spec.count, spec.eol)


async def slice_command(command: str, ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await run_as_handler(lambda c, a, io: stream_slice(command, c, a, io), ctx, args, stdin)
    spec, paths = _parse_slice(command, args, ctx.grammar == "bash")
    cut = head_slice if command == "head" else tail_slice
    # Lines of binary data are refused, but only the selected part is sniffed: `head -n 1`
    # of a big input costs one line, not a scan of all of it.
    inputs = await read_inputs(ctx, command, paths, stdin, text=False)
    headers = spec.headers if spec.headers is not None else len(inputs) > 1
    out = bytearray()
    for index, (label, data) in enumerate(inputs):
        piece = cut(data, spec)
        if spec.refuses(piece):
            raise binary_input_error(command, label, len(data))
        if headers:
            out += _slice_header(index, label)
        out += piece
    output = bytes(out)
    return ok_bytes(output, OCTET if spec.unit == "c" and looks_binary(output) else TEXT)


def _slice_header(index: int, label: str) -> bytes:
    """`==> name <==` before each input when there are several (a blank line between)."""
    name = "standard input" if label == STDIN else label
    return f"{chr(10) if index else ''}==> {name} <==\n".encode("utf-8")


async def stream_slice(command: str, ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    spec, paths = _parse_slice(command, args, ctx.grammar == "bash")
    sources, status = await open_each(ctx, command, paths, io, text=False)
    headers = spec.headers if spec.headers is not None else len(sources) > 1
    cut = head_slice if command == "head" else tail_slice
    index = 0
    for source in sources:
        if source.error is not None:
            continue
        if headers:
            await io.stdout.write(_slice_header(index, source.label))
        index += 1
        if source.data is None:
            await (_head_stream if command == "head" else _tail_stream)(_Emitter(command, spec, io))
            continue
        piece = cut(source.data, spec)
        if spec.refuses(piece):
            raise binary_input_error(command, source.label, len(source.data))
        await io.stdout.write(piece)
    return status


class _Emitter:
    """Where head and tail send what they select from stdin: lines that look binary are
    refused as the normal handler refuses them (judged piece by piece here)."""

    def __init__(self, command: str, spec: Slice, io: CommandIO) -> None:
        self.command, self.spec, self.io = command, spec, io
        self.stdin = io.stdin

    async def emit(self, piece: bytes) -> None:
        if not piece:
            return
        if self.spec.refuses(piece):
            raise binary_input_error(self.command, STDIN, len(piece))
        await self.io.stdout.write(piece)


async def _head_stream(out: _Emitter) -> None:
    spec = out.spec
    if spec.sign == "-":
        await (_head_all_but_lines if spec.unit == "n" else _head_all_but_bytes)(out)
    elif spec.count > 0:  # `head -n 0` reads nothing
        await (_head_lines if spec.unit == "n" else _head_bytes)(out)


async def _head_lines(out: _Emitter) -> None:
    """The first N lines; stops reading once it has them (the producer sees a closed pipe)."""
    remaining = out.spec.count
    pending = b""  # a line not finished yet
    while chunk := await out.stdin.read():
        data = pending + chunk if pending else chunk
        newlines = data.count(out.spec.eol)
        if newlines >= remaining:
            end = len(first_lines(data, remaining, out.spec.eol))
            await out.emit(data[:end])
            give_back(out.stdin, data[end:])
            return
        end = data.rfind(out.spec.eol) + 1
        await out.emit(data[:end])
        remaining -= newlines
        pending = data[end:]
    await out.emit(pending)


async def _head_bytes(out: _Emitter) -> None:
    remaining = out.spec.count
    while remaining > 0 and (chunk := await out.stdin.read()):
        piece = chunk[:remaining]
        remaining -= len(piece)
        await out.emit(piece)
        give_back(out.stdin, chunk[len(piece):])


async def _head_all_but_lines(out: _Emitter) -> None:
    """All but the last N lines: only those N (and a partial line) wait in memory."""
    keep = out.spec.count
    pending = bytearray()
    complete = 0  # newlines in pending
    while chunk := await out.stdin.read():
        pending += chunk
        complete += chunk.count(out.spec.eol)
        if complete > 2 * keep:  # emit in runs of at least N lines: finding the cut costs N steps
            end = len(first_lines(bytes(pending), complete - keep, out.spec.eol))
            await out.emit(bytes(pending[:end]))
            del pending[:end]
            complete = keep
    await out.emit(head_slice(bytes(pending), out.spec))


async def _head_all_but_bytes(out: _Emitter) -> None:
    keep = out.spec.count
    pending = bytearray()
    while chunk := await out.stdin.read():
        pending += chunk
        if len(pending) > keep:
            await out.emit(bytes(pending[:len(pending) - keep]))
            del pending[:len(pending) - keep]


async def _tail_stream(out: _Emitter) -> None:
    spec = out.spec
    if spec.sign == "+":
        await (_tail_from_line if spec.unit == "n" else _tail_from_byte)(out)
    elif spec.count > 0:  # GNU's `tail -n 0` returns without reading
        await (_tail_lines if spec.unit == "n" else _tail_bytes)(out)


async def _tail_from_line(out: _Emitter) -> None:
    skip = max(out.spec.count - 1, 0)
    async for block in line_blocks(out.stdin):
        if skip:
            end = len(first_lines(block, skip, out.spec.eol))
            skip -= min(skip, block.count(out.spec.eol))
            block = block[end:]
        await out.emit(block)


async def _tail_from_byte(out: _Emitter) -> None:
    skip = max(out.spec.count - 1, 0)
    while chunk := await out.stdin.read():
        dropped = min(skip, len(chunk))
        skip -= dropped
        await out.emit(chunk[dropped:])


async def _tail_lines(out: _Emitter) -> None:
    """The last N lines: memory holds about 2N lines, trimmed as input arrives."""
    keep = out.spec.count
    buffer = bytearray()
    newlines = 0
    while chunk := await out.stdin.read():
        buffer += chunk
        newlines += chunk.count(out.spec.eol)
        if newlines > 2 * keep + 1:
            kept = last_lines(bytes(buffer), keep, out.spec.eol)
            buffer, newlines = bytearray(kept), kept.count(out.spec.eol)
    await out.emit(last_lines(bytes(buffer), keep, out.spec.eol))


async def _tail_bytes(out: _Emitter) -> None:
    keep = out.spec.count
    buffer = bytearray()
    while chunk := await out.stdin.read():
        buffer += chunk
        if len(buffer) > 2 * keep + BATCH:
            del buffer[:len(buffer) - keep]
    await out.emit(bytes(buffer[-keep:]))
