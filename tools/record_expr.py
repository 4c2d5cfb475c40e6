"""Records `expr` from the real GNU coreutils tool: tests/data/expr_corpus.json, replayed by
tests/test_cmd_expr.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_line_tools.py).

    python tools/record_expr.py                  # record and write the JSON
    python tools/record_expr.py --only regex     # print the cases whose id contains "regex"
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "expr_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

WORLD = {
    "/w/report.final.txt": "done\n",
    "/w/notes.md": "# notes\n",
    "/w/archive.tar.gz": "gz\n",
    "/w/README": "readme\n",
}

# (id, line). Every id starts with "expr-".
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- arithmetic
    ("expr-add", "expr 1 + 2"),
    ("expr-sub", "expr 10 - 3"),
    ("expr-mul", "expr 6 '*' 7"),
    ("expr-div", "expr 7 / 2"),
    ("expr-div-negative-truncates", "expr -7 / 2"),
    ("expr-div-negative-divisor", "expr 7 / -2"),
    ("expr-mod", "expr 7 % 3"),
    ("expr-mod-negative-dividend", "expr -7 % 3"),
    ("expr-mod-negative-divisor", "expr 7 % -3"),
    ("expr-div-by-zero", "expr 1 / 0"),
    ("expr-mod-by-zero", "expr 1 % 0"),
    ("expr-div-by-negative-zero", "expr 5 / -0"),
    ("expr-precedence-mul-over-add", "expr 2 + 3 '*' 4"),
    ("expr-precedence-parens", "expr '(' 2 + 3 ')' '*' 4"),
    ("expr-sub-left-assoc", "expr 10 - 3 - 2"),
    ("expr-div-left-assoc", "expr 100 / 10 / 5"),
    ("expr-mixed-chain", "expr 1 + 2 '*' 3 - 8 / 4 % 3"),
    ("expr-big-add", "expr 99999999999999999999 + 1"),
    ("expr-big-mul", "expr 123456789012345678901234567890 '*' 987654321098765432109876543210"),
    ("expr-big-negative", "expr -99999999999999999999 - 1"),
    ("expr-big-div", "expr 100000000000000000000000000000 / 7"),
    ("expr-big-mod", "expr 100000000000000000000000000000 % 97"),
    ("expr-leading-zeros-arith", "expr 007 + 1"),
    ("expr-leading-zeros-kept", "expr 007"),
    ("expr-plus-sign-not-integer", "expr +5 + 1"),
    ("expr-word-not-integer", "expr a + 1"),
    ("expr-empty-not-integer", "expr '' + 1"),
    ("expr-decimal-not-integer", "expr 1.5 + 1"),
    ("expr-space-not-integer", "expr ' 1' + 1"),
    ("expr-minus-alone-not-integer", "expr 1 - - 1"),
    ("expr-negative-operand", "expr 5 - -3"),
    ("expr-negative-zero-sum", "expr -0 + 0"),
    ("expr-zero-result", "expr 2 - 2"),
    ("expr-mul-non-integer", "expr 2 '*' x"),
    ("expr-missing-after-plus", "expr 1 +"),
    ("expr-missing-after-mul", "expr 3 '*'"),
    ("expr-mul-negative", "expr 5 '*' -1"),
    ("expr-zero-div", "expr 0 / 5"),
    ("expr-mod-by-zero-negative", "expr -5 % 0"),
    ("expr-big-to-small", "expr 18446744073709551616 - 18446744073709551615"),
    ("expr-big-product-zeros", "expr 1000000000000000000000 '*' 1000000000000000000000"),
    # ---------------------------------------------------------------- values and exit status
    ("expr-zero", "expr 0"),
    ("expr-negative-zero", "expr -0"),
    ("expr-double-zero", "expr 00"),
    ("expr-empty", "expr ''"),
    ("expr-dash", "expr -"),
    ("expr-negative-number", "expr -5"),
    ("expr-word", "expr hello"),
    ("expr-dashdash", "expr -- 1 + 1"),
    ("expr-dashdash-only", "expr --"),
    ("expr-no-args", "expr"),
    ("expr-unknown-long-option", "expr --foo"),
    ("expr-help", "expr --help"),
    ("expr-help-abbrev", "expr --he | head -n 1"),
    ("expr-help-not-alone", "expr --help 1"),
    ("expr-dashdash-help", "expr -- --help"),
    ("expr-status-true", "expr 3 > /dev/null; echo $?"),
    ("expr-status-false", "expr 0 > /dev/null; echo $?"),
    # ---------------------------------------------------------------- comparisons
    ("expr-lt-numeric", "expr 10 '<' 9"),
    ("expr-lt-string", "expr 10 '<' 9a"),
    ("expr-lt-words", "expr abc '<' abd"),
    ("expr-eq-string", "expr abc = abc"),
    ("expr-eqeq", "expr abc == abc"),
    ("expr-eq-leading-zero-numeric", "expr 01 = 1"),
    ("expr-eq-negative-zero", "expr -0 = 0"),
    ("expr-eq-plus-is-string", "expr +1 = 1"),
    ("expr-ne", "expr 1 '!=' 2"),
    ("expr-ne-false", "expr a '!=' a"),
    ("expr-gt-string", "expr b '>' a"),
    ("expr-ge", "expr a '>=' a"),
    ("expr-le-numeric", "expr 2 '<=' 10"),
    ("expr-le-string", "expr 2 '<=' 10x"),
    ("expr-empty-eq-empty", "expr '' = ''"),
    ("expr-empty-lt-word", "expr '' '<' a"),
    ("expr-compare-left-assoc", "expr 3 '<' 2 '<' 1"),
    ("expr-eq-chain", "expr 1 = 1 = 1"),
    ("expr-upper-before-lower", "expr Z '<' a"),
    ("expr-big-compare", "expr 99999999999999999999 '>' 9999999999999999999"),
    ("expr-negative-compare", "expr -5 '<' -10"),
    ("expr-compare-vs-arith", "expr 1 + 1 = 2"),
    ("expr-compare-bytes", "expr \"$(printf '\\351')\" '>' z"),
    # ---------------------------------------------------------------- | and &
    ("expr-or-first-null", "expr 0 '|' 5"),
    ("expr-or-first-set", "expr 3 '|' 5"),
    ("expr-or-both-empty", "expr '' '|' ''"),
    ("expr-or-zero-empty", "expr 0 '|' ''"),
    ("expr-or-negative-zero", "expr -0 '|' -00"),
    ("expr-and", "expr 2 '&' 3"),
    ("expr-and-first-zero", "expr 0 '&' 3"),
    ("expr-and-second-empty", "expr 2 '&' ''"),
    ("expr-or-short-circuit", "expr 1 '|' 1 / 0"),
    ("expr-and-short-circuit", "expr 0 '&' 1 / 0"),
    ("expr-or-evaluates-right", "expr 0 '|' 1 / 0"),
    ("expr-and-binds-tighter", "expr a '|' b '&' c"),
    ("expr-and-or-null", "expr '' '|' b '&' ''"),
    ("expr-and-then-or", "expr 1 '&' 0 '|' 2"),
    ("expr-short-circuit-regex", "expr 0 '&' a : '\\('"),
    ("expr-short-circuit-non-integer", "expr 1 '|' a + 1"),
    # ---------------------------------------------------------------- : and match
    ("expr-regex-length", "expr abc : 'a.c'"),
    ("expr-regex-anchored", "expr abc : b"),
    ("expr-regex-dot-star", "expr abc : '.*b'"),
    ("expr-regex-greedy", "expr abcabc : '.*b'"),
    ("expr-regex-group-extension", "f=foo.tar.gz; expr \"$f\" : '.*\\.\\(.*\\)'"),
    ("expr-regex-group-basename", "expr foo.tar.gz : '\\([^.]*\\)'"),
    ("expr-regex-group-no-match", "expr abc : 'x\\(.*\\)'"),
    ("expr-regex-group-not-at-start", "expr abc : '\\(b\\)'"),
    ("expr-regex-group-star", "expr hello : 'hel\\(l*\\)'"),
    ("expr-regex-digits", "expr 123abc : '[0-9]*'"),
    ("expr-regex-digits-none", "expr abc : '[0-9]*'"),
    ("expr-regex-digits-to-end", "expr 123 : '[0-9]*$'"),
    ("expr-regex-digits-to-end-fails", "expr 12a : '[0-9]*$'"),
    ("expr-regex-caret", "expr abc : '^abc'"),
    ("expr-regex-caret-literal-inside", "expr 'a^b' : 'a^b'"),
    ("expr-regex-dollar-anchor", "expr 'ab$' : 'ab$'"),
    ("expr-regex-dollar-literal-inside", "expr 'a$b' : 'a$b'"),
    ("expr-regex-interval", "expr aaa : 'a\\{2\\}'"),
    ("expr-regex-interval-range", "expr aaaaa : 'a\\{2,4\\}'"),
    ("expr-regex-plus", "expr aaa : 'a\\+'"),
    ("expr-regex-question", "expr ab : 'a\\?b'"),
    ("expr-regex-group-repeated", "expr abab : '\\(ab\\)*'"),
    ("expr-regex-two-groups", "expr abab : '\\(a\\)\\(b\\)'"),
    ("expr-regex-backref", "expr aab : '\\(a\\)\\1'"),
    ("expr-regex-alternation-longest", "expr abc : 'a\\|ab'"),
    ("expr-regex-leading-star", "expr '*a' : '*a'"),
    ("expr-regex-plus-literal-ere", "expr 'a+' : 'a+'"),
    ("expr-regex-bracket-class", "expr aXb : 'a[[:upper:]]b'"),
    ("expr-regex-case-sensitive", "expr ABC : '[a-z]*'"),
    ("expr-regex-dot-newline", "expr \"$(printf 'a\\nb')\" : 'a.b'"),
    ("expr-regex-dollar-not-before-newline", "expr \"$(printf 'a\\nb')\" : 'a$'"),
    ("expr-regex-empty-pattern", "expr abc : ''"),
    ("expr-regex-empty-both", "expr '' : ''"),
    ("expr-regex-empty-group", "expr '' : '\\(.*\\)'"),
    ("expr-regex-group-keeps-space", "expr 'x y' : 'x\\(.*\\)'"),
    ("expr-regex-escaped-dot", "expr a.b : 'a\\.b'"),
    ("expr-regex-escaped-dot-fails", "expr axb : 'a\\.b'"),
    ("expr-regex-chain", "expr abc : 'a\\(.*\\)' : b"),
    ("expr-regex-number-operands", "expr 5 : 5"),
    ("expr-regex-binds-tighter-than-plus", "expr 12 + 3 : 1"),
    ("expr-regex-unset-group", "expr ab : 'a\\(x\\)*b'"),
    ("expr-regex-high-byte", "expr \"$(printf '\\303\\251')\" : '.'"),
    ("expr-regex-empty-range", "expr abc : '[c-a]*'"),
    ("expr-regex-group-zero-string", "expr a0 : 'a\\(.*\\)'"),
    ("expr-match-keyword", "expr match abc 'a\\(b\\)'"),
    ("expr-match-length", "expr match hello 'h.*l'"),
    ("expr-regex-unmatched-open", "expr abc : '\\('"),
    ("expr-regex-unmatched-close", "expr abc : 'a\\)'"),
    ("expr-regex-unmatched-bracket", "expr abc : '['"),
    ("expr-regex-unmatched-brace", "expr abc : 'a\\{1'"),
    ("expr-regex-bad-brace-content", "expr abc : 'a\\{x\\}'"),
    ("expr-regex-bad-backref", "expr abc : '\\1'"),
    ("expr-regex-bad-class", "expr abc : '[[:foo:]]'"),
    ("expr-regex-trailing-backslash", "expr abc : 'abc\\'"),
    ("expr-regex-unmatched-bracket-member", "expr abc : '[a'"),
    ("expr-regex-unclosed-class", "expr abc : '[[:alpha:'"),
    ("expr-regex-unclosed-class-bracket", "expr abc : '[[:alpha:]'"),
    ("expr-regex-interval-too-big", "expr abc : 'a\\{99999\\}'"),
    ("expr-regex-interval-reversed", "expr abc : 'a\\{2,1\\}'"),
    ("expr-regex-negated-empty-range", "expr abc : '[^c-a]*'"),
    ("expr-regex-empty-range-with-member", "expr bad : '[z-ab]*'"),
    ("expr-regex-two-groups-second", "expr abc : 'a\\(b\\)\\(c\\)'"),
    ("expr-regex-group-after-star", "expr aaa : 'a*\\(a\\)'"),
    ("expr-regex-group-digits", "expr abc123 : '[a-z]*\\([0-9]*\\)'"),
    ("expr-regex-group-alternation", "expr bab : '\\(a\\|b\\)*'"),
    ("expr-regex-word-escape", "expr 'ab c' : '\\w*'"),
    ("expr-regex-bracket-backslash", "expr '\\ab' : '[\\]*'"),
    ("expr-regex-bracket-close-first", "expr ']]a' : '[]]*'"),
    ("expr-regex-leading-interval-literal", "expr '{1}' : '\\{1\\}'"),
    ("expr-regex-empty-range-then-dash", "expr -b : '[z-a-]*'"),
    ("expr-regex-nested-star-group", "expr aab : '\\(a*\\)*b'"),
    ("expr-regex-collating-range", "expr b : '[[.a.]-c]'"),
    ("expr-regex-dot-or-longer", "expr ab : '.\\|ab'"),
    ("expr-regex-anchor-then-star", "expr 'a*' : 'a\\>*'"),
    ("expr-regex-backref-other-branch", "expr aa : '\\(a\\)\\|\\1'"),
    ("expr-regex-missing-pattern", "expr abc :"),
    # ---------------------------------------------------------------- length, substr, index
    ("expr-length", "expr length abc"),
    ("expr-length-empty", "expr length ''"),
    ("expr-length-spaces", "expr length 'hello world'"),
    ("expr-length-bytes", "expr length \"$(printf '\\303\\251')\""),
    ("expr-length-length", "expr length length"),
    ("expr-length-quoted-keyword", "expr length + length"),
    ("expr-length-binds-tighter", "expr length 1 + 1"),
    ("expr-length-compare", "expr length abc = 3"),
    ("expr-length-missing", "expr length"),
    ("expr-substr", "expr substr hello 2 3"),
    ("expr-substr-pos-zero", "expr substr hello 0 2"),
    ("expr-substr-len-zero", "expr substr hello 1 0"),
    ("expr-substr-pos-negative", "expr substr hello -1 2"),
    ("expr-substr-len-negative", "expr substr hello 2 -1"),
    ("expr-substr-past-end", "expr substr hello 4 10"),
    ("expr-substr-after-end", "expr substr hello 6 1"),
    ("expr-substr-last", "expr substr hello 5 1"),
    ("expr-substr-non-integer-pos", "expr substr hello a 1"),
    ("expr-substr-huge-length", "expr substr hello 1 99999999999999999999999"),
    ("expr-substr-size-max-minus-one", "expr substr hello 2 18446744073709551614"),
    ("expr-substr-leading-zeros", "expr substr hello 002 02"),
    ("expr-substr-digits", "expr substr 12345 2 2"),
    ("expr-substr-zeros-null", "expr substr 000 1 2"),
    ("expr-substr-missing", "expr substr"),
    ("expr-substr-missing-length", "expr substr hello 1"),
    ("expr-substr-huge-pos", "expr substr hello 99999999999999999999 1"),
    ("expr-substr-size-max", "expr substr hello 3 18446744073709551615"),
    ("expr-index-several", "expr index hello lo"),
    ("expr-index-digits", "expr index 12345 3"),
    ("expr-length-paren", "expr length '('"),
    ("expr-length-number-value", "expr length 00"),
    ("expr-index", "expr index hello l"),
    ("expr-index-any-char", "expr index hello xyzo"),
    ("expr-index-none", "expr index hello z"),
    ("expr-index-empty-chars", "expr index hello ''"),
    ("expr-index-empty-string", "expr index '' a"),
    ("expr-index-first-of-set", "expr index abc cb"),
    ("expr-index-missing", "expr index abc"),
    ("expr-quote-keyword", "expr + match"),
    ("expr-quote-plus", "expr + +"),
    ("expr-quote-alone", "expr +"),
    ("expr-quote-then-extra", "expr + length abc"),
    ("expr-quote-operator-length", "expr length + '*'"),
    ("expr-quote-paren", "expr + '(' = '('"),
    ("expr-keyword-as-operand", "expr match = match"),
    ("expr-operator-as-value", "expr '*'"),
    # ---------------------------------------------------------------- parentheses and syntax
    ("expr-parens-nested", "expr '(' '(' 1 ')' ')'"),
    ("expr-parens-empty", "expr '(' ')'"),
    ("expr-parens-unclosed", "expr '(' 1"),
    ("expr-parens-wrong-close", "expr '(' 1 2"),
    ("expr-close-alone", "expr ')'"),
    ("expr-unexpected-argument", "expr 1 2"),
    ("expr-unexpected-after-parens", "expr '(' 1 ')' 2"),
    ("expr-unexpected-quoted-apostrophe", "expr 1 \"a'b\""),
    ("expr-unexpected-quoted-tab", "expr 1 \"$(printf 'a\\tb')\""),
    ("expr-unexpected-quoted-backslash", "expr 1 'a\\b'"),
    ("expr-unexpected-quoted-high-byte", "expr 1 \"$(printf '\\303\\251')\""),
    ("expr-unexpected-empty", "expr 1 ''"),
    ("expr-parens-unclosed-after-op", "expr '(' 1 + 2"),
    ("expr-dashdash-twice", "expr -- --"),
    ("expr-skip-branch-parens", "expr 0 '&' '(' 1 / 0 ')'"),
    ("expr-skip-branch-syntax", "expr 1 '|' length"),
    ("expr-compare-and", "expr 1 '<' 2 '&' 3 '>' 2"),
    ("expr-gt-after-plus", "expr 1 + 2 \\> 2"),
    ("expr-deep-parens", "expr $(for i in $(seq 60); do printf '( '; done) 7 "
                         "$(for i in $(seq 60); do printf ') '; done)"),
    ("expr-error-order", "expr 1 / 0 + ')'"),
    ("expr-syntax-before-eval", "expr a + 1 2"),
    # ---------------------------------------------------------------- in scripts
    ("expr-script-increment", "i=5; i=$(expr $i + 1); echo $i"),
    ("expr-script-loop", "i=0; while [ $i -lt 5 ]; do i=`expr $i + 1`; done; echo $i"),
    ("expr-script-extension", "for f in *; do echo \"$f -> $(expr \"$f\" : '.*\\.\\(.*\\)')\"; done"),
    ("expr-script-length", "s='hello world'; expr length \"$s\""),
    ("expr-script-is-number", "x=123; if expr \"$x\" : '[0-9]*$' > /dev/null; then echo num; else echo not; fi"),
    ("expr-script-is-not-number", "x=12a; if expr \"$x\" : '[0-9]*$' > /dev/null; then echo num; else echo not; fi"),
    ("expr-script-and-or-fallback", "expr 0 > /dev/null || echo zero"),
    ("expr-script-prefix-strip", "v=v1.2.3; expr \"$v\" : 'v\\(.*\\)'"),
    ("expr-script-key-value", "kv=name=bob; expr \"$kv\" : '[^=]*=\\(.*\\)'"),
    ("expr-script-status-syntax", "expr 1 + > /dev/null 2>&1; echo $?"),
    ("expr-script-status-regex-error", "expr a : '\\(' 2> /dev/null; echo $?"),
    ("expr-script-sum", "t=0; for n in 3 4 5; do t=$(expr $t + $n); done; echo $t"),
    ("expr-script-substr-var", "s=abcdef; expr substr \"$s\" 3 2"),
    ("expr-script-unquoted-star-quoted", "expr 3 \\* 4"),
    ("expr-script-escaped-parens", "expr \\( 1 + 2 \\) \\* 3"),
    ("expr-script-string-is-empty", "x=; expr \"x$x\" = x"),
]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="expr-"))
    try:
        build_world(root)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, PREFIX + line]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    record = {"id": case_id, "command": "expr", "line": line}
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
    parser.add_argument("--only", help="print the records whose id contains this text instead of writing the file")
    options = parser.parse_args(argv)
    if shutil.which("bwrap") is None:
        print("bwrap (bubblewrap) is required", file=sys.stderr)
        return 2
    ids = [case_id for case_id, _ in CASES]
    if len(ids) != len(set(ids)) or not all(case_id.startswith("expr-") for case_id in ids):
        print("duplicate or misnamed case ids", file=sys.stderr)
        return 1
    if options.only:
        for case_id, line in CASES:
            if options.only in case_id:
                print(json.dumps(record_case(case_id, line), ensure_ascii=False))
        return 0
    records = [record_case(case_id, line) for case_id, line in CASES]
    data = {"prefix": PREFIX, "world": WORLD, "cases": records}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(records)} cases written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
