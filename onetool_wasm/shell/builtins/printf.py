"""bash's `printf` builtin as a pure function: a format and its arguments in; the output bytes,
the error messages and the exit status out (option parsing, `-v` and printing are the caller's).

It follows bash 5.2 under LC_ALL=C, so it works on bytes: the format and the arguments are
UTF-8 encoded first, widths and precisions count bytes, `%c` prints one byte and `'x` gives the
code of x's first byte. One deliberate difference: `\\uHHHH` and `\\UHHHHHHHH` are written as
UTF-8 (bash does so in a UTF-8 locale; in the C locale it would print the escape as text).

Numbers are read like C's strtoimax/strtoumax/strtold, which bash uses: integers are 64-bit,
and floating point arguments are rounded to the x86 80-bit long double (64-bit mantissa)
that bash prints them with, using exact fractions so `%.20f` and `%a` agree with bash.

`%n` takes its argument and prints nothing (bash would store the count in that variable);
`%(fmt)T` formats with the host's local time zone, and `-2` (the shell's start) means now.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import NoReturn

_FLAG_CHARS = b"#'-+ 0"
_LENGTH_MODIFIERS = b"hjlLtz"
_C_SPACE = " \t\n\v\f\r"
_OCTAL = b"01234567"
_HEX = b"0123456789abcdefABCDEF"
_SIMPLE_ESCAPES = {ord("a"): b"\a", ord("b"): b"\b", ord("e"): b"\x1b", ord("E"): b"\x1b", ord("f"): b"\f",
                   ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("v"): b"\v", ord("\\"): b"\\"}
# Characters that %q protects with a backslash (recorded from bash 5.2).
_SHELL_SPECIAL = frozenset(b" \t\n!\"$&'()*,;<>?[\\]^`{|}")
_ANSI_C_ESCAPES = {0x07: b"\\a", 0x08: b"\\b", 0x0C: b"\\f", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t",
                   0x0B: b"\\v", 0x1B: b"\\E", 0x5C: b"\\\\", 0x27: b"\\'"}

_INTMAX_MIN, _INTMAX_MAX = -(1 << 63), (1 << 63) - 1
_UINTMAX_MAX = (1 << 64) - 1
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
# long double: 64-bit mantissa, smallest normal exponent 2**-16382, largest value below 2**16384
_MANTISSA_BITS = 64
_MIN_EXPONENT = -16382
_MAX_EXPONENT = 16384
# A long double's exact decimal expansion ends within 16445 places after the point and has
# fewer than 21400 significant digits: past those every digit is 0, so they are not computed.
_EXACT_PLACES = 16500
_EXACT_SIGNIFICANT = 21500
_DIGIT_CHUNK = 1000  # decimal digits converted at a time, under Python's int/str digit limit
_TIME_BUFFER = 128   # bash's strftime buffer: a longer result prints nothing


def format_printf(fmt: str, args: list[str]) -> tuple[bytes, list[str], int]:
    """Run `printf FMT ARGS...` as bash does: (output, error messages as bash prints them after
    `bash: line N: `, exit status)."""
    printer = _Printer(args)
    status = printer.run(_to_bytes(fmt))
    return bytes(printer.out), printer.errors, status


def _to_bytes(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate that surrogateescape did not make
        return text.encode("utf-8", "surrogatepass")


def _to_text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


class _Stop(Exception):
    """Printing ends here (an invalid conversion, or `\\c` in a %b argument)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@dataclass
class _Spec:
    """One conversion: `%-08.3d` -> flags "-0", width 8, precision 3, conversion "d"."""
    flags: bytes
    width: int | None
    precision: int | None
    precision_from_argument: bool = False  # `.*`

    @property
    def left(self) -> bool:
        return b"-" in self.flags


@dataclass
class _Float:
    """A strtold result: sign, kind ("finite", "inf" or "nan") and exact magnitude."""
    negative: bool
    kind: str
    magnitude: Fraction = Fraction(0)


