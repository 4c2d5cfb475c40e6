"""nl: number the lines of files, as GNU coreutils nl in the C locale.

Body lines are numbered by style (-b a: all, t: non-empty, n: none), the number printed
in a field of -w columns (-n ln / rn / rz) followed by -s SEP; numbering starts at -v and
steps by -i, on across files. Lines `\\:\\:\\:`, `\\:\\:` and `\\:` start a header, body or
footer section (printed as empty lines; numbering restarts unless -p). Streams line by line.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...result import TEXT, CommandResult
from ..lines import Source, source_blocks, with_stream
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec
from ..helpers import no_input_error
from ..getopt import NONE, REQUIRED, OperandError, gnu_getopt, read_operand, result_of

USAGE = "nl [-b STYLE] [-n FORMAT] [-w N] [-s SEP] [-v N] [-i N] [FILE...]"
_LONG = {
    "body-numbering": ("b", REQUIRED), "header-numbering": ("h", REQUIRED), "footer-numbering": ("f", REQUIRED),
    "number-format": ("n", REQUIRED), "number-width": ("w", REQUIRED), "number-separator": ("s", REQUIRED),
    "starting-line-number": ("v", REQUIRED), "line-increment": ("i", REQUIRED), "join-blank-lines": ("l", REQUIRED),
    "section-delimiter": ("d", REQUIRED), "no-renumber": ("p", NONE),
}
_LIMIT = 1 << 63
_MAX_WIDTH = 4096
_STYLE_NAMES = {"b": "body", "h": "header", "f": "footer"}


@dataclass
class NlOptions:
    styles: dict[str, str]
    format: str = "rn"
    width: int = 6
    separator: bytes = b"\t"
    start: int = 1
    increment: int = 1
    blank_join: int = 1
    renumber: bool = True
    delimiter: bytes = b"\\:"
    paths: tuple[str, ...] = ()


def _integer(text: str, what: str, low: int = -_LIMIT) -> int:
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not (digits.isdigit() and digits.isascii()) or len(digits) > 19:
        raise CommandFailed(result_of(b"", [f"nl: invalid {what}: '{text}'"]))
    value = int(body)
    if not low <= value < _LIMIT:
        raise CommandFailed(result_of(b"", [f"nl: invalid {what}: '{text}': Numerical result out of range"]))
    return value


def parse_options(args: list[str]) -> NlOptions:
    options, paths = gnu_getopt("nl", USAGE, args, "b:h:f:n:w:s:v:i:l:d:p", _LONG)
    parsed = NlOptions(styles={"b": "t", "h": "n", "f": "n"}, paths=tuple(paths))
    for key, value in options:
        text = value or ""
        if key in "bhf":
            if text not in ("a", "t", "n"):
                hint = " (regular expressions are not supported)" if text.startswith("p") else ""
                raise usage_failure("nl", f"invalid {_STYLE_NAMES[key]} numbering style: '{text}'{hint}", USAGE)
            parsed.styles[key] = text
        elif key == "n":
            if text not in ("ln", "rn", "rz"):
                raise usage_failure("nl", f"invalid line numbering format: '{text}'", USAGE)
            parsed.format = text
        elif key == "w":
            parsed.width = _integer(text, "line number field width", 1)
            if parsed.width > _MAX_WIDTH:  # every line would carry this many spaces
                raise usage_failure("nl", f"line number field width {parsed.width} is too large "
                                    f"(at most {_MAX_WIDTH})", USAGE)
        elif key == "s":
            parsed.separator = text.encode("utf-8")
        elif key == "v":
            parsed.start = _integer(text, "starting line number")
        elif key == "i":
            parsed.increment = _integer(text, "line number increment")
        elif key == "l":
            parsed.blank_join = _integer(text, "line number of blank lines", 1)
        elif key == "d":
            data = text.encode("utf-8")
            parsed.delimiter = data + b":" if len(data) == 1 else data
        else:
            parsed.renumber = False
    return parsed


class Numberer:
    """The numbering state, carried across lines, blocks and files."""

    def __init__(self, options: NlOptions) -> None:
        self.options = options
        self.number = options.start
        self.section = "b"
        self.blanks = 0
        self.width = options.width

    def line(self, line: bytes) -> bytes:
        """One output line (with its newline) for an input line (without it)."""
        options = self.options
        delimiter = options.delimiter
        if delimiter and line in (delimiter * 3, delimiter * 2, delimiter):
            self.section = "h" if line == delimiter * 3 else "b" if line == delimiter * 2 else "f"
            if options.renumber:
                self.number = options.start
            return b"\n"
        if self._numbered(line):
            text = self._format(self.number)
            self.number += options.increment
            return text + options.separator + line + b"\n"
        return b" " * (self.width + len(options.separator)) + line + b"\n"

    def _numbered(self, line: bytes) -> bool:
        style = self.options.styles[self.section]
        if style == "n":
            return False
        if style == "t":
            return bool(line)
        if line:  # -b a: every line; -l N: only every Nth of a run of blank lines
            self.blanks = 0
            return True
        self.blanks += 1
        if self.blanks >= self.options.blank_join:
            self.blanks = 0
            return True
        return False

    def _format(self, number: int) -> bytes:
        kind = self.options.format
        if kind == "ln":
            return f"{number:<{self.width}d}".encode()
        if kind == "rz":
            return f"{number:0{self.width}d}".encode()
        return f"{number:>{self.width}d}".encode()

    def block(self, data: bytes) -> bytes:
        """Whole lines in, numbered lines out (a last line without newline gets one)."""
        lines = data.split(b"\n")
        if lines[-1] == b"":
            lines.pop()
        return b"".join(self.line(line) for line in lines)


async def cmd_nl(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options = parse_options(args)
    numberer = Numberer(options)
    out: list[bytes] = []
    errors: list[str] = []
    for path in options.paths or ("-",):
        try:
            out.append(numberer.block(await read_operand(ctx, "nl", path, stdin)))
        except OperandError as error:
            errors.append(str(error))
    return result_of(b"".join(out), errors)


async def stream_nl(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """nl as stdin arrives: each block of whole lines numbered and written at once."""
    options = parse_options(args)
    numberer = Numberer(options)
    status = 0
    for path in options.paths or ("-",):
        if path == "-":
            if not io.stdin_is_pipe:
                raise CommandFailed(no_input_error("nl"))
            async for block in source_blocks(Source("-", None), io, "nl", text=False):
                await io.stdout.write(numberer.block(block))
            continue
        try:
            await io.stdout.write(numberer.block(await read_operand(ctx, "nl", path, b"")))
        except OperandError as error:
            await io.error(str(error))
            status = 1
    return status


NL = with_stream(CommandSpec(
    name="nl",
    summary="Number the lines of files or stdin, as GNU nl.",
    usage=USAGE,
    details=("Numbers non-empty lines (-b a: all lines, -b n: none) with the number right-aligned in 6 "
             "columns and a TAB after it. -n ln / rn / rz: left, right, or zero-padded; -w N: field width; "
             "-s SEP: text after the number; -v N: first number; -i N: step. Numbering goes on across "
             "files. Regular-expression styles (-b pBRE) are not supported.\n"
             "Examples:\n  nl /notes.txt\n  nl -b a -n rz -w 3 /notes.txt\n  grep ERROR /logs/app.log | nl -s ': '"),
    group="text", handler=cmd_nl,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-",), kind="read",
), stream_nl)

COMMANDS = [NL]
