"""DirectoryVFS: the virtual tree is a real directory, and nothing reaches outside it.

Virtual paths are normalised first (`..` clamps at `/`, every path is rooted), then
each component is checked with `lstat`: a symbolic link anywhere on the way (whether it
points inside or outside the root) is refused with EESCAPE, and listings and tree
copies skip links. Files are opened with O_NOFOLLOW where the platform has it, and a
write lands in a temporary file that is renamed over the target. Semantics (errors,
their order, resource checks) are those of MemoryVFS; times come from the file system.
Only os/shutil calls are used, so this also runs over Pyodide's emscripten file system.
"""
from __future__ import annotations

import errno
import functools
import os
import shutil
import stat as stat_mode
from collections.abc import Awaitable, Callable, Iterator
from typing import Literal, TypeVar

from ..textutil import decode_utf8
from .base import VFSStat
from .errors import VFSError
from .media import DIRECTORY, guess_media_type
from .paths import (ancestors_and_self, base_name, child_path, is_strict_descendant_path,
                    normalize_path, parent_of)
from .listing import sort_listing
from .policy import ResourcePolicy, ResourcePolicyLike
from .snapshot import TreeSnapshot

Kind = Literal["dir", "file"] | None
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_T = TypeVar("_T")

_ERRNO_CODES = {
    errno.ENOENT: "ENOENT",
    errno.ENOTDIR: "ENOTDIR",
    errno.EISDIR: "EISDIR",
    errno.EEXIST: "EEXIST",
    errno.ENOTEMPTY: "EEXIST",
    errno.ELOOP: "EESCAPE",  # O_NOFOLLOW met a link that appeared after the lstat checks
}


def _translate_os_errors(method: Callable[..., Awaitable[_T]]) -> Callable[..., Awaitable[_T]]:
    """Turn the OS errors a race or a full disk can still raise into VFSErrors."""
    @functools.wraps(method)
    async def wrapper(self: "DirectoryVFS", path: str = "/", *args: object, **kwargs: object) -> _T:
        try:
            return await method(self, path, *args, **kwargs)
        except OSError as error:
            raise _vfs_error_from(error, normalize_path(path)) from error
    return wrapper


def _vfs_error_from(error: OSError, path: str) -> OSError | VFSError:
    if error.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return VFSError("ERESOURCE_LIMIT", path, details={"limitKind": "diskSpace"})
    code = _ERRNO_CODES.get(error.errno or 0)
    return VFSError(code, path) if code else error  # type: ignore[arg-type]


