"""file: guess what a file holds, in the words of Debian's file 5.44 (libmagic).

Recognised: empty, directory, text (ASCII, UTF-8 with or without BOM, UTF-16 with BOM,
ISO-8859, non-ISO extended ASCII) with libmagic's notes (very long lines, CRLF/CR/NEL
line terminators, no line terminators, escape sequences, overstriking), JSON, CSV, shell /
Python / Perl / Node.js scripts, C and JavaScript source, HTML, XML, SVG, unified diffs,
makefiles, and the headers of PNG, JPEG (JFIF), GIF, PDF, gzip, bzip2, xz, zip, tar, ELF
and SQLite files; anything else is `data`. The VFS keeps no modes: scripts are described
by their content alone (libmagic's `executable` comes from the `#!` line, not the mode).
"""
from __future__ import annotations

import json
import re
import struct
import time

from ...result import CommandResult
from ..getopt import NONE, gnu_getopt
from ..helpers import FS_ERRORS
from ..spec import CommandContext, CommandFailed, CommandSpec
from ...result import err

FILE_USAGE = "file [-bL] [-i|--mime|--mime-type|--mime-encoding] FILE..."
_UPSTREAM_USAGE = ("Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n"
                   "            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"
                   "            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"
                   "            <file> ...\n"
                   "       file -C [-m <magicfiles>]\n"
                   "       file [--help]")
_LONG = {"brief": ("b", NONE), "mime": ("i", NONE), "mime-type": ("mime-type", NONE),
         "mime-encoding": ("mime-encoding", NONE), "dereference": ("L", NONE),
         "no-dereference": ("h", NONE)}

# libmagic's text_chars: T plain ASCII text, I ISO-8859, X non-ISO extended ASCII, F never text
_F, _T, _I, _X = 0, 1, 2, 3
_TEXT_CHARS = ([_F] * 7 + [_T] * 7 + [_F] * 13 + [_T] + [_F] * 4 + [_T] * 95 + [_F]
               + [_X] * 5 + [_T] + [_X] * 26 + [_I] * 96)


# -- encodings -----------------------------------------------------------------------------------

