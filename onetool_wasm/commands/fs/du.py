"""du: the space files and directories take, as GNU coreutils du prints it.

A virtual file system allocates no disk blocks, so sizes are apparent sizes: what
`du --apparent-size` prints (a file's bytes; a directory counts 4096 bytes of its own, as
on ext4 and as `ls -l` shows here), summed, then rounded up to 1 KiB units (-k), MiB (-m),
bytes (-b), -B SIZE units, or human units (-h powers of 1024, --si of 1000). Directories
print after their contents (children in C-locale name order), each line `SIZE<TAB>PATH`;
-a adds files, -s only the operands, -d N stops printing below depth N, -c adds a total,
-S leaves subdirectories out of a directory's size, --exclude / -X skip matching paths
(and their contents), -0 ends lines with NUL. With several operands, what one of them
already counted is not counted again, as GNU does.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ...result import TEXT, CommandResult
from ..fs_common import sorted_children
from ..fs_glob import compile_glob
from ..getopt import NONE, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS, read_file_bytes
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = "du [OPTION]... [FILE]..."
DIRECTORY_SIZE = 4096
TRY = "Try 'du --help' for more information."
_SHORT = "0abcd:hHklLmsSxB:DPX:"
_LONG = {
    "null": ("0", NONE), "all": ("a", NONE), "apparent-size": ("apparent-size", NONE), "bytes": ("b", NONE),
    "total": ("c", NONE), "max-depth": ("d", REQUIRED), "human-readable": ("h", NONE), "si": ("si", NONE),
    "count-links": ("l", NONE), "dereference": ("L", NONE), "dereference-args": ("D", NONE),
    "no-dereference": ("P", NONE), "summarize": ("s", NONE), "separate-dirs": ("S", NONE),
    "one-file-system": ("x", NONE), "block-size": ("B", REQUIRED), "exclude": ("exclude", REQUIRED),
    "exclude-from": ("X", REQUIRED), "threshold": ("t", REQUIRED), "time": ("time", NONE),
    "inodes": ("inodes", NONE), "files0-from": ("files0-from", REQUIRED), "help": ("help", NONE),
    "version": ("version", NONE),
}
_POWERS = "KMGTPEZYRQ"


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


@dataclass
class Units:
    """How a size in bytes prints: in blocks of `block` bytes rounded up (with `suffix`
    when the size was given as a bare unit, `-BK`), or in human units."""
    block: int = 1024
    suffix: str = ""
    human: int = 0   # 1024 (-h) or 1000 (--si); 0: blocks

    def show(self, size: int) -> str:
        if self.human:
            return _human(size, self.human)
        return f"{-(-size // self.block)}{self.suffix}"


def _human(size: int, base: int) -> str:
    """GNU's -h / --si: bytes as they are below one unit, else rounded up to one decimal
    under 10, to a whole number from 10."""
    if size < base:
        return str(size)
    value = float(size)
    for index, unit in enumerate(_POWERS):
        value /= base
        if value < base or index == len(_POWERS) - 1:
            letter = "k" if base == 1000 and unit == "K" else unit
            tenths = math.ceil(value * 10 - 1e-9) / 10
            if tenths < 10:
                return f"{tenths:.1f}{letter}"
            whole = math.ceil(value - 1e-9)
            if whole >= base and index < len(_POWERS) - 1:
                continue
            return f"{whole}{letter}"
    return str(size)


_BLOCK = re.compile(r"([0-9]*)([KMGTPEZYRQk]?)(B|iB)?")


def block_units(text: str) -> Units:
    """-B SIZE: `1`, `512`, `K`, `1K`, `KB` (1000), `KiB`, `1M`, `G`... A bare unit
    prints after each number (`-BK` gives `9K`)."""
    match = _BLOCK.fullmatch(text)
    if match is None or not (match.group(1) or match.group(2)):
        raise _failure(f"du: invalid -B argument '{text}'")
    digits, unit, tail = match.groups()
    base = 1000 if tail == "B" else 1024
    scale = base ** (_POWERS.index(unit.upper()) + 1) if unit else 1
    block = int(digits or "1") * scale
    if block <= 0:
        raise _failure(f"du: invalid -B argument '{text}'")
    suffix = ""
    if not digits:
        suffix = ("k" if unit in "Kk" and tail == "B" else unit.upper()) + (tail or "")
    return Units(block, suffix)


@dataclass
class DuOptions:
    all: bool = False
    total: bool = False
    summarize: bool = False
    max_depth: int | None = None
    separate: bool = False
    count_links: bool = False
    units: Units = field(default_factory=Units)
    end: str = "\n"
    excludes: list[re.Pattern[str]] = field(default_factory=list)
    exclude_files: list[str] = field(default_factory=list)
    help: bool = False


def parse_options(args: list[str]) -> tuple[DuOptions, list[str], list[str]]:
    """(options, operands, warnings)."""
    parsed, operands = gnu_getopt("du", USAGE, args, _SHORT, _LONG)
    options = DuOptions()
    warnings: list[str] = []
    for key, value in parsed:
        _apply(options, key, value or "")
    if options.summarize and options.all:
        raise _failure("du: cannot both summarize and show all entries", TRY)
    if options.summarize and options.max_depth is not None:
        if options.max_depth != 0:
            raise _failure(f"du: warning: summarizing conflicts with --max-depth={options.max_depth}", TRY)
        warnings.append("du: warning: summarizing is the same as using --max-depth=0")
    if options.summarize:
        options.max_depth = 0
    return options, operands, warnings


def _apply(options: DuOptions, key: str, value: str) -> None:
    if key == "0":
        options.end = "\0"
    elif key == "a":
        options.all = True
    elif key == "b":
        options.units = Units(1)
    elif key == "c":
        options.total = True
    elif key == "d":
        if not re.fullmatch(r"[0-9]+", value):
            raise _failure(f"du: invalid maximum depth '{value}'", TRY)
        options.max_depth = min(int(value), 1 << 31)
    elif key == "h":
        options.units = Units(human=1024)
    elif key == "si":
        options.units = Units(human=1000)
    elif key == "k":
        options.units = Units(1024)
    elif key == "m":
        options.units = Units(1024 * 1024)
    elif key == "B":
        options.units = block_units(value)
    elif key == "s":
        options.summarize = True
    elif key == "S":
        options.separate = True
    elif key == "l":
        options.count_links = True
    elif key == "exclude":
        options.excludes.append(compile_glob(value))
    elif key == "X":
        options.exclude_files.append(value)
    elif key == "help":
        options.help = True
    elif key in ("t", "time", "inodes", "files0-from", "version"):
        raise usage_failure("du", f"--{key if len(key) > 1 else 'threshold'} is not supported", USAGE)
    # --apparent-size: always so here; -H -L -D -P -x: no links, one file system


def excluded(path: str, patterns: list[re.Pattern[str]]) -> bool:
    """gnulib's unanchored exclude: the pattern matches the whole path, or what follows
    any `/` in it (`--exclude=deep` skips `./d2/deep`, `--exclude='*.log'` any log)."""
    if not patterns:
        return False
    tails = [path] + [path[index + 1:] for index, char in enumerate(path) if char == "/" and path[index + 1:]]
    return any(pattern.fullmatch(tail) for pattern in patterns for tail in tails)


class _Walk:
    def __init__(self, ctx: CommandContext, options: DuOptions, dedupe: bool) -> None:
        self.ctx = ctx
        self.options = options
        self.dedupe = dedupe
        self.seen: set[str] = set()
        self.lines: list[str] = []

    def emit(self, size: int, shown: str) -> None:
        self.lines.append(f"{self.options.units.show(size)}\t{shown}{self.options.end}")

    def first_visit(self, path: str) -> bool:
        if not self.dedupe:
            return True
        if path in self.seen:
            return False
        self.seen.add(path)
        return True

    async def operand(self, shown: str, path: str, is_dir: bool, size: int) -> int:
        if excluded(shown, self.options.excludes) or not self.first_visit(path):
            return 0
        if not is_dir:
            self.emit(size, shown)
            return size
        total, _ = await self.directory(shown, path, 0)
        return total

    async def directory(self, shown: str, path: str, depth: int) -> tuple[int, int]:
        """(size with everything below, size as printed: without subdirectories under -S)."""
        if self.ctx.cancelled():
            raise _failure("du: interrupted")
        total = own = DIRECTORY_SIZE
        prefix = shown if shown.endswith("/") else shown + "/"
        for name, child, is_dir in await sorted_children(self.ctx, path):
            child_shown = prefix + name
            if excluded(child_shown, self.options.excludes) or not self.first_visit(child):
                continue
            if is_dir:
                below, _ = await self.directory(child_shown, child, depth + 1)
                total += below
                continue
            size = (await self.ctx.vfs.stat(child)).size
            total += size
            own += size
            if self.options.all and self.shows(depth + 1):
                self.emit(size, child_shown)
        printed = own if self.options.separate else total
        if self.shows(depth):
            self.emit(printed, shown)
        return total, printed

    def shows(self, depth: int) -> bool:
        return self.options.max_depth is None or depth <= self.options.max_depth


async def _exclude_file_patterns(ctx: CommandContext, path: str, stdin: bytes) -> list[re.Pattern[str]]:
    try:
        data = stdin if path == "-" else await read_file_bytes(ctx, "du", path)
    except FS_ERRORS:
        raise _failure(f"du: {path}: No such file or directory") from None
    return [compile_glob(line) for line in data.decode("utf-8", "surrogateescape").splitlines() if line]


async def cmd_du(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands, warnings = parse_options(args)
    if options.help:
        return CommandResult((DU.help_text() + "\n").encode("utf-8"), "", 0, TEXT)
    for path in options.exclude_files:
        options.excludes.extend(await _exclude_file_patterns(ctx, path, stdin))
    operands = operands or ["."]
    walk = _Walk(ctx, options, dedupe=len(operands) > 1 and not options.count_links)
    errors = list(warnings)
    failed = False
    grand = 0
    for operand in operands:
        try:
            info = await ctx.vfs.stat(operand) if operand else None
        except FS_ERRORS:
            info = None
        if info is None or not info.exists:
            errors.append(f"du: cannot access '{operand}': No such file or directory")
            failed = True
            continue
        try:
            grand += await walk.operand(operand, info.path, info.is_dir, info.size)
        except FS_ERRORS as error:
            errors.append(f"du: cannot read directory '{operand}': {getattr(error, 'code', error)}")
            failed = True
    if options.total:
        walk.emit(grand, "total")
    out = "".join(walk.lines).encode("utf-8", "surrogateescape")
    return CommandResult(out, "\n".join(errors), 1 if failed else 0, TEXT)


DU = CommandSpec(
    name="du",
    summary="Show how much space files and directories take (GNU du, apparent sizes).",
    usage=USAGE,
    details=("For each FILE (default .), prints `SIZE<TAB>PATH` for every directory below it, "
             "contents before their directory (children in name order), and a total per FILE. Sizes "
             "are apparent sizes (the bytes of the files; a directory counts 4096 of its own), as GNU "
             "`du --apparent-size` prints them, rounded up to KiB by default: a virtual file system has "
             "no disk blocks. -s: one line per FILE; -a: files too; -d N / --max-depth=N: only N levels "
             "deep; -c: a grand total; -h / --si: human units; -b bytes, -k KiB, -m MiB, -B SIZE; "
             "--exclude=PATTERN / -X FILE: skip matching paths; -S: leave subdirectories out; -0: NUL "
             "line ends.\n"
             "Examples:\n  du -sh /data\n  du -h -d 1 . | sort -h\n  du -ab src | sort -n | tail -5\n"
             "  du -sc logs/*.log\n  du -s --exclude='*.tmp' build"),
    group="fs", handler=cmd_du,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
)

COMMANDS = [DU]
