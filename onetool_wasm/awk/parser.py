"""tokens -> a program tree of tuples (kind, ...), by recursive descent.

Nesting is bounded twice: the descent counts its own depth (MAX_NESTING), and every tree
is measured without recursion (MAX_TREE_DEPTH) so a long `1+1+1+...` chain cannot make
the code generator or Python's compiler recurse too deep.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .lexer import AwkSyntaxError, tokenize

MAX_NESTING = 40
MAX_TREE_DEPTH = 80
_CONCAT_START = frozenset({"NUMBER", "STRING", "ERE", "NAME", "FUNC_NAME", "BUILTIN", "$", "!", "(", "-", "+",
                           "++", "--"})
_ASSIGN_OPS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "^="})
_COMPARE = frozenset({"<", "<=", "!=", "==", ">", ">="})
_LVALUES = frozenset({"var", "index", "field"})


@dataclass
class Function:
    name: str
    params: list[str]
    body: tuple
    line: int


@dataclass
class Program:
    begin: list[tuple] = field(default_factory=list)
    end: list[tuple] = field(default_factory=list)
    rules: list[tuple] = field(default_factory=list)   # (pattern|None, pattern2|None, body|None)
    functions: dict[str, Function] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def tree_depth(node: object) -> int:
    """The depth of a tuple tree, measured with an explicit stack."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (tuple, list)):
            deepest = max(deepest, depth)
            for child in item:
                if isinstance(child, (tuple, list)):
                    stack.append((child, depth + 1))
    return deepest


