"""gzip, gunzip, zcat: GNU gzip over the virtual file system (zlib's deflate, GNU's header,
suffixes, messages and exit statuses: 1 for errors, 2 for warnings).

`gzip FILE` replaces FILE by FILE.gz (the name and modified time go into the header unless
-n), `gunzip FILE.gz` does the reverse, `-c` writes to stdout and keeps the input, `-l`
lists, `-t` tests. Decompressed data never grows past the runtime's materialization limit:
a decompression bomb stops with an error instead of filling memory.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

from ...result import CommandResult, TEXT
from ...textutil import format_size
from ..getopt import NONE, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS, content_type_for, fail, no_input_error
from ..spec import CommandContext, CommandSpec

GZIP_USAGE = "gzip [-cdfklnNqrtv19] [-S SUF] [FILE ...]"
GUNZIP_USAGE = "gunzip [-cfklnNqrtv] [-S SUF] [FILE ...]"
ZCAT_USAGE = "zcat [-fqv] [FILE ...]"

# When the runtime sets no materialization limit, decompressed data still stops here.
DEFAULT_LIMIT = 256 * 1024 * 1024
_CHUNK = 1 << 20
_MAGIC = b"\x1f\x8b"
_SUFFIXES = (".gz", ".z", "-gz", "-z", "_z", ".Z")
_TAR_SUFFIXES = {".tgz": ".tar", ".taz": ".tar"}

_LONG = {
    "stdout": ("c", NONE), "to-stdout": ("c", NONE), "decompress": ("d", NONE), "uncompress": ("d", NONE),
    "force": ("f", NONE), "help": ("h", NONE), "keep": ("k", NONE), "list": ("l", NONE),
    "license": ("L", NONE), "no-name": ("n", NONE), "name": ("N", NONE), "quiet": ("q", NONE),
    "recursive": ("r", NONE), "suffix": ("S", REQUIRED), "test": ("t", NONE), "verbose": ("v", NONE),
    "version": ("V", NONE), "fast": ("1", NONE), "best": ("9", NONE), "rsyncable": ("R", NONE),
    "synchronous": ("Y", NONE),
}


class GzipError(Exception):
    """Data that is not (valid) gzip: the message follows `gzip: NAME: `. `partial` holds
    what was decompressed before the problem (GNU writes it out with -c)."""

    def __init__(self, message: str, partial: bytes = b"") -> None:
        super().__init__(message)
        self.partial = partial


@dataclass
class Member:
    name: str | None
    mtime: int
    header_bytes: int   # header length + 8 (CRC and size), as gzip -l counts them


@dataclass
class Decoded:
    data: bytes
    members: list[Member] = field(default_factory=list)
    trailing_garbage: bool = False


def limit_of(ctx: CommandContext) -> int:
    return ctx.max_materialized_bytes if ctx.max_materialized_bytes is not None else DEFAULT_LIMIT


def compress(data: bytes, level: int = 6, name: str | None = None, mtime: int = 0) -> bytes:
    """One gzip member as GNU gzip writes it (FNAME when a name is given, OS = Unix)."""
    flags = 0x08 if name else 0
    xfl = 2 if level == 9 else 4 if level == 1 else 0
    header = _MAGIC + bytes([8, flags]) + struct.pack("<I", max(0, mtime) & 0xFFFFFFFF) + bytes([xfl, 3])
    if name:
        header += name.encode("utf-8", "surrogateescape").replace(b"\0", b"") + b"\0"
    engine = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
    body = engine.compress(data) + engine.flush()
    return header + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


def is_gzip(data: bytes) -> bool:
    return data[:2] == _MAGIC


def decompress(data: bytes, limit: int, subject: str = "stdin") -> Decoded:
    """Every member's data joined; GzipError words a failure as GNU does. Output beyond
    `limit` bytes raises GzipError too, before it is held in memory."""
    if not data:
        raise GzipError("unexpected end of file")
    if not is_gzip(data):
        raise GzipError("not in gzip format")
    out = bytearray()
    decoded = Decoded(b"")
    position = 0
    while True:
        try:
            member, position = _member(data, position, out, limit, subject)
        except GzipError as problem:
            problem.partial = bytes(out)
            raise
        decoded.members.append(member)
        rest = data[position:]
        if not rest or not rest.strip(b"\0"):
            break
        if not is_gzip(rest):
            decoded.trailing_garbage = True
            break
    decoded.data = bytes(out)
    return decoded


def _member(data: bytes, start: int, out: bytearray, limit: int, subject: str) -> tuple[Member, int]:
    if len(data) - start < 10:
        raise GzipError("unexpected end of file")
    method, flags = data[start + 2], data[start + 3]
    if method != 8:
        raise GzipError(f"unknown method {method} -- not supported")
    if flags & 0xE0:
        raise GzipError(f"has flags 0x{flags:x} -- not supported")
    mtime = struct.unpack("<I", data[start + 4:start + 8])[0]
    position = start + 10
    if flags & 0x04:
        if len(data) < position + 2:
            raise GzipError("unexpected end of file")
        position += 2 + struct.unpack("<H", data[position:position + 2])[0]
    name = None
    for flag in (0x08, 0x10):
        if flags & flag:
            end = data.find(b"\0", position)
            if end < 0:
                raise GzipError("unexpected end of file")
            if flag == 0x08:
                name = data[position:end].decode("utf-8", "surrogateescape")
            position = end + 1
    if flags & 0x02:
        position += 2
    if position > len(data):
        raise GzipError("unexpected end of file")
    header_bytes = position - start + 8
    engine = zlib.decompressobj(-15)
    first = len(out)
    pending = memoryview(data)[position:]
    try:
        while True:
            piece = engine.decompress(pending, _CHUNK)
            out += piece
            if len(out) > limit:
                raise GzipError(f"decompressed data exceeds max materialized size "
                                f"(over {format_size(limit)}): {subject}. Use a smaller archive")
            pending = engine.unconsumed_tail
            if engine.eof or (not pending and not piece):
                break
    except zlib.error:
        raise GzipError("invalid compressed data--format violated") from None
    if not engine.eof:
        raise GzipError("unexpected end of file")
    trailer = engine.unused_data[:8]
    if len(trailer) < 8:
        raise GzipError("unexpected end of file")
    crc, size = struct.unpack("<II", trailer)
    body = bytes(out[first:])
    if crc != zlib.crc32(body):
        raise GzipError("invalid compressed data--crc error")
    if size != len(body) & 0xFFFFFFFF:
        raise GzipError("invalid compressed data--length error")
    end = len(data) - len(engine.unused_data) + 8
    return Member(name, mtime, header_bytes), end


# -- the command --------------------------------------------------------------------------

@dataclass
class Options:
    stdout: bool = False
    decompress: bool = False
    force: bool = False
    keep: bool = False
    list: bool = False
    no_name: bool | None = None
    quiet: bool = False
    recursive: bool = False
    suffix: str = ".gz"
    test: bool = False
    verbose: bool = False
    level: int = 6


class Run:
    """One gzip invocation: output bytes, message lines, and GNU's exit status."""

    def __init__(self, ctx: CommandContext, options: Options) -> None:
        self.ctx, self.options = ctx, options
        self.out = bytearray()
        self.errors: list[str] = []
        self.status = 0
        self.listed: list[tuple[int, int, int]] = []   # (compressed, uncompressed, header bytes)
        self.last_header = 0   # gzip -l's totals ratio uses the last file's header size

    def error(self, message: str) -> None:
        self.errors.append(f"gzip: {message}")
        self.status = 1

    def warn(self, message: str) -> None:
        if not self.options.quiet:
            self.errors.append(f"gzip: {message}")
        if self.status == 0:
            self.status = 2

    def note(self, message: str) -> None:
        if self.options.verbose:
            self.errors.append(message)

    def result(self) -> CommandResult:
        data = bytes(self.out)
        kind = TEXT if self.options.list else content_type_for(data)
        return CommandResult(data, "\n".join(self.errors), self.status, kind)


