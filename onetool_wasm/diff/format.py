"""Rendering an edit script as GNU diff prints it: normal, unified, context and ed output.

Line numbers, hunk grouping, `\\ No newline at end of file` markers, the quoting of file
names in headers and the header time stamps all follow GNU diffutils (C locale).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo
from typing import Sequence

from .algorithm import Change

NO_NEWLINE = b"\\ No newline at end of file\n"
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
              "\v": "\\v", '"': '\\"', "\\": "\\\\"}


@dataclass(frozen=True)
class DiffSide:
    """One compared file: its display name, time stamp and lines (without "\\n")."""
    name: str
    modified_ms: int
    lines: Sequence[bytes]
    missing_newline: bool


@dataclass(frozen=True)
class Layout:
    """What GNU's options change in the text: `labels` replace the header names and times
    (-L), `nanoseconds` prints GNU's nine-digit stamps, `expand_tabs` (-t) prints tabs as
    spaces, `ignored` holds the indexes of changes -B / -I may hide."""
    labels: tuple[str | None, str | None] = (None, None)
    nanoseconds: bool = False
    expand_tabs: bool = False
    ignored: frozenset[int] = field(default_factory=frozenset)


_PLAIN = Layout()


def render(style: str, left: DiffSide, right: DiffSide, changes: list[Change], context: int,
           zone: tzinfo | None, layout: Layout | None = None) -> bytes:
    """The body for one pair of files: "normal", "unified", "context" or "ed" style."""
    layout = layout or _PLAIN
    if style == "unified":
        return _unified(left, right, changes, context, zone, layout)
    if style == "context":
        return _context(left, right, changes, context, zone, layout)
    if style == "ed":
        return _ed(left, right, changes, layout)
    return _normal(left, right, changes, layout)


# -- lines --------------------------------------------------------------------------------

def expand_tabs(text: bytes, start: int = 0) -> bytes:
    """Tabs as spaces to the next multiple of 8, counting columns from `start`."""
    if b"\t" not in text:
        return text
    out = bytearray()
    column = start
    for byte in text:
        if byte == 9:
            spaces = 8 - column % 8
            out += b" " * spaces
            column += spaces
        else:
            out.append(byte)
            column += 1
    return bytes(out)


def _line(out: list[bytes], side: DiffSide, index: int, flag: bytes, layout: Layout = _PLAIN) -> None:
    text = side.lines[index]
    out.append(flag + (expand_tabs(text) if layout.expand_tabs else text) + b"\n")
    if side.missing_newline and index == len(side.lines) - 1:
        out.append(NO_NEWLINE)


def _normal_range(first: int, last: int) -> str:
    """1-based "a,b", or the single number b when the range has one line or none."""
    a, b = first + 1, last + 1
    return f"{a},{b}" if b > a else f"{b}"


def _unified_range(first: int, last: int) -> str:
    a, b = first + 1, last + 1
    if b < a:
        return f"{b},0"
    return f"{b}" if b == a else f"{a},{b - a + 1}"


# -- normal -------------------------------------------------------------------------------

def _normal(left: DiffSide, right: DiffSide, changes: list[Change], layout: Layout = _PLAIN) -> bytes:
    out: list[bytes] = []
    for number, change in enumerate(changes):
        if number in layout.ignored:
            continue
        last0 = change.left + change.deleted - 1
        last1 = change.right + change.inserted - 1
        letter = "c" if change.deleted and change.inserted else "d" if change.deleted else "a"
        out.append(f"{_normal_range(change.left, last0)}{letter}{_normal_range(change.right, last1)}\n".encode())
        for index in range(change.left, last0 + 1):
            _line(out, left, index, b"< ", layout)
        if letter == "c":
            out.append(b"---\n")
        for index in range(change.right, last1 + 1):
            _line(out, right, index, b"> ", layout)
    return b"".join(out)


# -- ed -----------------------------------------------------------------------------------

def _ed(left: DiffSide, right: DiffSide, changes: list[Change], layout: Layout) -> bytes:
    """GNU's -e: the commands turning the left file into the right one, last change first."""
    out: list[bytes] = []
    for number in range(len(changes) - 1, -1, -1):
        if number in layout.ignored:
            continue
        change = changes[number]
        last0 = change.left + change.deleted - 1
        letter = "c" if change.deleted and change.inserted else "d" if change.deleted else "a"
        out.append(f"{_normal_range(change.left, last0)}{letter}\n".encode())
        if change.inserted:
            for index in range(change.right, change.right + change.inserted):
                text = right.lines[index]
                out.append((expand_tabs(text) if layout.expand_tabs else text) + b"\n")
            out.append(b".\n")
    return b"".join(out)


