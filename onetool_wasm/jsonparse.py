"""Parse JSON as JavaScript's JSON.parse does (no NaN/Infinity), with a bounded depth.

The depth is checked before parsing, because a deeply nested input does not raise
RecursionError inside Pyodide: it overflows the WebAssembly stack and ends the runtime.
"""
from __future__ import annotations

import json
import operator
import re
from itertools import accumulate, count
from typing import Any


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


MAX_JSON_DEPTH = 512
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # the loop unrolled: fast
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
_NOT_BRACKETS_OR_QUOTES = bytes(set(range(256)) - set(b'[]{}"'))
_DEPTH_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def json_depth(text: str) -> int:
    """How deeply brackets nest outside strings: checked before parsing, so a hostile input
    is refused the same way on every Python (whose parsers recurse to different depths)."""
    data = text.encode("utf-8", "surrogatepass")  # quotes and brackets stay single bytes
    brackets = None
    if b"\\" not in data:
        # No escapes: quotes alternate opening and closing. Of the quotes and brackets, drop
        # each `""`: when no quote is left, every run of quotes between brackets was whole
        # strings (it had an even length), so no string held a bracket.
        stripped = data.translate(None, _NOT_BRACKETS_OR_QUOTES).replace(b'""', b"")
        if b'"' not in stripped:
            brackets = stripped
    if brackets is None:
        brackets = _JSON_STRING.sub("", text).encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    # Each bracket as 2 (opening) or 0 (closing): after i of them, the running sum minus i
    # is the depth.
    return max(0, max(map(operator.sub, accumulate(brackets.translate(_DEPTH_STEP)), count(1))))


def parse_json_text(text: str) -> Any:
    """JSON.parse's strictness (no NaN/Infinity); ValueError says what is wrong."""
    text = text.removeprefix("\ufeff")
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"nesting is deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("nesting is deeper than this Python can parse") from None
