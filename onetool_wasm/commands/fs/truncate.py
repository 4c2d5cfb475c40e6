"""truncate: shrink or extend files to a size, as GNU coreutils 9.1 does, in both grammars
(upstream has no truncate): `-s SIZE` (N with K M G T P E suffixes, KB=1000, KiB=1024;
+N -N to grow or shrink, <N at most, >N at least, /N down to a multiple, %N up to one),
`-r REF` (REF's size, or the base of a relative -s), `-c` (create nothing), `-o` (SIZE in
4096-byte I/O blocks). Growing fills with zero bytes. A file larger than the sandbox keeps
in memory (64 MiB, or the execution policy's max_materialized_bytes) fails as a file system
without room for it does: `failed to truncate 'f' at N bytes: File too large`."""
from __future__ import annotations

from typing import Sequence

from ...result import TEXT, CommandResult
from ..fs_common import FS_ERRORS
from ..getopt import NONE, REQUIRED, plain_operands
from ..spec import CommandContext, CommandSpec
from ._mutate import gnu_options
from .rmdir import node_kind, quote, quoteaf, resolved, strerror, walk

USAGE = "truncate OPTION... FILE..."
TRY = "Try 'truncate --help' for more information."
_LONG = {"no-create": ("c", NONE), "io-blocks": ("o", NONE), "reference": ("r", REQUIRED),
         "size": ("s", REQUIRED), "help": ("help", NONE), "version": ("version", NONE)}

INT_MAX = (1 << 63) - 1
INT_MIN = -(1 << 63)
BLOCK_SIZE = 4096  # st_blksize of the file systems GNU usually runs on
LARGEST_FILE = 64 * 1024 * 1024

_POWERS = {"k": 1, "K": 1, "m": 2, "M": 2, "g": 3, "G": 3, "t": 4, "T": 4, "P": 5, "E": 6, "Z": 7, "Y": 8}
_SPACE = " \t\n\v\f\r"


