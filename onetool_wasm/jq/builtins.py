"""jq's builtins: native functions (NATIVES) and the ones jq 1.6 defines in jq (PRELUDE),
plus the operators and @formats the evaluator calls."""
from __future__ import annotations

import base64
import itertools
import math
import re
from typing import Any, Iterator

from ..jsonparse import parse_json_text
from .evaluator import Break, Interpreter, index_value, slice_value
from .values import (JqError, JqLimit, compare, describe, dump, equal, format_number, sort_key,
                     to_jq, truthy, type_name)

NATIVES: dict[tuple[str, int], Any] = {}
MAX_STRING = 64 * 1024 * 1024


class Halt(Exception):
    """`halt` / `halt_error`: stop with this status, message for stderr."""

    def __init__(self, status: int, message: str | None) -> None:
        super().__init__(status)
        self.status, self.message = status, message


def native(name: str, arity: int):
    def register(function):
        NATIVES[(name, arity)] = function
        return function
    return register


def simple(name: str, arity: int = 0):
    """A function of the input and its arguments' values (later arguments vary slowest)."""
    def register(function):
        def run(it: Interpreter, args, value, path):
            lists = [list(it.values(arg, env, value)) for arg, env in args]
            for combo in itertools.product(*reversed(lists)):
                yield it.not_path(function(value, *reversed(combo)), value, path)
        NATIVES[(name, arity)] = run
        return function
    return register


# -- operators

def binary_operator(op: str, left: Any, right: Any) -> Any:
    if op == "+":
        return add(left, right)
    if op == "-":
        return subtract(left, right)
    if op == "*":
        return multiply(left, right)
    if op == "/":
        return divide(left, right)
    if op == "%":
        return modulo(left, right)
    order = compare(left, right)
    return {"==": order == 0, "!=": order != 0, "<": order < 0, "<=": order <= 0,
            ">": order > 0, ">=": order >= 0}[op]


def add(left: Any, right: Any) -> Any:
    if left is None:
        return right
    if right is None:
        return left
    if isinstance(left, float) and isinstance(right, float):
        return left + right
    if isinstance(left, str) and isinstance(right, str):
        return check_size(left + right)
    if isinstance(left, list) and isinstance(right, list):
        return left + right
    if isinstance(left, dict) and isinstance(right, dict):
        return {**left, **right}
    raise JqError(f"{describe(left)} and {describe(right)} cannot be added")


def subtract(left: Any, right: Any) -> Any:
    if isinstance(left, float) and isinstance(right, float):
        return left - right
    if isinstance(left, list) and isinstance(right, list):
        return [item for item in left if not any(equal(item, other) for other in right)]
    raise JqError(f"{describe(left)} and {describe(right)} cannot be subtracted")


def multiply(left: Any, right: Any) -> Any:
    if isinstance(left, float) and isinstance(right, float):
        return left * right
    if isinstance(left, str) and isinstance(right, float) or isinstance(left, float) and isinstance(right, str):
        text, count = (left, right) if isinstance(left, str) else (right, left)
        if count <= 0:
            return None
        copies = max(1, int(count - 1) + 1) if count < 1e9 else int(1e9)
        return check_size(text * copies, len(text) * copies)
    if isinstance(left, dict) and isinstance(right, dict):
        return deep_merge(left, right)
    raise JqError(f"{describe(left)} and {describe(right)} cannot be multiplied")


def deep_merge(left: dict, right: dict) -> dict:
    merged = dict(left)
    for key, item in right.items():
        if isinstance(item, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], item)
        else:
            merged[key] = item
    return merged


def divide(left: Any, right: Any) -> Any:
    if isinstance(left, float) and isinstance(right, float):
        if right == 0:
            raise JqError(f"{describe(left)} and {describe(right)} cannot be divided because the divisor is zero")
        return left / right
    if isinstance(left, str) and isinstance(right, str):
        return split_string(left, right)
    raise JqError(f"{describe(left)} and {describe(right)} cannot be divided")


def modulo(left: Any, right: Any) -> Any:
    if isinstance(left, float) and isinstance(right, float):
        a, b = _to_int(left), _to_int(right)
        if b == 0:
            raise JqError(f"{describe(left)} and {describe(right)} cannot be divided because the divisor is zero")
        result = abs(a) % abs(b)
        return float(-result if a < 0 else result)
    raise JqError(f"{describe(left)} and {describe(right)} cannot be divided")


