"""A lazy DFA over nfa.py's program: linear time, a few dict/list look-ups per input byte.

The subset construction runs on demand (as RE2's DFA does): a DFA state is the set of NFA
instructions the threads stand on, NOT yet closed over empty moves, plus the kind of the
byte before it (boundary, newline, word byte, other byte). A transition on the next byte
(or on the end of the text) first closes the set, evaluating each assertion with the byte
before and the byte after, notes whether MATCH was reached (a match ends before that
byte), then steps the byte. Transitions are cached in one row of 257 ints per state
(`next_state * 2 + matched`, -1 while unknown); when more than MAX_STATES states are
cached, the cache is flushed and rebuilt from the current state, so memory is bounded
and the time stays linear (each byte costs at most one closure over the program).

Three automata answer the questions the matchers ask:
* forward, unanchored (the start state is re-entered at every byte): does a match exist
  (`matches`), stopping at the first position where one ends;
* reverse, unanchored, over the reversed program: which positions a match STARTS at
  (`starts`, one backward pass over the text);
* forward, anchored: the LONGEST match from a given start (`longest_end`).
Leftmost-longest search is then: the first start at or after `pos`, and its longest end.

Long loops poll `cancelled` every CHECK_EVERY bytes and raise RegexCancelled.
"""
from __future__ import annotations

from typing import Callable, Optional

from .nfa import _ASSERT, _BYTE, _JMP, _MATCH, _SPLIT, Program
from .syntax import (Alt, Concat, Group, Node, RegexError, Repeat, WORD_BYTES)

MAX_STATES = 3000
CHECK_EVERY = 4096
END = 256  # the pseudo-byte of a text boundary

_BOUND, _NEWLINE, _WORDY, _OTHER = range(4)
KIND = bytes(_NEWLINE if b == 10 else _WORDY if b in WORD_BYTES else _OTHER for b in range(256))

Cancelled = Optional[Callable[[], bool]]


class RegexCancelled(RegexError):
    """The caller's cancellation callback (the run's deadline) fired during a match."""


def check(cancelled: Cancelled) -> None:
    if cancelled is not None and cancelled():
        raise RegexCancelled("interrupted: the run's time limit stopped the regular-expression scan")


def _holds(kind: str, before: int, after: int, multiline: bool) -> bool:
    if kind == "^":
        return before == _BOUND or (multiline and before == _NEWLINE)
    if kind == "$":
        return after == _BOUND or (multiline and after == _NEWLINE)
    if kind == "`":
        return before == _BOUND
    if kind == "'":
        return after == _BOUND
    word_before, word_after = before == _WORDY, after == _WORDY
    if kind == "b":
        return word_before != word_after
    if kind == "B":
        return word_before == word_after
    if kind == "<":
        return not word_before and word_after
    if kind == ">":
        return word_before and not word_after
    if kind == "nwb":
        return not word_before
    return not word_after  # "nwa"


def reverse_node(node: Node) -> Node:
    """The tree matching the reversed texts (assertions keep their meaning: they are
    evaluated at the same positions of the real text)."""
    if isinstance(node, Concat):
        return Concat(tuple(reverse_node(item) for item in reversed(node.items)))
    if isinstance(node, Alt):
        return Alt(tuple(reverse_node(branch) for branch in node.branches))
    if isinstance(node, Group):
        return Group(node.index, reverse_node(node.body))
    if isinstance(node, Repeat):
        return Repeat(reverse_node(node.body), node.min, node.max)
    return node


