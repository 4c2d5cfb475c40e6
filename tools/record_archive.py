"""Records tar, gzip, gunzip and zcat from the real GNU tools: tests/data/archive_corpus.json,
replayed by tests/test_cmd_archive.py.

A setup run (in the same sandbox) builds GNU-made archives from files with fixed times
(`touch -d`); they join the world as base64 (`world_b64`), so listings of them are
deterministic. A few damaged or hostile files (bad CRC, truncated, `../` members) are
derived here in Python from those bytes. Then every case runs `cd /w` and its line under
`bash -c`, in a fresh copy of the world inside a bubblewrap sandbox whose root IS a
temporary folder (only /usr comes from the host, read-only), with a clean C-locale
environment. Lines avoid what depends on the machine: compressed sizes (zlib versions
differ), creation times, directory order (they use --sort=name, sort, or --mtime).

    python tools/record_archive.py           # record and write the JSON
    python tools/record_archive.py --only tar   # print the cases of one command
"""
from __future__ import annotations

import argparse
import base64
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "archive_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 20
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

WORLD = {
    "/w/a.txt": "one\ntwo\nthree\n",
    "/w/b.txt": "alpha\n",
    "/w/plain.txt": "not gzip\n",
    "/w/empty.txt": "",
    "/w/d/x.txt": "x\n",
    "/w/d/sub/y.txt": "y\n",
    "/w/d/sub/z.log": "z\n",
}

# Run once in the sandbox; the files it leaves in /w/out join the world (base64).
SETUP = """
cd /w && mkdir -p g/sub out
printf 'hello\\n' > g/a.txt
printf 'inner\\n' > g/sub/b.txt
printf 'log line\\n' > g/sub/c.log
touch -d '2024-01-01 00:00:00' g/a.txt g/sub/b.txt g/sub/c.log g/sub g
tar --sort=name -cf out/gnu.tar g
tar --sort=name -czf out/gnu.tgz g
tar -P -cf out/abs.tar /w/g/a.txt
gzip -c g/a.txt > out/h.gz
gzip -n -c g/sub/b.txt > out/hn.gz
cat out/h.gz out/hn.gz > out/multi.gz
"""


def derived(files: dict[str, bytes]) -> dict[str, bytes]:
    """Damaged and hostile files made from the GNU-made ones."""
    h = files["/w/h.gz"]
    crc = bytearray(h)
    crc[-8] ^= 0xFF
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, data in (("../evil.txt", b"evil\n"), ("a/../../up.txt", b"up\n"), ("ok.txt", b"ok\n")):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 1704067200, 0o644
            archive.addfile(info, io.BytesIO(data))
    return {"/w/crc.gz": bytes(crc), "/w/trunc.gz": h[:-6], "/w/garbage.gz": h + b"junk\n",
            "/w/dotdot.tar": buffer.getvalue()}


# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- tar
    ("tar-tf-gnu", "tar tf gnu.tar"),
    ("tar-tvf-gnu", "tar tvf gnu.tar"),
    ("tar-tzvf-gnu", "tar tzvf gnu.tgz"),
    ("tar-tf-detects-gzip", "tar tf gnu.tgz"),
    ("tar-dash-options", "tar -t -v -f gnu.tar g/sub"),
    ("tar-long-options", "tar --list --file=gnu.tar --verbose"),
    ("tar-xf-then-cat", "tar xf gnu.tar && cat g/a.txt g/sub/b.txt && find g | sort"),
    ("tar-xzf-C", "mkdir out && tar xzf gnu.tgz -C out && find out | sort"),
    ("tar-xf-C-missing", "tar xf gnu.tar -C nodir; echo rc=$?"),
    ("tar-strip-components", "mkdir o && tar xf gnu.tar -C o --strip-components=1 && find o | sort"),
    ("tar-strip-components-2", "mkdir o && tar xf gnu.tar -C o --strip-components=2 && find o | sort"),
    ("tar-xOf-member", "tar xOf gnu.tar g/a.txt"),
    ("tar-xOf-all", "tar -xOf gnu.tgz"),
    ("tar-to-stdout-long", "tar --extract --to-stdout --file gnu.tar g/sub/b.txt"),
    ("tar-member-missing", "tar tf gnu.tar nope g/a.txt; echo rc=$?"),
    ("tar-member-dir", "tar tf gnu.tar g/sub"),
    ("tar-member-extract", "tar xf gnu.tar g/sub/b.txt && find g | sort"),
    ("tar-exclude-list", "tar tf gnu.tar --exclude='*.log'"),
    ("tar-exclude-dir", "tar tf gnu.tar --exclude=sub"),
    ("tar-exclude-extract", "tar xf gnu.tar --exclude='*.txt' && find g | sort"),
    ("tar-xvf", "tar xvf gnu.tar"),
    ("tar-create-sorted-list", "tar cf x.tar d && tar tf x.tar | sort"),
    ("tar-create-sort-name", "tar --sort=name -cf x.tar d && tar tf x.tar"),
    ("tar-create-mtime-tvf", "tar --sort=name --mtime='2024-01-01 00:00' -cf x.tar d a.txt && tar tvf x.tar"),
    ("tar-create-mtime-epoch", "tar --mtime=@86400 -cf x.tar b.txt && tar tvf x.tar"),
    ("tar-cvf", "tar --sort=name -cvf x.tar d"),
    ("tar-cvvf", "tar --sort=name -cvvf x.tar d | cut -c1-31"),
    ("tar-czf-roundtrip", "tar czf x.tgz d && rm -r d && tar xzf x.tgz && cat d/x.txt d/sub/y.txt d/sub/z.log"),
    ("tar-cf-stdout-pipe", "tar cf - a.txt b.txt | tar xOf -"),
    ("tar-cf-stdout-list", "tar --sort=name -cf - d | tar tf -"),
    ("tar-cvf-stdout", "tar -cvf - a.txt | tar tf -"),
    ("tar-auto-compress", "tar caf x.tar.gz a.txt d && gzip -t x.tar.gz && tar tf x.tar.gz | sort"),
    ("tar-tgz-suffix", "tar -czf x.tgz a.txt && zcat x.tgz | tar tf -"),
    ("tar-create-C", "tar -C d --sort=name -cf x.tar . && tar tf x.tar"),
    ("tar-create-C-member", "tar -C d -cf x.tar x.txt && tar tf x.tar && tar xOf x.tar"),
    ("tar-create-missing", "tar cf x.tar nope a.txt; echo rc=$?; tar tf x.tar"),
    ("tar-create-absolute", "tar cf x.tar /w/a.txt; echo rc=$?; tar tf x.tar"),
    ("tar-extract-absolute", "mkdir o && cd o && tar xf ../abs.tar; echo rc=$?; find . | sort"),
    ("tar-list-absolute", "tar tf abs.tar"),
    ("tar-extract-dotdot", "mkdir o && cd o && tar xf ../dotdot.tar; echo rc=$?; find . | sort; ls .."),
    ("tar-list-dotdot", "tar tf dotdot.tar"),
    ("tar-create-dotdot", "cd d && tar cf ../x.tar ../a.txt; echo rc=$?; tar tf ../x.tar"),
    ("tar-no-mode", "tar f x.tar; echo rc=$?"),
    ("tar-two-modes", "tar -c -t -f x.tar a.txt; echo rc=$?"),
    ("tar-empty-create", "tar cf x.tar; echo rc=$?"),
    ("tar-not-archive", "tar tf a.txt; echo rc=$?"),
    ("tar-no-archive", "tar tf nope.tar; echo rc=$?"),
    ("tar-z-on-plain", "tar tzf gnu.tar; echo rc=$?"),
    ("tar-bad-option", "tar -y; echo rc=$?"),
    ("tar-bad-long-option", "tar --nope -tf gnu.tar; echo rc=$?"),
    ("tar-keep-old-files", "tar xf gnu.tar && echo changed > g/a.txt && tar xkf gnu.tar; echo rc=$?; cat g/a.txt"),
    ("tar-overwrite", "tar xf gnu.tar && echo changed > g/a.txt && tar xf gnu.tar; cat g/a.txt"),
    ("tar-empty-file-archive", "tar tf empty.txt; echo rc=$?"),
    ("tar-roundtrip-stdin", "mkdir o && tar cf - d | (cd o && tar xf - && find . | sort)"),
    ("tar-long-name", "p=$(printf 'n%.0s' $(seq 1 60)); mkdir -p $p/$p && echo deep > $p/$p/f && "
                      "tar cf x.tar $p && rm -r $p && tar xf x.tar && cat $p/$p/f && tar tf x.tar | wc -l"),
    ("tar-directory-trailing-slash", "tar --sort=name -cf x.tar d/ && tar tf x.tar"),
    ("tar-no-recursion", "tar --no-recursion -cf x.tar d && tar tf x.tar"),
    ("tar-strip-list", "tar tf gnu.tar --strip-components=1"),
    # ---------------------------------------------------------------- gzip
    ("gzip-replace-and-back", "gzip a.txt && ls && gunzip a.txt.gz && cat a.txt && ls"),
    ("gzip-c-roundtrip", "gzip -c a.txt | gunzip -c"),
    ("gzip-stdin-roundtrip", "printf 'hi there\\n' | gzip | gzip -d"),
    ("gzip-keep", "gzip -k a.txt && ls && zcat a.txt.gz"),
    ("gzip-missing", "gzip nope; echo rc=$?"),
    ("gzip-exists", "gzip -k a.txt; gzip -k a.txt; echo rc=$?"),
    ("gzip-force", "gzip -k a.txt; gzip -fk a.txt; echo rc=$?; zcat a.txt.gz"),
    ("gzip-directory", "gzip d; echo rc=$?"),
    ("gzip-recursive", "gzip -r d && find d | sort && zcat d/sub/y.txt.gz"),
    ("gzip-list", "gzip -l h.gz"),
    ("gzip-list-two", "gzip -l h.gz hn.gz"),
    ("gzip-list-multi", "gzip -l multi.gz"),
    ("gzip-list-not-gzip", "gzip -l plain.txt; echo rc=$?"),
    ("gzip-test-ok", "gzip -t h.gz multi.gz; echo rc=$?"),
    ("gzip-test-crc", "gzip -t crc.gz; echo rc=$?"),
    ("gzip-test-verbose", "gzip -tv h.gz; echo rc=$?"),
    ("gzip-dc", "gzip -dc h.gz hn.gz"),
    ("gzip-suffix", "gzip -S .zz a.txt && ls && gzip -d -S .zz a.txt.zz && cat a.txt"),
    ("gzip-levels", "for l in 1 5 9; do seq 1 300 | gzip -$l | gzip -d | md5sum; done"),
    ("gzip-no-name", "gzip -n -c a.txt | gzip -d"),
    ("gzip-already-suffix", "gzip h.gz; echo rc=$?; ls"),
    ("gzip-force-suffix", "gzip -f h.gz; echo rc=$?; ls"),
    ("gzip-bad-option", "gzip -b a.txt; echo rc=$?"),
    ("gzip-d-unknown-suffix", "gzip -d plain.txt; echo rc=$?"),
    ("gzip-verbose", "gzip -v a.txt; echo rc=$?; ls"),
    ("gzip-quiet-test", "gzip -q -t plain.txt; echo rc=$?"),
    ("gzip-redirect", "echo hi | gzip > s.gz && gzip -dc s.gz"),
    ("gzip-multi-c", "gzip -c a.txt b.txt | gunzip"),
    ("gzip-empty", "gzip -c empty.txt | gzip -d | wc -c"),
    ("gzip-long-options", "gzip --stdout --best a.txt | gzip --decompress --stdout"),
    ("gzip-dash-stdin", "cat a.txt | gzip -c - | zcat"),
    # ---------------------------------------------------------------- gunzip
    ("gunzip-file", "gunzip h.gz && ls && cat h"),
    ("gunzip-name", "rm a.txt && gunzip -N h.gz && ls && cat a.txt"),
    ("gunzip-name-exists", "gunzip -N h.gz; echo rc=$?; ls"),
    ("gunzip-multi-c", "gunzip -c multi.gz"),
    ("gunzip-garbage", "gunzip garbage.gz; echo rc=$?; ls; cat garbage"),
    ("gunzip-crc", "gunzip crc.gz; echo rc=$?; ls"),
    ("gunzip-truncated", "gunzip trunc.gz; echo rc=$?; ls"),
    ("gunzip-missing-gz", "gunzip nope.gz; echo rc=$?"),
    ("gunzip-missing", "gunzip nope; echo rc=$?"),
    ("gunzip-unknown-suffix", "gunzip plain.txt; echo rc=$?"),
    ("gunzip-keep", "gunzip -k h.gz && ls"),
    ("gunzip-tgz", "cp gnu.tgz x.tgz && gunzip x.tgz && ls && tar tf x.tar"),
    ("gunzip-stdin", "gunzip < h.gz"),
    ("gunzip-test", "gunzip -t h.gz multi.gz; echo rc=$?"),
    ("gunzip-exists", "gzip -c a.txt > a.txt.gz; gunzip a.txt.gz; echo rc=$?"),
    ("gunzip-force", "gzip -c b.txt > a.txt.gz; gunzip -f a.txt.gz; echo rc=$?; cat a.txt"),
    ("gunzip-list-tgz", "gunzip -l gnu.tgz"),
    ("gunzip-adds-suffix", "gunzip h; echo rc=$?; ls"),
    ("gunzip-recursive", "gzip -r d && gunzip -r d && find d | sort"),
    ("gunzip-not-gzip-c", "gunzip -c plain.txt; echo rc=$?"),
    ("gunzip-empty-c", "gunzip -c empty.txt; echo rc=$?"),
    ("gunzip-force-cat", "gunzip -fc plain.txt; echo rc=$?"),
    # ---------------------------------------------------------------- zcat
    ("zcat-file", "zcat h.gz"),
    ("zcat-files", "zcat hn.gz multi.gz"),
    ("zcat-stdin", "zcat < h.gz"),
    ("zcat-adds-suffix", "zcat h; echo rc=$?"),
    ("zcat-not-gzip", "zcat plain.txt; echo rc=$?"),
    ("zcat-force", "zcat -f plain.txt; echo rc=$?"),
    ("zcat-garbage", "zcat garbage.gz; echo rc=$?"),
    ("zcat-crc", "zcat crc.gz; echo rc=$?"),
    ("zcat-missing", "zcat nope; echo rc=$?"),
    ("zcat-pipe", "gzip -c a.txt | zcat"),
    ("zcat-tar", "zcat gnu.tgz | tar tf -"),
    ("zcat-concatenated", "gzip -c a.txt > m.gz; gzip -c b.txt >> m.gz; zcat m.gz h.gz"),
    ("zcat-truncated", "zcat trunc.gz; echo rc=$?"),
    ("zcat-quiet-garbage", "zcat -q garbage.gz; echo rc=$?"),
    ("zcat-empty-file", "zcat empty.txt; echo rc=$?"),
    ("zcat-empty-pipe", "printf '' | zcat; echo rc=$?"),
    ("zcat-keeps-files", "zcat h.gz > /dev/null && ls"),
    ("zcat-list", "zcat -l h.gz"),
    ("zcat-dash", "zcat - < hn.gz"),
]


