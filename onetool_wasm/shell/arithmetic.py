"""Bash arithmetic: the language of `$((...))`, `((...))`, `let`, `for ((...))` and subscripts.

`evaluate(text, state)` returns the value as bash computes it: 64-bit signed integers that
wrap around, C division, every bash operator, `base#digits` literals, and variables whose
values are themselves expressions.

How it works, and why:

* The text is compiled once into a short list of instructions for a small stack machine and
  the result is cached, because loops evaluate the same text over and over.
* Neither the compiler (an operator-precedence parser with an explicit operator stack) nor
  the machine recurses in Python: a variable whose value must be evaluated, or an array
  subscript, runs as a nested *frame* of the same loop. Pyodide's stack is small, and bash
  allows 1024 levels of such nesting ("expression recursion level exceeded").
* Bash evaluates while it parses, so an expression that is wrong further on still has the
  effects (and the errors) of what came before the mistake: `x=5, 1 +` sets x, `1/0 + 08`
  reports the division. The compiler emits instructions in bash's evaluation order, so on a
  syntax error it keeps what it emitted so far; running that prefix reproduces bash.
* Error messages are bash's text after `bash: line N: `, e.g.
  `1/0: division by 0 (error token is "0")`; they raise `ArithError`.
"""
from __future__ import annotations

import re
from typing import Any

from .state import ShellError

__all__ = ["ArithError", "evaluate"]


class ArithError(ShellError):
    """An arithmetic error (syntax, division by 0, bad number...).

    fatal is set: in `$((...))`, an assignment subscript or a `declare -i` value bash gives up
    the command. `((...))`, `let`, `for ((...))` and `[[ a -eq b ]]` catch it instead, print
    the message after `((: `, `let: ` or `[[: ` and give status 1.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message, status=1, fatal=True)


def evaluate(expression: str, variables: Any) -> int:
    """The value of a bash arithmetic expression (`$`-expansions already done).

    `variables` is a ShellState (or anything with get, get_element, set, set_element, lookup
    and options.nounset). Assignments and `++`/`--` change it. Raises ArithError, or
    ShellError for an unset name under `set -u` (status 127, fatal) and for a readonly one.
    """
    program = _cache.get(expression)
    return _run(program if program is not None else _compile(expression), variables)


# ---------------------------------------------------------------- integers

_BITS = 1 << 64
_HALF = 1 << 63


def _wrap(value: int) -> int:
    """C's 64-bit signed wrap-around."""
    if -_HALF <= value < _HALF:
        return value
    return ((value + _HALF) % _BITS) - _HALF


def _divide(left: int, right: int) -> int:
    quotient = abs(left) // abs(right)   # C truncates toward zero
    return _wrap(-quotient if (left < 0) != (right < 0) else quotient)


def _remainder(left: int, right: int) -> int:
    remainder = abs(left) % abs(right)   # C: the sign of the dividend
    return -remainder if left < 0 else remainder


_BINARY = {
    "+": lambda a, b: _wrap(a + b),
    "-": lambda a, b: _wrap(a - b),
    "*": lambda a, b: _wrap(a * b),
    "<<": lambda a, b: _wrap(a << (b & 63)),   # x86 masks the shift count
    ">>": lambda a, b: a >> (b & 63),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "&": lambda a, b: a & b,
    "^": lambda a, b: a ^ b,
    "|": lambda a, b: a | b,
}

_UNARY = {"-": lambda a: _wrap(-a), "+": lambda a: a, "!": lambda a: int(a == 0), "~": lambda a: ~a}


def _truth(a: int) -> int:
    """The value of `a && b` or `a || b` once b decides it."""
    return int(a != 0)

# Binding strength of the binary operators (higher binds tighter); `**` is right-associative.
_PRECEDENCE = {",": 1, "?": 3, "||": 4, "&&": 5, "|": 6, "^": 7, "&": 8, "==": 9, "!=": 9,
               "<": 10, "<=": 10, ">": 10, ">=": 10, "<<": 11, ">>": 11, "+": 12, "-": 12,
               "*": 13, "/": 13, "%": 13, "**": 14}
