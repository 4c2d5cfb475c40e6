"""The bc machine: runs the bytes `parser.load` makes, one instruction at a time, as GNU
bc's execute.c does (an explicit value stack and call stack, so no Python recursion).
Runtime errors and warnings name the function and byte address as GNU prints them.

Bounds: at most `max_steps` instructions in a run (a loop that never ends stops with an
error), `cancelled()` polled, calls nested at most MAX_CALL_DEPTH deep, numbers at most
number.MAX_DIGITS digits long, output at most MAX_OUTPUT bytes.
"""
from __future__ import annotations

import random
from typing import Callable

from .number import ONE, ZERO, Num, NumberTooLong, format_number, raise_power
from .parser import Function, Symbols

MAX_STEPS = 50_000_000
MAX_CALL_DEPTH = 5_000
MAX_OUTPUT = 64 * 1024 * 1024
MAX_SCALE = 100_000
BC_BASE_MAX = 2147483647
BC_DIM_MAX = 16777215
LONG_MAX = 2 ** 63 - 1
CHECK_EVERY = 4096


class RuntimeFailure(Exception):
    """A GNU runtime error: reported, the rest of the current chunk is dropped."""


class Halt(Exception):
    """`halt` ran: bc exits with status 0."""


class Fatal(Exception):
    """One of our own limits: bc stops with this message and status 1."""


class Output:
    """GNU's out_char: lines longer than line_size - 1 end in a backslash."""

    def __init__(self, line_size: int) -> None:
        self.parts: list[str] = []
        self.col = 0
        self.size = 0
        self.line_size = line_size

    def write(self, text: str) -> None:
        self.size += len(text)
        if self.size > MAX_OUTPUT:
            raise Fatal(f"bc: the output is larger than {MAX_OUTPUT} bytes: print less")
        limit = self.line_size - 1
        if not self.line_size or ("\n" not in text and self.col + len(text) < limit):
            self.parts.append(text)
            self.col += len(text)
            return
        for ch in text:
            if ch == "\n":
                self.col = 0
            else:
                self.col += 1
                if self.col == limit:
                    self.parts.append("\\\n")
                    self.col = 1
            self.parts.append(ch)

    def text(self) -> str:
        return "".join(self.parts)