class _Printer:
    """One run of printf: walks the format, takes arguments in order, collects the output."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.next = 0
        self.out = bytearray()
        self.errors: list[str] = []
        self.conversion_error = False

    def run(self, fmt: bytes) -> int:
        """The format is used again while arguments remain (and once with none)."""
        try:
            while True:
                first = self.next
                self._one_pass(fmt)
                if self.next >= len(self.args) or self.next == first:
                    break
        except _Stop as stop:
            return stop.status
        return 1 if self.conversion_error else 0

    def _one_pass(self, fmt: bytes) -> None:
        i, end = 0, len(fmt)
        while i < end:
            byte = fmt[i]
            if byte == 0x5C:  # backslash
                text, i, _ = self._escape(fmt, i + 1, in_argument=False)
                self.out += text
            elif byte != 0x25:  # not %
                self.out.append(byte)
                i += 1
            elif fmt[i + 1:i + 2] == b"%":
                self.out += b"%"
                i += 2
            else:
                i = self._conversion(fmt, i)

    # ------------------------------------------------------------ one conversion

    def _conversion(self, fmt: bytes, start: int) -> int:
        """Print the conversion starting at fmt[start] ("%"); return where the format goes on."""
        j = start + 1
        while j < len(fmt) and fmt[j] in _FLAG_CHARS:
            j += 1
        flags = fmt[start + 1:j]
        width: int | None = None
        if fmt[j:j + 1] == b"*":
            j += 1
            width = self._star_argument()
            if width < 0:  # a negative width from an argument left-justifies
                flags, width = flags + b"-", -width
        else:
            j, width = _read_digits(fmt, j)
        precision: int | None = None
        precision_from_argument = fmt[j:j + 2] == b".*"
        if fmt[j:j + 1] == b".":
            j += 1
            if precision_from_argument:
                j += 1
                precision = self._star_argument()
                precision = None if precision < 0 else precision
            else:
                negative = fmt[j:j + 1] == b"-"
                j, digits = _read_digits(fmt, j + negative)
                precision = None if negative else (digits or 0)
        while j < len(fmt) and fmt[j] in _LENGTH_MODIFIERS:
            j += 1
        if j >= len(fmt):
            self._fail(f"printf: `{_to_text(fmt[start:])}': missing format character")
        spec = _Spec(flags, width, precision, precision_from_argument)
        conversion = chr(fmt[j])
        if conversion == "(":
            return self._time(fmt, start, j, spec)
        self._convert(conversion, spec, fmt, j)
        return j + 1

    def _convert(self, conversion: str, spec: _Spec, fmt: bytes, at: int) -> None:
        if conversion == "c":
            argument = self._take()
            # bash prints the first byte, a NUL byte for an empty or missing argument
            self.out += _pad(argument[:1] if argument else b"\0", spec)
        elif conversion == "s":
            self.out += _pad(_truncate(self._take() or b"", spec.precision), spec)
        elif conversion == "b":
            text, saw_c = self._expand_argument(self._take() or b"")
            self.out += _pad(_truncate(text, spec.precision), spec)
            if saw_c:
                raise _Stop(0)  # bash ends here with success, even after a number error
        elif conversion in "qQ":
            self._quoted(conversion, spec)
        elif conversion == "n":
            self._take()  # bash assigns the byte count to this variable; not supported here
        elif conversion in "di":
            self.out += _format_integer(self._integer(signed=True), conversion, spec)
        elif conversion in "ouxX":
            self.out += _format_integer(self._integer(signed=False), conversion, spec)
        elif conversion in "aAeEfFgG":
            self.out += _format_float(self._float(), conversion, spec)
        else:
            # bash names the byte; the whole (UTF-8) character is friendlier
            self._fail(f"printf: `{_to_text(fmt[at:])[:1]}': invalid format character")

    def _quoted(self, conversion: str, spec: _Spec) -> None:
        """%q quotes the argument for the shell; %Q cuts it to the precision first (bash
        ignores a `.*` precision there)."""
        text = self._take() or b""
        if conversion == "Q":
            if not spec.precision_from_argument:
                text = _truncate(text, spec.precision)
            spec = _Spec(spec.flags, spec.width, None)
        self.out += _pad(_truncate(_shell_quote(text), spec.precision), spec)

    def _time(self, fmt: bytes, start: int, paren: int, spec: _Spec) -> int:
        """`%(strftime format)T` of an argument in seconds since the epoch (-1: now)."""
        depth, j = 1, paren + 1
        while j < len(fmt):
            depth += {0x28: 1, 0x29: -1}.get(fmt[j], 0)
            if depth == 0:
                break
            j += 1
        if fmt[j + 1:j + 2] != b"T":
            shown = _to_text(fmt[j + 1:])[:1]
            self.errors.append(f"printf: warning: `{shown}': invalid time format specification")
            self.out += b"%"  # bash prints the % and goes on from the parenthesis as text
            return start + 1
        pattern = _to_text(fmt[paren + 1:j]) or "%X"
        seconds = self._integer(signed=True) if self.next < len(self.args) else -1
        self.out += _pad(_truncate(_strftime(pattern, seconds), spec.precision), spec)
        return j + 2

    # ------------------------------------------------------------ arguments

    def _take(self) -> bytes | None:
        if self.next >= len(self.args):
            return None
        self.next += 1
        return _to_bytes(self.args[self.next - 1])

    def _star_argument(self) -> int:
        """A `*` width or precision: an integer argument, clamped to C's int."""
        word = self.args[self.next] if self.next < len(self.args) else ""
        value = self._integer(signed=True)
        if not _INT_MIN <= value <= _INT_MAX:
            self._out_of_range(word)
            value = max(_INT_MIN, min(_INT_MAX, value))
        return value

    def _integer(self, signed: bool) -> int:
        """The next argument as strtoimax (signed) or strtoumax reads it with base 0; a missing
        argument is 0, a leading quote gives the next character's code."""
        if self.next >= len(self.args):
            return 0
        word = self.args[self.next]
        self.next += 1
        if word[:1] in ("'", '"'):
            return _character_code(word)
        value, end = _parse_c_integer(word)
        if end < len(word):
            self._invalid_number(word)
        if signed and not _INTMAX_MIN <= value <= _INTMAX_MAX:
            value = _INTMAX_MAX if value > 0 else _INTMAX_MIN
            if end == len(word):
                self._out_of_range(word)
        elif not signed:
            if abs(value) > _UINTMAX_MAX:
                value = _UINTMAX_MAX
                if end == len(word):
                    self._out_of_range(word)
            value %= 1 << 64  # strtoumax negates in unsigned arithmetic
        return value

    def _float(self) -> _Float:
        if self.next >= len(self.args):
            return _Float(False, "finite")
        word = self.args[self.next]
        self.next += 1
        if word[:1] in ("'", '"'):
            return _Float(False, "finite", Fraction(_character_code(word)))
        number, end, out_of_range = _parse_c_float(word)
        if end < len(word):
            self._invalid_number(word)
        elif out_of_range:
            self._out_of_range(word)
        return number

    def _invalid_number(self, word: str) -> None:
        if word[:1] == "0" and word[1:2].isascii() and word[1:2].isdigit():
            kind = "invalid octal number"
        elif word[:2] == "0x":
            kind = "invalid hex number"
        else:
            kind = "invalid number"
        self.errors.append(f"printf: {word}: {kind}")
        self.conversion_error = True

    def _out_of_range(self, word: str) -> None:
        self.errors.append(f"printf: warning: {word}: Numerical result out of range")

    def _fail(self, message: str) -> NoReturn:
        self.errors.append(message)
        raise _Stop(1)

    # ------------------------------------------------------------ backslash escapes

    def _escape(self, text: bytes, pos: int, in_argument: bool) -> tuple[bytes, int, bool]:
        """The escape whose letter is text[pos] (just after a backslash), in the format or (for
        %b) in an argument: (bytes it stands for, where the text goes on, whether it was `\\c`).
        An unknown escape stands for the backslash alone; its letter is then read as text."""
        if pos >= len(text):
            return b"\\", pos, False
        letter = text[pos]
        if letter in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[letter], pos + 1, False
        if letter in _OCTAL:
            # `\NNN`; in a %b argument `\0NNN` may have three digits after the 0
            more = 3 if in_argument and letter == 0x30 else 2
            end = _span(text, pos + 1, _OCTAL, more)
            return bytes([int(text[pos:end], 8) & 0xFF]), end, False
        if letter in b"xuU":
            return self._hex_escape(text, pos)
        if letter in b"'\"?" and not in_argument:
            return bytes([letter]), pos + 1, False
        if letter == ord("c") and in_argument:
            return b"", pos + 1, True
        return b"\\", pos, False

    def _hex_escape(self, text: bytes, pos: int) -> tuple[bytes, int, bool]:
        letter = chr(text[pos])
        end = _span(text, pos + 1, _HEX, {"x": 2, "u": 4, "U": 8}[letter])
        if end == pos + 1:
            kind = "hex" if letter == "x" else "unicode"
            self.errors.append(f"printf: missing {kind} digit for \\{letter}")
            return b"\\", pos, False
        value = int(text[pos + 1:end], 16)
        return (bytes([value]) if letter == "x" else _utf8(value)), end, False

    def _expand_argument(self, text: bytes) -> tuple[bytes, bool]:
        """%b: the argument with its backslash escapes decoded; True when `\\c` cut it short."""
        out = bytearray()
        i = 0
        while i < len(text):
            if text[i] != 0x5C or i + 1 == len(text):
                out.append(text[i])
                i += 1
                continue
            decoded, i, saw_c = self._escape(text, i + 1, in_argument=True)
            if saw_c:
                return bytes(out), True
            out += decoded
        return bytes(out), False