def _utf8_chars(data: bytes) -> list[int] | None:
    """Code points when `data` is text in UTF-8 (ASCII controls limited to text ones)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    points = [ord(ch) for ch in text]
    if any(point < 128 and _TEXT_CHARS[point] != _T for point in points):
        return None
    return points


def _encoding(data: bytes) -> tuple[str, str, list[int]] | None:
    """(description, mime charset, code points) of text, None for binary."""
    if all(_TEXT_CHARS[b] == _T for b in data):
        return "ASCII", "us-ascii", list(data)
    if data.startswith(b"\xef\xbb\xbf"):
        points = _utf8_chars(data[3:])
        if points is not None:
            return "Unicode text, UTF-8 (with BOM)", "utf-8", points
    points = _utf8_chars(data)
    if points is not None:
        return "Unicode text, UTF-8", "utf-8", points
    for bom, codec, name in ((b"\xff\xfe", "utf-16-le", "little"), (b"\xfe\xff", "utf-16-be", "big")):
        if data.startswith(bom) and len(data) % 2 == 0:
            try:
                text = data[2:].decode(codec)
            except UnicodeDecodeError:
                continue
            points = [ord(ch) for ch in text]
            if all(point >= 128 or _TEXT_CHARS[point] == _T for point in points):
                return f"Unicode text, UTF-16, {name}-endian", f"utf-16{name[0]}e", points
    if all(_TEXT_CHARS[b] in (_T, _I) for b in data):
        return "ISO-8859", "iso-8859-1", list(data)
    if all(_TEXT_CHARS[b] != _F for b in data):
        return "Non-ISO extended-ASCII", "unknown-8bit", list(data)
    return None


def _text_notes(points: list[int], nbytes: int) -> str:
    n_crlf = n_lf = n_cr = n_nel = 0
    seen_cr = False
    last_line_end = -1
    long_lines = 0
    escapes = backspace = False
    for index, point in enumerate(points):
        if point == 10:
            if seen_cr:
                n_crlf += 1
            else:
                n_lf += 1
            last_line_end = index
        elif seen_cr:
            n_cr += 1
        seen_cr = point == 13
        if seen_cr:
            last_line_end = index
        if point == 0x85:
            n_nel += 1
            last_line_end = index
        if index > last_line_end + 300:
            long_lines = max(long_lines, index - last_line_end)
        escapes = escapes or point == 27
        backspace = backspace or point == 8
    if seen_cr and nbytes < 7 * 1024 * 1024:
        n_cr += 1
    notes = ""
    if long_lines:
        notes += f", with very long lines ({long_lines})"
    if not (n_crlf or n_cr or n_nel or n_lf):
        notes += ", with no line terminators"
    elif n_crlf or n_cr or n_nel:
        kinds = [name for name, count in (("CRLF", n_crlf), ("CR", n_cr), ("LF", n_lf), ("NEL", n_nel)) if count]
        notes += ", with " + ", ".join(kinds) + " line terminators"
    if escapes:
        notes += ", with escape sequences"
    if backspace:
        notes += ", with overstriking"
    return notes


# -- text kinds ----------------------------------------------------------------------------------

_SCRIPTS = {"bash": ("Bourne-Again shell script text executable", "text/x-shellscript"),
            "sh": ("POSIX shell script text executable", "text/x-shellscript"),
            "zsh": ("Paul Falstad's zsh script text executable", "text/x-shellscript"),
            "node": ("Node.js script executable", "application/javascript"),
            "nodejs": ("Node.js script executable", "application/javascript"),
            "ruby": ("Ruby script text executable", "text/x-ruby"),
            "php": ("PHP script text executable", "text/x-php"),
            "awk": ("awk script text executable", "text/x-awk")}
_PYTHON_LINE = re.compile(rb"^(?:import [_A-Za-z]+(?: as [A-Za-z]+)?[ \t\r\f\v]*"
                          rb"|from[ \t\f\r]+[\w.]+[ \t\f\r]+import.*)$", re.M)


def _shebang(data: bytes) -> tuple[str, str] | None | str:
    """(magic description, mime) of a `#!` script; "perl" when libmagic names it outright."""
    if not data.startswith(b"#!"):
        return None
    line = data[2:].split(b"\n", 1)[0].decode("latin-1").strip()
    words = line.split()
    if not words:
        return None
    program = words[0]
    name = program.rsplit("/", 1)[-1]
    if name == "env" and len(words) > 1:
        name = words[1]
    if name.startswith("perl"):
        return "perl"
    if re.fullmatch(r"python[0-9.]*", name):
        return "Python script text executable", "text/x-script.python"
    if name in _SCRIPTS:
        return _SCRIPTS[name]
    shown = f"{program} {words[1]}" if program.endswith("/env") and len(words) > 1 else program
    return f"a {shown} script text executable", "text/plain"


def _text_kind(data: bytes) -> tuple[str, str] | None:
    """(magic description, mime type) from libmagic's text rules, None for plain text."""
    script = _shebang(data)
    if script is not None and script != "perl":
        return script
    head = data[:8192]
    lowered = head[:4096].lower()
    stripped = head.lstrip()
    if stripped.startswith(b"<?xml"):
        if b"<svg" in head[:4096]:
            return "SVG Scalable Vector Graphics image", "image/svg+xml"
        version = re.match(rb'<\?xml version="([0-9.]+)"', stripped)
        return f"XML {version.group(1).decode() if version else '1.0'} document text", "text/xml"
    if stripped.startswith(b"<svg"):
        return "SVG Scalable Vector Graphics image", "image/svg+xml"
    if any(tag in lowered for tag in (b"<!doctype html", b"<html", b"<head", b"<title", b"<body")):
        return "HTML document text", "text/html"
    if re.search(rb"^--- \S.*\n\+\+\+ \S", head, re.M):
        return "unified diff output text", "text/x-diff"
    if re.search(rb"^#include[ \t]*[<\"]", head, re.M):
        return "C source text", "text/x-c"
    if _PYTHON_LINE.search(head) or re.search(rb"def __init__.{0,64}self", head, re.S):
        return "Python script text executable", "text/x-script.python"
    if re.search(rb"^(?:const|var|let)[ \t]+\w+[ \t]*=[ \t]*require\(", head, re.M):
        return "JavaScript source text", "application/javascript"
    if re.search(rb"^(?:all|clean|install|\.PHONY|\.SUFFIXES|\.DEFAULT)[ \t]*:", head, re.M):
        return "makefile script text", "text/x-makefile"
    return None


