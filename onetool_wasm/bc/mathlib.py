"""The -l math library: s c a l e j, and scale=20.

GNU bc ships these as bc functions (libmath.b) that compute with guard digits and truncate
to `scale`. Here each is computed in Python with fixed-point integers and ample guard
digits, then truncated toward zero to `scale` digits, which gives GNU's digits (both are the
true value truncated), and l(x <= 0) gives GNU's -(10^scale - 1).
"""
from __future__ import annotations

from .number import MAX_DIGITS, Num, NumberTooLong
from .parser import Function, Symbols

GUARD = 12


def _tdiv(a: int, b: int) -> int:
    """a / b truncated toward zero (floor division would stick at -1)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _fixed(num: Num, digits: int) -> int:
    return num.rescale(digits).value


def _atanh_small(t: int, one: int) -> int:
    """atanh(t/one)*one for |t| <= one/3."""
    total, power, n = 0, t, 1
    square = t * t // one
    while power:
        total += _tdiv(power, n)
        power = _tdiv(power * square, one)
        n += 2
    return total


def _atan_small(t: int, one: int) -> int:
    total, power, n, sign = 0, t, 1, 1
    square = t * t // one
    while power:
        total += sign * _tdiv(power, n)
        power = _tdiv(power * square, one)
        n += 2
        sign = -sign
    return total


def _pi(one: int) -> int:
    return 4 * (4 * _atan_small(one // 5, one) - _atan_small(one // 239, one))


def _exp(x: int, one: int, digits: int) -> tuple[int, int]:
    """e^(x/one) as (value, denominator one2) with extra digits for the halvings."""
    halvings = 0
    bound = one // 10
    while abs(x) > bound * (2 ** halvings):
        halvings += 1
    extra = halvings + GUARD
    big = one * 10 ** extra
    y = x * 10 ** extra // (2 ** halvings) if x >= 0 else -((-x) * 10 ** extra // (2 ** halvings))
    total, term, n = big, big, 1
    while term:
        term = _tdiv(term * y, big * n)
        total += term
        n += 1
    for _ in range(halvings):
        total = total * total // big
    return total, big


def _ln(x: int, one: int) -> int:
    """ln(x/one)*one for x > 0."""
    k = x.bit_length() - one.bit_length()
    scaled = x << max(-k, 0)
    denominator = one << max(k, 0)
    # m = scaled / denominator lies within [0.5, 2]
    numerator = scaled - denominator
    total = scaled + denominator
    t = _tdiv(numerator * one, total)
    ln2 = 2 * _atanh_small(one // 3, one)
    return k * ln2 + 2 * _atanh_small(t, one)


def _sin_cos(x: int, one: int, cosine: bool) -> int:
    pi = _pi(one)
    two_pi = 2 * pi
    x = x % two_pi
    if x > pi:
        x -= two_pi
    square = x * x // one
    if cosine:
        total, term, n = one, one, 0
    else:
        total, term, n = x, x, 1
    sign = 1
    while term:
        term = _tdiv(term * square, one * (n + 1) * (n + 2))
        n += 2
        sign = -sign
        total += sign * term
    return total


def _result(value: int, digits: int, scale: int) -> Num:
    return Num(value, digits).rescale(scale)


def _digits(num: Num, scale: int) -> int:
    return scale + GUARD + num.int_len()


def m_sine(machine, args):
    (x,) = args
    digits = _digits(x, machine.scale)
    return _result(_sin_cos(_fixed(x, digits), 10 ** digits, False), digits, machine.scale)


def m_cosine(machine, args):
    (x,) = args
    digits = _digits(x, machine.scale)
    return _result(_sin_cos(_fixed(x, digits), 10 ** digits, True), digits, machine.scale)


def m_arctan(machine, args):
    (x,) = args
    digits = _digits(x, machine.scale) + x.int_len()
    one = 10 ** digits
    value = _fixed(x, digits)
    negative = value < 0
    value = abs(value)
    invert = value > one
    if invert:
        value = one * one // value
    halvings = 0
    while value > one // 5:
        from math import isqrt
        value = value * one // (one + isqrt(one * one + value * value))
        halvings += 1
    angle = _atan_small(value, one) * 2 ** halvings
    if invert:
        angle = _pi(one) // 2 - angle
    return _result(-angle if negative else angle, digits, machine.scale)


def m_log(machine, args):
    (x,) = args
    scale = machine.scale
    if x.value <= 0:
        return Num((1 - 10 ** scale) * 10 ** scale, scale)
    digits = scale + GUARD + x.scale + len(str(x.scale))
    one = 10 ** digits
    return _result(_ln(_fixed(x, digits), one), digits, scale)


def m_exp(machine, args):
    (x,) = args
    scale = machine.scale
    whole = abs(x.to_long())
    if whole * 0.4343 > MAX_DIGITS:
        if x.is_neg():
            return Num(0, scale)
        raise NumberTooLong(f"number too long (more than {MAX_DIGITS} digits)")
    digits = scale + GUARD + int(whole * 0.4343) + 2
    one = 10 ** digits
    value, big = _exp(abs(_fixed(x, digits)), one, digits)
    if x.is_neg():
        return Num(big * 10 ** scale // value, scale)
    return Num(value * 10 ** scale // big, scale)


def m_bessel(machine, args):
    n_num, x = args
    scale = machine.scale
    n = abs(n_num.to_long())
    flip = n_num.is_neg() and n % 2 == 1
    whole = abs(x.to_long())
    if n > 100_000 or whole > 100_000:
        raise NumberTooLong("j: arguments too large")
    digits = scale + GUARD + x.int_len() + whole
    one = 10 ** digits
    half = _tdiv(_fixed(x, digits), 2)
    square = half * half // one
    term = one
    for k in range(1, n + 1):
        term = _tdiv(term * half, one * k)
    total, k = term, 0
    while term or k <= whole:
        k += 1
        term = _tdiv(-term * square, one * k * (k + n))
        total += term
        if k > 10 * (whole + digits + 10):
            break
    return _result(-total if flip else total, digits, scale)


LIBRARY = {"e": (m_exp, 1), "l": (m_log, 1), "s": (m_sine, 1), "a": (m_arctan, 1),
           "c": (m_cosine, 1), "j": (m_bessel, 2)}


def install(symbols: Symbols) -> None:
    """Defines the library's functions (numbered 1-6 as in GNU bc)."""
    for name in ("e", "l", "s", "a", "c", "j"):
        native, count = LIBRARY[name]
        params = [(symbols.var(f"({name}:{index})"), False) for index in range(count)]
        number = symbols.func(name)
        symbols.functions[number] = Function(name, params=params, native=native)
