"""The small coreutils of issue 10 (tac rev nl paste comm join cmp fold expand unexpand column
md5sum sha1sum sha256sum sha512sum env printenv realpath readlink): the recorded GNU cases
(tests/data/coreutils_more_corpus.json, tools/record_coreutils_more.py) replayed through
the runtime, a few exact checks, and a property test that random arguments and input never
crash any of them."""
from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry

from .helpers import call, command_context, fuzz_settings
from .test_cmd_xargs import check_case, corpus_cases, params

COMMANDS = {"tac", "rev", "nl", "paste", "comm", "join", "cmp", "fold", "expand", "unexpand", "column",
            "md5sum", "sha1sum", "sha256sum", "sha512sum", "env", "printenv", "realpath", "readlink"}
GROUPS = {"realpath": "fs", "readlink": "fs", "env": "system", "printenv": "system"}

# Cases where we knowingly differ from GNU (strict xfail; listed in docs/DIFFERENCES.md).
KNOWN_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("case", params(COMMANDS, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_every_command_has_enough_recorded_cases():
    counts = Counter(case["command"] for case in corpus_cases(COMMANDS))
    assert {name: counts[name] for name in COMMANDS if counts[name] < 15} == {}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_registered_in_its_group_with_examples(name):
    spec = create_command_registry().get(name)
    assert spec.group == GROUPS.get(name, "text")
    assert "\nExamples:\n  " in spec.details
    assert spec.kind_for([]) == "read"


def test_env_kind_is_write_when_it_runs_a_command():
    spec = create_command_registry().get("env")
    assert spec.kind_for(["A=1"]) == "read"
    assert spec.kind_for(["-i", "A=1", "rm", "x"]) == "write"


# -- exact checks -------------------------------------------------------------------------------

def run_line(line: str, files: dict[str, bytes] | None = None):
    async def go():
        vfs = MemoryVFS()
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_streaming_commands_stop_early_with_head():
    assert run_line("yes abc | rev | head -n 2").stdout == b"cba\ncba\n"
    assert run_line("yes | nl | head -n 2").stdout == b"     1\ty\n     2\ty\n"
    assert run_line("yes abcdef | fold -w 4 | head -n 3").stdout == b"abcd\nef\nabcd\n"
    assert run_line("yes 'a\tb' | expand -t 2 | head -n 1").stdout == b"a b\n"


@pytest.mark.parametrize("name,args,data", [
    ("rev", [], b"ab\ncd"), ("nl", ["-ba"], b"a\n\nb"), ("fold", ["-w", "4"], b"abcdef\nab\tcdefgh"),
    ("expand", ["-t", "3"], b"a\tb\n\tc"), ("unexpand", ["-a"], b"        x  y       z\n")])
def test_stream_and_handler_agree(name, args, data):
    streamed = run_line(f"cat /in | {name} {' '.join(args)}", {"/in": data}).stdout
    whole = call(name, args, ctx=command_context({}), stdin=data)
    assert streamed == whole.stdout


def test_hash_check_round_trip():
    files = {"/a.txt": b"one\n"}
    result = run_line("sha256sum /a.txt > /s; sha256sum -c /s; echo changed > /a.txt; sha256sum -c /s", files)
    assert result.stdout == b"/a.txt: OK\n/a.txt: FAILED\n" and result.exit_code == 1


def test_env_runs_the_command_with_the_changed_environment():
    result = run_line("export KEEP=1 DROP=2; env -u DROP NEW=3 sh -c 'echo $KEEP.$DROP.$NEW'")
    assert result.stdout == b"1..3\n"
    assert run_line("env -i printenv HOME; echo $?").stdout == b"1\n"
    assert run_line("env -i A=1 B=2").stdout == b"A=1\nB=2\n"


def test_outside_a_shell_env_says_it_needs_one():
    result = call("env", ["echo", "x"])
    assert result.exit_code == 125 and "inside the shell" in result.stderr


def test_strict_grammar_errors_are_one_line():
    ctx = command_context({"/a.txt": "x\n"})
    result = call("realpath", ["/nope/x", "/nope/y"], ctx=ctx)
    assert result.exit_code == 1 and "\n" not in result.stderr
    result = call("readlink", ["/a.txt"], ctx=command_context({"/a.txt": "x\n"}))
    assert result.exit_code == 1 and result.stderr == "readlink: /a.txt: Invalid argument"


# -- property: random arguments and input never crash ----------------------------------------------

WORDS = ["-", "--", "-1", "-2", "-3", "-a", "-b", "-c", "-d", "-e", "-f", "-i", "-l", "-m", "-n", "-o", "-q",
         "-s", "-t", "-u", "-v", "-w", "-z", "-0", "-C", "1", "2", "1.2", "0,2.1", "auto", ",", ":", "\\",
         "a.txt", "b.txt", "sums", "sub", "missing", "A=1", "echo", "--tag", "--check-order", "--total",
         "--relative-to=sub", "--header", "-ba", "-nrz", "-w3", "-t2,/4", "-s,", "--null"]
FILES = {"/w/a.txt": b"1 a\n2 b\n", "/w/b.txt": b"1 x\n3 y", "/w/sums": b"d41d8cd98f00b204e9800998ecf8427e  a.txt\n",
         "/w/sub/c.txt": b"\t c\n"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_random_arguments_and_input_never_crash(name):
    @fuzz_settings(30)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.integers(-2, 9).map(str), st.text(max_size=4)),
                         max_size=5),
           data=st.one_of(st.binary(max_size=20), st.text(alphabet="ab 1\t\n,\\", max_size=20).map(str.encode)))
    def check(args, data):
        execution = asyncio.run(run_fuzzed(name, args, data))
        assert "internal runtime error" not in execution.stderr, (args, data, execution.stderr)

    check()


async def run_fuzzed(name: str, args: list[str], data: bytes):
    vfs = MemoryVFS()
    for path, content in FILES.items():
        await vfs.write_bytes(path, content)
    await vfs.write_bytes("/w/in", data)
    runtime = await create_agent_cli(vfs=vfs)
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    return await runtime.run_detailed(f"cd /w; {name} {quoted} < in")
