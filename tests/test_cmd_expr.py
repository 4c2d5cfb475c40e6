"""`expr` against GNU coreutils 9.1: the recorded cases (tests/data/expr_corpus.json,
tools/record_expr.py) replayed through the bash language with exact stdout, exit status and
stderr, a few direct checks (options, limits), and property tests that random token lists,
deep nesting included, never crash and finish quickly."""
from __future__ import annotations

import asyncio
import base64
import json
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import MemoryVFS, create_agent_cli
from onetool_wasm.commands import create_command_registry
from onetool_wasm.commands.data import expr as expr_module

from .helpers import fuzz_settings

CORPUS = json.loads((Path(__file__).parent / "data" / "expr_corpus.json").read_text(encoding="utf-8"))

# Cases where we knowingly differ from GNU (strict xfail).
KNOWN_DIFFERENCES: dict[str, str] = {
    "expr-regex-nested-star-group": "a group inside a starred group takes Python re's last, empty "
                                    "iteration ('') where glibc keeps the last non-empty one ('aa')",
}


def expected_stdout(case: dict) -> bytes:
    if "stdout_b64" in case:
        return base64.b64decode(case["stdout_b64"])
    return case["stdout"].encode("utf-8")


async def run(line: str, world: dict[str, str] | None = None):
    vfs = MemoryVFS()
    for path, text in (world or {}).items():
        await vfs.mkdir(path.rsplit("/", 1)[0] or "/", True)
        await vfs.write_bytes(path, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs, grammar="bash")
    return await runtime.run_detailed(line)


def run_line(line: str):
    return asyncio.run(run(line))


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case["id"],
                 marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])]
                 if case["id"] in KNOWN_DIFFERENCES else [])
    for case in CORPUS["cases"]])
def test_recorded_gnu_case(case):
    execution = asyncio.run(run(CORPUS["prefix"] + case["line"], CORPUS["world"]))
    # The run's stderr loses its final newline (the runtime strips it); otherwise exact.
    got = (execution.stdout, execution.exit_code, execution.stderr)
    want = (expected_stdout(case), case["exit_code"], case["stderr"].rstrip("\n"))
    assert got == want, case["line"]


def test_the_corpus_covers_every_operator_and_error():
    assert len(CORPUS["cases"]) >= 120
    lines = " ".join(case["line"] for case in CORPUS["cases"])
    for word in ("'|'", "'&'", "'<'", "'<='", " = ", " == ", "'!='", "'>='", "'>'", " + ", " - ", "'*'",
                 " / ", " % ", " : ", "match ", "substr ", "index ", "length ", "expr + ", "'('"):
        assert word in lines, word
    errors = {case["stderr"] for case in CORPUS["cases"]}
    for message in ("expr: syntax error: unexpected argument '2'\n", "expr: syntax error: missing argument after '+'\n",
                    "expr: non-integer argument\n", "expr: division by zero\n"):
        assert message in errors, message
    assert {case["exit_code"] for case in CORPUS["cases"]} == {0, 1, 2}


def test_registered_in_the_data_group():
    spec = create_command_registry().get("expr")
    assert spec.group == "data" and spec.kind_for(["1"]) == "read"


# -- direct checks ---------------------------------------------------------------------------------

def test_help_and_version():
    shown = run_line("expr --help")
    assert shown.exit_code == 0 and shown.stdout.startswith(b"Usage: expr EXPRESSION\n")
    version = run_line("expr --version")
    assert version.exit_code == 0 and version.stdout.startswith(b"expr ") and version.stderr == ""
    assert run_line("expr --vers").stdout == version.stdout
    assert run_line("expr --version=1").stdout == b"--version=1\n"
    assert run_line("expr -- --version").stdout == b"--version\n"


def test_stdin_is_ignored():
    assert run_line("echo 5 | expr 2 + 2").stdout == b"4\n"


def test_exit_status_drives_shell_logic():
    assert run_line("if expr abc : 'a' >/dev/null; then echo yes; fi").stdout == b"yes\n"
    assert run_line("expr 1 / 0 2>/dev/null; echo $?").stdout == b"2\n"


def test_nesting_within_the_limit_is_evaluated():
    depth = expr_module.MAX_DEPTH - 1  # the whole expression is one level
    result = run_line("expr " + "'(' " * depth + "7" + " ')'" * depth)
    assert (result.stdout, result.exit_code) == (b"7\n", 0)
    result = run_line("expr " + "length " * depth + "abc")
    assert (result.stdout, result.exit_code) == (b"1\n", 0)


def test_nesting_beyond_the_limit_is_a_clear_error():
    for tokens in (["("] * 5000 + ["1"] + [")"] * 5000, ["length"] * 5000 + ["x"],
                   ["match"] * 3000 + ["a"] * 3001, ["substr"] * 2000 + ["1"] * 6000):
        started = time.monotonic()
        execution = asyncio.run(run_tokens(tokens))
        assert execution.exit_code == 3, execution.stderr
        assert execution.stderr.startswith("expr: expression nests too deeply"), execution.stderr
        assert time.monotonic() - started < 15


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