_ASSIGN_PRECEDENCE = 2
_UNARY_PRECEDENCE = 15
_ASSIGNMENTS = {"=": None, "+=": "+", "-=": "-", "*=": "*", "/=": "/", "%=": "%", "<<=": "<<",
                ">>=": ">>", "&=": "&", "^=": "^", "|=": "|"}

# ---------------------------------------------------------------- the machine's instructions

# Each instruction is a tuple (opcode, a, b).
PUSH = 0            # a: a number
LOAD = 1            # a: name, b: where the name starts (for the recursion error)
BINARY = 2          # a: function of two numbers
DIVIDE = 3          # a: "/" or "%", b: where the error token starts
POWER = 4           # b: where the error token starts
UNARY = 5           # a: function of one number
STORE = 6           # a: name; keeps the value on the stack
INCREMENT = 7       # a: name, b: (delta, postfix)
SUBSCRIPT = 8       # a: (subscript text, array name), b: where the name starts; pushes the index or key
                    # (None for `@`, `*` or nothing: bash warns, reads 0, assigns nothing)
LOAD_ELEMENT = 9    # a: name, b: where the name starts; pops the index
STORE_ELEMENT = 10  # a: name, b: True when the stack is [index, value], False for [value, index]
INCREMENT_ELEMENT = 11  # a: name, b: (delta, postfix); pops the value and the index
JUMP_IF_ZERO = 12   # a: target; `&&`: keeps the 0 when jumping, else pops
JUMP_UNLESS_ZERO = 13   # a: target; `||`: replaces the value with 1 when jumping, else pops
JUMP_IF_FALSE = 14  # a: target; `?`: always pops
JUMP = 15           # a: target
POP = 16
DUP = 17
_JUMPS = (JUMP_IF_ZERO, JUMP_UNLESS_ZERO, JUMP_IF_FALSE, JUMP)

_MAX_LEVEL = 1024   # bash's limit on nested evaluations (a variable's value, a subscript)


class _Program:
    """Compiled text: instructions, and the syntax error met after them (if any)."""

    __slots__ = ("code", "source", "error")

    def __init__(self, code: list[tuple], source: str, error: str | None) -> None:
        self.code = code
        self.source = source
        self.error = error


_cache: dict[str, _Program] = {}
_CACHE_LIMIT = 4096


def _compile(source: str) -> _Program:
    program = _cache.get(source)
    if program is None:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        program = _cache[source] = _Parser(source).parse()
    return program


def _message(source: str, problem: str, token_at: int, end: int | None = None) -> str:
    """bash's `EXPRESSION: PROBLEM (error token is "REST")`, leading blanks not shown."""
    text = (source[:end] if end is not None else source).lstrip(_BLANKS)
    return f'{text}: {problem} (error token is "{source[token_at:end]}")'


# ---------------------------------------------------------------- the compiler

_BLANKS = " \t\n"
_NUMBER = re.compile(r"[0-9][0-9A-Za-z_@#]*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = ("<<=", ">>=", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
              "/=", "%=", "&=", "^=", "|=", "+", "-", "*", "/", "%", "<", ">", "&", "^", "|", "!",
              "~", "?", ":", ",", "(", ")", "=")


