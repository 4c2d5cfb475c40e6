"""What mkdir, cp, mv, rm and touch share: the upstream (strict) grammar's helpers, GNU's
option reading and messages for the bash language, and the optional VFS abilities
(`chmod`, setting a modified time) used only when the VFS has them.

On success they print nothing in the bash grammar (as GNU), and upstream's one-line
reports (`created /x`, `copied /a -> /b`) in the strict grammar."""
from __future__ import annotations

import re
from typing import Mapping

from ...result import CommandResult, err, ok
from ..fs_common import FS_ERRORS, exists_failure, fs_failure
from ..getopt import Options, gnu_getopt
from ..helpers import usage_error
from ..options import is_option, unknown_option
from ..spec import CommandContext, CommandFailed

# Names a VFS may give the optional ability to set a file's modified time (epoch ms).
_MTIME_SETTERS = ("set_mtime", "set_modified", "utime", "touch")


def single_path(command: str, args: list[str], usage: str, accepts: re.Pattern[str]) -> tuple[str, str]:
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


def done(ctx: CommandContext, message: str) -> CommandResult:
    """Success: silent in the bash grammar, as GNU tools are; the strict grammar keeps
    upstream's report (`created /x`)."""
    return ok() if ctx.grammar == "bash" else ok(message)


def upstream_arity(command: str, args: list[str], most: int, usage: str) -> None:
    """The strict grammar keeps upstream's operand count (the bash language takes many)."""
    if len(args) > most:
        raise CommandFailed(usage_error(command, usage))


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


async def transfer(ctx: CommandContext, command: str, args: list[str], usage: str) -> CommandResult:
    if ctx.grammar == "bash":
        return await gnu_transfer(ctx, command, args)
    upstream_arity(command, args, 3, usage)
    src, dst = _src_dst(command, args, usage)
    operation = ctx.vfs.copy if command == "cp" else ctx.vfs.move
    try:
        moved_from, moved_to = await operation(src, dst)
    except FS_ERRORS as error:
        return await _transfer_failure(ctx, command, src, dst, error)
    verb = "copied" if command == "cp" else "moved"
    return done(ctx, f"{verb} {moved_from} -> {moved_to}")


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


# -- the bash language --------------------------------------------------------------------

def gnu_options(command: str, args: list[str], short: str,
                long: Mapping[str, tuple[str, int]]) -> tuple[Options, list[str]]:
    """getopt_long with GNU's error words and `Try '<command> --help'` hint (exit 1)."""
    try:
        return gnu_getopt(command, f"{command} [OPTION]...", args, short, long)
    except CommandFailed as failure:
        text = failure.result.stderr.split(". Usage:")[0]
        raise CommandFailed(err(f"{text}\nTry '{command} --help' for more information.", 1)) from None


def gnu_result(out: list[str], errors: list[str], status: int | None = None) -> CommandResult:
    stdout = "".join(line + "\n" for line in out).encode()
    return CommandResult(stdout, "\n".join(errors), (1 if errors else 0) if status is None else status)


async def kind_of(ctx: CommandContext, path: str) -> str | None:
    """"dir", "file", or None when nothing is there."""
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        return None
    if not info.exists:
        return None
    return "dir" if info.is_dir else "file"


def reason(error: BaseException) -> str:
    code = getattr(error, "code", None)
    return {"ENOENT": "No such file or directory", "EEXIST": "File exists", "ENOTDIR": "Not a directory",
            "EISDIR": "Is a directory", "EINVAL": "Invalid argument"}.get(code, getattr(error, "message", str(error)))


def join_name(directory: str, source: str) -> str:
    name = source.rstrip("/").rsplit("/", 1)[-1] or source
    return directory + name if directory.endswith("/") else f"{directory}/{name}"


def mtime_setter(ctx: CommandContext):
    """The VFS's way to set a modified time (`await f(path, epoch_ms)`, the path made
    absolute here since a wrapper may hand the call on unresolved), or None."""
    for name in _MTIME_SETTERS:
        setter = getattr(ctx.vfs, name, None)
        if callable(setter):
            async def absolute(path: str, epoch_ms: int, setter=setter) -> None:
                await setter(ctx.vfs.normalize(path), epoch_ms)
            return absolute
    return None


async def set_mtime(ctx: CommandContext, path: str, epoch_ms: int) -> bool:
    setter = mtime_setter(ctx)
    if setter is None:
        return False
    await setter(path, epoch_ms)
    return True


# The umask the sandbox creates files under (GNU's usual 022; the shell has no umask builtin).
UMASK = 0o022


