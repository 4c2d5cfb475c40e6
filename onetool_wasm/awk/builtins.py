"""awk's built-in functions that need no runtime state beyond their arguments, and the
arithmetic helpers the generated code calls (division by zero and overflow as gawk words them).
"""
from __future__ import annotations

import math
import re

from .format import UNINIT, StrNum, num

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_WORDS = re.compile(r"[^ \t\n]+")
MAX_STRING = 64 * 1024 * 1024


class AwkError(Exception):
    """A fatal runtime error: the message (one line) goes to stderr, the status is 2."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def lower(text: str) -> str:
    return text.translate(_LOWER)


def upper(text: str) -> str:
    return text.translate(_UPPER)


def div(a: object, b: object) -> float:
    x, y = num(a), num(b)
    if y == 0.0:
        raise AwkError("awk: cmd. line:1: fatal: division by zero attempted")
    return x / y


def mod(a: object, b: object) -> float:
    x, y = num(a), num(b)
    if y == 0.0:
        raise AwkError("awk: cmd. line:1: fatal: division by zero attempted in `%'")
    return math.fmod(x, y)


def power(a: object, b: object) -> float:
    x, y = num(a), num(b)
    try:
        if y.is_integer() and abs(y) < 1 << 30:
            result = x ** int(y) if y >= 0 or x != 0.0 else math.inf
            return float(result)
        return float(math.pow(x, y))
    except OverflowError:
        return math.inf if x > 0 or float(y) % 2 == 0 else -math.inf
    except (ValueError, ZeroDivisionError):
        return math.nan


def arith(sym: str, a: float, b: float) -> float:
    """One compound assignment's operation (`+=` ... `^=`) on two numbers."""
    if sym == "+":
        return a + b
    if sym == "-":
        return a - b
    if sym == "*":
        return a * b
    if sym == "/":
        return div(a, b)
    if sym == "%":
        return mod(a, b)
    return power(a, b)


def rarith(sym: str, b: float, a: float) -> float:
    """arith with the right operand first (it was evaluated first)."""
    return arith(sym, a, b)


def trunc(value: object) -> float:
    x = num(value)
    if math.isinf(x) or math.isnan(x):
        return x
    return float(math.trunc(x))


def concat(parts: tuple) -> str:
    text = "".join(parts)
    if len(text) > MAX_STRING:
        raise AwkError(f"awk: fatal: a string is longer than {MAX_STRING} bytes: the program grows a value without bound")
    return text


def substr(text: str, start: object, length: object = None) -> str:
    """substr(s, m[, n]) as gawk --posix: m and n truncated, m below 1 read as 1."""
    m = num(start)
    n = math.inf if length is None else num(length)
    if math.isnan(m) or math.isnan(n) or n <= 0 or m == math.inf:
        return ""
    first = 1 if m < 1 else int(m)
    if n == math.inf:
        return text[first - 1:]
    return text[first - 1:first - 1 + int(n)]


def index(text: str, target: str) -> float:
    return float(text.find(target) + 1)


def split_default(text: str) -> list[str]:
    """Fields separated by runs of blanks and newlines, none at the ends."""
    return _WORDS.findall(text)


def math_fn(name: str, value: object, warn) -> float:
    x = num(value)
    try:
        if name == "sqrt":
            if x < 0:
                warn(f"awk: cmd. line:1: warning: sqrt: received negative argument {_g(x)}")
                return -math.nan
            return math.sqrt(x)
        if name == "exp":
            try:
                return math.exp(x)
            except OverflowError:
                warn(f"awk: cmd. line:1: warning: exp: argument {_g(x)} is out of range")
                return math.inf
        if name == "log":
            if x < 0:
                warn(f"awk: cmd. line:1: warning: log: received negative argument {_g(x)}")
                return -math.nan
            return math.log(x) if x > 0 else -math.inf
        if name == "sin":
            return math.sin(x)
        return math.cos(x)
    except (ValueError, OverflowError):
        return math.nan


def atan2(y: object, x: object) -> float:
    return math.atan2(num(y), num(x))


def _g(x: float) -> str:
    return "%g" % x


def strnum(text: str) -> StrNum:
    """A string that came from outside the program (a field, -v, ENVIRON)."""
    return StrNum(text)


__all__ = ["AwkError", "UNINIT", "lower", "upper", "div", "mod", "power", "arith", "rarith", "trunc", "concat", "substr", "index",
           "split_default", "math_fn", "atan2", "strnum"]