class _Parser:
    """Reads tokens one at a time (as bash does) and emits instructions in evaluation order.

    The operator stack holds lists [kind, precedence, ...]: kinds "binary", "unary",
    "assign", "and", "or", "colon", and the brackets "(" and "?" that stop reductions.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.kind = ""          # the current token: an operator, or num ident preinc... eof bad
        self.value: Any = None
        self.start = 0
        self.last_start = 0     # where the token before the current one starts
        self.previous = ""      # the kinds of the two tokens before the current one
        self.before_previous = ""
        self.code: list[tuple] = []
        self.ops: list[list] = []
        self.pending: tuple | None = None   # a name just read: (name, subscript, start)

    # ------------------------------------------------------------ driver

    def parse(self) -> _Program:
        try:
            self._parse()
        except ArithError as error:
            # An unfinished jump leads past the end: bash was not evaluating there.
            code = [(op, len(self.code) if a is None and op in _JUMPS else a, b)
                    for op, a, b in self.code]
            return _Program(code, self.source, error.message)
        return _Program(self.code, self.source, None)

    def _parse(self) -> None:
        self._advance()
        if self.kind == "eof":
            self.code.append((PUSH, 0, None))
            return
        while True:
            self._operand()
            if self._operators():
                return

    def _error_position(self) -> int:
        """Where bash's error token starts now: the current token, at the end the last one."""
        return self.start if self.kind != "eof" else self.last_start

    def _fail(self, problem: str) -> ArithError:
        return ArithError(_message(self.source, problem, self._error_position()))

    # ------------------------------------------------------------ tokens

    def _advance(self) -> None:
        if self.kind != "eof":
            self.last_start = self.start
        self.before_previous, self.previous = self.previous, self.kind
        source, pos = self.source, self.pos
        while pos < len(source) and source[pos] in _BLANKS:
            pos += 1
        self.start = pos
        if pos == len(source):
            self.kind, self.pos = "eof", pos
            return
        char = source[pos]
        if "0" <= char <= "9":
            end = _NUMBER.match(source, pos).end()
            self.kind, self.value, self.pos = "num", _number(source, pos, end), end
        elif char == "_" or char.isascii() and char.isalpha():
            self._name(pos)
        elif char in "+-" and source.startswith(char, pos + 1):
            self._double_sign(char, pos)
        else:
            for operator in _OPERATORS:
                if source.startswith(operator, pos):
                    self.kind, self.pos = operator, pos + len(operator)
                    return
            self.kind, self.pos = "bad", pos + 1

    def _name(self, pos: int) -> None:
        source = self.source
        end = _NAME.match(source, pos).end()
        name, subscript = source[pos:end], None
        if end < len(source) and source[end] == "[":
            depth, index = 0, end
            while index < len(source):
                if source[index] == "[":
                    depth += 1
                elif source[index] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                index += 1
            if index == len(source):
                raise ArithError(_message(source, "bad array subscript", pos))
            subscript, end = source[end + 1:index], index + 1
        self.kind, self.value, self.pos = "ident", (name, subscript, pos), end

    def _double_sign(self, char: str, pos: int) -> None:
        """`++`/`--`: after a name it is postfix; before a name, prefix; else two signs."""
        source = self.source
        if self.kind == "ident":
            if self.before_previous in ("preinc", "predec"):   # `++x++`
                raise ArithError(_message(source, f"{char * 2}: assignment requires lvalue", pos))
            self.kind, self.pos = ("postinc" if char == "+" else "postdec"), pos + 2
            return
        after = pos + 2
        while after < len(source) and source[after] in _BLANKS:
            after += 1
        if after < len(source) and (source[after] == "_" or source[after].isascii() and source[after].isalpha()):
            self.kind, self.pos = ("preinc" if char == "+" else "predec"), pos + 2
        else:
            self.kind, self.pos = char, pos + 1

    # ------------------------------------------------------------ operands

    def _operand(self) -> None:
        """Prefix operators and `(`, then one number, name or `++name`."""
        while True:
            kind = self.kind
            if kind == "(":
                self.ops.append(["(", 0])
            elif kind in _UNARY:
                self.ops.append(["unary", _UNARY_PRECEDENCE, _UNARY[kind]])
            elif kind == "num":
                self.code.append((PUSH, self.value, None))
                self._advance()
                return
            elif kind == "ident":
                self.pending = self.value
                self._advance()
                return
            elif kind in ("preinc", "predec"):
                self._advance()    # the lexer saw that a name follows
                self._increment(self.value, 1 if kind == "preinc" else -1, postfix=False)
                self._advance()
                return
            elif kind == "eof" and self.previous in ("?", ":") or kind == ":" and self.previous == "?":
                raise self._fail("expression expected")
            else:
                raise self._fail("syntax error: operand expected")
            self._advance()

    def _flush(self) -> None:
        """Emit the load of a name that turned out not to be assigned to."""
        if self.pending is not None:
            name, subscript, start = self.pending
            self.pending = None
            if subscript is None:
                self.code.append((LOAD, name, start))
            else:
                self.code.append((SUBSCRIPT, (subscript, name), start))
                self.code.append((LOAD_ELEMENT, name, start))

    def _increment(self, target: tuple, delta: int, postfix: bool) -> None:
        name, subscript, start = target
        if subscript is None:
            self.code.append((LOAD, name, start))
            self.code.append((INCREMENT, name, (delta, postfix)))
        else:
            self.code += [(SUBSCRIPT, (subscript, name), start), (DUP, None, None), (LOAD_ELEMENT, name, start),
                          (INCREMENT_ELEMENT, name, (delta, postfix))]

    # ------------------------------------------------------------ operators

    def _operators(self) -> bool:
        """Operators after an operand; True at the end of the expression."""
        while True:
            kind = self.kind
            if kind == "bad":
                raise self._fail("syntax error: invalid arithmetic operator")
            if kind in ("postinc", "postdec"):
                target, self.pending = self.pending, None
                self._increment(target, 1 if kind == "postinc" else -1, postfix=True)
            elif kind == ")":
                self._close("(")
                self.ops.pop()
            elif kind == "eof":
                self._reduce_all()
                self._flush()
                if self.ops:
                    self._unexpected()
                return True
            elif kind in _ASSIGNMENTS:
                self._assignment(kind)
                return False
            elif kind == "?":
                self._reduce(_PRECEDENCE["?"], right=True)
                self._flush()
                self.code.append((JUMP_IF_FALSE, None, None))
                self.ops.append(["?", 0, len(self.code) - 1])
                self._advance()
                return False
            elif kind == ":":
                self._close("?")
                question = self.ops.pop()
                self.code.append((JUMP, None, None))
                self._patch(question[2])
                self.ops.append(["colon", _PRECEDENCE["?"], len(self.code) - 1])
                self._advance()
                return False
            elif kind == ",":
                self._reduce_all()
                self._flush()
                self.code.append((POP, None, None))
                self._advance()
                return False
            elif kind in _PRECEDENCE:
                self._binary(kind)
                return False
            else:   # misplaced: bash reads on a little, and finishes what it can, first
                if kind == "ident":
                    self._look_past_names()
                    self._flush()
                    self.pending = self.value   # bash has read this name's value too
                    self._flush()
                    self.code.append((POP, None, None))
                self._reduce_all()
                self._flush()
                self._unexpected()
            self._advance()

    def _binary(self, operator: str) -> None:
        precedence = _PRECEDENCE[operator]
        self._reduce(precedence, right=operator == "**")
        self._flush()
        if operator == "&&":
            self.code.append((JUMP_IF_ZERO, None, None))
            self.ops.append(["and", precedence, len(self.code) - 1])
        elif operator == "||":
            self.code.append((JUMP_UNLESS_ZERO, None, None))
            self.ops.append(["or", precedence, len(self.code) - 1])
        else:
            self.ops.append(["binary", precedence, operator, 0])
        self._advance()
        if operator in ("/", "%"):
            self.ops[-1][3] = self.start   # bash shows the divisor as the error token

    def _assignment(self, operator: str) -> None:
        self._reduce(_ASSIGN_PRECEDENCE, right=True)
        if self.pending is None:
            raise self._fail("attempted assignment to non-variable")
        target, self.pending = self.pending, None
        name, subscript, start = target
        combine = _ASSIGNMENTS[operator]
        if combine is not None:   # the old value is read now, its subscript only once
            if subscript is None:
                self.code.append((LOAD, name, start))
            else:
                self.code += [(SUBSCRIPT, (subscript, name), start), (DUP, None, None), (LOAD_ELEMENT, name, start)]
        self.ops.append(["assign", _ASSIGN_PRECEDENCE, target, combine])
        self._advance()

    def _look_past_names(self) -> None:
        """Bash's lexer reads the token after a name, and after that one if it is a name too:
        a bad character or number there is reported before the misplaced name."""
        probe = _Parser(self.source)
        probe.pos, probe.kind = self.pos, "ident"
        while probe.kind == "ident":
            probe._advance()
        if probe.kind == "bad":
            raise probe._fail("syntax error: invalid arithmetic operator")

    def _reduce(self, precedence: int, right: bool) -> None:
        ops = self.ops
        while ops and ops[-1][0] not in ("(", "?") and (
                ops[-1][1] > precedence or ops[-1][1] == precedence and not right):
            self._apply(ops.pop())

    def _reduce_all(self) -> None:
        while self.ops and self.ops[-1][0] not in ("(", "?"):
            self._apply(self.ops.pop())

    def _close(self, bracket: str) -> None:
        """Reduce up to the innermost bracket, which must be `bracket`."""
        self._reduce_all()
        self._flush()
        if not self.ops or self.ops[-1][0] != bracket:
            self._unexpected()

    def _unexpected(self) -> None:
        innermost = self.ops[-1][0] if self.ops and self.ops[-1][0] in ("(", "?") else None
        if innermost == "(":
            raise self._fail("missing `)'")
        if innermost == "?":
            raise self._fail("`:' expected for conditional expression")
        raise self._fail("syntax error in expression")


    def _patch(self, index: int) -> None:
        op, _, b = self.code[index]
        self.code[index] = (op, len(self.code), b)

    def _apply(self, entry: list) -> None:
        self._flush()
        kind, code = entry[0], self.code
        if kind == "binary":
            operator = entry[2]
            if operator in ("/", "%"):
                code.append((DIVIDE, operator, entry[3]))
            elif operator == "**":
                code.append((POWER, None, self._error_position()))
            else:
                code.append((BINARY, _BINARY[operator], None))
        elif kind == "unary":
            code.append((UNARY, entry[2], None))
        elif kind in ("and", "or"):
            code.append((UNARY, _truth, None))
            self._patch(entry[2])
        elif kind == "colon":
            self._patch(entry[2])
        else:
            self._store(entry[2], entry[3])

    def _store(self, target: tuple, combine: str | None) -> None:
        name, subscript, start = target
        code = self.code
        if combine in ("/", "%"):
            code.append((DIVIDE, combine, self._error_position()))
        elif combine is not None:
            code.append((BINARY, _BINARY[combine], None))
        if subscript is None:
            code.append((STORE, name, None))
        elif combine is None:   # plain `=`: bash evaluates the subscript after the value
            code.append((SUBSCRIPT, (subscript, name), start))
            code.append((STORE_ELEMENT, name, False))
        else:
            code.append((STORE_ELEMENT, name, True))


