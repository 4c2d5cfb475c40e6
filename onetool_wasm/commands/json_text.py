"""JSON text in and out, as JavaScript's JSON.parse and `JSON.stringify(value, null, 2)` do.

Object keys keep their document order and big integers stay exact; lone surrogates (which
JSON strings can hold) are escaped on output, and replaced when text must become UTF-8.
"""
from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

def format_js_number(value: float) -> str:
    """JavaScript's Number#toString: shortest round-trip digits, `1e+21`, `1e-7`, `-0` -> `0`."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    _, digit_tuple, exponent = Decimal(repr(abs(float(value)))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exponent += len("".join(map(str, digit_tuple))) - len(digits)
    k = len(digits)
    n = exponent + k  # value = 0.digits * 10**n
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')


def _escape_char(match: re.Match[str]) -> str:
    char = match.group(0)
    return _JSON_ESCAPES.get(char) or f"\\u{ord(char):04x}"


def json_quote(text: str) -> str:
    """A JSON string literal as JavaScript writes it (lone surrogates escaped, not raw)."""
    return '"' + _NEEDS_ESCAPE.sub(_escape_char, text) + '"'


def _scalar(value: Any) -> str | None:
    """The JSON text of a scalar, or None when `value` is a container."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_js_number(value) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return json_quote(value)
    return None


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return key
    scalar = _scalar(key)
    return scalar if scalar is not None else str(key)


def to_json_text(value: Any, indent: int = 2, level: int = 0) -> str:
    """`JSON.stringify(value, null, indent)`; tuples count as arrays, mappings as objects.
    (Plain loops, not comprehensions: one Python frame per nesting level on 3.11 too.)"""
    scalar = _scalar(value)
    if scalar is not None:
        return scalar
    pad, inner = " " * (indent * level), " " * (indent * (level + 1))
    items: list[str] = []
    if isinstance(value, (list, tuple)):
        for item in value:
            items.append(inner + to_json_text(item, indent, level + 1))
        return "[\n" + ",\n".join(items) + "\n" + pad + "]" if items else "[]"
    if isinstance(value, dict):
        for key, item in value.items():
            items.append(f"{inner}{json_quote(_key_text(key))}: {to_json_text(item, indent, level + 1)}")
        return "{\n" + ",\n".join(items) + "\n" + pad + "}" if items else "{}"
    raise TypeError(f"value of type {type(value).__name__} is not JSON")
