"""diff's GNU flags in the bash language: the recorded GNU diffutils 3.8 cases
(tests/data/diff_fs_corpus.json, recorded by tools/record_diff_fs.py) replayed through the
runtime, exact checks of the side-by-side layout, and a property test that random flags and
operands never crash it. `check_gnu_case` / `gnu_params` also replay the mkdir cp mv rm touch
and tree cases (tests/test_cmd_fs_mutate_gnu.py, tests/test_cmd_tree_gnu.py)."""
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
from onetool_wasm.diff import Change, render_side, side_widths

from .helpers import fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "diff_fs_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail, with the reason).
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
        if text is None:
            await vfs.mkdir(path, True)
            continue
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def check_gnu_case(case: dict) -> None:
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    want = (expected_stdout(case), case["exit_code"], case["stderr_nonempty"])
    assert got == want, (case["line"], execution.stderr)


def gnu_params(commands: set[str], known: dict[str, str]):
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=known[case["id"]])] if case["id"] in known else [])
            for case in corpus_cases(commands)]


@pytest.mark.parametrize("case", gnu_params({"diff"}, KNOWN_DIFFERENCES))
def test_recorded_gnu_case(case):
    check_gnu_case(case)


def test_enough_cases_are_recorded():
    counts = Counter(case["command"] for case in CORPUS["cases"])
    assert counts["diff"] >= 60
    assert len(CORPUS["cases"]) >= 150


# -- units --------------------------------------------------------------------------------------

def test_side_widths_match_gnu():
    assert side_widths(130, False) == (61, 64)
    assert side_widths(40, False) == (16, 24)
    assert side_widths(40, True) == (18, 22)


def test_side_by_side_marks():
    body = render_side([b"a\n", b"b\n"], [b"a\n", b"c\n", b"d\n"], [Change(1, 1, 1, 2)], width=20)
    assert body == b"a\ta\nb     |\tc\n      >\td\n"


def run_line(line: str, files: dict[str, bytes]):
    async def go():
        vfs = MemoryVFS()
        for path, data in files.items():
            await vfs.write_bytes(path, data)
        runtime = await create_agent_cli(vfs=vfs)
        return await runtime.run_detailed(line)
    return asyncio.run(go())


def test_unified_names_as_written_with_nanosecond_stamps():
    result = run_line("cd /w && diff -u a b", {"/w/a": b"x\n", "/w/b": b"y\n"})
    head = result.stdout.decode().splitlines()
    assert head[0].startswith("--- a\t") and head[0].endswith(" +0000")
    assert len(head[0].split(".")[-1].split(" ")[0]) == 9
    assert head[2:] == ["@@ -1 +1 @@", "-x", "+y"]


def test_strict_grammar_keeps_upstream_usage():
    from onetool_wasm.commands.fs.diff import DIFF
    assert DIFF.usage == "diff [-u|-U N|-c|-C N] [-r] [-a] [-b] [-i] <left> <right>"


FLAGS = ["-q", "-s", "-N", "-B", "-w", "-b", "-E", "-Z", "-i", "-y", "-t", "-e", "-r", "-u", "-c", "-a",
         "--normal", "--strip-trailing-cr", "--suppress-common-lines", "--left-column", "-W", "7", "-I", "[",
         "-L", "x", "-x", "*", "-U", "0", "-C", "2", "--color=never", "--", "-"]
OPERANDS = ["/w/a", "/w/b", "/w/d", "/w/missing", "/w", "/w/d/", "-", "/w/bin"]


@fuzz_settings(60)
@given(st.lists(st.sampled_from(FLAGS + OPERANDS), min_size=0, max_size=7), st.binary(max_size=20))
def test_random_flags_never_crash(words, stdin):
    files = {"/w/a": b"a\n\nb \tc\r\n", "/w/b": b"A\nb c\nd", "/w/d/a": b"a\n", "/w/d/e": b"", "/w/bin": b"\0x"}
    quoted = " ".join("'" + word.replace("'", "") + "'" for word in words)
    result = run_line(f"diff {quoted}", files)
    assert "internal runtime error" not in result.stderr
    assert result.exit_code in (0, 1, 2)
