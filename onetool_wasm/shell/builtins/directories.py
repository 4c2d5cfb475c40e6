"""cd and pwd: the working directory of the run (it starts at `/`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...commands.spec import CommandIO

if TYPE_CHECKING:
    from ..interpreter import Interpreter


async def builtin_cd(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    args = [a for a in args if a not in ("-L", "-P", "--")]
    if len(args) > 1:
        await io.error(f"bash: line {shell.line}: cd: too many arguments")
        return 1
    state = shell.state
    announce = False
    if not args:
        target = state.get("HOME") or "/"
    elif args[0] == "-":
        target = state.get("OLDPWD")
        if target is None:
            await io.error(f"bash: line {shell.line}: cd: OLDPWD not set")
            return 1
        announce = True
    else:
        target = args[0]
    path = shell.vfs.normalize(target) if target else state.cwd
    try:
        info = await shell.vfs.stat(path)
        exists, is_dir = info.exists, info.is_dir
    except Exception:
        exists, is_dir = False, False
    if not exists or not is_dir:
        reason = "Not a directory" if exists else "No such file or directory"
        await io.error(f"bash: line {shell.line}: cd: {target}: {reason}")
        return 1
    state.set("OLDPWD", state.cwd)
    shell.set_cwd(path)
    state.set("PWD", path)
    if announce:
        await io.stdout.write(path.encode("utf-8", "surrogateescape") + b"\n")
    return 0


async def builtin_pwd(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    await io.stdout.write(shell.state.cwd.encode("utf-8", "surrogateescape") + b"\n")
    return 0


BUILTINS = {"cd": builtin_cd, "pwd": builtin_pwd}


async def builtin_pushd(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    """`pushd DIR`: cd to DIR, remembering where we were; prints the stack as `dirs` does."""
    if not args:
        if not shell.state.directory_stack:
            await io.error(f"bash: line {shell.line}: pushd: no other directory")
            return 1
        args = [shell.state.directory_stack.pop(0)]
    previous = shell.state.cwd
    status = await builtin_cd(shell, args[:1], io)
    if status == 0:
        shell.state.directory_stack.insert(0, previous)
        await builtin_dirs(shell, [], io)
    return status


async def builtin_popd(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    if not shell.state.directory_stack:
        await io.error(f"bash: line {shell.line}: popd: directory stack empty")
        return 1
    status = await builtin_cd(shell, [shell.state.directory_stack[0]], io)
    if status == 0:
        shell.state.directory_stack.pop(0)
        await builtin_dirs(shell, [], io)
    return status


async def builtin_dirs(shell: "Interpreter", args: list[str], io: CommandIO) -> int:
    home = shell.state.get("HOME") or ""
    shown = [_tilde(path, home) for path in [shell.state.cwd, *shell.state.directory_stack]]
    separator = "\n" if "-p" in args or "-v" in args else " "
    await io.stdout.write((separator.join(shown) + "\n").encode("utf-8", "surrogateescape"))
    return 0


def _tilde(path: str, home: str) -> str:
    """bash shows $HOME as `~` in the directory stack (a HOME of / is shown as it is)."""
    if home and home != "/" and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home):]
    return path


BUILTINS.update({"pushd": builtin_pushd, "popd": builtin_popd, "dirs": builtin_dirs})
