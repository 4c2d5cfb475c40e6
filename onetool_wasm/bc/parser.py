"""bc's grammar, compiled as GNU bc compiles it: the parser emits the same code text as
bc.y (`K12:` constants, `l5:` loads, `B3:`/`J3:`/`Z3:` branches, `N3:` labels...), and
`load` turns it into bytes as GNU's load.c does, so a runtime error names the same `adr`.

Operator precedence, lowest first: `||`, `&&`, `!`, relations, assignments (right), `+ -`,
`* / %`, `^` (right), unary minus, `++ --`. A top-level line is one chunk: it runs once its
newline is read, and a syntax error anywhere in it discards it. The descent counts its own
depth (MAX_NESTING), so nothing recurses without a bound.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .lexer import Lexer, Token

MAX_NESTING = 60
EX_ASSGN, EX_REG, EX_COMP, EX_PAREN, EX_VOID, EX_EMPTY = 0, 1, 2, 4, 8, 16
SPECIAL_VARS = {"ibase": 0, "obase": 1, "scale": 2, "history": 3, "last": 4}
_PREC = {"OR": 1, "AND": 2, "REL": 4, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "^": 8}
_REL_CODE = {"==": "=", "!=": "#", "<": "<", "<=": "{", ">": ">", ">=": "}"}


class ParseError(Exception):
    """A syntax error at the current token."""


class Quit(Exception):
    """`quit` was read: bc stops at once."""


@dataclass
class Function:
    name: str
    params: list[tuple[int, bool]] = field(default_factory=list)   # (number, by_reference); arrays < 0
    autos: list[int] = field(default_factory=list)
    code: list[int] = field(default_factory=list)
    labels: dict[int, int] = field(default_factory=dict)
    void: bool = False
    native: object = None      # the math library's functions are Python


class Symbols:
    """bc's name tables: variables from 5 (0-4 are ibase obase scale history last),
    arrays and functions from 1 (function 0 is the main program)."""

    def __init__(self) -> None:
        self.vars: dict[str, int] = dict(SPECIAL_VARS)
        self.var_names = {number: name for name, number in SPECIAL_VARS.items()}
        self.arrays: dict[str, int] = {}
        self.array_names: dict[int, str] = {}
        self.funcs: dict[str, int] = {"(main)": 0}
        self.functions: dict[int, Function] = {}
        self.func_names: dict[int, str] = {0: "(main)"}
        self.void: set[int] = set()

    def var(self, name: str) -> int:
        if name not in self.vars:
            self.vars[name] = len(self.vars)
            self.var_names[self.vars[name]] = name
        return self.vars[name]

    def array(self, name: str) -> int:
        if name not in self.arrays:
            self.arrays[name] = len(self.arrays) + 1
            self.array_names[self.arrays[name]] = name
        return self.arrays[name]

    def func(self, name: str) -> int:
        if name not in self.funcs:
            self.funcs[name] = len(self.funcs)
            self.func_names[self.funcs[name]] = name
        return self.funcs[name]


def load(code: str) -> tuple[list[int], dict[int, int]]:
    """GNU's load_code: the bytes of one code text and its label addresses."""
    out: list[int] = []
    labels: dict[int, int] = {}
    i, n = 0, len(code)

    def number() -> int:
        nonlocal i
        start = i
        while i < n and (code[i].isdigit() or code[i] == "-"):
            i += 1
        value = int(code[start:i])
        i += 1  # the ':' (or ',') after it
        return value

    def var_bytes(value: int) -> None:
        if value < 128:
            out.append(value)
        else:
            out.append(((value >> 8) & 0xFF) | 0x80)
            out.append(value & 0xFF)

    while i < n:
        ch = code[i]
        if ch == '"':
            end = code.index('"', i + 1)
            out.extend(ord(c) for c in code[i + 1:end + 1])
            i = end + 1
        elif ch == "K":
            out.append(ord("K"))
            i += 1
            while code[i] != ":":
                c = code[i]
                out.append(ord(".") if c == "." else (ord(c) - 48 if c.isdigit() else ord(c) - 55))
                i += 1
            out.append(ord(":"))
            i += 1
        elif ch == "N":
            i += 1
            labels[number()] = len(out)
        elif ch in "BJZ":
            out.append(ord(ch))
            i += 1
            label = number()
            out.extend((label & 0xFF, label >> 8))
        elif ch == "C":
            out.append(ord("C"))
            i += 1
            start = i
            while code[i].isdigit():
                i += 1
            var_bytes(int(code[start:i]))
            if code[i] == ",":
                i += 1
            while code[i] != ":":
                out.append(ord(code[i]))
                i += 1
            out.append(ord(":"))
            i += 1
        elif ch == "c":
            out.extend((ord("c"), ord(code[i + 1])))
            i += 2
        elif ch in "dilsAMLS":
            out.append(ord(ch))
            i += 1
            var_bytes(number())
        else:
            out.append(ord(ch))
            i += 1
    return out, labels


