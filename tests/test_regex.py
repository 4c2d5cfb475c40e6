"""POSIX BRE/ERE translation (onetool_wasm/regex): GNU's syntax, C-locale bytes, leftmost-longest
matches, GNU's error messages, and the guard against catastrophic backtracking."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from onetool_wasm.regex import nfa as regex_nfa
from onetool_wasm.regex import RegexError, compile_grep, compile_regex, split_patterns
from onetool_wasm.regex.syntax import parse

from .helpers import examples


def lines_matching(pattern, lines, mode="basic", **flags):
    regex = compile_grep((pattern,), mode, **flags)
    return [line for line in lines if regex.test(line)]


def all_matches(pattern, data, extended=False):
    return [m.group(0) for m in compile_regex(pattern, extended).finditer(data)]


SAMPLE = [b"a", b"*a", b"ab", b"a{", b"{1}", b"x^", b"a$b", b"(a)", b"a|b", b"a+b", b"aaa", b"hello world", b""]


# -- basic syntax ----------------------------------------------------------------------
@pytest.mark.parametrize("pattern, expected", [
    ("a\\|b", [b"a", b"*a", b"ab", b"a{", b"a$b", b"(a)", b"a|b", b"a+b", b"aaa"]),
    ("(a)", [b"(a)"]),
    ("a|b", [b"a|b"]),
    ("a+b", [b"a+b"]),
    ("a\\+b", [b"ab"]),
    ("*a", [b"*a"]),
    ("^*", [b"*a"]),
    ("x^", [b"x^"]),
    ("a$b", [b"a$b"]),
    ("\\(a\\)\\1", [b"aaa"]),
    ("a\\{3\\}", [b"aaa"]),
    ("a\\{2,\\}", [b"aaa"]),
    ("^\\(a\\|b\\)$", [b"a"]),
    ("\\<w", [b"hello world"]),
    ("o\\>", [b"hello world"]),
    ("[[:space:]]", [b"hello world"]),
    ("\\{1\\}", [b"{1}"]),
])
def test_basic_regular_expressions_follow_gnu_grep(pattern, expected):
    assert lines_matching(pattern, SAMPLE) == expected


@pytest.mark.parametrize("pattern, expected", [
    ("a|b", [b"a", b"*a", b"ab", b"a{", b"a$b", b"(a)", b"a|b", b"a+b", b"aaa"]),
    ("\\(a\\)", [b"(a)"]),
    ("a{", [b"a{"]),
    ("a{1", []),
    ("a$b", []),
    ("x^", []),
    ("^(a)+$", [b"a", b"aaa"]),
    ("a{2,}", [b"aaa"]),
    ("a{,1}b", [b"ab", b"a$b", b"a|b", b"a+b"]),
    ("(a)\\1", [b"aaa"]),
    (")", [b"(a)"]),
    ("a+?b", [b"ab", b"a$b", b"a|b", b"a+b"]),  # POSIX: (a+)?b, never a lazy quantifier
])
def test_extended_regular_expressions_follow_gnu_grep(pattern, expected):
    assert lines_matching(pattern, SAMPLE, "extended") == expected


def test_a_leading_quantifier_in_ere_applies_to_nothing():
    assert lines_matching("*a", [b"a", b"b", b"*a"], "extended") == [b"a", b"*a"]


def test_fixed_strings_are_literal():
    assert lines_matching("a.b", [b"a.b", b"axb"], "fixed") == [b"a.b"]
    assert lines_matching("\\", [b"back\\slash", b"x"], "fixed") == [b"back\\slash"]


def test_empty_pattern_matches_every_line_and_newline_separates_patterns():
    assert lines_matching("", [b"", b"x"]) == [b"", b"x"]
    assert split_patterns(["a\nb", "c"]) == ("a", "b", "c")
    assert [line for line in [b"a", b"b", b"c"] if compile_grep(("a", "c")).test(line)] == [b"a", b"c"]


def test_back_references_are_numbered_per_pattern():
    regex = compile_grep(("\\(a\\)\\1", "\\(b\\)\\1"))
    assert [s for s in [b"aa", b"bb", b"ab"] if regex.test(s)] == [b"aa", b"bb"]


# -- brackets ------------------------------------------------------------------------------
@pytest.mark.parametrize("pattern, expected", [
    ("[]a]", [b"]", b"a"]),
    ("[^]a]", [b"b", b"\\", b"-"]),
    ("[\\]", [b"\\"]),
    ("[a-]", [b"a", b"-"]),
    ("[[:alpha:]]", [b"a", b"b"]),
    ("[[:punct:]]", [b"]", b"\\", b"-"]),
    ("[[.-.]]", [b"-"]),
    ("[[=a=]]", [b"a"]),
])
def test_bracket_expressions(pattern, expected):
    assert [s for s in [b"]", b"a", b"b", b"\\", b"-"] if compile_grep((f"^{pattern}$",)).test(s)] == expected


# -- C locale --------------------------------------------------------------------------------
def test_dot_matches_one_byte_and_case_folding_is_ascii_only():
    lines = ["É".encode(), "é".encode(), b"E", b"e"]
    assert lines_matching("^.$", lines) == [b"E", b"e"]
    assert lines_matching("^\\w$", lines) == [b"E", b"e"]
    assert lines_matching("é", lines, ignore_case=True) == ["é".encode()]
    assert lines_matching("e", lines, ignore_case=True) == [b"E", b"e"]
    assert lines_matching("^..$", lines) == ["É".encode(), "é".encode()]


def test_word_and_line_options():
    lines = [b"foo", b"foobar", b"foo_bar", b"foo-bar", b"*a"]
    assert lines_matching("foo", lines, word=True) == [b"foo", b"foo-bar"]
    assert lines_matching("foo", lines, line=True) == [b"foo"]
    assert lines_matching("", lines + [b""], word=True) == [b"*a", b""]  # GNU: no word byte around


# -- leftmost-longest ------------------------------------------------------------------------
def test_alternation_takes_the_longest_match_like_posix():
    assert all_matches("a|ab", b"ab abc", extended=True) == [b"ab", b"ab"]
    assert all_matches("(x|xy)(z|yz)?", b"xyz", extended=True) == [b"xyz"]
    match = compile_regex("(a|ab)(c|bcd)", extended=True).search(b"abcd")
    assert (match.group(0), match.start(), match.end()) == (b"abcd", 0, 4)


def test_a_dot_branch_keeps_the_longer_branches_beside_it():
    # GNU grep -o 'x\(.\|ab\)y' on "xaby xcy" prints xaby and xcy (a one-byte `.` branch was
    # once merged with the others into one byte set, losing `ab`).
    assert all_matches(r"x\(.\|ab\)y", b"xaby xcy") == [b"xaby", b"xcy"]
    assert all_matches("x(ab|.|c)y", b"xaby xcy", extended=True) == [b"xaby", b"xcy"]
    assert all_matches("x(.|[ab])y", b"xay xcy", extended=True) == [b"xay", b"xcy"]


def test_empty_matches_follow_gnu_rules():
    assert [m.span() for m in compile_regex("x*").finditer(b"abxd")] == [(0, 0), (1, 1), (2, 3), (4, 4)]


def test_sed_escapes_only_in_sed_mode():
    assert compile_regex("a\\nb", sed=True).test(b"a\nb")
    assert compile_regex("a\\tb", sed=True).test(b"a\tb")
    assert compile_regex("a\\nb").test(b"anb")
    assert compile_regex("^b", sed=True, multiline=True).test(b"a\nb")
    assert not compile_regex("^b", sed=True).test(b"a\nb")
    assert compile_regex("a$", sed=True).test(b"a") and not compile_regex("a$", sed=True).test(b"a\n")
    assert compile_regex("[\\n]", sed=True).test(b"\n") and not compile_regex("[\\n]", sed=True).test(b"n")
    assert compile_regex("[\\n]").test(b"n") and compile_regex("[\\n]").test(b"\\")


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize("pattern, mode, message", [
    ("\\(a", "basic", "Unmatched ( or \\("),
    ("a\\)", "basic", "Unmatched ) or \\)"),
    ("(a", "extended", "Unmatched ( or \\("),
    ("[a", "basic", "Unmatched [, [^, [:, [., or [="),
    ("[[:nope:]]", "basic", "Invalid character class name"),
    ("[:alpha:]", "basic", "character class syntax is [[:space:]], not [:space:]"),
    ("[b-a]", "basic", "Invalid range end"),
    ("a\\", "basic", "Trailing backslash"),
    ("\\1", "basic", "Invalid back reference"),
    ("\\(a\\1\\)", "basic", "Invalid back reference"),
    ("a\\{1", "basic", "Unmatched \\{"),
    ("a\\{x\\}", "basic", "Invalid content of \\{\\}"),
    ("a{2,1}", "extended", "Invalid content of \\{\\}"),
    ("a{99999}", "extended", "Regular expression too big"),
])
def test_invalid_patterns_raise_gnu_messages(pattern, mode, message):
    with pytest.raises(RegexError) as caught:
        compile_grep((pattern,), mode)
    assert str(caught.value) == message


# -- catastrophic backtracking guard ---------------------------------------------------------------
@pytest.mark.parametrize("pattern, mode", [("(a+)+b", "extended"), ("\\(a*\\)*b", "basic"),
                                           ("(a|aa)+$", "extended"), ("(\\w+\\s?)+$", "extended")])
def test_nested_repetition_runs_in_linear_time(pattern, mode):
    regex = compile_grep((pattern,), mode)
    assert regex.linear_only and regex.buffer_pattern() is None
    assert not regex.test(b"a" * 3000 + b"!")  # exponential for a backtracking engine


def test_nested_repetition_with_a_back_reference_is_refused():
    with pytest.raises(RegexError) as caught:
        compile_grep(("\\(a*\\)*\\1",))
    assert "too complex" in str(caught.value)


def test_bounded_repetition_stays_on_the_fast_engine():
    regex = compile_grep(("([0-9]{1,3}\\.){3}[0-9]{1,3}",), "extended")
    assert not regex.linear_only and regex.test(b"ip 10.0.0.1 ok")


@pytest.mark.parametrize("pattern, nested", [
    ("([a-z]+\\.)+", False),  # the repeat ends where a byte it cannot match begins
    ("(ab|cd)+", False),  # alternatives that start differently
    ("(a|b)+z", False),  # single bytes: one set
    ("((ab)*c)*", False),
    ("(a+|b)+c", True),
    ("(a*b*)*", True),
    ("(.*,)+x", True),
    ("(a|ab)*c", True),
    ("(A|a)+", False),
])
def test_ambiguous_nesting_is_detected(pattern, nested):
    assert compile_grep((pattern,), "extended")._nested is nested
    if nested:
        assert compile_grep((pattern,), "extended").linear_only


def test_case_folding_counts_when_alternatives_start_alike():
    assert not compile_grep(("(Ab|ac)+",), "extended")._nested
    assert compile_grep(("(Ab|ac)+",), "extended", ignore_case=True)._nested


@pytest.mark.parametrize("pattern, engine", [
    ("ERROR", "re"),  # R1: fixed-size pieces
    ("(ERROR|WARN) [0-9]{2}", "re"),
    ("^[0-9]+ [a-z]+$", "re"),  # R2: anchored, every repeat stops where its follower starts
    ("id=[0-9]+ ", "re"),  # R3: no attempt can start inside a repeat's run
    ("[0-9]+", "re"),  # a repeat that ends the pattern never backtracks
    ("^.*foo", "re"),  # R4: anchored, one repeat
    ("(ab|cd)+", "re"),
    ("a.*a.*a.*a.*b", "dfa"),
    (".*.*=.*", "dfa"),
    ("[a-z]*[a-z]*[a-z]*!", "dfa"),
    ("x.*y", "dfa"),  # quadratic in `re` on a long line of x
    ("[0-9]+ ", "dfa"),
    ("(a|aa)*c", "dfa"),
    ("(a|b)+z", "dfa"),
    ("(x+x+)+y", "dfa"),
    ("(a)\\1", "re"),
    ("^(a+)\\1$", "backtrack"),
    ("(.*)(.*)\\2", "backtrack"),
])
def test_the_engine_rule(pattern, engine):
    assert compile_grep((pattern,), "extended").engine == engine


def test_compiled_patterns_are_cached():
    assert compile_grep(("abc",), "basic") is compile_grep(("abc",), "basic")
    assert compile_regex("x", True) is compile_regex("x", True)


# -- properties --------------------------------------------------------------------------------------
ATOMS = st.sampled_from(["a", "b", ".", "[ab]", "[^a]", "\\w", "x"])


@st.composite
def simple_ere(draw, depth=0):
    """Random EREs without back-references, for comparing the two engines."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        if depth < 2 and draw(st.booleans()):
            inner = "|".join(draw(st.lists(simple_ere(depth + 1), min_size=1, max_size=3)))
            atom = f"({inner})"
        else:
            atom = draw(ATOMS)
        parts.append(atom + draw(st.sampled_from(["", "", "*", "+", "?", "{1,2}"])))
    return "".join(parts)


