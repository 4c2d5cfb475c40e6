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
