"""tar: GNU tar over the virtual file system (Python's tarfile on in-memory bytes).

`-c` creates, `-t` lists, `-x` extracts; `-f FILE` (`-` is stdin/stdout, the default),
`-z` gzip (reading detects it by itself; `-a` picks it from a .tar.gz/.tgz name), `-v`
(twice for long lines on create), `-C DIR`, `--exclude=PATTERN`, `--strip-components=N`,
`-O` (extract to stdout), `-k`, `--mtime=DATE`; old-style bundles (`tar czf x.tgz d`).
Messages and exit statuses are GNU's (2 on errors); extraction strips leading `/` and
every leading part up to a `..` component, as GNU does, so no member escapes -C's folder.
"""
from __future__ import annotations

import datetime as dt
import fnmatch
import io
import re
import tarfile
from dataclasses import dataclass, field

from ...result import TEXT, CommandResult
from ...textutil import format_size
from ..getopt import NONE, OPTIONAL, REQUIRED, gnu_getopt
from ..helpers import FS_ERRORS, content_type_for
from ..spec import CommandContext, CommandFailed, CommandSpec
from .gzip import GzipError, compress, decompress, is_gzip, limit_of

TAR_USAGE = "tar -c|-x|-t [-zvOka] [-f ARCHIVE] [-C DIR] [--exclude=PATTERN] [--strip-components=N] [FILE ...]"
TRY = "Try 'tar --help' or 'tar --usage' for more information."
FAILURE = "tar: Exiting with failure status due to previous errors"
FATAL = "tar: Error is not recoverable: exiting now"

_SHORT = "cxtf:zvC:OaPkmpojJT:X:H:b:"
_LONG = {
    "create": ("c", NONE), "extract": ("x", NONE), "get": ("x", NONE), "list": ("t", NONE),
    "file": ("f", REQUIRED), "gzip": ("z", NONE), "gunzip": ("z", NONE), "ungzip": ("z", NONE),
    "verbose": ("v", NONE), "directory": ("C", REQUIRED), "exclude": ("exclude", REQUIRED),
    "strip-components": ("strip", REQUIRED), "to-stdout": ("O", NONE), "auto-compress": ("a", NONE),
    "absolute-names": ("P", NONE), "keep-old-files": ("k", NONE), "overwrite": ("overwrite", NONE),
    "touch": ("m", NONE), "preserve-permissions": ("p", NONE), "same-permissions": ("p", NONE),
    "no-same-owner": ("o", NONE), "same-owner": ("same-owner", NONE), "numeric-owner": ("numeric", NONE),
    "sort": ("sort", REQUIRED), "mtime": ("mtime", REQUIRED), "files-from": ("T", REQUIRED),
    "exclude-from": ("X", REQUIRED), "wildcards": ("wildcards", NONE), "no-wildcards": ("no-wildcards", NONE),
    "no-recursion": ("no-recursion", NONE), "recursion": ("recursion", NONE), "format": ("H", REQUIRED),
    "bzip2": ("j", NONE), "xz": ("J", NONE), "blocking-factor": ("b", REQUIRED),
    "owner": ("owner", REQUIRED), "group": ("group", REQUIRED), "help": ("help", NONE),
    "usage": ("help", NONE), "version": ("version", OPTIONAL),
}
_TAKES_VALUE = {letter for letter, mode in zip(_SHORT, _SHORT[1:] + " ") if mode == ":" and letter != ":"}


class Fatal(Exception):
    """An error tar does not recover from: its lines, then exit 2."""


@dataclass
class Options:
    mode: str = ""
    archive: str = "-"
    gzip: bool = False
    auto: bool = False
    verbose: int = 0
    directory: str | None = None
    excludes: list[str] = field(default_factory=list)
    strip: int = 0
    to_stdout: bool = False
    absolute: bool = False
    keep: bool = False
    numeric: bool = False
    mtime: str | None = None
    wildcards: bool = False
    recursion: bool = True
    owner: str | None = None
    group: str | None = None
    files_from: list[str] = field(default_factory=list)
    exclude_from: list[str] = field(default_factory=list)


