"""Redirections: open the streams a command runs with, left to right as bash does
(`>f 2>&1` sends both to f; `2>&1 >f` sends only stdout).

A redirect into a file is a write through the VFS and the policy, exactly as the `write`
and `append` commands are (the readOnly preset refuses it; a confirm pattern on
`fs:write` asks). `>` truncates the file when it opens, before the command runs; the bytes
are written when the command is done.
"""
from __future__ import annotations

import dataclasses

from typing import TYPE_CHECKING

from ..commands.spec import CommandIO, CommandSpec
from ..result import CommandResult
from ..streams import BytesReader, EmptyReader, FileWriter, NullWriter, Reader, SharedWriter, Writer
from ..vfs.errors import VFSError
from .ast import HereDoc, Redirect
from .state import ShellError

if TYPE_CHECKING:
    from .interpreter import Interpreter

# The subject a redirect into a file is gated as, with the policy (`fs:write`, a write).
REDIRECT_SPEC = CommandSpec(name="write", summary="write a file through a shell redirect",
                            usage="COMMAND > PATH", details="", handler=lambda ctx, args, stdin: None,
                            kind="write", group="fs", targets=list)
# `>>` is gated as the same subject, but it only adds to a file: nothing is overwritten.
APPEND_REDIRECT_SPEC = dataclasses.replace(REDIRECT_SPEC, usage="COMMAND >> PATH", targets=None)

_OUTPUT_OPS = {">", ">>", ">|", "&>", "&>>"}


async def open_redirects(shell: "Interpreter", redirects: tuple[Redirect, ...],
                         io: CommandIO, *, persist: bool = False,
                         scoped: bool = False) -> tuple[CommandIO, list[Writer]]:
    """The command's streams after its redirects, and the writers to close after it.
    Descriptors above 2 come from the shell's table (`exec 3>file` opened them); `persist`
    (an `exec` with only redirections) writes what the redirects opened or closed above 2
    back into that table, and closes a closed writer at once (`exec 3>&-` writes the file);
    `scoped` (a compound command: `{ ...; } 3>f`) gives the shell a new table with them, which
    the caller puts back when the command ends."""
    table: dict[int, Reader | Writer] = {0: io.stdin, 1: io.stdout, 2: io.stderr, **shell.descriptors}
    stdin_is_pipe = io.stdin_is_pipe
    closers: list[Writer] = []
    try:
        for redirect in redirects:
            fd = redirect.fd if redirect.fd is not None else (0 if redirect.op[0] == "<" else 1)
            if redirect.op in ("<<", "<<-", "<<<"):
                table[fd] = await _here_input(shell, redirect)
                stdin_is_pipe = stdin_is_pipe or fd == 0
            elif redirect.op in ("<", "<>"):
                table[fd] = await _file_input(shell, redirect.target, table)
                stdin_is_pipe = stdin_is_pipe or fd == 0
            elif redirect.op in (">&", "<&"):
                await _duplicate(shell, redirect, fd, table, closers)
                stdin_is_pipe = stdin_is_pipe or (fd == 0 and table.get(0) is not io.stdin)
            elif redirect.op in _OUTPUT_OPS:
                writer = await _file_output(shell, redirect, table)
                closers.append(writer)
                table[fd] = writer
                if redirect.op.startswith("&"):
                    table[2] = SharedWriter(writer)
            else:
                raise ShellError(f"{redirect.op}: unsupported redirection")
    except ShellError:
        for writer in closers:
            await writer.close()
        raise
    if persist:
        await _persist_descriptors(shell, table)
    elif scoped:
        shell.descriptors = {fd: stream for fd, stream in table.items() if fd > 2}
    stdin = table.get(0)
    stdout, stderr = table.get(1), table.get(2)
    return CommandIO(stdin if isinstance(stdin, Reader) else EmptyReader(),
                     stdout if isinstance(stdout, Writer) else NullWriter(),
                     stderr if isinstance(stderr, Writer) else NullWriter(),
                     stdin_is_pipe=stdin_is_pipe), closers


async def _here_input(shell: "Interpreter", redirect: Redirect) -> Reader:
    limit = shell.limits.max_heredoc_bytes
    if isinstance(redirect.target, HereDoc):
        text = await shell.expander.string(redirect.target.body)
    else:
        text = await shell.expander.string(redirect.target) + "\n"
    data = text.encode("utf-8", "surrogateescape")
    if len(data) > limit:
        raise ShellError(f"here-document is larger than {limit} bytes (the here-document limit); "
                         "write the data to a file and read it from there")
    return BytesReader(data)


