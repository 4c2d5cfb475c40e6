"""A view of a VFS from a working directory: relative paths resolve against it.

The shell hands commands this view, so `cat notes.txt` after `cd /work` reads
`/work/notes.txt` and no command needs to know about the cwd. It also gives them
`/dev/null` (empty to read, a sink to write), which scripts pass as a file operand
(`grep -q x /dev/null`, `cp /dev/null f`).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .base import VFS, VFSStat

DEV_NULL = "/dev/null"


class CwdVFS:
    def __init__(self, base: VFS, cwd: str) -> None:
        self.base = base
        self.cwd = cwd

    def resolve(self, path: str) -> str:
        if path.startswith("/") or self.cwd == "/":
            return path if path.startswith("/") else "/" + path
        return self.cwd + "/" + path

    def normalize(self, path: str) -> str:
        return self.base.normalize(self.resolve(path))

    def _is_null(self, path: str) -> bool:
        return self.normalize(path) == DEV_NULL

    async def exists(self, path: str) -> bool:
        return self._is_null(path) or await self.base.exists(self.resolve(path))

    async def is_dir(self, path: str) -> bool:
        return not self._is_null(path) and await self.base.is_dir(self.resolve(path))

    async def mkdir(self, path: str, parents: bool = True) -> str:
        return await self.base.mkdir(self.resolve(path), parents)

    async def listdir(self, path: str = ".") -> list[str]:
        return await self.base.listdir(self.resolve(path))

    async def read_bytes(self, path: str) -> bytes:
        if self._is_null(path):
            return b""
        return await self.base.read_bytes(self.resolve(path))

    async def read_text(self, path: str) -> str:
        if self._is_null(path):
            return ""
        return await self.base.read_text(self.resolve(path))

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        if self._is_null(path):
            return DEV_NULL
        return await self.base.write_bytes(self.resolve(path), data, make_parents)

    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        if self._is_null(path):
            return DEV_NULL
        return await self.base.append_bytes(self.resolve(path), data, make_parents)

    async def delete(self, path: str) -> str:
        return await self.base.delete(self.resolve(path))

    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        return await self.base.copy(self.resolve(src), self.resolve(dst))

    async def move(self, src: str, dst: str) -> tuple[str, str]:
        return await self.base.move(self.resolve(src), self.resolve(dst))

    async def stat(self, path: str) -> VFSStat:
        if self._is_null(path):
            return VFSStat(DEV_NULL, True, False, 0, "application/octet-stream", 0)
        return await self.base.stat(self.resolve(path))

    async def chmod(self, path: str, mode: int) -> str:
        """The base's chmod; a backend without one keeps no modes (EINVAL)."""
        chmod = getattr(self.base, "chmod", None)
        if chmod is None:
            from .errors import VFSError
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
