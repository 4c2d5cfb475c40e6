"""tac (lines in reverse order) and rev (each line's bytes reversed), as GNU coreutils and
util-linux print them in the C locale; and `gnu_getopt`, the GNU getopt_long reading the
small coreutils of this family share (xargs, nl, paste, comm, join, cmp, fold, expand,
column, the hash sums, env, realpath): clusters, attached or separate values, optional
values (`-i{}`), unambiguous prefixes of long names, and GNU's error words.

tac must read all its input before printing; rev streams line by line.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from ..result import TEXT, CommandResult, ok_bytes
from ..vfs.errors import VFSError
from .helpers import FS_ERRORS, GNU_ERRORS, format_vfs_error, no_input_error, read_file_bytes
from .lines import source_blocks, with_stream, Source
from .options import usage_failure
from .spec import CommandContext, CommandFailed, CommandIO, CommandSpec

NONE, REQUIRED, OPTIONAL = 0, 1, 2
Options = list[tuple[str, "str | None"]]


def _short_table(short: str) -> dict[str, int]:
    """getopt's option string (`"0a:i::"`) as {letter: NONE/REQUIRED/OPTIONAL}."""
    table: dict[str, int] = {}
    index = 0
    while index < len(short):
        letter = short[index]
        colons = 0
        while index + 1 + colons < len(short) and short[index + 1 + colons] == ":":
            colons += 1
        table[letter] = min(colons, 2)
        index += 1 + colons
    return table


def gnu_getopt(command: str, usage: str, args: Sequence[str], short: str,
               long: Mapping[str, tuple[str, int]] | None = None, permute: bool = True) -> tuple[Options, list[str]]:
    """(options as (key, value) in order, operands). Short keys are the letters; a long
    name maps to (key, NONE/REQUIRED/OPTIONAL). With `permute` False, the first operand
    ends the options (getopt's `+`, as xargs and env read their command lines)."""
    table = _short_table(short)
    names = dict(long or {})
    options: Options = []
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            if not permute:
                operands.extend(args[index - 1:])
                break
            operands.append(arg)
            continue
        if arg.startswith("--"):
            index = _long(command, usage, arg, args, index, names, options)
        else:
            index = _cluster(command, usage, arg, args, index, table, options)
    return options, operands


def _long(command: str, usage: str, arg: str, args: Sequence[str], index: int,
          names: Mapping[str, tuple[str, int]], options: Options) -> int:
    name, has_value, value = arg[2:].partition("=")
    if name in names:
        full = name
    else:
        matches = [known for known in names if known.startswith(name)]
        if not matches or not name:
            raise usage_failure(command, f"unrecognized option '{arg}'", usage)
        if len({names[known] for known in matches}) > 1:
            listed = " ".join(f"'--{known}'" for known in matches)
            raise usage_failure(command, f"option '--{name}' is ambiguous; possibilities: {listed}", usage)
        full = matches[0]
    key, mode = names[full]
    if mode == NONE:
        if has_value:
            raise usage_failure(command, f"option '--{full}' doesn't allow an argument", usage)
        options.append((key, None))
    elif has_value or mode == OPTIONAL:
        options.append((key, value if has_value else None))
    elif index < len(args):
        options.append((key, args[index]))
        index += 1
    else:
        raise usage_failure(command, f"option '--{full}' requires an argument", usage)
    return index


def _cluster(command: str, usage: str, arg: str, args: Sequence[str], index: int,
             table: Mapping[str, int], options: Options) -> int:
    for position in range(1, len(arg)):
        letter = arg[position]
        mode = table.get(letter)
        if mode is None:
            raise usage_failure(command, f"invalid option -- '{letter}'", usage)
        if mode == NONE:
            options.append((letter, None))
            continue
        rest = arg[position + 1:]
        if rest or mode == OPTIONAL:
            options.append((letter, rest or None))
        elif index < len(args):
            options.append((letter, args[index]))
            index += 1
        else:
            raise usage_failure(command, f"option requires an argument -- '{letter}'", usage)
        break
    return index


# ---------------------------------------------------------------- file operands

class OperandError(Exception):
    """One operand could not be read: GNU tools say so and go on with the next one."""


async def read_operand(ctx: CommandContext, command: str, path: str, stdin: bytes,
                       shown: str | None = None) -> bytes:
    """A file's bytes, or stdin's for `-`. A file that cannot be read raises OperandError
    with the line to print (`cmd: PATH: No such file or directory` in the bash language;
    `shown` words it otherwise, e.g. rev's `cannot open PATH`)."""
    if path == "-":
        if stdin or ctx.stdin_is_pipe:
            return stdin
        raise CommandFailed(no_input_error(command))
    try:
        return await read_file_bytes(ctx, command, path)
    except FS_ERRORS as error:
        code = getattr(error, "code", "") if isinstance(error, VFSError) else ""
        if ctx.grammar != "bash":
            raise OperandError((await format_vfs_error(ctx, command, path, error)).stderr) from None
        reason = GNU_ERRORS.get(code or "", str(error))
        raise OperandError(shown.format(path=path, reason=reason) if shown else f"{command}: {path}: {reason}") from None


