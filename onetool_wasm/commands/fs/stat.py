"""`stat`: upstream's metadata lines in the strict grammar; GNU stat in the bash language.

The bash language prints GNU's default block, `-c/--format` (a newline after each file),
`--printf` (backslash escapes, no newline) and `-t` (terse). What the VFS knows is real: name,
size, type, permission bits, modification time. What it cannot know is fixed: owner and
group `user` (uid/gid 1000, as `ls -l` shows them), device 254,0 (`%d` 65024, `%D` fe00),
an inode number derived from the path (stable, not unique across renames), links 1 for a
file and 2 plus its subdirectories for a directory, 4096-byte I/O blocks and 512-byte
block counts of a 4 KiB-block file system, a directory's size 4096, access and change times
equal to the modification time, an unknown birth time (`-`, `%W` 0), mount point `/`.
There are no links: `-L` is accepted and changes nothing.
"""
from __future__ import annotations

import datetime as dt
import re
import zlib

from ...result import CommandResult, err, ok
from ..fs_common import FS_ERRORS, stat_or_fail
from ..spec import CommandContext, CommandSpec
from ._modes import mode_of, mode_string

_TRY = "Try 'stat --help' for more information."
UID = GID = 1000
OWNER = GROUP = "user"
DEVICE = (254, 0)
IO_BLOCK = 4096
DEFAULT_FORMAT = ("  File: %n\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n"
                  "Device: %Hd,%Ld\tInode: %-11i Links: %h\n"
                  "Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n"
                  "Access: %x\nModify: %y\nChange: %z\n Birth: %w\n")
TERSE_FORMAT = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
_DIRECTIVE = re.compile(r"%([-#0+ ']*)(\d*)(?:\.(\d*))?([HL]?)(.?)", re.S)
_NUMERIC = set("abBdDfghiostTuWXYZ")


# -- the strict grammar: upstream's lines ------------------------------------------------------

async def _upstream_stat(ctx: CommandContext, args: list[str]) -> CommandResult:
    if len(args) != 1:
        return err("stat: usage: stat <path>")
    info = await stat_or_fail(ctx, "stat", args[0])
    if not info.exists:
        return err(f"stat: path not found: {ctx.vfs.normalize(args[0])}")
    lines = [f"path: {info.path}",
             f"type: {'directory' if info.is_dir else 'file'}",
             f"size: {info.size} bytes",
             f"media_type: {info.media_type}",
             f"modified_epoch_ms: {info.modified_epoch_ms}"]
    return ok("\n".join(lines) + "\n")


# -- the bash language: GNU stat -----------------------------------------------------------------

class _Usage(Exception):
    pass


def _parse(args: list[str]) -> tuple[str | None, bool, bool, list[str]]:
    """(format, printf-style, terse, files)."""
    fmt: str | None = None
    printf = terse = False
    files: list[str] = []
    index = 0
    ended = False
    while index < len(args):
        arg = args[index]
        index += 1
        if ended or arg == "-" or not arg.startswith("-"):
            files.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name in ("--format", "--printf"):
                if not eq:
                    if index >= len(args):
                        raise _Usage(f"stat: option '{name}' requires an argument")
                    value, index = args[index], index + 1
                fmt, printf = value, name == "--printf"
            elif name in ("--dereference", "--terse", "--cached") and (not eq or name == "--cached"):
                terse = terse or name == "--terse"
            elif name == "--file-system":
                raise _Usage("stat: --file-system is not supported here (the VFS has no file systems)")
            else:
                raise _Usage(f"stat: unrecognized option '{arg}'")
        else:
            position = 1
            while position < len(arg):
                letter = arg[position]
                position += 1
                if letter == "c":
                    value = arg[position:]
                    if not value:
                        if index >= len(args):
                            raise _Usage("stat: option requires an argument -- 'c'")
                        value, index = args[index], index + 1
                    fmt, printf = value, False
                    break
                if letter == "t":
                    terse = True
                elif letter == "f":
                    raise _Usage("stat: -f is not supported here (the VFS has no file systems)")
                elif letter != "L":
                    raise _Usage(f"stat: invalid option -- '{letter}'")
    return fmt, printf, terse, files


