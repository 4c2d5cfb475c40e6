"""jq's tokens: characters -> a list of Token.

A string literal becomes one STRING token whose `value` is a list of parts: plain text, or
the source text of an interpolation `\\(...)`, which the parser parses on its own. Nesting of
interpolations is bounded, so a hostile filter cannot exhaust the stack.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

KEYWORDS = {"def", "if", "then", "elif", "else", "end", "as", "reduce", "foreach", "try", "catch",
            "label", "import", "include", "and", "or", "__loc__"}
MAX_STRING_NESTING = 32

_NUMBER = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_IDENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*(?:::[a-zA-Z_][a-zA-Z0-9_]*)*")
_SPACE = re.compile(r"(?:\s+|#[^\n]*)+")
# Longest operators first, so `//=` is not read as `//` then `=`.
_OPERATORS = ("?//", "//=", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "//", "..",
              "|", ",", "+", "-", "*", "/", "%", "=", "<", ">", "(", ")", "[", "]", "{", "}",
              ":", ";", "?", ".")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"'}


class JqSyntaxError(Exception):
    """A compile error: jq exits 3 for these."""


@dataclass
class Token:
    kind: str      # NUM STRING IDENT KEYWORD FIELD VAR FORMAT OP EOF
    value: Any
    pos: int


def tokenize(source: str, depth: int = 0) -> list[Token]:
    """All tokens of `source`, ending with an EOF token."""
    tokens: list[Token] = []
    index = 0
    while True:
        space = _SPACE.match(source, index)
        if space:
            index = space.end()
        if index >= len(source):
            tokens.append(Token("EOF", None, index))
            return tokens
        token, index = _next_token(source, index, depth)
        tokens.append(token)


def _next_token(source: str, index: int, depth: int) -> tuple[Token, int]:
    char = source[index]
    if char == '"':
        parts, end = scan_string(source, index, depth)
        return Token("STRING", parts, index), end
    number = _NUMBER.match(source, index)
    if number and (char != "." or number.end() > index + 1):
        return Token("NUM", float(number.group()), index), number.end()
    if char == "." and index + 1 < len(source) and source[index + 1] != ".":
        ident = _IDENT.match(source, index + 1)
        if ident:
            return Token("FIELD", ident.group(), index), ident.end()
    if char in "$@":
        ident = _IDENT.match(source, index + 1)
        if not ident:
            raise JqSyntaxError(f"syntax error, unexpected INVALID_CHARACTER at column {index + 1}")
        if char == "$" and ident.group() == "__loc__":
            return Token("LOC", float(source.count("\n", 0, index) + 1), index), ident.end()
        return Token("VAR" if char == "$" else "FORMAT", ident.group(), index), ident.end()
    ident = _IDENT.match(source, index)
    if ident:
        word = ident.group()
        return Token("KEYWORD" if word in KEYWORDS else "IDENT", word, index), ident.end()
    for operator in _OPERATORS:
        if source.startswith(operator, index):
            return Token("OP", operator, index), index + len(operator)
    raise JqSyntaxError(f"syntax error, unexpected INVALID_CHARACTER at column {index + 1}")


def scan_string(source: str, start: int, depth: int = 0) -> tuple[list, int]:
    """The parts of the string literal at `start` (a quote) and the index after it: text
    parts are str, interpolations are ("interp", source_text)."""
    if depth > MAX_STRING_NESTING:
        raise JqSyntaxError("string interpolations are nested too deeply")
    parts: list = []
    text: list[str] = []
    index = start + 1
    while index < len(source):
        char = source[index]
        if char == '"':
            if text or not parts:
                parts.append("".join(text))
            return parts, index + 1
        if char != "\\":
            text.append(char)
            index += 1
            continue
        escape = source[index + 1:index + 2]
        if escape in _ESCAPES:
            text.append(_ESCAPES[escape])
            index += 2
        elif escape == "u":
            char_text, index = _unicode_escape(source, index)
            text.append(char_text)
        elif escape == "(":
            end = _interpolation_end(source, index + 2, depth)
            if text:
                parts.append("".join(text))
                text = []
            parts.append(("interp", source[index + 2:end]))
            index = end + 1
        else:
            raise JqSyntaxError(f"invalid escape at column {index + 1}")
    raise JqSyntaxError("unterminated string literal")


def _unicode_escape(source: str, index: int) -> tuple[str, int]:
    """`\\uXXXX`, joining a surrogate pair; a lone surrogate becomes U+FFFD as in jq."""
    digits = source[index + 2:index + 6]
    if not re.fullmatch(r"[0-9a-fA-F]{4}", digits):
        raise JqSyntaxError(f"invalid \\u escape at column {index + 1}")
    code = int(digits, 16)
    index += 6
    if 0xD800 <= code < 0xDC00 and re.match(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}", source[index:index + 6]):
        low = int(source[index + 2:index + 6], 16)
        return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), index + 6
    if 0xD800 <= code < 0xE000:
        return "\ufffd", index
    return chr(code), index


def _interpolation_end(source: str, index: int, depth: int) -> int:
    """The index of the `)` closing an interpolation that starts at `index`."""
    level = 1
    while index < len(source):
        char = source[index]
        if char == '"':
            index = scan_string(source, index, depth + 1)[1]
            continue
        if char == "#":
            newline = source.find("\n", index)
            index = len(source) if newline < 0 else newline
            continue
        if char == "(":
            level += 1
        elif char == ")":
            level -= 1
            if level == 0:
                return index
        index += 1
    raise JqSyntaxError("unterminated string interpolation")
