"""patch: apply a diff (unified, context or normal; `diff -u`, `git diff`) to files, as GNU
patch 2.7.6 does under LC_ALL=C.

The engine is onetool_wasm.patch (reading the patch, choosing the files, offsets and fuzz,
rejects); this module reads the command line and does the file work the engine asks for.
Messages go to stdout as GNU writes them (`patching file x`, `Hunk #2 succeeded at 14
(offset 3 lines).`, `1 out of 2 hunks FAILED -- saving rejects to file x.rej`); questions
get their non-interactive answers (`Assume -R? [n]` then `Apply anyway? [n]`); -t/-f answer
as GNU's batch and force modes. Exit status 0 (all applied), 1 (some hunks failed), 2
(trouble).
"""
from __future__ import annotations

from typing import Sequence

from ...patch import CONTEXT_DIFF, NORMAL_DIFF, UNI_DIFF, Options, run_patch
from ...result import CommandResult
from ...vfs.errors import VFSError
from ..spec import CommandContext, CommandSpec

USAGE = "patch [-pN] [-R] [-N] [-i FILE] [-o OUT] [--dry-run] [-b] [-s] [-f] [-t] [ORIGFILE [PATCHFILE]]"
_SHORT = "bB:cd:D:eEfF:g:i:lnNo:p:r:RstTuvV:x:Y:z:Z"
_WITH_VALUE = {letter for index, letter in enumerate(_SHORT) if index + 1 < len(_SHORT) and _SHORT[index + 1] == ":"}
_LONG: dict[str, tuple[str, bool]] = {
    "backup": ("b", False), "prefix": ("B", True), "context": ("c", False), "directory": ("d", True),
    "ifdef": ("D", True), "ed": ("e", False), "remove-empty-files": ("E", False), "force": ("f", False),
    "fuzz": ("F", True), "get": ("g", True), "help": ("help", False), "input": ("i", True),
    "ignore-whitespace": ("l", False), "normal": ("n", False), "forward": ("N", False), "output": ("o", True),
    "strip": ("p", True), "reject-file": ("r", True), "reverse": ("R", False), "quiet": ("s", False),
    "silent": ("s", False), "batch": ("t", False), "set-time": ("T", False), "unified": ("u", False),
    "version": ("v", False), "version-control": ("V", True), "debug": ("x", True), "basename-prefix": ("Y", True),
    "suffix": ("z", True), "set-utc": ("Z", False), "dry-run": ("dry-run", False), "verbose": ("verbose", False),
    "binary": ("binary", False), "backup-if-mismatch": ("backup-if-mismatch", False),
    "no-backup-if-mismatch": ("no-backup-if-mismatch", False), "posix": ("posix", False),
    "quoting-style": ("quoting-style", True), "reject-format": ("reject-format", True),
    "read-only": ("read-only", True), "follow-symlinks": ("follow-symlinks", False),
}
_TRY = "patch: Try 'patch --help' for more information."
_UNSUPPORTED = {"B": "--prefix", "D": "--ifdef", "e": "--ed", "g": "--get", "l": "--ignore-whitespace",
                "T": "--set-time", "V": "--version-control", "x": "--debug", "Y": "--basename-prefix",
                "Z": "--set-utc", "verbose": "--verbose", "posix": "--posix", "quoting-style": "--quoting-style",
                "reject-format": "--reject-format", "read-only": "--read-only"}
HELP_TEXT = ("Usage: " + USAGE + "\n\nApply a diff file to an original.\n\n"
             "  -p NUM  --strip=NUM  Strip NUM leading components from file names.\n"
             "  -R  --reverse  Assume patches were created with old and new files swapped.\n"
             "  -N  --forward  Ignore patches that seem to be reversed or already applied.\n"
             "  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.\n"
             "  -o FILE  --output=FILE  Output patched files to FILE.\n"
             "  -r FILE  --reject-file=FILE  Output rejects to FILE.\n"
             "  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.\n"
             "  -b  --backup  Back up the original contents of each file.\n"
             "  --no-backup-if-mismatch  Back up only when asked (-b).\n"
             "  -z SUFFIX  --suffix=SUFFIX  Use SUFFIX as the backup extension (.orig).\n"
             "  -E  --remove-empty-files  Remove output files that are empty after patching.\n"
             "  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.\n"
             "  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.\n"
             "  -s  --quiet  --silent  Work silently unless an error occurs.\n"
             "  --dry-run  Do not actually change any files; just print what would happen.\n"
             "  -d DIR  --directory=DIR  Change the working directory to DIR first.\n")


