"""split: cut a file (or stdin) into pieces named PREFIXaa, PREFIXab..., as GNU coreutils split.

-l N lines a piece (default 1000; `-N` is the obsolete form), -b SIZE bytes, -C SIZE whole
lines of at most SIZE bytes, -n CHUNKS (N, K/N, l/N, l/K/N, r/N, r/K/N: K/N prints chunk K to
stdout). Suffixes are letters (-a LEN long, default 2, widening past `yz` as GNU's do) or
digits (-d, --numeric-suffixes=FROM), or hex (-x); --additional-suffix=S goes after them,
-t SEP ends records instead of newline, -e drops empty chunk files, --verbose names each file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...result import TEXT, CommandResult
from ...vfs.errors import VFSError
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS, GNU_ERRORS, no_input_error, read_file_bytes
from ..spec import CommandContext, CommandFailed, CommandSpec

USAGE = ("split [-l N | -b SIZE | -C SIZE | -n CHUNKS] [-d | -x] [-a LEN] [--additional-suffix=S] "
         "[-t SEP] [-e] [--verbose] [FILE [PREFIX]]")
TRY = "Try 'split --help' for more information."
_SHORT = "C:a:b:del:n:t:ux"
_LONG = {
    "bytes": ("b", REQUIRED), "lines": ("l", REQUIRED), "line-bytes": ("C", REQUIRED),
    "number": ("n", REQUIRED), "elide-empty-files": ("e", NONE), "unbuffered": ("u", NONE),
    "suffix-length": ("a", REQUIRED), "additional-suffix": ("additional-suffix", REQUIRED),
    "numeric-suffixes": ("numeric", OPTIONAL), "hex-suffixes": ("hex", OPTIONAL),
    "filter": ("filter", REQUIRED), "verbose": ("verbose", NONE), "separator": ("t", REQUIRED),
    "-io-blksize": ("io-blksize", REQUIRED), "help": ("help", NONE), "version": ("version", NONE),
}
_VALUE_WORDS = {"-l", "-b", "-C", "-n", "-a", "-t", "--lines", "--bytes", "--line-bytes", "--number",
                "--suffix-length", "--additional-suffix", "--filter", "--separator"}
UINTMAX = (1 << 64) - 1
OFF_T_MAX = (1 << 63) - 1
MAX_PIECES = 100_000  # a sandbox limit: more files than this is refused
_POWERS = {"b": None, "k": 1, "K": 1, "m": 2, "M": 2, "G": 3, "g": 3, "T": 4, "t": 4, "P": 5,
           "E": 6, "Z": 7, "Y": 8}


def _failure(*lines: str) -> CommandFailed:
    return CommandFailed(CommandResult(b"", "\n".join(lines), 1, TEXT))


def _usage_failure(message: str) -> CommandFailed:
    return _failure(f"split: {message}", TRY)


def _gnu_words(failure: CommandFailed) -> CommandFailed:
    """gnu_getopt's `<msg>. Usage: ...` in GNU's words: the message, then the Try line."""
    text = failure.result.stderr.split(". Usage: ", 1)[0]
    return _failure(text, TRY)


def parse_size(text: str, low: int, high: int, message: str, suffixes: bool) -> int:
    """xdectoumax: digits with an optional multiplier (when `suffixes`), within low..high."""
    match = re.fullmatch(r"\s*\+?([0-9]+)(.*)", text, re.DOTALL) if text else None
    if match is None:
        raise _failure(f"split: {message}: '{text}'")
    value = int(match.group(1))
    rest = match.group(2)
    if rest:
        if not suffixes or rest[0] not in _POWERS:
            raise _failure(f"split: {message}: '{text}'")
        letter, tail = rest[0], rest[1:]
        base = 1024
        if tail == "B":
            base = 1000
        elif tail == "iB":
            base = 1024
        elif tail:
            raise _failure(f"split: {message}: '{text}'")
        value *= 512 if letter == "b" else base ** _POWERS[letter]
        if letter == "b" and tail:
            raise _failure(f"split: {message}: '{text}'")
    if value > UINTMAX:
        raise _failure(f"split: {message}: '{text}': Value too large for defined data type")
    if value < low or value > high:
        reason = "Value too large for defined data type" if value > (1 << 30) else "Numerical result out of range"
        raise _failure(f"split: {message}: '{text}': {reason}")
    return value


@dataclass
class SplitOptions:
    kind: str = ""            # lines bytes linebytes chunks chunklines rr
    units: int = 0
    chunk: int = 0            # K of -n K/N
    suffix_length: int = 0
    alphabet: str = "abcdefghijklmnopqrstuvwxyz"
    numeric_start: str | None = None
    additional: str = ""
    separator: int | None = None
    elide: bool = False
    verbose: bool = False
    infile: str = "-"
    prefix: str = "x"
    auto: bool = False        # suffixes widen past the last two-letter name (no -a, no FROM)


def _obsolete_digits(args: list[str]) -> tuple[list[str], str | None]:
    """`split -3 FILE`: a word of digits after a dash is -l's obsolete form."""
    out: list[str] = []
    digits = None
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:], digits
        previous = args[index - 1] if index else ""
        if re.fullmatch(r"-[0-9]+", arg) and previous not in _VALUE_WORDS:
            digits = arg[1:]
            out.append("--__digits")
            continue
        out.append(arg)
    return out, digits


