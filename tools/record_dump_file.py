"""Records od (GNU coreutils), xxd (Debian's xxd), hexdump (util-linux) and file (Debian's
file/libmagic) from the real tools: tests/data/dump_file_corpus.json, replayed by
tests/test_cmd_dump.py and tests/test_cmd_file.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr and /etc/magic come from
the host, read-only), with a clean C-locale environment. WORLD holds binary fixtures too
(written here from Python), so the corpus keeps every file base64-encoded.

    python tools/record_dump_file.py              # record and write the JSON
    python tools/record_dump_file.py --only xxd   # print the cases of one command
"""
from __future__ import annotations

import argparse
import base64
import bz2
import gzip
import io
import json
import lzma
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "dump_file_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr", "--ro-bind-try", "/etc/magic", "/etc/magic",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]


def _png() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", 3, 2, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00" + b"\x00" * 12 + b"\x00" + b"\x00" * 12)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def _jpeg() -> bytes:
    app0 = b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\x08\x00\x02\x00\x04\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return (b"\xff\xd8\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0
            + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9")


def _gif() -> bytes:
    return b"GIF89a" + struct.pack("<HH", 5, 7) + b"\x00\x00\x00" + b",\x00\x00\x00\x00\x05\x00\x07\x00\x00\x02\x02D\x01\x00;"


def _pdf() -> bytes:
    return b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def _gzip() -> bytes:
    return gzip.compress(b"hello gzip\n", mtime=0)


def _gzip_named() -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="notes.txt", mode="wb", fileobj=buffer, mtime=1700000000, compresslevel=6) as out:
        out.write(b"hello gzip\n")
    return buffer.getvalue()


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("a.txt", (2020, 1, 1, 0, 0, 0)), b"hello zip\n")
    return buffer.getvalue()


def _tar() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        info = tarfile.TarInfo("a.txt")
        info.size, info.mtime, info.mode = 10, 0, 0o644
        archive.addfile(info, io.BytesIO(b"hello tar\n"))
    return buffer.getvalue()


def _ints() -> bytes:
    return (struct.pack("<hhiiq", -2, 300, -70000, 123456789, -5) + struct.pack("<fd", 1.5, -0.1)
            + struct.pack("<f", 3.14159) + struct.pack("<d", 1e100))