# -- hunks for unified and context output -------------------------------------------------

def hunks(changes: list[Change], context: int, ignored: frozenset[int] = frozenset()) -> list[list[Change]]:
    """Group changes whose surrounding context would touch or overlap (GNU: fewer than
    2 * context + 1 unchanged lines between them; `context` before a change -B / -I may
    hide). A hunk made only of hidden changes is left out."""
    groups: list[list[Change]] = []
    shown: list[bool] = []
    for number, change in enumerate(changes):
        if groups:
            previous = groups[-1][-1]
            threshold = context if number in ignored else 2 * context + 1
            if change.left - (previous.left + previous.deleted) < threshold:
                groups[-1].append(change)
                shown[-1] = shown[-1] or number not in ignored
                continue
        groups.append([change])
        shown.append(number not in ignored)
    return [group for group, visible in zip(groups, shown) if visible]


def _hunk_bounds(hunk: list[Change], context: int, left: DiffSide, right: DiffSide) -> tuple[int, int, int, int]:
    first, last = hunk[0], hunk[-1]
    first0 = max(first.left - context, 0)
    first1 = max(first.right - context, 0)
    last0 = min(last.left + last.deleted - 1 + context, len(left.lines) - 1)
    last1 = min(last.right + last.inserted - 1 + context, len(right.lines) - 1)
    return first0, last0, first1, last1


# -- unified ------------------------------------------------------------------------------

def _header(mark: str, side: DiffSide, label: str | None, stamp: str) -> bytes:
    if label is not None:
        return f"{mark} {label}\n".encode("utf-8", "surrogateescape")
    return f"{mark} {quote_name(side.name)}\t{stamp}\n".encode("utf-8", "surrogateescape")


def _unified(left: DiffSide, right: DiffSide, changes: list[Change], context: int, zone: tzinfo | None,
             layout: Layout = _PLAIN) -> bytes:
    out = [_header("---", left, layout.labels[0], unified_time(left.modified_ms, zone, layout.nanoseconds)),
           _header("+++", right, layout.labels[1], unified_time(right.modified_ms, zone, layout.nanoseconds))]
    for hunk in hunks(changes, context, layout.ignored):
        first0, last0, first1, last1 = _hunk_bounds(hunk, context, left, right)
        out.append(f"@@ -{_unified_range(first0, last0)} +{_unified_range(first1, last1)} @@\n".encode())
        i, j, next_change = first0, first1, 0
        while i <= last0 or j <= last1:
            if next_change == len(hunk) or i < hunk[next_change].left:
                _line(out, left, i, b" ", layout)  # context comes from the left file
                i += 1
                j += 1
                continue
            change = hunk[next_change]
            next_change += 1
            for index in range(i, i + change.deleted):
                _line(out, left, index, b"-", layout)
            for index in range(j, j + change.inserted):
                _line(out, right, index, b"+", layout)
            i += change.deleted
            j += change.inserted
    return b"".join(out)


# -- context ------------------------------------------------------------------------------

