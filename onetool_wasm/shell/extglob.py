"""Extended patterns (`shopt -s extglob`, and always in `[[ ]]`): `@(a|b)` one of, `?(a|b)` at
most one, `*(a|b)` any number, `+(a|b)` at least one, `!(a|b)` anything but.

patterns.py compiles a pattern into elements; one with an extended group is matched here
instead of by its automaton. A match is computed as the set of text positions a part of the
pattern can end at, given the positions it may start at, so there is no backtracking: the work
grows with the text's length times the pattern's size (squared for `!(...)` and nested
repetition), and texts above MAX_TEXT are refused rather than matched slowly.
"""
from __future__ import annotations

from typing import Callable

from .state import ShellError

GROUP = "group"
MAX_TEXT = 20_000  # characters an extended pattern is matched against

Matches = Callable[[tuple, str, bool], bool]  # (element, char, nocase) -> bool


class ExtPattern:
    """The same interface as patterns._Pattern: prefix_end, reversed, match_starts."""

    literal = None

    def __init__(self, elements: list, element_matches: Matches) -> None:
        self.elements = elements
        self._matches = element_matches

    # -- the interface patterns.py uses ----------------------------------------------------------
    def prefix_end(self, text: str, begin: int, longest: bool, nocase: bool) -> int | None:
        ends = self.ends(text, begin, nocase)
        if not ends:
            return None
        return max(ends) if longest else min(ends)

    def reversed(self) -> "_Suffixes":
        return _Suffixes(self)

    def match_starts(self, text: str, nocase: bool) -> list[bool]:
        return [bool(self.ends(text, start, nocase)) for start in range(len(text) + 1)]

    # -- matching ---------------------------------------------------------------------------------
    def ends(self, text: str, begin: int, nocase: bool) -> set[int]:
        """Every position where a match of the whole pattern starting at `begin` can end."""
        if len(text) > MAX_TEXT:
            raise ShellError(f"extended pattern: the text is longer than {MAX_TEXT} characters; "
                             "use a plain pattern or grep", fatal=True)
        return self._reach(self.elements, {begin}, text, nocase)

    def _reach(self, elements: list, starts: set[int], text: str, nocase: bool) -> set[int]:
        positions = starts
        size = len(text)
        for element in elements:
            if not positions:
                return positions
            if element[0] == GROUP:
                positions = self._group(element, positions, text, nocase)
            elif element[0] == "star":
                positions = set(range(min(positions), size + 1))
            else:
                positions = {p + 1 for p in positions if p < size and self._matches(element, text[p], nocase)}
        return positions

    def _group(self, element: tuple, starts: set[int], text: str, nocase: bool) -> set[int]:
        _, kind, alternatives = element

        def once(positions: set[int]) -> set[int]:
            found: set[int] = set()
            for alternative in alternatives:
                found |= self._reach(alternative, positions, text, nocase)
            return found

        if kind == "@":
            return once(starts)
        if kind == "?":
            return starts | once(starts)
        if kind in "*+":
            reached = set(starts) if kind == "*" else set()
            frontier = once(starts)
            while frontier - reached:
                new = frontier - reached
                reached |= new
                frontier = once(new)
            return reached
        # "!": any text from a start that no alternative matches as a whole
        found = set()
        for start in starts:
            matched = once({start})
            found.update(end for end in range(start, len(text) + 1) if end not in matched)
        return found


class _Suffixes:
    """`pattern.reversed().prefix_end(reversed_text, ...)` as patterns.py asks it for `${v%p}`:
    the length of the shortest or longest suffix the pattern matches."""

    def __init__(self, pattern: ExtPattern) -> None:
        self.pattern = pattern

    def prefix_end(self, reversed_text: str, begin: int, longest: bool, nocase: bool) -> int | None:
        text = reversed_text[::-1]
        size = len(text) - begin
        order = range(0, size + 1) if longest else range(size, -1, -1)
        for start in order:
            if size in self.pattern.ends(text[:size], start, nocase):
                return size - start
        return None


def group_at(chars: list[tuple[str, bool]], index: int) -> tuple[str, list[list[tuple[str, bool]]], int] | None:
    """The extended group whose `X(` starts at index: (kind, the alternatives' characters,
    the index after its `)`), or None when there is none (no `(`, or it is not closed)."""
    kind, literal = chars[index]
    if literal or kind not in "@?*+!" or index + 1 >= len(chars) or chars[index + 1] != ("(", False):
        return None
    depth = 0
    alternatives: list[list[tuple[str, bool]]] = [[]]
    position = index + 2
    while position < len(chars):
        char, literal = chars[position]
        if not literal and char == "(":
            depth += 1
        elif not literal and char == ")":
            if depth == 0:
                return kind, alternatives, position + 1
            depth -= 1
        elif not literal and char == "|" and depth == 0:
            alternatives.append([])
            position += 1
            continue
        alternatives[-1].append((char, literal))
        position += 1
    return None
