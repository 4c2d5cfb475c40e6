"""realpath: canonical absolute paths, `--relative-to`/`--relative-base`, GNU coreutils' options."""
from __future__ import annotations

from ...result import CommandResult
from ..options import usage_failure
from ..spec import CommandContext
from ..getopt import NONE, REQUIRED, gnu_getopt, result_of
from ._canonical import LAST_MAY_MISS, PathProblem, canonical, error_lines, path_spec


REALPATH_USAGE = "realpath [-e|-m] [-q] [-s] [-z] [--relative-to=DIR] [--relative-base=DIR] FILE..."


_REALPATH_LONG = {"canonicalize-existing": ("e", NONE), "canonicalize-missing": ("m", NONE),
                  "logical": ("L", NONE), "physical": ("P", NONE), "quiet": ("q", NONE),
                  "strip": ("s", NONE), "no-symlinks": ("s", NONE), "zero": ("z", NONE),
                  "relative-to": ("relative-to", REQUIRED), "relative-base": ("relative-base", REQUIRED)}


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
    return result_of("".join(out).encode("utf-8", "surrogateescape"), error_lines(ctx, [e for e in errors if e]), status)


REALPATH = path_spec(
    "realpath", REALPATH_USAGE, "Print the canonical absolute path of files, as GNU realpath.",
    ("Resolves `.`, `..` and repeated slashes against the working directory. Every component but the "
     "last must exist (-e: all, -m: none); -q: no error messages; -z: NUL-terminated; --relative-to=DIR: "
     "print paths relative to DIR.\n"
     "Examples:\n  realpath notes.txt\n  realpath -m ../new/dir\n  realpath --relative-to=/data /data/a/b.txt"),
    cmd_realpath)


COMMANDS = [REALPATH]
