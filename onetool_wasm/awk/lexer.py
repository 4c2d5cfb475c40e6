"""awk program text -> tokens.

A token is (kind, value, line). Kinds: NUMBER (float value), STRING (escapes done), ERE
(regex source, `\\/` made `/`), FUNC_NAME (a name right before `(`), NAME, BUILTIN, a
keyword, NEWLINE, an operator, EOF. Whether `/` opens a regex or divides depends on the
token before it, as in every awk.
"""
from __future__ import annotations

KEYWORDS = frozenset({"BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break",
                      "continue", "next", "nextfile", "exit", "return", "delete", "getline", "in",
                      "print", "printf"})
BUILTINS = frozenset({"length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "tolower",
                      "toupper", "int", "sqrt", "exp", "log", "sin", "cos", "atan2", "rand", "srand",
                      "system", "close", "fflush"})
# Longest first, so `**=` wins over `**` over `*`.
OPERATORS = ("&&", "||", "==", "<=", ">=", "!=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=",
             ">>", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!", ">",
             "<", "|", "?", ":", "~", "$", "=")
# After these a `/` divides; anywhere else it starts a regex.
_OPERAND_END = frozenset({"NAME", "NUMBER", "STRING", "ERE", "BUILTIN", ")", "]", "$", "++", "--"})
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}
MAX_PROGRAM = 1 << 20
_DIGITS = frozenset("0123456789")
_WORD_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_WORD = _WORD_START | _DIGITS


class AwkSyntaxError(Exception):
    """A program that does not parse; the message is one line for the user."""


def unescape(text: str, warnings: list[str] | None = None) -> str:
    """awk's string escapes (also used for -v values and operand assignments)."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = text[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif e in "01234567":
            j = i + 1
            while j < n and j < i + 4 and text[j] in "01234567":
                j += 1
            out.append(chr(int(text[i + 1:j], 8) & 255))
            i = j
        else:
            if warnings is not None:
                warnings.append(f"awk: warning: escape sequence `\\{e}' treated as plain `{e}'")
            out.append(e)
            i += 2
    return "".join(out)


class Lexer:
    def __init__(self, text: str) -> None:
        if len(text) > MAX_PROGRAM:
            raise AwkSyntaxError(f"awk: program is longer than {MAX_PROGRAM} bytes")
        self.text = text
        self.pos = 0
        self.line = 1
        self.warnings: list[str] = []
        self.tokens: list[tuple[str, object, int]] = []

    def error(self, message: str) -> AwkSyntaxError:
        return AwkSyntaxError(f"awk: cmd. line:{self.line}: {message}")

    def run(self) -> list[tuple[str, object, int]]:
        text, n = self.text, len(self.text)
        while True:
            while self.pos < n and text[self.pos] in " \t\r":
                self.pos += 1
            if self.pos >= n:
                break
            c = text[self.pos]
            if c == "\\" and text.startswith("\n", self.pos + 1):
                self.pos += 2
                self.line += 1
            elif c == "\\" and text.startswith("\r\n", self.pos + 1):
                self.pos += 3
                self.line += 1
            elif c == "#":
                while self.pos < n and text[self.pos] != "\n":
                    self.pos += 1
            elif c == "\n":
                self.add("NEWLINE", None)
                self.pos += 1
                self.line += 1
            elif c == '"':
                self.string()
            elif c == "/" and self.regex_allowed():
                self.regex()
            elif c in _DIGITS or (c == "." and self.pos + 1 < n and text[self.pos + 1] in _DIGITS):
                self.number()
            elif c in _WORD_START:
                self.word()
            else:
                self.operator()
        self.add("EOF", None)
        return self.tokens

    def add(self, kind: str, value: object) -> None:
        self.tokens.append((kind, value, self.line))

    def regex_allowed(self) -> bool:
        return not self.tokens or self.tokens[-1][0] not in _OPERAND_END

    def string(self) -> None:
        text, n = self.text, len(self.text)
        i = self.pos + 1
        start = i
        while i < n and text[i] != '"':
            if text[i] == "\n":
                raise self.error("unterminated string")
            if text[i] == "\\" and i + 1 < n:
                if text[i + 1] == "\n":
                    self.line += 1
                i += 2
            else:
                i += 1
        if i >= n:
            raise self.error("unterminated string")
        raw = text[start:i].replace("\\\n", "")
        self.add("STRING", unescape(raw, self.warnings))
        self.pos = i + 1

    def regex(self) -> None:
        text, n = self.text, len(self.text)
        i = self.pos + 1
        out: list[str] = []
        in_bracket = False
        while True:
            if i >= n or text[i] == "\n":
                raise self.error("unterminated regexp")
            c = text[i]
            if c == "\\" and i + 1 < n:
                if text[i + 1] == "/":
                    out.append("/")
                elif text[i + 1] == "\n":
                    pass
                else:
                    out.append(text[i:i + 2])
                i += 2
                continue
            if in_bracket:
                if c == "]":
                    in_bracket = False
                elif c == "[" and i + 1 < n and text[i + 1] in ":.=":
                    close = text.find(text[i + 1] + "]", i + 2)
                    if close > 0:
                        out.append(text[i:close + 2])
                        i = close + 2
                        continue
            elif c == "[":
                in_bracket = True
                out.append(c)
                i += 1
                if i < n and text[i] == "^":
                    out.append("^")
                    i += 1
                if i < n and text[i] == "]":
                    out.append("]")
                    i += 1
                continue
            elif c == "/":
                break
            out.append(c)
            i += 1
        self.add("ERE", "".join(out))
        self.pos = i + 1

    def number(self) -> None:
        text, n = self.text, len(self.text)
        i = self.pos
        while i < n and text[i] in _DIGITS:
            i += 1
        if i < n and text[i] == ".":
            i += 1
            while i < n and text[i] in _DIGITS:
                i += 1
        if i < n and text[i] in "eE":
            j = i + 1
            if j < n and text[j] in "+-":
                j += 1
            if j < n and text[j] in _DIGITS:
                while j < n and text[j] in _DIGITS:
                    j += 1
                i = j
        self.add("NUMBER", float(text[self.pos:i]))
        self.pos = i

    def word(self) -> None:
        text, n = self.text, len(self.text)
        i = self.pos
        while i < n and text[i] in _WORD:
            i += 1
        name = text[self.pos:i]
        self.pos = i
        if name in KEYWORDS:
            self.add("func" if name == "function" else name, name)
        elif name in BUILTINS:
            self.add("BUILTIN", name)
        elif i < n and text[i] == "(":
            self.add("FUNC_NAME", name)
        else:
            self.add("NAME", name)

    def operator(self) -> None:
        for op in OPERATORS:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                self.add(op, op)
                return
        c = self.text[self.pos]
        shown = c if c.isascii() and c.isprintable() else f"\\x{ord(c):02x}"
        raise self.error(f"invalid char '{shown}' in expression")


def tokenize(text: str) -> tuple[list[tuple[str, object, int]], list[str]]:
    """The tokens of a program and the warnings its string escapes raised."""
    lexer = Lexer(text)
    return lexer.run(), lexer.warnings
