"""The line tools (echo wc head tail uniq tee sort cut tr) against GNU coreutils 9: the
recorded cases (tests/data/line_tools_corpus.json, tools/record_line_tools.py) replayed
through the runtime, a few exact checks, and a property test that random flags and stdin
never crash any of them."""
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

from .helpers import fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "line_tools_corpus.json").read_text(encoding="utf-8"))
COMMANDS = {"echo", "wc", "head", "tail", "uniq", "tee", "sort", "cut", "tr"}

# Cases where we knowingly differ from GNU (strict xfail).
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
    assert got == want, (case["line"], execution.stderr, case["stderr"])


def params(commands: set[str], known: dict[str, str]):
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=known[case["id"]])] if case["id"] in known else [])
            for case in corpus_cases(commands)]


@pytest.mark.parametrize("case", params(COMMANDS, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_case(case)


def test_enough_recorded_cases():
    counts = Counter(case["command"] for case in corpus_cases(COMMANDS))
    assert sum(counts.values()) >= 200
    assert {name: counts[name] for name in COMMANDS if counts[name] < 15} == {}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_registered_in_the_text_group(name):
    spec = create_command_registry().get(name)
    assert spec.group == "text"
    assert spec.stream is not None or name == "sort"


def test_kinds():
    registry = create_command_registry()
    assert registry.get("uniq").kind_for(["a.txt"]) == "read"
    assert registry.get("uniq").kind_for(["a.txt", "out.txt"]) == "write"
    assert registry.get("uniq").kind_for(["-c", "-", "out.txt"]) == "write"
    assert registry.get("sort").kind_for(["-o", "x"]) == "write"
    assert registry.get("sort").kind_for(["-n"]) == "read"
    assert registry.get("tee").kind_for([]) == "write"


# -- exact checks ---------------------------------------------------------------------------------

def run_line(line: str, files: dict[str, bytes] | None = None):
    async def go():
        vfs = MemoryVFS()
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_streaming_stops_early():
    assert run_line("yes abc | head -n 2").stdout == b"abc\nabc\n"
    assert run_line("yes abc | uniq | head -n 1").stdout == b"abc\n"
    assert run_line("yes a,b | cut -d , -f 2 | head -n 2").stdout == b"b\nb\n"
    assert run_line("yes a | tr a b | head -n 1").stdout == b"b\n"
    assert run_line("printf 'a\\0b\\0' | head -z -n 1").stdout == b"a\0"


def test_tail_f_is_read_once():
    result = run_line("tail -f -n 1 /a", {"/a": b"x\ny\n"})
    assert result.stdout == b"y\n" and result.exit_code == 0


def test_sort_output_may_be_an_input():
    result = run_line("sort -o /a /a /b; cat /a", {"/a": b"b\na\n", "/b": b"c\n"})
    assert result.stdout == b"a\nb\nc\n"


def test_uniq_output_file_is_written():
    result = run_line("uniq /in /out; cat /out", {"/in": b"a\na\nb\n"})
    assert result.stdout == b"a\nb\n"


# -- property: random flags and stdin never crash -------------------------------------------------

WORDS = ["-", "--", "-1", "-2", "+2", "-a", "-b", "-c", "-C", "-d", "-D", "-e", "-E", "-f", "-g", "-h", "-i",
         "-k", "-L", "-l", "-m", "-M", "-n", "-o", "-p", "-q", "-r", "-R", "-s", "-t", "-u", "-v", "-V", "-w",
         "-z", "-c", "1", "2", "-3", "+1", "1-", "-2", "1,3", "2.2b", "1.0", "2,2nr", "a-z", "[:alpha:]",
         "[:upper:]", "[x*]", "[=a=]", "\\n", "\\141", ",", ":", "a.txt", "b.txt", "out", "sub", "missing",
         "--complement", "--output-delimiter=|", "--group", "--group=both", "--all-repeated=separate",
         "--max-line-length", "--lines=+2", "--bytes=-1", "-k2,2n", "-t,", "-nr", "-ic", "-zc", "-cd", "-ds",
         "1K", "--append", "--zero-terminated", "--check", "--merge"]
FILES = {"/w/a.txt": b"1 a\n2 b\nb\n", "/w/b.txt": b"1,x\n3,y", "/w/sub/c.txt": b"\t c\n"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_random_flags_and_input_never_crash(name):
    @fuzz_settings(40)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.integers(-3, 12).map(str), st.text(max_size=4)),
                         max_size=5),
           data=st.one_of(st.binary(max_size=24), st.text(alphabet="aAb 1\t\n,:\\\0", max_size=24).map(str.encode)),
           piped=st.booleans())
    def check(args, data, piped):
        execution = asyncio.run(run_fuzzed(name, args, data, piped))
        assert "internal runtime error" not in execution.stderr, (args, data, execution.stderr)

    check()


async def run_fuzzed(name: str, args: list[str], data: bytes, piped: bool):
    vfs = MemoryVFS()
    for path, content in FILES.items():
        await vfs.write_bytes(path, content)
    await vfs.write_bytes("/w/in", data)
    runtime = await create_agent_cli(vfs=vfs)
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    line = f"cd /w; cat in | {name} {quoted}" if piped else f"cd /w; {name} {quoted} < in"
    return await runtime.run_detailed(line)