def _parse(name: str, usage: str, args: list[str]) -> tuple[Options, list[str]]:
    parsed, operands = gnu_getopt(name, usage, args, "cdfhklLnNqrS:tvV123456789", _LONG)
    options = Options()
    for key, value in parsed:
        if key == "c":
            options.stdout = True
        elif key == "d":
            options.decompress = True
        elif key == "f":
            options.force = True
        elif key == "k":
            options.keep = True
        elif key == "l":
            options.list = True
        elif key in "nN":
            options.no_name = key == "n"
        elif key == "q":
            options.quiet, options.verbose = True, False
        elif key == "r":
            options.recursive = True
        elif key == "S":
            if not value or "/" in value:
                raise fail(f"{name}: invalid suffix '{value}'")
            options.suffix = value
        elif key == "t":
            options.test = True
        elif key == "v":
            options.verbose, options.quiet = True, False
        elif key.isdigit():
            options.level = int(key)
        elif key in "hLV":
            raise fail(f"{name}: {usage}. See: help {name}")
    if options.list or options.test:
        options.decompress = True
    return options, operands


def _known_suffix(name: str, options: Options) -> str | None:
    for suffix in (options.suffix, *_SUFFIXES, *_TAR_SUFFIXES):
        if len(name) > len(suffix) and name.endswith(suffix) and not name.endswith("/" + suffix):
            return suffix
    return None


