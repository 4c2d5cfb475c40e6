"""The `test` and `[` builtins, following bash 5.2: how the arguments are read (by their number,
as POSIX says, and as a full `-a`/`-o`/`!`/`( )` expression beyond four), and the unary and
binary operators, which `[[ ]]` shares.

Files are seen through a `FileLookup` (the lead adapts the virtual file system to it). The VFS
has no owners, links or special files, so: `-r`/`-w`/`-x` read the owner's permission bits
where the VFS keeps modes (the sandbox user owns everything; `chmod`), else `-r`/`-w` are true
when the path exists and `-x` for directories only; `-L`/`-h`, `-p`,
`-S`, `-b`, `-c`, `-g`, `-u`, `-k` are always false; `-G`/`-O` (owned by us) are true when the
path exists. `-t` is false: there is no terminal.

The full expression is evaluated with an explicit stack, not recursion, so ten thousand
arguments (or deeply nested parentheses) cannot exhaust Pyodide's small stack.
"""
from __future__ import annotations

import posixpath
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol


class FileInfo(Protocol):
    """What a file test needs to know about an existing path."""
    is_dir: bool
    is_file: bool
    size: int
    mtime_ms: float


FileLookup = Callable[[str], Awaitable["FileInfo | None"]]
"""Returns None when the path does not exist."""


class TestSyntaxError(Exception):
    """A usage error: `message` is what bash prints after `bash: line N: ` (the status is 2).
    Raised by `run_test` with the command name in front (`[: missing `]'`); raised by
    `unary_test`/`binary_test` without it (`abc: integer expression expected`)."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


_UNARY_LETTERS = frozenset("abcdefghknoprstuvwxzGLOSNR")
_STRING_OPERATORS = frozenset({"=", "==", "!=", "<", ">"})
_INTEGER_OPERATORS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_FILE_OPERATORS = frozenset({"-nt", "-ot", "-ef"})
_BINARY_OPERATORS = _STRING_OPERATORS | _INTEGER_OPERATORS | _FILE_OPERATORS

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_C_SPACE = " \t\n\v\f\r"  # what strtoimax skips before a number
_BLANK = " \t"            # what bash allows after it


def is_unary_operator(op: str) -> bool:
    """`-f`, `-z`... : the operators that take one operand."""
    return len(op) == 2 and op[0] == "-" and op[1] in _UNARY_LETTERS


def is_binary_operator(op: str) -> bool:
    """`=`, `-eq`, `-nt`...: the operators `test` puts between two operands."""
    return op in _BINARY_OPERATORS


async def unary_test(op: str, operand: str, lookup: FileLookup, is_set: Callable[[str], bool]) -> bool:
    """Evaluate `op operand` (`-f path`, `-z string`, `-v name`...)."""
    if not is_unary_operator(op):
        raise TestSyntaxError(f"{op}: unary operator expected")
    letter = op[1]
    if letter in "zn":
        return (operand == "") == (letter == "z")
    if letter == "v":
        return is_set(operand)
    if letter in "toRN":
        # no terminal; shell options, namerefs and access times are not tracked here
        return False
    if letter in "LhpSbcguk" or operand == "":
        return False
    info = await lookup(operand)
    if info is None:
        return False
    if letter == "f":
        return info.is_file
    if letter in "rwx":
        mode = getattr(info, "mode", None)
        if mode is None:
            mode = await _vfs_mode(lookup, operand)
        if mode is not None:  # the sandbox user owns every file: the owner's bits decide
            return bool(mode & {"r": 0o400, "w": 0o200, "x": 0o100}[letter])
        return letter != "x" or info.is_dir
    if letter == "d":
        return info.is_dir
    if letter == "s":
        # a real directory always has a non-zero size; the VFS may report 0
        return info.is_dir or info.size > 0
    return True  # -e -a -r -w -G -O: it exists


async def _vfs_mode(lookup: FileLookup, operand: str) -> int | None:
    """The permission bits of `operand` where the VFS keeps them: the lookup's FileInfo may
    carry `mode`; else the shell's own VFS (the lookup is its bound `file_info`) is asked."""
    vfs = getattr(getattr(lookup, "__self__", None), "vfs", None)
    if vfs is None:
        return None
    try:
        mode = (await vfs.stat(operand)).mode
    except Exception:
        return None
    return None if mode is None else int(mode)


