"""`[[ ... ]]`: conditional expressions. Operands are expanded without splitting or globbing;
`==`/`!=` match a pattern (its quoted parts literally), `=~` a POSIX extended regular
expression (grep -E's engine) whose groups land in BASH_REMATCH, `-eq` and friends evaluate
arithmetic; the unary and string operators are test's (builtins/test.py)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import arithmetic, patterns
from .ast import CondAnd, CondBinary, CondExpr, CondNot, CondOr, CondUnary, CondWord, Word
from .builtins.test import binary_test, file_binary_test, unary_test
from .state import ShellError

if TYPE_CHECKING:
    from .interpreter import Interpreter

_ARITHMETIC = ("-eq", "-ne", "-lt", "-le", "-gt", "-ge")


async def evaluate(shell: "Interpreter", node: CondExpr) -> bool:
    """The expression's truth. Nesting is bounded by the parser (MAX_NESTING)."""
    if isinstance(node, CondAnd):
        return await evaluate(shell, node.left) and await evaluate(shell, node.right)
    if isinstance(node, CondOr):
        return await evaluate(shell, node.left) or await evaluate(shell, node.right)
    if isinstance(node, CondNot):
        return not await evaluate(shell, node.operand)
    if isinstance(node, CondWord):
        return await shell.expander.string(node.word) != ""
    if isinstance(node, CondUnary):
        operand = await shell.expander.string(node.operand)
        return await unary_test(node.op, operand, shell.file_info, shell.is_set)
    assert isinstance(node, CondBinary)
    return await _binary(shell, node)


async def _binary(shell: "Interpreter", node: CondBinary) -> bool:
    left = await shell.expander.string(node.left)
    if node.op in ("==", "=", "!="):
        pieces = await shell.expander.pattern(node.right)
        found = patterns.match(pieces, left, nocase=shell.state.options.nocasematch)
        return found if node.op != "!=" else not found
    if node.op == "=~":
        return await _regex_match(shell, left, node.right)
    right = await shell.expander.string(node.right)
    if node.op in _ARITHMETIC:
        values = [arithmetic.evaluate(side, shell.state) for side in (left, right)]
        return binary_test(node.op, str(values[0]), str(values[1]))
    if node.op in ("-nt", "-ot", "-ef"):
        return await file_binary_test(node.op, left, right, shell.file_info)
    return binary_test(node.op, left, right)


async def _regex_match(shell: "Interpreter", text: str, word: Word) -> bool:
    from ..regex import compile_regex
    pieces = await shell.expander.pattern(word)
    source = "".join(_regex_literal(piece) if quoted else piece for piece, quoted in pieces)
    try:
        regex = compile_regex(source, extended=True)
    except Exception:
        raise ShellError(f"{source}: invalid regular expression", status=2)
    data = text.encode("utf-8", "surrogateescape")
    found = regex.search(data, cancelled=shell.budget.stopped)
    if found is None:
        shell.state.unset("BASH_REMATCH")
        return False
    groups = [data[found.start():found.end()]]
    if isinstance(found, re.Match):
        groups += [group or b"" for group in found.groups()]
    shell.state.set_array("BASH_REMATCH", [g.decode("utf-8", "surrogateescape") for g in groups])
    return True


def _regex_literal(text: str) -> str:
    """A quoted part of `=~`'s right side matches itself."""
    return "".join("\\" + ch if ch in ".[]()*+?{}|^$\\" else ch for ch in text)
