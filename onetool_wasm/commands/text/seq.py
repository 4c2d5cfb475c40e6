"""seq: numbers from FIRST by INCREMENT to LAST, GNU's way: exact decimals, `-w`, `-s`, `-f` printf
formats, long double rounding past what is exact."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Callable, Iterator
from ...result import CommandResult, encode_text, err, ok_bytes
from ...streams import yield_now
from ..helpers import fail
from ..lines import BATCH, with_stream
from ..options import usage_failure
from ..spec import CommandContext, CommandIO, CommandSpec
from ._generators import CANCELLED_STATUS, FIRST_BATCH


SEQ_USAGE = "seq [-s SEP] [-w] [-f FORMAT] [FIRST [INCREMENT]] LAST"


NORMAL_LIMIT = 16 * 1024 * 1024


_MAX_DIGITS = 10_000  # a precision or width past this is refused rather than built


_NEGATIVE_NUMBER = re.compile(r"-\.?[0-9]")


_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:(\.)([0-9]*))?(?:[eE]([+-]?[0-9]+))?")


_HEX = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?")


_INFINITY = re.compile(r"([+-]?)(?:inf|infinity)", re.IGNORECASE)


_LONG_DOUBLE_MAX = Decimal("1.18973149535723176502e4932")


_BIG = Decimal("1e300")


# Exponent bounds the platform allows: 32-bit WebAssembly (Pyodide) has a smaller range.
_EXACT = Context(prec=100_000, Emax=min(999_999_999, MAX_EMAX), Emin=max(-999_999_999, MIN_EMIN))


@dataclass
class SeqOptions:
    separator: str = "\n"
    equal_width: bool = False
    format: str | None = None
    operands: tuple[str, ...] = ()


def parse_seq_args(args: list[str]) -> SeqOptions:
    """Options come first (GNU seq stops at the first operand); `-1` is a number, not an option."""
    options = SeqOptions()
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if not arg.startswith("-") or arg == "-" or _NEGATIVE_NUMBER.match(arg):
            break
        index += 1
        if arg.startswith("--"):
            index = _long_option(options, arg, args, index)
            continue
        for position, letter in enumerate(arg[1:], start=2):
            if letter == "w":
                options.equal_width = True
                continue
            if letter not in "sf":
                raise usage_failure("seq", f"invalid option -- '{letter}'", SEQ_USAGE)
            value = arg[position:]
            if not value:
                if index >= len(args):
                    raise usage_failure("seq", f"option requires an argument -- '{letter}'", SEQ_USAGE)
                value, index = args[index], index + 1
            _set_value(options, letter, value)
            break
    options.operands = tuple(args[index:])
    return options


def _long_option(options: SeqOptions, arg: str, args: list[str], index: int) -> int:
    name, has_value, value = arg[2:].partition("=")
    if name == "equal-width" and not has_value:
        options.equal_width = True
        return index
    if name not in ("separator", "format"):
        raise usage_failure("seq", f"unrecognized option '{arg}'", SEQ_USAGE)
    if not has_value:
        if index >= len(args):
            raise usage_failure("seq", f"option '--{name}' requires an argument", SEQ_USAGE)
        value, index = args[index], index + 1
    _set_value(options, name[0], value)
    return index


def _set_value(options: SeqOptions, letter: str, value: str) -> None:
    if letter == "s":
        options.separator = value
    else:
        options.format = value


@dataclass(frozen=True)
class Operand:
    value: Decimal  # may be infinite
    precision: int | None  # digits after the point; None: printed with %g (hex, infinity)
    width: int  # characters when printed with that precision


def parse_operand(text: str) -> Operand:
    """A number as strtold reads it (leading blanks, a sign, decimal, exponent, hex, inf),
    with GNU's precision and width for -w."""
    body = text.lstrip(" \t\n\v\f\r")
    if match := _INFINITY.fullmatch(body):
        return Operand(Decimal("-Infinity" if match.group(1) == "-" else "Infinity"), None, 0)
    if _HEX.fullmatch(body):
        return Operand(_checked(Decimal(float.fromhex(body)), text), None, 0)
    match = _DECIMAL.fullmatch(body)
    if not match or not (match.group(2) or match.group(4)):
        if body.lower().lstrip("+-") == "nan":
            raise usage_failure("seq", f"invalid 'not-a-number' argument: '{text}'", SEQ_USAGE)
        raise usage_failure("seq", f"invalid floating point argument: '{text}'", SEQ_USAGE)
    value = _checked(Decimal(body), text)
    fraction = match.group(4) or ""
    exponent = int(match.group(5)) if match.group(5) else 0
    precision = max(len(fraction) - exponent, 0)
    if match.group(5):  # the exponent is not printed: the width is the number's own
        width = len(decimal_format(value, f".{precision}f"))
    else:
        width = len(body.lstrip("+"))
        if match.group(3):
            if not fraction:
                width -= 1  # `5.` prints as `5`
            elif not match.group(2):
                width += 1  # `.5` prints as `0.5`
    return Operand(value, precision, width)


