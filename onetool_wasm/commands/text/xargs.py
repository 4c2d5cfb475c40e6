"""xargs: build command lines from the items of stdin (or -a FILE) and run them, as GNU
findutils xargs does in the C locale.

Items are read as GNU reads them: by default blanks and newlines separate them, single
and double quotes and backslashes protect blanks (a quote may not span a line); -0 / -d
make every byte but the delimiter literal. -n caps the items per command, -L the input
lines (a line ending in a blank goes on), -I puts each whole line where REPLACE appears in
the initial arguments, and a command line never passes GNU's 128 KiB (or -s) limit.

Commands run through `ctx.run_argv` (the shell sets it), behind the same policy and limits
as the shell's own commands, one at a time (-P N is accepted and runs them in turn). The
exit status is GNU's: 123 when a command failed, 124 when one exited with 255 (xargs stops),
127 when the command does not exist, 1 for xargs's own errors.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import AsyncIterator, Awaitable, Callable, Sequence

from ...result import TEXT, CommandResult, ok_bytes
from ...vfs.errors import VFSError
from ..helpers import FS_ERRORS, fail, read_file_bytes
from ..options import usage_failure
from ..spec import CommandContext, CommandFailed, CommandIO, CommandSpec
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt

USAGE = "xargs [OPTION]... COMMAND [INITIAL-ARGS]..."
DEFAULT_MAX_CHARS = 131072  # GNU's command buffer
READ_SIZE = 64 * 1024
EXIT_FAILED, EXIT_255, EXIT_NOT_FOUND, EXIT_CANNOT_RUN = 123, 124, 127, 126
CANCELLED_STATUS = 130
_SHORT = "0a:E:e::i::I:l::L:n:prs:txP:d:"
_LONG = {
    "null": ("0", NONE), "arg-file": ("a", REQUIRED), "delimiter": ("d", REQUIRED), "eof": ("e", OPTIONAL),
    "replace": ("i", OPTIONAL), "max-lines": ("l", OPTIONAL), "max-args": ("n", REQUIRED),
    "max-procs": ("P", REQUIRED), "interactive": ("p", NONE), "no-run-if-empty": ("r", NONE),
    "max-chars": ("s", REQUIRED), "verbose": ("t", NONE), "exit": ("x", NONE), "help": ("help", NONE),
    "version": ("version", NONE), "open-tty": ("o", NONE), "show-limits": ("show-limits", NONE),
    "process-slot-var": ("process-slot-var", REQUIRED),
}
_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}
_BLANKS = b" \t"
_SPACES = b" \t\n\v\f\r"


# ---------------------------------------------------------------- options

@dataclass
class XargsOptions:
    command: list[str] = field(default_factory=lambda: ["echo"])
    delimiter: int | None = None  # a byte: -0 or -d; None: blanks, quotes and backslashes
    arg_file: str | None = None
    eof: bytes | None = None
    replace: bytes | None = None
    max_args: int = 0
    max_lines: int = 0
    max_chars: int = DEFAULT_MAX_CHARS
    no_run_if_empty: bool = False
    trace: bool = False
    help: bool = False
    warnings: list[str] = field(default_factory=list)


def parse_options(args: Sequence[str]) -> XargsOptions:
    """GNU's reading: options up to the first operand (the command), with its checks and
    its warnings for -n / -L / -I given together (the last one wins)."""
    parsed, command = gnu_getopt("xargs", USAGE, args, _SHORT, _LONG, permute=False)
    options = XargsOptions()
    for key, value in parsed:
        _apply(options, key, value)
    if command:
        options.command = list(command)
    return options


def _apply(options: XargsOptions, key: str, value: str | None) -> None:
    if key == "0":
        options.delimiter = 0
    elif key == "d":
        options.delimiter = parse_delimiter(value or "")
    elif key == "a":
        options.arg_file = value
    elif key == "E":
        options.eof = (value or "").encode("utf-8") or None
    elif key == "e":
        options.eof = value.encode("utf-8") if value else None
    elif key in "iI":
        _warn_exclusive(options, "--replace/-I/-i", args=True)
        options.replace = ((value if value is not None else "{}") if key == "i" else value or "").encode("utf-8")
        options.max_args, options.max_lines = 0, 1
    elif key in "lL":
        _warn_exclusive(options, "-L" if key == "L" else "--max-lines", args=True)
        options.max_lines = 1 if value is None else positive("l" if key == "l" else "L", value)
        options.max_args, options.replace = 0, None
    elif key == "n":
        if options.max_lines and options.replace is None:
            options.warnings.append("xargs: warning: options --max-lines and --max-args/-n are mutually "
                                    "exclusive, ignoring previous --max-lines value")
        options.max_args = positive("n", value or "")
        if options.replace is None:
            options.max_lines = 0
    else:
        _apply_other(options, key, value)


def _apply_other(options: XargsOptions, key: str, value: str | None) -> None:
    if key == "s":
        options.max_chars = positive("s", value or "")
    elif key == "P":
        number(value or "", "P")  # any count is accepted; commands still run one at a time
    elif key == "r":
        options.no_run_if_empty = True
    elif key == "t":
        options.trace = True
    elif key == "help":
        options.help = True
    elif key in ("p", "o"):
        raise fail("xargs: -p and -o need a terminal, which this shell does not have; "
                   "run the commands without them")
    elif key in ("version", "show-limits", "process-slot-var"):
        raise usage_failure("xargs", f"--{key} is not supported", USAGE)
    # -x: commands never exceed the size limit here, so there is nothing to stop on


def _warn_exclusive(options: XargsOptions, name: str, args: bool) -> None:
    if options.max_args and args:
        options.warnings.append(f"xargs: warning: options --max-args and {name} are mutually exclusive, "
                                "ignoring previous --max-args value")


def number(text: str, letter: str) -> int:
    """A decimal count as GNU's xargs reads one (leading blanks and a sign allowed)."""
    body = text.strip(" \t\n\v\f\r")
    digits = body[1:] if body[:1] in "+-" else body
    if not (digits.isdigit() and digits.isascii()):
        raise usage_failure("xargs", f'invalid number "{text}" for -{letter} option', USAGE)
    return min(int(body[:40]), 1 << 62)


