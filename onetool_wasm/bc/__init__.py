"""GNU bc 1.07.1 as a library: `run_bc(sources, mathlib=...)` runs a program read from
(name, text) sources (the files, then stdin, as one stream) and returns what bc prints.

Modules: `number` (decimals and bc's scale rules, output in any base), `lexer` (tokens),
`parser` (the grammar, compiled to GNU's code bytes), `interpreter` (the machine and its
limits), `mathlib` (-l: s c a l e j).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import mathlib
from .interpreter import MAX_STEPS, Fatal, Halt, Machine, Output
from .lexer import Lexer, Unavailable
from .parser import Parser, Quit, Symbols, load

__all__ = ["BcResult", "run_bc", "MAX_STEPS"]


@dataclass
class BcResult:
    stdout: str
    stderr: str
    status: int


def run_bc(sources: list[tuple[str, str]], mathlib_on: bool = False,
           cancelled: Callable[[], bool] = lambda: False, line_length: int = 70,
           max_steps: int | None = None) -> BcResult:
    """Runs a bc program; text is one str a byte (latin-1), as bc reads bytes. A source
    whose text is None is a file that could not be read."""
    symbols = Symbols()
    errors: list[str] = []
    out = Output(line_length)
    machine = Machine(symbols, out, errors, cancelled, MAX_STEPS if max_steps is None else max_steps)
    if mathlib_on:
        mathlib.install(symbols)
        machine.scale = 20
    lexer = Lexer(sources or [("(standard_in)", "")], errors.append, errors.append)
    status = 0
    try:
        parser = Parser(lexer, symbols, errors.append)
        while True:
            item = parser.parse_item()
            if item[0] == "eof":
                break
            if item[0] == "chunk" and item[1]:
                code, labels = load(item[1])
                machine.execute(code, labels)
    except (Quit, Halt):
        pass
    except Unavailable as missing:
        errors.append(f"File {missing} is unavailable.")
        status = 1
    except Fatal as problem:
        errors.append(str(problem))
        status = 1
    return BcResult(out.text(), "".join(line + "\n" for line in errors), status)