def _checked(value: Decimal, text: str) -> Decimal:
    if abs(value) > _LONG_DOUBLE_MAX:  # out of a long double's range: strtold fails
        raise usage_failure("seq", f"invalid floating point argument: '{text}'", SEQ_USAGE)
    return value


_DIRECTIVE = re.compile(r"%([-+ #0']*)([0-9]*)(?:\.([0-9]*))?(L?)(.?)", re.DOTALL)


@dataclass(frozen=True)
class Directive:
    flags: str
    width: int
    precision: int | None
    conversion: str  # one of eEfFgG


def parse_format(text: str) -> tuple[str, Directive, str]:
    """(text before, the one floating-point directive, text after), `%%` left as written
    in the texts (see literal); errors as GNU words them."""
    directive: tuple[int, re.Match[str]] | None = None
    position = 0
    while (start := text.find("%", position)) >= 0:
        if text.startswith("%%", start):
            position = start + 2
            continue
        if directive is not None:
            raise fail(f"seq: format '{text}' has too many % directives")
        match = _DIRECTIVE.match(text, start)
        conversion = match.group(5)
        if not conversion:
            raise fail(f"seq: format '{text}' ends in %")
        if conversion not in "eEfFgG":
            raise fail(f"seq: format '{text}' has unknown %{conversion} directive")
        directive = (start, match)
        position = match.end()
    if directive is None:
        raise fail(f"seq: format '{text}' has no % directive")
    start, match = directive
    width = int(match.group(2) or 0)
    precision = int(match.group(3) or 0) if match.group(3) is not None else None
    if max(width, precision or 0) > _MAX_DIGITS:
        raise fail(f"seq: format '{text}' asks for more than {_MAX_DIGITS} digits")
    parsed = Directive(match.group(1), width, precision, match.group(5))
    return literal(text[:start]), parsed, literal(text[match.end():])


def literal(text: str) -> str:
    return text.replace("%%", "%")


def c_format(value: Decimal, directive: Directive) -> str:
    """printf's %e/%f/%g of an exact value (what glibc prints for that long double)."""
    flags, conversion = directive.flags, directive.conversion
    precision = 6 if directive.precision is None else directive.precision
    if value.is_infinite():
        body = "inf"
    elif conversion in "fF":
        body = _fixed(value.copy_abs(), precision, "#" in flags)
    elif conversion in "eE":
        body = _scientific(value.copy_abs(), precision, "#" in flags)
    else:
        body = _general(value.copy_abs(), precision, "#" in flags)
    if conversion.isupper():
        body = body.upper()
    sign = "-" if value.is_signed() else "+" if "+" in flags else " " if " " in flags else ""
    padding = directive.width - len(sign) - len(body)
    if padding <= 0:
        return sign + body
    if "-" in flags:
        return sign + body + " " * padding
    if "0" in flags and value.is_finite():
        return sign + "0" * padding + body
    return " " * padding + sign + body


def decimal_format(value: Decimal, spec: str) -> str:
    """format() of a Decimal without rounding to the default context's 28 digits."""
    with localcontext(_EXACT):
        return format(value, spec)


def _fixed(value: Decimal, precision: int, alternate: bool) -> str:
    text = decimal_format(value, f".{precision}f")
    return text + "." if alternate and precision == 0 else text


def _scientific(value: Decimal, precision: int, alternate: bool) -> str:
    mantissa, exponent = _split_exponent(value, precision)
    if alternate and precision == 0:
        mantissa += "."
    return f"{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def _split_exponent(value: Decimal, precision: int) -> tuple[str, int]:
    """The mantissa (with `precision` digits after the point) and exponent of %e."""
    if not value:
        return "0" + ("." + "0" * precision if precision else ""), 0
    mantissa, _, exponent = decimal_format(value, f".{precision}e").partition("e")
    return mantissa, int(exponent)


def _general(value: Decimal, precision: int, alternate: bool) -> str:
    significant = precision or 1
    _, exponent = _split_exponent(value, significant - 1)
    if -4 <= exponent < significant:
        text = _fixed(value, significant - 1 - exponent, alternate)
    else:
        text = _scientific(value, significant - 1, alternate)
    if alternate:
        return text
    mantissa, marker, rest = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + marker + rest