async def _run(name: str, usage: str, ctx: CommandContext, args: list[str], stdin: bytes,
               preset: Options | None = None) -> CommandResult:
    options, operands = _parse(name, usage, args)
    if preset is not None:
        options.decompress, options.stdout = True, True
    run = Run(ctx, options)
    if not operands:
        operands = ["-"]
    for operand in operands:
        if ctx.cancelled():
            break
        if operand == "-":
            if not stdin and not ctx.stdin_is_pipe:
                return no_input_error(name)
            _treat_stdin(run, stdin)
        else:
            await _treat_path(run, operand, top=True)
    if options.list and len(run.listed) > 1:
        _list_totals(run)
    return run.result()


def _treat_stdin(run: Run, data: bytes) -> None:
    options = run.options
    if options.list:
        _list_one(run, "stdout", data)
    elif options.decompress:
        decoded = _decode(run, "stdin", data)
        if decoded is not None and not options.test:
            run.out += decoded
    else:
        run.out += compress(data, options.level)


async def _treat_path(run: Run, path: str, top: bool) -> None:
    ctx, options = run.ctx, run.options
    try:
        info = await ctx.vfs.stat(path)
    except FS_ERRORS:
        run.error(f"{path}: No such file or directory")
        return
    if not info.exists and options.decompress and _known_suffix(path, options) is None:
        for suffix in (options.suffix, *_SUFFIXES):
            try:
                candidate = await ctx.vfs.stat(path + suffix)
            except FS_ERRORS:
                continue
            if candidate.exists:
                path, info = path + suffix, candidate
                break
        else:
            path = path + options.suffix
    if not info.exists:
        run.error(f"{path}: No such file or directory")
        return
    if info.is_dir:
        if options.recursive:
            await _treat_directory(run, path)
        else:
            run.warn(f"{path} is a directory -- ignored")
        return
    suffix = _known_suffix(path, options)
    to_stdout = options.stdout and not options.list and not options.test
    if not options.decompress:
        if suffix is not None and not options.force:
            if options.verbose or (not options.recursive and not options.quiet):
                run.errors.append(f"gzip: {path} already has {suffix} suffix -- unchanged")
            return
    elif suffix is None and not to_stdout and not options.list and not options.test:
        if options.verbose or (not options.recursive and not options.quiet):
            run.warn(f"{path}: unknown suffix -- ignored")
        return
    if info.size > limit_of(ctx):
        run.error(f"{path}: input exceeds max materialized size "
                  f"({format_size(info.size)} > {format_size(limit_of(ctx))})")
        return
    try:
        data = await ctx.vfs.read_bytes(path)
    except FS_ERRORS as failure:
        run.error(f"{path}: {getattr(failure, 'code', '') or failure}")
        return
    if options.list:
        shown = path[:-len(suffix)] + _TAR_SUFFIXES.get(suffix, "") if suffix else path
        _list_one(run, shown, data)
        return
    if options.decompress:
        await _decompress_file(run, path, suffix, data, to_stdout)
    else:
        await _compress_file(run, path, info.modified_epoch_ms, data, to_stdout)


async def _treat_directory(run: Run, path: str) -> None:
    try:
        names = sorted(await run.ctx.vfs.listdir(path))
    except FS_ERRORS:
        run.error(f"{path}: No such file or directory")
        return
    for child in names:
        await _treat_path(run, f"{path.rstrip('/')}/{child.rstrip('/')}", top=False)


