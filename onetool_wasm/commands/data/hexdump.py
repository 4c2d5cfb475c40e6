"""hexdump: util-linux hexdump with its predefined formats (-b -c -C -d -o -x, default).

Each format is a list of format strings applied to every 16-byte block, as hexdump's
display engine does: an address, N units of one conversion (the last one's trailing
blank dropped), fixed text; units past the end of input print as blanks of their width.
A block equal to the previous one becomes `*` (unless -v); the end address closes the dump.
Custom `-e`/`-f` format strings are not supported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...result import CommandResult
from ..getopt import NONE, REQUIRED, OperandError, gnu_getopt, read_operand, result_of
from ..helpers import fail
from ..spec import CommandContext, CommandSpec

HEXDUMP_USAGE = "hexdump [-bcCdovx] [-n LENGTH] [-s OFFSET] [FILE]..."

_LONG = {"one-byte-octal": ("b", NONE), "one-byte-char": ("c", NONE), "canonical": ("C", NONE),
         "two-bytes-decimal": ("d", NONE), "two-bytes-octal": ("o", NONE), "two-bytes-hex": ("x", NONE),
         "length": ("n", REQUIRED), "skip": ("s", REQUIRED), "no-squeezing": ("v", NONE),
         "format": ("e", REQUIRED), "format-file": ("f", REQUIRED), "color": ("color", 2)}


@dataclass(frozen=True)
class _Unit:
    """`reps` times a conversion of `size` bytes: prefix, field (width), suffix; or pure text."""
    reps: int
    size: int
    conv: str          # "text", "x", "o", "u", "c", "p", "addr"
    prefix: str = ""
    width: int = 0
    suffix: str = ""


# Each predefined format: the address line at the end (`_A` width), then the unit lists.
_FORMATS = {
    "default": (7, [[_Unit(1, 0, "addr", "", 7, " "), _Unit(8, 2, "x", "", 4, " "), _Unit(1, 0, "text", "\n")]]),
    "b": (7, [[_Unit(1, 0, "addr", "", 7, " "), _Unit(16, 1, "o", "", 3, " "), _Unit(1, 0, "text", "\n")]]),
    "c": (7, [[_Unit(1, 0, "addr", "", 7, " "), _Unit(16, 1, "c", "", 3, " "), _Unit(1, 0, "text", "\n")]]),
    "C": (8, [[_Unit(1, 0, "addr", "", 8, "  "), _Unit(8, 1, "x", "", 2, " "), _Unit(1, 0, "text", "  "),
               _Unit(8, 1, "x", "", 2, " ")],
              [_Unit(1, 0, "text", "  |"), _Unit(16, 1, "p", "", 0, ""), _Unit(1, 0, "text", "|\n")]]),
    "d": (7, [[_Unit(1, 0, "addr", "", 7, " "), _Unit(8, 2, "u", "  ", 5, " "), _Unit(1, 0, "text", "\n")]]),
    "o": (7, [[_Unit(1, 0, "addr", "", 7, " "), _Unit(8, 2, "o", " ", 6, " "), _Unit(1, 0, "text", "\n")]]),
    "x": (7, [[_Unit(1, 0, "addr", "", 7, " "), _Unit(8, 2, "x", "   ", 4, " "), _Unit(1, 0, "text", "\n")]]),
}
_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
_SUFFIXES = {"": 1, "K": 1024, "KiB": 1024, "KB": 1000, "M": 1024**2, "MiB": 1024**2, "MB": 1000**2,
             "G": 1024**3, "GiB": 1024**3, "GB": 1000**3, "T": 1024**4, "TiB": 1024**4, "TB": 1000**4}


def _size(value: str, what: str) -> int:
    """util-linux strtosize: base-0 digits and an optional K/M/G (KiB, KB...) suffix."""
    match = re.fullmatch(r"\s*(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([A-Za-z]*)", value)
    if match is None or match.group(2) not in _SUFFIXES:
        raise fail(f"hexdump: failed to parse {what}: '{value}'")
    digits = match.group(1)
    number = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if digits.startswith("0") else int(digits)
    return number * _SUFFIXES[match.group(2)]


def _field(unit: _Unit, chunk: bytes) -> str:
    number = int.from_bytes(chunk, "little")
    if unit.conv == "x":
        return format(number, "x").rjust(unit.width, "0")
    if unit.conv == "o":
        return format(number, "o").rjust(unit.width, "0")
    if unit.conv == "u":
        return str(number).rjust(unit.width, "0")
    byte = chunk[0]
    if unit.conv == "p":
        return chr(byte) if 32 <= byte < 127 else "."
    if byte in _ESCAPES:
        text = _ESCAPES[byte]
    else:
        text = chr(byte) if 32 <= byte < 127 else format(byte, "03o")
    return text.rjust(unit.width)


def _render(units: list[_Unit], block: bytes, address: int, end: int, addr_width: int) -> str:
    out: list[str] = []
    offset = 0
    for unit in units:
        if unit.conv == "text":
            out.append(unit.prefix)
            continue
        if unit.conv == "addr":
            out.append(format(address, "x").rjust(addr_width, "0") + unit.suffix)
            continue
        for rep in range(unit.reps):
            last = rep == unit.reps - 1
            suffix = unit.suffix[:-1] if last and unit.reps > 1 and unit.suffix[-1:].isspace() else unit.suffix
            if address + offset >= end:
                out.append(unit.prefix + " " * unit.width + suffix)
            else:
                out.append(unit.prefix + _field(unit, block[offset:offset + unit.size]) + suffix)
            offset += unit.size
    return "".join(out)


async def cmd_hexdump(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands = gnu_getopt("hexdump", HEXDUMP_USAGE, args, "bcCde:f:L::n:os:vxhV", _LONG)
    formats: list[str] = []
    length, skip, squeeze = None, 0, True
    for key, value in options:
        if key in ("b", "c", "C", "d", "o", "x"):
            formats.append(key)
        elif key == "n":
            length = _size(value, "length")
        elif key == "s":
            skip = _size(value, "offset")
        elif key == "v":
            squeeze = False
        elif key in ("e", "f"):
            raise fail(f"hexdump: custom format strings (-{key}) are not supported here; use -C, -x, "
                       "-d, -o, -b or -c, or od -t / xxd. Usage: " + HEXDUMP_USAGE)
        elif key in ("L", "color"):
            continue
        else:
            raise fail("hexdump: see 'help hexdump'. Usage: " + HEXDUMP_USAGE)
    formats = formats or ["default"]
    chunks: list[bytes] = []
    errors: list[str] = []
    address = 0
    used_stdin = False
    for path in operands or ["-"]:
        try:
            data = await read_operand(ctx, "hexdump", path, b"" if used_stdin and path == "-" else stdin)
        except OperandError as error:
            errors.append(str(error))
            continue
        used_stdin = used_stdin or path == "-"
        if skip:
            # a regular file shorter than the skip is skipped whole; otherwise seek into it
            if path != "-" and skip > len(data):
                skip -= len(data)
                address += len(data)
                continue
            address += skip
            data = data[skip:]
            skip = 0
        chunks.append(data)
    if operands and not chunks and errors and address == 0:
        errors.append("hexdump: all input file arguments failed")
        return result_of(b"", errors)
    data = b"".join(chunks)
    if length is not None:
        data = data[:length]
    blocksize = 16
    out: list[str] = []
    previous: bytes | None = None
    starred = False
    start = address
    for offset in range(0, len(data), blocksize):
        block = data[offset:offset + blocksize]
        full = len(block) == blocksize
        if full and squeeze and previous is not None and block == previous:
            if not starred:
                out.append("*\n")
                starred = True
            previous = block
            continue
        starred = False
        previous = block
        end = start + len(data)
        padded = block + b"\x00" * (blocksize - len(block))
        for name in formats:
            width, lists = _FORMATS[name]
            for units in lists:
                out.append(_render(units, padded, start + offset, end, width))
    end_address = start + len(data)
    if end_address:
        out.append(format(end_address, "x").rjust(_FORMATS[formats[-1]][0], "0") + "\n")
    return result_of("".join(out).encode("latin-1"), errors)


HEXDUMP_SPEC = CommandSpec(
    name="hexdump",
    summary="Display bytes in hex, octal, decimal or characters, as util-linux hexdump.",
    usage=HEXDUMP_USAGE,
    details=("Default: hex 2-byte little-endian words with 7-digit hex offsets. -C canonical hex+ASCII "
             "(the usual choice), -b octal bytes, -c characters, -d decimal words, -o octal words, "
             "-x hex words; several may be combined. -n LENGTH and -s OFFSET (0x.. hex, K/M suffixes) "
             "pick the range; repeated lines become `*` unless -v. Files are read as one input. "
             "Custom -e format strings are not supported: use od -t or xxd.\n"
             "Examples:\n  hexdump -C /data/blob.bin | head\n  printf 'hi' | hexdump -C\n"
             "  hexdump -C -s 0x40 -n 32 /data/blob.bin"),
    group="data",
    handler=cmd_hexdump,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(),
    kind="read", requires_adapter=None,
)


COMMANDS = [HEXDUMP_SPEC]
