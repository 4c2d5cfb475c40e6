"""`calc`: a safe arithmetic evaluator, with results printed as JavaScript prints numbers.

Grammar (upstream's): numbers (`12`, `1.`, `.5`), parentheses, binary `+ - * / // % **`,
unary `+ -`. `**` binds tighter than unary minus on its left and is right-associative
(`2 ** 3 ** 2` is 512, `-2 ** 2` is -4); `//` floors; `%` keeps the dividend's sign (JS).
Arithmetic is IEEE double like JavaScript's: any infinite or NaN step is an error.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ...result import CommandResult, err, ok
from ..json_text import format_js_number
from ..spec import CommandContext, CommandSpec

# JavaScript's `\s`: what upstream's tokenizer skips (str.isspace differs at the edges).
_JS_SPACE = frozenset("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                      "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
_NUMBER_CHARS = frozenset("0123456789.")
_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_OPERATORS = ("**", "//", "+", "-", "*", "/", "%")
# Each nesting level (parenthesis, unary sign, `**` operand) costs a few Python frames.
MAX_DEPTH = 100


class CalcError(ValueError):
    """An expression that cannot be evaluated; the message is upstream's wording."""


@dataclass(frozen=True)
class Token:
    kind: str  # "number" | "operator" | "paren"
    value: str
    number: float = 0.0


def tokenize(expression: str) -> list[Token]:
    tokens: list[Token] = []
    index = 0
    while index < len(expression):
        char = expression[index]
        if char in _JS_SPACE:
            index += 1
        elif char in _NUMBER_CHARS:
            end = index
            while end < len(expression) and expression[end] in _NUMBER_CHARS:
                end += 1
            literal = expression[index:end]
            if not _NUMBER.fullmatch(literal):
                raise CalcError(f"invalid number: {literal}")
            tokens.append(Token("number", literal, float(literal)))
            index = end
        elif char in "()":
            tokens.append(Token("paren", char))
            index += 1
        else:
            operator = next((op for op in _OPERATORS if expression.startswith(op, index)), None)
            if operator is None:
                raise CalcError(f"unsupported character: {char}")
            tokens.append(Token("operator", operator))
            index += len(operator)
    return tokens


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise CalcError("result is not finite")
    return value


def _multiply(op: str, left: float, right: float) -> float:
    if op == "*":
        return _finite(left * right)
    if right == 0 or not math.isfinite(left):
        raise CalcError("result is not finite")  # JS gives ±Infinity or NaN here
    if op == "/":
        return _finite(left / right)
    if op == "//":
        return float(math.floor(_finite(left / right)))
    return _finite(math.fmod(left, right))  # JS `%`: the result takes the dividend's sign


def _power(base: float, exponent: float) -> float:
    """JS `**`: like math.pow, except that 1 ** ±Infinity is NaN there."""
    if math.isnan(exponent) or (abs(base) == 1 and math.isinf(exponent)):
        raise CalcError("result is not finite")
    try:
        return _finite(math.pow(base, exponent))
    except (ValueError, OverflowError, ZeroDivisionError):
        raise CalcError("result is not finite") from None


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.index = 0
        self.depth = 0

    def parse(self) -> float:
        value = self.add_sub()
        if self.index < len(self.tokens):
            raise CalcError("unexpected trailing input")
        return _finite(value)

    def match(self, kind: str, *values: str) -> str | None:
        if self.index < len(self.tokens):
            token = self.tokens[self.index]
            if token.kind == kind and token.value in values:
                self.index += 1
                return token.value
        return None

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise CalcError(f"expression nests too deeply (limit {MAX_DEPTH} levels)")

    def add_sub(self) -> float:
        value = self.mul_div()
        while (op := self.match("operator", "+", "-")) is not None:
            right = self.mul_div()
            value = value + right if op == "+" else value - right
        return value

    def mul_div(self) -> float:
        value = self.unary()
        while (op := self.match("operator", "*", "/", "//", "%")) is not None:
            value = _multiply(op, value, self.unary())
        return value

    def unary(self) -> float:
        op = self.match("operator", "+", "-")
        if op is None:
            return self.power()
        self.enter()
        value = self.unary()
        self.depth -= 1
        return -value if op == "-" else value

    def power(self) -> float:
        value = self.primary()
        if self.match("operator", "**") is None:
            return value
        self.enter()
        exponent = self.unary()
        self.depth -= 1
        return _power(value, exponent)

    def primary(self) -> float:
        if self.match("paren", "("):
            self.enter()
            value = self.add_sub()
            self.depth -= 1
            if not self.match("paren", ")"):
                raise CalcError("missing closing ')'")
            return value
        if self.index >= len(self.tokens):
            raise CalcError("unexpected end of expression")
        token = self.tokens[self.index]
        self.index += 1
        if token.kind != "number":
            raise CalcError("expected number or parenthesized expression")
        return token.number


def safe_eval_arithmetic(expression: str) -> float:
    """The value of `expression`, or CalcError with upstream's message."""
    tokens = tokenize(expression)
    if not tokens:
        raise CalcError("empty expression")
    return _Parser(tokens).parse()


def cmd_calc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        value = safe_eval_arithmetic(" ".join(args))
    except CalcError as error:
        return err(f"calc: invalid expression: {error}")
    return ok(format_js_number(value) + "\n")


CALC = CommandSpec(
    name="calc",
    summary="Evaluate a safe arithmetic expression.",
    usage="calc <expression>",
    details=("Supports numbers, parentheses, and the operators +, -, *, /, and %.\n"
             "Examples:\n  calc 41 + 1\n  calc (12 * 8) / 3"),
    group="data",
    handler=cmd_calc,
    accepts_stdin=False, min_args=1, max_args=None, conformance_args=("1+1",),
    kind="read", requires_adapter=None,
)

COMMANDS = [CALC]
