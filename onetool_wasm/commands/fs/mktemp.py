"""mktemp: create a file or directory with a unique name, as GNU coreutils mktemp does.

The trailing run of at least three X's of TEMPLATE (default `tmp.XXXXXXXXXX` in $TMPDIR or
/tmp) becomes random letters and digits (from the system's secure generator); the name is
printed. -d makes a directory, -u only prints a name, -p DIR / --tmpdir[=DIR] puts the
template in DIR, -t in $TMPDIR first, --suffix=SUFF adds SUFF after the X's, -q keeps
creation failures quiet. The file is created empty, readable only by its owner (0600;
directories 0700) where the file system keeps permission bits. /tmp is made when it is
missing and the default directory is used, since every system has one.
"""
from __future__ import annotations

import secrets
from typing import Sequence

from ...result import TEXT, CommandResult
from ...vfs.errors import VFSError
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = "mktemp [-d] [-u] [-q] [-p DIR | --tmpdir[=DIR] | -t] [--suffix=SUFF] [TEMPLATE]"
DEFAULT_TEMPLATE = "tmp.XXXXXXXXXX"
DEFAULT_TMPDIR = "/tmp"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
TRY = "Try 'mktemp --help' for more information."
ATTEMPTS = 100
_SHORT = "dp:qtu"
_LONG = {"directory": ("d", NONE), "quiet": ("q", NONE), "dry-run": ("u", NONE), "suffix": ("suffix", REQUIRED),
         "tmpdir": ("tmpdir", OPTIONAL), "help": ("help", NONE), "version": ("version", NONE)}
_REASONS = {"ENOENT": "No such file or directory", "ENOTDIR": "Not a directory", "EEXIST": "File exists",
            "EISDIR": "Is a directory"}


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


class _Request:
    def __init__(self) -> None:
        self.directory = False
        self.dry_run = False
        self.quiet = False
        self.t_option = False
        self.use_dir = False
        self.dir_arg: str | None = None
        self.suffix: str | None = None
        self.template: str | None = None
        self.help = False


def parse_args(args: Sequence[str]) -> _Request:
    options, operands = gnu_getopt("mktemp", USAGE, list(args), _SHORT, _LONG)
    request = _Request()
    for key, value in options:
        if key == "d":
            request.directory = True
        elif key == "u":
            request.dry_run = True
        elif key == "q":
            request.quiet = True
        elif key == "t":
            request.t_option = request.use_dir = True
        elif key in ("p", "tmpdir"):
            request.use_dir = True
            request.dir_arg = value
        elif key == "suffix":
            request.suffix = value
        elif key == "help":
            request.help = True
        else:
            raise usage_failure("mktemp", "--version is not supported", USAGE)
    if len(operands) > 1:
        raise _failure("mktemp: too many templates", TRY)
    if operands:
        request.template = operands[0]
    else:
        request.use_dir = True
    return request


def _quote(text: str) -> str:
    return f"'{text}'"


def _join(directory: str, name: str) -> str:
    """gnulib's file_name_concat: no second slash when DIR ends in one."""
    return directory + name if directory.endswith("/") else f"{directory}/{name}"


def plan(request: _Request, environment: dict[str, str]) -> tuple[str, int, int, bool]:
    """(template with its directory, start of the X's, their count, whether the default
    directory is used): GNU's checks in GNU's order, each failure its message."""
    template = request.template if request.template is not None else DEFAULT_TEMPLATE
    if request.suffix is not None:
        if not template.endswith("X"):
            raise _failure(f"mktemp: with --suffix, template {_quote(template)} must end in X")
        suffix = request.suffix
    else:
        last = template.rfind("X")
        suffix = template[last + 1:] if last >= 0 else ""
        template = template[:len(template) - len(suffix)]
    full = template + suffix
    if "/" in suffix:
        raise _failure(f"mktemp: invalid suffix {_quote(suffix)}, contains directory separator")
    count = len(template) - len(template.rstrip("X"))
    if count < 3:
        raise _failure(f"mktemp: too few X's in template {_quote(full)}")
    default_dir = False
    if request.use_dir:
        tmpdir = environment.get("TMPDIR") or ""
        if request.t_option:
            directory = tmpdir or request.dir_arg or DEFAULT_TMPDIR
            if "/" in full:
                raise _failure(f"mktemp: invalid template, {_quote(full)}, contains directory separator")
        else:
            directory = request.dir_arg or tmpdir or DEFAULT_TMPDIR
            if full.startswith("/"):
                raise _failure(f"mktemp: invalid template, {_quote(full)}; with --tmpdir, it may not be absolute")
        default_dir = directory == DEFAULT_TMPDIR and not request.dir_arg and not tmpdir
        template = _join(directory, template)
    return template + suffix, len(template) - count, count, default_dir