def positive(letter: str, text: str) -> int:
    value = number(text, letter)
    if value < 1:
        raise usage_failure("xargs", f"value {value} for -{letter} option should be >= 1", USAGE)
    return value


def parse_delimiter(text: str) -> int:
    """-d's one byte: a character, or an escape (\\n, \\t, \\\\, \\xHH, \\0OOO)."""
    data = text.encode("utf-8")
    if len(data) == 1:
        return data[0]
    if len(data) >= 2 and data[:1] == b"\\":
        rest = text[1:]
        if len(rest) == 1 and rest in _ESCAPES:
            return _ESCAPES[rest]
        base, digits = (16, rest[1:]) if rest[:1] == "x" else (8, rest) if rest[:1] == "0" else (0, "")
        valid = "0123456789abcdefABCDEF" if base == 16 else "01234567"
        if base and digits and all(ch in valid for ch in digits) and int(digits, base) < 256:
            return int(digits, base)
    raise fail(f"xargs: Invalid input delimiter specification {text}: the delimiter must be either a "
               "single character or an escape sequence starting with \\.")


# ---------------------------------------------------------------- reading items

ARG, LINE, STOP, UNMATCHED = "arg", "line", "stop", "unmatched"
Event = tuple[str, bytes]


class QuotedScanner:
    """GNU's reading of blank-separated items, one byte at a time so input may arrive in
    pieces: `feed` and `end` return events: (ARG, item), (LINE, b"") when an input line
    is complete (for -L; with -I the item is the whole line), (STOP, b"") at the -E
    string, (UNMATCHED, b"double"/b"single")."""

    def __init__(self, eof: bytes | None, whole_lines: bool) -> None:
        self.eof, self.whole_lines = eof, whole_lines
        self.state = "space"
        self.quote = 0
        self.previous = -1
        self.word = bytearray()
        self.done = False

    def feed(self, data: bytes) -> list[Event]:
        events: list[Event] = []
        for byte in data:
            if self.done:
                break
            self._byte(byte, events)
            self.previous = byte
        return events

    def _byte(self, byte: int, events: list[Event]) -> None:
        if self.state == "space":
            if byte in _SPACES:
                return
            self.state = "norm"
        if self.state == "quote":
            if byte == 10:
                self.done = True
                events.append((UNMATCHED, b"double" if self.quote == 34 else b"single"))
            elif byte == self.quote:
                self.state = "norm"
            else:
                self.word.append(byte)
            return
        if self.state == "backslash":
            self.state = "norm"
            self.word.append(byte)
            return
        if byte == 10:
            self._line_end(events)
        elif not self.whole_lines and byte in _BLANKS:
            self._push(events)
            self.state = "space"
        elif byte == 92:
            self.state = "backslash"
        elif byte in (34, 39):
            self.state, self.quote = "quote", byte
        else:
            self.word.append(byte)

    def _line_end(self, events: list[Event]) -> None:
        """A newline outside quotes: the item ends (even an empty `""`), and so does the
        line unless the byte before was a blank (then the line goes on, for -L)."""
        self.state = "space"
        if self._push(events):
            return
        if self.previous not in (32, 9):
            events.append((LINE, b""))

    def _push(self, events: list[Event]) -> bool:
        """The current item is complete; True when it was the -E string (reading ends)."""
        word = bytes(self.word)
        self.word.clear()
        if self.eof is not None and word == self.eof:
            self.done = True
            events.append((STOP, b""))
            return True
        events.append((ARG, word))
        return False

    def end(self) -> list[Event]:
        """End of input: a last item without its newline; an open quote is an error, but
        only when it holds something (GNU ignores a lone quote at the very end)."""
        events: list[Event] = []
        if self.done or not self.word:
            return events
        self.done = True
        if self.state == "quote":
            events.append((UNMATCHED, b"double" if self.quote == 34 else b"single"))
        elif not self._push(events):
            events.append((LINE, b""))
        return events


