"""tar, gzip, gunzip, zcat: the recorded GNU cases (tests/data/archive_corpus.json, recorded by
tools/record_archive.py) replayed through the runtime, exact round trips, GNU-made archives
read back, a decompression bomb stopped at the materialization limit, and a property test that
random arguments and input never crash any of them."""
from __future__ import annotations

import asyncio
import base64
import io
import json
import tarfile
import zlib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.fs.gzip import compress, decompress

from .helpers import fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "archive_corpus.json").read_text(encoding="utf-8"))
COMMANDS = {"tar", "gzip", "gunzip", "zcat"}

# Cases where we knowingly differ from GNU (strict xfail, with the reason).
KNOWN_DIFFERENCES: dict[str, str] = {
    "gzip-list-multi": "gzip -l of a multi-member file: GNU's ratio counts a header size of 0 there "
                       "(left-over internal state); we count the first member's header as for one member",
}


def corpus_cases(commands: set[str]) -> list[dict]:
    return [case for case in CORPUS["cases"] if case["command"] in commands]


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def world_runtime(extra: dict[str, bytes] | None = None, **options):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.write_bytes(path, text.encode("utf-8"))
    for path, data in CORPUS["world_b64"].items():
        await vfs.write_bytes(path, base64.b64decode(data))
    for path, data in (extra or {}).items():
        await vfs.write_bytes(path, data)
    return await create_agent_cli(vfs=vfs, **options), vfs


async def replay(case: dict):
    runtime, _ = await world_runtime()
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


def test_every_command_has_enough_recorded_cases():
    counts = Counter(case["command"] for case in corpus_cases(COMMANDS))
    assert {name: counts[name] for name in COMMANDS if counts[name] < 15} == {}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_registered_in_fs_with_examples(name):
    spec = create_command_registry().get(name)
    assert spec.group == "fs"
    assert "\nExamples:\n  " in spec.details


def test_kinds_follow_the_arguments():
    registry = create_command_registry()
    tar, gzip, gunzip, zcat = (registry.get(name) for name in ("tar", "gzip", "gunzip", "zcat"))
    assert tar.kind_for(["tf", "x.tar"]) == "read"
    assert tar.kind_for(["-tvf", "x.tar"]) == "read"
    assert tar.kind_for(["czf", "x.tgz", "d"]) == "write"
    assert tar.kind_for(["cf", "-", "d"]) == "read"
    assert tar.kind_for(["-xf", "x.tar"]) == "write"
    assert tar.kind_for(["-xOf", "x.tar"]) == "read"
    assert gzip.kind_for(["a.txt"]) == "write"
    assert gzip.kind_for(["-c", "a.txt"]) == "read"
    assert gzip.kind_for(["-l", "a.gz"]) == "read"
    assert gzip.kind_for([]) == "read"
    assert gunzip.kind_for(["a.gz"]) == "write"
    assert gunzip.kind_for(["-t", "a.gz"]) == "read"
    assert zcat.kind_for(["a.gz"]) == "read"


# -- exact round trips -------------------------------------------------------------------------

def run(line: str, extra: dict[str, bytes] | None = None, **options):
    async def go():
        runtime, vfs = await world_runtime(extra, **options)
        execution = await runtime.run_detailed(CORPUS["prefix"] + line)
        return execution, vfs
    return asyncio.run(go())


def test_gzip_module_round_trip_and_header():
    data = bytes(range(256)) * 50
    packed = compress(data, 9, "n.bin", 1704067200)
    assert packed[:4] == b"\x1f\x8b\x08\x08" and packed[8] == 2 and packed[9] == 3
    assert packed[10:16] == b"n.bin\0"
    decoded = decompress(packed + packed, 1 << 20)
    assert decoded.data == data + data and [m.name for m in decoded.members] == ["n.bin", "n.bin"]
    assert zlib.decompress(packed, 31) == data  # any gzip reader takes it


def test_gzip_then_gunzip_restores_bytes():
    execution, vfs = run("gzip a.txt d/x.txt && gunzip a.txt.gz d/x.txt.gz && cat a.txt d/x.txt")
    assert execution.stdout == b"one\ntwo\nthree\nx\n" and execution.exit_code == 0


def test_gzip_file_stores_name_and_no_name_drops_it():
    execution, vfs = run("gzip -k a.txt && gzip -n -c b.txt > b.gz")
    stored = asyncio.run(vfs.read_bytes("/w/a.txt.gz"))
    assert stored[3] == 0x08 and stored[10:16] == b"a.txt\0"
    bare = asyncio.run(vfs.read_bytes("/w/b.gz"))
    assert bare[3] == 0 and bare[4:8] == b"\0\0\0\0"


def test_tar_round_trip_in_our_runtime():
    execution, vfs = run("tar czf /x.tgz d a.txt && rm -r d a.txt && tar xzf /x.tgz && cat a.txt d/sub/y.txt")
    assert execution.stdout == b"one\ntwo\nthree\ny\n" and execution.exit_code == 0


