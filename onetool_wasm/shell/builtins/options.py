"""getopts: parse a script's or function's options, one at a time, as bash does.

`while getopts "ab:" opt; do case $opt in a) ...;; b) echo "$OPTARG";; esac; done`
OPTIND is the index of the next argument; inside a cluster (`-ab`) the position within
it is kept in the state, as bash keeps it internally. An optstring starting with `:` is
silent: errors set `opt` to `?` or `:` and OPTARG to the letter instead of printing.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...commands.spec import CommandIO

if TYPE_CHECKING:
    from ..interpreter import Interpreter


async def builtin_getopts(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    if len(args) < 2:
        await io.error(f"bash: line {shell.line}: getopts: usage: getopts optstring name [arg ...]")
        return 2
    spec, name, words = args[0], args[1], args[2:] or list(shell.state.positional)
    silent = spec.startswith(":")
    state = shell.state
    index = _optind(state.get("OPTIND"))
    cluster_index, cluster_offset = state.getopts_offset
    offset = cluster_offset if cluster_index == index else 1  # a new OPTIND starts a new word
    word = words[index - 1] if 0 < index <= len(words) else None
    if word is None or word == "-" or not word.startswith("-") or word == "--":
        if word == "--":
            index += 1
        return _finish(shell, name, index)
    letter = word[offset]
    offset += 1
    at_end = offset >= len(word)
    position = spec.find(letter) if letter != ":" else -1
    if position < 0:
        return await _error(shell, io, name, index, offset, at_end, silent, letter, "illegal option")
    state.unset("OPTARG")
    if spec[position + 1:position + 2] == ":":
        if not at_end:
            state.set("OPTARG", word[offset:])
        elif index < len(words):
            index += 1
            state.set("OPTARG", words[index - 1])
        else:
            return await _error(shell, io, name, index, offset, True, silent, letter,
                                "option requires an argument")
        at_end = True
    _advance(shell, index, offset, at_end)
    state.set(name, letter)
    return 0


def _optind(value: str | None) -> int:
    try:
        return max(1, int(value or "1"))
    except ValueError:
        return 1


def _advance(shell: "Interpreter", index: int, offset: int, at_end: bool) -> None:
    shell.state.getopts_offset = (0, 0) if at_end else (index, offset)
    shell.state.set("OPTIND", str(index + 1 if at_end else index))


def _finish(shell: "Interpreter", name: str, index: int) -> int:
    shell.state.getopts_offset = (0, 0)
    shell.state.set("OPTIND", str(index))
    shell.state.set(name, "?")
    return 1


async def _error(shell: "Interpreter", io: CommandIO, name: str, index: int, offset: int, at_end: bool,
                 silent: bool, letter: str, reason: str) -> int:
    _advance(shell, index, offset, at_end)
    missing = reason.startswith("option requires")
    if silent:
        shell.state.set(name, ":" if missing else "?")
        shell.state.set("OPTARG", letter)
    else:
        shell.state.set(name, "?")
        shell.state.unset("OPTARG")
        await io.error(f"{shell.state.script_name}: {reason} -- {letter}")
    return 0


BUILTINS = {"getopts": builtin_getopts}
