"""MemoryVFS: the whole tree in dictionaries; the default file system of a runtime.

Modification times come from `now_ms`, read once for every node a change creates or
rewrites (the root included, at construction), in the same order as upstream, so a
counter clock reproduces upstream's recorded times exactly.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..textutil import decode_utf8
from .base import VFSStat
from .errors import VFSError
from .media import DIRECTORY, guess_media_type
from .paths import ancestors_and_self, base_name, is_strict_descendant_path, normalize_path, parent_of
from .policy import ResourcePolicy, ResourcePolicyLike
from .snapshot import TreeSnapshot
from .listing import sort_listing


@dataclass(frozen=True)
class _File:
    data: bytes
    mtime_ms: int


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class MemoryVFS:
    def __init__(self, resource_policy: ResourcePolicyLike = None,
                 now_ms: Callable[[], int] | None = None) -> None:
        self.resource_policy = ResourcePolicy.from_value(resource_policy)
        self._now_ms = now_ms or _wall_clock_ms
        # Both maps keep insertion order: tree copies stamp times in that order, as upstream.
        self._files: dict[str, _File] = {}
        self._dirs: dict[str, int] = {"/": self._now_ms()}
        self._children: dict[str, set[str]] = {"/": set()}

    def normalize(self, path: str) -> str:
        return normalize_path(path)

    async def exists(self, path: str) -> bool:
        p = normalize_path(path)
        return p in self._dirs or p in self._files

    async def is_dir(self, path: str) -> bool:
        return normalize_path(path) in self._dirs

    async def mkdir(self, path: str, parents: bool = True) -> str:
        p = normalize_path(path)
        if p in self._files:
            raise VFSError("EEXIST", p)
        if parents:
            self._reject_file_on_path(p)
        else:
            self._require_parent_dir(p)
        self._enforce(p, lambda tree: tree.mkdir(p, parents))
        if parents:
            self._create_dirs(p)
        elif p not in self._dirs:
            self._put_dir(p, self._now_ms())
        return p

    async def listdir(self, path: str = "/") -> list[str]:
        p = normalize_path(path)
        if p not in self._dirs:
            raise VFSError("ENOTDIR" if p in self._files else "ENOENT", p)
        names = self._children[p]
        prefix = "/" if p == "/" else p + "/"
        return sort_listing((name, prefix + name in self._dirs) for name in names)

    async def read_bytes(self, path: str) -> bytes:
        p = normalize_path(path)
        if p in self._dirs:
            raise VFSError("EISDIR", p)
        entry = self._files.get(p)
        if entry is None:
            raise VFSError("ENOENT", p)
        return entry.data

    async def read_text(self, path: str) -> str:
        return decode_utf8(await self.read_bytes(path))

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = normalize_path(path)
        data = bytes(data)
        self._prepare_file_write(p, make_parents,
                                 lambda tree: tree.write(p, len(data), make_parents))
        self._put_file(p, data, self._now_ms())
        return p

    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = normalize_path(path)
        data = bytes(data)
        self._prepare_file_write(p, make_parents,
                                 lambda tree: tree.append(p, len(data), make_parents))
        existing = self._files.get(p)
        merged = existing.data + data if existing is not None else data
        self._put_file(p, merged, self._now_ms())
        return p

    async def delete(self, path: str) -> str:
        p = normalize_path(path)
        if p in self._files:
            self._drop_file(p)
            return p
        if p in self._dirs:
            if p == "/":
                raise VFSError("EROOT", p)
            self._drop_tree(p)
            return p
        raise VFSError("ENOENT", p)

    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        s, d = normalize_path(src), normalize_path(dst)
        if s in self._files:
            self._reject_file_on_path(parent_of(d))
            self._enforce(d, lambda tree: tree.copy(s, d))
            await self.write_bytes(d, self._files[s].data)
            return s, d
        if s in self._dirs:
            self._check_tree_destination(s, d)
            self._enforce(d, lambda tree: tree.copy(s, d))
            self._clone_tree(s, d)
            return s, d
        raise VFSError("ENOENT", s)

    async def move(self, src: str, dst: str) -> tuple[str, str]:
        s, d = normalize_path(src), normalize_path(dst)
        if s == d:
            return s, d
        if s in self._files:
            if d in self._dirs:
                raise VFSError("EISDIR", d)
            self._reject_file_on_path(parent_of(d))
            self._enforce(d, lambda tree: tree.move(s, d))
            data = self._files[s].data
            self._create_dirs(parent_of(d))
            self._put_file(d, data, self._now_ms())
            self._drop_file(s)
            return s, d
        if s in self._dirs:
            self._check_tree_destination(s, d)
            self._enforce(d, lambda tree: tree.move(s, d))
            self._clone_tree(s, d)
            self._drop_tree(s)
            return s, d
        raise VFSError("ENOENT", s)

    async def stat(self, path: str) -> VFSStat:
        p = normalize_path(path)
        if p in self._dirs:
            return VFSStat(p, True, True, 0, DIRECTORY, self._dirs[p])
        entry = self._files.get(p)
        if entry is not None:
            return VFSStat(p, True, False, len(entry.data), guess_media_type(base_name(p)), entry.mtime_ms)
        return VFSStat(p, False, False, 0, "", 0)

    # -- checks that change nothing -------------------------------------------------

    def _require_parent_dir(self, path: str) -> None:
        parent = parent_of(path)
        if parent in self._files:
            raise VFSError("ENOTDIR", parent)
        if parent not in self._dirs:
            raise VFSError("ENOENT", parent)

    def _reject_file_on_path(self, path: str) -> None:
        """ENOTDIR at the first file found along `path` (the path itself included)."""
        for step in ancestors_and_self(path):
            if step in self._files:
                raise VFSError("ENOTDIR", step)

    def _check_tree_destination(self, src: str, dst: str) -> None:
        if is_strict_descendant_path(src, dst):
            raise VFSError("EINVAL", dst, target_path=src)
        if dst in self._dirs or dst in self._files:
            raise VFSError("EEXIST", dst)
        self._reject_file_on_path(parent_of(dst))

    def _prepare_file_write(self, p: str, make_parents: bool,
                            change: Callable[[TreeSnapshot], None]) -> None:
        """Everything a write or append does before it stores bytes."""
        if p in self._dirs:
            raise VFSError("EISDIR", p)
        if make_parents:
            self._reject_file_on_path(parent_of(p))
        else:
            self._require_parent_dir(p)
        self._enforce(p, change)
        if make_parents:
            self._create_dirs(parent_of(p))

    def _enforce(self, context_path: str, change: Callable[[TreeSnapshot], None]) -> None:
        if not self.resource_policy.active:
            return
        tree = TreeSnapshot(((p, len(f.data)) for p, f in self._files.items()), self._dirs)
        change(tree)
        self.resource_policy.check(tree, context_path)

    # -- mutations --------------------------------------------------------------------

    def _create_dirs(self, path: str) -> None:
        for step in ancestors_and_self(path):
            if step in self._files:
                raise VFSError("ENOTDIR", step)
            if step not in self._dirs:
                self._put_dir(step, self._now_ms())

    def _put_dir(self, path: str, mtime_ms: int) -> None:
        if path not in self._dirs:
            self._children[parent_of(path)].add(base_name(path))
            self._children[path] = set()
        self._dirs[path] = mtime_ms

    def _put_file(self, path: str, data: bytes, mtime_ms: int) -> None:
        if path not in self._files:
            self._children[parent_of(path)].add(base_name(path))
        self._files[path] = _File(data, mtime_ms)

    def _drop_file(self, path: str) -> None:
        del self._files[path]
        self._children[parent_of(path)].discard(base_name(path))

    def _drop_tree(self, path: str) -> None:
        prefix = path + "/"
        for file_path in [p for p in self._files if p.startswith(prefix)]:
            del self._files[file_path]
        for dir_path in [p for p in self._dirs if p == path or p.startswith(prefix)]:
            del self._dirs[dir_path]
            del self._children[dir_path]
        self._children[parent_of(path)].discard(base_name(path))

    def _clone_tree(self, src: str, dst: str) -> None:
        """Copy the directory `src` to the new path `dst`, stamping every node now."""
        prefix = src + "/"
        sub_dirs = [p for p in self._dirs if p.startswith(prefix)]
        files = [(p, f.data) for p, f in self._files.items() if p.startswith(prefix)]
        self._create_dirs(parent_of(dst))
        self._put_dir(dst, self._now_ms())
        for dir_path in sub_dirs:
            self._put_dir(dst + dir_path[len(src):], self._now_ms())
        for file_path, data in files:
            self._put_file(dst + file_path[len(src):], data, self._now_ms())