def _is_csv(data: bytes) -> bool:
    fields = total = lines = 0
    index, length = 0, len(data)
    while index < length:
        byte = data[index]
        index += 1
        if byte == 0x22:
            quote = False
            while index < length:
                inner = data[index]
                index += 1
                if inner != 0x22:
                    if quote:
                        index -= 1
                        break
                    continue
                quote = not quote
        elif byte == 0x2C:
            fields += 1
        elif byte == 0x0A:
            lines += 1
            if lines == 10:
                return total != 0 and total == fields
            if total == 0:
                if fields == 0:
                    return False
                total = fields
            elif total != fields:
                return False
            fields = 0
    return bool(total) and lines > 2


def _is_json(data: bytes) -> bool:
    if not data.lstrip()[:1] in (b"{", b"["):
        return False
    try:
        json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return True


# -- binary kinds --------------------------------------------------------------------------------

def _png(data: bytes) -> str:
    if len(data) < 29 or data[12:16] != b"IHDR":
        return "PNG image data"
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    kinds = {0: f"{depth}-bit grayscale", 2: f"{depth}-bit/color RGB", 3: f"{depth}-bit colormap",
             4: f"{depth}-bit gray+alpha", 6: f"{depth}-bit/color RGBA"}
    text = f"PNG image data, {width} x {height}"
    if color in kinds:
        text += f", {kinds[color]}"
    return text + (", interlaced" if interlace else ", non-interlaced")