class Run:
    def __init__(self, ctx: CommandContext, options: Options) -> None:
        self.ctx, self.options = ctx, options
        self.out = bytearray()
        self.listing: list[str] = []     # -v lines: stdout, or stderr when data goes there
        self.errors: list[str] = []
        self.failed = False
        self.prefixes: set[str] = set()
        self.width = 19                  # GNU's ugswidth, growing with the widest owner/size
        self.mtime: int | None = None

    def error(self, message: str) -> None:
        self.errors.append(f"tar: {message}")
        self.failed = True

    def warn(self, message: str) -> None:
        self.errors.append(f"tar: {message}")

    def result(self) -> CommandResult:
        listing = "".join(line + "\n" for line in self.listing).encode("utf-8", "surrogateescape")
        data_to_stdout = (self.options.mode == "c" and self.options.archive == "-") or self.options.to_stdout
        errors = list(self.errors)
        out = bytes(self.out)
        if data_to_stdout:
            errors = [line for line in listing.decode("utf-8", "replace").split("\n") if line] + errors
        else:
            out = listing + out
        if self.failed:
            errors.append(FAILURE)
        kind = content_type_for(out) if data_to_stdout else TEXT
        return CommandResult(out, "\n".join(errors), 2 if self.failed else 0, kind)


def expand_old_style(args: list[str]) -> list[str]:
    """`tar czf x.tgz d` -> `tar -c -z -f x.tgz d`: letters of a first word without a dash,
    each letter that takes a value taking the next word."""
    if not args or args[0].startswith("-"):
        return list(args)
    rest = list(args[1:])
    expanded: list[str] = []
    for letter in args[0]:
        expanded.append("-" + letter)
        if letter in _TAKES_VALUE and rest:
            expanded.append(rest.pop(0))
    return expanded + rest


def _usage(message: str) -> Fatal:
    return Fatal([f"tar: {message}", TRY])