@settings(max_examples=examples(300), deadline=None)
@given(pattern=simple_ere(), data=st.text(alphabet="abx-", max_size=10).map(str.encode))
def test_nfa_and_python_agree_on_whether_a_line_matches(pattern, data):
    parsed = parse(pattern.encode(), extended=True)
    program = regex_nfa.compile_program(parsed.node, ignore_case=False)
    python = compile_regex(pattern, extended=True).python
    assert (regex_nfa.search(program, data) is not None) == (python.search(data) is not None)


@settings(max_examples=examples(300), deadline=None)
@given(pattern=simple_ere(), data=st.text(alphabet="abx-", max_size=10).map(str.encode))
def test_nfa_match_is_leftmost_and_at_least_as_long_as_pythons(pattern, data):
    parsed = parse(pattern.encode(), extended=True)
    found = regex_nfa.search(regex_nfa.compile_program(parsed.node, ignore_case=False), data)
    python = compile_regex(pattern, extended=True).python.search(data)
    if python is None:
        assert found is None
    else:
        assert found[0] == python.start() and found[1] >= python.end()
        assert compile_regex(pattern, extended=True).python.fullmatch(data, found[0], found[1])


@settings(max_examples=examples(200), deadline=None)
@given(pattern=st.text(alphabet="ab\\()[]{}|*+?.^$-:1,", max_size=8), extended=st.booleans())
def test_any_pattern_compiles_or_raises_regex_error(pattern, extended):
    try:
        regex = compile_regex(pattern, extended)
    except RegexError as error:
        assert str(error)
        return
    assert isinstance(regex.python, re.Pattern)
    regex.test(b"ab(a)[b]{1}")
