"""Pathological patterns (catastrophic backtracking) end fast with GNU's answer.

The expected outputs were recorded from GNU grep 3.8 / sed / bash under LC_ALL=C in a
bubblewrap sandbox (tools/record_coreutils_more.py's SANDBOX); awk was not installed there,
so its expected line follows POSIX's definition of match() (RSTART 0, RLENGTH -1 on failure).
The differential tests compare the linear engines (dfa.py) with the NFA (nfa.py), and the
budgeted back-reference matcher (backtrack.py) with Python's `re`, on random patterns.
"""
from __future__ import annotations

import asyncio
import re
import time

import pytest
from hypothesis import assume, given, settings, strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.regex import RegexCancelled, RegexError, compile_grep, compile_regex
from onetool_wasm.regex import backtrack, nfa
from onetool_wasm.regex.syntax import parse

from .helpers import examples

A500 = "printf 'a%.0s' {1..500} > /s.txt; "


def timed(line: str):
    async def go():
        runtime = await create_agent_cli(vfs=MemoryVFS())
        started = time.perf_counter()
        execution = await runtime.run_detailed(line)
        return execution, time.perf_counter() - started

    return asyncio.run(go())


@pytest.mark.parametrize("line, expected", ids=lambda v: str(v)[-30:], argvalues=[
    (A500 + "grep -c 'a.*a.*a.*a.*b' /s.txt; echo $?", "0\n1\n"),
    (A500 + "echo b >> /s.txt; grep -c 'a.*a.*a.*a.*b' /s.txt", "1\n"),
    ("printf 'x%.0s' {1..10000} > /s.txt; echo >> /s.txt; grep -cE '.*.*=.*' /s.txt; "
     "echo 'k=v' >> /s.txt; grep -E '.*.*=.*' /s.txt", "0\nk=v\n"),
    ("printf 'a%.0s' {1..2000} > /s.txt; echo '!' >> /s.txt; grep -oE '[a-z]*[a-z]*[a-z]*!' /s.txt | wc -c",
     "2002\n"),
    (A500 + "echo >> /s.txt; sed 's/a.*a.*a.*a.*b/X/' /s.txt | wc -c; "
     "sed -E 's/[a-z]*[a-z]*[a-z]*$/<&>/' /s.txt | wc -c", "501\n503\n"),
    (A500 + "echo >> /s.txt; awk '{ print match($0, /a.*a.*a.*a.*b/), RSTART, RLENGTH; "
     "print match($0 \"b\", /a.*a.*a.*a.*b/), RSTART, RLENGTH }' /s.txt", "0 0 -1\n1 1 501\n"),
    ("s=$(printf 'a%.0s' {1..500}); [[ $s =~ a.*a.*a.*a.*b ]]; echo $?; "
     "[[ ${s}c =~ (a|aa)*c ]] && echo ${#BASH_REMATCH[0]}", "1\n501\n"),
    ("printf 'a%.0s' {1..10000} > /s.txt; echo >> /s.txt; grep -c '\\(a*\\)*b' /s.txt; "
     "grep -cE '(a|aa)*c' /s.txt; printf 'x%.0s' {1..5000} > /t.txt; echo >> /t.txt; grep -cE '(x+x+)+y' /t.txt",
     "0\n0\n0\n"),
])
def test_pathological_patterns_end_fast_with_gnus_answer(line, expected):
    execution, took = timed(line)
    assert execution.stdout.decode() == expected
    assert took < 2.5


@pytest.mark.parametrize("pattern, extended, data, end", ids=lambda v: str(v)[:20], argvalues=[
    ("a.*a.*a.*a.*b", False, b"a" * 1_000_000, b"b"),
    (".*.*=.*", True, b"x" * 1_000_000, b"="),
    ("[a-z]*[a-z]*[a-z]*!", True, b"a" * 1_000_000, b"!"),
    ("(a|aa)*c", True, b"a" * 100_000, b"c"),
    ("\\(a*\\)*b", False, b"a" * 100_000, b"b"),
    ("(x+x+)+y", True, b"x" * 100_000, b"y"),
])
def test_a_megabyte_line_is_linear(pattern, extended, data, end):
    regex = compile_regex(pattern, extended)
    assert regex.engine == "dfa"
    started = time.perf_counter()
    assert not regex.test(data) and regex.search(data) is None
    found = regex.search(data + end)  # a match that ends the line: the span scans all of it
    assert found is not None and found.span() == (0, len(data) + 1)
    assert time.perf_counter() - started < 3


def test_a_back_reference_bomb_ends_with_a_clear_error():
    regex = compile_grep(("(a*)(a*)(a*)(a*)(a*)x\\1",), "extended")
    assert regex.engine == "backtrack"
    started = time.perf_counter()
    with pytest.raises(RegexError, match="too complex for this input"):
        regex.test(b"a" * 3000 + b"x")
    assert time.perf_counter() - started < 5
    assert regex.test(b"aaxa") and not regex.test(b"aab")


def test_a_back_reference_bomb_through_grep_says_so():
    execution, took = timed("printf 'a%.0s' {1..3000} > /s.txt; echo x >> /s.txt; "
                            "grep -cE '(a*)(a*)(a*)(a*)(a*)x\\1' /s.txt")
    assert "too complex for this input" in execution.stderr and took < 6


def test_ordinary_back_references_still_work():
    assert compile_grep(("^\\(.*\\)\\1$",)).test(b"abcabc")
    assert not compile_grep(("^\\(.*\\)\\1$",)).test(b"abcab")
    match = compile_regex("\\(a*\\)b\\1", sed=True).search(b"xaabaa")
    assert match.span() == (1, 6) and match.group(1) == b"aa"


