"""The virtual file system: interface, errors, path rules, resource policy and backends."""
from .base import VFS, VFSStat
from .directory import DirectoryVFS
from .errors import VFS_ERROR_CODES, VFSError, VFSErrorCode, resource_limit_error
from .listing import sort_listing, walk
from .media import guess_media_type
from .memory import MemoryVFS
from .paths import base_name, is_strict_descendant_path, normalize_path, parent_of
from .policy import OUTPUT_ARTIFACT_PREFIX, ResourcePolicy
from .snapshot import TreeSnapshot
from .tree import TreeVFS

__all__ = [
    "DirectoryVFS", "MemoryVFS", "OUTPUT_ARTIFACT_PREFIX", "ResourcePolicy", "TreeSnapshot", "TreeVFS",
    "VFS", "VFSError", "VFSErrorCode", "VFSStat", "VFS_ERROR_CODES", "base_name", "guess_media_type",
    "is_strict_descendant_path", "normalize_path", "parent_of", "resource_limit_error", "sort_listing",
    "walk",
]
