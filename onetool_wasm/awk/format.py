"""awk's values and their text: strnum, number <-> string, comparisons, printf formats.

A value is a float (a number), a str (a string), or a StrNum (a string that came from
input: a field, getline, split, ARGV, ENVIRON, -v; it compares as a number when it looks
like one). UNINIT is the value of a variable never assigned: "" and 0 at once.
"""
from __future__ import annotations

import math
import re


class StrNum(str):
    """A string from input; numeric in comparisons when it looks like a number."""
    __slots__ = ()


UNINIT = StrNum("")
# strtod's reading, hexadecimal included (gawk --posix reads "0x1A" as 26).
_LEADING = re.compile(r"[ \t\n\f\r\v]*(?:([-+]?0[xX][0-9a-fA-F]+)|([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?))")
_NUMERIC = re.compile(r"[ \t\n\f\r\v]*[-+]?(?:0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)"
                      r"[ \t\n\f\r\v]*\Z")
_SPECIAL = re.compile(r"[ \t\n\f\r\v]*([-+])(inf|nan)", re.IGNORECASE)
_CACHE: dict[str, float] = {}


def str_to_num(text: str) -> float:
    """The number a string's leading part spells (strtod's reading; 0 when none)."""
    value = _CACHE.get(text)
    if value is not None:
        return value
    match = _LEADING.match(text)
    if match:
        try:
            value = float(int(match.group(1), 16)) if match.group(1) else float(match.group(2))
        except (ValueError, OverflowError):
            value = 0.0
    else:
        special = _SPECIAL.match(text)
        value = float(special.group(1) + special.group(2)) if special else 0.0
    if len(_CACHE) > 4096:
        _CACHE.clear()
    _CACHE[text] = value
    return value


def num(value: object) -> float:
    if type(value) is float:
        return value  # type: ignore[return-value]
    if isinstance(value, str):
        cached = _CACHE.get(value)
        if cached is not None:
            return cached
        if value.isdecimal() and value.isascii():
            return float(value)  # plain digits: what strtod reads too
        return str_to_num(value)
    return float(value)  # type: ignore[arg-type]


def looks_numeric(value: str) -> bool:
    return _NUMERIC.match(value) is not None


def is_numeric(value: object) -> bool:
    """True when a value compares as a number (a number, uninitialized, or a numeric strnum)."""
    t = type(value)
    return t is float or (t is StrNum and (value is UNINIT or looks_numeric(value)))  # type: ignore[arg-type]


def truth(value: object) -> bool:
    t = type(value)
    if t is float:
        return value != 0.0
    if t is StrNum and looks_numeric(value):  # type: ignore[arg-type]
        return str_to_num(value) != 0.0  # type: ignore[arg-type]
    return value != ""


def integer_text(value: float) -> str | None:
    """The text of an integral value ("%d"), None for fractions, inf and nan."""
    if value.is_integer():
        return "%d" % value
    return None


def special_text(value: float) -> str:
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "+nan"
    return "-inf" if value < 0 else "+inf"


def number_text(value: float, fmt: str) -> str:
    """A number as a string: integers as integers, others through CONVFMT/OFMT."""
    if value.is_integer():
        return "%d" % value
    if math.isinf(value) or math.isnan(value):
        return special_text(value)
    if fmt == "%.6g":
        return "%.6g" % value
    return sprintf(fmt, [value], lambda v: "%.6g" % v if isinstance(v, float) else v)


def compare(a: object, b: object, to_str) -> int:
    """-1, 0 or 1 by awk's rules: numbers when both sides are numeric, else strings."""
    if is_numeric(a) and is_numeric(b):
        x, y = num(a), num(b)
        return -1 if x < y else (1 if x > y else 0)
    s, t = to_str(a), to_str(b)
    return -1 if s < t else (1 if s > t else 0)


# -- printf ---------------------------------------------------------------------------------
_SPEC = re.compile(r"%([-+ #0]*)(\*|[0-9]+)?(?:\.(\*|[0-9]*))?([a-zA-Z%])?")
_UNSIGNED = (1 << 64) - 1


class FormatError(Exception):
    """A format the awk program gave is unusable (e.g. too few arguments is NOT one)."""


def _pad(text: str, flags: str, width: int | None) -> str:
    if width is None or len(text) >= width:
        return text
    return text.ljust(width) if "-" in flags else text.rjust(width)


