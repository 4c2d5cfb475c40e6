"""fold: wrap lines to a width (`-w`), at spaces (`-s`), counting bytes (`-b`), as GNU does."""
from __future__ import annotations

from dataclasses import dataclass
from ...result import CommandResult
from ..lines import with_stream
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec
from ..getopt import NONE, REQUIRED, gnu_getopt, result_of
from ._by_lines import MAX_COLUMNS, run_lines, split_obsolete, stream_lines


FOLD_USAGE = "fold [-b] [-s] [-w WIDTH] [FILE...]"


_FOLD_LONG = {"bytes": ("b", NONE), "spaces": ("s", NONE), "width": ("w", REQUIRED)}


@dataclass
class FoldOptions:
    width: int = 80
    count_bytes: bool = False
    spaces: bool = False


def parse_fold(args: list[str]) -> tuple[FoldOptions, list[str]]:
    raw, paths = gnu_getopt("fold", FOLD_USAGE, split_obsolete(args, "w"), "bsw:", _FOLD_LONG)
    options = FoldOptions()
    for key, value in raw:
        if key == "b":
            options.count_bytes = True
        elif key == "s":
            options.spaces = True
        else:
            text = (value or "").strip()
            if not (text.isdigit() and text.isascii()):
                raise CommandFailed(result_of(b"", [f"fold: invalid number of columns: '{value}'"]))
            if int(text[:20]) < 1 or int(text[:20]) > MAX_COLUMNS:
                raise CommandFailed(result_of(b"", [f"fold: invalid number of columns: '{value}': "
                                                    "Numerical result out of range"]))
            options.width = int(text)
    return options, paths


def _advance(column: int, byte: int, count_bytes: bool) -> int:
    if count_bytes:
        return column + 1
    if byte == 8:
        return column - 1 if column > 0 else 0
    if byte == 13:
        return 0
    if byte == 9:
        return column + 8 - column % 8
    return column + 1


def fold_line(line: bytes, options: FoldOptions) -> bytes:
    """One line (without its newline) folded as GNU's fold_file does, byte by byte."""
    out = bytearray()
    pending = bytearray()
    column = 0
    for byte in line:
        while True:
            column = _advance(column, byte, options.count_bytes)
            if column <= options.width:
                pending.append(byte)
                break
            if options.spaces:
                blank = max(pending.rfind(b" "), pending.rfind(b"\t"))
                if blank >= 0:
                    out += pending[:blank + 1] + b"\n"
                    del pending[:blank + 1]
                    column = 0
                    for kept in pending:
                        column = _advance(column, kept, options.count_bytes)
                    continue
            if not pending:
                pending.append(byte)
                break
            out += pending + b"\n"
            pending.clear()
            column = 0
    return bytes(out + pending)


def fold_block(data: bytes, options: FoldOptions) -> bytes:
    lines = data.split(b"\n")
    return b"\n".join(fold_line(line, options) for line in lines)


async def cmd_fold(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = parse_fold(args)
    return await run_lines(ctx, "fold", paths, stdin, lambda data: fold_block(data, options))


async def stream_fold(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    options, paths = parse_fold(args)
    return await stream_lines(ctx, "fold", paths, io, lambda data: fold_block(data, options))


FOLD = with_stream(CommandSpec(
    name="fold",
    summary="Wrap lines to a width, as GNU fold.",
    usage=FOLD_USAGE,
    details=("Breaks every line longer than -w WIDTH columns (default 80). -s: break after the last "
             "blank that fits; -b: count bytes (else a TAB moves to the next multiple of 8).\n"
             "Examples:\n  fold -w 40 /notes.txt\n  fold -s -w 72 message.txt\n  echo abcdef | fold -w 2"),
    group="text", handler=cmd_fold,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_fold)


COMMANDS = [FOLD]
