"""basename and dirname: the last component of a path, and all but it, as GNU coreutils
prints them. Pure string work on the operands: the file system is never consulted."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..result import CommandResult, encode_text, ok_bytes
from .lines import with_stream
from .options import usage_failure
from .spec import CommandContext, CommandIO, CommandSpec

BASENAME_USAGE = "basename NAME [SUFFIX] | basename -a [-s SUFFIX] [-z] NAME..."
DIRNAME_USAGE = "dirname [-z] NAME..."


def base_of(name: str, suffix: str = "") -> str:
    """The last component without trailing slashes (`/` for a name of slashes only), less
    `suffix` when the name ends with it and is more than it."""
    stripped = name.rstrip("/")
    if not stripped:
        return "/" if name else ""
    base = stripped.rsplit("/", 1)[-1]
    if suffix and base != suffix and base.endswith(suffix):
        base = base[:-len(suffix)]
    return base


def dir_of(name: str) -> str:
    """All but the last component, trailing slashes dropped: `.` when there is no slash,
    `/` when only slashes are left."""
    stripped = name.rstrip("/")
    if "/" not in stripped:
        return "/" if name.startswith("/") else "."
    parent = stripped.rsplit("/", 1)[0].rstrip("/")
    return parent or "/"


@dataclass
class _Options:
    multiple: bool = False
    suffix: str = ""
    zero: bool = False
    names: list[str] = field(default_factory=list)


def _parse(command: str, usage: str, args: list[str], letters: str) -> _Options:
    """GNU getopt: options anywhere before `--`; basename also has -a and -s SUFFIX."""
    options = _Options()
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            options.names.extend(args[index:])
            break
        if arg.startswith("--"):
            index = _long(command, usage, options, arg, args, index, letters)
        elif arg.startswith("-") and arg != "-":
            index = _cluster(command, usage, options, arg, args, index, letters)
        else:
            options.names.append(arg)
    return options


def _long(command: str, usage: str, options: _Options, arg: str, args: list[str], index: int,
          letters: str) -> int:
    name, has_value, value = arg[2:].partition("=")
    known = {"zero": "z", "multiple": "a", "suffix": "s"}
    letter = known.get(name)
    if letter is None or letter not in letters or (has_value and letter != "s"):
        raise usage_failure(command, f"unrecognized option '{arg}'", usage)
    if letter == "s" and not has_value:
        if index >= len(args):
            raise usage_failure(command, f"option '--{name}' requires an argument", usage)
        value, index = args[index], index + 1
    _set(options, letter, value)
    return index


def _cluster(command: str, usage: str, options: _Options, arg: str, args: list[str], index: int,
             letters: str) -> int:
    for position, letter in enumerate(arg[1:], start=2):
        if letter not in letters:
            raise usage_failure(command, f"invalid option -- '{letter}'", usage)
        if letter != "s":
            _set(options, letter, "")
            continue
        value = arg[position:]
        if not value:
            if index >= len(args):
                raise usage_failure(command, "option requires an argument -- 's'", usage)
            value, index = args[index], index + 1
        _set(options, "s", value)
        break
    return index


def _set(options: _Options, letter: str, value: str) -> None:
    if letter == "z":
        options.zero = True
    elif letter == "a":
        options.multiple = True
    else:
        options.multiple, options.suffix = True, value  # -s implies -a, as in GNU


def _lines(names: list[str], zero: bool) -> bytes:
    end = "\0" if zero else "\n"
    return encode_text("".join(name + end for name in names))


def basename_output(args: list[str]) -> bytes:
    options = _parse("basename", BASENAME_USAGE, args, "asz")
    names = options.names
    if not names:
        raise usage_failure("basename", "missing operand", BASENAME_USAGE)
    if options.multiple:
        return _lines([base_of(name, options.suffix) for name in names], options.zero)
    if len(names) > 2:
        raise usage_failure("basename", f"extra operand '{names[2]}'", BASENAME_USAGE)
    return _lines([base_of(names[0], names[1] if len(names) == 2 else "")], options.zero)


def dirname_output(args: list[str]) -> bytes:
    options = _parse("dirname", DIRNAME_USAGE, args, "z")
    if not options.names:
        raise usage_failure("dirname", "missing operand", DIRNAME_USAGE)
    return _lines([dir_of(name) for name in options.names], options.zero)


def cmd_basename(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return ok_bytes(basename_output(args), "text/plain")


def cmd_dirname(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return ok_bytes(dirname_output(args), "text/plain")


async def stream_basename(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    await io.stdout.write(basename_output(args))
    return 0


async def stream_dirname(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    await io.stdout.write(dirname_output(args))
    return 0


BASENAME = with_stream(CommandSpec(
    name="basename",
    summary="Strip the directory (and optionally a suffix) from path names.",
    usage=BASENAME_USAGE,
    details=("Prints the last component of NAME without trailing slashes, less SUFFIX when given; -a "
             "takes several names, -s SUFFIX strips a suffix from each (and implies -a), -z ends lines "
             "with NUL. The file system is not consulted.\n"
             "Examples:\n  basename /logs/app.log\n  basename /logs/app.log .log\n"
             "  basename -s .txt /notes/a.txt /notes/b.txt"),
    group="fs", handler=cmd_basename,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=("/a/b.txt",), kind="read",
), stream_basename)

DIRNAME = with_stream(CommandSpec(
    name="dirname",
    summary="Strip the last component from path names.",
    usage=DIRNAME_USAGE,
    details=("Prints each NAME without its last component and trailing slashes: `.` when NAME has no "
             "slash, `/` when only the root is left; -z ends lines with NUL. The file system is not "
             "consulted.\n"
             "Examples:\n  dirname /logs/app.log\n  dirname notes/todo.txt /a/b/\n"
             '  cd "$(dirname /reports/2026/q1.md)"'),
    group="fs", handler=cmd_dirname,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=("/a/b.txt",), kind="read",
), stream_dirname)

COMMANDS = [BASENAME, DIRNAME]
