"""umask: the shell's file-creation mask, shown and set as bash does (octal `0022`,
symbolic `-S` `u=rwx,g=rx,o=rx`, `-p` as a command). The mask is the shell's own state (a
subshell's change stays there); the file systems here create files with their own modes."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...commands.spec import CommandIO

if TYPE_CHECKING:
    from ..interpreter import Interpreter

_WHO = {"u": 0o700, "g": 0o070, "o": 0o007, "a": 0o777}
_PERMISSIONS = {"r": 0o444, "w": 0o222, "x": 0o111}


async def builtin_umask(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    symbolic = as_command = False
    while args and args[0] in ("-S", "-p", "-Sp", "-pS"):
        symbolic = symbolic or "S" in args[0]
        as_command = as_command or "p" in args[0]
        args = args[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    state = shell.state
    if not args:
        shown = _symbolic(state.umask) if symbolic else f"{state.umask:04o}"
        await io.stdout.write(f"{'umask ' + ('-S ' if symbolic else '') if as_command else ''}{shown}\n".encode("utf-8", "surrogateescape"))
        return 0
    mode = args[0]
    if mode[:1].isdigit():
        if not re.fullmatch(r"[0-7]+", mode) or int(mode, 8) > 0o777:
            await io.error(f"bash: line {shell.line}: umask: {mode}: octal number out of range")
            return 1
        state.umask = int(mode, 8)
        return 0
    allowed, error = _apply_symbolic(0o777 & ~state.umask, mode)
    if error:
        await io.error(f"bash: line {shell.line}: umask: {error}")
        return 1
    state.umask = 0o777 & ~allowed
    if symbolic:
        await io.stdout.write(f"{_symbolic(state.umask)}\n".encode("utf-8", "surrogateescape"))
    return 0


def _symbolic(mask: int) -> str:
    allowed = 0o777 & ~mask
    parts = []
    for who, shift in (("u", 6), ("g", 3), ("o", 0)):
        bits = allowed >> shift & 0o7
        parts.append(who + "=" + "".join(letter for letter, bit in (("r", 4), ("w", 2), ("x", 1)) if bits & bit))
    return ",".join(parts)


def _apply_symbolic(allowed: int, mode: str) -> tuple[int, str | None]:
    """The permissions `u=rwx,g-w,...` leaves allowed, or an error in bash's words."""
    for clause in mode.split(","):
        position = 0
        who = 0
        while position < len(clause) and clause[position] in _WHO:
            who |= _WHO[clause[position]]
            position += 1
        who = who or 0o777
        if position >= len(clause) or clause[position] not in "=+-":
            shown = clause[position] if position < len(clause) else ""
            return allowed, f"`{shown}': invalid symbolic mode operator"
        operator = clause[position]
        bits = 0
        for letter in clause[position + 1:]:
            if letter not in _PERMISSIONS:
                return allowed, f"`{letter}': invalid symbolic mode character"
            bits |= _PERMISSIONS[letter]
        bits &= who
        if operator == "=":
            allowed = allowed & ~who | bits
        elif operator == "+":
            allowed |= bits
        else:
            allowed &= ~bits
    return allowed, None


BUILTINS = {"umask": builtin_umask}
