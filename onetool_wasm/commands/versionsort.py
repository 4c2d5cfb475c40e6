"""Version order as GNU `sort -V` and `ls -v` define it (gnulib's filevercmp).

Digit runs compare as numbers (leading zeros ignored); between them, letters sort before
other bytes, `~` before everything (even the end); a trailing file suffix such as `.tar.gz`
is compared only when the rest ties. Equal versions (`1.02` and `1.2`) compare equal, so
GNU sort's last-resort byte comparison decides between them.
"""
from __future__ import annotations

from functools import total_ordering

_DIGITS = frozenset(b"0123456789")
_ALPHA = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_TILDE = ord("~")
_DOT = ord(".")


def _order(text: bytes, pos: int, length: int) -> int:
    """Weight of the byte at pos for the non-digit comparison."""
    if pos == length:
        return -1
    byte = text[pos]
    if byte in _DIGITS:
        return 0
    if byte in _ALPHA:
        return byte
    if byte == _TILDE:
        return -2
    return byte + 256


def _verrevcmp(a: bytes, a_len: int, b: bytes, b_len: int) -> int:
    """Debian's version comparison over a[:a_len] and b[:b_len]."""
    i = j = 0
    while i < a_len or j < b_len:
        while (i < a_len and a[i] not in _DIGITS) or (j < b_len and b[j] not in _DIGITS):
            diff = _order(a, i, a_len) - _order(b, j, b_len)
            if diff:
                return diff
            i += 1
            j += 1
        while i < a_len and a[i] == 0x30:
            i += 1
        while j < b_len and b[j] == 0x30:
            j += 1
        first_diff = 0
        while i < a_len and j < b_len and a[i] in _DIGITS and b[j] in _DIGITS:
            first_diff = first_diff or a[i] - b[j]
            i += 1
            j += 1
        if i < a_len and a[i] in _DIGITS:
            return 1
        if j < b_len and b[j] in _DIGITS:
            return -1
        if first_diff:
            return first_diff
    return 0


def _prefix_length(text: bytes) -> int:
    """Length of text without its longest suffix matching `(\\.[A-Za-z~][A-Za-z0-9~]*)*$`.

    As in coreutils 9.1 the suffix may be the whole text (`.gz` sorts as an empty version);
    later releases keep the first byte in the prefix.
    """
    length = len(text)
    prefix = i = 0
    while True:
        while i + 1 < length and text[i] == _DOT and (text[i + 1] in _ALPHA or text[i + 1] == _TILDE):
            i += 2
            while i < length and (text[i] in _ALPHA or text[i] in _DIGITS or text[i] == _TILDE):
                i += 1
        if i >= length:
            return prefix
        i += 1
        prefix = i


def filevercmp(a: bytes, b: bytes) -> int:
    """Negative, zero or positive as a sorts before, with, or after b."""
    if not a or not b:
        return (len(a) > 0) - (len(b) > 0)
    special = _dot_names(a, b)
    if special is not None:
        return special
    a_prefix, b_prefix = _prefix_length(a), _prefix_length(b)
    result = _verrevcmp(a, a_prefix, b, b_prefix)
    if result or (a_prefix == len(a) and b_prefix == len(b)):
        return result
    return _verrevcmp(a, len(a), b, len(b))


def _dot_names(a: bytes, b: bytes) -> int | None:
    """`.` first, then `..`, then other names starting with a dot, then the rest."""
    a_dot, b_dot = a[0] == _DOT, b[0] == _DOT
    if a_dot != b_dot:
        return -1 if a_dot else 1
    if not a_dot:
        return None
    for special in (b".", b".."):
        if a == special or b == special:
            return 0 if a == b else (-1 if a == special else 1)
    return None


@total_ordering
class VersionKey:
    """A sort key ordering bytes by filevercmp."""
    __slots__ = ("text",)

    def __init__(self, text: bytes) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VersionKey) and filevercmp(self.text, other.text) == 0

    def __lt__(self, other: "VersionKey") -> bool:
        return filevercmp(self.text, other.text) < 0

    def __hash__(self) -> int:
        raise TypeError("VersionKey is not hashable")
