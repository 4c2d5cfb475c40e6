"""Helpers for writing commands: uniform errors and input loading.

Input helpers return the value or raise CommandFailed with a ready-made error
result; `invoke_command` turns that into the command's result, so handlers read
straight through: `text = await read_text_input(ctx, "wc", path, stdin)`.
"""
from __future__ import annotations

import json
from typing import Any, Sequence

from ..result import CommandResult, err
from ..textutil import format_size, looks_binary
from ..vfs.errors import VFSError
from ..vfs.paths import parent_of
from .spec import CommandContext, CommandFailed


def usage_error(command: str, usage: str, exit_code: int = 1) -> CommandResult:
    return err(f"{command}: usage: {usage}", exit_code)


def stdin_not_accepted_error(command: str) -> CommandResult:
    return err(f"{command}: does not accept stdin")


def missing_adapter_error(command: str, adapter: str) -> CommandResult:
    return err(f"{command}: no {adapter} adapter configured. "
               f"Pass {{ adapters: {{ {adapter}: ... }} }} to createAgentCLI(...) to use this command.")


def no_input_error(command: str) -> CommandResult:
    return err(f"{command}: no input provided. Usage: see 'help {command}'")


async def format_vfs_error(ctx: CommandContext, command: str, path: str, error: BaseException, *,
                           not_found_label: str = "path not found", not_found_hint: str | None = None,
                           directory_label: str = "path is a directory",
                           directory_hint: str | None = None) -> CommandResult:
    """One line that names the command, the path and what to run next."""
    normalized = ctx.vfs.normalize(path)
    code = getattr(error, "code", None) if isinstance(error, VFSError) else None
    if code == "ENOENT":
        hint = not_found_hint if not_found_hint is not None else f"ls {parent_of(normalized)}"
        return err(f"{command}: {not_found_label}: {normalized}{_hint(hint)}")
    if code == "EISDIR":
        hint = directory_hint if directory_hint is not None else f"ls {normalized}"
        return err(f"{command}: {directory_label}: {normalized}{_hint(hint)}")
    if code == "ENOTDIR":
        return err(f"{command}: parent is not a directory: {await _blocking_parent(ctx, normalized)}")
    if code == "EESCAPE":
        return err(f"{command}: path escapes workspace root: {error.path or normalized}")
    if code == "EEXIST":
        return err(f"{command}: path already exists: {normalized}")
    if code == "ERESOURCE_LIMIT":
        return err(resource_limit_message(command, error))
    return err(f"{command}: {error}")


def resource_limit_message(command: str, error: VFSError) -> str:
    details = error.details or {}
    kind = details.get("limitKind", "resource limit")
    if isinstance(details.get("limit"), int) and isinstance(details.get("actual"), int):
        return f"{command}: resource limit exceeded ({kind}: {details['actual']} > {details['limit']}) at {error.path}"
    return f"{command}: resource limit exceeded ({kind}) at {error.path}"


def _hint(hint: str) -> str:
    return f". Use: {hint}" if hint else ""


async def _blocking_parent(ctx: CommandContext, path: str) -> str:
    """The first ancestor that is a file (the reason for ENOTDIR), else the parent."""
    current = ""
    for segment in [s for s in parent_of(path).split("/") if s]:
        current += f"/{segment}"
        info = await ctx.vfs.stat(current)
        if info.exists and not info.is_dir:
            return current
    return parent_of(path)


def check_materialized(ctx: CommandContext, command: str, subject: str, size: int) -> None:
    """Refuse to load more than the execution policy's max_materialized_bytes."""
    limit = ctx.max_materialized_bytes
    if limit is not None and size > limit:
        raise CommandFailed(err(f"{command}: input exceeds max materialized size "
                                f"({format_size(size)} > {format_size(limit)}): {subject}"))


async def read_bytes_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> bytes:
    """A file's bytes when a path is given, else stdin; errors name the command."""
    if path is not None:
        normalized = ctx.vfs.normalize(path)
        try:
            info = await ctx.vfs.stat(path)
            if not info.exists:
                raise VFSError("ENOENT", normalized)
            if info.is_dir:
                raise VFSError("EISDIR", normalized)
            check_materialized(ctx, command, normalized, info.size)
            return await ctx.vfs.read_bytes(path)
        except VFSError as error:
            raise CommandFailed(await format_vfs_error(ctx, command, path, error,
                                                       not_found_label="file not found")) from None
    if stdin:
        check_materialized(ctx, command, "stdin", len(stdin))
        return stdin
    raise CommandFailed(no_input_error(command))


async def read_text_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> str:
    """A file's text when a path is given, else stdin text; binary input is refused."""
    data = await read_bytes_input(ctx, command, path, stdin)
    if looks_binary(data):
        if path is not None:
            normalized = ctx.vfs.normalize(path)
            raise CommandFailed(err(f"{command}: binary file ({format_size(len(data))}): {normalized}. "
                                    f"Use: stat {normalized}"))
        raise CommandFailed(err(f"{command}: stdin is binary ({format_size(len(data))}). "
                                "Pipe text only, or save binary data to a file and inspect with stat."))
    return data.decode("utf-8", errors="replace")


async def read_json_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> Any:
    text = await read_text_input(ctx, command, path, stdin)
    try:
        return json.loads(text)
    except ValueError as error:
        source = ctx.vfs.normalize(path) if path is not None else "stdin"
        raise CommandFailed(err(f"{command}: invalid JSON in {source}: {error}")) from None


def parse_count_flag(command: str, args: Sequence[str], default: int, flag: str = "-n") -> tuple[int, list[str]]:
    """`-n N` at the front of args -> (N, rest); a bad value fails with a clear message."""
    if not args or args[0] != flag:
        return default, list(args)
    if len(args) < 2:
        raise CommandFailed(err(f"{command}: missing value for {flag}"))
    try:
        return int(args[1], 10), list(args[2:])
    except ValueError:
        raise CommandFailed(err(f"{command}: invalid integer for {flag}: {args[1]}")) from None
