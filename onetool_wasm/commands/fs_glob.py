"""Shell wildcard patterns (`*`, `?`, `[...]`) as `find -name` matches them (fnmatch(3)
without flags, C locale): `*` and `?` match any character, a leading dot included."""
from __future__ import annotations

import re

_CLASSES = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r" \t\n\r\f\v", "blank": r" \t", "xdigit": "0-9A-Fa-f",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), "cntrl": r"\x00-\x1f\x7f",
    "print": r"\x20-\x7e", "graph": r"\x21-\x7e",
}


def compile_glob(pattern: str, ignore_case: bool = False) -> re.Pattern[str]:
    """The whole-name regular expression for a wildcard pattern. A `[` without its `]`
    is a literal `[`; a backslash makes the next character literal."""
    parts: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "*":
            parts.append(".*")
        elif char == "?":
            parts.append(".")
        elif char == "[":
            bracket, index = _bracket(pattern, index)
            parts.append(bracket)
            continue
        elif char == "\\" and index + 1 < len(pattern):
            index += 1
            parts.append(re.escape(pattern[index]))
        else:
            parts.append(re.escape(char))
        index += 1
    # re.ASCII: case folding under -iname is ASCII only, as in the C locale.
    flags = re.DOTALL | (re.IGNORECASE | re.ASCII if ignore_case else 0)
    return re.compile("".join(parts), flags)


def _bracket(pattern: str, start: int) -> tuple[str, int]:
    """Translate the bracket expression at `start`; returns (regex, index after it)."""
    index = start + 1
    negate = index < len(pattern) and pattern[index] in "!^"
    if negate:
        index += 1
    members: list[str] = []
    first = True
    while index < len(pattern):
        char = pattern[index]
        if char == "]" and not first:
            body = "".join(members)
            if not body:  # only empty ranges such as `z-a`: matches nothing
                return ("." if negate else "(?!)"), index + 1
            return (f"[^{body}]" if negate else f"[{body}]"), index + 1
        first = False
        if pattern.startswith("[:", index):
            end = pattern.find(":]", index + 2)
            name = pattern[index + 2:end] if end != -1 else ""
            if name in _CLASSES:
                members.append(_CLASSES[name])
                index = end + 2
                continue
        if char == "\\" and index + 1 < len(pattern):
            index += 1
            char = pattern[index]
        if pattern.startswith("-", index + 1) and index + 2 < len(pattern) and pattern[index + 2] != "]":
            low, high = char, pattern[index + 2]
            if low <= high:
                members.append(f"{re.escape(low)}-{re.escape(high)}")
            index += 3
            continue
        members.append(re.escape(char))
        index += 1
    return re.escape("["), start + 1  # no closing bracket: the `[` is literal