async def set_mode(ctx: CommandContext, path: str, mode: int) -> bool:
    """chmod when the VFS keeps modes; a VFS without them (EINVAL) is left as it is."""
    chmod = getattr(ctx.vfs, "chmod", None)
    if not callable(chmod):
        return False
    try:
        await chmod(ctx.vfs.normalize(path), mode)
    except FS_ERRORS:
        return False
    return True


def parse_mode(text: str, base: int = 0o777) -> int | None:
    """An octal mode or a symbolic one (`u+x,go-w`, `a=r`) applied to `base`; None if invalid."""
    if re.fullmatch(r"[0-7]{1,4}", text):
        return int(text, 8)
    mode = base
    for clause in text.split(","):
        match = re.fullmatch(r"([ugoa]*)(([-+=][rwxXst]*)+)", clause)
        if not match:
            return None
        who = match.group(1) or "a"
        mask = 0
        for letter in who:
            mask |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[letter]
        for op, perms in re.findall(r"([-+=])([rwxXst]*)", match.group(2)):
            bits = 0
            for letter in perms:
                bits |= {"r": 0o444, "w": 0o222, "x": 0o111, "X": 0o111, "s": 0o6000, "t": 0o1000}[letter]
            bits &= mask
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                mode = (mode & ~(mask & 0o777)) | bits
    return mode & 0o7777


# -- cp and mv ----------------------------------------------------------------------------

_CP_LONG = {"archive": ("a", 0), "recursive": ("r", 0), "force": ("f", 0), "interactive": ("i", 0),
            "no-clobber": ("n", 0), "update": ("u", 0), "verbose": ("v", 0), "preserve": ("p", 2),
            "no-target-directory": ("T", 0), "target-directory": ("t", 1)}
_MV_LONG = {key: value for key, value in _CP_LONG.items() if key not in ("archive", "recursive", "preserve")}


class _Transfer:
    """One cp or mv run in the bash language: its settings, output and error lines."""

    def __init__(self, ctx: CommandContext, command: str, letters: set[str]) -> None:
        self.ctx = ctx
        self.command = command
        self.letters = letters
        self.out: list[str] = []
        self.errors: list[str] = []

    @property
    def recursive(self) -> bool:
        return bool(self.letters & {"r", "R", "a"})

    @property
    def preserve(self) -> bool:
        return bool(self.letters & {"p", "a"})

    async def one(self, source: str, destination: str, overwrite: str) -> None:
        command, ctx = self.command, self.ctx
        kind = await kind_of(ctx, source)
        if kind is None:
            self.errors.append(f"{command}: cannot stat '{source}': No such file or directory")
            return
        if kind == "dir" and command == "cp" and not self.recursive:
            self.errors.append(f"cp: -r not specified; omitting directory '{source}'")
            return
        src, dst = ctx.vfs.normalize(source), ctx.vfs.normalize(destination)
        if src == dst:
            self.errors.append(f"{command}: '{source}' and '{destination}' are the same file")
            return
        if kind == "dir" and (dst + "/").startswith(src.rstrip("/") + "/"):
            self.errors.append(f"cp: cannot copy a directory, '{source}', into itself, '{destination}'"
                               if command == "cp" else
                               f"mv: cannot move '{source}' to a subdirectory of itself, '{destination}'")
            return
        existing = await kind_of(ctx, destination)
        if existing is not None:
            if overwrite == "n":
                return
            if overwrite == "i":
                self.errors.append(f"{command}: overwrite '{destination}'? ")
                self.errors_are_prompts = True
                return
            if "u" in self.letters and existing == "file" and kind == "file" and await self._not_newer(src, dst):
                return
            if existing == "dir" and kind == "file":
                self.errors.append(f"{command}: cannot overwrite directory '{destination}' with non-directory")
                return
            if existing == "file" and kind == "dir":
                self.errors.append(f"{command}: cannot overwrite non-directory '{destination}' "
                                   f"with directory '{source}'")
                return
        try:
            if command == "cp":
                await self._copy(src, dst, source, destination, kind)
            else:
                if existing == "dir":
                    if await ctx.vfs.listdir(dst):
                        self.errors.append(f"mv: cannot move '{source}' to '{destination}': Directory not empty")
                        return
                    await ctx.vfs.delete(dst)
                elif existing == "file":
                    await ctx.vfs.delete(dst)
                await ctx.vfs.move(src, dst)
                if "v" in self.letters:
                    self.out.append(f"renamed '{source}' -> '{destination}'")
        except FS_ERRORS as error:
            self.errors.append(f"{command}: cannot create regular file '{destination}': {reason(error)}")

    async def _not_newer(self, src: str, dst: str) -> bool:
        source, target = await self.ctx.vfs.stat(src), await self.ctx.vfs.stat(dst)
        return target.modified_epoch_ms >= source.modified_epoch_ms

    async def _copy(self, src: str, dst: str, shown_src: str, shown_dst: str, kind: str) -> None:
        """Copy a file, or a directory into place (merging with one already there)."""
        stack = [(src, dst, shown_src, shown_dst, kind)]
        copied: list[tuple[str, str]] = []
        created: list[tuple[str, str]] = []  # new files take the source's mode less the umask
        while stack:
            a, b, shown_a, shown_b, what = stack.pop()
            if await kind_of(self.ctx, b) is None:
                created.append((a, b))
            if what == "dir":
                if await kind_of(self.ctx, b) is None:
                    await self.ctx.vfs.mkdir(b, False)
                if "v" in self.letters:
                    self.out.append(f"'{shown_a}' -> '{shown_b}'")
                children = await self.ctx.vfs.listdir(a)
                for raw in reversed(children):
                    name = raw.rstrip("/")
                    stack.append((f"{a.rstrip('/')}/{name}", f"{b.rstrip('/')}/{name}", f"{shown_a.rstrip('/')}/{name}",
                                  f"{shown_b.rstrip('/')}/{name}", "dir" if raw.endswith("/") else "file"))
            else:
                if await kind_of(self.ctx, b) == "dir":
                    self.errors.append(f"cp: cannot overwrite directory '{shown_b}' with non-directory")
                    continue
                await self.ctx.vfs.write_bytes(b, await self.ctx.vfs.read_bytes(a), False)
                if "v" in self.letters:
                    self.out.append(f"'{shown_a}' -> '{shown_b}'")
            copied.append((a, b))
        if not self.preserve:
            for a, b in created:
                mode = getattr(await self.ctx.vfs.stat(a), "mode", None)
                if mode is not None:
                    await set_mode(self.ctx, b, mode & ~UMASK)
        if self.preserve:
            for a, b in reversed(copied):
                info = await self.ctx.vfs.stat(a)
                await set_mtime(self.ctx, b, info.modified_epoch_ms)
                mode = getattr(info, "mode", None)
                if mode is not None:
                    await set_mode(self.ctx, b, mode)


