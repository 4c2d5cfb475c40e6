"""Bash pattern matching: `case`, `[[ x == p ]]`, `${v#p}` `${v%p}` `${v/p/r}` and globbing.

A pattern arrives as pieces `(text, quoted)`: quoted text matches literally; unquoted text has
glob meaning (`*`, `?`, `[...]` with `!`/`^`, ranges, `[:class:]`, `[.c.]`, `[=c=]`, and
backslash escapes), and extended groups (`@(a|b)`, `!(x)`...) are matched by extglob.py.
Semantics are bash's under LC_ALL=C: ranges and classes by code point, ASCII classes.

Matching never backtracks: a compiled pattern is a list of one-character elements and stars,
run as a bit-parallel automaton (bit k set = the first k elements have been matched), so any
pattern matches any text in O(len(text)) steps of a few integer operations. Prefix, suffix
and replacement searches reuse the same automaton (the suffix ones on the reversed pattern).
"""
from __future__ import annotations

from typing import Callable, Sequence

from . import extglob

__all__ = ["Pieces", "glob_segment_matcher", "has_glob", "literal_text", "match", "remove_prefix",
           "remove_suffix", "replace"]

Pieces = Sequence[tuple[str, bool]]


def has_glob(pieces: Pieces) -> bool:
    """True when an unquoted `*`, `?` or complete `[...]` gives the pattern glob meaning."""
    return _compiled(pieces).literal is None


def match(pieces: Pieces, text: str, *, nocase: bool = False) -> bool:
    """Does the whole of `text` match (`case`, `[[ == ]]`; nocase for `shopt -s nocasematch`)?"""
    pattern = _compiled(pieces)
    if pattern.literal is not None:
        return _fold(text) == _fold(pattern.literal) if nocase else text == pattern.literal
    return pattern.prefix_end(text, 0, True, nocase) == len(text)


def remove_prefix(value: str, pieces: Pieces, longest: bool) -> str:
    """`${v#p}` (shortest matching prefix removed) or `${v##p}` (longest)."""
    pattern = _compiled(pieces)
    if pattern.literal is not None:
        return value[len(pattern.literal):] if value.startswith(pattern.literal) else value
    end = pattern.prefix_end(value, 0, longest, nocase=False)
    return value if end is None else value[end:]


def remove_suffix(value: str, pieces: Pieces, longest: bool) -> str:
    """`${v%p}` (shortest matching suffix removed) or `${v%%p}` (longest)."""
    pattern = _compiled(pieces)
    if pattern.literal is not None:
        literal = pattern.literal
        return value[:len(value) - len(literal)] if value.endswith(literal) else value
    length = pattern.reversed().prefix_end(value[::-1], 0, longest, nocase=False)
    return value if length is None else value[:len(value) - length]


def replace(value: str, pieces: Pieces, replacement: str | Pieces, mode: str, *,
            nocase: bool = False) -> str:
    """`${v/p/r}` (mode "/"), `${v//p/r}` ("//"), `${v/#p/r}` ("/#"), `${v/%p/r}` ("/%").

    The longest match at the leftmost place wins. A str replacement is literal text; given as
    pieces, an unquoted `&` stands for the matched text and `\\x` for x (bash 5.2's default
    `patsub_replacement`). nocase: `shopt -s nocasematch`, which bash applies here too.
    """
    pattern = _compiled(pieces)
    substitute = _substitution(replacement)
    if mode == "/#":
        end = pattern.prefix_end(value, 0, True, nocase)
        return value if end is None else substitute(value[:end]) + value[end:]
    if mode == "/%":
        length = pattern.reversed().prefix_end(value[::-1], 0, True, nocase)
        if length is None:
            return value
        start = len(value) - length
        return value[:start] + substitute(value[start:])
    if not pattern.elements:
        return value   # `${v/}` and `${v//}` change nothing
    starts = pattern.match_starts(value, nocase)
    out, position, size = [], 0, len(value)
    while True:
        start = next((index for index in range(position, size + 1) if starts[index]), None)
        if start is None:
            break
        end = pattern.prefix_end(value, start, True, nocase)
        out.append(value[position:start])
        out.append(substitute(value[start:end]))
        if end == start:   # an empty match: keep the next character and move on
            out.append(value[start:start + 1])
            end += 1
        position = end
        if mode == "/" or position >= size:
            break
    out.append(value[position:])
    return "".join(out)