# ---------------------------------------------------------------- helpers


def _read_digits(text: bytes, pos: int) -> tuple[int, int | None]:
    """A width or precision written in the format: (its end, its value or None when absent;
    absurdly long ones are ignored too)."""
    end = _span(text, pos, b"0123456789", len(text))
    return end, (int(text[pos:end]) if end > pos and end - pos < _DIGIT_CHUNK else None)


def _span(text: bytes, pos: int, allowed: bytes, limit: int) -> int:
    """The end of the run of `allowed` bytes at pos, at most `limit` long."""
    end = pos
    while end < len(text) and end - pos < limit and text[end] in allowed:
        end += 1
    return end


def _pad(data: bytes, spec: _Spec) -> bytes:
    """Pad with spaces to the width: on the right for `-`, else on the left."""
    if spec.width is None or len(data) >= spec.width:
        return data
    fill = b" " * (spec.width - len(data))
    return data + fill if spec.left else fill + data


def _truncate(data: bytes, precision: int | None) -> bytes:
    return data if precision is None else data[:precision]


def _character_code(word: str) -> int:
    """`'x` or `"x`: the code of the first byte of x (bash under LC_ALL=C); 0 when empty."""
    rest = _to_bytes(word[1:])
    return rest[0] if rest else 0


def _utf8(code: int) -> bytes:
    """UTF-8 for any code up to 0x7FFFFFFF, as bash writes it (surrogates and values beyond
    U+10FFFF included, in the original up-to-six-byte scheme); nothing above that."""
    if code < 0x80:
        return bytes([code])
    if code > 0x7FFFFFFF:
        return b""
    count = next(n for n, limit in ((2, 0x800), (3, 0x10000), (4, 0x200000), (5, 0x4000000), (6, 1 << 31))
                 if code < limit)
    tail = [0x80 | ((code >> (6 * k)) & 0x3F) for k in range(count - 2, -1, -1)]
    lead = ((0xFF << (8 - count)) & 0xFF) | (code >> (6 * (count - 1)))
    return bytes([lead, *tail])


