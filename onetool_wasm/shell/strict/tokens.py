"""Command line -> tokens: words (quotes and escapes resolved) and operators.

A word remembers nothing of its quoting, so the tokenizer decides here what is an
operator: only an unquoted, unescaped `|`, `||`, `&&` or `;` is one (docs/DIFFERENCES.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import errors
from .errors import ParseError

WORD = "word"
OP = "op"

NEWLINE = "\n"
# JavaScript's `\s` minus the newline, so blanks split words exactly as upstream does.
BLANKS = frozenset("\t\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | frozenset(
    chr(code) for code in range(0x2000, 0x200B)
)
# After a backslash inside double quotes, only these lose the backslash (POSIX).
DOUBLE_QUOTE_ESCAPABLE = frozenset('"\\$`')
# What a POSIX shell would expand after `$`: a name, a digit, a special parameter, `${...}`.
VARIABLE_REFERENCE = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-]|\{[^}]*\}?)")


@dataclass(frozen=True)
class Token:
    kind: str  # WORD or OP
    value: str


def tokenize(line: str) -> list[Token]:
    """Split a command line into tokens; raise ParseError for what the shell refuses."""
    tokens = _Scanner(line).scan()
    if not tokens:
        raise ParseError(errors.EMPTY_COMMAND, errors.TOKENIZE)
    return tokens


def _refuse(message: str) -> ParseError:
    return ParseError(message, errors.TOKENIZE)


class _Scanner:
    """One pass over the line; `word` is None between words, so `""` still makes a word."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.pos = 0
        self.tokens: list[Token] = []
        self.word: list[str] | None = None

    def scan(self) -> list[Token]:
        while self.pos < len(self.line):
            self._step(self.line[self.pos])
        self._end_word()
        return self.tokens

    def _step(self, char: str) -> None:
        match char:
            case "'":
                self._single_quoted()
            case '"':
                self._double_quoted()
            case "\\":
                self._escape()
            case "$":
                self._dollar()
            case "`":
                raise _refuse(errors.COMMAND_SUBSTITUTION)
            case ">" | "<":
                raise _refuse(errors.redirection_operator(char))
            case "&":
                self._ampersand()
            case "|":
                self._operator("||" if self._peek() == "|" else "|")
            case ";":
                self._operator(";")
            case "\n":
                self._newline()
            case _ if char in BLANKS:
                self._end_word()
                self.pos += 1
            case _:
                self._append(char)
                self.pos += 1

    # -- words ---------------------------------------------------------------------------

    def _peek(self) -> str:
        """The character after the current one, or "" at the end of the line."""
        return self.line[self.pos + 1 : self.pos + 2]

    def _append(self, text: str) -> None:
        if self.word is None:
            self.word = []
        self.word.append(text)

    def _end_word(self) -> None:
        if self.word is not None:
            self.tokens.append(Token(WORD, "".join(self.word)))
            self.word = None

    def _single_quoted(self) -> None:
        end = self.line.find("'", self.pos + 1)
        if end == -1:
            raise _refuse(errors.unterminated_quote("'"))
        self._append(self.line[self.pos + 1 : end])
        self.pos = end + 1

    def _double_quoted(self) -> None:
        self._append("")
        self.pos += 1
        while self.pos < len(self.line):
            char = self.line[self.pos]
            if char == '"':
                self.pos += 1
                return
            if char == "\\":
                self._escape_in_double_quotes()
            elif char == "$":
                self._dollar()
            elif char == "`":
                raise _refuse(errors.COMMAND_SUBSTITUTION)
            else:
                self._append(char)
                self.pos += 1
        raise _refuse(errors.unterminated_quote('"'))

    def _escape(self) -> None:
        escaped = self._peek()
        if escaped == "":
            raise _refuse(errors.DANGLING_ESCAPE)
        if escaped != NEWLINE:  # backslash-newline continues the line (POSIX)
            self._append(escaped)
        self.pos += 2

    def _escape_in_double_quotes(self) -> None:
        escaped = self._peek()
        if escaped in DOUBLE_QUOTE_ESCAPABLE:
            self._append(escaped)
            self.pos += 2
        elif escaped == NEWLINE:
            self.pos += 2
        else:  # `\n` stays `\n`, for echo -e, sed and grep to read (docs/DIFFERENCES.md)
            self._append("\\")
            self.pos += 1

    def _dollar(self) -> None:
        """`$(` is substitution and `$NAME` a variable; any other `$` is a plain character."""
        if self._peek() == "(":
            raise _refuse(errors.COMMAND_SUBSTITUTION)
        reference = VARIABLE_REFERENCE.match(self.line, self.pos)
        if reference:
            raise _refuse(errors.variable_expansion(reference.group()))
        self._append("$")
        self.pos += 1

    # -- operators -----------------------------------------------------------------------

    def _operator(self, value: str) -> None:
        self._end_word()
        self.tokens.append(Token(OP, value))
        self.pos += len(value)

    def _ampersand(self) -> None:
        if self._peek() != "&":
            raise _refuse(errors.BACKGROUND_OPERATOR)
        self._operator("&&")

    def _newline(self) -> None:
        """A newline ends a command like `;`, except after an operator or another newline."""
        self._end_word()
        if self.tokens and self.tokens[-1].kind == WORD:
            self.tokens.append(Token(OP, ";"))
        self.pos += 1