def glob_segment_matcher(pieces: Pieces, *, dotglob: bool = False) -> Callable[[str], bool]:
    """A test for the names of one directory in pathname expansion: `.` and `..` never match,
    and a leading `.` only matches a literal `.` (any pattern may match it under dotglob)."""
    pattern = _compiled(pieces)
    literal_dot = bool(pattern.elements) and pattern.elements[0] == (_CHAR, ".")

    def matches(name: str) -> bool:
        if name in (".", "..") or "/" in name:
            return False
        if name.startswith(".") and not dotglob and not literal_dot:
            return False
        return match(pieces, name)

    return matches


def literal_text(pieces: Pieces) -> str:
    """The pattern's text with quoting removed: a glob that matched no file stays as this."""
    return "".join(char for char, _ in _characters(pieces))


# ---------------------------------------------------------------- compiling

# Elements: (_CHAR, c), (_ANY,), (_SET, negated, members) or _STAR.
_CHAR, _ANY, _SET = "char", "any", "set"
_STAR = ("star",)

_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": lambda c: c.isascii() and c.isalpha(),
    "digit": lambda c: "0" <= c <= "9",
    "alnum": lambda c: c.isascii() and c.isalnum(),
    "upper": lambda c: "A" <= c <= "Z",
    "lower": lambda c: "a" <= c <= "z",
    "space": lambda c: c in " \t\n\r\v\f",
    "blank": lambda c: c in " \t",
    "punct": lambda c: "!" <= c <= "~" and not c.isalnum(),
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "cntrl": lambda c: c < " " or c == "\x7f",
    "print": lambda c: " " <= c <= "~",
    "graph": lambda c: "!" <= c <= "~",
    "word": lambda c: c == "_" or c.isascii() and c.isalnum(),
    "ascii": lambda c: c < "\x80",
}


def _never(char: str) -> bool:
    """An unknown class name, or a multi-character collating symbol, matches nothing."""
    return False


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _fold(text: str) -> str:
    """Case folding of the C locale: ASCII letters only."""
    return text.translate(_ASCII_LOWER)


def _characters(pieces: Pieces) -> list[tuple[str, bool]]:
    """(char, literal) pairs: quoted characters and backslash-escaped ones are literal."""
    chars: list[tuple[str, bool]] = []
    for text, quoted in pieces:
        if quoted:
            chars.extend((char, True) for char in text)
            continue
        index = 0
        while index < len(text):
            if text[index] == "\\" and index + 1 < len(text):
                chars.append((text[index + 1], True))
                index += 2
            else:
                chars.append((text[index], text[index] == "\\"))
                index += 1
    return chars


# Extended groups nested deeper than this are plain characters (a bound on the recursion).
_MAX_GROUP_DEPTH = 16


def _elements(chars: list[tuple[str, bool]], depth: int = 0) -> list:
    elements: list = []
    index = 0
    while index < len(chars):
        char, literal = chars[index]
        group = extglob.group_at(chars, index) if not literal and char in "@?*+!" and depth < _MAX_GROUP_DEPTH \
            else None
        if group is not None:   # `@(a|b)`: the alternatives are patterns of their own
            kind, alternatives, index = group
            elements.append((extglob.GROUP, kind, tuple(_elements(alt, depth + 1) for alt in alternatives)))
            continue
        index += 1
        if literal:
            elements.append((_CHAR, char))
        elif char == "*":
            if not elements or elements[-1] is not _STAR:   # `**` is `*`
                elements.append(_STAR)
        elif char == "?":
            elements.append((_ANY,))
        elif char == "[" and (bracket := _bracket(chars, index)) is not None:
            element, index = bracket
            elements.append(element)
        else:
            elements.append((_CHAR, char))
    return elements


def _bracket(chars: list[tuple[str, bool]], index: int) -> tuple[tuple, int] | None:
    """The bracket expression after a `[` at index-1 and the index after its `]`, or None
    when it is not closed (then the `[` is an ordinary character)."""
    negated = index < len(chars) and chars[index] in (("!", False), ("^", False))
    index += negated
    members: list = []
    first = True
    while index < len(chars):
        char, literal = chars[index]
        if char == "]" and not literal and not first:
            return (_SET, negated, tuple(members)), index + 1
        first = False
        if char == "[" and not literal and index + 1 < len(chars) and chars[index + 1] in (
                (":", False), (".", False), ("=", False)):
            special = _bracket_special(chars, index)
            if special is not None:
                member, index = special
                members.append(member)
                continue
        if (index + 2 < len(chars) and chars[index + 1] == ("-", False)
                and chars[index + 2] != ("]", False)):
            members.append(("range", char, chars[index + 2][0]))
            index += 3
            continue
        members.append(("char", char))
        index += 1
    return None


