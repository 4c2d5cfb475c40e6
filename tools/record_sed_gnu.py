"""Records GNU sed 4.9 (the bash language's sed) from the real program:
tests/data/sed_gnu_corpus.json, replayed by tests/test_cmd_sed_gnu.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_coreutils_more.py).

    python tools/record_sed_gnu.py                 # record and write the JSON
    python tools/record_sed_gnu.py --only sed-w    # print the records whose id starts so
    python tools/record_sed_gnu.py --probe LINE    # print one ad-hoc line's record
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "sed_gnu_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

WORLD = {
    "/w/a.txt": "one\ntwo\nthree\n",
    "/w/b.txt": "alpha beta\ngamma\n",
    "/w/nums.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
    "/w/noeol.txt": "x\ny",
    "/w/words.txt": "hello world\nfoo bar baz\nHello Again\n",
    "/w/dup.txt": "a\na\nb\nc\nc\nc\nd\n",
    "/w/blank.txt": "a\n\n\nb\n\nc\n",
    "/w/conf.ini": "[main]\nkey=value\n# comment\nname = demo\n",
    "/w/script.sed": "s/one/ONE/\n2d\n",
    "/w/join.sed": ":a\nN\n$!ba\ns/\\n/,/g\n",
    "/w/multi.sed": "# a comment\n/two/ {\n  s/two/2/\n  p\n}\n$a\\\nend of file\n",
    "/w/bad.sed": "p\nk\n",
    "/w/insert.txt": "INSERTED\n",
    "/w/lines.txt": "L1\nL2\n",
    "/w/sub/inner.txt": "inner\n",
    "/w/empty.txt": "",
}

# (id, line). Every id starts with "sed-".
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- basics, -n, p
    ("sed-s-basic", "sed 's/one/ONE/' a.txt"),
    ("sed-s-g", "printf 'aaa\\n' | sed 's/a/b/g'"),
    ("sed-s-2", "printf 'aaa\\n' | sed 's/a/b/2'"),
    ("sed-s-2g", "printf 'aaaa\\n' | sed 's/a/b/2g'"),
    ("sed-s-3-nomatch", "printf 'aa\\n' | sed 's/a/b/3'"),
    ("sed-s-p-n", "sed -n 's/o/0/p' a.txt"),
    ("sed-s-gp", "sed -n 's/e/E/gp' a.txt"),
    ("sed-s-I", "sed 's/HELLO/hi/I' words.txt"),
    ("sed-s-i-lower", "sed 's/hello/hi/ig' words.txt"),
    ("sed-s-amp", "sed 's/o/[&]/g' a.txt"),
    ("sed-s-escaped-amp", "printf 'a\\n' | sed 's/a/\\&/'"),
    ("sed-s-groups", "sed 's/\\(.*\\) \\(.*\\)/\\2 \\1/' words.txt"),
    ("sed-s-ere-groups", "sed -E 's/(\\w+) (\\w+)/\\2-\\1/' words.txt"),
    ("sed-s-r-groups", "sed -r 's/([a-z]+)([0-9]+)/\\2\\1/' <<< 'abc123'"),
    ("sed-s-newline-repl", "printf 'a,b,c\\n' | sed 's/,/\\n/g'"),
    ("sed-s-tab-repl", "printf 'a b\\n' | sed 's/ /\\t/'"),
    ("sed-s-newline-regex", "printf 'a\\nb\\n' | sed 'N;s/\\n/+/'"),
    ("sed-s-tab-regex", "printf 'a\\tb\\n' | sed 's/\\t/<T>/'"),
    ("sed-s-upper", "sed 's/.*/\\U&/' a.txt"),
    ("sed-s-lower", "sed 's/.*/\\L&/' words.txt"),
    ("sed-s-u-first", "sed 's/\\w\\+/\\u&/g' a.txt"),
    ("sed-s-l-first", "printf 'ABC DEF\\n' | sed 's/\\w\\+/\\l&/g'"),
    ("sed-s-U-E", "printf 'hello world\\n' | sed -E 's/(\\w+) (\\w+)/\\U\\1\\E \\2/'"),
    ("sed-s-L-u", "printf 'hELLO\\n' | sed 's/.*/\\L\\u&/'"),
    ("sed-s-U-l", "printf 'hello\\n' | sed 's/.*/\\U\\l&/'"),
    ("sed-s-u-L-group", "printf 'foo BAR\\n' | sed -E 's/(\\w+) (\\w+)/\\u\\L\\2 \\1/'"),
    ("sed-s-delim-pipe", "printf '/usr/bin\\n' | sed 's|/usr|/opt|'"),
    ("sed-s-delim-comma", "printf 'a/b\\n' | sed 's,/,:,'"),
    ("sed-s-delim-escaped", "printf 'a|b\\n' | sed 's|\\||-|'"),
    ("sed-s-empty-regex-reuse", "sed '/t/s//T/g' a.txt"),
    ("sed-s-star-empty", "printf 'abc\\n' | sed 's/x*/-/g'"),
    ("sed-s-anchors", "sed 's/^/> /;s/$/ </' a.txt"),
    ("sed-s-M-flag", "printf 'a\\nb\\n' | sed 'N;s/^b/B/M'"),
    ("sed-s-M-dollar", "printf 'a\\nb\\n' | sed 'N;s/a$/A/M'"),
    ("sed-s-hex-repl", "printf 'a\\n' | sed 's/a/\\x41/'"),
    ("sed-s-octal-repl", "printf 'a\\n' | sed 's/a/\\o102/'"),
    ("sed-s-decimal-repl", "printf 'a\\n' | sed 's/a/\\d67/'"),
    ("sed-s-cx-repl", "printf 'a\\n' | sed 's/a/\\cA/' | od -c | head -n 1"),
    ("sed-s-backslash-newline-repl", "printf 'a b\\n' | sed 's/ /\\\n/'"),
    ("sed-s-group0", "printf 'abc\\n' | sed 's/b/<\\0>/'"),
    ("sed-s-bracket-delim", "printf 'a/b\\n' | sed 's/[/]/X/'"),
    ("sed-s-class", "printf 'a1b2\\n' | sed 's/[[:digit:]]/#/g'"),
    ("sed-s-interval", "printf 'aaaa\\n' | sed 's/a\\{2\\}/X/'"),
    ("sed-s-ere-plus", "printf 'aaab\\n' | sed -E 's/a+/X/'"),
    ("sed-s-bre-plus", "printf 'aaab\\n' | sed 's/a\\+/X/'"),
    ("sed-s-alternation", "printf 'cat dog\\n' | sed 's/cat\\|dog/pet/g'"),
    ("sed-s-w-stdout", "sed -n 's/two/2/w /dev/stdout' a.txt"),
    ("sed-s-w-file", "sed 's/o/0/w out.txt' a.txt; echo ---; cat out.txt"),
    ("sed-s-gpw", "sed -n 's/e/E/gpw out.txt' a.txt; cat out.txt"),
    ("sed-n-p", "sed -n 'p' a.txt"),
    ("sed-p-double", "sed p a.txt"),
    ("sed-n-2p", "sed -n 2p nums.txt"),
    ("sed-n-last", "sed -n '$p' nums.txt"),
    ("sed-n-range", "sed -n '3,5p' nums.txt"),
    ("sed-quiet-long", "sed --quiet 1p a.txt"),
    ("sed-silent-long", "sed --silent '$p' a.txt"),
    ("sed-hash-n", "printf '#n\\n2p\\n' > q.sed; sed -f q.sed a.txt"),
    ("sed-d", "sed 2d a.txt"),
    ("sed-d-range", "sed '2,8d' nums.txt"),
    ("sed-d-last", "sed '$d' a.txt"),
    ("sed-d-blank", "sed '/^$/d' blank.txt"),
    ("sed-negate", "sed -n '2!p' a.txt"),
    ("sed-negate-range", "sed '2,9!d' nums.txt"),
    # ---------------------------------------------------------------- addresses
    ("sed-addr-regex", "sed -n '/t/p' a.txt"),
    ("sed-addr-regex-I", "sed -n '/hello/Ip' words.txt"),
    ("sed-addr-regex-M", "printf 'a\\nb\\n' | sed -n 'N;/^b/Mp'"),
    ("sed-addr-custom-delim", "sed -n '\\%t%p' a.txt"),
    ("sed-addr-regex-range", "sed -n '/two/,/three/p' a.txt"),
    ("sed-addr-regex-range-open", "sed -n '/2/,/nomatch/p' nums.txt"),
    ("sed-addr-zero-re", "printf 'x\\nx\\nx\\n' | sed '0,/x/s//y/'"),
    ("sed-addr-one-re", "printf 'x\\nx\\nx\\n' | sed '1,/x/s//y/'"),
    ("sed-addr-zero-bad", "sed -n '0,3p' nums.txt"),
    ("sed-addr-zero-alone", "sed -n '0p' nums.txt"),
    ("sed-addr-step", "sed -n '1~3p' nums.txt"),
    ("sed-addr-step-zero", "sed -n '0~4p' nums.txt"),
    ("sed-addr-step-first-zero-step", "sed -n '2~0p' nums.txt"),
    ("sed-addr-plus", "sed -n '/3/,+2p' nums.txt"),
    ("sed-addr-tilde", "sed -n '5,~4p' nums.txt"),
    ("sed-addr-tilde-aligned", "sed -n '4,~4p' nums.txt"),
    ("sed-addr-backwards", "sed -n '5,2p' nums.txt"),
    ("sed-addr-last-range", "sed -n '8,$p' nums.txt"),
    ("sed-addr-spaces", "sed -n '2 , 3 p' nums.txt"),
    ("sed-addr-regex-then-line", "sed -n '/5/,7p' nums.txt"),
    ("sed-addr-dollar-two-files", "sed -n '$p' a.txt b.txt"),
    ("sed-addr-plus-first-bad", "sed -n '+2p' nums.txt"),
    ("sed-addr-missing-command", "sed '2' nums.txt"),
    ("sed-addr-unexpected-comma", "sed ',2p' nums.txt"),
    # ---------------------------------------------------------------- -s, -z
    ("sed-s-separate-last", "sed -s -n '$p' a.txt b.txt"),
    ("sed-separate-long", "sed --separate -n 1p a.txt b.txt nums.txt"),
    ("sed-separate-F", "sed -s 1F a.txt b.txt"),
    ("sed-F-stdin", "printf 'q\\n' | sed F"),
    ("sed-F-files", "sed -n '$F' a.txt b.txt"),
    ("sed-line-numbers-continue", "sed -n '$=' a.txt b.txt"),
    ("sed-separate-numbers", "sed -s -n '$=' a.txt b.txt"),
    ("sed-z-basic", "printf 'a\\0b\\0' | sed -z 's/^/>/' | tr '\\0' '|'"),
    ("sed-z-newlines", "printf 'a\\nb\\nc\\n' | sed -z 's/\\n/,/g'"),
    ("sed-z-long", "printf 'x\\0y\\0' | sed --null-data -n 2p | tr '\\0' '#'"),
    ("sed-z-dollar", "printf 'a\\nb\\n' | sed -z 's/b$/B/'"),
    ("sed-z-noterm", "printf 'a\\0b' | sed -z 's/b/B/' | od -c | head -n 1"),
    ("sed-z-N", "printf 'a\\0b\\0' | sed -z 'N;s/\\x00/+/' | tr '\\0' '|'"),
    ("sed-z-G", "printf 'a\\0' | sed -z 'G' | od -c | head -n 1"),
    ("sed-z-l", "printf 'a\\nb\\0' | sed -z -n l"),
    ("sed-z-eq", "printf 'a\\0b\\0' | sed -z = | tr '\\0' '|'"),
    # ---------------------------------------------------------------- -i
    ("sed-i-basic", "sed -i 's/one/ONE/' a.txt; cat a.txt"),
    ("sed-i-bak", "sed -i.bak 's/one/ONE/' a.txt; cat a.txt a.txt.bak"),
    ("sed-i-two-files", "sed -i '1d' a.txt b.txt; cat a.txt b.txt"),
    ("sed-i-last-each", "sed -i '$s/$/!/' a.txt b.txt; cat a.txt b.txt"),
    ("sed-i-star", "sed -i'old_*' 's/a/A/' b.txt; cat b.txt old_b.txt"),
    ("sed-i-dir-suffix", "mkdir bak; sed -i'bak/*.orig' 's/a/A/' b.txt; cat b.txt bak/b.txt.orig"),
    ("sed-i-long", "sed --in-place=.orig 's/x/X/' noeol.txt; cat noeol.txt; echo; cat noeol.txt.orig"),
    ("sed-i-no-files", "sed -i 's/a/b/'"),
    ("sed-i-missing-continue", "sed -i 's/o/0/' missing.txt a.txt; echo rc=$?; cat a.txt"),
    ("sed-i-n-p", "sed -n -i '2p' a.txt; cat a.txt"),
    ("sed-i-q", "sed -i 2q nums.txt a.txt; cat nums.txt a.txt"),
    ("sed-i-F", "sed -i F a.txt; cat a.txt"),
    ("sed-i-w-stdout", "sed -i 's/two/2/w /dev/stdout' a.txt; cat a.txt"),
    ("sed-i-dir", "sed -i p sub; echo rc=$?"),
    ("sed-i-separate-numbers", "sed -i '1i\\top' a.txt b.txt; cat a.txt b.txt"),
    ("sed-i-ni", "sed -ni.b '1p' a.txt; cat a.txt a.txt.b"),
    ("sed-i-E-cluster", "sed -Ei 's/(o+)/[\\1]/' a.txt; cat a.txt"),
    ("sed-i-empty-file", "sed -i '1i\\x' empty.txt; cat empty.txt; echo end"),
    # ---------------------------------------------------------------- scripts: -e -f -f -
    ("sed-e-two", "sed -e 's/one/1/' -e 's/two/2/' a.txt"),
    ("sed-e-long", "sed --expression='s/one/1/' --expression 's/two/2/' a.txt"),
    ("sed-f-file", "sed -f script.sed a.txt"),
    ("sed-f-join", "sed -f join.sed nums.txt"),
    ("sed-f-multi", "sed -n -f multi.sed a.txt"),
    ("sed-f-multi-print", "sed -f multi.sed a.txt"),
    ("sed-f-stdin", "printf 's/a/A/g\\n' | sed -f - b.txt"),
    ("sed-f-stdin-long", "echo '2d' | sed --file=- a.txt"),
    ("sed-f-and-e", "sed -e 's/two/2/' -f script.sed a.txt"),
    ("sed-f-missing", "sed -f nope.sed a.txt"),
    ("sed-f-error-line", "sed -f bad.sed a.txt"),
    ("sed-f-heredoc", "sed -f /dev/stdin a.txt <<'EOF'\n1i\\\nheader\ns/t/T/\nEOF"),
    ("sed-f-attached", "sed -nf script.sed a.txt"),
    ("sed-multiline-script", "sed '1 {\n  s/one/1/\n  a\\\nafter one\n}' a.txt"),
    ("sed-here-string", "sed 's/ /_/g' <<< 'a b c'"),
    ("sed-here-string-n", "sed -n '/b/p' <<< 'abc'"),
    ("sed-e-a-continuation", "sed -e '1a\\' -e 'added' a.txt"),
    ("sed-e-block-across", "sed -n -e '2{' -e p -e '}' a.txt"),
    # ---------------------------------------------------------------- text commands
    ("sed-a", "sed '2a\\appended' a.txt"),
    ("sed-a-one-liner", "sed '2a appended' a.txt"),
    ("sed-a-leading-spaces", "sed '1a\\   spaced' a.txt"),
    ("sed-a-multiline", "sed '1a\\\nfirst\\\nsecond' a.txt"),
    ("sed-a-escapes", "sed '1a\\tab\\there' a.txt"),
    ("sed-i-cmd", "sed '2i\\inserted' a.txt"),
    ("sed-i-cmd-one-liner", "sed '$i before last' a.txt"),
    ("sed-c", "sed '2c\\changed' a.txt"),
    ("sed-c-range", "sed '2,3c\\changed' a.txt"),
    ("sed-c-negate", "sed '2!c\\X' a.txt"),
    ("sed-c-last", "sed '$c\\END' noeol.txt"),
    ("sed-a-noeol", "sed '$a\\END' noeol.txt"),
    ("sed-a-then-q", "sed '1{a\\after\nq}' a.txt"),
    ("sed-a-missing-text", "sed a a.txt"),
    # ---------------------------------------------------------------- r R w W
    ("sed-r", "sed '1r insert.txt' a.txt"),
    ("sed-r-every", "sed 'r insert.txt' lines.txt"),
    ("sed-r-missing", "sed '1r nope.txt' a.txt"),
    ("sed-r-last", "sed '$r insert.txt' noeol.txt"),
    ("sed-r-no-name", "sed r a.txt"),
    ("sed-R", "sed 'R lines.txt' a.txt"),
    ("sed-R-missing", "sed 'R nope.txt' a.txt"),
    ("sed-w", "sed -n '/t/w out.txt' a.txt; cat out.txt"),
    ("sed-w-truncates", "printf 'old\\n' > out.txt; sed -n '/zzz/w out.txt' a.txt; cat out.txt; echo end"),
    ("sed-w-two-commands-one-file", "sed -n -e '1w out.txt' -e '3w out.txt' a.txt; cat out.txt"),
    ("sed-w-stderr", "sed -n '2w /dev/stderr' a.txt 2>&1"),
    ("sed-w-bad-dir", "sed 'w nodir/out.txt' a.txt; echo rc=$?"),
    ("sed-W", "printf 'a\\nb\\nc\\n' | sed -n 'N;W out.txt'; cat out.txt"),
    ("sed-w-noeol", "sed -n 'w out.txt' noeol.txt; od -c out.txt | head -n 2"),
    ("sed-w-no-name", "sed w a.txt"),
    # ---------------------------------------------------------------- hold space, multiline idioms
    ("sed-tac", "sed '1!G;h;$!d' a.txt"),
    ("sed-h-G-x", "sed -n 'h;G;x;p' a.txt"),
    ("sed-x", "sed x a.txt"),
    ("sed-H-x", "sed -n 'H;${x;s/\\n/,/g;p}' a.txt"),
    ("sed-g-empty", "sed g a.txt"),
    ("sed-join-all", "sed ':a;N;$!ba;s/\\n/ /g' a.txt"),
    ("sed-NPD-uniq", "sed '$!N;/^\\(.*\\)\\n\\1$/!P;D' dup.txt"),
    ("sed-N-pairs", "sed '$!N;s/\\n/-/' nums.txt"),
    ("sed-N-odd", "printf '1\\n2\\n3\\n' | sed 'N;s/\\n/-/'"),
    ("sed-N-posix-last", "printf '1\\n2\\n3\\n' | sed --posix 'N;s/\\n/-/'"),
    ("sed-n-cmd", "sed -n 'n;p' nums.txt"),
    ("sed-n-cmd-last", "printf 'a\\nb\\nc\\n' | sed 'n;d'"),
    ("sed-P", "printf 'a\\nb\\n' | sed -n 'N;P'"),
    ("sed-D-loop", "printf 'a\\nb\\nc\\n' | sed 'N;N;D'"),
    ("sed-squeeze-blank", "sed '/^$/N;/\\n$/D' blank.txt"),
    ("sed-tail-2", "sed '$!N;$!D' nums.txt"),
    ("sed-rev-chars", "printf 'abc\\n' | sed '/\\n/!G;s/\\(.\\)\\(.*\\n\\)/&\\2\\1/;//D;s/.//'"),
    ("sed-number-lines", "sed = a.txt | sed 'N;s/\\n/\\t/'"),
    ("sed-count-lines", "sed -n '$=' nums.txt"),
    ("sed-eq-range", "sed -n '/two/,$=' a.txt"),
    # ---------------------------------------------------------------- branches, q, Q
    ("sed-t", "printf 'aaa\\n' | sed ':a;s/a/b/;ta'"),
    ("sed-t-reset", "printf 'ab\\n' | sed 's/a/A/;tx;s/b/B/;:x;s/b/C/'"),
    ("sed-T", "printf 'ab\\nb\\n' | sed 's/a//;T;s/b/c/'"),
    ("sed-b-end", "sed '/two/b;s/$/!/' a.txt"),
    ("sed-b-label", "sed -n '/one/b skip;p;:skip' a.txt"),
    ("sed-commify", "printf '1234567\\n' | sed ':a;s/\\B[0-9]\\{3\\}\\>/,&/;ta'"),
    ("sed-block-nested", "sed -n '/o/{/n/{p}}' a.txt"),
    ("sed-block-semicolons", "sed -n '2{p;p}' a.txt"),
    ("sed-q", "sed 2q nums.txt"),
    ("sed-q-exit", "sed '2q5' nums.txt; echo rc=$?"),
    ("sed-q-space-exit", "sed '2q 7' nums.txt; echo rc=$?"),
    ("sed-Q", "sed 2Q nums.txt"),
    ("sed-Q-exit", "sed '3Q42' nums.txt; echo rc=$?"),
    ("sed-q-append", "sed '1{a\\x\nq}' a.txt"),
    ("sed-q-n", "sed -n '2{p;q}' nums.txt"),
    ("sed-q-two-addresses", "sed '1,2q' nums.txt"),
    ("sed-loop-label-spaces", "printf 'a b c\\n' | sed -e ':x' -e 's/ //' -e 't x'"),
    ("sed-label-semicolon", "printf 'aa\\n' | sed ':a;s/a/b/;ta'"),
    # ---------------------------------------------------------------- y l = z v
    ("sed-y", "sed 'y/abc/xyz/' b.txt"),
    ("sed-y-upper", "sed 'y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/' a.txt"),
    ("sed-y-escapes", "printf 'a\\tb\\n' | sed 'y/\\t/,/'"),
    ("sed-y-newline", "printf 'a\\nb\\n' | sed 'N;y/\\n/,/'"),
    ("sed-y-delim", "printf 'a/b\\n' | sed 'y,/,|,'"),
    ("sed-y-backslash", "printf 'a\\\\b\\n' | sed 'y/\\\\/|/'"),
    ("sed-y-length", "sed 'y/abc/x/' a.txt"),
    ("sed-l", "printf 'a\\tb\\001\\n' | sed -n l"),
    ("sed-l-wrap", "printf 'abcdefghijklmnopqrstuvwxyz\\n' | sed -n 'l 10'"),
    ("sed-l-option", "printf 'abcdefghijklmnopqrstuvwxyz\\n' | sed -n -l 8 l"),
    ("sed-l-zero", "printf '%0100d\\n' 0 | sed -n 'l 0'"),
    ("sed-l-one", "printf 'abcdef\\n' | sed -n 'l 1'"),
    ("sed-l-default-wrap", "printf '%0100d\\n' 0 | sed -n l"),
    ("sed-l-high-bytes", "printf '\\303\\251\\n' | sed -n l"),
    ("sed-l-N", "printf 'a\\nb\\n' | sed -n 'N;l'"),
    ("sed-l-escape-wrap", "printf 'abcdefg\\t\\n' | sed -n 'l 9'"),
    ("sed-eq", "sed = a.txt"),
    ("sed-z", "sed '2z' a.txt"),
    ("sed-v", "sed v a.txt"),
    ("sed-v-version", "sed 'v 4.2' a.txt"),
    ("sed-v-newer", "sed 'v 9.0' a.txt"),
    ("sed-comment", "sed -n '# comment\n2p' a.txt"),
    ("sed-semicolon-after-brace", "sed -n '2{p};3p' a.txt"),
    # ---------------------------------------------------------------- options
    ("sed-u", "sed -u 's/o/0/' a.txt"),
    ("sed-posix", "sed --posix 's/o/0/' a.txt"),
    ("sed-E-long", "sed --regexp-extended 's/(o)/[\\1]/' a.txt"),
    ("sed-options-after", "sed 's/one/1/' a.txt -n"),
    ("sed-dashdash", "sed -n -- 2p a.txt"),
    ("sed-stdin-dash", "printf 'z\\n' | sed p - a.txt"),
    ("sed-missing-file-continue", "sed p missing.txt a.txt; echo rc=$?"),
    ("sed-missing-only", "sed p missing.txt; echo rc=$?"),
    ("sed-dir-operand", "sed p sub a.txt; echo rc=$?"),
    ("sed-no-args", "sed; echo rc=$?"),
    ("sed-no-script", "sed -n; echo rc=$?"),
    ("sed-bad-option", "sed -k p a.txt; echo rc=$?"),
    ("sed-bad-long-option", "sed --bogus p a.txt; echo rc=$?"),
    ("sed-e-missing-arg", "sed -e; echo rc=$?"),
    ("sed-l-bad-number", "sed -l x l a.txt; echo rc=$?"),
    ("sed-noeol-s", "sed 's/y/Y/' noeol.txt"),
    ("sed-noeol-p", "sed p noeol.txt"),
    ("sed-noeol-G", "sed G noeol.txt"),
    ("sed-empty-input", "sed p empty.txt; echo rc=$?"),
    ("sed-empty-script", "sed '' a.txt"),
    # ---------------------------------------------------------------- errors
    ("sed-err-unknown-command", "sed k a.txt"),
    ("sed-err-unterminated-s", "sed 's/a/b' a.txt"),
    ("sed-err-unterminated-s-pattern", "sed 's/a' a.txt"),
    ("sed-err-unknown-s-option", "sed 's/a/b/k' a.txt"),
    ("sed-err-s-zero", "sed 's/a/b/0' a.txt"),
    ("sed-err-s-multiple-g", "sed 's/a/b/gg' a.txt"),
    ("sed-err-s-multiple-p", "sed 's/a/b/pp' a.txt"),
    ("sed-err-s-multiple-number", "sed 's/a/b/2g3' a.txt"),
    ("sed-err-bad-reference", "sed 's/a/\\1/' a.txt"),
    ("sed-err-bad-reference-ere", "sed -E 's/(a)/\\2/' a.txt"),
    ("sed-err-extra-chars", "sed 'pq' a.txt"),
    ("sed-err-unmatched-brace", "sed '2{p' a.txt"),
    ("sed-err-unexpected-brace", "sed '}' a.txt"),
    ("sed-err-label-missing", "sed 'b nowhere' a.txt"),
    ("sed-err-colon-no-label", "sed ':' a.txt"),
    ("sed-err-colon-address", "sed '1:a' a.txt"),
    ("sed-err-unterminated-regex", "sed '/abc' a.txt"),
    ("sed-err-bad-regex", "sed 's/\\(a/b/' a.txt"),
    ("sed-err-bad-regex-ere", "sed -E 's/a{1/b/' a.txt"),
    ("sed-err-y-unterminated", "sed 'y/abc/xyz' a.txt"),
    ("sed-err-second-expression", "sed -e p -e 'k' a.txt"),
    ("sed-err-no-previous-regex", "sed 's//x/' a.txt"),
    ("sed-err-q-two-addresses", "sed '1,2Q' a.txt"),
    ("sed-err-e-command", "sed '1e' a.txt 2>/dev/null; echo rc=$?"),
    ("sed-err-multiple-bang", "sed '1!!p' a.txt"),
    ("sed-err-eq-semicolon-brace", "sed -n '1{=}' a.txt"),
    ("sed-err-comment-address", "sed '1#x' a.txt"),
]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="sed-gnu-"))
    try:
        build_world(root)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, PREFIX + line]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    record = {"id": case_id, "command": "sed", "line": line}
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
    parser.add_argument("--probe", help="print the record of this one line")
    options = parser.parse_args(argv)
    if shutil.which("bwrap") is None:
        print("bwrap (bubblewrap) is required", file=sys.stderr)
        return 2
    if options.probe:
        print(json.dumps(record_case("sed-probe", options.probe), ensure_ascii=False))
        return 0
    ids = [case_id for case_id, _ in CASES]
    if len(ids) != len(set(ids)) or not all(case_id.startswith("sed-") for case_id in ids):
        print("duplicate or misnamed case ids", file=sys.stderr)
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
