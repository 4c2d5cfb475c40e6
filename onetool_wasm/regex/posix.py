"""POSIX regular expressions for grep and sed, run by Python's `re` over bytes.

A pattern is parsed once (syntax.py: GNU's BRE and ERE), translated to a Python
bytes pattern, compiled, and cached (`compile_regex` is an LRU cache keyed by the
patterns and options). Semantics are the C locale's: patterns and data are BYTES, so
`.` matches one byte (an "é" is two), `[[:alpha:]]`, `\\w`, `\\b` and case folding (`-i`)
are ASCII-only, ranges compare byte values.

POSIX picks the leftmost-LONGEST match; `re` picks the leftmost-first one. They differ
only when a pattern offers alternatives (`a|ab`); for those the span comes from the lazy
DFA (dfa.py, POSIX semantics), and the groups from `re.fullmatch` over that span.

Which engine runs (`Regex.engine`), decided on the syntax tree. `re` backtracks: on one
line of n bytes a search costs (starts tried) x (work per start), and the work per start
grows as n^k with k overlapping repeats (`a.*a.*a.*a.*b`: n^5; measured 35.9 s for 300
bytes, minutes for `.*.*=.*` on 10 KB). `re` keeps a pattern only when its search is
provably linear (times the pattern's size), by one of these rules:
  R1  no variable repeat at all (literals, classes, fixed intervals, alternation);
  R2  every variable repeat is "separated" (its body cannot be empty nor start with a byte
      that may follow it, so a backtrack step fails at once) and the pattern starts with
      `^` (not in multiline mode): one start per line;
  R3  every repeat separated, and no byte that can start a match can be eaten by a wide
      repeat (unbounded, or a range over 16) that is not the last thing in the pattern:
      the regions scanned by failed starts do not overlap (`id=[0-9]+ `, `[0-9]+`);
  R4  anchored with `^` and exactly one variable repeat (`^.*foo`).
Measured (bench/bench_regex.py): patterns under these rules keep `re`'s C speed (`ERROR`,
`^[0-9]+ [a-z]+$` on a 100k-line log as before); any other pattern without
back-references runs on the lazy DFA (dfa.py: ~70 ns a byte on CPython, linear, 1 MB of
`a` against `a.*a.*a.*a.*b` in ~0.1 s), after a prefilter on the longest literal run every
match contains. Nested ambiguous repeats (`\\(a*\\)*b`, `(a|ab)+`) are detected as before
(`_nested`) and always take the DFA. The DFA answers "does this line match" (grep, sed
addresses, `=~`), and leftmost-longest spans (-o, s///, match()) in two linear passes: a
reverse DFA marks where matches start, a forward anchored DFA finds the longest end.
Back-references have no linear engine (NP-hard): a pattern with one that R1 does not
cover runs on backtrack.py, a matcher exploring `re`'s tree with a step budget that ends
in RegexError ("too complex for this input"); when it finds a match, `re` builds the match
object from that start (its work is bounded by the same tree). A back-reference inside
nested repetition is refused at compile time, as is an expansion over nfa.MAX_PROGRAM
instructions (for a pattern `re` cannot run safely), more than 50 nested groups, or a
repeat count over RE_DUP_MAX (32767). The linear engines poll an optional `cancelled`
callback (the run's deadline) every few thousand bytes and raise RegexCancelled.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from . import backtrack, dfa, nfa
from .syntax import (Alt, AnyByte, Assert, Backref, ByteSet, Concat, Group, Lit, Node, RegexError, Repeat,
                           literal_node, parse)

__all__ = ["RegexError", "RegexCancelled", "Regex", "compile_regex", "compile_grep", "Span"]

RegexCancelled = dfa.RegexCancelled

_PLAIN = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ")
_LINE_ASSERTS = {"^": "^", "$": r"\Z", "`": r"\A", "'": r"\Z", "b": r"\b", "B": r"\B",
                 "<": r"\b(?=\w)", ">": r"\b(?<=\w)", "nwb": r"(?<!\w)", "nwa": r"(?!\w)"}
# In multiline mode (sed's M flag, grep's whole-buffer scan) anchors see line ends.
_MULTILINE_ASSERTS = {**_LINE_ASSERTS, "^": "(?m:^)", "$": "(?m:$)"}
_BUFFER_ASSERTS = {**_MULTILINE_ASSERTS, "`": "(?m:^)", "'": "(?m:$)"}


@dataclass(frozen=True)
class Span:
    """A match found by nfa.py when no groups are wanted (same reading API as re.Match)."""
    string: bytes
    begin: int
    finish: int

    def start(self, group: int = 0) -> int:
        return self.begin

    def end(self, group: int = 0) -> int:
        return self.finish

    def span(self, group: int = 0) -> tuple[int, int]:
        return self.begin, self.finish

    def group(self, index: int = 0) -> bytes:
        return self.string[self.begin:self.finish]


# -- translation to Python's syntax -----------------------------------------------------
def _byte(b: int) -> str:
    return chr(b) if b in _PLAIN else f"\\x{b:02x}"


def _byte_class(members: frozenset[int], negated: bool, exclude_newline: bool) -> str:
    if exclude_newline:
        members = members | {10} if negated else members - {10}
    if not members and not negated:
        return "(?!)"
    ranges: list[str] = []
    ordered = sorted(members)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        first, last = ordered[i], ordered[j]
        ranges.append(_byte(first) if first == last else f"{_byte(first)}-{_byte(last)}")
        i = j + 1
    if not ranges:
        return "[\\x00-\\xff]"  # a negated empty set: any byte
    return "[" + ("^" if negated else "") + "".join(ranges) + "]"


class _Emitter:
    def __init__(self, asserts: dict[str, str], buffer_mode: bool) -> None:
        self.asserts = asserts
        self.buffer = buffer_mode

    def emit(self, node: Node) -> str:
        if isinstance(node, Lit):
            return _byte(node.byte)
        if isinstance(node, AnyByte):
            return "[^\\n]" if self.buffer else "."
        if isinstance(node, ByteSet):
            return _byte_class(node.members, node.negated, self.buffer)
        if isinstance(node, Assert):
            return self.asserts[node.kind]
        if isinstance(node, Group):
            return "(" + self.emit(node.body) + ")"
        if isinstance(node, Backref):
            return f"(?:\\{node.index})"
        if isinstance(node, Concat):
            return "".join(self._wrap(item, Alt) for item in node.items)
        if isinstance(node, Alt):
            return "|".join(self.emit(branch) for branch in node.branches)
        return self._repeat(node)

    def _wrap(self, node: Node, *kinds: type) -> str:
        text = self.emit(node)
        return f"(?:{text})" if isinstance(node, kinds) else text

    def _repeat(self, node: Repeat) -> str:
        # A repeated repeat needs a group: `a**`, `a+?` are POSIX but mean other things to re.
        body = self._wrap(node.body, Alt, Concat, Repeat, Assert)
        if (node.min, node.max) == (0, None):
            return body + "*"
        if (node.min, node.max) == (1, None):
            return body + "+"
        if (node.min, node.max) == (0, 1):
            return body + "?"
        if node.max is None:
            return f"{body}{{{node.min},}}"
        if node.max == node.min:
            return f"{body}{{{node.min}}}"
        return f"{body}{{{node.min},{node.max}}}"


# -- what a pattern needs ----------------------------------------------------------------
_ALL_BYTES = frozenset(range(256))


@dataclass
class _Traits:
    backref: bool = False
    alternation: bool = False
    # Backtracking can explode: inside a loop, a variable repeat not cleanly separated from
    # what follows it (`(a+)+`, `(\w+\s?)*`) or alternatives that can start alike (`(a|ab)*`).
    nested: bool = False


def _traits(node: Node, ignore_case: bool) -> _Traits:
    traits = _Traits()
    _visit(node, False, None, ignore_case, traits)
    return traits


Follow = tuple[frozenset[int], bool] | None  # what may come next inside a loop; None: the loop again


def _visit(node: Node, in_loop: bool, follow: Follow, ignore_case: bool, traits: _Traits) -> None:
    if isinstance(node, Backref):
        traits.backref = True
    elif isinstance(node, Alt):
        traits.alternation = True
        if in_loop and not _distinct_starts(node.branches, ignore_case):
            traits.nested = True
        for branch in node.branches:
            _visit(branch, in_loop, follow, ignore_case, traits)
    elif isinstance(node, Repeat):
        varies = node.max is None or node.max > node.min
        if in_loop and varies and not _separated(node.body, follow, ignore_case):
            traits.nested = True
        loops = node.max is None or node.max > 16
        _visit(node.body, in_loop or loops, None if loops else follow, ignore_case, traits)
    elif isinstance(node, Group):
        _visit(node.body, in_loop, follow, ignore_case, traits)
    elif isinstance(node, Concat):
        after = follow
        for item in reversed(node.items):
            _visit(item, in_loop, after, ignore_case, traits)
            first, nullable = _first(item)
            if not nullable:
                after = (first, False)
            elif after is not None:
                after = (first | after[0], after[1])


def _first(node: Node) -> tuple[frozenset[int], bool]:
    """The bytes a match can start with, and whether it can be empty."""
    if isinstance(node, Lit):
        return frozenset((node.byte,)), False
    if isinstance(node, AnyByte):
        return _ALL_BYTES, False
    if isinstance(node, ByteSet):
        return (_ALL_BYTES - node.members if node.negated else node.members), False
    if isinstance(node, (Assert, Backref)):
        return (frozenset() if isinstance(node, Assert) else _ALL_BYTES), True
    if isinstance(node, Group):
        return _first(node.body)
    if isinstance(node, Repeat):
        first, nullable = _first(node.body)
        return first, nullable or node.min == 0
    parts = [_first(child) for child in (node.branches if isinstance(node, Alt) else node.items)]
    if isinstance(node, Alt):
        return frozenset().union(*(f for f, _ in parts)), any(n for _, n in parts)
    first: frozenset[int] = frozenset()
    for part_first, nullable in parts:
        first |= part_first
        if not nullable:
            return first, False
    return first, True


def _folded(members: frozenset[int], ignore_case: bool) -> frozenset[int]:
    return members | {b ^ 0x20 for b in members if 65 <= b <= 90 or 97 <= b <= 122} if ignore_case else members


def _distinct_starts(branches: tuple[Node, ...], ignore_case: bool) -> bool:
    seen: frozenset[int] = frozenset()
    for branch in branches:
        first, nullable = _first(branch)
        first = _folded(first, ignore_case)
        if nullable or first & seen:
            return False
        seen |= first
    return True


def _separated(body: Node, follow: Follow, ignore_case: bool) -> bool:
    first, nullable = _first(body)
    if nullable or follow is None or follow[1]:
        return False
    return not _folded(first, ignore_case) & _folded(follow[0], ignore_case)


# -- which engine runs ------------------------------------------------------------------------
_END = "end"  # nothing at all follows (not even an assertion): a greedy repeat there never backtracks


@dataclass
class _RepeatInfo:
    body_first: frozenset[int]
    separated: bool  # body cannot be empty and cannot start with a byte that may follow it
    exempt: bool  # the last thing in the pattern: reaching it is a match
    wide: bool  # unbounded, or a bounded range over 16


def _repeats(node: Node, ignore_case: bool) -> list[_RepeatInfo]:
    found: list[_RepeatInfo] = []
    stack: list[tuple[Node, object]] = [(node, _END)]
    while stack:
        item, follow = stack.pop()
        if isinstance(item, Repeat):
            if item.max is None or item.max > item.min:
                first, nullable = _first(item.body)
                first = _folded(first, ignore_case)
                separated = (not nullable and follow is not None and
                             (follow == _END or not first & _folded(follow[0], ignore_case))  # type: ignore[index]
                             )
                found.append(_RepeatInfo(first, separated, follow == _END,
                                         item.max is None or item.max - item.min > 16))
            loops = item.max is None or item.max > 1
            stack.append((item.body, None if loops else follow))
        elif isinstance(item, Group):
            stack.append((item.body, follow))
        elif isinstance(item, Alt):
            stack.extend((branch, follow) for branch in item.branches)
        elif isinstance(item, Concat):
            after = follow
            for part in reversed(item.items):
                stack.append((part, after))
                first, nullable = _first(part)
                if not nullable:
                    after = (first, False)
                elif after == _END:
                    after = (first, True)
                elif after is not None:
                    after = (first | after[0], after[1])  # type: ignore[index]
    return found


def _anchored(node: Node, multiline: bool) -> bool:
    """The pattern starts with `^` (or \\`): `re` tries one start per line only."""
    if multiline:
        return False
    while True:
        if isinstance(node, Group):
            node = node.body
        elif isinstance(node, Concat) and node.items:
            node = node.items[0]
        else:
            return isinstance(node, Assert) and node.kind in ("^", "`")


def _backtracking_bounded(node: Node, traits: _Traits, ignore_case: bool, multiline: bool) -> bool:
    """The rule (see the module docstring): True when `re`'s search is linear in the line
    for this pattern (times the pattern's size)."""
    if traits.nested:
        return False
    repeats = _repeats(node, ignore_case)
    if not repeats:
        return True  # R1: fixed-size pieces only
    if traits.backref:
        return False
    anchored = _anchored(node, multiline)
    if all(info.separated for info in repeats):
        if anchored:
            return True  # R2
        starts = _folded(_first(node)[0], ignore_case)
        if all(info.exempt or not info.wide or not info.body_first & starts for info in repeats):
            return True  # R3
    return anchored and len(repeats) == 1  # R4


def _required_literal(node: Node) -> bytes:
    """The longest run of literal bytes every match contains (a cheap prefilter)."""
    while isinstance(node, Group):
        node = node.body
    if isinstance(node, Lit):
        return bytes((node.byte,))
    if not isinstance(node, Concat):
        return b""
    best = b""
    run = bytearray()
    for item in node.items:
        while isinstance(item, Group):
            item = item.body
        if isinstance(item, Lit):
            run.append(item.byte)
            continue
        if isinstance(item, Assert):
            continue
        if len(run) > len(best):
            best = bytes(run)
        run = bytearray()
        inner = _required_literal(item) if isinstance(item, Concat) else b""
        if len(inner) > len(best):
            best = inner
    return bytes(run) if len(run) > len(best) else best


# -- the compiled expression ---------------------------------------------------------------
class Regex:
    """One compiled POSIX expression. Use `search`, `test` and `finditer` (GNU's rules for
    empty matches); `buffer_pattern` scans a whole text whose lines end in newlines.
    Each takes an optional `cancelled` callback, polled every few thousand steps of the
    linear engines (a True answer raises RegexCancelled, a RegexError)."""

    # Spans of patterns routed away from `re` are POSIX's leftmost-longest (rust.py turns
    # this off: ripgrep's leftmost-first spans stay `re`'s unless the pattern is nested).
    _linear_spans = True

    def __init__(self, node: Node, groups: int, ignore_case: bool = False, multiline: bool = False,
                 longest_first: bool = False) -> None:
        """`longest_first`: the alternatives are literals ordered longest first, so `re`'s
        leftmost-first match is already the longest (grep -F with several patterns)."""
        self.groups = groups
        self.ignore_case = ignore_case
        self._node = node
        traits = _traits(node, ignore_case)
        if traits.nested and traits.backref:
            raise RegexError("pattern too complex: a back-reference inside nested repetition "
                             "can take exponential time; remove the nesting or the back-reference")
        self._flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
        asserts = _MULTILINE_ASSERTS if multiline else _LINE_ASSERTS
        self.python = _compile_python(_Emitter(asserts, buffer_mode=False).emit(node), self._flags)
        self._multiline = multiline
        self._nested = traits.nested
        self.engine = "re"
        self._backtrack: backtrack.Program | None = None
        if not _backtracking_bounded(node, traits, ignore_case, multiline):
            if traits.backref:
                self.engine = "backtrack"
                self._backtrack = backtrack.Program(node, groups, ignore_case, multiline)
            else:
                self.engine = "dfa"
        self._nfa_spans = not traits.backref and (traits.nested or (traits.alternation and not longest_first))
        self._literal = b"" if ignore_case else _required_literal(node)
        # Nested patterns need the program now (a too-big one is refused at compile time);
        # others build it on first use and keep `re` if it is too big.
        self._program: nfa.Program | None = None
        self._dfas: dict[str, dfa.DFA] = {}
        self._marks: tuple[bytes, bytearray] | None = None
        if self.engine == "dfa":
            try:
                self._program = self._build_program()
            except RegexError:
                if traits.nested:
                    raise
                self.engine = "re"
        self._buffer: re.Pattern[bytes] | None | bool = False

    def _build_program(self) -> nfa.Program:
        return nfa.compile_program(self._node, self.ignore_case, self._multiline)

    def _dfa(self, kind: str) -> dfa.DFA:
        found = self._dfas.get(kind)
        if found is None:
            if kind == "reverse":
                program = nfa.compile_program(dfa.reverse_node(self._node), self.ignore_case, self._multiline)
            else:
                program = self._program or self._build_program()
            found = self._dfas[kind] = dfa.DFA(program, anchored=kind == "anchored", reverse=kind == "reverse")
        return found

    def _linear_span_wanted(self) -> bool:
        """Whether spans come from the DFA (else from `re`)."""
        if self.engine == "dfa":
            return self._linear_spans or self._nested
        if self.engine == "backtrack" or not self._nfa_spans:
            return False
        if self._program is None:
            try:
                self._program = self._build_program()
            except RegexError:
                self._nfa_spans = False
                return False
        return True

    @property
    def linear_only(self) -> bool:
        """True when `re` must not search this pattern."""
        return self.engine != "re"

    def buffer_pattern(self) -> re.Pattern[bytes] | None:
        """A pattern whose matches never cross a newline, anchors at line ends: finds the
        matching lines of a whole text in one C-speed scan. None when `re` must not search
        this pattern (the lines are then tested one by one)."""
        if self._buffer is False:
            self._buffer = None if self.engine != "re" else _compile_python(
                _Emitter(_BUFFER_ASSERTS, buffer_mode=True).emit(self._node), self._flags)
        return self._buffer  # type: ignore[return-value]

    def test(self, data: bytes, cancelled: dfa.Cancelled = None) -> bool:
        if self.engine == "re":
            return self.python.search(data) is not None
        if self._literal and self._literal not in data:
            return False
        if self.engine == "dfa":
            return self._dfa("forward").matches(data, 0, cancelled)
        assert self._backtrack is not None
        return backtrack.search(self._backtrack, data, 0, cancelled=cancelled) is not None

    def _span(self, data: bytes, pos: int, cancelled: dfa.Cancelled) -> tuple[int, int] | None:
        if self._literal and self._literal not in data:
            return None
        marks = self._marks
        if marks is None or marks[0] is not data:
            marks = self._marks = (data, self._dfa("reverse").starts(data, cancelled))
        start = marks[1].find(1, pos)
        if start < 0:
            return None
        end = self._dfa("anchored").longest_end(data, start, cancelled)
        if end < 0:  # cannot happen: a start is marked only where a match begins
            found = nfa.search(self._program or self._build_program(), data, pos)
            return found
        return start, end

    def search(self, data: bytes, pos: int = 0, groups: bool = True,
               cancelled: dfa.Cancelled = None) -> re.Match[bytes] | Span | None:
        """The leftmost-longest match at or after pos: an re.Match, or a Span when the
        groups are not wanted; None when there is none."""
        if self.engine == "backtrack":
            assert self._backtrack is not None
            if self._literal and self._literal not in data:
                return None
            found = backtrack.search(self._backtrack, data, pos, cancelled=cancelled)
            if found is None:
                return None
            # `re` explores the same tree as the budgeted search did: its work is bounded.
            return self.python.match(data, found[0]) or Span(data, found[0], found[1])
        if not self._linear_span_wanted():
            return self.python.search(data, pos)
        found = self._span(data, pos, cancelled)
        if found is None:
            return None
        if groups and self.groups:
            # Groups for that span; `re` needs the span's end as endpos, which can fool an
            # end assertion, in which case `re`'s own match at that start is the answer
            # (not for a pattern `re` must not search: the span stands without groups).
            match = self.python.fullmatch(data, found[0], found[1])
            if match is None and self.engine == "re":
                match = self.python.match(data, found[0])
            if match is not None:
                return match
        return Span(data, found[0], found[1])

    def finditer(self, data: bytes, groups: bool = True, cancelled: dfa.Cancelled = None) -> Iterator:
        """Successive matches as sed's `g` and grep -o see them: after a match, an empty
        match right at its end is skipped ("abxd" with x* matches at 0, 1, 2..3, 4)."""
        pos, previous_end, n = 0, -1, len(data)
        while pos <= n:
            match = self.search(data, pos, groups, cancelled)
            if match is None:
                return
            start, end = match.start(), match.end()
            if start == end == previous_end:
                pos = start + 1
                continue
            yield match
            previous_end = end
            pos = end if end > start else end + 1


def _compile_python(source: str, flags: int) -> re.Pattern[bytes]:
    try:
        return re.compile(source.encode("latin-1"), flags)
    except (re.error, OverflowError, RecursionError) as error:
        raise RegexError(f"unsupported pattern ({error})") from None


def _as_bytes(pattern: str | bytes) -> bytes:
    return pattern if isinstance(pattern, bytes) else pattern.encode("utf-8", "surrogateescape")


@functools.lru_cache(maxsize=256)
def compile_regex(pattern: str | bytes, extended: bool = False, ignore_case: bool = False,
                  sed: bool = False, multiline: bool = False) -> Regex:
    """One pattern as sed reads it (`sed=True`: \\n, \\t ... are escapes) or grep does."""
    parsed = parse(_as_bytes(pattern), extended=extended, sed_escapes=sed, grep_class_check=not sed)
    return Regex(parsed.node, parsed.groups, ignore_case, multiline)


@functools.lru_cache(maxsize=256)
def compile_grep(patterns: tuple[str | bytes, ...], mode: str = "basic", ignore_case: bool = False,
                 word: bool = False, line: bool = False) -> Regex:
    """grep's patterns (mode basic, extended or fixed) as one expression: any pattern
    matches; -w wants no word byte around the match, -x the whole line."""
    branches: list[Node] = []
    groups = 0
    if mode == "fixed":  # longest first: at one start `re` then takes the longest literal
        patterns = tuple(sorted(patterns, key=lambda p: -len(_as_bytes(p))))
    for pattern in patterns:
        data = _as_bytes(pattern)
        if mode == "fixed":
            branches.append(literal_node(data))
            continue
        parsed = parse(data, extended=mode == "extended", grep_class_check=True, first_group=groups + 1)
        branches.append(parsed.node)
        groups += parsed.groups
    node: Node = branches[0] if len(branches) == 1 else Alt(tuple(branches))
    if word:
        node = Concat((Assert("nwb"), node, Assert("nwa")))
    if line:
        node = Concat((Assert("^"), node, Assert("$")))
    return Regex(node, groups, ignore_case, longest_first=mode == "fixed")


def split_patterns(patterns: Sequence[str]) -> tuple[str, ...]:
    """grep reads a newline inside a pattern as a separator between patterns."""
    return tuple(part for pattern in patterns for part in pattern.split("\n"))
