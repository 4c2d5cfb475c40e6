"""A size-only picture of a file tree, for checking a change before making it.

A backend builds one from its current state, applies the change it is about to make,
and hands it to `ResourcePolicy.check`; only if that passes does it touch real data.
Insertion order is kept (dicts), because the first offending entry is the one reported.
"""
from __future__ import annotations

from collections.abc import Iterable

from .paths import ancestors_and_self, parent_of


class TreeSnapshot:
    def __init__(self, files: Iterable[tuple[str, int]] = (), dirs: Iterable[str] = ("/",)) -> None:
        self.files: dict[str, int] = dict(files)
        self.dirs: dict[str, None] = dict.fromkeys(dirs)
        self.dirs.setdefault("/")

    def ensure_dirs(self, path: str) -> None:
        for directory in ancestors_and_self(path):
            self.dirs.setdefault(directory)

    def mkdir(self, path: str, parents: bool) -> None:
        if parents:
            self.ensure_dirs(path)
        elif path != "/":
            self.dirs.setdefault(path)

    def write(self, path: str, size: int, make_parents: bool) -> None:
        if make_parents:
            self.ensure_dirs(parent_of(path))
        self.files[path] = size

    def append(self, path: str, added: int, make_parents: bool) -> None:
        self.write(path, self.files.get(path, 0) + added, make_parents)

    def delete(self, path: str) -> None:
        if self.files.pop(path, None) is not None:
            return
        prefix = path + "/"
        for file_path in [p for p in self.files if p.startswith(prefix)]:
            del self.files[file_path]
        for dir_path in [p for p in self.dirs if p == path or p.startswith(prefix)]:
            del self.dirs[dir_path]
        self.dirs.setdefault("/")

    def copy(self, src: str, dst: str) -> None:
        self.ensure_dirs(parent_of(dst))
        if src in self.files:
            self.files[dst] = self.files[src]
            return
        prefix = "/" if src == "/" else src + "/"
        self.dirs.setdefault(dst)
        for dir_path in [p for p in self.dirs if p != src and p.startswith(prefix)]:
            self.dirs.setdefault(dst + dir_path[len(src):])
        for file_path, size in [(p, s) for p, s in self.files.items() if p.startswith(prefix)]:
            self.files[dst + file_path[len(src):]] = size

    def move(self, src: str, dst: str) -> None:
        if src == dst:
            return
        self.copy(src, dst)
        self.delete(src)