def _jpeg(data: bytes) -> str:
    text = "JPEG image data"
    if data[6:11] == b"JFIF\x00" and len(data) >= 18:
        units = {0: "aspect ratio", 1: "resolution (DPI)", 2: "resolution (DPCM)"}.get(data[13], "")
        text += f", JFIF standard {data[11]}.{data[12]:02d}, {units}, density {int.from_bytes(data[14:16], 'big')}x" \
                f"{int.from_bytes(data[16:18], 'big')}, segment length {int.from_bytes(data[4:6], 'big')}"
    index = 2
    while index + 4 <= len(data) and data[index] == 0xFF:
        marker = data[index + 1]
        size = int.from_bytes(data[index + 2:index + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2) and index + 10 <= len(data):
            kind = {0xC0: "baseline", 0xC1: "extended sequential", 0xC2: "progressive"}[marker]
            precision = data[index + 4]
            height = int.from_bytes(data[index + 5:index + 7], "big")
            width = int.from_bytes(data[index + 7:index + 9], "big")
            text += f", {kind}, precision {precision}, {width}x{height}, components {data[index + 9]}"
            break
        if marker in (0xD9, 0xDA):
            break
        index += 2 + size
    return text


def _gzip(data: bytes) -> str:
    text = "gzip compressed data"
    if len(data) < 10:
        return text
    flags, mtime, xfl, system = data[3], int.from_bytes(data[4:8], "little"), data[8], data[9]
    if flags & 0x08:
        start = 10 + (2 + int.from_bytes(data[10:12], "little") if flags & 0x04 else 0)
        name = data[start:].split(b"\x00", 1)[0].decode("latin-1")
        text += f', was "{name}"'
    if mtime:
        text += ", last modified: " + time.strftime("%a %b %e %H:%M:%S %Y", time.gmtime(mtime))
    if xfl == 2:
        text += ", max compression"
    elif xfl == 4:
        text += ", max speed"
    systems = {0: "FAT filesystem (MS-DOS, OS/2, NT)", 3: "Unix", 7: "Macintosh", 11: "NTFS filesystem (NT)"}
    if system in systems:
        text += f", from {systems[system]}"
    if len(data) >= 18:
        text += f", original size modulo 2^32 {int.from_bytes(data[-4:], 'little')}"
    return text


def _elf(data: bytes) -> tuple[str, str]:
    bits = {1: "32-bit", 2: "64-bit"}.get(data[4], "")
    little = data[5] == 1
    order = "LSB" if little else "MSB"
    kind_code = int.from_bytes(data[16:18], "little" if little else "big")
    machine_code = int.from_bytes(data[18:20], "little" if little else "big")
    kinds = {1: ("relocatable", "application/x-object"), 2: ("executable", "application/x-executable"),
             3: ("shared object", "application/x-sharedlib"), 4: ("core file", "application/x-coredump")}
    kind, mime = kinds.get(kind_code, ("unknown type", "application/octet-stream"))
    machines = {3: "Intel 80386", 0x28: "ARM", 0x3E: "x86-64", 0xB7: "ARM aarch64", 0xF3: "UCB RISC-V"}
    machine = machines.get(machine_code, f"*unknown arch {machine_code:#x}*")
    return f"ELF {bits} {order} {kind}, {machine}, version {data[6]} (SYSV)", mime


def _sqlite(data: bytes) -> str:
    def number(offset: int) -> int:
        return int.from_bytes(data[offset:offset + 4], "big")
    encoding = {1: "UTF-8", 2: "UTF-16 little endian", 3: "UTF-16 big endian"}.get(number(56), f"unknown {number(56)}")
    return (f"SQLite 3.x database, last written using SQLite version {number(96)}, file counter {number(24)}, "
            f"database pages {number(28)}, cookie {number(40):#x}, schema {number(44)}, {encoding} encoding, "
            f"version-valid-for {number(92)}").replace("cookie 0x0,", "cookie 0,")


def _binary_kind(data: bytes) -> tuple[str, str] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data), "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data), "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        width, height = struct.unpack("<HH", data[6:10]) if len(data) >= 10 else (0, 0)
        return f"GIF image data, version {data[3:6].decode()}, {width} x {height}", "image/gif"
    if data.startswith(b"%PDF-"):
        version = re.match(rb"%PDF-(\d+\.\d+)", data)
        return f"PDF document, version {version.group(1).decode() if version else '?'}", "application/pdf"
    if data.startswith(b"\x1f\x8b"):
        return _gzip(data), "application/gzip"
    if data.startswith(b"BZh") and data[3:4].isdigit():
        return f"bzip2 compressed data, block size = {data[3] - 48}00k", "application/x-bzip2"
    if data.startswith(b"\xfd7zXZ\x00"):
        check = {0: "no check", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}.get(data[7] & 0x0F if len(data) > 7 else 0, "?")
        return f"XZ compressed data, checksum {check}", "application/x-xz"
    if data.startswith(b"PK\x03\x04") and len(data) >= 10:
        version = int.from_bytes(data[4:6], "little")
        method = int.from_bytes(data[8:10], "little")
        methods = {0: "store", 8: "deflate", 12: "bzip2", 14: "lzma"}
        text = f"Zip archive data, at least v{version // 10}.{version % 10} to extract"
        return text + f", compression method={methods.get(method, method)}", "application/zip"
    if data[257:265] == b"ustar  \x00":
        return "POSIX tar archive (GNU)", "application/x-tar"
    if data[257:263] == b"ustar\x00":
        return "POSIX tar archive", "application/x-tar"
    if data.startswith(b"\x7fELF") and len(data) >= 20:
        return _elf(data)
    if data.startswith(b"SQLite format 3\x00") and len(data) >= 100:
        return _sqlite(data), "application/vnd.sqlite3"
    return None


# -- classification ------------------------------------------------------------------------------