def _bracket_special(chars: list[tuple[str, bool]], index: int) -> tuple[tuple, int] | None:
    """`[:class:]`, `[.c.]` or `[=c=]` at index; None when not closed."""
    kind = chars[index + 1][0]
    for end in range(index + 2, len(chars) - 1):
        if chars[end] == (kind, False) and chars[end + 1] == ("]", False):
            name = "".join(char for char, _ in chars[index + 2:end])
            if kind == ":":
                return ("class", _CLASSES.get(name, _never)), end + 2
            if len(name) == 1:
                return ("char", name), end + 2
            return ("class", _never), end + 2
    return None


def _member_matches(member: tuple, char: str, folded: str | None) -> bool:
    kind = member[0]
    if kind == "char":
        return member[1] == char or folded is not None and _fold(member[1]) == folded
    if kind == "range":
        if folded is not None:
            return _fold(member[1]) <= folded <= _fold(member[2])
        return member[1] <= char <= member[2]
    return member[1](char)   # classes ignore nocase, as bash's do


def _element_matches(element: tuple, char: str, nocase: bool) -> bool:
    folded = _fold(char) if nocase else None
    if element[0] == _CHAR:
        return element[1] == char or folded is not None and _fold(element[1]) == folded
    if element[0] == _ANY:
        return True
    hit = any(_member_matches(member, char, folded) for member in element[2])
    return hit != element[1]


class _Pattern:
    """A compiled pattern and its automaton (see the module docstring)."""

    def __init__(self, elements: list) -> None:
        self.elements = elements
        self.literal = None if any(element[0] != _CHAR for element in elements) else "".join(
            element[1] for element in elements)
        self.stars = sum(1 << k for k, element in enumerate(elements) if element is _STAR)
        self.accept = 1 << len(elements)
        self.start = self._close(1)
        self._masks: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self._reversed: _Pattern | None = None

    def reversed(self) -> "_Pattern":
        """The pattern of reversed texts (for suffixes)."""
        if self._reversed is None:
            self._reversed = _Pattern(self.elements[::-1])
        return self._reversed

    def accepts(self, state: int) -> bool:
        return bool(state & self.accept)

    def _close(self, state: int) -> int:
        # A star may match nothing: reaching it also reaches what follows it.
        return state | ((state & self.stars) << 1)

    def _mask(self, char: str, nocase: bool) -> int:
        masks = self._masks[nocase]
        mask = masks.get(char)
        if mask is None:
            mask = sum(1 << k for k, element in enumerate(self.elements)
                       if element is not _STAR and _element_matches(element, char, nocase))
            masks[char] = mask
        return mask

    def _step(self, state: int, char: str, nocase: bool) -> int:
        stars = self.stars
        state = ((state & self._mask(char, nocase)) << 1) | (state & stars)
        return state | ((state & stars) << 1)

    def prefix_end(self, text: str, begin: int, longest: bool, nocase: bool) -> int | None:
        """Where the shortest or longest match starting at `begin` ends, None if none does."""
        found = None
        state, position = self.start, begin
        while True:
            if state & self.accept:
                found = position
                if not longest:
                    return found
            if position == len(text) or not state:
                return found
            state = self._step(state, text[position], nocase)
            position += 1

    def match_starts(self, text: str, nocase: bool) -> list[bool]:
        """For each index i (0..len), whether some text[i:j] matches, in one backward pass
        of the reversed pattern started afresh at every position."""
        backward = self.reversed()
        state = backward.start
        starts = [False] * (len(text) + 1)
        starts[len(text)] = backward.accepts(state)
        for index in range(len(text) - 1, -1, -1):
            state = backward._step(state, text[index], nocase) | backward.start
            starts[index] = backward.accepts(state)
        return starts


_cache: dict[tuple, _Pattern] = {}
_CACHE_LIMIT = 1024


def _compiled(pieces: Pieces) -> _Pattern:
    key = tuple(pieces)
    pattern = _cache.get(key)
    if pattern is None:
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        elements = _elements(_characters(pieces))
        extended = any(element[0] == extglob.GROUP for element in elements)
        pattern = _cache[key] = extglob.ExtPattern(elements, _element_matches) if extended else _Pattern(elements)
    return pattern


def _substitution(replacement: str | Pieces) -> Callable[[str], str]:
    """The replacement for a matched text."""
    if isinstance(replacement, str):
        return lambda matched: replacement
    parts: list[str | None] = []   # None stands for the matched text
    for text, quoted in replacement:
        if quoted:
            parts.append(text)
            continue
        index = 0
        while index < len(text):
            char = text[index]
            if char == "\\" and index + 1 < len(text):
                parts.append(text[index + 1])
                index += 2
                continue
            parts.append(None if char == "&" else char)
            index += 1
    if None not in parts:
        fixed = "".join(parts)   # type: ignore[arg-type]
        return lambda matched: fixed
    return lambda matched: "".join(matched if part is None else part for part in parts)
