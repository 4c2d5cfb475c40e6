"""Shared plumbing for the line tools (head, tail, sort, uniq, wc, cut, tee).

They work on bytes, as GNU tools do in the C locale: lines split on "\\n" only, order is
unsigned byte order, case folding is ASCII-only. Their options are read by
`options.getopt`, GNU-style.

The second half is what their streaming handlers share (a pipeline runs its stages
concurrently): `with_stream` attaches one to a spec, `open_sources` resolves operands (files
are read whole, stdin stays a stream), `line_blocks` cuts stdin into blocks of whole lines.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable, Sequence

from ..result import CommandResult
from ..streams import CHUNK, BufferWriter, BytesReader, Reader
from ..textutil import looks_binary
from .helpers import binary_input_message, fail, no_input_error, read_bytes_input, shown_path
from .spec import CommandContext, CommandFailed, CommandIO, CommandSpec

STDIN = "-"
ASCII_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def binary_input_error(command: str, source: str, size: int) -> CommandFailed:
    """The same refusal read_text_input gives for binary data (`source` `-`: stdin)."""
    return fail(binary_input_message(command, None if source == STDIN else source, size))


async def read_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes,
                     text: bool = True) -> bytes:
    """A file's bytes (or stdin's when path is None or `-`); binary refused when `text`."""
    path = None if path == STDIN else path
    data = await read_bytes_input(ctx, command, path, stdin)
    if text and ctx.grammar != "bash" and looks_binary(data):  # GNU tools take any bytes
        raise binary_input_error(command, STDIN if path is None else ctx.vfs.normalize(path), len(data))
    return data


async def read_inputs(ctx: CommandContext, command: str, paths: Sequence[str], stdin: bytes,
                      text: bool = True) -> list[tuple[str, bytes]]:
    """(label, bytes) for each path, stdin when there is none; labels as `shown_path`."""
    if not paths:
        return [(STDIN, await read_input(ctx, command, None, stdin, text))]
    return [(STDIN if path == STDIN else shown_path(ctx, path), await read_input(ctx, command, path, stdin, text))
            for path in paths]


def split_lines(data: bytes) -> list[bytes]:
    """Lines without their "\\n"; a last line without one still counts."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


def join_lines(lines: Sequence[bytes]) -> bytes:
    """Every line terminated by "\\n", as GNU line tools print them."""
    return b"\n".join(lines) + b"\n" if lines else b""


def parse_count(command: str, flag: str, value: str, allow_zero: bool = True) -> int:
    """A non-negative decimal count; the error names the flag and the value."""
    text = value.strip()
    if text.isdigit() and text.isascii():
        number = int(text)
        if allow_zero or number > 0:
            return number
    raise fail(f"{command}: invalid integer for {flag}: {value}")


# ---------------------------------------------------------------- streaming

# Output is written in pieces of about this size: big enough that a pipe is not fed one
# line at a time, small enough that the next stage starts at once.
BATCH = CHUNK  # write in the pipes' chunk size: fewer event-loop turns (see streams.py)

StreamBody = Callable[[CommandContext, list[str], CommandIO], Awaitable[int]]