def binary_test(op: str, left: str, right: str) -> bool:
    """Evaluate a string (`= == != < >`) or integer (`-eq -ne -lt -le -gt -ge`) comparison.
    Integers are read as `test` reads them: decimal, blanks around allowed, no arithmetic."""
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op in ("<", ">"):
        # bash compares bytes under LC_ALL=C
        a, b = _as_bytes(left), _as_bytes(right)
        return a < b if op == "<" else a > b
    if op in _INTEGER_OPERATORS:
        a, b = parse_test_integer(left), parse_test_integer(right)
        return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
    raise TestSyntaxError(f"{op}: binary operator expected")


async def file_binary_test(op: str, left: str, right: str, lookup: FileLookup) -> bool:
    """`-nt` (newer, or only the left exists), `-ot` (older, or only the right exists), `-ef`
    (the same file: both exist and the paths normalise to the same text; the lookup gives no
    inode, so `a` and `/cwd/a` are not seen as the same)."""
    first = await lookup(left) if left else None
    second = await lookup(right) if right else None
    if op == "-ef":
        return first is not None and second is not None and posixpath.normpath(left) == posixpath.normpath(right)
    if op == "-nt":
        return first is not None and (second is None or first.mtime_ms > second.mtime_ms)
    if op == "-ot":
        return second is not None and (first is None or first.mtime_ms < second.mtime_ms)
    raise TestSyntaxError(f"{op}: binary operator expected")


def parse_test_integer(text: str) -> int:
    """An integer operand of `test`: optional leading white space and sign, decimal digits,
    optional trailing blanks, within 64 bits. Anything else is bash's integer error."""
    body = text.lstrip(_C_SPACE).rstrip(_BLANK)
    digits = body[1:] if body[:1] in ("+", "-") else body
    # (the length check keeps int() away from Python's limit on digits it will convert)
    if digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) <= 19:
        value = int(body)
        if _INT64_MIN <= value <= _INT64_MAX:
            return value
    raise TestSyntaxError(f"{text}: integer expression expected")


async def run_test(name: str, args: list[str], lookup: FileLookup,
                   is_set: Callable[[str], bool] | None = None) -> int:
    """Run `test ARGS` or `[ ARGS ]` (name "test" or "["): 0 when true, 1 when false.
    A usage error raises TestSyntaxError (the caller prints it; the status is 2).
    is_set answers `-v name`; without it `-v` is false."""
    if name == "[":
        if not args or args[-1] != "]":
            raise TestSyntaxError("[: missing `]'")
        args = args[:-1]
    evaluator = _Evaluator(args, lookup, is_set or (lambda _name: False), bracket=name == "[")
    try:
        value = await evaluator.evaluate()
    except TestSyntaxError as error:
        raise TestSyntaxError(f"{name}: {error.message}") from None
    return 0 if value else 1


def _as_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


@dataclass
class _Group:
    """An open `( ... )` of the full expression (or the whole expression itself)."""
    negate: bool            # an odd number of `!` was written before its `(`
    any_true: bool = False  # some `-o` alternative finished so far was true
    all_true: bool = True   # every term of the current `-a` chain was true


