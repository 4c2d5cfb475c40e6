"""Evaluates a jq AST: every node is a generator of (value, path) pairs.

`path` is None when paths are not tracked; under `path(f)`, assignments and `del`, it is a
tuple of keys from the root, and nodes that do not produce paths raise jq's "Invalid path
expression". Bounds: user function calls nest at most MAX_CALL_DEPTH deep, the whole run
takes at most `max_steps` steps, and `cancelled()` is polled, so nothing runs forever.
"""
from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Iterator

from .values import JqError, JqLimit, describe, equal, compare, sort_key, truthy, type_name

MAX_CALL_DEPTH = 200
Pair = tuple  # (value, path or None)


class Break(Exception):
    """`break $label`: unwinds to the label that made `token`."""

    def __init__(self, token: object) -> None:
        super().__init__("break")
        self.token = token


class Env:
    """Lexical scope: variables ($name) and functions ((name, arity) -> definition)."""
    __slots__ = ("parent", "vars", "funcs")

    def __init__(self, parent: "Env | None" = None) -> None:
        self.parent = parent
        self.vars: dict[str, Any] = {}
        self.funcs: dict[tuple[str, int], Any] = {}

    def child(self) -> "Env":
        return Env(self)

    def var(self, name: str) -> Any:
        env: Env | None = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        raise JqError(f"${name} is not defined")

    def func(self, key: tuple[str, int]) -> Any:
        env: Env | None = self
        while env is not None:
            if key in env.funcs:
                return env.funcs[key]
            env = env.parent
        return None


class Closure:
    """A function: its parameters, body, and the scope it was defined in."""
    __slots__ = ("params", "body", "env")

    def __init__(self, params: tuple, body: tuple, env: Env) -> None:
        self.params, self.body, self.env = params, body, env


def identical(left: Any, right: Any) -> bool:
    if left is right:
        return True
    return isinstance(left, float) and isinstance(right, float) and left == right