def _context(left: DiffSide, right: DiffSide, changes: list[Change], context: int, zone: tzinfo | None,
             layout: Layout = _PLAIN) -> bytes:
    out = [_header("***", left, layout.labels[0], context_time(left.modified_ms, zone)),
           _header("---", right, layout.labels[1], context_time(right.modified_ms, zone))]
    hidden = {id(changes[number]) for number in layout.ignored}
    for hunk in hunks(changes, context, layout.ignored):
        first0, last0, first1, last1 = _hunk_bounds(hunk, context, left, right)
        out.append(b"***************\n")
        out.append(f"*** {_normal_range(first0, last0)} ****\n".encode())
        shown = [change for change in hunk if id(change) not in hidden]
        if any(change.deleted for change in shown):  # a side without changes shows no lines
            _context_side(out, left, hunk, first0, last0, old=True, layout=layout)
        out.append(f"--- {_normal_range(first1, last1)} ----\n".encode())
        if any(change.inserted for change in shown):
            _context_side(out, right, hunk, first1, last1, old=False, layout=layout)
    return b"".join(out)


def _context_side(out: list[bytes], side: DiffSide, hunk: list[Change], first: int, last: int, old: bool,
                  layout: Layout = _PLAIN) -> None:
    next_change = 0
    for index in range(first, last + 1):
        while next_change < len(hunk) and _end(hunk[next_change], old) <= index:
            next_change += 1
        flag = b"  "
        if next_change < len(hunk) and _start(hunk[next_change], old) <= index:
            change = hunk[next_change]
            other_side = change.inserted if old else change.deleted
            flag = b"! " if other_side else (b"- " if old else b"+ ")
        _line(out, side, index, flag, layout)


def _start(change: Change, old: bool) -> int:
    return change.left if old else change.right


def _end(change: Change, old: bool) -> int:
    return change.left + change.deleted if old else change.right + change.inserted


# -- headers ------------------------------------------------------------------------------

def quote_name(name: str) -> str:
    """GNU's c-maybe quoting of file names in headers: plain unless the name holds a
    space, a quote, a backslash, a control or a non-ASCII byte; then C-escaped in "..."."""
    data = name.encode("utf-8", errors="surrogateescape")
    if all(0x20 < byte < 0x7F and byte not in b'"\\' for byte in data):
        return name
    parts = []
    for byte in data:
        char = chr(byte)
        if char in _C_ESCAPES:
            parts.append(_C_ESCAPES[char])
        elif 0x20 <= byte < 0x7F:
            parts.append(char)
        else:
            parts.append(f"\\{byte:03o}")
    return '"' + "".join(parts) + '"'


def _local(epoch_ms: int, zone: tzinfo | None) -> datetime:
    """The time in `zone`, or in the host's local zone when None (as GNU uses TZ)."""
    try:
        moment = datetime.fromtimestamp(epoch_ms // 1000, tz=timezone.utc)
        return moment.astimezone(zone) if zone is not None else moment.astimezone()
    except (OverflowError, OSError, ValueError):  # a time stamp no calendar can show
        return datetime.fromtimestamp(0, tz=timezone.utc)


def unified_time(epoch_ms: int, zone: tzinfo | None, nanoseconds: bool = False) -> str:
    """`2023-11-15 01:13:20.002 +0300`: GNU's unified stamp, to the VFS's millisecond
    (`nanoseconds`: GNU's nine digits, `.002000000`)."""
    moment = _local(epoch_ms, zone)
    fraction = f"{epoch_ms % 1000:03d}" + ("000000" if nanoseconds else "")
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d} {_clock(moment)}"
            f".{fraction} {_offset(moment)}")


def context_time(epoch_ms: int, zone: tzinfo | None) -> str:
    """`Wed Nov 15 01:13:20 2023` (day of month padded with a space, as GNU's %e)."""
    moment = _local(epoch_ms, zone)
    return (f"{_WEEKDAYS[moment.weekday()]} {_MONTHS[moment.month - 1]} {moment.day:2d} "
            f"{_clock(moment)} {moment.year}")


def _clock(moment: datetime) -> str:
    return f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"


def _offset(moment: datetime) -> str:
    delta = moment.utcoffset()
    minutes = int(delta.total_seconds() // 60) if delta is not None else 0
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}{minutes % 60:02d}"
