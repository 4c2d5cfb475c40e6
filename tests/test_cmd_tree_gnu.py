"""tree in the bash language: GNU tree 2.1 under LC_ALL=C (ASCII connectors), the recorded
cases (tests/data/diff_fs_corpus.json, tools/record_diff_fs.py) replayed through the runtime,
and a property test that random flags and operands never crash it. The strict grammar keeps
upstream's Unicode drawing (tests/test_cmd_fs_tree.py)."""
from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli

from .helpers import fuzz_settings
from .test_cmd_diff_flags import CORPUS, check_gnu_case, gnu_params

# Cases where we knowingly differ from GNU (strict xfail, with the reason).
KNOWN_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("case", gnu_params({"tree"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_gnu_case(case)


def test_enough_cases_are_recorded():
    assert Counter(case["command"] for case in CORPUS["cases"])["tree"] >= 15


def run_line(line: str):
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/w/a/b.txt", b"b")
        await vfs.write_bytes("/w/c.txt", b"c")
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_ascii_connectors_in_the_bash_language():
    assert run_line("cd /w && tree").stdout.decode() == (
        ".\n|-- a\n|   `-- b.txt\n`-- c.txt\n\n2 directories, 2 files\n")


WORDS = ["-a", "-d", "-f", "-i", "-F", "-C", "-n", "-L", "1", "0", "-I", "*.txt", "-P", "b*|c*", "--noreport",
         "--dirsfirst", "--charset=ascii", "--charset", "--nope", "-k", "--", "/w", "/w/a", "/w/c.txt", "missing", "."]


@fuzz_settings(60)
@given(st.lists(st.sampled_from(WORDS), max_size=6))
def test_random_flags_never_crash(words):
    result = run_line("cd /w && tree " + " ".join(f"'{word}'" for word in words))
    assert "internal runtime error" not in result.stderr