def _digit_value(char: str, base: int) -> int:
    if char <= "9":
        return ord(char) - 48
    if "a" <= char <= "z":
        return ord(char) - 87
    if "A" <= char <= "Z":
        return ord(char) - (29 if base > 36 else 55)
    return 62 if char == "@" else 63


def _number(source: str, start: int, end: int) -> int:
    """A literal: decimal, 0-octal, 0x-hex or base#digits, read left to right as bash does."""
    text = source[start:end]

    def fail(problem: str) -> ArithError:
        return ArithError(_message(source, problem, start, end))

    if text[:2] in ("0x", "0X"):
        base, digits = 16, text[2:]
    elif text[0] == "0":
        base, digits = 8, text[1:]
    else:
        base, digits = 10, text
    value, count, named_base = 0, 0, False
    for char in digits:
        if char == "#":
            if named_base and count == 0:
                raise fail("invalid integer constant")
            if base != 10 or named_base:   # only a plain decimal number names a base
                raise fail("invalid number")
            if not 2 <= value <= 64:
                raise fail("invalid arithmetic base")
            base, value, count, named_base = value, 0, 0, True
            continue
        digit = _digit_value(char, base)
        if digit >= base:
            raise fail("value too great for base")
        value = (value * base + digit) % _BITS
        count += 1
    if named_base and count == 0:
        raise fail("invalid integer constant")
    return _wrap(value)


