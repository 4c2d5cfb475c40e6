"""numfmt: convert numbers to and from human-readable sizes, as GNU coreutils 9.1 numfmt.

Numbers come from the operands or from stdin lines (one field of each, --field=FIELDS; fields
split at blanks or -d X). --from=si|iec|iec-i|auto reads suffixes (K M G T P E Z Y), --to=
writes them (one decimal below 10: 1.5K), --round= up|down|from-zero (default)|towards-zero|
nearest, --suffix, --padding, --format=%[0]['][-][N][.N]f, --header[=N], --invalid=abort|fail|
warn|ignore. GNU computes in x87 80-bit long double: the arithmetic here rounds exact fractions
to a 64-bit significand after every operation, so results and roundings agree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ...result import TEXT, CommandResult
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = ("numfmt [--from=UNIT] [--to=UNIT] [--round=METHOD] [--suffix=S] [--padding=N] [--field=FIELDS] "
         "[--format=FMT] [--header[=N]] [--invalid=MODE] [-d X] [-z] [NUMBER...]")
TRY = "Try 'numfmt --help' for more information."
_LONG = {
    "from": ("from", REQUIRED), "from-unit": ("from-unit", REQUIRED), "to": ("to", REQUIRED),
    "to-unit": ("to-unit", REQUIRED), "round": ("round", REQUIRED), "padding": ("padding", REQUIRED),
    "suffix": ("suffix", REQUIRED), "grouping": ("grouping", NONE), "delimiter": ("d", REQUIRED),
    "field": ("field", REQUIRED), "debug": ("debug", NONE), "-debug": ("debug", NONE),
    "header": ("header", OPTIONAL), "format": ("format", REQUIRED), "invalid": ("invalid", REQUIRED),
    "zero-terminated": ("z", NONE), "help": ("help", NONE), "version": ("version", NONE),
}
_FROM = ("none", "auto", "si", "iec", "iec-i")
_TO = ("none", "si", "iec", "iec-i")
_ROUND = ("up", "down", "from-zero", "towards-zero", "nearest")
_INVALID = ("abort", "fail", "warn", "ignore")
SUFFIXES = "KMGTPEZY"
MAX_UNSCALED_DIGITS = 18
MAX_ACCEPTABLE_DIGITS = 27
INTMAX_MAX = (1 << 63) - 1
MAX_PADDING = 1 << 16  # a sandbox limit on --padding / --format widths


class Exit(Exception):
    """error (status, ...): the run ends here with what was printed so far."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


# ---------------------------------------------------------------- x87 long double arithmetic

def ld(value: Fraction) -> Fraction:
    """`value` rounded to a 64-bit significand, to nearest, ties to even (as the x87 does)."""
    if value == 0:
        return Fraction(0)
    sign = -1 if value < 0 else 1
    number, denominator = abs(value.numerator), value.denominator
    shift = 63 - (number.bit_length() - denominator.bit_length())
    while True:
        top, bottom = (number << shift, denominator) if shift >= 0 else (number, denominator << -shift)
        quotient, remainder = divmod(top, bottom)
        if quotient < (1 << 63):
            shift += 1
        elif quotient >= (1 << 64):
            shift -= 1
        else:
            break
    if 2 * remainder > bottom or (2 * remainder == bottom and quotient & 1):
        quotient += 1
    scaled = Fraction(quotient) / (Fraction(2) ** shift) if shift >= 0 else Fraction(quotient * (1 << -shift))
    return sign * scaled


def power_ld(base: int, exponent: int) -> Fraction:
    result = Fraction(base)
    if exponent == 0:
        return Fraction(1)
    for _ in range(exponent - 1):
        result = ld(result * base)
    return result


def _trunc(value: Fraction) -> int:
    return int(value)  # toward zero, as a C cast


def simple_round(value: Fraction, method: str) -> Fraction:
    multiple = _trunc(ld(value / INTMAX_MAX))
    value = ld(value - ld(Fraction(INTMAX_MAX) * multiple))
    if method == "up":
        rounded = _ceiling(value)
    elif method == "down":
        rounded = -_ceiling(-value)
    elif method == "from-zero":
        rounded = -_ceiling(-value) if value < 0 else _ceiling(value)
    elif method == "towards-zero":
        rounded = _trunc(value)
    else:
        rounded = _trunc(ld(value - Fraction(1, 2))) if value < 0 else _trunc(ld(value + Fraction(1, 2)))
    return ld(ld(Fraction(INTMAX_MAX) * multiple) + rounded)


