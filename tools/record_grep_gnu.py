"""Records GNU grep (and Debian's egrep/fgrep) in the C locale: tests/data/grep_gnu_corpus.json,
replayed by tests/test_cmd_grep_gnu.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of tools/record_coreutils_more.py).
`grep -r` lists a directory in readdir order, so cases over several files sort the output.

    python tools/record_grep_gnu.py            # record and write the JSON
    python tools/record_grep_gnu.py --only egrep   # print the cases whose id starts so
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "grep_gnu_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

# Contents are text; NUL bytes (binary files) are valid UTF-8 and survive the JSON.
WORLD = {
    "/w/a.txt": "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n",
    "/w/b.txt": "alpha beta\ngamma\nAlpha\nfoo_bar\nfoo-bar\none two one\n",
    "/w/noeol.txt": "x one\ny",
    "/w/empty.txt": "",
    "/w/bin.dat": "text one\n\0binary one\nmore\n",
    "/w/binlate.dat": "one\ntwo\n\0three one\n",
    "/w/pats.txt": "one\nt.o\n",
    "/w/pats2.txt": "five\n\n",
    "/w/zdata": "one\0two\0three one\0four",
    "/w/ctx.txt": "m1\na\nb\nm2\nc\nd\ne\nf\nm3\ng\nh\ni\nj\nk\nm4\n",
    "/w/code.txt": "foo(1)\nbar = 42\nx  = 7;\nabc123def\nemail: a@b.c\nTAB\there\n",
    "/w/dir/x.txt": "one x\n",
    "/w/dir/y.log": "one y\nnothing\n",
    "/w/dir/sub/z.txt": "one z\n",
    "/w/dir/sub/deep/q.c": "one q\n",
    "/w/dir/.hidden": "one hidden\n",
    "/w/dir/b.dat": "one\0bin\n",
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- basics and exit codes
    ("grep-basic", "grep one a.txt b.txt"),
    ("grep-basic-single", "grep t a.txt"),
    ("grep-no-match-exit", "grep zzz a.txt; echo rc=$?"),
    ("grep-missing-file", "grep one nope.txt; echo rc=$?"),
    ("grep-missing-and-match", "grep one nope.txt a.txt; echo rc=$?"),
    ("grep-q-missing-and-match", "grep -q one nope.txt a.txt; echo rc=$?"),
    ("grep-q-match-then-missing", "grep -q one a.txt nope.txt; echo rc=$?"),
    ("grep-q-no-match", "grep -q zzz a.txt; echo rc=$?"),
    ("grep-s-missing", "grep -s one nope.txt; echo rc=$?"),
    ("grep-s-missing-and-match", "grep -s one nope.txt a.txt; echo rc=$?"),
    ("grep-no-messages-long", "grep --no-messages one nope.txt; echo rc=$?"),
    ("grep-stdin", "printf 'one\\ntwo\\n' | grep o"),
    ("grep-stdin-dash", "printf 'one\\ntwo\\n' | grep w - a.txt"),
    ("grep-noeol", "grep one noeol.txt"),
    ("grep-noeol-last", "grep y noeol.txt"),
    ("grep-noeol-v", "grep -v one noeol.txt"),
    ("grep-empty-file", "grep one empty.txt; echo rc=$?"),
    ("grep-empty-file-v", "grep -v one empty.txt; echo rc=$?"),
    ("grep-empty-file-c", "grep -c one empty.txt"),
    ("grep-empty-pattern", "grep '' noeol.txt"),
    ("grep-empty-pattern-empty-file", "grep -c '' empty.txt; echo rc=$?"),
    ("grep-directory-no-r", "grep one dir; echo rc=$?"),
    ("grep-directory-s", "grep -s one dir; echo rc=$?"),
    ("grep-no-pattern", "grep; echo rc=$?"),
    ("grep-bad-regex", "grep 'a\\(' a.txt; echo rc=$?"),
    ("grep-bad-regex-E", "grep -E 'a(' a.txt; echo rc=$?"),
    ("grep-bad-brace", "grep -E 'a{1' a.txt; echo rc=$?"),
    ("grep-bad-class", "grep '[[:nope:]]' a.txt; echo rc=$?"),
    ("grep-dashdash", "grep -- -bar b.txt"),
    ("grep-options-after-operands", "grep one a.txt -n"),
    # ---------------------------------------------------------------- usage errors
    ("grep-invalid-option", "grep -k one a.txt; echo rc=$?"),
    ("grep-invalid-long", "grep --nope one a.txt; echo rc=$?"),
    ("grep-invalid-in-cluster", "grep -nk one a.txt; echo rc=$?"),
    ("grep-missing-arg-A", "grep one a.txt -A; echo rc=$?"),
    ("grep-missing-arg-e", "grep -e; echo rc=$?"),
    ("grep-bad-context-number", "grep -A x one a.txt; echo rc=$?"),
    ("grep-bad-max-count", "grep -m x one a.txt; echo rc=$?"),
    ("grep-ambiguous-long", "grep --co one a.txt; echo rc=$?"),
    ("grep-long-abbrev", "grep --ignore one a.txt; echo rc=$?"),
    ("grep-long-abbrev-count", "grep --cou one a.txt"),
    ("grep-bad-binary-files", "grep --binary-files=maybe one a.txt; echo rc=$?"),
    ("grep-flag-value-unexpected", "grep --count=3 one a.txt; echo rc=$?"),
    # ---------------------------------------------------------------- egrep / fgrep
    ("egrep-alternation", "egrep 'one|two' a.txt; echo rc=$?"),
    ("egrep-plus", "egrep 'e+n' a.txt"),
    ("egrep-stderr", "egrep one a.txt 2>&1"),
    ("egrep-count", "egrep -c 'o+' a.txt"),
    ("fgrep-literal", "fgrep 't.o' a.txt pats.txt; echo rc=$?"),
    ("fgrep-stderr", "fgrep one noeol.txt 2>&1"),
    ("fgrep-stdin", "printf 'a.b\\naxb\\n' | fgrep a.b"),
    ("egrep-bad-option", "egrep -k x a.txt; echo rc=$?"),
    # ---------------------------------------------------------------- -b -z -Z -T
    ("grep-b", "grep -b o a.txt"),
    ("grep-b-n", "grep -bn e a.txt"),
    ("grep-byte-offset-long", "grep --byte-offset two a.txt b.txt"),
    ("grep-b-o", "grep -bo one b.txt"),
    ("grep-b-v", "grep -bv o a.txt"),
    ("grep-b-context", "grep -b -A1 four a.txt"),
    ("grep-z", "grep -z one zdata | od -c"),
    ("grep-z-count", "grep -zc one zdata"),
    ("grep-z-v", "grep -zv one zdata | od -c"),
    ("grep-z-anchor", "grep -z '^t' zdata | tr '\\0' '|'"),
    ("grep-z-newline-inside", "printf 'a\\nb\\0c\\0' | grep -z 'a.b' | tr '\\0' '|'; echo rc=$?"),
    ("grep-z-dollar", "printf 'ab\\ncd\\0ef\\0' | grep -z 'b$' | tr '\\0' '|'; echo rc=$?"),
    ("grep-null-data-long", "grep --null-data -n two zdata | tr '\\0' '|'"),
    ("grep-Z-l", "grep -lZ one a.txt b.txt empty.txt | od -c"),
    ("grep-Z-lines", "grep -Z one a.txt b.txt | od -c"),
    ("grep-Z-count", "grep -cZ one a.txt b.txt | od -c"),
    ("grep-null-long", "grep --null -L one a.txt empty.txt | od -c"),
    ("grep-Z-n", "grep -HZn two a.txt | od -c"),
    ("grep-T", "grep -T one a.txt b.txt"),
    ("grep-T-n", "grep -Tn two a.txt"),
    ("grep-T-H-n-b", "grep -THnb two a.txt"),
    ("grep-initial-tab-long", "grep --initial-tab -n -A1 two a.txt"),
    ("grep-T-single", "grep -T one b.txt"),
    ("grep-T-wide", "grep -Tnb -e ten -e one a.txt ctx.txt"),
    ("grep-T-c", "grep -Tc one a.txt b.txt"),
    ("grep-T-empty-line", "printf 'a\\n\\nb\\n' | grep -Tn ''"),
    # ---------------------------------------------------------------- -m and context
    ("grep-m1", "grep -m1 o a.txt"),
    ("grep-m2-count", "grep -m2 -c o a.txt"),
    ("grep-m0", "grep -m0 o a.txt; echo rc=$?"),
    ("grep-m-v", "grep -m2 -v o a.txt"),
    ("grep-m-context", "grep -m1 -A2 one a.txt"),
    ("grep-m-stdin-rest", "printf 'a1\\nb\\na2\\nc\\n' | (grep -m1 a; cat)"),
    ("grep-max-count-long", "grep --max-count=1 one a.txt b.txt"),
    ("grep-m-negative", "grep -m -1 o a.txt; echo rc=$?"),
    ("grep-A1", "grep -A1 m ctx.txt"),
    ("grep-B1", "grep -B1 m ctx.txt"),
    ("grep-C1", "grep -C1 m3 ctx.txt"),
    ("grep-C2-merge", "grep -C2 m ctx.txt"),
    ("grep-NUM", "grep -1 m2 ctx.txt"),
    ("grep-NUM-multi", "grep -12 m4 ctx.txt | head -3"),
    ("grep-A-n", "grep -n -A1 m ctx.txt"),
    ("grep-group-separator", "grep --group-separator=XX -A1 m ctx.txt"),
    ("grep-group-separator-empty", "grep --group-separator= -A1 m ctx.txt"),
    ("grep-no-group-separator", "grep --no-group-separator -A1 m ctx.txt"),
    ("grep-context-two-files", "grep -A1 one a.txt b.txt"),
    ("grep-context-v", "grep -v -C1 '[a-l]' ctx.txt"),
    ("grep-A0", "grep -A0 m ctx.txt"),
    ("grep-context-long", "grep --context=1 m2 ctx.txt"),
    ("grep-after-context-long", "grep --after-context 1 m2 ctx.txt"),
    ("grep-context-count", "grep -c -C2 m ctx.txt"),
    ("grep-context-o", "grep -o -C1 m2 ctx.txt"),
    # ---------------------------------------------------------------- names, lists, counts
    ("grep-h", "grep -h one a.txt b.txt"),
    ("grep-H", "grep -H one a.txt"),
    ("grep-H-stdin", "printf 'one\\n' | grep -H one"),
    ("grep-label", "printf 'one\\n' | grep -H --label=foo one"),
    ("grep-label-c", "printf 'one\\n' | grep --label=foo -c one - a.txt"),
    ("grep-label-l", "printf 'one\\n' | grep --label=in -l one"),
    ("grep-l", "grep -l one a.txt b.txt empty.txt noeol.txt"),
    ("grep-L", "grep -L one a.txt b.txt empty.txt; echo rc=$?"),
    ("grep-L-none", "grep -L o a.txt; echo rc=$?"),
    ("grep-l-stdin", "printf 'one\\n' | grep -l one"),
    ("grep-c-multi", "grep -c one a.txt b.txt empty.txt"),
    ("grep-c-v", "grep -cv one a.txt"),
    ("grep-c-h", "grep -ch o a.txt b.txt"),
    ("grep-o", "grep -o 'o[a-z]' a.txt b.txt"),
    ("grep-o-i", "grep -oi alpha b.txt"),
    ("grep-o-n", "grep -on 'one' b.txt"),
    ("grep-o-empty-matches", "grep -o 'x*' a.txt; echo rc=$?"),
    ("grep-n", "grep -n e a.txt"),
    ("grep-i", "grep -i ALPHA b.txt"),
    ("grep-y", "grep -y ALPHA b.txt"),
    ("grep-no-ignore-case", "grep -i --no-ignore-case ALPHA b.txt; echo rc=$?"),
    ("grep-w", "grep -w foo b.txt"),
    ("grep-x", "grep -x gamma b.txt"),
    ("grep-v", "grep -v o a.txt"),
    # ---------------------------------------------------------------- -e and -f
    ("grep-e-several", "grep -e one -e two a.txt"),
    ("grep-e-dash-pattern", "grep -e -bar b.txt"),
    ("grep-e-and-operand-file", "grep -e one b.txt"),
    ("grep-e-empty", "grep -c -e '' a.txt"),
    ("grep-e-newline", "grep $'one\\nsix' a.txt"),
    ("grep-f", "grep -f pats.txt a.txt"),
    ("grep-f-stdin", "printf 'six\\nten\\n' | grep -f - a.txt"),
    ("grep-f-and-e", "grep -f pats2.txt -e two a.txt"),
    ("grep-f-empty-file", "grep -f empty.txt a.txt; echo rc=$?"),
    ("grep-f-empty-file-v", "grep -v -f empty.txt noeol.txt"),
    ("grep-f-missing", "grep -f nope.txt a.txt; echo rc=$?"),
    ("grep-f-long", "grep --file=pats.txt -F a.txt"),
    ("grep-regexp-long", "grep --regexp=four a.txt"),
    ("grep-F-several", "grep -F -e t.o -e on a.txt pats.txt"),
    ("grep-E-G-last-wins", "grep -E -G 'o+' a.txt; echo rc=$?"),
    ("grep-F-E-last-wins", "grep -F -E 'one|two' a.txt"),
    # ---------------------------------------------------------------- binary files
    ("grep-binary-match", "grep one bin.dat; echo rc=$?"),
    ("grep-binary-match-stderr", "grep one bin.dat 2>&1"),
    ("grep-binary-late", "grep one binlate.dat; echo rc=$?"),
    ("grep-binary-late-stderr", "grep one binlate.dat 2>&1"),
    ("grep-binary-no-match", "grep zzz bin.dat; echo rc=$?"),
    ("grep-binary-a", "grep -a one bin.dat | od -c"),
    ("grep-binary-text-long", "grep --text one binlate.dat | od -c"),
    ("grep-binary-I", "grep -I one bin.dat a.txt; echo rc=$?"),
    ("grep-binary-files-without-match", "grep --binary-files=without-match one bin.dat; echo rc=$?"),
    ("grep-binary-files-text", "grep --binary-files=text -c one bin.dat"),
    ("grep-binary-files-binary", "grep --binary-files=binary one bin.dat 2>&1"),
    ("grep-binary-c", "grep -c one bin.dat"),
    ("grep-binary-l", "grep -l one bin.dat a.txt"),
    ("grep-binary-o", "grep -o one bin.dat 2>&1"),
    ("grep-binary-q", "grep -q one bin.dat; echo rc=$?"),
    ("grep-binary-stdin", "printf 'a\\0\\none\\n' | grep one 2>&1"),
    ("grep-binary-U", "grep -U one a.txt"),
    ("grep-binary-v", "grep -v zzz bin.dat 2>&1"),
    ("grep-binary-two-files", "grep one bin.dat a.txt 2>&1"),
    ("grep-binary-n", "grep -n one bin.dat 2>&1"),
    # ---------------------------------------------------------------- recursion
    ("grep-r", "grep -r one dir | sort"),
    ("grep-r-rc", "grep -r one dir > out; echo rc=$?"),
    ("grep-R", "grep -R one dir | sort"),
    ("grep-r-no-operand", "cd dir/sub && grep -r one | sort"),
    ("grep-r-dot", "cd dir/sub && grep -r one . | sort"),
    ("grep-r-trailing-slash", "grep -r one dir/sub/ | sort"),
    ("grep-r-single-file", "grep -r one a.txt"),
    ("grep-r-h", "grep -rh one dir | sort"),
    ("grep-r-l", "grep -rl one dir | sort"),
    ("grep-r-L", "grep -rL one dir | sort"),
    ("grep-r-c", "grep -rc one dir | sort"),
    ("grep-r-n", "grep -rn z dir"),
    ("grep-r-I", "grep -rI one dir | sort"),
    ("grep-r-include", "grep -r --include='*.txt' one dir | sort"),
    ("grep-r-include-two", "grep -r --include='*.txt' --include='*.c' one dir | sort"),
    ("grep-r-exclude", "grep -r --exclude='*.txt' one dir | sort"),
    ("grep-r-exclude-two", "grep -r --exclude='*.txt' --exclude='*.log' one dir | sort"),
    ("grep-r-exclude-name", "grep -r --exclude=x.txt one dir | sort"),
    ("grep-r-include-slash", "grep -r --include='sub/*' one dir | sort"),
    ("grep-r-include-star-slash", "grep -r --include='*/z.txt' one dir | sort"),
    ("grep-r-exclude-slash", "grep -r --exclude='dir/x.txt' one dir | sort"),
    ("grep-r-exclude-star-slash", "grep -r --exclude='*/x.txt' one dir | sort"),
    ("grep-r-exclude-dir", "grep -r --exclude-dir=sub one dir | sort"),
    ("grep-r-exclude-dir-deep", "grep -r --exclude-dir=deep one dir | sort"),
    ("grep-r-exclude-dir-two", "grep -r --exclude-dir=deep --exclude-dir=nothing one dir | sort"),
    ("grep-r-exclude-dir-slash", "grep -r --exclude-dir=dir/sub one dir | sort"),
    ("grep-r-exclude-dir-glob", "grep -r --exclude-dir='s*' one dir | sort"),
    ("grep-r-exclude-dir-operand", "grep -r --exclude-dir=dir one dir | sort"),
    ("grep-r-exclude-dir-dot", "cd dir && grep -r --exclude-dir=. one | sort"),
    ("grep-r-include-exclude", "grep -r --include='*.txt' --exclude='z*' one dir | sort"),
    ("grep-include-cmdline", "grep --include='*.log' one a.txt dir/y.log"),
    ("grep-exclude-cmdline", "grep --exclude='a.*' one a.txt b.txt"),
    ("grep-exclude-cmdline-path", "grep --exclude='dir/*' one dir/x.txt a.txt"),
    ("grep-r-include-no-match", "grep -r --include='*.md' one dir; echo rc=$?"),
    ("grep-r-files-and-dirs", "grep -r two a.txt dir; echo rc=$?"),
    ("grep-r-stdin-dash", "printf 'one\\n' | grep -r one - dir/sub | sort"),
    ("grep-r-missing", "grep -r one nope; echo rc=$?"),
    ("grep-d-skip", "grep -d skip one dir a.txt; echo rc=$?"),
    ("grep-directories-recurse", "grep --directories=recurse one dir/sub | sort"),
    # ---------------------------------------------------------------- -P
    ("grep-P-digit", "grep -P '\\d+' code.txt"),
    ("grep-P-lazy-o", "grep -oP 'a.*?c' code.txt"),
    ("grep-P-lookahead", "grep -P 'foo(?=\\()' code.txt"),
    ("grep-P-lookbehind-o", "grep -oP '(?<=bar = )\\d+' code.txt"),
    ("grep-P-word", "grep -P '\\bbar\\b' code.txt b.txt"),
    ("grep-P-w", "grep -Pw 'foo' b.txt"),
    ("grep-P-x", "grep -Px 'g\\w+' b.txt"),
    ("grep-P-i", "grep -Pi 'ALPHA' b.txt"),
    ("grep-P-inline-i", "grep -P '(?i)alpha' b.txt"),
    ("grep-P-space", "grep -P '\\s=\\s' code.txt"),
    ("grep-P-tab", "grep -P '\\t' code.txt"),
    ("grep-P-hex", "grep -P '\\x41' b.txt"),
    ("grep-P-named-group", "grep -P '(?<d>\\d)\\k<d>' code.txt; echo rc=$?"),
    ("grep-P-backref", "grep -P '(o)\\1' b.txt a.txt; echo rc=$?"),
    ("grep-P-anchors", "grep -P '^t.*e$' a.txt"),
    ("grep-P-v-c", "grep -Pvc '\\d' code.txt"),
    ("grep-P-Q-E", "grep -P '\\Qa@b.c\\E' code.txt"),
    ("grep-P-possessive", "grep -P 'a++b' code.txt b.txt; echo rc=$?"),
    ("grep-P-atomic", "grep -P '(?>x\\s+)=' code.txt"),
    ("grep-P-posix-class", "grep -P '[[:digit:]]{3}' code.txt"),
    ("grep-P-bad", "grep -P 'a(' code.txt; echo rc=$?"),
    ("grep-P-two-patterns", "grep -P -e a -e b code.txt; echo rc=$?"),
    ("grep-P-K", "grep -oP 'bar = \\K\\d+' code.txt"),
    ("grep-P-n-o", "grep -Pno '[a-z]+\\d' code.txt"),
    ("grep-P-z", "grep -Pzc 'one' zdata"),
    ("grep-P-dot-star-o", "grep -Po '.*' noeol.txt"),
    ("grep-perl-regexp-long", "grep --perl-regexp '\\w+@\\w+' code.txt"),
    # ---------------------------------------------------------------- accepted no-ops and colour
    ("grep-color-never", "grep --color=never one a.txt"),
    ("grep-colour-never", "grep --colour=never one a.txt"),
    ("grep-color-auto", "grep --color=auto one a.txt"),
    ("grep-color-bare", "grep --color one a.txt"),
    ("grep-line-buffered", "grep --line-buffered one a.txt"),
    ("grep-U-binary-long", "grep --binary one a.txt"),
    ("grep-version", "grep -V > /dev/null; echo rc=$?"),
]


def build_world(root: Path) -> None:
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="grep-gnu-"))
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
    record["stderr"] = done.stderr.decode("utf-8", "replace")
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the records whose id starts with this instead of writing the file")
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
            if case_id.startswith(options.only):
                print(json.dumps(record_case(case_id, line), ensure_ascii=False))
        return 0
    records = [record_case(case_id, line) for case_id, line in CASES]
    data = {"prefix": PREFIX, "world": WORLD, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