def _to_int(number: float) -> int:
    if math.isnan(number):
        return 0
    if math.isinf(number) or abs(number) >= 2 ** 63:
        return -(2 ** 63) if number < 0 or math.isinf(number) else 2 ** 63 - 1
    return int(number)


def check_size(text: str, size: int | None = None) -> str:
    if (size if size is not None else len(text)) > MAX_STRING:
        raise JqLimit("a string grew past 64 MiB; the filter is building too much text")
    return text


def split_string(text: str, separator: str) -> list:
    if text == "":
        return []
    if separator == "":
        return list(text)
    return text.split(separator)


# -- @formats

def tostring(value: Any) -> str:
    return value if isinstance(value, str) else dump(value)


def apply_format(name: str, value: Any) -> str:
    if name == "text":
        return tostring(value)
    if name == "json":
        return dump(value)
    if name == "html":
        text = tostring(value)
        for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("'", "&apos;"), ('"', "&quot;")):
            text = text.replace(char, entity)
        return text
    if name == "uri":
        safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~"
        return "".join(chr(b) if chr(b) in safe else f"%{b:02X}" for b in tostring(value).encode("utf-8"))
    if name in ("csv", "tsv"):
        return _table_row(name, value)
    if name == "sh":
        items = value if isinstance(value, list) else [value]
        return " ".join(_shell_word(item) for item in items)
    if name == "base64":
        return base64.b64encode(tostring(value).encode("utf-8")).decode("ascii")
    if name == "base64d":
        if not isinstance(value, str):
            raise JqError(f"{describe(value)} cannot be base64-decoded")
        return _base64_decode(tostring(value))
    if name == "base32":
        return base64.b32encode(tostring(value).encode("utf-8")).decode("ascii")
    raise JqError(f"{name} is not a valid format")


def _table_row(name: str, value: Any) -> str:
    if not isinstance(value, list):
        raise JqError(f"{describe(value)} cannot be {name}-formatted, only an array can be")
    cells = []
    for item in value:
        if isinstance(item, float):
            cells.append(format_number(item))
        elif item is None:
            cells.append("")
        elif item is True or item is False:
            cells.append("true" if item else "false")
        elif isinstance(item, str):
            if name == "csv":
                cells.append('"' + item.replace('"', '""') + '"')
            else:
                cells.append(item.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))
        else:
            raise JqError(f"{describe(item)} is not valid in a csv row")
    return ("," if name == "csv" else "\t").join(cells)


def _shell_word(item: Any) -> str:
    if isinstance(item, str):
        return "'" + item.replace("'", "'\\''") + "'"
    if isinstance(item, (list, dict)):
        raise JqError(f"{describe(item)} can not be escaped for shell")
    return dump(item)


def _base64_decode(text: str) -> str:
    data = re.sub(r"[^A-Za-z0-9+/]", "", text.split("=")[0])
    data = data[:len(data) - len(data) % 4 + (len(data) % 4 if len(data) % 4 > 1 else 0)]
    try:
        raw = base64.b64decode(data + "=" * (-len(data) % 4))
    except ValueError:
        raise JqError(f"{describe(text)} is not valid base64 data") from None
    return raw.decode("utf-8", errors="replace")


# -- path helpers

def get_path(value: Any, path: list) -> Any:
    for key in path:
        if value is None:
            return None
        value = index_value(value, key)
    return value


def set_path(value: Any, path: list, new: Any, at: int = 0) -> Any:
    if at == len(path):
        return new
    key = path[at]
    if isinstance(key, str):
        if value is not None and not isinstance(value, dict):
            raise JqError(f"Cannot index {type_name(value)} with \"{key}\"")
        copy = dict(value or {})
        copy[key] = set_path(copy.get(key), path, new, at + 1)
        return copy
    if isinstance(key, float):
        if value is not None and not isinstance(value, list):
            raise JqError(f"Cannot index {type_name(value)} with number")
        copy = list(value or [])
        index = int(math.floor(key))
        if index < 0:
            index += len(copy)
            if index < 0:
                raise JqError("Out of bounds negative array index")
        if index >= len(copy):
            if index > 100_000_000:
                raise JqError("Array index too large")
            copy.extend([None] * (index + 1 - len(copy)))
        copy[index] = set_path(copy[index], path, new, at + 1)
        return copy
    if isinstance(key, dict):
        if value is not None and not isinstance(value, list):
            raise JqError(f"Cannot update field at object index of {type_name(value)}")
        current = list(value or [])
        size = len(current)
        start = 0 if key.get("start") is None else _bound(key["start"], size)
        end = size if key.get("end") is None else _bound(key["end"], size)
        end = max(start, end)
        replacement = set_path(current[start:end], path, new, at + 1)
        if not isinstance(replacement, list):
            raise JqError("A slice of an array can only be assigned another array")
        return current[:start] + replacement + current[end:]
    raise JqError(f"Cannot index {type_name(value)} with {type_name(key)}")