WORLD: dict[str, bytes] = {
    "/w/a.txt": b"hello world\n",
    "/w/b.txt": b"second file\n",
    "/w/empty.txt": b"",
    "/w/abc.txt": b"abc",
    "/w/lines.txt": b"one\ntwo\nthree\nfour\nfive\n",
    "/w/bin.dat": bytes(range(256)),
    "/w/rep.dat": b"A" * 64 + b"B" * 16 + b"A" * 40,
    "/w/zeros.dat": b"\x00" * 100,
    "/w/nums.dat": _ints(),
    "/w/ctrl.dat": b"a\tb\nc\rd\x00\x07\x08\x0b\x0c\x1b\x7f\x80\xff \\e",
    "/w/odd.dat": b"\x01\x02\x03\x04\x05\x06\x07",
    "/w/hex.txt": b"00000000: 6865 6c6c 6f0a                           hello.\n",
    "/w/plain.hex": b"68656c6c6f20776f726c640a\n",
    "/w/utf8.txt": "h\u00e9llo w\u00f6rld \u2713\n".encode("utf-8"),
    "/w/latin1.txt": "caf\u00e9 cr\u00e8me\n".encode("latin-1"),
    "/w/long.txt": (b"word " * 100).rstrip() + b"\n",
    "/w/crlf.txt": b"first\r\nsecond\r\n",
    "/w/noeol.txt": b"no newline at end",
    "/w/data.json": b'{"name": "x", "items": [1, 2, 3]}\n',
    "/w/list.json": b'[1, 2, {"a": null}]\n',
    "/w/data.csv": b"name,age,city\nalice,30,paris\nbob,4,rome\n",
    "/w/script.sh": b"#!/bin/bash\necho hi\n",
    "/w/posix.sh": b"#!/bin/sh\nset -e\necho hi\n",
    "/w/env.py": b"#!/usr/bin/env python3\nprint('hi')\n",
    "/w/script.pl": b"#!/usr/bin/perl\nprint \"hi\\n\";\n",
    "/w/mod.py": b"import os\n\n\ndef main():\n    print(os.name)\n",
    "/w/page.html": b"<!DOCTYPE html>\n<html>\n<head><title>t</title></head>\n<body><p>hi</p></body>\n</html>\n",
    "/w/doc.xml": b'<?xml version="1.0" encoding="UTF-8"?>\n<root><item>1</item></root>\n',
    "/w/readme.md": b"# Title\n\nSome *text* here.\n",
    "/w/img.png": _png(),
    "/w/img.jpg": _jpeg(),
    "/w/img.gif": _gif(),
    "/w/doc.pdf": _pdf(),
    "/w/a.gz": _gzip(),
    "/w/a.zip": _zip(),
    "/w/a.tar": _tar(),
    "/w/random.bin": bytes([0x00, 0x9f, 0x13, 0xee, 0x42, 0x00, 0x01, 0xfe, 0x80, 0x7f] * 6),
    "/w/sub/inner.txt": b"inner\n",
    "/w/named.gz": _gzip_named(),
    "/w/a.bz2": bz2.compress(b"hello bzip2\n"),
    "/w/a.xz": lzma.compress(b"hello xz\n"),
    "/w/envbash.sh": b"#!/usr/bin/env bash\nset -eu\necho hi\n",
    "/w/node.js": b"#!/usr/bin/env node\nconsole.log(1);\n",
    "/w/crlf.sh": b"#!/bin/bash\r\necho hi\r\n",
    "/w/utf8.py": "#!/usr/bin/python3\nprint('\u00e9')\n".encode("utf-8"),
    "/w/main.c": b"#include <stdio.h>\n\nint main(void)\n{\n    return 0;\n}\n",
    "/w/app.js": b"const x = require('fs');\nfunction f() { return 1; }\n",
    "/w/conf.yaml": b"name: demo\nitems:\n  - a\n  - b\n",
    "/w/pic.svg": b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>\n',
    "/w/change.diff": b"--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-old\n+new\n",
    "/w/bom.txt": b"\xef\xbb\xbfhello\n",
    "/w/utf16.txt": "hi\n".encode("utf-16"),
    "/w/cr.txt": b"a\rb\r",
    "/w/esc.txt": b"\x1b[1mbold\x1b[0m\n",
    "/w/one.txt": b"x",
    "/w/num.json": b"42\n",
    "/w/bad.json": b'{"a": }\n',
    "/w/elf.bin": b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x02\x00\x3e\x00\x01\x00\x00\x00" + b"\x00" * 40,
    "/w/Makefile": b"all:\n\tcc -o x x.c\n",
    "/w/page2.html": b"<html><body>hi</body></html>\n",
    "/w/tsv.txt": b"a\tb\tc\n1\t2\t3\n",
    "/w/mixed.txt": b"a\r\nb\nc\n",
    "/w/sqlite.db": b"SQLite format 3\x00" + b"\x10\x00\x01\x01\x00\x40\x20\x20" + b"\x00" * 76,
    "/w/b.sh": b"echo no shebang\nls -l\n",
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- od
    ("od-default", "od a.txt"),
    ("od-default-stdin", "printf 'hello' | od"),
    ("od-odd-length", "od odd.dat"),
    ("od-empty", "od empty.txt"),
    ("od-c", "od -c ctrl.dat"),
    ("od-c-text", "od -c a.txt"),
    ("od-b", "od -b a.txt"),
    ("od-x", "od -x a.txt"),
    ("od-d", "od -d nums.dat"),
    ("od-An-tx1", "od -An -tx1 a.txt"),
    ("od-Ad-tx1", "od -A d -t x1 bin.dat"),
    ("od-Ax-tx1z", "od -A x -t x1z a.txt"),
    ("od-Ao-c", "od -Ao -c lines.txt"),
    ("od-An-attached", "od -An -c abc.txt"),
    ("od-tx2", "od -t x2 odd.dat"),
    ("od-tx4", "od -t x4 nums.dat"),
    ("od-tx8", "od -t x8 nums.dat"),
    ("od-to1", "od -t o1 a.txt"),
    ("od-to2", "od -t o2 odd.dat"),
    ("od-td1", "od -t d1 ctrl.dat"),
    ("od-td2", "od -t d2 nums.dat"),
    ("od-td4", "od -t d4 nums.dat"),
    ("od-tu1", "od -t u1 ctrl.dat"),
    ("od-tu2", "od -t u2 nums.dat"),
    ("od-tu4", "od -t u4 nums.dat"),
    ("od-ta", "od -t a ctrl.dat"),
    ("od-tc", "od -t c bin.dat"),
    ("od-tf4", "od -t f4 nums.dat"),
    ("od-tf8", "od -t f8 nums.dat"),
    ("od-tf4-An", "od -An -t f4 -N 4 -j 20 nums.dat"),
    ("od-multi-types", "od -t x1 -t c a.txt"),
    ("od-multi-types-z", "od -A d -t d1z -c abc.txt"),
    ("od-squeeze", "od -c rep.dat"),
    ("od-squeeze-zeros", "od zeros.dat"),
    ("od-v", "od -v -tx1 zeros.dat"),
    ("od-N", "od -N 5 -c a.txt"),
    ("od-j", "od -j 6 -c a.txt"),
    ("od-j-N", "od -j 2 -N 3 -tx1 a.txt"),
    ("od-j-hex", "od -j 0x10 -N 8 -tx1 bin.dat"),
    ("od-w4", "od -w4 -tx1 a.txt"),
    ("od-w-default", "od -w -tx1 bin.dat | head -n 3"),
    ("od-w3-x2", "od -w3 -tx1 odd.dat"),
    ("od-two-files", "od -c a.txt b.txt"),
    ("od-file-and-stdin", "printf 'XY' | od -c a.txt -"),
    ("od-missing", "od -c missing.txt"),
    ("od-missing-and-file", "od -c missing.txt abc.txt"),
    ("od-bad-type", "od -t q a.txt"),
    ("od-bad-option", "od -y a.txt"),
    ("od-Ad-x-full", "od -Ad -x bin.dat"),
    ("od-skip-past-end", "od -j 100 a.txt"),
    ("od-tx1-bin", "od -tx1 bin.dat"),
    ("od-tz-c-long", "od -tcz lines.txt"),
    ("od-traditional-o", "od -o odd.dat"),
    ("od-ta-bin", "od -An -ta -N 40 -j 120 bin.dat"),
    # ---------------------------------------------------------------- xxd
    ("xxd-default", "xxd a.txt"),
    ("xxd-stdin", "printf 'hello' | xxd"),
    ("xxd-bin", "xxd bin.dat"),
    ("xxd-empty", "xxd empty.txt"),
    ("xxd-p", "xxd -p a.txt"),
    ("xxd-p-long", "xxd -p bin.dat"),
    ("xxd-p-c8", "xxd -p -c 8 a.txt"),
    ("xxd-c8", "xxd -c 8 lines.txt"),
    ("xxd-c5", "xxd -c 5 a.txt"),
    ("xxd-g1", "xxd -g 1 a.txt"),
    ("xxd-g4", "xxd -g 4 lines.txt"),
    ("xxd-g3", "xxd -g 3 a.txt"),
    ("xxd-g0", "xxd -g 0 a.txt"),
    ("xxd-l", "xxd -l 5 a.txt"),
    ("xxd-s", "xxd -s 6 a.txt"),
    ("xxd-s-l", "xxd -s 0x20 -l 20 bin.dat"),
    ("xxd-s-neg", "xxd -s -4 a.txt"),
    ("xxd-u", "xxd -u bin.dat | head -n 12 | tail -n 2"),
    ("xxd-i", "xxd -i abc.txt"),
    ("xxd-i-stdin", "printf 'hi!' | xxd -i"),
    ("xxd-i-n", "xxd -i -n blob a.txt"),
    ("xxd-i-long", "xxd -i lines.txt"),
    ("xxd-i-sub", "xxd -i sub/inner.txt"),
    ("xxd-b", "xxd -b a.txt"),
    ("xxd-b-c4", "xxd -b -c 4 abc.txt"),
    ("xxd-e", "xxd -e lines.txt"),
    ("xxd-e-odd", "xxd -e odd.dat"),
    ("xxd-e-g8", "xxd -e -g 8 bin.dat | head -n 2"),
    ("xxd-r", "xxd -r hex.txt"),
    ("xxd-r-roundtrip", "xxd lines.txt | xxd -r"),
    ("xxd-r-p", "xxd -r -p plain.hex"),
    ("xxd-r-p-spaces", "printf '41 42\\n43:44 ZZ 45' | xxd -r -p"),
    ("xxd-r-p-stdin", "printf '68690a' | xxd -r -p"),
    ("xxd-r-outfile", "xxd -r hex.txt out.bin; cat out.bin"),
    ("xxd-outfile", "xxd abc.txt out.txt; cat out.txt"),
    ("xxd-p-outfile", "xxd -p a.txt out.hex; cat out.hex"),
    ("xxd-squeeze-zeros", "xxd zeros.dat"),
    ("xxd-ctrl", "xxd ctrl.dat"),
    ("xxd-missing", "xxd missing.txt"),
    ("xxd-bad-option", "xxd -Z a.txt"),
    ("xxd-rev-roundtrip-p", "xxd -p bin.dat | xxd -r -p | xxd -p -c 64"),
    ("xxd-c-attached", "xxd -c4 -g2 abc.txt"),
    ("xxd-i-empty", "xxd -i empty.txt"),
    ("xxd-r-seek", "printf '00000010: 4142\\n' | xxd -r | xxd"),
    # ---------------------------------------------------------------- hexdump
    ("hexdump-default", "hexdump a.txt"),
    ("hexdump-stdin", "printf 'hello' | hexdump"),
    ("hexdump-odd", "hexdump odd.dat"),
    ("hexdump-empty", "hexdump empty.txt"),
    ("hexdump-C", "hexdump -C a.txt"),
    ("hexdump-C-bin", "hexdump -C bin.dat"),
    ("hexdump-C-lines", "hexdump -C lines.txt"),
    ("hexdump-C-squeeze", "hexdump -C rep.dat"),
    ("hexdump-C-zeros", "hexdump -C zeros.dat"),
    ("hexdump-C-v", "hexdump -C -v zeros.dat"),
    ("hexdump-squeeze-default", "hexdump zeros.dat"),
    ("hexdump-c", "hexdump -c ctrl.dat"),
    ("hexdump-c-text", "hexdump -c lines.txt"),
    ("hexdump-x", "hexdump -x a.txt"),
    ("hexdump-x-odd", "hexdump -x odd.dat"),
    ("hexdump-d", "hexdump -d nums.dat"),
    ("hexdump-o", "hexdump -o a.txt"),
    ("hexdump-b", "hexdump -b a.txt"),
    ("hexdump-b-odd", "hexdump -b odd.dat"),
    ("hexdump-n", "hexdump -C -n 5 a.txt"),
    ("hexdump-s", "hexdump -C -s 6 a.txt"),
    ("hexdump-s-n", "hexdump -C -s 0x10 -n 20 bin.dat"),
    ("hexdump-two-files", "hexdump -C a.txt b.txt"),
    ("hexdump-missing", "hexdump missing.txt"),
    ("hexdump-missing-C", "hexdump -C missing.txt a.txt"),
    ("hexdump-bad-option", "hexdump -Z a.txt"),
    ("hexdump-Cb", "hexdump -C -b abc.txt"),
    ("hexdump-c-bin", "hexdump -c bin.dat | head -n 4"),
    ("hexdump-n-attached", "hexdump -n8 -x bin.dat"),
    ("hexdump-s-past", "hexdump -C -s 100 a.txt"),
    # ---------------------------------------------------------------- file
    ("file-text", "file a.txt"),
    ("file-empty", "file empty.txt"),
    ("file-noeol", "file noeol.txt"),
    ("file-utf8", "file utf8.txt"),
    ("file-latin1", "file latin1.txt"),
    ("file-long", "file long.txt"),
    ("file-crlf", "file crlf.txt"),
    ("file-json", "file data.json"),
    ("file-json-list", "file list.json"),
    ("file-csv", "file data.csv"),
    ("file-bash", "file script.sh"),
    ("file-sh", "file posix.sh"),
    ("file-env-python", "file env.py"),
    ("file-perl", "file script.pl"),
    ("file-python-module", "file mod.py"),
    ("file-html", "file page.html"),
    ("file-xml", "file doc.xml"),
    ("file-markdown", "file readme.md"),
    ("file-png", "file img.png"),
    ("file-jpeg", "file img.jpg"),
    ("file-gif", "file img.gif"),
    ("file-pdf", "file doc.pdf"),
    ("file-gzip", "file a.gz"),
    ("file-zip", "file a.zip"),
    ("file-tar", "file a.tar"),
    ("file-data", "file random.bin"),
    ("file-bin-all-bytes", "file bin.dat"),
    ("file-zeros", "file zeros.dat"),
    ("file-dir", "file sub"),
    ("file-missing", "file missing.txt"),
    ("file-many", "file a.txt empty.txt sub img.png"),
    ("file-brief", "file -b a.txt"),
    ("file-brief-many", "file -b script.sh doc.pdf"),
    ("file-mime", "file -i a.txt"),
    ("file-mime-long", "file --mime utf8.txt"),
    ("file-mime-type", "file --mime-type img.png"),
    ("file-mime-type-json", "file --mime-type data.json"),
    ("file-mime-empty", "file -i empty.txt"),
    ("file-mime-dir", "file -i sub"),
    ("file-mime-png", "file -i img.png"),
    ("file-mime-gzip", "file --mime-type a.gz a.zip a.tar doc.pdf"),
    ("file-mime-script", "file -i script.sh"),
    ("file-mime-html", "file --mime-type page.html doc.xml"),
    ("file-bi", "file -bi data.csv"),
    ("file-b-mime-type", "file -b --mime-type img.jpg"),
    ("file-L", "file -L a.txt"),
    ("file-stdin", "printf 'hello\\n' | file -"),
    ("file-stdin-gzip", "file - < a.gz"),
    ("file-abs-path", "file /w/lines.txt"),
    ("file-missing-brief", "file -b missing.txt"),
    ("file-no-args", "file"),
    ("file-bad-option", "file -Q a.txt"),
    ("file-mime-latin1", "file -i latin1.txt crlf.txt"),
    ("file-ctrl", "file ctrl.dat"),
    ("file-hex-text", "file hex.txt plain.hex"),
    ("file-mime-missing", "file -i missing.txt"),
    ("file-gzip-named", "file named.gz"),
    ("file-bz2-xz", "file a.bz2 a.xz"),
    ("file-env-bash", "file envbash.sh"),
    ("file-node", "file node.js"),
    ("file-crlf-script", "file crlf.sh"),
    ("file-utf8-python", "file utf8.py"),
    ("file-c-source", "file main.c"),
    ("file-js", "file app.js"),
    ("file-yaml", "file conf.yaml"),
    ("file-svg", "file pic.svg"),
    ("file-diff", "file change.diff"),
    ("file-bom", "file bom.txt"),
    ("file-utf16", "file utf16.txt"),
    ("file-cr", "file cr.txt"),
    ("file-escapes", "file esc.txt"),
    ("file-one-byte", "file one.txt"),
    ("file-json-number", "file num.json"),
    ("file-json-bad", "file bad.json"),
    ("file-elf", "file elf.bin"),
    ("file-makefile", "file Makefile"),
    ("file-html-short", "file page2.html"),
    ("file-tsv", "file tsv.txt"),
    ("file-mixed-endings", "file mixed.txt"),
    ("file-sqlite", "file sqlite.db"),
    ("file-no-shebang-sh", "file b.sh"),
    ("file-mime-many", "file --mime-type bom.txt utf16.txt main.c pic.svg a.bz2 a.xz sqlite.db elf.bin"),
    ("file-mime-encoding", "file --mime-encoding a.txt utf8.txt img.png"),
    ("file-mime-types-text", "file -i conf.yaml change.diff Makefile env.py node.js"),
]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()
    for path, data in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="dump-file-"))
    try:
        build_world(root)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, PREFIX + line]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    record = {"id": case_id, "command": case_id.split("-")[0], "line": line}
    try:
        record["stdout"] = done.stdout.decode("utf-8")
    except UnicodeDecodeError:
        record["stdout_b64"] = base64.b64encode(done.stdout).decode("ascii")
    record["exit_code"] = done.returncode
    record["stderr_nonempty"] = bool(done.stderr)
    record["stderr"] = done.stderr.decode("utf-8", "replace")  # for reading only, never compared
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the records of this command instead of writing the file")
    options = parser.parse_args(argv)
    if shutil.which("bwrap") is None:
        print("bwrap (bubblewrap) is required", file=sys.stderr)
        return 2
    ids = [case_id for case_id, _ in CASES]
    if len(ids) != len(set(ids)):
        print("duplicate case ids", file=sys.stderr)
        return 1
    if options.only:
        for case_id, line in CASES:
            if case_id.split("-")[0] == options.only:
                print(json.dumps(record_case(case_id, line), ensure_ascii=False))
        return 0
    records = [record_case(case_id, line) for case_id, line in CASES]
    world = {path: base64.b64encode(data).decode("ascii") for path, data in WORLD.items()}
    data = {"prefix": PREFIX, "world_b64": world, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
