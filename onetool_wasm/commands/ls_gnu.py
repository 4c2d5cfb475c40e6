"""GNU ls's options and long format, for `ls` in the bash language (fs_listing.py).

The VFS keeps no owners, modes or links, so the long format shows what a fresh checkout
would: `-rw-r--r--` files and `drwxr-xr-x` directories owned by `user`, a directory's link
count as 2 plus its subdirectories, sizes, and modification times in the host's zone (or
the context's), as GNU prints them: `Mon DD HH:MM` within six months, `Mon DD  YYYY` beyond.
"""
from __future__ import annotations

import datetime as dt
import math
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .fs_listing import LsEntry, LsOptions

# Accepted without effect here: q N (names print as they are), U v (name order), G C x.
FLAGS = "1aAlRhtSrdFpCxqNUvGogn"
LONG_FLAGS = {"--all": "a", "--almost-all": "A", "--recursive": "R", "--human-readable": "h",
              "--reverse": "r", "--directory": "d", "--classify": "F"}
_SIX_MONTHS_MS = 183 * 86_400_000


def parse_flags(args: list[str]) -> tuple[set[str], list[str], str | None]:
    """(flags, operands, error): GNU's bundled letters and the long forms above."""
    flags: set[str] = set()
    operands: list[str] = []
    ended = False
    for arg in args:
        if ended or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
        elif arg == "--":
            ended = True
        elif arg.startswith("--"):
            if arg not in LONG_FLAGS:
                return flags, operands, f"ls: unrecognized option '{arg}'"
            flags.add(LONG_FLAGS[arg])
        else:
            for letter in arg[1:]:
                if letter not in FLAGS:
                    return flags, operands, f"ls: invalid option -- '{letter}'"
                flags.add(letter)
    return flags, operands, None


def ordered(entries: list["LsEntry"], options: "LsOptions") -> list["LsEntry"]:
    """-t newest first, -S largest first (ties by name), -r reversed; `.` and `..` lead."""
    synthetic = [entry for entry in entries if entry.synthetic]
    rest = [entry for entry in entries if not entry.synthetic]
    if options.sort == "time":
        rest.sort(key=lambda entry: (-entry.info.modified_epoch_ms, entry.name.encode("utf-8", "surrogateescape")))
    elif options.sort == "size":
        rest.sort(key=lambda entry: (-_size(entry), entry.name.encode("utf-8", "surrogateescape")))
    if options.reverse:
        rest.reverse()
    return synthetic + rest


def decorated(entry: "LsEntry", options: "LsOptions") -> str:
    if (options.classify or options.slash) and entry.info.is_dir:
        return entry.name + "/"
    return entry.name


def long_lines(entries: list["LsEntry"], options: "LsOptions", links: dict[str, int],
               zone: dt.tzinfo | None, with_total: bool) -> list[str]:
    """`total N` (1 KiB blocks, as a 4 KiB-block file system counts them) and one line an entry."""
    now_ms = time.time() * 1000
    sizes = [_human(_size(e)) if options.human else str(_size(e)) for e in entries]
    counts = [str(links.get(e.info.path, 2) if e.info.is_dir else 1) for e in entries]
    size_width = max((len(s) for s in sizes), default=1)
    link_width = max((len(c) for c in counts), default=1)
    lines = []
    if with_total:
        blocks = sum(_blocks(e) for e in entries)
        lines.append(f"total {_human(blocks * 1024) if options.human else blocks}")
    for entry, size, count in zip(entries, sizes, counts):
        mode = "drwxr-xr-x" if entry.info.is_dir else "-rw-r--r--"
        stamp = _timestamp(entry.info.modified_epoch_ms, now_ms, zone)
        lines.append(f"{mode} {count:>{link_width}} user user {size:>{size_width}} {stamp} {decorated(entry, options)}")
    return lines


def _size(entry: "LsEntry") -> int:
    return 4096 if entry.info.is_dir else entry.info.size


def _blocks(entry: "LsEntry") -> int:
    size = _size(entry)
    return -(-size // 4096) * 4


def _human(size: int) -> str:
    """GNU's -h: bytes as they are below 1024, else rounded up, one decimal under 10."""
    if size < 1024:
        return str(size)
    value = float(size)
    for unit in "KMGTPE":
        value /= 1024
        if value < 1024 or unit == "E":
            tenths = math.ceil(value * 10) / 10
            return f"{tenths:.1f}{unit}" if tenths < 10 else f"{math.ceil(value)}{unit}"
    return str(size)


def _timestamp(epoch_ms: int, now_ms: float, zone: dt.tzinfo | None) -> str:
    try:
        moment = dt.datetime.fromtimestamp(epoch_ms / 1000, tz=zone or dt.timezone.utc)
        if zone is None:
            moment = moment.astimezone()
    except (OverflowError, OSError, ValueError):
        return "Jan  1  1970"
    month = moment.strftime("%b")
    if abs(now_ms - epoch_ms) < _SIX_MONTHS_MS:
        return f"{month} {moment.day:>2} {moment.hour:02d}:{moment.minute:02d}"
    return f"{month} {moment.day:>2}  {moment.year}"
