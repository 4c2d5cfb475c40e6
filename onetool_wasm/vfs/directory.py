"""DirectoryVFS: the virtual tree is a real directory, and nothing reaches outside it.

Virtual paths are normalised first (`..` clamps at `/`, every path is rooted, the caps of
paths.py apply). The host may change the folder while a command runs (swap a directory for
a link, add hard links, FIFOs, names that are not UTF-8), so no check is trusted by the
operation that follows it:

* Race-safe walks. Every operation opens the root, then each directory on the way with
  `os.open(name, O_RDONLY|O_DIRECTORY|O_NOFOLLOW, dir_fd=parent)`, and acts on the last
  name relative to that descriptor (`open`/`stat`/`mkdir`/`unlink`/`rename`/`scandir` with
  `dir_fd`, `follow_symlinks=False`). A link anywhere on the way, even one that appears
  between the checks and the act, fails the step: EESCAPE, never a read or write outside.
  The checks (`_kind`) give the errors their names and order (TreeVFS's); the walks give
  the safety. A directory renamed by the host while we hold it is still written in: it was
  inside the root when we entered it.
* Regular files only. A file is opened with O_NOFOLLOW|O_NONBLOCK and `fstat`-ed before a
  byte moves: a FIFO, socket or device is refused (EINVAL "not a regular file") without
  blocking (a FIFO without a reader fails to open for writing: ENXIO, the same error).
  Listings, tree copies and resource checks leave links and special files out.
* Hard links: nothing is changed in place in a file with more than one link. A write always
  replaces (a new file renamed over the name); an append, chmod or set_mtime of such a file
  first breaks the link (copy-on-write: the content goes to a new file renamed over the
  name), so the other name, maybe outside the root, keeps its bytes, bits and time.
* Atomic writes: the bytes go to `.onetool-<random>.tmp` created in the target directory
  through its descriptor (O_CREAT|O_EXCL|O_NOFOLLOW), then renamed over the name; on every
  error the temporary file is unlinked through the same descriptor.
* Names that are not UTF-8 are shown with each undecodable byte as `\\xNN` (lowercase hex,
  as `ls --quoting-style=c` writes it); the name given back resolves to the original bytes
  (Python's surrogateescape round trip), so such a file can be read, copied, deleted. A
  name that is literally written `\\xNN` wins if both exist.
* Where the platform lacks `dir_fd`/O_NOFOLLOW/O_DIRECTORY (`RACE_SAFE` is False: Windows,
  some emscripten builds), the same code runs on joined host paths with an `lstat` check
  of every step first: safe against links already there, not against a host racing us.
  `DirectoryVFS.race_safe` says which one an instance uses.

The rules are TreeVFS's (those of MemoryVFS); times and permission bits come from the file
system (`chmod` sets only the 0o777 bits).
"""
from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import shutil
import stat as stat_mode
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar, Union

from .base import VFSStat
from .errors import VFSError
from .media import DIRECTORY, guess_media_type
from .paths import base_name, child_path, path_limit_exceeded, path_segments
from .policy import ResourcePolicyLike
from .snapshot import TreeSnapshot
from .tree import Kind, TreeVFS

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_O_PATH = getattr(os, "O_PATH", 0)
_R = TypeVar("_R")

RACE_SAFE = bool(
    _NOFOLLOW and _DIRECTORY
    and {os.open, os.stat, os.mkdir, os.unlink, os.rmdir, os.rename} <= os.supports_dir_fd  # os.replace: same call
    and {os.scandir, os.chmod, os.utime, os.stat} <= os.supports_fd
    and getattr(shutil.rmtree, "avoids_symlink_attacks", False))

# A directory handle: a descriptor (race-safe mode) or a checked host path (fallback).
_Dir = Union[int, str]

