"""alias and unalias, and the expansion of an alias in a command (`shopt -s expand_aliases`).

bash replaces an alias while it reads a line, so an alias works from the line after the one
that defined it, and only where `expand_aliases` is on (it is off in scripts). Here a line is
parsed whole before it runs, so the interpreter replaces the alias when the command runs
(`expand`): the command's first word, written plainly and naming an alias defined on an
earlier line, becomes the alias's text, and the command is parsed again from that text
followed by the rest of the command as written.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...commands.spec import CommandIO
from ..ast import HereDoc, SimpleCommand

if TYPE_CHECKING:
    from ..interpreter import Interpreter

_NAME = re.compile(r"[^\s/$`=|&;()<>'\"\\]+")
MAX_ALIAS_DEPTH = 16  # an alias whose text starts with another alias, and so on


async def builtin_alias(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    aliases = shell.state.aliases
    if args[:1] == ["-p"]:
        args = args[1:]
    if not args:
        await io.stdout.write("".join(_shown(name, aliases[name][0]) for name in sorted(aliases)).encode("utf-8", "surrogateescape"))
        return 0
    status = 0
    for arg in args:
        name, equals, value = arg.partition("=")
        if equals:
            if not _NAME.fullmatch(name):
                await io.error(f"bash: line {shell.line}: alias: `{name}': invalid alias name")
                status = 1
                continue
            aliases[name] = (value, shell.line)
        elif name in aliases:
            await io.stdout.write(_shown(name, aliases[name][0]).encode("utf-8", "surrogateescape"))
        else:
            await io.error(f"bash: line {shell.line}: alias: {name}: not found")
            status = 1
    return status


async def builtin_unalias(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    if args[:1] == ["-a"]:
        shell.state.aliases.clear()
        return 0
    if not args:
        await io.error(f"bash: line {shell.line}: unalias: usage: unalias [-a] name [name ...]")
        return 2
    status = 0
    for name in args:
        if shell.state.aliases.pop(name, None) is None:
            await io.error(f"bash: line {shell.line}: unalias: {name}: not found")
            status = 1
    return status


def _shown(name: str, value: str) -> str:
    return f"alias {name}='" + value.replace("'", "'\\''") + "'\n"


def expansion(shell: "Interpreter", node: SimpleCommand) -> str | None:
    """The command's text with its alias replaced, or None when no alias applies."""
    if not shell.state.options.expand_aliases or not node.words or not shell.state.aliases:
        return None
    first = node.words[0].source
    alias = shell.state.aliases.get(first)
    if alias is None or alias[1] >= node.line or node.assignments:
        return None
    if any(isinstance(redirect.target, HereDoc) for redirect in node.redirects):
        return None  # the here-document's body is not in the words' text
    rest = [word.source for word in node.words[1:]]
    redirects = [f"{'' if r.fd is None else r.fd}{r.op}{r.target.source}" for r in node.redirects]
    return " ".join([alias[0], *rest, *redirects])


BUILTINS = {"alias": builtin_alias, "unalias": builtin_unalias}
