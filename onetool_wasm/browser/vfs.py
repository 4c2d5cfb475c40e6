"""BrowserVFS: the file system of a browser tab, kept in IndexedDB.

The rules are TreeVFS's (the same errors and checks as MemoryVFS); the storage is a
`Store`: in the browser, web/js/idb-store.js with upstream's layout (object stores `files`
{path, data, mtimeMs} and `dirs` {path, mtimeMs}, keyPath `path`); in tests, a fake.
A record may also hold `mode` (permission bits; `chmod`): a record without one (older
databases, or the default bits) is 0o644 for a file, 0o755 for a directory. The index
load gives it as an extra last element of a file's or directory's tuple.

* Reads of names, sizes and times come from a PathIndex loaded once, so `ls`, `stat` and
  `find` never wait for the database; only file contents are read from it.
* A change is first made to the index (journaled) while TreeVFS runs its checks, and
  collected as store operations; the whole operation (a `cp -r` too) is then committed in
  one IndexedDB transaction, and the call returns only after that transaction committed.
* If the store refuses (QuotaExceededError), the index is rolled back and the caller gets
  ERESOURCE_LIMIT; the transaction was aborted as a whole, so the store is unchanged.
* `set_mtime` (touch -d, cp -p) is stored with the existing operations (a file copied onto
  itself with the new time, a directory put again), so web/js/idb-store.js needs no new one.
* Other tabs' commits arrive as lists of changed paths (BroadcastChannel); they are queued
  and applied to the index before this tab's next operation. Nothing ever writes a whole
  tree back, so a stale tab cannot delete another tab's files.
"""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import Callable, Iterable
from typing import Any, AsyncIterator, Protocol

from ..vfs.base import VFSStat
from ..vfs.errors import VFSError
from ..vfs.media import DIRECTORY, guess_media_type
from ..vfs.paths import base_name, normalize_path
from ..vfs.policy import ResourcePolicyLike
from ..vfs.snapshot import TreeSnapshot
from ..vfs.tree import UMASK, Kind, TreeVFS, default_mode
from .index import PathIndex

QUOTA_ERROR_NAMES = frozenset({"QuotaExceededError"})
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("browser_vfs_depth", default=0)


class StoreError(Exception):
    """The store failed; `name` is the DOMException name (e.g. QuotaExceededError)."""

    def __init__(self, name: str, message: str = "") -> None:
        super().__init__(f"{name}: {message}" if message else name)
        self.name = name
        self.message = message


