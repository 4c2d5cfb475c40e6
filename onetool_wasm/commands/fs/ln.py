"""ln: make links, which this virtual file system does not have.

The command line is read as GNU coreutils ln reads it, and its usage errors are GNU's
(`ln: missing file operand`, a last operand that is not a directory, an unknown option);
a link that GNU would then make is refused, exit 1, with what to do instead: copy the
file (`cp`, `cp -r` for a directory), or use the original path.
"""
from __future__ import annotations

from ...result import TEXT, CommandResult
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = ("ln [OPTION]... [-T] TARGET LINK_NAME | ln [OPTION]... TARGET... DIRECTORY | "
         "ln [OPTION]... -t DIRECTORY TARGET...")
TRY = "Try 'ln --help' for more information."
_SHORT = "bdfFiLnPrsS:t:Tv"
_LONG = {
    "backup": ("b", OPTIONAL), "directory": ("d", NONE), "force": ("f", NONE), "interactive": ("i", NONE),
    "logical": ("L", NONE), "no-dereference": ("n", NONE), "physical": ("P", NONE), "relative": ("r", NONE),
    "symbolic": ("s", NONE), "suffix": ("S", REQUIRED), "target-directory": ("t", REQUIRED),
    "no-target-directory": ("T", NONE), "verbose": ("v", NONE), "help": ("help", NONE), "version": ("version", NONE),
}


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


async def _kind_of(ctx: CommandContext, path: str) -> str | None:
    """"dir", "file", or None when nothing is there."""
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        return None
    if not info.exists:
        return None
    return "dir" if info.is_dir else "file"


def _refusal(symbolic: bool, targets: list[str], name: str) -> str:
    what = "symbolic link" if symbolic else "hard link"
    source = targets[0] if len(targets) == 1 else " ".join(targets)
    return (f"ln: cannot create {what} '{name}': links are not supported by this file system (it has "
            f"no symbolic or hard links); copy instead (cp {source} {name}, or cp -r for a directory), "
            "or use the original path")


async def cmd_ln(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands = gnu_getopt("ln", USAGE, args, _SHORT, _LONG)
    keys = {key for key, _ in options}
    if "help" in keys:
        return CommandResult((LN.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    if "version" in keys:
        raise usage_failure("ln", "--version is not supported", USAGE)
    symbolic = "s" in keys
    directory = next((value for key, value in reversed(options) if key == "t"), None)
    if directory is not None and "T" in keys:
        raise _failure("ln: cannot combine --target-directory and --no-target-directory", TRY)
    if not operands:
        raise _failure("ln: missing file operand", TRY)
    if directory is None and "T" in keys and len(operands) > 2:
        raise _failure(f"ln: extra operand '{operands[2]}'", TRY)
    if directory is not None:
        kind = await _kind_of(ctx, directory)
        if kind is None:
            raise _failure(f"ln: failed to access '{directory}': No such file or directory")
        if kind != "dir":
            raise _failure(f"ln: target '{directory}': Not a directory")
        targets, name = operands, directory
    elif len(operands) > 2:
        last = operands[-1]
        kind = await _kind_of(ctx, last)
        if kind is None:
            raise _failure(f"ln: target '{last}': No such file or directory")
        if kind != "dir":
            raise _failure(f"ln: target '{last}': Not a directory")
        targets, name = operands[:-1], last
    else:
        targets, name = operands[:1], operands[1] if len(operands) == 2 else "."
    if not symbolic:
        for target in targets:
            if await _kind_of(ctx, target) is None:
                raise _failure(f"ln: failed to access '{target}': No such file or directory")
    raise _failure(_refusal(symbolic, targets, name))


LN = CommandSpec(
    name="ln",
    summary="Make links: refused here, this file system has no links (GNU ln's command line).",
    usage=USAGE,
    details=("This virtual file system has no symbolic or hard links, so `ln` and `ln -s` fail (exit 1) "
             "after checking the command line as GNU ln does. Instead, copy the file (cp TARGET NAME, "
             "cp -r for a directory) or use the original path where the link would have pointed.\n"
             "Examples:\n  cp config.example.json config.json      (instead of ln -s)\n"
             "  cp -r /data/shared /work/shared         (instead of ln -s /data/shared /work/shared)"),
    group="fs", handler=cmd_ln,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="write",
)

COMMANDS = [LN]
