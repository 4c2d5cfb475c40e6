"""Values across the JavaScript boundary: JSON text plus a list of byte buffers.

Converting JS objects field by field is lossy (`null` becomes `jsnull`, numbers and
dicts need options), so the worker and Python exchange `{json, buffers}`: the JSON text of
the value with every byte string replaced by `{"__onetool_bytes__": i}`, and the byte
strings themselves, which cross as Uint8Array without base64. web/js/wire.js is the other
half.
"""
from __future__ import annotations

import json
from typing import Any

BYTES_KEY = "__onetool_bytes__"


def encode(value: Any) -> tuple[str, list[bytes]]:
    buffers: list[bytes] = []
    text = json.dumps(_lift(value, buffers), ensure_ascii=False, separators=(",", ":"))
    return text, buffers


def decode(text: str, buffers: list[bytes] | tuple[bytes, ...] = ()) -> Any:
    return _lower(json.loads(text), buffers) if text else None


def _lift(value: Any, buffers: list[bytes]) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        buffers.append(bytes(value))
        return {BYTES_KEY: len(buffers) - 1}
    if isinstance(value, dict):
        return {str(key): _lift(item, buffers) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lift(item, buffers) for item in value]
    return value


def _lower(value: Any, buffers: list[bytes] | tuple[bytes, ...]) -> Any:
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get(BYTES_KEY), int):
            return bytes(buffers[value[BYTES_KEY]])
        return {key: _lower(item, buffers) for key, item in value.items()}
    if isinstance(value, list):
        return [_lower(item, buffers) for item in value]
    return value