def _ceiling(value: Fraction) -> int:
    whole = _trunc(value)
    return whole + 1 if whole < value else whole


def expld(value: Fraction, base: int) -> tuple[Fraction, int]:
    power = 0
    while abs(value) >= base:
        power += 1
        value = ld(value / base)
    return value, power


def fixed(value: Fraction, precision: int, zero_width: int = 0) -> str:
    """printf("%0*.*Lf"): the exact binary value rounded half-even to `precision` digits."""
    negative = value < 0
    scaled = abs(value) * 10 ** precision
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    if 2 * rest > scaled.denominator or (2 * rest == scaled.denominator and whole & 1):
        whole += 1
    digits = str(whole).rjust(precision + 1, "0")
    text = digits[:-precision] + "." + digits[-precision:] if precision else digits
    sign = "-" if negative else ""
    if zero_width and len(sign + text) < zero_width:
        text = text.rjust(zero_width - len(sign), "0")
    return sign + text


def general(value: Fraction) -> str:
    """printf("%Lg")."""
    return "%g" % float(value)


# ---------------------------------------------------------------- options

@dataclass
class Options:
    scale_from: str = "none"
    scale_to: str = "none"
    round: str = "from-zero"
    invalid: str = "abort"
    suffix: str | None = None
    from_unit: int = 1
    to_unit: int = 1
    grouping: bool = False
    padding: int = 0
    zero_padding: int = 0
    precision: int = -1
    format: str | None = None
    prefix: str = ""
    format_suffix: str = ""
    delimiter: str | None = None
    fields: list[tuple[int, int]] | None = None
    header: int = 0
    debug: bool = False
    line_end: str = "\n"
    numbers: list[str] = field(default_factory=list)


def _argmatch(option: str, value: str, choices: tuple[str, ...]) -> str:
    if value in choices:
        return value
    matches = [choice for choice in choices if choice.startswith(value)]
    if len(matches) == 1:
        return matches[0]
    word = "ambiguous" if matches else "invalid"
    listed = [f"  - '{choice}'" for choice in choices]
    raise _failure(f"numfmt: {word} argument '{value}' for '--{option}'", "Valid arguments are:", *listed, TRY)


def _unit_size(text: str) -> int:
    match = re.fullmatch(r"[ \t\n\v\f\r]*\+?([0-9]+)(?:([KMGTPEZY])(i?))?", text)
    if not match or int(match.group(1)) == 0:
        raise _failure(f"numfmt: invalid unit size: '{text}'")
    value = int(match.group(1))
    if match.group(2):
        value *= (1024 if match.group(3) else 1000) ** (SUFFIXES.index(match.group(2)) + 1)
    if value >= 1 << 64:
        raise _failure(f"numfmt: invalid unit size: '{text}'")
    return value


