"""Shared plumbing for the line tools (head, tail, sort, uniq, wc, cut, tee).

They work on bytes, as GNU tools do in the C locale: lines split on "\\n" only, order is
unsigned byte order, case folding is ASCII-only. Their options are read by
`options.getopt`, GNU-style.
"""
from __future__ import annotations

from typing import Sequence

from ..textutil import looks_binary
from .helpers import binary_input_message, fail, read_bytes_input
from .spec import CommandContext, CommandFailed

STDIN = "-"
ASCII_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def binary_input_error(command: str, source: str, size: int) -> CommandFailed:
    """The same refusal read_text_input gives for binary data (`source` `-`: stdin)."""
    return fail(binary_input_message(command, None if source == STDIN else source, size))


async def read_input(ctx: CommandContext, command: str, path: str | None, stdin: bytes,
                     text: bool = True) -> bytes:
    """A file's bytes (or stdin's when path is None or `-`); binary refused when `text`."""
    path = None if path == STDIN else path
    data = await read_bytes_input(ctx, command, path, stdin)
    if text and looks_binary(data):
        raise binary_input_error(command, STDIN if path is None else ctx.vfs.normalize(path), len(data))
    return data


async def read_inputs(ctx: CommandContext, command: str, paths: Sequence[str], stdin: bytes,
                      text: bool = True) -> list[tuple[str, bytes]]:
    """(label, bytes) for each path, stdin when there is none; labels are normalized paths."""
    if not paths:
        return [(STDIN, await read_input(ctx, command, None, stdin, text))]
    return [(STDIN if path == STDIN else ctx.vfs.normalize(path), await read_input(ctx, command, path, stdin, text))
            for path in paths]


def split_lines(data: bytes) -> list[bytes]:
    """Lines without their "\\n"; a last line without one still counts."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return lines


def join_lines(lines: Sequence[bytes]) -> bytes:
    """Every line terminated by "\\n", as GNU line tools print them."""
    return b"\n".join(lines) + b"\n" if lines else b""


def parse_count(command: str, flag: str, value: str, allow_zero: bool = True) -> int:
    """A non-negative decimal count; the error names the flag and the value."""
    text = value.strip()
    if text.isdigit() and text.isascii():
        number = int(text)
        if allow_zero or number > 0:
            return number
    raise fail(f"{command}: invalid integer for {flag}: {value}")