def test_the_cancellation_callback_stops_a_scan():
    regex = compile_regex("a.*a.*a.*a.*b")
    calls = []

    def cancelled():
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(RegexCancelled):
        regex.test(b"a" * 1_000_000, cancelled)
    with pytest.raises(RegexCancelled):
        regex.search(b"a" * 1_000_000 + b"b", cancelled=lambda: True)


def test_the_runs_deadline_stops_a_long_scan():
    async def go():
        vfs = MemoryVFS()
        await vfs.write_bytes("/big.txt", b"a" * 40_000_000 + b"\n")
        runtime = await create_agent_cli(vfs=vfs, execution_policy={"deadline_ms": 300})
        started = time.perf_counter()
        execution = await runtime.run_detailed("grep -c 'a.*a.*a.*a.*b' /big.txt")
        return execution, time.perf_counter() - started

    execution, took = asyncio.run(go())
    assert took < 1.5
    assert execution.exit_code != 0 and execution.stdout == b""


# -- differential: the linear engines against the NFA ----------------------------------------------
ATOMS_ERE = ["a", "b", ".", "[ab]", "[^a]", "[[:digit:]]", "\\w", "\\W", "x", "^", "$", "\\<", "\\>", "\\b", "1"]
ATOMS_BRE = ["a", "b", ".", "[ab]", "[^b]", "x", "^", "$", "\\<", "\\B", "1", "*"]
QUANT_ERE = ["", "", "", "*", "+", "?", "{1,2}", "{2}", "{0,3}", "{1,}"]
QUANT_BRE = ["", "", "", "*", "\\{1,2\\}", "\\{2\\}", "\\{0,1\\}", "\\+", "\\?"]


@st.composite
def patterns(draw, extended: bool, depth: int = 0):
    atoms, quants = (ATOMS_ERE, QUANT_ERE) if extended else (ATOMS_BRE, QUANT_BRE)
    open_, close, bar = ("(", ")", "|") if extended else ("\\(", "\\)", "\\|")
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            inner = bar.join(draw(st.lists(patterns(extended, depth + 1), min_size=1, max_size=3)))
            atom = open_ + inner + close
        else:
            atom = draw(st.sampled_from(atoms))
        parts.append(atom + draw(st.sampled_from(quants)))
    return "".join(parts)


PATTERN = st.booleans().flatmap(lambda extended: st.tuples(st.just(extended), patterns(extended)))
DATA = st.text(alphabet="ab1x -", max_size=14).map(str.encode)


def _compiled(extended: bool, pattern: str, ignore_case: bool = False):
    try:
        regex = compile_regex(pattern, extended, ignore_case)
        program = nfa.compile_program(parse(pattern.encode(), extended=extended).node, ignore_case)
    except RegexError:
        return None, None
    return regex, program


@settings(max_examples=examples(150), deadline=None)
@given(spec=PATTERN, data=DATA, ignore_case=st.booleans(), pos=st.integers(0, 6))
def test_the_dfa_agrees_with_the_nfa(spec, data, ignore_case, pos):
    extended, pattern = spec
    regex, program = _compiled(extended, pattern, ignore_case)
    if regex is None:
        return
    pos = min(pos, len(data))
    reference = nfa.search(program, data, pos)
    assert regex._dfa("forward").matches(data, pos) == (reference is not None)
    regex._marks = None
    assert regex._span(data, pos, None) == reference


@settings(max_examples=examples(150), deadline=None)
@given(spec=PATTERN, data=DATA)
def test_every_engine_finds_the_same_lines_and_posix_spans(spec, data):
    extended, pattern = spec
    regex, program = _compiled(extended, pattern)
    if regex is None:
        return
    if regex.engine == "re":
        assume(data or "\\B" not in pattern)  # Python's \B never matches an empty string
    reference = nfa.search(program, data)
    assert regex.test(data) == (reference is not None)
    found = regex.search(data, groups=False)
    if regex.engine == "dfa":
        assert (found and found.span()) == reference
    elif found is not None:  # `re`'s leftmost-first match: same start, never longer
        assert found.start() == reference[0] and found.end() <= reference[1]


BACKREF_ATOMS = ["a", "b", ".", "[ab]", "x", "^", "$", "\\1", "\\2"]


@st.composite
def backref_patterns(draw):
    parts = ["(" + draw(patterns(True, 1)) + ")", "(" + draw(st.sampled_from(["a*", "b+", "[ab]?", ".*", "a|ab"])) + ")"]
    for _ in range(draw(st.integers(1, 4))):
        parts.append(draw(st.sampled_from(BACKREF_ATOMS)) + draw(st.sampled_from(["", "", "*", "+", "?"])))
    return "".join(parts)


@settings(max_examples=examples(150), deadline=None)
@given(pattern=backref_patterns(), data=st.text(alphabet="abx", max_size=12).map(str.encode),
       ignore_case=st.booleans())
def test_the_budgeted_matcher_agrees_with_re(pattern, data, ignore_case):
    try:
        regex = compile_regex(pattern, True, ignore_case)
    except RegexError:
        return
    program = backtrack.Program(parse(pattern.encode(), extended=True).node, regex.groups, ignore_case, False)
    found = backtrack.search(program, data)
    expected = regex.python.search(data)
    assert found == (expected and expected.span())
    if regex.engine == "backtrack":
        match = regex.search(data)
        assert (match and match.span()) == (expected and expected.span())
        assert re.Match is type(match) or match is None
