"""grep -P: Perl-compatible patterns as far as Python's `re` goes.

The pattern is translated to `re` syntax (bytes, ASCII classes: the C locale): named groups
`(?<n>...)` and `\\k<n>`, `\\Q...\\E`, `\\x{HH}`, `\\z`, `\\h`, POSIX classes inside brackets,
and one `\\K` outside groups. What `re` cannot do (recursion, `\\G`, `\\p{..}`, branch reset,
callouts, verbs) is refused with a RegexError naming the construct (grep exits 2).
"""
from __future__ import annotations

import re
from typing import Any, Iterator

from ...regex import RegexError

_POSIX = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": "!-/:-@\\[-`{-~", "print": " -~",
    "graph": "!-~", "cntrl": "\\x00-\\x1f\\x7f", "xdigit": "0-9A-Fa-f", "word": "\\w",
}
_REFUSED = [
    (re.compile(r"\(\?(?:R|[+-]?\d+|&\w+|P>\w+)\)"), "recursion"),
    (re.compile(r"\(\?\|"), "branch reset (?|...)"),
    (re.compile(r"\(\*[A-Z]"), "backtracking verbs (*...)"),
    (re.compile(r"\(\?C"), "callouts (?C)"),
]


def translate(pattern: str) -> tuple[str, bool]:
    """(`re` source, whether it holds the `\\K` group)."""
    out: list[str] = []
    i, n, depth, in_class, keep = 0, len(pattern), 0, False, False
    class_start = False  # at the first member of a bracket expression (a `]` there is a member)
    for regex, what in _REFUSED:
        if regex.search(pattern):
            raise RegexError(f"-P: {what} is not supported (Python's re); rewrite the pattern or use -E")
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            d = pattern[i + 1]
            if d == "Q":
                end = pattern.find("\\E", i + 2)
                end = n if end < 0 else end
                out.append(re.escape(pattern[i + 2:end]))
                i = end + 2
                continue
            if d == "E":
                i += 2
                continue
            if d == "K" and not in_class:
                if depth or keep:
                    raise RegexError("-P: \\K inside a group or twice is not supported (Python's re)")
                out = ["(?:", *out, ")(?P<_grep_keep>"]
                keep = True
                i += 2
                continue
            if d == "k" and i + 2 < n and pattern[i + 2] in "<{'":
                close = {"<": ">", "{": "}", "'": "'"}[pattern[i + 2]]
                end = pattern.find(close, i + 3)
                if end < 0:
                    raise RegexError("-P: unterminated \\k<name>")
                out.append(f"(?P={pattern[i + 3:end]})")
                i = end + 1
                continue
            if d == "x" and i + 2 < n and pattern[i + 2] == "{":
                end = pattern.find("}", i + 3)
                if end < 0:
                    raise RegexError("-P: unterminated \\x{...}")
                value = int(pattern[i + 3:end] or "0", 16)
                if value > 0xFF:
                    raise RegexError("-P: character code point value in \\x{} is too large (C locale)")
                out.append(f"\\x{value:02x}")
                i = end + 1
                continue
            if d in "pPXRGCXNuUlLg":
                raise RegexError(f"-P: \\{d} is not supported (Python's re); rewrite the pattern or use -E")
            if d == "z":
                out.append("\\Z")
            elif d == "Z":
                out.append("(?=\\n?\\Z)")
            elif d == "h":
                out.append("[ \\t]" if not in_class else " \\t")
            elif d == "H":
                out.append("[^ \\t]")
            elif d == "e":
                out.append("\\x1b")
            elif d == "c" and i + 2 < n:
                out.append(f"\\x{ord(pattern[i + 2].upper()) ^ 0x40:02x}")
                i += 3
                continue
            else:
                out.append(c + d)
            i += 2
            continue
        if in_class:
            if c == "[" and pattern.startswith("[:", i):
                end = pattern.find(":]", i + 2)
                name = pattern[i + 2:end] if end > 0 else ""
                if name.startswith("^"):
                    raise RegexError("-P: negated POSIX classes [:^name:] are not supported (Python's re)")
                if name not in _POSIX:
                    raise RegexError("-P: unknown POSIX class name")
                out.append(_POSIX[name])
                i = end + 2
                continue
            if c == "[":
                out.append("\\[")
                i += 1
                continue
            if c == "]" and not class_start:
                in_class = False
            out.append(c)
            class_start = False
            i += 1
            continue
        if c == "[":
            in_class, class_start = True, True
            out.append(c)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":  # a leading ] is a member
                out.append("\\]")
                i += 1
                class_start = False
            continue
        if c == "(":
            depth += 1
            if pattern.startswith("(?<", i) and i + 3 < n and pattern[i + 3] not in "=!":
                out.append("(?P<")
                i += 3
                continue
            if pattern.startswith("(?'", i):
                end = pattern.find("'", i + 3)
                out.append(f"(?P<{pattern[i + 3:end]}>")
                i = end + 1
                continue
        elif c == ")":
            depth -= 1
        out.append(c)
        i += 1
    if keep:
        out.append(")")
    return "".join(out), keep


class _Match:
    """A match whose start may be moved by \\K."""

    def __init__(self, data: bytes, start: int, end: int) -> None:
        self.data, self._start, self._end = data, start, end

    def start(self, group: int = 0) -> int:
        return self._start

    def end(self, group: int = 0) -> int:
        return self._end

    def group(self, index: int = 0) -> bytes:
        return self.data[self._start:self._end]


class PcreRegex:
    """The Regex interface grep's scan and printer use, over one `re` pattern."""

    linear_only = False

    def __init__(self, pattern: str, ignore_case: bool, word: bool, line: bool) -> None:
        source, self._keep = translate(pattern)
        if word:
            source = f"(?<!\\w)(?:{source})(?!\\w)"
        if line:
            source = f"^(?:{source})$"
        try:
            self._re = re.compile(source.encode("utf-8", "surrogateescape"),
                                  re.MULTILINE | (re.IGNORECASE if ignore_case else 0))
        except (re.error, OverflowError, RecursionError) as error:
            raise RegexError(f"-P: {error}") from None
        if self._keep and self._re.groups and "_grep_keep" not in self._re.groupindex:
            raise RegexError("-P: \\K could not be placed")

    def buffer_pattern(self) -> None:
        return None  # lines are searched one at a time

    # `cancelled` is accepted as the POSIX engine's is; `re` cannot be stopped midway (-P is
    # Python's backtracking engine, as PCRE is a backtracking one).
    def test(self, data: bytes, cancelled: Any = None) -> bool:
        return self._re.search(data) is not None

    def search(self, data: bytes, pos: int = 0, groups: bool = True, cancelled: Any = None):
        match = self._re.search(data, pos)
        if match is None:
            return None
        if self._keep:
            return _Match(data, match.start("_grep_keep"), match.end())
        return match

    def finditer(self, data: bytes, groups: bool = True, cancelled: Any = None) -> Iterator:
        pos, n = 0, len(data)
        while pos <= n:
            match = self.search(data, pos)
            if match is None:
                return
            yield match
            pos = match.end() if match.end() > match.start() else match.end() + 1


def compile_pcre(patterns: tuple[str, ...], ignore_case: bool, word: bool, line: bool) -> PcreRegex:
    if len(patterns) != 1:
        raise RegexError("the -P option only supports a single pattern")
    return PcreRegex(patterns[0], ignore_case, word, line)
