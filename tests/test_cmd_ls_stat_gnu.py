"""ls's GNU formats (-C -x -m -w, modes in -l) and GNU stat: the cases recorded by
tools/record_modes.py (tests/data/modes_corpus.json) replayed through the runtime, exact
checks (stat's fixed fields, the strict grammar's upstream stat), and a property test that
random arguments never crash."""
from __future__ import annotations

import asyncio
import base64
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry

from .helpers import call, command_context, fuzz_settings


CORPUS = json.loads((Path(__file__).parent / "data" / "modes_corpus.json").read_text(encoding="utf-8"))


def corpus_cases(commands: set[str]) -> list[dict]:
    return [case for case in CORPUS["cases"] if case["command"] in commands]


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    # The shell has no `umask` builtin: the VFS always behaves as umask 022, the recorded one.
    prefix = CORPUS["prefix"].replace("umask 022\n", "")
    return await runtime.run_detailed(prefix + case["line"])


def check_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    want = (expected_stdout(case), case["exit_code"], case["stderr_nonempty"])
    assert got == want, (case["line"], execution.stderr)


def params(commands: set[str], known: dict[str, str]):
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=known[case["id"]])] if case["id"] in known else [])
            for case in corpus_cases(commands)]


# Cases where we knowingly differ from GNU (strict xfail).
KNOWN_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("case", params({"ls", "stat"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded():
    counts = Counter(case["command"] for case in corpus_cases({"ls", "stat"}))
    assert counts["ls"] >= 15 and counts["stat"] >= 15


@pytest.mark.parametrize("name", ["ls", "stat"])
def test_registered_in_the_fs_group(name):
    assert create_command_registry().get(name).group == "fs"


# -- units --------------------------------------------------------------------------------------

def run(line: str, files: dict[str, bytes] | None = None):
    async def go():
        vfs = MemoryVFS(now_ms=lambda: 1_700_000_000_123)
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_stat_default_block_has_fixed_fields():
    lines = run("cd /w; chmod 750 f; stat f", {"/w/f": b"abc"}).stdout.decode().splitlines()
    assert lines[0] == "  File: f"
    assert lines[1] == "  Size: 3         \tBlocks: 8          IO Block: 4096   regular file"
    assert lines[2].startswith("Device: 254,0\tInode: ") and lines[2].endswith(" Links: 1")
    assert lines[3] == "Access: (0750/-rwxr-x---)  Uid: ( 1000/    user)   Gid: ( 1000/    user)"
    assert [line.split(":")[0] for line in lines[4:]] == ["Access", "Modify", "Change", " Birth"]
    assert lines[5].startswith("Modify: 2023-11-14 ") and ".123000000 " in lines[5]
    assert lines[7] == " Birth: -"


def test_stat_format_directives():
    out = run("cd /w; stat -c '%n %s %b %B %o %h %u %g %U %G %d %D %t %T %m %W %w %Y %F' f d",
              {"/w/f": b"abc", "/w/d/e/x": b""}).stdout.decode().splitlines()
    assert out == ["f 3 8 512 4096 1 1000 1000 user user 65024 fe00 0 0 / 0 - 1700000000 regular file",
                   "d 4096 8 512 4096 3 1000 1000 user user 65024 fe00 0 0 / 0 - 1700000000 directory"]


def test_stat_inode_is_stable_per_path():
    first = run("stat -c %i /a /b", {"/a": b"", "/b": b""}).stdout
    assert first == run("stat -c %i /a /b", {"/a": b"", "/b": b""}).stdout
    assert len(set(first.split())) == 2


def test_stat_printf_escapes_and_terse():
    assert run("stat --printf '%n\\x41\\101\\\\\\n' /a", {"/a": b""}).stdout == b"/aAA\\\n"
    terse = run("stat -t /a", {"/a": b"xy"}).stdout.decode().split()
    assert terse[:6] == ["/a", "2", "8", "81a4", "1000", "1000"] and terse[-1] == "4096"


def test_strict_grammar_keeps_upstream_stat():
    ctx = command_context({"/a.txt": "hello\n"})
    result = call("stat", ["/a.txt"], ctx=ctx)
    assert result.stdout.decode().splitlines()[:3] == ["path: /a.txt", "type: file", "size: 6 bytes"]
    assert call("stat", [], ctx=ctx).stderr == "stat: usage: stat <path>"
    assert call("stat", ["/a", "/b"], ctx=ctx).stderr == "stat: usage: stat <path>"
    assert call("stat", ["-c", "%a"], ctx=ctx).stderr == "stat: usage: stat <path>"


def test_strict_grammar_ls_long_keeps_upstream_format():
    ctx = command_context({"/a.txt": "hello\n"})
    assert call("ls", ["-l", "/"], ctx=ctx).stdout.decode().startswith("- ")


def test_ls_long_shows_modes_and_classify_marks_executables():
    result = run("cd /w; chmod 751 f; chmod 700 d; ls -l; ls -F", {"/w/f": b"", "/w/d/x": b""})
    lines = result.stdout.decode().splitlines()
    assert [line[:10] for line in lines[1:3]] == ["drwx------", "-rwxr-x--x"]
    assert lines[3:] == ["d/", "f*"]


def test_ls_columns_follow_the_columns_variable_and_format_order():
    names = {f"/w/{n}": b"" for n in ["alpha", "beta", "gamma", "delta", "epsilon"]}
    assert run("cd /w; export COLUMNS=20; ls -C", names).stdout == b"alpha  epsilon\nbeta   gamma\ndelta\n"
    assert run("cd /w; ls -C -1", names).stdout == b"alpha\nbeta\ndelta\nepsilon\ngamma\n"
    assert run("cd /w; ls -l -1", names).stdout.startswith(b"total 0\n-rw-r--r--")
    assert run("cd /w; ls -xm", names).stdout == b"alpha, beta, delta, epsilon, gamma\n"


# -- property: random arguments never crash ------------------------------------------------------

LS_WORDS = ["-C", "-x", "-m", "-1", "-l", "-w", "-w0", "-w5", "-T", "-T0", "--width=7", "--format=commas",
            "--format=bogus", "-R", "-a", "-F", "-d", "-h", "-S", "-t", "-r", "sub", "a.txt", "nope", "-", "--",
            "--tabsize=3", "-Cw", "-lC"]
STAT_WORDS = ["-c", "--format", "--printf", "-t", "-L", "-f", "--terse", "%n", "%a %A", "%Z%q", "%-5s|", "%.2n",
              "%#06a", "\\n\\x4", "\\777", "%", "%%", "%Hd %Lr", "a.txt", "sub", "nope", "-", "--", "-x"]


@pytest.mark.parametrize("name,words", [("ls", LS_WORDS), ("stat", STAT_WORDS)])
def test_random_arguments_never_crash(name, words):
    @fuzz_settings(60)
    @given(args=st.lists(st.one_of(st.sampled_from(words), st.text(max_size=5)), max_size=5))
    def check(args):
        quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
        execution = run(f"cd /w; chmod 700 sub; {name} {quoted}",
                        {"/w/a.txt": b"a\n", "/w/sub/b": b"b\n", "/w/run.sh": b""})
        assert "internal runtime error" not in execution.stderr, (args, execution.stderr)

    check()