def with_stream(spec: CommandSpec, body: StreamBody) -> CommandSpec:
    """`spec` with `body` as its streaming handler, behind the checks invoke_command makes
    for the normal handler (arity), and with CommandFailed written out as the normal
    handler's result would be. Stdin is not refused: in a pipeline it is simply not read."""
    async def stream(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
        too_few = spec.min_args is not None and len(args) < spec.min_args
        too_many = spec.max_args is not None and len(args) > spec.max_args
        if too_few or too_many:
            await io.error(f"{spec.name}: {spec.arity_message or f'usage: {spec.usage}'}")
            return spec.usage_exit_code
        try:
            return await body(ctx, list(args), io)
        except CommandFailed as failure:
            return await write_result(io, failure.result)

    return dataclasses.replace(spec, stream=stream)


async def write_result(io: CommandIO, result: CommandResult) -> int:
    """A prepared result sent to the streams; its exit code returned."""
    if result.stdout:
        await io.stdout.write(result.stdout)
    if result.stderr:
        await io.error(result.stderr)
    return result.exit_code


@dataclass
class Source:
    """One input of a command: a file read whole (`data`), or stdin as it arrives (None)."""
    label: str  # STDIN, or the path as shown_path gives it
    data: bytes | None
    error: str | None = None  # open_each: why the file could not be read (already reported)


def stdin_source(command: str, io: CommandIO) -> Source:
    """Stdin, unless nothing was piped or redirected in: then today's "no input" error.
    An empty pipe is valid input (`printf '' | wc`)."""
    if not io.stdin_is_pipe:
        raise CommandFailed(no_input_error(command))
    return Source(STDIN, None)


async def open_sources(ctx: CommandContext, command: str, paths: Sequence[str], io: CommandIO,
                       text: bool = True) -> list[Source]:
    """The inputs named by `paths` (stdin when none), files read and checked up front as
    read_inputs does, so a bad operand fails before any output."""
    if not paths:
        return [stdin_source(command, io)]
    sources = []
    for path in paths:
        if path == STDIN:
            sources.append(stdin_source(command, io))
        else:
            data = await read_input(ctx, command, path, b"", text)
            sources.append(Source(shown_path(ctx, path), data))
    return sources


async def line_blocks(reader: Reader) -> AsyncIterator[bytes]:
    """Stdin in blocks of whole lines as it arrives (only the last may lack its newline)."""
    rest = bytearray()
    while chunk := await reader.read():
        end = chunk.rfind(b"\n")
        if end < 0:
            rest += chunk
            continue
        if rest:
            rest += chunk[:end + 1]
            block, rest = bytes(rest), bytearray(chunk[end + 1:])
        else:
            block, rest = chunk[:end + 1], bytearray(chunk[end + 1:])
        yield block
    if rest:
        yield bytes(rest)


async def source_blocks(source: Source, io: CommandIO, command: str, text: bool = True) -> AsyncIterator[bytes]:
    """A source's bytes in blocks of whole lines; with `text`, a block that looks binary is
    refused as read_input refuses a binary input (for stdin, judged block by block)."""
    if source.data is not None:
        if source.data:
            yield source.data
        return
    async for block in line_blocks(io.stdin):
        if text and looks_binary(block):
            raise binary_input_error(command, STDIN, len(block))
        yield block


def give_back(reader: Reader, data: bytes) -> None:
    """Unread what a command read past its need. A pipe's surplus is lost as in bash (the
    tool read a whole buffer); a file's is kept, as GNU head seeks back on a file."""
    if reader.seekable:
        reader.unread(data)


async def open_each(ctx: CommandContext, command: str, paths: Sequence[str], io: CommandIO,
                    text: bool = True) -> tuple[list[Source], int]:
    """The bash language's way: as open_sources, but a file that cannot be read is reported
    on stderr and kept as a Source with `error` set, so the others are still processed (GNU
    goes on and exits 1); the status is 1 when one failed. The strict grammar stops at the
    first bad operand, as open_sources does."""
    if ctx.grammar != "bash":
        return await open_sources(ctx, command, paths, io, text), 0
    if not paths:
        return [stdin_source(command, io)], 0
    sources: list[Source] = []
    status = 0
    for path in paths:
        if path == STDIN:
            sources.append(stdin_source(command, io))
            continue
        try:
            sources.append(Source(shown_path(ctx, path), await read_input(ctx, command, path, b"", text)))
        except CommandFailed as failure:
            status = 1
            if failure.result.stderr:
                await io.error(failure.result.stderr.rstrip("\n"))
            sources.append(Source(shown_path(ctx, path), None, failure.result.stderr))
    return sources, status


async def run_as_handler(body: StreamBody, ctx: CommandContext, args: list[str], stdin: bytes,
                         content_type: str | None = None) -> CommandResult:
    """A streaming body run over a whole stdin: the normal handler of a command whose
    streaming handler is the reference (its output then equals the stream's by design)."""
    from .helpers import content_type_for
    out, err = BufferWriter(), BufferWriter()
    io = CommandIO(BytesReader(stdin), out, err, stdin_is_pipe=bool(stdin) or ctx.stdin_is_pipe)
    try:
        status = await body(ctx, list(args), io)
    except CommandFailed as failure:
        status = await write_result(io, failure.result)
    data = bytes(out.data)
    return CommandResult(stdout=data, stderr=err.data.decode("utf-8", "replace").rstrip("\n"), exit_code=status,
                         content_type=content_type or content_type_for(data))


def split_records(data: bytes, eol: bytes = b"\n") -> list[bytes]:
    """split_lines for any terminator (-z: NUL)."""
    records = data.split(eol)
    if records[-1] == b"":
        records.pop()
    return records


def join_records(records: Sequence[bytes], eol: bytes = b"\n") -> bytes:
    """join_lines for any terminator."""
    return eol.join(records) + eol if records else b""


async def record_blocks(source: Source, io: CommandIO, command: str, eol: bytes = b"\n",
                        text: bool = True) -> AsyncIterator[list[bytes]]:
    """A source's records (without terminators) in blocks as they arrive. With `text`
    (the strict grammar), lines of binary data are refused as source_blocks refuses them;
    NUL-ended records (-z) never are."""
    if eol == b"\n":
        async for block in source_blocks(source, io, command, text):
            yield split_lines(block)
        return
    if source.data is not None:
        if source.data:
            yield split_records(source.data, eol)
        return
    rest = b""
    while chunk := await io.stdin.read():
        data = rest + chunk
        end = data.rfind(eol) + 1
        rest = data[end:]
        if end:
            yield data[:end - 1].split(eol)
    if rest:
        yield [rest]