def _int_conv(conv: str, flags: str, width: int | None, prec: int | None, value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        text = special_text(value)
        if conv in "dic" and text.startswith("+") and "+" not in flags:
            text = text[1:] if " " not in flags else " " + text[1:]
        return _pad(text, flags.replace("0", ""), width)
    if conv in "ouxX" and (value >= 2.0 ** 64 or value < -(2.0 ** 63)):
        # Too big for C's unsigned integers: gawk prints it as %g with the same flags and width.
        return _float_conv("g", flags, width, prec, value)
    number = int(value)
    if conv in "ouxX":
        flags = flags.replace("+", "").replace(" ", "")  # unsigned conversions have no sign
    if conv in "ouxX" and number < 0:
        number &= _UNSIGNED
    if conv == "o" and "#" in flags:  # C's alternate octal form is a leading 0, not "0o"
        digits = "%o" % number
        digits = digits if digits.startswith("0") else "0" + digits
        if prec is not None:
            digits = digits.rjust(prec, "0")
        elif "0" in flags and "-" not in flags and width:
            return digits.rjust(width, "0")
        return _pad(digits, flags, width)
    if prec == 0 and number == 0 and (conv in "di" or value == 0.0):
        # No digits for zero at precision 0 (gawk: "0" for # with unsigned conversions).
        return _pad("0" if "#" in flags and conv in "ouxX" else "", flags.replace("0", ""), width)
    if conv == "u":
        conv = "d"
    spec = "%" + flags + ("" if width is None else str(width)) + ("" if prec is None else "." + str(prec)) + conv
    if prec is not None:
        digits = ("%" + ("#" if "#" in flags else "") + conv) % abs(number)
        prefix = ""
        if conv in "xX" and "#" in flags and number:
            prefix, digits = digits[:2], digits[2:]
        digits = digits.rjust(prec, "0")
        sign = "-" if number < 0 else ("+" if "+" in flags else (" " if " " in flags else ""))
        if conv in "ouxX":
            sign = ""
        return _pad(sign + prefix + digits, flags.replace("0", ""), width)
    return spec % number


def _float_conv(conv: str, flags: str, width: int | None, prec: int | None, value: float) -> str:
    if math.isnan(value) or math.isinf(value):
        text = special_text(value)
        if text.startswith("+") and "+" not in flags:
            text = text[1:] if " " not in flags else " " + text[1:]
        return _pad(text.upper() if conv in "EFG" else text, flags.replace("0", ""), width)
    spec = "%" + flags + ("" if width is None else str(width)) + ("" if prec is None else "." + str(prec)) + conv
    return spec % value


def sprintf(fmt: str, args: list, to_str, to_num=num) -> str:
    """awk's sprintf: C's conversions; missing arguments read as "" / 0."""
    out: list[str] = []
    pos, index, n = 0, 0, len(fmt)
    while pos < n:
        percent = fmt.find("%", pos)
        if percent < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:percent])
        match = _SPEC.match(fmt, percent)
        conv = match.group(4)  # type: ignore[union-attr]
        if conv is not None and conv not in "cdiouxXeEfFgGs%":
            raise FormatError(f"awk: cmd. line:1: fatal: `{conv}' is not permitted in POSIX awk formats")
        if conv is None:
            out.append(fmt[percent:match.end()])  # type: ignore[union-attr]
            pos = match.end()  # type: ignore[union-attr]
            continue
        pos = match.end()  # type: ignore[union-attr]
        if conv == "%":
            out.append("%")
            continue
        flags = match.group(1)  # type: ignore[union-attr]
        width: int | None = None
        prec: int | None = None
        wtext, ptext = match.group(2), match.group(3)  # type: ignore[union-attr]
        if wtext == "*":
            width = int(to_num(args[index])) if index < len(args) else 0
            index += 1
            if width < 0:
                flags += "-"
                width = -width
        elif wtext:
            width = int(wtext)
        if ptext == "*":
            prec = int(to_num(args[index])) if index < len(args) else 0
            index += 1
            if prec < 0:
                prec = None
        elif ptext is not None:
            prec = int(ptext) if ptext else 0
        if width is not None and width > 100000 or prec is not None and prec > 100000:
            raise FormatError("awk: printf: width or precision is too large (at most 100000)")
        if index >= len(args):
            raise FormatError("awk: cmd. line:1: fatal: not enough arguments to satisfy format string")
        value = args[index]
        index += 1
        out.append(_convert(conv, flags, width, prec, value, to_str, to_num))
    return "".join(out)


def _convert(conv: str, flags: str, width: int | None, prec: int | None, value: object, to_str, to_num) -> str:
    if conv == "s":
        text = to_str(value)
        if prec is not None:
            text = text[:prec]
        return _pad(text, flags, width)
    if conv == "c":
        if is_numeric(value):  # numbers, uninitialized values and numeric input give a byte
            number = to_num(value)
            code = int(number) if not (math.isnan(number) or math.isinf(number)) else 0
            text = chr(code & 255)
        else:
            text = to_str(value)[:1] or "\0"  # gawk prints the empty string's terminating NUL
        return _pad(text, flags, width)
    number = to_num(value)
    if conv in "diouxX":
        return _int_conv(conv, flags, width, prec, number)
    return _float_conv(conv, flags, width, prec, number)