def parse(args: list[str]) -> tuple[Options, list[str]]:
    try:
        parsed, operands = gnu_getopt("tar", TAR_USAGE, expand_old_style(args), _SHORT, _LONG)
    except CommandFailed as failure:
        message = failure.result.stderr.split(". Usage:")[0]
        raise Fatal([message, TRY], 64) from None
    options = Options()
    modes: set[str] = set()
    for key, value in parsed:
        if key in ("c", "x", "t"):
            modes.add(key)
            options.mode = key
        elif key == "f":
            options.archive = value or "-"
        elif key == "z":
            options.gzip = True
        elif key == "a":
            options.auto = True
        elif key == "v":
            options.verbose += 1
        elif key == "C":
            options.directory = value
        elif key == "exclude":
            options.excludes.append(value or "")
        elif key == "strip":
            if not (value or "").isdigit():
                raise _usage(f"{value}: Invalid number of elements")
            options.strip = min(int(value), 4096)
        elif key == "O":
            options.to_stdout = True
        elif key == "P":
            options.absolute = True
        elif key == "k":
            options.keep = True
        elif key == "overwrite":
            options.keep = False
        elif key == "numeric":
            options.numeric = True
        elif key == "mtime":
            options.mtime = value or ""
        elif key == "T":
            options.files_from.append(value or "")
        elif key == "X":
            options.exclude_from.append(value or "")
        elif key == "wildcards":
            options.wildcards = True
        elif key == "no-wildcards":
            options.wildcards = False
        elif key == "no-recursion":
            options.recursion = False
        elif key == "recursion":
            options.recursion = True
        elif key == "owner":
            options.owner = value
        elif key == "group":
            options.group = value
        elif key in ("j", "J"):
            raise Fatal([f"tar: {'bzip2' if key == 'j' else 'xz'} compression is not supported here; use -z (gzip)",
                         FATAL])
        elif key in ("help", "version"):
            raise Fatal([f"tar: usage: {TAR_USAGE}. See: help tar"])
        elif key == "sort" and value not in ("name", "none", "inode"):
            raise _usage(f"invalid argument '{value}' for '--sort'")
    if not modes:
        raise _usage("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
    if len(modes) > 1:
        raise _usage("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
    return options, operands


def parse_mtime(value: str, zone) -> int:
    """--mtime's DATE: `@SECONDS`, or `YYYY-MM-DD[ HH:MM[:SS]]` in the shell's zone."""
    text = value.strip()
    if re.fullmatch(r"@-?\d{1,12}", text):
        return int(text[1:])
    match = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?", text)
    if match is None:
        raise _usage(f"Invalid date format '{value}'")
    year, month, day, hour, minute, second = (int(part or 0) for part in match.groups())
    try:
        moment = dt.datetime(year, month, day, hour, minute, second)
        return int((moment.replace(tzinfo=zone) if zone is not None else moment).timestamp())
    except (ValueError, OverflowError, OSError):
        raise _usage(f"Invalid date format '{value}'") from None


# -- names -------------------------------------------------------------------------------

def safer_name(run: Run, name: str) -> str:
    """GNU's safer_name_suffix: drop leading `/` and everything up to a `..` component,
    saying so once per prefix."""
    if run.options.absolute:
        return name
    prefix_len = 0
    position = 0
    while position < len(name):
        if name.startswith("..", position) and (position + 2 == len(name) or name[position + 2] == "/"):
            prefix_len = position + 2
        slash = name.find("/", position)
        if slash < 0:
            break
        position = slash + 1
    while prefix_len < len(name) and name[prefix_len] == "/":
        prefix_len += 1
    if prefix_len:
        prefix = name[:prefix_len]
        if prefix not in run.prefixes:
            run.prefixes.add(prefix)
            run.warn(f"Removing leading `{prefix}' from member names")
    rest = name[prefix_len:]
    if not rest:
        if prefix_len == 0:
            run.warn("Substituting `.' for empty member name")
        return "."
    return rest


def _excluded(run: Run, name: str) -> bool:
    patterns = run.options.excludes
    if not patterns:
        return False
    clean = name.rstrip("/")
    parts = clean.split("/")
    # unanchored (any tail after a `/`) and leading-dir (`sub` excludes `sub/x`), as GNU
    tails = ["/".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1)]
    for pattern in patterns:
        body = pattern.rstrip("/") or pattern
        for tail in tails:
            if fnmatch.fnmatchcase(tail, body):
                return True
    return False


def _join(base: str, name: str) -> str:
    if name.startswith("/"):
        return name
    return f"{base.rstrip('/')}/{name}" if base else name


# -- create ------------------------------------------------------------------------------

async def _create(run: Run, operands: list[str]) -> None:
    ctx, options = run.ctx, run.options
    names = list(operands)
    for source in options.files_from:
        names += await _name_file(run, source)
    if not names:
        raise _usage("Cowardly refusing to create an empty archive")
    base = options.directory or ""
    if base:
        info = await _stat(ctx, base)
        if info is None or not info.exists or not info.is_dir:
            raise Fatal([f"tar: {base}: Cannot open: {'Not a directory' if info and info.exists else 'No such file or directory'}",
                         FATAL])
    archive_path = ctx.vfs.normalize(options.archive) if options.archive != "-" else None
    run.mtime = parse_mtime(options.mtime, ctx.timezone) if options.mtime is not None else None
    if run.mtime is not None and options.verbose and not options.mtime.strip().startswith("@"):
        moment = dt.datetime.fromtimestamp(run.mtime, tz=ctx.timezone or dt.timezone.utc)
        shown = (moment if ctx.timezone else moment.astimezone()).strftime("%Y-%m-%d %H:%M:%S")
        run.warn(f"Option --mtime: Treating date '{options.mtime}' as {shown}")
    buffer = io.BytesIO()
    budget = [limit_of(ctx)]
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name in names:
            if ctx.cancelled():
                break
            await _add(run, archive, base, name, archive_path, budget, top=True)
    data = buffer.getvalue()
    if options.gzip or (options.auto and re.search(r"\.(tar\.gz|tgz|taz|tar\.z)$", options.archive)):
        data = compress(data, 6)
    if options.archive == "-":
        run.out += data
        return
    try:
        await ctx.vfs.write_bytes(options.archive, data)
    except FS_ERRORS as failure:
        raise Fatal([f"tar: {options.archive}: Cannot open: {_reason(failure)}", FATAL]) from None


async def _name_file(run: Run, source: str) -> list[str]:
    try:
        text = (await run.ctx.vfs.read_bytes(source)).decode("utf-8", "surrogateescape")
    except FS_ERRORS as failure:
        raise Fatal([f"tar: {source}: Cannot open: {_reason(failure)}", FATAL]) from None
    return [line for line in text.split("\n") if line]


async def _stat(ctx: CommandContext, path: str):
    try:
        return await ctx.vfs.stat(path)
    except FS_ERRORS:
        return None


async def _add(run: Run, archive: tarfile.TarFile, base: str, name: str, archive_path: str | None,
               budget: list[int], top: bool) -> None:
    ctx, options = run.ctx, run.options
    path = _join(base, name)
    info = await _stat(ctx, path)
    if info is None or not info.exists:
        run.error(f"{name}: Cannot stat: No such file or directory")
        return
    member_name = safer_name(run, name) if name.startswith("/") or ".." in name else name
    if _excluded(run, member_name):
        return
    if archive_path is not None and ctx.vfs.normalize(path) == archive_path:
        run.warn(f"{name}: file is the archive; not dumped")
        return
    entry = tarfile.TarInfo()
    entry.mtime = run.mtime if run.mtime is not None else info.modified_epoch_ms // 1000
    entry.uid = entry.gid = 0
    if options.owner:
        owner = options.owner.lstrip("+")
        if owner.isdigit():
            entry.uid = int(owner)
        else:
            entry.uname = options.owner.split(":")[0]
    if options.group:
        group = options.group.lstrip("+")
        if group.isdigit():
            entry.gid = int(group)
        else:
            entry.gname = options.group.split(":")[0]
    if info.is_dir:
        entry.type = tarfile.DIRTYPE
        entry.mode = 0o755
        entry.name = member_name.rstrip("/") + "/" if member_name.rstrip("/") else member_name
        archive.addfile(entry)
        _verbose(run, entry, entry.name)
        if not options.recursion:
            return
        try:
            children = sorted(child.rstrip("/") for child in await ctx.vfs.listdir(path))
        except FS_ERRORS as failure:
            run.error(f"{name}: Cannot open: {_reason(failure)}")
            return
        prefix = name if name.endswith("/") else name + "/"
        for child in children:
            await _add(run, archive, base, prefix + child, archive_path, budget, top=False)
        return
    budget[0] -= info.size
    if budget[0] < 0:
        raise Fatal([f"tar: archive exceeds max materialized size ({format_size(limit_of(ctx))}): {name}", FATAL])
    try:
        data = await ctx.vfs.read_bytes(path)
    except FS_ERRORS as failure:
        run.error(f"{name}: Cannot open: {_reason(failure)}")
        return
    entry.type = tarfile.REGTYPE
    entry.mode = 0o644
    entry.name = member_name
    entry.size = len(data)
    archive.addfile(entry, io.BytesIO(data))
    _verbose(run, entry, entry.name)


def _verbose(run: Run, entry: tarfile.TarInfo, name: str) -> None:
    if run.options.verbose >= 2:
        run.listing.append(long_line(run, entry, name))
    elif run.options.verbose:
        run.listing.append(name)


def _reason(failure: BaseException) -> str:
    code = getattr(failure, "code", "")
    return {"ENOENT": "No such file or directory", "EISDIR": "Is a directory", "ENOTDIR": "Not a directory",
            "EEXIST": "File exists"}.get(code, getattr(failure, "message", None) or str(failure))


# -- list and extract ----------------------------------------------------------------------

_MODE_CHARS = {tarfile.REGTYPE: "-", tarfile.AREGTYPE: "-", tarfile.DIRTYPE: "d", tarfile.SYMTYPE: "l",
               tarfile.LNKTYPE: "h", tarfile.CHRTYPE: "c", tarfile.BLKTYPE: "b", tarfile.FIFOTYPE: "p",
               tarfile.CONTTYPE: "C"}


def _mode_string(entry: tarfile.TarInfo) -> str:
    mode = entry.mode
    chars = _MODE_CHARS.get(entry.type, "-")
    for shift, (letter, special, special_letter) in enumerate(
            [("r", 0, ""), ("w", 0, ""), ("x", 0o4000, "s"), ("r", 0, ""), ("w", 0, ""), ("x", 0o2000, "s"),
             ("r", 0, ""), ("w", 0, ""), ("x", 0o1000, "t")]):
        bit = 1 << (8 - shift)
        on = bool(mode & bit)
        if special and mode & special:
            chars += special_letter if on else special_letter.upper()
        else:
            chars += letter if on else "-"
    return chars


def long_line(run: Run, entry: tarfile.TarInfo, name: str) -> str:
    numeric = run.options.numeric
    user = entry.uname if entry.uname and not numeric else str(entry.uid)
    group = entry.gname if entry.gname and not numeric else str(entry.gid)
    if entry.type in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        size = f"{entry.devmajor},{entry.devminor}"
    else:
        size = str(entry.size if entry.type not in (tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE) else 0)
    pad = len(user) + 1 + len(group) + 1 + len(size)
    run.width = max(run.width, pad)
    zone = run.ctx.timezone
    try:
        moment = dt.datetime.fromtimestamp(entry.mtime, tz=zone or dt.timezone.utc)
        if zone is None:
            moment = moment.astimezone()
        stamp = moment.strftime("%Y-%m-%d %H:%M")
    except (OverflowError, OSError, ValueError):
        stamp = str(int(entry.mtime))
    line = f"{_mode_string(entry)} {user}/{group} {size:>{run.width - pad + len(size)}} {stamp:<16} {name}"
    if entry.type == tarfile.SYMTYPE:
        line += f" -> {entry.linkname}"
    elif entry.type == tarfile.LNKTYPE:
        line += f" link to {entry.linkname}"
    return line


async def _load(run: Run, stdin: bytes) -> bytes:
    ctx, options = run.ctx, run.options
    if options.archive == "-":
        data = stdin
        subject = "stdin"
    else:
        info = await _stat(ctx, options.archive)
        if info is None or not info.exists:
            raise Fatal([f"tar: {options.archive}: Cannot open: No such file or directory", FATAL])
        if info.is_dir:
            raise Fatal([f"tar: {options.archive}: Cannot read: Is a directory", FATAL])
        if info.size > limit_of(ctx):
            raise Fatal([f"tar: {options.archive}: input exceeds max materialized size "
                         f"({format_size(info.size)} > {format_size(limit_of(ctx))})", FATAL])
        try:
            data = await ctx.vfs.read_bytes(options.archive)
        except FS_ERRORS as failure:
            raise Fatal([f"tar: {options.archive}: Cannot open: {_reason(failure)}", FATAL]) from None
        subject = options.archive
    if is_gzip(data):
        try:
            return decompress(data, limit_of(ctx), subject).data
        except GzipError as problem:
            raise Fatal([f"gzip: {subject if subject == 'stdin' else 'stdin'}: {problem}",
                         "tar: Child returned status 1", FATAL]) from None
    if options.gzip and data:
        raise Fatal(["gzip: stdin: not in gzip format", "tar: Child returned status 1", FATAL])
    return data


def _wanted(run: Run, name: str, operands: list[str], matched: set[str]) -> bool:
    if _excluded(run, name):
        return False
    if not operands:
        return True
    clean = name.rstrip("/")
    hit = False
    for operand in operands:
        want = operand.rstrip("/") or operand
        if run.options.wildcards:
            ok = fnmatch.fnmatchcase(clean, want) or any(
                fnmatch.fnmatchcase("/".join(clean.split("/")[:i]), want) for i in range(1, clean.count("/") + 1))
        else:
            ok = clean == want or clean.startswith(want + "/")
        if ok:
            matched.add(operand)
            hit = True
    return hit


async def _read(run: Run, stdin: bytes, operands: list[str]) -> None:
    options = run.options
    raw = await _load(run, stdin)
    if options.directory and options.mode == "x":
        info = await _stat(run.ctx, options.directory)
        if info is None or not info.exists or not info.is_dir:
            raise Fatal([f"tar: {options.directory}: Cannot open: "
                         f"{'Not a directory' if info and info.exists else 'No such file or directory'}", FATAL])
    if not raw:
        if options.archive == "-" and not run.ctx.stdin_is_pipe:
            raise Fatal(["tar: Refusing to read archive contents from terminal (missing -f option?)", FATAL])
        raise Fatal(["tar: This does not look like a tar archive", FAILURE])
    try:
        archive = tarfile.open(fileobj=io.BytesIO(raw), mode="r:")
    except tarfile.ReadError:
        if len(raw) < 512 or raw[:512].strip(b"\0"):
            raise Fatal(["tar: This does not look like a tar archive", FAILURE]) from None
        return
    matched: set[str] = set()
    extracted: dict[str, str] = {}
    while True:
        if run.ctx.cancelled():
            break
        try:
            entry = archive.next()
        except tarfile.TarError:
            run.errors.append("tar: Unexpected EOF in archive")
            raise Fatal(run.errors[-1:] + [FATAL]) from None
        if entry is None:
            break
        name = entry.name + ("/" if entry.isdir() and not entry.name.endswith("/") else "")
        if not _wanted(run, name, operands, matched):
            continue
        if options.mode == "t":
            safer_name(run, name)
            run.listing.append(long_line(run, entry, name) if options.verbose else name)
            continue
        if options.verbose:
            run.listing.append(long_line(run, entry, name) if options.verbose >= 2 else name)
        await _extract(run, archive, entry, name, extracted)
    for operand in operands:
        if operand not in matched:
            run.error(f"{operand}: Not found in archive")


async def _extract(run: Run, archive: tarfile.TarFile, entry: tarfile.TarInfo, name: str,
                   extracted: dict[str, str]) -> None:
    ctx, options = run.ctx, run.options
    safe = safer_name(run, name)
    if ".." in name.split("/") and not options.absolute:
        run.error(f"{name}: Member name contains '..'")
        return
    if options.strip:
        parts = [part for part in safe.split("/") if part]
        if len(parts) <= options.strip:
            return
        safe = "/".join(parts[options.strip:]) + ("/" if entry.isdir() else "")
    if options.absolute and safe.startswith("/"):
        target = safe
    else:
        target = _join(options.directory or "", safe.lstrip("/") or ".")
    if options.to_stdout:
        if entry.isfile():
            run.out += _member_bytes(run, archive, entry)
        return
    try:
        if entry.isdir():
            await ctx.vfs.mkdir(target, True)
            return
        if entry.issym():
            run.error(f"{safe}: Cannot create symlink to '{entry.linkname}': Operation not supported")
            return
        if entry.islnk():
            source = extracted.get(entry.linkname)
            if source is None:
                run.error(f"{safe}: Cannot hard link to '{entry.linkname}': No such file or directory")
                return
            data = await ctx.vfs.read_bytes(source)
        elif entry.isfile():
            data = _member_bytes(run, archive, entry)
        else:
            run.error(f"{safe}: Cannot create special file: Operation not supported")
            return
        info = await _stat(ctx, target)
        if info is not None and info.exists:
            if options.keep:
                run.error(f"{safe}: Cannot open: File exists")
                return
            if info.is_dir:
                run.error(f"{safe}: Cannot open: Is a directory")
                return
        await ctx.vfs.write_bytes(target, data)
        extracted[entry.name] = target
    except FS_ERRORS as failure:
        run.error(f"{safe}: Cannot open: {_reason(failure)}")


def _member_bytes(run: Run, archive: tarfile.TarFile, entry: tarfile.TarInfo) -> bytes:
    if entry.size > limit_of(run.ctx):
        raise Fatal([f"tar: {entry.name}: member exceeds max materialized size "
                     f"({format_size(entry.size)} > {format_size(limit_of(run.ctx))})", FATAL])
    handle = archive.extractfile(entry)
    if handle is None:
        return b""
    try:
        return handle.read()
    except tarfile.TarError:
        raise Fatal(["tar: Unexpected EOF in archive", FATAL]) from None


async def cmd_tar(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        options, operands = parse(args)
    except Fatal as fatal:
        return CommandResult(b"", "\n".join(fatal.args[0]), fatal.args[1] if len(fatal.args) > 1 else 2)
    run = Run(ctx, options)
    try:
        if options.mode == "c":
            await _create(run, operands)
        else:
            await _read(run, stdin, operands)
    except Fatal as fatal:
        lines = fatal.args[0]
        done = run.result()
        kept = [line for line in run.errors if line not in lines]
        stdout = done.stdout if options.mode != "c" else b""
        return CommandResult(stdout, "\n".join(kept + lines), 2, done.content_type)
    return run.result()


def tar_kind(args) -> str:
    try:
        options, _ = parse(list(args))
    except Fatal:
        return "read"
    if options.mode == "t":
        return "read"
    if options.mode == "c":
        return "read" if options.archive == "-" else "write"
    return "read" if options.to_stdout else "write"


TAR = CommandSpec(
    name="tar",
    summary="Create (-c), list (-t) or extract (-x) tar archives, gzip-compressed with -z.",
    usage=TAR_USAGE,
    details=("GNU tar over the workspace. -f ARCHIVE names the archive (- or no -f: stdin/stdout); "
             "-z gzips (reading detects gzip by itself; -a picks it from a .tar.gz/.tgz name); -v lists "
             "names (-tv long lines: mode, owner, size, date); -C DIR changes folder first; "
             "--exclude=PATTERN skips matching names; --strip-components=N drops leading folders on "
             "extract; -O extracts to stdout; -k keeps existing files; --mtime=DATE fixes times. "
             "Old-style bundles work (tar czf x.tgz dir). Leading / and parts up to a '..' are "
             "stripped on extract, as GNU does. Symlinks and devices are not created. Errors exit 2.\n"
             "Examples:\n  tar czf /backup/site.tgz site\n  tar tvf /backup/site.tgz\n"
             "  tar xzf /backup/site.tgz -C /restore\n  tar cf - notes | tar tf -\n"
             "  tar xf bundle.tar --strip-components=1 -C out"),
    group="fs", handler=cmd_tar, accepts_stdin=True, min_args=0, max_args=None,
    conformance_args=(), kind=tar_kind, requires_adapter=None,
)

COMMANDS = [TAR]
