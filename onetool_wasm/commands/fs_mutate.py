"""The fs commands that change the tree: mkdir, cp, mv, rm, and touch.

On success they print nothing in the bash grammar (as GNU), and upstream's one-line
reports (`created /x`, `copied /a -> /b`) in the strict grammar."""
from __future__ import annotations

import re

from ..result import CommandResult, err, ok
from .fs_common import FS_ERRORS, exists_failure, file_write_failure, fs_failure, stat_or_fail
from .helpers import usage_error
from .options import ArgReader, is_option, unknown_option
from .spec import CommandContext, CommandFailed, CommandSpec

MKDIR_USAGE = "mkdir [-p] <path>"
RM_USAGE = "rm [-r|-R] <path>"
CP_USAGE = "cp <src> <dst>"
MV_USAGE = "mv <src> <dst>"
TOUCH_USAGE = "touch [-c] <path> [path ...]"


_MKDIR_FLAGS = re.compile(r"-p")
_RM_FLAGS = re.compile(r"-[rRf]+")


def _single_path(command: str, args: list[str], usage: str, accepts: re.Pattern[str]) -> tuple[str, str]:
    """`[flags] <path>` -> (flags, path); `--` ends options, so `rm -- -draft` names a path."""
    *options, path = args
    if options == ["--"]:
        return "", path
    if not options and is_option(path):
        if accepts.fullmatch(path):  # `mkdir -p`: a flag but no path
            raise CommandFailed(usage_error(command, usage))
        raise unknown_option(command, path, usage)
    flags = ""
    for option in options:
        if not accepts.fullmatch(option):
            raise unknown_option(command, option, usage)
        flags += option[1:]
    return flags, path


def _done(ctx: CommandContext, message: str) -> CommandResult:
    """Success: silent in the bash grammar, as GNU tools are; the strict grammar keeps
    upstream's report (`created /x`)."""
    return ok() if ctx.grammar == "bash" else ok(message)


# -- mkdir --------------------------------------------------------------------------------

def _upstream_arity(command: str, args: list[str], most: int, usage: str) -> None:
    """The strict grammar keeps upstream's operand count (the bash language takes many)."""
    if len(args) > most:
        raise CommandFailed(usage_error(command, usage))