class DelimitedScanner:
    """-0 and -d: every byte but the delimiter is literal; each delimiter ends an item and
    a line, an empty item is still an item, the last item needs no delimiter."""

    def __init__(self, delimiter: int) -> None:
        self.delimiter = bytes([delimiter])
        self.rest = bytearray()

    def feed(self, data: bytes) -> list[Event]:
        self.rest += data
        pieces = bytes(self.rest).split(self.delimiter)
        self.rest = bytearray(pieces.pop())
        events: list[Event] = []
        for piece in pieces:
            events.append((ARG, piece))
            events.append((LINE, b""))
        return events

    def end(self) -> list[Event]:
        if not self.rest:
            return []
        return [(ARG, bytes(self.rest)), (LINE, b"")]


# ---------------------------------------------------------------- running

Out = Callable[[bytes], Awaitable[None]]


class Stopped(Exception):
    """xargs ends now with this status (a command was not found, exited 255...)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@dataclass
class Runner:
    ctx: CommandContext
    options: XargsOptions
    out: Out
    error: Out
    status: int = 0
    runs: int = 0
    items: list[bytes] = field(default_factory=list)
    size: int = 0
    lines: int = 0

    def __post_init__(self) -> None:
        self.base = sum(len(word.encode("utf-8")) + 1 for word in self.options.command)

    async def add(self, item: bytes) -> None:
        """One more item for the command line; runs it first when the item would not fit,
        and after it when -n is reached."""
        cost = len(item) + 1
        if self.base + cost > self.options.max_chars:
            raise Stopped(await self._fail("xargs: argument line too long"))
        if self.items and self.base + self.size + cost > self.options.max_chars:
            await self.run(self.items)
        self.items.append(item)
        self.size += cost
        if self.options.max_args and len(self.items) >= self.options.max_args:
            await self.run(self.items)

    async def line(self) -> None:
        self.lines += 1
        if self.options.max_lines and self.lines >= self.options.max_lines:
            await self.run(self.items)

    async def replace_line(self, line: bytes) -> None:
        """-I: one command for this line, REPLACE put in every initial argument."""
        pattern = self.options.replace or b""
        head, *rest = self.options.command
        words = [head] + [word.encode("utf-8").replace(pattern, line).decode("utf-8", "surrogateescape")
                          if pattern else word for word in rest]
        await self.execute(words)

    async def finish(self) -> None:
        if self.items or (self.runs == 0 and not self.options.no_run_if_empty and self.options.replace is None):
            await self.run(self.items)

    async def run(self, items: list[bytes]) -> None:
        words = self.options.command + [item.decode("utf-8", "surrogateescape") for item in items]
        self.items, self.size, self.lines = [], 0, 0
        await self.execute(words)

    async def execute(self, words: list[str]) -> None:
        if self.ctx.cancelled():
            raise Stopped(await self._fail("xargs: interrupted", CANCELLED_STATUS))
        self.runs += 1
        if self.options.trace:
            await self.error(" ".join(words).encode("utf-8", "surrogateescape") + b"\n")
        assert self.ctx.run_argv is not None
        argv = [word.encode("utf-8", "surrogateescape").decode("utf-8", "replace") for word in words]
        result = await self.ctx.run_argv(argv, b"")
        await self.out(result.stdout)
        await self._judge(argv[0], result)

    async def _judge(self, name: str, result: CommandResult) -> None:
        not_found = result.exit_code == EXIT_NOT_FOUND and "command not found" in result.stderr
        if result.stderr and not not_found:
            await self.error(result.stderr.encode("utf-8") + b"\n")
        if not_found:
            raise Stopped(await self._fail(f"xargs: {name}: No such file or directory", EXIT_NOT_FOUND))
        if result.exit_code == 255:
            raise Stopped(await self._fail(f"xargs: {name}: exited with status 255; aborting", EXIT_255))
        if result.exit_code:
            self.status = EXIT_FAILED

    async def _fail(self, message: str, status: int = 1) -> int:
        await self.error(message.encode("utf-8") + b"\n")
        return status


async def run_xargs(ctx: CommandContext, options: XargsOptions, chunks: AsyncIterator[bytes],
                    out: Out, error: Out) -> int:
    """Read the items as they come and run the commands; the exit status."""
    for warning in options.warnings:
        await error(warning.encode("utf-8") + b"\n")
    runner = Runner(ctx, options, out, error)
    scanner: QuotedScanner | DelimitedScanner
    if options.delimiter is not None:
        scanner = DelimitedScanner(options.delimiter)
    else:
        scanner = QuotedScanner(options.eof, whole_lines=options.replace is not None)
    try:
        async for chunk in chunks:
            if not await _handle(runner, scanner.feed(chunk)):
                return runner.status if runner.status else 0
        if not await _handle(runner, scanner.end()):
            return runner.status
        await runner.finish()
    except Stopped as stop:
        return stop.status
    return runner.status


async def _handle(runner: Runner, events: list[Event]) -> bool:
    """Act on the scanner's events; False once reading is over (an -E string, an error)."""
    for kind, value in events:
        if kind == ARG:
            if runner.options.replace is not None:
                await runner.replace_line(value)
            else:
                await runner.add(value)
        elif kind == LINE:
            if runner.options.replace is None:
                await runner.line()
        elif kind == STOP:
            await runner.finish()
            return False
        else:
            if runner.items:
                await runner.run(runner.items)
            which = value.decode()
            raise Stopped(await runner._fail(f"xargs: unmatched {which} quote; by default quotes are special to "
                                             "xargs unless you use the -0 option"))
    return True


