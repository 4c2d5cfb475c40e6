"""Command lines and file operands as the small GNU coreutils read them.

`gnu_getopt` is getopt_long: clusters, attached or separate values, optional values
(`-i{}`), unambiguous prefixes of long names, GNU's error words; with `permute` False the
first operand ends the options (xargs, env, timeout). `read_operand(s)` loads FILE
operands (`-` is stdin) and words a failure as GNU does, so a command can report it and go
on with the next one; `result_of` joins output and error lines into one result.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from ..result import TEXT, CommandResult
from ..vfs.errors import VFSError
from .helpers import FS_ERRORS, GNU_ERRORS, format_vfs_error, no_input_error, read_file_bytes
from .options import usage_failure
from .spec import CommandContext, CommandFailed

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


# ---------------------------------------------------------------- files a call may replace

def plain_operands(args: Sequence[str], with_value: str = "", long_with_value: Sequence[str] = ()) -> list[str]:
    """The operands of a GNU command line, roughly: words that are not options nor an
    option's value (`with_value`: letters taking one, `long_with_value`: such long names).
    For `CommandSpec.targets`, where a word too many only means one more path checked."""
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if arg.startswith("--") and len(arg) > 2:
            if arg[2:] in long_with_value:
                index += 1
        elif arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            for position, letter in enumerate(letters):
                if letter in with_value:
                    index += 0 if position + 1 < len(letters) else 1
                    break
        else:
            operands.append(arg)
    return operands


def copy_targets(args: Sequence[str]) -> list[str]:
    """cp/mv: the destination, and each source's name inside it (when it is a directory)."""
    operands = plain_operands(args, "tS", ("target-directory", "suffix"))
    directory = next((args[i + 1] for i, arg in enumerate(args[:-1]) if arg in ("-t", "--target-directory")), None)
    directory = directory or next((arg.split("=", 1)[1] for arg in args if arg.startswith("--target-directory=")), None)
    if directory is None and len(operands) < 2:
        return []
    sources, into = (operands, directory) if directory is not None else (operands[:-1], operands[-1])
    return [into] + [f"{into.rstrip('/')}/{source.rstrip('/').rsplit('/', 1)[-1]}" for source in sources]