def _shell_quote(text: bytes) -> bytes:
    """%q: `''` for nothing; `$'...'` when a byte is not printable ASCII; else backslashes before
    the shell's special characters (and a leading `#`, and `~` where it would expand)."""
    if not text:
        return b"''"
    if any(byte < 0x20 or byte >= 0x7F for byte in text):
        body = b"".join(_ANSI_C_ESCAPES.get(byte) or (bytes([byte]) if 0x20 <= byte < 0x7F else b"\\%03o" % byte)
                        for byte in text)
        return b"$'" + body + b"'"
    out = bytearray()
    for i, byte in enumerate(text):
        at_word_start = i == 0
        if (byte in _SHELL_SPECIAL or (byte == ord("#") and at_word_start)
                or (byte == ord("~") and (at_word_start or text[i - 1] in b":="))):
            out += b"\\"
        out.append(byte)
    return bytes(out)


def _strftime(pattern: str, seconds: int) -> bytes:
    if seconds in (-1, -2):
        seconds = int(time.time())
    try:
        text = time.strftime(pattern, time.localtime(seconds)).encode("utf-8", "surrogateescape")
    except (ValueError, OverflowError, OSError, UnicodeError):
        return b""
    return text if len(text) < _TIME_BUFFER else b""


# ---------------------------------------------------------------- reading numbers


