"""csv: the head, columns, one column, or JSON records of a CSV table (Python's csv reader)."""
from __future__ import annotations

import csv
import io
import re
from ...result import JSON, CommandResult, err, ok
from ..helpers import (bounded_int, fail, read_text_input, usage_error)
from ..json_text import to_json_text
from ..spec import CommandContext, CommandFailed, CommandSpec


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


COMMANDS = [CSV_SPEC]