class DFA:
    def __init__(self, program: Program, anchored: bool, reverse: bool = False) -> None:
        self.code = program.code
        self.multiline = program.multiline
        self.anchored = anchored
        self.reverse = reverse
        self.ids: dict[tuple[frozenset[int], int], int] = {}
        self.keys: list[tuple[frozenset[int], int]] = []
        self.rows: list[list[int]] = []
        self.dead = -1  # the id of the empty set, once interned

    def _intern(self, key: tuple[frozenset[int], int]) -> int:
        found = self.ids.get(key)
        if found is not None:
            return found
        if len(self.keys) >= MAX_STATES:
            self.ids.clear()  # flush: the rows are rebuilt on demand; callers re-read `rows`
            self.keys.clear()
            self.rows.clear()
            self.dead = -1
        index = len(self.keys)
        self.ids[key] = index
        self.keys.append(key)
        self.rows.append([-1] * 257)
        if not key[0]:
            self.dead = index
        return index

    def start(self, previous: int) -> int:
        """The start state after a byte of kind `previous` (_BOUND at a text boundary)."""
        return self._intern((frozenset((0,)), previous))

    def fill(self, state: int, byte: int) -> int:
        """The cached transition of `state` on `byte` (END: the text boundary). The state
        ids may all change (a flush): the returned one is valid in the new numbering."""
        pcs, previous = self.keys[state]
        following = _BOUND if byte == END else KIND[byte]
        before, after = (following, previous) if self.reverse else (previous, following)
        code, multiline = self.code, self.multiline
        matched = False
        moved: set[int] = set()
        seen: set[int] = set()
        stack = list(pcs)
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            op = code[pc]
            kind = op[0]
            if kind == _BYTE:
                if byte != END and op[1][byte]:
                    moved.add(pc + 1)
            elif kind == _SPLIT:
                stack.append(op[2])
                stack.append(op[1])
            elif kind == _JMP:
                stack.append(op[1])
            elif kind == _ASSERT:
                if _holds(op[1], before, after, multiline):
                    stack.append(pc + 1)
            elif kind == _MATCH:
                matched = True
        if byte != END and not self.anchored:
            moved.add(0)
        key = (frozenset(moved), following if moved else _BOUND)
        rows = self.rows
        row = rows[state]
        target = self._intern(key)
        entry = target * 2 + matched
        if self.rows is rows and len(self.rows) > state and self.rows[state] is row:
            row[byte] = entry
        return entry

    # -- the scans ------------------------------------------------------------------------
    def matches(self, data: bytes, pos: int = 0, cancelled: Cancelled = None) -> bool:
        """Whether a match starts at or after `pos` (unanchored automaton)."""
        state = self.start(KIND[data[pos - 1]] if pos > 0 else _BOUND)
        rows = self.rows
        n = len(data)
        while pos < n:
            stop = min(n, pos + CHECK_EVERY)
            for byte in data[pos:stop]:
                entry = rows[state][byte]
                if entry < 0:
                    entry = self.fill(state, byte)
                if entry & 1:
                    return True
                state = entry >> 1
            pos = stop
            if pos < n:
                check(cancelled)
        entry = rows[state][END]
        if entry < 0:
            entry = self.fill(state, END)
        return bool(entry & 1)

    def starts(self, data: bytes, cancelled: Cancelled = None) -> bytearray:
        """marks[i] == 1 where a match starts at i (reverse unanchored automaton)."""
        n = len(data)
        marks = bytearray(n + 1)
        state = self.start(_BOUND)
        rows = self.rows
        position = n
        while position > 0:
            low = max(0, position - CHECK_EVERY)
            for byte in data[low:position][::-1]:
                entry = rows[state][byte]
                if entry < 0:
                    entry = self.fill(state, byte)
                if entry & 1:
                    marks[position] = 1
                position -= 1
                state = entry >> 1
            if position > 0:
                check(cancelled)
        entry = rows[state][END]
        if entry < 0:
            entry = self.fill(state, END)
        if entry & 1:
            marks[0] = 1
        return marks

    def longest_end(self, data: bytes, start: int, cancelled: Cancelled = None) -> int:
        """The end of the longest match beginning at `start` (anchored automaton), -1 if none."""
        state = self.start(KIND[data[start - 1]] if start > 0 else _BOUND)
        rows = self.rows
        n = len(data)
        last = -1
        pos = start
        while pos < n:
            stop = min(n, pos + CHECK_EVERY)
            for byte in data[pos:stop]:
                entry = rows[state][byte]
                if entry < 0:
                    entry = self.fill(state, byte)
                if entry & 1:
                    last = pos
                state = entry >> 1
                if state == self.dead:
                    return last
                pos += 1
            if pos < n:
                check(cancelled)
        entry = rows[state][END]
        if entry < 0:
            entry = self.fill(state, END)
        return n if entry & 1 else last
