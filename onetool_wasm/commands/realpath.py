"""realpath and readlink: canonical absolute paths over the virtual file system, as GNU
coreutils prints them.

The VFS has no symbolic links, so a path's canonical form is its components walked from
the working directory (`.` dropped, `..` up one), checked as GNU checks them: by default
every component but the last must exist (a directory), -e: all of them, -m: none. readlink
without -f/-e/-m prints a link's target: nothing here is a link, so it fails quietly.
"""
from __future__ import annotations

from ..result import CommandResult
from .helpers import FS_ERRORS
from .options import usage_failure
from .spec import CommandContext, CommandSpec
from .getopt import NONE, REQUIRED, gnu_getopt, result_of

REALPATH_USAGE = "realpath [-e|-m] [-q] [-s] [-z] [--relative-to=DIR] [--relative-base=DIR] FILE..."
READLINK_USAGE = "readlink [-f|-e|-m] [-n] [-q] [-v] [-z] FILE..."
_REALPATH_LONG = {"canonicalize-existing": ("e", NONE), "canonicalize-missing": ("m", NONE),
                  "logical": ("L", NONE), "physical": ("P", NONE), "quiet": ("q", NONE),
                  "strip": ("s", NONE), "no-symlinks": ("s", NONE), "zero": ("z", NONE),
                  "relative-to": ("relative-to", REQUIRED), "relative-base": ("relative-base", REQUIRED)}
_READLINK_LONG = {"canonicalize": ("f", NONE), "canonicalize-existing": ("e", NONE),
                  "canonicalize-missing": ("m", NONE), "no-newline": ("n", NONE), "quiet": ("q", NONE),
                  "silent": ("s", NONE), "verbose": ("v", NONE), "zero": ("z", NONE)}
MISSING_OK, LAST_MAY_MISS, ALL_EXIST = "m", "E", "e"


class PathProblem(Exception):
    """Why a path has no canonical form (GNU's errno words)."""


async def _kind(ctx: CommandContext, path: str) -> str:
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
        kind = await _kind(ctx, "/" + "/".join(current))
        if kind == "file" and (not last or trailing_slash):
            raise PathProblem("Not a directory")
        if not kind and (not last or mode == ALL_EXIST):
            raise PathProblem("No such file or directory")
    return "/" + "/".join(current)


def relative(target: str, base: str) -> str:
    """`target` relative to the directory `base` (both canonical)."""
    target_parts = [p for p in target.split("/") if p]
    base_parts = [p for p in base.split("/") if p]
    common = 0
    while common < min(len(target_parts), len(base_parts)) and target_parts[common] == base_parts[common]:
        common += 1
    parts = [".."] * (len(base_parts) - common) + target_parts[common:]
    return "/".join(parts) or "."


def _within(path: str, base: str) -> bool:
    return base == "/" or path == base or path.startswith(base + "/")


async def cmd_realpath(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    raw, paths = gnu_getopt("realpath", REALPATH_USAGE, args, "emLPqsz", _REALPATH_LONG)
    mode, quiet, end = LAST_MAY_MISS, False, "\n"
    relative_to = relative_base = None
    for key, value in raw:
        if key in "em":
            mode = key
        elif key == "q":
            quiet = True
        elif key == "z":
            end = "\0"
        elif key == "relative-to":
            relative_to = value or ""
        elif key == "relative-base":
            relative_base = value or ""
    if not paths:
        raise usage_failure("realpath", "missing operand", REALPATH_USAGE)
    try:
        base_to = await canonical(ctx, relative_to, mode) if relative_to is not None else None
        base_limit = await canonical(ctx, relative_base, mode) if relative_base is not None else None
    except PathProblem as problem:
        which = relative_to if relative_to is not None else relative_base
        return result_of(b"", [f"realpath: {which}: {problem}"])
    if base_limit is not None and base_to is not None and not _within(base_to, base_limit):
        base_to = None  # GNU: --relative-to outside --relative-base prints absolute paths
    if base_limit is not None and base_to is None:
        base_to = base_limit
    out: list[str] = []
    errors: list[str] = []
    for path in paths:
        try:
            resolved = await canonical(ctx, path, mode)
        except PathProblem as problem:
            if not quiet:
                errors.append(f"realpath: {path}: {problem}")
            else:
                errors.append("")
            continue
        if base_to is not None and (base_limit is None or _within(resolved, base_limit)):
            resolved = relative(resolved, base_to)
        out.append(resolved + end)
    status = 1 if errors else 0
    return result_of("".join(out).encode("utf-8", "surrogateescape"), _lines(ctx, [e for e in errors if e]), status)


def _lines(ctx: CommandContext, errors: list[str]) -> list[str]:
    """GNU prints one error line per operand; the strict grammar wants a single line."""
    return errors if ctx.grammar == "bash" or len(errors) < 2 else ["; ".join(errors)]


async def cmd_readlink(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    raw, paths = gnu_getopt("readlink", READLINK_USAGE, args, "femnqsvz", _READLINK_LONG)
    mode, verbose, newline, end = None, False, True, "\n"
    for key, _ in raw:
        if key == "f":
            mode = LAST_MAY_MISS
        elif key in "em":
            mode = key
        elif key == "n":
            newline = False
        elif key in "qs":
            verbose = False
        elif key == "v":
            verbose = True
        elif key == "z":
            end = "\0"
    if not paths:
        raise usage_failure("readlink", "missing operand", READLINK_USAGE)
    errors: list[str] = []
    if not newline and len(paths) > 1:
        errors.append("readlink: ignoring --no-newline with multiple arguments")
        newline = True
    out: list[str] = []
    status = 0
    for path in paths:
        try:
            if mode is None:
                kind = await _kind(ctx, path)
                raise PathProblem("Invalid argument" if kind else "No such file or directory")
            resolved = await canonical(ctx, path, mode)
        except PathProblem as problem:
            status = 1
            if verbose or ctx.grammar != "bash":  # GNU is silent; our own grammar says why
                errors.append(f"readlink: {path}: {problem}")
            continue
        out.append(resolved + (end if newline else ""))
    return result_of("".join(out).encode("utf-8", "surrogateescape"), _lines(ctx, errors), status)


def _spec(name: str, usage: str, summary: str, details: str, handler) -> CommandSpec:
    return CommandSpec(name=name, summary=summary, usage=usage, details=details, group="fs", handler=handler,
                       accepts_stdin=True, min_args=0, max_args=None, conformance_args=("/",), kind="read")


REALPATH = _spec(
    "realpath", REALPATH_USAGE, "Print the canonical absolute path of files, as GNU realpath.",
    ("Resolves `.`, `..` and repeated slashes against the working directory. Every component but the "
     "last must exist (-e: all, -m: none); -q: no error messages; -z: NUL-terminated; --relative-to=DIR: "
     "print paths relative to DIR.\n"
     "Examples:\n  realpath notes.txt\n  realpath -m ../new/dir\n  realpath --relative-to=/data /data/a/b.txt"),
    cmd_realpath)

READLINK = _spec(
    "readlink", READLINK_USAGE, "Print the canonical path of files (readlink -f), as GNU readlink.",
    ("With -f (or -e / -m, as realpath's), prints the canonical absolute path. Without them it prints "
     "a symbolic link's target: the virtual file system has no links, so it prints nothing and exits 1. "
     "-n: no newline; -v: say why a path failed.\n"
     "Examples:\n  readlink -f ./notes/../a.txt\n  readlink -m /missing/dir\n  cd \"$(dirname \"$(readlink -f x)\")\""),
    cmd_readlink)

COMMANDS = [REALPATH, READLINK]
