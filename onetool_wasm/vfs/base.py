"""The virtual file system interface every backend implements.

Paths are rooted at "/" and normalised by the backend ("..", ".", "//" collapse;
".." never climbs above "/"). Every method is async so that the same commands run
over memory, a real directory, or IndexedDB in the browser.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class VFSStat:
    path: str
    exists: bool
    is_dir: bool
    size: int
    media_type: str
    modified_epoch_ms: int
    # Permission bits (0o644, 0o755...), or None when the backend keeps none.
    mode: int | None = None


@runtime_checkable
class VFS(Protocol):
    def normalize(self, path: str) -> str: ...
    async def exists(self, path: str) -> bool: ...
    async def is_dir(self, path: str) -> bool: ...
    async def mkdir(self, path: str, parents: bool = True) -> str: ...
    async def listdir(self, path: str = "/") -> list[str]:
        """Child names, directories first with a trailing "/", each group in byte order."""
        ...
    async def read_bytes(self, path: str) -> bytes: ...
    async def read_text(self, path: str) -> str: ...
    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str: ...
    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str: ...
    async def delete(self, path: str) -> str: ...
    async def copy(self, src: str, dst: str) -> tuple[str, str]: ...
    async def move(self, src: str, dst: str) -> tuple[str, str]: ...
    async def stat(self, path: str) -> VFSStat: ...
    # Optional: `async def chmod(self, path: str, mode: int) -> str` sets the permission bits
    # (0o777 at most) of an existing node and returns its normalised path. A backend without
    # it keeps no modes (its stats say mode=None).
