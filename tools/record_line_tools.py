"""Records the line tools (echo wc head tail uniq tee sort cut tr) from the real GNU tools:
tests/data/line_tools_corpus.json, replayed by tests/test_cmd_line_tools_gnu.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_coreutils_more.py).

    python tools/record_line_tools.py              # record and write the JSON
    python tools/record_line_tools.py --only sort  # print the cases of one command
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "line_tools_corpus.json"
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
    "/w/lines.txt": "".join(f"l{i}\n" for i in range(1, 13)),
    "/w/nums.txt": "10\n9\n100\n-5\n3.5\n1e2\n0x10\n abc\n\n-0\n+4\n",
    "/w/human.txt": "1K\n2M\n512\n1G\n3k\n-1K\n0\n",
    "/w/months.txt": "Mar\njan\n DEC\nfoo\nFeb\n",
    "/w/versions.txt": "v1.10\nv1.2\nv1.9\nv1.2a\nv1.02\n",
    "/w/dup.txt": "a\na\nb\nB\nb\nc\nc\nc\nd\n",
    "/w/uniqf.txt": "1 apple x\n2 apple y\n3  pear z\n4 Pear w\n5 Pear w\n",
    "/w/fields.txt": "x 1 a\ny  2 b\nz 3 a\nx 1 c\n w 10 d\n",
    "/w/csv.txt": "id,name,score\n3,bob,70\n1,alice,90\n2,carol,85\n10,dave,70\n",
    "/w/passwd.txt": "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\nnobody\n",
    "/w/mixed.txt": "Hello, World! 123\n\tTab\tline\nUPPER lower_case ~x\n",
    "/w/tabs.txt": "a\tb\tc\n\tx\n12345678\ty\n",
    "/w/s1.txt": "apple\ncherry\nfig\n",
    "/w/s2.txt": "banana\ndate\nelder\n",
    "/w/sorted.txt": "a\nb\nb\nc\n",
    "/w/unsorted.txt": "a\nc\nb\n",
    "/w/sub/inner.txt": "inner\n",
    "/w/empty.txt": "",
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- echo
    ("echo-plain", "echo hello   world"),
    ("echo-empty", "echo"),
    ("echo-n", "echo -n abc; echo"),
    ("echo-e-tab", "echo -e 'a\\tb'"),
    ("echo-e-newline", "echo -e 'a\\nb'"),
    ("echo-E", "echo -E 'a\\tb'"),
    ("echo-default-no-escapes", "echo 'a\\nb'"),
    ("echo-e-octal", "echo -e '\\0101\\060x'"),
    ("echo-e-hex", "echo -e '\\x41\\x4a!'"),
    ("echo-e-c", "echo -e 'ab\\ccd'; echo"),
    ("echo-ne", "echo -ne 'x\\n'"),
    ("echo-en", "echo -en 'y'; echo"),
    ("echo-eE-last-wins", "echo -eE 'a\\tb'"),
    ("echo-Ee-last-wins", "echo -Ee 'a\\tb'"),
    ("echo-unknown-flag", "echo -x hi"),
    ("echo-flag-mixed-unknown", "echo -nx hi"),
    ("echo-dash", "echo - a"),
    ("echo-dashdash", "echo -- a"),
    ("echo-n-later", "echo a -n"),
    ("echo-e-backslash", "echo -e 'a\\\\b'"),
    ("echo-e-unknown-escape", "echo -e 'a\\qb'"),
    ("echo-e-escape-char", "echo -e '\\e' | wc -c"),
    ("echo-e-abfrv", "echo -e '\\a\\b\\f\\r\\v' | wc -c"),
    ("echo-e-trailing-backslash", "echo -e 'ab\\\\'"),
    ("echo-xargs", "printf 'a b\\n' | xargs echo -e 'x\\ty'"),
    ("echo-xargs-n", "printf 'a\\nb\\n' | xargs -n1 echo -n; echo"),
    ("echo-n-n", "echo -n -n z; echo"),
    ("echo-e-nul", "echo -e 'a\\0b' | wc -c"),
    # ---------------------------------------------------------------- wc
    ("wc-file", "wc a.txt"),
    ("wc-l", "wc -l a.txt"),
    ("wc-w-stdin", "printf 'a b\\nc\\n' | wc -w"),
    ("wc-c", "wc -c noeol.txt"),
    ("wc-m", "wc -m b.txt"),
    ("wc-L", "wc -L b.txt"),
    ("wc-L-tab", "printf 'a\\tb\\n' | wc -L"),
    ("wc-L-tabs-file", "wc -L tabs.txt"),
    ("wc-L-two", "wc --max-line-length a.txt b.txt"),
    ("wc-L-noeol", "printf 'abcd' | wc -L"),
    ("wc-two-files", "wc a.txt b.txt"),
    ("wc-stdin-default", "printf 'x y\\nz\\n' | wc"),
    ("wc-dash-and-file", "printf 'x\\n' | wc a.txt -"),
    ("wc-dash-alone", "printf 'x\\n' | wc -"),
    ("wc-lc", "wc -lc a.txt"),
    ("wc-all", "wc -clmwL a.txt"),
    ("wc-missing", "wc missing.txt"),
    ("wc-missing-and-file", "wc missing.txt a.txt"),
    ("wc-dir", "wc sub"),
    ("wc-empty", "wc empty.txt"),
    ("wc-noeol-lines", "wc -l noeol.txt"),
    ("wc-bad-option", "wc -x a.txt"),
    ("wc-wide", "wc lines.txt a.txt"),
    ("wc-l-two", "wc -l a.txt b.txt"),
    ("wc-stdin-l", "cat a.txt | wc -l"),
    ("wc-stdin-lw", "cat a.txt | wc -lw"),
    ("wc-redirect", "wc < a.txt"),
    ("wc-controls-word", "printf 'a\\001 b \\001\\n' | wc -w"),
    ("wc-long-options", "wc --lines --words a.txt"),
    ("wc-empty-stdin", "printf '' | wc"),
    # ---------------------------------------------------------------- head
    ("head-default", "head lines.txt"),
    ("head-n3", "head -n 3 lines.txt"),
    ("head-n-neg", "head -n -3 lines.txt"),
    ("head-c5", "head -c 5 a.txt; echo"),
    ("head-c-neg", "head -c -4 a.txt; echo"),
    ("head-obsolete", "head -2 a.txt"),
    ("head-two-files", "head -n 1 a.txt b.txt"),
    ("head-q", "head -q -n 1 a.txt b.txt"),
    ("head-v", "head -v -n 1 a.txt"),
    ("head-stdin-pipe", "printf '1\\n2\\n3\\n' | head -n 2"),
    ("head-dash", "printf 'p\\n' | head -n 1 - a.txt"),
    ("head-z", "printf 'a\\0b\\0c\\0' | head -z -n 2 | tr '\\0' '|'"),
    ("head-z-file-neg", "printf 'a\\0b\\nc\\0d' > z; head -z -n -1 z | tr '\\0' '|'"),
    ("head-missing", "head missing.txt"),
    ("head-missing-and-file", "head -n1 missing.txt a.txt"),
    ("head-bad-n", "head -n x a.txt"),
    ("head-c-suffix", "head -c 1K lines.txt | wc -c"),
    ("head-c-suffix-b", "head -c 1b lines.txt | wc -c"),
    ("head-n0", "head -n 0 a.txt"),
    ("head-noeol", "head -n 5 noeol.txt"),
    ("head-c-neg-stdin", "printf 'abcdef' | head -c -2; echo"),
    ("head-n-neg-stdin", "cat lines.txt | head -n -10"),
    ("head-bad-option", "head -x a.txt"),
    ("head-lines-long", "head --lines=2 a.txt"),
    ("head-bytes-long", "head --bytes=3 a.txt; echo"),
    ("head-dir", "head sub"),
    ("head-empty", "head empty.txt"),
    ("head-three-files-v", "head -n1 -v a.txt empty.txt b.txt"),
    ("head-n-plus", "head -n +2 a.txt"),
    ("head-quiet-long", "head --quiet -n1 a.txt b.txt"),
    # ---------------------------------------------------------------- tail
    ("tail-default", "tail lines.txt"),
    ("tail-n3", "tail -n 3 lines.txt"),
    ("tail-n-plus", "tail -n +3 a.txt"),
    ("tail-n-plus-stdin", "cat lines.txt | tail -n +10"),
    ("tail-c", "tail -c 4 a.txt"),
    ("tail-c-plus", "tail -c +3 a.txt"),
    ("tail-c-plus-stdin", "printf 'abcdef' | tail -c +3; echo"),
    ("tail-c-neg", "tail -c -3 a.txt"),
    ("tail-n-neg", "tail -n -2 a.txt"),
    ("tail-obsolete-plus", "tail +2 a.txt"),
    ("tail-obsolete-minus", "tail -2 a.txt"),
    ("tail-two-files", "tail -n 1 a.txt b.txt"),
    ("tail-q", "tail -q -n 1 a.txt b.txt"),
    ("tail-v", "tail -v -n 1 a.txt"),
    ("tail-stdin", "printf '1\\n2\\n3\\n' | tail -n 2"),
    ("tail-dash", "printf 'p\\nq\\n' | tail -n 1 a.txt -"),
    ("tail-z", "printf 'a\\0b\\0c\\0' | tail -z -n 2 | tr '\\0' '|'"),
    ("tail-z-plus", "printf 'a\\0b\\0c' | tail -z -n +2 | tr '\\0' '|'"),
    ("tail-missing", "tail missing.txt"),
    ("tail-missing-and-file", "tail -n1 missing.txt a.txt"),
    ("tail-bad-n", "tail -n x a.txt"),
    ("tail-noeol", "tail -n 1 noeol.txt; echo"),
    ("tail-noeol-two", "tail -n 2 noeol.txt; echo"),
    ("tail-n0", "tail -n 0 a.txt"),
    ("tail-c0", "tail -c 0 a.txt"),
    ("tail-f-pipe", "printf 'a\\nb\\n' | tail -f -n 1"),
    ("tail-dir", "tail sub"),
    ("tail-empty", "tail empty.txt"),
    ("tail-lines-long", "tail --lines=+2 a.txt"),
    ("tail-bytes-long", "tail --bytes=2 a.txt"),
    ("tail-bad-option", "tail -x a.txt"),
    ("tail-c-suffix", "tail -c 1b lines.txt | wc -c"),
    ("tail-plus-zero", "tail -n +0 a.txt"),
    ("tail-three-files", "tail -n1 a.txt empty.txt b.txt"),
    # ---------------------------------------------------------------- uniq
    ("uniq-default", "uniq dup.txt"),
    ("uniq-c", "uniq -c dup.txt"),
    ("uniq-d", "uniq -d dup.txt"),
    ("uniq-u", "uniq -u dup.txt"),
    ("uniq-D", "uniq -D dup.txt"),
    ("uniq-all-repeated-none", "uniq --all-repeated=none dup.txt"),
    ("uniq-all-repeated-prepend", "uniq --all-repeated=prepend dup.txt"),
    ("uniq-all-repeated-separate", "uniq --all-repeated=separate dup.txt"),
    ("uniq-all-repeated-bad", "uniq --all-repeated=bogus dup.txt"),
    ("uniq-i", "uniq -i dup.txt"),
    ("uniq-ic", "uniq -ic dup.txt"),
    ("uniq-f1", "uniq -f 1 uniqf.txt"),
    ("uniq-f2", "uniq -f 2 uniqf.txt"),
    ("uniq-f1-i-c", "uniq -f1 -i -c uniqf.txt"),
    ("uniq-s2", "printf 'xxa\\nyya\\nzzb\\n' | uniq -s 2"),
    ("uniq-w1", "printf 'ab\\nac\\nbd\\n' | uniq -w 1"),
    ("uniq-s-w", "printf 'xab\\nyac\\nzbd\\n' | uniq -s 1 -w 1 -c"),
    ("uniq-z", "printf 'a\\0a\\0b\\0' | uniq -z | tr '\\0' '|'"),
    ("uniq-z-c", "printf 'a\\na\\0a\\na\\0' | uniq -zc | tr '\\0' '|'"),
    ("uniq-group", "uniq --group dup.txt"),
    ("uniq-group-prepend", "uniq --group=prepend dup.txt"),
    ("uniq-group-append", "uniq --group=append dup.txt"),
    ("uniq-group-both", "uniq --group=both dup.txt"),
    ("uniq-group-separate", "uniq --group=separate dup.txt"),
    ("uniq-group-c", "uniq --group -c dup.txt"),
    ("uniq-stdin", "printf 'x\\nx\\ny\\n' | uniq"),
    ("uniq-dash", "printf 'x\\nx\\n' | uniq -c -"),
    ("uniq-output-file", "uniq dup.txt out.txt; cat out.txt"),
    ("uniq-output-stdin", "printf 'k\\nk\\n' | uniq - out.txt; cat out.txt"),
    ("uniq-c-D", "uniq -c -D dup.txt"),
    ("uniq-missing", "uniq missing.txt"),
    ("uniq-extra-operand", "uniq dup.txt o1 o2"),
    ("uniq-bad-f", "uniq -f x dup.txt"),
    ("uniq-d-u", "uniq -d -u dup.txt"),
    ("uniq-noeol", "printf 'a\\na' | uniq"),
    ("uniq-d-c", "uniq -dc dup.txt"),
    ("uniq-D-i", "uniq -D -i dup.txt"),
    ("uniq-long-options", "uniq --count --ignore-case --skip-fields=1 uniqf.txt"),
    ("uniq-bad-option", "uniq -x dup.txt"),
    ("uniq-empty", "uniq empty.txt"),
    # ---------------------------------------------------------------- tee
    ("tee-file", "printf 'a\\n' | tee out.txt; cat out.txt"),
    ("tee-append", "printf 'z\\n' | tee -a a.txt > /dev/null; cat a.txt"),
    ("tee-append-long", "printf 'z\\n' | tee --append a.txt; cat a.txt"),
    ("tee-overwrite", "printf 'new\\n' | tee a.txt > /dev/null; cat a.txt"),
    ("tee-two-files", "printf 'q\\n' | tee o1 o2 > /dev/null; cat o1 o2"),
    ("tee-p", "printf 'a\\n' | tee -p o; cat o"),
    ("tee-i", "printf 'x\\n' | tee -i o; cat o"),
    ("tee-no-files", "printf 'x\\n' | tee"),
    ("tee-dir", "printf 'x\\n' | tee sub; echo rc=$?"),
    ("tee-missing-dir", "printf 'x\\n' | tee nodir/f; echo rc=$?"),
    ("tee-error-continues", "printf 'x\\n' | tee nodir/f ok.txt; cat ok.txt"),
    ("tee-bad-option", "printf 'x\\n' | tee -z o"),
    ("tee-empty-input", "printf '' | tee o; wc -c o"),
    ("tee-binary", "printf 'a\\0b' | tee o | wc -c; wc -c o"),
    ("tee-same-file-twice", "printf 'x\\n' | tee o o > /dev/null; cat o"),
    ("tee-noeol", "printf 'x' | tee o; echo; cat o; echo"),
    ("tee-pipeline", "cat a.txt | tee o | wc -l; cat o"),
    ("tee-dashdash", "printf 'x\\n' | tee -- o > /dev/null; cat o"),
    ("tee-append-new", "printf 'x\\n' | tee -a fresh.txt > /dev/null; cat fresh.txt"),
    ("tee-status", "printf 'x\\n' | tee o > /dev/null; echo rc=$?"),
    # ---------------------------------------------------------------- sort
    ("sort-default", "sort a.txt"),
    ("sort-r", "sort -r a.txt"),
    ("sort-n", "sort -n nums.txt"),
    ("sort-g", "sort -g nums.txt"),
    ("sort-h", "sort -h human.txt"),
    ("sort-M", "sort -M months.txt"),
    ("sort-V", "sort -V versions.txt"),
    ("sort-f", "sort -f dup.txt"),
    ("sort-u", "sort -u dup.txt"),
    ("sort-fu", "sort -fu dup.txt"),
    ("sort-rn", "sort -rn nums.txt"),
    ("sort-un", "sort -un nums.txt"),
    ("sort-b", "printf '  b\\na\\n c\\n' | sort -b"),
    ("sort-no-b", "printf '  b\\na\\n c\\n' | sort"),
    ("sort-d", "printf 'a-c\\nab\\n_b\\n' | sort -d"),
    ("sort-i", "printf 'b\\001\\na\\002\\n' | sort -i | tr '\\001\\002' '12'"),
    ("sort-k2", "sort -k2 fields.txt"),
    ("sort-k2n", "sort -k2,2n fields.txt"),
    ("sort-k2nr-k1", "sort -k2,2nr -k1,1 fields.txt"),
    ("sort-k3-k2n", "sort -k3,3 -k2,2n fields.txt"),
    ("sort-k1.2", "sort -k1.2 versions.txt"),
    ("sort-k1.2-1.3", "sort -k1.2,1.3 -s versions.txt"),
    ("sort-k2b", "sort -k2b,2 fields.txt"),
    ("sort-k2.2b", "sort -k2.2b,2.2 fields.txt"),
    ("sort-t-k", "sort -t , -k3,3n -k2,2 csv.txt"),
    ("sort-t-k-r", "sort -t, -k1,1nr csv.txt"),
    ("sort-t-passwd", "sort -t: -k3,3n passwd.txt"),
    ("sort-k-M", "printf '1 Mar\\n2 jan\\n3 Feb\\n' | sort -k2M"),
    ("sort-k-V", "printf 'x v1.10\\ny v1.9\\n' | sort -k2V"),
    ("sort-k-h", "printf 'a 2M\\nb 1K\\n' | sort -k2h"),
    ("sort-k-g", "printf 'a 1e3\\nb 5\\n' | sort -k2g"),
    ("sort-k-f", "printf 'x B\\ny a\\n' | sort -k2f"),
    ("sort-k-d", "printf 'x -b\\ny a\\n' | sort -k2d"),
    ("sort-k-i", "printf 'x b\\ny a\\n' | sort -k2i"),
    ("sort-s", "sort -s -k2,2n fields.txt"),
    ("sort-s-f", "printf 'b\\nB\\na\\nA\\n' | sort -s -f"),
    ("sort-u-k", "sort -u -k2,2n fields.txt"),
    ("sort-c-sorted", "sort -c sorted.txt; echo rc=$?"),
    ("sort-c-unsorted", "sort -c unsorted.txt; echo rc=$?"),
    ("sort-C-unsorted", "sort -C unsorted.txt; echo rc=$?"),
    ("sort-cu-dup", "sort -cu sorted.txt; echo rc=$?"),
    ("sort-c-stdin", "printf 'b\\na\\n' | sort -c; echo rc=$?"),
    ("sort-m", "sort -m s1.txt s2.txt"),
    ("sort-m-stdin", "printf 'b\\nd\\n' | sort -m - s1.txt"),
    ("sort-o", "sort -o out.txt unsorted.txt; cat out.txt"),
    ("sort-o-same", "sort -o unsorted.txt unsorted.txt; cat unsorted.txt"),
    ("sort-o-long", "sort --output=out.txt -r a.txt; cat out.txt"),
    ("sort-z", "printf 'b\\0a\\0c\\0' | sort -z | tr '\\0' '|'"),
    ("sort-z-newlines", "printf 'b\\nx\\0a\\0' | sort -z | tr '\\0' '|'"),
    ("sort-two-files", "sort a.txt b.txt"),
    ("sort-stdin", "printf 'c\\na\\nb\\n' | sort"),
    ("sort-noeol", "sort noeol.txt"),
    ("sort-R-sorted", "sort -R dup.txt | sort"),
    ("sort-missing", "sort missing.txt"),
    ("sort-k0", "sort -k0 a.txt"),
    ("sort-k1.0", "sort -k1.0 a.txt"),
    ("sort-incompatible", "sort -nM a.txt"),
    ("sort-bad-option", "sort -j a.txt"),
    ("sort-t-multi", "sort -t ab a.txt"),
    ("sort-empty", "sort empty.txt"),
    ("sort-n-blank-lead", "printf ' 2\\n10\\n 1\\n' | sort -n"),
    ("sort-n-decimal", "printf '1.5\\n1.25\\n.5\\n-.5\\n' | sort -n"),
    ("sort-k-end-beyond", "sort -k5,6 fields.txt"),
    ("sort-key-long", "sort --key=2,2 --numeric-sort fields.txt"),
    ("sort-dir", "sort sub"),
    ("sort-r-k-s", "sort -s -r -k3,3 fields.txt"),
    ("sort-f-k1-u", "printf 'a 1\\nA 2\\nb 3\\n' | sort -f -u -k1,1"),
    # ---------------------------------------------------------------- cut
    ("cut-d-f2", "cut -d , -f 2 csv.txt"),
    ("cut-f-list", "cut -d , -f 1,3 csv.txt"),
    ("cut-f-open-end", "cut -d , -f 2- csv.txt"),
    ("cut-f-open-start", "cut -d , -f -2 csv.txt"),
    ("cut-complement", "cut -d , --complement -f 2 csv.txt"),
    ("cut-s", "cut -d : -s -f 1 passwd.txt"),
    ("cut-no-s", "cut -d : -f 1 passwd.txt"),
    ("cut-passwd", "cut -d: -f1,6 passwd.txt"),
    ("cut-output-delimiter", "cut -d , -f 1,3 --output-delimiter=' | ' csv.txt"),
    ("cut-tab-default", "cut -f 2 tabs.txt"),
    ("cut-b", "cut -b 1-3 a.txt"),
    ("cut-c", "cut -c 2 a.txt"),
    ("cut-c-open", "cut -c 3- a.txt"),
    ("cut-b-open-start", "cut -b -2 a.txt"),
    ("cut-z", "printf 'a,b\\0c,d\\0' | cut -z -d , -f 2 | tr '\\0' '|'"),
    ("cut-f0", "cut -f 0 a.txt"),
    ("cut-decreasing", "cut -f 3-1 a.txt"),
    ("cut-empty-list", "cut -f '' a.txt"),
    ("cut-two-lists", "cut -f 1 -b 1 a.txt"),
    ("cut-d-without-f", "cut -d , -b 1 a.txt"),
    ("cut-c-complement", "cut -c 1-3 --complement a.txt"),
    ("cut-b-output-delimiter", "cut -b 1,3 --output-delimiter=: a.txt"),
    ("cut-b-ranges-output-delimiter", "cut -b 1-2,4- --output-delimiter=: a.txt"),
    ("cut-overlap", "cut -d , -f 1-2,2-3 csv.txt"),
    ("cut-missing", "cut -f1 missing.txt"),
    ("cut-missing-and-file", "cut -f1 missing.txt a.txt"),
    ("cut-noeol", "cut -c1 noeol.txt"),
    ("cut-bad-list", "cut -f x a.txt"),
    ("cut-no-list", "cut a.txt"),
    ("cut-multichar-delim", "cut -d ab -f 1 a.txt"),
    ("cut-stdin", "printf 'a b c\\n' | cut -d ' ' -f 2"),
    ("cut-spaces", "printf 'a  b\\n' | cut -d ' ' -f 2,3"),
    ("cut-s-only-delimited-long", "printf 'a,b\\nc\\n' | cut --only-delimited -d , -f 2"),
    ("cut-f-beyond", "cut -d , -f 5 csv.txt"),
    ("cut-s-with-b", "cut -s -b 1 a.txt"),
    ("cut-dash-only", "cut -f - a.txt"),
    ("cut-long-options", "cut --delimiter=, --fields=2 csv.txt"),
    ("cut-two-files", "cut -c1 a.txt b.txt"),
    ("cut-f-complement-open", "cut -d , --complement -f 2- csv.txt"),
    # ---------------------------------------------------------------- tr
    ("tr-range", "tr a-z A-Z < a.txt"),
    ("tr-classes-upper", "tr '[:lower:]' '[:upper:]' < mixed.txt"),
    ("tr-classes-lower", "tr '[:upper:]' '[:lower:]' < mixed.txt"),
    ("tr-d-digit", "tr -d '[:digit:]' < mixed.txt"),
    ("tr-d-space", "tr -d '[:space:]' < mixed.txt; echo"),
    ("tr-s-space", "printf 'a   b  c\\n' | tr -s ' '"),
    ("tr-c", "printf 'abc-123\\n' | tr -c 'a-z\\n' '_'"),
    ("tr-cd-alpha", "tr -cd '[:alpha:]\\n' < mixed.txt"),
    ("tr-s-alpha", "printf 'aabbccdd  ee\\n' | tr -s '[:alpha:]'"),
    ("tr-d-punct", "tr -d '[:punct:]' < mixed.txt"),
    ("tr-alnum", "tr '[:alnum:]' 'x' < mixed.txt"),
    ("tr-blank", "tr '[:blank:]' '.' < mixed.txt"),
    ("tr-cntrl", "tr -d '[:cntrl:]' < mixed.txt; echo"),
    ("tr-graph", "tr -d '[:graph:]' < mixed.txt"),
    ("tr-print", "tr -d '[:print:]' < mixed.txt | wc -c"),
    ("tr-xdigit", "printf 'deadbeef xyz 09AF\\n' | tr -d '[:xdigit:]'"),
    ("tr-equiv", "printf 'banana\\n' | tr '[=a=]' 'o'"),
    ("tr-repeat-n", "printf 'abcd\\n' | tr 'abc' '[x*2]y'"),
    ("tr-repeat-fill", "printf 'abcdef\\n' | tr 'a-f' '[x*]'"),
    ("tr-repeat-fill-mid", "printf 'abcdef\\n' | tr 'a-f' 'A[-*]F'"),
    ("tr-repeat-octal", "printf 'abcdefghij\\n' | tr 'a-j' '[x*010]Y'"),
    ("tr-t", "printf 'abcd\\n' | tr -t abcd xy"),
    ("tr-no-t-extends", "printf 'abcd\\n' | tr abcd xy"),
    ("tr-octal", "printf 'abc\\n' | tr '\\141' 'X'"),
    ("tr-newline-space", "tr '\\n' ' ' < a.txt; echo"),
    ("tr-s-newline", "printf 'a\\n\\n\\nb\\n' | tr -s '\\n'"),
    ("tr-ds", "printf 'aabbcc  dd\\n' | tr -ds 'a' 'b '"),
    ("tr-s-two-strings", "printf 'aabbcc\\n' | tr -s 'ab' 'xy'"),
    ("tr-missing-operand", "tr < a.txt"),
    ("tr-one-operand", "tr a < a.txt"),
    ("tr-extra-operand", "tr a b c < a.txt"),
    ("tr-d-two", "tr -d a b < a.txt"),
    ("tr-ds-one", "tr -ds a < a.txt"),
    ("tr-descending", "tr z-a x < a.txt"),
    ("tr-bad-class", "tr '[:foo:]' x < a.txt"),
    ("tr-misaligned", "tr 'a[:upper:]' '[:lower:]x' < a.txt"),
    ("tr-string2-class", "tr 'a-z' '[:digit:]' < a.txt"),
    ("tr-C", "printf 'ab1\\n' | tr -C 'a\\n' 'z'"),
    ("tr-delete-long", "printf 'hello\\n' | tr --delete l"),
    ("tr-squeeze-long", "printf 'heLLo\\n' | tr --squeeze-repeats L"),
    ("tr-c-class-map-one", "printf 'a1b2\\n' | tr -c '[:digit:]\\n' '#'"),
    ("tr-escapes", "printf 'a\\tb\\\\c\\n' | tr '\\t\\\\' 'TB'"),
    ("tr-bad-option", "tr -x a b < a.txt"),
    ("tr-empty-string2", "tr a '' < a.txt"),
    ("tr-range-dash-end", "printf 'a-b\\n' | tr 'a-' 'xy'"),
    ("tr-repeat-in-string1", "printf 'a*b\\n' | tr '[a*2]' x"),
    ("tr-binary", "printf 'a\\0b\\n' | tr '\\0' '@'"),
    ("tr-upper-lower-swap", "printf 'aBc\\n' | tr '[:upper:][:lower:]' '[:lower:][:upper:]'"),
    ("tr-stdin-pipe-files", "cat a.txt b.txt | tr -s 'a-z' | tr a-z A-Z"),
]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()  # sort keeps temporary files there
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="line-tools-"))
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