def test_our_archives_read_with_python_tarfile():
    execution, vfs = run("tar --mtime=@86400 -czf /x.tgz d")
    assert execution.exit_code == 0
    with tarfile.open(fileobj=io.BytesIO(asyncio.run(vfs.read_bytes("/x.tgz"))), mode="r:gz") as archive:
        names = archive.getnames()
        assert names == ["d", "d/sub", "d/sub/y.txt", "d/sub/z.log", "d/x.txt"]
        assert archive.extractfile("d/sub/y.txt").read() == b"y\n"
        assert {member.mtime for member in archive.getmembers()} == {86400}


def test_tar_extracts_a_gnu_made_archive():
    execution, _ = run("tar xzf gnu.tgz && cat g/a.txt g/sub/b.txt g/sub/c.log")
    assert execution.stdout == b"hello\ninner\nlog line\n"


def test_tar_verbose_long_listing_of_gnu_archive():
    execution, _ = run("tar tvf gnu.tar g/a.txt")
    assert execution.stdout == b"-rw-r--r-- 0/0               6 2024-01-01 00:00 g/a.txt\n"


def test_tar_never_writes_outside_the_target_folder():
    execution, vfs = run("mkdir o && tar xf dotdot.tar -C o")
    assert execution.exit_code == 2
    assert "tar: ../evil.txt: Member name contains '..'" in execution.stderr.splitlines()
    assert asyncio.run(vfs.read_bytes("/w/o/ok.txt")) == b"ok\n"
    for path in ("/w/evil.txt", "/evil.txt", "/w/o/evil.txt", "/w/o/up.txt", "/up.txt", "/w/up.txt"):
        assert not asyncio.run(vfs.exists(path))


def test_tar_missing_file_message():
    execution, _ = run("tar cf x.tar nope")
    assert execution.exit_code == 2
    assert execution.stderr.splitlines()[-2:] == ["tar: nope: Cannot stat: No such file or directory",
                                                  "tar: Exiting with failure status due to previous errors"]


def test_gzip_messages():
    execution, _ = run("gzip -k a.txt; gzip -k a.txt")
    assert execution.exit_code == 2 and "gzip: a.txt.gz already exists;\tnot overwritten" in execution.stderr
    execution, _ = run("zcat plain.txt")
    assert execution.exit_code == 1 and execution.stderr.strip() == "gzip: plain.txt: not in gzip format"


# -- decompression bombs stop at the materialization limit ---------------------------------------

def _zero_bomb(size: int) -> bytes:
    engine = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(1 << 20)
    parts = [engine.compress(chunk) for _ in range(size >> 20)]
    return b"".join(parts) + engine.flush()


BOMB = _zero_bomb(1 << 30)   # 1 GiB of zeros, about 1 MB compressed


@pytest.mark.parametrize("line", ["zcat /bomb.gz | wc -c", "gunzip -c /bomb.gz > /dev/null",
                                  "gzip -t /bomb.gz", "gunzip /bomb.gz", "tar tzf /bomb.gz"])
def test_decompression_bomb_stops_at_the_limit(line):
    execution, vfs = run(line, {"/bomb.gz": BOMB}, execution_policy={"max_materialized_bytes": 8 << 20})
    assert "exceeds max materialized size" in execution.stderr
    assert execution.exit_code != 0 or "wc" in line
    assert not asyncio.run(vfs.exists("/bomb"))


def test_tar_bomb_member_stops_at_the_limit():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        info = tarfile.TarInfo("big")
        info.size = 64 << 20
        archive.addfile(info, io.BytesIO(bytes(info.size)))
    execution, _ = run("tar xzf /big.tgz", {"/big.tgz": buffer.getvalue()},
                       execution_policy={"max_materialized_bytes": 4 << 20})
    assert execution.exit_code == 2 and "exceeds max materialized size" in execution.stderr


# -- property: random arguments and input never crash --------------------------------------------

WORDS = ["-", "--", "-c", "-d", "-f", "-k", "-l", "-t", "-v", "-q", "-r", "-n", "-N", "-1", "-9", "-S", ".z",
         "-x", "-z", "-O", "-C", "-a", "tf", "xf", "cf", "czf", "xzf", "tvf", "-cf", "-tf", "-xf",
         "--exclude=*.txt", "--strip-components=1", "--strip-components=x", "--mtime=@0", "--mtime=bad",
         "--sort=name", "a.txt", "d", "h.gz", "gnu.tar", "gnu.tgz", "dotdot.tar", "crc.gz", "trunc.gz",
         "x.tar", "in", "nope", "/", "..", "../x"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_random_arguments_and_input_never_crash(name):
    @fuzz_settings(25)
    @given(args=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), max_size=5),
           data=st.one_of(st.binary(max_size=40), st.sampled_from([
               base64.b64decode(CORPUS["world_b64"]["/w/h.gz"]),
               base64.b64decode(CORPUS["world_b64"]["/w/gnu.tar"])[:700],
               base64.b64decode(CORPUS["world_b64"]["/w/trunc.gz"])])))
    def check(args, data):
        execution = asyncio.run(run_fuzzed(name, args, data))
        assert "internal runtime error" not in execution.stderr, (args, data, execution.stderr)

    check()


async def run_fuzzed(name: str, args: list[str], data: bytes):
    runtime, vfs = await world_runtime({"/w/in": data})
    quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in args)
    return await runtime.run_detailed(f"cd /w; {name} {quoted} < in")
