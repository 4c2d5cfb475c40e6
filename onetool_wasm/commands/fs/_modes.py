"""Permission bits for chmod, ls and stat: GNU's mode strings and chmod's mode language.

Only the nine rwx bits exist in the virtual file systems: set-user-ID, set-group-ID and the
sticky bit (`u+s`, `+t`, `4755`) are accepted and dropped. The umask is 022 (what a fresh
GNU shell has), so `chmod +w f` adds only the owner's write bit, as GNU does.
"""
from __future__ import annotations

import re

FILE_MODE = 0o644
DIR_MODE = 0o755
UMASK = 0o022
_WHO_BITS = {"u": 0o700, "g": 0o070, "o": 0o007}
_SHIFT = {"u": 6, "g": 3, "o": 0}
_OCTAL = re.compile(r"[0-7]+")


def mode_of(info: object) -> int:
    """A stat's permission bits, or the defaults when the VFS keeps none."""
    mode = getattr(info, "mode", None)
    if mode is None:
        return DIR_MODE if getattr(info, "is_dir", False) else FILE_MODE
    return int(mode) & 0o7777


def mode_string(mode: int, is_dir: bool) -> str:
    """`drwxr-xr-x`, `-rw-r--r--` (ls -l, stat %A)."""
    letters = []
    for shift in (6, 3, 0):
        bits = (mode >> shift) & 7
        letters.append(("r" if bits & 4 else "-") + ("w" if bits & 2 else "-") + ("x" if bits & 1 else "-"))
    return ("d" if is_dir else "-") + "".join(letters)


class ModeError(ValueError):
    """The mode text is not a valid chmod mode."""


def parse_mode(text: str) -> list[tuple[str, str, str, int]] | int:
    """An octal mode as an int, or the symbolic clauses as (who, op, perms, copy-from) steps
    (`who` among "ugoa" or "" for umask-limited, `perms` among "rwxXst" or one of "ugo")."""
    if not text:
        raise ModeError(text)
    if _OCTAL.fullmatch(text):
        value = int(text, 8)
        if value > 0o7777:
            raise ModeError(text)
        return value
    steps: list[tuple[str, str, str, int]] = []
    for clause in text.split(","):
        index = 0
        who = ""
        while index < len(clause) and clause[index] in "ugoa":
            who += clause[index]
            index += 1
        if index >= len(clause):
            raise ModeError(text)
        while index < len(clause):
            if clause[index] not in "+-=":
                raise ModeError(text)
            op = clause[index]
            index += 1
            start = index
            if index < len(clause) and clause[index] in "ugo":
                steps.append((who, op, clause[index], 1))
                index += 1
            else:
                while index < len(clause) and clause[index] in "rwxXst":
                    index += 1
                steps.append((who, op, clause[start:index], 0))
            if index < len(clause) and clause[index] not in "+-=":
                raise ModeError(text)
    return steps


def apply_mode(parsed: list[tuple[str, str, str, int]] | int, old: int, is_dir: bool, umask: int = UMASK) -> int:
    """The new permission bits (0o777 at most) after applying a parsed mode to `old`
    (`umask` limits the clauses without a `who`; 0 gives GNU's "naively expected" mode)."""
    if isinstance(parsed, int):
        return parsed & 0o777
    mode = old & 0o777
    for who, op, perms, copy in parsed:
        mask = 0
        for letter in who.replace("a", "ugo") or "ugo":
            mask |= _WHO_BITS[letter]
        limited = not who  # no `who`: the umask limits what + and - change (GNU)
        if copy:
            bits = (mode >> _SHIFT[perms]) & 7
            value = bits << 6 | bits << 3 | bits
        else:
            value = 0
            for letter in perms:
                if letter == "r":
                    value |= 0o444
                elif letter == "w":
                    value |= 0o222
                elif letter == "x":
                    value |= 0o111
                elif letter == "X" and (is_dir or mode & 0o111):
                    value |= 0o111
        value &= mask
        if limited:
            value &= ~umask
        if op == "+":
            mode |= value
        elif op == "-":
            mode &= ~value
        else:
            mode = (mode & ~mask) | value  # `=` clears every bit of `who` (all without one)
    return mode & 0o777
