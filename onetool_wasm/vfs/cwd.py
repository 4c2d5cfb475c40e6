"""A view of a VFS from a working directory: relative paths resolve against it.

The shell hands commands this view, so `cat notes.txt` after `cd /work` reads
`/work/notes.txt` and no command needs to know about the cwd. It also gives them
`/dev/null` (empty to read, a sink to write), which scripts pass as a file operand
(`grep -q x /dev/null`, `cp /dev/null f`), and the shell's process-substitution files
`/dev/fd/N` (pipes.py).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .base import VFS, VFSStat
from .errors import VFSError
from .pipes import PipeFile, PipeFiles

DEV_NULL = "/dev/null"


class CwdVFS:
    def __init__(self, base: VFS, cwd: str, pipes: PipeFiles | None = None) -> None:
        self.base = base
        self.cwd = cwd
        self.pipes = pipes if pipes is not None else PipeFiles()

    def pipe(self, path: str) -> PipeFile | None:
        """The open process-substitution file at `path`, or None."""
        return self.pipes.get(path)

    def resolve(self, path: str) -> str:
        if path.startswith("/") or self.cwd == "/":
            return path if path.startswith("/") else "/" + path
        return self.cwd + "/" + path

    def normalize(self, path: str) -> str:
        return self.base.normalize(self.resolve(path))

    def _is_null(self, path: str) -> bool:
        return self.normalize(path) == DEV_NULL

    async def exists(self, path: str) -> bool:
        return self._is_null(path) or self.pipe(path) is not None or await self.base.exists(self.resolve(path))

    async def is_dir(self, path: str) -> bool:
        return not self._is_null(path) and self.pipe(path) is None and await self.base.is_dir(self.resolve(path))

    async def mkdir(self, path: str, parents: bool = True) -> str:
        return await self.base.mkdir(self.resolve(path), parents)

    async def listdir(self, path: str = ".") -> list[str]:
        return await self.base.listdir(self.resolve(path))

    async def read_bytes(self, path: str) -> bytes:
        if self._is_null(path):
            return b""
        pipe = self.pipe(path)
        if pipe is not None:
            return pipe.data or b""
        return await self.base.read_bytes(self.resolve(path))

    async def read_text(self, path: str) -> str:
        if self._is_null(path):
            return ""
        pipe = self.pipe(path)
        if pipe is not None:
            return (pipe.data or b"").decode("utf-8", "surrogateescape")
        return await self.base.read_text(self.resolve(path))

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        if self._is_null(path):
            return DEV_NULL
        if self.pipe(path) is not None:
            return self._write_pipe(path, data)
        return await self.base.write_bytes(self.resolve(path), data, make_parents)

    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        if self._is_null(path):
            return DEV_NULL
        if self.pipe(path) is not None:
            return self._write_pipe(path, data)
        return await self.base.append_bytes(self.resolve(path), data, make_parents)

    def _write_pipe(self, path: str, data: bytes) -> str:
        pipe = self.pipe(path)
        if not pipe.writable:  # the reading end of `<(...)`
            raise VFSError("EACCES", path)
        pipe.written += data
        return path

    async def delete(self, path: str) -> str:
        return await self.base.delete(self.resolve(path))

    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        return await self.base.copy(self.resolve(src), self.resolve(dst))

    async def move(self, src: str, dst: str) -> tuple[str, str]:
        return await self.base.move(self.resolve(src), self.resolve(dst))

    async def stat(self, path: str) -> VFSStat:
        if self._is_null(path):
            return VFSStat(DEV_NULL, True, False, 0, "application/octet-stream", 0)
        pipe = self.pipe(path)
        if pipe is not None:
            return VFSStat(path, True, False, len(pipe.data or b""), "application/octet-stream", 0)
        return await self.base.stat(self.resolve(path))

    async def chmod(self, path: str, mode: int) -> str:
        """The base's chmod; a backend without one keeps no modes (EINVAL)."""
        chmod = getattr(self.base, "chmod", None)
        if chmod is None:
            raise VFSError("EINVAL", self.normalize(path))
        return await chmod(self.resolve(path), mode)

    @property
    def set_mtime(self) -> Callable[[str, int], Awaitable[str]]:
        """The base's `set_mtime(path, epoch_ms)` on resolved paths; AttributeError (so
        `getattr(vfs, "set_mtime", None)` is None) when the base cannot set times."""
        setter = getattr(self.base, "set_mtime", None)
        if not callable(setter):
            raise AttributeError("set_mtime")

        async def set_mtime(path: str, epoch_ms: int) -> str:
            if self._is_null(path):
                return DEV_NULL
            return await setter(self.resolve(path), epoch_ms)
        return set_mtime

    def __getattr__(self, name: str) -> Any:
        # Anything else a backend offers (resource policy, walk helpers) is the base's.
        return getattr(self.base, name)