class DirectoryVFS:
    def __init__(self, root: str | os.PathLike[str], resource_policy: ResourcePolicyLike = None) -> None:
        absolute = os.path.abspath(os.fspath(root))
        os.makedirs(absolute, exist_ok=True)
        # The root itself may be reached through links; everything below it may not.
        self.root = os.path.realpath(absolute)
        self.resource_policy = ResourcePolicy.from_value(resource_policy)

    def normalize(self, path: str) -> str:
        return normalize_path(path)

    @_translate_os_errors
    async def exists(self, path: str) -> bool:
        return self._kind(normalize_path(path)) is not None

    @_translate_os_errors
    async def is_dir(self, path: str) -> bool:
        return self._kind(normalize_path(path)) == "dir"

    @_translate_os_errors
    async def mkdir(self, path: str, parents: bool = True) -> str:
        p = normalize_path(path)
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
            os.mkdir(self._host(p))
        return p

    @_translate_os_errors
    async def listdir(self, path: str = "/") -> list[str]:
        p = normalize_path(path)
        kind = self._kind(p)
        if kind != "dir":
            raise VFSError("ENOENT" if kind is None else "ENOTDIR", p)
        return sort_listing((name, is_dir) for name, is_dir, _ in self._entries(self._host(p)))

    @_translate_os_errors
    async def read_bytes(self, path: str) -> bytes:
        p = normalize_path(path)
        kind = self._kind(p)
        if kind == "dir":
            raise VFSError("EISDIR", p)
        if kind is None:
            raise VFSError("ENOENT", p)
        return _read_file(self._host(p))

    async def read_text(self, path: str) -> str:
        return decode_utf8(await self.read_bytes(path))

    @_translate_os_errors
    async def write_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = normalize_path(path)
        data = bytes(data)
        self._prepare_file_write(p, make_parents, lambda tree: tree.write(p, len(data), make_parents))
        _replace_file(self._host(p), data)
        return p

    @_translate_os_errors
    async def append_bytes(self, path: str, data: bytes, make_parents: bool = True) -> str:
        p = normalize_path(path)
        data = bytes(data)
        self._prepare_file_write(p, make_parents, lambda tree: tree.append(p, len(data), make_parents))
        fd = os.open(self._host(p), os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _BINARY, 0o666)
        with os.fdopen(fd, "ab") as handle:
            handle.write(data)
        return p

    @_translate_os_errors
    async def delete(self, path: str) -> str:
        p = normalize_path(path)
        if p == "/":
            raise VFSError("EROOT", p)
        kind = self._kind(p)
        if kind is None:
            raise VFSError("ENOENT", p)
        if kind == "file":
            os.unlink(self._host(p))
        else:
            shutil.rmtree(self._host(p))  # removes links inside without following them
        return p

    @_translate_os_errors
    async def copy(self, src: str, dst: str) -> tuple[str, str]:
        s, d = normalize_path(src), normalize_path(dst)
        kind = self._kind(s)
        if kind == "file":
            self._reject_file_on_path(parent_of(d))
            self._enforce(d, lambda tree: tree.copy(s, d))
            await self.write_bytes(d, _read_file(self._host(s)))
            return s, d
        if kind == "dir":
            self._check_tree_destination(s, d)
            self._enforce(d, lambda tree: tree.copy(s, d))
            self._create_dirs(parent_of(d))
            _copy_tree(self._host(s), self._host(d))
            return s, d
        raise VFSError("ENOENT", s)

    @_translate_os_errors
    async def move(self, src: str, dst: str) -> tuple[str, str]:
        s, d = normalize_path(src), normalize_path(dst)
        if s == d:
            return s, d
        kind = self._kind(s)
        if kind == "file":
            if self._kind(d) == "dir":
                raise VFSError("EISDIR", d)
            self._reject_file_on_path(parent_of(d))
        elif kind == "dir":
            self._check_tree_destination(s, d)
        else:
            raise VFSError("ENOENT", s)
        self._enforce(d, lambda tree: tree.move(s, d))
        self._create_dirs(parent_of(d))
        _rename(self._host(s), self._host(d), is_dir=kind == "dir")
        return s, d

    @_translate_os_errors
    async def stat(self, path: str) -> VFSStat:
        p = normalize_path(path)
        kind = self._kind(p)
        if kind is None:
            return VFSStat(p, False, False, 0, "", 0)
        info = os.lstat(self._host(p))
        mtime_ms = info.st_mtime_ns // 1_000_000
        if kind == "dir":
            return VFSStat(p, True, True, 0, DIRECTORY, mtime_ms)
        return VFSStat(p, True, False, info.st_size, guess_media_type(base_name(p)), mtime_ms)

    # -- mapping virtual paths to host paths --------------------------------------------

    def _host(self, p: str) -> str:
        return os.path.join(self.root, *p.split("/")[1:]) if p != "/" else self.root

    def _probe(self, p: str) -> Iterator[tuple[str, Kind]]:
        """(virtual path, kind) for each component of `p`, stopping after the first one
        that is missing or a file; a symbolic link raises EESCAPE."""
        if "\0" in p:
            raise VFSError("EINVAL", p)
        for step in ancestors_and_self(p):
            kind = self._lstat_kind(step)
            yield step, kind
            if kind != "dir":
                return

    def _lstat_kind(self, step: str) -> Kind:
        try:
            mode = os.lstat(self._host(step)).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        if stat_mode.S_ISLNK(mode):
            raise VFSError("EESCAPE", step)
        if stat_mode.S_ISDIR(mode):
            return "dir"
        # Sockets, pipes and devices are not part of the virtual tree.
        return "file" if stat_mode.S_ISREG(mode) else None

    def _kind(self, p: str) -> Kind:
        kind: Kind = "dir"  # the root
        for step, kind in self._probe(p):
            if kind != "dir" and step != p:
                return None
        return kind

    # -- checks that change nothing (same order and errors as MemoryVFS) ----------------

    def _require_parent_dir(self, p: str) -> None:
        parent = parent_of(p)
        kind = self._kind(parent)
        if kind != "dir":
            raise VFSError("ENOENT" if kind is None else "ENOTDIR", parent)

    def _reject_file_on_path(self, p: str) -> None:
        for step, kind in self._probe(p):
            if kind == "file":
                raise VFSError("ENOTDIR", step)

    def _check_tree_destination(self, src: str, dst: str) -> None:
        if is_strict_descendant_path(src, dst):
            raise VFSError("EINVAL", dst, target_path=src)
        if self._kind(dst) is not None:
            raise VFSError("EEXIST", dst)
        self._reject_file_on_path(parent_of(dst))

    def _prepare_file_write(self, p: str, make_parents: bool,
                            change: Callable[[TreeSnapshot], None]) -> None:
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
        tree = TreeSnapshot()
        self._collect(self.root, "/", tree)
        change(tree)
        self.resource_policy.check(tree, context_path)

    def _collect(self, host: str, virtual: str, tree: TreeSnapshot) -> None:
        for name, is_dir, size in self._entries(host):
            child = child_path(virtual, name)
            if is_dir:
                tree.dirs.setdefault(child)
                self._collect(os.path.join(host, name), child, tree)
            else:
                tree.files[child] = size

    @staticmethod
    def _entries(host: str) -> list[tuple[str, bool, int]]:
        """(name, is_dir, size) of the directories and regular files in `host`, by name;
        links and special files are left out."""
        return sorted(_scan(host))

    # -- mutations --------------------------------------------------------------------

    def _create_dirs(self, p: str) -> None:
        for step, kind in list(self._probe(p)):
            if kind == "file":
                raise VFSError("ENOTDIR", step)
            if kind is None:
                os.makedirs(self._host(p), exist_ok=True)
                return


