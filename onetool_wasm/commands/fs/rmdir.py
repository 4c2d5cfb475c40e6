"""rmdir: remove empty directories, as GNU coreutils 9.1 does (-p, -v,
--ignore-fail-on-non-empty) with its messages and exit statuses, in both grammars (upstream
has no rmdir). Also the path walk and the file-name quoting that unlink and truncate share:
each directory on the way is looked up as the kernel does (`missing/..` is ENOENT, `file/x`
ENOTDIR), and names are quoted as GNU's quoteaf quotes them ('a b', "it's", 'a'$'\\n''b')."""
from __future__ import annotations

from ...result import TEXT, CommandResult
from ...vfs.paths import path_limit_exceeded
from ..fs_common import FS_ERRORS
from ..getopt import NONE
from ..spec import CommandContext, CommandSpec
from ._mutate import gnu_options

USAGE = "rmdir [-p] [-v] [--ignore-fail-on-non-empty] DIRECTORY..."
_LONG = {"ignore-fail-on-non-empty": ("ignore", NONE), "path": ("p", NONE), "parents": ("p", NONE),
         "verbose": ("v", NONE), "help": ("help", NONE), "version": ("version", NONE)}

# strerror(3) under LC_ALL=C, by the codes the walk and the VFS give.
STRERROR = {"ENOENT": "No such file or directory", "ENOTDIR": "Not a directory", "EISDIR": "Is a directory",
            "ENOTEMPTY": "Directory not empty", "EINVAL": "Invalid argument", "EBUSY": "Device or resource busy",
            "EEXIST": "File exists", "EACCES": "Permission denied", "ENAMETOOLONG": "File name too long",
            "EFBIG": "File too large"}


def strerror(error: BaseException | str) -> str:
    code = error if isinstance(error, str) else getattr(error, "code", None)
    if code in STRERROR:
        return STRERROR[code]
    return getattr(error, "message", None) or str(error)


# -- quoting: gnulib's shell_escape_always_quoting_style in the C locale ---------------------------

_C_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}
# Bytes gnulib finds safe both in C and in shell double quotes ('#' and '~' only first).
_COMPAT = set(b" %+,-./:]_{}'@") | set(range(48, 58)) | set(range(65, 91)) | set(range(97, 123))


def _compat(index: int, byte: int) -> bool:
    if byte in (35, 126):  # '#', '~'
        return index == 0
    return byte in _COMPAT


def _shell_pass(data: bytes, pending: bool) -> tuple[str, bool]:
    """One pass of shell_always quoting with backslash escapes: a non-printable byte as
    $'\\n' or $'\\303', a single quote as '\\''. `pending`: a $'...' is open."""
    out = ["'"]
    for byte in data:
        if byte == 39:
            out.append("'\\''")
            pending = False
        elif 32 <= byte < 127:
            if pending:
                out.append("''")
                pending = False
            out.append(chr(byte))
        else:
            if not pending:
                out.append("'$'")
                pending = True
            out.append("\\" + (_C_ESCAPES.get(byte) or f"{byte:03o}"))
    out.append("'")
    return "".join(out), pending


def quoteaf(name: str) -> str:
    """A file name as GNU coreutils prints it in messages under LC_ALL=C (gnulib's quoteaf,
    shell_escape_always_quoting_style), quirks included."""
    data = name.encode("utf-8", "surrogateescape")
    if 39 not in data:
        return _shell_pass(data, False)[0]
    if all(_compat(index, byte) for index, byte in enumerate(data)):
        return f'"{name}"'
    # gnulib scans once, then quotes again without closing a $'...' the scan left open: a name
    # ending in an escaped byte gets an extra '' in front (it's + newline: '''it'\''s'$'\n').
    _, pending = _shell_pass(data, False)
    return _shell_pass(data, pending)[0]


def quote(text: str) -> str:
    """gnulib's quote() (locale_quoting_style) in the C locale: 'x', with \\ and ' escaped
    and a non-printable byte as \\n or \\303."""
    out = []
    for byte in text.encode("utf-8", "surrogateescape"):
        if byte in (39, 92):
            out.append("\\" + chr(byte))
        elif 32 <= byte < 127:
            out.append(chr(byte))
        else:
            out.append("\\" + (_C_ESCAPES.get(byte) or f"{byte:03o}"))
    return "'" + "".join(out) + "'"


# -- the path walk ---------------------------------------------------------------------------------

async def node_kind(ctx: CommandContext, path: str) -> str | None:
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        return None
    if not info.exists:
        return None
    return "dir" if info.is_dir else "file"


def _join(directory: str, name: str) -> str:
    return directory.rstrip("/") + "/" + name if directory != "/" else "/" + name