async def cmd_stat(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar != "bash":
        return await _upstream_stat(ctx, args)
    try:
        fmt, printf, terse, files = _parse(args)
    except _Usage as usage:
        return CommandResult(b"", f"{usage}\n{_TRY}", 1)
    if not files:
        return CommandResult(b"", f"stat: missing operand\n{_TRY}", 1)
    if fmt is None:
        fmt = TERSE_FORMAT if terse else DEFAULT_FORMAT
    elif not printf:
        fmt += "\n"
    out: list[str] = []
    errors: list[str] = []
    for operand in files:
        try:
            info = await ctx.vfs.stat(operand)
        except FS_ERRORS:
            info = None
        if info is None or not info.exists:
            errors.append(f"stat: cannot statx '{operand}': No such file or directory")
            continue
        links = 2 + await _subdirectories(ctx, info.path) if info.is_dir else 1
        out.append(render(fmt, operand, info, links, ctx.timezone, printf))
    return CommandResult("".join(out).encode("utf-8", "surrogateescape"), "\n".join(errors), 1 if errors else 0)


async def _subdirectories(ctx: CommandContext, path: str) -> int:
    try:
        return sum(1 for name in await ctx.vfs.listdir(path) if name.endswith("/"))
    except FS_ERRORS:
        return 0


def render(fmt: str, name: str, info: object, links: int, zone: dt.tzinfo | None, printf: bool) -> str:
    """One file's text: the directives of `fmt` filled in (backslash escapes with --printf)."""
    if printf:
        fmt = _unescape(fmt)
    fields = _Fields(name, info, links, zone)
    return _DIRECTIVE.sub(fields.directive, fmt)


class _Fields:
    def __init__(self, name: str, info: object, links: int, zone: dt.tzinfo | None) -> None:
        self.name, self.info, self.links, self.zone = name, info, links, zone
        self.is_dir = bool(getattr(info, "is_dir", False))
        self.size = IO_BLOCK if self.is_dir else int(getattr(info, "size", 0))
        self.mode = mode_of(info) & 0o777
        self.mtime_ms = int(getattr(info, "modified_epoch_ms", 0))

    def directive(self, match: re.Match[str]) -> str:
        flags, width, precision, part, letter = match.groups()
        if letter == "%" and not (flags or width or precision or part):
            return "%"
        if letter == "":
            return "%" + flags + width + part  # GNU prints a trailing lone % as it is
        value = self.value(letter, part)
        if value is None:
            return "?"
        if letter in "xyzw" and precision is not None:
            precision = None
        if isinstance(value, int) or letter in _NUMERIC:
            return _format_number(str(value), flags, width, precision, letter)
        text = value if precision is None else value[:int(precision or 0)]
        pad = max(0, int(width or 0) - len(text))
        return text + " " * pad if "-" in flags else " " * pad + text

    def value(self, letter: str, part: str) -> str | int | None:
        seconds = self.mtime_ms // 1000
        if letter == "d" and part:
            return DEVICE[0] if part == "H" else DEVICE[1]
        if letter in "rR" or (letter in "tT" and part):
            return 0
        table = {
            "n": self.name, "N": _quoted(self.name), "s": self.size,
            "b": -(-self.size // IO_BLOCK) * (IO_BLOCK // 512), "B": 512, "o": IO_BLOCK,
            "F": "directory" if self.is_dir else "regular file" if self.size else "regular empty file",
            "a": format(self.mode, "o"), "A": mode_string(self.mode, self.is_dir),
            "f": format(self.mode | (0o40000 if self.is_dir else 0o100000), "x"),
            "u": UID, "g": GID, "U": OWNER, "G": GROUP, "h": self.links,
            "i": _inode(getattr(self.info, "path", self.name)),
            "d": DEVICE[0] << 8 | DEVICE[1], "D": format(DEVICE[0] << 8 | DEVICE[1], "x"),
            "t": 0, "T": 0, "m": "/",
            "X": seconds, "Y": seconds, "Z": seconds, "W": 0,
            "x": self.stamp(), "y": self.stamp(), "z": self.stamp(), "w": "-",
            "C": "?",
        }
        return table.get(letter)

    def stamp(self) -> str:
        seconds, millis = divmod(self.mtime_ms, 1000)
        try:
            moment = dt.datetime.fromtimestamp(seconds, tz=self.zone or dt.timezone.utc)
            if self.zone is None:
                moment = moment.astimezone()
        except (OverflowError, OSError, ValueError):
            return "?"
        offset = moment.strftime("%z") or "+0000"
        return f"{moment:%Y-%m-%d %H:%M:%S}.{millis:03d}000000 {offset}"


def _format_number(text: str, flags: str, width: str, precision: str | None, letter: str) -> str:
    if letter == "a" and "#" in flags and not text.startswith("0"):
        text = "0" + text
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    if precision and digits.isdigit():
        digits = digits.rjust(int(precision), "0")
    sign = "-" if negative else "+" if "+" in flags and digits.isdigit() else " " if " " in flags and digits.isdigit() else ""
    body = sign + digits
    size = int(width or 0)
    if len(body) >= size:
        return body
    if "-" in flags:
        return body + " " * (size - len(body))
    if "0" in flags and precision is None:
        return sign + digits.rjust(size - len(sign), "0")
    return body.rjust(size)


def _quoted(name: str) -> str:
    """%N: the name in single quotes (GNU's shell-escape-always style for plain names)."""
    return "'" + name.replace("'", "'\\''") + "'"


def _inode(path: str) -> int:
    return 1_000_000 + zlib.crc32(path.encode("utf-8", "surrogateescape")) % 9_000_000


_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\", '"': '"', "'": "'"}


def _unescape(text: str) -> str:
    """--printf's backslash escapes: \\n \\t ... \\NNN (octal) \\xHH."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 >= len(text):
            out.append(char)
            index += 1
            continue
        nxt = text[index + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            index += 2
        elif nxt in "01234567":
            match = re.match(r"[0-7]{1,3}", text[index + 1:])
            assert match is not None
            out.append(chr(int(match.group(), 8) & 0xFF))
            index += 1 + len(match.group())
        elif nxt == "x" and re.match(r"[0-9a-fA-F]", text[index + 2:index + 3]):
            match = re.match(r"[0-9a-fA-F]{1,2}", text[index + 2:])
            assert match is not None
            out.append(chr(int(match.group(), 16)))
            index += 2 + len(match.group())
        else:
            out.append("\\" + nxt)
            index += 2
    return "".join(out)


STAT = CommandSpec(
    name="stat",
    summary="Show one-tool file metadata such as size, type, and modified time.",
    usage="stat <path>",
    details=("Returns one-tool metadata fields for the rooted workspace. "
             "It does not aim for POSIX stat output parity.\n"
             "Examples:\n  stat /logs/app.log\n  stat notes/todo.txt"),
    group="fs",
    handler=cmd_stat,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=("/missing",),
)

COMMANDS = [STAT]
