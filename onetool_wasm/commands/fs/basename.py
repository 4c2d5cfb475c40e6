"""basename: a path's last component, a suffix removed (`-s`, or the second operand), GNU's way."""
from __future__ import annotations

from ...result import CommandResult, ok_bytes
from ..lines import with_stream
from ..options import usage_failure
from ..spec import CommandContext, CommandIO, CommandSpec
from ._name_options import name_lines, parse_names


BASENAME_USAGE = "basename NAME [SUFFIX] | basename -a [-s SUFFIX] [-z] NAME..."


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


def basename_output(args: list[str]) -> bytes:
    options = parse_names("basename", BASENAME_USAGE, args, "asz")
    names = options.names
    if not names:
        raise usage_failure("basename", "missing operand", BASENAME_USAGE)
    if options.multiple:
        return name_lines([base_of(name, options.suffix) for name in names], options.zero)
    if len(names) > 2:
        raise usage_failure("basename", f"extra operand '{names[2]}'", BASENAME_USAGE)
    return name_lines([base_of(names[0], names[1] if len(names) == 2 else "")], options.zero)


def cmd_basename(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return ok_bytes(basename_output(args), "text/plain")


async def stream_basename(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    await io.stdout.write(basename_output(args))
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


COMMANDS = [BASENAME]
