"""DirectoryVFS: the virtual tree is a real directory, and nothing reaches outside it.

Virtual paths are normalised first (`..` clamps at `/`, every path is rooted), then
each component is checked with `lstat`: a symbolic link anywhere on the way (whether it
points inside or outside the root) is refused with EESCAPE, and listings, tree copies
and resource checks skip links. Files are opened with O_NOFOLLOW where the platform has
it, and a write lands in a temporary file that is renamed over the target. The rules are
TreeVFS's (those of MemoryVFS); times and permission bits come from the file system
(`chmod` sets only the 0o777 bits, on a path already checked link-free). Only os/shutil calls are
used, so this also runs over Pyodide's emscripten file system.
"""
from __future__ import annotations

import errno
import functools
import os
import shutil
import stat as stat_mode
from collections.abc import Callable, Iterable
from typing import TypeVar

from .base import VFSStat
from .errors import VFSError
from .media import DIRECTORY, guess_media_type
from .paths import ancestors_and_self, base_name, child_path, path_segments
from .policy import ResourcePolicyLike
from .snapshot import TreeSnapshot
from .tree import Kind, TreeVFS

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_R = TypeVar("_R")

_ERRNO_CODES = {
    errno.ENOENT: "ENOENT",
    errno.ENOTDIR: "ENOTDIR",
    errno.EISDIR: "EISDIR",
    errno.EEXIST: "EEXIST",
    errno.ENOTEMPTY: "EEXIST",
    errno.ELOOP: "EESCAPE",  # O_NOFOLLOW met a link that appeared after the lstat checks
}
_DISK_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


def _os_errors(primitive: Callable[..., _R]) -> Callable[..., _R]:
    """Report the OS errors a race or a full disk can still raise as VFSErrors."""
    @functools.wraps(primitive)
    def wrapper(self: "DirectoryVFS", p: str, *args: object) -> _R:
        try:
            return primitive(self, p, *args)
        except OSError as error:
            if error.errno in _DISK_FULL:
                raise VFSError("ERESOURCE_LIMIT", p, details={"limitKind": "diskSpace"}) from error
            code = _ERRNO_CODES.get(error.errno or 0)
            if code is None:
                raise
            raise VFSError(code, p) from error  # type: ignore[arg-type]
    return wrapper


