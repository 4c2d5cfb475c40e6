"""jq values as Python values, and what jq 1.6 does with them: type names, ordering,
equality, and printing (numbers as jq 1.6 prints its doubles).

null, booleans, strings, lists and dicts map directly; every number is a float (jq's numbers
are doubles), so a bool is never mistaken for a number.
"""
from __future__ import annotations

import math
import re
import sys
from json.encoder import encode_basestring as _escape
from typing import Any

DBL_MAX = sys.float_info.max
TYPE_ORDER = {"null": 0, "boolean": 1, "number": 3, "string": 4, "array": 5, "object": 6}


class JqError(Exception):
    """A runtime error; `value` is what `catch` sees (usually a message string)."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value

    def message(self) -> str:
        if isinstance(self.value, str):
            return self.value
        return f"{dump(self.value)} (not a string)"


class JqLimit(Exception):
    """A bound of ours was hit (depth, steps, output): not catchable by `try`."""


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def describe(value: Any) -> str:
    """`number (1)`, `string ("abc")`: how jq names a value in an error, cut to 11 bytes."""
    text = dump(value)
    if len(text.encode("utf-8")) > 11:
        text = text.encode("utf-8")[:10].decode("utf-8", errors="ignore") + "..."
    return f"{type_name(value)} ({text})"


def truthy(value: Any) -> bool:
    return not (value is None or value is False)


def sort_key(value: Any) -> tuple:
    """A key whose Python order is jq's order: null < false < true < numbers < strings <
    arrays < objects; objects by their sorted keys, then their values key by key."""
    if value is None:
        return (0,)
    if value is False:
        return (1,)
    if value is True:
        return (2,)
    if isinstance(value, float):
        return (3, 0) if value != value else (3, 1, value)
    if isinstance(value, str):
        return (4, value)
    if isinstance(value, list):
        return (5, tuple(sort_key(item) for item in value))
    keys = sorted(value)
    return (6, tuple(keys), tuple(sort_key(value[key]) for key in keys))


def compare(left: Any, right: Any) -> int:
    a, b = sort_key(left), sort_key(right)
    return (a > b) - (a < b)


def equal(left: Any, right: Any) -> bool:
    return sort_key(left) == sort_key(right)


# -- printing

def format_number(number: float) -> str:
    """jq 1.6's text for a double: shortest digits that read back, `%g`-like switch to an
    exponent (decimal point before -4 or more than 15 places past the digits), NaN as null."""
    if number != number:
        return "null"
    number = max(-DBL_MAX, min(DBL_MAX, number))
    if number == 0:
        return "-0" if math.copysign(1.0, number) < 0 else "0"
    text = repr(abs(number))
    sign = "-" if number < 0 else ""
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0":
        fraction = ""
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + (int(exponent) if exponent else 0)
    if whole == "0":
        stripped = fraction.lstrip("0")
        point = -(len(fraction) - len(stripped)) + (int(exponent) if exponent else 0)
        digits = stripped
    digits = digits.rstrip("0") or "0"
    if point <= -4 or point > len(digits) + 15:
        power = point - 1
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}e{'-' if power < 0 else '+'}{abs(power):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def dump_string(text: str, ascii_only: bool = False) -> str:
    out = ['"']
    for char in text:
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        elif ascii_only and code > 0x7E:
            if code > 0xFFFF:
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
            else:
                out.append(f"\\u{code:04x}")
        elif 0xD800 <= code < 0xE000:
            out.append("\ufffd")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def dump(value: Any, indent: str = "", sort_keys: bool = False, ascii_only: bool = False) -> str:
    """jq's text for a value: compact when `indent` is empty, else pretty with that unit."""
    if not indent and not sort_keys and not ascii_only:
        try:
            text = _compact(value)
        except _Slow:
            pass
        else:
            if _JSON_ONLY.search(text) is None:
                return text
    out: list[str] = []
    _dump(value, indent, sort_keys, ascii_only, 0, out)
    return "".join(out)


class _Slow(Exception):
    """A value _compact leaves to _dump."""


# What json's string escaping leaves as it is but jq does not: DEL (escaped) and lone
# surrogates (printed as U+FFFD). Strings are the only place they can come from.
_JSON_ONLY = re.compile("[\x7f\ud800-\udfff]")


def _compact(value: Any) -> str:
    """dump(value) for compact output, strings escaped by json's C function (the caller
    checks the text for _JSON_ONLY), integers below 1e16 as "%d" (as format_number)."""
    kind = type(value)
    if kind is str:
        return _escape(value)
    if kind is float:
        if value.is_integer() and -1e16 < value < 1e16 and (value or math.copysign(1.0, value) > 0):
            return "%d" % value
        return format_number(value)
    if kind is dict:
        return "{" + ",".join([_escape(key) + ":" + _compact(item) for key, item in value.items()]) + "}"
    if kind is list:
        return "[" + ",".join([_compact(item) for item in value]) + "]"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    raise _Slow()


def _dump(value: Any, indent: str, sort_keys: bool, ascii_only: bool, level: int, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, float):
        out.append(format_number(value))
    elif isinstance(value, str):
        out.append(dump_string(value, ascii_only))
    elif isinstance(value, list):
        _dump_items(value, [(None, item) for item in value], "[]", indent, sort_keys, ascii_only, level, out)
    else:
        keys = sorted(value) if sort_keys else list(value)
        _dump_items(value, [(key, value[key]) for key in keys], "{}", indent, sort_keys, ascii_only, level, out)


def _dump_items(container: Any, items: list, brackets: str, indent: str, sort_keys: bool,
                ascii_only: bool, level: int, out: list[str]) -> None:
    if not items:
        out.append(brackets)
        return
    out.append(brackets[0])
    inner = "\n" + indent * (level + 1) if indent else ""
    for position, (key, item) in enumerate(items):
        if position:
            out.append(",")
        out.append(inner)
        if key is not None:
            out.append(dump_string(key, ascii_only))
            out.append(": " if indent else ":")
        _dump(item, indent, sort_keys, ascii_only, level + 1, out)
    if indent:
        out.append("\n" + indent * level)
    out.append(brackets[1])


def to_jq(value: Any) -> Any:
    """A parsed JSON value with every number as a float (ints from json.loads included).
    A value that holds no int (json.loads with parse_int=float) is returned as it is."""
    if not _has_int(value):
        return value
    return _to_jq(value)


def _has_int(value: Any) -> bool:
    """Whether an int (not a bool) is anywhere in the value: an explicit stack, no recursion."""
    kind = type(value)
    if kind is not list and kind is not dict:
        return kind is not bool and isinstance(value, int)
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        container = pop()
        for item in (container if type(container) is list else container.values()):
            kind = type(item)
            if kind is str or kind is float or item is None or kind is bool:
                continue
            if kind is list or kind is dict:
                push(item)
            else:
                return True  # an int, or another type _to_jq converts
    return False


def _to_jq(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return value
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            return DBL_MAX if value > 0 else -DBL_MAX
    if isinstance(value, list):
        return [_to_jq(item) for item in value]
    return {key: _to_jq(item) for key, item in value.items()}
