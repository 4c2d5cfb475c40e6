"""Shared plumbing for the line tools (head, tail, sort, uniq, wc, cut, tee).

They work on bytes, as GNU tools do in the C locale: lines split on "\\n" only, order is
unsigned byte order, case folding is ASCII-only. Options are read GNU-style (`getopt`):
flags may be clustered (`-rn`), a value may be attached (`-k2`, `-t,`) or follow
(`-k 2`), options may come after operands, and `--` ends them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ..result import err
from ..textutil import format_size, looks_binary
from .helpers import read_bytes_input
from .spec import CommandContext, CommandFailed

STDIN = "-"
ASCII_UPPER = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def fail(message: str, exit_code: int = 1) -> CommandFailed:
    return CommandFailed(err(message, exit_code))


@dataclass(frozen=True)
class OptionSpec:
    """What a command accepts: short flags, short options taking a value, long names.

    `long` maps `--name` to the short letter it stands for (or to itself when it has no
    short form); names listed in `long_values` take a value (`--key=2,2` or `--key 2,2`).
    """
    command: str
    usage: str
    flags: str = ""
    values: str = ""
    long: Mapping[str, str] | None = None
    long_values: frozenset[str] = frozenset()


def getopt(spec: OptionSpec, args: Sequence[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """(options in order as (name, value), operands); bad input fails naming the command."""
    options: list[tuple[str, str | None]] = []
    operands: list[str] = []
    items = list(args)
    index = 0
    while index < len(items):
        arg = items[index]
        index += 1
        if arg == "--":
            operands.extend(items[index:])
            break
        if arg.startswith("--"):
            index = _long_option(spec, arg, items, index, options)
        elif arg.startswith("-") and arg != STDIN:
            index = _short_cluster(spec, arg, items, index, options)
        else:
            operands.append(arg)
    return options, operands


def _long_option(spec: OptionSpec, arg: str, items: list[str], index: int,
                 options: list[tuple[str, str | None]]) -> int:
    name, has_value, value = arg[2:].partition("=")
    known = spec.long or {}
    if name not in known:
        raise fail(f"{spec.command}: unknown option: --{name}. Usage: {spec.usage}")
    key = known[name]
    if name in spec.long_values or (len(key) == 1 and key in spec.values):
        if not has_value:
            if index >= len(items):
                raise fail(f"{spec.command}: missing value for --{name}. Usage: {spec.usage}")
            value, index = items[index], index + 1
        options.append((key, value))
    elif has_value:
        raise fail(f"{spec.command}: option --{name} takes no value. Usage: {spec.usage}")
    else:
        options.append((key, None))
    return index


def _short_cluster(spec: OptionSpec, arg: str, items: list[str], index: int,
                   options: list[tuple[str, str | None]]) -> int:
    position = 1
    while position < len(arg):
        letter = arg[position]
        position += 1
        if letter in spec.values:
            value = arg[position:]
            if not value:
                if index >= len(items):
                    raise fail(f"{spec.command}: missing value for -{letter}. Usage: {spec.usage}")
                value, index = items[index], index + 1
            options.append((letter, value))
            return index
        if letter not in spec.flags:
            raise fail(f"{spec.command}: unknown option: -{letter}. Usage: {spec.usage}")
        options.append((letter, None))
    return index


def binary_input_error(command: str, source: str, size: int) -> CommandFailed:
    """The same refusal read_text_input gives for binary data."""
    if source == STDIN:
        return fail(f"{command}: stdin is binary ({format_size(size)}). "
                    "Pipe text only, or save binary data to a file and inspect with stat.")
    return fail(f"{command}: binary file ({format_size(size)}): {source}. Use: stat {source}")


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
