"""bc numbers: arbitrary-precision decimals with GNU bc's scale rules.

A `Num` is an integer `value` standing for value / 10**scale, so 1.50 keeps its scale of 2
as bc does. Every operation truncates toward zero where bc does and picks the result scale
bc's number.c picks; zero is never negative. Big values convert to and from decimal text in
chunks, so CPython's limit on int/str conversion never applies.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_DIGITS = 200_000      # integer digits + scale digits of any one number
_CHUNK = 4000
_CHUNK_POW = 10 ** _CHUNK


class NumberTooLong(ArithmeticError):
    """A result longer than MAX_DIGITS digits."""


def int_to_digits(n: int) -> str:
    """The decimal digits of n >= 0 (no limit on the length)."""
    if n < _CHUNK_POW:
        return str(n)
    parts = []
    while n:
        n, low = divmod(n, _CHUNK_POW)
        parts.append(low)
    head = str(parts.pop())
    return head + "".join(str(part).zfill(_CHUNK) for part in reversed(parts))


def digits_to_int(text: str) -> int:
    """The integer of a string of decimal digits (no limit on the length)."""
    if len(text) <= _CHUNK:
        return int(text or "0")
    value = 0
    head = len(text) % _CHUNK or _CHUNK
    value = int(text[:head])
    for start in range(head, len(text), _CHUNK):
        value = value * _CHUNK_POW + int(text[start:start + _CHUNK])
    return value


def _pow10(n: int) -> int:
    return 10 ** n


def _trunc_div(a: int, b: int) -> int:
    """a / b truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@dataclass(frozen=True)
class Num:
    value: int
    scale: int = 0

    # -- shape --------------------------------------------------------------------------
    def is_zero(self) -> bool:
        return self.value == 0

    def is_neg(self) -> bool:
        return self.value < 0

    def int_len(self) -> int:
        """bc's n_len: digits before the point (at least 1)."""
        whole = abs(self.value) // _pow10(self.scale)
        return len(int_to_digits(whole)) if whole else 1

    def check(self) -> "Num":
        if self.value.bit_length() > MAX_DIGITS * 3.33 or self.scale > MAX_DIGITS:
            if self.int_len() + self.scale > MAX_DIGITS:
                raise NumberTooLong(f"number too long (more than {MAX_DIGITS} digits)")
        return self

    def rescale(self, scale: int) -> "Num":
        """This number with `scale` digits after the point (truncating toward zero)."""
        if scale >= self.scale:
            return Num(self.value * _pow10(scale - self.scale), scale)
        return Num(_trunc_div(self.value, _pow10(self.scale - scale)), scale)

    def to_long(self) -> int:
        """bc_num2long: the integer part (the caller checks the size)."""
        return _trunc_div(self.value, _pow10(self.scale))

    def compare(self, other: "Num") -> int:
        scale = max(self.scale, other.scale)
        a = self.value * _pow10(scale - self.scale)
        b = other.value * _pow10(scale - other.scale)
        return (a > b) - (a < b)

    # -- arithmetic ---------------------------------------------------------------------
    def add(self, other: "Num", scale_min: int = 0) -> "Num":
        scale = max(self.scale, other.scale, scale_min)
        a = self.value * _pow10(scale - self.scale)
        b = other.value * _pow10(scale - other.scale)
        return Num(a + b, scale).check()

    def sub(self, other: "Num", scale_min: int = 0) -> "Num":
        return self.add(Num(-other.value, other.scale), scale_min)

    def mul(self, other: "Num", scale: int) -> "Num":
        full = self.scale + other.scale
        prod_scale = min(full, max(scale, self.scale, other.scale))
        if (self.value.bit_length() + other.value.bit_length()) > MAX_DIGITS * 3.33 + 64:
            raise NumberTooLong(f"number too long (more than {MAX_DIGITS} digits)")
        return Num(self.value * other.value, full).rescale(prod_scale).check()

    def div(self, other: "Num", scale: int) -> "Num":
        """self / other with `scale` digits (the caller checks for zero)."""
        if scale > MAX_DIGITS:
            raise NumberTooLong(f"number too long (more than {MAX_DIGITS} digits)")
        num = self.value * _pow10(scale + other.scale)
        den = other.value * _pow10(self.scale)
        return Num(_trunc_div(num, den), scale).check()

    def mod(self, other: "Num", scale: int) -> "Num":
        rscale = max(self.scale, other.scale + scale)
        quotient = self.div(other, scale)
        return self.sub(quotient.mul(other, rscale), rscale)

    def sqrt(self, scale: int) -> "Num | None":
        """The square root truncated to max(scale, own scale) digits; None when negative."""
        if self.value < 0:
            return None
        if self.value == 0:
            return ZERO
        if self.compare(ONE) == 0:
            return ONE
        rscale = max(scale, self.scale)
        # value / 10**s * 10**(2r) -> integer square root is the answer * 10**r
        shift = 2 * rscale - self.scale
        radicand = self.value * _pow10(shift) if shift >= 0 else self.value // _pow10(-shift)
        from math import isqrt
        return Num(isqrt(radicand), rscale).check()

    # -- length() and scale() -----------------------------------------------------------
    def length(self) -> int:
        if self.scale and abs(self.value) < _pow10(self.scale):
            return self.scale
        return self.int_len() + self.scale


