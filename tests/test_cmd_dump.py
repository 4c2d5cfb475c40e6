"""od, xxd and hexdump: the recorded cases of the real tools (tests/data/dump_file_corpus.json,
recorded by tools/record_dump_file.py) replayed through the runtime, a few exact checks, and a
property test that random arguments and input never crash them."""
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

CORPUS = json.loads((Path(__file__).parent / "data" / "dump_file_corpus.json").read_text(encoding="utf-8"))
COMMANDS = {"od", "xxd", "hexdump"}

# Cases where we knowingly differ from the real tools (strict xfail).
KNOWN_DIFFERENCES: dict[str, str] = {}


def corpus_cases(commands: set[str]) -> list[dict]:
    return [case for case in CORPUS["cases"] if case["command"] in commands]


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, data in CORPUS["world_b64"].items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, base64.b64decode(data))
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


@pytest.mark.parametrize("case", params(COMMANDS, KNOWN_DIFFERENCES))
def test_recorded_case(case):
    check_case(case)


def test_every_command_has_enough_recorded_cases():
    counts = Counter(case["command"] for case in corpus_cases(COMMANDS))
    assert {name: counts[name] for name in COMMANDS if counts[name] < 15} == {}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_registered_in_the_data_group_with_examples(name):
    spec = create_command_registry().get(name)
    assert spec.group == "data"
    assert "\nExamples:\n  " in spec.details
    assert spec.kind_for([]) == "read"


def test_xxd_kind_is_write_with_an_outfile():
    spec = create_command_registry().get("xxd")
    assert spec.kind_for(["a.txt"]) == "read"
    assert spec.kind_for(["-r", "a.hex", "out.bin"]) == "write"
    assert spec.kind_for(["-c", "8", "a.txt", "-"]) == "read"


# -- exact checks -------------------------------------------------------------------------------

def run_line(line: str, files: dict[str, bytes] | None = None):
    async def go():
        vfs = MemoryVFS()
        for path, data in (files or {}).items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_xxd_reverse_writes_binary_bytes():
    result = run_line("printf '00ff10' | xxd -r -p > /out.bin; od -An -tx1 /out.bin")
    assert result.stdout == b" 00 ff 10\n"


def test_xxd_reverse_patches_an_existing_outfile():
    result = run_line("printf '00000001: 5a\\n' | xxd -r - /f; od -c /f", {"/f": b"abc"})
    assert result.stdout == b"0000000   a   Z   c\n0000003\n"


def test_round_trip_of_every_byte():
    data = bytes(range(256))
    result = run_line("xxd /b | xxd -r | od -An -v -tx1 | head -n 1", {"/b": data})
    assert result.stdout == b" 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"


def test_od_float_formats_round_trip():
    import struct
    result = run_line("od -An -tf4 /f", {"/f": struct.pack("<ffff", 0.1, -2.5, float("inf"), 1e-45)})
    assert result.stdout == b"             0.1            -2.5             inf           1e-45\n"


# -- property: random arguments and input never crash ----------------------------------------------

WORDS = ["-", "--", "-A", "d", "o", "x", "n", "-t", "x1", "x2", "x4", "x8", "o1", "d4", "u2", "f4", "f8", "a", "c",
         "x1z", "-c", "-b", "-x", "-d", "-o", "-v", "-N", "-j", "-w", "-w3", "-An", "-p", "-r", "-i", "-n", "-l",
         "-s", "-g", "-u", "-e", "-C", "-0x10", "+2", "-4", "a.txt", "b.bin", "missing", "out", "0x", "-ps",
         "-c0", "-g3", "-s-2", "99999999999999999999"]
FILES = {"/w/a.txt": b"hello\nworld\n", "/w/b.bin": bytes(range(0, 256, 7)),
         "/w/h.hex": b"00000000: 6162 63\n00000010: 64\n"}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_random_arguments_and_input_never_crash(name):
    @fuzz_settings(40)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.integers(-3, 40).map(str), st.text(max_size=4)),
                         max_size=6),
           data=st.one_of(st.binary(max_size=40), st.text(alphabet="0123456789abcdefABCDEF: \n*", max_size=40)
                          .map(str.encode)))
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