class Parser:
    def __init__(self, lexer: Lexer, symbols: Symbols, report) -> None:
        self.lexer = lexer
        self.symbols = symbols
        self.report_line = report   # a full message line to stderr
        lexer.report = self._lexer_error
        self._tok: Token | None = None
        self.code: list[str] = []
        self.had_error = False
        self.depth = 0
        self.next_label = 1
        self.break_label = 0
        self.continue_label = 0
        self.if_label = 0
        self.cur_func: Function | None = None

    # -- tokens -------------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        """The lookahead, read only when needed (as yacc does: a line runs before the next
        one is scanned)."""
        if self._tok is None:
            self._tok = self.lexer.next()
        return self._tok

    def advance(self) -> Token:
        token = self.tok
        self._tok = None
        return token

    def _lexer_error(self, message: str) -> None:
        self.report_line(message)
        self.had_error = True

    def at(self, kind: str, value: str | None = None) -> bool:
        return self.tok.kind == kind and (value is None or self.tok.value == value)

    def keyword(self, word: str) -> bool:
        return self.tok.kind == "KEYWORD" and self.tok.value == word

    def expect(self, kind: str) -> Token:
        if self.tok.kind != kind:
            raise ParseError()
        return self.advance()

    def error(self, message: str, line: int | None = None) -> None:
        """yyerror from an action: reported, the chunk is discarded, parsing goes on."""
        self.report_line(f"{self.lexer.name} {self.tok.line if line is None else line}: {message}")
        self.had_error = True

    def emit(self, text: str) -> None:
        self.code.append(text)

    def label(self) -> int:
        self.next_label += 1
        return self.next_label - 1

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.report_line(f"{self.lexer.name} {self.tok.line}: nested too deeply (more than "
                             f"{MAX_NESTING} levels): split the expression or the blocks")
            self.had_error = True
            raise ParseError("nesting")

    def leave(self) -> None:
        self.depth -= 1

    # -- items --------------------------------------------------------------------------
    def parse_item(self):
        """One input item: ("eof",), ("chunk", code text or None), or ("function",)."""
        self.code = []
        self.had_error = False
        self.depth = 0
        self.next_label, self.break_label, self.continue_label, self.if_label = 1, 0, 0, 0
        if self.at("EOF"):
            return ("eof",)
        try:
            if self.keyword("define"):
                self.function()
                return ("function",)
            started = False
            while True:
                if self.at("NL"):
                    self.advance()
                    break
                if self.at("EOF"):
                    if started:
                        raise ParseError()
                    break
                started = True
                if self.at(";"):
                    self.advance()
                    continue
                self.statement()
                if not (self.at(";") or self.at("NL")):
                    raise ParseError()
        except ParseError as problem:
            if str(problem) != "nesting":
                self.report_line(f"{self.lexer.name} {self.tok.line}: syntax error")
            self.cur_func = None
            while not (self.at("NL") or self.at("EOF")):
                self.advance()
            if self.at("NL"):
                self.advance()
            return ("chunk", None)
        if self.had_error:
            return ("chunk", None)
        return ("chunk", "".join(self.code))

    def function(self) -> None:
        self.advance()
        void = False
        if self.keyword("void"):
            self.advance()
            void = True
        name = self.expect("NAME").value
        self.expect("(")
        params = self.define_list(")", allow_ref=True)
        self.expect(")")
        if self.at("NL"):
            self.advance()
        self.expect("{")
        while self.at("NL"):
            self.advance()
        autos: list[tuple[int, bool]] = []
        if self.keyword("auto"):
            self.advance()
            autos = self.define_list(None, allow_ref=False)
            if not (self.at("NL") or self.at(";")):
                raise ParseError()
            self.advance()
        number = self.symbols.func(name)
        function = Function(name, params=params, autos=[a for a, _ in autos], void=void)
        if void:
            self.symbols.void.add(number)
        else:
            self.symbols.void.discard(number)
        self.cur_func = function
        self.statement_list()
        self.expect("}")
        self.emit("0R")
        self.cur_func = None
        if not self.had_error:
            function.code, function.labels = load("".join(self.code))
            self.symbols.functions[number] = function

    def define_list(self, end: str | None, allow_ref: bool) -> list[tuple[int, bool]]:
        items: list[tuple[int, bool]] = []
        if end is not None and self.at(end):
            return items
        while True:
            by_ref = False
            if allow_ref and self.at("*"):
                self.advance()
                by_ref = True
            name = self.expect("NAME").value
            if self.at("["):
                self.advance()
                self.expect("]")
                items.append((-self.symbols.array(name), by_ref))
            elif by_ref:
                raise ParseError()
            else:
                items.append((self.symbols.var(name), False))
            if not self.at(","):
                return items
            self.advance()

    # -- statements ---------------------------------------------------------------------
    def statement_list(self) -> None:
        while True:
            if self.at("NL") or self.at(";"):
                self.advance()
                continue
            if self.at("}"):
                return
            self.statement()
            if not (self.at("NL") or self.at(";") or self.at("}")):
                raise ParseError()

    def opt_newline(self) -> None:
        if self.at("NL"):
            self.advance()

    def statement(self) -> None:  # noqa: C901 - one branch a statement
        self.enter()
        token = self.tok
        word = token.value if token.kind == "KEYWORD" else None
        if token.kind == "STRING":
            self.advance()
            self.emit('w"' + token.value + '"')
        elif token.kind == "{":
            self.advance()
            self.statement_list()
            self.expect("}")
        elif word == "quit":
            raise Quit()
        elif word == "halt":
            self.advance()
            self.emit("h")
        elif word in ("break", "continue"):
            self.advance()
            target = self.break_label if word == "break" else self.continue_label
            if target == 0:
                self.error("Break outside a for/while" if word == "break" else "Continue outside a for",
                           token.line)
            else:
                self.emit(f"J{target}:")
        elif word == "return":
            self.advance()
            if self.at(";") or self.at("NL") or self.at("}") or self.at("EOF"):
                self.emit("0")
                if self.cur_func is None:
                    self.error("Return outside of a function.")
            else:
                flags = self.expression()
                if flags & EX_VOID:
                    self.error("return requires non-void expression")
                if self.cur_func is None:
                    self.error("Return outside of a function.")
                elif self.cur_func.void:
                    self.error("Return expression in a void function.")
            self.emit("R")
        elif word == "if":
            self.if_statement()
        elif word == "while":
            self.while_statement()
        elif word == "for":
            self.for_statement()
        elif word == "print":
            self.advance()
            while True:
                if self.at("STRING"):
                    self.emit('O"' + self.advance().value + '"')
                else:
                    flags = self.expression()
                    if flags & EX_VOID:
                        self.error("void expression in print")
                    self.emit("P")
                if not self.at(","):
                    break
                self.advance()
        elif word in ("warranty", "limits"):
            self.advance()   # informational texts: printed by GNU at parse time, omitted here
        else:
            flags = self.expression()
            self.emit("W" if flags & EX_REG else "p")
        self.leave()

    def if_statement(self) -> None:
        self.advance()
        self.expect("(")
        flags = self.expression()
        self.expect(")")
        if flags & EX_VOID:
            self.error("void expression")
        saved = self.if_label
        self.if_label = self.label()
        self.emit(f"Z{self.if_label}:")
        self.opt_newline()
        self.statement()
        if self.keyword("else"):
            self.advance()
            else_label = self.label()
            self.emit(f"J{else_label}:N{self.if_label}:")
            self.if_label = else_label
            self.opt_newline()
            self.statement()
        self.emit(f"N{self.if_label}:")
        self.if_label = saved

    def while_statement(self) -> None:
        self.advance()
        saved_continue = self.continue_label
        self.continue_label = self.label()
        self.emit(f"N{self.continue_label}:")
        self.expect("(")
        flags = self.expression()
        if flags & EX_VOID:
            self.error("void expression")
        saved_break = self.break_label
        self.break_label = self.label()
        self.emit(f"Z{self.break_label}:")
        self.expect(")")
        self.opt_newline()
        self.statement()
        self.emit(f"J{self.continue_label}:N{self.break_label}:")
        self.break_label = saved_break
        self.continue_label = saved_continue

    def opt_expression(self, closer: str) -> int:
        if self.at(closer):
            return EX_EMPTY
        return self.expression()

    def for_statement(self) -> None:
        self.advance()
        saved_break = self.break_label
        self.break_label = self.label()
        self.expect("(")
        first = self.opt_expression(";")
        self.expect(";")
        if first & EX_VOID:
            self.error("first expression is void")
        if not first & EX_EMPTY:
            self.emit("p")
        top = self.label()
        self.emit(f"N{top}:")
        second = self.opt_expression(";")
        self.expect(";")
        if second & EX_VOID:
            self.error("second expression is void")
        if second & EX_EMPTY:
            self.emit("1")
        body = self.label()
        self.emit(f"B{body}:J{self.break_label}:")
        saved_continue = self.continue_label
        self.continue_label = self.label()
        self.emit(f"N{self.continue_label}:")
        third = self.opt_expression(")")
        self.expect(")")
        if third & EX_VOID:
            self.error("third expression is void")
        self.emit(f"J{top}:N{body}:" if third & EX_EMPTY else f"pJ{top}:N{body}:")
        self.opt_newline()
        self.statement()
        self.emit(f"J{self.continue_label}:N{self.break_label}:")
        self.break_label = saved_break
        self.continue_label = saved_continue

    # -- expressions --------------------------------------------------------------------
    def expression(self, min_prec: int = 1) -> int:
        self.enter()
        flags = self.unary()
        while True:
            kind = self.tok.kind
            prec = _PREC.get(kind)
            if prec is None or prec < min_prec:
                break
            op = self.advance()
            if kind == "AND":
                label = self.label()
                self.emit(f"DZ{label}:p")
                right = self.expression(prec + 1)
                if (flags | right) & EX_VOID:
                    self.error("void expression with &&")
                self.emit(f"DZ{label}:p1N{label}:")
                flags = (flags | right) & ~EX_PAREN
            elif kind == "OR":
                label = self.label()
                self.emit(f"B{label}:")
                right = self.expression(prec + 1)
                if (flags | right) & EX_VOID:
                    self.error("void expression with ||")
                end = self.label()
                self.emit(f"B{label}:0J{end}:N{label}:1N{end}:")
                flags = (flags | right) & ~EX_PAREN
            elif kind == "REL":
                right = self.expression(prec + 1)
                if (flags | right) & EX_VOID:
                    self.error("void expression with comparison")
                self.emit(_REL_CODE[op.value])
                flags = EX_REG | EX_COMP
            else:
                right = self.expression(prec if kind == "^" else prec + 1)
                if (flags | right) & EX_VOID:
                    self.error(f"void expression with {kind}")
                self.emit(kind)
                flags = (flags | right) & ~EX_PAREN
        self.leave()
        return flags

    def unary(self) -> int:
        kind = self.tok.kind
        if kind == "NOT":
            self.advance()
            self.enter()
            flags = self.expression(4)
            self.leave()
            if flags & EX_VOID:
                self.error("void expression with !")
            self.emit("!")
            return flags & ~EX_PAREN
        if kind == "-":
            self.advance()
            self.enter()
            flags = self.unary()
            self.leave()
            if flags & EX_VOID:
                self.error("void expression with unary -")
            self.emit("n")
            return flags & ~EX_PAREN
        return self.primary()

    def primary(self) -> int:  # noqa: C901 - one branch a primary
        token = self.tok
        kind = token.kind
        if kind == "NUMBER":
            self.advance()
            if token.value in ("0", "1"):
                self.emit(token.value)
            else:
                self.emit(f"K{token.value}:")
            return EX_REG
        if kind == "(":
            self.advance()
            flags = self.expression()
            self.expect(")")
            if flags & EX_VOID:
                self.error("void expression in parenthesis")
            return flags | EX_REG | EX_PAREN
        if kind == "INCR":
            self.advance()
            named = self.named_expression()
            if named < 0:
                op = "DA" if token.value == "+" else "DM"
                self.emit(f"{op}{-named}:L{-named}:")
            else:
                op = "i" if token.value == "+" else "d"
                self.emit(f"{op}{named}:l{named}:")
            return EX_REG
        if kind == "KEYWORD" and token.value in ("length", "sqrt", "scale", "read", "random"):
            if token.value != "scale" or self._next_is_paren():
                self.advance()
                self.expect("(")
                if token.value in ("read", "random"):
                    self.expect(")")
                    self.emit("cI" if token.value == "read" else "cX")
                    return EX_REG
                flags = self.expression()
                self.expect(")")
                if flags & EX_VOID:
                    self.error(f"void expression in {token.value}()")
                self.emit({"length": "cL", "sqrt": "cR", "scale": "cS"}[token.value])
                return EX_REG
        if kind == "NAME" and self._next_is_paren():
            return self.call()
        if kind == "NAME" or (kind == "KEYWORD" and token.value in SPECIAL_VARS):
            named = self.named_expression()
            if self.at("ASSIGN"):
                op = self.advance().value
                if op != "=":
                    self.emit(f"DL{-named}:" if named < 0 else f"l{named}:")
                flags = self.expression(5)
                if flags & EX_VOID:
                    self.error("Assignment of a void expression")
                if op != "=":
                    self.emit(op)
                self.emit(f"S{-named}:" if named < 0 else f"s{named}:")
                return EX_ASSGN
            if self.at("INCR"):
                op = self.advance().value
                if named < 0:
                    self.emit(f"DL{-named}:x" + (f"A{-named}:" if op == "+" else f"M{-named}:"))
                else:
                    self.emit(f"l{named}:" + (f"i{named}:" if op == "+" else f"d{named}:"))
                return EX_REG
            self.emit(f"L{-named}:" if named < 0 else f"l{named}:")
            return EX_REG
        raise ParseError()

    def _next_is_paren(self) -> bool:
        lexer = self.lexer
        saved = (lexer.index, lexer.name, lexer.text, lexer.pos, lexer.line)
        quiet = lexer.report, lexer.raw_report
        lexer.report = lexer.raw_report = lambda message: None
        try:
            following = lexer.next()
        finally:
            lexer.index, lexer.name, lexer.text, lexer.pos, lexer.line = saved
            lexer.report, lexer.raw_report = quiet
        return following.kind == "("

    def named_expression(self) -> int:
        token = self.advance()
        if token.kind == "KEYWORD":
            if token.value not in SPECIAL_VARS:
                raise ParseError()
            return SPECIAL_VARS[token.value]
        if token.kind != "NAME":
            raise ParseError()
        if self.at("["):
            self.advance()
            flags = self.expression()
            self.expect("]")
            if flags & EX_VOID:
                self.error("void expression as subscript")
            return -self.symbols.array(token.value)
        return self.symbols.var(token.value)

    def call(self) -> int:
        name = self.advance().value
        self.expect("(")
        kinds = []
        if not self.at(")"):
            while True:
                if self.at("NAME") and self._array_argument():
                    array = self.symbols.array(self.advance().value)
                    self.expect("[")
                    self.expect("]")
                    self.emit(f"K{array}:")
                    kinds.append("1")
                else:
                    flags = self.expression()
                    if flags & EX_VOID:
                        self.error("void argument")
                    kinds.append("0")
                if not self.at(","):
                    break
                self.advance()
        self.expect(")")
        number = self.symbols.func(name)
        self.emit(f"C{number},{''.join(kinds)}:" if kinds else f"C{number}:")
        return EX_VOID if number in self.symbols.void else EX_REG

    def _array_argument(self) -> bool:
        """NAME '[' ']' (a whole array) rather than NAME '[' index ']'."""
        lexer = self.lexer
        saved = (lexer.index, lexer.name, lexer.text, lexer.pos, lexer.line)
        quiet = lexer.report, lexer.raw_report
        lexer.report = lexer.raw_report = lambda message: None
        try:
            first = lexer.next()
            second = lexer.next() if first.kind == "[" else None
        finally:
            lexer.index, lexer.name, lexer.text, lexer.pos, lexer.line = saved
            lexer.report, lexer.raw_report = quiet
        return first.kind == "[" and second is not None and second.kind == "]"
