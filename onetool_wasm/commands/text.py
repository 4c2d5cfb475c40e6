"""The text group: echo, wc, head, tail, uniq, tee (sort, cut and tr have modules of their own).

Semantics follow GNU coreutils in the C locale (bytes in, bytes out), with the usage
strings and messages the upstream runtime records.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..result import OCTET, TEXT, CommandResult, ok_bytes
from ..textutil import looks_binary
from ..vfs.errors import VFSError
from .helpers import content_type_for, fail, format_vfs_error, usage_error
from .lines import ASCII_UPPER, STDIN, binary_input_error, join_lines, parse_count, read_inputs, split_lines
from .options import OptionSpec, getopt
from .spec import CommandContext, CommandFailed, CommandSpec

# ---------------------------------------------------------------- echo

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
    return _SIMPLE_ESCAPES.get(code, "\\" + code).encode("utf-8")


def _interpret_escapes(text: str) -> tuple[bytes, bool]:
    """Expand `echo -e` escapes; the bool says whether `\\c` asked to stop output."""
    out = bytearray()
    pos = 0
    for match in _ECHO_ESCAPE.finditer(text):
        out += text[pos:match.start()].encode("utf-8")
        if match.group(1) == "c":
            return bytes(out), True
        out += _escape_bytes(match.group(1))
        pos = match.end()
    out += text[pos:].encode("utf-8")
    return bytes(out), False


def cmd_echo(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args.pop(0)[1:]:
            newline = newline and flag != "n"
            escapes = {"e": True, "E": False}.get(flag, escapes)
    data = " ".join(args).encode("utf-8")
    if escapes:
        data, stop = _interpret_escapes(" ".join(args))
        newline = newline and not stop
    return ok_bytes(data + (b"\n" if newline else b""), TEXT)


# ---------------------------------------------------------------- wc

WC_USAGE = "wc [-l] [-w] [-c] [path]"
_WC_OPTIONS = OptionSpec("wc", WC_USAGE, flags="lwcm",
                         long={"lines": "l", "words": "w", "bytes": "c", "chars": "m"})
_UTF8_CONTINUATION = bytes(range(0x80, 0xC0))
_CONTROLS = bytes(range(0x20)) + b"\x7f"


def _wc_count(kind: str, data: bytes) -> int:
    if kind == "l":
        return data.count(b"\n")
    if kind == "w":
        return _word_count(data)
    if kind == "m":  # characters: UTF-8 lead bytes (GNU in a UTF-8 locale)
        return len(data.translate(None, _UTF8_CONTINUATION))
    return len(data)


def _word_count(data: bytes) -> int:
    """Runs between ASCII whitespace; as in GNU wc, control bytes alone make no word."""
    words = data.split()
    if len(data.translate(None, _CONTROLS)) == len(data):
        return len(words)
    return sum(1 for word in words if word.translate(None, _CONTROLS))


async def cmd_wc(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = getopt(_WC_OPTIONS, args)
    chosen = {name for name, _ in options}
    kinds = [k for k in "lwmc" if k in chosen] or ["l", "w", "c"]
    # wc counts bytes of anything, binary included (`wc -c image.png` is a size query).
    inputs = await read_inputs(ctx, "wc", paths, stdin, text=False)
    rows = [([_wc_count(k, data) for k in kinds], label) for label, data in inputs]
    if len(rows) > 1:
        rows.append(([sum(row[0][i] for row in rows) for i in range(len(kinds))], "total"))
    width = _wc_width(inputs, len(kinds))
    lines = []
    for counts, label in rows:
        line = " ".join(str(c).rjust(width) for c in counts)
        lines.append(f"{line} {label}" if paths else line)
    return ok_bytes(("\n".join(lines) + "\n").encode("utf-8"), TEXT)


def _wc_width(inputs: list[tuple[str, bytes]], kinds: int) -> int:
    """GNU: one count of one input is unpadded; otherwise the digits of the files' total
    size, at least 7 when stdin (a pipe) is among the inputs."""
    if len(inputs) == 1 and kinds == 1:
        return 1
    minimum = 7 if any(label == STDIN for label, _ in inputs) else 1
    total = sum(len(data) for label, data in inputs if label != STDIN)
    return max(len(str(total)), minimum)


# ---------------------------------------------------------------- head, tail

HEAD_USAGE = "head [-n N|-c N|-N] [path]"
TAIL_USAGE = "tail [-n N|-c N|-N] [path]"
_SUFFIXES = {"": 1, "b": 512, "kB": 1000, "K": 1024, "KiB": 1024, "MB": 1000 ** 2, "M": 1024 ** 2,
             "MiB": 1024 ** 2, "GB": 1000 ** 3, "G": 1024 ** 3, "GiB": 1024 ** 3}
_COUNT = re.compile(r"([+-]?)([0-9]+)([a-zA-Z]*)")


@dataclass
class Slice:
    unit: str = "n"        # "n" lines or "c" bytes
    sign: str = ""         # "+" (from the start) or "-" (all but / last), "" default
    count: int = 10
    headers: bool | None = None  # None: only when several inputs


def _parse_slice(command: str, args: list[str]) -> tuple[Slice, list[str]]:
    usage = HEAD_USAGE if command == "head" else TAIL_USAGE
    spec = OptionSpec(command, usage, flags="qv", values="nc",
                      long={"lines": "n", "bytes": "c", "quiet": "q", "silent": "q", "verbose": "v"})
    options, paths = getopt(spec, _obsolete_counts(command, args))
    spec_slice = Slice()
    for name, value in options:
        if name in "qv":
            spec_slice.headers = name == "v"
            continue
        match = _COUNT.fullmatch(value or "")
        if not match or match.group(3) not in _SUFFIXES:
            raise fail(f"{command}: invalid integer for -{name}: {value}. Usage: {usage}")
        spec_slice.unit, spec_slice.sign = name, match.group(1)
        spec_slice.count = int(match.group(2)) * _SUFFIXES[match.group(3)]
    return spec_slice, paths


def _obsolete_counts(command: str, args: list[str]) -> list[str]:
    """`-5` means `-n 5`; for tail, a leading `+5` means `-n +5` (GNU's obsolete forms)."""
    out: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        is_value = index > 0 and args[index - 1] in ("-n", "-c", "--lines", "--bytes")
        if re.fullmatch(r"-[0-9]+", arg) and not is_value:
            out += ["-n", arg[1:]]
        elif command == "tail" and index == 0 and re.fullmatch(r"\+[0-9]+", arg):
            out += ["-n", arg]
        else:
            out.append(arg)
    return out


def first_lines(data: bytes, count: int) -> bytes:
    pos = 0
    for _ in range(count):
        newline = data.find(b"\n", pos)
        if newline < 0:
            return data
        pos = newline + 1
    return data[:pos]


def last_lines(data: bytes, count: int) -> bytes:
    if count <= 0:
        return b""
    pos = len(data) - 1 if data.endswith(b"\n") else len(data)
    for _ in range(count):
        newline = data.rfind(b"\n", 0, pos)
        if newline < 0:
            return data
        pos = newline
    return data[pos + 1:]


def head_slice(data: bytes, spec: Slice) -> bytes:
    if spec.unit == "c":
        return data[:max(len(data) - spec.count, 0)] if spec.sign == "-" else data[:spec.count]
    if spec.sign == "-":
        return data[:len(data) - len(last_lines(data, spec.count))]
    return first_lines(data, spec.count)


def tail_slice(data: bytes, spec: Slice) -> bytes:
    if spec.unit == "c":
        if spec.sign == "+":
            return data[max(spec.count - 1, 0):]
        return data[max(len(data) - spec.count, 0):] if spec.count else b""
    if spec.sign == "+":
        return data[len(first_lines(data, max(spec.count - 1, 0))):]
    return last_lines(data, spec.count)


async def _slice_command(command: str, ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    spec, paths = _parse_slice(command, args)
    cut = head_slice if command == "head" else tail_slice
    # Lines of binary data are refused, but only the selected part is sniffed: `head -n 1`
    # of a big input costs one line, not a scan of all of it.
    inputs = await read_inputs(ctx, command, paths, stdin, text=False)
    headers = spec.headers if spec.headers is not None else len(inputs) > 1
    out = bytearray()
    for index, (label, data) in enumerate(inputs):
        piece = cut(data, spec)
        if spec.unit == "n" and looks_binary(piece):
            raise binary_input_error(command, label, len(data))
        if headers:
            name = "standard input" if label == STDIN else label
            out += f"{chr(10) if index else ''}==> {name} <==\n".encode("utf-8")
        out += piece
    output = bytes(out)
    return ok_bytes(output, OCTET if spec.unit == "c" and looks_binary(output) else TEXT)


async def cmd_head(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _slice_command("head", ctx, args, stdin)


async def cmd_tail(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _slice_command("tail", ctx, args, stdin)


# ---------------------------------------------------------------- uniq

UNIQ_USAGE = "uniq [-c] [-d] [-i] [-u] [path]"
_UNIQ_OPTIONS = OptionSpec("uniq", UNIQ_USAGE, flags="cdDiu", values="fsw",
                           long={"count": "c", "repeated": "d", "all-repeated": "D", "ignore-case": "i",
                                 "unique": "u", "skip-fields": "f", "skip-chars": "s", "check-chars": "w"})
_FIELD = re.compile(rb"[ \t]*[^ \t]*")


@dataclass
class UniqOptions:
    count: bool = False
    repeated: bool = False
    all_repeated: bool = False
    unique: bool = False
    fold: bool = False
    skip_fields: int = 0
    skip_chars: int = 0
    check_chars: int | None = None

    def key(self, line: bytes) -> bytes:
        """The part of a line GNU uniq compares (-f, -s, -w, -i)."""
        pos = 0
        for _ in range(self.skip_fields):
            pos = _FIELD.match(line, pos).end()
        key = line[pos + self.skip_chars:]
        if self.check_chars is not None:
            key = key[:self.check_chars]
        return key.translate(ASCII_UPPER) if self.fold else key


def _uniq_options(args: list[str]) -> tuple[UniqOptions, list[str]]:
    parsed, operands = getopt(_UNIQ_OPTIONS, args)
    options = UniqOptions()
    flags = {"c": "count", "d": "repeated", "D": "all_repeated", "u": "unique", "i": "fold"}
    numbers = {"f": "skip_fields", "s": "skip_chars", "w": "check_chars"}
    for name, value in parsed:
        if name in flags:
            setattr(options, flags[name], True)
        else:
            setattr(options, numbers[name], parse_count("uniq", f"-{name}", value or ""))
    if len(operands) > 1:
        raise CommandFailed(usage_error("uniq", UNIQ_USAGE))
    if options.count and options.all_repeated:
        raise fail("uniq: printing all duplicated lines and repeat counts is meaningless. "
                   f"Usage: {UNIQ_USAGE}")
    return options, operands


def _uniq_groups(lines: list[bytes], options: UniqOptions) -> list[list[bytes]]:
    groups: list[list[bytes]] = []
    previous = None
    for line in lines:
        key = options.key(line)
        if groups and key == previous:
            groups[-1].append(line)
        else:
            groups.append([line])
            previous = key
    return groups


async def cmd_uniq(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = _uniq_options(args)
    [(_, data)] = await read_inputs(ctx, "uniq", paths, stdin)
    out: list[bytes] = []
    for group in _uniq_groups(split_lines(data), options):
        repeated = len(group) > 1
        if (options.repeated or options.all_repeated) and not repeated or options.unique and repeated:
            continue
        if options.all_repeated:
            out.extend(group)
        elif options.count:
            out.append(b"%7d %s" % (len(group), group[0]))
        else:
            out.append(group[0])
    return ok_bytes(join_lines(out), TEXT)


# ---------------------------------------------------------------- tee

TEE_USAGE = "tee [-a] [path ...]"
_TEE_OPTIONS = OptionSpec("tee", TEE_USAGE, flags="aip", long={"append": "a", "ignore-interrupts": "i"})


async def cmd_tee(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options, paths = getopt(_TEE_OPTIONS, args)
    append = any(name == "a" for name, _ in options)
    for path in paths:
        try:
            if append:
                await ctx.vfs.append_bytes(path, stdin)
            else:
                await ctx.vfs.write_bytes(path, stdin)
        except VFSError as error:
            raise CommandFailed(await format_vfs_error(ctx, "tee", path, error)) from None
    return ok_bytes(stdin, content_type_for(stdin))


# ---------------------------------------------------------------- specs

ECHO = CommandSpec(
    name="echo",
    summary="Write arguments back as plain text output. Supports -n, -e, and -E.",
    usage="echo [-n] [-e|-E] [text ...]",
    details=('Examples:\n  echo hello world\n  echo -n "ready for review"\n'
             '  echo -e "line 1\\nline 2"\n  echo status:ok | write /notes/status.txt'),
    group="text", handler=cmd_echo,
    accepts_stdin=False, min_args=0, max_args=None, conformance_args=(), kind="read",
)

WC = CommandSpec(
    name="wc",
    summary="Count lines, words, and bytes from stdin or a file.",
    usage=WC_USAGE,
    details="Examples:\n  wc /logs/app.log\n  wc -l /logs/app.log\n  fetch text:runbook | wc -w",
    group="text", handler=cmd_wc,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
)

HEAD = CommandSpec(
    name="head",
    summary="Show the first N lines or bytes from stdin or a file.",
    usage=HEAD_USAGE,
    details=('Examples:\n  head -n 20 /logs/app.log\n  head -c 16 /notes/todo.txt\n'
             '  search "refund API" | head -n 5'),
    group="text", handler=cmd_head,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
)

TAIL = CommandSpec(
    name="tail",
    summary="Show the last N lines or bytes from stdin or a file.",
    usage=TAIL_USAGE,
    details=("Examples:\n  tail -n 20 /logs/app.log\n  tail -c 16 /notes/todo.txt\n"
             "  cat /logs/app.log | tail -n 50"),
    group="text", handler=cmd_tail,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
)

UNIQ = CommandSpec(
    name="uniq",
    summary="Collapse adjacent duplicate lines from stdin or a file.",
    usage=UNIQ_USAGE,
    details=("Examples:\n  sort /logs/errors.txt | uniq -c\n  sort /logs/errors.txt | uniq -d\n"
             "  cat /notes/todo.txt | uniq\n  uniq -i /tmp/names.txt"),
    group="text", handler=cmd_uniq,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(), kind="read",
)

TEE = CommandSpec(
    name="tee",
    summary="Copy stdin to files and pass it through to stdout.",
    usage=TEE_USAGE,
    details=("Writes piped input to each path (replacing it, or appending with -a) and prints the input "
             "unchanged, so a pipeline can save an intermediate result and keep going.\n"
             "Examples:\n  grep ERROR /logs/app.log | tee /reports/errors.txt | wc -l\n"
             "  echo done | tee -a /notes/log.txt\n  sort /tmp/names.txt | tee /tmp/a.txt /tmp/b.txt"),
    group="text", handler=cmd_tee,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("/tmp/tee.txt",), kind="write",
)

COMMANDS = [ECHO, WC, HEAD, TAIL, UNIQ, TEE]
