"""Records GNU patch 2.7.6 (LC_ALL=C) from the real program: tests/data/patch_corpus.json,
replayed by tests/test_cmd_patch.py.

Every case runs `cd /w` then its line under `bash -c`, in a fresh copy of WORLD inside a
bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment (the approach of record_line_tools.py).
stdin is not a terminal, so patch asks its questions in its non-interactive form. Cases
print `rc=$?` after patch, then `cat` the result and `ls` for .orig / .rej files.

    python tools/record_patch.py              # record and write the JSON
    python tools/record_patch.py --only rej   # print the cases whose id starts with rej
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

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "patch_corpus.json"
PREFIX = "cd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

TEN = "".join(f"{word}\n" for word in "one two three four five six seven eight nine ten".split())
LONG = "".join(f"line {i}\n" for i in range(1, 31))

A_DIFF = "--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n"
A0_DIFF = ("--- a.txt\t2024-01-01 00:00:00.000000000 +0000\n+++ a.txt\t2024-01-02 00:00:00.000000000 +0000\n"
           "@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n")
LONG_DIFF = ("--- a/long.txt\n+++ b/long.txt\n@@ -3,3 +3,3 @@\n line 3\n-line 4\n+LINE 4\n line 5\n"
             "@@ -20,3 +20,4 @@\n line 20\n line 21\n+inserted\n line 22\n")
LONG_FAIL_DIFF = ("--- a/long.txt\n+++ b/long.txt\n@@ -3,3 +3,3 @@\n line 3\n-line 4\n+LINE 4\n line 5\n"
                  "@@ -20,3 +20,3 @@\n line 20\n-line twenty-one\n+line 21!\n line 22\n")
# The second hunk's numbers are 5 lines off: it succeeds with an offset.
OFFSET_DIFF = ("--- a/long.txt\n+++ b/long.txt\n@@ -3,3 +3,3 @@\n line 3\n-line 4\n+LINE 4\n line 5\n"
               "@@ -15,3 +15,3 @@\n line 20\n-line 21\n+LINE 21\n line 22\n")
FUZZ1_DIFF = ("--- a/long.txt\n+++ b/long.txt\n@@ -9,7 +9,7 @@\n line nine\n line 10\n line 11\n-line 12\n"
              "+LINE 12\n line 13\n line 14\n line 15\n")
FUZZ2_DIFF = ("--- a/long.txt\n+++ b/long.txt\n@@ -9,7 +9,7 @@\n line nine\n line ten\n line 11\n-line 12\n"
              "+LINE 12\n line 13\n line 14\n line fifteen\n")
FUZZ3_DIFF = ("--- a/long.txt\n+++ b/long.txt\n@@ -9,7 +9,7 @@\n line nine\n line ten\n line eleven\n-line 12\n"
              "+LINE 12\n line 13\n line 14\n line 15\n")
NEW_DIFF = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"
DEL_DIFF = "--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n"
GIT_DIFF = ("diff --git a/a.txt b/a.txt\nindex 1234567..89abcde 100644\n--- a/a.txt\n+++ b/a.txt\n"
            "@@ -1,4 +1,4 @@\n one\n-two\n+TWO\n three\n four\n"
            "diff --git a/fresh.txt b/fresh.txt\nnew file mode 100644\nindex 0000000..e69de29\n"
            "--- /dev/null\n+++ b/fresh.txt\n@@ -0,0 +1 @@\n+fresh\n")
GIT_DEL_DIFF = ("diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex 1234567..0000000\n"
                "--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n")
NOEOL_DIFF = ("--- a/noeol.txt\n+++ b/noeol.txt\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n"
              "+z\n\\ No newline at end of file\n")
ADDEOL_DIFF = "--- a/noeol.txt\n+++ b/noeol.txt\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n"
MULTI_DIFF = A_DIFF + "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,3 @@\n alpha\n+between\n beta\n"
CONTEXT_DIFF = ("*** a.txt\t2024-01-01 00:00:00.000000000 +0000\n--- a.txt\t2024-01-02 00:00:00.000000000 +0000\n"
                "***************\n*** 2,4 ****\n  two\n! three\n  four\n--- 2,4 ----\n  two\n! THREE\n  four\n")
CONTEXT_FAIL_DIFF = ("*** long.txt\n--- long.txt\n***************\n*** 3,5 ****\n  line 3\n! line 4\n  line 5\n"
                     "--- 3,5 ----\n  line 3\n! LINE 4\n  line 5\n***************\n*** 20,22 ****\n  line 20\n"
                     "- line twenty-one\n  line 22\n--- 20,21 ----\n  line 20\n  line 22\n")
PRELUDE_DIFF = "From: someone\nSubject: [PATCH] fix\n\nSome words.\n---\n" + A_DIFF + "-- \n2.39.0\n"
MALFORMED_DIFF = "--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n"
MISSING_DIFF = "--- a/missing.txt\n+++ b/missing.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
PY_FILE = "def greet(name):\n    print('hi', name)\n\n\ndef main():\n    greet('x')\n\n\nmain()\n"

# None makes an empty directory.
WORLD: dict[str, str | None] = {
    "/w/a.txt": TEN,
    "/w/b.txt": "alpha\nbeta\n",
    "/w/long.txt": LONG,
    "/w/shifted.txt": "extra 1\nextra 2\nextra 3\n" + TEN,
    "/w/gone.txt": "bye\nnow\n",
    "/w/noeol.txt": "x\ny",
    "/w/app.py": PY_FILE,
    "/w/a.diff": A_DIFF,
    "/w/a0.diff": A0_DIFF,
    "/w/long.diff": LONG_DIFF,
    "/w/longfail.diff": LONG_FAIL_DIFF,
    "/w/offset.diff": OFFSET_DIFF,
    "/w/fuzz1.diff": FUZZ1_DIFF,
    "/w/fuzz2.diff": FUZZ2_DIFF,
    "/w/fuzz3.diff": FUZZ3_DIFF,
    "/w/new.diff": NEW_DIFF,
    "/w/del.diff": DEL_DIFF,
    "/w/git.diff": GIT_DIFF,
    "/w/gitdel.diff": GIT_DEL_DIFF,
    "/w/noeol.diff": NOEOL_DIFF,
    "/w/addeol.diff": ADDEOL_DIFF,
    "/w/multi.diff": MULTI_DIFF,
    "/w/ctx.diff": CONTEXT_DIFF,
    "/w/ctxfail.diff": CONTEXT_FAIL_DIFF,
    "/w/mail.patch": PRELUDE_DIFF,
    "/w/malformed.diff": MALFORMED_DIFF,
    "/w/missing.diff": MISSING_DIFF,
    "/w/garbage.txt": "this is not a patch\njust words\n",
    "/w/old/x.txt": "x1\nx2\nx3\n",
    "/w/old/keep.txt": "same\n",
    "/w/new/x.txt": "x1\nX2\nx3\n",
    "/w/new/keep.txt": "same\n",
    "/w/new/y.txt": "brand new\n",
    "/w/d/sub/f.txt": "f1\nf2\n",
}

RC = '; echo "rc=$?"'

# (id, line). After the patch each case shows the status, the result and the folder.
CASES: list[tuple[str, str]] = [
    # ------------------------------------------------------------- clean applies
    ("clean-p1-stdin", "patch -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("clean-p0", "patch -p0 < a0.diff" + RC + "; cat a.txt; ls"),
    ("clean-i", "patch -p1 -i a.diff" + RC + "; cat a.txt"),
    ("clean-i-joined", "patch -p1 -ia.diff" + RC + "; cat a.txt"),
    ("clean-long-strip", "patch --strip=1 --input=a.diff" + RC + "; cat a.txt"),
    ("clean-origfile", "patch a.txt < a.diff" + RC + "; cat a.txt; ls"),
    ("clean-origfile-patchfile", "patch a.txt a0.diff" + RC + "; cat a.txt"),
    ("clean-pipe", "cat a.diff | patch -p1" + RC + "; cat a.txt"),
    ("clean-two-hunks", "patch -p1 < long.diff" + RC + "; cat long.txt; ls"),
    ("clean-u-flag", "patch -u -p1 < a.diff" + RC + "; cat a.txt"),
    ("clean-heredoc", "patch app.py <<'EOF'\n--- app.py\n+++ app.py\n@@ -1,3 +1,3 @@\n def greet(name):\n"
     "-    print('hi', name)\n+    print('hello', name)\n \nEOF\necho \"rc=$?\"; cat app.py; ls"),
    ("clean-no-strip-given", "patch < a.diff" + RC + "; cat a.txt; ls"),
    ("clean-mail-prelude", "patch -p1 < mail.patch" + RC + "; cat a.txt"),
    ("clean-context-format", "patch -p0 < ctx.diff" + RC + "; cat a.txt; ls"),
    ("clean-silent", "patch -s -p1 < long.diff" + RC + "; cat long.txt"),
    ("clean-multi", "patch -p1 < multi.diff" + RC + "; cat a.txt b.txt; ls"),
    ("clean-subdir-p2", "printf -- '--- x/d/sub/f.txt\\n+++ y/d/sub/f.txt\\n@@ -1,2 +1,2 @@\\n f1\\n-f2\\n+F2\\n' | "
     "patch -p1" + RC + "; cat d/sub/f.txt; ls d/sub"),
    ("clean-unified-zero-context", "printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -5 +5 @@\\n-five\\n+FIVE\\n' | "
     "patch -p1" + RC + "; cat a.txt; ls"),
    ("clean-insert-at-top", "printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -0,0 +1 @@\\n+zero\\n' | patch -p1"
     + RC + "; cat a.txt"),
    ("clean-append-at-end", "printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -9,2 +9,3 @@\\n nine\\n ten\\n+eleven\\n' | "
     "patch -p1" + RC + "; cat a.txt"),
    # ------------------------------------------------------------- output options
    ("out-o", "patch -o out.txt a.txt < a.diff" + RC + "; cat out.txt; cat a.txt; ls"),
    ("out-o-p1", "patch -p1 -o out.txt < a.diff" + RC + "; cat out.txt; ls"),
    ("out-b", "patch -b -p1 < a.diff" + RC + "; cat a.txt.orig; ls"),
    ("out-b-clean-multi", "patch -b -p1 < multi.diff" + RC + "; ls"),
    # ------------------------------------------------------------- offsets and fuzz
    ("offset-origfile", "patch shifted.txt < a.diff" + RC + "; cat shifted.txt; ls"),
    ("offset-second-hunk", "patch -p1 < offset.diff" + RC + "; cat long.txt; ls"),
    ("offset-no-backup", "patch --no-backup-if-mismatch -p1 < offset.diff" + RC + "; ls"),
    ("offset-one-line", "printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -3,3 +3,3 @@\\n two\\n-three\\n+3\\n four\\n' | "
     "patch -p1" + RC + "; cat a.txt"),
    ("offset-negative", "printf -- '--- a/long.txt\\n+++ b/long.txt\\n@@ -25,3 +25,3 @@\\n line 11\\n-line 12\\n"
     "+LINE 12\\n line 13\\n' | patch -p1" + RC + "; ls"),
    ("fuzz-1", "patch -p1 < fuzz1.diff" + RC + "; cat long.txt; ls"),
    ("fuzz-2", "patch -p1 < fuzz2.diff" + RC + "; sed -n 8,16p long.txt; ls"),
    ("fuzz-3-fails", "patch -p1 < fuzz3.diff" + RC + "; cat long.txt.rej; ls"),
    ("fuzz-3-allowed", "patch -F3 -p1 < fuzz3.diff" + RC + "; sed -n 8,16p long.txt"),
    ("fuzz-0-fails", "patch --fuzz=0 -p1 < fuzz1.diff" + RC + "; cat long.txt.rej; ls"),
    ("fuzz-with-offset", "printf -- '--- a/long.txt\\n+++ b/long.txt\\n@@ -2,7 +2,7 @@\\n line nine\\n line 10\\n"
     " line 11\\n-line 12\\n+LINE 12\\n line 13\\n line 14\\n line 15\\n' | patch -p1" + RC + "; ls"),
    # ------------------------------------------------------------- failures and rejects
    ("rej-one-of-two", "patch -p1 < longfail.diff" + RC + "; cat long.txt.rej; ls"),
    ("rej-content", "patch -p1 < longfail.diff" + RC + "; sed -n 1,6p long.txt; cat long.txt.orig | wc -l"),
    ("rej-all", "patch shifted.txt < longfail.diff" + RC + "; cat shifted.txt.rej; ls"),
    ("rej-context-format", "patch -p0 < ctxfail.diff" + RC + "; cat long.txt.rej; ls"),
    ("rej-dry-run", "patch --dry-run -p1 < longfail.diff" + RC + "; ls"),
    ("rej-no-backup", "patch --no-backup-if-mismatch -p1 < longfail.diff" + RC + "; ls"),
    ("rej-silent", "patch -s -p1 < longfail.diff" + RC + "; ls"),
    ("rej-r-file", "patch -r mine.rej -p1 < longfail.diff" + RC + "; cat mine.rej; ls"),
    ("rej-missing-file-t", "patch -t -p1 < missing.diff" + RC + "; ls"),
    ("rej-missing-file-f", "patch -f -p1 < missing.diff" + RC),
    ("rej-missing-file-batchless", "patch -p1 < missing.diff" + RC),
    ("rej-wrong-p", "patch -t -p0 < a.diff" + RC + "; cat a.txt"),
    # ------------------------------------------------------------- reversed patches
    ("rev-R", "patch -p1 < a.diff; patch -R -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-detect-t", "patch -p1 < a.diff; patch -t -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-detect-N", "patch -p1 < a.diff; patch -N -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-detect-f", "patch -p1 < a.diff; patch -f -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-detect-plain", "patch -p1 < a.diff; patch -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-detect-N-rej", "patch -p1 < a.diff; patch -N -p1 < a.diff" + RC + "; cat a.txt.rej"),
    ("rev-R-not-applied", "patch -R -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-R-not-applied-t", "patch -t -R -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("rev-R-new-file", "patch -p1 < new.diff; patch -R -p1 < new.diff" + RC + "; ls"),
    ("rev-R-two-hunks", "patch -p1 < long.diff; patch -R -p1 < long.diff" + RC + "; cmp long.txt long.txt.orig;"
     " ls"),
    ("rev-git-diff-R", "patch -p1 < git.diff; cat git.diff | patch -R -p1" + RC + "; cat a.txt; ls"),
    # ------------------------------------------------------------- new and deleted files
    ("new-file", "patch -p1 < new.diff" + RC + "; cat new.txt; ls"),
    ("new-file-exists", "echo hello > new.txt; patch -t -p1 < new.diff" + RC + "; cat new.txt; ls"),
    ("new-file-b", "patch -b -p1 < new.diff" + RC + "; ls"),
    ("new-file-in-dir", "printf -- '--- /dev/null\\n+++ b/sub/dir/n.txt\\n@@ -0,0 +1 @@\\n+n\\n' | patch -p1"
     + RC + "; cat sub/dir/n.txt"),
    ("del-file", "patch -p1 < del.diff" + RC + "; ls"),
    ("del-file-b", "patch -b -p1 < del.diff" + RC + "; ls; cat gone.txt.orig"),
    ("del-file-mismatch", "echo other > gone.txt; patch -p1 < del.diff" + RC + "; ls"),
    ("git-diff", "patch -p1 < git.diff" + RC + "; cat a.txt fresh.txt; ls"),
    ("git-delete", "patch -p1 < gitdel.diff" + RC + "; ls"),
    ("git-dry-run", "patch --dry-run -p1 < git.diff" + RC + "; ls"),
    # ------------------------------------------------------------- dry runs
    ("dry-clean", "patch --dry-run -p1 < a.diff" + RC + "; cat a.txt; ls"),
    ("dry-offset", "patch --dry-run -p1 < offset.diff" + RC + "; ls"),
    ("dry-new-file", "patch --dry-run -p1 < new.diff" + RC + "; ls"),
    ("dry-reversed-t", "patch -p1 < a.diff; patch --dry-run -t -p1 < a.diff" + RC + "; cat a.txt"),
    # ------------------------------------------------------------- no newline at end of file
    ("noeol-change", "patch -p1 < noeol.diff" + RC + "; od -c noeol.txt"),
    ("noeol-add-newline", "patch -p1 < addeol.diff" + RC + "; od -c noeol.txt"),
    ("noeol-reverse", "patch -p1 < addeol.diff; patch -R -p1 < addeol.diff" + RC + "; od -c noeol.txt"),
    ("noeol-mismatch", "printf 'x\\ny\\n' > noeol.txt; patch -p1 < noeol.diff" + RC + "; od -c noeol.txt; ls"),
    # ------------------------------------------------------------- our own diff, applied back
    ("roundtrip-diff-u", "cp a.txt a2.txt; sed -i 's/five/FIVE/; s/nine/9/' a2.txt; diff -u a.txt a2.txt > p.diff;"
     " patch a.txt < p.diff" + RC + "; cmp a.txt a2.txt && echo same"),
    ("roundtrip-diff-u-R", "cp a.txt a2.txt; sed -i '1d; $a\\\\end' a2.txt; diff -u a.txt a2.txt | patch -R a2.txt"
     + RC + "; cmp a.txt a2.txt && echo same"),
    ("roundtrip-diff-c", "cp long.txt l2.txt; sed -i '5d; 20s/$/!/' l2.txt; diff -c long.txt l2.txt > p.diff;"
     " patch long.txt p.diff" + RC + "; cmp long.txt l2.txt && echo same"),
    ("roundtrip-diff-ruN", "diff -ruN old new > t.diff; cd old; patch -p1 < ../t.diff" + RC + "; ls; cat x.txt y.txt"),
    ("roundtrip-diff-noeol", "printf 'a\\nb' > m1; printf 'a\\nc\\n' > m2; diff -u m1 m2 > p.diff; patch m1 < p.diff"
     + RC + "; cmp m1 m2 && echo same"),
    # ------------------------------------------------------------- errors
    ("err-garbage", "patch < garbage.txt" + RC),
    ("err-empty", "patch < /dev/null" + RC),
    ("err-missing-patchfile", "patch -i nope.diff" + RC),
    ("err-malformed", "patch -p1 < malformed.diff" + RC + "; cat a.txt"),
    ("err-bad-option", "patch --bogus < a.diff" + RC),
    ("err-bad-strip", "patch -px < a.diff" + RC),
    ("err-origfile-missing", "patch nothere.txt < a.diff" + RC),
    ("err-directory-target", "patch d < a.diff" + RC),
    ("err-malformed-line", "printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -2,3 +2,3 @@\\n two\\n?three\\n+THREE\\n four\\n' | "
     "patch -p1" + RC + "; cat a.txt"),
    ("err-partial-last-line", "printf -- '--- a/a.txt\\n+++ b/a.txt\\n@@ -2,3 +2,3 @@\\n two\\n-three\\n+THREE\\n four' | "
     "patch -p1" + RC + "; cat a.txt"),
    ("err-strip-too-many", "patch -t -p5 < a.diff" + RC),
    # ------------------------------------------------------------- more rejects and formats
    ("more-rej-timestamps", "printf -- '--- a.txt\\t2024-01-01 10:00:00.000000000 +0000\\n+++ a.txt\\t2024-01-02 "
     "11:00:00.000000000 +0000\\n@@ -2,3 +2,3 @@ some_function()\\n two\\n-THREE\\n+3\\n four\\n' | patch"
     + RC + "; cat a.txt.rej"),
    ("more-rej-noeol", "printf 'x\\ny\\n' > noeol.txt; patch -p1 < noeol.diff" + RC + "; od -c noeol.txt.rej"),
    ("more-rej-reversed", "patch -p1 < long.diff; patch -R -p1 < longfail.diff" + RC + "; cat long.txt.rej"),
    ("more-git-offset", "printf -- 'diff --git a/long.txt b/long.txt\\nindex 1234567..89abcde 100644\\n--- a/long.txt\\n"
     "+++ b/long.txt\\n@@ -15,3 +15,3 @@\\n line 20\\n-line 21\\n+LINE 21\\n line 22\\n' | patch -p1" + RC + "; ls"),
    ("more-git-rename", "printf -- 'diff --git a/b.txt b/c.txt\\nsimilarity index 100%%\\nrename from b.txt\\n"
     "rename to c.txt\\n' | patch -p1" + RC + "; ls; cat c.txt"),
    ("more-normal-diff", "cp a.txt a2.txt; sed -i '3d; 7s/$/!/' a2.txt; diff a.txt a2.txt > n.diff; patch a.txt < n.diff"
     + RC + "; cmp a.txt a2.txt && echo same"),
    ("more-index-line", "printf -- 'Index: a.txt\\n===================================================================\\n"
     "--- a.txt\\n+++ a.txt\\n@@ -1,2 +1,2 @@\\n-one\\n+ONE\\n two\\n' | patch -p0" + RC + "; cat a.txt"),
    ("more-two-files-one-fails", "cat longfail.diff a.diff | patch -p1" + RC + "; ls"),
    ("more-E-empties", "printf -- '--- a/b.txt\\n+++ b/b.txt\\n@@ -1,2 +0,0 @@\\n-alpha\\n-beta\\n' | patch -E -p1"
     + RC + "; ls"),
    ("more-empty-not-deleted", "printf -- '--- a/b.txt\\n+++ b/b.txt\\n@@ -1,2 +0,0 @@\\n-alpha\\n-beta\\n' | "
     "patch -p1" + RC + "; ls -l b.txt | cut -d' ' -f5"),
    ("more-N-new-file-exists", "patch -p1 < new.diff; patch -N -p1 < new.diff" + RC + "; ls"),
    ("more-z-suffix", "patch -b -z .bak -p1 < a.diff" + RC + "; ls"),
    ("more-fuzz-F1-two", "patch -F1 -p1 < fuzz2.diff" + RC + "; ls"),
    ("more-reject-dash", "patch -r - -p1 < longfail.diff" + RC + "; ls"),
    ("more-d-dir", "patch -d old -p1 < ../w/a.diff" + RC),
    ("more-insert-empty-file", "printf -- '--- a/empty.txt\\n+++ b/empty.txt\\n@@ -0,0 +1,2 @@\\n+one\\n+two\\n' > e.diff;"
     " : > empty.txt; patch -p1 < e.diff" + RC + "; cat empty.txt"),
]


def build_world(root: Path) -> None:
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        if text is None:
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    (root / "tmp").mkdir(exist_ok=True)  # patch keeps its temporary files there


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="patch-"))
    try:
        build_world(root)
        argv = ["bwrap", "--bind", str(root), "/", *SANDBOX, PREFIX + line]
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    record = {"id": case_id, "command": "patch", "line": line}
    try:
        record["stdout"] = done.stdout.decode("utf-8")
    except UnicodeDecodeError:
        record["stdout_b64"] = base64.b64encode(done.stdout).decode("ascii")
    record["exit_code"] = done.returncode
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