async def _compress_file(run: Run, path: str, modified_ms: int, data: bytes, to_stdout: bool) -> None:
    options = run.options
    store = not options.no_name if options.no_name is not None else True
    base = path.rstrip("/").rsplit("/", 1)[-1]
    packed = compress(data, options.level, base if store else None, modified_ms // 1000 if store else 0)
    if to_stdout:
        run.out += packed
        return
    target = path + options.suffix
    if not await _may_write(run, target):
        return
    if await _write(run, target, packed) and not options.keep:
        await _remove(run, path)
    run.note(f"{path}:\t{_ratio(len(data), len(packed))} -- replaced with {target}")


async def _decompress_file(run: Run, path: str, suffix: str | None, data: bytes, to_stdout: bool) -> None:
    options = run.options
    if options.force and to_stdout and not is_gzip(data):
        run.out += data
        return
    try:
        decoded = decompress(data, limit_of(run.ctx), path)
    except GzipError as problem:
        if to_stdout and "exceeds" not in str(problem):
            run.out += problem.partial
        run.error(f"{path}: {problem}")
        return
    if decoded.trailing_garbage:
        run.warn(f"{path}: decompression OK, trailing garbage ignored")
    if options.test:
        run.note(f"{path}:\t OK")
        return
    if to_stdout:
        run.out += decoded.data
        return
    assert suffix is not None
    target = path[:-len(suffix)] + _TAR_SUFFIXES.get(suffix, "")
    stored = decoded.members[0].name if decoded.members else None
    if options.no_name is False and stored:
        directory = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        target = directory + stored.rsplit("/", 1)[-1]
    if not await _may_write(run, target):
        return
    if await _write(run, target, decoded.data) and not options.keep:
        await _remove(run, path)
    run.note(f"{path}:\t{_ratio(len(decoded.data), len(data))} -- replaced with {target}")


def _decode(run: Run, subject: str, data: bytes) -> bytes | None:
    if run.options.force and run.options.stdout and not is_gzip(data):
        return data
    try:
        decoded = decompress(data, limit_of(run.ctx), subject)
    except GzipError as problem:
        if not run.options.test and "exceeds" not in str(problem):
            run.out += problem.partial
        run.error(f"{subject}: {problem}")
        return None
    if decoded.trailing_garbage:
        run.warn(f"{subject}: decompression OK, trailing garbage ignored")
    return decoded.data


async def _may_write(run: Run, target: str) -> bool:
    try:
        info = await run.ctx.vfs.stat(target)
    except FS_ERRORS:
        return True
    if info.exists and not run.options.force:
        run.warn(f"{target} already exists;\tnot overwritten")
        return False
    if info.exists and info.is_dir:
        run.warn(f"{target} is a directory -- ignored")
        return False
    return True


async def _write(run: Run, target: str, data: bytes) -> bool:
    try:
        await run.ctx.vfs.write_bytes(target, data)
    except FS_ERRORS as failure:
        code = getattr(failure, "code", "")
        if code == "ERESOURCE_LIMIT":
            run.error(f"{target}: {getattr(failure, 'message', failure)}")
        else:
            run.error(f"{target}: {_reason(failure)}")
        return False
    return True


def _reason(failure: BaseException) -> str:
    code = getattr(failure, "code", "")
    return {"ENOENT": "No such file or directory", "EISDIR": "Is a directory",
            "ENOTDIR": "Not a directory"}.get(code, str(failure))


async def _remove(run: Run, path: str) -> None:
    try:
        await run.ctx.vfs.delete(path)
    except FS_ERRORS as failure:
        run.error(f"{path}: {_reason(failure)}")


def _ratio(plain: int, packed: int) -> str:
    if plain == 0:
        return "  0.0%"
    return f"{100.0 * (plain - packed) / plain:5.1f}%"


def _gnu_ratio(num: int, den: int) -> str:
    return f"{(100.0 * num / den) if den else 0.0:5.1f}%"


def _list_one(run: Run, shown: str, data: bytes) -> None:
    if not is_gzip(data) or len(data) < 18:
        run.error(f"{shown if shown == 'stdout' else shown}: not in gzip format")
        run.last_header = 0
        return
    try:
        member, _ = _header_only(data)
    except GzipError as problem:
        run.error(f"{shown}: {problem}")
        return
    compressed = len(data)
    uncompressed = struct.unpack("<I", data[-4:])[0]
    if not run.listed:
        run.out += (" " * 9 + "compressed" + " " * 8 + "uncompressed  ratio uncompressed_name\n").encode()
    run.listed.append((compressed, uncompressed, member.header_bytes))
    run.last_header = member.header_bytes
    ratio = _gnu_ratio(uncompressed - (compressed - member.header_bytes), uncompressed)
    run.out += f"{compressed:19d} {uncompressed:19d} {ratio} {shown}\n".encode("utf-8", "surrogateescape")


def _header_only(data: bytes) -> tuple[Member, int]:
    flags = data[3]
    position = 10
    if flags & 0x04:
        position += 2 + struct.unpack("<H", data[10:12])[0]
    name = None
    for flag in (0x08, 0x10):
        if flags & flag:
            end = data.find(b"\0", position)
            if end < 0:
                raise GzipError("unexpected end of file")
            if flag == 0x08:
                name = data[position:end].decode("utf-8", "surrogateescape")
            position = end + 1
    if flags & 0x02:
        position += 2
    return Member(name, struct.unpack("<I", data[4:8])[0], position + 8), position


def _list_totals(run: Run) -> None:
    total_in = sum(item[0] for item in run.listed)
    total_out = sum(item[1] for item in run.listed)
    header = getattr(run, "last_header", 0)
    ratio = _gnu_ratio(total_out - (total_in - header), total_out)
    run.out += f"{total_in:19d} {total_out:19d} {ratio} (totals)\n".encode()


async def cmd_gzip(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _run("gzip", GZIP_USAGE, ctx, args, stdin)


async def cmd_gunzip(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _run("gunzip", GUNZIP_USAGE, ctx, ["-d", *args], stdin)


async def cmd_zcat(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    return await _run("zcat", ZCAT_USAGE, ctx, args, stdin, preset=Options())


def _gzip_kind(args) -> str:
    words = [arg for arg in args if arg.startswith("-") and not arg.startswith("--")]
    letters = "".join(word[1:] for word in words)
    long = set(args)
    if any(letter in letters for letter in "clt") or {"--stdout", "--to-stdout", "--list", "--test"} & long:
        return "read"
    if not [arg for arg in args if not arg.startswith("-") or arg == "-"]:
        return "read"  # stdin to stdout
    return "write"


def _gunzip_kind(args) -> str:
    return _gzip_kind(args)


GZIP = CommandSpec(
    name="gzip",
    summary="Compress files with gzip (FILE becomes FILE.gz), or stdin to stdout; -d decompresses.",
    usage=GZIP_USAGE,
    details=("GNU gzip: each FILE is replaced by FILE.gz (-k keeps it, -c writes to stdout instead), "
             "the original name and time are stored unless -n. -d decompresses (as gunzip), -l lists "
             "sizes and ratio, -t tests integrity, -r walks directories, -S SUF changes the suffix, "
             "-1 (fast) .. -9 (best) set the level, -f overwrites and forces, -v reports, -q is quiet. "
             "Exit 1 on errors, 2 on warnings. Decompressed data is bounded by the runtime's "
             "materialization limit.\n"
             "Examples:\n  gzip notes.txt\n  gzip -k -9 data.csv\n  gzip -c report.txt > report.txt.gz\n"
             "  gzip -l notes.txt.gz\n  echo hello | gzip | gunzip"),
    group="fs", handler=cmd_gzip, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind=_gzip_kind, requires_adapter=None,
)

GUNZIP = CommandSpec(
    name="gunzip",
    summary="Decompress FILE.gz back to FILE (gzip -d), or stdin to stdout.",
    usage=GUNZIP_USAGE,
    details=("GNU gunzip: each FILE.gz (.z, -gz, .tgz -> .tar...) is replaced by its decompressed "
             "data; -c writes to stdout and keeps the file, -k keeps it, -f overwrites, -l lists, "
             "-t tests, -N restores the stored name, -r walks directories. Concatenated members "
             "decompress as one stream; trailing garbage is a warning (exit 2).\n"
             "Examples:\n  gunzip notes.txt.gz\n  gunzip -c logs.gz | grep error\n  gunzip -t backup.tgz"),
    group="fs", handler=cmd_gunzip, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind=_gunzip_kind, requires_adapter=None,
)

ZCAT = CommandSpec(
    name="zcat",
    summary="Print the decompressed content of gzip files (gzip -dc), or of stdin.",
    usage=ZCAT_USAGE,
    details=("GNU zcat: decompresses each FILE (FILE.gz is tried when FILE is missing) to stdout, "
             "leaving the files alone; -f passes data that is not gzip through unchanged.\n"
             "Examples:\n  zcat notes.txt.gz\n  zcat logs.gz | wc -l\n  gzip -c a.txt | zcat"),
    group="fs", handler=cmd_zcat, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind="read", requires_adapter=None,
)

COMMANDS = [GZIP, GUNZIP, ZCAT]
