"""base64: encode with GNU's wrapping (`-w COLS`, `-w0`) or decode (`-d`) bytes."""
from __future__ import annotations

import base64
import binascii
import re
from ...result import CommandResult, err, ok, ok_bytes
from ..helpers import (bounded_int, content_type_for, fail, read_bytes_input)
from ..options import ArgReader, unknown_option, usage_failure
from ..spec import CommandContext, CommandFailed, CommandSpec


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


COMMANDS = [BASE64_SPEC]
