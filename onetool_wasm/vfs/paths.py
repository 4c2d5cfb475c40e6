"""Path rules of the virtual file system: every path is absolute, `..` stops at `/`.

Every backend also refuses paths past fixed caps (`checked_path`), with ENAMETOOLONG
("File name too long"): more than MAX_PATH_BYTES bytes of UTF-8 (Linux's PATH_MAX), more
than MAX_PATH_DEPTH names, or one name longer than MAX_NAME_BYTES (NAME_MAX). The caps are
checked on the normalised path before any work that grows with the depth, so a hostile
`mkdir -p a/a/a/...` costs time and memory linear in its length and changes nothing.
"""
from __future__ import annotations

from .errors import VFSError

MAX_PATH_BYTES = 4096
MAX_PATH_DEPTH = 2048  # every name at least 1 byte plus its slash: what 4096 bytes allow
MAX_NAME_BYTES = 255


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


def path_limit_exceeded(p: str) -> str | None:
    """Which cap the normalised path `p` breaks ("length", "depth", "name"), or None."""
    if len(p) > MAX_PATH_BYTES:  # a char is at least one byte: no need to encode
        return "length"
    if p.count("/") > MAX_PATH_DEPTH:
        return "depth"
    encoded = p.encode("utf-8", "surrogatepass")
    if len(encoded) > MAX_PATH_BYTES:
        return "length"
    if len(p) > MAX_NAME_BYTES and any(len(name) > MAX_NAME_BYTES for name in encoded.split(b"/")):
        return "name"
    return None


def checked_path(path: str) -> str:
    """`normalize_path(path)`, or VFSError ENAMETOOLONG when it breaks a cap above."""
    p = normalize_path(path)
    kind = path_limit_exceeded(p)
    if kind is not None:
        raise VFSError("ENAMETOOLONG", p, details={"limitKind": f"path {kind}",
                                                   "limit": _LIMITS[kind]})
    return p


_LIMITS = {"length": MAX_PATH_BYTES, "depth": MAX_PATH_DEPTH, "name": MAX_NAME_BYTES}
