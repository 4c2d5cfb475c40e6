"""json: pretty-print a document, list its keys, or get a value by a dotted path."""
from __future__ import annotations

import re
from typing import Any
from ...result import JSON, CommandResult, err, ok, printable
from ..helpers import (bounded_int, read_json_input, usage_error)
from ..json_text import to_json_text
from ..registry import c_locale_key
from ..spec import CommandContext, CommandSpec


class JsonPathError(ValueError):
    pass


def parse_json_path(expression: str) -> list[str | int]:
    """Dot-separated keys, each optionally followed by `[n]` indexes (negative from the end)."""
    tokens: list[str | int] = []
    for segment in expression.split("."):
        cursor = 0
        while cursor < len(segment):
            if segment[cursor] == "[":
                end = segment.find("]", cursor)
                if end == -1:
                    raise JsonPathError(f"malformed path segment: {segment}")
                index_text = segment[cursor + 1:end]
                if not re.fullmatch(r"-?[0-9]+", index_text):
                    raise JsonPathError(f"array index must be an integer: [{index_text}]")
                tokens.append(bounded_int(index_text))
                cursor = end + 1
            else:
                end = segment.find("[", cursor)
                end = len(segment) if end == -1 else end
                tokens.append(segment[cursor:end])
                cursor = end
    return tokens


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def _step(current: Any, token: str | int, where: str) -> Any:
    if isinstance(token, str) and isinstance(current, dict):
        if token not in current:
            raise JsonPathError(f"missing key: {token}")
        return current[token]
    if isinstance(token, str) and isinstance(current, list) and token.isascii() and token.isdigit():
        token = bounded_int(token)  # items.0 reads like items[0]
    if isinstance(token, int):
        if not isinstance(current, list):
            raise JsonPathError(f"{where or 'the input'} is {_article(current)}, not an array")
        if not -len(current) <= token < len(current):
            count = f"{len(current)} item" + ("" if len(current) == 1 else "s")
            raise JsonPathError(f"index {token} out of range: {where or 'the array'} has {count}")
        return current[token]
    raise JsonPathError(f"{where or 'the input'} is {_article(current)}, not an object")


def _article(value: Any) -> str:
    name = _json_type(value)
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def extract_json_path(value: Any, expression: str) -> Any:
    current, where = value, ""
    for token in parse_json_path(expression):
        if token == "":
            continue
        current = _step(current, token, where)
        where += f"[{token}]" if isinstance(token, int) else (f".{token}" if where else token)
    return current


JSON_USAGE = "json pretty [path] | json keys [path] | json get <field.path> [path]"


async def cmd_json(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    sub, rest = args[0], args[1:]
    try:
        if sub == "pretty":
            if len(rest) > 1:
                return usage_error("json", "json pretty [path]")
            value = await read_json_input(ctx, "json pretty", rest[0] if rest else None, stdin)
            return ok(printable(to_json_text(value)) + "\n", JSON)
        if sub == "keys":
            if len(rest) > 1:
                return usage_error("json", "json keys [path]")
            return await _json_keys(ctx, rest[0] if rest else None, stdin)
        if sub == "get":
            if len(rest) not in (1, 2):
                return usage_error("json", "json get <field.path> [path]")
            return await _json_get(ctx, rest[0], rest[1] if len(rest) > 1 else None, stdin)
    except RecursionError:
        return err(f"json {sub}: the JSON nests too deeply to print. Use: json get <field.path> to go inside")
    return err(f"json: unknown subcommand: {sub}. Use: json pretty | json keys | json get")


async def _json_keys(ctx: CommandContext, path: str | None, stdin: bytes) -> CommandResult:
    value = await read_json_input(ctx, "json keys", path, stdin)
    if not isinstance(value, dict):
        return err("json keys: input must be a JSON object")
    keys = sorted(value, key=c_locale_key)
    return ok("".join(printable(key) + "\n" for key in keys))


async def _json_get(ctx: CommandContext, expression: str, path: str | None, stdin: bytes) -> CommandResult:
    value = await read_json_input(ctx, "json get", path, stdin)
    try:
        found = extract_json_path(value, expression)
    except JsonPathError as error:
        inspect = f"json pretty {ctx.vfs.normalize(path)}" if path is not None else "json pretty (on the same input)"
        return err(f"json get: path not found: {expression} ({error}). Inspect with: {inspect}")
    if isinstance(found, (dict, list)):
        return ok(printable(to_json_text(found)) + "\n", JSON)
    text = found if isinstance(found, str) else to_json_text(found)
    return ok(printable(text) + "\n")


JSON_SPEC = CommandSpec(
    name="json",
    summary="Inspect JSON from stdin or a file: pretty, keys, get.",
    usage=JSON_USAGE,
    details=("Uses a small dot-and-index path syntax such as customer.email or items[0].id. It is not jq.\n"
             "Examples:\n  fetch order:123 | json pretty\n  fetch order:123 | json get customer.email\n"
             "  json keys /config/default.json"),
    group="data",
    handler=cmd_json,
    accepts_stdin=True, min_args=1, max_args=None, conformance_args=("pretty",),
    kind="read", requires_adapter=None,
)


COMMANDS = [JSON_SPEC]
