"""A backtracking-free matcher (Thompson NFA, simulated breadth-first) for the syntax tree.

Python's `re` backtracks: a nested quantifier such as `\\(a*\\)*b` can take exponential
time on one short line. This engine runs in time linear in the input for a fixed pattern
(every NFA state is visited at most once per input byte), and it finds POSIX's
leftmost-LONGEST match, where `re` finds the leftmost-first one (`a|ab` on "ab").
It has no captures and no back-references; `posix.py` decides when to use it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .syntax import (Alt, AnyByte, Assert, Backref, ByteSet, Concat, Group, Lit, Node, RegexError,
                           Repeat, WORD_BYTES)

MAX_PROGRAM = 20000  # instructions; bigger expansions (huge intervals) are refused

_BYTE, _SPLIT, _JMP, _ASSERT, _MATCH = range(5)
_WORD = bytes(1 if b in WORD_BYTES else 0 for b in range(256))


def _fold(members: frozenset[int]) -> frozenset[int]:
    extra = {b ^ 0x20 for b in members if 65 <= b <= 90 or 97 <= b <= 122}
    return members | extra


@dataclass
class Program:
    code: list[tuple]
    multiline: bool


def compile_program(node: Node, ignore_case: bool, multiline: bool = False) -> Program:
    builder = _Builder(ignore_case)
    builder.emit(node)
    builder.code.append((_MATCH,))
    return Program(builder.code, multiline)


class _Builder:
    def __init__(self, ignore_case: bool) -> None:
        self.code: list[tuple] = []
        self.ignore_case = ignore_case
        self.tables: dict[tuple[frozenset[int], bool], bytes] = {}  # shared between instructions

    def _add(self, instruction: tuple) -> int:
        if len(self.code) >= MAX_PROGRAM:
            raise RegexError("Regular expression too big")
        self.code.append(instruction)
        return len(self.code) - 1

    def _table(self, members: frozenset[int], negated: bool = False) -> bytes:
        key = (members, negated)
        if key not in self.tables:
            folded = _fold(members) if self.ignore_case else members
            self.tables[key] = bytes((b in folded) != negated for b in range(256))
        return self.tables[key]

    def emit(self, node: Node) -> None:
        if isinstance(node, Lit):
            self._add((_BYTE, self._table(frozenset((node.byte,)))))
        elif isinstance(node, AnyByte):
            self._add((_BYTE, b"\x01" * 256))
        elif isinstance(node, ByteSet):
            self._add((_BYTE, self._table(node.members, node.negated)))
        elif isinstance(node, Assert):
            self._add((_ASSERT, node.kind))
        elif isinstance(node, Group):
            self.emit(node.body)
        elif isinstance(node, Concat):
            for item in node.items:
                self.emit(item)
        elif isinstance(node, Alt):
            self._alternation(node.branches)
        elif isinstance(node, Repeat):
            self._repeat(node)
        elif isinstance(node, Backref):
            raise RegexError("back-references need the backtracking engine")

    def _alternation(self, branches: tuple[Node, ...]) -> None:
        jumps: list[int] = []
        for branch in branches[:-1]:
            split = self._add((_SPLIT, 0, 0))
            self.emit(branch)
            jumps.append(self._add((_JMP, 0)))
            self.code[split] = (_SPLIT, split + 1, len(self.code))
        self.emit(branches[-1])
        for jump in jumps:
            self.code[jump] = (_JMP, len(self.code))

    def _repeat(self, node: Repeat) -> None:
        for _ in range(node.min):
            self.emit(node.body)
        if node.max is None:
            split = self._add((_SPLIT, 0, 0))
            self.emit(node.body)
            self._add((_JMP, split))
            self.code[split] = (_SPLIT, split + 1, len(self.code))
            return
        holes: list[int] = []
        for _ in range(node.max - node.min):
            holes.append(self._add((_SPLIT, 0, 0)))
            self.emit(node.body)
        for hole in holes:
            self.code[hole] = (_SPLIT, hole + 1, len(self.code))


def _assert_holds(kind: str, data: bytes, i: int, multiline: bool) -> bool:
    n = len(data)
    before = _WORD[data[i - 1]] if i > 0 else 0
    after = _WORD[data[i]] if i < n else 0
    if kind == "^":
        return i == 0 or (multiline and data[i - 1] == 10)
    if kind == "$":
        return i == n or (multiline and data[i] == 10)
    if kind == "`":
        return i == 0
    if kind == "'":
        return i == n
    if kind == "b":
        return before != after
    if kind == "B":
        return before == after
    if kind == "<":
        return not before and bool(after)
    if kind == ">":
        return bool(before) and not after
    if kind == "nwb":
        return not before
    return not after  # "nwa"


def search(program: Program, data: bytes, pos: int = 0, first_only: bool = False) -> tuple[int, int] | None:
    """The leftmost-longest match at or after `pos` as (start, end); `first_only` stops at
    the first match found (enough to know that a line matches)."""
    code = program.code
    n = len(data)
    best: tuple[int, int] | None = None
    current: dict[int, int] = {}  # pc -> start; insertion order is ascending start

    def close(target: dict[int, int], pc: int, start: int, i: int) -> None:
        nonlocal best
        stack = [pc]
        while stack:
            pc = stack.pop()
            if pc in target:
                continue
            target[pc] = start
            op = code[pc]
            kind = op[0]
            if kind == _JMP:
                stack.append(op[1])
            elif kind == _SPLIT:
                stack.append(op[2])
                stack.append(op[1])
            elif kind == _ASSERT:
                if _assert_holds(op[1], data, i, program.multiline):
                    stack.append(pc + 1)
            elif kind == _MATCH:
                if best is None or start < best[0] or (start == best[0] and i > best[1]):
                    best = (start, i)

    for i in range(pos, n + 1):
        if best is None:
            close(current, 0, i, i)
        if best is not None:
            if first_only:
                return best
            current = {pc: start for pc, start in current.items() if start <= best[0]}
        if i == n or not current:
            break
        byte = data[i]
        following: dict[int, int] = {}
        for pc, start in current.items():
            op = code[pc]
            if op[0] == _BYTE and op[1][byte]:
                close(following, pc + 1, start, i + 1)
        current = following
        if not current and best is not None:
            break
    return best
