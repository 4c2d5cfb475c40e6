"""bc against GNU bc 1.07.1: the recorded cases (tests/data/bc_corpus.json, recorded by
tools/record_bc.py) replayed through the runtime with exact stdout, stderr and exit status,
and property tests: random programs and byte soup never crash and end quickly, and endless
loops or runaway recursion end with a clear error."""
from __future__ import annotations

import asyncio
import base64
import json
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.bc import interpreter, run_bc
from onetool_wasm.commands import create_command_registry

from .helpers import fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "bc_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail), with the reason.
KNOWN_DIFFERENCES: dict[str, str] = {
    "fn-redefine": ("after a syntax error we skip to the end of the line; GNU's yacc recovery resumes "
                    "mid-line and can report more errors"),
    "math-big-args": ("s(10^30): we print the true sine truncated; GNU's libmath reduces the argument "
                      "with a pi of only about scale digits, so its digits are wrong for huge arguments"),
}


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def replay(case: dict):
    vfs = MemoryVFS()
    for path, text in CORPUS["world"].items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs, grammar="bash")
    return await runtime.run_detailed(CORPUS["prefix"] + case["line"])


def params():
    return [pytest.param(case, id=case["id"],
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])]
                         if case["id"] in KNOWN_DIFFERENCES else [])
            for case in CORPUS["cases"]]


@pytest.mark.parametrize("case", params())
def test_recorded_gnu_case(case):
    execution = asyncio.run(replay(case))
    got = (execution.stdout, execution.exit_code, execution.stderr)
    want = (expected_stdout(case), case["exit_code"], case["stderr"].rstrip("\n"))
    assert got == want, case["line"]


def test_enough_recorded_cases():
    assert len(CORPUS["cases"]) >= 150


def test_registered_in_the_data_group():
    spec = create_command_registry().get("bc")
    assert spec.group == "data"
    assert spec.kind_for(["-l"]) == "read"


# -- limits -------------------------------------------------------------------------------

def run(program: str, mathlib: bool = False, max_steps: int | None = None):
    return run_bc([("(standard_in)", program)], mathlib, max_steps=max_steps)


def test_endless_loop_ends_with_a_clear_error():
    started = time.monotonic()
    result = run("while (1) { }\n", max_steps=200_000)
    assert result.status == 1
    assert "steps (a loop that never ends?)" in result.stderr
    assert time.monotonic() - started < 10


def test_endless_loop_default_budget_is_bounded(monkeypatch):
    monkeypatch.setattr(interpreter, "MAX_STEPS", 300_000)
    import onetool_wasm.bc as bc_package
    monkeypatch.setattr(bc_package, "MAX_STEPS", 300_000)
    started = time.monotonic()
    result = run("i = 0; for (;;) i += 1\n")
    assert result.status == 1 and "steps" in result.stderr
    assert time.monotonic() - started < 10


def test_deep_recursion_ends_with_a_clear_error():
    started = time.monotonic()
    result = run("define f(n) { return (f(n + 1)) }\nf(1)\n2\n")
    assert result.stdout == "2\n"
    assert result.stderr.startswith("Runtime error (func=f, adr=")
    assert "nested more than" in result.stderr
    assert time.monotonic() - started < 10


def test_deeply_nested_parentheses_are_refused():
    result = run("(" * 5000 + "1" + ")" * 5000 + "\n3\n")
    assert result.stdout == "3\n"
    assert "nested too deeply" in result.stderr


def test_deeply_nested_blocks_are_refused():
    result = run("{" * 5000 + "1" + "}" * 5000 + "\n")
    assert "nested too deeply" in result.stderr


def test_long_chains_do_not_recurse():
    result = run("+".join(["1"] * 20000) + "\n")
    assert result.stdout == "20000\n"


def test_huge_numbers_are_refused():
    result = run("2^(10^9)\n5\n")
    assert result.stdout == "5\n"
    assert "number too long" in result.stderr


def test_cancelled_stops():
    result = run_bc([("(standard_in)", "while (1) { }\n")], cancelled=lambda: True)
    assert result.status == 1 and "interrupted" in result.stderr


def test_line_length_from_the_environment():
    async def go():
        runtime = await create_agent_cli(grammar="bash")
        return await runtime.run_detailed("echo '2^100' | BC_LINE_LENGTH=10 bc")
    execution = asyncio.run(go())
    assert execution.stdout == b"12676506\\\n00228229\\\n40149670\\\n3205376\n"


# -- properties -----------------------------------------------------------------------------

ATOMS = ["0", "1", "2", "10", "3.5", ".25", "-1", "x", "y", "a[1]", "a[x]", "scale", "ibase", "obase",
         "last", ".", "sqrt(2)", "length(x)", "scale(x)", "f(2)", "s(1)", "(x=3)", "x++", "--y", "A", "ZZ"]
OPS = ["+", "-", "*", "/", "%", "^", "<", "<=", "==", "!=", ">", ">=", "&&", "||", "=", "+=", "*=", "^="]
WORDS = ATOMS + OPS + ["(", ")", "{", "}", ";", "\n", "if", "else", "while", "for", "break", "continue",
                       "print", "\"s\"", "define", "auto", "return", "halt", "[", "]", ",", "!", "/*", "*/",
                       "#", "obase=16", "ibase=2", "scale=5", "obase=200"]


def expressions():
    return st.recursive(st.sampled_from(ATOMS),
                        lambda inner: st.one_of(
                            st.tuples(inner, st.sampled_from(OPS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
                            inner.map(lambda e: f"-{e}"), inner.map(lambda e: f"!{e}")),
                        max_leaves=8)


def check_quick(program: str, mathlib: bool) -> None:
    started = time.monotonic()
    result = run_bc([("(standard_in)", "define f(n) { return (n * 2) }\n" + program)], mathlib, max_steps=200_000)
    assert "Traceback" not in result.stderr and "internal" not in result.stderr
    assert time.monotonic() - started < 10, program


@fuzz_settings(150)
@given(expression=expressions(), mathlib=st.booleans())
def test_random_expressions_never_crash(expression, mathlib):
    check_quick(expression + "\n", mathlib)


@fuzz_settings(150)
@given(words=st.lists(st.sampled_from(WORDS), max_size=25), mathlib=st.booleans())
def test_random_programs_never_crash(words, mathlib):
    check_quick(" ".join(words) + "\n", mathlib)


@fuzz_settings(60)
@given(data=st.binary(max_size=60))
def test_random_bytes_through_the_command_never_crash(data):
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/in", data)
        runtime = await create_agent_cli(vfs=vfs, grammar="bash")
        return await runtime.run_detailed("bc -l < /in")
    started = time.monotonic()
    execution = asyncio.run(go())
    assert "internal runtime error" not in execution.stderr, (data, execution.stderr)
    assert time.monotonic() - started < 10