_ERRNO_CODES = {
    errno.ENOENT: "ENOENT",
    errno.ENOTDIR: "ENOTDIR",
    errno.EISDIR: "EISDIR",
    errno.EEXIST: "EEXIST",
    errno.ENOTEMPTY: "EEXIST",
    errno.ELOOP: "EESCAPE",  # O_NOFOLLOW met a link that appeared after the checks
    errno.ENAMETOOLONG: "ENAMETOOLONG",
    errno.EACCES: "EACCES",
    errno.EPERM: "EACCES",
}
_SPECIAL = {errno.ENXIO, getattr(errno, "ENODEV", errno.ENXIO), getattr(errno, "EOPNOTSUPP", errno.ENXIO)}
_DISK_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_ESCAPED_BYTE = re.compile(r"\\x([89a-f][0-9a-f])")
_CHUNK = 1 << 20
# Recursive host walks (resource snapshot, tree copy) hold one descriptor and a few frames a
# level: deeper than this, a snapshot stops looking and a copy fails (ENAMETOOLONG).
HOST_WALK_DEPTH = 256


def _not_regular(p: str) -> VFSError:
    return VFSError("EINVAL", p, details={"reason": "not a regular file"})


def _os_errors(primitive: Callable[..., _R]) -> Callable[..., _R]:
    """Report the OS errors a race or a full disk can still raise as VFSErrors."""
    @functools.wraps(primitive)
    def wrapper(self: "DirectoryVFS", p: str, *args: object) -> _R:
        try:
            return primitive(self, p, *args)
        except OSError as error:
            if error.errno in _DISK_FULL:
                raise VFSError("ERESOURCE_LIMIT", p, details={"limitKind": "diskSpace"}) from error
            if error.errno in _SPECIAL:
                raise _not_regular(p) from error
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
        self.race_safe = RACE_SAFE

    # -- walking -----------------------------------------------------------------------

    def _open_root(self) -> _Dir:
        if not self.race_safe:
            return self.root
        try:
            return os.open(self.root, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR):  # the host made the root a link
                raise VFSError("EESCAPE", "/") from error
            raise

    @contextlib.contextmanager
    def _opened(self, segments: list[str]) -> Iterator[_Dir]:
        """The directory at `segments`, entered one name at a time without following links."""
        handle = self._open_root()
        step = ""
        try:
            for name in segments:
                step += "/" + name
                host = _host_name(handle, name)
                try:
                    entered = _enter(handle, host)
                except OSError as error:
                    if error.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(handle, host):
                        raise VFSError("EESCAPE", step) from error
                    raise
                _close(handle)
                handle = entered
            yield handle
        finally:
            _close(handle)

    @contextlib.contextmanager
    def _parent(self, p: str) -> Iterator[tuple[_Dir, str]]:
        """The parent directory of `p` and the host name of `p` in it."""
        segments = path_segments(p)
        with self._opened(segments[:-1]) as handle:
            yield handle, _host_name(handle, segments[-1])

    # -- TreeVFS's storage primitives ----------------------------------------------------

    @_os_errors
    def _kind(self, p: str) -> Kind:
        _check_host_safe(p)
        segments = path_segments(p)
        handle = self._open_root()
        step = ""
        try:
            for index, name in enumerate(segments):
                step += "/" + name
                host = _host_name(handle, name)
                try:
                    mode = _lstat(handle, host).st_mode
                except (FileNotFoundError, NotADirectoryError):
                    return None
                if stat_mode.S_ISLNK(mode):
                    raise VFSError("EESCAPE", step)
                if index == len(segments) - 1:
                    break
                if not stat_mode.S_ISDIR(mode):
                    return None
                try:
                    entered = _enter(handle, host)
                except OSError as error:  # changed since the lstat: judge it again
                    if _is_link(handle, host):
                        raise VFSError("EESCAPE", step) from error
                    if error.errno in (errno.ENOENT, errno.ENOTDIR):
                        return None
                    raise
                _close(handle)
                handle = entered
            else:
                return "dir"  # the root
        finally:
            _close(handle)
        if stat_mode.S_ISDIR(mode):
            return "dir"
        # Sockets, pipes and devices are not part of the virtual tree.
        return "file" if stat_mode.S_ISREG(mode) else None

    @_os_errors
    def _children(self, p: str) -> Iterable[tuple[str, bool]]:
        with self._opened(path_segments(p)) as handle:
            return [(name, is_dir) for name, is_dir, _ in _entries(handle)]

    @_os_errors
    def _load(self, p: str) -> bytes:
        with self._parent(p) as (handle, name):
            fd, _ = _open_regular(handle, name, os.O_RDONLY, p)
        return _read_all(fd)

    @_os_errors
    def _store(self, p: str, data: bytes) -> None:
        with self._parent(p) as (handle, name):
            mode = None
            try:
                info = _lstat(handle, name)
            except FileNotFoundError:
                info = None
            if info is not None:
                if stat_mode.S_ISLNK(info.st_mode):
                    raise VFSError("EESCAPE", p)
                if stat_mode.S_ISDIR(info.st_mode):
                    raise VFSError("EISDIR", p)
                if not stat_mode.S_ISREG(info.st_mode):
                    raise _not_regular(p)
                mode = stat_mode.S_IMODE(info.st_mode)
            _replace_file(handle, name, data, mode)

    @_os_errors
    def _append(self, p: str, data: bytes) -> None:
        with self._parent(p) as (handle, name):
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
            fd, info = _open_regular(handle, name, flags, p)
            try:
                if info.st_nlink <= 1:
                    _write_all(fd, data)
                    return
            finally:
                os.close(fd)
            # Another name shares this file: write a private copy and rename it over ours.
            old, info = _read_regular(handle, name, p)
            _replace_file(handle, name, old + data, stat_mode.S_IMODE(info.st_mode))

    @_os_errors
    def _make_dir(self, p: str) -> None:
        with self._parent(p) as (handle, name):
            _mkdir(handle, name)

    @_os_errors
    def _remove_file(self, p: str) -> None:
        with self._parent(p) as (handle, name):
            if stat_mode.S_ISDIR(_lstat(handle, name).st_mode):
                raise VFSError("EISDIR", p)
            _unlink(handle, name)

    @_os_errors
    def _remove_tree(self, p: str) -> None:
        with self._parent(p) as (handle, name):
            if stat_mode.S_ISLNK(_lstat(handle, name).st_mode):
                raise VFSError("EESCAPE", p)
            if isinstance(handle, int):
                shutil.rmtree(name, dir_fd=handle)  # fd-based: never follows a link inside
            else:
                shutil.rmtree(os.path.join(handle, name))

    @_os_errors
    def _copy_tree(self, src: str, dst: str) -> None:
        depth = len(path_segments(dst))
        with self._opened(path_segments(src)) as source, self._parent(dst) as (parent, name):
            _mkdir(parent, name)
            with _entered(parent, name) as target:
                _copy_dir(source, target, depth, dst)
            _copy_mode(source, None, parent, name)

    @_os_errors
    def _move_file(self, src: str, dst: str) -> None:
        self._move(src, dst, is_dir=False)

    @_os_errors
    def _move_tree(self, src: str, dst: str) -> None:
        self._move(src, dst, is_dir=True)

    def _move(self, src: str, dst: str, is_dir: bool) -> None:
        with self._parent(src) as (src_parent, src_name), self._parent(dst) as (dst_parent, dst_name):
            info = _lstat(src_parent, src_name)
            if stat_mode.S_ISLNK(info.st_mode):
                raise VFSError("EESCAPE", src)
            try:
                _replace(src_parent, src_name, dst_parent, dst_name)
                return
            except OSError as error:
                if error.errno != errno.EXDEV:
                    raise
            # A mount point inside the root: copy, then delete.
            if is_dir:
                _mkdir(dst_parent, dst_name)
                with _entered(src_parent, src_name) as source, _entered(dst_parent, dst_name) as target:
                    _copy_dir(source, target, len(path_segments(dst)), dst, mask=0)
                _copy_mode(src_parent, src_name, dst_parent, dst_name, mask=0)
                if isinstance(src_parent, int):
                    shutil.rmtree(src_name, dir_fd=src_parent)
                else:
                    shutil.rmtree(os.path.join(src_parent, src_name))
            else:
                data, info = _read_regular(src_parent, src_name, src)
                _replace_file(dst_parent, dst_name, data, stat_mode.S_IMODE(info.st_mode))
                _unlink(src_parent, src_name)

    @_os_errors
    def _stat_node(self, p: str, kind: Kind) -> VFSStat:
        info = self._lstat_node(p)
        mtime_ms = info.st_mtime_ns // 1_000_000
        mode = stat_mode.S_IMODE(info.st_mode) & 0o777
        if kind == "dir":
            return VFSStat(p, True, True, 0, DIRECTORY, mtime_ms, mode)
        return VFSStat(p, True, False, info.st_size, guess_media_type(base_name(p)), mtime_ms, mode)

    @_os_errors
    def _node_mode(self, p: str, kind: Kind) -> int | None:
        return stat_mode.S_IMODE(self._lstat_node(p).st_mode) & 0o777

    @_os_errors
    def _set_mode(self, p: str, mode: int) -> None:
        with self._node(p) as (target, _):
            os.chmod(target, mode & 0o777)

    @_os_errors
    def _set_mtime(self, p: str, kind: Kind, epoch_ms: int) -> None:
        with self._node(p) as (target, info):
            os.utime(target, ns=(info.st_atime_ns, epoch_ms * 1_000_000))

    def _lstat_node(self, p: str) -> os.stat_result:
        if p == "/":
            with self._opened([]) as handle:
                return os.stat(handle)
        with self._parent(p) as (handle, name):
            return _lstat(handle, name)

    @contextlib.contextmanager
    def _node(self, p: str) -> Iterator[tuple[int | str, os.stat_result]]:
        """Something os.chmod/os.utime change the node `p` through, never a link's target:
        a descriptor opened without following links (or, for a file we may not open, an
        O_PATH one reached through /proc/self/fd). A multiply linked file is first copied."""
        if p == "/":
            with self._opened([]) as handle:
                yield handle, os.stat(handle)
            return
        with self._parent(p) as (handle, name):
            if not isinstance(handle, int):  # fallback: the steps were lstat-checked
                path = os.path.join(handle, name)
                info = os.lstat(path)
                if stat_mode.S_ISLNK(info.st_mode):
                    raise VFSError("EESCAPE", p)
                yield path, info
                return
            fd, target = _open_node(handle, name, p)
            try:
                info = os.fstat(fd)
                if stat_mode.S_ISLNK(info.st_mode):
                    raise VFSError("EESCAPE", p)
                if not (stat_mode.S_ISDIR(info.st_mode) or stat_mode.S_ISREG(info.st_mode)):
                    raise _not_regular(p)
                if stat_mode.S_ISREG(info.st_mode) and info.st_nlink > 1:
                    os.close(fd)
                    fd = -1
                    data, info = _read_regular(handle, name, p)
                    _replace_file(handle, name, data, stat_mode.S_IMODE(info.st_mode),
                                  (info.st_atime_ns, info.st_mtime_ns))
                    fd, target = _open_node(handle, name, p)
                    info = os.fstat(fd)
                yield target, info
            finally:
                if fd >= 0:
                    os.close(fd)

    def _snapshot(self) -> TreeSnapshot:
        tree = TreeSnapshot()
        try:
            with self._opened([]) as handle:
                _collect(handle, "/", tree, 0)
        except OSError:
            pass  # a tree changing under us: check what could be seen
        return tree


