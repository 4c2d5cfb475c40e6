"""The text group: line and byte filters over stdin or a file."""
from __future__ import annotations

import re

from ..result import CommandResult, ok
from .helpers import read_text_input
from .spec import CommandContext, CommandSpec

_ECHO_ESCAPE = re.compile(r"\\(0[0-7]{0,3}|x[0-9A-Fa-f]{1,2}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "e": "\x1b",
                   "f": "\f", "r": "\r", "v": "\v"}


def _interpret_escapes(text: str) -> tuple[str, bool]:
    """Expand `echo -e` escapes; the bool says whether `\\c` asked to stop output."""
    out: list[str] = []
    pos = 0
    for match in _ECHO_ESCAPE.finditer(text):
        out.append(text[pos:match.start()])
        code = match.group(1)
        if code == "c":
            return "".join(out), True
        if code[0] == "0":
            out.append(chr(int(code[1:] or "0", 8)))
        elif code[0] == "x" and len(code) > 1:
            out.append(chr(int(code[1:], 16)))
        else:
            out.append(_SIMPLE_ESCAPES.get(code, "\\" + code))
        pos = match.end()
    out.append(text[pos:])
    return "".join(out), False


def cmd_echo(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args.pop(0)[1:]:
            newline = newline and flag != "n"
            escapes = {"e": True, "E": False}.get(flag, escapes)
    text = " ".join(args)
    if escapes:
        text, stop = _interpret_escapes(text)
        newline = newline and not stop
    return ok(text + ("\n" if newline else ""))


def _wc_counts(text: str) -> dict[str, int]:
    return {"l": text.count("\n"), "w": len(text.split()), "c": len(text.encode("utf-8"))}


async def cmd_wc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    flags = [a for a in args if a in ("-l", "-w", "-c")]
    paths = [a for a in args if a not in flags]
    text = await read_text_input(ctx, "wc", paths[0] if paths else None, stdin)
    counts = _wc_counts(text)
    wanted = [k for k in "lwc" if f"-{k}" in flags] or ["l", "w", "c"]
    values = [str(counts[k]) for k in wanted]
    width = max(len(v) for v in values)
    line = " ".join(v.rjust(width) for v in values)
    if paths:
        line += f" {ctx.vfs.normalize(paths[0])}"
    return ok(line + "\n")


ECHO = CommandSpec(
    name="echo",
    summary="Write arguments back as plain text output. Supports -n, -e, and -E.",
    usage="echo [-n] [-e|-E] [text ...]",
    details=('Examples:\n  echo hello world\n  echo -n "ready for review"\n'
             '  echo -e "line 1\\nline 2"\n  echo status:ok | write /notes/status.txt'),
    group="text",
    handler=cmd_echo,
    accepts_stdin=False, min_args=0, conformance_args=(),
)

WC = CommandSpec(
    name="wc",
    summary="Count lines, words, and bytes from stdin or a file.",
    usage="wc [-l] [-w] [-c] [path]",
    details="Examples:\n  wc /logs/app.log\n  wc -l /logs/app.log\n  fetch text:runbook | wc -w",
    group="text",
    handler=cmd_wc,
    accepts_stdin=True, min_args=0, conformance_args=(),
)

COMMANDS = [ECHO, WC]
