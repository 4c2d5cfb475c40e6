"""A backtracking matcher with a step budget, for patterns with back-references.

Back-references make matching NP-hard, so no linear engine exists for them. This matcher
explores the same tree as Python's `re` (leftmost-first, greedy repeats tried longest
first, alternatives in order, an empty loop iteration ends the loop), with an explicit
stack (no recursion: Pyodide's stack is small), counting steps. Past `budget` steps it
raises RegexError ("too complex for this input") instead of running for hours; it polls
`cancelled` every CHECK_EVERY steps. When it finds a match, `re` (which explores the same
tree, in C) is asked for the match object at that start: its work is bounded by ours.
"""
from __future__ import annotations

from .dfa import CHECK_EVERY, Cancelled, check
from .nfa import _assert_holds, _fold
from .syntax import (Alt, AnyByte, Assert, Backref, ByteSet, Concat, Group, Lit, Node, RegexError, Repeat)

BUDGET = 2_000_000
MAX_CODE = 20000

_BYTE, _SPLIT, _JMP, _ASSERT, _SAVE, _BACKREF, _MARK, _CHECK, _MATCH = range(9)


class Program:
    def __init__(self, node: Node, groups: int, ignore_case: bool, multiline: bool) -> None:
        self.code: list[tuple] = []
        self.ignore_case = ignore_case
        self.multiline = multiline
        self.slots = 2 * (groups + 1)  # 0/1 unused; group g at 2g, 2g+1; then loop marks
        self.emit(node)
        self.code.append((_MATCH,))

    def _add(self, op: tuple) -> int:
        if len(self.code) >= MAX_CODE:
            raise RegexError("Regular expression too big")
        self.code.append(op)
        return len(self.code) - 1

    def _table(self, members: frozenset[int], negated: bool) -> bytes:
        if self.ignore_case:
            members = _fold(members)
        return bytes((b in members) != negated for b in range(256))

    def emit(self, node: Node) -> None:
        if isinstance(node, Lit):
            self._add((_BYTE, self._table(frozenset((node.byte,)), False)))
        elif isinstance(node, AnyByte):
            self._add((_BYTE, b"\x01" * 256))
        elif isinstance(node, ByteSet):
            self._add((_BYTE, self._table(node.members, node.negated)))
        elif isinstance(node, Assert):
            self._add((_ASSERT, node.kind))
        elif isinstance(node, Group):
            self._add((_SAVE, 2 * node.index))
            self.emit(node.body)
            self._add((_SAVE, 2 * node.index + 1))
        elif isinstance(node, Backref):
            self._add((_BACKREF, node.index))
        elif isinstance(node, Concat):
            for item in node.items:
                self.emit(item)
        elif isinstance(node, Alt):
            jumps = []
            for branch in node.branches[:-1]:
                split = self._add((_SPLIT, 0, 0))
                self.emit(branch)
                jumps.append(self._add((_JMP, 0)))
                self.code[split] = (_SPLIT, split + 1, len(self.code))
            self.emit(node.branches[-1])
            for jump in jumps:
                self.code[jump] = (_JMP, len(self.code))
        elif isinstance(node, Repeat):
            for _ in range(node.min):
                self.emit(node.body)
            if node.max is None:
                mark = self.slots
                self.slots += 1
                split = self._add((_SPLIT, 0, 0))
                self._add((_MARK, mark))
                self.emit(node.body)
                check_at = self._add((_CHECK, mark, 0))
                self._add((_JMP, split))
                self.code[split] = (_SPLIT, split + 1, len(self.code))
                self.code[check_at] = (_CHECK, mark, len(self.code))
                return
            holes = []
            for _ in range(node.max - node.min):
                holes.append(self._add((_SPLIT, 0, 0)))
                self.emit(node.body)
            for hole in holes:
                self.code[hole] = (_SPLIT, hole + 1, len(self.code))


def search(program: Program, data: bytes, pos: int = 0, budget: int = BUDGET,
           cancelled: Cancelled = None, anchored: bool = False) -> tuple[int, int] | None:
    """re's (leftmost-first) match at or after `pos` as (start, end), or None."""
    code, n, multiline = program.code, len(data), program.multiline
    folded = data.lower() if program.ignore_case else data
    steps = 0
    next_check = CHECK_EVERY
    for start in range(pos, n + 1):
        caps = [-1] * program.slots
        stack: list[tuple[int, int]] = [(0, start)]
        while stack:
            pc, i = stack.pop()
            if pc < 0:  # undo a SAVE or MARK
                caps[~pc] = i
                continue
            while True:
                steps += 1
                if steps >= next_check:
                    if steps > budget:
                        raise RegexError("pattern too complex for this input: the back-reference "
                                         f"search passed {budget} steps; simplify the pattern "
                                         "or shorten the lines")
                    check(cancelled)
                    next_check += CHECK_EVERY
                op = code[pc]
                kind = op[0]
                if kind == _BYTE:
                    if i < n and op[1][data[i]]:
                        i += 1
                        pc += 1
                        continue
                    break
                if kind == _SPLIT:
                    stack.append((op[2], i))
                    pc = op[1]
                elif kind == _JMP:
                    pc = op[1]
                elif kind == _ASSERT:
                    if not _assert_holds(op[1], data, i, multiline):
                        break
                    pc += 1
                elif kind == _SAVE or kind == _MARK:
                    slot = op[1]
                    stack.append((~slot, caps[slot]))
                    caps[slot] = i
                    pc += 1
                elif kind == _CHECK:
                    pc = op[2] if caps[op[1]] == i else pc + 1
                elif kind == _BACKREF:
                    begin, end = caps[2 * op[1]], caps[2 * op[1] + 1]
                    if begin < 0 or end < 0:
                        break
                    length = end - begin
                    if folded[i:i + length] != folded[begin:end]:
                        break
                    i += length
                    pc += 1
                else:
                    return start, i
        if anchored:
            break
    return None