async def walk(ctx: CommandContext, path: str) -> tuple[str | None, str, str | None, bool]:
    """(error code of the walk, the parent directory reached, the last name or None for the root,
    whether the path ends in a slash). Every name but the last must be a directory."""
    if path == "":
        return "ENOENT", "/", "", False
    if path_limit_exceeded(ctx.vfs.normalize(path)):
        return "ENAMETOOLONG", "/", None, False
    here = "/" if path.startswith("/") else ctx.vfs.normalize(".")
    names = [name for name in path.split("/") if name]
    for name in names[:-1]:
        if name == ".":
            continue
        if name == "..":
            here = here.rsplit("/", 1)[0] or "/"
            continue
        step = _join(here, name)
        kind = await node_kind(ctx, step)
        if kind is None:
            return "ENOENT", here, None, False
        if kind != "dir":
            return "ENOTDIR", here, None, False
        here = step
    return None, here, names[-1] if names else None, path.endswith("/")


def resolved(directory: str, name: str) -> str:
    if name == ".":
        return directory
    if name == "..":
        return directory.rsplit("/", 1)[0] or "/"
    return _join(directory, name)


# -- rmdir -----------------------------------------------------------------------------------------

async def remove_dir(ctx: CommandContext, path: str) -> str | None:
    """rmdir(2): None when removed, else the error code."""
    code, directory, name, _ = await walk(ctx, path)
    if code:
        return code
    if name is None:
        return "EBUSY"
    if name == ".":
        return "EINVAL"
    if name == "..":
        return "ENOTEMPTY"
    target = _join(directory, name)
    kind = await node_kind(ctx, target)
    if kind is None:
        return "ENOENT"
    if kind != "dir":
        return "ENOTDIR"
    try:
        if await ctx.vfs.listdir(target):
            return "ENOTEMPTY"
        await ctx.vfs.delete(target)
    except FS_ERRORS as error:
        return getattr(error, "code", None) or "EINVAL"
    return None


async def _ignorable(ctx: CommandContext, code: str, path: str, ignore_non_empty: bool) -> bool:
    """--ignore-fail-on-non-empty: a directory not empty, or one that could not be removed
    (the root: EBUSY) that has something in it."""
    if not ignore_non_empty:
        return False
    if code in ("ENOTEMPTY", "EEXIST"):
        return True
    if code in ("EBUSY", "EACCES"):
        try:
            return bool(await ctx.vfs.listdir(path))
        except FS_ERRORS:
            return False
    return False


async def _remove_parents(ctx: CommandContext, path: str, ignore: bool, verbose: bool,
                          out: list[str], errors: list[str]) -> bool:
    """-p: after DIR, each parent named in it (`a/b/c`: `a/b`, then `a`)."""
    current = path.rstrip("/") or path[:1]
    while "/" in current:
        slash = current.rindex("/")
        while slash > 0 and current[slash] == "/":
            slash -= 1
        current = current[:slash + 1]
        if verbose:
            out.append(f"rmdir: removing directory, {quoteaf(current)}")
        code = await remove_dir(ctx, current)
        if code is None:
            continue
        if await _ignorable(ctx, code, current, ignore):
            return True
        what = "" if code == "ENOTDIR" else "directory "
        errors.append(f"rmdir: failed to remove {what}{quoteaf(current)}: {strerror(code)}")
        return False
    return True


async def cmd_rmdir(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    parsed, operands = gnu_options("rmdir", args, "pv", _LONG)
    keys = {key for key, _ in parsed}
    if "help" in keys:
        return CommandResult((RMDIR.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    if "version" in keys:
        return CommandResult(b"", "rmdir: --version is not supported here; see 'help rmdir'", 1, TEXT)
    if not operands:
        return CommandResult(b"", "rmdir: missing operand\nTry 'rmdir --help' for more information.", 1, TEXT)
    parents, verbose, ignore = "p" in keys, "v" in keys, "ignore" in keys
    out: list[str] = []
    errors: list[str] = []
    failed = False
    for path in operands:
        if verbose:
            out.append(f"rmdir: removing directory, {quoteaf(path)}")
        code = await remove_dir(ctx, path)
        if code is not None:
            if await _ignorable(ctx, code, path, ignore):
                continue
            errors.append(f"rmdir: failed to remove {quoteaf(path)}: {strerror(code)}")
            failed = True
        elif parents:
            failed = not await _remove_parents(ctx, path, ignore, verbose, out, errors) or failed
    stdout = "".join(line + "\n" for line in out).encode("utf-8", "surrogateescape")
    return CommandResult(stdout, "\n".join(errors), 1 if failed else 0, TEXT)


RMDIR = CommandSpec(
    name="rmdir",
    summary="Remove empty directories.",
    usage=USAGE,
    details=("Removes each DIRECTORY, which must be empty (`rm -r` removes a directory with its contents). "
             "`-p` then removes each parent named in the path, as long as it becomes empty (`rmdir -p a/b/c` "
             "removes a/b/c, a/b, a); `--ignore-fail-on-non-empty` skips directories that are not empty "
             "without an error; `-v` reports each removal. Errors and exit statuses are GNU coreutils'.\n"
             "Examples:\n  rmdir build/empty\n  rmdir -p logs/2024/01\n"
             "  find . -type d -empty -exec rmdir {} +"),
    group="fs",
    handler=cmd_rmdir,
    accepts_stdin=False, min_args=0, conformance_args=("/missing",), kind="write",
)

COMMANDS = [RMDIR]
