"""Resource limits a backend enforces before every change (None = unlimited)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Union

from .errors import resource_limit_error
from .paths import parent_of, path_segments
from .snapshot import TreeSnapshot

# Runtime spill files (truncated or binary command output) live here and have their own cap.
OUTPUT_ARTIFACT_PREFIX = "/.system/cmd-output/"

_CAMEL_NAMES = {
    "max_file_bytes": "maxFileBytes",
    "max_total_bytes": "maxTotalBytes",
    "max_directory_depth": "maxDirectoryDepth",
    "max_entries_per_directory": "maxEntriesPerDirectory",
    "max_output_artifact_bytes": "maxOutputArtifactBytes",
}
_SNAKE_NAMES = {camel: snake for snake, camel in _CAMEL_NAMES.items()}


@dataclass(frozen=True)
class ResourcePolicy:
    max_file_bytes: int | None = None
    max_total_bytes: int | None = None
    max_directory_depth: int | None = None
    max_entries_per_directory: int | None = None
    max_output_artifact_bytes: int | None = None

    def __post_init__(self) -> None:
        for field in fields(self):
            _validate_limit(field.name, getattr(self, field.name))

    @classmethod
    def from_value(cls, value: "ResourcePolicyLike") -> "ResourcePolicy":
        """Accept a policy, None, or a dict with snake_case or upstream camelCase keys."""
        if value is None:
            return cls()
        if isinstance(value, ResourcePolicy):
            return value
        if not isinstance(value, Mapping):
            raise TypeError(f"resource policy must be a mapping, got {type(value).__name__}")
        options: dict[str, Any] = {}
        for key, limit in value.items():
            name = _SNAKE_NAMES.get(key, key)
            if name not in _CAMEL_NAMES:
                raise ValueError(f"unknown resource policy option: {key}")
            _validate_limit(key, limit)
            options[name] = limit
        return cls(**options)

    @property
    def active(self) -> bool:
        return any(getattr(self, field.name) is not None for field in fields(self))

    def to_dict(self) -> dict[str, int]:
        """The set limits under their upstream camelCase names."""
        return {_CAMEL_NAMES[field.name]: getattr(self, field.name)
                for field in fields(self) if getattr(self, field.name) is not None}

    def check(self, snapshot: TreeSnapshot, context_path: str) -> None:
        """Raise ERESOURCE_LIMIT if the tree in `snapshot` breaks a limit.

        The order of the checks and the path each error names follow upstream:
        depth, then per file (size, artifact size), then total bytes (at the path being
        changed), then entries per directory (at the crowded directory).
        """
        if not self.active:
            return
        children: dict[str, int] = {}
        for directory in snapshot.dirs:
            if directory == "/":
                continue
            self._check_depth(directory, context_path)
            _count_child(children, parent_of(directory))
        total = 0
        for path, size in snapshot.files.items():
            total += size
            self._check_file(path, size)
            _count_child(children, parent_of(path))
        if self.max_total_bytes is not None and total > self.max_total_bytes:
            raise resource_limit_error(context_path, "maxTotalBytes", self.max_total_bytes, total)
        if self.max_entries_per_directory is not None:
            for directory, count in children.items():
                if count > self.max_entries_per_directory:
                    raise resource_limit_error(directory, "maxEntriesPerDirectory",
                                               self.max_entries_per_directory, count)

    def _check_depth(self, directory: str, context_path: str) -> None:
        depth = len(path_segments(directory))
        if self.max_directory_depth is not None and depth > self.max_directory_depth:
            raise resource_limit_error(context_path, "maxDirectoryDepth", self.max_directory_depth, depth)

    def _check_file(self, path: str, size: int) -> None:
        if self.max_file_bytes is not None and size > self.max_file_bytes:
            raise resource_limit_error(path, "maxFileBytes", self.max_file_bytes, size)
        artifact_cap = self.max_output_artifact_bytes
        if artifact_cap is not None and path.startswith(OUTPUT_ARTIFACT_PREFIX) and size > artifact_cap:
            raise resource_limit_error(path, "maxOutputArtifactBytes", artifact_cap, size)


ResourcePolicyLike = Union[ResourcePolicy, Mapping[str, Any], None]


def _count_child(children: dict[str, int], directory: str) -> None:
    children[directory] = children.get(directory, 0) + 1


def _validate_limit(name: str, value: Any) -> None:
    if value is None:
        return
    # bool is an int subclass, but `True` as a byte count is a mistake, not a limit.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer (got {value!r})")
