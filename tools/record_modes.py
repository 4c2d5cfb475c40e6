"""Records chmod, the permission test operators, ls's formats (-C -x -m -w -l modes) and GNU
stat from the real tools: tests/data/modes_corpus.json, replayed by tests/test_cmd_chmod.py
and tests/test_cmd_ls_stat_gnu.py.

Every case runs `umask 022; cd /w` then its line under `bash -c`, in a fresh copy of WORLD
inside a bubblewrap sandbox whose root IS a temporary folder (only /usr comes from the host,
read-only), with a clean C-locale environment, as uid/gid 1000 (the owner of every file, and
not root, so `[ -r f ]` reads the owner's bits as it does here).

    python tools/record_modes.py           # record and write the JSON
    python tools/record_modes.py --only ls   # print the cases of one command
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "modes_corpus.json"
PREFIX = "umask 022\ncd /w\n"
TIMEOUT_SECONDS = 10
SANDBOX = ["--ro-bind", "/usr", "/usr",
           "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
           "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/sbin", "/sbin",
           "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--uid", "1000", "--gid", "1000",
           "--die-with-parent", "--chdir", "/",
           "env", "-i", "LC_ALL=C", "PATH=/usr/bin:/bin", "HOME=/", "bash", "-c"]

GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
         "sigma tau upsilon").split()
LONG = ["a", "bb", "a_very_long_file_name_number_one.txt", "short", "x.y", "mid_length_name", "z",
        "another-rather-long-name.md", "c3", "dd4", "e_five"]
WORLD = {
    "/w/a.txt": "one\ntwo\n",
    "/w/b.txt": "alpha beta\n",
    "/w/empty.txt": "",
    "/w/run.sh": "echo hi\n",
    "/w/sub/inner.txt": "inner\n",
    "/w/sub/deep/x.txt": "x\n",
    **{f"/w/names/{name}": "" for name in GREEK},
    **{f"/w/long/{name}": "" for name in LONG},
}

# (id, line). The id starts with the command's name.
CASES: list[tuple[str, str]] = [
    # ---------------------------------------------------------------- chmod
    ("chmod-octal-ls", "chmod 755 a.txt; ls -l a.txt | cut -c1-10"),
    ("chmod-octal-leading-zero", "chmod 0600 run.sh; stat -c '%a %A' run.sh"),
    ("chmod-symbolic-equals", "chmod u=rwx,go=rx a.txt; stat -c '%a %A %n' a.txt"),
    ("chmod-plus-x", "chmod +x run.sh; stat -c %A run.sh"),
    ("chmod-u-plus-x-go-minus-r", "chmod u+x,go-r a.txt; stat -c '%a %A %n' a.txt"),
    ("chmod-go-minus-w", "chmod 666 b.txt; chmod go-w a.txt b.txt; stat -c '%a %n' a.txt b.txt"),
    ("chmod-a-equals-r", "chmod a=r a.txt; stat -c %A a.txt"),
    ("chmod-o-equals-nothing", "chmod o= a.txt; stat -c %a a.txt"),
    ("chmod-setuid-dropped", "chmod u+s a.txt; stat -c %a a.txt"),
    ("chmod-recursive", "chmod -R go-rx sub; stat -c '%a %n' sub sub/inner.txt sub/deep sub/deep/x.txt"),
    ("chmod-verbose", "chmod -v 700 a.txt b.txt"),
    ("chmod-verbose-retained", "chmod -v 644 a.txt"),
    ("chmod-changes", "chmod -c 644 a.txt; chmod -c 600 a.txt"),
    ("chmod-changes-recursive", "chmod -R -c o-r sub | sort"),  # GNU walks in readdir order
    ("chmod-invalid-mode", "chmod q a.txt; echo status=$?"),
    ("chmod-invalid-octal", "chmod 8 a.txt; echo status=$?"),
    ("chmod-missing-operand", "chmod; echo status=$?"),
    ("chmod-missing-file-operand", "chmod 755; echo status=$?"),
    ("chmod-missing-file", "chmod 755 nope a.txt; echo status=$?; stat -c %a a.txt"),
    ("chmod-f-quiet", "chmod -f 755 nope; echo status=$?"),
    ("chmod-reference", "chmod 700 run.sh; chmod --reference=run.sh a.txt; stat -c %a a.txt"),
    ("chmod-reference-missing", "chmod --reference=nope a.txt; echo status=$?"),
    ("chmod-capital-x", "chmod a-x sub; chmod a+X sub a.txt; stat -c '%a %n' sub a.txt"),
    ("chmod-capital-x-file-with-x", "chmod u+x a.txt; chmod a+X a.txt; stat -c %a a.txt"),
    ("chmod-minus-w-as-option", "chmod -w a.txt; stat -c %a a.txt"),
    ("chmod-minus-w-surprise", "chmod 666 b.txt; chmod -w b.txt; echo status=$?; stat -c %a b.txt"),
    ("chmod-equals-umask", "chmod 777 a.txt; chmod =rw a.txt; stat -c %a a.txt"),
    ("chmod-g-equals-u", "chmod g=u a.txt; stat -c %a a.txt"),
    ("chmod-several-clauses", "chmod u=r,g=w,o=x a.txt; stat -c %A a.txt"),
    ("chmod-bad-option", "chmod -k 755 a.txt; echo status=$?"),
    ("chmod-cp-keeps-mode", "chmod 750 a.txt; cp a.txt c.txt; stat -c %a c.txt"),
    ("chmod-cp-masks-umask", "chmod 777 a.txt; cp a.txt c.txt; stat -c %a c.txt"),
    ("chmod-mv-keeps-mode", "chmod 600 a.txt; mv a.txt m.txt; stat -c %a m.txt"),
    ("chmod-cp-existing-target", "chmod 700 b.txt; cp a.txt b.txt; stat -c %a b.txt"),
    ("chmod-cp-r", "chmod -R 700 sub; cp -r sub sub2; stat -c '%a %n' sub2 sub2/inner.txt"),
    ("chmod-dir-octal", "chmod 700 sub; ls -ld sub | cut -c1-10"),
    ("chmod-dashdash", "chmod -- 600 a.txt; stat -c %a a.txt"),
    ("chmod-comma-list-octal-bad", "chmod 755,u+x a.txt; echo status=$?"),
    # ---------------------------------------------------------------- test operators
    ("test-r-default", "[ -r a.txt ] && echo readable"),
    ("test-w-default", "[ -w a.txt ] && echo writable"),
    ("test-x-default-file", "[ -x a.txt ] || echo not-executable"),
    ("test-x-dir", "[ -x sub ] && echo dir-executable"),
    ("test-x-after-chmod", "chmod +x run.sh; [ -x run.sh ] && echo yes"),
    ("test-000", "chmod 000 a.txt; [ -r a.txt ] || echo notr; [ -w a.txt ] || echo notw; [ -x a.txt ] || echo notx"),
    ("test-builtin-x", "chmod 700 a.txt; test -x a.txt && echo x"),
    ("test-dbracket-w-x", "chmod 300 a.txt; [[ -w a.txt && -x a.txt && ! -r a.txt ]] && echo ok"),
    ("test-dbracket-r", "chmod 400 a.txt; [[ -r a.txt ]] && echo r; [[ -w a.txt ]] || echo not-w"),
    ("test-group-bits-ignored", "chmod 070 a.txt; [ -r a.txt ] || echo owner-cannot-read"),
    ("test-other-bits-ignored", "chmod 007 a.txt; test -w a.txt || echo owner-cannot-write"),
    ("test-dir-644", "chmod 644 sub; [ -x sub ] || echo no-x; [ -r sub ] && echo r"),
    ("test-missing", "[ -r nope ] || echo missing-r; [ -x nope ] || echo missing-x"),
    ("test-not-x", "chmod u-x sub; [ ! -x sub ] && echo not-x"),
    ("test-w-after-minus-w", "chmod a-w a.txt; [ -w a.txt ] || echo ro"),
    ("test-x-plus-ux", "chmod u+x a.txt; [ -x a.txt ] && [ -r a.txt ] && echo both"),
    # ---------------------------------------------------------------- ls
    ("ls-C-names", "ls -C names"),
    ("ls-x-names", "ls -x names"),
    ("ls-m-names", "ls -m names"),
    ("ls-C-w40", "ls -C -w 40 names"),
    ("ls-x-w40", "ls -x -w 40 names"),
    ("ls-m-w30", "ls -m -w 30 names"),
    ("ls-C-w0", "ls -w 0 -C names"),
    ("ls-C-w20-bundled", "ls -Cw20 names"),
    ("ls-C-width-long", "ls --width=50 -C names"),
    ("ls-C-columns-env", "COLUMNS=50 ls -C names"),
    ("ls-m-then-1", "ls -m -1 names"),
    ("ls-1-then-m", "ls -1 -m names"),
    ("ls-C-then-1", "ls -C -1 long"),
    ("ls-l-then-C", "ls -l -C long"),
    ("ls-C-then-l", "ls -C -l long | tail -n +2 | cut -c1-10"),
    ("ls-l-then-1", "ls -l -1 long | tail -n +2 | cut -c1-10"),
    ("ls-C-tabs", "ls -C -w 40 names | cat -A"),
    ("ls-C-T0", "ls -C -T 0 -w 40 names | cat -A"),
    ("ls-x-T0", "ls -x -T0 -w 40 names | cat -A"),
    ("ls-C-long-names", "ls -C long"),
    ("ls-x-long-names", "ls -x long"),
    ("ls-m-long-names", "ls -m long"),
    ("ls-C-long-w60", "ls -C -w 60 long"),
    ("ls-x-long-w30", "ls -x -w 30 long | cat -A"),
    ("ls-C-several-dirs", "ls -C sub names"),
    ("ls-m-F", "ls -m -F sub"),
    ("ls-C-F-executable", "chmod +x run.sh; ls -C -F"),
    ("ls-C-bad-width", "ls -C -w x names; echo status=$?"),
    ("ls-w-missing", "ls -w; echo status=$?"),
    ("ls-C-empty-dir", "mkdir e; ls -C e; echo end"),
    ("ls-x-R", "ls -x -R sub"),
    ("ls-C-one-name", "ls -C a.txt"),
    ("ls-format-commas", "ls --format=commas names"),
    ("ls-format-across", "ls --format=across -w 40 names"),
    ("ls-l-mode-file", "chmod 755 run.sh; ls -l run.sh | cut -c1-10"),
    ("ls-ld-mode-dir", "chmod 750 sub; ls -ld sub | cut -c1-10"),
    ("ls-l-modes-listing", "chmod 600 a.txt; chmod 751 sub; ls -l | tail -n +2 | cut -c1-10"),
    ("ls-l-000", "chmod 000 b.txt; ls -l b.txt | cut -c1-10"),
    ("ls-F-executable", "chmod u+x a.txt; ls -F a.txt b.txt"),
    ("ls-m-files-and-dir", "ls -m a.txt b.txt sub"),
    ("ls-C-files-operands", "ls -C -w 30 a.txt b.txt empty.txt run.sh"),
    ("ls-m-w0", "ls -m -w 0 names"),
    # ---------------------------------------------------------------- stat
    ("stat-format-mode", "stat -c '%a %A %n' a.txt"),
    ("stat-format-after-chmod", "chmod u+x,go-r a.txt; stat -c '%a %A %n' a.txt"),
    ("stat-size-type", "stat -c '%s %F' a.txt empty.txt"),
    ("stat-type-dir", "stat -c '%F %A' sub"),
    ("stat-quoted-name", "stat -c '%n|%N' a.txt"),
    ("stat-printf", "stat --printf '%n:%s\\n' a.txt b.txt"),
    ("stat-printf-no-newline", "stat --printf '%a' a.txt; echo '|'"),
    ("stat-printf-tab", "stat --printf '%n\\t%a\\n' run.sh"),
    ("stat-format-no-escapes", "stat -c '%n\\t' a.txt"),
    ("stat-blocks", "stat -c '%b %B %o' a.txt empty.txt"),
    ("stat-ids", "stat -c '%u %g' a.txt"),
    ("stat-terse-fields", "stat -t a.txt | cut -d' ' -f1-5,9-11,16"),
    ("stat-default-head", "stat a.txt | head -2"),
    ("stat-default-empty", "stat empty.txt | sed -n 2p"),
    ("stat-default-access", "chmod 750 run.sh; stat run.sh | sed -n 4p | cut -c1-25"),
    ("stat-default-file-line", "stat sub | head -1"),
    ("stat-missing", "stat nope; echo status=$?"),
    ("stat-missing-and-present", "stat -c %n nope a.txt; echo status=$?"),
    ("stat-no-operand", "stat; echo status=$?"),
    ("stat-links", "stat -c '%h %n' a.txt sub"),
    ("stat-width", "stat -c '%-8n|%8s|' a.txt b.txt"),
    ("stat-zero-pad", "stat -c '%06a|%#a' a.txt"),
    ("stat-percent", "stat -c '100%%' a.txt"),
    ("stat-format-long", "stat --format='%n %a' sub/inner.txt"),
    ("stat-format-equals-c", "stat -c%a%n a.txt"),
    ("stat-dereference", "stat -L -c %n a.txt"),
    ("stat-bad-option", "stat -x a.txt; echo status=$?"),
    ("stat-device-type", "stat -c '%t %T' a.txt"),
    ("stat-mount", "stat -c %m a.txt"),
    ("stat-raw-mode", "chmod 751 run.sh; stat -c '%f %a' run.sh sub"),
    ("stat-000", "chmod 000 a.txt; stat -c '%a %A' a.txt"),
    ("stat-several-formats", "stat -c '%n' -c '%s' a.txt"),
    ("stat-dir-mode", "chmod 700 sub; stat -c '%a %A' sub"),
]


def build_world(root: Path) -> None:
    (root / "w").mkdir(mode=0o755)
    os.chmod(root / "w", 0o755)
    for path, text in WORLD.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    for folder, dirs, files in os.walk(root / "w"):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


def record_case(case_id: str, line: str) -> dict:
    """Run one case in a fresh sandboxed world; its stdout as text, or base64 when not UTF-8."""
    root = Path(tempfile.mkdtemp(prefix="modes-"))
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
