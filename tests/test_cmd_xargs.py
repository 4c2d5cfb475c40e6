"""xargs: the recorded GNU cases (tests/data/coreutils_more_corpus.json, recorded by
tools/record_coreutils_more.py) replayed through the runtime, exact unit checks, and a
property test: random options and input never crash it."""
from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry

from .helpers import call, fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "coreutils_more_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail; listed in docs/DIFFERENCES.md).
KNOWN_DIFFERENCES: dict[str, str] = {}


def corpus_cases(commands: set[str]) -> list[dict]:
    return [case for case in CORPUS["cases"] if case["command"] in commands]


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def check_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    want = (expected_stdout(case), case["exit_code"], case["stderr_nonempty"])
    assert got == want, (case["line"], execution.stderr)


def params(commands: set[str], known: dict[str, str]):
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=known[case["id"]])] if case["id"] in known else [])
            for case in corpus_cases(commands)]


@pytest.mark.parametrize("case", params({"xargs"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_cases_are_recorded():
    assert len(corpus_cases({"xargs"})) >= 60


# -- units --------------------------------------------------------------------------------------

def run_line(line: str):
    async def go():
        runtime = await create_agent_cli(vfs=MemoryVFS())
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_outside_the_shell_it_says_where_to_use_it():
    result = call("xargs", ["echo"], stdin=b"a\n")
    assert result.exit_code == 1 and "inside the shell" in result.stderr


def test_kind_follows_the_command_it_runs():
    spec = create_command_registry().get("xargs")
    assert spec.kind_for([]) == "read"
    assert spec.kind_for(["-n1", "echo"]) == "read"
    assert spec.kind_for(["cat"]) == "read"
    assert spec.kind_for(["rm"]) == "write"
    assert spec.kind_for(["sh", "-c", "x"]) == "write"
    assert spec.kind_for(["nosuch"]) == "write"


def test_streams_from_an_endless_producer():
    execution = run_line("yes | xargs -n 2 | head -n 2")
    assert execution.stdout == b"y y\ny y\n"


def test_long_input_is_split_at_the_size_limit():
    execution = run_line("seq 1 100000 | xargs echo | wc -l")
    assert execution.stdout == b"5\n"
    assert run_line("printf 'a b c d\\n' | xargs -s 12 echo").stdout == b"a b c\nd\n"


def test_help_prints_the_help_text():
    execution = run_line("xargs --help")
    assert execution.exit_code == 0 and execution.stdout.startswith(b"xargs: ")


# -- property -----------------------------------------------------------------------------------

WORDS = ["-n", "-n1", "-L", "-L2", "-I", "-I{}", "-i", "-0", "-d", "-d,", "-d\\n", "-r", "-t", "-E", "-s",
         "-P", "-a", "list.txt", "-x", "--null", "--max-args=2", "--", "echo", "cat", "{}", "x", "true",
         "false", "nosuch", "-Z", "--nope"]
INPUT = st.one_of(st.binary(max_size=24), st.text(alphabet="ab \t\n\"'\\{},\0", max_size=24).map(str.encode))


def test_random_arguments_and_input_never_crash():
    @fuzz_settings(60)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.integers(-2, 5).map(str), st.text(max_size=4)),
                         max_size=6), data=INPUT)
    def check(args, data):
        execution = asyncio.run(run_with_input(args, data))
        assert "internal runtime error" not in execution.stderr, (args, data, execution.stderr)
        if execution.exit_code == 1:
            assert execution.stderr, (args, data)

    check()


async def run_with_input(args: list[str], data: bytes):
    vfs = MemoryVFS()
    await vfs.write_bytes("/list.txt", b"a b\n")
    await vfs.write_bytes("/in", data)
    runtime = await create_agent_cli(vfs=vfs)
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    return await runtime.run_detailed(f"xargs {quoted} < /in")
