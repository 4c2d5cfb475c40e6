"""The fs group, reading and writing one file: stat, cat, write, append.

Listings (ls, find, tree) and tree changes (mkdir, cp, mv, rm, touch) live in the
fs_* modules beside this one.
"""
from __future__ import annotations

from ..result import CommandResult, err, ok, ok_bytes
from ..textutil import format_size, looks_binary
from ..vfs.paths import parent_of
from ..streams import Reader
from .fs_common import FS_ERRORS, file_write_failure, fs_failure, stat_or_fail
from .helpers import binary_input_message, check_materialized, fail, line_end, usage_error
from .lines import line_blocks, with_stream, write_result
from .spec import CommandContext, CommandFailed, CommandIO, CommandSpec

CAT_USAGE = "cat [path ...|-]"
# Piped text would be silently lost: say how to splice it in.
_UNSPLICED_STDIN = err("cat: stdin is only read when no file paths are given or when '-' is present. "
                       f"Usage: {CAT_USAGE}")


# -- stat ---------------------------------------------------------------------------------

async def cmd_stat(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    info = await stat_or_fail(ctx, "stat", args[0])
    if not info.exists:
        return err(f"stat: path not found: {ctx.vfs.normalize(args[0])}")
    lines = [f"path: {info.path}",
             f"type: {'directory' if info.is_dir else 'file'}",
             f"size: {info.size} bytes",
             f"media_type: {info.media_type}",
             f"modified_epoch_ms: {info.modified_epoch_ms}"]
    return ok("\n".join(lines) + "\n")


# -- cat ----------------------------------------------------------------------------------

async def cmd_cat(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    """In the bash language, GNU's options and rules: formatting flags, and no stdin read
    when files are named. The strict grammar keeps upstream's (no options)."""
    flags: set[str] = set()
    if ctx.grammar == "bash":
        flags, args = _cat_options(args)
        if stdin and args and "-" not in args:
            stdin = b""
    result = await _concatenate(ctx, args, stdin)
    if flags and not result.exit_code:  # GNU numbers lines across files: format the whole
        return ok_bytes(format_cat(result.stdout, flags), "text/plain")
    return result


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


async def stream_cat(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """cat with stdin copied as it arrives; files are read (and checked) before any output,
    as the normal handler reads them. With formatting flags (bash language) the handler
    formats the whole output."""
    if ctx.grammar == "bash":
        flags, operands = _cat_options(args)
        if flags:
            stdin = await io.stdin.read_all(ctx.max_materialized_bytes) if io.stdin_is_pipe else b""
            return await write_result(io, await cmd_cat(ctx, args, stdin))
        if operands and "-" not in operands:
            return await _cat_files(ctx, operands, io)
    if not args:
        if not io.stdin_is_pipe:
            return await write_result(io, usage_error("cat", CAT_USAGE))
        await _copy_stdin(io)
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
            await _copy_stdin(io)
        else:
            await io.stdout.write(data)
    return 0


async def _cat_files(ctx: CommandContext, paths: list[str], io: CommandIO) -> int:
    """Files only (any piped stdin is not read, as GNU cat leaves it)."""
    total = 0
    contents = []
    for target in paths:
        data = await _read_cat_file(ctx, target, total)
        total += len(data)
        contents.append(data)
    for data in contents:
        await io.stdout.write(data)
    return 0


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


async def _has_input(reader: Reader) -> bool:
    """Whether any bytes come (waits for the first chunk, then puts it back)."""
    chunk = await reader.read()
    reader.unread(chunk)
    return bool(chunk)


async def _copy_stdin(io: CommandIO) -> None:
    async for block in line_blocks(io.stdin):
        if looks_binary(block):
            raise fail(binary_input_message("cat", None, len(block)))
        await io.stdout.write(block)


# -- write / append -----------------------------------------------------------------------

def content_from_args_or_stdin(command: str, args: list[str], stdin: bytes) -> bytes:
    """Inline content (args after the path, joined by spaces) or piped stdin."""
    if len(args) > 1:
        return " ".join(args[1:]).encode("utf-8")
    if stdin:
        return stdin
    raise fail(f"{command}: no content provided. Pass content inline or pipe it via stdin.")


async def _store(ctx: CommandContext, command: str, args: list[str], stdin: bytes) -> CommandResult:
    data = content_from_args_or_stdin(command, args, stdin)
    operation = ctx.vfs.append_bytes if command == "append" else ctx.vfs.write_bytes
    try:
        target = await operation(args[0], data)
    except FS_ERRORS as error:
        return await file_write_failure(ctx, command, args[0], error)
    verb = "appended" if command == "append" else "wrote"
    return ok(f"{verb} {format_size(len(data))} to {target}" + line_end(ctx))


async def cmd_write(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _store(ctx, "write", args, stdin)


async def cmd_append(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _store(ctx, "append", args, stdin)


STAT = CommandSpec(
    name="stat",
    summary="Show one-tool file metadata such as size, type, and modified time.",
    usage="stat <path>",
    details=("Returns one-tool metadata fields for the rooted workspace. "
             "It does not aim for POSIX stat output parity.\n"
             "Examples:\n  stat /logs/app.log\n  stat notes/todo.txt"),
    group="fs",
    handler=cmd_stat,
    accepts_stdin=False, min_args=1, max_args=1, conformance_args=("/missing",),
)

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

WRITE = CommandSpec(
    name="write",
    summary="Write a file from inline content or stdin.",
    usage="write <path> [content]",
    details=('Examples:\n  write /notes/todo.txt "line one"\n'
             '  search "refund issue" | write /reports/refund.txt'),
    group="fs",
    handler=cmd_write,
    accepts_stdin=True, min_args=1, conformance_args=("/t.txt", "x"), kind="write",
)

APPEND = CommandSpec(
    name="append",
    summary="Append to a file from inline content or stdin.",
    usage="append <path> [content]",
    details=('Examples:\n  append /notes/todo.txt "next item"\n'
             "  cat /tmp/out.txt | append /notes/archive.txt"),
    group="fs",
    handler=cmd_append,
    accepts_stdin=True, min_args=1, conformance_args=("/t.txt", "x"), kind="write",
)

COMMANDS = [STAT, CAT, WRITE, APPEND]
