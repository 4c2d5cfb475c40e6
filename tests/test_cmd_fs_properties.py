"""Property test: random argument lists and stdin never crash an fs command.

Arguments mix each command's own flags with paths (existing, missing, clamped, through a
file, binary), numbers, globs, empty and random strings. Every run must end with exit 0
or 1, and a failure must be an error line that names the command.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from .helpers import call, check_no_crash, command_context, fuzz_settings, random_args, random_stdin
from .test_cmd_fs import FS_COMMANDS

WORLD = {"/notes/a.txt": "alpha\n", "/notes/.hidden": "h", "/notes/sub/b.md": "beta",
         "/img/x.bin": b"\x00\x01\x02", "/empty": {"kind": "dir"}, "/-p": "dash"}

FLAGS = {
    "ls": ["-1", "-a", "-R", "-l", "-la", "-1aRl", "-x", "-C", "-m", "-w", "-w0", "--width=9", "--all", "--"],
    "stat": ["-c", "%a %A %n", "--printf", "%s\\n", "-t", "-L", "--"],
    "cat": ["-", "-n"],
    "write": ["-"],
    "append": ["-"],
    "mkdir": ["-p", "-v", "--"],
    "cp": ["-r", "-R", "-f"],
    "mv": ["-f"],
    "rm": ["-r", "-R", "-f", "-rf", "-i", "--"],
    "find": ["-type", "--type", "-name", "--name", "-iname", "-maxdepth", "--max-depth", "f", "d",
             "file", "dir", "l", "-print", "-print0", "*", "*.txt", "[", "[!a]*", "[z-a]", "--"],
    "touch": ["-c", "-m", "--"],
    "tree": ["-a", "-d", "-L", "-L2", "-L0", "-adL", "-f", "--"],
    "basename": ["-a", "-s", "-z", "--suffix", "--"],
    "dirname": ["-z", "--"],
    "realpath": ["-e", "-m", "-s", "-z", "--relative-to=/notes", "--relative-base=/", "--"],
    "readlink": ["-f", "-e", "-m", "-n", "-v", "-z", "--"],
    "chmod": ["-R", "-v", "-c", "-f", "755", "u+x,go-w", "a=r", "-w", "X", "--reference=/notes/a.txt", "q", "--"],
}
STDIN = random_stdin(12)
PATHS = ["/", "/notes", "/notes/a.txt", "notes/sub", "../..", "/img/x.bin", "/missing", "/notes/a.txt/x",
         "/empty", ".", "..", "/notes/.hidden", "-", "/-p", "/new/deep/file.txt"]


@pytest.mark.parametrize("name", FS_COMMANDS)
def test_random_arguments_never_crash(name):
    @fuzz_settings(80)
    @given(args=random_args(FLAGS[name] or ["-x"], PATHS, numbers=(-3, 5), text_size=8), stdin=STDIN,
           limit=st.one_of(st.none(), st.integers(0, 16)))
    def check(args, stdin, limit):
        # An exception here is the bug this test hunts.
        result = call(name, args, ctx=command_context(WORLD, max_materialized_bytes=limit), stdin=stdin)
        check_no_crash(result, args, f"{name}: ")
        # `chmod -f` fails silently, as GNU's does: its status is the only answer.
        silenced = name == "chmod" and any(arg in ("--silent", "--quiet") or
                                           (arg.startswith("-") and not arg.startswith("--") and "f" in arg)
                                           for arg in args)
        if result.exit_code and not silenced:
            assert result.stderr, (args, result)
            if not any("\n" in arg or "\r" in arg for arg in args):
                assert "\n" not in result.stderr, (args, result.stderr)

    check()