class _Usage(Exception):
    """An error line; `usage` adds the Try line."""

    def __init__(self, message: str, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


def parse_number(text: str) -> int:
    """gnulib xdectoimax(text, INTMAX range, "EgGkKmMPtTYZ0"): a decimal with an optional
    suffix (`K` alone is 1024); raises _Usage with GNU's `Invalid number` line."""
    index = len(text) - len(text.lstrip(_SPACE))
    start = index
    if index < len(text) and text[index] in "+-":
        index += 1
    digits_end = index
    while digits_end < len(text) and text[digits_end].isascii() and text[digits_end].isdigit():
        digits_end += 1
    overflow = False
    if digits_end == index:
        if index == 0 and text[:1] in _POWERS:  # no number but a suffix: one of it (`K` is 1024)
            value, rest = 1, text[index:]
        else:
            raise _Usage(f"truncate: Invalid number: {quote(text)}")
    else:
        value, rest = int(text[start:digits_end]), text[digits_end:]
        if not INT_MIN <= value <= INT_MAX:
            overflow = True
            value = INT_MAX if value > 0 else INT_MIN
    if rest:
        letter = rest[0]
        if letter not in _POWERS:
            raise _Usage(f"truncate: Invalid number: {quote(text)}")
        base, used = 1024, 1
        if rest[1:2] == "i" and rest[2:3] == "B":
            used = 3
        elif rest[1:2] in ("B", "D"):
            base, used = 1000, 2
        scaled = value * base ** _POWERS[letter]
        if not INT_MIN <= scaled <= INT_MAX:
            overflow = True
            scaled = INT_MAX if scaled > 0 else INT_MIN
        value = scaled
        if rest[used:]:
            raise _Usage(f"truncate: Invalid number: {quote(text)}")
    if overflow:
        raise _Usage(f"truncate: Invalid number: {quote(text)}: Value too large for defined data type")
    return value


def parse_size(text: str, mode: str) -> tuple[int, str]:
    """One -s value: (size, relative mode: "" absolute, "+", "<", ">", "/", "%"); the mode of
    an earlier -s stays unless this one names its own (as GNU keeps it)."""
    rest = text.lstrip(_SPACE)
    if rest[:1] in ("<", ">", "/", "%"):
        mode, rest = rest[0], rest[1:]
    rest = rest.lstrip(_SPACE)
    if rest[:1] in ("+", "-"):
        if mode:
            raise _Usage("truncate: multiple relative modifiers specified", usage=True)
        mode = "+"
    size = parse_number(rest)
    if mode in ("/", "%") and size == 0:
        raise _Usage("truncate: division by zero")
    return size, mode


def new_size(current: int, size: int, mode: str) -> int:
    if mode == "<":
        wanted = min(current, size)
    elif mode == ">":
        wanted = max(current, size)
    elif mode == "/":
        wanted = current - current % size
    elif mode == "%":
        remainder = current % size
        wanted = current + (0 if remainder == 0 else size - remainder)
    elif mode == "+":
        wanted = current + size
    else:
        wanted = size
    return max(wanted, 0)


async def _open_for_writing(ctx: CommandContext, path: str, create: bool) -> tuple[str | None, str, bool]:
    """open(path, O_WRONLY | O_CREAT?): (error code, the file's path, whether it exists)."""
    code, directory, name, slash = await walk(ctx, path)
    if code:
        return code, "", False
    if name is None or name in (".", "..") or (create and slash):  # O_CREAT with a final slash: EISDIR
        return "EISDIR", "", False
    target = resolved(directory, name)
    kind = await node_kind(ctx, target)
    if kind == "dir":
        return "EISDIR", target, True
    if kind == "file":
        return ("ENOTDIR" if slash else None), target, True
    if not create:
        return "ENOENT", target, False
    return None, target, False


def _limit(ctx: CommandContext) -> int:
    limit = getattr(ctx, "max_materialized_bytes", None)
    return LARGEST_FILE if limit is None else min(LARGEST_FILE, limit)


async def _truncate_one(ctx: CommandContext, path: str, size: int, mode: str, base: int | None,
                        create: bool, blocks: bool) -> str | None:
    code, target, exists = await _open_for_writing(ctx, path, create)
    if code == "ENOENT" and not create:
        return None
    if code:
        return f"truncate: cannot open {quoteaf(path)} for writing: {strerror(code)}"
    wanted = size
    try:
        current = (await ctx.vfs.stat(target)).size if exists else 0
        if blocks:
            size *= BLOCK_SIZE
            if not INT_MIN <= size <= INT_MAX:
                return (f"truncate: overflow in {size // BLOCK_SIZE} * {BLOCK_SIZE} byte blocks for file "
                        f"{quoteaf(path)}")
        wanted = new_size(base if base is not None else current, size, mode) if mode else max(size, 0)
        if wanted > INT_MAX:
            return f"truncate: overflow extending size of file {quoteaf(path)}"
        if wanted > _limit(ctx):
            if not exists:  # GNU's open has made the file before ftruncate fails
                await ctx.vfs.write_bytes(target, b"", False)
            return f"truncate: failed to truncate {quoteaf(path)} at {wanted} bytes: {strerror('EFBIG')}"
        data = await ctx.vfs.read_bytes(target) if exists and current else b""
        data = data[:wanted] + bytes(max(0, wanted - len(data)))
        await ctx.vfs.write_bytes(target, data, False)
    except FS_ERRORS as error:
        return f"truncate: failed to truncate {quoteaf(path)} at {wanted} bytes: {strerror(error)}"
    return None


async def cmd_truncate(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        return await _run(ctx, args)
    except _Usage as problem:
        text = f"{problem}\n{TRY}" if problem.usage else str(problem)
        return CommandResult(b"", text, 1, TEXT)


async def _run(ctx: CommandContext, args: list[str]) -> CommandResult:
    parsed, operands = gnu_options("truncate", args, "cor:s:", _LONG)
    keys = {key for key, _ in parsed}
    if "help" in keys:
        return CommandResult((TRUNCATE.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    if "version" in keys:
        return CommandResult(b"", "truncate: --version is not supported here; see 'help truncate'", 1, TEXT)
    size, mode, got_size, reference = 0, "", False, None
    for key, value in parsed:
        if key == "s":
            size, mode = parse_size(value or "", mode)
            got_size = True
        elif key == "r":
            reference = value or ""
    if reference is None and not got_size:
        raise _Usage("truncate: you must specify either '--size' or '--reference'", usage=True)
    if reference is not None and got_size and not mode:
        raise _Usage("truncate: you must specify a relative '--size' with '--reference'", usage=True)
    if "o" in keys and not got_size:
        raise _Usage("truncate: '--io-blocks' was specified but '--size' was not", usage=True)
    if not operands:
        raise _Usage("truncate: missing file operand", usage=True)
    base = None
    if reference is not None:
        code, directory, name, slash = await walk(ctx, reference)
        target = resolved(directory, name) if not code and name is not None else directory
        kind = None if code else await node_kind(ctx, target)
        if code or kind is None or (slash and kind == "file"):
            problem = code or ("ENOTDIR" if kind == "file" else "ENOENT")
            raise _Usage(f"truncate: cannot stat {quoteaf(reference)}: {strerror(problem)}")
        if kind == "dir":
            raise _Usage(f"truncate: cannot get the size of {quoteaf(reference)}: {strerror('EINVAL')}")
        reference_size = (await ctx.vfs.stat(target)).size
        if got_size:
            base = reference_size
        else:
            size = reference_size
    errors = [line for path in operands
              if (line := await _truncate_one(ctx, path, size, mode, base, "c" not in keys, "o" in keys))]
    return CommandResult(b"", "\n".join(errors), 1 if errors else 0, TEXT)


def truncate_targets(args: Sequence[str]) -> list[str]:
    """The files a call may cut short (for a policy that confirms overwrites)."""
    return plain_operands(args, "rs", ("reference", "size"))


TRUNCATE = CommandSpec(
    name="truncate",
    summary="Shrink or extend files to a given size.",
    usage=USAGE,
    details=("Sets each FILE's size, creating missing files (not with `-c`); growing pads with zero bytes. "
             "`-s SIZE`: N bytes, or with a suffix K M G (1024s; KB MB GB: 1000s); `+N`/`-N` grow or shrink "
             "by N, `<N` caps at N, `>N` raises to N, `/N` rounds down and `%N` up to a multiple of N. "
             "`-r REF` uses REF's size (with a relative -s: REF's size plus or minus it). Files are limited "
             "to 64 MiB here. Errors and exit statuses are GNU coreutils'.\n"
             "Examples:\n  truncate -s 0 app.log\n  truncate -s 1K blank.bin\n  truncate -s -10 data.csv\n"
             "  truncate -r template.txt copy.txt"),
    group="fs",
    handler=cmd_truncate,
    accepts_stdin=False, min_args=0, conformance_args=("-s", "0", "/t.txt"), kind="write",
    targets=truncate_targets,
)

COMMANDS = [TRUNCATE]
