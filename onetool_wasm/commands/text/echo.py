"""echo: write its arguments, as /bin/echo (GNU coreutils) does: -n, -e, -E.

The shell has its own builtin echo; this command is the one xargs and find -exec run.
"""
from __future__ import annotations

import re
from ...result import TEXT, CommandResult, ok_bytes
from ..lines import with_stream
from ..spec import CommandContext, CommandIO, CommandSpec


_ECHO_ESCAPE = re.compile(r"\\(0[0-7]{0,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|.)", re.DOTALL)


_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                   "f": "\f", "r": "\r", "v": "\v"}


def _escape_bytes(code: str) -> bytes:
    """One `echo -e` escape (without its backslash) as the bytes bash's echo prints."""
    if code[0] == "0":
        return bytes([int(code[1:] or "0", 8) & 0xFF])
    if code[0] == "x" and len(code) > 1:
        return bytes([int(code[1:], 16)])
    if code[0] in "uU" and len(code) > 1:
        return chr(min(int(code[1:], 16), 0x10FFFF)).encode("utf-8", errors="surrogatepass")
    return _SIMPLE_ESCAPES.get(code, "\\" + code).encode("utf-8", "surrogateescape")


def _interpret_escapes(text: str) -> tuple[bytes, bool]:
    """Expand `echo -e` escapes; the bool says whether `\\c` asked to stop output."""
    out = bytearray()
    pos = 0
    for match in _ECHO_ESCAPE.finditer(text):
        out += text[pos:match.start()].encode("utf-8", "surrogateescape")
        if match.group(1) == "c":
            return bytes(out), True
        out += _escape_bytes(match.group(1))
        pos = match.end()
    out += text[pos:].encode("utf-8", "surrogateescape")
    return bytes(out), False


def cmd_echo(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args.pop(0)[1:]:
            newline = newline and flag != "n"
            escapes = {"e": True, "E": False}.get(flag, escapes)
    data = " ".join(args).encode("utf-8", "surrogateescape")
    if escapes:
        data, stop = _interpret_escapes(" ".join(args))
        newline = newline and not stop
    return ok_bytes(data + (b"\n" if newline else b""), TEXT)


async def stream_echo(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    await io.stdout.write(cmd_echo(ctx, args, b"").stdout)
    return 0


ECHO = with_stream(CommandSpec(
    name="echo",
    summary="Write arguments back as plain text output. Supports -n, -e, and -E.",
    usage="echo [-n] [-e|-E] [text ...]",
    details=('Examples:\n  echo hello world\n  echo -n "ready for review"\n'
             '  echo -e "line 1\\nline 2"\n  echo status:ok | write /notes/status.txt'),
    group="text", handler=cmd_echo,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=(), kind="read",
), stream_echo)

COMMANDS = [ECHO]
