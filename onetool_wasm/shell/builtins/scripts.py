"""Builtins that run shell text: eval, source/., exec, and `bash`/`sh` (a VFS script or
`-c STRING`) as a child shell that sees only exported variables."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...commands.spec import CommandIO
from ...vfs.errors import VFSError
from ..state import ShellState

if TYPE_CHECKING:
    from ..interpreter import Interpreter


async def builtin_eval(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    text = " ".join(args)
    if not text.strip():
        return 0
    return await shell.run_source(text, io, "eval")


async def _read_script(shell: "Interpreter", path: str, io: CommandIO, who: str) -> str | None:
    try:
        if await shell.vfs.is_dir(path):
            await io.error(f"bash: line {shell.line}: {path}: is a directory")
            return None
        return (await shell.vfs.read_bytes(path)).decode("utf-8", "surrogateescape")
    except VFSError:
        await io.error(f"{who}{path}: No such file or directory")
        return None


async def builtin_source(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    if not args:
        await io.error(f"bash: line {shell.line}: source: filename argument required")
        return 2
    text = await _read_script(shell, args[0], io, f"bash: line {shell.line}: ")
    if text is None:
        return 1
    state = shell.state
    saved = state.positional
    if len(args) > 1:
        state.positional = args[1:]
    try:
        from ..interpreter import FunctionReturn
        try:
            return await shell.run_source(text, io, args[0])
        except FunctionReturn as returned:
            return returned.status
    finally:
        if len(args) > 1:
            state.positional = saved


async def builtin_exec(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """`exec CMD ARGS`: run the command, then the shell ends with its status."""
    from ..interpreter import ShellExit
    if not args:
        return 0
    from . import BUILTINS
    builtin = BUILTINS.get(args[0])
    status = await (builtin(shell, args[1:], io) if builtin else shell.run_registered(args, io))
    raise ShellExit(status)


async def builtin_bash(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """`bash FILE ARGS`, `bash -c STRING [NAME ARGS]`, `sh ...`; `-e -u -x -o pipefail`;
    with neither, the script is read from standard input."""
    child_state = ShellState.fresh(shell.state.exported())
    child_state.cwd = shell.state.cwd
    options = child_state.options
    command = None
    position = 0
    while position < len(args) and args[position].startswith(("-", "+")) and args[position] not in ("-", "--"):
        arg = args[position]
        for letter in arg[1:]:
            if letter == "c":
                command = ""
            elif letter == "o" and position + 1 < len(args):
                position += 1
                if args[position] == "pipefail":
                    options.pipefail = arg[0] == "-"
            elif letter in "euxf":
                setattr(options, {"e": "errexit", "u": "nounset", "x": "xtrace", "f": "noglob"}[letter],
                        arg[0] == "-")
        position += 1
    rest = args[position:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    name = "bash"
    if command is not None:
        if not rest:
            await io.error("bash: -c: option requires an argument")
            return 2
        text, name, positional = rest[0], (rest[1] if len(rest) > 1 else "bash"), rest[2:]
        label = "bash: -c"
    elif rest:
        text = await _read_script(shell, rest[0], io, "bash: ")
        if text is None:
            return 127
        name, positional, label = rest[0], rest[1:], rest[0]
        child_state.script_file = True
    else:
        text = (await io.stdin.read_all(shell.limits.max_expansion_bytes)).decode("utf-8", "surrogateescape")
        positional, label = [], "bash"
    child_state.script_name = name
    child_state.positional = list(positional)
    if shell.source_depth >= shell.limits.max_source_depth:
        await io.error(f"bash: scripts nested more than {shell.limits.max_source_depth} levels deep")
        return 2
    child = shell.child(child_state)
    child.source_depth = shell.source_depth + 1
    from ..parser import parse_until_error
    script, error = parse_until_error(text)
    status = await child.run_main(script, io)
    if error is not None and not child.exited:
        await io.error(f"{label}: line {error.line}: {error.message}")
        return 2
    return status


BUILTINS = {"eval": builtin_eval, "source": builtin_source, ".": builtin_source, "exec": builtin_exec,
            "bash": builtin_bash, "sh": builtin_bash}