def _skip_c_space(word: str) -> int:
    i = 0
    while i < len(word) and word[i] in _C_SPACE:
        i += 1
    return i


def _parse_c_integer(word: str) -> tuple[int, int]:
    """strtoimax/strtoumax with base 0: (value, index where the number ends); the index is 0
    when there is no number. The value is exact (the caller clamps), except that absurdly long
    digit strings read as 2**80."""
    i = _skip_c_space(word)
    negative = word[i:i + 1] == "-"
    i += word[i:i + 1] in ("+", "-")
    if word[i:i + 2] in ("0x", "0X") and word[i + 2:i + 3] and word[i + 2] in "0123456789abcdefABCDEF":
        base, digits_start = 16, i + 2
        allowed = "0123456789abcdefABCDEF"
    elif word[i:i + 1] == "0":
        base, digits_start, allowed = 8, i, "01234567"
    else:
        base, digits_start, allowed = 10, i, "0123456789"
    end = digits_start
    while end < len(word) and word[end] in allowed:
        end += 1
    if end == digits_start:
        return 0, 0
    digits = word[digits_start:end].lstrip("0")
    magnitude = int(digits or "0", base) if len(digits) <= 30 else 1 << 80
    return (-magnitude if negative else magnitude), end


def _parse_c_float(word: str) -> tuple[_Float, int, bool]:
    """strtold: (value rounded to long double, index where the number ends (0: none), whether
    it overflowed or underflowed)."""
    i = _skip_c_space(word)
    negative = word[i:i + 1] == "-"
    i += word[i:i + 1] in ("+", "-")
    lowered = word[i:].lower()
    for name in ("infinity", "inf"):
        if lowered.startswith(name):
            return _Float(negative, "inf"), i + len(name), False
    if lowered.startswith("nan"):
        end = i + 3
        close = word.find(")", end)
        if word[end:end + 1] == "(" and close > 0 and all(c.isascii() and (c.isalnum() or c == "_")
                                                          for c in word[end + 1:close]):
            end = close + 1
        return _Float(negative, "nan"), end, False
    hexadecimal = lowered[:2] == "0x" and _is_hex_digit(lowered[2 + (lowered[2:3] == "."):][:1])
    radix = 2 if hexadecimal else 10
    mantissa, exponent, end = _read_mantissa(word, i + 2 if hexadecimal else i, hexadecimal)
    if end == 0:
        return _Float(False, "finite"), 0, False
    magnitude, out_of_range = _long_double(mantissa, radix, exponent)
    if magnitude is None:
        return _Float(negative, "inf"), end, True
    return _Float(negative, "finite", magnitude), end, out_of_range


def _is_hex_digit(char: str) -> bool:
    return len(char) == 1 and char in "0123456789abcdefABCDEF"


def _read_mantissa(word: str, start: int, hexadecimal: bool) -> tuple[int, int, int]:
    """Digits, an optional point and digits, an optional exponent (`e` for decimal, `p` for
    hex, a power of two): (mantissa, exponent of 10 or of 2, index of the end; 0 for none)."""
    digits = "0123456789abcdefABCDEF" if hexadecimal else "0123456789"
    end = start
    while end < len(word) and word[end] in digits:
        end += 1
    whole = word[start:end]
    fraction = ""
    if word[end:end + 1] == ".":
        point = end + 1
        end = point
        while end < len(word) and word[end] in digits:
            end += 1
        fraction = word[point:end]
    if not whole and not fraction:
        return 0, 0, 0
    exponent = 0
    marker = "pP" if hexadecimal else "eE"
    if word[end:end + 1] and word[end] in marker:
        j = end + 1 + (word[end + 1:end + 2] in ("+", "-"))
        k = j
        while k < len(word) and word[k] in "0123456789":
            k += 1
        if k > j:
            exponent = _decimal_to_int(word[j:k].lstrip("0") or "0")
            exponent = -exponent if word[end + 1] == "-" else exponent
            end = k
    if hexadecimal:
        return int(whole + fraction, 16), exponent - 4 * len(fraction), end
    return _decimal_to_int(whole + fraction), exponent - len(fraction), end


