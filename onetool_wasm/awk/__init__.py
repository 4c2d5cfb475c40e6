"""A POSIX awk interpreter (lexer -> parser -> Python code generator -> runtime).

The package knows nothing of the shell: the command (commands/awk.py) gives it the program
text, the operands, and a host object for files, commands and output. Strings are held as
Python str decoded from latin-1, so one character is one byte (the C locale's semantics).
"""
from __future__ import annotations

from .lexer import AwkSyntaxError
from .interpreter import AwkError, AwkProgram, compile_program

__all__ = ["AwkError", "AwkProgram", "AwkSyntaxError", "compile_program"]
