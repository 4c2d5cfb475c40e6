"""TreeVFS: the rules of the file system written once, over a few storage primitives.

Every backend gets the same normalisation, the same errors in the same order (upstream's),
and the same resource checks, made on a snapshot *before* anything changes, so a refused
operation leaves no trace. A backend only says how to look at and change its storage:
`_kind`, `_children`, `_load`, `_store`, `_append`, `_make_dir`, `_remove_file`,
`_remove_tree`, `_copy_tree`, `_move_file`, `_move_tree`, `_stat_node`, `_set_mtime`, `_snapshot`.
Every path goes through `checked_path` first: past the path caps (4096 bytes, 256 names,
255-byte names) an operation fails with ENAMETOOLONG before any work; `exists` and `is_dir`
say False, as `test -e` does.

Permission bits are optional: a backend that keeps them overrides `_node_mode` and
`_set_mode` (MemoryVFS, DirectoryVFS, BrowserVFS). New files are 0o644 and new directories
0o755 (GNU under umask 022); a copied file or tree gets the source's bits masked by that
umask (GNU `cp` without -p), a moved one keeps them, an overwritten file keeps its own.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Literal

from ..textutil import decode_utf8
from .base import VFSStat
from .errors import VFSError
from .listing import sort_listing
from .paths import (ancestors_and_self, checked_path, is_strict_descendant_path, normalize_path, parent_of,
                    path_limit_exceeded)
from .policy import ResourcePolicy, ResourcePolicyLike
from .snapshot import TreeSnapshot

Kind = Literal["dir", "file"] | None

FILE_MODE = 0o644
DIR_MODE = 0o755
UMASK = 0o022
PERMISSION_BITS = 0o777


def default_mode(kind: Kind) -> int:
    return DIR_MODE if kind == "dir" else FILE_MODE


class TreeVFS:
    def __init__(self, resource_policy: ResourcePolicyLike = None) -> None:
        self.resource_policy = ResourcePolicy.from_value(resource_policy)

    def normalize(self, path: str) -> str:
        return normalize_path(path)

    async def exists(self, path: str) -> bool:
        p = normalize_path(path)
        return path_limit_exceeded(p) is None and self._kind(p) is not None

    async def is_dir(self, path: str) -> bool:
        p = normalize_path(path)
        return path_limit_exceeded(p) is None and self._kind(p) == "dir"

    async def mkdir(self, path: str, parents: bool = True) -> str:
        p = checked_path(path)
        kind = self._kind(p)
        if kind == "file":
            raise VFSError("EEXIST", p)
        if parents:
            self._reject_file_on_path(p)
        else:
            self._require_parent_dir(p)
        self._enforce(p, lambda tree: tree.mkdir(p, parents))
        if parents:
            self._create_dirs(p)
        elif kind is None:
            self._make_dir(p)
        return p

    async def listdir(self, path: str = "/") -> list[str]:
        p = checked_path(path)
        kind = self._kind(p)
        if kind != "dir":
            raise VFSError("ENOENT" if kind is None else "ENOTDIR", p)
        return sort_listing(self._children(p))

    async def read_bytes(self, path: str) -> bytes:
        p = checked_path(path)
        kind = self._kind(p)
        if kind != "file":
            raise VFSError("ENOENT" if kind is None else "EISDIR", p)
        return self._load(p)

    async def read_text(self, path: str) -> str:
        return decode_utf8(await self.read_bytes(path))

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = checked_path(path)
        data = bytes(data)
        self._prepare_file_write(p, make_parents, lambda tree: tree.write(p, len(data), make_parents))
        self._store(p, data)
        return p

    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = checked_path(path)
        data = bytes(data)
        self._prepare_file_write(p, make_parents, lambda tree: tree.append(p, len(data), make_parents))
        self._append(p, data)
        return p

    async def delete(self, path: str) -> str:
        p = checked_path(path)
        if p == "/":
            raise VFSError("EROOT", p)
        kind = self._kind(p)
        if kind is None:
            raise VFSError("ENOENT", p)
        if kind == "file":
            self._remove_file(p)
        else:
            self._remove_tree(p)
        return p

    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        """A file replaces a file at `dst` (EISDIR on a directory); a directory needs a free
        `dst` (EEXIST) outside itself (EINVAL)."""
        s, d = checked_path(src), checked_path(dst)
        kind = self._kind(s)
        if kind is None:
            raise VFSError("ENOENT", s)
        if kind == "file":
            self._reject_file_on_path(parent_of(d))
            self._enforce(d, lambda tree: tree.copy(s, d))
            created = self._kind(d) is None
            mode = self._node_mode(s, kind)
            await self.write_bytes(d, self._load(s))
            if created and mode is not None:
                self._set_mode(d, mode & ~UMASK)
            return s, d
        self._check_tree_destination(s, d)
        self._enforce(d, lambda tree: tree.copy(s, d))
        self._create_dirs(parent_of(d))
        self._copy_tree(s, d)
        return s, d

    async def move(self, src: str, dst: str) -> tuple[str, str]:
        """Like `copy`, then the source is gone; moving a path onto itself does nothing."""
        s, d = checked_path(src), checked_path(dst)
        if s == d:
            return s, d
        kind = self._kind(s)
        if kind is None:
            raise VFSError("ENOENT", s)
        if kind == "file":
            if self._kind(d) == "dir":
                raise VFSError("EISDIR", d)
            self._reject_file_on_path(parent_of(d))
        else:
            self._check_tree_destination(s, d)
        self._enforce(d, lambda tree: tree.move(s, d))
        self._create_dirs(parent_of(d))
        if kind == "file":
            self._move_file(s, d)
        else:
            self._move_tree(s, d)
        return s, d

    async def stat(self, path: str) -> VFSStat:
        p = checked_path(path)
        kind = self._kind(p)
        if kind is None:
            return VFSStat(p, False, False, 0, "", 0)
        info = self._stat_node(p, kind)
        if info.mode is None:
            mode = self._node_mode(p, kind)
            if mode is not None:
                info = dataclasses.replace(info, mode=mode)
        return info

    async def chmod(self, path: str, mode: int) -> str:
        """Set the permission bits (only 0o777: no set-id or sticky bits) of an existing node."""
        p = checked_path(path)
        kind = self._kind(p)
        if kind is None:
            raise VFSError("ENOENT", p)
        if self._node_mode(p, kind) is None:
            raise VFSError("EINVAL", p)
        self._set_mode(p, int(mode) & PERMISSION_BITS)
        return p

    async def set_mtime(self, path: str, epoch_ms: int) -> str:
        """Set the modified time (ms since the epoch) of an existing node; nothing else changes."""
        p = checked_path(path)
        kind = self._kind(p)
        if kind is None:
            raise VFSError("ENOENT", p)
        self._set_mtime(p, kind, int(epoch_ms))
        return p

    # -- rules shared by the operations (nothing changes here) --------------------------

    def _require_parent_dir(self, p: str) -> None:
        parent = parent_of(p)
        kind = self._kind(parent)
        if kind != "dir":
            raise VFSError("ENOENT" if kind is None else "ENOTDIR", parent)

    def _reject_file_on_path(self, p: str) -> None:
        """ENOTDIR at the first file along `p` (`p` itself included)."""
        for step in ancestors_and_self(p):
            kind = self._kind(step)
            if kind == "file":
                raise VFSError("ENOTDIR", step)
            if kind is None:
                return

    def _check_tree_destination(self, src: str, dst: str) -> None:
        if is_strict_descendant_path(src, dst):
            raise VFSError("EINVAL", dst, target_path=src)
        if self._kind(dst) is not None:
            raise VFSError("EEXIST", dst)
        self._reject_file_on_path(parent_of(dst))

    def _prepare_file_write(self, p: str, make_parents: bool,
                            change: Callable[[TreeSnapshot], None]) -> None:
        """Everything a write or an append does before it stores bytes."""
        if self._kind(p) == "dir":
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
        tree = self._snapshot()
        change(tree)
        self.resource_policy.check(tree, context_path)

    def _create_dirs(self, p: str) -> None:
        for step in ancestors_and_self(p):
            kind = self._kind(step)
            if kind == "file":
                raise VFSError("ENOTDIR", step)
            if kind is None:
                self._make_dir(step)

    # -- storage primitives: paths are normalised and every check has passed ------------

    def _kind(self, p: str) -> Kind:
        """"dir", "file", or None when nothing is at `p`."""
        raise NotImplementedError

    def _children(self, p: str) -> Iterable[tuple[str, bool]]:
        """(name, is_dir) of the entries of the directory `p`, any order."""
        raise NotImplementedError

    def _load(self, p: str) -> bytes:
        raise NotImplementedError

    def _store(self, p: str, data: bytes) -> None:
        """Create or replace the file `p`; its parent exists."""
        raise NotImplementedError

    def _append(self, p: str, data: bytes) -> None:
        """Add to the file `p`, creating it if missing; its parent exists."""
        raise NotImplementedError

    def _make_dir(self, p: str) -> None:
        """Create the directory `p`; its parent exists."""
        raise NotImplementedError

    def _remove_file(self, p: str) -> None:
        raise NotImplementedError

    def _remove_tree(self, p: str) -> None:
        raise NotImplementedError

    def _copy_tree(self, src: str, dst: str) -> None:
        """Copy the directory `src` to the free path `dst`, whose parent exists."""
        raise NotImplementedError

    def _move_file(self, src: str, dst: str) -> None:
        """Move the file `src` to `dst` (a free path or a file); the parent exists."""
        raise NotImplementedError

    def _move_tree(self, src: str, dst: str) -> None:
        """Move the directory `src` to the free path `dst`, whose parent exists."""
        raise NotImplementedError

    def _stat_node(self, p: str, kind: Kind) -> VFSStat:
        raise NotImplementedError

    def _node_mode(self, p: str, kind: Kind) -> int | None:
        """The permission bits of the node `p`, or None when the backend keeps none."""
        return None

    def _set_mode(self, p: str, mode: int) -> None:
        """Set the permission bits of the existing node `p` (only if `_node_mode` keeps them)."""
        raise NotImplementedError

    def _set_mtime(self, p: str, kind: Kind, epoch_ms: int) -> None:
        """Give the existing node `p` the modified time `epoch_ms`."""
        raise NotImplementedError

    def _snapshot(self) -> TreeSnapshot:
        """Paths and file sizes of the whole tree, for the resource checks."""
        raise NotImplementedError