class DirectoryVFS(TreeVFS):
    def __init__(self, root: str | os.PathLike[str], resource_policy: ResourcePolicyLike = None) -> None:
        super().__init__(resource_policy)
        absolute = os.path.abspath(os.fspath(root))
        os.makedirs(absolute, exist_ok=True)
        # The root itself may be reached through links; nothing below it may.
        self.root = os.path.realpath(absolute)

    @_os_errors
    def _kind(self, p: str) -> Kind:
        _check_host_safe(p)
        kind: Kind = "dir"  # the root
        for step in ancestors_and_self(p):
            kind = self._lstat_kind(step)
            if kind != "dir":
                return kind if step == p else None
        return kind

    @_os_errors
    def _children(self, p: str) -> Iterable[tuple[str, bool]]:
        return [(name, is_dir) for name, is_dir, _ in _entries(self._host(p))]

    @_os_errors
    def _load(self, p: str) -> bytes:
        return _read_file(self._host(p))

    @_os_errors
    def _store(self, p: str, data: bytes) -> None:
        _replace_file(self._host(p), data)

    @_os_errors
    def _append(self, p: str, data: bytes) -> None:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _BINARY
        with os.fdopen(os.open(self._host(p), flags, 0o666), "ab") as handle:
            handle.write(data)

    @_os_errors
    def _make_dir(self, p: str) -> None:
        os.mkdir(self._host(p))

    @_os_errors
    def _remove_file(self, p: str) -> None:
        os.unlink(self._host(p))

    @_os_errors
    def _remove_tree(self, p: str) -> None:
        shutil.rmtree(self._host(p))  # removes links inside without following them

    @_os_errors
    def _copy_tree(self, src: str, dst: str) -> None:
        _copy_tree(self._host(src), self._host(dst))

    @_os_errors
    def _move_file(self, src: str, dst: str) -> None:
        _rename(self._host(src), self._host(dst), is_dir=False)

    @_os_errors
    def _move_tree(self, src: str, dst: str) -> None:
        _rename(self._host(src), self._host(dst), is_dir=True)

    @_os_errors
    def _stat_node(self, p: str, kind: Kind) -> VFSStat:
        info = os.lstat(self._host(p))
        mtime_ms = info.st_mtime_ns // 1_000_000
        mode = stat_mode.S_IMODE(info.st_mode) & 0o777
        if kind == "dir":
            return VFSStat(p, True, True, 0, DIRECTORY, mtime_ms, mode)
        return VFSStat(p, True, False, info.st_size, guess_media_type(base_name(p)), mtime_ms, mode)

    @_os_errors
    def _node_mode(self, p: str, kind: Kind) -> int | None:
        return stat_mode.S_IMODE(os.lstat(self._host(p)).st_mode) & 0o777

    @_os_errors
    def _set_mode(self, p: str, mode: int) -> None:
        # `_kind` has checked every component with lstat: no link on the way (EESCAPE).
        self._kind(p)
        os.chmod(self._host(p), mode & 0o777)

    def _snapshot(self) -> TreeSnapshot:
        tree = TreeSnapshot()
        self._collect(self.root, "/", tree)
        return tree

    def _collect(self, host: str, virtual: str, tree: TreeSnapshot) -> None:
        for name, is_dir, size in _entries(host):
            child = child_path(virtual, name)
            if is_dir:
                tree.dirs.setdefault(child)
                self._collect(os.path.join(host, name), child, tree)
            else:
                tree.files[child] = size

    def _host(self, p: str) -> str:
        return os.path.join(self.root, *path_segments(p))

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


def _check_host_safe(p: str) -> None:
    """Refuse names the host would read as more than one path component."""
    if "\0" in p:
        raise VFSError("EINVAL", p)
    if os.sep == "/" and not os.altsep:
        return
    for name in path_segments(p):  # on Windows "a\\..\\.." or "C:" would leave the root
        if os.sep in name or (os.altsep and os.altsep in name) or os.path.splitdrive(name)[0]:
            raise VFSError("EESCAPE", p)


def _entries(host: str) -> list[tuple[str, bool, int]]:
    """(name, is_dir, size) of the directories and regular files in `host`, by name;
    links and special files are left out."""
    found = []
    with os.scandir(host) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                found.append((entry.name, True, 0))
            elif entry.is_file(follow_symlinks=False):
                found.append((entry.name, False, entry.stat(follow_symlinks=False).st_size))
    return sorted(found)


def _read_file(host: str) -> bytes:
    with os.fdopen(os.open(host, os.O_RDONLY | _NOFOLLOW | _BINARY), "rb") as handle:
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
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _copy_tree(src: str, dst: str) -> None:
    """GNU `cp -r` without -p: each copy gets its source's bits masked by umask 022."""
    os.mkdir(dst)
    for name, is_dir, _ in _entries(src):
        if is_dir:
            _copy_tree(os.path.join(src, name), os.path.join(dst, name))
        else:
            _replace_file(os.path.join(dst, name), _read_file(os.path.join(src, name)))
            _copy_mode(os.path.join(src, name), os.path.join(dst, name))
    _copy_mode(src, dst)


def _copy_mode(src: str, dst: str) -> None:
    try:
        os.chmod(dst, stat_mode.S_IMODE(os.lstat(src).st_mode) & 0o755)
    except OSError:
        pass  # a file system without modes (some emscripten ones)


def _rename(src: str, dst: str, is_dir: bool) -> None:
    try:
        os.replace(src, dst)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        # A mount point inside the root: copy, then delete.
        if is_dir:
            _copy_tree(src, dst)
            shutil.rmtree(src)
        else:
            _replace_file(dst, _read_file(src))
            os.unlink(src)
