"""unlink: remove exactly one file, as GNU coreutils 9.1 does (no options; a directory, a
missing file or a second operand is an error in GNU's words), in both grammars (upstream has
no unlink)."""
from __future__ import annotations

from ...result import TEXT, CommandResult
from ..fs_common import FS_ERRORS
from ..getopt import NONE
from ..spec import CommandContext, CommandSpec
from ._mutate import gnu_options
from .rmdir import node_kind, quote, quoteaf, resolved, strerror, walk

USAGE = "unlink FILE"
TRY = "Try 'unlink --help' for more information."
_LONG = {"help": ("help", NONE), "version": ("version", NONE)}


async def unlink_file(ctx: CommandContext, path: str) -> str | None:
    """unlink(2): None when removed, else the error code."""
    code, directory, name, slash = await walk(ctx, path)
    if code:
        return code
    if name is None or name in (".", ".."):
        return "EISDIR"
    target = resolved(directory, name)
    kind = await node_kind(ctx, target)
    if kind is None:
        return "ENOENT"
    if kind == "dir":
        return "EISDIR"
    if slash:
        return "ENOTDIR"
    try:
        await ctx.vfs.delete(target)
    except FS_ERRORS as error:
        return getattr(error, "code", None) or "EINVAL"
    return None


async def cmd_unlink(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    parsed, operands = gnu_options("unlink", args, "", _LONG)
    keys = {key for key, _ in parsed}
    if "help" in keys:
        return CommandResult((UNLINK.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    if "version" in keys:
        return CommandResult(b"", "unlink: --version is not supported here; see 'help unlink'", 1, TEXT)
    if not operands:
        return CommandResult(b"", f"unlink: missing operand\n{TRY}", 1, TEXT)
    if len(operands) > 1:
        return CommandResult(b"", f"unlink: extra operand {quote(operands[1])}\n{TRY}", 1, TEXT)
    code = await unlink_file(ctx, operands[0])
    if code is not None:
        return CommandResult(b"", f"unlink: cannot unlink {quoteaf(operands[0])}: {strerror(code)}", 1, TEXT)
    return CommandResult(b"", "", 0, TEXT)


UNLINK = CommandSpec(
    name="unlink",
    summary="Remove one file.",
    usage=USAGE,
    details=("Removes the single FILE named, like `rm FILE` without options: a directory, a missing file "
             "or more than one operand is an error (use `rmdir` or `rm -r` for directories). Errors and "
             "exit statuses are GNU coreutils'.\n"
             "Examples:\n  unlink /tmp/lockfile\n  unlink build/stale.o"),
    group="fs",
    handler=cmd_unlink,
    accepts_stdin=False, min_args=0, conformance_args=("/missing",), kind="write",
)

COMMANDS = [UNLINK]
