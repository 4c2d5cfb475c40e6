"""Records split, fmt and numfmt from the real GNU coreutils 9.1 tools:
tests/data/text_more_corpus.json, replayed by tests/test_cmd_text_more.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_line_tools.py).
A split case lists and prints the pieces it made (`ls`, `head`).

    python tools/record_text_more.py               # record and write the JSON
    python tools/record_text_more.py --only fmt    # print the cases of one command
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "text_more_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

PROSE = (
    "The quick brown fox jumps over the lazy dog. It was a bright cold day in April, and the clocks "
    "were striking thirteen.  Winston Smith, his chin nuzzled into his breast in an effort to escape "
    "the vile wind, slipped quickly through the glass doors of Victory Mansions, though not quickly "
    "enough to prevent a swirl of gritty dust from entering along with him.\n"
    "\n"
    "Call me Ishmael.  Some years ago (never mind how long precisely) having little or no money in my purse,\n"
    "and nothing particular to interest me on shore,\n"
    "I thought I would sail about a little and see the watery part of the world.  It is a way I have\n"
    "of driving off the spleen, and regulating the circulation. Whenever I find myself growing grim\n"
    "about the mouth; whenever it is a damp, drizzly November in my soul; then, I account it high time\n"
    "to get to sea as soon as I can.\n"
    "\n"
    "\n"
    "Short line.\n"
    "Another short line.\n"
    "Mr. Smith went to Washington.  He said \"Hello.\"  Then he left!  Really?  Yes.\n"
)

INDENTED = (
    "  This paragraph is indented by two spaces and it goes on for quite a while so that it must\n"
    "  be wrapped when formatted to a narrower width than the default of seventy five.\n"
    "\n"
    "    Deeper indented paragraph follows here, with several words that run on and on and on.\n"
    "First line of a tagged paragraph starts at the margin and is long enough to wrap around,\n"
    "    while the following lines are indented by four spaces and carry on the paragraph text\n"
    "    until it finally ends.\n"
    "\n"
    "\tA tab-indented paragraph, which fmt keeps indented with a tab character when it\n"
    "\trefills the text into lines of the chosen width.\n"
)

CODE = (
    "# This is a comment block that explains what the following code does, and it is\n"
    "# rather long, so fmt -p '#' should refill it.\n"
    "# A second sentence in the same comment.\n"
    "x = 1\n"
    "    # An indented comment that is also long enough that it will need to be wrapped somewhere.\n"
    "y = 2\n"
    "#\n"
    "#no space after the hash here, and the words continue for a while to wrap.\n"
)

MAIL = (
    "> Quoted text from an earlier message that goes on for a while and should be\n"
    "> refilled by fmt when the prefix is given.\n"
    ">\n"
    "> Second quoted paragraph.\n"
    "Reply text that is not quoted and is long enough to be wrapped when the prefix is not matched.\n"
)

WORLD = {
    "/w/prose.txt": PROSE,
    "/w/indent.txt": INDENTED,
    "/w/code.txt": CODE,
    "/w/mail.txt": MAIL,
    "/w/words.txt": " ".join(f"w{i}" for i in range(1, 400)) + "\n",
    "/w/spaces.txt": "one   two    three.   four  five\nsix.  seven\t eight\n",
    "/w/noeol.txt": "no newline at the end of this short paragraph",
    "/w/lines.txt": "".join(f"line {i}\n" for i in range(1, 13)),
    "/w/abc.txt": "abcdefghijklmnopqrstuvwxyz\n",
    "/w/uneven.txt": "a\nbb\nccc\ndddd\neeeee\nffffff\nggggggg\n",
    "/w/split.txt": "x\ny",
    "/w/empty.txt": "",
    "/w/sizes.txt": "1024\n2048000\n1500\n999\n123456789\n0\n-4096\n1.5\n",
    "/w/human.txt": "1K\n2.5M\n3Gi\n512\n10k\n",
    "/w/table.txt": "name size count\nfoo 1048576 3\nbar 2000 12000\nbaz   5 7\n",
    "/w/csv.txt": "a,1000,2000\nb,3500000,1\n",
    "/w/sub/inner.txt": "inner\n",
}

SHOW = " && ls && head -n 100 *"
DIR = "mkdir o && cd o && "

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- split
    ("split-default", DIR + "split ../lines.txt" + SHOW),
    ("split-l5", DIR + "split -l 5 ../lines.txt" + SHOW),
    ("split-l5-attached", DIR + "split -l5 ../lines.txt" + SHOW),
    ("split-lines-long", DIR + "split --lines=4 ../lines.txt" + SHOW),
    ("split-obsolete-number", DIR + "split -3 ../uneven.txt" + SHOW),
    ("split-l1-d", DIR + "split -l 1 -d ../lines.txt" + SHOW),
    ("split-d-a3", DIR + "split -l 4 -d -a 3 ../lines.txt" + SHOW),
    ("split-a1", DIR + "split -l 2 -a 1 ../lines.txt" + SHOW),
    ("split-prefix", DIR + "split -l 6 ../lines.txt part_" + SHOW),
    ("split-additional-suffix", DIR + "split -l 6 --additional-suffix=.txt ../lines.txt p" + SHOW),
    ("split-numeric-from", DIR + "split -l 5 --numeric-suffixes=7 ../lines.txt" + SHOW),
    ("split-hex", DIR + "split -l 1 -x ../lines.txt" + SHOW),
    ("split-b10", DIR + "split -b 10 ../abc.txt" + SHOW),
    ("split-b-suffix-k", DIR + "split -b 1K ../words.txt && ls && wc -c *"),
    ("split-b-kb", DIR + "split -b 1KB ../words.txt && wc -c *"),
    ("split-C", DIR + "split -C 12 ../uneven.txt" + SHOW),
    ("split-line-bytes", DIR + "split --line-bytes=20 ../lines.txt" + SHOW),
    ("split-n3", DIR + "split -n 3 ../abc.txt" + SHOW),
    ("split-n-l3", DIR + "split -n l/3 ../uneven.txt" + SHOW),
    ("split-n-k", DIR + "split -n 2/3 ../abc.txt"),
    ("split-n-lk", DIR + "split -n l/2/3 ../lines.txt"),
    ("split-n-r3", DIR + "split -n r/3 ../lines.txt" + SHOW),
    ("split-n-rk", DIR + "split -n r/2/3 ../lines.txt"),
    ("split-n-more-than-bytes", DIR + "split -n 5 ../split.txt" + SHOW),
    ("split-n-e", DIR + "split -e -n 5 ../split.txt" + SHOW),
    ("split-stdin-pipe", DIR + "cat ../lines.txt | split -l 7" + SHOW),
    ("split-stdin-dash", DIR + "cat ../uneven.txt | split -l 3 - pre" + SHOW),
    ("split-stdin-redirect", DIR + "split -l 8 < ../lines.txt" + SHOW),
    ("split-noeol", DIR + "split -l 1 ../split.txt" + SHOW),
    ("split-empty", DIR + "split ../empty.txt; ls; echo rc=$?"),
    ("split-t", DIR + "printf 'a;b;c;d;e' | split -l 2 -t ';'" + SHOW),
    ("split-verbose", DIR + "split --verbose -l 5 ../lines.txt"),
    ("split-missing", DIR + "split nosuch.txt; echo rc=$?"),
    ("split-dir", DIR + "split ../sub; echo rc=$?"),
    ("split-bad-l", DIR + "split -l x ../lines.txt"),
    ("split-l0", DIR + "split -l 0 ../lines.txt"),
    ("split-bad-b", DIR + "split -b 0 ../lines.txt"),
    ("split-bad-n", DIR + "split -n 0 ../lines.txt"),
    ("split-two-ways", DIR + "split -l 2 -b 3 ../lines.txt"),
    ("split-extra-operand", DIR + "split ../lines.txt a b"),
    ("split-bad-option", DIR + "split -q ../lines.txt"),
    ("split-exhausted", DIR + "seq 1 30 | split -l 1 -a 1; echo rc=$?; ls | wc -l; ls | tail -n 1"),
    ("split-a0", DIR + "split -a 0 -l 5 ../lines.txt; echo rc=$?; ls"),
    ("split-bad-a", DIR + "split -a x ../lines.txt"),
    ("split-auto-widen", DIR + "seq 1 700 | split -l 1 && ls | wc -l && ls | tail -n 3 && cat xzaaa"),
    ("split-auto-widen-d", DIR + "seq 1 95 | split -l 1 -d && ls | tail -n 3"),
    ("split-n-stdin-pipe", DIR + "cat ../abc.txt | split -n 2; echo rc=$?"),
    ("split-missing-operand-value", DIR + "split -l"),
    ("split-prefix-dir", "split -l 6 lines.txt sub/p && ls sub && cat sub/pab"),
    ("split-n4-remainder", DIR + "split -n 4 ../abc.txt && wc -c *"),
    ("split-n-l-long-line", DIR + "printf 'a\\nbbbbbbbbbbbbbbbbbbbb\\nc\\nd\\n' > in && split -n l/4 in && wc -c x* && split -n l/2/4 in"),
    ("split-n-l-e", DIR + "printf 'a\\nbbbbbbbbbbbbbbbbbbbb\\nc\\n' > in && split -e -n l/5 in p && wc -c p*"),
    ("split-C-long-line", DIR + "printf 'ab\\ncdefghij\\nk\\n' | split -C 5 && wc -c * && cat xab"),
    ("split-n-r-e", DIR + "split -e -n r/20 ../uneven.txt && ls"),
    ("split-suffix-start-too-long", DIR + "split --numeric-suffixes=123 ../lines.txt"),
    ("split-additional-slash", DIR + "split --additional-suffix=a/b ../lines.txt"),
    ("split-t-multi", DIR + "split -t ab ../lines.txt"),
    ("split-b-bad-suffix", DIR + "split -b 1Q ../lines.txt"),
    ("split-hex-from", DIR + "split -l 3 --hex-suffixes=9 ../lines.txt && ls"),
    ("split-n-chunk-too-big", DIR + "split -n 4/3 ../lines.txt"),
    ("split-prefix-missing-dir", DIR + "split ../lines.txt nodir/p; echo rc=$?"),
    ("split-overwrites", DIR + "echo old > xaa && split -l 6 ../lines.txt && cat xaa"),
    # ---------------------------------------------------------------- fmt
    ("fmt-default", "fmt prose.txt"),
    ("fmt-w40", "fmt -w 40 prose.txt"),
    ("fmt-w60", "fmt -w 60 prose.txt"),
    ("fmt-w20", "fmt -w 20 prose.txt"),
    ("fmt-w72-attached", "fmt -w72 prose.txt"),
    ("fmt-width-long", "fmt --width=50 prose.txt"),
    ("fmt-obsolete-width", "fmt -30 prose.txt"),
    ("fmt-goal", "fmt -g 40 prose.txt"),
    ("fmt-goal-and-width", "fmt -w 60 -g 50 prose.txt"),
    ("fmt-s", "fmt -s -w 40 prose.txt"),
    ("fmt-u", "fmt -u spaces.txt"),
    ("fmt-u-w", "fmt -u -w 30 prose.txt"),
    ("fmt-spaces-kept", "fmt spaces.txt"),
    ("fmt-indent", "fmt indent.txt"),
    ("fmt-indent-w40", "fmt -w 40 indent.txt"),
    ("fmt-crown", "fmt -c -w 50 indent.txt"),
    ("fmt-tagged", "fmt -t -w 50 indent.txt"),
    ("fmt-split-indent", "fmt -s -w 30 indent.txt"),
    ("fmt-prefix-hash", "fmt -p '#' -w 40 code.txt"),
    ("fmt-prefix-hash-space", "fmt -p '# ' -w 50 code.txt"),
    ("fmt-prefix-mail", "fmt -p '> ' -w 40 mail.txt"),
    ("fmt-prefix-mail-nospace", "fmt -p '>' -w 30 mail.txt"),
    ("fmt-no-prefix-mail", "fmt -w 40 mail.txt"),
    ("fmt-words", "fmt words.txt"),
    ("fmt-words-w30", "fmt -w 30 words.txt"),
    ("fmt-long-paragraph", "fmt -w 72 words.txt words.txt | tail -n 5"),
    ("fmt-noeol", "fmt noeol.txt"),
    ("fmt-noeol-wrap", "fmt -w 15 noeol.txt"),
    ("fmt-empty", "fmt empty.txt"),
    ("fmt-stdin", "printf 'a b c\\nd e f\\n\\ng h\\n' | fmt"),
    ("fmt-stdin-dash", "printf 'one\\ntwo\\n' | fmt - prose.txt | head -n 3"),
    ("fmt-two-files", "fmt -w 30 spaces.txt noeol.txt"),
    ("fmt-missing", "fmt nosuch.txt; echo rc=$?"),
    ("fmt-missing-and-file", "fmt nosuch.txt spaces.txt"),
    ("fmt-dir", "fmt sub; echo rc=$?"),
    ("fmt-bad-width", "fmt -w x prose.txt"),
    ("fmt-width-too-large", "fmt -w 2501 prose.txt"),
    ("fmt-width-zero", "fmt -w 0 spaces.txt"),
    ("fmt-width-1", "fmt -w 1 spaces.txt"),
    ("fmt-goal-too-large", "fmt -w 20 -g 30 prose.txt"),
    ("fmt-bad-option", "fmt -x prose.txt"),
    ("fmt-digit-later", "fmt -w 10 -5 prose.txt"),
    ("fmt-long-word", "printf 'short %s end\\n' $(printf 'x%.0s' $(seq 1 90)) | fmt -w 40"),
    ("fmt-sentence-ends", "printf 'End. Next sentence here.  Another one! And (a paren) word, more; words: yes.\\n' | fmt -w 25"),
    ("fmt-blank-lines-spaces", "printf 'a\\n   \\nb\\n\\t\\nc\\n' | fmt"),
    ("fmt-trailing-spaces", "printf 'word   \\nnext  \\n' | fmt"),
    ("fmt-tabs-inside", "printf 'a\\tb\\tc d\\n' | fmt"),
    ("fmt-crlf", "printf 'a b\\r\\nc d\\r\\n' | fmt | od -c"),
    ("fmt-w30-all-files", "fmt -w 30 prose.txt indent.txt code.txt mail.txt"),
    ("fmt-w50-u-all", "fmt -u -w 50 prose.txt indent.txt"),
    ("fmt-w35-crown-prose", "fmt -c -w 35 prose.txt"),
    ("fmt-tagged-prose", "fmt -t -w 45 prose.txt"),
    ("fmt-tagged-one-line", "printf 'one line only here\\n\\nanother single line\\n' | fmt -t -w 10"),
    ("fmt-g-only-small", "fmt -g 20 prose.txt"),
    ("fmt-w100", "fmt -w 100 prose.txt indent.txt"),
    ("fmt-w2500", "fmt -w 2500 words.txt | wc -c"),
    ("fmt-huge-paragraph", "seq 1 3000 | fmt -w 60 | head -n 4; seq 1 3000 | fmt -w 60 | tail -n 2"),
    ("fmt-huge-paragraph-wc", "seq 1 3000 | fmt | wc"),
    ("fmt-long-words-paragraph", "for i in $(seq 1 40); do printf 'abcdefghijklmnopqrstuvwxyz%s ' $i; done | fmt -w 70"),
    ("fmt-prefix-lead-space", "fmt -p '  #' -w 40 code.txt"),
    ("fmt-prefix-none-match", "fmt -p '//' -w 30 code.txt"),
    ("fmt-prefix-noeol", "printf '# a b c d e f g h' | fmt -p '#' -w 8"),
    ("fmt-abbrev-periods", "printf 'See e.g. the docs. Dr. Who is here.  It works i.e. fine.\\n' | fmt -w 20"),
    ("fmt-quotes-close", "printf 'He said \"stop.\"  Then (quietly) left.)  ok\\n' | fmt -w 15"),
    ("fmt-mixed-indent-tabs", "printf '\\tone two three four five six seven eight nine ten eleven\\n\\ttwelve\\n' | fmt -w 30"),
    ("fmt-s-long-line", "printf 'aaa bbb ccc ddd eee fff ggg hhh iii jjj\\nshort\\n' | fmt -s -w 12"),
    ("fmt-u-sentences", "printf 'One.  Two. Three!   Four?\\nFive\\n' | fmt -u"),
    ("fmt-width-5-goal", "printf 'aa bb cc dd ee ff gg hh ii jj kk\\n' | fmt -w 12 -g 5"),
    ("fmt-dashdash", "fmt -- -w 2>&1; echo rc=$?"),
    ("fmt-obsolete-bad", "fmt -3x prose.txt"),
    # ---------------------------------------------------------------- numfmt
    ("numfmt-plain", "numfmt 1000"),
    ("numfmt-to-si", "numfmt --to=si 1000 1500 999 123456789 1000000"),
    ("numfmt-to-iec", "numfmt --to=iec 1024 2048 1536 1000 1048576 5000000"),
    ("numfmt-to-iec-i", "numfmt --to=iec-i 4096 1 1023 1025"),
    ("numfmt-from-si", "numfmt --from=si 1K 2.5M 3G 10k"),
    ("numfmt-from-iec", "numfmt --from=iec 1K 2M 1.5K"),
    ("numfmt-from-iec-i", "numfmt --from=iec-i 1Ki 2Mi"),
    ("numfmt-from-iec-i-missing", "numfmt --from=iec-i 1K"),
    ("numfmt-from-auto", "numfmt --from=auto 1K 1Ki 2Mi 3M"),
    ("numfmt-stdin", "numfmt --to=si < sizes.txt"),
    ("numfmt-stdin-iec", "numfmt --to=iec < sizes.txt"),
    ("numfmt-from-to", "numfmt --from=auto --to=iec < human.txt"),
    ("numfmt-suffix", "numfmt --suffix=B --to=si 2000 3"),
    ("numfmt-suffix-input", "numfmt --suffix=B --from=si 2KB 5B"),
    ("numfmt-padding", "numfmt --padding=8 --to=si 1234 5"),
    ("numfmt-padding-neg", "numfmt --padding=-8 --to=si 1234 5; echo end"),
    ("numfmt-field", "numfmt --field=2 --to=iec --header < table.txt"),
    ("numfmt-field-range", "numfmt --field=2-3 --to=si --header < table.txt"),
    ("numfmt-field-list", "numfmt --field 2,3 --to=si < table.txt"),
    ("numfmt-field-open", "numfmt --field=- --to=si --invalid=ignore < table.txt"),
    ("numfmt-delimiter", "numfmt -d , --field=2-3 --to=si < csv.txt"),
    ("numfmt-delimiter-long", "numfmt --delimiter=, --field 2 --to=iec-i < csv.txt"),
    ("numfmt-header-2", "numfmt --header=2 --to=si < table.txt"),
    ("numfmt-format", "numfmt --format='%10f' 1234"),
    ("numfmt-format-prefix", "numfmt --format='size: %f bytes' --to=si 123456"),
    ("numfmt-format-left", "numfmt --format='%-10f|' 42"),
    ("numfmt-format-zero", "numfmt --format='%08f' -- 42 -3"),
    ("numfmt-format-precision", "numfmt --format='%.2f' --to=si 1234567 12"),
    ("numfmt-format-precision-plain", "numfmt --format='%.3f' 1.5 2"),
    ("numfmt-format-bad", "numfmt --format='%d' 1"),
    ("numfmt-format-no-directive", "numfmt --format='abc' 1"),
    ("numfmt-format-two", "numfmt --format='%f %f' 1"),
    ("numfmt-round-up", "numfmt --to=si --round=up -- 1001 1999 -1001"),
    ("numfmt-round-down", "numfmt --to=si --round=down -- 1999 -1001 1001"),
    ("numfmt-round-nearest", "numfmt --to=si --round=nearest -- 1449 1450 1451 -1450 -1451"),
    ("numfmt-round-towards-zero", "numfmt --to=iec --round=towards-zero -- 1999 -1999"),
    ("numfmt-round-from-zero-default", "numfmt --to=si -- 1001 -1001 9999 99999 999999"),
    ("numfmt-round-bad", "numfmt --round=sideways 1"),
    ("numfmt-to-bad", "numfmt --to=xx 1"),
    ("numfmt-from-bad", "numfmt --from=auto2 1"),
    ("numfmt-invalid-number", "numfmt abc; echo rc=$?"),
    ("numfmt-invalid-stops", "numfmt 1 x 2; echo rc=$?"),
    ("numfmt-invalid-warn", "numfmt --invalid=warn 1 x 2; echo rc=$?"),
    ("numfmt-invalid-fail", "numfmt --invalid=fail 1 x 2; echo rc=$?"),
    ("numfmt-invalid-ignore", "numfmt --invalid=ignore 1 x 2; echo rc=$?"),
    ("numfmt-rejecting-suffix", "numfmt 1K; echo rc=$?"),
    ("numfmt-invalid-suffix", "numfmt --from=si 1X; echo rc=$?"),
    ("numfmt-trailing-garbage", "numfmt --from=si 1Kx; echo rc=$?"),
    ("numfmt-negative", "numfmt --to=si -- -1500 -999"),
    ("numfmt-decimals", "numfmt 1.50 0.1 0.3 2.05 10.999"),
    ("numfmt-decimals-si", "numfmt --to=si 1.5 0.1 9.99 99.9 999.9 1049 1051 9950 9951"),
    ("numfmt-zero", "numfmt --to=iec -- 0 -0 -1.5"),
    ("numfmt-big", "numfmt --to=si 1000000000000000000000 1234567890123456789012345"),
    ("numfmt-too-big-unscaled", "numfmt 123456789012345678901; echo rc=$?"),
    ("numfmt-too-many-digits", "numfmt --to=si 1234567890123456789012345678901234567; echo rc=$?"),
    ("numfmt-from-unit", "numfmt --from-unit=1024 --to=iec 1 3"),
    ("numfmt-to-unit", "numfmt --to-unit=1000 --round=nearest 12345 999"),
    ("numfmt-grouping", "numfmt --grouping 1234567"),
    ("numfmt-grouping-to", "numfmt --grouping --to=si 1"),
    ("numfmt-padding-bad", "numfmt --padding=x 1"),
    ("numfmt-padding-zero", "numfmt --padding=0 1"),
    ("numfmt-header-bad", "numfmt --header=0 1"),
    ("numfmt-delimiter-bad", "numfmt -d ab 1"),
    ("numfmt-field-bad", "numfmt --field=0 1"),
    ("numfmt-multiple-fields", "numfmt --field=1 --field=2 1"),
    ("numfmt-auto-padding", "printf '  1000\\n 20000000\\n' | numfmt --to=si"),
    ("numfmt-leading-blanks-arg", "numfmt --to=si '  12345'"),
    ("numfmt-z", "printf '1000\\0002000\\000' | numfmt -z --to=si | tr '\\0' '|'"),
    ("numfmt-no-newline", "printf '4096' | numfmt --to=iec; echo"),
    ("numfmt-empty-line", "printf '\\n5000\\n' | numfmt --to=si; echo rc=$?"),
    ("numfmt-bad-option", "numfmt -x 1"),
    ("numfmt-si-scale-k", "numfmt --from=si --to=si 1K 1000K 9.5M 999.9K"),
    ("numfmt-iec-boundaries", "numfmt --to=iec 1023 1024 10239 10240 1048575 1048576"),
    ("numfmt-field-beyond", "echo 'a b' | numfmt --field=5; echo rc=$?"),
    ("numfmt-no-args-no-stdin", "numfmt < empty.txt; echo rc=$?"),
    ("numfmt-suffix-no-number", "numfmt --suffix=B B; echo rc=$?"),
    ("numfmt-blank-suffix", "numfmt --from=si '1 K' '2K '; echo rc=$?"),
    ("numfmt-from-unit-bad", "numfmt --from-unit=0 1"),
    ("numfmt-to-iec-i-big", "numfmt --to=iec-i 1099511627776 1125899906842624"),
    ("numfmt-format-grouping-quote", "numfmt --format=\"%'f\" 1234567"),
    ("numfmt-format-percent-literal", "numfmt --format='%%%f%%' 5"),
    ("numfmt-format-ends", "numfmt --format='%' 5"),
    ("numfmt-format-width-precision", "numfmt --format='%8.1f' --to=iec 1536 2"),
    ("numfmt-debug-none", "numfmt --debug 5; echo rc=$?"),
    ("numfmt-delim-auto-nopad", "printf 'a  100000\\n' | numfmt --field=2 --to=si"),
    ("numfmt-precision-loss", "numfmt 1234567890123456789; echo rc=$?"),
    ("numfmt-decimal-round-iec", "numfmt --to=iec 1.4 10.5 1023.5 --round=nearest"),
    ("numfmt-from-si-frac", "numfmt --from=si 1.234K 0.5M 1.0000001G"),
    ("numfmt-plus-sign", "numfmt +5; echo rc=$?"),
    ("numfmt-dot-only", "numfmt . .5 5.; echo rc=$?"),
    ("numfmt-half-dot", "numfmt .5 5.; echo rc=$?"),
    ("numfmt-27-digits", "numfmt --to=si 123456789012345678901234567; echo rc=$?"),
    ("numfmt-28-digits", "numfmt --to=si 1234567890123456789012345678; echo rc=$?"),
    ("numfmt-big-unscaled-frac", "numfmt 12345678901234567.5; echo rc=$?"),
    ("numfmt-debug-loss", "numfmt --debug --to=si 1234567890123456789; echo rc=$?"),
    ("numfmt-prefix-arg", "numfmt --to=s --round=n --from=a 1Ki 1501"),
    ("numfmt-ambiguous", "numfmt --from=i 1"),
    ("numfmt-iec-i-suffix-B", "numfmt --to=iec-i --suffix=B 1536 1048576"),
    ("numfmt-fractions-nearest", "numfmt --to=si --round=nearest 1250 1350 1050 2550"),
    ("numfmt-to-unit-K", "numfmt --to-unit=1K 5000 --from-unit=1Ki"),
    ("numfmt-padding-field", "printf 'x 1000\\ny 2000000\\n' | numfmt --field 2 --to=si --padding=6"),
    ("numfmt-tab-delim", "printf 'a\\t1000\\n' | numfmt --field=2 --to=si"),
    ("numfmt-precision-si-inputs", "numfmt --from=si --to=iec 1.5K 0.001K 12.34M"),
    ("numfmt-invalid-fail-stdin", "printf '1000\\nabc\\n3000\\n' | numfmt --to=si --invalid=fail; echo rc=$?"),
]


def build_world(root: Path) -> None:
    (root / "tmp").mkdir()
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="text-more-"))
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
