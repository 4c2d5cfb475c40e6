"""Media types guessed from file names (upstream's table; anything else is octet-stream)."""
from __future__ import annotations

DIRECTORY = "inode/directory"
UNKNOWN = "application/octet-stream"

MEDIA_TYPES_BY_EXTENSION = {
    ".csv": "text/csv",
    ".gif": "image/gif",
    ".html": "text/html",
    ".jpeg": "image/jpeg",
    ".jpg": "image/jpeg",
    ".json": "application/json",
    ".md": "text/markdown",
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".txt": "text/plain",
    ".webp": "image/webp",
    ".xml": "application/xml",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
}


def guess_media_type(file_name: str, is_dir: bool = False) -> str:
    """`report.JSON` -> `application/json`; no or unknown extension -> octet-stream."""
    if is_dir:
        return DIRECTORY
    dot = file_name.rfind(".")
    if dot == -1:
        return UNKNOWN
    return MEDIA_TYPES_BY_EXTENSION.get(file_name[dot:].lower(), UNKNOWN)