def _bound(number: Any, size: int) -> int:
    index = int(math.floor(number))
    if index < 0:
        index += size
    return max(0, min(size, index))


def delete_paths(value: Any, paths: list) -> Any:
    for path in sorted(paths, key=sort_key, reverse=True):
        if not isinstance(path, list):
            raise JqError("Path must be specified as an array")
        value = _delete(value, path)
    return value


def _delete(value: Any, path: list) -> Any:
    if not path:
        return None
    if value is None:
        return None
    key = path[0]
    if len(path) > 1:
        child = index_value(value, key)
        if child is None:
            return value
        return set_path(value, [key], _delete(child, path[1:]))
    if isinstance(key, str):
        if not isinstance(value, dict):
            raise JqError(f"Cannot delete field at object index of {type_name(value)}")
        return {k: v for k, v in value.items() if k != key}
    if isinstance(key, float):
        if not isinstance(value, list):
            raise JqError(f"Cannot delete field at index of {type_name(value)}")
        index = int(math.floor(key))
        if index < 0:
            index += len(value)
        return value[:index] + value[index + 1:] if 0 <= index < len(value) else value
    if isinstance(key, dict) and isinstance(value, list):
        size = len(value)
        start = 0 if key.get("start") is None else _bound(key["start"], size)
        end = size if key.get("end") is None else _bound(key["end"], size)
        return value[:start] + value[max(start, end):]
    raise JqError(f"Cannot delete field at index of {type_name(value)}")


def array_indices(item: list, target: list) -> Any:
    if not target:
        return None
    found = []
    for start in range(len(item) - len(target) + 1):
        if all(equal(item[start + k], target[k]) for k in range(len(target))):
            found.append(float(start))
    return found


# -- natives: paths and control

@native("empty", 0)
def _empty(it, args, value, path):
    return iter(())


@native("not", 0)
def _not(it, args, value, path):
    yield it.not_path(not truthy(value), value, path)


@native("path", 1)
def _path(it, args, value, path):
    arg, env = args[0]
    for _, found in it.paths(arg, env, value):
        yield it.not_path(list(found), value, path)


@native("getpath", 1)
def _getpath(it, args, value, path):
    arg, env = args[0]
    for keys in it.values(arg, env, value):
        if not isinstance(keys, list):
            raise JqError("Path must be specified as an array")
        yield get_path(value, keys), None if path is None else path + tuple(keys)


@simple("setpath", 2)
def _setpath(value, keys, new):
    if not isinstance(keys, list):
        raise JqError("Path must be specified as an array")
    return set_path(value, keys, new)


@simple("delpaths", 1)
def _delpaths(value, paths):
    if not isinstance(paths, list):
        raise JqError("Paths must be specified as an array")
    return delete_paths(value, paths)


@native("error", 1)
def _error(it, args, value, path):
    arg, env = args[0]
    for message in it.values(arg, env, value):
        raise JqError(message)
    return
    yield


@native("error", 0)
def _error0(it, args, value, path):
    raise JqError(value)
    yield


@native("recurse", 1)
def _recurse(it, args, value, path):
    arg, env = args[0]
    return it.recurse(value, path, lambda v, p: it.ev(arg, env, v, p))


@native("recurse", 0)
def _recurse0(it, args, value, path):
    return it.ev(("rec",), None, value, path)


@native("first", 1)
def _first(it, args, value, path):
    arg, env = args[0]
    for pair in it.ev(arg, env, value, path):
        yield pair
        return


@native("last", 1)
def _last(it, args, value, path):
    arg, env = args[0]
    last = None
    for last in it.ev(arg, env, value, path):
        pass
    if last is not None:
        yield last


@native("limit", 2)
def _limit(it, args, value, path):
    (count_arg, count_env), (arg, env) = args
    for count in it.values(count_arg, count_env, value):
        if not isinstance(count, float):
            raise JqError("Invalid limit: must be a number")
        if count < 0:
            yield from it.ev(arg, env, value, path)
            continue
        emitted = 0
        for pair in it.ev(arg, env, value, path):
            yield pair
            emitted += 1
            if emitted >= count:
                break


