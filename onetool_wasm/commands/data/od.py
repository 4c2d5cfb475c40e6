"""od: dump bytes in octal, hex, decimal, float or character form, as GNU od (C locale).

The layout follows coreutils' od.c: each `-t` spec prints one line a block, fields are
right-aligned over a common block width, a repeated block becomes `*` (unless -v), the
last partial block is zero-padded to the specs' sizes, and the end offset closes the dump.
"""
from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

from ...result import CommandResult
from ..getopt import NONE, OPTIONAL, REQUIRED, OperandError, gnu_getopt, read_operand, result_of
from ..helpers import fail
from ..spec import CommandContext, CommandSpec

OD_USAGE = "od [-A RADIX] [-t TYPE]... [-bcdox] [-j SKIP] [-N BYTES] [-v] [-w[N]] [FILE]..."

_LONG = {"address-radix": ("A", REQUIRED), "skip-bytes": ("j", REQUIRED), "read-bytes": ("N", REQUIRED),
         "format": ("t", REQUIRED), "output-duplicates": ("v", NONE), "width": ("w", OPTIONAL),
         "traditional": ("traditional", NONE), "endian": ("endian", REQUIRED), "strings": ("S", OPTIONAL)}
_OLD = {"a": "a", "b": "o1", "c": "c", "D": "u4", "d": "u2", "e": "fD", "F": "fD", "f": "fF", "H": "x4",
        "X": "x4", "i": "dI", "l": "dL", "I": "dL", "L": "dL", "O": "o4", "o": "o2", "B": "o2",
        "s": "d2", "x": "x2", "h": "x2"}
_SIZES = {"C": 1, "S": 2, "I": 4, "L": 8}
_FLOAT_SIZES = {"F": 4, "D": 8, "L": 8}
_OCT = [0, 3, 6, 8, 11, 14, 16, 19, 22]
_SDEC = [1, 4, 6, 8, 11, 13, 16, 18, 20]
_UDEC = [0, 3, 5, 8, 10, 13, 15, 17, 20]
_HEX = [0, 2, 4, 6, 8, 10, 12, 14, 16]
_NAMES = ["nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr",
          "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub",
          "esc", "fs", "gs", "rs", "us", "sp"]
_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
_MULTIPLIERS = {"b": 512, "kB": 1000, "K": 1024, "k": 1024, "KiB": 1024, "KB": 1000, "MB": 1000**2,
                "M": 1024**2, "MiB": 1024**2, "m": 1024**2, "GB": 1000**3, "G": 1024**3, "GiB": 1024**3,
                "g": 1024**3, "TB": 1000**4, "T": 1024**4, "TiB": 1024**4, "t": 1024**4}


@dataclass
class _Spec:
    fmt: str          # d o u x f a c
    size: int
    width: int
    trailer: bool
    pad: int = 0


def _decode_types(text: str) -> list[_Spec]:
    specs: list[_Spec] = []
    rest = text
    while rest:
        kind = rest[0]
        rest = rest[1:]
        if kind in "doux":
            size = 4
            if rest[:1] in _SIZES:
                size, rest = _SIZES[rest[0]], rest[1:]
            elif (match := re.match(r"\d+", rest)) is not None:
                size = int(match.group(0)) if len(match.group(0)) < 6 else 99
                rest = rest[match.end():]
                if size not in (1, 2, 4, 8):
                    raise fail(f"od: invalid type string '{text}';\nthis system doesn't provide a "
                               f"{size}-byte integral type")
            width = {"d": _SDEC, "o": _OCT, "u": _UDEC, "x": _HEX}[kind][size]
        elif kind == "f":
            size = 8
            if rest[:1] in _FLOAT_SIZES:
                size, rest = _FLOAT_SIZES[rest[0]], rest[1:]
            elif (match := re.match(r"\d+", rest)) is not None:
                size = int(match.group(0)) if len(match.group(0)) < 6 else 99
                rest = rest[match.end():]
                if size not in (4, 8):
                    raise fail(f"od: invalid type string '{text}';\nthis system doesn't provide a "
                               f"{size}-byte floating point type")
            width = 15 if size == 4 else 24
        elif kind in "ac":
            size, width = 1, 3
        else:
            raise fail(f"od: invalid character '{kind}' in type string '{text}'")
        trailer = rest[:1] == "z"
        if trailer:
            rest = rest[1:]
        specs.append(_Spec(kind, size, width, trailer))
    return specs