# -- host helpers: a handle is a descriptor (race-safe) or a checked path (fallback) ---------

def _at(handle: _Dir, name: str) -> tuple[str, int | None]:
    return (name, handle) if isinstance(handle, int) else (os.path.join(handle, name), None)


def _lstat(handle: _Dir, name: str) -> os.stat_result:
    path, fd = _at(handle, name)
    return os.stat(path, dir_fd=fd, follow_symlinks=False)


def _is_link(handle: _Dir, name: str) -> bool:
    try:
        return stat_mode.S_ISLNK(_lstat(handle, name).st_mode)
    except OSError:
        return False


def _open(handle: _Dir, name: str, flags: int, mode: int = 0o666) -> int:
    path, fd = _at(handle, name)
    return os.open(path, flags | _NOFOLLOW | _CLOEXEC | _BINARY, mode, dir_fd=fd)


def _enter(handle: _Dir, name: str) -> _Dir:
    if isinstance(handle, int):
        return os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=handle)
    path = os.path.join(handle, name)
    mode = os.lstat(path).st_mode
    if stat_mode.S_ISLNK(mode):
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)
    if not stat_mode.S_ISDIR(mode):
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
    return path


@contextlib.contextmanager
def _entered(handle: _Dir, name: str) -> Iterator[_Dir]:
    entered = _enter(handle, name)
    try:
        yield entered
    finally:
        _close(entered)