def _long_double(value: Fraction) -> Fraction:
    """The nearest x87 long double (64-bit significand, ties to even)."""
    if not value:
        return value
    magnitude = abs(value)
    shift = 63 - (magnitude.numerator.bit_length() - magnitude.denominator.bit_length())
    scaled = magnitude * Fraction(2) ** shift
    if scaled >= 2 ** 64:
        shift -= 1
        scaled /= 2
    elif scaled < 2 ** 63:
        shift += 1
        scaled *= 2
    rounded = Fraction(round(scaled)) / Fraction(2) ** shift
    return rounded if value > 0 else -rounded


def _exact_decimal(value: Fraction) -> Decimal:
    """A binary fraction's exact decimal value."""
    power = value.denominator.bit_length() - 1  # the denominator is a power of two
    return Decimal(value.numerator * 5 ** power).scaleb(-power, _EXACT)


def _in_range(value, step, last) -> bool:
    return value <= last if step > 0 else value >= last


def exact_numbers(first: Decimal, step: Decimal, last: Decimal) -> Iterator[Decimal]:
    """first + i*step while within last, exactly (plain decimal operands)."""
    index = 0
    value = first
    while _in_range(value, step, last):
        yield value
        index += 1
        value = _EXACT.add(first, _EXACT.multiply(index, step))


def long_double_numbers(first: Decimal, step: Decimal, last: Decimal,
                        show: Callable[[Decimal], str]) -> Iterator[Decimal]:
    """GNU's loop in long double: x = first + i*step; one value past `last` is still
    printed when it prints as `last` parses (`seq -f %g 0 0.1 1` ends with 1)."""
    if first.is_infinite() or step.is_infinite():
        yield from _infinite_numbers(first, step, last)
        return
    start, increment = _long_double(Fraction(first)), _long_double(Fraction(step))
    end = None if last.is_infinite() else _long_double(Fraction(last))
    index, value, previous = 0, start, None
    while True:
        if end is not None and not _in_range(value, increment, end):
            shown = show(_exact_decimal(value))
            if previous is None or shown == show(_exact_decimal(previous)) or _parse_shown(shown) != end:
                return
            yield _exact_decimal(value)
            return
        yield first if index == 0 and not value else _exact_decimal(value)  # `-0` keeps its sign
        previous, index = value, index + 1
        value = _long_double(start + _long_double(index * increment))


def _parse_shown(text: str) -> Fraction | None:
    try:
        return _long_double(Fraction(Decimal(text.strip())))
    except (InvalidOperation, ValueError, ArithmeticError):
        return None


def _infinite_numbers(first: Decimal, step: Decimal, last: Decimal) -> Iterator[Decimal]:
    """An infinite FIRST or INCREMENT: after one step every value is infinite (and within
    an infinite LAST for ever); `inf - inf` ends it."""
    value = first
    while _in_range(value, step, last):
        yield value
        try:
            value = _EXACT.add(first, step)
        except InvalidOperation:
            return


@dataclass
class SeqPlan:
    numbers: Iterator  # Decimal values, or ints on the fast path for whole numbers
    show: Callable  # one number as printed
    separator: bytes


def plan_seq(args: list[str]) -> SeqPlan:
    options = parse_seq_args(args)
    operands = options.operands
    if not operands:
        raise usage_failure("seq", "missing operand", SEQ_USAGE)
    if len(operands) > 3:
        raise usage_failure("seq", f"extra operand '{operands[3]}'", SEQ_USAGE)
    if options.format is not None and options.equal_width:
        raise usage_failure("seq", "format string may not be specified when printing equal width strings",
                            SEQ_USAGE)
    parsed = [parse_operand(text) for text in operands]
    first = parsed[0] if len(parsed) > 1 else Operand(Decimal(1), 0, 1)
    step = parsed[1] if len(parsed) == 3 else Operand(Decimal(1), 0, 1)
    last = parsed[-1]
    if not step.value:
        raise usage_failure("seq", f"invalid Zero increment value: '{operands[1]}'", SEQ_USAGE)
    separator = encode_text(options.separator)
    plain = None not in (first.precision, step.precision, last.precision) and options.format is None
    if plain and _integral(first, step, last):
        width = _plain_width(first, step, last) if options.equal_width else 0
        show_integer = (lambda number: f"{number:0{width}d}") if width else str
        return SeqPlan(_integers(first.value, step.value, last.value), show_integer, separator)
    if plain:
        show = _plain_format(first, step, last, options.equal_width)
        return SeqPlan(exact_numbers(first.value, step.value, last.value), show, separator)
    before, directive, after = parse_format(options.format if options.format is not None else "%g")

    def show_printf(value: Decimal) -> str:
        return before + c_format(value, directive) + after

    numbers = long_double_numbers(first.value, step.value, last.value, show_printf)
    return SeqPlan(numbers, show_printf, separator)