async def _file_input(shell: "Interpreter", target, table: dict[int, Reader | Writer]) -> Reader:
    path = await shell.expander.string(target)
    if path in ("/dev/null", ""):
        if not path:
            raise ShellError(": No such file or directory")
        return EmptyReader()
    if path in ("/dev/stdin", "/dev/fd/0"):
        current = table.get(0)
        return current if isinstance(current, Reader) else EmptyReader()
    try:
        if await shell.vfs.is_dir(path):
            raise ShellError(f"{path}: Is a directory")
        data = await shell.vfs.read_bytes(path)
        reader = BytesReader(data)
        reader.file_size = len(data)
        return reader
    except VFSError as error:
        raise ShellError(f"{path}: {_describe(error)}")


async def _persist_descriptors(shell: "Interpreter", table: dict[int, Reader | Writer]) -> None:
    kept = shell.descriptors
    for fd in [fd for fd in kept if table.get(fd) is not kept[fd]]:
        closed = kept.pop(fd)
        if closed not in table.values() and closed in shell.exec_closers:
            shell.exec_closers.remove(closed)
            await closed.close()
    kept.update((fd, stream) for fd, stream in table.items() if fd > 2)


async def _duplicate(shell: "Interpreter", redirect: Redirect, fd: int,
                     table: dict[int, Reader | Writer], closers: list[Writer]) -> None:
    """`2>&1`, `>&2`, `<&0`, `>&-`; `>& file` with a non-number is `&> file`."""
    target = await shell.expander.string(redirect.target)
    if target == "-":
        if fd > 2:  # `3>&-`: the descriptor is closed
            table.pop(fd, None)
        else:
            table[fd] = NullWriter() if fd else EmptyReader()
        return
    if not target.isdigit():
        if redirect.op == ">&" and redirect.fd is None:
            writer = await _file_output(shell, Redirect(">", redirect.target), table)
            closers.append(writer)
            table[1] = writer
            table[2] = SharedWriter(writer)
            return
        raise ShellError(f"{target}: ambiguous redirect")
    source = table.get(int(target))
    if source is None:
        raise ShellError(f"{target}: Bad file descriptor")
    table[fd] = SharedWriter(source) if isinstance(source, Writer) else source


# The descriptors a path names (`> /dev/stderr` is `>&2`).
_DEVICE_FDS = {"/dev/stdout": 1, "/dev/stderr": 2, "/dev/fd/1": 1, "/dev/fd/2": 2}


async def _file_output(shell: "Interpreter", redirect: Redirect, table: dict[int, Reader | Writer]) -> Writer:
    path = await shell.expander.string(redirect.target)
    append = redirect.op in (">>", "&>>")
    if path == "/dev/null":
        return NullWriter()
    if path in _DEVICE_FDS and isinstance(table.get(_DEVICE_FDS[path]), Writer):
        return SharedWriter(table[_DEVICE_FDS[path]])
    if not path:
        raise ShellError(": No such file or directory")
    vfs = shell.vfs
    pipe = vfs.pipe(path)
    if pipe is not None and pipe.writable:  # `> >(cmd)`: nothing to ask, no file written
        return FileWriter(lambda data: vfs.append_bytes(path, data), shell.limits.max_output_bytes)
    try:
        is_dir = await vfs.is_dir(path)
        exists = is_dir or await vfs.exists(path)
    except VFSError as error:
        raise ShellError(f"{path}: {_describe(error)}")
    if is_dir:
        raise ShellError(f"{path}: Is a directory")
    if exists and redirect.op == ">" and shell.state.options.noclobber:
        raise ShellError(f"{path}: cannot overwrite existing file")
    await _gate_write(shell, path, append)
    if not append:
        await _write(vfs, path, b"", append=False)

    async def flush(data: bytes) -> None:
        if data or append:
            await _write(vfs, path, data, append=append)

    return FileWriter(flush, shell.limits.max_output_bytes)


async def _gate_write(shell: "Interpreter", path: str, append: bool = False) -> None:
    if shell.ctx.registry.read_only:
        raise ShellError(f"{path}: refused: this runtime is read-only (preset readOnly)")
    if shell.ctx.policy is None:
        return
    spec = APPEND_REDIRECT_SPEC if append else REDIRECT_SPEC
    allowed = await shell.gate(spec, [shell.vfs.normalize(path)], shell.ctx)
    if isinstance(allowed, CommandResult):
        raise ShellError(f"{path}: {allowed.stderr}")


async def _write(vfs, path: str, data: bytes, append: bool) -> None:
    try:
        if append:
            await vfs.append_bytes(path, data, make_parents=False)
        else:
            await vfs.write_bytes(path, data, make_parents=False)
    except VFSError as error:
        raise ShellError(f"{path}: {_describe(error)}")


def _describe(error: VFSError) -> str:
    """The words bash uses for the errno behind a VFS error."""
    code = getattr(error, "code", "")
    return {"ENOENT": "No such file or directory", "EISDIR": "Is a directory",
            "ENOTDIR": "Not a directory", "EESCAPE": "path escapes workspace root",
            "ENAMETOOLONG": "File name too long", "EACCES": "Permission denied",
            }.get(code, getattr(error, "message", None) or str(error))