async def cmd_mkdir(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await gnu_mkdir(ctx, args)
    _upstream_arity("mkdir", args, 2, MKDIR_USAGE)
    _, path = _single_path("mkdir", args, MKDIR_USAGE, _MKDIR_FLAGS)
    try:
        return _done(ctx, f"created {await ctx.vfs.mkdir(path, True)}")
    except FS_ERRORS as error:
        if getattr(error, "code", None) == "ENOENT":
            return err(f"mkdir: parent path not found: {error.path}")
        return await fs_failure(ctx, "mkdir", path, error)


# -- rm -----------------------------------------------------------------------------------

async def cmd_rm(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    # Recursive always (upstream); -f, alone or bundled (`rm -rf`), makes a missing path no error.
    if ctx.grammar == "bash":
        return await gnu_rm(ctx, args)
    _upstream_arity("rm", args, 2, RM_USAGE)
    flags, path = _single_path("rm", args, RM_USAGE, _RM_FLAGS)
    try:
        return _done(ctx, f"removed {await ctx.vfs.delete(path)}")
    except FS_ERRORS as error:
        code = getattr(error, "code", None)
        if code == "ENOENT":
            return ok() if "f" in flags else err(f"rm: path not found: {ctx.vfs.normalize(path)}")
        if code == "EROOT":
            return err("rm: cannot delete root: /")
        return await fs_failure(ctx, "rm", path, error)


# -- cp / mv ------------------------------------------------------------------------------

def _src_dst(command: str, args: list[str], usage: str) -> tuple[str, str]:
    """Two paths; cp also takes GNU's -r/-R (it always copies directories whole), and a
    leading `--` lets a path start with a dash."""
    if command == "cp" and args and args[0] in ("-r", "-R"):
        args = args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if len(args) != 2:
        raise CommandFailed(usage_error(command, usage))
    return args[0], args[1]


async def _transfer(ctx: CommandContext, command: str, args: list[str], usage: str) -> CommandResult:
    if ctx.grammar == "bash":
        return await gnu_transfer(ctx, command, args)
    _upstream_arity(command, args, 3, usage)
    src, dst = _src_dst(command, args, usage)
    operation = ctx.vfs.copy if command == "cp" else ctx.vfs.move
    try:
        moved_from, moved_to = await operation(src, dst)
    except FS_ERRORS as error:
        return await _transfer_failure(ctx, command, src, dst, error)
    verb = "copied" if command == "cp" else "moved"
    return _done(ctx, f"{verb} {moved_from} -> {moved_to}")


async def _transfer_failure(ctx: CommandContext, command: str, src: str, dst: str,
                            error: BaseException) -> CommandResult:
    code = getattr(error, "code", None)
    target = ctx.vfs.normalize(dst)
    if code == "ENOENT":
        return err(f"{command}: source not found: {ctx.vfs.normalize(src)}")
    if code == "EEXIST":
        return await exists_failure(ctx, command, target, "destination")
    if code == "EISDIR":
        return err(f"{command}: destination is a directory: {target}. Use a file path.")
    if code == "EINVAL":
        return err(f"{command}: destination is inside the source directory: {target}")
    return await fs_failure(ctx, command, dst, error)


async def cmd_cp(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _transfer(ctx, "cp", args, CP_USAGE)


async def cmd_mv(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _transfer(ctx, "mv", args, MV_USAGE)


# -- touch --------------------------------------------------------------------------------

async def cmd_touch(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    no_create = False
    reader = ArgReader(args)
    for arg in reader:
        if arg != "-c":
            raise unknown_option("touch", arg, TOUCH_USAGE)
        no_create = True
    paths = reader.operands
    if not paths:
        return usage_error("touch", TOUCH_USAGE)
    lines = [line for path in paths if (line := await _touch_one(ctx, path, no_create))]
    return _done(ctx, "".join(f"{line}\n" for line in lines))


async def _touch_one(ctx: CommandContext, path: str, no_create: bool) -> str:
    """Create an empty file, or rewrite a file's bytes so its modified time becomes now."""
    info = await stat_or_fail(ctx, "touch", path)
    if info.is_dir:
        return f"unchanged {info.path} (directory)"
    if not info.exists and no_create:
        return ""  # GNU: -c never creates and does not complain
    try:
        data = await ctx.vfs.read_bytes(path) if info.exists else b""
        target = await ctx.vfs.write_bytes(path, data)
    except FS_ERRORS as error:
        raise CommandFailed(await file_write_failure(ctx, "touch", path, error)) from None
    return f"{'touched' if info.exists else 'created'} {target}"


# -- the bash language: GNU's operands, options and messages ------------------------------

def _gnu_options(command: str, args: list[str], letters: str) -> tuple[set[str], list[str]]:
    """Single-letter options (bundled), `--` ending them; the rest are operands."""
    flags: set[str] = set()
    operands: list[str] = []
    ended = False
    for arg in args:
        if ended or not arg.startswith("-") or arg == "-":
            operands.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            long = {"--parents": "p", "--recursive": "r", "--force": "f", "--verbose": "v"}.get(arg)
            if long is None or long not in letters:
                raise CommandFailed(err(f"{command}: unrecognized option '{arg}'", 1))
            flags.add(long)
        else:
            for letter in arg[1:]:
                if letter not in letters:
                    raise CommandFailed(err(f"{command}: invalid option -- '{letter}'", 1))
                flags.add(letter)
    return flags, operands


def _gnu_result(out: list[str], errors: list[str]) -> CommandResult:
    stdout = "".join(line + "\n" for line in out).encode()
    return CommandResult(stdout, "\n".join(errors), 1 if errors else 0)


async def _kind(ctx: CommandContext, path: str) -> str | None:
    """"dir", "file", or None when nothing is there."""
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        return None
    if not info.exists:
        return None
    return "dir" if info.is_dir else "file"


async def gnu_mkdir(ctx: CommandContext, args: list[str]) -> CommandResult:
    flags, operands = _gnu_options("mkdir", args, "pvm")
    if not operands:
        return err("mkdir: missing operand", 1)
    out, errors = [], []
    for path in operands:
        kind = await _kind(ctx, path)
        if kind == "dir" and "p" in flags:
            continue
        if kind is not None:
            errors.append(f"mkdir: cannot create directory '{path}': File exists")
            continue
        parent = ctx.vfs.normalize(path).rsplit("/", 1)[0] or "/"
        if "p" not in flags and await _kind(ctx, parent) != "dir":
            reason = "Not a directory" if await _kind(ctx, parent) == "file" else "No such file or directory"
            errors.append(f"mkdir: cannot create directory '{path}': {reason}")
            continue
        try:
            await ctx.vfs.mkdir(path, True)
        except FS_ERRORS as error:
            errors.append(f"mkdir: cannot create directory '{path}': {_reason(error)}")
            continue
        if "v" in flags:
            out.append(f"mkdir: created directory '{path}'")
    return _gnu_result(out, errors)


async def gnu_rm(ctx: CommandContext, args: list[str]) -> CommandResult:
    flags, operands = _gnu_options("rm", args, "rRfivd")
    if not operands:
        return ok() if "f" in flags else err("rm: missing operand", 1)
    recursive = bool(flags & {"r", "R"})
    out, errors = [], []
    for path in operands:
        kind = await _kind(ctx, path)
        if kind is None:
            if "f" not in flags:
                errors.append(f"rm: cannot remove '{path}': No such file or directory")
            continue
        if ctx.vfs.normalize(path) == "/":
            errors.append("rm: it is dangerous to operate recursively on '/'")
            continue
        if kind == "dir" and not recursive:
            if "d" not in flags or await ctx.vfs.listdir(path):
                errors.append(f"rm: cannot remove '{path}': Is a directory")
                continue
        try:
            await ctx.vfs.delete(path)
        except FS_ERRORS as error:
            errors.append(f"rm: cannot remove '{path}': {_reason(error)}")
            continue
        if "v" in flags:
            out.append(f"removed {'directory ' if kind == 'dir' else ''}'{path}'")
    return _gnu_result(out, errors)


async def gnu_transfer(ctx: CommandContext, command: str, args: list[str]) -> CommandResult:
    """cp and mv as GNU: several sources into a directory, a file target overwritten
    (`-n` keeps it), `cp` of a directory only with `-r`."""
    flags, operands = _gnu_options(command, args, "rRapfinvTu" if command == "cp" else "finvTu")
    if len(operands) < 2:
        missing = "missing file operand" if not operands else f"missing destination file operand after '{operands[0]}'"
        return err(f"{command}: {missing}", 1)
    *sources, target = operands
    into = await _kind(ctx, target) == "dir" and "T" not in flags
    if len(sources) > 1 and not into:
        return err(f"{command}: target '{target}' is not a directory", 1)
    out, errors = [], []
    for source in sources:
        destination = _join(target, source) if into else target
        message = await _transfer_one(ctx, command, flags, source, destination)
        if message is None:
            if "v" in flags:
                out.append(f"{'renamed ' if command == 'mv' else ''}'{source}' -> '{destination}'")
        elif message:
            errors.append(message)
    return _gnu_result(out, errors)


async def _transfer_one(ctx: CommandContext, command: str, flags: set[str], source: str,
                        destination: str) -> str | None:
    """None when done, "" when skipped on purpose, else the error line."""
    kind = await _kind(ctx, source)
    if kind is None:
        verb = "stat" if command == "cp" else "stat"
        return f"{command}: cannot {verb} '{source}': No such file or directory"
    if kind == "dir" and command == "cp" and not flags & {"r", "R", "a"}:
        return f"cp: -r not specified; omitting directory '{source}'"
    if ctx.vfs.normalize(source) == ctx.vfs.normalize(destination):
        return f"{command}: '{source}' and '{destination}' are the same file"
    existing = await _kind(ctx, destination)
    if existing is not None:
        if "n" in flags:
            return ""
        if existing == "dir":
            return (f"{command}: cannot overwrite directory '{destination}' with non-directory"
                    if kind == "file" else f"{command}: cannot move '{source}' to '{destination}': "
                    "Directory not empty")
        if kind == "dir":
            return f"{command}: cannot overwrite non-directory '{destination}' with directory '{source}'"
    try:
        if existing is not None:
            await ctx.vfs.delete(destination)
        operation = ctx.vfs.copy if command == "cp" else ctx.vfs.move
        await operation(source, destination)
    except FS_ERRORS as error:
        return f"{command}: cannot create '{destination}': {_reason(error)}"
    return None


def _join(directory: str, source: str) -> str:
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return directory + name if directory.endswith("/") else f"{directory}/{name}"


def _reason(error: BaseException) -> str:
    code = getattr(error, "code", None)
    return {"ENOENT": "No such file or directory", "EEXIST": "File exists", "ENOTDIR": "Not a directory",
            "EISDIR": "Is a directory", "EINVAL": "Invalid argument"}.get(code, getattr(error, "message", str(error)))


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

CP = CommandSpec(
    name="cp",
    summary="Copy a file or directory inside the rooted virtual file system.",
    usage=CP_USAGE,
    details=("Copies files or directories to a new rooted destination path. "
             "The destination must not already exist.\n"
             "Examples:\n  cp /drafts/qbr.md /reports/qbr-v1.md"),
    group="fs",
    handler=cmd_cp,
    # Upstream allows 3 args (`cp -r <src> <dst>`, `cp -- <src> <dst>`): checked in the
    # handler, since the bash language takes several sources.
    accepts_stdin=False, min_args=2, conformance_args=("/a", "/b"), kind="write",
)

MV = CommandSpec(
    name="mv",
    summary="Move or rename a file or directory.",
    usage=MV_USAGE,
    details=("Moves files or directories to a new rooted destination path. "
             "The destination must not already exist.\n"
             "Examples:\n  mv /drafts/qbr.md /archive/qbr.md"),
    group="fs",
    handler=cmd_mv,
    # Upstream allows 3 args (`mv -- <src> <dst>`): checked in the handler, as for cp.
    accepts_stdin=False, min_args=2, conformance_args=("/a", "/b"), kind="write",
)

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

TOUCH = CommandSpec(
    name="touch",
    summary="Create empty files, or update the modified time of existing ones.",
    usage=TOUCH_USAGE,
    details=("Creates each missing path as an empty file (missing parent directories too, as write "
             "does) and gives each existing file the current modified time without changing its "
             "content. `-c` skips paths that do not exist. Directories are left unchanged.\n"
             "Examples:\n  touch /notes/todo.txt\n  touch /logs/a.log /logs/b.log\n"
             "  touch -c /reports/summary.md"),
    group="fs",
    handler=cmd_touch,
    accepts_stdin=False, min_args=1, conformance_args=("/t.txt",), kind="write",
)

COMMANDS = [MKDIR, CP, MV, RM, TOUCH]
