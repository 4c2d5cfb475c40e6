"""What realpath and readlink share: a path's canonical form over the VFS (which has no links,
so canonical means absolute, normalized and, by mode, existing), GNU's error words, the spec shape."""
from __future__ import annotations

from ..helpers import FS_ERRORS
from ..spec import CommandContext, CommandSpec


MISSING_OK, LAST_MAY_MISS, ALL_EXIST = "m", "E", "e"


class PathProblem(Exception):
    """Why a path has no canonical form (GNU's errno words)."""


async def path_kind(ctx: CommandContext, path: str) -> str:
    """"dir", "file" or "" (missing)."""
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        return ""
    if not info.exists:
        return ""
    return "dir" if info.is_dir else "file"


async def canonical(ctx: CommandContext, path: str, mode: str) -> str:
    """The absolute, `.`/`..`-free form of `path`, its components checked per `mode`."""
    if not path:
        raise PathProblem("No such file or directory")
    parts = [part for part in path.split("/") if part]
    current = [] if path.startswith("/") else [p for p in ctx.vfs.normalize(".").split("/") if p]
    trailing_slash = path.endswith("/")
    for index, part in enumerate(parts):
        if part == ".":
            continue
        if part == "..":
            if current:
                current.pop()
            continue
        current.append(part)
        last = index == len(parts) - 1
        if mode == MISSING_OK:
            continue
        kind = await path_kind(ctx, "/" + "/".join(current))
        if kind == "file" and (not last or trailing_slash):
            raise PathProblem("Not a directory")
        if not kind and (not last or mode == ALL_EXIST):
            raise PathProblem("No such file or directory")
    return "/" + "/".join(current)


def error_lines(ctx: CommandContext, errors: list[str]) -> list[str]:
    """GNU prints one error line per operand; the strict grammar wants a single line."""
    return errors if ctx.grammar == "bash" or len(errors) < 2 else ["; ".join(errors)]


def path_spec(name: str, usage: str, summary: str, details: str, handler) -> CommandSpec:
    return CommandSpec(name=name, summary=summary, usage=usage, details=details, group="fs", handler=handler,
                       accepts_stdin=True, min_args=0, max_args=None, conformance_args=("/",), kind="read")

