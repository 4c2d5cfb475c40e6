"""A jq 1.6 interpreter in pure Python: `compile_filter(text, variables)` parses and checks a
filter (JqSyntaxError on a compile error), `Program.run(value)` yields its outputs.

Modules: lexer (tokens), parser (AST), evaluator (generators of values and paths), builtins
(native functions, jq-defined prelude, operators, @formats), values (ordering, printing).
It imports nothing from the shell or the commands.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from .builtins import NATIVES, PRELUDE, Halt
from .evaluator import Break, Closure, Env, Interpreter
from .lexer import JqSyntaxError
from .parser import parse
from .values import JqError, JqLimit, dump, to_jq

__all__ = ["compile_filter", "Program", "JqError", "JqLimit", "JqSyntaxError", "Halt", "dump", "to_jq"]

_PRELUDE_ENV: Env | None = None


def _prelude() -> Env:
    """The jq-defined builtins, parsed once; natives are looked up after them."""
    global _PRELUDE_ENV
    if _PRELUDE_ENV is None:
        env = Env()
        node = parse(PRELUDE + " .")
        while node[0] == "def":
            _, name, params, body, rest = node
            env.funcs[(name, len(params))] = Closure(tuple(params), body, env)
            node = rest
        _PRELUDE_ENV = env
    return _PRELUDE_ENV


class Program:
    def __init__(self, ast: tuple, variables: dict[str, Any], cancelled: Callable[[], bool],
                 max_steps: int) -> None:
        self.ast = ast
        self.env = _prelude().child()
        self.env.vars.update(variables)
        self.interpreter = Interpreter(NATIVES, cancelled, max_steps)

    def run(self, value: Any) -> Iterator[Any]:
        """The outputs for one input. Raises JqError (runtime), JqLimit, Halt."""
        try:
            yield from self.interpreter.values(self.ast, self.env, value)
        except Break:
            raise JqError("break") from None
        except RecursionError:
            raise JqLimit("the filter nests too deeply for the stack; simplify it") from None


def compile_filter(text: str, variables: dict[str, Any], cancelled: Callable[[], bool] = lambda: False,
                   max_steps: int = 3_000_000) -> Program:
    try:
        ast = parse(text)
    except RecursionError:
        raise JqSyntaxError("the filter nests too deeply; simplify it") from None
    defined = {key for key in NATIVES} | set(_prelude().funcs)
    _Checker(defined, set(variables) | {"ENV", "__input_filename"}).check(ast)
    return Program(ast, variables, cancelled, max_steps)


class _Checker:
    """Compile-time checks jq makes: every function and variable must be defined."""

    def __init__(self, functions: set, variables: set) -> None:
        self.base_functions = functions
        self.base_variables = variables

    def check(self, ast: tuple) -> None:
        # (node, functions, variables, labels) on an explicit stack: no recursion.
        stack = [(ast, frozenset(), frozenset(self.base_variables), frozenset())]
        while stack:
            node, funcs, names, labels = stack.pop()
            if not isinstance(node, tuple) or not node:
                continue
            stack.extend(self.children(node, funcs, names, labels))

    def children(self, node, funcs, names, labels) -> list:
        kind = node[0]
        out = []
        if kind == "call":
            key = (node[1], len(node[2]))
            if key not in funcs and key not in self.base_functions:
                raise JqSyntaxError(f"{node[1]}/{len(node[2])} is not defined")
            return [(arg, funcs, names, labels) for arg in node[2]]
        if kind == "var":
            if node[1] not in names:
                raise JqSyntaxError(f"${node[1]} is not defined")
            return out
        if kind == "break":
            if node[1] not in labels:
                raise JqSyntaxError(f"$*label-{node[1]} is not defined")
            return out
        if kind == "def":
            _, name, params, body, rest = node
            inner_funcs = funcs | {(name, len(params))} | {(p.lstrip("$"), 0) for p in params}
            inner_names = names | {p[1:] for p in params if p.startswith("$")}
            return [(body, inner_funcs, inner_names, labels), (rest, funcs | {(name, len(params))}, names, labels)]
        if kind == "label":
            return [(node[2], funcs, names, labels | {node[1]})]
        if kind in ("bind", "reduce", "foreach"):
            bound = names | _pattern_names(node[2])
            out.append((node[1], funcs, names, labels))
            out.extend(_pattern_keys(node[2], funcs, names, labels))
            if kind == "bind":
                out.append((node[3], funcs, bound, labels))
            else:
                out.append((node[3], funcs, names, labels))
                out.extend((part, funcs, bound, labels) for part in node[4:] if part is not None)
            return out
        if kind == "str":
            return [(part, funcs, names, labels) for part in node[1] if isinstance(part, tuple)]
        if kind == "object":
            return [(part, funcs, names, labels) for entry in node[1] for part in entry]
        if kind == "if":
            out = [(part, funcs, names, labels) for branch in node[1] for part in branch]
            return out + [(node[2], funcs, names, labels)]
        return [(part, funcs, names, labels) for part in node[1:] if isinstance(part, tuple)]


def _pattern_names(pattern: tuple) -> set:
    names: set = set()
    stack = [pattern]
    while stack:
        current = stack.pop()
        if current[0] == "pvar":
            names.add(current[1])
        elif current[0] == "parray":
            stack.extend(current[1])
        else:
            for _, var, sub in current[1]:
                if var:
                    names.add(var)
                if sub is not None:
                    stack.append(sub)
    return names


def _pattern_keys(pattern: tuple, funcs, names, labels) -> list:
    out, stack = [], [pattern]
    while stack:
        current = stack.pop()
        if current[0] == "parray":
            stack.extend(current[1])
        elif current[0] == "pobject":
            for key, _, sub in current[1]:
                out.append((key, funcs, names | _pattern_names(pattern), labels))
                if sub is not None:
                    stack.append(sub)
    return out