def _fields(text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for item in re.split(r"[, \t]", text):
        if item == "-":
            ranges.append((1, 1 << 62))
            continue
        low, dash, high = item.partition("-")
        for part in (low, high):
            if part and not (part.isdigit() and part.isascii()):
                raise _failure(f"numfmt: invalid field value '{part}'", TRY)
        if (low and int(low) == 0) or (not dash and not low) or (dash and not low and high and int(high) == 0):
            raise _failure("numfmt: fields are numbered from 1", TRY)
        if "-" in high:
            raise _failure("numfmt: invalid field range", TRY)
        start = int(low) if low else 1
        end = (int(high) if high else 1 << 62) if dash else start
        if end < start:
            raise _failure("numfmt: invalid decreasing range", TRY)
        ranges.append((start, end))
    return ranges


def _parse_format(options: Options, text: str) -> None:
    quoted = f"'{text}'"
    index, prefix_length = 0, 0
    while not (index < len(text) and text[index] == "%" and text[index + 1:index + 2] != "%"):
        if index >= len(text):
            raise _failure(f"numfmt: format {quoted} has no % directive")
        prefix_length += 1
        index += 2 if text[index] == "%" else 1
    index += 1
    zero = False
    while True:
        skip = len(text[index:]) - len(text[index:].lstrip(" "))
        index += skip
        if text[index:index + 1] == "'":
            options.grouping = True
            index += 1
        elif text[index:index + 1] == "0":
            zero = True
            index += 1
        elif not skip:
            break
    match = re.match(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", text[index:])
    if match:
        pad = int(match.group(1))
        if abs(pad) > MAX_PADDING:
            raise _failure(f"numfmt: invalid format {quoted} (width overflow)")
        if pad < 0:
            options.padding = pad
        elif pad > 0:
            if zero:
                options.zero_padding = pad
            else:
                options.padding = pad
        index += match.end()
    if index >= len(text):
        raise _failure(f"numfmt: format {quoted} ends in %")
    if text[index] == ".":
        index += 1
        match = re.match(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", text[index:])
        if text[index:index + 1] in (" ", "\t", "+") or (match and int(match.group(1)) < 0):
            raise _failure(f"numfmt: invalid precision in format {quoted}")
        options.precision = int(match.group(1)) if match else 0
        if options.precision > MAX_PADDING:
            raise _failure(f"numfmt: invalid precision in format {quoted}")
        index += match.end() if match else 0
    if text[index:index + 1] != "f":
        raise _failure(f"numfmt: invalid format {quoted}, directive must be %[0]['][-][N][.][N]f")
    index += 1
    suffix_at = index
    while index < len(text):
        if text[index] == "%" and text[index + 1:index + 2] != "%":
            raise _failure(f"numfmt: format {quoted} has too many % directives")
        index += 2 if text[index] == "%" else 1
    options.prefix = text[:prefix_length]
    options.format_suffix = text[suffix_at:]


def parse_args(args: list[str]) -> tuple[Options, list[str]]:
    try:
        raw, operands = gnu_getopt("numfmt", USAGE, args, "d:z", _LONG)
    except CommandFailed as failure:
        raise _failure(failure.result.stderr.split(". Usage: ", 1)[0], TRY) from None
    options = Options()
    warnings: list[str] = []
    for key, value in raw:
        text = value or ""
        if key == "from":
            options.scale_from = _argmatch("from", text, _FROM)
        elif key == "to":
            options.scale_to = _argmatch("to", text, _TO)
        elif key == "round":
            options.round = _argmatch("round", text, _ROUND)
        elif key == "invalid":
            options.invalid = _argmatch("invalid", text, _INVALID)
        elif key == "from-unit":
            options.from_unit = _unit_size(text)
        elif key == "to-unit":
            options.to_unit = _unit_size(text)
        elif key == "grouping":
            options.grouping = True
        elif key == "padding":
            match = re.fullmatch(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", text)
            if not match or int(match.group(1)) == 0:
                raise _failure(f"numfmt: invalid padding value '{text}'")
            if abs(int(match.group(1))) > MAX_PADDING:
                raise _failure(f"numfmt: padding {text} is too large (at most {MAX_PADDING})")
            options.padding = int(match.group(1))
        elif key == "field":
            if options.fields is not None:
                raise _failure("numfmt: multiple field specifications")
            options.fields = _fields(text)
        elif key == "d":
            if len(text) > 1:
                raise _failure("numfmt: the delimiter must be a single character")
            options.delimiter = text or "\0"
        elif key == "z":
            options.line_end = "\0"
        elif key == "suffix":
            options.suffix = text
        elif key == "debug":
            options.debug = True
        elif key == "header":
            if value is None:
                options.header = 1
            else:
                match = re.fullmatch(r"[ \t\n\v\f\r]*\+?([0-9]+)", text)
                if not match or int(match.group(1)) == 0:
                    raise _failure(f"numfmt: invalid header value '{text}'")
                options.header = int(match.group(1))
        elif key == "format":
            options.format = text
        elif key in ("help", "version"):
            raise _failure(f"numfmt: --{key} is not available here; see: help numfmt")
    if options.format is not None and options.grouping:
        raise _failure("numfmt: --grouping cannot be combined with --format")
    if (options.debug and options.scale_from == "none" and options.scale_to == "none" and not options.grouping
            and not options.padding and options.format is None):
        warnings.append("numfmt: no conversion option specified")
    if options.format is not None:
        _parse_format(options, options.format)
    if options.grouping and options.scale_to != "none":
        raise _failure("numfmt: grouping cannot be combined with --to")
    if options.grouping and options.debug:
        warnings.append("numfmt: grouping has no effect in this locale")
    options.numbers = operands
    return options, warnings


# ---------------------------------------------------------------- conversion

class Converter:
    def __init__(self, options: Options) -> None:
        self.options = options
        self.out: list[str] = []
        self.errors: list[str] = []
        self.auto_padding = options.padding == 0 and options.delimiter is None
        self.padding = options.padding
        self.exit_code = 2 if options.invalid == "abort" else 0

    def error(self, message: str) -> None:
        if self.options.invalid != "ignore":
            self.errors.append(f"numfmt: {message}")
        if self.exit_code:
            raise Exit(self.exit_code)

    # -- parsing
    def _int(self, text: str, at: int) -> tuple[str, int, Fraction, bool, bool]:
        """simple_strtod_int: (status, end, value, negative, found)."""
        negative = text[at:at + 1] == "-"
        at += negative
        value, digits, found, status = Fraction(0), 0, False, "ok"
        while at < len(text) and text[at] in "0123456789":
            digit = ord(text[at]) - 48
            found = True
            if value or digit:
                digits += 1
            if digits > MAX_UNSCALED_DIGITS:
                status = "loss"
            if digits > MAX_ACCEPTABLE_DIGITS:
                return "overflow", at, value, negative, found
            value = ld(ld(value * 10) + digit)
            at += 1
        if not found and text[at:at + 1] != ".":
            return "invalid", at, value, negative, found
        return status, at, -value if negative else value, negative, found

    def parse_number(self, text: str) -> tuple[str, Fraction, int]:
        """simple_strtod_human then the trailing-text check: (status, value, precision)."""
        status, at, value, negative, _ = self._int(text, 0)
        if status in ("overflow", "invalid"):
            return self._fatal(status, text)
        precision = 0
        if text[at:at + 1] == ".":
            at += 1
            status2, end, fraction, fraction_negative, _ = self._int(text, at)
            if status2 in ("overflow", "invalid"):
                return self._fatal(status2, text)
            if status2 == "loss":
                status = "loss"
            if fraction_negative:
                return self._fatal("invalid", text)
            fraction = ld(fraction / power_ld(10, end - at))
            value = ld(value - fraction) if negative else ld(value + fraction)
            precision = end - at
            at = end
        scale = self.options.scale_from
        base = 1024 if scale in ("iec", "iec-i") else 1000
        power = 0
        if at < len(text):
            while text[at:at + 1] in (" ", "\t"):
                at += 1
            letter = text[at:at + 1]
            if letter == "" or letter not in SUFFIXES:
                if letter == "" and scale == "none":
                    return self._fatal("forbidden", text)
                if letter != "":
                    return self._fatal("suffix", text)
            if letter:
                if scale == "none":
                    return self._fatal("forbidden", text)
                power = SUFFIXES.index(letter) + 1
                at += 1
                if scale == "auto" and text[at:at + 1] == "i":
                    base = 1024
                    at += 1
                elif scale == "iec-i":
                    if text[at:at + 1] != "i":
                        return self._fatal("missing-i", text)
                    at += 1
                precision = 0
        if power:
            value = ld(value * power_ld(base, power))
        if at < len(text):
            self.error(f"invalid suffix in input '{text}': '{text[at:]}'")
            return "invalid", value, precision
        return status, value, precision

    def _fatal(self, status: str, text: str) -> tuple[str, Fraction, int]:
        quoted = f"'{text}'"
        self.error({"overflow": f"value too large to be converted: {quoted}",
                    "invalid": f"invalid number: {quoted}",
                    "forbidden": f"rejecting suffix in input: {quoted} (consider using --from)",
                    "suffix": f"invalid suffix in input: {quoted}",
                    "missing-i": f"missing 'i' suffix in input: {quoted} (e.g Ki/Mi/Gi)"}[status])
        return "invalid", Fraction(0), 0

    # -- formatting
    def human(self, value: Fraction, precision: int) -> str:
        options = self.options
        scale = options.scale_to
        suffix = options.suffix or ""
        if scale == "none":
            factor = power_ld(10, precision)
            value = ld(simple_round(ld(value * factor), options.round) / factor)
            return fixed(value, precision, options.zero_padding) + suffix
        base = 1024 if scale in ("iec", "iec-i") else 1000
        value, power = expld(value, base)
        if options.precision != -1:
            adjust = min(power * 3, options.precision)
        else:
            adjust = 1 if abs(value) < 10 else 0
        factor = power_ld(10, adjust)
        value = ld(simple_round(ld(value * factor), options.round) / factor)
        if abs(value) >= base:
            value = ld(value / base)
            power += 1
        show_point = value != 0 and abs(value) < 10 and power > 0
        digits = show_point if options.precision == -1 else options.precision
        letters = SUFFIXES[power - 1] if power else ""
        marker = "i" if scale == "iec-i" and power > 0 else ""
        return fixed(value, int(digits), options.zero_padding) + letters + marker + suffix

    def convert_field(self, text: str, number: int) -> bool:
        options = self.options
        if options.suffix and len(text) > len(options.suffix) and text.endswith(options.suffix):
            text = text[:-len(options.suffix)]
        start = len(text) - len(text.lstrip(" \t"))
        if self.auto_padding:
            self.padding = len(text) if start or number > 1 else 0
        status, value, precision = self.parse_number(text[start:])
        if status == "loss" and options.debug:
            self.errors.append(f"numfmt: large input value '{text[start:]}': possible precision loss")
        if status == "invalid":
            return False
        if options.from_unit != 1 or options.to_unit != 1:
            value = ld(ld(value * options.from_unit) / options.to_unit)
        used = precision if options.precision == -1 else options.precision
        _, digits = expld(value, 10)
        if options.scale_to == "none" and digits + used > MAX_UNSCALED_DIGITS:
            if used:
                self.error(f"value/precision too large to be printed: '{general(value)}/{used}' (consider using --to)")
            else:
                self.error(f"value too large to be printed: '{general(value)}' (consider using --to)")
            return False
        if digits > MAX_ACCEPTABLE_DIGITS - 1:
            self.error(f"value too large to be printed: '{general(value)}' (cannot handle values > 999Y)")
            return False
        shown = self.human(value, used)
        if self.padding and len(shown) < abs(self.padding):
            shown = shown.rjust(self.padding) if self.padding > 0 else shown.ljust(-self.padding)
        self.out.append(options.prefix + shown + options.format_suffix)
        return True

    def _included(self, number: int) -> bool:
        if self.options.fields is None:
            return number == 1
        return any(low <= number <= high for low, high in self.options.fields)

    def line(self, line: str, newline: bool) -> bool:
        delimiter = self.options.delimiter
        valid = True
        number = 0
        at = 0
        while True:
            number += 1
            start = at
            if delimiter is not None:
                if line[at:at + 1] != delimiter:
                    while at < len(line) and line[at] != delimiter:
                        at += 1
            else:
                while at < len(line) and line[at] in " \t\n":
                    at += 1
                while at < len(line) and line[at] not in " \t\n":
                    at += 1
            text = line[start:at]
            last = at >= len(line)
            if self._included(number):
                if not self.convert_field(text, number):
                    valid = False
                    self.out.append(text)
            else:
                self.out.append(text)
            if last:
                break
            self.out.append(" " if delimiter is None else delimiter)
            at += 1
        if newline:
            self.out.append(self.options.line_end)
        return valid


async def cmd_numfmt(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, warnings = parse_args(args)
    converter = Converter(options)
    converter.errors.extend(warnings)
    valid = True
    status = 0
    try:
        if options.numbers:
            if options.debug and options.header:
                converter.errors.append("numfmt: --header ignored with command-line input")
            for number in options.numbers:
                valid &= converter.line(number, True)
        else:
            text = stdin.decode("utf-8", "surrogateescape")
            end = options.line_end
            records = text.split(end)
            complete = records[:-1]
            tail = records[-1]
            items = [(record, True) for record in complete] + ([(tail, False)] if tail else [])
            header = options.header
            for record, newline in items:
                if header:
                    header -= 1
                    converter.out.append(record + (end if newline else ""))
                    continue
                valid &= converter.line(record, newline)
        if options.debug and not valid:
            converter.errors.append("numfmt: failed to convert some of the input numbers")
        if not valid and options.invalid not in ("warn", "ignore"):
            status = 2
    except Exit as stop:
        status = stop.status
    out = "".join(converter.out).encode("utf-8", "surrogateescape")
    return CommandResult(out, "\n".join(converter.errors), status, TEXT)


NUMFMT = CommandSpec(
    name="numfmt",
    summary="Convert numbers to or from human-readable sizes, as GNU numfmt.",
    usage=USAGE,
    details=("Reformats each NUMBER, or the first field of each stdin line (--field=N, N-M, N,M; -d X splits "
             "fields at X instead of blanks). --to=si|iec|iec-i: 1500 -> 1.5K (si: 1000s, iec: 1024s, iec-i: "
             "1.5Ki); --from=si|iec|iec-i|auto reads such suffixes back; --round=up|down|from-zero|towards-zero|"
             "nearest (default from-zero); --suffix=B; --padding=N (negative: left-aligned); "
             "--format='%10.1f'; --header[=N] passes N lines through; --invalid=fail|warn|ignore goes on "
             "after a bad number (default: stop with status 2). Negative operands need `--` first.\n"
             "Examples:\n  numfmt --to=iec 1048576\n  echo 2.5M | numfmt --from=si\n"
             "  du -b /data | numfmt --to=iec --field=1\n  numfmt --to=si --format='%.2f' 1234567"),
    group="text", handler=cmd_numfmt,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("1000",), kind="read",
)

COMMANDS = [NUMFMT]