def _run(root: Path, script: str) -> subprocess.CompletedProcess:
    argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, script]
    return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)


def build_world(root: Path, binary: dict[str, bytes]) -> None:
    (root / "tmp").mkdir(exist_ok=True)
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    for path, data in binary.items():
        (root / path.lstrip("/")).write_bytes(data)


def make_binary_world() -> dict[str, bytes]:
    root = Path(tempfile.mkdtemp(prefix="archive-setup-"))
    try:
        (root / "tmp").mkdir()
        (root / "w").mkdir()
        done = _run(root, SETUP)
        if done.returncode != 0:
            raise SystemExit(f"setup failed: {done.stderr.decode()}")
        files = {f"/w/{path.name}": path.read_bytes() for path in sorted((root / "w" / "out").iterdir())}
    finally:
        shutil.rmtree(root, ignore_errors=True)
    files.update(derived(files))
    return files


def record_case(case_id: str, line: str, binary: dict[str, bytes]) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="archive-"))
    try:
        build_world(root, binary)
        done = _run(root, PREFIX + line)
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
    binary = make_binary_world()
    if options.only:
        for case_id, line in CASES:
            if case_id.split("-")[0] == options.only:
                print(json.dumps(record_case(case_id, line, binary), ensure_ascii=False))
        return 0
    records = [record_case(case_id, line, binary) for case_id, line in CASES]
    world_b64 = {path: base64.b64encode(data).decode("ascii") for path, data in binary.items()}
    data = {"prefix": PREFIX, "world": WORLD, "world_b64": world_b64, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
