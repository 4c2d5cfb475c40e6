"""calc: the safe arithmetic evaluator and JavaScript number formatting."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm.commands.data.calc import MAX_DEPTH, CalcError, safe_eval_arithmetic, tokenize
from onetool_wasm.commands.json_text import format_js_number

from .data_world import fuzz_command, out, run
from .helpers import conformance_test


@pytest.mark.parametrize("expression, expected", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2 ** 3 ** 2", 512), ("-2 ** 2", -4), ("(-2) ** 2", 4),
    ("2 ** -1", 0.5), ("7 // 2", 3), ("-7 // 2", -4), ("7 % 4", 3), ("(-7) % 3", -1), ("7 % -3", 1),
    ("5.5 % 2", 1.5), ("-3 + 5", 2), ("--3", 3), ("+-+3", -3), ("1.", 1), (".5 + .25", 0.75), ("10 / 4", 2.5),
    ("2*3-4/8", 5.5), ("1 - 2 - 3", -4), ("2 ** 0.5", 1.4142135623730951), ("\u00a012\u3000", 12),
    ("5 / " + "9" * 400, 0), ("5 % " + "9" * 400, 5),
])
def test_evaluates(expression, expected):
    assert safe_eval_arithmetic(expression) == expected


@pytest.mark.parametrize("expression, message", [
    ("", "empty expression"), ("   ", "empty expression"), ("2 + abc", "unsupported character: a"),
    ("1e5", "unsupported character: e"), ("1.2.3", "invalid number: 1.2.3"), ("..", "invalid number: .."),
    ("(1", "missing closing ')'"), ("1)", "unexpected trailing input"), ("1 2", "unexpected trailing input"),
    ("2 +", "unexpected end of expression"), ("* 3", "expected number or parenthesized expression"),
    ("()", "expected number or parenthesized expression"),
    ("1 / 0", "result is not finite"), ("0 / 0", "result is not finite"), ("1 // 0", "result is not finite"),
    ("1 % 0", "result is not finite"), ("0 ** -1", "result is not finite"), ("(-8) ** 0.5", "result is not finite"),
    ("10 ** 400", "result is not finite"), ("9" * 400, "result is not finite"),
    ("1 ** " + "9" * 400, "result is not finite"), ("9" * 400 + " - " + "9" * 400, "result is not finite"),
    ("1e308", "unsupported character: e"), ("2 ^ 3", "unsupported character: ^"),
])
def test_errors_use_upstream_wording(expression, message):
    with pytest.raises(CalcError) as caught:
        safe_eval_arithmetic(expression)
    assert str(caught.value) == message


def test_deep_nesting_is_an_error_not_a_crash():
    assert safe_eval_arithmetic("(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH) == 1
    for expression in ("(" * 5000 + "1" + ")" * 5000, "-" * 5000 + "1", "2 **" * 5000 + "1"):
        with pytest.raises(CalcError, match="nests too deeply"):
            safe_eval_arithmetic(expression)


def test_tokenize():
    assert [t.value for t in tokenize("2**3//4%(5)")] == ["2", "**", "3", "//", "4", "%", "(", "5", ")"]


@pytest.mark.parametrize("value, text", [
    (7.0, "7"), (-0.0, "0"), (2.5, "2.5"), (0.1 + 0.2, "0.30000000000000004"), (1e21, "1e+21"),
    (1e20, "100000000000000000000"), (123456789012345680000.0, "123456789012345680000"), (1e-6, "0.000001"),
    (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (-2.5e-10, "-2.5e-10"), (5e-324, "5e-324"),
    (1.7976931348623157e308, "1.7976931348623157e+308"), (1.25e22, "1.25e+22"), (2.0 ** 53, "9007199254740992"),
    (float("inf"), "Infinity"), (float("-inf"), "-Infinity"), (float("nan"), "NaN"),
])
def test_format_js_number(value, text):
    assert format_js_number(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_format_js_number_round_trips(value):
    text = format_js_number(value)
    assert float(text) == value or (value == 0 and text == "0")
    assert not text.endswith(".0") and "e+0" not in text


def test_calc_command():
    assert out(run("calc", "(12", "*", "8)", "/", "3")) == ("32\n", "", 0, "text/plain")
    assert out(run("calc", "10 ** 21")) == ("1e+21\n", "", 0, "text/plain")
    assert out(run("calc", "-0")) == ("0\n", "", 0, "text/plain")
    assert out(run("calc", "1/0")) == ("", "calc: invalid expression: result is not finite", 1, "text/plain")
    assert run("calc").stderr == "calc: usage: calc <expression>"
    assert run("calc", "1+1", stdin=b"x").stderr == "calc: does not accept stdin"


def test_calc_through_the_runtime():
    from .helpers import run_line
    assert run_line("calc 2 ** 0.5") == "1.4142135623730951\n\n[exit:0 | 0ms]"
    assert run_line("calc 7 // 2 && calc 1 % 0") == \
        "3\n\n[error] calc: invalid expression: result is not finite\n\n[exit:1 | 0ms]"


test_conformance = conformance_test("calc")


def test_fuzzed_arguments_never_crash():
    fuzz_command("calc", ["(", ")", "+", "-", "*", "**", "/", "//", "%", "1.5", ".", "1e3", "--"], stdin=st.just(b""))


@given(st.lists(st.sampled_from(list("0123456789.+-*/%() ") + ["**", "//"]), max_size=30).map("".join))
def test_random_expressions_evaluate_or_fail_cleanly(expression):
    try:
        assert math.isfinite(safe_eval_arithmetic(expression))
    except CalcError:
        pass
