"""Builtins that run shell text: eval, source/., exec, and `bash`/`sh` (a VFS script or
`-c STRING`) as a child shell that sees only exported variables; and a script run by its
path (`./run.sh`), through its `#!` line."""
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


# `#!` interpreters that are this shell.
_SHELLS = {"bash", "sh"}


async def run_script_file(shell: "Interpreter", argv: list[str], io: CommandIO) -> int:
    """`./run.sh ARGS` or `/work/tool ARGS`: a file of the VFS run as a program. It must exist
    and be executable (a file system that keeps no modes counts every file as executable);
    its `#!` line names the interpreter: bash or sh (or none) run it in a child shell as
    `bash FILE ARGS` does, a registered command (`#!/usr/bin/awk -f`, `#!/usr/bin/env jq -f`)
    is run with the file's path after its own arguments. The errors and statuses are bash's."""
    path = argv[0]
    where = f"bash: line {shell.line}: {path}"
    try:
        if await shell.vfs.is_dir(path):
            await io.error(f"{where}: Is a directory")
            return 126
        info = await shell.vfs.stat(path)
        head = (await shell.vfs.read_bytes(path))[:256]
    except VFSError:
        await io.error(f"{where}: No such file or directory")
        return 127
    if info.mode is not None and not info.mode & 0o111:
        await io.error(f"{where}: Permission denied")
        return 126
    interpreter = _interpreter(head)
    if interpreter is None or interpreter[0] in _SHELLS:
        return await builtin_bash(shell, argv, io)
    name, options = interpreter[0], interpreter[1:]
    if shell.ctx.registry.get(name) is None:
        if head.startswith(b"#!") and b"/env" in head.split(b"\n", 1)[0]:
            await io.error(f"/usr/bin/env: '{name}': No such file or directory")
        else:
            await io.error(f"{where}: cannot execute: required file not found")
        return 127
    return await shell.run_registered([name, *options, path, *argv[1:]], io)


def _interpreter(head: bytes) -> list[str] | None:
    """The `#!` line's program (its base name) and arguments, `env` looked through; None
    without a `#!` line."""
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if not words:
        return None
    words[0] = words[0].rsplit("/", 1)[-1]
    if words[0] == "env" and len(words) > 1:
        words = [word for word in words[1:] if word != "-S"]
    return words

