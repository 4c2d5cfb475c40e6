"""How bash writes a value back as shell text: `declare -p` and `set` ("..."), `${x@Q}` and
`set -x` ('...'), and `$'...'` for text holding control characters (both forms switch to it).
"""
from __future__ import annotations

import re

_ANSI_C = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
           "\r": "\\r", "\x1b": "\\E", "'": "\\'", "\\": "\\\\"}
# Words `set -x` shows without quotes.
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./=:,@%+^-]+")


def _has_control(text: str) -> bool:
    """Control characters, and (as in the C locale, where every byte above 0x7f is one that
    does not print) anything beyond ASCII."""
    return any(ord(char) < 0x20 or ord(char) >= 0x7f for char in text)


def ansi_c_quoted(text: str) -> str:
    """`$'...'` with bash's escapes (`\\t`, `\\E`, `\\001`, `\\303\\251` for the bytes of é)."""
    out = []
    for char in text:
        if char in _ANSI_C:
            out.append(_ANSI_C[char])
        elif ord(char) < 0x20 or ord(char) >= 0x7f:
            out.extend(f"\\{byte:03o}" for byte in char.encode("utf-8", "surrogateescape"))
        else:
            out.append(char)
    return "$'" + "".join(out) + "'"


def double_quoted(text: str) -> str:
    """A value as `declare -p` shows it: "..." ($'...' when it holds a control character)."""
    if _has_control(text):
        return ansi_c_quoted(text)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")
    return f'"{escaped}"'


def single_quoted(text: str) -> str:
    """A value as `${x@Q}` shows it: '...' ($'...' when it holds a control character)."""
    if _has_control(text):
        return ansi_c_quoted(text)
    return "'" + text.replace("'", "'\\''") + "'"


def xtrace_word(word: str) -> str:
    """A word as `set -x` shows it: as it is when plain, else single-quoted."""
    return word if _PLAIN_WORD.fullmatch(word) else single_quoted(word)
