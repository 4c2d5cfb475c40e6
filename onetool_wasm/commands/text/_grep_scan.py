"""grep's work on one input: which lines are selected, and how they are printed.

Input and output are bytes (C locale). The matching lines of a whole input are found
in one scan with a pattern whose matches cannot cross a newline (Regex.buffer_pattern):
one C-speed search per matching line, not a Python call per line. Plain output (no
line numbers, names or context) is then cut straight out of the input: the matching
lines one slice each, or for -v the runs of lines between them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from ._grep_options import GrepOptions
from ..lines import split_lines
from ...regex import Regex


@dataclass
class Scan:
    """The lines of one input that the pattern matches, as (start, end) byte offsets
    (end: the offset of the line's newline, or the input's length)."""
    data: bytes
    spans: list[tuple[int, int]]
    total: int  # lines in the input

    def selected_count(self, options: GrepOptions) -> int:
        count = self.total - len(self.spans) if options.invert else len(self.spans)
        return count if options.max_count is None else min(count, options.max_count)

    def selected_indexes(self, options: GrepOptions) -> list[int]:
        return selected_lines(self, options.invert, options.max_count)


def selected_lines(result: Scan, invert: bool, limit: int | None) -> list[int]:
    """Indexes of the selected lines (the matching ones, or with `invert` the others), at
    most `limit` of them."""
    matched: list[int] = []
    line = counted_to = 0
    for start, _ in result.spans:
        line += result.data.count(b"\n", counted_to, start)
        counted_to = start
        matched.append(line)
    if invert:
        hit = bytearray(result.total)
        for index in matched:
            hit[index] = 1
        matched = [index for index in range(result.total) if not hit[index]]
    return matched if limit is None else matched[:limit]


def selected_total(result: Scan, invert: bool, limit: int | None) -> int:
    count = result.total - len(result.spans) if invert else len(result.spans)
    return count if limit is None else min(count, limit)


def scan(regex: Regex | None, data: bytes, cancelled: Callable[[], bool] | None = None) -> Scan:
    total = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    if regex is None or not data:  # no pattern at all (an empty -f file) matches nothing
        return Scan(data, [], total)
    pattern = regex.buffer_pattern()
    if pattern is None:
        return Scan(data, _spans_line_by_line(regex, data, cancelled), total)
    spans: list[tuple[int, int]] = []
    size = len(data)
    pos = 0
    search, rfind, find, append = pattern.search, data.rfind, data.find, spans.append
    while pos < size:
        match = search(data, pos)
        if match is None:
            break
        start = match.start()
        line_start = rfind(b"\n", 0, start) + 1
        if line_start >= size:  # the empty "line" after a final newline is not a line
            break
        end = find(b"\n", start)
        end = size if end < 0 else end
        append((line_start, end))
        pos = end + 1
    return Scan(data, spans, total)


def _spans_line_by_line(regex: Regex, data: bytes, cancelled: Callable[[], bool] | None = None) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for line in split_lines(data):
        if (regex.test(line) if cancelled is None else regex.test(line, cancelled)):
            spans.append((start, start + len(line)))
        start += len(line) + 1
    return spans


def plain_output(result: Scan, options: GrepOptions) -> list[bytes] | None:
    """Selected lines cut straight from the input, or None when the output needs more
    than whole lines (numbers, names, context, -o, -v with -m)."""
    if options.only_matching or options.context or options.line_numbers or options.byte_offset \
            or options.null_data:
        return None
    return plain_lines(result, options.invert, options.max_count)


def plain_lines(result: Scan, invert: bool, limit: int | None) -> list[bytes] | None:
    """At most `limit` selected lines as slices of the input (None: -v with a limit)."""
    data, spans = result.data, result.spans
    chunks: list[bytes] = []
    if not invert:
        for start, end in spans[:limit]:
            chunks.append(data[start:end + 1])
    elif limit is not None:
        return None
    else:
        previous = 0
        for start, end in spans:
            chunks.append(data[previous:start])
            previous = end + 1
        chunks.append(data[previous:])
    chunks = [chunk for chunk in chunks if chunk]
    if chunks and not chunks[-1].endswith(b"\n"):  # the input's last line had no newline
        chunks.append(b"\n")
    return chunks


@dataclass
class Printer:
    """Formats selected lines of successive inputs; remembers whether a context group
    was printed, so `--` separates groups across inputs too."""
    options: GrepOptions
    regex: Regex | None
    chunks: list[bytes] = field(default_factory=list)
    printed_group: bool = False
    width: int = 0  # -T: numbers right-aligned to this width
    starts: list[int] | None = None  # -b: each line's byte offset
    cancelled: Callable[[], bool] | None = None  # the run's deadline, polled by long regex scans

    def prefix(self, label: bytes | None, index: int, separator: bytes, offset: int | None = None) -> bytes:
        options = self.options
        head = label + (b"\0" if options.null else separator) if label is not None else b""
        if options.line_numbers:
            head += str(index + 1).rjust(self.width).encode("ascii") + separator
        if options.byte_offset:
            if offset is None:
                offset = self.starts[index] if self.starts is not None and index < len(self.starts) else 0
            head += str(offset).rjust(self.width).encode("ascii") + separator
        if options.initial_tab and head:
            head += b"\t"
        return head

    def line(self, text: bytes) -> bytes:
        """A selected line as printed: -z restores the input's newlines and ends it in NUL."""
        if self.options.null_data:
            return text.translate(SWAP_NUL) + b"\0"
        return text + b"\n"

    def entry(self, head: bytes, text: bytes) -> bytes:
        if self.options.initial_tab and head.endswith(b"\t") and not text:
            head = head[:-1]  # GNU adds no tab before an empty line
        return head + self.line(text)

    def add(self, label: bytes | None, result: Scan) -> None:
        if label is None:
            plain = plain_output(result, self.options)
            if plain is not None:
                self.chunks.extend(plain)
                return
        lines = split_lines(result.data)
        if self.options.byte_offset:
            self.starts = line_starts(lines)
        selected = result.selected_indexes(self.options)
        if self.options.only_matching:
            self.only_matching(label, lines, selected)
        elif self.options.context:
            self._with_context(label, lines, selected)
        else:
            for index in selected:
                self.chunks.append(self.entry(self.prefix(label, index, b":"), lines[index]))

    def only_matching(self, label: bytes | None, lines: list[bytes], selected: list[int], base: int = 0) -> None:
        """The matches of the selected lines (`base`: the number of the first of `lines`)."""
        if self.options.invert or self.regex is None:
            return  # GNU prints no parts of lines that do not match
        for index in selected:
            found = self.regex.finditer(lines[index], groups=False) if self.cancelled is None else \
                self.regex.finditer(lines[index], groups=False, cancelled=self.cancelled)
            for match in found:
                if match.end() > match.start():
                    offset = None
                    if self.options.byte_offset and self.starts is not None and base + index < len(self.starts):
                        offset = self.starts[base + index] + match.start()
                    self.chunks.append(self.entry(self.prefix(label, base + index, b":", offset), match.group(0)))

    def _with_context(self, label: bytes | None, lines: list[bytes], selected: list[int]) -> None:
        chosen = set(selected)
        before, after = self.options.before or 0, self.options.after or 0
        for first, last in _context_blocks(selected, before, after, len(lines)):
            if self.printed_group and self.options.group_separator is not None:
                self.chunks.append(self.options.group_separator.encode("utf-8", "surrogateescape") + b"\n")
            self.printed_group = True
            for index in range(first, last + 1):
                mark = b":" if index in chosen else b"-"
                self.chunks.append(self.entry(self.prefix(label, index, mark), lines[index]))


