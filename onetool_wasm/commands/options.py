"""Command lines read the way GNU getopt reads them.

Options may come after operands, `--` ends them, and `-` alone is an operand (stdin).
`ArgReader` walks the words and leaves each option's meaning to its command (grep, sed,
diff, find, tree, ls...); `getopt` goes further for commands whose options are plain
letters and long names (the line tools): clusters (`-rn`), attached or separate values
(`-k2`, `-k 2`, `--key=2`, `--key 2`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Mapping, Sequence

from .helpers import fail
from .spec import CommandFailed


def is_option(arg: str) -> bool:
    """`-x`, `--long`: an option; `-` alone names stdin or a path, never an option."""
    return arg.startswith("-") and arg != "-"


def usage_failure(command: str, message: str, usage: str, exit_code: int = 1) -> CommandFailed:
    """`<command>: <message>. Usage: <usage>`, raised to end the command."""
    return fail(f"{command}: {message}. Usage: {usage}", exit_code)


def unknown_option(command: str, option: str, usage: str, exit_code: int = 1) -> CommandFailed:
    return usage_failure(command, f"unknown option: {option}", usage, exit_code)


class ArgReader:
    """Iterating yields each option word in order; the other words gather in `operands`,
    and every word after `--` is an operand (`ended` tells whether `--` was given)."""

    def __init__(self, args: Sequence[str]) -> None:
        self._args = list(args)
        self._next = 0
        self.operands: list[str] = []
        self.ended = False

    def __iter__(self) -> Iterator[str]:
        while self._next < len(self._args):
            arg = self._args[self._next]
            self._next += 1
            if arg == "--":
                self.ended = True
                self.operands.extend(self._args[self._next:])
                self._next = len(self._args)
            elif is_option(arg):
                yield arg
            else:
                self.operands.append(arg)

    def value(self, attached: str | None, missing: CommandFailed) -> str:
        """An option's value: the text attached to it (`-k2`, `--key=2`), else the next
        word whatever it is; `missing` is raised when there is none."""
        if attached is not None:
            return attached
        if self._next >= len(self._args):
            raise missing
        self._next += 1
        return self._args[self._next - 1]


def read_options(args: Sequence[str], long: Callable[[str, ArgReader], None],
                 short: Callable[[str, ArgReader], None]) -> ArgReader:
    """Hand each `--name[=value]` word to `long` and each `-xyz` cluster to `short`, with
    the reader (for values); the reader returned holds the operands."""
    reader = ArgReader(args)
    for arg in reader:
        (long if arg.startswith("--") else short)(arg, reader)
    return reader


@dataclass(frozen=True)
class OptionSpec:
    """What a command accepts: short flags, short options taking a value, long names.

    `long` maps `--name` to the short letter it stands for (or to itself when it has no
    short form); names listed in `long_values` take a value (`--key=2,2` or `--key 2,2`).
    """
    command: str
    usage: str
    flags: str = ""
    values: str = ""
    long: Mapping[str, str] | None = None
    long_values: frozenset[str] = frozenset()


def getopt(spec: OptionSpec, args: Sequence[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """(options in order as (name, value), operands); bad input fails naming the command."""
    options: list[tuple[str, str | None]] = []
    reader = read_options(args, lambda arg, reader: options.append(_long_option(spec, arg, reader)),
                          lambda arg, reader: options.extend(_short_cluster(spec, arg, reader)))
    return options, reader.operands


def _long_option(spec: OptionSpec, arg: str, reader: ArgReader) -> tuple[str, str | None]:
    name, has_value, value = arg[2:].partition("=")
    known = spec.long or {}
    if name not in known:
        raise unknown_option(spec.command, f"--{name}", spec.usage)
    key = known[name]
    if name in spec.long_values or (len(key) == 1 and key in spec.values):
        missing = usage_failure(spec.command, f"missing value for --{name}", spec.usage)
        return key, reader.value(value if has_value else None, missing)
    if has_value:
        raise usage_failure(spec.command, f"option --{name} takes no value", spec.usage)
    return key, None


def _short_cluster(spec: OptionSpec, arg: str, reader: ArgReader) -> list[tuple[str, str | None]]:
    options: list[tuple[str, str | None]] = []
    for position in range(1, len(arg)):
        letter = arg[position]
        if letter in spec.values:  # the rest of the word, or the next word, is its value
            missing = usage_failure(spec.command, f"missing value for -{letter}", spec.usage)
            options.append((letter, reader.value(arg[position + 1:] or None, missing)))
            break
        if letter not in spec.flags:
            raise unknown_option(spec.command, f"-{letter}", spec.usage)
        options.append((letter, None))
    return options
