"""split, fmt and numfmt against GNU coreutils 9.1: the recorded cases
(tests/data/text_more_corpus.json, tools/record_text_more.py) replayed through the bash
language with exact stdout, exit status and stderr, a few direct checks, and a property test
that random flags and input never crash any of them. Reads only the JSON (runs in Pyodide)."""
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

CORPUS = json.loads((Path(__file__).parent / "data" / "text_more_corpus.json").read_text(encoding="utf-8"))
COMMANDS = ("split", "fmt", "numfmt")

# Cases where we knowingly differ from GNU (strict xfail).
KNOWN_DIFFERENCES: dict[str, str] = {
    "split-n-stdin-pipe": "the sandbox cannot tell a pipe from a redirected file, so split -n reads "
                          "piped stdin whole instead of failing with 'cannot determine file size'",
}


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def run(line: str, world: dict[str, str] | None = None):
    vfs = MemoryVFS()
    for path, text in (world or {}).items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs, grammar="bash")
    return await runtime.run_detailed(line)


def run_line(line: str, world: dict[str, str] | None = None):
    return asyncio.run(run(line, world))


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case["id"],
                 marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])]
                 if case["id"] in KNOWN_DIFFERENCES else [])
    for case in CORPUS["cases"]])
def test_recorded_gnu_case(case):
    execution = run_line(CORPUS["prefix"] + case["line"], CORPUS["world"])
    # The run's stderr loses its final newline (the runtime strips it); otherwise exact.
    got = (execution.stdout, execution.exit_code, execution.stderr)
    want = (expected_stdout(case), case["exit_code"], case["stderr"].rstrip("\n"))
    assert got == want, case["line"]


def test_enough_recorded_cases():
    counts = Counter(case["command"] for case in CORPUS["cases"])
    assert {name: counts[name] for name in COMMANDS if counts[name] < 40} == {}


@pytest.mark.parametrize("name", COMMANDS)
def test_registered_in_the_text_group(name):
    spec = create_command_registry().get(name)
    assert spec.group == "text"
    assert spec.kind_for([]) == ("write" if name == "split" else "read")


def test_split_writes_through_the_vfs():
    result = run_line("seq 1 5 | split -l 2 - /out/p; cat /out/pab; ls /out", {"/out/.keep": ""})
    assert (result.stdout, result.exit_code) == (b"3\n4\npaa\npab\npac\n", 0)


def test_split_refuses_too_many_pieces():
    result = run_line("split -n 200000 /a", {"/a": "x\n"})
    assert result.exit_code == 1 and "split:" in result.stderr


def test_fmt_and_numfmt_exact():
    assert run_line("echo 'a b c d e f' | fmt -w 5").stdout == b"a b\nc d\ne f\n"
    assert run_line("numfmt --to=iec-i 1048576").stdout == b"1.0Mi\n"
    assert run_line("echo 2K | numfmt --from=iec").stdout == b"2048\n"


# -- property: random flags and input never crash ------------------------------------------------

WORDS = ["-", "--", "-1", "-3", "-l", "-b", "-C", "-n", "-a", "-d", "-x", "-e", "-t", "-w", "-s", "-u",
         "-p", "-c", "-g", "1", "2", "0", "3", "10", "1K", "2/3", "l/2", "r/2", "r/1/2", "l/1/2", "#", "> ",
         "--verbose", "--additional-suffix=.x", "--numeric-suffixes=3", "--to=si", "--to=iec", "--to=iec-i",
         "--from=auto", "--from=si", "--from=iec", "--from=iec-i", "--suffix=B", "--padding=5", "--padding=-5",
         "--field=2", "--field=-", "--format=%f", "--format=%08.2f", "--round=up", "--round=nearest",
         "--header", "--invalid=warn", "--invalid=ignore", "-d,", "-z", "in", "missing", "1.5", "-1.5", "1e3",
         "999999999999999999999", "1Ki", "1M", "abc", "p/"]


@pytest.mark.parametrize("name", COMMANDS)
def test_random_flags_and_input_never_crash(name):
    @fuzz_settings(40)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.integers(-3, 40).map(str), st.text(max_size=4)),
                         max_size=5),
           data=st.one_of(st.binary(max_size=40),
                          st.text(alphabet="aB1 .K\t\n,:>#-9", max_size=60).map(str.encode)),
           piped=st.booleans())
    def check(args, data, piped):
        execution = asyncio.run(run_fuzzed(name, args, data, piped))
        assert "internal runtime error" not in execution.stderr, (args, data, execution.stderr)

    check()


async def run_fuzzed(name: str, args: list[str], data: bytes, piped: bool):
    vfs = MemoryVFS()
    await vfs.mkdir("/w/p", True)
    await vfs.write_bytes("/w/in", data)
    runtime = await create_agent_cli(vfs=vfs)
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    line = f"cd /w; cat in | {name} {quoted}" if piped else f"cd /w; {name} {quoted} < in"
    return await runtime.run_detailed(line)