class Store(Protocol):
    """What BrowserVFS needs from its storage (web/js/idb-store.js through jsstore.py)."""

    async def load(self) -> tuple[list[tuple[str, int, int]], list[tuple[str, int]]]:
        """Files as (path, size, mtime_ms) and directories as (path, mtime_ms)."""
        ...

    async def read(self, path: str) -> bytes | None: ...

    async def commit(self, ops: list[dict[str, Any]], changes: list[dict[str, Any]]) -> None:
        """Apply `ops` in one transaction; after it commits, tell other tabs `changes`."""
        ...

    async def clear(self, root_mtime_ms: int) -> None:
        """Delete everything but a new root directory, in one transaction; tell other tabs."""
        ...

    def listen(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call `callback({"changes": [...]})` or `callback({"reset": True})` for other tabs' commits."""
        ...

    def close(self) -> None: ...


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class BrowserVFS(TreeVFS):
    def __init__(self, db_name: str = "one-tool-vfs", resource_policy: ResourcePolicyLike = None,
                 store: Store | None = None, now_ms: Callable[[], int] | None = None) -> None:
        super().__init__(resource_policy)
        self.db_name = db_name
        self._backend = store  # not `_store`: that name is TreeVFS's write primitive
        self._now_ms = now_ms or _wall_clock_ms
        self._index = PathIndex()
        self._loaded = False
        self._remote: list[dict[str, Any]] = []  # other tabs' messages, not applied yet
        self._ops: list[dict[str, Any]] = []
        self._preloaded: dict[str, bytes] = {}
        self._lock: asyncio.Lock | None = None
        self._listening = False
        self._modes: dict[str, int] = {}      # path -> permission bits, where not the default
        self._chmodded: list[str] = []        # nodes whose bits alone changed in this transaction

    # -- lifecycle -------------------------------------------------------------------------

    async def open(self) -> "BrowserVFS":
        """Load the index (the first operation does it anyway)."""
        await self._sync()
        return self

    async def clear(self) -> None:
        """Delete every file and directory; other tabs are told to start over."""
        async with self._mutex():
            await self._sync()
            now = self._now_ms()
            await self._backend_or_open().clear(now)
            self._index.load([], [("/", now)])
            self._modes = {}

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()

    def is_empty(self) -> bool:
        """No files or directories besides the runtime's /.system (after open())."""
        return self._index.is_empty()

    def entries(self) -> list[tuple[str, bool, int, int]]:
        """(path, is_dir, size, mtime_ms) of every node, sorted by path (after open())."""
        return list(self._index.entries())

    # -- the VFS interface: reads ----------------------------------------------------------

    async def exists(self, path: str) -> bool:
        await self._sync()
        return await super().exists(path)

    async def is_dir(self, path: str) -> bool:
        await self._sync()
        return await super().is_dir(path)

    async def listdir(self, path: str = "/") -> list[str]:
        await self._sync()
        return await super().listdir(path)

    async def stat(self, path: str) -> VFSStat:
        await self._sync()
        return await super().stat(path)

    async def read_bytes(self, path: str) -> bytes:
        await self._sync()
        p = normalize_path(path)
        await self._preload(p)
        try:
            return await super().read_bytes(p)
        finally:
            self._preloaded.pop(p, None)

    # -- the VFS interface: changes, each one transaction ---------------------------------------

    async def mkdir(self, path: str, parents: bool = True) -> str:
        async with self._mutation():
            return await super().mkdir(path, parents)

    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        async with self._mutation():
            return await super().write_bytes(path, data, make_parents)

    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        async with self._mutation():
            return await super().append_bytes(path, data, make_parents)

    async def delete(self, path: str) -> str:
        async with self._mutation():
            return await super().delete(path)

    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        async with self._mutation():
            s = normalize_path(src)
            await self._preload(s)  # a file copy passes its bytes through write_bytes
            try:
                return await super().copy(src, dst)
            finally:
                self._preloaded.pop(s, None)

    async def move(self, src: str, dst: str) -> tuple[str, str]:
        async with self._mutation():
            return await super().move(src, dst)

    async def chmod(self, path: str, mode: int) -> str:
        async with self._mutation():
            return await super().chmod(path, mode)

    async def set_mtime(self, path: str, epoch_ms: int) -> str:
        async with self._mutation():
            return await super().set_mtime(path, epoch_ms)

    # -- transactions ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _mutation(self) -> AsyncIterator[None]:
        """The outermost change of a task commits one transaction; nested changes join it."""
        depth = _depth.get()
        if depth:
            token = _depth.set(depth + 1)
            try:
                yield
            finally:
                _depth.reset(token)
            return
        async with self._mutex():
            await self._sync()
            token = _depth.set(1)
            self._index.begin()
            self._ops = []
            modes_before, self._chmodded = dict(self._modes), []
            try:
                yield
                await self._commit()
            except BaseException:
                self._index.rollback()
                self._modes = modes_before
                self._ops = []
                raise
            finally:
                _depth.reset(token)

    def _mutex(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def _commit(self) -> None:
        ops, changes = self._ops, self._with_modes(self._index.touched())
        if ops:
            try:
                await self._backend_or_open().commit(ops, changes)
            except StoreError as error:
                raise _store_failure(error, ops) from None  # rolled back by _mutation
            except BaseException:
                # Interrupted while the transaction was in flight: it may or may not have
                # committed, so the store is the truth from now on, not the journal.
                self._loaded = False
                raise
        self._index.end()
        self._ops = []

    # -- the index ---------------------------------------------------------------------------

    async def _sync(self) -> None:
        """Load the index once (again after an interrupted commit); apply other tabs' changes."""
        if _depth.get():
            return
        backend = self._backend_or_open()
        if not self._listening:
            backend.listen(self._remote.append)
            self._listening = True
        if any(message.get("reset") for message in self._remote):
            self._loaded = False
        if not self._loaded:
            self._remote.clear()  # the load below already holds what they say
            files, dirs = await backend.load()
            self._modes = {}
            for entry in files:
                if len(entry) > 3 and entry[3] is not None and int(entry[3]) != default_mode("file"):
                    self._modes[entry[0]] = int(entry[3])
            for entry in dirs:
                if len(entry) > 2 and entry[2] is not None and int(entry[2]) != default_mode("dir"):
                    self._modes[entry[0]] = int(entry[2])
            self._index.load([tuple(entry[:3]) for entry in files], [tuple(entry[:2]) for entry in dirs])
            self._loaded = True
            if not any(path == "/" for path, _ in dirs):  # a new database: root, as upstream
                root = {"path": "/", "kind": "dir", "mtimeMs": self._now_ms()}
                await backend.commit([{"op": "putDir", **root}], [root])
                self._index.apply(root)
        while self._remote:
            self._apply_remote(self._remote.pop(0))

    def _apply_remote(self, message: dict[str, Any]) -> None:
        for change in message.get("changes", ()):
            self._index.apply(change)
            path = change["path"]
            if change.get("kind") is None:
                self._forget_modes(path)
            elif change.get("mode") is not None and int(change["mode"]) != default_mode(change["kind"]):
                self._modes[path] = int(change["mode"])
            else:
                self._modes.pop(path, None)

    def _with_modes(self, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The index's changes, with each node's bits, and the nodes only chmod touched."""
        seen = {change["path"] for change in changes}
        for path in self._chmodded:
            kind = self._index.kind(path)
            if path in seen or kind is None:
                continue
            seen.add(path)
            if kind == "dir":
                changes.append({"path": path, "kind": "dir", "mtimeMs": self._index.dir_mtime(path)})
            else:
                size, mtime = self._index.file(path)
                changes.append({"path": path, "kind": "file", "size": size, "mtimeMs": mtime})
        for change in changes:
            if change.get("kind") is not None and change["path"] in self._modes:
                change["mode"] = self._modes[change["path"]]
        return changes

    def _forget_modes(self, p: str) -> None:
        prefix = "/" if p == "/" else p + "/"
        for path in [path for path in self._modes if path == p or path.startswith(prefix)]:
            del self._modes[path]

    async def _preload(self, p: str) -> None:
        """Fetch a file's bytes for the synchronous `_load`; a file gone meanwhile is forgotten."""
        if self._index.kind(p) != "file":
            return
        data = await self._backend_or_open().read(p)
        if data is None:
            self._index.remove(p)  # deleted by another tab whose message has not arrived
            return
        self._preloaded[p] = data

    def _backend_or_open(self) -> Store:
        if self._backend is None:
            from .jsstore import JsStore  # Pyodide only: the IndexedDB store of the worker
            self._backend = JsStore(self.db_name)
        return self._backend

    # -- TreeVFS's storage primitives: the index changes now, the store at commit ------------------

    def _kind(self, p: str) -> Kind:
        return self._index.kind(p)

    def _children(self, p: str) -> Iterable[tuple[str, bool]]:
        return self._index.children(p)

    def _load(self, p: str) -> bytes:
        return self._preloaded[p]

    def _store(self, p: str, data: bytes) -> None:
        mtime = self._now_ms()
        self._index.put_file(p, len(data), mtime)
        self._ops.append(self._moded({"op": "putFile", "path": p, "data": data, "mtimeMs": mtime}))

    def _append(self, p: str, data: bytes) -> None:
        mtime = self._now_ms()
        size = self._index.file(p)[0] if self._index.kind(p) == "file" else 0
        self._index.put_file(p, size + len(data), mtime)
        self._ops.append(self._moded({"op": "appendFile", "path": p, "data": data, "mtimeMs": mtime}))

    def _make_dir(self, p: str, mode: int | None = None) -> None:
        mtime = self._now_ms()
        self._index.put_dir(p, mtime)
        if mode is not None:
            self._keep_mode(p, "dir", mode)
        self._ops.append(self._moded({"op": "putDir", "path": p, "mtimeMs": mtime}))

    def _remove_file(self, p: str) -> None:
        self._index.remove(p)
        self._modes.pop(p, None)
        self._ops.append({"op": "deleteFile", "path": p})

    def _remove_tree(self, p: str) -> None:
        # The store deletes by key range, so files another tab just added go too.
        self._index.remove(p)
        self._forget_modes(p)
        self._ops.append({"op": "deleteTree", "path": p})

    def _copy_tree(self, src: str, dst: str, mask: int = UMASK) -> None:
        dirs, files = self._index.dirs_below(src), self._index.files_below(src)
        self._make_dir(dst, self._mode_of(src, "dir") & ~mask)
        for dir_path in dirs:
            self._make_dir(dst + dir_path[len(src):], self._mode_of(dir_path, "dir") & ~mask)
        for file_path in files:
            self._copy_file(file_path, dst + file_path[len(src):], self._mode_of(file_path, "file") & ~mask)

    def _move_file(self, src: str, dst: str) -> None:
        self._copy_file(src, dst, self._mode_of(src, "file"))
        self._remove_file(src)

    def _move_tree(self, src: str, dst: str) -> None:
        self._copy_tree(src, dst, mask=0)
        self._remove_tree(src)

    def _copy_file(self, src: str, dst: str, mode: int | None = None) -> None:
        mtime = self._now_ms()
        self._index.put_file(dst, self._index.file(src)[0], mtime)
        self._keep_mode(dst, "file", mode)
        self._ops.append(self._moded({"op": "copyFile", "from": src, "path": dst, "mtimeMs": mtime}))

    def _node_mode(self, p: str, kind: Kind) -> int | None:
        return self._mode_of(p, kind)

    def _set_mtime(self, p: str, kind: Kind, epoch_ms: int) -> None:
        # Existing operations only, so an older idb-store.js applies it too: a file is
        # copied onto itself with the new time, a directory put again (its bits kept).
        if kind == "dir":
            self._index.put_dir(p, epoch_ms)
            self._ops.append(self._moded({"op": "putDir", "path": p, "mtimeMs": epoch_ms}))
        else:
            self._index.put_file(p, self._index.file(p)[0], epoch_ms)
            self._ops.append(self._moded({"op": "copyFile", "from": p, "path": p, "mtimeMs": epoch_ms}))

    def _set_mode(self, p: str, mode: int) -> None:
        kind = self._index.kind(p)
        self._keep_mode(p, kind, mode)
        self._chmodded.append(p)
        self._ops.append({"op": "chmod", "path": p, "kind": kind, "mode": mode})

    def _mode_of(self, p: str, kind: Kind) -> int:
        return self._modes.get(p, default_mode(kind))

    def _keep_mode(self, p: str, kind: Kind, mode: int | None) -> None:
        if mode is None or mode == default_mode(kind):
            self._modes.pop(p, None)
        else:
            self._modes[p] = mode

    def _moded(self, op: dict[str, Any]) -> dict[str, Any]:
        """A put of a node whose bits are not the default carries them (`mode`)."""
        if op["path"] in self._modes:
            op["mode"] = self._modes[op["path"]]
        return op

    def _snapshot(self) -> TreeSnapshot:
        return self._index.snapshot()

    def _stat_node(self, p: str, kind: Kind) -> VFSStat:
        if kind == "dir":
            return VFSStat(p, True, True, 0, DIRECTORY, self._index.dir_mtime(p))
        size, mtime = self._index.file(p)
        return VFSStat(p, True, False, size, guess_media_type(base_name(p)), mtime)


def _store_failure(error: StoreError, ops: list[dict[str, Any]]) -> Exception:
    """A full browser store is a resource limit, reported at the path being written."""
    path = next((op["path"] for op in ops if op["op"] in ("putFile", "appendFile", "copyFile")), ops[0]["path"])
    if error.name in QUOTA_ERROR_NAMES:
        return VFSError("ERESOURCE_LIMIT", path, details={"limitKind": "browser storage quota"})
    return error