@native("until", 2)
def _until(it, args, value, path):
    (cond, cond_env), (update, update_env) = args
    current = [value]
    while current:
        nxt = []
        for item in current:
            it.tick()
            for verdict in it.values(cond, cond_env, item):
                if truthy(verdict):
                    yield it.not_path(item, value, path)
                else:
                    nxt.extend(it.values(update, update_env, item))
        current = nxt


@native("while", 2)
def _while(it, args, value, path):
    (cond, cond_env), (update, update_env) = args
    stack = [iter([value])]
    while stack:
        item = next(stack[-1], _DONE)
        if item is _DONE:
            stack.pop()
            continue
        it.tick()
        for verdict in it.values(cond, cond_env, item):
            if truthy(verdict):
                yield it.not_path(item, value, path)
                stack.append(it.values(update, update_env, item))


_DONE = object()


@native("repeat", 1)
def _repeat(it, args, value, path):
    arg, env = args[0]
    for first in it.values(arg, env, value):
        yield from it.recurse(first, None, lambda v, p: ((out, None) for out in it.values(arg, env, v)))


@native("range", 2)
def _range2(it, args, value, path):
    lists = [list(it.values(arg, env, value)) for arg, env in args]
    for high in lists[1]:
        for low in lists[0]:
            if not isinstance(low, float) or not isinstance(high, float):
                raise JqError("Range bounds must be numeric")
            current = low
            while current < high:
                it.tick()
                yield it.not_path(current, value, path)
                current += 1


@native("range", 3)
def _range3(it, args, value, path):
    lists = [list(it.values(arg, env, value)) for arg, env in args]
    for step in lists[2]:
        for high in lists[1]:
            for low in lists[0]:
                if not all(isinstance(n, float) for n in (low, high, step)):
                    raise JqError("Range bounds must be numeric")
                current = low
                while (step > 0 and current < high) or (step < 0 and current > high):
                    it.tick()
                    yield it.not_path(current, value, path)
                    current += step


@native("input", 0)
def _input(it, args, value, path):
    if it.next_input is None:
        raise JqError("No more inputs")
    item = it.next_input()
    if item is _NO_INPUT:
        raise JqError("No more inputs")
    yield it.not_path(item, value, path)


_NO_INPUT = object()


@native("inputs", 0)
def _inputs(it, args, value, path):
    while it.next_input is not None:
        item = it.next_input()
        if item is _NO_INPUT:
            return
        yield it.not_path(item, value, path)


@native("debug", 0)
def _debug(it, args, value, path):
    it.messages.append(dump(["DEBUG:", value]))
    yield value, path


@native("stderr", 0)
def _stderr(it, args, value, path):
    it.messages.append(dump(value))
    yield value, path


@native("halt", 0)
def _halt(it, args, value, path):
    raise Halt(0, None)
    yield


@simple("halt_error", 1)
def _halt_error1(value, status):
    if not isinstance(status, float):
        raise JqError("halt_error/1: number required")
    raise Halt(int(status), value if isinstance(value, str) else dump(value) + "\n")


@simple("halt_error")
def _halt_error(value):
    raise Halt(5, value if isinstance(value, str) else dump(value) + "\n")


@native("sort_by", 1)
def _sort_by(it, args, value, path):
    yield it.not_path([item for _, item in _keyed(it, args, value, "sorted")], value, path)


@native("group_by", 1)
def _group_by(it, args, value, path):
    groups: list[list] = []
    last = _DONE
    for key, item in _keyed(it, args, value, "grouped"):
        if last is _DONE or key != last:
            groups.append([])
        groups[-1].append(item)
        last = key
    yield it.not_path(groups, value, path)


@native("unique_by", 1)
def _unique_by(it, args, value, path):
    result, last = [], _DONE
    for key, item in _keyed(it, args, value, "grouped"):
        if last is _DONE or key != last:
            result.append(item)
        last = key
    yield it.not_path(result, value, path)


@native("min_by", 1)
def _min_by(it, args, value, path):
    pairs = _keyed(it, args, value, "iterated over", sort=False)
    yield it.not_path(min(pairs, key=lambda pair: pair[0])[1] if pairs else None, value, path)


@native("max_by", 1)
def _max_by(it, args, value, path):
    pairs = _keyed(it, args, value, "iterated over", sort=False)
    best = None
    for key, item in pairs:
        if best is None or key >= best[0]:
            best = (key, item)
    yield it.not_path(best[1] if best else None, value, path)


