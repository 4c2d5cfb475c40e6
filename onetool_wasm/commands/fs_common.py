"""What the fs commands share: option detection, C-locale child listings, and turning a
failed VFS call into the one-line error upstream prints for it."""
from __future__ import annotations

from ..result import CommandResult, err
from ..vfs.errors import VFSError
from ..vfs.paths import child_path, parent_of, path_segments
from .helpers import format_vfs_error
from .registry import c_locale_key
from .spec import CommandContext, CommandFailed

# Errors a file-system call can raise: typed VFS errors, or an OS error a directory
# backend could not translate (a name too long for the host, say).
FS_ERRORS = (VFSError, OSError)


def is_option(arg: str) -> bool:
    """`-x`, `--long`: an option; `-` alone names stdin or a path, never an option."""
    return arg.startswith("-") and arg != "-"


def unknown_option(command: str, option: str, usage: str) -> CommandResult:
    return err(f"{command}: unknown option: {option}. Usage: {usage}")


def entry_name(raw: str) -> str:
    """A listdir entry without the trailing "/" that marks directories."""
    return raw[:-1] if raw.endswith("/") else raw


async def sorted_children(ctx: CommandContext, directory: str) -> list[tuple[str, str, bool]]:
    """(name, path, is_dir) of each child, in C-locale byte order of the names, files and
    directories together (as `LC_ALL=C ls` and `find` print them)."""
    children = [(entry_name(raw), raw.endswith("/")) for raw in await ctx.vfs.listdir(directory)]
    children.sort(key=lambda child: c_locale_key(child[0]))
    return [(name, child_path(directory, name), is_dir) for name, is_dir in children]


async def first_file_in_path(ctx: CommandContext, path: str) -> str | None:
    """The first ancestor-or-self of `path` that is a file (why a parent is not a directory)."""
    current = ""
    for segment in path_segments(ctx.vfs.normalize(path)):
        current += "/" + segment
        try:
            info = await ctx.vfs.stat(current)
        except FS_ERRORS:
            return None  # only ever a hint for a message: never a failure of its own
        if info.exists and not info.is_dir:
            return current
    return None


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
        blocking = await first_file_in_path(ctx, parent_of(normalized))
        if blocking:
            return err(f"{command}: parent is not a directory: {blocking}")
        return err(f"{command}: path already exists: {normalized}")
    if code == "ENOENT":
        missing = getattr(error, "path", "") or parent_of(normalized)
        return err(f"{command}: parent path not found: {missing}. Use: mkdir {missing}")
    return await fs_failure(ctx, command, path, error)


async def stat_or_fail(ctx: CommandContext, command: str, path: str):
    """`vfs.stat(path)`, with a failure (an escaping link, say) ending the command."""
    try:
        return await ctx.vfs.stat(path)
    except FS_ERRORS as error:
        raise CommandFailed(await fs_failure(ctx, command, path, error)) from None
