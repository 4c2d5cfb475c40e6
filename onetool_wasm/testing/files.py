"""World file contents in every accepted spelling, as bytes."""
from __future__ import annotations

import base64
from typing import Any, Mapping


def file_bytes(content: Any) -> bytes | None:
    """A world file's bytes; None for a directory entry.

    Accepts str, bytes, {"text": ...}, {"b64": ...}, and the corpus forms
    {"kind": "text"|"bytes"|"dir", "text"|"data_b64": ...}.
    """
    if isinstance(content, str):
        return content.encode("utf-8")
    if isinstance(content, (bytes, bytearray)):
        return bytes(content)
    if isinstance(content, Mapping):
        if content.get("kind") == "dir":
            return None
        if "text" in content:
            return str(content["text"]).encode("utf-8")
        for key in ("b64", "data_b64"):
            if key in content:
                return base64.b64decode(content[key])
    raise ValueError(f"unsupported world file content: {content!r}")
