"""Helpers for writing commands: uniform errors and input loading.

Input helpers return the value or raise CommandFailed with a ready-made error
result; `invoke_command` turns that into the command's result, so handlers read
straight through: `text = await read_text_input(ctx, "wc", path, stdin)`.
"""
from __future__ import annotations

from typing import Any

from ..result import OCTET, TEXT, CommandResult, err
from ..textutil import format_size, looks_binary
from ..vfs.errors import VFSError
from ..vfs.paths import parent_of, path_segments
from ..jsonparse import parse_json_text
from .spec import CommandContext, CommandFailed

# Errors a file-system call can raise: typed VFS errors, or an OS error a directory
# backend could not translate (a name too long for the host, say).
FS_ERRORS = (VFSError, OSError)


# What GNU tools print for the errno behind a VFS error code.
GNU_ERRORS = {"ENOENT": "No such file or directory", "EISDIR": "Is a directory", "ENOTDIR": "Not a directory",
              "ENAMETOOLONG": "File name too long", "EACCES": "Permission denied"}


def line_end(ctx: CommandContext) -> str:
    """A message line's end: the bash language joins outputs as they are, so a message ends
    in a newline there; the strict grammar's chain adds its own."""
    return "\n" if ctx.grammar == "bash" else ""


def fail(message: str, exit_code: int = 1) -> CommandFailed:
    """`raise fail(...)` ends the command with this one-line error."""
    return CommandFailed(err(message, exit_code))


def usage_error(command: str, usage: str, exit_code: int = 1) -> CommandResult:
    return err(f"{command}: usage: {usage}", exit_code)


def missing_adapter_error(command: str, adapter: str) -> CommandResult:
    return err(f"{command}: no {adapter} adapter configured. "
               f"Pass {{ adapters: {{ {adapter}: ... }} }} to createAgentCLI(...) to use this command.")


def no_input_error(command: str) -> CommandResult:
    return err(f"{command}: no input provided. Usage: see 'help {command}'")


async def format_vfs_error(ctx: CommandContext, command: str, path: str, error: BaseException, *,
                           not_found_label: str = "path not found", not_found_hint: str | None = None,
                           directory_label: str = "path is a directory",
                           directory_hint: str | None = None) -> CommandResult:
    """One line that names the command, the path and what to run next. In the bash
    language, GNU's words instead (`cat: x: No such file or directory`): scripts test them."""
    normalized = ctx.vfs.normalize(path)
    code = getattr(error, "code", None) if isinstance(error, VFSError) else None
    if ctx.grammar == "bash" and code in GNU_ERRORS:
        return err(f"{command}: {path}: {GNU_ERRORS[code]}")
    if code == "ENOENT":
        hint = not_found_hint if not_found_hint is not None else f"ls {parent_of(normalized)}"
        return err(f"{command}: {not_found_label}: {normalized}{_hint(hint)}")
    if code == "EISDIR":
        hint = directory_hint if directory_hint is not None else f"ls {normalized}"
        return err(f"{command}: {directory_label}: {normalized}{_hint(hint)}")
    if code == "ENOTDIR":
        parent = parent_of(normalized)
        return err(f"{command}: parent is not a directory: {await first_file_in_path(ctx, parent) or parent}")
    if code == "EESCAPE":
        return err(f"{command}: path escapes workspace root: {error.path or normalized}")
    if code == "EEXIST":
        return err(f"{command}: path already exists: {normalized}")
    if code == "ERESOURCE_LIMIT":
        return err(f"{command}: {error.message}")
    return err(f"{command}: {error}")


def _hint(hint: str) -> str:
    return f". Use: {hint}" if hint else ""


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


def check_materialized(ctx: CommandContext, command: str, subject: str, size: int) -> None:
    """Refuse to load more than the execution policy's max_materialized_bytes."""
    limit = ctx.max_materialized_bytes
    if limit is not None and size > limit:
        raise fail(f"{command}: input exceeds max materialized size "
                   f"({format_size(size)} > {format_size(limit)}): {subject}")


async def read_file_bytes(ctx: CommandContext, command: str, path: str) -> bytes:
    """A regular file's bytes: a missing path or a directory raises VFSError (ENOENT,
    EISDIR) for the caller to word, a file over max_materialized_bytes CommandFailed."""
    normalized = ctx.vfs.normalize(path)
    info = await ctx.vfs.stat(path)
    if not info.exists:
        raise VFSError("ENOENT", normalized)
    if info.is_dir:
        raise VFSError("EISDIR", normalized)
    check_materialized(ctx, command, normalized, info.size)
    return await ctx.vfs.read_bytes(path)


async def read_bytes_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> bytes:
    """A file's bytes when a path is given, else stdin; errors name the command."""
    if path is not None:
        try:
            return await read_file_bytes(ctx, command, path)
        except VFSError as error:
            raise CommandFailed(await format_vfs_error(ctx, command, path, error,
                                                       not_found_label="file not found")) from None
    if stdin:
        check_materialized(ctx, command, "stdin", len(stdin))
        return stdin
    if ctx.stdin_is_pipe:
        return b""  # an empty pipe is empty input, as for GNU tools (`: | sort` prints nothing)
    raise CommandFailed(no_input_error(command))


def shown_path(ctx: CommandContext, path: str) -> str:
    """How a command names a file operand: as written in the bash language (`wc -l a.txt`
    prints `a.txt`), normalized in the strict grammar."""
    return path if ctx.grammar == "bash" else ctx.vfs.normalize(path)


async def read_text_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> str:
    """A file's text when a path is given, else stdin text; binary input is refused."""
    data = await read_bytes_input(ctx, command, path, stdin)
    if looks_binary(data):
        source = ctx.vfs.normalize(path) if path is not None else None
        raise fail(binary_input_message(command, source, len(data)))
    return data.decode("utf-8", errors="replace")


def binary_input_message(command: str, source: str | None, size: int) -> str:
    """Why binary input is refused: `source` is the file's path, None for stdin."""
    if source is None:
        return (f"{command}: stdin is binary ({format_size(size)}). "
                "Pipe text only, or save binary data to a file and inspect with stat.")
    return f"{command}: binary file ({format_size(size)}): {source}. Use: stat {source}"


def content_type_for(data: bytes) -> str:
    """The content type of a command's byte output: octet-stream when it looks binary."""
    return OCTET if looks_binary(data) else TEXT


async def read_json_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> Any:
    """The JSON value of a file (or stdin), parsed as strictly as JSON.parse."""
    text = await read_text_input(ctx, command, path, stdin)
    try:
        return parse_json_text(text)
    except ValueError as error:
        where = f" in {ctx.vfs.normalize(path)}" if path is not None else ""
        raise fail(f"{command}: invalid JSON{where}: {error}") from None


def bounded_int(digits: str, limit: int = 10**15) -> int:
    """int() of a validated digit string, clamped: Python refuses to parse over 4300 digits."""
    if len(digits.lstrip("+-").lstrip("0")) > 16:
        return -limit if digits.startswith("-") else limit
    return max(-limit, min(limit, int(digits)))
