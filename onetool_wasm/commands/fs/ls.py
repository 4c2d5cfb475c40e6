"""`ls`: upstream's listing (`-1aRl`), extended to several paths the way GNU ls prints them;
in the bash language GNU's options, long format (real permission bits) and -C/-x/-m
columns (_ls_gnu.py).

Entries sort in C-locale byte order, files and directories together; `-a` adds `.` and
`..` first. Several operands: the files among them first, then one `path:` section per
directory, sections separated by a blank line; a missing operand is reported on stderr
while the others are still listed.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ...result import CommandResult, err
from ...vfs.base import VFSStat
from ...vfs.paths import parent_of
from ..fs_common import FS_ERRORS, fs_failure, listing_result, sorted_children, visit_operands
from ..options import ArgReader, unknown_option
from ..registry import c_locale_key
from ..spec import CommandContext, CommandFailed, CommandSpec
from . import _ls_gnu as ls_gnu

LS_USAGE = "ls [-1aRl] [path]"
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)


@dataclass(frozen=True)
class LsOptions:
    all: bool = False
    long: bool = False
    recursive: bool = False
    # GNU's (the bash language): see _ls_gnu.py
    gnu: bool = False
    almost_all: bool = False
    human: bool = False
    sort: str = "name"      # "name" | "time" | "size"
    reverse: bool = False
    directory: bool = False
    classify: bool = False
    slash: bool = False
    format: str = "single"  # "single" | "long" | "columns" | "across" | "commas"
    width: int = 80
    tabsize: int = 8
    time_style: str = "locale"  # --time-style: full-iso, long-iso, iso, locale, +FORMAT


def parse_gnu_ls_args(args: list[str], environment: dict[str, str] | None = None) -> tuple[LsOptions, list[str]]:
    try:
        flags, operands, values = ls_gnu.parse_flags(args)
    except ls_gnu.LsUsageError as error:
        raise CommandFailed(err(f"{error}\nTry 'ls --help' for more information.", 2)) from None
    sort = "time" if "t" in flags else "size" if "S" in flags else "name"
    width = values.get("width")
    if width is None:
        columns = (environment or {}).get("COLUMNS", "")
        width = int(columns) if columns.isdigit() and 0 < int(columns) < 1 << 31 else 80
    fmt = str(values["format"])
    return LsOptions(all="a" in flags, long=fmt == "long", recursive="R" in flags, gnu=True,
                     almost_all="A" in flags, human="h" in flags, sort=sort, reverse="r" in flags,
                     directory="d" in flags, classify="F" in flags, slash="p" in flags, format=fmt,
                     width=int(width), tabsize=int(values.get("tabsize", 8)) if width else 0,  # type: ignore[arg-type]
                     time_style=str(values.get("time_style", "locale"))), operands  # -w 0 (no limit) pads with spaces only, as GNU does


@dataclass(frozen=True)
class LsEntry:
    name: str
    info: VFSStat
    synthetic: bool = False  # `.` and `..`: shown with -a, never recursed into


def parse_ls_args(args: list[str]) -> tuple[LsOptions, list[str]]:
    flags: set[str] = set()
    reader = ArgReader(args)
    for arg in reader:
        if arg.startswith("--"):
            raise unknown_option("ls", arg, LS_USAGE)
        unknown = next((flag for flag in arg[1:] if flag not in "1aRl"), None)
        if unknown is not None:
            raise unknown_option("ls", f"-{unknown}", LS_USAGE)
        flags.update(arg[1:])
    return LsOptions(all="a" in flags, long="l" in flags, recursive="R" in flags), reader.operands


async def cmd_ls(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    """In the bash language, as GNU ls: the working directory by default, operands shown as
    written (`ls *.txt` prints `a.txt`), a missing one `cannot access`, exit 2."""
    gnu = ctx.grammar == "bash"
    options, operands = parse_gnu_ls_args(args, ctx.environment) if gnu else parse_ls_args(args)
    operands = operands or (["."] if gnu else ["/"])
    files, directories, missing = await _classify(ctx, operands, gnu)
    if options.directory:  # -d: directories are listed as themselves
        files, directories = sorted(files + directories, key=lambda item: c_locale_key(item[0])), []
    blocks: list[str] = []
    if files:
        blocks.append(await _render(ctx, [LsEntry(shown, info) for shown, info in files], options, False))
    with_headers = len(operands) > 1 or options.recursive
    for shown, directory in directories:
        blocks.extend(await _directory_blocks(ctx, directory.path, shown, options, with_headers))
    text = "\n\n".join(blocks)
    output = text + "\n" if text else ""
    if gnu and missing:
        lines = [f"ls: cannot access '{path}': No such file or directory" for path in missing]
        return CommandResult(output.encode("utf-8"), "\n".join(lines), 2)
    return listing_result("ls", output, missing)


async def _classify(ctx: CommandContext, operands: list[str], as_written: bool
                    ) -> tuple[list[tuple[str, VFSStat]], list[tuple[str, VFSStat]], list[str]]:
    """Operands as (files, directories, missing), each with the name to show (as written,
    or the normalised path); files and directories in name order."""
    files: list[tuple[str, VFSStat]] = []
    directories: list[tuple[str, VFSStat]] = []
    present = [operand for operand in operands]
    shown = iter(present)

    async def visit(info: VFSStat) -> None:
        name = next(shown) if as_written else info.path
        (directories if info.is_dir else files).append((name, info))
    if as_written:
        missing, present = await _split_missing(ctx, operands)
        shown = iter(present)
        await visit_operands(ctx, "ls", present, visit)
    else:
        missing = await visit_operands(ctx, "ls", operands, visit)
    files.sort(key=lambda item: c_locale_key(item[0]))
    directories.sort(key=lambda item: c_locale_key(item[0]))
    return files, directories, missing


async def _split_missing(ctx: CommandContext, operands: list[str]) -> tuple[list[str], list[str]]:
    """(missing operands as written, present ones)."""
    missing, present = [], []
    for operand in operands:
        try:
            exists = (await ctx.vfs.stat(operand)).exists
        except FS_ERRORS:
            exists = True  # let the listing report the failure itself
        (present if exists else missing).append(operand)
    return missing, present


async def _directory_blocks(ctx: CommandContext, path: str, shown: str, options: LsOptions,
                            with_header: bool) -> list[str]:
    """One directory's listing; with -R, a `name:` section for it and for each directory
    below, in pre-order (a stack rather than recursion, so no tree is too deep)."""
    blocks: list[str] = []
    stack = [(path, shown, with_header)]
    while stack:
        directory, label, header = stack.pop()
        entries = await list_entries(ctx, directory, options)
        body = await _render(ctx, entries, options, True)
        blocks.append((f"{label}:\n{body}" if body else f"{label}:") if header else body)
        if options.recursive:
            below = [(entry.info.path, _child_label(label, entry.name))
                     for entry in entries if entry.info.is_dir and not entry.synthetic]
            stack.extend((child, child_label, True) for child, child_label in reversed(below))
    return [block for block in blocks if block]


def _child_label(label: str, name: str) -> str:
    return label + name if label.endswith("/") else f"{label}/{name}"


async def list_entries(ctx: CommandContext, directory: str, options: LsOptions) -> list[LsEntry]:
    entries: list[LsEntry] = []
    try:
        if options.all:
            entries.append(LsEntry(".", await ctx.vfs.stat(directory), True))
            entries.append(LsEntry("..", await ctx.vfs.stat(parent_of(directory)), True))
        for name, path, _ in await sorted_children(ctx, directory):
            if options.all or options.almost_all or not name.startswith("."):
                entries.append(LsEntry(name, await ctx.vfs.stat(path)))
    except FS_ERRORS as error:
        raise CommandFailed(await _listing_failure(ctx, directory, error)) from None
    return entries


async def _listing_failure(ctx: CommandContext, directory: str, error: BaseException) -> CommandResult:
    if getattr(error, "code", None) == "ENOTDIR":
        return err(f"ls: not a directory: {directory}. Use: stat {directory}")
    if getattr(error, "code", None) == "ENOENT":
        return err(f"ls: path not found: {directory}")
    return await fs_failure(ctx, "ls", directory, error)


async def _render(ctx: CommandContext, entries: list[LsEntry], options: LsOptions, in_directory: bool) -> str:
    """A block of entries: GNU's order, decorations and long format in the bash language."""
    if not options.gnu:
        return render_entries(entries, options)
    entries = ls_gnu.ordered(entries, options)
    if options.format in ("columns", "across", "commas"):
        names = [ls_gnu.decorated(entry, options) for entry in entries]
        return ls_gnu.multi_column(names, options.format, options.width, options.tabsize)
    if not options.long:
        return "\n".join(ls_gnu.decorated(entry, options) for entry in entries)
    links = {entry.info.path: 2 + await _subdirectories(ctx, entry.info.path)
             for entry in entries if entry.info.is_dir}
    return "\n".join(ls_gnu.long_lines(entries, options, links, ctx.timezone, in_directory))