class _Usage(Exception):
    """A command-line error: the lines GNU prints, exit 2."""


def _numeric(value: str, what: str, negative: bool = False) -> int:
    text = value[1:] if value[:1] in "+-" else value
    if not text.isdigit() or not text.isascii():
        raise _Usage(f"patch: **** {what} {value} is not a number")
    number = int(value)
    if number > 2 ** 31 - 1 or number < -(2 ** 31):
        raise _Usage(f"patch: **** {what} {value} is too large")
    if number < 0 and not negative:
        raise _Usage(f"patch: **** {what} {value} is negative")
    return number


def parse_args(args: Sequence[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """getopt_long over patch's options: (key, value) pairs and the operands."""
    options: list[tuple[str, str | None]] = []
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "--":
            operands.extend(args[index:])
            break
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        if arg.startswith("--"):
            name, has_value, value = arg[2:].partition("=")
            matches = [known for known in _LONG if known == name] or [known for known in _LONG if known.startswith(name)]
            if not matches or not name:
                raise _Usage(f"patch: unrecognized option '{arg}'\n{_TRY}")
            if len({_LONG[known] for known in matches}) > 1:
                listed = " ".join(f"'--{known}'" for known in matches)
                raise _Usage(f"patch: option '--{name}' is ambiguous; possibilities: {listed}\n{_TRY}")
            full = matches[0]
            key, takes = _LONG[full]
            if not takes:
                if has_value:
                    raise _Usage(f"patch: option '--{full}' doesn't allow an argument\n{_TRY}")
                options.append((key, None))
            elif has_value:
                options.append((key, value))
            elif index < len(args):
                options.append((key, args[index]))
                index += 1
            else:
                raise _Usage(f"patch: option '--{full}' requires an argument\n{_TRY}")
            continue
        position = 1
        while position < len(arg):
            letter = arg[position]
            if letter not in _SHORT or letter == ":":
                raise _Usage(f"patch: invalid option -- '{letter}'\n{_TRY}")
            if letter not in _WITH_VALUE:
                options.append((letter, None))
                position += 1
                continue
            rest = arg[position + 1:]
            if rest:
                options.append((letter, rest))
            elif index < len(args):
                options.append((letter, args[index]))
                index += 1
            else:
                raise _Usage(f"patch: option requires an argument -- '{letter}'\n{_TRY}")
            break
    return options, operands


def build_options(pairs: list[tuple[str, str | None]], operands: list[str]) -> tuple[Options, str | None, str | None]:
    """(engine options, patch file or None for stdin, directory) from the command line."""
    options = Options()
    patchname: str | None = None
    directory: str | None = None
    for key, value in pairs:
        if key in _UNSUPPORTED:
            raise _Usage(f"patch: {_UNSUPPORTED[key]} is not supported here\n{_TRY}")
        if key == "b":
            options.make_backups = True
        elif key == "c":
            options.diff_type = CONTEXT_DIFF
        elif key == "d":
            directory = value
        elif key == "E":
            options.remove_empty_files = True
        elif key == "f":
            options.force = True
        elif key == "F":
            options.maxfuzz = _numeric(value or "", "fuzz factor")
        elif key == "i":
            patchname = value
        elif key == "n":
            options.diff_type = NORMAL_DIFF
        elif key == "N":
            options.noreverse = True
        elif key == "o":
            options.outfile = value
        elif key == "p":
            options.strip = _numeric(value or "", "strip count")
        elif key == "r":
            options.rejname = value
        elif key == "R":
            options.reverse = True
        elif key == "s":
            options.silent = True
        elif key == "t":
            options.batch = True
        elif key == "u":
            options.diff_type = UNI_DIFF
        elif key == "z":
            if not value:
                raise _Usage("patch: **** backup suffix is empty")
            options.suffix = value
        elif key == "dry-run":
            options.dry_run = True
        elif key == "backup-if-mismatch":
            options.backup_if_mismatch = True
        elif key == "no-backup-if-mismatch":
            options.backup_if_mismatch = False
    if operands:
        options.inname = operands[0]
        if len(operands) > 1:
            patchname = operands[1]
        if len(operands) > 2:
            raise _Usage(f"patch: {operands[2]}: extra operand\n{_TRY}")
    return options, patchname, directory


async def cmd_patch(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        pairs, operands = parse_args(args)
        if ("help", None) in pairs:
            return CommandResult(stdout=HELP_TEXT.encode(), stderr="", exit_code=0)
        if ("v", None) in pairs:
            return CommandResult(stdout=b"GNU patch 2.7.6 (onetool-wasm)\n", stderr="", exit_code=0)
        options, patchname, directory = build_options(pairs, operands)
    except _Usage as usage:
        return CommandResult(stdout=b"", stderr=str(usage), exit_code=2)
    files = _Files(ctx, directory)
    if directory is not None and not await files.is_dir(""):
        return CommandResult(stdout=b"", stderr=f"patch: **** Can't change to directory {directory} : "
                             "No such file or directory", exit_code=2)
    if patchname is None or patchname in ("", "-"):
        data = stdin
    else:
        data = await files.read(patchname)
        if data is None:
            reason = await files.open_error(patchname)
            return CommandResult(stdout=b"", stderr=f"patch: **** Can't open patch file {patchname} : {reason}",
                                 exit_code=2)
    limit = getattr(ctx, "max_materialized_bytes", None)
    if isinstance(limit, int) and len(data) > limit:
        return CommandResult(stdout=b"", stderr=f"patch: **** patch input is larger than {limit} bytes",
                             exit_code=2)
    options.cwd_is_root = files.base() == "/"
    engine = run_patch(data, options)
    reply = None
    try:
        while True:
            request = engine.send(reply)
            reply = await files.handle(request)
    except StopIteration as stop:
        outcome = stop.value
    stdout = b"".join(outcome.stdout)
    stderr = b"".join(outcome.stderr).decode("utf-8", "replace")
    return CommandResult(stdout=stdout, stderr=stderr, exit_code=outcome.status)


class _Files:
    """The engine's file requests over the VFS (names relative to the working directory,
    or to -d DIR)."""

    def __init__(self, ctx: CommandContext, directory: str | None) -> None:
        self.ctx = ctx
        self.directory = directory

    def path(self, name: str) -> str:
        if self.directory is None or name.startswith("/"):
            return name or "."
        return f"{self.directory.rstrip('/')}/{name}" if name else self.directory

    def base(self) -> str:
        return self.ctx.vfs.normalize(self.path("."))

    async def is_dir(self, name: str) -> bool:
        try:
            return bool(await self.ctx.vfs.is_dir(self.path(name)))
        except VFSError:
            return False

    async def stat(self, name: str):
        try:
            info = await self.ctx.vfs.stat(self.path(name))
        except VFSError:
            return None
        if not info.exists:
            return None
        return ("dir" if info.is_dir else "file", info.size)

    async def read(self, name: str) -> bytes | None:
        try:
            return await self.ctx.vfs.read_bytes(self.path(name))
        except (VFSError, OSError):
            return None

    async def open_error(self, name: str) -> str:
        info = await self.stat(name)
        if info is None:
            return "No such file or directory"
        return "Is a directory" if info[0] == "dir" else "Permission denied"

    async def handle(self, request: tuple):
        kind, name = request[0], request[1]
        vfs = self.ctx.vfs
        if kind == "stat":
            return await self.stat(name)
        if kind == "read":
            return await self.read(name)
        try:
            if kind == "write":
                await vfs.write_bytes(self.path(name), request[2], make_parents=True)
            elif kind == "delete":
                await vfs.delete(self.path(name))
            elif kind == "rmdir":
                path = self.path(name)
                if await vfs.is_dir(path) and not await vfs.listdir(path):
                    await vfs.delete(path)
        except VFSError:
            return None
        return None


def patch_targets(args: Sequence[str]) -> list[str]:
    """The files a call names: ORIGFILE and -o OUT (the patch may name others)."""
    try:
        pairs, operands = parse_args(args)
    except _Usage:
        return []
    named = [value for key, value in pairs if key == "o" and value]
    return named + operands[:1]


PATCH = CommandSpec(
    name="patch",
    summary="Apply a diff (unified, context, or git diff) to files, as GNU patch does.",
    usage=USAGE,
    details=("Reads the patch from stdin (or -i FILE, or the second operand) and changes the files it names, "
             "or ORIGFILE. Hunks that do not apply are saved to FILE.rej; -R undoes a patch; --dry-run only "
             "reports.\nExamples:\n  patch -p1 < fix.diff\n  patch --dry-run -p1 -i fix.diff\n"
             "  git diff | patch -R -p1\n  patch app.py fix.diff"),
    handler=cmd_patch,
    group="fs",
    accepts_stdin=True,
    min_args=0,
    max_args=None,
    conformance_args=("--dry-run", "-i", "/fix.diff"),
    kind="write",
    targets=patch_targets,
    usage_exit_code=2,
)

COMMANDS = [PATCH]
