"""Records GNU bc 1.07.1 cases from the real bc: tests/data/bc_corpus.json, replayed by
tests/test_cmd_bc.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_line_tools.py).

    python tools/record_bc.py                # record and write the JSON
    python tools/record_bc.py --only div     # print the records whose id contains "div"
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "bc_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

WORLD = {
    "/w/prog.bc": "define f(x) {\n  if (x <= 1) return (1)\n  return (x * f(x - 1))\n}\nf(10)\n",
    "/w/vars.bc": "a = 3\nb = 4\n",
    "/w/quit.bc": "1 + 1\nquit\n5\n",
    "/w/noeol.bc": "2 * 21",
    "/w/bad.bc": "1 +\n2\n",
    "/w/nums.txt": "3.5\n1.25\n",
}

# (id, line).
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- typical agent lines
    ("agent-scale-div", 'echo "scale=2; 10/3" | bc'),
    ("agent-add-decimals", 'echo "3.5 + 1.25" | bc'),
    ("agent-herestring-sine", 'bc -l <<< "s(1)"'),
    ("agent-var-times", 'a=42; echo "$a * 1.1" | bc'),
    ("agent-sqrt-capture", 'x=$(echo "sqrt(2)" | bc -l); echo "x=$x"'),
    ("agent-compare-true", 'a=5; b=3; echo "$a > $b" | bc'),
    ("agent-compare-false", 'a=2.5; b=3; echo "$a > $b" | bc'),
    ("agent-compare-eq", 'echo "1.0 == 1" | bc'),
    ("agent-percent", 'echo "scale=1; 37 * 100 / 120" | bc'),
    ("agent-bc-l-div", 'echo "10/3" | bc -l'),
    ("agent-int-div", 'echo "10/3" | bc'),
    ("agent-pow", 'echo "2^10" | bc'),
    ("agent-big-pow", 'echo "2^200" | bc'),
    ("agent-factorial", 'echo "define f(n) { if (n < 2) return 1; return n * f(n-1) }; f(30)" | bc'),
    ("agent-sum-loop", 'echo "s=0; for (i=1; i<=100; i++) s+=i; s" | bc'),
    ("agent-pi", 'echo "scale=10; 4*a(1)" | bc -l'),
    ("agent-e", 'echo "e(1)" | bc -l'),
    ("agent-ln", 'echo "l(10)" | bc -l'),
    ("agent-round-trick", 'echo "scale=0; (2.567*100+0.5)/1" | bc'),
    ("agent-scale-var", 'echo "scale=4; 1/7" | bc'),
    ("agent-hex-out", 'echo "obase=16; 255" | bc'),
    ("agent-bin-out", 'echo "obase=2; 10" | bc'),
    ("agent-hex-in", 'echo "ibase=16; FF" | bc'),
    ("agent-multi-line", "printf '1+1\\n2*3\\n' | bc"),
    ("agent-neg", 'echo "-5 + 3" | bc'),
    ("agent-neg-frac", 'echo "scale=2; -1/2" | bc'),
    ("agent-frac-no-zero", 'echo "0.5 * 1" | bc'),
    ("agent-minus-frac", 'echo "1 - 1.5" | bc'),
    ("agent-mb", 'echo "scale=2; 1536/1024" | bc'),
    ("agent-celsius", 'f=98.6; echo "scale=2; ($f - 32) * 5 / 9" | bc'),
    ("agent-file-arg", "bc prog.bc"),
    ("agent-quiet", 'echo "1+2" | bc -q'),
    ("agent-sqrt-int", 'echo "sqrt(16)" | bc'),
    ("agent-sqrt-scale", 'echo "scale=5; sqrt(2)" | bc'),
    ("agent-if-inline", 'echo "x=7; if (x > 5) 1 else 0" | bc'),
    ("agent-mod", 'echo "17 % 5" | bc'),
    ("agent-length", 'echo "length(12345.678)" | bc'),
    ("agent-scale-fn", 'echo "scale(3.14159)" | bc'),
    ("agent-avg", 'echo "scale=3; (3+4+5+6)/4" | bc'),
    ("agent-dollar-compare", 'echo "0.1 < 0.2" | bc'),
    # ---------------------------------------------------------------- arithmetic and scale rules
    ("arith-mul-scale", 'echo "1.25 * 1.5" | bc'),
    ("arith-mul-scale-set", 'echo "scale=1; 1.25 * 1.5" | bc'),
    ("arith-mul-scale-large", 'echo "scale=10; 1.25 * 1.5" | bc'),
    ("arith-add-scale", 'echo "1.500 + 2" | bc'),
    ("arith-sub-scale", 'echo "5 - 2.00" | bc'),
    ("arith-trailing-zeros", 'echo "1.000" | bc'),
    ("arith-zero-with-scale", 'echo "0.000" | bc'),
    ("arith-neg-zero", 'echo "-0" | bc'),
    ("arith-div-neg", 'echo "scale=3; -7/2" | bc'),
    ("arith-int-div-neg", 'echo "-7/2" | bc'),
    ("arith-mod-neg", 'echo "-7 % 3" | bc'),
    ("arith-mod-scale", 'echo "scale=2; 7 % 3" | bc'),
    ("arith-mod-l", 'echo "7 % 3" | bc -l'),
    ("arith-mod-frac", 'echo "5.5 % 2" | bc'),
    ("arith-pow-neg-exp", 'echo "2^-2" | bc'),
    ("arith-pow-neg-exp-scale", 'echo "scale=4; 2^-3" | bc'),
    ("arith-pow-frac-base", 'echo "1.5^3" | bc'),
    ("arith-pow-frac-base-scale", 'echo "scale=2; 1.5^3" | bc'),
    ("arith-pow-zero", 'echo "0^0" | bc'),
    ("arith-pow-neg-base", 'echo "(-2)^3" | bc'),
    ("arith-unary-pow", 'echo "-2^2" | bc'),
    ("arith-pow-right-assoc", 'echo "2^3^2" | bc'),
    ("arith-pow-frac-exp", 'echo "2^1.5" | bc'),
    ("arith-precedence", 'echo "1+2*3-4/2" | bc'),
    ("arith-parens", 'echo "(1+2)*3" | bc'),
    ("arith-sqrt-frac", 'echo "sqrt(0.25)" | bc'),
    ("arith-sqrt-scale-arg", 'echo "sqrt(2.0000)" | bc'),
    ("arith-sqrt-big", 'echo "sqrt(123456789012345678901234567890)" | bc'),
    ("arith-sqrt-l", 'echo "sqrt(3)" | bc -l'),
    ("arith-sqrt-small", 'echo "scale=10; sqrt(0.0002)" | bc'),
    ("arith-length-frac", 'echo "length(0.0012)" | bc'),
    ("arith-length-zero", 'echo "length(0)" | bc'),
    ("arith-length-int", 'echo "length(100)" | bc'),
    ("arith-scale-int", 'echo "scale(10)" | bc'),
    ("arith-scale-expr", 'echo "scale(1/3)" | bc -l'),
    ("arith-long-number", 'echo "123456789012345678901234567890 * 987654321098765432109876543210" | bc'),
    ("arith-wrap-70", 'echo "2^500" | bc'),
    ("arith-wrap-frac", 'echo "scale=100; 1/3" | bc'),
    ("arith-wrap-neg", 'echo "-(2^300)" | bc'),
    ("arith-line-continuation", "printf '12\\\\\\n34 + 1\\n' | bc"),
    ("arith-big-digits", 'echo "AB + 1" | bc'),
    ("arith-single-letter-digit", 'echo "A + 1" | bc'),
    ("arith-compare-chain", 'echo "1 < 2 < 3" | bc'),
    ("arith-not", 'echo "!0; !5" | bc'),
    ("arith-and-or", 'echo "1 && 0; 1 || 0; 0 || 0; 2 && 3" | bc'),
    ("arith-rel-ops", 'echo "1 <= 1; 2 >= 3; 1 != 2; 3 == 3" | bc'),
    ("arith-rel-lower-than-assign", 'echo "a = 1 < 2; a" | bc'),
    ("arith-neg-compare", 'echo "-1 < -0.5" | bc'),
    # ---------------------------------------------------------------- variables, arrays, assignment
    ("vars-assign-silent", 'echo "x = 5" | bc'),
    ("vars-assign-paren-prints", 'echo "(x = 5)" | bc'),
    ("vars-undefined-zero", 'echo "y + 1" | bc'),
    ("vars-long-names", 'echo "total_sum = 10; total_sum * 2" | bc'),
    ("vars-op-assign", 'echo "x=10; x+=5; x; x-=3; x; x*=2; x; x/=4; x; x%=4; x; x^=3; x" | bc'),
    ("vars-incdec", 'echo "x=5; x++; x; ++x; x--; --x; x" | bc'),
    ("vars-array", 'echo "a[0]=1; a[1]=2; a[2]=a[0]+a[1]; a[2]; a[5]" | bc'),
    ("vars-array-incdec", 'echo "a[3]=7; a[3]++; ++a[3]; a[3]--; a[3]" | bc'),
    ("vars-array-op-assign", 'echo "a[1]=2; a[1]*=10; a[1]" | bc'),
    ("vars-last", 'echo "5*5; last + 1; . * 2" | bc'),
    ("vars-scale-read", 'echo "scale" | bc -l'),
    ("vars-ibase-obase-read", 'echo "ibase; obase" | bc'),
    ("vars-same-name-array-var", 'echo "a=1; a[0]=2; a; a[0]" | bc'),
    # ---------------------------------------------------------------- bases
    ("base-obase-8", 'echo "obase=8; 64; 7" | bc'),
    ("base-obase-16-frac", 'echo "obase=16; 10.5" | bc'),
    ("base-obase-2-frac", 'echo "obase=2; 0.75" | bc'),
    ("base-obase-16-neg", 'echo "obase=16; -255" | bc'),
    ("base-obase-100", 'echo "obase=100; 123456" | bc'),
    ("base-obase-20-frac", 'echo "obase=20; 1.5" | bc'),
    ("base-obase-1000", 'echo "obase=1000; 2^40" | bc'),
    ("base-obase-3", 'echo "obase=3; 100" | bc'),
    ("base-obase-16-big-wrap", 'echo "obase=16; 2^300" | bc'),
    ("base-ibase-2", 'echo "ibase=2; 1010" | bc'),
    ("base-ibase-2-frac", 'echo "ibase=2; 0.1" | bc'),
    ("base-ibase-16-frac", 'echo "ibase=16; A.8" | bc'),
    ("base-ibase-8", 'echo "ibase=8; 777" | bc'),
    ("base-ibase-then-obase", 'echo "ibase=16; obase=A; FF" | bc'),
    ("base-ibase-clamp-digit", 'echo "ibase=8; 19" | bc'),
    ("base-obase-too-small", 'echo "obase=1; 5" | bc'),
    ("base-ibase-too-large", 'echo "ibase=17; 5" | bc'),
    ("base-obase-zero", 'echo "obase=0; 5" | bc'),
    ("base-obase-2-zero", 'echo "obase=2; 0" | bc'),
    ("base-obase-2-neg-frac", 'echo "obase=2; -1.5" | bc'),
    # ---------------------------------------------------------------- control flow
    ("flow-if-else", 'echo "x=3; if (x == 3) { print \\"yes\\n\\" } else { print \\"no\\n\\" }" | bc'),
    ("flow-if-no-else", 'echo "if (0) 5; 6" | bc'),
    ("flow-while", 'echo "i=0; while (i < 5) { i; i += 1 }" | bc'),
    ("flow-for", 'echo "for (i = 0; i < 3; i++) i * 10" | bc'),
    ("flow-for-break", 'echo "for (i = 0; ; i++) { if (i == 4) break; i }" | bc'),
    ("flow-for-continue", 'echo "for (i = 0; i < 6; i++) { if (i % 2) continue; i }" | bc'),
    ("flow-while-break", 'echo "i=0; while (1) { i += 1; if (i > 3) break }; i" | bc'),
    ("flow-nested", 'echo "for (i=1;i<=3;i++) { for (j=1;j<=i;j++) print i*j, \\" \\"; print \\"\\n\\" }" | bc'),
    ("flow-multiline-block", "printf 'x = 0\\nwhile (x < 3) {\\n  x = x + 1\\n  x\\n}\\n' | bc"),
    ("flow-if-else-newline", "printf 'if (1) {\\n 1\\n} else {\\n 2\\n}\\n' | bc"),
    ("flow-break-outside", 'echo "break" | bc'),
    ("flow-compare-in-if", 'echo "a=2.5; b=2.50; if (a == b) 1" | bc'),
    ("flow-empty-statements", 'echo ";;; 1;; 2" | bc'),
    # ---------------------------------------------------------------- functions
    ("fn-define-call", 'echo "define sq(x) { return (x*x) }; sq(12)" | bc'),
    ("fn-auto", 'echo "define f(x) { auto y; y = x + 1; return (y) }; y = 100; f(1); y" | bc'),
    ("fn-no-return", 'echo "define f() { 5 }; f()" | bc'),
    ("fn-return-empty", 'echo "define f() { return; }; f()" | bc'),
    ("fn-array-param", 'echo "define s(a[], n) { auto i, t; for (i=0;i<n;i++) t += a[i]; return (t) }; x[0]=1; x[1]=2; x[2]=3; s(x[], 3)" | bc'),
    ("fn-recursive-fib", 'echo "define fib(n) { if (n < 2) return (n); return (fib(n-1) + fib(n-2)) }; fib(15)" | bc'),
    ("fn-multiline", "printf 'define g(a, b) {\\n  auto c\\n  c = a * b\\n  return (c + 1)\\n}\\ng(6, 7)\\n' | bc"),
    ("fn-undefined", 'echo "nofn(1)" | bc'),
    ("fn-param-mismatch", 'echo "define f(x) { return (x) }; f(1, 2)" | bc'),
    ("fn-scale-inside", 'echo "define h(x) { scale = 3; return (x / 3) }; h(1); scale" | bc'),
    ("fn-void", 'echo "define void p(x) { print x, \\"\\n\\" }; p(5)" | bc'),
    ("fn-return-in-main", 'echo "return (1)" | bc'),
    ("fn-redefine", 'echo "define f() { return (1) }; define f() { return (2) }; f()" | bc'),
    ("fn-file-vars", "bc vars.bc <<< 'a * b'"),
    # ---------------------------------------------------------------- print and strings
    ("print-list", 'echo "print 1, \\" and \\", 2, \\"\\n\\"" | bc'),
    ("print-escapes", "echo 'print \"a\\tb\\\\\\\\c\\qd\\n\"' | bc"),
    ("print-unknown-escape", "echo 'print \"x\\zy\\n\"' | bc"),
    ("print-string-stmt", 'echo "\\"hello\\"" | bc'),
    ("print-string-newline", "printf '\"two\\nlines\"\\n' | bc"),
    ("print-no-newline", 'echo "print 5" | bc'),
    ("print-sets-last", 'echo "print 7, \\"\\n\\"; last" | bc'),
    ("print-long-string-wrap", 'echo "print \\"$(printf \'%.0sab\' $(seq 50))\\n\\"" | bc'),
    ("print-number-after-text-wrap", 'echo "print \\"$(printf \'%.0sx\' $(seq 60))\\", 2^40, \\"\\n\\"" | bc'),
    # ---------------------------------------------------------------- comments, newlines, quit, halt
    ("syntax-comment-block", 'echo "1 /* comment */ + 2" | bc'),
    ("syntax-comment-hash", 'echo "3 # comment" | bc'),
    ("syntax-comment-multiline", "printf '/* a\\n b */ 4\\n' | bc"),
    ("syntax-quit", 'echo "1; quit; 2" | bc'),
    ("syntax-quit-next-line", "printf '1\\nquit\\n2\\n' | bc"),
    ("syntax-quit-in-if", "printf '1\\nif (0) quit\\n2\\n' | bc"),
    ("syntax-halt", "printf '1\\nhalt\\n2\\n' | bc"),
    ("syntax-halt-in-if", "printf 'if (0) halt\\n3\\n' | bc"),
    ("syntax-quit-file", "bc quit.bc"),
    ("syntax-noeol-file", "bc noeol.bc </dev/null"),
    ("syntax-file-then-stdin", "echo 'a + b' | bc vars.bc"),
    ("syntax-two-files", "bc vars.bc noeol.bc </dev/null"),
    ("syntax-missing-file", "bc missing.bc </dev/null"),
    ("syntax-noeol-stdin", "printf '5+5' | bc"),
    ("syntax-empty-input", "printf '' | bc"),
    ("syntax-blank-lines", "printf '\\n\\n1\\n\\n' | bc"),
    ("syntax-spaces-tabs", "printf '  1\\t+\\t2  \\n' | bc"),
    ("syntax-uppercase-var", 'echo "X = 1" | bc'),
    # ---------------------------------------------------------------- errors
    ("error-div-zero", 'echo "1/0" | bc'),
    ("error-div-zero-continue", "printf '1/0\\n5\\n' | bc"),
    ("error-div-zero-later", 'echo "x = 5; y = 0; 2; x / y; 3" | bc'),
    ("error-mod-zero", 'echo "5 % 0" | bc'),
    ("error-sqrt-neg", 'echo "sqrt(-4)" | bc'),
    ("error-pow-zero-neg", 'echo "0^-1" | bc'),
    ("error-syntax", 'echo "1 +" | bc'),
    ("error-syntax-star", 'echo "2 * * 3" | bc'),
    ("error-syntax-then-ok", "printf '1 +* 2\\n3\\n' | bc"),
    ("error-syntax-line2", "printf '1\\n)\\n3\\n' | bc"),
    ("error-syntax-same-line", 'echo "4; 5 +; 6" | bc'),
    ("error-illegal-char", 'echo "1 @ 2" | bc'),
    ("error-illegal-char-dollar", 'echo "\\$x" | bc'),
    ("error-file-syntax", "bc bad.bc </dev/null"),
    ("error-unclosed-comment", 'echo "1 /* never" | bc'),
    ("error-unclosed-string", "echo '\"abc' | bc"),
    ("error-unknown-option", "bc -z </dev/null"),
    ("error-div-zero-in-fn", 'echo "define f(x) { return (1/x) }; f(0); 9" | bc'),
    ("error-sqrt-neg-l", 'echo "sqrt(-1)" | bc -l'),
    ("error-scale-negative", 'echo "scale=-1; 1/3" | bc'),
    ("error-exponent-frac-warning", 'echo "2^0.5" | bc'),
    ("error-uppercase-name", 'echo "Abc = 1" | bc'),
    # ---------------------------------------------------------------- math library
    ("math-s", 'echo "s(0.5)" | bc -l'),
    ("math-c", 'echo "c(1)" | bc -l'),
    ("math-c-zero", 'echo "c(0)" | bc -l'),
    ("math-a", 'echo "a(1)" | bc -l'),
    ("math-a-neg", 'echo "a(-2)" | bc -l'),
    ("math-l", 'echo "l(2)" | bc -l'),
    ("math-l-frac", 'echo "l(0.5)" | bc -l'),
    ("math-l-zero", 'echo "l(0)" | bc -l'),
    ("math-e-neg", 'echo "e(-1)" | bc -l'),
    ("math-e-zero", 'echo "e(0)" | bc -l'),
    ("math-e-big", 'echo "e(10)" | bc -l'),
    ("math-j", 'echo "j(0, 1)" | bc -l'),
    ("math-j1", 'echo "j(1, 2.5)" | bc -l'),
    ("math-s-scale-5", 'echo "scale=5; s(1)" | bc -l'),
    ("math-s-big", 'echo "s(100)" | bc -l'),
    ("math-s-neg", 'echo "s(-1)" | bc -l'),
    ("math-l-e", 'echo "l(e(2))" | bc -l'),
    ("math-pow-real", 'echo "e(2.5*l(3))" | bc -l'),
    ("math-scale-40", 'echo "scale=40; 4*a(1)" | bc -l'),
    ("math-without-l", 'echo "s(1)" | bc'),
    ("math-l-one", 'echo "l(1)" | bc -l'),
    ("math-a-zero", 'echo "a(0)" | bc -l'),
    ("math-s-zero", 'echo "s(0)" | bc -l'),
    ("math-cube-root", 'echo "e(l(27)/3)" | bc -l'),
    ("math-negative-args", 'echo "c(-1); s(-100); c(-3); a(-0.5); l(0.3); l(0.001); e(-2.5)" | bc -l'),
    ("math-bessel-more", 'echo "j(-3, 2); j(2, -1.5)" | bc -l'),
    ("math-big-args", 'echo "s(10^30); a(1000); a(-.2)" | bc -l'),
    ("math-scale-0", 'echo "scale=0; e(1); s(1); l(10)" | bc -l'),
    ("math-scale-50", 'echo "scale=50; e(1)" | bc -l'),
    ("option-help", "bc -h"),
    ("option-version", "bc --version"),
    ("option-mathlib-long", 'echo "a(1)*4" | bc --mathlib'),
    ("option-combined", 'echo "l(100)" | bc -ql'),
]


def build_world(root: Path) -> None:
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="bc-"))
    try:
        build_world(root)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, PREFIX + line]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    record = {"id": case_id, "line": line}
    try:
        record["stdout"] = done.stdout.decode("utf-8")
    except UnicodeDecodeError:
        record["stdout_b64"] = base64.b64encode(done.stdout).decode("ascii")
    record["exit_code"] = done.returncode
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
    if len(ids) != len(set(ids)):
        print("duplicate case ids", file=sys.stderr)
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
