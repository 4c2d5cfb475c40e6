"""touch: create files or give them a modified time.

The bash language speaks GNU coreutils: -c, -a / -m (the VFS keeps one time, so -a alone
leaves it), -d STRING (`2024-01-15`, `2024-01-15 10:30[:45]`, `@EPOCH`, `now`, `today`,
`yesterday`, `tomorrow`; UTC), -t [[CC]YY]MMDDhhmm[.ss], -r REF. A time other than now is set
only when the VFS can set one (`set_mtime`); otherwise it is read and checked, and the file
is created or refreshed. The strict grammar keeps upstream's `touched` / `created` reports.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from ...result import CommandResult, err
from ..fs_common import FS_ERRORS, file_write_failure, stat_or_fail
from ..getopt import NONE, REQUIRED
from ..helpers import usage_error
from ..options import ArgReader, unknown_option
from ..spec import CommandContext, CommandFailed, CommandSpec
from ._mutate import done, gnu_options, mtime_setter, reason

TOUCH_USAGE = "touch [-c] <path> [path ...]"
_LONG = {"no-create": ("c", NONE), "date": ("d", REQUIRED), "reference": ("r", REQUIRED),
         "time": ("time", REQUIRED), "no-dereference": ("h", NONE)}
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?"
                   r"\s*(?:Z|UTC|utc)?")
_STAMP = re.compile(r"(\d{8}|\d{10}|\d{12})(?:\.(\d{2}))?")


async def cmd_touch(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await gnu_touch(ctx, args)
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
    return done(ctx, "".join(f"{line}\n" for line in lines))


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


# -- the bash language --------------------------------------------------------------------

def parse_date(text: str, now: float) -> float | None:
    """Seconds since the epoch for touch -d's simple forms (UTC); None when not understood."""
    word = text.strip()
    lowered = word.lower()
    if lowered in ("now", "today", ""):
        return now if word else _midnight(now)
    if lowered in ("yesterday", "tomorrow"):
        return now + (86400 if lowered == "tomorrow" else -86400)
    if word.startswith("@"):
        match = re.fullmatch(r"@([-+]?\d+)(?:\.(\d+))?", word)
        if not match:
            return None
        whole = int(match.group(1))
        fraction = float("0." + match.group(2)) if match.group(2) else 0.0
        return whole + (-fraction if match.group(1).startswith("-") else fraction)
    match = _DATE.fullmatch(word)
    if not match:
        return None
    year, month, day, hour, minute, second, fraction = match.groups()
    try:
        moment = datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0),
                          tzinfo=timezone.utc)
    except ValueError:
        return None
    return moment.timestamp() + (float("0." + fraction) if fraction else 0.0)


def _midnight(now: float) -> float:
    return now  # GNU's empty -d string means midnight today; `today` means now


def parse_stamp(text: str, now: float) -> float | None:
    """touch -t [[CC]YY]MMDDhhmm[.ss] in UTC; None when invalid."""
    match = _STAMP.fullmatch(text)
    if not match:
        return None
    digits, seconds = match.group(1), match.group(2)
    if len(digits) == 12:
        year = int(digits[:4])
        digits = digits[4:]
    elif len(digits) == 10:
        short = int(digits[:2])
        year = 1900 + short if short >= 69 else 2000 + short
        digits = digits[2:]
    else:
        year = datetime.fromtimestamp(now, tz=timezone.utc).year
    month, day, hour, minute = (int(digits[i:i + 2]) for i in range(0, 8, 2))
    second = int(seconds) if seconds else 0
    leap = second == 60
    try:
        moment = datetime(year, month, day, hour, minute, 59 if leap else second, tzinfo=timezone.utc)
    except ValueError:
        return None
    return moment.timestamp() + (1 if leap else 0)


async def gnu_touch(ctx: CommandContext, args: list[str]) -> CommandResult:
    parsed, operands = gnu_options("touch", args, "acd:fhmr:t:", _LONG)
    no_create, only_access = False, False
    letters = {key for key, _ in parsed}
    when: float | None = None
    now = ctx.clock()
    for key, value in parsed:
        if key == "c":
            no_create = True
        elif key == "time":
            if value in ("atime", "access", "use"):
                letters.add("a")
            elif value in ("mtime", "modify"):
                letters.add("m")
            else:
                return err(f"touch: invalid argument '{value}' for '--time'\nValid arguments are:\n"
                           "  - 'atime', 'access', 'use'\n  - 'mtime', 'modify'\n"
                           "Try 'touch --help' for more information.", 1)
        elif key in ("d", "t"):
            parse = parse_date if key == "d" else parse_stamp
            when = parse(value or "", now)
            if when is None:
                return err(f"touch: invalid date format '{value}'", 1)
    if "t" in letters and ("d" in letters or "r" in letters):
        return err("touch: cannot specify times from more than one source\n"
                   "Try 'touch --help' for more information.", 1)
    for key, value in parsed:
        if key == "r":
            try:
                info = await ctx.vfs.stat(value or "")
            except FS_ERRORS as error:
                return err(f"touch: failed to get attributes of '{value}': {reason(error)}", 1)
            if not info.exists:
                return err(f"touch: failed to get attributes of '{value}': No such file or directory", 1)
            if "d" not in letters:
                when = info.modified_epoch_ms / 1000
    only_access = "a" in letters and "m" not in letters
    if not operands:
        return err("touch: missing file operand\nTry 'touch --help' for more information.", 1)
    errors: list[str] = []
    for path in operands:
        message = await _gnu_touch_one(ctx, path, no_create, only_access, when)
        if message:
            errors.append(message)
    return CommandResult(b"", "\n".join(errors), 1 if errors else 0)


async def _gnu_touch_one(ctx: CommandContext, path: str, no_create: bool, only_access: bool,
                         when: float | None) -> str | None:
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS as error:
        return f"touch: cannot touch '{path}': {reason(error)}"
    if not info.exists:
        if no_create:
            return None
        parent = ctx.vfs.normalize(path).rsplit("/", 1)[0] or "/"
        try:
            parent_info = await ctx.vfs.stat(parent)
        except FS_ERRORS as error:
            return f"touch: cannot touch '{path}': {reason(error)}"
        if not parent_info.exists:
            return f"touch: cannot touch '{path}': No such file or directory"
        if not parent_info.is_dir:
            return f"touch: cannot touch '{path}': Not a directory"
        if path.endswith("/"):
            return f"touch: setting times of '{path}': No such file or directory"
    if only_access and info.exists:
        return None  # the VFS keeps no access time
    try:
        setter = mtime_setter(ctx)
        if info.exists and info.is_dir:
            if setter is not None:
                await setter(path, int((when if when is not None else ctx.clock()) * 1000))
            return None
        if not info.exists:
            await ctx.vfs.write_bytes(path, b"", False)
        if setter is not None:
            await setter(path, int((when if when is not None else ctx.clock()) * 1000))
        elif info.exists and when is None:
            await ctx.vfs.write_bytes(path, await ctx.vfs.read_bytes(path), False)  # now, by rewriting
    except FS_ERRORS as error:
        return f"touch: cannot touch '{path}': {reason(error)}"
    return None


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

COMMANDS = [TOUCH]
