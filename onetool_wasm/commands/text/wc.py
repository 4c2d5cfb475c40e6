"""wc: count lines, words, characters, bytes and the longest line, as GNU wc in the C locale.

Columns come in GNU's order (lines, words, chars, bytes, max line length) with GNU's widths:
the digits of the files' total size, at least 7 when an input is not a regular file (a
pipe), unpadded for one count of one input. Several inputs end with a `total` line (whose
-L column is the maximum). In the bash language a file that cannot be read is reported and
the others are still counted (a directory still gets its row of zeros), exit 1.
"""
from __future__ import annotations

import re

from ...result import TEXT, CommandResult, ok_bytes
from ...streams import Reader
from ..lines import STDIN, open_each, read_inputs, run_as_handler, with_stream
from ..options import OptionSpec, getopt
from ..spec import CommandContext, CommandIO, CommandSpec

WC_USAGE = "wc [-l] [-w] [-c] [path]"
_WC_OPTIONS = OptionSpec("wc", WC_USAGE, flags="lwcmL",
                         long={"lines": "l", "words": "w", "bytes": "c", "chars": "m", "max-line-length": "L"})
_CONTROLS = bytes(range(0x20)) + b"\x7f"
_ORDER = "lwmcL"
_LINE_ENDS = re.compile(rb"[\n\r\f]")
_PLAIN = bytes(range(0x20, 0x7F))


def _wc_count(kind: str, data: bytes) -> int:
    if kind == "l":
        return data.count(b"\n")
    if kind == "w":
        return _word_count(data)
    if kind == "L":
        return _LineLength().feed(data).finish()
    # -m counts characters, which under LC_ALL=C (this runtime's locale) are bytes, as GNU wc.
    return len(data)


def _word_count(data: bytes) -> int:
    """Runs between ASCII whitespace; as in GNU wc, control bytes alone make no word."""
    words = data.split()
    if len(data.translate(None, _CONTROLS)) == len(data):
        return len(words)
    return sum(1 for word in words if word.translate(None, _CONTROLS))


class _LineLength:
    """GNU wc -L in the C locale: the widest line, a tab moving to the next multiple of 8,
    printable bytes one column, others none; \\n, \\r and \\f end a line."""

    def __init__(self) -> None:
        self.position = 0
        self.longest = 0

    def feed(self, data: bytes) -> "_LineLength":
        pieces = _LINE_ENDS.split(data)
        for index, piece in enumerate(pieces):
            if index:
                self.longest = max(self.longest, self.position)
                self.position = 0
            if not piece.translate(None, _PLAIN):
                self.position += len(piece)
                continue
            for byte in piece:
                if byte == 9:
                    self.position += 8 - self.position % 8
                elif 0x20 <= byte < 0x7F:
                    self.position += 1
        return self

    def finish(self) -> int:
        return max(self.longest, self.position)


def _wc_options(args: list[str]) -> tuple[list[str], list[str]]:
    """(the counts asked for, in GNU's column order; the operands)."""
    options, paths = getopt(_WC_OPTIONS, args)
    chosen = {name for name, _ in options}
    return [k for k in _ORDER if k in chosen] or ["l", "w", "c"], paths


async def cmd_wc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    if ctx.grammar == "bash":
        return await run_as_handler(stream_wc, ctx, args, stdin, TEXT)
    kinds, paths = _wc_options(args)
    # wc counts bytes of anything, binary included (`wc -c image.png` is a size query).
    inputs = await read_inputs(ctx, "wc", paths, stdin, text=False)
    rows = [([_wc_count(k, data) for k in kinds], label) for label, data in inputs]
    sizes = [None if label == STDIN else len(data) for label, data in inputs]
    return ok_bytes(_wc_report(rows, sizes, kinds, bool(paths)), TEXT)


def _wc_report(rows: list[tuple[list[int], str]], sizes: list[int | None], kinds: list[str],
               named: bool, several: bool | None = None) -> bytes:
    """The count lines (a total line after several inputs); `named`: labels are printed.
    `sizes`: each input's size when it is a regular file, None otherwise."""
    width = _wc_width(sizes, len(kinds))
    if several if several is not None else len(sizes) > 1:
        total = [max(row[0][i] for row in rows) if kind == "L" else sum(row[0][i] for row in rows)
                 for i, kind in enumerate(kinds)] if rows else [0] * len(kinds)
        rows = rows + [(total, "total")]
    lines = []
    for counts, label in rows:
        line = " ".join(str(c).rjust(width) for c in counts)
        lines.append(f"{line} {label}" if named else line)
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


def _wc_width(sizes: list[int | None], kinds: int) -> int:
    """GNU: one count of one input is unpadded; otherwise the digits of the regular files'
    total size, at least 7 when another kind of input (a pipe, a directory) is among them."""
    if len(sizes) == 1 and kinds == 1:
        return 1
    minimum = 7 if any(size is None for size in sizes) else 1
    return max(len(str(sum(size or 0 for size in sizes))), minimum)


# ---------------------------------------------------------------- streaming

_WHITESPACE = (b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c")  # what bytes.split() splits on


async def stream_wc(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    kinds, paths = _wc_options(args)
    sources, status = await open_each(ctx, "wc", paths, io, text=False)
    rows: list[tuple[list[int], str]] = []
    sizes: list[int | None] = []
    for source in sources:
        if source.error is not None:
            if "Is a directory" in source.error:  # GNU still prints the directory's (zero) counts
                rows.append(([0] * len(kinds), source.label))
                sizes.append(None)
            continue
        if source.data is None:
            counts, _ = await _wc_stream(io.stdin, kinds)
            rows.append((counts, source.label))
            sizes.append(io.stdin.file_size)  # a `< file` redirect has one; a pipe has none
        else:
            rows.append(([_wc_count(k, source.data) for k in kinds], source.label))
            sizes.append(None if _is_pipe(ctx, source.label) else len(source.data))
    await io.stdout.write(_wc_report(rows, sizes, kinds, bool(paths), len(sources) > 1))
    return status


def _is_pipe(ctx: CommandContext, path: str) -> bool:
    """Whether `path` is a process substitution's /dev/fd file (not a regular file)."""
    pipe = getattr(ctx.vfs, "pipe", None)
    return callable(pipe) and pipe(path) is not None


async def _wc_stream(reader: Reader, kinds: list[str]) -> tuple[list[int], int]:
    totals = dict.fromkeys(kinds, 0)
    partial = b""  # a word that may go on in the next chunk
    longest = _LineLength()
    size = 0
    while chunk := await reader.read():
        size += len(chunk)
        for kind in kinds:
            if kind in "lmc":
                totals[kind] += _wc_count(kind, chunk)
        if "L" in totals:
            longest.feed(chunk)
        if "w" in totals:
            data = partial + chunk
            cut = max(data.rfind(space) for space in _WHITESPACE) + 1
            totals["w"] += _word_count(data[:cut])
            partial = data[cut:]
    if "w" in totals:
        totals["w"] += _word_count(partial)
    if "L" in totals:
        totals["L"] = longest.finish()
    return [totals[kind] for kind in kinds], size


WC = with_stream(CommandSpec(
    name="wc",
    summary="Count lines, words, and bytes from stdin or a file.",
    usage=WC_USAGE,
    details="Examples:\n  wc /logs/app.log\n  wc -l /logs/app.log\n  fetch text:runbook | wc -w",
    group="text", handler=cmd_wc,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_wc)

COMMANDS = [WC]