SWAP_NUL = bytes.maketrans(b"\0\n", b"\n\0")  # -z: records end in NUL, searched as lines


def line_starts(lines: list[bytes]) -> list[int]:
    starts, position = [], 0
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    return starts


def _context_blocks(selected: list[int], before: int, after: int, total: int) -> Iterator[tuple[int, int]]:
    """Merged [first, last] line ranges around the selected lines."""
    block: list[int] | None = None
    for index in selected:
        first, last = max(index - before, 0), min(index + after, total - 1)
        if block is not None and first <= block[1] + 1:
            block[1] = max(block[1], last)
            continue
        if block is not None:
            yield block[0], block[1]
        block = [first, last]
    if block is not None:
        yield block[0], block[1]


class LineSearch:
    """grep over one input that arrives in blocks of whole lines (stdin in a pipeline).
    Line numbers, -m and context carry from block to block; `feed` leaves its output in
    the printer's chunks, and `done` says when reading more cannot change the output."""

    def __init__(self, printer: Printer, label: bytes | None, counting: bool) -> None:
        self.printer = printer
        self.options = printer.options
        self.label = label
        self.counting = counting  # only count selected lines (-c, -l, -L, -q, binary input)
        self.selected = 0
        self.line_base = 0  # lines before the current block
        self.tail: list[bytes] = []  # the last lines of the blocks before, for -B
        self.group_last: int | None = None  # the last line of the open context group
        self.printed = -1  # the last line printed

    def _limit(self) -> int | None:
        maximum = self.options.max_count
        return None if maximum is None else maximum - self.selected

    def done(self) -> bool:
        """-m has its lines and no trailing context is still owed."""
        limit = self._limit()
        if limit is None or limit > 0:
            return False
        owed = not self.counting and self.group_last is not None and self.printed < self.group_last
        return not owed

    def feed(self, block: bytes) -> None:
        result = scan(self.printer.regex, block, self.printer.cancelled)
        limit = self._limit()
        if self.counting:
            self.selected += selected_total(result, self.options.invert, limit)
        else:
            self._print(result, limit)
        self.line_base += result.total

    def _print(self, result: Scan, limit: int | None) -> None:
        options, printer = self.options, self.printer
        if self.label is None and not (options.only_matching or options.context or options.line_numbers):
            plain = plain_lines(result, options.invert, limit)
            if plain is not None:
                self.selected += selected_total(result, options.invert, limit)
                printer.chunks.extend(plain)
                return
        lines = split_lines(result.data)
        picked = selected_lines(result, options.invert, limit)
        self.selected += len(picked)
        if options.only_matching:
            printer.only_matching(self.label, lines, picked, self.line_base)
        elif options.context:
            self._with_context(lines, picked)
        else:
            for index in picked:
                printer.chunks.append(printer.entry(printer.prefix(self.label, self.line_base + index, b":"), lines[index]))

    def _with_context(self, lines: list[bytes], picked: list[int]) -> None:
        """Groups of context as Printer._with_context makes them, but a group may begin in
        the lines kept from earlier blocks and end in later ones."""
        printer, options = self.printer, self.options
        before, after = options.before or 0, options.after or 0
        window = self.tail + lines
        window_base = self.line_base - len(self.tail)
        last_line = self.line_base + len(lines) - 1
        chosen = {self.line_base + index for index in picked}

        def print_to(last: int) -> None:
            for index in range(self.printed + 1, min(last, last_line) + 1):
                mark = b":" if index in chosen else b"-"
                printer.chunks.append(printer.entry(printer.prefix(self.label, index, mark), window[index - window_base]))
            self.printed = max(self.printed, min(last, last_line))

        for index in sorted(chosen):
            first = max(index - before, 0)
            if self.group_last is not None and first <= self.group_last + 1:
                self.group_last = max(self.group_last, index + after)
                continue
            if self.group_last is not None:
                print_to(self.group_last)
            if printer.printed_group and options.group_separator is not None:
                printer.chunks.append(options.group_separator.encode("utf-8", "surrogateescape") + b"\n")
            printer.printed_group = True
            self.printed = first - 1
            self.group_last = index + after
        if self.group_last is not None:
            print_to(self.group_last)
        self.tail = window[max(len(window) - before, 0):] if before else []