def classify(data: bytes) -> tuple[str, str, str]:
    """(description, mime type, mime encoding) of a regular file's bytes."""
    if not data:
        return "empty", "inode/x-empty", "binary"
    found = _binary_kind(data)
    if found is not None:
        return found[0], found[1], "binary"
    trimmed = data.rstrip(b"\x00") or data[:1]
    encoding = _encoding(data) if data[:2] in (b"\xff\xfe", b"\xfe\xff") else None
    encoding = encoding or _encoding(trimmed)
    if encoding is None:
        return "data", "application/octet-stream", "binary"
    code, charset, points = encoding
    if _is_json(data):
        return "JSON text data", "application/json", charset
    if _is_csv(data):
        return "CSV text", "text/csv", charset
    if _shebang(data) == "perl":
        return "Perl script text executable", "text/x-perl", charset
    if len(trimmed) <= 1:
        return "very short file (no magic)", "application/octet-stream", "binary"
    kind = _text_kind(data)
    executable = False
    prefix = ""
    mime = "text/plain"
    if kind is not None:
        description, mime = kind
        if not description.endswith(" text") and not description.endswith(" text executable") \
                and not description.endswith(" executable"):
            return description, mime, charset if mime != "image/svg+xml" else "us-ascii"
        if description.endswith(" text executable"):
            prefix, executable = description[:-len(" text executable")] + ", ", True
        elif description.endswith(" text"):
            prefix = description[:-len(" text")] + ", "
        else:
            prefix = description + ", "
    text = f"{prefix}{code} text" + (" executable" if executable else "")
    return text + _text_notes(points, len(trimmed)), mime, charset


async def cmd_file(ctx: CommandContext, args: list[str], stdin: bytes) -> CommandResult:
    try:
        options, operands = gnu_getopt("file", FILE_USAGE, args, "bihL", _LONG)
    except CommandFailed as failure:
        letter = re.search(r"invalid option -- '(.)'|unrecognized option '([^']*)'", failure.result.stderr)
        if letter is None:
            raise
        said = (f"file: invalid option -- '{letter.group(1)}'" if letter.group(1)
                else f"file: unrecognized option '{letter.group(2)}'")
        return err(said + "\n" + _UPSTREAM_USAGE)
    brief = any(key == "b" for key, _ in options)
    mode = "desc"
    for key, _ in options:
        if key == "i":
            mode = "mime"
        elif key in ("mime-type", "mime-encoding"):
            mode = key
    if not operands:
        return err(_UPSTREAM_USAGE)
    rows: list[tuple[str, str]] = []
    for path in operands:
        shown = "/dev/stdin" if path == "-" else path
        rows.append((shown, await _describe(ctx, path, stdin, mode)))
    width = max(len(name) for name, _ in rows)
    lines = []
    for name, text in rows:
        lines.append(text if brief else f"{name}:".ljust(width + 1) + " " + text)
    return CommandResult("".join(line + "\n" for line in lines).encode("utf-8", "replace"), "", 0)


async def _describe(ctx: CommandContext, path: str, stdin: bytes, mode: str) -> str:
    if path == "-":
        data = stdin
    else:
        try:
            info = await ctx.vfs.stat(path)
        except FS_ERRORS:
            info = None
        if info is None or not info.exists:
            return f"cannot open `{path}' (No such file or directory)"
        if info.is_dir:
            return {"desc": "directory", "mime": "inode/directory; charset=binary",
                    "mime-type": "inode/directory", "mime-encoding": "binary"}[mode]
        try:
            data = await ctx.vfs.read_bytes(path)
        except FS_ERRORS as error:
            return f"cannot open `{path}' ({error})"
    # libmagic looks at the first 7 MiB only (bytes_max)
    description, mime, charset = classify(data[:7 * 1024 * 1024])
    if mode == "mime":
        return f"{mime}; charset={charset}"
    if mode == "mime-type":
        return mime
    if mode == "mime-encoding":
        return charset
    return description


FILE_SPEC = CommandSpec(
    name="file",
    summary="Tell what kind of data files hold (text, script, image, archive...), as file(1).",
    usage=FILE_USAGE,
    details=("Prints `NAME: DESCRIPTION` in libmagic's words (file 5.44): text encodings and their "
             "line-ending notes, JSON, CSV, scripts, HTML/XML, images, PDF, archives, compressed data; "
             "`data` when nothing matches. -b omits the names, -i (--mime) prints the MIME type and "
             "charset, --mime-type and --mime-encoding one of them; `-` reads stdin. A missing file is "
             "reported on stdout (`cannot open`) with exit status 0, as file does.\n"
             "Examples:\n  file /data/*\n  file -b /images/logo.png\n  file --mime-type /data/report.pdf\n"
             "  cat /tmp/blob | file -"),
    group="fs",
    handler=cmd_file,
    accepts_stdin=True, min_args=0, max_args=None, conformance_args=(),
    kind="read", requires_adapter=None,
)


COMMANDS = [FILE_SPEC]