async def _subdirectories(ctx: CommandContext, path: str) -> int:
    try:
        return sum(1 for name in await ctx.vfs.listdir(path) if name.endswith("/"))
    except FS_ERRORS:
        return 0


def render_entries(entries: list[LsEntry], options: LsOptions) -> str:
    return "\n".join(_render_entry(entry, options) for entry in entries)


def _render_entry(entry: LsEntry, options: LsOptions) -> str:
    if not options.long:
        return entry.name
    kind = "d" if entry.info.is_dir else "-"
    return f"{kind} {str(entry.info.size).rjust(8)} {iso_timestamp(entry.info.modified_epoch_ms)} {entry.name}"


def iso_timestamp(epoch_ms: int) -> str:
    """JavaScript's `new Date(ms).toISOString()` (`2023-11-14T22:13:20.001Z`), in exact
    integer arithmetic: a float division would turn .001 into .000999."""
    seconds, millis = divmod(int(epoch_ms), 1000)
    try:
        moment = _EPOCH + dt.timedelta(seconds=seconds)
    except OverflowError:
        return str(epoch_ms)
    if not 1 <= moment.year <= 9999:
        return str(epoch_ms)
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
            f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}.{millis:03d}Z")


LS = CommandSpec(
    name="ls",
    summary="List files or directories in the rooted virtual file system.",
    usage=LS_USAGE,
    details="Examples:\n  ls\n  ls -a /\n  ls -R /logs\n  ls -l notes",
    group="fs",
    handler=cmd_ls,
    accepts_stdin=False, min_args=0, conformance_args=("/",),
)

COMMANDS = [LS]
