"""rg against recordings of the real ripgrep 13 (tests/data/rg_corpus.json, made by
tools/record_rg_corpus.py), plus a property test: random arguments never crash it."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.vfs.memory import MemoryVFS

from .helpers import (call, check_no_crash, command_context, conformance_test, fuzz_settings, random_args,
                      random_stdin)

CORPUS = json.loads((Path(__file__).parent / "data" / "rg_corpus.json").read_text())
CASES = CORPUS["cases"]

# Cases whose output differs from ripgrep's on purpose or by a known limit: id -> reason.
KNOWN_DIFFERENCES: dict[str, str] = {
    "rg-249": "ripgrep 13 bug: with several directory operands and --sort path, the second operand loses "
              "the parent .gitignore's rules that contain a slash (docs/**/*.bak); we apply them",
    "rg-261": "-w and \\b are ASCII here: a non-ASCII letter next to the match (na|ive) is not a word "
              "character, so `rg -w na` matches `naive` with a diaeresis; ripgrep's are Unicode",
    "rg-293": "ripgrep 13 prints nothing for -U -v -c (a bug: -U -v without -c prints 6 lines); we count 6",
}


async def _replay(line: str):
    vfs = MemoryVFS()
    root = CORPUS["root"]
    for name, text in CORPUS["tree"].items():
        path = f"{root}/{name}"
        await vfs.mkdir(path.rsplit("/", 1)[0], True)
        await vfs.write_bytes(path, text.encode("latin-1"))
    runtime = await create_agent_cli(vfs=vfs)
    return await runtime.run_detailed(f"cd {root}; {line}")


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])] \
            if case["id"] in KNOWN_DIFFERENCES else []
        yield pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_recorded_case(case):
    execution = asyncio.run(_replay(case["line"]))
    expected = (case["stdout"].encode("latin-1"), case["exit_code"], bool(case["stderr"]))
    assert (execution.stdout, execution.exit_code, bool(execution.stderr)) == expected, case["line"]


def test_corpus_is_big_enough_and_mostly_identical():
    assert len(CASES) >= 150
    assert len(KNOWN_DIFFERENCES) <= len(CASES) * 0.02


test_conformance = conformance_test("rg")


def test_help_rg():
    execution = asyncio.run(_replay("help rg"))
    assert execution.exit_code == 0 and b"rg [OPTIONS] PATTERN" in execution.stdout


WORLD = {"/w/a.py": "def foo():\n    return 1  # TODO\n", "/w/.hidden": "TODO\n", "/w/bin.dat": b"a\x00TODO",
         "/w/.gitignore": "*.log\n", "/w/.git/HEAD": "x\n", "/w/x.log": "TODO\n", "/w/sub/b.md": "Foo bar"}
FLAGS = ["-e", "-F", "-i", "-S", "-s", "-w", "-x", "-v", "-c", "--count-matches", "-l", "--files-without-match",
         "-o", "-n", "-N", "-A", "-B", "-C", "-m", "-g", "!*.py", "*.{py", "[", "-t", "py", "-T", "--type-list",
         "--files", "--hidden", "-u", "-uu", "-L", "--max-depth", "-0", "--json", "--sort", "path", "-r", "$1",
         "-U", "--no-ignore", "-q", "-a", "(", "(?<=a)", "\\1", "a{2,1}", "[z-a]", "\\n", "x*?", "(?i)foo",
         "\\pL", "\\p{Greek}", "--heading", "-P", "--nope", "/w", "/w/a.py", "/missing", "-", "TODO", "."]


def test_random_arguments_never_crash():
    from hypothesis import given

    @fuzz_settings(120)
    @given(args=random_args(FLAGS, numbers=(-2, 4), max_size=7), stdin=random_stdin(16))
    def check(args, stdin):
        ctx = command_context(WORLD)
        result = call("rg", args, ctx=ctx, stdin=stdin)  # an exception here is the bug hunted
        check_no_crash(result, args, "rg: ", exit_codes=(0, 1, 2))
        if result.exit_code == 2:
            assert result.stderr, (args, result)

    check()
