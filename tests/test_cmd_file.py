"""file: the recorded cases of Debian's file 5.44 (tests/data/dump_file_corpus.json, recorded by
tools/record_dump_file.py) replayed through the runtime, a few exact checks, and a property
test that random arguments and input never crash it."""
from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry

from .helpers import fuzz_settings
from .test_cmd_dump import check_case, corpus_cases, params, run_line

# Cases where we knowingly differ from file 5.44 (strict xfail).
KNOWN_DIFFERENCES: dict[str, str] = {
    "file-bin-all-bytes": "libmagic's Targa image heuristic fires on bytes 0..255; not recognised",
}


@pytest.mark.parametrize("case", params({"file"}, KNOWN_DIFFERENCES))
def test_recorded_case(case):
    check_case(case)


def test_enough_cases_are_recorded():
    assert len(corpus_cases({"file"})) >= 15


def test_registered_in_the_fs_group_with_examples():
    spec = create_command_registry().get("file")
    assert spec.group == "fs"
    assert "\nExamples:\n  " in spec.details
    assert spec.kind_for(["x"]) == "read"


def test_scripts_are_executable_by_content_whatever_the_mode():
    result = run_line("file -b /s.sh", {"/s.sh": b"#!/bin/sh\necho\n"})
    assert result.stdout == b"POSIX shell script, ASCII text executable\n"


def test_mime_of_common_kinds():
    files = {"/a.json": b'{"a": 1}\n', "/b.csv": b"a,b\n1,2\n3,4\n", "/c.txt": "\u00e9\n".encode()}
    result = run_line("cd /; file -i a.json b.csv c.txt", files)
    assert result.stdout == (b"a.json: application/json; charset=us-ascii\n"
                             b"b.csv:  text/csv; charset=us-ascii\n"
                             b"c.txt:  text/plain; charset=utf-8\n")


# -- property: random arguments and input never crash ----------------------------------------------

WORDS = ["-", "--", "-b", "-i", "-L", "-h", "--mime", "--mime-type", "--mime-encoding", "--brief", "-bi",
         "a.txt", "in", "sub", "missing", "-z"]
HEADERS = [b"", b"#!/bin/bash\n", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0", b"GIF89a", b"%PDF-1.", b"\x1f\x8b",
           b"PK\x03\x04", b"BZh9", b"\xfd7zXZ\x00", b"\x7fELF", b"SQLite format 3\x00", b"<?xml", b"{", b"\xef\xbb\xbf",
           b"\xff\xfe"]


def test_random_arguments_and_input_never_crash():
    @fuzz_settings(60)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), max_size=5),
           head=st.sampled_from(HEADERS),
           data=st.one_of(st.binary(max_size=60), st.text(alphabet="ab,\"\n\r\t{}[]:1 <>é", max_size=60)
                          .map(str.encode)))
    def check(args, head, data):
        execution = asyncio.run(run_fuzzed(args, head + data))
        assert "internal runtime error" not in execution.stderr, (args, head + data, execution.stderr)

    check()


async def run_fuzzed(args: list[str], data: bytes):
    vfs = MemoryVFS()
    await vfs.write_bytes("/w/a.txt", b"hello\n")
    await vfs.mkdir("/w/sub", True)
    await vfs.write_bytes("/w/in", data)
    runtime = await create_agent_cli(vfs=vfs)
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    return await runtime.run_detailed(f"cd /w; file {quoted} in < in")
