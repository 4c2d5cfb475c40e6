"""What the fs commands share: C-locale child listings, listing results, and turning a
failed VFS call into the one-line error upstream prints for it."""
from __future__ import annotations

from typing import Awaitable, Callable

from ..result import CommandResult, err
from ..vfs.base import VFSStat
from ..vfs.errors import VFSError
from ..vfs.paths import child_path, parent_of
from .helpers import FS_ERRORS, first_file_in_path, format_vfs_error
from .registry import c_locale_key
from .spec import CommandContext, CommandFailed


def entry_name(raw: str) -> str:
    """A listdir entry without the trailing "/" that marks directories."""
    return raw[:-1] if raw.endswith("/") else raw


async def sorted_children(ctx: CommandContext, directory: str) -> list[tuple[str, str, bool]]:
    """(name, path, is_dir) of each child, in C-locale byte order of the names, files and
    directories together (as `LC_ALL=C ls` and `find` print them)."""
    children = [(entry_name(raw), raw.endswith("/")) for raw in await ctx.vfs.listdir(directory)]
    children.sort(key=lambda child: c_locale_key(child[0]))
    return [(name, child_path(directory, name), is_dir) for name, is_dir in children]


async def fs_failure(ctx: CommandContext, command: str, path: str, error: BaseException) -> CommandResult:
    """The generic error line for a failed call on `path` (not found, escape, limits...)."""
    if isinstance(error, VFSError):
        if error.code == "EINVAL":
            return err(f"{command}: invalid path: {ctx.vfs.normalize(path)}")
        return await format_vfs_error(ctx, command, path, error)
    reason = getattr(error, "strerror", None) or str(error)
    return err(f"{command}: {reason}: {ctx.vfs.normalize(path)}")


async def file_write_failure(ctx: CommandContext, command: str, path: str, error: BaseException) -> CommandResult:
    """Why writing the file `path` failed, worded as upstream's write and append word it."""
    code = getattr(error, "code", None)
    normalized = ctx.vfs.normalize(path)
    if code == "EEXIST":
        return await exists_failure(ctx, command, normalized, "path")
    if code == "ENOENT":
        missing = getattr(error, "path", "") or parent_of(normalized)
        return err(f"{command}: parent path not found: {missing}. Use: mkdir {missing}")
    return await fs_failure(ctx, command, path, error)


async def visit_operands(ctx: CommandContext, command: str, operands: list[str],
                         visit: Callable[[VFSStat], Awaitable[None]]) -> list[str]:
    """`visit` each operand that exists, in order; returns the missing ones, normalized. A
    failed VFS call (while statting or visiting) ends the command naming that operand."""
    missing: list[str] = []
    for operand in operands:
        try:
            info = await ctx.vfs.stat(operand)
            if not info.exists:
                missing.append(ctx.vfs.normalize(operand))
                continue
            await visit(info)
        except FS_ERRORS as error:
            raise CommandFailed(await fs_failure(ctx, command, operand, error)) from None
    return missing


def listing_result(command: str, output: str, missing: list[str]) -> CommandResult:
    """What ls, find and tree print; operands that were not found are reported beside it (exit 1)."""
    stdout = output.encode("utf-8")
    if missing:
        return CommandResult(stdout=stdout, stderr=f"{command}: path not found: {', '.join(missing)}", exit_code=1)
    return CommandResult(stdout=stdout)


async def exists_failure(ctx: CommandContext, command: str, target: str, what: str) -> CommandResult:
    """EEXIST on `target`: often a file where a parent directory should be, else the
    `what` (path, destination) itself is taken."""
    blocking = await first_file_in_path(ctx, parent_of(target))
    if blocking:
        return err(f"{command}: parent is not a directory: {blocking}")
    return err(f"{command}: {what} already exists: {target}")


async def stat_or_fail(ctx: CommandContext, command: str, path: str) -> VFSStat:
    """`vfs.stat(path)`, with a failure (an escaping link, say) ending the command."""
    try:
        return await ctx.vfs.stat(path)
    except FS_ERRORS as error:
        raise CommandFailed(await fs_failure(ctx, command, path, error)) from None
