"""The text group: echo, wc, head, tail, uniq, tee (sort, cut and tr have modules of their own).

Semantics follow GNU coreutils in the C locale (bytes in, bytes out), with the usage
strings and messages the upstream runtime records.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..result import OCTET, TEXT, CommandResult, ok_bytes
from ..textutil import looks_binary
from ..vfs.errors import VFSError
from .helpers import content_type_for, fail, format_vfs_error, usage_error
from ..streams import Reader
from .lines import (ASCII_UPPER, BATCH, STDIN, binary_input_error, give_back, join_lines, line_blocks, open_sources,
                    parse_count, read_inputs, source_blocks, split_lines, with_stream, write_result)
from .options import OptionSpec, getopt
from .spec import CommandContext, CommandFailed, CommandIO, CommandSpec

# ---------------------------------------------------------------- echo

_ECHO_ESCAPE = re.compile(r"\\(0[0-7]{0,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                   "f": "\f", "r": "\r", "v": "\v"}


def _escape_bytes(code: str) -> bytes:
    """One `echo -e` escape (without its backslash) as the bytes bash's echo prints."""
    if code[0] == "0":
        return bytes([int(code[1:] or "0", 8) & 0xFF])
    if code[0] == "x" and len(code) > 1:
        return bytes([int(code[1:], 16)])
    if code[0] in "uU" and len(code) > 1:
        return chr(min(int(code[1:], 16), 0x10FFFF)).encode("utf-8", errors="surrogatepass")
    return _SIMPLE_ESCAPES.get(code, "\\" + code).encode("utf-8")


def _interpret_escapes(text: str) -> tuple[bytes, bool]:
    """Expand `echo -e` escapes; the bool says whether `\\c` asked to stop output."""
    out = bytearray()
    pos = 0
    for match in _ECHO_ESCAPE.finditer(text):
        out += text[pos:match.start()].encode("utf-8")
        if match.group(1) == "c":
            return bytes(out), True
        out += _escape_bytes(match.group(1))
        pos = match.end()
    out += text[pos:].encode("utf-8")
    return bytes(out), False


