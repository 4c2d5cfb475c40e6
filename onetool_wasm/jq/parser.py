"""jq's grammar: tokens -> an AST of tuples, with jq 1.6's precedences.

Nodes are tuples whose first item names them: ("id",), ("rec",), ("lit", value),
("str", parts, format), ("format", name), ("index", term, key), ("slice", term, lo, hi),
("iter", term), ("try", body, handler), ("pipe", a, b), ("comma", a, b), ("neg", a),
("binop", op, a, b), ("and", a, b), ("or", a, b), ("alt", a, b), ("update", op, lhs, rhs),
("array", body), ("object", entries), ("var", name), ("call", name, args),
("if", branches, otherwise), ("reduce", source, pattern, init, update),
("foreach", source, pattern, init, update, extract), ("bind", source, pattern, body),
("def", name, params, body, rest), ("label", name, body), ("break", name).
Nesting is bounded (MAX_DEPTH) because the parser recurses.
"""
from __future__ import annotations

from typing import Any

from .lexer import JqSyntaxError, Token, tokenize

MAX_DEPTH = 100
_CONSTANTS = {"null": None, "true": True, "false": False}
# Binary operators: precedence (higher binds tighter) and associativity.
_BINARY = {"|": (1, "right"), ",": (2, "left"), "//": (3, "right"),
           "=": (4, "none"), "|=": (4, "none"), "+=": (4, "none"), "-=": (4, "none"),
           "*=": (4, "none"), "/=": (4, "none"), "%=": (4, "none"), "//=": (4, "none"),
           "or": (5, "left"), "and": (6, "left"),
           "==": (7, "none"), "!=": (7, "none"), "<": (7, "none"), ">": (7, "none"),
           "<=": (7, "none"), ">=": (7, "none"),
           "+": (8, "left"), "-": (8, "left"), "*": (9, "left"), "/": (9, "left"), "%": (9, "left")}


def parse(source: str) -> tuple:
    """The AST of a whole jq program; JqSyntaxError says what is wrong."""
    return Parser(source).parse_program()