class Machine:
    def __init__(self, symbols: Symbols, out: Output, errors: list[str],
                 cancelled: Callable[[], bool] = lambda: False, max_steps: int = MAX_STEPS) -> None:
        self.symbols = symbols
        self.out = out
        self.errors = errors
        self.cancelled = cancelled
        self.max_steps = max_steps
        self.steps = 0
        self.vars: dict[int, list[Num]] = {}
        self.arrays: dict[int, list[dict[int, Num]]] = {}
        self.ibase = 10
        self.obase = 10
        self.scale = 0
        self.last = ZERO
        self.fnum = 0
        self.pc = 0
        self.random = random.Random(0)

    # -- messages -----------------------------------------------------------------------
    def where(self) -> str:
        return f"(func={self.symbols.func_names.get(self.fnum, '?')}, adr={self.pc})"

    def fail(self, message: str) -> RuntimeFailure:
        return RuntimeFailure(f"Runtime error {self.where()}: {message}")

    def warn(self, message: str) -> None:
        self.errors.append(f"Runtime warning {self.where()}: {message}")

    # -- variables ----------------------------------------------------------------------
    def load_var(self, number: int) -> Num:
        if number <= 4:
            return (Num(self.ibase), Num(self.obase), Num(self.scale), Num(0), self.last)[number]
        stack = self.vars.get(number)
        return stack[-1] if stack else ZERO

    def store_var(self, number: int, value: Num) -> None:
        if number > 4:
            stack = self.vars.get(number)
            if stack:
                stack[-1] = value
            else:
                self.vars[number] = [value]
            return
        if number == 4:
            self.last = value
            return
        if number == 3:
            return
        toobig = False
        if value.is_neg():
            self.warn(("negative ibase, set to 2", "negative obase, set to 2", "negative scale, set to 0")[number])
            temp = 0 if number == 2 else 2
        else:
            temp = value.to_long()
            toobig = temp > LONG_MAX
        if number == 0:
            if temp < 2 and not toobig:
                self.ibase = 2
                self.warn("ibase too small, set to 2")
            elif temp > 36 or toobig:
                self.ibase = 36
                self.warn("ibase too large, set to 36")
            else:
                self.ibase = temp
        elif number == 1:
            if temp < 2 and not toobig:
                self.obase = 2
                self.warn("obase too small, set to 2")
            elif temp > BC_BASE_MAX or toobig:
                self.obase = BC_BASE_MAX
                self.warn(f"obase too large, set to {BC_BASE_MAX}")
            else:
                self.obase = temp
        else:
            if temp > MAX_SCALE or toobig:
                self.scale = MAX_SCALE
                self.warn(f"scale too large, set to {MAX_SCALE}")
            else:
                self.scale = temp

    def array(self, number: int) -> dict[int, Num]:
        stack = self.arrays.get(number)
        if not stack:
            stack = self.arrays[number] = [{}]
        return stack[-1]

    def index(self, number: int, value: Num) -> int:
        index = value.to_long()
        if index < 0 or index > BC_DIM_MAX:
            raise self.fail(f"Array {self.symbols.array_names.get(number, '?')} subscript out of bounds.")
        return index

    def push_scope(self, names: list[int]) -> None:
        for number in names:
            if number >= 0:
                self.vars.setdefault(number, []).append(ZERO)
            else:
                self.arrays.setdefault(-number, []).append({})

    def pop_scope(self, names: list[int]) -> None:
        for number in names:
            if number >= 0:
                stack = self.vars.get(number)
                if stack:
                    stack.pop()
            else:
                stack = self.arrays.get(-number)
                if stack:
                    stack.pop()

    # -- constants ----------------------------------------------------------------------
    def constant(self, code: list[int], pc: int, base: int) -> tuple[Num, int]:
        whole: list[int] = []
        frac: list[int] | None = None
        while code[pc] != 58:   # ':'
            byte = code[pc]
            pc += 1
            if byte == 46:      # '.'
                frac = []
            elif frac is None:
                whole.append(byte)
            else:
                frac.append(byte)
        pc += 1
        if base == 10:
            if len(whole) == 1 and frac is None:
                return Num(whole[0]), pc
            digits = "".join(str(min(d, 9)) for d in whole) + "".join(str(min(d, 9)) for d in frac or [])
            from .number import digits_to_int
            return Num(digits_to_int(digits), len(frac or [])), pc
        value = 0
        for position, digit in enumerate(whole):
            if digit >= base and (position > 0 or len(whole) > 1):
                digit = base - 1
            value = value * base + digit
        number = Num(value)
        if frac is not None:
            top = 0
            for digit in frac:
                top = top * base + min(digit, base - 1)
            if frac:
                number = number.add(Num(top).div(Num(base ** len(frac)), len(frac)))
        return number, pc

    # -- running ------------------------------------------------------------------------
    def execute(self, code: list[int], labels: dict[int, int]) -> None:
        """Runs one main-program chunk; a runtime error is reported and ends it."""
        try:
            self._run(Function("(main)", code=code, labels=labels))
        except RuntimeFailure as failure:
            self.errors.append(str(failure))
        except NumberTooLong as problem:
            self.errors.append(f"Runtime error {self.where()}: {problem}")
        finally:
            self.fnum = 0

    def _call(self, code: list[int], pc: int, stack: list[Num], frames: list, const_base: int):
        byte = code[pc]
        pc += 1
        if byte & 0x80:
            number = ((byte & 0x7F) << 8) + code[pc]
            pc += 1
        else:
            number = byte
        self.pc = pc
        function = self.symbols.functions.get(number)
        if function is None:
            raise self.fail(f"Function {self.symbols.func_names.get(number, '?')} not defined.")
        params = function.params
        kinds: list[int] = []
        while True:
            byte = code[pc]
            pc += 1
            if byte == 58:
                if len(kinds) < len(params):
                    self.pc = pc
                    raise self.fail("Parameter number mismatch")
                break
            if len(kinds) >= len(params):
                self.pc = pc
                raise self.fail("Parameter number mismatch")
            kinds.append(byte)
        self.pc = pc
        args = stack[len(stack) - len(kinds):] if kinds else []
        if kinds:
            del stack[len(stack) - len(kinds):]
        for (param, _), kind in zip(params, kinds):
            if (param >= 0) != (kind == 48):
                name = (self.symbols.var_names.get(param) if param >= 0
                        else self.symbols.array_names.get(-param, "?"))
                raise self.fail(f"Parameter type mismatch parameter {name}.")
        if function.native is not None:
            stack.append(function.native(self, args))
            return None, pc
        if len(frames) >= MAX_CALL_DEPTH:
            raise self.fail(f"function calls nested more than {MAX_CALL_DEPTH} levels deep "
                            "(runaway recursion?): add a base case")
        values = []
        for (param, by_ref), arg in zip(params, args):
            if param >= 0:
                values.append((param, arg))
            else:
                source = self.array(arg.to_long())
                values.append((param, source if by_ref else dict(source)))
        for param, value in values:
            if param >= 0:
                self.vars.setdefault(param, []).append(value)
            else:
                self.arrays.setdefault(-param, []).append(value)
        self.push_scope(function.autos)
        return (function, number), pc

    def _run(self, main: Function) -> None:
        frames: list[tuple[Function, int, int, int]] = []
        self.current = main
        try:
            self._loop(main, frames)
        finally:
            function = self.current
            while frames:   # an error or a halt inside calls: drop their autos and parameters
                self.pop_scope(function.autos)
                self.pop_scope([number for number, _ in function.params])
                function, self.fnum, _, _ = frames.pop()

    def _loop(self, main: Function, frames: list) -> None:  # noqa: C901 - the instruction switch
        function = main
        code = function.code
        pc = 0
        const_base = self.ibase
        stack: list[Num] = []
        self.fnum = 0
        budget = CHECK_EVERY
        while True:
            if pc >= len(code):
                return
            budget -= 1
            if budget <= 0:
                budget = CHECK_EVERY
                self.steps += CHECK_EVERY
                if self.steps > self.max_steps:
                    raise Fatal(f"bc: the program ran more than {self.max_steps} steps (a loop that never "
                                "ends?): bound the loop")
                if self.cancelled():
                    raise Fatal("bc: interrupted")
            inst = code[pc]
            pc += 1
            self.pc = pc
            if inst == 108 or inst == 115 or inst == 105 or inst == 100:   # l s i d
                byte = code[pc]
                pc += 1
                if byte & 0x80:
                    number = ((byte & 0x7F) << 8) + code[pc]
                    pc += 1
                else:
                    number = byte
                self.pc = pc
                if inst == 108:
                    stack.append(self.load_var(number))
                elif inst == 115:
                    self.store_var(number, stack[-1])
                else:
                    value = self.load_var(number)
                    self.store_var(number, value.add(ONE) if inst == 105 else value.sub(ONE))
            elif inst in (76, 83, 65, 77):   # L S A M
                byte = code[pc]
                pc += 1
                if byte & 0x80:
                    number = ((byte & 0x7F) << 8) + code[pc]
                    pc += 1
                else:
                    number = byte
                self.pc = pc
                if inst == 83:
                    value = stack.pop()
                    index = self.index(number, stack.pop())
                    self.array(number)[index] = value
                    stack.append(value)
                else:
                    index = self.index(number, stack.pop())
                    array = self.array(number)
                    value = array.get(index, ZERO)
                    if inst == 76:
                        stack.append(value)
                    else:
                        array[index] = value.add(ONE) if inst == 65 else value.sub(ONE)
            elif inst == 75:   # K: main reads ibase now, a function the ibase of its call
                value, pc = self.constant(code, pc, const_base if frames else self.ibase)
                stack.append(value)
            elif inst == 48:
                stack.append(ZERO)
            elif inst == 49:
                stack.append(ONE)
            elif inst in (66, 90, 74):   # B Z J
                jump = True
                if inst != 74:
                    value = stack.pop()
                    jump = (not value.is_zero()) if inst == 66 else value.is_zero()
                label = code[pc] + (code[pc + 1] << 8)
                pc += 2
                if jump:
                    pc = function.labels[label]
            elif inst == 112:   # p
                stack.pop()
            elif inst == 87 or inst == 80:   # W P
                value = stack.pop()
                self.out.write(format_number(value, self.obase) + ("\n" if inst == 87 else ""))
                self.last = value
            elif inst == 43:
                right = stack.pop()
                stack[-1] = stack[-1].add(right)
            elif inst == 45:
                right = stack.pop()
                stack[-1] = stack[-1].sub(right)
            elif inst == 42:
                right = stack.pop()
                stack[-1] = stack[-1].mul(right, self.scale)
            elif inst == 47:
                if stack[-1].is_zero():
                    raise self.fail("Divide by zero")
                right = stack.pop()
                stack[-1] = stack[-1].div(right, self.scale)
            elif inst == 37:
                if stack[-1].is_zero():
                    raise self.fail("Modulo by zero")
                right = stack.pop()
                stack[-1] = stack[-1].mod(right, self.scale)
            elif inst == 94:   # ^
                right = stack.pop()
                base = stack[-1]
                if right.scale:
                    self.warn("non-zero scale in exponent")
                exponent = right.to_long()
                if abs(exponent) > LONG_MAX:
                    raise self.fail("exponent too large in raise")
                if base.is_zero() and right.is_neg():
                    raise self.fail("divide by zero")
                stack[-1] = raise_power(base, exponent, self.scale)
            elif inst in (61, 35, 60, 123, 62, 125):   # = # < { > }
                right = stack.pop()
                c = stack[-1].compare(right)
                result = {61: c == 0, 35: c != 0, 60: c < 0, 123: c <= 0, 62: c > 0, 125: c >= 0}[inst]
                stack[-1] = ONE if result else ZERO
            elif inst == 33:   # !
                stack[-1] = ONE if stack[-1].is_zero() else ZERO
            elif inst == 110:  # n
                value = stack[-1]
                stack[-1] = Num(-value.value, value.scale)
            elif inst == 68:   # D
                stack.append(stack[-1])
            elif inst == 120:  # x
                stack[-1], stack[-2] = stack[-2], stack[-1]
            elif inst == 99:   # c
                which = code[pc]
                pc += 1
                self.pc = pc
                if which == 76:
                    stack[-1] = Num(stack[-1].length())
                elif which == 83:
                    stack[-1] = Num(stack[-1].scale)
                elif which == 82:
                    root = stack[-1].sqrt(self.scale)
                    if root is None:
                        raise self.fail("Square root of a negative number")
                    stack[-1] = root
                elif which == 88:
                    stack.append(Num(self.random.randrange(2 ** 31)))
                else:
                    raise self.fail("read() is not supported here: put the numbers in the program")
            elif inst == 67:   # C
                called, pc = self._call(code, pc, stack, frames, const_base)
                if called is not None:
                    frames.append((function, self.fnum, pc, const_base))
                    function, self.fnum = called
                    self.current = function
                    code = function.code
                    pc = 0
                    const_base = self.ibase
            elif inst == 82:   # R
                if not frames:
                    raise self.fail("Return from main program.")
                self.pop_scope(function.autos)
                self.pop_scope([number for number, _ in function.params])
                function, self.fnum, pc, const_base = frames.pop()
                self.current = function
                code = function.code
            elif inst == 119 or inst == 79:   # w O
                end = code.index(34, pc)
                body = "".join(map(chr, code[pc:end]))
                pc = end + 1
                self.out.write(body if inst == 119 else _escapes(body))
            elif inst == 104:  # h
                raise Halt()
            else:
                raise self.fail(f"bad instruction: inst={chr(inst)}")


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "q": '"', "r": "\r", "t": "\t", "\\": "\\"}


def _escapes(body: str) -> str:
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], ""))
            i += 2
        elif ch == "\\":
            break
        else:
            out.append(ch)
            i += 1
    return "".join(out)