def _keyed(it, args, value, verb: str, sort: bool = True) -> list:
    arg, env = args[0]
    if not isinstance(value, list):
        raise JqError(f"Cannot index {type_name(value)} with number" if verb != "sorted"
                      else f"{describe(value)} cannot be sorted, as it is not an array")
    pairs = [(sort_key(list(it.values(arg, env, item))), item) for item in value]
    if sort:
        pairs.sort(key=lambda pair: pair[0])
    return pairs


@native("_modify", 2)
def _modify(it, args, value, path):
    (paths, paths_env), (update, update_env) = args
    result = value
    for _, found in list(it.paths(paths, paths_env, value)):
        keys = list(found)
        for new in it.values(update, update_env, get_path(result, keys)):
            result = set_path(result, keys, new)
            break
        else:
            result = delete_paths(result, [keys])
    yield it.not_path(result, value, path)


@native("_assign", 2)
def _assign(it, args, value, path):
    (paths, paths_env), (source, source_env) = args
    found = [list(p) for _, p in it.paths(paths, paths_env, value)]
    for new in it.values(source, source_env, value):
        result = value
        for keys in found:
            result = set_path(result, keys, new)
        yield it.not_path(result, value, path)


def update_operator(it, op: str, lhs, rhs, env, value, path):
    """`lhs op= rhs`: for each output of rhs (against `.`), update every path of lhs."""
    found = [list(p) for _, p in it.paths(lhs, env, value)]
    for operand in it.values(rhs, env, value):
        result = value
        for keys in found:
            current = get_path(result, keys)
            if op == "//":
                new = current if truthy(current) else operand
            else:
                new = binary_operator(op, current, operand)
            result = set_path(result, keys, new)
        yield it.not_path(result, value, path)


# -- natives: values

@simple("length")
def _length(value):
    if value is None:
        return 0.0
    if value is True or value is False:
        raise JqError(f"{describe(value)} has no length")
    if isinstance(value, float):
        return abs(value)
    return float(len(value))


@simple("utf8bytelength")
def _utf8bytelength(value):
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} only strings have UTF-8 byte length")
    return float(len(value.encode("utf-8", errors="replace")))


@simple("type")
def _type(value):
    return type_name(value)


@simple("keys")
def _keys(value):
    if isinstance(value, dict):
        return sorted(value)
    if isinstance(value, list):
        return [float(i) for i in range(len(value))]
    raise JqError(f"{describe(value)} has no keys")


@simple("keys_unsorted")
def _keys_unsorted(value):
    if isinstance(value, dict):
        return list(value)
    return _keys(value)


@simple("has", 1)
def _has(value, key):
    if isinstance(value, dict) and isinstance(key, str):
        return key in value
    if isinstance(value, list) and isinstance(key, float):
        return 0 <= key < len(value)
    raise JqError(f"Cannot check whether {type_name(value)} has a {type_name(key)} key")


@simple("contains", 1)
def _contains(value, other):
    if type_name(value) != type_name(other):
        raise JqError(f"{describe(value)} and {describe(other)} cannot have their containment checked")
    return contains(value, other)


def contains(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return all(key in a and contains(a[key], item) for key, item in b.items())
    if isinstance(a, list) and isinstance(b, list):
        return all(any(contains(x, y) for x in a) for y in b)
    if isinstance(a, str) and isinstance(b, str):
        return b in a
    return type_name(a) == type_name(b) and equal(a, b)


@simple("add")
def _add(value):
    items = _iterate(value)
    result = None
    for item in items:
        result = add(result, item)
    return result


def _iterate(value: Any) -> list:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return list(value.values())
    raise JqError(f"Cannot iterate over {describe(value)}")


@simple("sort")
def _sort(value):
    if not isinstance(value, list):
        raise JqError(f"{describe(value)} cannot be sorted, as it is not an array")
    return sorted(value, key=sort_key)


@simple("unique")
def _unique(value):
    result = []
    for item in _sort(value):
        if not result or not equal(result[-1], item):
            result.append(item)
    return result


@simple("min")
def _min(value):
    items = _sort(value)
    return items[0] if items else None


@simple("max")
def _max(value):
    items = _sort(value)
    return items[-1] if items else None


@simple("reverse")
def _reverse(value):
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value[::-1]
    raise JqError(f"Cannot index {type_name(value)} with number")


@simple("flatten")
def _flatten(value):
    return _flatten_to(value, 1e9)


@simple("flatten", 1)
def _flatten_to(value, depth):
    if not isinstance(depth, float) or depth < 0:
        raise JqError("flatten depth must not be negative")
    if not isinstance(value, list):
        raise JqError(f"Cannot iterate over {describe(value)}")
    result: list = []
    stack = [(iter(value), depth)]
    while stack:
        item = next(stack[-1][0], _DONE)
        if item is _DONE:
            stack.pop()
            continue
        if isinstance(item, list) and stack[-1][1] > 0:
            stack.append((iter(item), stack[-1][1] - 1))
        else:
            result.append(item)
    return result


@simple("tostring")
def _tostring(value):
    return tostring(value)


@simple("tojson")
def _tojson(value):
    return dump(value)


@simple("fromjson")
def _fromjson(value):
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be parsed as JSON")
    try:
        return to_jq(parse_json_text(value))
    except (ValueError, RecursionError) as error:
        raise JqError(f"{value} (while parsing '{value}')") from error


_NUMBER = re.compile(r"\s*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\s*")


@simple("tonumber")
def _tonumber(value):
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        if _NUMBER.fullmatch(value):
            return float(value)
        raise JqError(f"Cannot parse '{value}' as JSON")
    raise JqError(f"{describe(value)} cannot be parsed as a number")


@simple("ascii_downcase")
def _downcase(value):
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be lowercased")
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in value)


