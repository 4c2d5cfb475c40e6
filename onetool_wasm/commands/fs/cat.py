"""cat: concatenate files and stdin (`-`).

In the bash language it is GNU cat: bytes pass through untouched (binary included: the run's
presentation holds binary output back from the model, a pipeline still gets the bytes), a
file that cannot be read is reported and the others are still printed (status 1), piped
stdin is read only without operands or where `-` stands, and `-n -b -s -E -T -v -A -e -t`
format the output. The strict grammar keeps upstream's rules (text only, no options).
"""
from __future__ import annotations

from ...result import CommandResult, err, ok_bytes
from ...streams import Reader
from ...textutil import looks_binary
from ...vfs.paths import parent_of
from ..fs_common import FS_ERRORS, fs_failure, stat_or_fail
from ..helpers import binary_input_message, check_materialized, fail, usage_error
from ..lines import line_blocks, with_stream, write_result
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec

CAT_USAGE = "cat [path ...|-]"
# Piped text would be silently lost: say how to splice it in.
_UNSPLICED_STDIN = err("cat: stdin is only read when no file paths are given or when '-' is present. "
                       f"Usage: {CAT_USAGE}")


# -- the bash language: GNU cat -----------------------------------------------------------------

async def cmd_cat(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar != "bash":
        return await _concatenate(ctx, args, stdin)
    flags, operands = _cat_options(args)
    out, errors = bytearray(), []
    for target in operands or ["-"]:
        if target == "-":
            check_materialized(ctx, "cat", "stdin", len(out) + len(stdin))
            out += stdin
            stdin = b""  # read once, as a stream is
            continue
        try:
            out += await _read_gnu(ctx, target, len(out))
        except _Unreadable as problem:
            errors.append(str(problem))
    data = format_cat(bytes(out), flags) if flags else bytes(out)
    return CommandResult(data, "\n".join(errors), 1 if errors else 0, "text/plain")


async def stream_cat(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """GNU cat over streams: stdin is copied as it arrives; each file is read whole, then
    written. With formatting flags the whole output is formatted by the handler."""
    if ctx.grammar != "bash":
        return await _stream_strict(ctx, args, io)
    flags, operands = _cat_options(args)
    if not operands and not io.stdin_is_pipe:
        # Nothing to read: a terminal would wait; the sandbox says how to give cat input.
        return await write_result(io, usage_error("cat", CAT_USAGE))
    if flags:
        stdin = await io.stdin.read_all(ctx.max_materialized_bytes) if io.stdin_is_pipe else b""
        return await write_result(io, await cmd_cat(ctx, args, stdin))
    status = 0
    for target in operands or ["-"]:
        if target == "-":
            while block := await io.stdin.read():
                await io.stdout.write(block)
            continue
        try:
            await io.stdout.write(await _read_gnu(ctx, target, 0))
        except _Unreadable as problem:
            await io.error(str(problem))
            status = 1
    return status


class _Unreadable(Exception):
    """A file cat reports and skips: `cat: NAME: REASON`."""


async def _read_gnu(ctx: CommandContext, target: str, total_before: int) -> bytes:
    info = await stat_or_fail(ctx, "cat", target)
    if not info.exists or info.is_dir:
        raise _Unreadable(f"cat: {target}: {'Is a directory' if info.exists else 'No such file or directory'}")
    check_materialized(ctx, "cat", ctx.vfs.normalize(target), total_before + info.size)
    try:
        return await ctx.vfs.read_bytes(target)
    except FS_ERRORS as error:
        raise _Unreadable((await fs_failure(ctx, "cat", target, error)).stderr) from None


_CAT_LONG = {"--number": "n", "--number-nonblank": "b", "--squeeze-blank": "s", "--show-ends": "E",
             "--show-tabs": "T", "--show-nonprinting": "v", "--show-all": "A"}
_CAT_EXPANDS = {"A": "vET", "e": "vE", "t": "vT", "u": ""}


def _cat_options(args: list[str]) -> tuple[set[str], list[str]]:
    """GNU cat's formatting options (`-n -b -s -E -T -v -A -e -t -u`) and the operands."""
    flags: set[str] = set()
    operands: list[str] = []
    ended = False
    for arg in args:
        if ended or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            if arg not in _CAT_LONG:
                raise fail(f"cat: unrecognized option '{arg}'")
            flags.update(_CAT_EXPANDS.get(_CAT_LONG[arg], _CAT_LONG[arg]))
        else:
            for letter in arg[1:]:
                if letter not in "AbeEnstTuv":
                    raise fail(f"cat: invalid option -- '{letter}'")
                flags.update(_CAT_EXPANDS.get(letter, letter))
    return flags, operands


def format_cat(data: bytes, flags: set[str]) -> bytes:
    """GNU cat's -n/-b numbering, -s squeezing, -E/-T/-v showing, over the whole output."""
    out = bytearray()
    number = 0
    previous_blank = False
    for line in data.splitlines(keepends=True):
        ends = line.endswith(b"\n")
        body = line[:-1] if ends else line
        blank = not body
        if "s" in flags and blank and previous_blank:
            continue
        previous_blank = blank
        if "v" in flags:
            body = _nonprinting(body, keep_tabs="T" not in flags)
        if "T" in flags:
            body = body.replace(b"\t", b"^I")
        if ("b" in flags and not blank) or ("n" in flags and "b" not in flags):
            number += 1
            out += b"%6d\t" % number
        out += body + (b"$" if ends and "E" in flags else b"") + (b"\n" if ends else b"")
    return bytes(out)


def _nonprinting(body: bytes, keep_tabs: bool) -> bytes:
    """`cat -v`: control bytes as ^X, DEL as ^?, high bytes as M- and the low form."""
    out = bytearray()
    for byte in body:
        prefix = b""
        if byte >= 128:
            prefix, byte = b"M-", byte - 128
        if byte == 9 and keep_tabs and not prefix:
            out.append(byte)
        elif byte < 32:
            out += prefix + b"^" + bytes((byte + 64,))
        elif byte == 127:
            out += prefix + b"^?"
        else:
            out += prefix + bytes((byte,))
    return bytes(out)


# -- the strict grammar: upstream's cat -----------------------------------------------------------

async def _concatenate(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if not args:
        if not stdin:
            return usage_error("cat", CAT_USAGE)
        return ok_bytes(_checked_stdin(ctx, stdin, 0), "text/plain")
    if stdin and "-" not in args:
        return _UNSPLICED_STDIN
    chunks: list[bytes] = []
    total = 0
    for target in args:
        chunk = _checked_stdin(ctx, stdin, total) if target == "-" else await _read_cat_file(ctx, target, total)
        total += len(chunk)
        chunks.append(chunk)
    return ok_bytes(b"".join(chunks), "text/plain")


def _checked_stdin(ctx: CommandContext, stdin: bytes, total_before: int) -> bytes:
    check_materialized(ctx, "cat", "stdin", total_before + len(stdin))
    if looks_binary(stdin):
        raise fail(binary_input_message("cat", None, len(stdin)))
    return stdin


async def _read_cat_file(ctx: CommandContext, target: str, total_before: int) -> bytes:
    normalized = ctx.vfs.normalize(target)
    info = await stat_or_fail(ctx, "cat", target)
    if ctx.grammar == "bash" and (not info.exists or info.is_dir):
        raise fail(f"cat: {target}: {'Is a directory' if info.exists else 'No such file or directory'}")
    if not info.exists:
        raise fail(f"cat: file not found: {normalized}. Use: ls {parent_of(normalized)}")
    if info.is_dir:
        raise fail(f"cat: path is a directory: {normalized}. Use: ls {normalized}")
    check_materialized(ctx, "cat", normalized, total_before + info.size)
    try:
        data = await ctx.vfs.read_bytes(target)
    except FS_ERRORS as error:
        raise CommandFailed(await fs_failure(ctx, "cat", target, error)) from None
    if looks_binary(data):
        raise fail(binary_input_message("cat", normalized, len(data)))
    return data


async def _stream_strict(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    if not args:
        if not io.stdin_is_pipe:
            return await write_result(io, usage_error("cat", CAT_USAGE))
        await _copy_text_stdin(io)
        return 0
    if "-" not in args and io.stdin_is_pipe and await _has_input(io.stdin):
        return await write_result(io, _UNSPLICED_STDIN)
    contents: list[bytes | None] = []  # None: stdin's place in the list
    total = 0
    for target in args:
        data = None if target == "-" else await _read_cat_file(ctx, target, total)
        total += len(data or b"")
        contents.append(data)
    for data in contents:
        if data is None:
            await _copy_text_stdin(io)
        else:
            await io.stdout.write(data)
    return 0


async def _has_input(reader: Reader) -> bool:
    """Whether any bytes come (waits for the first chunk, then puts it back)."""
    chunk = await reader.read()
    reader.unread(chunk)
    return bool(chunk)


async def _copy_text_stdin(io: CommandIO) -> None:
    async for block in line_blocks(io.stdin):
        if looks_binary(block):
            raise fail(binary_input_message("cat", None, len(block)))
        await io.stdout.write(block)


CAT = with_stream(CommandSpec(
    name="cat",
    summary="Read text from one or more files, or splice piped stdin with `-`.",
    usage=CAT_USAGE,
    details=("Reads rooted text files or piped text. Use `-` to splice piped stdin into the file list. "
             "For directories use ls. For binary content use stat.\n"
             "Examples:\n  cat /notes/todo.txt\n  cat /notes/a.txt /notes/b.txt\n"
             "  grep ERROR /logs/app.log | cat\n  grep ERROR /logs/app.log | cat /notes/header.txt -"),
    group="fs",
    handler=cmd_cat,
    accepts_stdin=True, min_args=0, conformance_args=("/missing",),
), stream_cat)


COMMANDS = [CAT]
