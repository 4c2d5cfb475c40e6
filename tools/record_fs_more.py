"""Records rmdir, unlink and truncate from the real GNU coreutils (9.1):
tests/data/fs_more_corpus.json, replayed by tests/test_cmd_fs_more.py (exact stdout, stderr
and exit status).

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_line_tools.py).
Sizes are checked after the fact with `wc -c`, `stat -c %s` and `od -c`; what is left
with `ls`. `truncate -o` counts blocks of the file's st_blksize: 4096 on ext4, where this
records (the replay uses 4096).

    python tools/record_fs_more.py                # record and write the JSON
    python tools/record_fs_more.py --only rmdir   # print the cases of one command
"""
from __future__ import annotations

import argparse
import base64
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "fs_more_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

# A path ending in "/" is an empty directory.
WORLD: dict[str, str] = {
    "/w/a.txt": "hello\n",
    "/w/log.txt": "line1\nline2\nline3\n",
    "/w/ref.txt": "1234567",
    "/w/empty.txt": "",
    "/w/sub/inner.txt": "inner\n",
    "/w/full/keep.txt": "k\n",
    "/w/empty_dir/": "",
    "/w/e1/": "",
    "/w/e2/": "",
    "/w/a/b/c/": "",
    "/w/p/q/": "",
    "/w/p/other.txt": "o\n",
    "/w/tree/x/": "",
    "/w/tree/y/z/": "",
    "/w/tree/f.txt": "f\n",
    "/w/sp ace/": "",
    "/w/it's/": "",
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- rmdir
    ("rmdir-empty", "rmdir empty_dir; ls"),
    ("rmdir-empty-and", "rmdir empty_dir && echo gone"),
    ("rmdir-nonempty", "rmdir full"),
    ("rmdir-nonempty-kept", "rmdir full; ls full"),
    ("rmdir-missing", "rmdir nope"),
    ("rmdir-file", "rmdir a.txt"),
    ("rmdir-no-operand", "rmdir"),
    ("rmdir-p", "rmdir -p a/b/c; ls"),
    ("rmdir-p-stops-at-nonempty", "rmdir -p p/q"),
    ("rmdir-p-stops-at-nonempty-left", "rmdir -p p/q; ls p"),
    ("rmdir-p-ignore", "rmdir -p --ignore-fail-on-non-empty p/q; echo rc=$?; ls p"),
    ("rmdir-ignore-nonempty", "rmdir --ignore-fail-on-non-empty full; echo rc=$?; ls full"),
    ("rmdir-ignore-missing", "rmdir --ignore-fail-on-non-empty nope"),
    ("rmdir-v", "rmdir -v empty_dir"),
    ("rmdir-pv", "rmdir -pv a/b/c"),
    ("rmdir-pv-stops", "rmdir -pv p/q"),
    ("rmdir-v-error", "rmdir -v nope"),
    ("rmdir-two", "rmdir e1 e2; ls"),
    ("rmdir-one-of-three-fails", "rmdir e1 full e2; echo rc=$?; ls"),
    ("rmdir-glob", "rmdir e?; ls"),
    ("rmdir-trailing-slash", "rmdir empty_dir/; ls"),
    ("rmdir-dot", "rmdir ."),
    ("rmdir-dotdot", "cd empty_dir && rmdir .."),
    ("rmdir-dir-dot", "rmdir empty_dir/."),
    ("rmdir-dir-dotdot", "rmdir sub/.."),
    ("rmdir-file-trailing-slash", "rmdir a.txt/"),
    ("rmdir-missing-parent", "rmdir nope/x"),
    ("rmdir-file-parent", "rmdir a.txt/x"),
    ("rmdir-missing-dotdot", "rmdir nope/../empty_dir"),
    ("rmdir-dotdot-path", "rmdir sub/../empty_dir; ls"),
    ("rmdir-root", "rmdir /"),
    ("rmdir-root-ignore", "rmdir --ignore-fail-on-non-empty /; echo rc=$?"),
    ("rmdir-empty-string", "rmdir ''"),
    ("rmdir-p-dot-prefix", "rmdir -p ./a/b/c; echo rc=$?; ls"),
    ("rmdir-p-trailing-slash", "rmdir -p a/b/c/; ls"),
    ("rmdir-p-double-slashes", "rmdir -pv a//b//c; ls"),
    ("rmdir-p-absolute", "rmdir -p /w/a/b/c; echo rc=$?; ls"),
    ("rmdir-p-dotdot-inside", "rmdir -p a/b/../b/c"),
    ("rmdir-p-missing", "rmdir -p nope/x"),
    ("rmdir-p-file", "rmdir -p full/keep.txt"),
    ("rmdir-p-only-leaf-missing", "rmdir -p a/b/c/d"),
    ("rmdir-long-options", "rmdir --parents --verbose a/b/c"),
    ("rmdir-path-option", "rmdir --path a/b/c; ls"),
    ("rmdir-abbreviated-option", "rmdir --ign full; echo rc=$?"),
    ("rmdir-ambiguous-option", "rmdir --v empty_dir"),
    ("rmdir-bad-option", "rmdir -x empty_dir"),
    ("rmdir-bad-long-option", "rmdir --bogus empty_dir"),
    ("rmdir-option-with-value", "rmdir --verbose=1 empty_dir"),
    ("rmdir-dashdash", "mkdir -- -d; rmdir -- -d; ls"),
    ("rmdir-space-name", "rmdir 'sp ace'; ls"),
    ("rmdir-space-name-error", "rmdir 'no pe'"),
    ("rmdir-quote-name", "rmdir \"it's\" && ls"),
    ("rmdir-quote-name-error", "rmdir \"no'pe\""),
    ("rmdir-quote-name-verbose", "rmdir -v \"it's\""),
    ("rmdir-name-newline", "rmdir $'a\\nb'"),
    ("rmdir-name-leading-tab", "rmdir $'\\tx'"),
    ("rmdir-name-trailing-escape", "rmdir $'x\\001'"),
    ("rmdir-name-utf8", "rmdir café"),
    ("rmdir-name-quote-and-dollar", "rmdir \"a'b\\$c\""),
    ("rmdir-name-double-quote", "rmdir 'x\"y'"),
    ("rmdir-name-quote-and-newline", "rmdir $'it\\'s\\n'"),
    ("rmdir-name-hash-first", "rmdir \"#a'b\""),
    ("rmdir-name-hash-later", "rmdir \"a#'b\""),
    ("rmdir-name-question", "rmdir \"a?'b\""),
    ("rmdir-name-at", "rmdir \"x@'y\""),
    ("rmdir-name-quote-then-tab", "rmdir $'\\'\\ty'"),
    ("rmdir-name-tab-quote-newline", "rmdir $'\\t\\'\\n'"),
    ("rmdir-find-empty", "find . -type d -empty -exec rmdir {} +; find . -type d | sort"),
    ("rmdir-find-depth", "find tree -depth -type d -empty -exec rmdir {} \\;; find tree | sort"),
    ("rmdir-after-rm", "rm full/keep.txt && rmdir full; ls"),
    ("rmdir-mkdir-roundtrip", "mkdir -p x/y/z && rmdir -p x/y/z; ls"),
    ("rmdir-options-after-operand", "rmdir a/b/c -p; ls"),
    ("rmdir-verbose-two", "rmdir -v e1 nope e2; echo rc=$?"),
    # ---------------------------------------------------------------- unlink
    ("unlink-file", "unlink a.txt; ls"),
    ("unlink-file-and", "unlink a.txt && echo removed"),
    ("unlink-missing", "unlink nope"),
    ("unlink-dir", "unlink empty_dir"),
    ("unlink-no-operand", "unlink"),
    ("unlink-extra-operand", "unlink a.txt log.txt; echo rc=$?; ls"),
    ("unlink-extra-operand-quote", "unlink a.txt \"b'c\""),
    ("unlink-extra-operand-control", "unlink a.txt $'b\\nc\\\\d\\001'"),
    ("unlink-file-trailing-slash", "unlink a.txt/"),
    ("unlink-dir-trailing-slash", "unlink empty_dir/"),
    ("unlink-missing-trailing-slash", "unlink nope/"),
    ("unlink-missing-parent", "unlink nope/x"),
    ("unlink-file-parent", "unlink a.txt/x"),
    ("unlink-dot", "unlink ."),
    ("unlink-dotdot", "unlink .."),
    ("unlink-root", "unlink /"),
    ("unlink-empty-string", "unlink ''"),
    ("unlink-option", "unlink -f a.txt"),
    ("unlink-long-option", "unlink --force a.txt"),
    ("unlink-dashdash", "touch ./-x; unlink -- -x; ls"),
    ("unlink-empty-file", "unlink empty.txt && ls"),
    ("unlink-nested", "unlink sub/inner.txt; ls sub"),
    ("unlink-twice", "unlink a.txt; unlink a.txt"),
    ("unlink-quote-name", "unlink \"it's\""),
    ("unlink-nonempty-dir", "unlink full"),
    ("unlink-dotdot-path", "unlink sub/../a.txt; ls"),
    # ---------------------------------------------------------------- truncate
    ("truncate-zero", "truncate -s 0 log.txt; wc -c log.txt"),
    ("truncate-1K-new", "truncate -s 1K f && wc -c f"),
    ("truncate-grow-zero-fill", "truncate -s 10 a.txt; od -c a.txt"),
    ("truncate-shrink", "truncate -s 3 log.txt; cat log.txt; echo"),
    ("truncate-plus", "truncate -s +5 a.txt; od -c a.txt"),
    ("truncate-minus", "truncate -s -2 a.txt; od -c a.txt"),
    ("truncate-minus-below-zero", "truncate -s -100 a.txt; wc -c a.txt"),
    ("truncate-at-most", "truncate -s '<3' log.txt; wc -c log.txt"),
    ("truncate-at-most-noop", "truncate -s '<100' log.txt; wc -c log.txt"),
    ("truncate-at-least", "truncate -s '>100' log.txt; wc -c log.txt"),
    ("truncate-at-least-noop", "truncate -s '>3' log.txt; cat log.txt"),
    ("truncate-round-down", "truncate -s /4 log.txt; wc -c log.txt"),
    ("truncate-round-up", "truncate -s %4 log.txt; wc -c log.txt"),
    ("truncate-round-up-exact", "truncate -s %6 log.txt; wc -c log.txt"),
    ("truncate-round-up-empty", "truncate -s %4 empty.txt; wc -c empty.txt"),
    ("truncate-round-down-zero", "truncate -s /0 log.txt"),
    ("truncate-round-up-zero", "truncate -s %0 log.txt"),
    ("truncate-no-size", "truncate log.txt"),
    ("truncate-no-size-no-file", "truncate"),
    ("truncate-missing-operand", "truncate -s 0"),
    ("truncate-invalid", "truncate -s abc f"),
    ("truncate-invalid-suffix", "truncate -s 1X f"),
    ("truncate-invalid-b", "truncate -s 1b f"),
    ("truncate-invalid-decimal", "truncate -s 1.5K f"),
    ("truncate-invalid-junk-after-suffix", "truncate -s 1KBx f"),
    ("truncate-invalid-empty", "truncate -s '' f"),
    ("truncate-invalid-sign-only", "truncate -s + f"),
    ("truncate-invalid-quote", "truncate -s \"1'x\" f"),
    ("truncate-invalid-after-modifier", "truncate -s '>abc' f"),
    ("truncate-KB", "truncate -s 1KB f; wc -c f"),
    ("truncate-KiB", "truncate -s 2KiB f; wc -c f"),
    ("truncate-KD", "truncate -s 1KD f; wc -c f"),
    ("truncate-M", "truncate -s 1M f; wc -c f"),
    ("truncate-MB", "truncate -s 1MB f; stat -c %s f"),
    ("truncate-MiB", "truncate -s 1MiB f; stat -c %s f"),
    ("truncate-k-lower", "truncate -s 3k f; wc -c f"),
    ("truncate-K-alone", "truncate -s K f; wc -c f"),
    ("truncate-overflow", "truncate -s 9E f"),
    ("truncate-overflow-digits", "truncate -s 99999999999999999999 f"),
    ("truncate-overflow-suffix", "truncate -s 99999999999E f"),
    ("truncate-overflow-invalid", "truncate -s 99999999999999999999x f"),
    ("truncate-c-missing", "truncate -c -s 5 nope; echo rc=$?; ls"),
    ("truncate-c-existing", "truncate -c -s 2 a.txt; cat a.txt; echo"),
    ("truncate-creates", "truncate -s 3 new.txt; od -c new.txt"),
    ("truncate-creates-empty", "truncate -s 0 new.txt; ls; wc -c new.txt"),
    ("truncate-dir", "truncate -s 0 empty_dir"),
    ("truncate-dot", "truncate -s 0 ."),
    ("truncate-missing-parent", "truncate -s 0 nope/f"),
    ("truncate-c-missing-parent", "truncate -c -s 0 nope/f; echo rc=$?"),
    ("truncate-file-parent", "truncate -s 0 a.txt/f"),
    ("truncate-trailing-slash-new", "truncate -s 0 nope/"),
    ("truncate-c-trailing-slash-new", "truncate -c -s 0 nope/; echo rc=$?"),
    ("truncate-trailing-slash-file", "truncate -s 0 a.txt/"),
    ("truncate-quote-name", "truncate -s 0 \"it's\""),
    ("truncate-three-files", "truncate -s 2 a.txt log.txt new.txt; wc -c a.txt log.txt new.txt"),
    ("truncate-partial-failure", "truncate -s 1 a.txt empty_dir log.txt; echo rc=$?; wc -c a.txt log.txt"),
    ("truncate-reference", "truncate -r ref.txt a.txt; wc -c a.txt"),
    ("truncate-reference-long", "truncate --reference=ref.txt new.txt; wc -c new.txt"),
    ("truncate-reference-relative", "truncate -r ref.txt -s +3 a.txt; wc -c a.txt"),
    ("truncate-reference-round-up", "truncate -r ref.txt -s %4 a.txt; wc -c a.txt"),
    ("truncate-reference-absolute", "truncate -r ref.txt -s 3 a.txt"),
    ("truncate-reference-missing", "truncate -r nope a.txt"),
    ("truncate-reference-missing-parent", "truncate -r nope/x a.txt"),
    ("truncate-c-reference-missing-file", "truncate -c -r ref.txt nope; ls"),
    ("truncate-io-blocks", "truncate -o -s 1 f; wc -c f"),
    ("truncate-io-blocks-relative", "truncate -o -s +1 a.txt; wc -c a.txt"),
    ("truncate-io-blocks-no-size", "truncate -o -r ref.txt f"),
    ("truncate-multiple-modifiers", "truncate -s '<+3' f"),
    ("truncate-size-twice-keeps-relative", "truncate -s +5 -s 3 a.txt; wc -c a.txt"),
    ("truncate-size-twice-relative", "truncate -s +5 -s +3 a.txt"),
    ("truncate-long-options", "truncate --size=4 --no-create a.txt; cat a.txt; echo"),
    ("truncate-bad-option", "truncate -x -s 1 f"),
    ("truncate-size-needs-argument", "truncate -s"),
    ("truncate-negative-new", "truncate -s -1K f; wc -c f"),
    ("truncate-space-before", "truncate -s ' 5' f; wc -c f"),
    ("truncate-space-after-modifier", "truncate -s '> 5' f; wc -c f"),
    ("truncate-grow-keeps-content", "truncate -s +3 log.txt; od -c log.txt"),
    ("truncate-then-append", "truncate -s 0 log.txt && echo new >> log.txt; cat log.txt"),
    ("truncate-attached-size", "truncate -s5 a.txt; wc -c a.txt"),
    ("truncate-options-after-files", "truncate a.txt -s 1; cat a.txt; echo"),
]


def build_world(root: Path) -> None:
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        if path.endswith("/"):
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="fs-more-"))
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
    record["stderr"] = done.stderr.decode("utf-8", "replace")
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the records of this command instead of writing the file")
    options = parser.parse_args(argv)
    if shutil.which("bwrap") is None:
        print("bwrap (bubblewrap) is required", file=sys.stderr)
        return 2
    ids = [case_id for case_id, _ in CASES]
    if len(ids) != len(set(ids)) or any(case_id.split("-")[0] not in ("rmdir", "unlink", "truncate")
                                        for case_id in ids):
        print("duplicate or misnamed case ids", file=sys.stderr)
        return 1
    if options.only:
        for case_id, line in CASES:
            if case_id.split("-")[0] == options.only:
                print(json.dumps(record_case(case_id, line), ensure_ascii=False))
        return 0
    records = [record_case(case_id, line) for case_id, line in CASES]
    data = {"prefix": PREFIX, "world": WORLD, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
