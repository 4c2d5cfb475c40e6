"""Parse JSON as JavaScript's JSON.parse does (no NaN/Infinity), with a bounded depth.

The depth is checked before parsing, because a deeply nested input does not raise
RecursionError inside Pyodide: it overflows the WebAssembly stack and ends the runtime.
"""
from __future__ import annotations

import json
import re
from typing import Any


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


MAX_JSON_DEPTH = 512
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply brackets nest outside strings: checked before parsing, so a hostile input
    is refused the same way on every Python (whose parsers recurse to different depths)."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def parse_json_text(text: str) -> Any:
    """JSON.parse's strictness (no NaN/Infinity); ValueError says what is wrong."""
    text = text.removeprefix("\ufeff")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"nesting is deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("nesting is deeper than this Python can parse") from None
