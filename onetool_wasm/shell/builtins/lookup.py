"""type, command and which: what a name is (keyword, function, builtin, command).

Registered commands are shown as `/usr/bin/NAME`, where a system keeps them, so that
`command -v grep >/dev/null && ...` checks and the paths agents expect both work."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...commands.spec import CommandIO

if TYPE_CHECKING:
    from ..interpreter import Interpreter

KEYWORDS = {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
            "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc"}
# Builtins that systems also ship as programs (`which echo` finds /usr/bin/echo).
ALSO_PROGRAMS = {"echo", "printf", "test", "[", "true", "false", "pwd", "sleep"}


def describe(shell: "Interpreter", name: str) -> tuple[str, str] | None:
    """(kind, detail): kind is alias, keyword, function, builtin or file; None when unknown."""
    from . import BUILTINS
    if name in shell.state.aliases:
        return "alias", shell.state.aliases[name][0]
    if name in KEYWORDS:
        return "keyword", name
    if name in shell.state.functions:
        return "function", name
    if name in BUILTINS:
        return "builtin", name
    if shell.ctx.registry.get(name) is not None:
        return "file", f"/usr/bin/{name}"
    return None


async def builtin_type(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    flags = {a for a in args if a.startswith("-") and len(a) > 1}
    names = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    status = 0
    out = []
    for name in names:
        found = describe(shell, name)
        if found is None:
            status = 1
            if not flags & {"-t", "-p", "-P"}:
                await io.error(f"bash: line {shell.line}: type: {name}: not found")
            continue
        kind, detail = found
        if "-t" in flags:
            out.append(kind)
        elif flags & {"-p", "-P"}:
            if kind == "file" or ("-P" in flags and name in ALSO_PROGRAMS):
                out.append(f"/usr/bin/{name}")
        else:
            out.append({"keyword": f"{name} is a shell keyword", "function": f"{name} is a function",
                        "builtin": f"{name} is a shell builtin", "file": f"{name} is {detail}",
                        "alias": f"{name} is aliased to `{detail}'"}[kind])
    await io.stdout.write("".join(line + "\n" for line in out).encode("utf-8", "surrogateescape"))
    return status


async def builtin_command(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """`command -v NAME`, `command -V NAME`, or `command NAME ARGS` (functions skipped)."""
    from . import BUILTINS
    if args and args[0] in ("-v", "-V"):
        verbose = args[0] == "-V"
        status = 1 if args[1:] else 0  # bash: success when any of the names was found
        for name in args[1:]:
            found = describe(shell, name)
            if found is not None:
                status = 0
            else:
                if verbose:
                    await io.error(f"bash: line {shell.line}: command: {name}: not found")
                continue
            if verbose:
                await builtin_type(shell, [name], io)
            elif found[0] == "alias":
                await io.stdout.write(f"alias {name}='{found[1]}'\n".encode("utf-8", "surrogateescape"))
            else:
                await io.stdout.write(f"{found[1]}\n".encode("utf-8", "surrogateescape"))
        return status
    if args[:1] == ["-p"]:
        args = args[1:]
    if not args:
        return 0
    builtin = BUILTINS.get(args[0])
    if builtin is not None:
        return await builtin(shell, args[1:], io)
    return await shell.run_registered(args, io)


async def builtin_which(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    status = 0
    for name in (a for a in args if not a.startswith("-")):
        if shell.ctx.registry.get(name) is not None or name in ALSO_PROGRAMS:
            await io.stdout.write(f"/usr/bin/{name}\n".encode("utf-8", "surrogateescape"))
        else:
            status = 1
    return status


BUILTINS = {"type": builtin_type, "command": builtin_command, "which": builtin_which}
