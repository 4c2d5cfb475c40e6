"""PathIndex: what BrowserVFS knows about its store without asking it.

Paths, file sizes and modification times of the whole tree (never file contents), so
`ls`, `stat`, `find` and the resource checks cost no database round trip. Changes made
between `begin()` and `end()` are journaled: `rollback()` undoes them when the store
refuses the transaction (a full disk), and `touched()` tells other tabs what changed.
Changes from other tabs arrive as `apply()` calls.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Literal

from ..vfs.paths import ancestors_and_self, base_name, child_path, parent_of
from ..vfs.snapshot import TreeSnapshot

Kind = Literal["dir", "file"] | None
_MISSING = object()


class PathIndex:
    def __init__(self) -> None:
        self._clear()
        self._journal: list[tuple[str, str, Any]] | None = None

    def _clear(self) -> None:
        # Insertion-ordered like MemoryVFS: the first offending entry is the one reported.
        self._files: dict[str, tuple[int, int]] = {}  # path -> (size, mtime_ms)
        self._dirs: dict[str, int] = {"/": 0}          # path -> mtime_ms
        self._names: dict[str, set[str]] = {"/": set()}

    # -- reading -----------------------------------------------------------------------

    def kind(self, p: str) -> Kind:
        if p in self._dirs:
            return "dir"
        return "file" if p in self._files else None

    def children(self, p: str) -> list[tuple[str, bool]]:
        return [(name, child_path(p, name) in self._dirs) for name in self._names.get(p, ())]

    def file(self, p: str) -> tuple[int, int]:
        """(size, mtime_ms) of the file `p`."""
        return self._files[p]

    def dir_mtime(self, p: str) -> int:
        return self._dirs[p]

    def files_below(self, p: str) -> list[str]:
        prefix = _prefix(p)
        return [path for path in self._files if path.startswith(prefix)]

    def dirs_below(self, p: str) -> list[str]:
        prefix = _prefix(p)
        return [path for path in self._dirs if path != p and path.startswith(prefix)]

    def snapshot(self) -> TreeSnapshot:
        return TreeSnapshot(((path, size) for path, (size, _) in self._files.items()), self._dirs)

    def entries(self) -> Iterator[tuple[str, bool, int, int]]:
        """(path, is_dir, size, mtime_ms) of every node, root excluded, sorted by path."""
        nodes = [(path, True, 0, mtime) for path, mtime in self._dirs.items() if path != "/"]
        nodes += [(path, False, size, mtime) for path, (size, mtime) in self._files.items()]
        return iter(sorted(nodes))

    def is_empty(self, ignore: str = "/.system") -> bool:
        """No node besides the root and the `ignore` tree (runtime files)."""
        return all(path in ("/", ignore) or path.startswith(ignore + "/") for path in [*self._dirs, *self._files])

    # -- changing ------------------------------------------------------------------------

    def put_file(self, p: str, size: int, mtime_ms: int) -> None:
        self._set(self._files, p, (size, mtime_ms))

    def put_dir(self, p: str, mtime_ms: int) -> None:
        self._set(self._dirs, p, mtime_ms)

    def remove(self, p: str) -> None:
        """Remove the node `p` and everything below it."""
        if p in self._files:
            self._set(self._files, p, _MISSING)
            return
        for path in self.files_below(p):
            self._set(self._files, path, _MISSING)
        for path in sorted(self.dirs_below(p), reverse=True):  # children before parents
            self._set(self._dirs, path, _MISSING)
        if p != "/" and p in self._dirs:
            self._set(self._dirs, p, _MISSING)

    def load(self, files: Iterable[tuple[str, int, int]], dirs: Iterable[tuple[str, int]]) -> None:
        """Replace everything with a store's contents; a file's missing parents are implied."""
        self._clear()
        for path, mtime in sorted(dirs):
            self.apply({"path": path, "kind": "dir", "mtimeMs": mtime})
        for path, size, mtime in files:
            self.apply({"path": path, "kind": "file", "size": size, "mtimeMs": mtime})

    def apply(self, change: dict[str, Any]) -> None:
        """A change another tab committed: {path, kind: "file"|"dir"|None, size, mtimeMs}."""
        p, kind, mtime = change["path"], change.get("kind"), int(change.get("mtimeMs") or 0)
        if kind is None:
            if p in self._files or p in self._dirs:
                self.remove(p)
            return
        if p == "/":
            self._dirs["/"] = mtime  # the root is always a directory
            return
        self._make_room(p, kind, mtime)
        if kind == "dir":
            self.put_dir(p, mtime)
        else:
            self.put_file(p, int(change.get("size") or 0), mtime)

    # -- the journal -----------------------------------------------------------------------

    def begin(self) -> None:
        self._journal = []

    def end(self) -> None:
        self._journal = None

    def rollback(self) -> None:
        journal, self._journal = self._journal or [], None
        for table, path, old in reversed(journal):
            self._set(self._files if table == "files" else self._dirs, path, old)

    def touched(self) -> list[dict[str, Any]]:
        """The final state of every path changed since begin(), in the order first touched."""
        changes, seen = [], set()
        for _, path, _ in self._journal or []:
            if path in seen:
                continue
            seen.add(path)
            if path in self._dirs:
                changes.append({"path": path, "kind": "dir", "mtimeMs": self._dirs[path]})
            elif path in self._files:
                size, mtime = self._files[path]
                changes.append({"path": path, "kind": "file", "size": size, "mtimeMs": mtime})
            else:
                changes.append({"path": path, "kind": None})
        return changes

    # -- internals ---------------------------------------------------------------------------

    def _make_room(self, p: str, kind: str, mtime: int) -> None:
        """Before a remote node lands: its ancestors are directories, its own path is free."""
        for step in ancestors_and_self(parent_of(p)):
            if step in self._files:
                self.remove(step)
            if step not in self._dirs:
                self.put_dir(step, mtime)
        if (kind == "file" and p in self._dirs) or (kind == "dir" and p in self._files):
            self.remove(p)

    def _set(self, table: dict, p: str, value: Any) -> None:
        old = table.get(p, _MISSING)
        if old is value:
            return
        if self._journal is not None:
            self._journal.append(("files" if table is self._files else "dirs", p, old))
        if value is _MISSING:
            del table[p]
            if table is self._dirs:
                del self._names[p]
            self._names[parent_of(p)].discard(base_name(p))
            return
        if old is _MISSING:
            self._names[parent_of(p)].add(base_name(p))
            if table is self._dirs:
                self._names[p] = set()
        table[p] = value


def _prefix(p: str) -> str:
    return "/" if p == "/" else p + "/"
