"""MountVFS: one tree made of several file systems, chosen by path prefix.

`MountVFS(default, {"/.system": other})` shows `other`'s root at `/.system` and `default`
everywhere else: `/.system/cmd-output/cmd-0001.txt` is `/cmd-output/cmd-0001.txt` of
`other`. The CLI uses it to keep the runtime's spill files out of a user's real folder.

* A mount point (and any directory on the way to one) is always a directory: it shows in
  its parent's listing (shadowing an entry of the same name below it), and `mkdir` of it
  does nothing. Deleting a mount point empties it; moving one is refused (EINVAL).
* Errors and returned paths carry the outer paths (`/.system/x`, not `/x`).
* copy and move within one file system are that file system's; across mounts, a file is
  read and written again and a directory is copied node by node (a move then deletes the
  source), with the same errors as TreeVFS: ENOENT, EISDIR, EEXIST, EINVAL.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Awaitable, Callable, TypeVar

from .base import VFS, VFSStat
from .errors import VFSError
from .listing import sort_listing
from .media import DIRECTORY
from .paths import ancestors_and_self, base_name, child_path, is_strict_descendant_path, normalize_path, parent_of

_UMASK = 0o022
_T = TypeVar("_T")


@dataclasses.dataclass(frozen=True)
class _Route:
    vfs: VFS
    inner: str           # the path inside `vfs`
    point: str | None    # the mount point, None for the default file system


class MountVFS:
    def __init__(self, default: VFS, mounts: Mapping[str, VFS]) -> None:
        self.default = default
        self.mounts: dict[str, VFS] = {}
        for point, vfs in mounts.items():
            p = normalize_path(point)
            if p == "/":
                raise ValueError("a mount point cannot be the root; pass that file system as the default")
            if p in self.mounts:
                raise ValueError(f"mount point given twice: {p}")
            self.mounts[p] = vfs
        # Longest first, so a mount inside a mount wins.
        self._points = sorted(self.mounts, key=len, reverse=True)
        # Directories on the way to a mount point (the root included): always there.
        self._ancestors = {"/"} | {step for p in self.mounts for step in ancestors_and_self(parent_of(p))}

    # -- routing -------------------------------------------------------------------------

    def normalize(self, path: str) -> str:
        return normalize_path(path)

    def _route(self, p: str) -> _Route:
        for point in self._points:
            if p == point or p.startswith(point + "/"):
                return _Route(self.mounts[point], p[len(point):] or "/", point)
        return _Route(self.default, p, None)

    @staticmethod
    def _outer(route: _Route, inner: str | None) -> str | None:
        if route.point is None or inner is None:
            return inner
        return route.point if inner == "/" else route.point + inner

    async def _call(self, route: _Route, action: Callable[[], Awaitable[_T]]) -> _T:
        """Run an operation of the routed file system, its errors in outer paths."""
        if route.point is None:
            return await action()
        try:
            return await action()
        except VFSError as error:
            raise VFSError(error.code, self._outer(route, error.path) or error.path,
                           target_path=self._outer(route, error.target_path),
                           details=error.details) from error

    def _is_fixed_dir(self, p: str) -> bool:
        """A mount point or a directory on the way to one."""
        return p in self.mounts or p in self._ancestors

    def _mounted_children(self, p: str) -> set[str]:
        """Names of the mount points and their ancestors directly below `p`."""
        return {base_name(q) for q in (*self.mounts, *self._ancestors) if q != "/" and parent_of(q) == p}

    # -- queries -------------------------------------------------------------------------

    async def exists(self, path: str) -> bool:
        p = normalize_path(path)
        if self._is_fixed_dir(p):
            return True
        route = self._route(p)
        return await self._call(route, lambda: route.vfs.exists(route.inner))

    async def is_dir(self, path: str) -> bool:
        p = normalize_path(path)
        if self._is_fixed_dir(p):
            return True
        route = self._route(p)
        return await self._call(route, lambda: route.vfs.is_dir(route.inner))

    async def listdir(self, path: str = "/") -> list[str]:
        p = normalize_path(path)
        route = self._route(p)
        try:
            names = await self._call(route, lambda: route.vfs.listdir(route.inner))
        except VFSError as error:
            if not (self._is_fixed_dir(p) and error.code == "ENOENT"):
                raise
            names = []
        mounted = self._mounted_children(p)
        entries = [(name.rstrip("/"), name.endswith("/")) for name in names]
        entries = [(name, is_dir) for name, is_dir in entries if name not in mounted]
        entries += [(name, True) for name in mounted]
        return sort_listing(entries)

    async def read_bytes(self, path: str) -> bytes:
        p = normalize_path(path)
        if self._is_fixed_dir(p) and p not in self.mounts:
            raise VFSError("EISDIR", p)
        route = self._route(p)
        return await self._call(route, lambda: route.vfs.read_bytes(route.inner))

    async def read_text(self, path: str) -> str:
        p = normalize_path(path)
        if self._is_fixed_dir(p) and p not in self.mounts:
            raise VFSError("EISDIR", p)
        route = self._route(p)
        return await self._call(route, lambda: route.vfs.read_text(route.inner))

    async def stat(self, path: str) -> VFSStat:
        p = normalize_path(path)
        route = self._route(p)
        info = await self._call(route, lambda: route.vfs.stat(route.inner))
        if self._is_fixed_dir(p) and not info.is_dir:
            return VFSStat(p, True, True, 0, DIRECTORY, 0, 0o755)
        return dataclasses.replace(info, path=p)

    # -- changes -------------------------------------------------------------------------

    async def mkdir(self, path: str, parents: bool = True) -> str:
        p = normalize_path(path)
        if self._is_fixed_dir(p):
            return p
        route = self._route(p)
        inner = await self._call(route, lambda: route.vfs.mkdir(route.inner, parents))
        return self._outer(route, inner) or p

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = self._writable(path)
        route = self._route(p)
        inner = await self._call(route, lambda: route.vfs.write_bytes(route.inner, data, make_parents))
        return self._outer(route, inner) or p

    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = self._writable(path)
        route = self._route(p)
        inner = await self._call(route, lambda: route.vfs.append_bytes(route.inner, data, make_parents))
        return self._outer(route, inner) or p

    def _writable(self, path: str) -> str:
        p = normalize_path(path)
        if self._is_fixed_dir(p):
            raise VFSError("EISDIR", p)
        return p

    async def delete(self, path: str) -> str:
        p = normalize_path(path)
        if p in self.mounts:
            # A mount point stays; what is in it goes.
            for name in await self.listdir(p):
                await self.delete(child_path(p, name.rstrip("/")))
            return p
        if p != "/" and p in self._ancestors:
            raise VFSError("EINVAL", p)
        route = self._route(p)
        inner = await self._call(route, lambda: route.vfs.delete(route.inner))
        return self._outer(route, inner) or p

    async def chmod(self, path: str, mode: int) -> str:
        p = normalize_path(path)
        if p != "/" and p in self._ancestors and p not in self.mounts:
            raise VFSError("EINVAL", p)
        route = self._route(p)
        chmod = getattr(route.vfs, "chmod", None)
        if not callable(chmod):
            raise VFSError("EINVAL", p)
        inner = await self._call(route, lambda: chmod(route.inner, mode))
        return self._outer(route, inner) or p

    async def set_mtime(self, path: str, epoch_ms: int) -> str:
        p = normalize_path(path)
        if p != "/" and p in self._ancestors and p not in self.mounts:
            raise VFSError("EINVAL", p)
        route = self._route(p)
        set_mtime = getattr(route.vfs, "set_mtime", None)
        if not callable(set_mtime):
            raise VFSError("EINVAL", p)
        inner = await self._call(route, lambda: set_mtime(route.inner, epoch_ms))
        return self._outer(route, inner) or p

    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        s, d = normalize_path(src), normalize_path(dst)
        if self._same_file_system(s, d):
            return await self._delegate("copy", s, d)
        await self._copy_across(s, d, keep_mode=False)
        return s, d

    async def move(self, src: str, dst: str) -> tuple[str, str]:
        s, d = normalize_path(src), normalize_path(dst)
        if s == d:
            return s, d
        if self._is_fixed_dir(s):
            raise VFSError("EROOT" if s == "/" else "EINVAL", s)
        if self._same_file_system(s, d):
            return await self._delegate("move", s, d)
        await self._copy_across(s, d, keep_mode=True)
        await self.delete(s)
        return s, d

    def _same_file_system(self, s: str, d: str) -> bool:
        """Both paths in one file system, neither a mount point nor on the way to one."""
        if self._is_fixed_dir(s) or self._is_fixed_dir(d):
            return False
        return self._route(s).point == self._route(d).point

    async def _delegate(self, name: str, s: str, d: str) -> tuple[str, str]:
        route, target = self._route(s), self._route(d)
        operation = getattr(route.vfs, name)
        inner_s, inner_d = await self._call(route, lambda: operation(route.inner, target.inner))
        return self._outer(route, inner_s) or s, self._outer(route, inner_d) or d

    async def _copy_across(self, s: str, d: str, keep_mode: bool) -> None:
        """Copy node by node through this tree (so nested mounts are followed), with
        TreeVFS's checks: a file may replace a file, a directory needs a free target."""
        info = await self.stat(s)
        if not info.exists:
            raise VFSError("ENOENT", s)
        if not info.is_dir:
            if await self.is_dir(d):
                raise VFSError("EISDIR", d)
            created = not await self.exists(d)
            await self.write_bytes(d, await self.read_bytes(s))
            if info.mode is not None and (created or keep_mode):
                await self._set_mode(d, info.mode if keep_mode else info.mode & ~_UMASK)
            return
        if is_strict_descendant_path(s, d):
            raise VFSError("EINVAL", d, target_path=s)
        if await self.exists(d):
            raise VFSError("EEXIST", d)
        await self._copy_tree(s, d, info.mode, keep_mode)

    async def _copy_tree(self, s: str, d: str, mode: int | None, keep_mode: bool) -> None:
        await self.mkdir(d, True)
        for name in await self.listdir(s):
            is_dir = name.endswith("/")
            child, target = child_path(s, name.rstrip("/")), child_path(d, name.rstrip("/"))
            if is_dir:
                await self._copy_tree(child, target, (await self.stat(child)).mode, keep_mode)
            else:
                child_mode = (await self.stat(child)).mode
                await self.write_bytes(target, await self.read_bytes(child))
                if child_mode is not None:
                    await self._set_mode(target, child_mode if keep_mode else child_mode & ~_UMASK)
        if mode is not None:
            await self._set_mode(d, mode if keep_mode else mode & ~_UMASK)

    async def _set_mode(self, p: str, mode: int) -> None:
        try:
            await self.chmod(p, mode)
        except VFSError:
            pass  # a file system that keeps no modes

    # -- anything else -------------------------------------------------------------------

    @property
    def resource_policy(self) -> Any:
        return getattr(self.default, "resource_policy", None)