class Interpreter:
    def __init__(self, natives: dict, cancelled: Callable[[], bool] = lambda: False,
                 max_steps: int = 20_000_000) -> None:
        self.natives = natives
        self.cancelled = cancelled
        self.max_steps = max_steps
        self.steps = 0
        self.depth = 0
        self.next_input: Callable[[], Any] | None = None
        self.messages: list[str] = []
        self.environment: dict = {}

    def tick(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > self.max_steps:
            raise JqLimit(f"the filter ran more than {self.max_steps} steps; narrow it (limit, first)")
        if self.steps % 4096 < count and self.cancelled():
            raise JqLimit("interrupted")

    # -- entry points
    def values(self, node: tuple, env: Env, value: Any) -> Iterator[Any]:
        for result, _ in self.ev(node, env, value, None):
            yield result

    def paths(self, node: tuple, env: Env, value: Any) -> Iterator[Pair]:
        return self.ev(node, env, value, ())

    def ev(self, node: tuple, env: Env, value: Any, path: tuple | None) -> Iterator[Pair]:
        self.tick()
        return getattr(self, "ev_" + node[0])(node, env, value, path)

    def not_path(self, result: Any, value: Any, path: tuple | None) -> Pair:
        """A value from a node that makes no path: fine unless paths are tracked."""
        if path is None:
            return result, None
        if identical(result, value):
            return result, path
        raise JqError(f"Invalid path expression with result {describe(result)}")

    # -- paths
    def ev_id(self, node, env, value, path):
        yield value, path

    def ev_rec(self, node, env, value, path):
        return self.recurse(value, path, lambda v, p: self.children(v, p, True))

    def recurse(self, value, path, step) -> Iterator[Pair]:
        """Depth-first, parent before children, with an explicit stack (no recursion)."""
        stack = [iter([(value, path)])]
        while stack:
            pair = next(stack[-1], None)
            if pair is None:
                stack.pop()
                continue
            self.tick()
            yield pair
            stack.append(iter(step(*pair)))

    def children(self, value, path, optional: bool) -> Iterator[Pair]:
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield item, None if path is None else path + (float(index),)
        elif isinstance(value, dict):
            for key, item in value.items():
                yield item, None if path is None else path + (key,)
        elif not optional:
            raise JqError(f"Cannot iterate over {describe(value) if value is not None else 'null'}")

    def ev_iter(self, node, env, value, path):
        for item, item_path in self.ev(node[1], env, value, path):
            yield from self.children(item, item_path, False)

    def ev_index(self, node, env, value, path):
        for key in self.values(node[2], env, value):
            for item, item_path in self.ev(node[1], env, value, path):
                yield index_value(item, key), None if item_path is None else item_path + (key,)

    def ev_slice(self, node, env, value, path):
        highs = [None] if node[3] is None else list(self.values(node[3], env, value))
        lows = [None] if node[2] is None else list(self.values(node[2], env, value))
        for high in highs:
            for low in lows:
                key = {"start": low, "end": high}
                for item, item_path in self.ev(node[1], env, value, path):
                    yield index_value(item, key), None if item_path is None else item_path + (key,)

    # -- structure
    def ev_pipe(self, node, env, value, path):
        for item, item_path in self.ev(node[1], env, value, path):
            yield from self.ev(node[2], env, item, item_path)

    def ev_comma(self, node, env, value, path):
        yield from self.ev(node[1], env, value, path)
        yield from self.ev(node[2], env, value, path)

    def ev_lit(self, node, env, value, path):
        yield self.not_path(node[1], value, path)

    def ev_var(self, node, env, value, path):
        yield self.not_path(env.var(node[1]), value, path)

    def ev_neg(self, node, env, value, path):
        for item in self.values(node[1], env, value):
            if not isinstance(item, float):
                raise JqError(f"{describe(item)} cannot be negated")
            yield self.not_path(-item, value, path)

    def ev_array(self, node, env, value, path):
        items = [] if node[1] is None else list(self.values(node[1], env, value))
        yield self.not_path(items, value, path)

    def ev_object(self, node, env, value, path):
        results: list[dict] = [{}]
        for key_node, value_node in node[1]:
            grown = []
            for partial in results:
                for key in self.values(key_node, env, value):
                    if not isinstance(key, str):
                        raise JqError(f"Object keys must be strings")
                    for item in self.values(value_node, env, value):
                        grown.append({**partial, key: item})
                        self.tick()
            results = grown
        for result in results:
            yield self.not_path(result, value, path)

    def ev_str(self, node, env, value, path):
        from .builtins import apply_format  # builtins imports this module
        fmt = node[2] or "text"
        results = [""]
        for part in node[1]:
            if isinstance(part, str):
                results = [text + part for text in results]
                continue
            outputs = [apply_format(fmt, item) for item in self.values(part, env, value)]
            results = [text + out for out in outputs for text in results]
        for text in results:
            yield self.not_path(text, value, path)

    def ev_format(self, node, env, value, path):
        from .builtins import apply_format
        yield self.not_path(apply_format(node[1], value), value, path)

    # -- operators
    def ev_binop(self, node, env, value, path):
        from .builtins import binary_operator
        operator = node[1]
        for right in self.values(node[3], env, value):
            for left in self.values(node[2], env, value):
                yield self.not_path(binary_operator(operator, left, right), value, path)

    def ev_and(self, node, env, value, path):
        for left in self.values(node[1], env, value):
            if not truthy(left):
                yield self.not_path(False, value, path)
                continue
            for right in self.values(node[2], env, value):
                yield self.not_path(truthy(right), value, path)

    def ev_or(self, node, env, value, path):
        for left in self.values(node[1], env, value):
            if truthy(left):
                yield self.not_path(True, value, path)
                continue
            for right in self.values(node[2], env, value):
                yield self.not_path(truthy(right), value, path)

    def ev_alt(self, node, env, value, path):
        found = False
        for item, item_path in self.ev(node[1], env, value, path):
            if truthy(item):
                found = True
                yield item, item_path
        if not found:
            yield from self.ev(node[2], env, value, path)

    def ev_if(self, node, env, value, path):
        return self._if(node[1], 0, node[2], env, value, path)

    def _if(self, branches, at, otherwise, env, value, path):
        if at == len(branches):
            yield from self.ev(otherwise, env, value, path)
            return
        condition, then = branches[at]
        for result in self.values(condition, env, value):
            if truthy(result):
                yield from self.ev(then, env, value, path)
            else:
                yield from self._if(branches, at + 1, otherwise, env, value, path)

    def ev_try(self, node, env, value, path):
        handler = node[2]
        try:
            for pair in self.ev(node[1], env, value, path):
                yield pair
        except JqError as error:
            if handler is None or getattr(error, "is_break", False):
                return
            yield from self.ev(handler, env, error.value, None if path is None else path)

    def ev_update(self, node, env, value, path):
        from .builtins import NATIVES, update_operator
        _, op, lhs, rhs = node
        if op == "|=":
            return NATIVES[("_modify", 2)](self, [(lhs, env), (rhs, env)], value, path)
        if op == "=":
            return NATIVES[("_assign", 2)](self, [(lhs, env), (rhs, env)], value, path)
        return update_operator(self, op[:-1], lhs, rhs, env, value, path)

    # -- binding
    def ev_bind(self, node, env, value, path):
        for item in self.values(node[1], env, value):
            for scope in self.bind(node[2], item, env, value):
                yield from self.ev(node[3], scope, value, path)

    def bind(self, pattern: tuple, item: Any, env: Env, dot: Any) -> Iterator[Env]:
        """Each scope the pattern makes from `item` (key expressions may have many outputs)."""
        for bindings in self._bind(pattern, item, env, dot, {}):
            scope = env.child()
            scope.vars.update(bindings)
            yield scope

    def _bind(self, pattern, item, env, dot, bound: dict) -> Iterator[dict]:
        kind = pattern[0]
        if kind == "pvar":
            yield {**bound, pattern[1]: item}
            return
        if kind == "parray":
            yield from self._bind_items([(float(i), p) for i, p in enumerate(pattern[1])], item, env, dot, bound)
            return
        entries = []
        for key_node, var, sub in pattern[1]:
            entries.append((key_node, var, sub))
        yield from self._bind_object(entries, 0, item, env, dot, bound)

    def _bind_items(self, items, item, env, dot, bound):
        if not items:
            yield bound
            return
        (key, sub), rest = items[0], items[1:]
        if item is not None and not isinstance(item, list):
            index_value(item, key)
        for done in self._bind(sub, index_value(item, key), env, dot, bound):
            yield from self._bind_items(rest, item, env, dot, done)

    def _bind_object(self, entries, at, item, env, dot, bound):
        if at == len(entries):
            yield bound
            return
        key_node, var, sub = entries[at]
        scope = env.child()
        scope.vars.update(bound)
        for key in self.values(key_node, scope, dot):
            if not isinstance(key, str):
                raise JqError(f"Cannot index {type_name(item)} with {type_name(key)}")
            field = index_value(item, key)
            now = {**bound, var: field} if var else bound
            if sub is None:
                yield from self._bind_object(entries, at + 1, item, env, dot, now)
            else:
                for done in self._bind(sub, field, env, dot, now):
                    yield from self._bind_object(entries, at + 1, item, env, dot, done)

    def ev_reduce(self, node, env, value, path):
        _, source, pattern, init, update = node
        for state in self.values(init, env, value):
            for item in self.values(source, env, value):
                for scope in self.bind(pattern, item, env, value):
                    last = None
                    for last in self.values(update, scope, state):
                        pass
                    state = last
            yield self.not_path(state, value, path)

    def ev_foreach(self, node, env, value, path):
        _, source, pattern, init, update, extract = node
        for state in self.values(init, env, value):
            for item in self.values(source, env, value):
                for scope in self.bind(pattern, item, env, value):
                    for state in self.values(update, scope, state):
                        if extract is None:
                            yield self.not_path(state, value, path)
                        else:
                            for out in self.values(extract, scope, state):
                                yield self.not_path(out, value, path)

    def ev_label(self, node, env, value, path):
        token = object()
        scope = env.child()
        scope.vars["*label*" + node[1]] = token
        try:
            yield from self.ev(node[2], scope, value, path)
        except Break as stop:
            if stop.token is not token:
                raise

    def ev_break(self, node, env, value, path):
        try:
            token = env.var("*label*" + node[1])
        except JqError:
            raise JqError(f"$*label-{node[1]} is not defined") from None
        raise Break(token)
        yield  # a generator, like every node

    # -- functions
    def ev_def(self, node, env, value, path):
        scope = env.child()
        _, name, params, body, rest = node
        scope.funcs[(name, len(params))] = Closure(tuple(params), body, scope)
        return self.ev(rest, scope, value, path)

    def ev_call(self, node, env, value, path):
        name, args = node[1], node[2]
        target = env.func((name, len(args)))
        if target is None:
            native = self.natives.get((name, len(args)))
            if native is None:
                raise JqError(f"{name}/{len(args)} is not defined")
            return native(self, [(arg, env) for arg in args], value, path)
        return self.call(target, args, env, value, path)

    def call(self, target: Closure, args, env: Env, value, path) -> Iterator[Pair]:
        self.depth += 1
        try:
            if self.depth > MAX_CALL_DEPTH:
                raise JqLimit(f"functions nested more than {MAX_CALL_DEPTH} levels deep; "
                              "the filter probably recurses without end")
            if not target.params:
                yield from self.ev(target.body, target.env, value, path)
                return
            scopes = [target.env.child()]
            for param, arg in zip(target.params, args):
                if not param.startswith("$"):
                    for scope in scopes:
                        scope.funcs[(param, 0)] = Closure((), arg, env)
                    continue
                grown = []
                for item in self.values(arg, env, value):
                    for scope in scopes:
                        copy = scope.child()
                        copy.vars[param[1:]] = item
                        copy.funcs[(param[1:], 0)] = Closure((), ("lit", item), env)
                        grown.append(copy)
                scopes = grown
            for scope in scopes:
                yield from self.ev(target.body, scope, value, path)
        finally:
            self.depth -= 1


def index_value(item: Any, key: Any) -> Any:
    """`item[key]` as jq does it: null propagates, arrays take numbers and slices, objects strings."""
    if isinstance(key, dict) and set(key) == {"start", "end"} and not isinstance(item, dict):
        return slice_value(item, key["start"], key["end"])
    if isinstance(key, str):
        if isinstance(item, dict):
            return item.get(key)
        if item is None:
            return None
    elif isinstance(key, float):
        if isinstance(item, list):
            if math.isnan(key):
                return None
            if key != math.floor(key):
                return None
            index = int(key)
            if index < 0:
                index += len(item)
            return item[index] if 0 <= index < len(item) else None
        if item is None:
            return None
    elif isinstance(key, list) and isinstance(item, list):
        from .builtins import array_indices
        return array_indices(item, key)
    elif key is None and item is None:
        return None
    if isinstance(key, str):
        raise JqError(f"Cannot index {type_name(item)} with \"{key}\"")
    raise JqError(f"Cannot index {type_name(item)} with {type_name(key)}")


def slice_value(item: Any, low: Any, high: Any) -> Any:
    if item is None:
        return None
    if not isinstance(item, (list, str)):
        raise JqError(f"Cannot index {type_name(item)} with object")
    for bound in (low, high):
        if bound is not None and not isinstance(bound, float):
            raise JqError("Start and end indices of an array slice must be numbers")
    size = len(item)
    start = 0 if low is None else _clamp(low, size, math.floor)
    end = size if high is None else _clamp(high, size, math.ceil)
    return item[start:max(start, end)]


def _clamp(bound: float, size: int, rounding) -> int:
    if math.isinf(bound) or math.isnan(bound):
        return 0 if bound < 0 or math.isnan(bound) else size
    index = rounding(bound)
    if index < 0:
        index += size
    return max(0, min(size, index))