def parse_args(args: list[str]) -> SplitOptions:
    words, digits = _obsolete_digits(args)
    long = dict(_LONG, __digits=("digits", NONE))
    try:
        raw, operands = gnu_getopt("split", USAGE, words, _SHORT, long)
    except CommandFailed as failure:
        raise _gnu_words(failure) from None
    options = SplitOptions()
    for key, value in raw:
        text = value or ""
        if key in ("b", "l", "C", "n", "digits"):
            if options.kind and not (key == "digits" and options.kind == "digits"):
                raise _usage_failure("cannot split in more than one way")
        if key == "a":
            options.suffix_length = parse_size(text, 0, UINTMAX // 8, "invalid suffix length", False)
        elif key == "additional-suffix":
            if "/" in text:
                raise _usage_failure(f"invalid suffix '{text}', contains directory separator")
            options.additional = text
        elif key == "b":
            options.kind, options.units = "bytes", parse_size(text, 1, OFF_T_MAX, "invalid number of bytes", True)
        elif key == "l":
            options.kind, options.units = "lines", parse_size(text, 1, UINTMAX, "invalid number of lines", False)
        elif key == "C":
            options.kind, options.units = "linebytes", parse_size(text, 1, OFF_T_MAX, "invalid number of bytes", True)
        elif key == "digits":
            options.kind, options.units = "digits", int(digits or "0")
        elif key == "n":
            _parse_chunks(options, text)
        elif key == "e":
            options.elide = True
        elif key in ("d", "numeric", "x", "hex"):
            options.alphabet = "0123456789" if key in ("d", "numeric") else "0123456789abcdef"
            if value is not None:
                if not value or value.strip(options.alphabet):
                    raise _usage_failure(f"'{value}': invalid start value for {'numerical' if key == 'numeric' else 'hexadecimal'} suffix")
                start = value.lstrip("0") or "0"
                options.numeric_start = start
        elif key == "t":
            _parse_separator(options, text)
        elif key == "verbose":
            options.verbose = True
        elif key == "filter":
            raise _failure("split: --filter is not supported here (no subprocesses); split into files, then run the command on each")
        elif key in ("help", "version"):
            raise _failure(f"split: --{key} is not available here; see: help split")
    if options.kind in ("", "digits"):
        if options.kind == "digits" and options.units == 0:
            raise _usage_failure("invalid number of lines: '0'")
        options.kind, options.units = "lines", options.units or 1000
    if options.separator is None:
        options.separator = 10
    _set_suffix_length(options)
    if operands:
        options.infile = operands[0]
    if len(operands) > 1:
        options.prefix = operands[1]
    if len(operands) > 2:
        raise _usage_failure(f"extra operand '{operands[2]}'")
    if options.numeric_start and len(options.numeric_start) > options.suffix_length:
        raise _usage_failure("numerical suffix start value is too large for the suffix length")
    return options


def _parse_chunks(options: SplitOptions, text: str) -> None:
    text = text.lstrip(" \t\n\v\f\r")
    if text.startswith("r/"):
        options.kind, text = "rr", text[2:]
    elif text.startswith("l/"):
        options.kind, text = "chunklines", text[2:]
    else:
        options.kind = "chunks"
    if "/" in text:
        k_text, n_text = text.split("/", 1)
        options.units = parse_size(n_text, 1, UINTMAX, "invalid number of chunks", False)
        options.chunk = parse_size(k_text, 1, options.units, "invalid chunk number", False)
    else:
        options.units = parse_size(text, 1, UINTMAX, "invalid number of chunks", False)


def _parse_separator(options: SplitOptions, text: str) -> None:
    data = text.encode("utf-8", "surrogateescape")
    if not data:
        raise _failure("split: empty record separator")
    if len(data) > 1:
        if text != "\\0":
            raise _failure(f"split: multi-character separator '{text}'")
        data = b"\0"
    if options.separator is not None and options.separator != data[0]:
        raise _failure("split: multiple separator characters specified")
    options.separator = data[0]


def _set_suffix_length(options: SplitOptions) -> None:
    options_auto = options.numeric_start is None
    needed = 0
    if options.kind in ("chunks", "chunklines", "rr"):
        end = options.units - 1
        if options.numeric_start is not None and int(options.numeric_start) < options.units:
            end += int(options.numeric_start)
        needed = 1
        while end >= len(options.alphabet):
            end //= len(options.alphabet)
            needed += 1
        options_auto = False
    if options.suffix_length:
        if options.suffix_length < needed:
            raise _failure(f"split: the suffix length needs to be at least {needed}")
        options_auto = False
    else:
        options.suffix_length = max(2, needed)
    options.auto = options_auto


class Namer:
    """next_file_name: PREFIX + suffix + additional suffix, widening when auto."""

    def __init__(self, options: SplitOptions) -> None:
        self.base = options.prefix
        self.alphabet = options.alphabet
        self.length = options.suffix_length
        self.additional = options.additional
        self.auto = options.auto
        self.index: list[int] | None = None
        self.start = options.numeric_start

    def next(self) -> str:
        if self.index is None:
            self.index = [0] * self.length
            if self.start is not None:
                digits = [self.alphabet.index(c) for c in self.start]
                self.index[self.length - len(digits):] = digits
            return self._name()
        position = self.length
        while position > 0:
            position -= 1
            self.index[position] += 1
            if self.auto and position == 0 and self.index[0] + 1 == len(self.alphabet):
                self.base += self.alphabet[self.index[0]]
                self.length += 1
                self.index = [0] * self.length
                return self._name()
            if self.index[position] < len(self.alphabet):
                return self._name()
            self.index[position] = 0
        raise _failure("split: output file suffixes exhausted")

    def _name(self) -> str:
        return self.base + "".join(self.alphabet[i] for i in self.index or []) + self.additional


class Writer:
    """The files made so far (in order) and what goes in each; stdout for --verbose/K/N."""

    def __init__(self, options: SplitOptions) -> None:
        self.options = options
        self.namer = Namer(options)
        self.files: list[tuple[str, bytearray]] = []
        self.stdout = bytearray()
        self.error: CommandFailed | None = None

    def write(self, new_file: bool, data: bytes | None) -> None:
        if new_file:
            if data is None and self.options.elide:
                return
            if len(self.files) >= MAX_PIECES:
                raise _failure(f"split: more than {MAX_PIECES} output files; use a larger size or fewer chunks")
            try:
                name = self.namer.next()
            except CommandFailed as failure:
                self.error = failure
                raise
            if self.options.verbose:
                self.stdout += f"creating file '{name}'\n".encode("utf-8", "surrogateescape")
            self.files.append((name, bytearray()))
        if data:
            self.files[-1][1].extend(data)


def split_lines(writer: Writer, data: bytes, count: int, sep: int) -> None:
    eol = bytes([sep])
    position, lines = 0, 0
    new = True
    while position < len(data):
        end = data.find(eol, position)
        end = len(data) if end < 0 else end + 1
        writer.write(new, data[position:end])
        new = False
        lines += 1
        if lines == count:
            lines, new = 0, True
        position = end


def split_bytes(writer: Writer, data: bytes, size: int, max_files: int = 0) -> None:
    position, opened = 0, 0
    while position < len(data):
        if max_files and opened >= max_files:
            writer.write(False, data[position:])
            return
        writer.write(True, data[position:position + size])
        opened += 1
        position += size
    if max_files:
        while opened < max_files:
            writer.write(True, None)
            opened += 1


def split_line_bytes(writer: Writer, data: bytes, size: int, sep: int) -> None:
    position = 0
    while position < len(data):
        if position + size >= len(data):
            writer.write(True, data[position:])
            return
        last = data.rfind(bytes([sep]), position, position + size)
        end = last + 1 if last >= 0 else position + size
        writer.write(True, data[position:end])
        position = end


def split_chunk_lines(writer: Writer, data: bytes, k: int, n: int, sep: int) -> None:
    """lines_chunk_split, on the whole input as one buffer."""
    file_size = max(len(data), n)
    chunk_size = file_size // n
    chunk_no, chunk_end, written = 1, chunk_size - 1, 0
    new_file = True
    truncated = False
    if k > 1:
        written = (k - 1) * chunk_size - 1
        chunk_no = k - 1
        chunk_end = chunk_no * chunk_size - 1
    eol = bytes([sep])
    if written < file_size and written < len(data):
        buf = data[written:file_size]
        bp, eob, n_read = 0, len(buf), len(buf)
        while bp != eob:
            skip = min(n_read, max(0, chunk_end - written))
            found = buf.find(eol, bp + skip, eob)
            following = found >= 0
            out = found + 1 if following else eob
            if k == chunk_no:
                writer.stdout += buf[bp:out]
            elif not k:
                writer.write(new_file, buf[bp:out])
            written += out - bp
            n_read -= out - bp
            bp = out
            new_file = following
            while following or chunk_end <= written - 1:
                if not following and bp == eob:
                    truncated = True
                    break
                chunk_no += 1
                if k and chunk_no > k:
                    return
                chunk_end = file_size - 1 if chunk_no == n else chunk_end + chunk_size
                if chunk_end <= written - 1:
                    if not k:
                        writer.write(True, None)
                else:
                    following = False
    if truncated:
        chunk_no += 1
    while not k and chunk_no <= n:
        chunk_no += 1
        writer.write(True, None)


def split_round_robin(writer: Writer, data: bytes, k: int, n: int, sep: int) -> None:
    eol = bytes([sep])
    records = []
    position = 0
    while position < len(data):
        end = data.find(eol, position)
        end = len(data) if end < 0 else end + 1
        records.append(data[position:end])
        position = end
    if k:
        writer.stdout += b"".join(records[k - 1::n])
        return
    if n > MAX_PIECES:
        raise _failure(f"split: more than {MAX_PIECES} output files; use fewer chunks")
    names = [writer.namer.next() for _ in range(n)]
    used = min(n, len(records))
    for index, name in enumerate(names):
        if index >= used and writer.options.elide:
            continue
        writer.files.append((name, bytearray(b"".join(records[index::n]))))


async def _read_input(ctx: CommandContext, path: str, stdin: bytes) -> bytes:
    if path == "-":
        if stdin or ctx.stdin_is_pipe:
            return stdin
        raise CommandFailed(no_input_error("split"))
    try:
        return await read_file_bytes(ctx, "split", path)
    except FS_ERRORS as error:
        code = getattr(error, "code", "") if isinstance(error, VFSError) else ""
        if code == "EISDIR":
            raise _failure(f"split: {path}: Is a directory") from None
        reason = GNU_ERRORS.get(code or "", str(error))
        raise _failure(f"split: cannot open '{path}' for reading: {reason}") from None


async def cmd_split(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    options = parse_args(args)
    data = await _read_input(ctx, options.infile, stdin)
    writer = Writer(options)
    sep = options.separator if options.separator is not None else 10
    try:
        if options.kind == "lines":
            split_lines(writer, data, options.units, sep)
        elif options.kind == "bytes":
            split_bytes(writer, data, options.units)
        elif options.kind == "linebytes":
            split_line_bytes(writer, data, options.units, sep)
        elif options.kind == "chunks":
            file_size = max(len(data), options.units)
            if options.units > MAX_PIECES and not options.chunk:
                raise _failure(f"split: more than {MAX_PIECES} output files; use fewer chunks")
            if options.chunk:
                k, n = options.chunk, options.units
                start = (k - 1) * (file_size // n)
                end = file_size if k == n else k * (file_size // n)
                writer.stdout += data[start:end]
            else:
                split_bytes(writer, data, file_size // options.units, options.units)
        elif options.kind == "chunklines":
            if options.units > MAX_PIECES and not options.chunk:
                raise _failure(f"split: more than {MAX_PIECES} output files; use fewer chunks")
            split_chunk_lines(writer, data, options.chunk, options.units, sep)
        else:
            split_round_robin(writer, data, options.chunk, options.units, sep)
    except CommandFailed as failure:
        if writer.error is None:
            raise
    status, errors = 0, []
    for name, content in writer.files:
        try:
            await ctx.vfs.write_bytes(name, bytes(content), False)
        except VFSError as error:
            reason = GNU_ERRORS.get(getattr(error, "code", "") or "", str(error))
            errors.append(f"split: {name}: {reason}")
            status = 1
            break
    if writer.error is not None:
        errors.append(writer.error.result.stderr)
        status = 1
    return CommandResult(bytes(writer.stdout), "\n".join(errors), status, TEXT)


SPLIT = CommandSpec(
    name="split",
    summary="Split a file into pieces, as GNU split.",
    usage=USAGE,
    details=("Writes PREFIXaa, PREFIXab... (PREFIX defaults to x) of 1000 lines each, from FILE or stdin "
             "(`-`). -l N: N lines a piece; -b SIZE: SIZE bytes (K M G suffixes, KB = 1000); -C SIZE: "
             "whole lines, at most SIZE bytes; -n N: N pieces of equal size (l/N: without splitting lines, "
             "r/N: round robin, K/N: print piece K). -d / -x: numeric / hex suffixes; -a LEN: suffix "
             "length; --additional-suffix=.txt; -t SEP: records end in SEP; -e: no empty pieces; "
             "--verbose: name each file made. --filter is not supported.\n"
             "Examples:\n  split -l 100 /data/big.csv /data/part_\n  split -n 4 -d log.txt chunk\n"
             "  seq 1 10 | split -l 3 - /tmp/s"),
    group="text", handler=cmd_split,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=("-l", "1", "-", "/tmp/split_"),
    kind="write",
)

COMMANDS = [SPLIT]
