"""Path rules of the virtual file system: every path is absolute, `..` stops at `/`."""
from __future__ import annotations


def normalize_path(path: str) -> str:
    """Root a path at `/` and collapse `.`, `..` and repeated slashes."""
    kept: list[str] = []
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if kept:
                kept.pop()  # clamp at the root: nothing climbs above "/"
            continue
        kept.append(segment)
    return "/" + "/".join(kept)


def parent_of(path: str) -> str:
    """The parent of a normalised path; the root is its own parent."""
    cut = path.rfind("/")
    return "/" if cut <= 0 else path[:cut]


def base_name(path: str) -> str:
    """The last segment of a normalised path ("" for the root)."""
    return path[path.rfind("/") + 1:]


def is_strict_descendant_path(ancestor: str, candidate: str) -> bool:
    """True when `candidate` lies below `ancestor` (a path is not its own descendant)."""
    if candidate == ancestor:
        return False
    if ancestor == "/":
        return candidate.startswith("/")
    return candidate.startswith(ancestor + "/")


def path_segments(path: str) -> list[str]:
    """The names along a normalised path, root excluded."""
    return [segment for segment in path.split("/") if segment]


def ancestors_and_self(path: str) -> list[str]:
    """`/a/b/c` -> [`/a`, `/a/b`, `/a/b/c`]; the root yields nothing."""
    found: list[str] = []
    current = ""
    for segment in path_segments(path):
        current += "/" + segment
        found.append(current)
    return found


def child_path(directory: str, name: str) -> str:
    """Join a directory and a child name without doubling the root slash."""
    return "/" + name if directory == "/" else f"{directory}/{name}"
