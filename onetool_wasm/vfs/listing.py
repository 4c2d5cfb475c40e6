"""Directory listings: the order every backend returns, and a tree walk built on it."""
from __future__ import annotations

from collections.abc import Iterable

from .base import VFS
from .paths import child_path


def sort_listing(entries: Iterable[tuple[str, bool]]) -> list[str]:
    """(name, is_dir) pairs -> directories first with a trailing "/", then files; each group
    in code-point order (byte order of the UTF-8 names, like `LC_ALL=C ls`)."""
    ordered = sorted(entries, key=lambda entry: (not entry[1], entry[0]))
    return [name + "/" if is_dir else name for name, is_dir in ordered]


async def walk(vfs: VFS, path: str = "/") -> list[tuple[str, bool]]:
    """Every node below `path` as (path, is_dir), pre-order in listing order
    (`/a/`, `/a/x`, `/b.txt`); `path` itself is not included."""
    found: list[tuple[str, bool]] = []
    directory = vfs.normalize(path)
    for name in await vfs.listdir(directory):
        is_dir = name.endswith("/")
        child = child_path(directory, name[:-1] if is_dir else name)
        found.append((child, is_dir))
        if is_dir:
            found.extend(await walk(vfs, child))
    return found