@simple("ascii_upcase")
def _upcase(value):
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be uppercased")
    return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in value)


@simple("explode")
def _explode(value):
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be exploded")
    return [float(ord(c)) for c in value]


@simple("implode")
def _implode(value):
    if not isinstance(value, list) or not all(isinstance(c, float) for c in value):
        raise JqError("Implode input must be an array of codepoints")
    return "".join(chr(int(c)) if 0 <= c <= 0x10FFFF and not 0xD800 <= c < 0xE000 else "\ufffd" for c in value)


@simple("ltrimstr", 1)
def _ltrimstr(value, prefix):
    if isinstance(value, str) and isinstance(prefix, str) and value.startswith(prefix):
        return value[len(prefix):]
    return value


@simple("rtrimstr", 1)
def _rtrimstr(value, suffix):
    if isinstance(value, str) and isinstance(suffix, str) and suffix and value.endswith(suffix):
        return value[:-len(suffix)]
    return value


@simple("startswith", 1)
def _startswith(value, prefix):
    if not isinstance(value, str) or not isinstance(prefix, str):
        raise JqError("startswith() requires string inputs")
    return value.startswith(prefix)


@simple("endswith", 1)
def _endswith(value, suffix):
    if not isinstance(value, str) or not isinstance(suffix, str):
        raise JqError("endswith() requires string inputs")
    return value.endswith(suffix)


@simple("split", 1)
def _split(value, separator):
    if not isinstance(value, str) or not isinstance(separator, str):
        raise JqError("split input and separator must be strings")
    return split_string(value, separator)


@simple("_strindices", 1)
def _strindices(value, target):
    if not isinstance(value, str) or not isinstance(target, str):
        raise JqError("Cannot determine indices of non-strings")
    data, needle = value.encode("utf-8"), target.encode("utf-8")
    if not needle:
        return None
    found, start = [], data.find(needle)
    while start >= 0:
        found.append(float(start))
        start = data.find(needle, start + 1)
    return found


@native("env", 0)
def _env(it, args, value, path):
    yield it.not_path(it.environment, value, path)


@simple("builtins")
def _builtins(value):
    return [f"{name}/{arity}" for name, arity in NATIVES if not name.startswith("_")]


@simple("input_line_number")
def _input_line_number(value):
    return 0.0


@simple("now")
def _now(value):
    import time
    return time.time()


@simple("infinite")
def _infinite(value):
    return math.inf


@simple("nan")
def _nan(value):
    return math.nan


@simple("isinfinite")
def _isinfinite(value):
    return isinstance(value, float) and math.isinf(value) or _need_number(value, False)


@simple("isnan")
def _isnan(value):
    return isinstance(value, float) and math.isnan(value) or _need_number(value, False)


@simple("isnormal")
def _isnormal(value):
    _need_number(value, False)
    return value != 0 and math.isfinite(value) and abs(value) >= 2.2250738585072014e-308


def _need_number(value: Any, result: Any) -> Any:
    if not isinstance(value, float):
        raise JqError(f"{describe(value)} number required")
    return result


def _math(name: str, function) -> None:
    def run(value):
        _need_number(value, None)
        try:
            return float(function(value))
        except (ValueError, OverflowError):
            return _math_edge(name, value)
    simple(name)(run)


