"""Small text helpers shared by commands and the output model: sizes, durations, binary
sniffing and UTF-8 decoding, each producing exactly what upstream produces."""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

_SIZE_UNITS = ("B", "KB", "MB", "GB", "TB")
_UTF8_BOM = b"\xef\xbb\xbf"


def to_fixed(value: float, digits: int = 1) -> str:
    """JavaScript's `Number.prototype.toFixed`: halves round away from zero (1.25 -> 1.3),
    where Python's formatting would round them to even."""
    quantum = Decimal(1).scaleb(-digits)
    return str(Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP))


def format_size(size: float) -> str:
    """`0B`, `1023B`, `1.0KB`, `1.5KB`, `1.0MB`... (1024-based, one decimal above bytes)."""
    value = float(size)
    for unit in _SIZE_UNITS:
        if value < 1024 or unit == _SIZE_UNITS[-1]:
            if unit == "B":
                return f"{_js_round(value)}B"
            return f"{to_fixed(value)}{unit}"
        value /= 1024
    raise AssertionError("unreachable")


def format_duration(duration_ms: float) -> str:
    """`999ms`, `1.6s`, `1m1.0s`. Unlike upstream, a remainder that rounds up to 60.0
    carries into the minutes (59999 -> `1m0.0s`, not `60.0s`; 119999 -> `2m0.0s`)."""
    if duration_ms < 1000:
        return f"{_js_number(duration_ms)}ms"
    seconds = duration_ms / 1000
    minutes = int(seconds // 60)
    remainder = to_fixed(seconds - minutes * 60)
    if remainder == "60.0":
        minutes, remainder = minutes + 1, "0.0"
    return f"{minutes}m{remainder}s" if minutes else f"{remainder}s"


def looks_binary(data: bytes) -> bool:
    """Upstream's rule: any NUL byte, invalid UTF-8, or more than 10% control characters
    (other than newline, carriage return and tab) among the decoded UTF-16 units."""
    if not data:
        return False
    if b"\x00" in data:
        return True
    data = _strip_bom(bytes(data))
    if data.isascii():
        length = len(data)
    else:
        try:
            length = len(data.decode("utf-8").encode("utf-16-le")) // 2
        except UnicodeDecodeError:
            return True
    # In UTF-8 a byte below 0x20 is always that control character itself, so count bytes.
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    return controls / max(length, 1) > 0.1


_CONTROL_BYTES = bytes(b for b in range(32) if chr(b) not in "\n\r\t")


def decode_utf8(data: bytes) -> str:
    """Decode like a browser's `TextDecoder("utf-8")`: a leading BOM is dropped and
    invalid sequences become U+FFFD."""
    return _strip_bom(bytes(data)).decode("utf-8", errors="replace")


def utf16_length(text: str) -> int:
    """The length JavaScript reports for a string (astral characters count twice)."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _strip_bom(data: bytes) -> bytes:
    return data[len(_UTF8_BOM):] if data.startswith(_UTF8_BOM) else data


def _js_round(value: float) -> int:
    return math.floor(value + 0.5)  # Math.round: halves go towards +infinity


def _js_number(value: float) -> str:
    """How JavaScript prints a number in a template string (integral floats lose `.0`)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