# ---------------------------------------------------------------- the machine


def _run(program: _Program, variables: Any) -> int:
    stack: list = []
    frames: list[tuple[_Program, int]] = []   # the callers of nested evaluations
    code, pc, end = program.code, 0, len(program.code)
    while True:
        if pc == end:
            if program.error is not None:
                raise ArithError(program.error)
            if not frames:
                return stack[-1]
            program, pc = frames.pop()
            code, end = program.code, len(program.code)
            continue
        op, a, b = code[pc]
        pc += 1
        if op == PUSH:
            stack.append(a)
        elif op == LOAD or op == LOAD_ELEMENT:
            if op == LOAD:
                text = variables.get(a)
            else:
                index = stack.pop()
                text = "" if index is None else variables.get_element(a, index)
            number = _number_in(text, a, variables)
            if number is False:   # unset or empty: 0, and nothing is evaluated
                stack.append(0)
                continue
            if len(frames) + 1 >= _MAX_LEVEL:
                raise ArithError(_message(program.source, "expression recursion level exceeded", b))
            if number is not None:
                stack.append(number)
                continue
            frames.append((program, pc))   # the value is an expression: evaluate it nested
            program = _compile(text)
            code, pc, end = program.code, 0, len(program.code)
        elif op == BINARY:
            right = stack.pop()
            stack[-1] = a(stack[-1], right)
        elif op == INCREMENT:
            old = stack[-1]
            new = _wrap(old + b[0])
            variables.set(a, str(new))
            stack[-1] = old if b[1] else new
        elif op == STORE:
            variables.set(a, str(stack[-1]))
        elif op == JUMP_IF_ZERO:
            if stack[-1] == 0:
                pc = a
            else:
                stack.pop()
        elif op == JUMP_UNLESS_ZERO:
            if stack[-1] != 0:
                stack[-1] = 1
                pc = a
            else:
                stack.pop()
        elif op == JUMP_IF_FALSE:
            if stack.pop() == 0:
                pc = a
        elif op == JUMP:
            pc = a
        elif op == UNARY:
            stack[-1] = a(stack[-1])
        elif op == DIVIDE:
            right = stack.pop()
            if right == 0:
                raise ArithError(_message(program.source, "division by 0", b))
            stack[-1] = _divide(stack[-1], right) if a == "/" else _remainder(stack[-1], right)
        elif op == POWER:
            right = stack.pop()
            if right < 0:
                raise ArithError(_message(program.source, "exponent less than 0", b))
            stack[-1] = _wrap(pow(stack[-1], right, _BITS))
        elif op == POP:
            stack.pop()
        elif op == DUP:
            stack.append(stack[-1])
        elif op == SUBSCRIPT:
            a, array = a
            if a == "" or a.strip(_BLANKS) in ("@", "*"):
                stack.append(None)   # bash warns, reads 0 and assigns nothing
                continue
            if _is_assoc(variables, array):   # `count[$word]++`: the text is the key
                stack.append(a)
                continue
            if len(frames) + 1 >= _MAX_LEVEL:
                raise ArithError(_message(program.source, "expression recursion level exceeded", b))
            frames.append((program, pc))
            program = _compile(a)
            code, pc, end = program.code, 0, len(program.code)
        elif op == STORE_ELEMENT:
            if b:
                value = stack.pop()
                index = stack.pop()
            else:
                index = stack.pop()
                value = stack.pop()
            _store_element(variables, a, index, value)
            stack.append(value)
        elif op == INCREMENT_ELEMENT:
            old = stack.pop()
            index = stack.pop()
            new = _wrap(old + b[0])
            _store_element(variables, a, index, new)
            stack.append(old if b[1] else new)


def _is_assoc(variables: Any, name: str) -> bool:
    is_assoc = getattr(variables, "is_assoc", None)
    return is_assoc is not None and is_assoc(name)


def _number_in(text: str | None, name: str, variables: Any) -> int | bool | None:
    """A variable's value as a number: False when unset or empty (0, nothing to evaluate),
    None when the text is an expression to evaluate."""
    if not text:
        if text is None and variables.options.nounset and variables.lookup(name) is None:
            raise ShellError(f"{name}: unbound variable", status=127, fatal=True)
        return False
    if text.isdigit() and text.isascii() and (text[0] != "0" or len(text) == 1):
        number = int(text)
        return number if number < _HALF else _wrap(number)
    return None


def _store_element(variables: Any, name: str, index: int | str | None, value: int) -> None:
    if index is None:
        return
    try:
        variables.set_element(name, index, str(value))
    except ShellError as error:
        # A negative index before the first element: bash warns and assigns nothing.
        if not (isinstance(index, int) and index < 0 and error.message.endswith("bad array subscript")):
            raise
