"""readlink: the VFS has no links, so `readlink FILE` fails as for a non-link and `-f/-e/-m`
canonicalize as GNU does."""
from __future__ import annotations

from ...result import CommandResult
from ..options import usage_failure
from ..spec import CommandContext
from ..getopt import NONE, gnu_getopt, result_of
from ._canonical import LAST_MAY_MISS, PathProblem, canonical, error_lines, path_kind, path_spec


READLINK_USAGE = "readlink [-f|-e|-m] [-n] [-q] [-v] [-z] FILE..."


_READLINK_LONG = {"canonicalize": ("f", NONE), "canonicalize-existing": ("e", NONE),
                  "canonicalize-missing": ("m", NONE), "no-newline": ("n", NONE), "quiet": ("q", NONE),
                  "silent": ("s", NONE), "verbose": ("v", NONE), "zero": ("z", NONE)}


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
                kind = await path_kind(ctx, path)
                raise PathProblem("Invalid argument" if kind else "No such file or directory")
            resolved = await canonical(ctx, path, mode)
        except PathProblem as problem:
            status = 1
            if verbose or ctx.grammar != "bash":  # GNU is silent; our own grammar says why
                errors.append(f"readlink: {path}: {problem}")
            continue
        out.append(resolved + (end if newline else ""))
    return result_of("".join(out).encode("utf-8", "surrogateescape"), error_lines(ctx, errors), status)


READLINK = path_spec(
    "readlink", READLINK_USAGE, "Print the canonical path of files (readlink -f), as GNU readlink.",
    ("With -f (or -e / -m, as realpath's), prints the canonical absolute path. Without them it prints "
     "a symbolic link's target: the virtual file system has no links, so it prints nothing and exits 1. "
     "-n: no newline; -v: say why a path failed.\n"
     "Examples:\n  readlink -f ./notes/../a.txt\n  readlink -m /missing/dir\n  cd \"$(dirname \"$(readlink -f x)\")\""),
    cmd_readlink)


COMMANDS = [READLINK]
