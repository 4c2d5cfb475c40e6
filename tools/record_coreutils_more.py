"""Records xargs and the small coreutils of issue 10 (tac rev nl paste comm join cmp fold
expand unexpand column md5sum... env printenv realpath readlink) from the real GNU tools:
tests/data/coreutils_more_corpus.json, replayed by tests/test_cmd_xargs.py and
tests/test_cmd_coreutils_more.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment.

    python tools/record_coreutils_more.py           # record and write the JSON
    python tools/record_coreutils_more.py --only xargs   # print the cases of one command
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "coreutils_more_corpus.json"
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
    "/w/noeol.txt": "x\ny",
    "/w/list.txt": "a.txt\nb.txt\n",
    "/w/words.txt": "apple banana\ncherry  date\n\telder fig\n",
    "/w/tabs.txt": "a\tb\tc\n\tx\n12345678\ty\n",
    "/w/spaces.txt": "a       b\n        x\n    y   z\n",
    "/w/s1.txt": "apple\nbanana\ncherry\ndate\n",
    "/w/s2.txt": "banana\ncherry\nfig\n",
    "/w/j1.txt": "1 alice\n2 bob\n4 dave\n",
    "/w/j2.txt": "1 red\n3 green\n4 blue\n",
    "/w/j3.csv": "1,x,y\n2,z,w\n",
    "/w/long.txt": "the quick brown fox jumps over the lazy dog and keeps running far away\n",
    "/w/table.txt": "name age city\nalice 30 paris\nbob 4 rome\n",
    "/w/sub/inner.txt": "inner\n",
    "/w/empty.txt": "",
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- xargs
    ("xargs-default-echo", "printf 'a b c\\n' | xargs"),
    ("xargs-lines-joined", "printf 'a\\nb\\nc\\n' | xargs"),
    ("xargs-n2", "printf 'a b c d e\\n' | xargs -n 2"),
    ("xargs-n1-echo-prefix", "printf 'a\\nb\\nc\\n' | xargs -n 1 echo x"),
    ("xargs-n3-seq", "seq 1 10 | xargs -n 3 echo"),
    ("xargs-n-attached", "printf '1 2 3 4\\n' | xargs -n3"),
    ("xargs-I-basic", "printf 'a\\nb\\n' | xargs -I {} echo '<{}>'"),
    ("xargs-I-line-keeps-blanks", "printf 'a b\\nc d\\n' | xargs -I X echo X-X"),
    ("xargs-I-leading-blanks", "printf '  lead\\n' | xargs -I@ echo '[@]'"),
    ("xargs-I-trailing-blanks", "printf 'tail  \\n' | xargs -I@ echo '[@]'"),
    ("xargs-I-pre-post", "printf 'x\\ny\\n' | xargs -I{} echo pre{}post{}"),
    ("xargs-I-command-name", "printf 'echo\\n' | xargs -I C C hi"),
    ("xargs-I-empty-input", "printf '' | xargs -I{} echo x"),
    ("xargs-I-quotes", "printf '\"a  b\" c\\n' | xargs -I{} echo [{}]"),
    ("xargs-I-noeol", "printf 'a b' | xargs -I{} echo [{}]"),
    ("xargs-i-default", "printf 'x\\n' | xargs -i echo {}.txt"),
    ("xargs-i-attached", "printf 'x\\n' | xargs -i% echo %.txt"),
    ("xargs-0", "printf 'a\\0b c\\0' | xargs -0 -n1 echo"),
    ("xargs-0-newline-kept", "printf 'a\\n' | xargs -0"),
    ("xargs-0-I", "printf 'a b\\0c\\0' | xargs -0 -I{} echo [{}]"),
    ("xargs-0-empty-item", "printf 'a\\0\\0b\\0' | xargs -0 -n1 echo x"),
    ("xargs-0-quotes-literal", "printf '\"q\\0' | xargs -0 echo"),
    ("xargs-d-comma", "printf 'a,b,c' | xargs -d , -n1"),
    ("xargs-d-comma-newline", "printf 'a,b,c\\n' | xargs -d ,"),
    ("xargs-d-newline-escape", "printf 'a\\n\\nb\\n' | xargs -d '\\n' -n1 echo x"),
    ("xargs-d-tab", "printf 'a b\\tc\\n' | xargs -d '\\t' -n1 echo"),
    ("xargs-d-hex", "printf 'a,b' | xargs -d '\\x2c' -n1 echo"),
    ("xargs-d-octal", "printf 'a,b' | xargs -d '\\054' -n1 echo"),
    ("xargs-d-bad", "printf 'a\\n' | xargs -d ab echo"),
    ("xargs-d-quotes-literal", "printf \"'a b'\\n\" | xargs -d '\\n' -n1 echo"),
    ("xargs-empty-runs-once", "printf '' | xargs echo hi"),
    ("xargs-r-empty", "printf '' | xargs -r echo hi"),
    ("xargs-blank-input", "printf '   \\n\\n' | xargs echo hi"),
    ("xargs-r-blank", "printf '   \\n' | xargs -r echo hi"),
    ("xargs-no-run-if-empty-long", "printf '' | xargs --no-run-if-empty echo hi"),
    ("xargs-L2", "printf 'a b\\nc\\nd e f\\n' | xargs -L 2"),
    ("xargs-L1-trailing-blank", "printf 'a b \\nc\\nd\\n' | xargs -L 1"),
    ("xargs-L1-echo", "printf 'x y\\n\\nz\\n' | xargs -L1 echo -"),
    ("xargs-L-0-items", "printf 'a\\0b\\0' | xargs -0 -L1 echo"),
    ("xargs-quote-double", "printf '\"a b\" c\\n' | xargs -n1"),
    ("xargs-quote-single", "printf \"'a b' c\\n\" | xargs -n1"),
    ("xargs-backslash-space", "printf 'a\\\\ b c\\n' | xargs -n1"),
    ("xargs-backslash-newline", "printf 'a\\\\\\nb\\n' | xargs -n1 echo x"),
    ("xargs-backslash-in-single", "printf \"'a\\\\\\\\b'\\n\" | xargs"),
    ("xargs-empty-quoted-args", "printf '\"\" a\\n' | xargs -n1 echo x"),
    ("xargs-empty-quoted-end", "printf 'a \"\"\\n' | xargs -n1 echo x"),
    ("xargs-unmatched-double", "printf '\"abc\\n' | xargs"),
    ("xargs-unmatched-single", "printf \"a b 'c\\n\" | xargs echo"),
    ("xargs-unmatched-at-eof", "printf 'x y \"c' | xargs echo"),
    ("xargs-quote-newline", "printf '\"a\\nb\"\\n' | xargs"),
    ("xargs-lone-quote-eof", "printf '\"' | xargs echo z"),
    ("xargs-tabs-spaces", "printf 'a  b\\tc\\n d\\n' | xargs -n1"),
    ("xargs-exit-123", "printf 'a\\n' | xargs false"),
    ("xargs-exit-123-continue", "printf '1\\n2\\n' | xargs -n1 sh -c 'echo $0; exit 3'"),
    ("xargs-exit-124", "printf '1\\n2\\n' | xargs -n1 sh -c 'echo $0; exit 255'"),
    ("xargs-exit-127", "printf 'a\\n' | xargs nosuchcmd"),
    ("xargs-exit-127-status", "printf 'a\\n' | xargs -n1 nosuchcmd; echo status=$?"),
    ("xargs-command-127-exit", "printf 'a\\n' | xargs sh -c 'exit 127'; echo $?"),
    ("xargs-t-trace", "printf 'a b\\n' | xargs -t echo"),
    ("xargs-t-n1", "printf 'a b\\n' | xargs -t -n1 echo 2>/dev/null"),
    ("xargs-a-file", "xargs -a list.txt echo"),
    ("xargs-a-cat", "xargs -a list.txt cat"),
    ("xargs-a-missing", "xargs -a missing.txt echo"),
    ("xargs-arg-file-long", "xargs --arg-file=list.txt -n1 echo f"),
    ("xargs-wc", "printf 'a.txt\\nb.txt\\n' | xargs wc -l"),
    ("xargs-cat-files", "cat list.txt | xargs cat"),
    ("xargs-I-cp", "printf 'a.txt\\n' | xargs -I F cp F F.bak; cat a.txt.bak"),
    ("xargs-n0", "printf 'a b\\n' | xargs -n 0"),
    ("xargs-n-bad", "printf 'a\\n' | xargs -n x"),
    ("xargs-L-bad", "printf 'a\\n' | xargs -L 0 echo"),
    ("xargs-bad-option", "printf 'a\\n' | xargs -Z echo"),
    ("xargs-bad-long", "printf 'a\\n' | xargs --nope echo"),
    ("xargs-missing-value", "printf 'a\\n' | xargs -n"),
    ("xargs-echo-n", "printf 'a b c\\n' | xargs echo -n; echo"),
    ("xargs-dashdash", "printf 'a\\n' | xargs -- echo -n x; echo"),
    ("xargs-printf", "printf 'a\\nb\\n' | xargs -n1 printf '%s,'; echo"),
    ("xargs-sh-args", "printf '%s\\n' 1 2 3 4 5 | xargs -n 2 sh -c 'echo $#: \"$@\"' sh"),
    ("xargs-cat-no-stdin", "printf '' | xargs cat"),
    ("xargs-P1", "printf 'a\\nb\\n' | xargs -P 1 -n1 echo"),
    ("xargs-P-bad", "printf 'a\\n' | xargs -P x echo"),
    ("xargs-E", "printf 'a b STOP c\\n' | xargs -E STOP echo"),
    ("xargs-E-first", "printf 'STOP c\\n' | xargs -E STOP echo x"),
    ("xargs-x-accepted", "printf 'a b\\n' | xargs -x -n1 echo"),
    ("xargs-n-then-I", "printf 'a\\nb\\n' | xargs -n1 -I{} echo [{}]"),
    ("xargs-I-then-n", "printf 'a b\\nc\\n' | xargs -I{} -n1 echo [{}]"),
    ("xargs-L-then-n", "printf 'a b\\nc d\\n' | xargs -L1 -n3 echo"),
    ("xargs-n-then-L", "printf 'a b c\\nd\\n' | xargs -n1 -L2 echo"),
    ("xargs-pipeline", "printf 'b\\na\\nc\\n' | xargs -n1 echo | sort"),
    ("xargs-status-in-script", "printf 'x\\n' | xargs test -z; echo rc=$?"),
    ("xargs-max-args-long", "printf 'a b c\\n' | xargs --max-args=2 echo"),
    ("xargs-max-lines-long", "printf 'a\\nb\\nc\\n' | xargs --max-lines=2 echo"),
    ("xargs-null-long", "printf 'a b\\0c' | xargs --null -n1 echo"),
    ("xargs-delimiter-long", "printf 'a:b' | xargs --delimiter=: echo"),
    ("xargs-replace-long", "printf 'q\\n' | xargs --replace=Z echo Z Z"),
    ("xargs-I-missing", "printf 'q\\n' | xargs -I"),
    ("xargs-many", "seq 1 200 | xargs -n 50 echo | wc -l"),
    ("xargs-vertical-tab", "printf 'a\\vb c\\n' | xargs -n1 echo | wc -l"),
    # ---------------------------------------------------------------- tac, rev
    ("tac-file", "tac a.txt"),
    ("tac-stdin", "printf '1\\n2\\n3\\n' | tac"),
    ("tac-noeol", "tac noeol.txt"),
    ("tac-two-files", "tac a.txt b.txt"),
    ("tac-dash", "printf 'p\\nq\\n' | tac - a.txt"),
    ("tac-sep", "printf 'a,b,c' | tac -s ,"),
    ("tac-sep-trailing", "printf 'a,b,c,' | tac -s ,"),
    ("tac-before", "printf 'a\\nb\\nc\\n' | tac -b"),
    ("tac-before-sep", "printf ',a,b,c' | tac -b -s ,"),
    ("tac-multi-sep", "printf 'aXYbXYc' | tac -s XY"),
    ("tac-empty", "tac empty.txt"),
    ("tac-missing", "tac missing.txt"),
    ("tac-missing-and-file", "tac missing.txt a.txt"),
    ("tac-dir", "tac sub"),
    ("tac-bad-option", "tac -z a.txt"),
    ("tac-blank-lines", "printf '\\n\\na\\n\\n' | tac"),
    ("tac-long-sep", "tac --separator=o a.txt"),
    ("rev-stdin", "printf 'abc\\nde\\n' | rev"),
    ("rev-file", "rev a.txt"),
    ("rev-noeol", "rev noeol.txt"),
    ("rev-files", "rev a.txt b.txt"),
    ("rev-empty-lines", "printf '\\n\\nab\\n' | rev"),
    ("rev-missing", "rev missing.txt"),
    ("rev-missing-then-file", "rev missing.txt a.txt"),
    ("rev-tabs", "rev tabs.txt"),
    ("rev-spaces", "printf ' a b \\n' | rev"),
    ("rev-empty", "rev empty.txt"),
    ("rev-dash", "printf 'xy\\n' | rev -"),
    ("rev-bad-option", "rev -z a.txt"),
    ("rev-pipeline", "printf 'a.b.c\\n' | rev | cut -d . -f 1 | rev"),
    ("rev-long-line", "rev long.txt"),
    ("rev-digits", "seq 10 12 | rev"),
    # ---------------------------------------------------------------- nl
    ("nl-default", "nl a.txt"),
    ("nl-blank-lines", "printf 'a\\n\\nb\\n' | nl"),
    ("nl-ba", "printf 'a\\n\\nb\\n' | nl -b a"),
    ("nl-bn", "printf 'a\\nb\\n' | nl -b n"),
    ("nl-ln", "nl -n ln a.txt"),
    ("nl-rz", "nl -n rz a.txt"),
    ("nl-rn", "nl -n rn a.txt"),
    ("nl-w3", "nl -w 3 a.txt"),
    ("nl-w1", "seq 1 12 | nl -w1"),
    ("nl-s", "nl -s ': ' a.txt"),
    ("nl-s-empty", "nl -s '' a.txt"),
    ("nl-v", "nl -v 10 a.txt"),
    ("nl-i", "nl -i 5 -v 0 a.txt"),
    ("nl-v-negative", "nl -v -2 a.txt"),
    ("nl-noeol", "nl noeol.txt"),
    ("nl-two-files", "nl a.txt b.txt"),
    ("nl-empty", "nl empty.txt"),
    ("nl-missing", "nl missing.txt"),
    ("nl-bad-b", "nl -b x a.txt"),
    ("nl-bad-n", "nl -n xx a.txt"),
    ("nl-bad-w", "nl -w 0 a.txt"),
    ("nl-bad-option", "nl -z a.txt"),
    ("nl-combined", "printf 'a\\n\\n\\nb\\n' | nl -ba -nrz -w4 -s'|'"),
    ("nl-long-options", "nl --body-numbering=a --number-format=ln --number-width=2 a.txt"),
    ("nl-ba-ln-blank", "printf '\\nx\\n' | nl -ba -n ln"),
    ("nl-w-wide-number", "nl -v 123456 -w 3 a.txt"),
    # ---------------------------------------------------------------- paste
    ("paste-two", "paste s1.txt s2.txt"),
    ("paste-d", "paste -d , s1.txt s2.txt"),
    ("paste-s", "paste -s a.txt"),
    ("paste-s-d", "paste -s -d , a.txt"),
    ("paste-d-cycle", "paste -s -d ',;' s1.txt"),
    ("paste-dash-dash", "printf '1\\n2\\n3\\n4\\n' | paste - -"),
    ("paste-stdin", "printf 'a\\nb\\n' | paste"),
    ("paste-noeol", "paste noeol.txt a.txt"),
    ("paste-s-noeol", "paste -s noeol.txt"),
    ("paste-d-newline-escape", "paste -d '\\n' s1.txt s2.txt"),
    ("paste-d-empty-escape", "paste -d '\\0' s1.txt s2.txt"),
    ("paste-d-tab-escape", "paste -s -d '\\t' a.txt"),
    ("paste-three", "paste -d ':' a.txt b.txt s2.txt"),
    ("paste-missing", "paste a.txt missing.txt"),
    ("paste-empty", "paste empty.txt a.txt"),
    ("paste-s-two", "paste -s a.txt b.txt"),
    ("paste-bad-option", "paste -z a.txt"),
    ("paste-d-empty", "paste -d '' a.txt b.txt"),
    ("paste-long", "paste --serial --delimiters=+ a.txt"),
    ("paste-s-empty", "paste -s empty.txt"),
    # ---------------------------------------------------------------- comm
    ("comm-basic", "comm s1.txt s2.txt"),
    ("comm-1", "comm -1 s1.txt s2.txt"),
    ("comm-2", "comm -2 s1.txt s2.txt"),
    ("comm-3", "comm -3 s1.txt s2.txt"),
    ("comm-12", "comm -12 s1.txt s2.txt"),
    ("comm-23", "comm -23 s1.txt s2.txt"),
    ("comm-13", "comm -13 s1.txt s2.txt"),
    ("comm-123", "comm -123 s1.txt s2.txt"),
    ("comm-stdin", "printf 'banana\\nzebra\\n' | comm - s1.txt"),
    ("comm-unsorted", "printf 'b\\na\\n' > u.txt; comm u.txt s1.txt"),
    ("comm-unsorted-nocheck", "printf 'b\\na\\n' > u.txt; comm --nocheck-order u.txt s1.txt"),
    ("comm-missing", "comm s1.txt missing.txt"),
    ("comm-one-operand", "comm s1.txt"),
    ("comm-three-operands", "comm s1.txt s2.txt a.txt"),
    ("comm-output-delimiter", "comm --output-delimiter=: s1.txt s2.txt"),
    ("comm-empty", "comm empty.txt s1.txt"),
    ("comm-noeol", "printf 'apple\\nfig' > n.txt; comm n.txt s2.txt"),
    ("comm-bad-option", "comm -4 s1.txt s2.txt"),
    ("comm-duplicates", "printf 'a\\na\\nb\\n' > d1; printf 'a\\nb\\nb\\n' > d2; comm d1 d2"),
    ("comm-total", "comm --total s1.txt s2.txt"),
    # ---------------------------------------------------------------- join
    ("join-basic", "join j1.txt j2.txt"),
    ("join-a1", "join -a 1 j1.txt j2.txt"),
    ("join-a2", "join -a 2 j1.txt j2.txt"),
    ("join-a12", "join -a1 -a2 j1.txt j2.txt"),
    ("join-v1", "join -v 1 j1.txt j2.txt"),
    ("join-v2", "join -v 2 j1.txt j2.txt"),
    ("join-t", "printf '1,a\\n2,b\\n' > c1; printf '1,x\\n3,y\\n' > c2; join -t , c1 c2"),
    ("join-fields", "printf 'a 1\\nb 2\\n' > f1; printf '1 x\\n2 y\\n' > f2; join -1 2 -2 1 f1 f2"),
    ("join-o", "join -o 1.2,2.2 j1.txt j2.txt"),
    ("join-o-zero", "join -o 0,2.2,1.2 j1.txt j2.txt"),
    ("join-o-a-e", "join -a1 -e NONE -o 0,1.2,2.2 j1.txt j2.txt"),
    ("join-stdin", "printf '1 x\\n4 z\\n' | join - j1.txt"),
    ("join-missing", "join j1.txt missing.txt"),
    ("join-one-operand", "join j1.txt"),
    ("join-unsorted", "printf '2 a\\n1 b\\n' > u1; join u1 j1.txt"),
    ("join-t-csv", "join -t , j3.csv j3.csv"),
    ("join-blank-separation", "printf '1   a\\n' > w1; printf '1\\tb\\n' > w2; join w1 w2"),
    ("join-bad-field", "join -1 0 j1.txt j2.txt"),
    ("join-bad-option", "join -z j1.txt j2.txt"),
    ("join-i", "printf 'A 1\\n' > i1; printf 'a 2\\n' > i2; join -i i1 i2"),
    ("join-multi", "printf '1 a\\n1 b\\n' > m1; printf '1 x\\n1 y\\n' > m2; join m1 m2"),
    ("join-empty-field", "printf '1,,a\\n' > e1; printf '1,b\\n' > e2; join -t , e1 e2"),
    # ---------------------------------------------------------------- cmp
    ("cmp-same", "cmp a.txt a.txt"),
    ("cmp-differ", "cmp s1.txt s2.txt"),
    ("cmp-s", "cmp -s s1.txt s2.txt; echo $?"),
    ("cmp-s-same", "cmp -s a.txt a.txt; echo $?"),
    ("cmp-l", "cmp -l s1.txt s2.txt"),
    ("cmp-eof", "printf 'one\\n' > p; cmp p a.txt"),
    ("cmp-eof-other", "printf 'one\\n' > p; cmp a.txt p"),
    ("cmp-missing", "cmp a.txt missing.txt"),
    ("cmp-stdin", "printf 'one\\ntwo\\nthree\\n' | cmp - a.txt"),
    ("cmp-stdin-differ", "printf 'one\\ntwX\\n' | cmp a.txt -"),
    ("cmp-one-operand", "printf 'one\\n' | cmp p 2>/dev/null; echo $?"),
    ("cmp-line-count", "printf 'a\\nb\\nc\\n' > p; printf 'a\\nb\\nd\\n' > q; cmp p q"),
    ("cmp-l-eof", "printf 'ab' > p; printf 'abc' > q; cmp -l p q"),
    ("cmp-empty", "cmp empty.txt a.txt"),
    ("cmp-bad-option", "cmp -z a.txt b.txt"),
    ("cmp-i-skip", "cmp -i 1 s1.txt s1.txt"),
    ("cmp-b", "cmp -b s1.txt s2.txt"),
    ("cmp-dir", "cmp sub a.txt"),
    ("cmp-silent-long", "cmp --silent a.txt b.txt; echo $?"),
    ("cmp-n", "cmp -n 1 s1.txt s1.txt; echo $?"),
    # ---------------------------------------------------------------- fold
    ("fold-default", "fold long.txt"),
    ("fold-w20", "fold -w 20 long.txt"),
    ("fold-s", "fold -s -w 20 long.txt"),
    ("fold-w-attached", "fold -w10 a.txt"),
    ("fold-short-lines", "fold -w 3 a.txt"),
    ("fold-tabs", "fold -w 5 tabs.txt"),
    ("fold-b-tabs", "fold -b -w 5 tabs.txt"),
    ("fold-s-no-space", "printf 'abcdefghij\\n' | fold -s -w 4"),
    ("fold-noeol", "printf 'abcdef' | fold -w 4"),
    ("fold-digit-option", "fold -5 a.txt"),
    ("fold-missing", "fold missing.txt"),
    ("fold-bad-width", "fold -w 0 a.txt"),
    ("fold-bad-width-text", "fold -w x a.txt"),
    ("fold-bad-option", "fold -z a.txt"),
    ("fold-backspace", "printf 'ab\\bcdef\\n' | fold -w 3"),
    ("fold-cr", "printf 'abc\\rdefgh\\n' | fold -w 4"),
    ("fold-s-spaces", "printf 'a b c d e f g\\n' | fold -s -w 3"),
    ("fold-long-options", "fold --width=8 --spaces long.txt"),
    ("fold-empty-lines", "printf '\\n\\nabcdef\\n' | fold -w 2"),
    # ---------------------------------------------------------------- expand, unexpand
    ("expand-default", "expand tabs.txt"),
    ("expand-t4", "expand -t 4 tabs.txt"),
    ("expand-t-list", "expand -t 2,5 tabs.txt"),
    ("expand-t-attached", "expand -t3 tabs.txt"),
    ("expand-i", "printf '\\ta\\tb\\n' | expand -i"),
    ("expand-digit", "expand -2 tabs.txt"),
    ("expand-backspace", "printf 'ab\\b\\tc\\n' | expand"),
    ("expand-missing", "expand missing.txt"),
    ("expand-bad-tabs", "expand -t 0 tabs.txt"),
    ("expand-bad-order", "expand -t 5,3 tabs.txt"),
    ("expand-bad-option", "expand -z tabs.txt"),
    ("expand-noeol", "printf 'a\\tb' | expand"),
    ("expand-t-slash", "expand -t 2,/4 tabs.txt"),
    ("expand-t-plus", "expand -t 2,+4 tabs.txt"),
    ("expand-long", "expand --tabs=3 tabs.txt"),
    ("unexpand-default", "unexpand spaces.txt"),
    ("unexpand-a", "unexpand -a spaces.txt"),
    ("unexpand-t4", "unexpand -t 4 spaces.txt"),
    ("unexpand-first-only", "unexpand --first-only spaces.txt"),
    ("unexpand-roundtrip", "expand tabs.txt | unexpand -a"),
    ("unexpand-missing", "unexpand missing.txt"),
    ("unexpand-bad-option", "unexpand -z spaces.txt"),
    ("unexpand-short-runs", "printf 'a b  c        d\\n' | unexpand -a"),
    ("unexpand-t-list", "unexpand -t 2,6 spaces.txt"),
    ("unexpand-tabs-kept", "printf '  \\tx\\n' | unexpand"),
    ("unexpand-single-space-stop", "printf 'abcdefg h\\n' | unexpand -a"),
    ("unexpand-leading", "printf '                x\\n' | unexpand"),
    ("unexpand-t-attached", "unexpand -t2 spaces.txt"),
    ("unexpand-noeol", "printf '        x' | unexpand"),
    ("unexpand-bad-tabs", "unexpand -t 0 spaces.txt"),
    # ---------------------------------------------------------------- column
    ("column-t", "column -t table.txt"),
    ("column-t-s", "printf 'a:b:c\\nlong:x:y\\n' | column -t -s :"),
    ("column-t-o", "column -t -o ' | ' table.txt"),
    ("column-t-stdin", "printf 'a b\\ncc dd\\n' | column -t"),
    ("column-t-ragged", "printf 'a b c\\nd\\ne f\\n' | column -t"),
    ("column-t-multi-sep", "printf 'a,,b\\nc,d,e\\n' | column -t -s ,"),
    ("column-t-blank-lines", "printf 'a b\\n\\ncc d\\n' | column -t"),
    ("column-t-tabs", "printf 'a\\tb\\nccc\\td\\n' | column -t"),
    ("column-missing", "column -t missing.txt"),
    ("column-t-two-files", "column -t table.txt s1.txt"),
    ("column-bad-option", "column -Z table.txt"),
    ("column-t-s-multi", "printf 'a:b;c\\n' | column -t -s ':;'"),
    ("column-t-long", "column --table --separator , j3.csv"),
    ("column-t-empty", "column -t empty.txt"),
    ("column-t-o-s", "printf 'a,b\\nccc,d\\n' | column -t -s , -o ,"),
    ("column-t-spaces", "printf '  a   b  \\nc d\\n' | column -t"),
    # ---------------------------------------------------------------- hash sums
    ("md5sum-file", "md5sum a.txt"),
    ("md5sum-files", "md5sum a.txt b.txt"),
    ("md5sum-stdin", "printf 'hello\\n' | md5sum"),
    ("md5sum-dash", "printf 'hello\\n' | md5sum - a.txt"),
    ("md5sum-missing", "md5sum missing.txt a.txt"),
    ("md5sum-check", "md5sum a.txt b.txt > sums; md5sum -c sums"),
    ("md5sum-check-fail", "md5sum a.txt b.txt > sums; printf 'changed\\n' > a.txt; md5sum -c sums"),
    ("md5sum-check-quiet", "md5sum a.txt b.txt > sums; md5sum -c --quiet sums"),
    ("md5sum-check-status", "md5sum a.txt > sums; printf 'x' >> a.txt; md5sum -c --status sums; echo $?"),
    ("md5sum-check-missing-file", "md5sum a.txt > sums; rm a.txt; md5sum -c sums"),
    ("md5sum-check-bad-lines", "printf 'garbage\\n' > sums; md5sum -c sums"),
    ("md5sum-check-stdin", "md5sum a.txt | md5sum -c"),
    ("md5sum-dir", "md5sum sub"),
    ("md5sum-empty", "md5sum empty.txt"),
    ("md5sum-bad-option", "md5sum -z a.txt"),
    ("md5sum-tag", "md5sum --tag a.txt"),
    ("sha1sum-file", "sha1sum a.txt"),
    ("sha1sum-stdin", "printf 'abc' | sha1sum"),
    ("sha256sum-file", "sha256sum a.txt b.txt"),
    ("sha256sum-check", "sha256sum a.txt > s; sha256sum -c s"),
    ("sha512sum-file", "sha512sum noeol.txt"),
    ("sha512sum-check-fail", "sha512sum a.txt > s; echo x > a.txt; sha512sum -c s; echo rc=$?"),
    ("sha256sum-check-mixed", "sha256sum a.txt > s; printf 'junk\\n' >> s; sha256sum -c s"),
    ("sha1sum-missing", "sha1sum missing.txt"),
    ("printenv-lc-all-and-missing", "printenv LC_ALL NOPE; echo $?"),
    ("join-o-auto", "printf '1 a b\\n2 c\\n' > o1; printf '1 x\\n2 y z\\n' > o2; join -o auto o1 o2"),
    ("join-header", "printf 'id name\\n1 a\\n' > h1; printf 'id color\\n1 red\\n' > h2; join --header h1 h2"),
    ("join-j", "join -j 1 j1.txt j2.txt"),
    ("join-trailing-blank", "printf '1 a \\n' > t1; printf '1 b\\n' > t2; join t1 t2"),
    ("comm-z", "printf 'a\\0b\\0' > z1; printf 'b\\0c\\0' > z2; comm -z z1 z2 | tr '\\0' '|'"),
    ("paste-dash-odd", "printf '1\\n2\\n3\\n' | paste - -"),
    ("nl-section", "printf 'a\\n\\\\:\\\\:\\nb\\n' | nl"),
    ("fold-s-tab", "printf 'ab\\tcdefghijkl\\n' | fold -s -w 6"),
    ("column-t-o-empty", "printf 'a b\\nccc d\\n' | column -t -o ''"),
    # ---------------------------------------------------------------- env, printenv
    ("env-i", "env -i A=1 B=2"),
    ("env-i-cmd", "env -i A=1 printenv A"),
    ("env-set-cmd", "env X=hello sh -c 'echo $X'"),
    ("env-u", "export Q=1; env -u Q printenv Q; echo $?"),
    ("env-missing-cmd", "env nosuchcmd"),
    ("env-cmd-args", "env echo a b"),
    ("env-exported", "export FOO=bar; env | grep '^FOO='"),
    ("env-not-exported", "BAR=1; env | grep -c '^BAR='"),
    ("env-bad-option", "env -z"),
    ("env-cmd-status", "env false; echo $?"),
    ("env-i-empty", "env -i"),
    ("env-0", "env -0 -i A=1 B=2 | tr '\\0' '|'"),
    ("env-dash", "env - Z=9"),
    ("env-i-value-eq", "env -i 'A=x=y'"),
    ("env-prefix-var", "Z=5 env | grep '^Z='"),
    ("env-C", "env -C sub cat inner.txt"),
    ("printenv-var", "export V=abc; printenv V"),
    ("printenv-missing", "printenv NOPE_X; echo $?"),
    ("printenv-two", "export V=1 W=2; printenv V W"),
    ("printenv-some-missing", "export V=1; printenv NOPE V; echo $?"),
    ("printenv-home", "printenv HOME"),
    ("printenv-all", "export V=1; printenv | grep '^V='"),
    ("printenv-not-exported", "V=1; printenv V; echo $?"),
    ("printenv-bad-option", "printenv -z"),
    ("printenv-prefix", "V=9 printenv V"),
    ("printenv-eq", "export V=1; printenv V=1; echo $?"),
    ("printenv-0", "export V=1 W=2; printenv -0 V W | tr '\\0' '|'"),
    ("printenv-empty-value", "export E=; printenv E; echo $?"),
    ("printenv-lc-all", "printenv LC_ALL"),
    ("env-u-missing-arg", "env -u"),
    ("printenv-null-long", "export V=a; printenv --null V | wc -c"),
    # ---------------------------------------------------------------- realpath, readlink
    ("realpath-file", "realpath a.txt"),
    ("realpath-dots", "realpath ./sub/../a.txt"),
    ("realpath-dir", "realpath sub"),
    ("realpath-missing-last", "realpath nope.txt"),
    ("realpath-missing-parent", "realpath nodir/x"),
    ("realpath-e", "realpath -e nope.txt"),
    ("realpath-m", "realpath -m nodir/x/../y"),
    ("realpath-abs", "realpath /w//sub/"),
    ("realpath-many", "realpath a.txt sub nope"),
    ("realpath-no-operand", "realpath"),
    ("realpath-s", "realpath -s ./a.txt"),
    ("realpath-relative-to", "realpath --relative-to=sub a.txt"),
    ("realpath-file-as-dir", "realpath a.txt/x"),
    ("realpath-root", "realpath / ."),
    ("realpath-q", "realpath -q nodir/x; echo $?"),
    ("realpath-z", "realpath -z a.txt sub | tr '\\0' '|'"),
    ("realpath-bad-option", "realpath -Z a.txt"),
    ("readlink-not-link", "readlink a.txt; echo $?"),
    ("readlink-f", "readlink -f a.txt"),
    ("readlink-f-dots", "readlink -f sub/../b.txt"),
    ("readlink-f-missing", "readlink -f nope; echo $?"),
    ("readlink-f-missing-parent", "readlink -f nodir/x; echo $?"),
    ("readlink-e", "readlink -e nope; echo $?"),
    ("readlink-m", "readlink -m nodir/x"),
    ("readlink-missing", "readlink nope; echo $?"),
    ("readlink-no-operand", "readlink"),
    ("readlink-f-many", "readlink -f a.txt sub"),
    ("readlink-n", "readlink -n -f a.txt; echo"),
    ("readlink-f-dir-slash", "readlink -f sub/"),
    ("readlink-bad-option", "readlink -Z a.txt"),
    ("readlink-f-root", "readlink -f /"),
    ("readlink-canonicalize-long", "readlink --canonicalize ./a.txt"),
]


HASH_TEMPLATES = [
    ("files", "{c} a.txt b.txt"), ("stdin-line", "printf 'hello\\n' | {c}"), ("dash", "printf 'x' | {c} - noeol.txt"),
    ("missing-and-file", "{c} missing.txt a.txt"), ("dir", "{c} sub"), ("empty", "{c} empty.txt"),
    ("check-ok", "{c} a.txt b.txt > sums; {c} -c sums"), ("check-quiet", "{c} a.txt > sums; {c} -c --quiet sums"),
    ("check-status", "{c} a.txt > sums; echo y >> a.txt; {c} -c --status sums; echo $?"),
    ("check-missing-file", "{c} b.txt > sums; rm b.txt; {c} -c sums"),
    ("check-garbage", "printf 'nonsense\\n' > sums; {c} -c sums"),
    ("check-stdin", "{c} a.txt | {c} -c"), ("tag", "{c} --tag a.txt"), ("check-tag", "{c} --tag a.txt > t; {c} -c t"),
    ("binary-mark", "{c} -b a.txt"), ("zero", "{c} -z a.txt | tr '\\0' '|'"), ("bad-option", "{c} -Q a.txt"),
    ("check-strict", "{c} a.txt > s; echo junk >> s; {c} -c --strict s; echo $?"),
]
for _command in ("sha1sum", "sha256sum", "sha512sum"):
    CASES += [(f"{_command}-{name}", line.format(c=_command)) for name, line in HASH_TEMPLATES]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()  # tac keeps a pipe's input in a temporary file
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="coreutils-more-"))
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