@pytest.mark.parametrize("unit,middle,close", [
    (["("], ["7"], [")"]),
    (["length"], ["abc"], []),
    (["match", "("], ["a"], [")", "a"]),
    (["(", "1", "|", "1", "&", "1", "=", "1", "+", "1", "*", "1", ":"], ["1"], [")"]),
])
def test_the_depth_limit_bounds_the_python_stack(unit, middle, close):
    """Three frames a level at most: under a recursion limit of 3 x MAX_DEPTH (plus a margin
    for the matcher), the deepest accepted expression evaluates and a deeper one is refused."""
    def words(count: int) -> list[bytes]:
        return [word.encode() for word in unit * count + middle + close * count]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_stack_depth() + 3 * expr_module.MAX_DEPTH + 60)
    try:
        accepted = max(count for count in range(expr_module.MAX_DEPTH + 1)
                       if _fits(words(count)))
        assert accepted >= expr_module.MAX_DEPTH // 7
        with pytest.raises(expr_module.ExprError) as caught:
            expr_module.evaluate(words(expr_module.MAX_DEPTH + 1))
        assert caught.value.status == 3
    finally:
        sys.setrecursionlimit(limit)


def _fits(words: list[bytes]) -> bool:
    try:
        expr_module.evaluate(words)
    except expr_module.ExprError as error:
        assert error.status == 3 and "nests too deeply" in str(error), error
        return False
    return True


def test_big_integers():
    assert expr_module.evaluate([b"9" * 5000, b"+", b"1"]) == 10 ** 5000
    assert expr_module.to_bytes(10 ** 5000 - 1) == b"9" * 5000
    assert expr_module.to_bytes(-(10 ** 9000)) == b"-1" + b"0" * 9000
    assert expr_module.evaluate([b"1" + b"0" * 6000, b"/", b"1" + b"0" * 5990]) == 10 ** 10
    assert expr_module.evaluate([b"0" * 30000 + b"12", b"=", b"12"]) == 1  # compared as text: no limit
    with pytest.raises(expr_module.ExprError) as caught:
        expr_module.evaluate([b"9" * (expr_module.MAX_DIGITS + 1), b"+", b"1"])
    assert caught.value.status == 3
    with pytest.raises(expr_module.ExprError):
        expr_module.evaluate([b"9" * 15000, b"*", b"9" * 15000])


def test_quoting_of_words_in_messages():
    assert expr_module.quote(b"a'b\\c\x01\xff") == "'a\\'b\\\\c\\001\\377'"


def test_empty_range_rewrite_keeps_other_brackets():
    assert expr_module.evaluate([b"-b", b":", b"[z-a-]*"]) == 1
    assert expr_module.evaluate([b"b", b":", b"[^z-a]"]) == 1
    assert expr_module.evaluate([b"abc", b":", b"[[:alpha:]]*"]) == 3
    assert expr_module.evaluate([b"x]", b":", b"[^]]*"]) == 1
    assert expr_module.evaluate([b"b", b":", b"[[.z.]-a]\\|b"]) == 1


# -- properties: random token lists never crash and finish quickly -------------------------------------

TOKENS = ["|", "&", "<", "<=", "=", "==", "!=", ">=", ">", "+", "-", "*", "/", "%", ":", "(", ")",
          "match", "substr", "index", "length", "--", "--help", "0", "-0", "00", "1", "-1", "007", "2", "+5",
          "99999999999999999999999", "-18446744073709551616", "", "a", "abc", "é", "a'b", "\\(", "\\)",
          ".*", "\\(.*\\)", "[0-9]*", "[", "[z-a]", "\\{1\\}", "a\\{2,1\\}", "\\1", "\\(a\\)\\1", "*a", "^a", "a$",
          "[[:alpha:]]*", "x\\|y", "\\(a*\\)*b"]


async def run_tokens(tokens: list[str]):
    runtime = await create_agent_cli(vfs=MemoryVFS(), grammar="bash")
    quoted = " ".join("'" + token.replace("'", "'\\''") + "'" for token in tokens)
    return await runtime.run_detailed("expr " + quoted)


def check_tokens(tokens: list[str]) -> None:
    started = time.monotonic()
    execution = asyncio.run(run_tokens(tokens))
    assert "internal runtime error" not in execution.stderr, (tokens, execution.stderr)
    assert execution.exit_code in (0, 1, 2, 3), (tokens, execution.exit_code, execution.stderr)
    assert (execution.exit_code > 1) == bool(execution.stderr), (tokens, execution.stderr)
    assert time.monotonic() - started < 10, tokens


@fuzz_settings(300)
@given(st.lists(st.one_of(st.sampled_from(TOKENS), st.integers(-10 ** 30, 10 ** 30).map(str),
                          st.text(max_size=5)), max_size=12))
def test_random_token_lists_never_crash(tokens):
    check_tokens(tokens)


@fuzz_settings(40)
@given(st.integers(1, 3000), st.sampled_from(["(", "length", "match", "index", "substr", "+", "-", "0 |", "1 &"]),
       st.lists(st.sampled_from(TOKENS), max_size=4))
def test_deeply_nested_token_lists_never_crash(depth, opener, tail):
    tokens = opener.split() * depth + ["1"] + (tail or [")"] * depth)
    check_tokens(tokens)