# ---------------------------------------------------------------- the command

def _outside_shell() -> CommandResult:
    return fail("xargs: runs commands only inside the shell: use it in a pipeline, "
                "e.g. printf 'a\\nb\\n' | xargs -n1 echo").result


async def _file_chunks(ctx: CommandContext, path: str) -> AsyncIterator[bytes]:
    try:
        data = await read_file_bytes(ctx, "xargs", path)
    except FS_ERRORS as error:
        code = getattr(error, "code", "") if isinstance(error, VFSError) else ""
        reason = "Is a directory" if code == "EISDIR" else "No such file or directory"
        raise fail(f"xargs: Cannot open input file '{path}': {reason}") from None
    yield data


async def _bytes_chunks(data: bytes) -> AsyncIterator[bytes]:
    for start in range(0, len(data), READ_SIZE):
        yield data[start:start + READ_SIZE]


async def cmd_xargs(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options = parse_options(args)
    if options.help:
        return ok_bytes((XARGS.help_text() + "\n").encode("utf-8"), TEXT)
    if ctx.run_argv is None:
        return _outside_shell()
    out, err_out = bytearray(), bytearray()

    async def write_out(data: bytes) -> None:
        out.extend(data)

    async def write_err(data: bytes) -> None:
        err_out.extend(data)

    chunks = _file_chunks(ctx, options.arg_file) if options.arg_file is not None else _bytes_chunks(stdin)
    status = await run_xargs(ctx, options, chunks, write_out, write_err)
    return CommandResult(bytes(out), err_out.decode("utf-8", "replace").rstrip("\n"), status, TEXT)


async def stream_xargs(ctx: CommandContext, args: list[str], io: CommandIO) -> int:
    """xargs as stdin arrives: `yes | xargs -n 1 | head` stops once head has enough."""
    try:
        options = parse_options(args)
        if options.help:
            await io.stdout.write((XARGS.help_text() + "\n").encode("utf-8"))
            return 0
        if ctx.run_argv is None:
            result = _outside_shell()
            await io.error(result.stderr)
            return result.exit_code
        if options.arg_file is not None:
            chunks = _file_chunks(ctx, options.arg_file)
        else:
            chunks = _stdin_chunks(io)
        return await run_xargs(ctx, options, chunks, io.stdout.write, io.stderr.write)
    except CommandFailed as error:  # from the options, or -a's file
        await io.error(error.result.stderr)
        return error.result.exit_code


async def _stdin_chunks(io: CommandIO) -> AsyncIterator[bytes]:
    if not io.stdin_is_pipe:
        return
    while chunk := await io.stdin.read():
        yield chunk


def xargs_kind(args: Sequence[str]) -> str:
    """The kind of the command xargs runs: read for echo and the read-only commands of
    the built-in registry, write when it cannot tell (a shell, an unknown name)."""
    try:
        options = parse_options(args)
    except Exception:  # a bad command line runs nothing
        return "read"
    name, rest = options.command[0], options.command[1:]
    if name in ("echo", "printf", "test", "[", "true", "false", "pwd"):
        return "read"
    from ..selection import create_command_registry
    spec = _registry_spec(create_command_registry, name)
    if spec is None or spec.name == "xargs":
        return "write"
    try:
        return spec.kind_for(rest)
    except Exception:
        return "write"


_SPECS: dict[str, CommandSpec | None] = {}


def _registry_spec(factory: Callable[[], object], name: str) -> CommandSpec | None:
    if name not in _SPECS:
        _SPECS[name] = factory().get(name)  # type: ignore[attr-defined]
    return _SPECS[name]


XARGS = CommandSpec(
    name="xargs",
    summary="Run a command with arguments read from stdin, as GNU xargs.",
    usage=USAGE,
    details=("Reads items from stdin (or -a FILE), separated by blanks and newlines (quotes and "
             "backslashes protect blanks), and runs COMMAND (default echo) with INITIAL-ARGS and as many "
             "items as fit. -n N: at most N items a command; -L N: at most N input lines; -I REPLACE "
             "(-i: {}): one command per line, REPLACE in the arguments replaced by the line; -0 / -d DELIM: "
             "items end at NUL / DELIM only; -r: run nothing when there are no items; -t: print each "
             "command on stderr first; -E STR: stop at the item STR; -s N: command lines of at most N "
             "bytes. Commands run one at a time (-P N is accepted, without parallelism), with an empty "
             "stdin. Exit status: 123 if a command failed, 124 if one exited 255, 127 if it was not "
             "found, 1 on a bad option or input.\n"
             "Examples:\n  printf 'a.txt\\nb.txt\\n' | xargs wc -l\n  find /data -name '*.log' | xargs grep -l ERROR\n"
             "  seq 1 10 | xargs -n 3 echo\n  ls /in | xargs -I {} cp /in/{} /out/{}.bak\n"
             "  printf 'a b\\0c\\0' | xargs -0 -n1 echo"),
    group="text", handler=cmd_xargs,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("echo",), kind=xargs_kind,
    stream=stream_xargs,
)

COMMANDS = [XARGS]