def _letter() -> str:
    return secrets.choice(LETTERS)


def _name(template: str, start: int, count: int) -> str:
    return template[:start] + "".join(_letter() for _ in range(count)) + template[start + count:]


async def _create(ctx: CommandContext, path: str, directory: bool) -> None:
    if directory:
        await ctx.vfs.mkdir(path, False)
    else:
        await ctx.vfs.write_bytes(path, b"", make_parents=False)
    chmod = getattr(ctx.vfs, "chmod", None)
    if chmod is None:
        return
    info = await ctx.vfs.stat(path)
    if getattr(info, "mode", None) is not None:
        await chmod(path, 0o700 if directory else 0o600)


async def cmd_mktemp(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    request = parse_args(args)
    if request.help:
        return CommandResult((MKTEMP.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    template, start, count, default_dir = plan(request, ctx.environment)
    if request.dry_run:
        return CommandResult((_name(template, start, count) + "\n").encode("utf-8", "surrogateescape"), "", 0, TEXT)
    what = "directory" if request.directory else "file"
    if default_dir and not await ctx.vfs.exists(DEFAULT_TMPDIR):
        await ctx.vfs.mkdir(DEFAULT_TMPDIR, True)
    code = "EEXIST"
    for _ in range(ATTEMPTS):
        name = _name(template, start, count)
        try:
            if await ctx.vfs.exists(name):
                continue
            await _create(ctx, name, request.directory)
        except FS_ERRORS as error:
            code = error.code if isinstance(error, VFSError) else "EIO"
            break
        return CommandResult((name + "\n").encode("utf-8", "surrogateescape"), "", 0, TEXT)
    reason = _REASONS.get(code, "Input/output error" if code == "EIO" else code)
    message = "" if request.quiet else f"mktemp: failed to create {what} via template {_quote(template)}: {reason}"
    return CommandResult(b"", message, 1, TEXT)


def mktemp_kind(args: Sequence[str]) -> str:
    """-u (a dry run) only prints a name; otherwise a file or directory is made."""
    try:
        return "read" if parse_args(args).dry_run else "write"
    except CommandFailed:
        return "read"  # a bad command line creates nothing


MKTEMP = CommandSpec(
    name="mktemp",
    summary="Create a temporary file or directory with a unique name and print it (GNU mktemp).",
    usage=USAGE,
    details=("Creates an empty file (or with -d a directory) named after TEMPLATE, whose trailing run "
             "of at least three X's becomes random letters and digits, and prints its path. Without "
             "TEMPLATE: /tmp/tmp.XXXXXXXXXX ($TMPDIR instead of /tmp when set). -p DIR / --tmpdir[=DIR]: "
             "TEMPLATE inside DIR; -t: inside $TMPDIR (or DIR, or /tmp); --suffix=SUFF: SUFF after the "
             "X's; -u: print a name, create nothing; -q: no message when creation fails.\n"
             "Examples:\n  f=$(mktemp) && sort data.txt > \"$f\" && mv \"$f\" data.txt\n  d=$(mktemp -d)\n"
             "  mktemp -p /work report.XXXXXX --suffix=.md\n  mktemp --tmpdir build.XXXX"),
    group="fs", handler=cmd_mktemp,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind=mktemp_kind,
)

COMMANDS = [MKTEMP]
