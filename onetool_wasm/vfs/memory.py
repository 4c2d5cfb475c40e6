"""MemoryVFS: the whole tree in dictionaries; the default file system of a runtime.

Modification times come from `now_ms`, read once for every node a change creates or
rewrites (the root included, at construction), in the same order as upstream, so a
counter clock reproduces upstream's recorded times exactly. A copied or moved node is
stamped anew; a deletion or a refused operation reads no time. `set_mtime` sets a node's
time as given (touch -d, cp -p) and reads no clock.

Permission bits: `_modes` holds the nodes whose bits differ from the defaults (0o644 files,
0o755 directories); a moved node keeps its bits, a copied one gets them masked by umask 022.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .base import VFSStat
from .media import DIRECTORY, guess_media_type
from .paths import base_name, child_path, parent_of
from .policy import ResourcePolicyLike
from .snapshot import TreeSnapshot
from .tree import UMASK, Kind, TreeVFS, default_mode


@dataclass(frozen=True)
class _File:
    data: bytes
    mtime_ms: int


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class MemoryVFS(TreeVFS):
    def __init__(self, resource_policy: ResourcePolicyLike = None,
                 now_ms: Callable[[], int] | None = None) -> None:
        super().__init__(resource_policy)
        self._now_ms = now_ms or _wall_clock_ms
        # Both maps keep insertion order: tree copies stamp times in that order, as upstream.
        self._files: dict[str, _File] = {}
        self._dirs: dict[str, int] = {"/": self._now_ms()}
        self._names: dict[str, set[str]] = {"/": set()}  # directory -> child names
        self._modes: dict[str, int] = {}  # path -> permission bits, where not the default

    def _kind(self, p: str) -> Kind:
        if p in self._dirs:
            return "dir"
        return "file" if p in self._files else None

    def _children(self, p: str) -> Iterable[tuple[str, bool]]:
        return [(name, child_path(p, name) in self._dirs) for name in self._names[p]]

    def _load(self, p: str) -> bytes:
        return self._files[p].data

    def _store(self, p: str, data: bytes) -> None:
        self._put_file(p, data, self._now_ms())

    def _append(self, p: str, data: bytes) -> None:
        existing = self._files.get(p)
        self._put_file(p, existing.data + data if existing is not None else data, self._now_ms())

    def _make_dir(self, p: str) -> None:
        self._put_dir(p, self._now_ms())

    def _remove_file(self, p: str) -> None:
        del self._files[p]
        self._modes.pop(p, None)
        self._names[parent_of(p)].discard(base_name(p))

    def _remove_tree(self, p: str) -> None:
        prefix = p + "/"
        for file_path in [path for path in self._files if path.startswith(prefix)]:
            del self._files[file_path]
        for dir_path in [path for path in self._dirs if path == p or path.startswith(prefix)]:
            del self._dirs[dir_path]
            del self._names[dir_path]
        self._names[parent_of(p)].discard(base_name(p))
        for mode_path in [path for path in self._modes if path == p or path.startswith(prefix)]:
            del self._modes[mode_path]

    def _copy_tree(self, src: str, dst: str, mask: int = UMASK) -> None:
        prefix = src + "/"
        sub_dirs = [path for path in self._dirs if path.startswith(prefix)]
        files = [(path, entry.data) for path, entry in self._files.items() if path.startswith(prefix)]
        modes = {dst + path[len(src):]: mode for path, mode in self._modes.items()
                 if path == src or path.startswith(prefix)}
        self._put_dir(dst, self._now_ms())
        for dir_path in sub_dirs:
            self._put_dir(dst + dir_path[len(src):], self._now_ms())
        for file_path, data in files:
            self._put_file(dst + file_path[len(src):], data, self._now_ms())
        for path, mode in modes.items():
            self._keep_mode(path, mode & ~mask)

    def _move_file(self, src: str, dst: str) -> None:
        mode = self._modes.get(src)
        self._put_file(dst, self._files[src].data, self._now_ms())
        self._remove_file(src)
        self._modes.pop(dst, None)
        if mode is not None:
            self._modes[dst] = mode

    def _move_tree(self, src: str, dst: str) -> None:
        self._copy_tree(src, dst, mask=0)
        self._remove_tree(src)

    def _node_mode(self, p: str, kind: Kind) -> int | None:
        return self._modes.get(p, default_mode(kind))

    def _set_mode(self, p: str, mode: int) -> None:
        self._keep_mode(p, mode)

    def _keep_mode(self, p: str, mode: int) -> None:
        if mode == default_mode(self._kind(p)):
            self._modes.pop(p, None)
        else:
            self._modes[p] = mode

    def _set_mtime(self, p: str, kind: Kind, epoch_ms: int) -> None:
        if kind == "dir":
            self._dirs[p] = epoch_ms
        else:
            self._files[p] = _File(self._files[p].data, epoch_ms)

    def _stat_node(self, p: str, kind: Kind) -> VFSStat:
        if kind == "dir":
            return VFSStat(p, True, True, 0, DIRECTORY, self._dirs[p])
        entry = self._files[p]
        return VFSStat(p, True, False, len(entry.data), guess_media_type(base_name(p)), entry.mtime_ms)

    def _snapshot(self) -> TreeSnapshot:
        return TreeSnapshot(((path, len(entry.data)) for path, entry in self._files.items()), self._dirs)

    def _put_dir(self, p: str, mtime_ms: int) -> None:
        if p not in self._dirs:
            self._names[parent_of(p)].add(base_name(p))
            self._names[p] = set()
        self._dirs[p] = mtime_ms

    def _put_file(self, p: str, data: bytes, mtime_ms: int) -> None:
        if p not in self._files:
            self._names[parent_of(p)].add(base_name(p))
        self._files[p] = _File(data, mtime_ms)