async def read_operands(ctx: CommandContext, command: str, paths: Sequence[str], stdin: bytes,
                        shown: str | None = None) -> tuple[list[tuple[str, bytes]], list[str]]:
    """(path, bytes) of every readable operand (stdin when there is none), and the error
    lines of the others. Stdin named twice is read once."""
    inputs: list[tuple[str, bytes]] = []
    errors: list[str] = []
    used_stdin = False
    for path in paths or ["-"]:
        try:
            data = await read_operand(ctx, command, path, b"" if used_stdin and path == "-" else stdin, shown)
        except OperandError as error:
            errors.append(str(error))
            continue
        used_stdin = used_stdin or path == "-"
        inputs.append((path, data))
    return inputs, errors


def result_of(out: bytes, errors: list[str], status: int | None = None) -> CommandResult:
    """Output and error lines as one result (exit 1 when anything failed, or `status`)."""
    code = status if status is not None else (1 if errors else 0)
    return CommandResult(out, "\n".join(errors), code, TEXT)


# ---------------------------------------------------------------- tac

TAC_USAGE = "tac [-s SEP] [-b] [-r] [FILE...]"
_TAC_LONG = {"separator": ("s", REQUIRED), "before": ("b", NONE), "regex": ("r", NONE)}


def tac_bytes(data: bytes, separator: bytes, before: bool) -> bytes:
    """The records of `data` in reverse order; each keeps its separator (after it, or
    before it with -b), as GNU tac does: an unterminated last record stays unterminated."""
    if not data:
        return b""
    pieces = data.split(separator)
    if before:
        head, records = pieces[0], [separator + piece for piece in pieces[1:]]
        return b"".join(reversed(records)) + head
    last = pieces.pop()
    records = [piece + separator for piece in pieces]
    return last + b"".join(reversed(records))


async def cmd_tac(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = gnu_getopt("tac", TAC_USAGE, args, "s:br", _TAC_LONG)
    separator, before = b"\n", False
    for key, value in options:
        if key == "s":
            separator = (value or "").encode("utf-8")
            if not separator:
                raise usage_failure("tac", "separator cannot be empty", TAC_USAGE)
        elif key == "b":
            before = True
        else:
            raise usage_failure("tac", "-r (regular expression separators) is not supported; use a plain -s SEP",
                                TAC_USAGE)
    inputs, errors = await read_operands(ctx, "tac", paths, stdin, "tac: failed to open '{path}' for reading: {reason}")
    return result_of(b"".join(tac_bytes(data, separator, before) for _, data in inputs), errors)


# ---------------------------------------------------------------- rev

REV_USAGE = "rev [FILE...]"


def rev_block(block: bytes) -> bytes:
    """Each line's bytes reversed; newlines stay at the ends (C locale: bytes, not characters)."""
    lines = block.split(b"\n")
    return b"\n".join(line[::-1] for line in lines)


def _rev_paths(args: list[str]) -> list[str]:
    return gnu_getopt("rev", REV_USAGE, args, "", {})[1]


REV_ERROR = "rev: cannot open {path}: {reason}"


async def cmd_rev(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    paths = _rev_paths(args)
    if not paths:
        data = await read_operand(ctx, "rev", "-", stdin)
        return ok_bytes(rev_block(data), TEXT)
    inputs, errors = await read_operands(ctx, "rev", [f"./{p}" if p == "-" else p for p in paths], stdin, REV_ERROR)
    return result_of(b"".join(rev_block(data) for _, data in inputs), [e.replace("./-", "-") for e in errors])


async def stream_rev(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """rev line by line as stdin arrives; files (rev reads `-` as a file name) whole."""
    paths = _rev_paths(args)
    if not paths:
        if not io.stdin_is_pipe:
            raise CommandFailed(no_input_error("rev"))
        async for block in source_blocks(Source("-", None), io, "rev", text=False):
            await io.stdout.write(rev_block(block))
        return 0
    status = 0
    for path in paths:
        try:
            data = await read_operand(ctx, "rev", f"./{path}" if path == "-" else path, b"", REV_ERROR)
        except OperandError as error:
            await io.error(str(error).replace("./-", "-"))
            status = 1
            continue
        await io.stdout.write(rev_block(data))
    return status


TAC = CommandSpec(
    name="tac",
    summary="Print lines (or SEP-separated records) in reverse order, as GNU tac.",
    usage=TAC_USAGE,
    details=("Reads every FILE (or stdin, `-`) whole and prints its records last first; a record keeps "
             "its separator (a newline unless -s SEP), -b puts the separator before each record.\n"
             "Examples:\n  tac /logs/app.log | head -n 5\n  seq 3 | tac\n  printf 'a,b,c' | tac -s ,"),
    group="text", handler=cmd_tac,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
)

REV = with_stream(CommandSpec(
    name="rev",
    summary="Reverse the bytes of each line, as util-linux rev.",
    usage=REV_USAGE,
    details=("Prints each line of every FILE (or stdin) with its bytes in reverse order.\n"
             "Examples:\n  echo hello | rev\n  rev /data/names.txt\n  rev file.txt | cut -d . -f 1 | rev"),
    group="text", handler=cmd_rev,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_rev)

COMMANDS = [TAC, REV]
