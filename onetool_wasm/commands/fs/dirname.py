"""dirname: a path without its last component, GNU's way (`dirname /` is `/`)."""
from __future__ import annotations

from ...result import CommandResult, ok_bytes
from ..lines import with_stream
from ..options import usage_failure
from ..spec import CommandContext, CommandIO, CommandSpec
from ._name_options import name_lines, parse_names


DIRNAME_USAGE = "dirname [-z] NAME..."


def dir_of(name: str) -> str:
    """All but the last component, trailing slashes dropped: `.` when there is no slash,
    `/` when only slashes are left."""
    stripped = name.rstrip("/")
    if "/" not in stripped:
        return "/" if name.startswith("/") else "."
    parent = stripped.rsplit("/", 1)[0].rstrip("/")
    return parent or "/"


def dirname_output(args: list[str]) -> bytes:
    options = parse_names("dirname", DIRNAME_USAGE, args, "z")
    if not options.names:
        raise usage_failure("dirname", "missing operand", DIRNAME_USAGE)
    return name_lines([dir_of(name) for name in options.names], options.zero)


def cmd_dirname(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return ok_bytes(dirname_output(args), "text/plain")


async def stream_dirname(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    await io.stdout.write(dirname_output(args))
    return 0


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


COMMANDS = [DIRNAME]