def _parse_bytes(value: str, option: str) -> int:
    """xstrtoumax with base 0 and od's multiplier suffixes."""
    match = re.fullmatch(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)([A-Za-z]*)", value)
    if match is None or (match.group(2) and match.group(2) not in _MULTIPLIERS):
        raise fail(f"od: invalid {option} argument '{value}'")
    digits = match.group(1)
    number = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 8) if digits.startswith("0") else int(digits)
    return number * _MULTIPLIERS.get(match.group(2), 1)


def _float_text(value: float, size: int, raw: bytes) -> str:
    if math.isnan(value):
        return "-nan" if raw[-1] & 0x80 else "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    low, high = (6, 9) if size == 4 else (15, 17)
    tiny = 1.1754943508222875e-38 if size == 4 else 2.2250738585072014e-308
    precision = 1 if abs(value) < tiny else low
    while True:
        text = "%.*g" % (precision, value)
        back = float(text)
        if size == 4:
            back = struct.unpack("<f", struct.pack("<f", back))[0] if abs(back) < 3.5e38 else math.inf
        if back == value or precision >= high:
            return text
        precision += 1


def _field(spec: _Spec, chunk: bytes) -> str:
    if spec.fmt in "doux":
        number = int.from_bytes(chunk, "little", signed=spec.fmt == "d")
        if spec.fmt == "o":
            return format(number, "o").rjust(spec.width, "0")
        if spec.fmt == "x":
            return format(number, "x").rjust(spec.width, "0")
        return str(number)
    if spec.fmt == "f":
        value = struct.unpack("<f" if spec.size == 4 else "<d", chunk)[0]
        return _float_text(value, spec.size, chunk)
    byte = chunk[0]
    if spec.fmt == "a":
        masked = byte & 0x7F
        return "del" if masked == 127 else _NAMES[masked] if masked <= 32 else chr(masked)
    if byte in _ESCAPES:
        return _ESCAPES[byte]
    return chr(byte) if 32 <= byte < 127 else format(byte, "03o")


def _format_address(address: int, base: str) -> str:
    if base == "n":
        return ""
    if base == "d":
        return str(address).rjust(7, "0")
    if base == "x":
        return format(address, "x").rjust(6, "0")
    return format(address, "o").rjust(7, "0")


def _line(spec: _Spec, block: bytes, per_block: int, n_bytes: int) -> str:
    fields = per_block // spec.size
    blank = (per_block - n_bytes) // spec.size
    out = []
    pad_remaining = spec.pad
    for index in range(fields, blank, -1):
        next_pad = spec.pad * (index - 1) // fields
        offset = (fields - index) * spec.size
        text = _field(spec, block[offset:offset + spec.size])
        out.append(text.rjust(pad_remaining - next_pad + spec.width))
        pad_remaining = next_pad
    if spec.trailer:
        pad_width = spec.pad * blank // fields
        out.append(" " * (blank * spec.width + pad_width))
        out.append("  >" + "".join(chr(b) if 32 <= b < 127 else "." for b in block[:n_bytes]) + "<")
    return "".join(out)