def _integral(first: Operand, step: Operand, last: Operand) -> bool:
    """Whole numbers printed without a point, small enough for str() (and no `-0`, which
    only a Decimal keeps)."""
    return (first.precision == step.precision == 0 and last.value.is_finite()
            and max(first.value.copy_abs(), step.value.copy_abs()) < _BIG
            and not (first.value.is_zero() and first.value.is_signed()))


def _integers(first: Decimal, step: Decimal, last: Decimal) -> Iterator[int]:
    """The fast path for whole numbers: a range, its end rounded toward FIRST."""
    end = int(last.to_integral_value(rounding="ROUND_FLOOR" if step > 0 else "ROUND_CEILING"))
    return iter(range(int(first), end + (1 if step > 0 else -1), int(step)))


def _plain_format(first: Operand, step: Operand, last: Operand, equal_width: bool) -> Callable[[Decimal], str]:
    """GNU's default: the precision of FIRST or INCREMENT, whichever has more; with -w,
    zero-padded to the wider of FIRST and LAST printed at that precision."""
    precision = max(first.precision, step.precision)
    if not equal_width:
        return lambda value: decimal_format(value, f".{precision}f")
    width = _plain_width(first, step, last)
    return lambda value: decimal_format(value, f"0{width}.{precision}f")


def _plain_width(first: Operand, step: Operand, last: Operand) -> int:
    precision = max(first.precision, step.precision)
    first_width = first.width + precision - first.precision + (1 if precision and not first.precision else 0)
    last_width = last.width + precision - last.precision
    if last.precision and not precision:
        last_width -= 1  # LAST's point is not printed
    if precision and not last.precision:
        last_width += 1  # a point LAST does not have is
    return max(first_width, last_width)


def seq_batches(plan: SeqPlan) -> Iterator[bytes]:
    """The output in pieces growing from FIRST_BATCH to about BATCH bytes (a reader that
    wants only the first lines gets them at once), the separator between numbers and a
    newline after the last."""
    pieces: list[bytes] = []
    size = 0
    limit = FIRST_BATCH
    started = False
    for value in plan.numbers:
        text = plan.show(value).encode("utf-8")
        if started:
            pieces.append(plan.separator)
            size += len(plan.separator)
        started = True
        pieces.append(text)
        size += len(text)
        if size >= limit:
            yield b"".join(pieces)
            pieces, size, limit = [], 0, min(2 * limit, BATCH)
    if started:
        pieces.append(b"\n")
    if pieces:
        yield b"".join(pieces)


def cmd_seq(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    out = bytearray()
    for batch in seq_batches(plan_seq(args)):
        out += batch
        if len(out) > NORMAL_LIMIT:
            return err(f"seq: output is larger than {NORMAL_LIMIT} bytes: pipe it into a command "
                       "that stops reading, e.g. seq 1 1000000000 | head -n 3")
    return ok_bytes(bytes(out), "text/plain")


async def stream_seq(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    for batch in seq_batches(plan_seq(args)):
        if ctx.cancelled():
            return CANCELLED_STATUS
        await io.stdout.write(batch)  # BrokenPipe ends it once the reader is gone
        await yield_now()
    return 0


SEQ = with_stream(CommandSpec(
    name="seq",
    summary="Print a sequence of numbers, as GNU seq.",
    usage=SEQ_USAGE,
    details=("Counts from FIRST (default 1) by INCREMENT (default 1) while not past LAST, one number a "
             "line. Decimals print with the most digits FIRST or INCREMENT has. -s SEP separates the "
             "numbers instead of newlines, -w pads them with zeros to equal width, -f FORMAT prints each "
             "with a printf floating-point directive (%e, %f, %g).\n"
             "Examples:\n  seq 5\n  seq 2 2 10\n  seq -w 1 10\n  seq -s , 1 5\n  seq 0 0.25 1\n"
             "  seq -f 'file-%03g.txt' 1 3\n  seq 1 1000000000 | head -n 2"),
    group="text", handler=cmd_seq,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=("3",), kind="read",
), stream_seq)


COMMANDS = [SEQ]
