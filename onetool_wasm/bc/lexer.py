"""bc's scanner: turns the program text (the files, then stdin, read as one stream) into
tokens on demand, with GNU bc's numbers (digits 0-9 and A-Z, `\\<newline>` continuations,
leading zeros and a trailing point dropped), names, strings, comments and operators.
Problems are reported through `report` exactly as GNU words them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

MAX_PROGRAM = 16 * 1024 * 1024

KEYWORDS = frozenset({
    "define", "break", "quit", "length", "return", "for", "if", "while", "sqrt", "scale",
    "ibase", "obase", "auto", "else", "read", "random", "halt", "last", "warranty",
    "continue", "print", "limits", "history", "void",
})
_DIGITS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyz")
_NAME_CHARS = _NAME_START | frozenset("0123456789_")


@dataclass(frozen=True)
class Token:
    kind: str      # NUMBER NAME STRING KEYWORD ASSIGN REL INCR AND OR NOT NL EOF, or the char itself
    value: str
    line: int      # the scanner's line count once this token is read (as yyerror sees it)


class Unavailable(Exception):
    """A FILE operand that cannot be read: GNU stops with "File X is unavailable."."""


class Lexer:
    def __init__(self, sources: list[tuple[str, str]], report: Callable[[str], None],
                 raw_report: Callable[[str], None]) -> None:
        self.sources = sources
        self.index = 0
        self.index = -1
        self.text = ""
        self.name = "(standard_in)"
        self.pos = 0
        self.line = 1
        self.report = report          # "<file> <line>: <message>"
        self.raw_report = raw_report  # a message as it is

    def where(self) -> str:
        return f"{self.name} {self.line}"

    def _next_source(self) -> bool:
        if self.index + 1 >= len(self.sources):
            return False
        self.index += 1
        self.name, self.text = self.sources[self.index]
        if self.text is None:
            raise Unavailable(self.name)
        self.pos = 0
        self.line = 1
        return True

    def next(self) -> Token:
        while True:
            if self.pos >= len(self.text):
                if self._next_source():
                    continue
                return Token("EOF", "", self.line)
            token = self._scan()
            if token is not None:
                return token

    def _scan(self) -> Token | None:  # noqa: C901 - one branch a token kind
        text, pos = self.text, self.pos
        ch = text[pos]
        if ch in " \t":
            self.pos += 1
            return None
        if ch == "\n":
            self.pos += 1
            self.line += 1
            return Token("NL", "\n", self.line)
        if ch == "\\" and text.startswith("\\\n", pos):
            self.pos += 2
            self.line += 1
            return None
        if ch == "#":
            end = text.find("\n", pos)
            self.pos = len(text) if end < 0 else end
            return None
        if text.startswith("/*", pos):
            end = text.find("*/", pos + 2)
            if end < 0:
                self.pos = len(text)
                self.raw_report("EOF encountered in a comment.")
                return None
            self.line += text.count("\n", pos, end)
            self.pos = end + 2
            return None
        if ch in _DIGITS or (ch == "." and pos + 1 < len(text) and text[pos + 1] in _DIGITS):
            return self._number()
        if ch in _NAME_START:
            end = pos + 1
            while end < len(text) and text[end] in _NAME_CHARS:
                end += 1
            word = text[pos:end]
            self.pos = end
            if word in KEYWORDS:
                return Token("KEYWORD", word, self.line)
            return Token("NAME", word, self.line)
        if ch == '"':
            end = text.find('"', pos + 1)
            if end < 0:
                self.pos += 1
                self.report(f"{self.where()}: illegal character: \"")
                return None
            body = text[pos + 1:end]
            self.line += body.count("\n")
            self.pos = end + 1
            return Token("STRING", body, self.line)
        two = text[pos:pos + 2]
        if two in ("==", "<=", ">=", "!="):
            self.pos += 2
            return Token("REL", two, self.line)
        if two in ("+=", "-=", "*=", "/=", "%=", "^="):
            self.pos += 2
            return Token("ASSIGN", two[0], self.line)
        if two in ("++", "--"):
            self.pos += 2
            return Token("INCR", two[0], self.line)
        if two == "&&":
            self.pos += 2
            return Token("AND", two, self.line)
        if two == "||":
            self.pos += 2
            return Token("OR", two, self.line)
        self.pos += 1
        if ch == "=":
            return Token("ASSIGN", "=", self.line)
        if ch in "<>":
            return Token("REL", ch, self.line)
        if ch == "!":
            return Token("NOT", ch, self.line)
        if ch == ".":
            return Token("KEYWORD", "last", self.line)
        if ch in "+-*/%^()[]{},;":
            return Token(ch, ch, self.line)
        self.report(f"{self.where()}: illegal character: {_shown(ch)}")
        return None

    def _number(self) -> Token:
        text, pos = self.text, self.pos
        chars = []
        seen_point = False
        while pos < len(text):
            ch = text[pos]
            if ch in _DIGITS:
                chars.append(ch)
                pos += 1
            elif ch == "\\" and text.startswith("\\\n", pos):
                self.line += 1
                pos += 2
            elif ch == "." and not seen_point:
                seen_point = True
                chars.append(ch)
                pos += 1
            else:
                break
        self.pos = pos
        literal = "".join(chars)
        if literal.endswith("."):
            literal = literal[:-1]
        stripped = literal.lstrip("0")
        if not stripped or stripped.startswith(".") and not stripped[1:]:
            stripped = "0"
        return Token("NUMBER", stripped, self.line)


def _shown(ch: str) -> str:
    code = ord(ch)
    if code < 32:
        return "^" + chr(code + 64)
    if code >= 127:
        return "\\%03o" % (code & 0xFF)
    return ch