def cmd_echo(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args.pop(0)[1:]:
            newline = newline and flag != "n"
            escapes = {"e": True, "E": False}.get(flag, escapes)
    data = " ".join(args).encode("utf-8")
    if escapes:
        data, stop = _interpret_escapes(" ".join(args))
        newline = newline and not stop
    return ok_bytes(data + (b"\n" if newline else b""), TEXT)


# ---------------------------------------------------------------- wc

WC_USAGE = "wc [-l] [-w] [-c] [path]"
_WC_OPTIONS = OptionSpec("wc", WC_USAGE, flags="lwcm",
                         long={"lines": "l", "words": "w", "bytes": "c", "chars": "m"})
_CONTROLS = bytes(range(0x20)) + b"\x7f"


def _wc_count(kind: str, data: bytes) -> int:
    if kind == "l":
        return data.count(b"\n")
    if kind == "w":
        return _word_count(data)
    # -m counts characters, which under LC_ALL=C (this runtime's locale) are bytes, as GNU wc.
    return len(data)


def _word_count(data: bytes) -> int:
    """Runs between ASCII whitespace; as in GNU wc, control bytes alone make no word."""
    words = data.split()
    if len(data.translate(None, _CONTROLS)) == len(data):
        return len(words)
    return sum(1 for word in words if word.translate(None, _CONTROLS))


def _wc_options(args: list[str]) -> tuple[list[str], list[str]]:
    """(the counts asked for, in GNU's column order; the operands)."""
    options, paths = getopt(_WC_OPTIONS, args)
    chosen = {name for name, _ in options}
    return [k for k in "lwmc" if k in chosen] or ["l", "w", "c"], paths


async def cmd_wc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    kinds, paths = _wc_options(args)
    # wc counts bytes of anything, binary included (`wc -c image.png` is a size query).
    inputs = await read_inputs(ctx, "wc", paths, stdin, text=False)
    rows = [([_wc_count(k, data) for k in kinds], label) for label, data in inputs]
    return ok_bytes(_wc_report(rows, inputs, kinds, bool(paths)), TEXT)


def _wc_report(rows: list[tuple[list[int], str]], inputs: list[tuple[str, bytes]], kinds: list[str],
               named: bool) -> bytes:
    """The count lines (a total line after several inputs); `named`: labels are printed."""
    if len(rows) > 1:
        rows = rows + [([sum(row[0][i] for row in rows) for i in range(len(kinds))], "total")]
    width = _wc_width(inputs, len(kinds))
    lines = []
    for counts, label in rows:
        line = " ".join(str(c).rjust(width) for c in counts)
        lines.append(f"{line} {label}" if named else line)
    return ("\n".join(lines) + "\n").encode("utf-8")


def _wc_width(inputs: list[tuple[str, bytes]], kinds: int) -> int:
    """GNU: one count of one input is unpadded; otherwise the digits of the files' total
    size, at least 7 when stdin (a pipe) is among the inputs."""
    if len(inputs) == 1 and kinds == 1:
        return 1
    minimum = 7 if any(label == STDIN for label, _ in inputs) else 1
    total = sum(len(data) for label, data in inputs if label != STDIN)
    return max(len(str(total)), minimum)


# ---------------------------------------------------------------- head, tail

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


def _parse_slice(command: str, args: list[str]) -> tuple[Slice, list[str]]:
    usage = HEAD_USAGE if command == "head" else TAIL_USAGE
    spec = OptionSpec(command, usage, flags="qv", values="nc",
                      long={"lines": "n", "bytes": "c", "quiet": "q", "silent": "q", "verbose": "v"})
    options, paths = getopt(spec, _obsolete_counts(command, args))
    spec_slice = Slice()
    for name, value in options:
        if name in "qv":
            spec_slice.headers = name == "v"
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


def first_lines(data: bytes, count: int) -> bytes:
    pos = 0
    for _ in range(count):
        newline = data.find(b"\n", pos)
        if newline < 0:
            return data
        pos = newline + 1
    return data[:pos]


def last_lines(data: bytes, count: int) -> bytes:
    if count <= 0:
        return b""
    pos = len(data) - 1 if data.endswith(b"\n") else len(data)
    for _ in range(count):
        newline = data.rfind(b"\n", 0, pos)
        if newline < 0:
            return data
        pos = newline
    return data[pos + 1:]


def head_slice(data: bytes, spec: Slice) -> bytes:
    if spec.unit == "c":
        return data[:max(len(data) - spec.count, 0)] if spec.sign == "-" else data[:spec.count]
    if spec.sign == "-":
        return data[:len(data) - len(last_lines(data, spec.count))]
    return first_lines(data, spec.count)


def tail_slice(data: bytes, spec: Slice) -> bytes:
    if spec.unit == "c":
        if spec.sign == "+":
            return data[max(spec.count - 1, 0):]
        return data[max(len(data) - spec.count, 0):] if spec.count else b""
    if spec.sign == "+":
        return data[len(first_lines(data, max(spec.count - 1, 0))):]
    return last_lines(data, spec.count)


async def _slice_command(command: str, ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    spec, paths = _parse_slice(command, args)
    cut = head_slice if command == "head" else tail_slice
    # Lines of binary data are refused, but only the selected part is sniffed: `head -n 1`
    # of a big input costs one line, not a scan of all of it.
    inputs = await read_inputs(ctx, command, paths, stdin, text=False)
    headers = spec.headers if spec.headers is not None else len(inputs) > 1
    out = bytearray()
    for index, (label, data) in enumerate(inputs):
        piece = cut(data, spec)
        if spec.unit == "n" and looks_binary(piece):
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


async def cmd_head(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _slice_command("head", ctx, args, stdin)


async def cmd_tail(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _slice_command("tail", ctx, args, stdin)


# ---------------------------------------------------------------- uniq

UNIQ_USAGE = "uniq [-c] [-d] [-i] [-u] [path]"
_UNIQ_OPTIONS = OptionSpec("uniq", UNIQ_USAGE, flags="cdDiu", values="fsw",
                           long={"count": "c", "repeated": "d", "all-repeated": "D", "ignore-case": "i",
                                 "unique": "u", "skip-fields": "f", "skip-chars": "s", "check-chars": "w"})
_FIELD = re.compile(rb"[ \t]*[^ \t]*")


@dataclass
class UniqOptions:
    count: bool = False
    repeated: bool = False
    all_repeated: bool = False
    unique: bool = False
    fold: bool = False
    skip_fields: int = 0
    skip_chars: int = 0
    check_chars: int | None = None

    def key(self, line: bytes) -> bytes:
        """The part of a line GNU uniq compares (-f, -s, -w, -i)."""
        pos = 0
        for _ in range(self.skip_fields):
            pos = _FIELD.match(line, pos).end()
        key = line[pos + self.skip_chars:]
        if self.check_chars is not None:
            key = key[:self.check_chars]
        return key.translate(ASCII_UPPER) if self.fold else key


def _uniq_options(args: list[str]) -> tuple[UniqOptions, list[str]]:
    parsed, operands = getopt(_UNIQ_OPTIONS, args)
    options = UniqOptions()
    flags = {"c": "count", "d": "repeated", "D": "all_repeated", "u": "unique", "i": "fold"}
    numbers = {"f": "skip_fields", "s": "skip_chars", "w": "check_chars"}
    for name, value in parsed:
        if name in flags:
            setattr(options, flags[name], True)
        else:
            setattr(options, numbers[name], parse_count("uniq", f"-{name}", value or ""))
    if len(operands) > 1:
        raise CommandFailed(usage_error("uniq", UNIQ_USAGE))
    if options.count and options.all_repeated:
        raise fail("uniq: printing all duplicated lines and repeat counts is meaningless. "
                   f"Usage: {UNIQ_USAGE}")
    return options, operands


class UniqGroups:
    """Runs of adjacent lines with equal keys, fed in blocks of lines: a run is printed
    once a different line (or the end) closes it, so a run may span blocks."""

    def __init__(self, options: UniqOptions) -> None:
        self.options = options
        self.key = b""
        self.lines: list[bytes] = []  # the open run: its first line, or all of it for -D
        self.size = 0

    def feed(self, lines: list[bytes]) -> list[bytes]:
        """The output lines of the runs these lines close."""
        out: list[bytes] = []
        for line in lines:
            key = self.options.key(line)
            if self.size and key == self.key:
                self.size += 1
                if self.options.all_repeated:
                    self.lines.append(line)
                continue
            self._close(out)
            self.key, self.lines, self.size = key, [line], 1
        return out

    def finish(self) -> list[bytes]:
        out: list[bytes] = []
        self._close(out)
        return out

    def _close(self, out: list[bytes]) -> None:
        options, size = self.options, self.size
        self.size = 0
        if not size:
            return
        repeated = size > 1
        if (options.repeated or options.all_repeated) and not repeated or options.unique and repeated:
            return
        if options.all_repeated:
            out.extend(self.lines)
        elif options.count:
            out.append(b"%7d %s" % (size, self.lines[0]))
        else:
            out.append(self.lines[0])


async def cmd_uniq(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = _uniq_options(args)
    [(_, data)] = await read_inputs(ctx, "uniq", paths, stdin)
    groups = UniqGroups(options)
    return ok_bytes(join_lines(groups.feed(split_lines(data)) + groups.finish()), TEXT)


# ---------------------------------------------------------------- tee

TEE_USAGE = "tee [-a] [path ...]"
_TEE_OPTIONS = OptionSpec("tee", TEE_USAGE, flags="aip", long={"append": "a", "ignore-interrupts": "i"})


async def cmd_tee(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = getopt(_TEE_OPTIONS, args)
    append = any(name == "a" for name, _ in options)
    for path in paths:
        try:
            if append:
                await ctx.vfs.append_bytes(path, stdin)
            else:
                await ctx.vfs.write_bytes(path, stdin)
        except VFSError as error:
            raise CommandFailed(await format_vfs_error(ctx, "tee", path, error)) from None
    return ok_bytes(stdin, content_type_for(stdin))


# ---------------------------------------------------------------- streaming handlers
# The same commands reading stdin as it arrives and writing as they go (lines.with_stream);
# files named as operands are read whole, as the normal handlers read them.

async def stream_echo(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    await io.stdout.write(cmd_echo(ctx, args, b"").stdout)
    return 0


_WHITESPACE = (b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c")  # what bytes.split() splits on


async def stream_wc(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    kinds, paths = _wc_options(args)
    sources = await open_sources(ctx, "wc", paths, io, text=False)
    rows = []
    for source in sources:
        if source.data is None:
            rows.append((await _wc_stream(io.stdin, kinds), source.label))
        else:
            rows.append(([_wc_count(k, source.data) for k in kinds], source.label))
    inputs = [(source.label, source.data or b"") for source in sources]
    await io.stdout.write(_wc_report(rows, inputs, kinds, bool(paths)))
    return 0


async def _wc_stream(reader: Reader, kinds: list[str]) -> list[int]:
    totals = dict.fromkeys(kinds, 0)
    partial = b""  # a word that may go on in the next chunk
    while chunk := await reader.read():
        for kind in kinds:
            if kind != "w":
                totals[kind] += _wc_count(kind, chunk)
        if "w" in totals:
            data = partial + chunk
            cut = max(data.rfind(space) for space in _WHITESPACE) + 1
            totals["w"] += _word_count(data[:cut])
            partial = data[cut:]
    if "w" in totals:
        totals["w"] += _word_count(partial)
    return [totals[kind] for kind in kinds]


async def stream_head(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    return await _stream_slice("head", ctx, args, io)


async def stream_tail(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    return await _stream_slice("tail", ctx, args, io)


async def _stream_slice(command: str, ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    spec, paths = _parse_slice(command, args)
    sources = await open_sources(ctx, command, paths, io, text=False)
    headers = spec.headers if spec.headers is not None else len(sources) > 1
    cut = head_slice if command == "head" else tail_slice
    for index, source in enumerate(sources):
        if headers:
            await io.stdout.write(_slice_header(index, source.label))
        if source.data is None:
            await (_head_stream if command == "head" else _tail_stream)(_Emitter(command, spec, io))
            continue
        piece = cut(source.data, spec)
        if spec.unit == "n" and looks_binary(piece):
            raise binary_input_error(command, source.label, len(source.data))
        await io.stdout.write(piece)
    return 0


class _Emitter:
    """Where head and tail send what they select from stdin: lines that look binary are
    refused as the normal handler refuses them (judged piece by piece here)."""

    def __init__(self, command: str, spec: Slice, io: CommandIO) -> None:
        self.command, self.spec, self.io = command, spec, io
        self.stdin = io.stdin

    async def emit(self, piece: bytes) -> None:
        if not piece:
            return
        if self.spec.unit == "n" and looks_binary(piece):
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
        newlines = data.count(b"\n")
        if newlines >= remaining:
            end = len(first_lines(data, remaining))
            await out.emit(data[:end])
            give_back(out.stdin, data[end:])
            return
        end = data.rfind(b"\n") + 1
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
        complete += chunk.count(b"\n")
        if complete > 2 * keep:  # emit in runs of at least N lines: finding the cut costs N steps
            end = len(first_lines(bytes(pending), complete - keep))
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
            end = len(first_lines(block, skip))
            skip -= min(skip, block.count(b"\n"))
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
        newlines += chunk.count(b"\n")
        if newlines > 2 * keep + 1:
            kept = last_lines(bytes(buffer), keep)
            buffer, newlines = bytearray(kept), kept.count(b"\n")
    await out.emit(last_lines(bytes(buffer), keep))


async def _tail_bytes(out: _Emitter) -> None:
    keep = out.spec.count
    buffer = bytearray()
    while chunk := await out.stdin.read():
        buffer += chunk
        if len(buffer) > 2 * keep + BATCH:
            del buffer[:len(buffer) - keep]
    await out.emit(bytes(buffer[-keep:]))


async def stream_uniq(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    options, paths = _uniq_options(args)
    [source] = await open_sources(ctx, "uniq", paths, io)
    groups = UniqGroups(options)
    async for block in source_blocks(source, io, "uniq"):
        out = groups.feed(split_lines(block))
        if out:
            await io.stdout.write(join_lines(out))
    await io.stdout.write(join_lines(groups.finish()))
    return 0


async def stream_tee(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    options, paths = getopt(_TEE_OPTIONS, args)
    append = any(name == "a" for name, _ in options)
    status = 0
    targets = []
    for path in paths:  # created or emptied up front, as GNU tee opens its files
        try:
            await (ctx.vfs.append_bytes if append else ctx.vfs.write_bytes)(path, b"")
            targets.append(path)
        except VFSError as error:
            status = await write_result(io, await format_vfs_error(ctx, "tee", path, error))
    copied = bytearray()
    try:
        while chunk := await io.stdin.read():
            if targets:
                copied += chunk
            await io.stdout.write(chunk)
    finally:  # a closed stdout ends tee (as SIGPIPE does), but the files keep what it read
        for path in targets:
            try:
                await (ctx.vfs.append_bytes if append else ctx.vfs.write_bytes)(path, bytes(copied))
            except VFSError as error:
                status = await write_result(io, await format_vfs_error(ctx, "tee", path, error))
    return status


# ---------------------------------------------------------------- specs

ECHO = with_stream(CommandSpec(
    name="echo",
    summary="Write arguments back as plain text output. Supports -n, -e, and -E.",
    usage="echo [-n] [-e|-E] [text ...]",
    details=('Examples:\n  echo hello world\n  echo -n "ready for review"\n'
             '  echo -e "line 1\\nline 2"\n  echo status:ok | write /notes/status.txt'),
    group="text", handler=cmd_echo,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_echo)

WC = with_stream(CommandSpec(
    name="wc",
    summary="Count lines, words, and bytes from stdin or a file.",
    usage=WC_USAGE,
    details="Examples:\n  wc /logs/app.log\n  wc -l /logs/app.log\n  fetch text:runbook | wc -w",
    group="text", handler=cmd_wc,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_wc)

HEAD = with_stream(CommandSpec(
    name="head",
    summary="Show the first N lines or bytes from stdin or a file.",
    usage=HEAD_USAGE,
    details=('Examples:\n  head -n 20 /logs/app.log\n  head -c 16 /notes/todo.txt\n'
             '  search "refund API" | head -n 5'),
    group="text", handler=cmd_head,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_head)

TAIL = with_stream(CommandSpec(
    name="tail",
    summary="Show the last N lines or bytes from stdin or a file.",
    usage=TAIL_USAGE,
    details=("Examples:\n  tail -n 20 /logs/app.log\n  tail -c 16 /notes/todo.txt\n"
             "  cat /logs/app.log | tail -n 50"),
    group="text", handler=cmd_tail,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_tail)

UNIQ = with_stream(CommandSpec(
    name="uniq",
    summary="Collapse adjacent duplicate lines from stdin or a file.",
    usage=UNIQ_USAGE,
    details=("Examples:\n  sort /logs/errors.txt | uniq -c\n  sort /logs/errors.txt | uniq -d\n"
             "  cat /notes/todo.txt | uniq\n  uniq -i /tmp/names.txt"),
    group="text", handler=cmd_uniq,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_uniq)

TEE = with_stream(CommandSpec(
    name="tee",
    summary="Copy stdin to files and pass it through to stdout.",
    usage=TEE_USAGE,
    details=("Writes piped input to each path (replacing it, or appending with -a) and prints the input "
             "unchanged, so a pipeline can save an intermediate result and keep going.\n"
             "Examples:\n  grep ERROR /logs/app.log | tee /reports/errors.txt | wc -l\n"
             "  echo done | tee -a /notes/log.txt\n  sort /tmp/names.txt | tee /tmp/a.txt /tmp/b.txt"),
    group="text", handler=cmd_tee,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("/tmp/tee.txt",), kind="write",
), stream_tee)

COMMANDS = [ECHO, WC, HEAD, TAIL, UNIQ, TEE]
