"""Typed file-system errors.

`str(error)` is `CODE:/path`, exactly what upstream's errors carry, so an error that
reaches a model unformatted still names what failed and where. `error.message` is the
sentence a command shows a user.
"""
from __future__ import annotations

from typing import Any, Literal

VFSErrorCode = Literal["ENOENT", "EISDIR", "ENOTDIR", "EEXIST", "EINVAL", "EROOT", "EESCAPE",
                       "ERESOURCE_LIMIT", "ENAMETOOLONG", "EACCES"]

VFS_ERROR_CODES: frozenset[str] = frozenset(
    ("ENOENT", "EISDIR", "ENOTDIR", "EEXIST", "EINVAL", "EROOT", "EESCAPE", "ERESOURCE_LIMIT",
     "ENAMETOOLONG", "EACCES"))

# Codes whose sentence is the C library's, without the path: a too-long path would make a
# 40 KB message, and commands print these after their own `cmd: cannot ... 'path': `.
_STRERROR = {
    "ENAMETOOLONG": "File name too long",
    "EACCES": "Permission denied",
}

_DESCRIPTIONS = {
    "ENOENT": "path not found",
    "EISDIR": "path is a directory",
    "ENOTDIR": "parent is not a directory",
    "EEXIST": "path already exists",
    "EROOT": "cannot delete root",
    "EESCAPE": "path escapes workspace root",
}


class VFSError(Exception):
    """A file-system operation failed; `code` says why, `path` says where."""

    def __init__(self, code: VFSErrorCode, path: str, *, target_path: str | None = None,
                 details: dict[str, Any] | None = None) -> None:
        if code not in VFS_ERROR_CODES:
            raise ValueError(f"unknown VFS error code: {code}")
        super().__init__(f"{code}:{path}")
        self.code: VFSErrorCode = code
        self.path = path
        self.target_path = target_path
        self.details = details

    @property
    def message(self) -> str:
        """A sentence for a user, e.g. `path escapes workspace root: /link`."""
        if self.code == "ERESOURCE_LIMIT":
            return _describe_limit(self.path, self.details or {})
        if self.code in _STRERROR:
            return _STRERROR[self.code]
        if self.details and "reason" in self.details:
            return f"{self.details['reason']}: {self.path}"  # e.g. `not a regular file: /pipe`
        if self.code == "EINVAL" and self.target_path is not None:
            return f"cannot copy or move a directory into itself: {self.target_path} -> {self.path}"
        description = _DESCRIPTIONS.get(self.code, "invalid operation")
        return f"{description}: {self.path}"

    def __repr__(self) -> str:
        extra = ""
        if self.target_path is not None:
            extra += f", target_path={self.target_path!r}"
        if self.details is not None:
            extra += f", details={self.details!r}"
        return f"VFSError({self.code!r}, {self.path!r}{extra})"


def _describe_limit(path: str, details: dict[str, Any]) -> str:
    kind = details.get("limitKind", "resource limit")
    if "limit" in details and "actual" in details:
        return f"resource limit exceeded ({kind}: {details['actual']} > {details['limit']}) at {path}"
    return f"resource limit exceeded ({kind}) at {path}"


def resource_limit_error(path: str, limit_kind: str, limit: int, actual: int) -> VFSError:
    """The ERESOURCE_LIMIT error with upstream's details shape."""
    return VFSError("ERESOURCE_LIMIT", path,
                    details={"limitKind": limit_kind, "limit": limit, "actual": actual})
