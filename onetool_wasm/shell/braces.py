"""Bash brace sequences: the words of `{1..5}`, `{01..10..3}`, `{a..e}`, `{z..a..5}`.

(`{a,b}` lists are not here: the parser already splits them into alternatives.)
"""
from __future__ import annotations

import re

from .state import ShellError

__all__ = ["MAX_WORDS", "brace_sequence"]

MAX_WORDS = 100_000
_INTEGER = re.compile(r"[+-]?[0-9]+")
_PADDED = re.compile(r"-?0[0-9]")      # `01`, `-05`: pad every word to the widest end
_LARGEST = (1 << 63) - 1


def brace_sequence(start: str, end: str, step: str | None) -> list[str] | None:
    """The words of `{start..end..step}`, or None when bash leaves the text as it is.

    Both ends are integers or both single ASCII letters; the step is an integer whose sign
    is ignored (the direction comes from the ends) and 0 counts as 1.
    """
    increment = 1
    if step is not None:
        if not _INTEGER.fullmatch(step) or abs(int(step)) > _LARGEST:
            return None
        increment = abs(int(step)) or 1
    if _INTEGER.fullmatch(start) and _INTEGER.fullmatch(end):
        first, last = int(start), int(end)
        if not (-_LARGEST - 1 <= first <= _LARGEST and -_LARGEST - 1 <= last <= _LARGEST):
            return None
        numbers = _numbers(first, last, increment)
        if _PADDED.match(start) or _PADDED.match(end):
            width = max(len(start), len(end))
            return [f"{number:0{width}d}" for number in numbers]
        return [str(number) for number in numbers]
    if _is_letter(start) and _is_letter(end):
        return [chr(code) for code in _numbers(ord(start), ord(end), increment)]
    return None


def _is_letter(text: str) -> bool:
    return len(text) == 1 and text.isascii() and text.isalpha()


def _numbers(first: int, last: int, increment: int) -> range:
    if abs(last - first) // increment >= MAX_WORDS:   # counted first: len() of a huge range overflows
        raise ShellError(f"brace expansion too large: more than {MAX_WORDS} words")
    if first <= last:
        return range(first, last + 1, increment)
    return range(first, last - 1, -increment)
