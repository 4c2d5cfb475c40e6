"""Records diff (GNU diffutils 3.8), mkdir cp mv rm touch (GNU coreutils) and tree (2.1,
LC_ALL=C: ASCII connectors) from the real programs: tests/data/diff_fs_corpus.json, replayed
by tests/test_cmd_diff_flags.py, tests/test_cmd_fs_mutate_gnu.py and tests/test_cmd_tree_gnu.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (TZ unset: UTC).

    python tools/record_diff_fs.py              # record and write the JSON
    python tools/record_diff_fs.py --only tree  # print the cases of one command
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "diff_fs_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

TEN = "".join(f"{word}\n" for word in "one two three four five six seven eight nine ten".split())

# None makes an empty directory.
WORLD: dict[str, str | None] = {
    "/w/a.txt": "one\ntwo\nthree\n",
    "/w/b.txt": "one\nTWO\nthree\nfour\n",
    "/w/same.txt": "one\ntwo\nthree\n",
    "/w/ten.txt": TEN,
    "/w/ten2.txt": TEN.replace("two", "TWO").replace("nine", "NINE") + "eleven\n",
    "/w/noeol.txt": "one\ntwo\nthree",
    "/w/space1.txt": "a b\nc  d\ne\t f \n",
    "/w/space2.txt": "a  b\nc d\ne f\n",
    "/w/nospace.txt": "ab\ncd\nef\n",
    "/w/case1.txt": "Hello\nWorld\n",
    "/w/case2.txt": "hello\nWORLD\n",
    "/w/blank1.txt": "a\nb\nc\n",
    "/w/blank2.txt": "a\n\nb\n\nc\n",
    "/w/tab1.txt": "x\ty\n\tz\n",
    "/w/tab2.txt": "x       y\n        z\n",
    "/w/trail1.txt": "a  \nb\t\nc\n",
    "/w/trail2.txt": "a\nb\nc\n",
    "/w/crlf.txt": "one\r\ntwo\r\nthree\r\n",
    "/w/cmt1.txt": "# v1\ncode\n# note\nmore\n",
    "/w/cmt2.txt": "# v2\ncode\n# other\nmore\n",
    "/w/long1.txt": "short\nthis line is rather long and will be cut in the side by side view for sure ok\nend\n",
    "/w/long2.txt": "short\nthis line is rather long but different and will be cut in side by side view\nend\nextra\n",
    "/w/bin1.dat": "\x00abc\n",
    "/w/bin2.dat": "\x00abd\n",
    "/w/empty.txt": "",
    "/w/L/f": "1\n",
    "/w/L/same": "s\n",
    "/w/L/only": "o\n",
    "/w/L/sub/a": "x\ny\n",
    "/w/L/skip.log": "l1\n",
    "/w/L/d2": "q\n",
    "/w/R/f": "2\n",
    "/w/R/same": "s\n",
    "/w/R/sub/a": "x\nz\n",
    "/w/R/sub/new.txt": "n\n",
    "/w/R/skip.log": "l2\n",
    "/w/R/d2": None,
    "/w/src/one.txt": "1\n",
    "/w/src/two.txt": "2\n",
    "/w/src/deep/three.txt": "3\n",
    "/w/dst": None,
    "/w/full/x.txt": "x\n",
    "/w/t/b.txt": "b\n",
    "/w/t/a.txt": "a\n",
    "/w/t/.hidden": "h\n",
    "/w/t/Zed": "z\n",
    "/w/t/sub/inner.txt": "i\n",
    "/w/t/sub/deeper/leaf.md": "l\n",
    "/w/t/sub/deeper/x.log": "x\n",
    "/w/t/alpha/one.log": "1\n",
    "/w/t/alpha/two.txt": "2\n",
    "/w/t/emptydir": None,
    "/w/t/_under.txt": "u\n",
    "/w/t/10.txt": "10\n",
    "/w/t/9.txt": "9\n",
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- diff
    ("diff-normal", "diff a.txt b.txt"),
    ("diff-normal-status", "diff a.txt b.txt; echo rc=$?"),
    ("diff-identical", "diff a.txt same.txt; echo rc=$?"),
    ("diff-normal-flag", "diff --normal ten.txt ten2.txt"),
    ("diff-q", "diff -q a.txt b.txt; echo rc=$?"),
    ("diff-brief-long", "diff --brief a.txt b.txt"),
    ("diff-q-same", "diff -q a.txt same.txt; echo rc=$?"),
    ("diff-s-same", "diff -s a.txt same.txt; echo rc=$?"),
    ("diff-s-differ", "diff -s a.txt b.txt"),
    ("diff-report-identical-long", "diff --report-identical-files a.txt same.txt"),
    ("diff-qs-same", "diff -qs a.txt same.txt"),
    ("diff-N-missing-right", "diff -N a.txt missing.txt; echo rc=$?"),
    ("diff-N-missing-left", "diff --new-file missing.txt a.txt"),
    ("diff-N-unified-label", "diff -N -u -L old -L new missing.txt a.txt"),
    ("diff-missing", "diff a.txt missing.txt; echo rc=$?"),
    ("diff-missing-both", "diff nope1 nope2; echo rc=$?"),
    ("diff-B", "diff -B blank1.txt blank2.txt; echo rc=$?"),
    ("diff-B-without", "diff blank1.txt blank2.txt"),
    ("diff-B-mixed", "diff -B a.txt blank2.txt"),
    ("diff-B-unified", "diff -B -u -L x -L y blank1.txt blank2.txt; echo rc=$?"),
    ("diff-w", "diff -w space1.txt space2.txt; echo rc=$?"),
    ("diff-w-nospace", "diff -w space1.txt nospace.txt; echo rc=$?"),
    ("diff-b", "diff -b space1.txt space2.txt; echo rc=$?"),
    ("diff-b-nospace", "diff -b space1.txt nospace.txt"),
    ("diff-plain-space", "diff space1.txt space2.txt"),
    ("diff-E", "diff -E tab1.txt tab2.txt; echo rc=$?"),
    ("diff-E-without", "diff tab1.txt tab2.txt"),
    ("diff-Z", "diff -Z trail1.txt trail2.txt; echo rc=$?"),
    ("diff-Z-without", "diff trail1.txt trail2.txt"),
    ("diff-I", "diff -I '^#' cmt1.txt cmt2.txt; echo rc=$?"),
    ("diff-I-partial", "diff -I 'v[12]' cmt1.txt cmt2.txt; echo rc=$?"),
    ("diff-I-long", "diff --ignore-matching-lines=other cmt1.txt cmt2.txt"),
    ("diff-i", "diff -i case1.txt case2.txt; echo rc=$?"),
    ("diff-i-partial", "diff -i case1.txt a.txt"),
    ("diff-L-unified", "diff -u -L left -L right a.txt b.txt"),
    ("diff-label-context", "diff -c --label=L1 --label=L2 a.txt b.txt"),
    ("diff-L-one", "diff -u -L only a.txt b.txt | grep -v '^+++'"),
    ("diff-L-three", "diff -L a -L b -L c a.txt b.txt; echo rc=$?"),
    ("diff-U1", "diff -U1 -L a -L b ten.txt ten2.txt"),
    ("diff-C1", "diff -C 1 -L a -L b ten.txt ten2.txt"),
    ("diff-u0", "diff -U0 -L a -L b ten.txt ten2.txt"),
    ("diff-y", "diff -y a.txt b.txt; echo rc=$?"),
    ("diff-y-W40", "diff -y -W 40 ten.txt ten2.txt"),
    ("diff-y-W30-long", "diff --side-by-side --width=30 long1.txt long2.txt"),
    ("diff-y-suppress", "diff -y --suppress-common-lines -W 40 ten.txt ten2.txt"),
    ("diff-y-left-column", "diff -y --left-column -W 40 ten.txt ten2.txt"),
    ("diff-y-t", "diff -y -t -W 40 tab1.txt a.txt"),
    ("diff-y-tabs", "diff -y -W 40 tab1.txt a.txt"),
    ("diff-y-noeol", "diff -y -W 40 a.txt noeol.txt"),
    ("diff-y-same", "diff -y -W 30 a.txt same.txt"),
    ("diff-y-empty", "diff -y -W 30 empty.txt a.txt"),
    ("diff-y-default-long", "diff -y long1.txt long2.txt"),
    ("diff-t", "diff -t tab1.txt a.txt"),
    ("diff-e", "diff -e ten.txt ten2.txt"),
    ("diff-ed-long", "diff --ed a.txt b.txt"),
    ("diff-r", "diff -r L R; echo rc=$?"),
    ("diff-no-r", "diff L R; echo rc=$?"),
    ("diff-r-q", "diff -rq L R"),
    ("diff-r-x", "diff -r -x '*.log' L R"),
    ("diff-r-exclude-long", "diff -r --exclude=sub --exclude=only L R"),
    ("diff-r-N", "diff -rN L R"),
    ("diff-r-s", "diff -rs L R"),
    ("diff-r-u", "diff -ru L/sub R/sub | grep -v '^[-+][-+][-+]'"),
    ("diff-r-slash", "diff -r L/ R/"),
    ("diff-file-dir", "diff a.txt src; echo rc=$?"),
    ("diff-dir-file", "diff L/f R; echo rc=$?"),
    ("diff-color-never", "diff --color=never a.txt b.txt"),
    ("diff-color-auto", "diff --color=auto a.txt b.txt"),
    ("diff-color-bad", "diff --color=sometimes a.txt b.txt; echo rc=$?"),
    ("diff-strip-cr", "diff --strip-trailing-cr crlf.txt a.txt; echo rc=$?"),
    ("diff-crlf-without", "diff crlf.txt a.txt | od -c | head -n 3"),
    ("diff-binary", "diff bin1.dat bin2.dat; echo rc=$?"),
    ("diff-binary-q", "diff -q bin1.dat bin2.dat; echo rc=$?"),
    ("diff-text-binary", "diff -a bin1.dat bin2.dat | od -c | head -n 4"),
    ("diff-noeol", "diff a.txt noeol.txt"),
    ("diff-stdin", "printf 'one\\nzwei\\n' | diff - a.txt"),
    ("diff-stdin-both", "diff - - < a.txt; echo rc=$?"),
    ("diff-stdin-dir", "diff - L < a.txt; echo rc=$?"),
    ("diff-bad-option", "diff -k a.txt b.txt; echo rc=$?"),
    ("diff-bad-long", "diff --nope a.txt b.txt; echo rc=$?"),
    ("diff-missing-operand", "diff a.txt; echo rc=$?"),
    ("diff-no-operand", "diff; echo rc=$?"),
    ("diff-extra-operand", "diff a.txt b.txt same.txt; echo rc=$?"),
    ("diff-conflict", "diff -u -c a.txt b.txt; echo rc=$?"),
    ("diff-conflict-y", "diff -y -e a.txt b.txt; echo rc=$?"),
    ("diff-bad-width", "diff -y -W x a.txt b.txt; echo rc=$?"),
    ("diff-bad-context", "diff -U x a.txt b.txt; echo rc=$?"),
    ("diff-same-file", "diff a.txt ./a.txt; echo rc=$?"),
    ("diff-same-file-s", "diff -s a.txt a.txt"),
    ("diff-empty-vs", "diff empty.txt a.txt"),
    ("diff-wi", "diff -wi case1.txt case2.txt; echo rc=$?"),
    ("diff-dashdash", "diff -- a.txt b.txt"),
    ("diff-options-after", "diff a.txt b.txt -q"),
    ("diff-q-I", "diff -q -I '^#' cmt1.txt cmt2.txt; echo rc=$?"),
    # ---------------------------------------------------------------- mkdir
    ("mkdir-basic", "mkdir newdir && ls -d newdir"),
    ("mkdir-silent", "mkdir n2; echo rc=$?"),
    ("mkdir-exists", "mkdir src; echo rc=$?"),
    ("mkdir-p-exists", "mkdir -p src; echo rc=$?"),
    ("mkdir-missing-parent", "mkdir x/y/z; echo rc=$?"),
    ("mkdir-p-deep", "mkdir -p x/y/z && ls x/y"),
    ("mkdir-v", "mkdir -v vdir"),
    ("mkdir-pv", "mkdir -pv p1/p2/p3"),
    ("mkdir-pv-partial", "mkdir -pv src/new/deeper"),
    ("mkdir-m", "mkdir -m 700 secret; echo rc=$?"),
    ("mkdir-m-symbolic", "mkdir -m u=rwx,go= s2; echo rc=$?; ls -d s2"),
    ("mkdir-m-bad", "mkdir -m xyz bad; echo rc=$?; ls -d bad"),
    ("mkdir-mode-long", "mkdir --mode=755 --parents m1/m2 && ls m1"),
    ("mkdir-several", "mkdir d1 d2 d3 && ls -d d1 d2 d3"),
    ("mkdir-several-one-fails", "mkdir d1 src d3; echo rc=$?; ls -d d1 d3"),
    ("mkdir-no-operand", "mkdir; echo rc=$?"),
    ("mkdir-bad-option", "mkdir -z q; echo rc=$?"),
    ("mkdir-file-parent", "mkdir a.txt/sub; echo rc=$?"),
    ("mkdir-p-file-parent", "mkdir -p a.txt/sub; echo rc=$?"),
    ("mkdir-verbose-long", "mkdir --verbose vv"),
    # ---------------------------------------------------------------- cp
    ("cp-basic", "cp a.txt c.txt && cat c.txt"),
    ("cp-overwrite", "cp a.txt b.txt; echo rc=$?; cat b.txt"),
    ("cp-into-dir", "cp a.txt dst && ls dst"),
    ("cp-several", "cp a.txt b.txt dst && ls dst"),
    ("cp-several-not-dir", "cp a.txt b.txt same.txt; echo rc=$?"),
    ("cp-missing", "cp nope x; echo rc=$?"),
    ("cp-dir-no-r", "cp src d9; echo rc=$?"),
    ("cp-r", "cp -r src copy && ls copy copy/deep"),
    ("cp-R-into", "cp -R src dst && ls dst/src"),
    ("cp-a", "cp -a src arch && ls arch"),
    ("cp-p", "cp -p a.txt p.txt && cat p.txt"),
    ("cp-T", "cp -rT src dst && ls dst"),
    ("cp-T-file-dir", "cp -T a.txt dst; echo rc=$?"),
    ("cp-t", "cp -t dst a.txt b.txt && ls dst"),
    ("cp-t-long", "cp --target-directory=dst a.txt && ls dst"),
    ("cp-t-missing", "cp -t nodir a.txt; echo rc=$?"),
    ("cp-n", "cp -n a.txt b.txt; echo rc=$?; cat b.txt"),
    ("cp-v", "cp -v a.txt v.txt"),
    ("cp-v-several", "cp -v a.txt b.txt dst"),
    ("cp-u-new", "cp -u a.txt u.txt && cat u.txt"),
    ("cp-same", "cp a.txt a.txt; echo rc=$?"),
    ("cp-into-itself", "cp -r src src/deep; echo rc=$?"),
    ("cp-dir-onto-file", "cp -r src a.txt; echo rc=$?"),
    ("cp-file-onto-dir-T", "cp -T b.txt src; echo rc=$?"),
    ("cp-no-operand", "cp; echo rc=$?"),
    ("cp-one-operand", "cp a.txt; echo rc=$?"),
    ("cp-bad-option", "cp -z a.txt x; echo rc=$?"),
    ("cp-i-no-tty", "cp -i a.txt b.txt < /dev/null; echo rc=$?; cat b.txt"),
    ("cp-f", "cp -f a.txt b.txt && cat b.txt"),
    ("cp-T-extra", "cp -T a.txt b.txt dst; echo rc=$?"),
    # ---------------------------------------------------------------- mv
    ("mv-basic", "mv a.txt z.txt && cat z.txt && ls a.txt; echo rc=$?"),
    ("mv-overwrite", "mv a.txt b.txt && cat b.txt"),
    ("mv-into-dir", "mv a.txt dst && ls dst"),
    ("mv-several", "mv a.txt b.txt dst && ls dst"),
    ("mv-several-not-dir", "mv a.txt b.txt same.txt; echo rc=$?"),
    ("mv-missing", "mv nope x; echo rc=$?"),
    ("mv-dir", "mv src moved && ls moved"),
    ("mv-dir-into", "mv src dst && ls dst/src"),
    ("mv-T-empty-dir", "mv -T src dst && ls dst"),
    ("mv-T-file-dir", "mv -T a.txt dst; echo rc=$?"),
    ("mv-t", "mv -t dst a.txt b.txt && ls dst"),
    ("mv-n", "mv -n a.txt b.txt; echo rc=$?; cat b.txt a.txt"),
    ("mv-v", "mv -v a.txt v.txt"),
    ("mv-v-into", "mv -v a.txt b.txt dst"),
    ("mv-u-new", "mv -u a.txt u.txt && cat u.txt"),
    ("mv-f", "mv -f a.txt b.txt && cat b.txt"),
    ("mv-i-no-tty", "mv -i a.txt b.txt < /dev/null; echo rc=$?; cat b.txt"),
    ("mv-same", "mv a.txt a.txt; echo rc=$?"),
    ("mv-into-itself", "mv src src/deep; echo rc=$?"),
    ("mv-dir-onto-file", "mv src a.txt; echo rc=$?"),
    ("mv-nonempty-target", "mkdir -p dst/L && echo x > dst/L/k && mv L dst; echo rc=$?"),
    ("mv-no-operand", "mv; echo rc=$?"),
    ("mv-one-operand", "mv a.txt; echo rc=$?"),
    ("mv-bad-option", "mv -z a.txt x; echo rc=$?"),
    ("mv-t-T", "mv -T -t dst a.txt; echo rc=$?"),
    # ---------------------------------------------------------------- rm
    ("rm-file", "rm a.txt && ls a.txt; echo rc=$?"),
    ("rm-missing", "rm nope; echo rc=$?"),
    ("rm-f-missing", "rm -f nope; echo rc=$?"),
    ("rm-dir-no-r", "rm src; echo rc=$?"),
    ("rm-r", "rm -r src && ls; echo rc=$?"),
    ("rm-rf", "rm -rf src nope; echo rc=$?"),
    ("rm-d-empty", "rm -d dst; echo rc=$?"),
    ("rm-d-nonempty", "rm -d src; echo rc=$?"),
    ("rm-v", "rm -v a.txt b.txt"),
    ("rm-rv-one", "rm -rv full"),
    ("rm-dv", "rm -dv dst"),
    ("rm-i-no-tty", "rm -i a.txt < /dev/null; echo rc=$?; cat a.txt"),
    ("rm-i-empty", "rm -i empty.txt < /dev/null; echo rc=$?"),
    ("rm-f-i", "rm -i -f a.txt; echo rc=$?; ls a.txt"),
    ("rm-no-operand", "rm; echo rc=$?"),
    ("rm-f-no-operand", "rm -f; echo rc=$?"),
    ("rm-bad-option", "rm -z a.txt; echo rc=$?"),
    ("rm-dot", "rm -r .; echo rc=$?"),
    ("rm-several-one-missing", "rm a.txt nope b.txt; echo rc=$?; ls a.txt b.txt"),
    ("rm-recursive-long", "rm --recursive --verbose full"),
    # ---------------------------------------------------------------- touch
    ("touch-new", "touch new.txt && cat new.txt && ls new.txt"),
    ("touch-existing", "touch a.txt && cat a.txt"),
    ("touch-c-missing", "touch -c nope; echo rc=$?; ls nope"),
    ("touch-no-create-long", "touch --no-create nope; echo rc=$?"),
    ("touch-several", "touch n1 n2 n3 && ls n1 n2 n3"),
    ("touch-missing-dir", "touch nodir/x; echo rc=$?"),
    ("touch-file-parent", "touch a.txt/x; echo rc=$?"),
    ("touch-dir", "touch src; echo rc=$?"),
    ("touch-d-iso", "touch -d 2024-01-15 d.txt; echo rc=$?; ls d.txt"),
    ("touch-d-time", "touch -d '2024-01-15 10:30' d.txt; echo rc=$?"),
    ("touch-d-epoch", "touch -d @1700000000 d.txt; echo rc=$?"),
    ("touch-d-bad", "touch -d 'not a date' d.txt; echo rc=$?; ls d.txt"),
    ("touch-date-long", "touch --date=2023-12-31 a.txt; echo rc=$?"),
    ("touch-t", "touch -t 202401151030 t.txt; echo rc=$?"),
    ("touch-t-seconds", "touch -t 2401151030.45 t.txt; echo rc=$?"),
    ("touch-t-short", "touch -t 01151030 t.txt; echo rc=$?"),
    ("touch-t-bad", "touch -t 2024 t.txt; echo rc=$?"),
    ("touch-t-bad-month", "touch -t 202413151030 t.txt; echo rc=$?"),
    ("touch-r", "touch -r a.txt r.txt; echo rc=$?; cat r.txt"),
    ("touch-r-missing", "touch -r nope r.txt; echo rc=$?; ls r.txt"),
    ("touch-a", "touch -a a.txt; echo rc=$?"),
    ("touch-m", "touch -m new2.txt; echo rc=$?; ls new2.txt"),
    ("touch-a-new", "touch -a new3.txt; echo rc=$?; ls new3.txt"),
    ("touch-d-t", "touch -d 2024-01-01 -t 202401011000 x; echo rc=$?"),
    ("touch-no-operand", "touch; echo rc=$?"),
    ("touch-bad-option", "touch -z a.txt; echo rc=$?"),
    ("touch-time-bad", "touch --time=xyz a.txt; echo rc=$?"),
    # ---------------------------------------------------------------- tree
    ("tree-default", "cd t && tree"),
    ("tree-dir", "tree t"),
    ("tree-a", "tree -a t"),
    ("tree-d", "tree -d t"),
    ("tree-L1", "tree -L 1 t"),
    ("tree-L2-attached", "tree -L2 t"),
    ("tree-L-bad", "tree -L 0 t; echo rc=$?"),
    ("tree-L-word", "tree -L x t; echo rc=$?"),
    ("tree-noreport", "tree --noreport t"),
    ("tree-f", "tree -f t"),
    ("tree-i", "tree -i t"),
    ("tree-if", "tree -i -f t"),
    ("tree-F", "tree -F t"),
    ("tree-I", "tree -I '*.log' t"),
    ("tree-I-alt", "tree -I 'sub|alpha' t"),
    ("tree-P", "tree -P '*.txt' t"),
    ("tree-dirsfirst", "tree --dirsfirst t"),
    ("tree-C-charset", "tree -C --charset=ascii t"),
    ("tree-n", "tree -n t/sub"),
    ("tree-ad", "tree -ad t"),
    ("tree-missing", "tree nope; echo rc=$?"),
    ("tree-file", "tree a.txt; echo rc=$?"),
    ("tree-two", "tree t/sub t/alpha"),
    ("tree-empty", "tree t/emptydir"),
    ("tree-bad-option", "tree -k t; echo rc=$?"),
    ("tree-dot-slash", "tree ./t/alpha"),
    ("tree-trailing-slash", "tree t/alpha/"),
    ("tree-dL", "tree -d -L 1 t"),
    ("tree-aL", "tree -a -L 1 t"),
    ("tree-one-file", "tree full"),
]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        if text is None:
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="diff-fs-"))
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
    data = {"prefix": PREFIX, "world": WORLD, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