class Parser:
    def __init__(self, text: str) -> None:
        self.tokens, self.warnings = tokenize(text)
        self.i = 0
        self.depth = 0
        self.no_gt = False      # inside print's arguments `>` is a redirection
        self.no_in = False      # inside for( ... ) the `in` belongs to the loop

    # -- token helpers ------------------------------------------------------------------
    @property
    def kind(self) -> str:
        return self.tokens[self.i][0]

    def peek(self, offset: int = 1) -> str:
        index = min(self.i + offset, len(self.tokens) - 1)
        return self.tokens[index][0]

    def take(self) -> tuple:
        token = self.tokens[self.i]
        if token[0] != "EOF":
            self.i += 1
        return token

    def error(self, what: str | None = None) -> AwkSyntaxError:
        kind, value, line = self.tokens[self.i]
        shown = "end of file" if kind == "EOF" else "newline" if kind == "NEWLINE" else str(value if value is not None else kind)
        return AwkSyntaxError(f"awk: cmd. line:{line}: {what or 'syntax error'} at or near {shown}")

    def expect(self, kind: str) -> tuple:
        if self.kind != kind:
            raise self.error()
        return self.take()

    def newlines(self) -> None:
        while self.kind == "NEWLINE":
            self.take()

    def terminators(self) -> None:
        while self.kind in ("NEWLINE", ";"):
            self.take()

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise AwkSyntaxError(f"awk: program is nested too deeply (more than {MAX_NESTING} levels): "
                                 "split it into functions or simpler expressions")

    def checked(self, node: tuple) -> tuple:
        if tree_depth(node) > MAX_TREE_DEPTH:
            raise AwkSyntaxError(f"awk: expression is too complex (deeper than {MAX_TREE_DEPTH} levels): "
                                 "compute it in several statements")
        return node

    # -- program ------------------------------------------------------------------------
    def program(self) -> Program:
        prog = Program(warnings=self.warnings)
        self.terminators()
        while self.kind != "EOF":
            self.item(prog)
            self.terminators()
        return prog

    def item(self, prog: Program) -> None:
        kind = self.kind
        if kind in ("BEGIN", "END"):
            self.take()
            self.newlines()
            if self.kind != "{":
                raise self.error(f"{kind} blocks must have an action part")
            (prog.begin if kind == "BEGIN" else prog.end).append(self.block())
            return
        if kind == "func":
            self.function(prog)
            return
        pattern = pattern2 = None
        if kind != "{":
            pattern = self.checked(self.expr())
            if self.kind == ",":
                self.take()
                self.newlines()
                pattern2 = self.checked(self.expr())
        body = self.block() if self.kind == "{" else None
        if body is None and self.kind not in ("NEWLINE", ";", "EOF"):
            raise self.error()
        prog.rules.append((pattern, pattern2, body))

    def function(self, prog: Program) -> None:
        line = self.take()[2]
        if self.kind not in ("NAME", "FUNC_NAME"):
            raise self.error("function name expected")
        name = self.take()[1]
        if name in prog.functions:
            raise AwkSyntaxError(f"awk: cmd. line:{line}: function `{name}' previously defined")
        self.expect("(")
        params: list[str] = []
        while self.kind != ")":
            token = self.expect("NAME")
            if token[1] in params or token[1] == name:
                raise AwkSyntaxError(f"awk: cmd. line:{line}: function `{name}': bad parameter `{token[1]}'")
            params.append(token[1])
            if self.kind == ",":
                self.take()
                self.newlines()
            elif self.kind != ")":
                raise self.error()
        self.take()
        self.newlines()
        prog.functions[name] = Function(name, params, self.block(), line)

    # -- statements ----------------------------------------------------------------------
    def block(self) -> tuple:
        self.expect("{")
        self.enter()
        body = []
        self.terminators()
        while self.kind != "}":
            if self.kind == "EOF":
                raise self.error()
            body.append(self.statement())
            self.terminators()
        self.take()
        self.depth -= 1
        return ("block", body)

    def simple_end(self) -> None:
        if self.kind in (";", "NEWLINE"):
            self.take()
        elif self.kind not in ("}", "EOF"):
            raise self.error()

    def body(self) -> tuple:
        self.newlines()
        if self.kind == ";":
            self.take()
            return ("block", [])
        return self.statement()

    def statement(self) -> tuple:
        kind = self.kind
        if kind == "{":
            return self.block()
        self.enter()
        try:
            handler = getattr(self, "stmt_" + kind, None) if kind.isalpha() and kind.islower() else None
            if handler is not None:
                return handler()
            node = ("expr", self.checked(self.expr()))
            self.simple_end()
            return node
        finally:
            self.depth -= 1

    def stmt_if(self) -> tuple:
        self.take()
        self.expect("(")
        cond = self.checked(self.expr())
        self.expect(")")
        then = self.body()
        save = self.i
        self.terminators()
        if self.kind == "else":
            self.take()
            return ("if", cond, then, self.body())
        self.i = save
        return ("if", cond, then, None)

    def stmt_while(self) -> tuple:
        self.take()
        self.expect("(")
        cond = self.checked(self.expr())
        self.expect(")")
        if self.kind == ";":
            self.take()
            return ("while", cond, ("block", []))
        return ("while", cond, self.body())

    def stmt_do(self) -> tuple:
        self.take()
        body = self.body()
        self.terminators()
        self.expect("while")
        self.expect("(")
        cond = self.checked(self.expr())
        self.expect(")")
        self.simple_end()
        return ("do", body, cond)

    def stmt_for(self) -> tuple:
        self.take()
        self.expect("(")
        if self.kind == "NAME" and self.peek() == "in" and self.peek(2) == "NAME" and self.peek(3) == ")":
            var = self.take()[1]
            self.take()
            array = self.take()[1]
            self.take()
            return ("forin", var, array, self.body())
        init = self.simple_or_none(";")
        self.expect(";")
        self.newlines()
        cond = None if self.kind == ";" else self.checked(self.expr())
        self.expect(";")
        self.newlines()
        incr = self.simple_or_none(")")
        self.expect(")")
        if self.kind == ";":
            self.take()
            return ("for", init, cond, incr, ("block", []))
        return ("for", init, cond, incr, self.body())

    def simple_or_none(self, end: str) -> tuple | None:
        return None if self.kind == end else ("expr", self.checked(self.expr()))

    def stmt_next(self) -> tuple:
        self.take()
        self.simple_end()
        return ("next",)

    def stmt_nextfile(self) -> tuple:
        self.take()
        self.simple_end()
        return ("nextfile",)

    def stmt_break(self) -> tuple:
        self.take()
        self.simple_end()
        return ("break",)

    def stmt_continue(self) -> tuple:
        self.take()
        self.simple_end()
        return ("continue",)

    def stmt_exit(self) -> tuple:
        self.take()
        value = None if self.kind in (";", "NEWLINE", "}", "EOF") else self.checked(self.expr())
        self.simple_end()
        return ("exit", value)

    def stmt_return(self) -> tuple:
        self.take()
        value = None if self.kind in (";", "NEWLINE", "}", "EOF") else self.checked(self.expr())
        self.simple_end()
        return ("return", value)

    def stmt_delete(self) -> tuple:
        self.take()
        name = self.expect("NAME")[1]
        subs = None
        if self.kind == "[":
            self.take()
            subs = self.expr_list("]")
        self.simple_end()
        return ("delete", name, subs)

    def stmt_print(self) -> tuple:
        return self.print_statement("print")

    def stmt_printf(self) -> tuple:
        return self.print_statement("printf")

    def print_statement(self, kind: str) -> tuple:
        self.take()
        args: list = []
        saved = self.no_gt
        self.no_gt = True
        try:
            if self.kind not in (";", "NEWLINE", "}", ">", ">>", "|", "EOF"):
                args = [self.expr()]
                while self.kind == ",":
                    self.take()
                    self.newlines()
                    args.append(self.expr())
        finally:
            self.no_gt = saved
        if len(args) == 1 and args[0][0] == "grouplist":
            args = list(args[0][1])
        if kind == "printf" and not args:
            raise self.error("printf: no format")
        redirect, target = None, None
        if self.kind in (">", ">>", "|"):
            redirect = self.take()[0]
            saved = self.no_gt
            self.no_gt = True
            target = self.concat()
            self.no_gt = saved
        node = (kind, [self.checked(a) for a in args], redirect, target and self.checked(target))
        self.simple_end()
        return node

    # -- expressions ---------------------------------------------------------------------
    def expr_list(self, end: str) -> list:
        items = [self.expr()]
        while self.kind == ",":
            self.take()
            self.newlines()
            items.append(self.expr())
        self.expect(end)
        return items

    def expr(self) -> tuple:
        self.enter()
        try:
            return self.ternary()
        finally:
            self.depth -= 1

    def ternary(self) -> tuple:
        cond = self.logical_or()
        if self.kind == "?":
            self.take()
            self.newlines()
            a = self.expr()
            self.newlines()
            self.expect(":")
            self.newlines()
            b = self.expr()
            return ("cond", cond, a, b)
        if self.kind in _ASSIGN_OPS:
            if cond[0] not in _LVALUES:
                if self.kind == "/=" and cond[0] == "grouplist":
                    raise self.error()
                raise self.error()
            op = self.take()[0]
            self.newlines()
            return ("assign", op, cond, self.expr())
        return cond

    def logical_or(self) -> tuple:
        left = self.logical_and()
        while self.kind == "||":
            self.take()
            self.newlines()
            left = ("or", left, self.logical_and())
        return left

    def logical_and(self) -> tuple:
        left = self.in_expr()
        while self.kind == "&&":
            self.take()
            self.newlines()
            left = ("and", left, self.in_expr())
        return left

    def in_expr(self) -> tuple:
        left = self.match_expr()
        while self.kind == "in" and not self.no_in:
            self.take()
            name = self.expect("NAME")[1]
            keys = list(left[1]) if left[0] == "grouplist" else [left]
            left = ("in", keys, name)
        return left

    def match_expr(self) -> tuple:
        left = self.comparison()
        while self.kind in ("~", "!~") or (self.kind == "!" and self.peek() == "~"):
            negate = self.take()[0] == "!"
            if negate and self.kind == "~":
                self.take()
            left = ("match", negate, left, self.comparison())
        return left

    def comparison(self) -> tuple:
        left = self.pipe_getline()
        if self.kind in _COMPARE and not (self.no_gt and self.kind == ">"):
            op = self.take()[0]
            left = ("cmp", op, left, self.pipe_getline())
            if self.kind in _COMPARE and not (self.no_gt and self.kind == ">"):
                raise self.error()  # comparisons do not chain in awk's grammar
        return left

    def pipe_getline(self) -> tuple:
        left = self.concat()
        while self.kind == "|" and self.peek() == "getline":
            self.take()
            self.take()
            target = self.optional_lvalue()
            left = ("getline", "cmd", target, left)
        return left

    def concat(self) -> tuple:
        left = self.additive()
        while self.kind in _CONCAT_START and self.kind not in ("-", "+"):
            if self.kind == "!" and self.peek() == "~":
                break
            left = ("concat", left, self.additive())
        return left

    def additive(self) -> tuple:
        left = self.multiplicative()
        while self.kind in ("+", "-"):
            op = self.take()[0]
            left = ("binop", op, left, self.multiplicative())
        return left

    def multiplicative(self) -> tuple:
        left = self.unary()
        while self.kind in ("*", "/", "%"):
            op = self.take()[0]
            left = ("binop", op, left, self.unary())
        return left

    def unary(self) -> tuple:
        if self.kind in ("!", "-", "+"):
            op = self.take()[0]
            self.enter()
            try:
                return ("unary", op, self.unary())
            finally:
                self.depth -= 1
        return self.power()

    def power(self) -> tuple:
        base = self.postfix()
        if self.kind == "^":
            self.take()
            self.enter()
            try:
                exponent = self.unary_power()
            finally:
                self.depth -= 1
            return ("binop", "^", base, exponent)
        return base

    def unary_power(self) -> tuple:
        if self.kind in ("-", "+", "!"):
            op = self.take()[0]
            return ("unary", op, self.unary_power())
        return self.power()

    def postfix(self) -> tuple:
        if self.kind in ("++", "--"):
            op = self.take()[0]
            target = self.postfix()
            if target[0] not in _LVALUES:
                raise self.error()
            return ("preinc", op, target)
        node = self.primary()
        if node[0] in _LVALUES and self.kind in ("++", "--"):
            return ("postinc", self.take()[0], node)
        if node[0] in _LVALUES and self.kind in _ASSIGN_OPS:
            # The target binds tightly and the value loosely: `1 + x = 2` is 1 + (x = 2).
            op = self.take()[0]
            self.newlines()
            return ("assign", op, node, self.expr())
        return node

    def optional_lvalue(self) -> tuple | None:
        if self.kind == "$":
            self.take()
            return ("field", self.field_operand())
        if self.kind == "NAME":
            return self.variable(self.take()[1])
        return None

    def variable(self, name: str) -> tuple:
        if self.kind == "[":
            self.take()
            return ("index", name, self.expr_list("]"))
        return ("var", name)

    def field_operand(self) -> tuple:
        if self.kind in ("++", "--"):
            op = self.take()[0]
            target = self.postfix()
            if target[0] not in _LVALUES:
                raise self.error()
            return ("preinc", op, target)
        if self.kind in ("-", "+", "!"):
            op = self.take()[0]
            return ("unary", op, self.field_operand())
        return self.primary()

    def primary(self) -> tuple:
        kind, value, _ = self.tokens[self.i]
        if kind == "NUMBER":
            self.take()
            return ("num", value)
        if kind == "STRING":
            self.take()
            return ("str", value)
        if kind == "ERE":
            self.take()
            return ("re", value)
        if kind == "$":
            self.take()
            self.enter()
            try:
                return ("field", self.field_operand())
            finally:
                self.depth -= 1
        if kind == "NAME":
            self.take()
            return self.variable(value)
        if kind == "FUNC_NAME":
            self.take()
            self.expect("(")
            args = [] if self.kind == ")" else None
            if args is None:
                return ("call", value, self.call_args())
            self.take()
            return ("call", value, args)
        if kind == "BUILTIN":
            return self.builtin()
        if kind == "(":
            return self.group()
        if kind == "getline":
            self.take()
            target = self.optional_lvalue()
            if self.kind == "<":
                self.take()
                return ("getline", "file", target, self.getline_source())
            return ("getline", "simple", target, None)
        raise self.error()

    def getline_source(self) -> tuple:
        if self.kind == "$":
            self.take()
            return ("field", self.field_operand())
        if self.kind in ("++", "--"):
            return self.postfix()
        return self.primary()

    def call_args(self) -> list:
        saved = self.no_gt, self.no_in
        self.no_gt = self.no_in = False
        try:
            self.newlines()
            return self.expr_list(")")
        finally:
            self.no_gt, self.no_in = saved

    def group(self) -> tuple:
        self.take()
        saved = self.no_gt, self.no_in
        self.no_gt = self.no_in = False
        try:
            self.newlines()
            items = [self.expr()]
            self.newlines()
            while self.kind == ",":
                self.take()
                self.newlines()
                items.append(self.expr())
            self.expect(")")
        finally:
            self.no_gt, self.no_in = saved
        if len(items) > 1:
            if self.kind != "in" and not self.no_gt:
                raise self.error()
            return ("grouplist", items)
        return ("group", items[0])

    def builtin(self) -> tuple:
        name = self.take()[1]
        if self.kind != "(":
            if name == "length":
                return ("builtin", "length", [])
            raise self.error()
        self.take()
        if self.kind == ")":
            self.take()
            args: list = []
        else:
            args = self.call_args()
        return ("builtin", name, args)


def parse(text: str) -> Program:
    """The program tree of `text`; AwkSyntaxError when it does not parse."""
    return Parser(text).program()
