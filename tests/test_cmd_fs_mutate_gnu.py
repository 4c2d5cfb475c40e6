"""mkdir cp mv rm touch in the bash language: the recorded GNU coreutils cases
(tests/data/diff_fs_corpus.json, tools/record_diff_fs.py) replayed through the runtime, exact
checks of touch's date parsing, and a property test that random flags and operands never
crash cp, mv, touch, mkdir or rm."""
from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands.fs._mutate import parse_mode
from onetool_wasm.commands.fs.touch import parse_date, parse_stamp

from .helpers import fuzz_settings
from .test_cmd_diff_flags import CORPUS, check_gnu_case, gnu_params

COMMANDS = {"mkdir", "cp", "mv", "rm", "touch"}

# Cases where we knowingly differ from GNU (strict xfail, with the reason).
KNOWN_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("case", gnu_params(COMMANDS, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_gnu_case(case)


def test_every_command_has_enough_recorded_cases():
    counts = Counter(case["command"] for case in CORPUS["cases"])
    assert {name: counts[name] for name in COMMANDS if counts[name] < 15} == {}


NOW = datetime(2025, 6, 1, 12, 0, tzinfo=timezone.utc).timestamp()


def utc(*parts: int) -> float:
    return datetime(*parts, tzinfo=timezone.utc).timestamp()


@pytest.mark.parametrize("text,expected", [
    ("2024-01-15", utc(2024, 1, 15)), ("2024-01-15 10:30", utc(2024, 1, 15, 10, 30)),
    ("2024-01-15T10:30:45", utc(2024, 1, 15, 10, 30, 45)), ("@1700000000", 1700000000.0),
    ("now", NOW), ("yesterday", NOW - 86400), ("tomorrow", NOW + 86400), ("2024-02-30", None),
    ("garbage", None), ("@x", None)])
def test_touch_date_strings(text, expected):
    assert parse_date(text, NOW) == expected


@pytest.mark.parametrize("text,expected", [
    ("202401151030", utc(2024, 1, 15, 10, 30)), ("2401151030.45", utc(2024, 1, 15, 10, 30, 45)),
    ("6901010000", utc(1969, 1, 1)), ("01151030", utc(2025, 1, 15, 10, 30)), ("2024", None),
    ("202413151030", None), ("20240115103", None)])
def test_touch_stamps(text, expected):
    assert parse_stamp(text, NOW) == expected


def test_modes():
    assert parse_mode("700") == 0o700
    assert parse_mode("u=rwx,go=", 0o777) == 0o700
    assert parse_mode("a-w", 0o777) == 0o555
    assert parse_mode("xyz") is None


class ClockVFS(MemoryVFS):
    """A VFS that can set a modified time, as touch -d / -t / -r and cp -p use when present."""

    async def set_mtime(self, path: str, epoch_ms: int) -> None:
        self.times[self.normalize(path)] = epoch_ms

    async def stat(self, path: str):
        info = await super().stat(path)
        if info.exists and info.path in self.times:
            from dataclasses import replace
            return replace(info, modified_epoch_ms=self.times[info.path])
        return info


def run_with_clock(line: str):
    async def go():
        vfs = ClockVFS()
        vfs.times = {}
        await vfs.write_bytes("/w/a.txt", b"a\n")
        runtime = await create_agent_cli(vfs=vfs)
        result = await runtime.run_detailed(line)
        return result, vfs
    return asyncio.run(go())


def test_touch_sets_times_when_the_vfs_can():
    result, vfs = run_with_clock("cd /w && touch -d @1700000000 a.txt && touch -t 202401151030 b.txt && "
                                 "touch -r a.txt c.txt && cp -p a.txt d.txt")
    assert result.exit_code == 0, result.stderr
    assert vfs.times["/w/a.txt"] == 1700000000000
    assert vfs.times["/w/b.txt"] == int(utc(2024, 1, 15, 10, 30) * 1000)
    assert vfs.times["/w/c.txt"] == 1700000000000
    assert vfs.times["/w/d.txt"] == 1700000000000


WORDS = ["-r", "-R", "-a", "-p", "-f", "-i", "-n", "-u", "-v", "-T", "-t", "-d", "-c", "-m", "-p", "-D",
         "--verbose", "--target-directory=/w/d", "-d", "2024-01-15", "-t", "202401010000", "@5", "-r",
         "--", "/w/a", "/w/b", "/w/d", "/w/d/", "/w/missing", "/w/d/e", "/", ".", "x/y", "755"]


@fuzz_settings(80)
@given(st.sampled_from(["cp", "mv", "touch", "mkdir", "rm"]), st.lists(st.sampled_from(WORDS), max_size=6))
def test_random_flags_never_crash(command, words):
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/w/a", b"a\n")
        await vfs.write_bytes("/w/b", b"")
        await vfs.write_bytes("/w/d/e", b"e\n")
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(f"cd /w && {command} " + " ".join(f"'{word}'" for word in words))
    result = asyncio.run(go())
    assert "internal runtime error" not in result.stderr