class _Evaluator:
    """Reads the arguments the way bash's test.c does, position by position."""

    def __init__(self, args: list[str], lookup: FileLookup, is_set: Callable[[str], bool],
                 bracket: bool = False) -> None:
        self.args = args
        self.bracket = bracket
        self.pos = 0
        self.lookup = lookup
        self.is_set = is_set

    async def evaluate(self) -> bool:
        args, count = self.args, len(self.args)
        if count == 0:
            return False
        if count == 1:
            return args[0] != ""
        if count == 2:
            return await self._two(0)
        if count == 3:
            return await self._three(0)
        if count == 4 and args[0] == "!":
            return not await self._three(1)
        if count == 4 and args[0] == "(" and args[3] == ")":
            return await self._two(1)
        value = await self._expression()
        if self.pos < count:
            leftover = args[self.pos]
            if leftover.startswith("-"):
                raise TestSyntaxError(f"syntax error: `{leftover}' unexpected")
            raise TestSyntaxError("too many arguments")
        return value

    async def _two(self, i: int) -> bool:
        first, second = self.args[i], self.args[i + 1]
        if first == "!":
            return second == ""
        if is_unary_operator(first):
            return await unary_test(first, second, self.lookup, self.is_set)
        raise TestSyntaxError(f"{first}: unary operator expected")

    async def _three(self, i: int) -> bool:
        first, middle, last = self.args[i], self.args[i + 1], self.args[i + 2]
        if is_binary_operator(middle):
            return await self._binary(middle, first, last)
        if middle == "-a":
            return first != "" and last != ""
        if middle == "-o":
            return first != "" or last != ""
        if first == "!":
            return not await self._two(i + 1)
        if first.startswith("(") and last.startswith(")"):  # bash looks at the first character only
            return middle != ""
        raise TestSyntaxError(f"{middle}: binary operator expected")

    async def _binary(self, op: str, left: str, right: str) -> bool:
        if op in _FILE_OPERATORS:
            return await file_binary_test(op, left, right, self.lookup)
        return binary_test(op, left, right)

    async def _expression(self) -> bool:
        """The full grammar: or := and {-o and}; and := term {-a term};
        term := {!} ( `(` or `)` | primary ). Every term is evaluated (bash does not short-circuit),
        left to right, so errors surface in bash's order."""
        stack = [_Group(negate=False)]
        while True:
            negate = self._skip_nots()
            if self.args[self.pos] == "(":
                self._advance_expecting_more()
                stack.append(_Group(negate))
                continue
            value = (await self._primary()) != negate
            while True:  # fold the finished term into the open groups
                group = stack[-1]
                group.all_true = group.all_true and value
                if self._at("-a"):
                    break
                group.any_true = group.any_true or group.all_true
                group.all_true = True
                if self._at("-o"):
                    break
                if len(stack) == 1:
                    return group.any_true
                self._close_paren()
                stack.pop()
                value = group.any_true != group.negate
            self.pos += 1  # past the -a / -o

    def _skip_nots(self) -> bool:
        """Consume leading `!`s; True when there was an odd number."""
        if self.pos >= len(self.args):
            raise TestSyntaxError("argument expected")
        negate = False
        while self.args[self.pos] == "!":
            self._advance_expecting_more()
            negate = not negate
        return negate

    def _advance_expecting_more(self) -> None:
        self.pos += 1
        if self.pos >= len(self.args):
            raise TestSyntaxError("argument expected")

    def _at(self, word: str) -> bool:
        return self.pos < len(self.args) and self.args[self.pos] == word

    def _close_paren(self) -> None:
        if self.pos >= len(self.args):
            # bash still sees the closing `]` of `[` there
            raise TestSyntaxError("`)' expected, found ]" if self.bracket else "`)' expected")
        if self.args[self.pos] != ")":
            raise TestSyntaxError(f"`)' expected, found {self.args[self.pos]}")
        self.pos += 1

    async def _primary(self) -> bool:
        """A binary test when the next word is an operator, else a unary test when this word is
        one and has an operand, else a plain string."""
        args, pos, count = self.args, self.pos, len(self.args)
        if pos + 3 <= count and is_binary_operator(args[pos + 1]):
            self.pos += 3
            return await self._binary(args[pos + 1], args[pos], args[pos + 2])
        if pos + 2 <= count and is_unary_operator(args[pos]):
            if args[pos] == "-t":
                # `-t` takes its operand only when that is a number: `-t 1` or a bare `-t`
                self.pos += 2 if _is_integer(args[pos + 1]) else 1
                return False
            self.pos += 2
            return await unary_test(args[pos], args[pos + 1], self.lookup, self.is_set)
        self.pos += 1
        return args[pos] != ""


def _is_integer(text: str) -> bool:
    try:
        parse_test_integer(text)
    except TestSyntaxError:
        return False
    return True
