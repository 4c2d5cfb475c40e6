"""Side-by-side output (GNU diff -y, diffutils 3.8 side.c), in the C locale.

Each output line holds the left line cut to half the width, a gutter with the separator
(` ` same, `|` changed, `<` only left, `>` only right, `(` common with --left-column) and
the right line; tabs are kept as tabs unless -t expands them.
"""
from __future__ import annotations

from typing import Sequence

from .algorithm import Change

_GUTTER = 3
_TAB = 8


def side_widths(width: int, expand_tabs: bool) -> tuple[int, int]:
    """(half width, column of the right half) for a total width, as GNU computes them."""
    step = 1 if expand_tabs else _TAB
    offset = (width + step + _GUTTER) // (2 * step) * step
    half = max(0, min(offset - _GUTTER, width - offset))
    return half, (offset if half else width)


class _Printer:
    def __init__(self, width: int, expand_tabs: bool) -> None:
        self.half, self.column2 = side_widths(width, expand_tabs)
        self.expand = expand_tabs
        self.out = bytearray()

    def tab_to(self, start: int, end: int) -> int:
        if not self.expand:
            tab = start + _TAB - start % _TAB
            while tab <= end:
                self.out += b"\t"
                start = tab
                tab += _TAB
        if start < end:
            self.out += b" " * (end - start)
        return end

    def half_line(self, text: bytes, indent: int, bound: int) -> int:
        """Print `text` (without its newline) cut at column `bound`; the last column written."""
        in_pos = out_pos = 0
        for byte in text:
            if byte == 9:
                spaces = _TAB - in_pos % _TAB
                if in_pos == out_pos:
                    stop = out_pos + spaces
                    if self.expand:
                        stop = min(stop, bound)
                        self.out += b" " * max(0, stop - out_pos)
                        out_pos = max(out_pos, stop)
                    elif stop < bound:
                        out_pos = stop
                        self.out.append(byte)
                in_pos += spaces
            elif byte == 13:
                self.out.append(byte)
                self.tab_to(0, indent)
                in_pos = out_pos = 0
            elif byte == 8:
                if in_pos != 0:
                    in_pos -= 1
                    if in_pos < bound:
                        if out_pos <= in_pos:
                            self.out += b" " * (in_pos - out_pos)
                            out_pos = in_pos
                        else:
                            out_pos = in_pos
                            self.out.append(byte)
            elif 0x20 <= byte < 0x7F:
                if in_pos < bound:
                    out_pos = in_pos + 1
                    self.out.append(byte)
                in_pos += 1
            else:  # no width in the C locale
                if in_pos < bound:
                    self.out.append(byte)
        return out_pos

    def line(self, left: bytes | None, sep: str, right: bytes | None) -> None:
        """One output line; each half is a line with its newline, if it has one."""
        column = 0
        newline = False
        if left is not None:
            newline = left.endswith(b"\n")
            column = self.half_line(left.rstrip(b"\n") if newline else left, 0, self.half)
        if sep != " ":
            column = self.tab_to(column, (self.half + self.column2 - 1) // 2) + 1
            if sep == "|" and right is not None and newline != right.endswith(b"\n"):
                sep = "/" if newline else "\\"
            self.out += sep.encode()
        if right is not None:
            right_newline = right.endswith(b"\n")
            newline = newline or right_newline
            body = right[:-1] if right_newline else right
            if not right.startswith(b"\n"):
                column = self.tab_to(column, self.column2)
                self.half_line(body, column, self.half)
        if newline:
            self.out += b"\n"


def render_side(left: Sequence[bytes], right: Sequence[bytes], changes: list[Change], *,
                width: int = 130, expand_tabs: bool = False, left_column: bool = False,
                suppress_common: bool = False, ignored: frozenset[int] = frozenset()) -> bytes:
    """`left` / `right`: the lines with their newlines (the last may lack one)."""
    printer = _Printer(width, expand_tabs)
    next0 = next1 = 0

    def common(limit0: int, limit1: int) -> None:
        nonlocal next0, next1
        i0, i1 = next0, next1
        if not suppress_common:
            while i0 < limit0 and i1 < limit1:
                if left_column:
                    printer.line(left[i0], "(", None)
                else:
                    printer.line(left[i0], " ", right[i1])
                i0 += 1
                i1 += 1
        next0, next1 = limit0, limit1

    for number, change in enumerate(changes):
        if number in ignored:
            continue
        first0, last0 = change.left, change.left + change.deleted - 1
        first1, last1 = change.right, change.right + change.inserted - 1
        common(first0, first1)
        i, j = first0, first1
        if change.deleted and change.inserted:
            while i <= last0 and j <= last1:
                printer.line(left[i], "|", right[j])
                i += 1
                j += 1
            next0, next1 = i, j
        for index in range(j, last1 + 1):
            printer.line(None, ">", right[index])
        next1 = max(next1, last1 + 1)
        for index in range(i, last0 + 1):
            printer.line(left[index], "<", None)
        next0 = max(next0, last0 + 1)
    common(len(left), len(right))
    return bytes(printer.out)