ZERO = Num(0, 0)
ONE = Num(1, 0)


def from_int(n: int) -> Num:
    return Num(n, 0)


def raise_power(base: Num, exponent: int, scale: int) -> Num:
    """bc_raise with an integer exponent (the caller warns about a fractional one and
    reports 0 to a negative power)."""
    if exponent == 0:
        return ONE
    magnitude = abs(exponent)
    value = base.value
    too_long = NumberTooLong(f"number too long (more than {MAX_DIGITS} digits)")
    if abs(value) > 1 and (abs(value).bit_length() - 1) * 0.30103 * magnitude > MAX_DIGITS:
        raise too_long
    if base.scale * magnitude > 4 * MAX_DIGITS:
        raise too_long
    power = Num(value ** magnitude, base.scale * magnitude)
    if exponent < 0:
        if value == 0:
            return ZERO
        return ONE.div(power, scale)
    rscale = min(base.scale * magnitude, max(scale, base.scale))
    return power.rescale(rscale).check() if power.scale > rscale else power.check()


# -- text ---------------------------------------------------------------------------------

_DIGIT_CHARS = "0123456789ABCDEF"


def format_number(num: Num, obase: int) -> str:
    """bc_out_num: the text bc prints for num in base obase (no line wrapping)."""
    out = []
    if num.value < 0:
        out.append("-")
    if num.value == 0:
        out.append("0")
        return "".join(out)
    magnitude = abs(num.value)
    unit = _pow10(num.scale)
    whole, frac = divmod(magnitude, unit)
    if obase == 10:
        if whole:
            out.append(int_to_digits(whole))
        if num.scale:
            out.append(".")
            out.append(int_to_digits(frac).zfill(num.scale))
        return "".join(out)
    width = len(str(obase - 1))
    digits = []
    while whole:
        whole, digit = divmod(whole, obase)
        digits.append(digit)
    for digit in reversed(digits):
        out.append(_DIGIT_CHARS[digit] if obase <= 16 else " " + str(digit).zfill(width))
    if num.scale:
        out.append(".")
        t = 1
        first = True
        limit = _pow10(num.scale)   # len(str(t)) <= scale  <=>  t < 10**scale
        while t < limit:
            frac *= obase
            digit, frac = divmod(frac, unit)
            if obase <= 16:
                out.append(_DIGIT_CHARS[digit])
            else:
                out.append(("" if first else " ") + str(digit).zfill(width))
            first = False
            t *= obase
    return "".join(out)
