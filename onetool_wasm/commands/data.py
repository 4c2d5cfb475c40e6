"""The data group's structured-text commands: json (pretty, keys, get), csv, base64.

JSON is read and printed as JavaScript reads and prints it (upstream's output), by json_text.
"""
from __future__ import annotations

import base64
import binascii
import csv
import io
import re
from typing import Any

from ..result import JSON, CommandResult, err, ok, ok_bytes, printable
from .helpers import (bounded_int, content_type_for, fail, read_bytes_input, read_json_input, read_text_input,
                      usage_error)
from .json_text import to_json_text
from .options import ArgReader, unknown_option, usage_failure
from .registry import c_locale_key
from .spec import CommandContext, CommandFailed, CommandSpec


# -- json path: customer.email, items[0].id, [2] --------------------------------------------

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


# -- json ---------------------------------------------------------------------------------

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


# -- csv ----------------------------------------------------------------------------------

CSV_USAGE = "csv head [-n N] [path] | csv cols [path] | csv get <column> [path] | csv to-json [path]"
_CSV_SUBCOMMANDS = {"head": "csv head [-n N] [path]", "cols": "csv cols [path]",
                    "get": "csv get <column> [path]", "to-json": "csv to-json [path]"}


async def read_csv(ctx: CommandContext, command: str, path: str | None, stdin: bytes) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of RFC 4180 text; blank lines are skipped, a header row is required."""
    if path is None and not stdin:
        # Not no_input_error(command): `help csv head` would not resolve, `help csv` does.
        raise fail(f"{command}: no input provided. Usage: see 'help csv'")
    text = (await read_text_input(ctx, command, path, stdin)).removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        rows = [row for row in reader if row]
    except csv.Error as error:
        raise fail(f"{command}: malformed CSV at line {reader.line_num}: {error}. "
                   "Quote fields that hold commas, quotes or newlines (\"a,b\", \"say \"\"hi\"\"\")") from None
    if not rows:
        source = ctx.vfs.normalize(path) if path is not None else "stdin"
        raise fail(f"{command}: no header row: {source} is empty")
    return rows[0], rows[1:]


def _csv_text(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _column_index(header: list[str], column: str) -> int | None:
    if column in header:
        return header.index(column)
    if re.fullmatch(r"[1-9][0-9]*", column) and bounded_int(column) <= len(header):
        return bounded_int(column) - 1  # a 1-based column number, as cut -f counts
    return None


def _unique_keys(header: list[str]) -> list[str]:
    """Header names as object keys; a repeated name gets `_2`, `_3`... so no column is lost."""
    keys: list[str] = []
    for name in header:
        key, number = name, 1
        while key in keys:
            number += 1
            key = f"{name}_{number}"
        keys.append(key)
    return keys


def _parse_head_count(args: list[str]) -> tuple[int, list[str]]:
    """`-n N` or `-nN` at the front -> (N, rest); 10 rows by default."""
    if not args or not args[0].startswith("-n"):
        return 10, args
    if len(args[0]) > 2:
        value, rest = args[0][2:], args[1:]
    else:
        value, rest = (args[1] if len(args) > 1 else ""), args[2:]
    if not re.fullmatch(r"\+?[0-9]+", value):
        raise fail(f"csv head: -n needs a non-negative integer, got '{value}'. "
                   f"Usage: {_CSV_SUBCOMMANDS['head']}")
    return bounded_int(value), rest


def _csv_operands(sub: str, rest: list[str]) -> tuple[int, str, str | None]:
    """(row count for head, column for get, path or None) of one csv subcommand."""
    count, column = 0, ""
    if sub == "head":
        count, rest = _parse_head_count(rest)
    if sub == "get":
        if not rest:
            raise CommandFailed(usage_error(f"csv {sub}", _CSV_SUBCOMMANDS[sub]))
        column, rest = rest[0], rest[1:]
    if len(rest) > 1:
        raise CommandFailed(usage_error(f"csv {sub}", _CSV_SUBCOMMANDS[sub]))
    return count, column, (rest[0] if rest else None)


async def cmd_csv(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    sub = args[0]
    if sub not in _CSV_SUBCOMMANDS:
        return err(f"csv: unknown subcommand: {sub}. Use: csv head | csv cols | csv get | csv to-json")
    count, column, path = _csv_operands(sub, args[1:])
    header, rows = await read_csv(ctx, f"csv {sub}", path, stdin)
    if sub == "head":
        return ok(_csv_text([header, *rows[:count]]))
    if sub == "cols":
        return ok("".join(f"{name}\n" for name in header))
    if sub == "get":
        return _csv_get(header, rows, column)
    keys = _unique_keys(header)
    records = [{key: (row[i] if i < len(row) else "") for i, key in enumerate(keys)} for row in rows]
    return ok(to_json_text(records) + "\n", JSON)


def _csv_get(header: list[str], rows: list[list[str]], column: str) -> CommandResult:
    index = _column_index(header, column)
    if index is None:
        return err(f"csv get: no column named '{column}'. Columns: {', '.join(header)}")
    return ok("".join(f"{row[index] if index < len(row) else ''}\n" for row in rows))


CSV_SPEC = CommandSpec(
    name="csv",
    summary="Inspect CSV from stdin or a file: head, cols, get, to-json.",
    usage=CSV_USAGE,
    details=("Reads RFC 4180 CSV whose first row is the header; quoted fields may hold commas, "
             "doubled quotes and newlines. Blank lines are skipped. csv get takes a header name "
             "or a 1-based column number; csv to-json prints an array of objects with string values.\n"
             "Examples:\n  csv cols /data/users.csv\n  csv head -n 5 /data/users.csv\n"
             "  csv get email /data/users.csv | sort | uniq\n"
             "  cat /data/users.csv | csv to-json | json get [0].name"),
    group="data",
    handler=cmd_csv,
    accepts_stdin=True, min_args=1, max_args=None, conformance_args=("cols",),
    kind="read", requires_adapter=None,
)


# -- base64 -------------------------------------------------------------------------------

BASE64_USAGE = "base64 [-d] [-w COLS] [path]"
_BASE64_TEXT = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_WRAP_FLAG = re.compile(r"(?:-w|--wrap=?)(.*)")


def _base64_options(args: list[str]) -> tuple[bool, int, str | None]:
    """(decode, wrap columns, path) from `-d`, `--decode`, `-w N`, `--wrap=N`, `--`."""
    decode, wrap = False, 76
    reader = ArgReader(args)
    for arg in reader:
        if arg in ("-d", "--decode"):
            decode = True
        elif (match := _WRAP_FLAG.fullmatch(arg)) is not None:
            value = reader.value(match.group(1) or None, _invalid_wrap(""))
            if not value.isascii() or not value.isdigit():
                raise _invalid_wrap(value)
            wrap = bounded_int(value)
        else:
            raise unknown_option("base64", arg, BASE64_USAGE)
    paths = reader.operands
    if len(paths) > 1:
        raise fail(f"base64: extra operand: {paths[1]}. Usage: {BASE64_USAGE}")
    return decode, wrap, (paths[0] if paths and paths[0] != "-" else None)


def _invalid_wrap(value: str) -> CommandFailed:
    return usage_failure("base64", f"invalid wrap size: '{value}'", BASE64_USAGE)


def decode_base64(data: bytes) -> bytes:
    """Standard or URL-safe base64; ASCII whitespace ignored, missing padding tolerated."""
    text = re.sub(rb"[\t\n\v\f\r ]+", b"", data).decode("ascii", errors="replace")
    text = text.replace("-", "+").replace("_", "/")
    bad = re.search(r"[^A-Za-z0-9+/=]", text)
    if bad is not None:
        raise ValueError(f"unexpected character {bad.group(0)!r}")
    if not _BASE64_TEXT.fullmatch(text):
        raise ValueError("'=' padding in the middle")
    body = text.rstrip("=")
    if len(body) % 4 == 1:
        raise ValueError("truncated input (length is not a valid base64 length)")
    return base64.b64decode(body + "=" * (-len(body) % 4))


async def cmd_base64(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    decode, wrap, path = _base64_options(args)
    data = await read_bytes_input(ctx, "base64", path, stdin)
    if not decode:
        encoded = base64.b64encode(data).decode("ascii")
        if not wrap:
            return ok(encoded)  # GNU: -w 0 writes one line without a newline
        lines = [encoded[i:i + wrap] for i in range(0, len(encoded), wrap)]
        return ok("".join(f"{line}\n" for line in lines))
    try:
        decoded = decode_base64(data)
    except (ValueError, binascii.Error) as error:
        return err(f"base64: invalid input: {error}. Decode only base64 text; to encode, drop -d")
    return ok_bytes(decoded, content_type_for(decoded))


BASE64_SPEC = CommandSpec(
    name="base64",
    summary="Encode bytes as base64, or decode base64 with -d, from stdin or a file.",
    usage=BASE64_USAGE,
    details=("Encoded output is wrapped at 76 columns like GNU base64 (-w 0 keeps one line). "
             "With -d, whitespace is ignored, URL-safe letters and missing padding are accepted; "
             "binary results are saved to a file instead of being printed.\n"
             "Examples:\n  echo hello | base64\n  base64 -w 0 /images/logo.png\n"
             "  echo aGVsbG8K | base64 -d\n  cat /data/blob.b64 | base64 -d | write /data/blob.bin"),
    group="data",
    handler=cmd_base64,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(),
    kind="read", requires_adapter=None,
)

COMMANDS = [JSON_SPEC, CSV_SPEC, BASE64_SPEC]