async def gnu_transfer(ctx: CommandContext, command: str, args: list[str]) -> CommandResult:
    """cp and mv as GNU coreutils 9.1: several sources into a directory (or -t DIR), -T,
    -n / -i / -f (the last wins; -i without an answer keeps the file), -u, -v; cp -r, -p, -a."""
    short = "aRrpfinuvTt:" if command == "cp" else "finuvTt:"
    parsed, operands = gnu_options(command, args, short, _CP_LONG if command == "cp" else _MV_LONG)
    letters: set[str] = set()
    overwrite = "f"
    target_dir = None
    for key, value in parsed:
        letters.add(key)
        if key in "fin":
            overwrite = key
        if key == "t":
            target_dir = value or ""
    if target_dir is not None and "T" in letters:
        return err(f"{command}: cannot combine --target-directory (-t) and --no-target-directory (-T)", 1)
    if target_dir is not None:
        if not operands:
            return err(f"{command}: missing file operand\nTry '{command} --help' for more information.", 1)
        kind = await kind_of(ctx, target_dir)
        if kind != "dir":
            problem = "Not a directory" if kind == "file" else "No such file or directory"
            return err(f"{command}: target directory '{target_dir}': {problem}", 1)
        sources, target, into = operands, target_dir, True
    else:
        if len(operands) < 2:
            missing = ("missing file operand" if not operands
                       else f"missing destination file operand after '{operands[0]}'")
            return err(f"{command}: {missing}\nTry '{command} --help' for more information.", 1)
        if "T" in letters and len(operands) > 2:
            return err(f"{command}: extra operand '{operands[2]}'\nTry '{command} --help' for more information.", 1)
        *sources, target = operands
        into = "T" not in letters and await kind_of(ctx, target) == "dir"
        if len(sources) > 1 and not into:
            problem = "is not a directory" if await kind_of(ctx, target) is not None else ""
            if problem:
                return err(f"{command}: target '{target}' {problem}", 1)
            return err(f"{command}: target '{target}': No such file or directory", 1)
    run = _Transfer(ctx, command, letters)
    for source in sources:
        destination = join_name(target, source) if into else target
        await run.one(source, destination, overwrite)
    prompts = getattr(run, "errors_are_prompts", False)
    failed = [line for line in run.errors if not line.endswith("? ")]
    stderr = "".join(line if line.endswith("? ") else line + "\n" for line in run.errors).rstrip("\n")
    stdout = "".join(line + "\n" for line in run.out).encode()
    del prompts
    return CommandResult(stdout, stderr, 1 if failed else 0)