class Parser:
    def __init__(self, source: str, depth: int = 0) -> None:
        self.tokens = tokenize(source, depth)
        self.at = 0
        self.depth = depth

    # -- tokens
    def peek(self, offset: int = 0) -> Token:
        return self.tokens[min(self.at + offset, len(self.tokens) - 1)]

    def take(self) -> Token:
        token = self.peek()
        self.at += 1
        return token

    def is_op(self, value: str, offset: int = 0) -> bool:
        token = self.peek(offset)
        return token.kind == "OP" and token.value == value

    def is_keyword(self, value: str) -> bool:
        token = self.peek()
        return token.kind == "KEYWORD" and token.value == value

    def expect(self, value: str) -> None:
        token = self.take()
        if token.value != value or token.kind not in ("OP", "KEYWORD"):
            self.unexpected(token, f"expecting '{value}'")

    def unexpected(self, token: Token, hint: str = "") -> None:
        shown = "end of file" if token.kind == "EOF" else repr(str(token.value) if token.kind != "STRING"
                                                                 else "string")
        raise JqSyntaxError(f"syntax error, unexpected {shown}{', ' + hint if hint else ''} "
                            f"(Unix shell quoting issues?) at <top-level>, column {token.pos + 1}")

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise JqSyntaxError(f"the filter nests more than {MAX_DEPTH} levels deep; simplify it")

    # -- expressions
    def parse_program(self) -> tuple:
        if self.peek().kind == "EOF":
            return ("id",)
        node = self.parse_pipe()
        if self.peek().kind != "EOF":
            self.unexpected(self.peek())
        return node

    def parse_pipe(self) -> tuple:
        self.enter()
        try:
            return self.parse_binary(1)
        finally:
            self.depth -= 1

    def binary_operator(self) -> str | None:
        token = self.peek()
        if token.kind == "OP" and token.value in _BINARY:
            return token.value
        if token.kind == "KEYWORD" and token.value in ("and", "or"):
            return token.value
        return None

    def parse_binary(self, minimum: int) -> tuple:
        left = self.parse_unary()
        while True:
            operator = self.binary_operator()
            if operator is None:
                return left
            precedence, assoc = _BINARY[operator]
            if precedence < minimum:
                return left
            self.take()
            right = self.parse_binary(precedence if assoc == "right" else precedence + 1)
            left = _combine(operator, left, right)
            if assoc == "none" and self.binary_operator() in _same_level(precedence):
                self.unexpected(self.peek())

    def parse_unary(self) -> tuple:
        token = self.peek()
        if token.kind == "KEYWORD" and token.value == "def":
            name, params, body = self.parse_def()
            return ("def", name, params, body, self.parse_pipe())
        if self.is_op("-"):
            self.take()
            return ("neg", self.parse_postfix())
        return self.parse_postfix()

    def parse_def(self) -> tuple[str, list[str], tuple]:
        self.expect("def")
        token = self.take()
        if token.kind not in ("IDENT", "KEYWORD"):
            self.unexpected(token, "expecting IDENT")
        params: list[str] = []
        if self.is_op("("):
            self.take()
            while True:
                param = self.take()
                if param.kind == "VAR":
                    params.append("$" + param.value)
                elif param.kind == "IDENT":
                    params.append(param.value)
                else:
                    self.unexpected(param, "expecting IDENT or '$'")
                if self.is_op(";"):
                    self.take()
                    continue
                self.expect(")")
                break
        self.expect(":")
        body = self.parse_pipe()
        self.expect(";")
        return token.value, params, body

    def parse_postfix(self, allow_as: bool = True) -> tuple:
        term = self.parse_primary()
        while True:
            token = self.peek()
            if token.kind == "FIELD":
                self.take()
                term = ("index", term, ("lit", token.value))
            elif self.is_op(".") and self.peek(1).kind == "STRING":
                self.take()
                term = ("index", term, self.parse_string_token(self.take(), None))
            elif self.is_op("."):
                self.take()
                self.unexpected(self.peek(), "expecting FORMAT or QQSTRING_START")
            elif self.is_op("["):
                term = self.parse_brackets(term)
            elif self.is_op("?"):
                self.take()
                term = ("try", term, None)
            elif allow_as and self.is_keyword("as"):
                self.take()
                pattern = self.parse_pattern()
                self.expect("|")
                return ("bind", term, pattern, self.parse_pipe())
            else:
                return term

    def parse_brackets(self, term: tuple) -> tuple:
        self.expect("[")
        if self.is_op("]"):
            self.take()
            return ("iter", term)
        if self.is_op(":"):
            self.take()
            high = self.parse_pipe()
            self.expect("]")
            return ("slice", term, None, high)
        key = self.parse_pipe()
        if self.is_op(":"):
            self.take()
            if self.is_op("]"):
                self.take()
                return ("slice", term, key, None)
            high = self.parse_pipe()
            self.expect("]")
            return ("slice", term, key, high)
        self.expect("]")
        return ("index", term, key)

    def parse_primary(self) -> tuple:
        self.enter()
        try:
            return self._primary(self.take())
        finally:
            self.depth -= 1

    def _primary(self, token: Token) -> tuple:
        kind, value = token.kind, token.value
        if kind == "NUM":
            return ("lit", value)
        if kind == "STRING":
            return self.parse_string_token(token, None)
        if kind == "FORMAT":
            if self.peek().kind == "STRING":
                return self.parse_string_token(self.take(), value)
            return ("format", value)
        if kind == "FIELD":
            return ("index", ("id",), ("lit", value))
        if kind == "VAR":
            return ("var", value)
        if kind == "LOC":
            return ("lit", {"file": "<top-level>", "line": value})
        if kind == "IDENT":
            return self.parse_call(token)
        if kind == "KEYWORD":
            return self.parse_keyword(token)
        if kind == "OP":
            return self.parse_op_primary(token)
        self.unexpected(token)
        raise AssertionError  # unreachable: unexpected() raises

    def parse_op_primary(self, token: Token) -> tuple:
        value = token.value
        if value == ".":
            if self.peek().kind == "STRING":
                return ("index", ("id",), self.parse_string_token(self.take(), None))
            return ("id",)
        if value == "..":
            return ("rec",)
        if value == "(":
            body = self.parse_pipe()
            self.expect(")")
            return body
        if value == "[":
            if self.is_op("]"):
                self.take()
                return ("array", None)
            body = self.parse_pipe()
            self.expect("]")
            return ("array", body)
        if value == "{":
            return self.parse_object()
        self.unexpected(token)
        raise AssertionError

    def parse_call(self, token: Token) -> tuple:
        name = token.value
        if name == "break" and self.peek().kind == "VAR":
            return ("break", self.take().value)
        if name in _CONSTANTS and not self.is_op("("):
            return ("lit", _CONSTANTS[name])
        args: list[tuple] = []
        if self.is_op("("):
            self.take()
            while True:
                args.append(self.parse_pipe())
                if self.is_op(";"):
                    self.take()
                    continue
                self.expect(")")
                break
        return ("call", name, tuple(args))

    def parse_keyword(self, token: Token) -> tuple:
        value = token.value
        if value == "if":
            return self.parse_if()
        if value == "try":
            body = self.parse_postfix_body()
            handler = None
            if self.is_keyword("catch"):
                self.take()
                handler = self.parse_postfix_body()
            return ("try", body, handler)
        if value in ("reduce", "foreach"):
            return self.parse_fold(value)
        if value == "label":
            name = self.take()
            if name.kind != "VAR":
                self.unexpected(name, "expecting '$'")
            self.expect("|")
            return ("label", name.value, self.parse_pipe())
        if value == "def":
            self.at -= 1
            name, params, body = self.parse_def()
            return ("def", name, params, body, self.parse_pipe())
        self.unexpected(token)
        raise AssertionError

    def parse_postfix_body(self) -> tuple:
        if self.is_op("-"):
            self.take()
            return ("neg", self.parse_postfix())
        return self.parse_postfix()

    def parse_if(self) -> tuple:
        branches = []
        while True:
            condition = self.parse_pipe()
            self.expect("then")
            branches.append((condition, self.parse_pipe()))
            if self.is_keyword("elif"):
                self.take()
                continue
            self.expect("else")
            otherwise = self.parse_pipe()
            self.expect("end")
            return ("if", tuple(branches), otherwise)

    def parse_fold(self, kind: str) -> tuple:
        source = self.parse_postfix(allow_as=False)
        self.expect("as")
        pattern = self.parse_pattern()
        self.expect("(")
        init = self.parse_pipe()
        self.expect(";")
        update = self.parse_pipe()
        if kind == "reduce":
            self.expect(")")
            return ("reduce", source, pattern, init, update)
        extract = None
        if self.is_op(";"):
            self.take()
            extract = self.parse_pipe()
        self.expect(")")
        return ("foreach", source, pattern, init, update, extract)

    # -- patterns: ("pvar", name) | ("parray", [patterns]) | ("pobject", [(key_node, var, pattern)])
    def parse_pattern(self) -> tuple:
        self.enter()
        try:
            token = self.take()
            if token.kind == "VAR":
                return ("pvar", token.value)
            if token.kind == "OP" and token.value == "[":
                items = [self.parse_pattern()]
                while self.is_op(","):
                    self.take()
                    items.append(self.parse_pattern())
                self.expect("]")
                return ("parray", tuple(items))
            if token.kind == "OP" and token.value == "{":
                return self.parse_object_pattern()
            self.unexpected(token, "expecting '$' or '[' or '{'")
            raise AssertionError
        finally:
            self.depth -= 1

    def parse_object_pattern(self) -> tuple:
        entries = []
        while True:
            token = self.take()
            if token.kind == "VAR":
                pattern = None
                if self.is_op(":"):
                    self.take()
                    pattern = self.parse_pattern()
                entries.append((("lit", token.value), token.value, pattern))
            else:
                key = self.object_key(token)
                self.expect(":")
                entries.append((key, None, self.parse_pattern()))
            if self.is_op(","):
                self.take()
                continue
            self.expect("}")
            return ("pobject", tuple(entries))

    def object_key(self, token: Token) -> tuple:
        if token.kind in ("IDENT", "KEYWORD"):
            return ("lit", token.value)
        if token.kind == "STRING":
            return self.parse_string_token(token, None)
        if token.kind == "FORMAT" and self.peek().kind == "STRING":
            return self.parse_string_token(self.take(), token.value)
        if token.kind == "OP" and token.value == "(":
            key = self.parse_pipe()
            self.expect(")")
            return key
        self.unexpected(token)
        raise AssertionError

    # -- construction
    def parse_object(self) -> tuple:
        entries: list[tuple] = []
        if self.is_op("}"):
            self.take()
            return ("object", ())
        while True:
            entries.append(self.parse_object_entry(self.take()))
            if self.is_op(","):
                self.take()
                continue
            self.expect("}")
            return ("object", tuple(entries))

    def parse_object_entry(self, token: Token) -> tuple:
        if token.kind == "VAR":
            if token.value == "__loc__":
                self.unexpected(token)
            return (("lit", token.value), ("var", token.value))
        key = self.object_key(token)
        if self.is_op(":"):
            self.take()
            return (key, self.parse_object_value())
        if token.kind in ("IDENT", "KEYWORD", "STRING") or token.kind == "FORMAT":
            return (key, ("index", ("id",), key))
        self.unexpected(self.peek(), "expecting ':'")
        raise AssertionError

    def parse_object_value(self) -> tuple:
        """ObjVal in jq 1.6: terms joined by `|`, an optional leading `-`; no `,` or `+`."""
        self.enter()
        try:
            left = self.parse_postfix_body()
            if self.is_op("|"):
                self.take()
                return ("pipe", left, self.parse_object_value())
            return left
        finally:
            self.depth -= 1

    def parse_string_token(self, token: Token, fmt: str | None) -> tuple:
        parts: list[Any] = []
        for part in token.value:
            if isinstance(part, str):
                parts.append(part)
            else:
                sub = Parser(part[1], self.depth + 1)
                parts.append(sub.parse_program())
        if fmt is None and len(parts) == 1 and isinstance(parts[0], str):
            return ("lit", parts[0])
        return ("str", tuple(parts), fmt)


def _combine(operator: str, left: tuple, right: tuple) -> tuple:
    if operator == "|":
        return ("pipe", left, right)
    if operator == ",":
        return ("comma", left, right)
    if operator == "//":
        return ("alt", left, right)
    if operator == "/" and left[0] == right[0] == "lit" and right[1] == 0 and isinstance(left[1], float):
        raise JqSyntaxError("Division by zero?")
    if operator in ("and", "or"):
        return (operator, left, right)
    if operator.endswith("=") and operator not in ("==", "!=", "<=", ">="):
        return ("update", operator, left, right)
    return ("binop", operator, left, right)


def _same_level(precedence: int) -> set[str]:
    return {op for op, (level, _) in _BINARY.items() if level == precedence}
