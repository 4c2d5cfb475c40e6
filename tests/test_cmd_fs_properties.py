"""Property test: random argument lists and stdin never crash an fs command.

Arguments mix each command's own flags with paths (existing, missing, clamped, through a
file, binary), numbers, globs, empty and random strings. Every run must end with exit 0
or 1, and a failure must be an error line that names the command.
"""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from onetool_wasm.commands import invoke_command

from .test_cmd_fs import FS_COMMANDS, make_ctx
from .helpers import examples

WORLD = {"/notes/a.txt": "alpha\n", "/notes/.hidden": "h", "/notes/sub/b.md": "beta",
         "/img/x.bin": b"\x00\x01\x02", "/empty": {"kind": "dir"}, "/-p": "dash"}

FLAGS = {
    "ls": ["-1", "-a", "-R", "-l", "-la", "-1aRl", "-x", "--all", "--"],
    "stat": [],
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
}
STDIN = st.one_of(st.just(b""), st.binary(max_size=12), st.text(max_size=12).map(str.encode))
PATHS = ["/", "/notes", "/notes/a.txt", "notes/sub", "../..", "/img/x.bin", "/missing", "/notes/a.txt/x",
         "/empty", ".", "..", "/notes/.hidden", "-", "/-p", "/new/deep/file.txt"]


def arguments(name: str):
    token = st.one_of(st.sampled_from(FLAGS[name] or ["-x"]), st.sampled_from(PATHS),
                      st.integers(-3, 5).map(str), st.just(""), st.text(max_size=8))
    return st.lists(token, max_size=6)


def run(name: str, args: list[str], stdin: bytes, limit: int | None):
    ctx = make_ctx(WORLD, max_materialized_bytes=limit)
    spec = ctx.registry.get(name)
    return asyncio.run(invoke_command(spec, ctx, args, stdin))


@pytest.mark.parametrize("name", FS_COMMANDS)
def test_random_arguments_never_crash(name):
    @settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(args=arguments(name), stdin=STDIN, limit=st.one_of(st.none(), st.integers(0, 16)))
    def check(args, stdin, limit):
        result = run(name, args, stdin, limit)  # an exception here is the bug this test hunts
        assert result.exit_code in (0, 1), (args, result)
        assert "internal runtime error" not in result.stderr
        if result.exit_code:
            assert result.stderr.startswith(f"{name}: "), (args, result.stderr)
            if not any("\n" in arg or "\r" in arg for arg in args):
                assert "\n" not in result.stderr, (args, result.stderr)

    check()
