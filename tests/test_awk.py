"""awk: the corpus recorded from gawk --posix replayed through the shell, unit checks of the
interpreter's bounds and streaming, speed, and a property test (no internal errors)."""
from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from onetool_wasm import create_agent_cli
from onetool_wasm.vfs.memory import MemoryVFS

from .helpers import call, fuzz_settings

IN_PYODIDE = os.environ.get("ONETOOL_RUNTIME") == "pyodide"
CORPUS = json.loads((Path(__file__).parent / "data" / "awk_corpus.json").read_text())
FILES = CORPUS["files"]

# Case id -> why our awk differs from gawk --posix (strict xfail; see docs/DIFFERENCES.md).
KNOWN_DIFFERENCES: dict[str, str] = {}


async def _run(line: str, files: dict[str, str] | None = None):
    vfs = MemoryVFS()
    for name, text in (FILES if files is None else files).items():
        await vfs.write_bytes("/" + name, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    return await runtime.run_detailed(line)


def run(line: str, files: dict[str, str] | None = None):
    return asyncio.run(_run(line, files))


def _case_params():
    for case in CORPUS["cases"]:
        marks = ()
        if case["id"] in KNOWN_DIFFERENCES:
            marks = (pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]]),)
        yield pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", list(_case_params()))
def test_corpus_case(case):
    execution = run(case["line"])
    got = (execution.stdout, execution.exit_code, bool(execution.stderr))
    assert got == (case["stdout"].encode("latin-1"), case["exit"], case["stderr"]), (case["line"], execution.stderr)


def test_corpus_is_large_and_mostly_identical():
    assert len(CORPUS["cases"]) >= 250
    assert len(KNOWN_DIFFERENCES) <= len(CORPUS["cases"]) * 0.02


# -- streaming and bounds ------------------------------------------------------------------------
def test_yes_into_awk_exit_ends():
    execution = run("yes | awk 'NR==3{exit}'; echo done")
    assert execution.stdout == b"done\n"


def test_streaming_into_head_ends_early():
    start = time.perf_counter()
    execution = run("seq 1 1000000000 | awk 'NR<=3' | head -n 2")
    assert execution.stdout == b"1\n2\n"
    assert time.perf_counter() - start < 10


def test_fflush_each_line_streams():
    execution = run("yes abc | awk '{print; fflush()}' | head -n 2")
    assert execution.stdout == b"abc\nabc\n"


def test_runaway_loop_is_stopped_with_a_clear_error(monkeypatch):
    from onetool_wasm.awk import interpreter
    monkeypatch.setattr(interpreter, "MAX_STEPS", 50_000)
    execution = run("awk 'BEGIN { while (1) x++ }'")
    assert execution.exit_code == 2 and "steps" in execution.stderr


def test_runaway_recursion_is_stopped():
    execution = run("awk 'function r(n) { return r(n + 1) } BEGIN { r(1) }'")
    assert execution.exit_code == 2 and "nested more than" in execution.stderr


def test_deeply_nested_expression_is_refused():
    execution = run("awk 'BEGIN { print " + "(" * 200 + "1" + ")" * 200 + " }'")
    assert execution.exit_code == 1 and "nested too deeply" in execution.stderr
    execution = run("awk 'BEGIN { print " + "+".join(["1"] * 3000) + " }'")
    assert execution.exit_code == 1 and "too complex" in execution.stderr


def test_sum_over_100k_lines_is_fast():
    data = "".join(f"r{i} x {i % 97}\n" for i in range(100_000))
    start = time.perf_counter()
    execution = run("awk '{s+=$3} END {print s}' big.txt", {"big.txt": data})
    elapsed = time.perf_counter() - start
    assert execution.stdout == f"{sum(i % 97 for i in range(100_000))}\n".encode()
    assert elapsed < (20.0 if IN_PYODIDE else 3.0), elapsed  # about 0.5 s on CPython


def test_writes_go_to_the_vfs_and_kind_says_write():
    from onetool_wasm.commands.text.awk import program_kind
    assert program_kind(["{print > \"o.txt\"}"]) == "write"
    assert program_kind(["{print $1}"]) == "read"
    assert program_kind(["BEGIN{system(\"rm x\")}"]) == "write"
    assert program_kind(["-f", "p.awk"]) == "write"
    execution = run("awk '{print $1 > \"/out/names.txt\"}' data.txt; cat /out/names.txt")
    assert execution.stdout == b"alice\nbob\ncarol\ndave\n"


def test_help_has_examples():
    from onetool_wasm.commands.text.awk import COMMANDS
    spec = COMMANDS[0]
    assert spec.group == "text" and "Examples:" in spec.details


# -- property: never an internal error -------------------------------------------------------------
PIECES = ["{", "}", "(", ")", "$", "$1", "NF", "NR", "print", "printf", "\"%d\"", "\"s\"", "x", "a[1]", "in", "a",
          "+", "-", "*", "/", "%", "^", "=", "+=", "++", "--", "==", "<", ">", "~", "!~", "/re/", "/[/", "&&", "||",
          "!", "?", ":", ";", "\n", ",", "getline", "<", "|", "next", "exit", "BEGIN", "END", "function f(p)",
          "f(1)", "split($0,a)", "sub(/a/,\"b\")", "gsub(\"\",\"-\")", "substr(x,2)", "length", "delete a", "for",
          "while", "do", "if", "else", "break", "continue", "return", "1", "0", "-1", "1e400", "\"\\q\"",
          "sprintf(\"%*.*d\",1e9)", "close(\"x\")", "int(\"0x\")", "NF=-1", "$(-1)", "$1e7"]


@fuzz_settings(120)
@given(program=st.lists(st.sampled_from(PIECES), max_size=14).map(" ".join),
       stdin=st.text(alphabet="ab 1\n\t,:", max_size=30),
       flags=st.lists(st.sampled_from(["-F,", "-F", "-v", "x=1", "-f", "--", "-", "data.txt", "RS="]), max_size=3))
def test_random_programs_never_crash(program, stdin, flags):
    args = [*flags, program]
    # An exception escaping the command is the bug this test hunts.
    result = call("awk", args, files={"/data.txt": "a b\n1 2\n"}, stdin=stdin)
    assert "internal runtime error" not in result.stderr, (args, result.stderr)
    if result.exit_code not in (0, 1):
        assert result.stderr or result.exit_code != 2, (args, result)


def test_environ_comes_from_exported_variables():
    execution = run("export GREETING=hello; awk 'BEGIN { print ENVIRON[\"GREETING\"] }'")
    assert execution.stdout == b"hello\n"


def test_program_file_and_output_pipe_in_a_pipeline():
    execution = run("printf '3\\n1\\n2\\n' | awk -f /prog.awk | cat", {"prog.awk": "{ print | \"sort\" }\n"})
    assert execution.stdout == b"1\n2\n3\n"
