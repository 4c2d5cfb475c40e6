"""mkdir: create directories. The bash language speaks GNU coreutils (-p, -v, -m MODE,
silent on success); the strict grammar keeps upstream's `created /x` report."""
from __future__ import annotations

import re

from ...result import CommandResult, err
from ...vfs.paths import path_limit_exceeded
from ..fs_common import FS_ERRORS, fs_failure
from ..getopt import NONE, REQUIRED
from ..spec import CommandContext, CommandSpec
from ._mutate import (done, gnu_options, gnu_result, kind_of, parse_mode, reason, set_mode, single_path,
                      upstream_arity)

MKDIR_USAGE = "mkdir [-p] <path>"
_MKDIR_FLAGS = re.compile(r"-p")
_LONG = {"mode": ("m", REQUIRED), "parents": ("p", NONE), "verbose": ("v", NONE)}


async def cmd_mkdir(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await gnu_mkdir(ctx, args)
    upstream_arity("mkdir", args, 2, MKDIR_USAGE)
    _, path = single_path("mkdir", args, MKDIR_USAGE, _MKDIR_FLAGS)
    try:
        return done(ctx, f"created {await ctx.vfs.mkdir(path, True)}")
    except FS_ERRORS as error:
        if getattr(error, "code", None) == "ENOENT":
            return err(f"mkdir: parent path not found: {error.path}")
        return await fs_failure(ctx, "mkdir", path, error)


async def gnu_mkdir(ctx: CommandContext, args: list[str]) -> CommandResult:
    parsed, operands = gnu_options("mkdir", args, "m:pv", _LONG)
    flags = {key for key, _ in parsed}
    mode = None
    for key, value in parsed:
        if key == "m":
            mode = parse_mode(value or "", 0o777)
            if mode is None:
                return err(f"mkdir: invalid mode '{value}'", 1)
    if not operands:
        return err("mkdir: missing operand\nTry 'mkdir --help' for more information.", 1)
    out: list[str] = []
    errors: list[str] = []
    for path in operands:
        await _one(ctx, path, "p" in flags, mode, out, errors, "v" in flags)
    return gnu_result(out, errors)


async def _one(ctx: CommandContext, path: str, parents: bool, mode: int | None, out: list[str],
               errors: list[str], verbose: bool) -> None:
    kind = await kind_of(ctx, path)
    if kind == "dir" and parents:
        return
    if kind is not None:
        errors.append(f"mkdir: cannot create directory '{path}': File exists")
        return
    if path_limit_exceeded(ctx.vfs.normalize(path)):  # refused before any work (a 20,000-level -p)
        errors.append(f"mkdir: cannot create directory '{path}': File name too long")
        return
    pending = [path]
    if parents:  # each missing ancestor, as written (`a/b/c` makes `a`, `a/b`, then `a/b/c`)
        parts = path.rstrip("/").split("/")
        pending = ["/".join(parts[:count]) for count in range(1, len(parts) + 1) if "/".join(parts[:count])]
    for step in pending:
        here = await kind_of(ctx, step)
        if here == "dir" and step != path:
            continue
        if here == "file" and step != path:
            errors.append(f"mkdir: cannot create directory '{path}': Not a directory")
            return
        parent = ctx.vfs.normalize(step).rsplit("/", 1)[0] or "/"
        parent_kind = await kind_of(ctx, parent)
        if parent_kind != "dir":
            problem = "Not a directory" if parent_kind == "file" else "No such file or directory"
            errors.append(f"mkdir: cannot create directory '{path}': {problem}")
            return
        try:
            await ctx.vfs.mkdir(step, True)
        except FS_ERRORS as error:
            errors.append(f"mkdir: cannot create directory '{path}': {reason(error)}")
            return
        if mode is not None and step == path:
            await set_mode(ctx, step, mode)
        if verbose:
            out.append(f"mkdir: created directory '{step}'")


MKDIR = CommandSpec(
    name="mkdir",
    summary="Create a directory and any missing parents.",
    usage=MKDIR_USAGE,
    details=("Creates missing parents by default. `-p` is accepted as a compatibility alias.\n"
             "Examples:\n  mkdir /reports\n  mkdir -p notes/archive/2026"),
    group="fs",
    handler=cmd_mkdir,
    accepts_stdin=False, min_args=1, conformance_args=("/tmp",), kind="write",
)

COMMANDS = [MKDIR]