def _long_double(mantissa: int, radix: int, exponent: int) -> tuple[Fraction | None, bool]:
    """mantissa * radix**exponent rounded to the nearest long double (ties to even):
    (the value, or None when it overflows to infinity; whether it was out of range)."""
    if mantissa == 0:
        return Fraction(0), False
    # estimate the size in bits first, so absurd exponents never build huge numbers
    size = mantissa.bit_length() + (exponent if radix == 2 else exponent * 33219 // 10000)
    if size > _MAX_EXPONENT + 8:
        return None, True
    if size < _MIN_EXPONENT - _MANTISSA_BITS - 8:
        return Fraction(0), True
    exact = mantissa * _power(radix, exponent)
    top = _binary_exponent(exact)
    scale = max(top, _MIN_EXPONENT) - (_MANTISSA_BITS - 1)
    rounded = round(exact / _power(2, scale)) * _power(2, scale)
    if rounded >= _power(2, _MAX_EXPONENT):
        return None, True
    tiny = rounded < _power(2, _MIN_EXPONENT)
    return rounded, tiny and rounded != exact


def _power(radix: int, exponent: int) -> Fraction:
    return Fraction(radix ** exponent) if exponent >= 0 else Fraction(1, radix ** -exponent)


def _binary_exponent(value: Fraction) -> int:
    """floor(log2(value)) for value > 0."""
    guess = value.numerator.bit_length() - value.denominator.bit_length()
    return guess if value >= _power(2, guess) else guess - 1


def _decimal_exponent(value: Fraction) -> int:
    """floor(log10(value)) for value > 0."""
    guess = int((value.numerator.bit_length() - value.denominator.bit_length()) * 0.30102999566398120)
    while _power(10, guess) > value:
        guess -= 1
    while _power(10, guess + 1) <= value:
        guess += 1
    return guess


def _decimal_to_int(digits: str) -> int:
    """int(digits) in chunks: Python refuses to convert more than 4300 digits at once."""
    value = 0
    for start in range(0, len(digits), _DIGIT_CHUNK):
        chunk = digits[start:start + _DIGIT_CHUNK]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


def _int_to_decimal(value: int) -> str:
    """str(value) for a non-negative value of any size (see _decimal_to_int)."""
    if value < 10 ** _DIGIT_CHUNK:
        return str(value)
    chunks = []
    divisor = 10 ** _DIGIT_CHUNK
    while value >= divisor:
        value, chunk = divmod(value, divisor)
        chunks.append(str(chunk).zfill(_DIGIT_CHUNK))
    chunks.append(str(value))
    return "".join(reversed(chunks))


# ---------------------------------------------------------------- writing numbers


def _format_integer(value: int, conversion: str, spec: _Spec) -> bytes:
    """C's %d %i %o %u %x %X with flags, width and precision."""
    if conversion in "di":
        sign = "-" if value < 0 else "+" if b"+" in spec.flags else " " if b" " in spec.flags else ""
        digits = _int_to_decimal(abs(value))
    else:
        sign = ""
        digits = format(value, {"o": "o", "u": "d", "x": "x", "X": "X"}[conversion])
    if spec.precision is not None:
        digits = "" if spec.precision == 0 and value == 0 else digits
        digits = digits.rjust(spec.precision, "0")
    if b"#" in spec.flags:
        if conversion == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conversion in "xX" and value != 0:
            sign = "0" + conversion
    zero_fill = b"0" in spec.flags and not spec.left and spec.precision is None
    return _pad_number(sign, digits, spec, zero_fill)


def _pad_number(prefix: str, digits: str, spec: _Spec, zero_fill: bool) -> bytes:
    """prefix + digits, padded to the width with zeros between them or with spaces around."""
    if zero_fill and spec.width is not None:
        digits = digits.rjust(spec.width - len(prefix), "0")
    return _pad((prefix + digits).encode("ascii"), spec)


def _format_float(number: _Float, conversion: str, spec: _Spec) -> bytes:
    """C's %f %F %e %E %g %G %a %A for a long double."""
    flags = spec.flags
    sign = "-" if number.negative else "+" if b"+" in flags else " " if b" " in flags else ""
    upper = conversion.isupper()
    if number.kind != "finite":
        word = number.kind.upper() if upper else number.kind
        return _pad((sign + word).encode("ascii"), spec)
    alternate = b"#" in flags
    kind = conversion.lower()
    if kind == "a":
        prefix, body = _hex_float(number.magnitude, spec.precision, alternate)
        sign += prefix
    else:
        precision = 6 if spec.precision is None else spec.precision
        writer = {"f": _fixed, "e": _scientific, "g": _general}[kind]
        body = writer(number.magnitude, precision, alternate)
    if upper:
        sign, body = sign.upper(), body.upper()
    return _pad_number(sign, body, spec, b"0" in flags and not spec.left)


def _fixed(value: Fraction, precision: int, alternate: bool) -> str:
    places = min(precision, _EXACT_PLACES)
    digits = _int_to_decimal(round(value * _power(10, places))).rjust(places + 1, "0")
    if precision == 0:
        return digits + ("." if alternate else "")
    return digits[:-places] + "." + digits[-places:] + "0" * (precision - places)


def _significant(value: Fraction, count: int) -> tuple[str, int]:
    """value rounded to `count` significant digits: (the digits, the decimal exponent of the
    first one)."""
    if value == 0:
        return "0" * count, 0
    computed = min(count, _EXACT_SIGNIFICANT)
    exponent = _decimal_exponent(value)
    scaled = round(value * _power(10, computed - 1 - exponent))
    if scaled >= 10 ** computed:  # rounding carried into a new digit
        exponent += 1
        scaled = round(value * _power(10, computed - 1 - exponent))
    return _int_to_decimal(scaled) + "0" * (count - computed), exponent


def _scientific(value: Fraction, precision: int, alternate: bool) -> str:
    digits, exponent = _significant(value, precision + 1)
    mantissa = digits[0] + ("." + digits[1:] if precision or alternate else "")
    return f"{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def _general(value: Fraction, precision: int, alternate: bool) -> str:
    """%g: %e when the exponent is below -4 or not below the precision, else %f; trailing
    zeros dropped unless `#`."""
    precision = precision or 1
    _, exponent = _significant(value, precision)
    if -4 <= exponent < precision:
        text = _fixed(value, precision - 1 - exponent, alternate)
        return text if alternate else _drop_zeros(text)
    text = _scientific(value, precision - 1, alternate)
    if alternate:
        return text
    mantissa, _, power = text.partition("e")
    return _drop_zeros(mantissa) + "e" + power


def _drop_zeros(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def _hex_float(value: Fraction, precision: int | None, alternate: bool) -> tuple[str, str]:
    """%a as glibc prints a long double: one hex digit for the mantissa's top four bits, the
    other 60 bits after the point. Returns ("0x", the rest)."""
    if value == 0:
        lead, fraction, exponent = 0, 0, 0
    else:
        top = max(_binary_exponent(value), _MIN_EXPONENT)
        mantissa = int(value * _power(2, _MANTISSA_BITS - 1 - top))
        lead, fraction, exponent = mantissa >> 60, mantissa & ((1 << 60) - 1), top - 3
    hex_digits = f"{fraction:015x}"
    if precision is None:
        hex_digits = hex_digits.rstrip("0")
    elif precision < 15:
        # round the whole mantissa, so a tie goes to an even last digit even when that is the lead
        rounded = round(Fraction((lead << 60) | fraction, 1 << (4 * (15 - precision))))
        lead, kept = rounded >> (4 * precision), rounded & ((1 << (4 * precision)) - 1)
        if lead == 16:  # 0x10 is written 0x1, four binary places on
            lead, exponent = 1, exponent + 4
        hex_digits = f"{kept:0{precision}x}" if precision else ""
    else:
        hex_digits = hex_digits.ljust(precision, "0")
    point = "." if hex_digits or alternate else ""
    return "0x", f"{lead:x}{point}{hex_digits}p{'-' if exponent < 0 else '+'}{abs(exponent)}"