def _close(handle: _Dir) -> None:
    if isinstance(handle, int):
        os.close(handle)


def _mkdir(handle: _Dir, name: str) -> None:
    path, fd = _at(handle, name)
    os.mkdir(path, 0o777, dir_fd=fd)


def _unlink(handle: _Dir, name: str) -> None:
    path, fd = _at(handle, name)
    os.unlink(path, dir_fd=fd)


def _replace(src_handle: _Dir, src: str, dst_handle: _Dir, dst: str) -> None:
    src_path, src_fd = _at(src_handle, src)
    dst_path, dst_fd = _at(dst_handle, dst)
    os.replace(src_path, dst_path, src_dir_fd=src_fd, dst_dir_fd=dst_fd)


def _open_regular(handle: _Dir, name: str, flags: int, p: str) -> tuple[int, os.stat_result]:
    """A descriptor on the regular file `name`, opened without following a link or blocking
    on a FIFO; anything else is refused before a byte moves."""
    fd = _open(handle, name, flags | _NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat_mode.S_ISREG(info.st_mode):
            raise _not_regular(p)
        if _NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def _read_regular(handle: _Dir, name: str, p: str) -> tuple[bytes, os.stat_result]:
    fd, info = _open_regular(handle, name, os.O_RDONLY, p)
    return _read_all(fd), info


def _read_all(fd: int) -> bytes:
    with os.fdopen(fd, "rb") as stream:
        return stream.read()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view[:_CHUNK]):]


