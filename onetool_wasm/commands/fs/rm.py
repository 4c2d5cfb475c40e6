"""rm: remove files and directories. The bash language speaks GNU coreutils (-r, -f, -d,
-i, -v; silent on success); the strict grammar keeps upstream's always-recursive rm."""
from __future__ import annotations

import re

from ...result import CommandResult, err, ok
from ..fs_common import FS_ERRORS, fs_failure
from ..getopt import NONE, OPTIONAL
from ..spec import CommandContext, CommandSpec
from ._mutate import done, gnu_options, kind_of, reason, single_path, upstream_arity

RM_USAGE = "rm [-r|-R] <path>"
_RM_FLAGS = re.compile(r"-[rRf]+")
_LONG = {"dir": ("d", NONE), "force": ("f", NONE), "interactive": ("i", OPTIONAL), "recursive": ("r", NONE),
         "verbose": ("v", NONE), "no-preserve-root": ("no-preserve-root", NONE),
         "preserve-root": ("preserve-root", OPTIONAL)}


async def cmd_rm(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    # Recursive always (upstream); -f, alone or bundled (`rm -rf`), makes a missing path no error.
    if ctx.grammar == "bash":
        return await gnu_rm(ctx, args)
    upstream_arity("rm", args, 2, RM_USAGE)
    flags, path = single_path("rm", args, RM_USAGE, _RM_FLAGS)
    try:
        return done(ctx, f"removed {await ctx.vfs.delete(path)}")
    except FS_ERRORS as error:
        code = getattr(error, "code", None)
        if code == "ENOENT":
            return ok() if "f" in flags else err(f"rm: path not found: {ctx.vfs.normalize(path)}")
        if code == "EROOT":
            return err("rm: cannot delete root: /")
        return await fs_failure(ctx, "rm", path, error)


async def gnu_rm(ctx: CommandContext, args: list[str]) -> CommandResult:
    """GNU rm with no terminal: -i asks on stderr, reads no answer and keeps the file."""
    parsed, operands = gnu_options("rm", args, "dfiIrRv", _LONG)
    flags: set[str] = set()
    prompt = False
    for key, value in parsed:
        flags.add(key)
        if key == "f":
            prompt = False
        elif key == "i":
            prompt = value in (None, "always", "yes")
    if not operands:
        if "f" in flags:
            return ok()
        return err("rm: missing operand\nTry 'rm --help' for more information.", 1)
    recursive = bool(flags & {"r", "R"})
    out: list[str] = []
    stderr: list[str] = []
    failed = False
    for path in operands:
        kind = await kind_of(ctx, path)
        name = path.rstrip("/").rsplit("/", 1)[-1]
        if name in (".", ".."):
            stderr.append(f"rm: refusing to remove '.' or '..' directory: skipping '{path}'\n")
            failed = True
            continue
        if kind is None:
            if "f" not in flags:
                stderr.append(f"rm: cannot remove '{path}': No such file or directory\n")
                failed = True
            continue
        if ctx.vfs.normalize(path) == "/" and recursive:
            stderr.append("rm: it is dangerous to operate recursively on '/'\n"
                          "rm: use --no-preserve-root to override this failsafe\n")
            failed = True
            continue
        if kind == "dir" and not recursive:
            if "d" not in flags:
                stderr.append(f"rm: cannot remove '{path}': Is a directory\n")
                failed = True
                continue
            if await ctx.vfs.listdir(path):
                stderr.append(f"rm: cannot remove '{path}': Directory not empty\n")
                failed = True
                continue
        if prompt:
            if kind == "dir":
                stderr.append(f"rm: {'descend into' if recursive and await ctx.vfs.listdir(path) else 'remove'} "
                              f"directory '{path}'? ")
            else:
                empty = (await ctx.vfs.stat(path)).size == 0
                stderr.append(f"rm: remove regular {'empty ' if empty else ''}file '{path}'? ")
            continue
        removed = await _removed_names(ctx, path, kind) if "v" in flags else []
        try:
            await ctx.vfs.delete(path)
        except FS_ERRORS as error:
            stderr.append(f"rm: cannot remove '{path}': {reason(error)}\n")
            failed = True
            continue
        out.extend(removed)
    stdout = "".join(line + "\n" for line in out).encode()
    return CommandResult(stdout, "".join(stderr).rstrip("\n"), 1 if failed else 0)


async def _removed_names(ctx: CommandContext, path: str, kind: str) -> list[str]:
    """-v's lines: every file, then each directory after its contents (depth first)."""
    if kind != "dir":
        return [f"removed '{path}'"]
    lines: list[str] = []
    for raw in await ctx.vfs.listdir(path):
        child = f"{path.rstrip('/')}/{raw.rstrip('/')}"
        lines.extend(await _removed_names(ctx, child, "dir" if raw.endswith("/") else "file"))
    lines.append(f"removed directory '{path}'")
    return lines


RM = CommandSpec(
    name="rm",
    summary="Delete a file or directory recursively.",
    usage=RM_USAGE,
    details=("Removes files and directories recursively by default. "
             "`-r` and `-R` are accepted as compatibility aliases.\n"
             "Examples:\n  rm /tmp/out.txt\n  rm -r /scratch"),
    group="fs",
    handler=cmd_rm,
    accepts_stdin=False, min_args=1, conformance_args=("/missing",), kind="write",
)

COMMANDS = [RM]
