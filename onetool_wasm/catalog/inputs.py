"""An operation's input from a command line: a JSON object, key=value pairs, or stdin JSON.

`key=value` values are read by the schema's property types (`id=2` -> 2 for an integer);
dotted keys build nested objects (`owner.name=Ann`). Stdin is read only when no input
arguments are given, so piping one call's output into another never mixes inputs silently.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..jsonparse import parse_json_text
from .validation import coerce_value, property_schema


class InputError(ValueError):
    """The arguments are not an input; the message says how to write one."""


def parse_input(args: list[str], stdin: bytes, schema: Mapping[str, Any], ref: str) -> dict[str, Any]:
    value: dict[str, Any] = {}
    pairs = args
    if args and args[0].lstrip().startswith("{"):
        value, pairs = _json_object(args[0], "argument", ref), args[1:]
    elif not args and stdin.strip():
        value = _json_object(stdin.decode("utf-8", errors="replace"), "stdin", ref)
    for pair in pairs:
        key, equals, text = pair.partition("=")
        if not equals or not key:
            raise InputError(f"expected key=value or a JSON object, got {pair!r}. Use: api describe {ref}")
        _assign(value, key.split("."), coerce_value(text, property_schema(schema, key.split("."))), ref)
    return value


def _json_object(text: str, source: str, ref: str) -> dict[str, Any]:
    try:
        value = parse_json_text(text)
    except ValueError as error:
        raise InputError(f"invalid JSON input in {source}: {error}. "
                         f"Pass an object like '{{\"key\": \"value\"}}' or key=value pairs "
                         f"(see: api describe {ref})") from None
    if not isinstance(value, dict):
        raise InputError(f"input in {source} must be a JSON object, got {type(value).__name__}. "
                         f"See: api describe {ref}")
    return value


def _assign(target: dict[str, Any], path: list[str], value: Any, ref: str) -> None:
    for key in path[:-1]:
        child = target.setdefault(key, {})
        if not isinstance(child, dict):
            raise InputError(f"cannot set {'.'.join(path)}: {key} is not an object. See: api describe {ref}")
        target = child
    target[path[-1]] = value