def _dump(data: bytes, start: int, specs: list[_Spec], per_block: int, base: str, squeeze: bool) -> str:
    pad_len = {"n": 0, "x": 6}.get(base, 7)
    out: list[str] = []
    previous: bytes | None = None
    star = False
    offset = 0
    lcm = 1
    for spec in specs:
        lcm = lcm * spec.size // math.gcd(lcm, spec.size)
    while offset < len(data):
        block = data[offset:offset + per_block]
        n_bytes = len(block)
        if squeeze and previous is not None and n_bytes == per_block and block == previous:
            if not star:
                out.append("*\n")
                star = True
        else:
            star = False
            if n_bytes < per_block:
                padded = lcm * ((n_bytes + lcm - 1) // lcm)
                block = block + b"\x00" * (padded - n_bytes)
            for index, spec in enumerate(specs):
                head = _format_address(start + offset, base) if index == 0 else " " * pad_len
                out.append(head + _line(spec, block, per_block, n_bytes) + "\n")
        previous = data[offset:offset + per_block]
        offset += n_bytes
    if base != "n":
        out.append(_format_address(start + len(data), base) + "\n")
    return "".join(out)


async def cmd_od(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, operands = gnu_getopt("od", OD_USAGE, args, "A:aBbcDdeFfHhIij:LlN:OoS::st:vw::Xx", _LONG)
    specs: list[_Spec] = []
    base, skip, limit, squeeze, width = "o", 0, None, True, None
    for key, value in options:
        if key == "A":
            if value[:1] not in ("d", "o", "x", "n"):
                shown = value[:1] or ""
                raise fail(f"od: invalid output address radix '{shown}'; it must be one character from [doxn]")
            base = value[0]
        elif key == "j":
            skip = _parse_bytes(value, "--skip-bytes")
        elif key == "N":
            limit = _parse_bytes(value, "--read-bytes")
        elif key == "t":
            specs.extend(_decode_types(value))
        elif key == "v":
            squeeze = False
        elif key == "w":
            if value is None:
                width = 32
            elif not value.isascii() or not value.isdigit() or int(value) <= 0:
                raise fail(f"od: invalid -w argument '{value}'")
            else:
                width = min(int(value), 1 << 20)
        elif key in ("S", "traditional", "endian"):
            raise fail(f"od: option {'--' + key if len(key) > 1 else '-' + key} is not supported here. "
                       "Usage: " + OD_USAGE)
        else:
            specs.extend(_decode_types(_OLD[key]))
    if not specs:
        specs = _decode_types("o2")
    chunks: list[bytes] = []
    errors: list[str] = []
    used_stdin = False
    for path in operands or ["-"]:
        try:
            chunks.append(await read_operand(ctx, "od", path, b"" if used_stdin and path == "-" else stdin))
        except OperandError as error:
            errors.append(str(error))
        used_stdin = used_stdin or path == "-"
    data = b"".join(chunks)
    if not chunks and errors:
        return result_of(b"", errors)
    if skip > len(data):
        errors.append("od: cannot skip past end of combined input")
        return result_of(b"", errors)
    data = data[skip:]
    if limit is not None:
        data = data[:limit]
    lcm = 1
    for spec in specs:
        lcm = lcm * spec.size // math.gcd(lcm, spec.size)
    if width is not None:
        if width % lcm:
            errors.append(f"od: warning: invalid width {width}; using {lcm} instead")
            width = lcm
        per_block = width
    else:
        per_block = lcm * (16 // lcm) if lcm < 16 else lcm
    block_width = max((spec.width + 1) * (per_block // spec.size) for spec in specs)
    for spec in specs:
        spec.pad = block_width - spec.width * (per_block // spec.size)
    text = _dump(data, skip, specs, per_block, base, squeeze)
    status = 1 if any(not line.startswith("od: warning") for line in errors) else 0
    return result_of(text.encode("latin-1"), errors, status)


OD_SPEC = CommandSpec(
    name="od",
    summary="Dump bytes in octal, hex, decimal, float or named characters, as GNU od.",
    usage=OD_USAGE,
    details=("Reads the FILEs concatenated (stdin when none, or `-`). Default: octal 2-byte words with "
             "octal offsets. -t TYPE picks x1 x2 x4 x8 o1 o2 o4 d1 d2 d4 d8 u1 u2 u4 u8 f4 f8 a c "
             "(a `z` suffix adds the printable text); -b -c -d -o -x are shorthands. -A d|o|x|n sets "
             "the offset radix, -j SKIP and -N BYTES the range (0x.. hex, b/K/M suffixes), -w[N] bytes "
             "a line (32 when bare), -v shows repeated lines instead of `*`.\n"
             "Examples:\n  od -c /data/file.txt\n  printf 'hi' | od -An -tx1\n"
             "  od -A x -t x1z -N 64 /data/blob.bin\n  od -j 16 -N 8 -t u4 /data/blob.bin"),
    group="data",
    handler=cmd_od,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(),
    kind="read", requires_adapter=None,
)


COMMANDS = [OD_SPEC]