def _scan(host: str) -> Iterator[tuple[str, bool, int]]:
    with os.scandir(host) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                yield entry.name, True, 0
            elif entry.is_file(follow_symlinks=False):
                yield entry.name, False, entry.stat(follow_symlinks=False).st_size


def _read_file(host: str) -> bytes:
    fd = os.open(host, os.O_RDONLY | _NOFOLLOW | _BINARY)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def _replace_file(host: str, data: bytes) -> None:
    """Write `data` to a fresh file beside `host`, then rename it over `host`, so a reader
    never sees half a file. An existing file keeps its permission bits."""
    temporary = os.path.join(os.path.dirname(host), f".onetool-{os.urandom(6).hex()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        try:
            os.chmod(temporary, stat_mode.S_IMODE(os.lstat(host).st_mode))
        except FileNotFoundError:
            pass
        os.replace(temporary, host)
    except BaseException:
        _discard(temporary)
        raise


def _discard(host: str) -> None:
    try:
        os.unlink(host)
    except OSError:
        pass


def _copy_tree(src: str, dst: str) -> None:
    os.mkdir(dst)
    for name, is_dir, _ in sorted(_scan(src)):
        if is_dir:
            _copy_tree(os.path.join(src, name), os.path.join(dst, name))
        else:
            _replace_file(os.path.join(dst, name), _read_file(os.path.join(src, name)))


def _rename(src: str, dst: str, is_dir: bool) -> None:
    try:
        os.replace(src, dst)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        # A mount point inside the root: fall back to copy and delete.
        if is_dir:
            _copy_tree(src, dst)
            shutil.rmtree(src)
        else:
            _replace_file(dst, _read_file(src))
            os.unlink(src)
