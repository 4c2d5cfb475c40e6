"""Operation results as JSON for the model: redacted, binary summarised, cut at a limit.

A result over the limit keeps its shape (so `| json get` paths still work): arrays keep
their first items and long strings are shortened until it fits, and a note says what was
cut and how to narrow the request.
"""
from __future__ import annotations

import base64
import dataclasses
import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

from ..redaction import REDACTED, redact, redact_text
from ..result import printable
from ..textutil import format_size, looks_binary


@dataclass(frozen=True)
class EncodedResult:
    text: str          # pretty JSON, ending with a newline
    note: str = ""     # set when the result was cut


def to_json_value(value: Any) -> Any:
    """Plain JSON data: bytes summarised or decoded, dataclasses and tuples unpacked, text
    made encodable and non-finite numbers null."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return to_json_value(summarise_bytes(bytes(value)))  # its JSON may hold NaN or "\ud800"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json_value(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {printable(str(key)): to_json_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_json_value(item) for item in value]
    if isinstance(value, str):
        return printable(value)  # a lone surrogate could not be encoded as UTF-8
    if isinstance(value, float) and not math.isfinite(value):
        return None  # as JSON.stringify writes NaN and Infinity; json.dumps would write no JSON
    if value is None or isinstance(value, (int, float, bool)):
        return value
    return printable(str(value))


def summarise_bytes(data: bytes, content_type: str | None = None) -> Any:
    """Text bytes become their JSON value or string; binary becomes a short description."""
    if not looks_binary(data):
        text = data.decode("utf-8", errors="replace")
        try:
            return json.loads(text)
        except ValueError:
            return text
    summary: dict[str, Any] = {"binary": True, "bytes": len(data)}
    if content_type:
        summary["contentType"] = content_type
    summary["preview_b64"] = binary_preview(data[:24])
    summary["note"] = f"binary payload ({format_size(len(data))}) not shown"
    return summary


_TOKEN_PREFIXES = ("sk-", "sk_", "rk_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "glpat-",
                   "AIza", "eyJ", "AKIA", "ASIA", "PRIVATE KEY")
_SECRET_WORDS = ("bearer", "basic ", "password", "passwd", "secret", "token", "api_key", "apikey", "api-key")


def binary_preview(head: bytes, secrets: Any = ()) -> str:
    """The first bytes in base64, unless a secret shows in them (as text or base64)."""
    encoded = base64.b64encode(head).decode("ascii")
    as_text = head.decode("latin-1")
    lowered = as_text.lower()
    if (any(prefix in as_text for prefix in _TOKEN_PREFIXES) or any(word in lowered for word in _SECRET_WORDS)
            or redact_text(as_text, secrets) != as_text or redact_text(encoded, secrets) != encoded):
        return REDACTED  # a token may start here and be cut at the preview's end
    return encoded


def dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def encode_result(value: Any, limit: int, hint_fields: list[str] | None = None,
                  secrets: Any = ()) -> EncodedResult:
    """Redact (secret keys, token shapes, the registered `secrets`), serialise, and cut to
    `limit` bytes when needed (after redacting, so a cut never leaves part of a secret)."""
    value = redact(to_json_value(value), secrets)
    text = dump(value)
    size = len(text.encode("utf-8"))
    if size <= limit:
        return EncodedResult(text)
    shrunk, cut = shrink(value, limit)
    return EncodedResult(dump(shrunk), shrink_note(size, limit, cut, hint_fields or []))


def shrink(value: Any, limit: int) -> tuple[Any, dict[str, int]]:
    """Keep as many array items as fit, shortening long strings only when that is not enough."""
    longest = _longest_array(value)
    for max_chars in (None, 1024, 256, 64):
        best = None
        low, high = 1, max(1, longest)
        while low <= high:  # the largest item count that fits (fitting shrinks as items grow)
            middle = (low + high) // 2
            cut = {"arrays": 0, "strings": 0, "items": 0}
            candidate = _cap(value, middle, max_chars, cut)
            if _size(candidate) <= limit:
                best, low = (candidate, cut), middle + 1
            else:
                high = middle - 1
        if best is not None:
            return best
    return _outline(value), {"arrays": 0, "strings": 0, "items": 0, "outline": 1}


def _size(value: Any) -> int:
    return len(dump(value).encode("utf-8"))


def _longest_array(value: Any) -> int:
    if isinstance(value, list):
        return max([len(value), *[_longest_array(item) for item in value]])
    if isinstance(value, dict):
        return max([0, *[_longest_array(item) for item in value.values()]])
    return 0


def _cap(value: Any, max_items: int, max_chars: int | None, cut: dict[str, int]) -> Any:
    if isinstance(value, list):
        if len(value) > max_items:
            cut["arrays"] += 1
            cut["items"] += len(value) - max_items
        return [_cap(item, max_items, max_chars, cut) for item in value[:max_items]]
    if isinstance(value, dict):
        return {key: _cap(item, max_items, max_chars, cut) for key, item in value.items()}
    if isinstance(value, str) and max_chars is not None and len(value) > max_chars:
        cut["strings"] += 1
        return value[:max_chars] + f"… [{len(value) - max_chars} more characters]"
    return value


def _outline(value: Any) -> Any:
    """Last resort: the result's top-level structure only."""
    if isinstance(value, dict):
        return {"truncated": True, "keys": list(value)[:200]}
    if isinstance(value, list):
        return {"truncated": True, "items": len(value)}
    return {"truncated": True, "type": type(value).__name__}


def shrink_note(size: int, limit: int, cut: dict[str, int], hint_fields: list[str]) -> str:
    parts = []
    if cut.get("outline"):
        parts.append("only its outline is shown")
    if cut.get("items"):
        parts.append(f"{cut['items']} array items omitted")
    if cut.get("strings"):
        parts.append(f"{cut['strings']} long strings shortened")
    narrow = "Narrow the request"
    if hint_fields:
        narrow += f" (input fields: {', '.join(hint_fields[:8])})"
    return (f"result cut to fit {format_size(limit)} (full result {format_size(size)}): "
            f"{'; '.join(parts) or 'shortened'}. {narrow} to see the rest.")