def _open_node(handle: int, name: str, p: str) -> tuple[int, int | str]:
    """(descriptor, what to chmod/utime through) for the node `name`, links not followed."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=handle)
        return fd, fd
    except PermissionError:
        if not (_O_PATH and os.path.isdir("/proc/self/fd")):
            raise
    # A file we may not read (chmod 000): an O_PATH descriptor names the node itself.
    fd = os.open(name, _O_PATH | _NOFOLLOW | _CLOEXEC, dir_fd=handle)
    return fd, f"/proc/self/fd/{fd}"


def _replace_file(handle: _Dir, name: str, data: bytes, mode: int | None,
                  times_ns: tuple[int, int] | None = None) -> None:
    """Write `data` to a fresh file beside `name` (in the directory we hold), then rename it
    over `name`, so a reader never sees half a file; the temporary file never survives an
    error. `mode`: the bits to keep (an existing file's), else the umask's default."""
    temporary = f".onetool-{os.urandom(6).hex()}.tmp"
    fd = _open(handle, temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        try:
            _write_all(fd, data)
            if mode is not None:
                _fchmod(fd, handle, temporary, mode)
            if times_ns is not None and os.utime in os.supports_fd:
                os.utime(fd, ns=times_ns)
        finally:
            os.close(fd)
        _replace(handle, temporary, handle, name)
    except BaseException:
        with contextlib.suppress(OSError):
            _unlink(handle, temporary)
        raise


def _fchmod(fd: int, handle: _Dir, name: str, mode: int) -> None:
    try:
        if os.chmod in os.supports_fd:
            os.chmod(fd, mode)
        else:
            path, _ = _at(handle, name)
            os.chmod(path, mode)
    except OSError:
        pass  # a file system without modes (some emscripten ones)


def _copy_mode(src_handle: _Dir, src_name: str | None, dst_handle: _Dir, dst_name: str,
               mask: int = 0o022) -> None:
    """GNU `cp -r` without -p: a copy gets its source's bits masked by umask 022."""
    try:
        info = os.stat(src_handle) if src_name is None else _lstat(src_handle, src_name)
        with _entered(dst_handle, dst_name) as target:  # a descriptor: fchmod
            os.chmod(target, stat_mode.S_IMODE(info.st_mode) & 0o777 & ~mask)
    except OSError:
        pass  # a file system without modes (some emscripten ones)


def _copy_dir(source: _Dir, target: _Dir, depth: int, virtual: str, mask: int = 0o022) -> None:
    """Copy the entries of `source` into the empty directory `target` (links and special
    files left out); deeper than the path caps is refused, not followed."""
    for shown, is_dir, _, host in _listing(source):
        child = child_path(virtual, shown)
        if depth + 1 > HOST_WALK_DEPTH or path_limit_exceeded(child):
            raise VFSError("ENAMETOOLONG", child)
        if is_dir:
            _mkdir(target, host)
            with _entered(source, host) as sub_source, _entered(target, host) as sub_target:
                _copy_dir(sub_source, sub_target, depth + 1, child, mask)
            _copy_mode(source, host, target, host, mask)
        else:
            try:
                data, info = _read_regular(source, host, child)
            except (FileNotFoundError, VFSError):
                continue  # gone or no longer a regular file: the host changed it
            _replace_file(target, host, data, stat_mode.S_IMODE(info.st_mode) & 0o777 & ~mask)


def _collect(handle: _Dir, virtual: str, tree: TreeSnapshot, depth: int) -> None:
    for shown, is_dir, size, host in _listing(handle):
        child = child_path(virtual, shown)
        if path_limit_exceeded(child):
            continue  # out of the virtual tree's reach
        if is_dir:
            tree.dirs.setdefault(child)
            if depth + 1 < HOST_WALK_DEPTH:
                try:
                    with _entered(handle, host) as sub:
                        _collect(sub, child, tree, depth + 1)
                except OSError:
                    continue
        else:
            tree.files[child] = size


def _check_host_safe(p: str) -> None:
    """Refuse names the host would read as more than one path component."""
    if "\0" in p:
        raise VFSError("EINVAL", p)
    if os.sep == "/" and not os.altsep:
        return
    for name in path_segments(p):  # on Windows "a\\..\\.." or "C:" would leave the root
        if os.sep in name or (os.altsep and os.altsep in name) or os.path.splitdrive(name)[0]:
            raise VFSError("EESCAPE", p)


# -- names that are not UTF-8 ------------------------------------------------------------------

def _shown_name(host: str) -> str:
    """The virtual name of a host name: each undecodable byte (a surrogateescape code point
    U+DC80..U+DCFF) becomes the four characters `\\xNN`."""
    if host.isascii():
        return host
    return "".join(f"\\x{ord(char) - 0xDC00:02x}" if 0xDC80 <= ord(char) <= 0xDCFF else char
                   for char in host)


def _host_name(handle: _Dir, name: str) -> str:
    """The host name a virtual name stands for: itself, unless it holds `\\xNN` escapes
    (NN >= 80) and only the unescaped (undecodable) name exists."""
    if "\\x" not in name:
        return name
    raw = _ESCAPED_BYTE.sub(lambda match: chr(0xDC00 + int(match.group(1), 16)), name)
    if raw == name:
        return name
    try:
        _lstat(handle, name)
        return name
    except OSError:
        pass
    try:
        _lstat(handle, raw)
        return raw
    except (OSError, UnicodeError):
        return name


def _listing(handle: _Dir) -> list[tuple[str, bool, int, str]]:
    """(shown name, is_dir, size, host name) of the directories and regular files in
    `handle`, by shown name; links and special files are left out."""
    found: dict[str, tuple[str, bool, int, str]] = {}
    escaped = []
    with os.scandir(handle) as entries:
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    record = (entry.name, True, 0)
                elif entry.is_file(follow_symlinks=False):
                    record = (entry.name, False, entry.stat(follow_symlinks=False).st_size)
                else:
                    continue
            except OSError:
                continue  # removed while we looked
            shown = _shown_name(entry.name)
            if shown == entry.name:
                found[shown] = (shown, record[1], record[2], entry.name)
            else:
                escaped.append((shown, record[1], record[2], entry.name))
    for record in escaped:
        found.setdefault(record[0], record)  # a name really written `\xNN` wins
    return [found[name] for name in sorted(found)]


def _entries(handle: _Dir) -> list[tuple[str, bool, int]]:
    return [(shown, is_dir, size) for shown, is_dir, size, _ in _listing(handle)]
