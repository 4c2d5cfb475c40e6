"""echo and printf as bash's builtins (echo shares its escapes with the `echo` command)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...commands.spec import CommandIO
from ...commands.text.echo import cmd_echo
from .printf import format_printf

if TYPE_CHECKING:
    from ..interpreter import Interpreter


async def builtin_echo(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    await io.stdout.write(cmd_echo(shell.ctx, list(args), b"").stdout)
    return 0


async def builtin_printf(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    target = None
    if args[:1] == ["-v"]:
        if len(args) < 2:
            await io.error(f"bash: line {shell.line}: printf: -v: option requires an argument")
            return 2
        target, args = args[1], args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        await io.error(f"bash: line {shell.line}: printf: usage: printf [-v var] format [arguments]")
        return 2
    if _too_wide(args[0], args[1:], shell.limits.max_output_bytes):
        await io.error(f"bash: line {shell.line}: printf: a field width or precision is larger than "
                       f"the output limit ({shell.limits.max_output_bytes} bytes)")
        return 1
    output, errors, status = format_printf(args[0], args[1:])
    for message in errors:
        await io.error(f"bash: line {shell.line}: {message}")
    if target is not None:
        shell.state.set(target, output.decode("utf-8", "surrogateescape"))
    else:
        await io.stdout.write(output)
    return status


_WIDTH = re.compile(r"%[-+ #0']*(\d*)(?:\.(\d*))?")


def _too_wide(fmt: str, args: list[str], limit: int) -> bool:
    """A width like `%2000000000d` would build gigabytes before any limit could see them."""
    for match in _WIDTH.finditer(fmt):
        if any(group and len(group) < 30 and int(group) > limit or group and len(group) >= 30
               for group in match.groups()):
            return True
    if "*" in fmt:
        return any(arg.strip().lstrip("+-").isdigit() and abs(int(arg.strip())) > limit
                   for arg in args if len(arg) < 30)
    return False


BUILTINS = {"echo": builtin_echo, "printf": builtin_printf}