def _math_edge(name: str, value: float) -> float:
    if name in ("log", "log2", "log10"):
        return -math.inf if value == 0 else math.nan
    if name in ("exp", "exp2", "exp10", "pow10"):
        return math.inf
    if name in ("floor", "ceil", "round", "trunc"):
        return value
    return math.nan


for _name, _function in {
        "floor": math.floor, "ceil": math.ceil, "sqrt": math.sqrt, "fabs": math.fabs,
        "round": lambda x: math.floor(abs(x) + 0.5) * (1 if x >= 0 else -1), "trunc": math.trunc,
        "log": math.log, "log2": math.log2, "log10": math.log10, "exp": math.exp,
        "exp2": lambda x: 2.0 ** x, "exp10": lambda x: 10.0 ** x, "significand": lambda x: math.frexp(x)[0] * 2,
        "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
        "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
        "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x)}.items():
    _math(_name, _function)


@simple("pow", 2)
def _pow(value, base, exponent):
    _need_number(base, None)
    _need_number(exponent, None)
    try:
        return float(math.pow(base, exponent))
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


@simple("log", 0)
def _log(value):
    _need_number(value, None)
    if value <= 0:
        return -math.inf if value == 0 else math.nan
    return math.log(value)


@simple("indices", 1)
def _indices(value, target):
    if value is None:
        return None
    if isinstance(value, str) and isinstance(target, str):
        return _strindices(value, target)
    if isinstance(value, list) and isinstance(target, list):
        return array_indices(value, target)
    if isinstance(value, list):
        return array_indices(value, [target])
    raise JqError(f"Cannot determine indices of {type_name(value)}")


# -- regular expressions

def _regex(pattern: Any, flags: Any) -> tuple[re.Pattern, bool]:
    if not isinstance(pattern, str):
        raise JqError(f"{describe(pattern)} cannot be matched, as it is not a string")
    if flags is not None and not isinstance(flags, str):
        raise JqError(f"{describe(flags)} is not a string")
    options, global_ = 0, False
    for flag in flags or "":
        if flag == "g":
            global_ = True
        elif flag == "i":
            options |= re.IGNORECASE
        elif flag == "x":
            options |= re.VERBOSE
        elif flag in "s":
            options |= re.DOTALL
        elif flag in "pnl":
            options |= re.DOTALL if flag == "p" else 0
        else:
            raise JqError(f"{flags} is not a valid modifier string")
    translated = re.sub(r"\(\?<([A-Za-z_][A-Za-z0-9_]*)>", r"(?P<\1>", pattern)
    try:
        return re.compile(translated, options), global_
    except (re.error, OverflowError, RecursionError) as error:
        raise JqError(f"{pattern} (at offset 0) is not a valid regex: {error}") from None


def _match_object(match: re.Match, regex: re.Pattern) -> dict:
    names = {index: name for name, index in regex.groupindex.items()}
    captures = []
    for group in range(1, (regex.groups or 0) + 1):
        start = match.start(group)
        text = match.group(group)
        captures.append({"offset": float(start) if text is not None else -1.0,
                         "length": float(len(text)) if text is not None else 0.0,
                         "string": text, "name": names.get(group)})
    return {"offset": float(match.start()), "length": float(len(match.group())),
            "string": match.group(), "captures": captures}


def regex_matches(value: Any, pattern: Any, flags: Any, test: bool = False) -> list[dict]:
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be matched, as it is not a string")
    regex, global_ = _regex(pattern, flags)
    if test:
        return [{}] if regex.search(value) else []
    if not global_:
        found = regex.search(value)
        return [_match_object(found, regex)] if found else []
    return [_match_object(found, regex) for found in itertools.islice(regex.finditer(value), 1_000_000)]


@simple("test", 2)
def _test(value, pattern, flags):
    return bool(regex_matches(value, pattern, flags, test=True))


@native("match", 2)
def _match(it, args, value, path):
    lists = [list(it.values(arg, env, value)) for arg, env in args]
    for flags in lists[1]:
        for pattern in lists[0]:
            for found in regex_matches(value, pattern, flags):
                yield it.not_path(found, value, path)


@simple("split", 2)
def _split_regex(value, pattern, flags):
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be matched, as it is not a string")
    result, previous = [], 0
    for found in regex_matches(value, pattern, "g" + (flags or "")):
        start = int(found["offset"])
        result.append(value[previous:start])
        previous = start + int(found["length"])
    result.append(value[previous:])
    return result


@native("_sub", 3)
def _sub(it, args, value, path):
    (pattern_arg, pattern_env), (repl, repl_env), (flags_arg, flags_env) = args
    if not isinstance(value, str):
        raise JqError(f"{describe(value)} cannot be matched, as it is not a string")
    for flags in it.values(flags_arg, flags_env, value):
        for pattern in it.values(pattern_arg, pattern_env, value):
            matches = regex_matches(value, pattern, flags)
            pieces = []
            for found in matches:
                captures = {c["name"]: c["string"] for c in found["captures"] if c["name"] is not None}
                outputs = list(it.values(repl, repl_env, captures))
                for out in outputs:
                    if not isinstance(out, str):
                        raise JqError(f"{describe(value)} and {describe(out)} cannot be added")
                pieces.append(outputs)
            for choice in itertools.product(*pieces):
                text, previous = [], 0
                for found, out in zip(matches, choice):
                    start = int(found["offset"])
                    text.append(value[previous:start])
                    text.append(out)
                    previous = start + int(found["length"])
                text.append(value[previous:])
                yield it.not_path("".join(text), value, path)


PRELUDE = r"""
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type|. == "array" or . == "object");
def scalars: select(type|. != "array" and . != "object");
def select(f): if f then . else empty end;
def map(f): [.[] | f];
def recurse(f; cond): recurse(f | select(cond));
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: map({(.key // .name // .Name // .K // .Key | if type == "boolean" or type == "number" then tojson else . end): (if has("value") then .value else .v end)}) | add + {} // {};
def with_entries(f): to_entries | map(f) | from_entries;
def map_values(f): .[] |= f;
def any: reduce .[] as $x (false; . or $x);
def all: reduce .[] as $x (true; . and $x);
def any(f): reduce (.[] | f) as $x (false; . or $x);
def all(f): reduce (.[] | f) as $x (true; . and $x);
def isempty(g): first((g|false), true);
def any(g; cond): isempty(first(g | cond | select(.))) | not;
def all(g; cond): isempty(first(g | cond | select(. | not))) ;
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def join($x): reduce .[] as $i (null; (if .==null then "" else .+$x end) + ($i | if .==null then "" elif type=="boolean" or type=="number" then tojson else . end)) // "";
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def del(f): delpaths([path(f)]);
def first: .[0];
def last: .[-1];
def nth($n): .[$n];
def nth($n; f): if $n < 0 then error("Out of bounds negative array index") else last(limit($n + 1; f)) end;
def range($x): range(0; $x);
def index($i): indices($i) | .[0];
def rindex($i): indices($i) | .[-1:][0];
def combinations: if length == 0 then [] else .[0][] as $x | (.[1:] | combinations) as $w | [$x] + $w end;
def combinations(n): . as $dot | [range(n)] | map($dot) | combinations;
def walk(f): . as $in | if type == "object" then reduce keys[] as $key ( {}; . + { ($key): ($in[$key] | walk(f)) } ) | f elif type == "array" then map( walk(f) ) | f else f end;
def transpose: if . == [] then [] else . as $in | (map(length) | max) as $max | [range(0; $max) as $j | [range(0; $in|length) as $i | $in[$i][$j] ] ] end;
def tostream: path(def r: (.[]?|r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p+$q]);
def fromstream(f): { x: null, e: false } as $init | foreach f as $i ($init; if .e then $init else . end | if $i | length == 2 then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1]) else setpath(["e"]; $i[0] | length == 1) end; if .e then .x else empty end);
def truncate_stream(stream): . as $n | null | stream | . as $input | if (.[0]|length) > $n then setpath([0];.[0][$n:]) else empty end;
def test($re): test($re; null);
def match($re): match($re; null);
def capture($re): capture($re; null);
def capture($re; $flags): match($re; $flags) | [.captures | .[] | select(.name != null) | { key: .name, value: .string }] | from_entries;
def scan($re): scan($re; null);
def scan($re; $flags): match($re; "g" + ($flags // "")) | if (.captures|length > 0) then [ .captures | .[] | .string ] else .string end;
def splits($re): splits($re; null);
def splits($re; $flags): split($re; $flags) | .[];
def sub($re; str): _sub($re; str; "");
def sub($re; str; $flags): _sub($re; str; $flags);
def gsub($re; str): _sub($re; str; "g");
def gsub($re; str; $flags): _sub($re; str; $flags + "g");
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def finites: select(isinfinite or isnan | not);
def normals: select(isnormal);
"""
