"""bash patterns (onetool_wasm.shell.patterns) and brace sequences (onetool_wasm.shell.braces).

Expected values were recorded from GNU bash 5.2 (LC_ALL=C): `[[ $t == $p ]]` for matching,
`${v#$p}`... for removal and replacement, `w=( {a..b} )` for sequences.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm.shell.braces import brace_sequence
from onetool_wasm.shell.patterns import (glob_segment_matcher, has_glob, literal_text, match, remove_prefix,
                                         remove_suffix, replace)
from onetool_wasm.shell.state import ShellError


def unquoted(text: str) -> list[tuple[str, bool]]:
    return [(text, False)]


# (pattern, text, 1 when bash matched)
MATCHES = [
    ('[]a]', ']', 1),
    ('[]a]', 'a', 1),
    ('[]a]', 'b', 0),
    ('[!]]', ']', 0),
    ('[!]]', 'x', 1),
    ('[a-]', '-', 1),
    ('[a-]', 'b', 0),
    ('[-a]', '-', 1),
    ('\\*', '*', 1),
    ('\\*', 'a', 0),
    ('*', '', 1),
    ('?', '', 0),
    ('[z-a]', 'm', 0),
    ('[z-a]', 'z', 0),
    ('[a-z', 'a', 0),
    ('[a-z', '[a-z', 1),
    ('[[:alpha:]', 'a', 0),
    ('[[:alpha:]', '[[:alpha:]', 0),
    ('[[:alpha:]]', 'a', 1),
    ('[[:alpha:]]', '1', 0),
    ('[[:alpha:]]', '[', 0),
    ('[[:foo:]]', 'f', 0),
    ('[[:foo:]]', ']', 0),
    ('[[.a.]]', 'a', 1),
    ('[[=a=]]', 'a', 1),
    ('[[.-.]]', '-', 1),
    ('[]', '[]', 1),
    ('[!]', '[!]', 1),
    ('[!]', 'a', 0),
    ('[!a', '[!a', 1),
    ('[\\]]', ']', 1),
    ('[\\]a]', '\\', 0),
    ('[a\\-z]', '-', 1),
    ('[a\\-z]', 'b', 0),
    ('[a\\-z]', 'm', 0),
    ('ab\\', 'ab\\', 1),
    ('ab\\', 'ab', 0),
    ('[[:digit:][:upper:]]', 'A', 1),
    ('[[:digit:][:upper:]]', '5', 1),
    ('[[:digit:][:upper:]]', 'a', 0),
    ('[![:space:]]', ' ', 0),
    ('[![:space:]]', 'x', 1),
    ('[[:punct:]]', '!', 1),
    ('[[:punct:]]', '_', 1),
    ('[[:xdigit:]]', 'f', 1),
    ('[[:xdigit:]]', 'g', 0),
    ('[[:alnum:]]', '_', 0),
    ('[a-c-e]', 'd', 0),
    ('[a-c-e]', '-', 1),
    ('[a-c-e]', 'e', 1),
    ('[%--]', '+', 1),
    ('[%--]', '-', 1),
    ('[*]', '*', 1),
    ('[*]', 'a', 0),
    ('[?]', 'a', 0),
    ('[^a]', 'b', 1),
    ('[^a]', 'a', 0),
    ('[!a-c]x', 'dx', 1),
    ('a*b*c', 'abc', 1),
    ('a*b*c', 'aXbYc', 1),
    ('a*b*c', 'aXbYcZ', 0),
    ('*.tar.gz', 'x.tar.gz', 1),
    ('*.tar.gz', '.tar.gz', 1),
    ('[a]]', 'a]', 1),
    ('[a]]', 'a', 0),
    ('[[]', '[', 1),
    ('[[]]', '[]', 1),
    ('x[', 'x[', 1),
    ('[', '[', 1),
    (']', ']', 1),
    ('[!\\]]', ']', 0),
    ('[!\\]]', 'a', 1),
    ('[[:alpha:]-z]', '-', 1),
    ('[[:alpha:]-z]', 'y', 1),
    ('[a-[:alpha:]]', '-', 0),
    ('[]-a]', '^', 1),
    ('[]-a]', ']', 1),
    ('[]-a]', 'b', 0),
    ('[^]a]', 'b', 1),
    ('[\\!a]', '!', 1),
    ('[\\!a]', 'b', 0),
    ('[\\^a]', '^', 1),
    ('[a^]', '^', 1),
    ('[\\a]', '\\', 0),
    ('[\\a]', 'a', 1),
    ('[[:]', ':', 1),
    ('[[:]', '[:', 0),
    ('[:alpha:]', 'a', 1),
    ('[:alpha:]', ':', 1),
    ('*[', 'a[', 1),
    ('[.]', '.', 1),
]


@pytest.mark.parametrize("pattern, text, expected", MATCHES, ids=[f"{p!r}-{t!r}" for p, t, _ in MATCHES])
def test_match_recorded(pattern, text, expected):
    assert match(unquoted(pattern), text) is bool(expected)


# Quoted pieces match literally: [[ $t == a"*"b ]] and the like.
QUOTED = [
    ([("a", False), ("*", True), ("b", False)], "a*b", True),
    ([("a", False), ("*", True), ("b", False)], "axb", False),
    ([("[", False), ("]", True), ("]", False)], "]", True),
    ([("[a", False), ("-", True), ("z]", False)], "-", True),
    ([("[a", False), ("-", True), ("z]", False)], "m", False),
    ([("[", False), ("!", True), ("a]", False)], "!", True),
    ([("[", False), ("!", True), ("a]", False)], "x", False),
    ([("[", True), ("*", False)], "[", True),
    ([("a", False), ("?", True)], "a?", True),
    ([("a", False), ("?", True)], "ab", False),
    ([("*", True)], "zz", False),
    ([("*", False)], "zz", True),
]


@pytest.mark.parametrize("pieces, text, expected", QUOTED)
def test_quoted_pieces_are_literal(pieces, text, expected):
    assert match(pieces, text) is expected


def test_nocasematch():
    # recorded with shopt -s nocasematch: letters and ranges fold, classes do not
    cases = [("A", "[a-c]", True), ("a", "[A-C]", True), ("A", "[[:lower:]]", False), ("a", "[[:upper:]]", False),
             ("B", "[!b]", False), ("b", "[!B]", False), ("Z", "[Y-z]", True), ("_", "[A-z]", False),
             ("\u00e9", "\u00c9", False), ("ABC", "a*", True), ("ABC", "ab?", True)]
    for text, pattern, expected in cases:
        assert match(unquoted(pattern), text, nocase=True) is expected, (text, pattern)
    assert match(unquoted("[A-z]"), "_") is True
    # bash applies nocasematch to ${v/p/r} but not to ${v#p}
    assert replace("ABC", unquoted("b"), "x", "/", nocase=True) == "AxC"
    assert replace("ABC", unquoted("[a-c]"), "x", "//", nocase=True) == "xxx"
    assert remove_prefix("ABC", unquoted("a"), False) == "ABC"


# (value, pattern, [${v#p}, ${v##p}, ${v%p}, ${v%%p}, ${v/p/<&>}, ${v//p/<&>}, ${v/#p/<&>}, ${v/%p/<&>}])
SUBSTITUTIONS = [
    ('abcabc', '', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', '<>abcabc', 'abcabc<>']),
    ('abcabc', '*', ['abcabc', '', 'abcabc', '', '<abcabc>', '<abcabc>', '<abcabc>', '<abcabc>']),
    ('abcabc', '?', ['bcabc', 'bcabc', 'abcab', 'abcab', '<a>bcabc', '<a><b><c><a><b><c>', '<a>bcabc', 'abcab<c>']),
    ('abcabc', 'b', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'a<b>cabc', 'a<b>ca<b>c', 'abcabc', 'abcabc']),
    ('abcabc', '[ac]', ['bcabc', 'bcabc', 'abcab', 'abcab', '<a>bcabc', '<a>b<c><a>b<c>', '<a>bcabc', 'abcab<c>']),
    ('abcabc', '*.', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc']),
    ('abcabc', '.*', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc']),
    ('abcabc', 'b*', ['abcabc', 'abcabc', 'abca', 'a', 'a<bcabc>', 'a<bcabc>', 'abcabc', 'a<bcabc>']),
    ('abcabc', '*b', ['cabc', 'c', 'abcabc', 'abcabc', '<abcab>c', '<abcab>c', '<abcab>c', 'abcabc']),
    ('abcabc', '*/', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc']),
    ('abcabc', '/*', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc']),
    ('abcabc', '\\*', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc']),
    ('abcabc', 'x', ['abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc', 'abcabc']),
    ('abcabc', '[!a]', ['abcabc', 'abcabc', 'abcab', 'abcab', 'a<b>cabc', 'a<b><c>a<b><c>', 'abcabc', 'abcab<c>']),
    ('file.tar.gz', '', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', '<>file.tar.gz', 'file.tar.gz<>']),
    ('file.tar.gz', '*', ['file.tar.gz', '', 'file.tar.gz', '', '<file.tar.gz>', '<file.tar.gz>', '<file.tar.gz>', '<file.tar.gz>']),
    ('file.tar.gz', '?', ['ile.tar.gz', 'ile.tar.gz', 'file.tar.g', 'file.tar.g', '<f>ile.tar.gz', '<f><i><l><e><.><t><a><r><.><g><z>', '<f>ile.tar.gz', 'file.tar.g<z>']),
    ('file.tar.gz', 'b', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '[ac]', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.t<a>r.gz', 'file.t<a>r.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '*.', ['tar.gz', 'gz', 'file.tar.gz', 'file.tar.gz', '<file.tar.>gz', '<file.tar.>gz', '<file.tar.>gz', 'file.tar.gz']),
    ('file.tar.gz', '.*', ['file.tar.gz', 'file.tar.gz', 'file.tar', 'file', 'file<.tar.gz>', 'file<.tar.gz>', 'file.tar.gz', 'file<.tar.gz>']),
    ('file.tar.gz', 'b*', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '*b', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '*/', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '/*', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '\\*', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', 'x', ['file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz', 'file.tar.gz']),
    ('file.tar.gz', '[!a]', ['ile.tar.gz', 'ile.tar.gz', 'file.tar.g', 'file.tar.g', '<f>ile.tar.gz', '<f><i><l><e><.><t>a<r><.><g><z>', '<f>ile.tar.gz', 'file.tar.g<z>']),
    ('', '', ['', '', '', '', '', '', '<>', '<>']),
    ('', '*', ['', '', '', '', '<>', '<>', '<>', '<>']),
    ('', '?', ['', '', '', '', '', '', '', '']),
    ('', 'b', ['', '', '', '', '', '', '', '']),
    ('', '[ac]', ['', '', '', '', '', '', '', '']),
    ('', '*.', ['', '', '', '', '', '', '', '']),
    ('', '.*', ['', '', '', '', '', '', '', '']),
    ('', 'b*', ['', '', '', '', '', '', '', '']),
    ('', '*b', ['', '', '', '', '', '', '', '']),
    ('', '*/', ['', '', '', '', '', '', '', '']),
    ('', '/*', ['', '', '', '', '', '', '', '']),
    ('', '\\*', ['', '', '', '', '', '', '', '']),
    ('', 'x', ['', '', '', '', '', '', '', '']),
    ('', '[!a]', ['', '', '', '', '', '', '', '']),
    ('/usr/local/bin/', '', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '<>/usr/local/bin/', '/usr/local/bin/<>']),
    ('/usr/local/bin/', '*', ['/usr/local/bin/', '', '/usr/local/bin/', '', '</usr/local/bin/>', '</usr/local/bin/>', '</usr/local/bin/>', '</usr/local/bin/>']),
    ('/usr/local/bin/', '?', ['usr/local/bin/', 'usr/local/bin/', '/usr/local/bin', '/usr/local/bin', '</>usr/local/bin/', '</><u><s><r></><l><o><c><a><l></><b><i><n></>', '</>usr/local/bin/', '/usr/local/bin</>']),
    ('/usr/local/bin/', 'b', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/<b>in/', '/usr/local/<b>in/', '/usr/local/bin/', '/usr/local/bin/']),
    ('/usr/local/bin/', '[ac]', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/lo<c>al/bin/', '/usr/lo<c><a>l/bin/', '/usr/local/bin/', '/usr/local/bin/']),
    ('/usr/local/bin/', '*.', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/']),
    ('/usr/local/bin/', '.*', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/']),
    ('/usr/local/bin/', 'b*', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/', '/usr/local/', '/usr/local/<bin/>', '/usr/local/<bin/>', '/usr/local/bin/', '/usr/local/<bin/>']),
    ('/usr/local/bin/', '*b', ['in/', 'in/', '/usr/local/bin/', '/usr/local/bin/', '</usr/local/b>in/', '</usr/local/b>in/', '</usr/local/b>in/', '/usr/local/bin/']),
    ('/usr/local/bin/', '*/', ['usr/local/bin/', '', '/usr/local/bin', '', '</usr/local/bin/>', '</usr/local/bin/>', '</usr/local/bin/>', '</usr/local/bin/>']),
    ('/usr/local/bin/', '/*', ['usr/local/bin/', '', '/usr/local/bin', '', '</usr/local/bin/>', '</usr/local/bin/>', '</usr/local/bin/>', '</usr/local/bin/>']),
    ('/usr/local/bin/', '\\*', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/']),
    ('/usr/local/bin/', 'x', ['/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/', '/usr/local/bin/']),
    ('/usr/local/bin/', '[!a]', ['usr/local/bin/', 'usr/local/bin/', '/usr/local/bin', '/usr/local/bin', '</>usr/local/bin/', '</><u><s><r></><l><o><c>a<l></><b><i><n></>', '</>usr/local/bin/', '/usr/local/bin</>']),
    ('a*b', '', ['a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', '<>a*b', 'a*b<>']),
    ('a*b', '*', ['a*b', '', 'a*b', '', '<a*b>', '<a*b>', '<a*b>', '<a*b>']),
    ('a*b', '?', ['*b', '*b', 'a*', 'a*', '<a>*b', '<a><*><b>', '<a>*b', 'a*<b>']),
    ('a*b', 'b', ['a*b', 'a*b', 'a*', 'a*', 'a*<b>', 'a*<b>', 'a*b', 'a*<b>']),
    ('a*b', '[ac]', ['*b', '*b', 'a*b', 'a*b', '<a>*b', '<a>*b', '<a>*b', 'a*b']),
    ('a*b', '*.', ['a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b']),
    ('a*b', '.*', ['a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b']),
    ('a*b', 'b*', ['a*b', 'a*b', 'a*', 'a*', 'a*<b>', 'a*<b>', 'a*b', 'a*<b>']),
    ('a*b', '*b', ['', '', 'a*', '', '<a*b>', '<a*b>', '<a*b>', '<a*b>']),
    ('a*b', '*/', ['a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b']),
    ('a*b', '/*', ['a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b']),
    ('a*b', '\\*', ['a*b', 'a*b', 'a*b', 'a*b', 'a<*>b', 'a<*>b', 'a*b', 'a*b']),
    ('a*b', 'x', ['a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b', 'a*b']),
    ('a*b', '[!a]', ['a*b', 'a*b', 'a*', 'a*', 'a<*>b', 'a<*><b>', 'a*b', 'a*<b>']),
]


@pytest.mark.parametrize("value, pattern, expected", SUBSTITUTIONS,
                         ids=[f"{v!r}-{p!r}" for v, p, _ in SUBSTITUTIONS])
def test_removal_and_replacement_recorded(value, pattern, expected):
    pieces = unquoted(pattern)
    amp = unquoted("<&>")   # unquoted: `&` is the matched text (bash 5.2 patsub_replacement)
    got = [remove_prefix(value, pieces, False), remove_prefix(value, pieces, True),
           remove_suffix(value, pieces, False), remove_suffix(value, pieces, True),
           replace(value, pieces, amp, "/"), replace(value, pieces, amp, "//"),
           replace(value, pieces, amp, "/#"), replace(value, pieces, amp, "/%")]
    assert got == expected


def test_replacement_forms():
    v = "abcabc"
    # recorded: ${v/b/[&]} ${v/b/"[&]"} ${v/b/x\&y} ${v/b/x\\&y} ${v/b/\a} ${v//[ac]/<&&>}
    assert replace(v, unquoted("b"), unquoted("[&]"), "/") == "a[b]cabc"
    assert replace(v, unquoted("b"), [("[&]", True)], "/") == "a[&]cabc"
    assert replace(v, unquoted("b"), unquoted("x\\&y"), "/") == "ax&ycabc"
    assert replace(v, unquoted("b"), unquoted("x\\\\&y"), "/") == "ax\\bycabc"
    assert replace(v, unquoted("b"), unquoted("\\a"), "/") == "aacabc"
    assert replace(v, unquoted("[ac]"), unquoted("<&&>"), "//") == "<aa>b<cc><aa>b<cc>"
    assert replace(v, unquoted("b"), "[&]", "/") == "a[&]cabc"   # a str is literal text
    # ${v/}, ${v//} and ${v//b} change nothing / delete; ${v/#/x} ${v/%/x} add
    assert [replace(v, [], "x", "/"), replace(v, [], "x", "//"), replace(v, unquoted("b"), "", "//"),
            replace(v, [], "x", "/#"), replace(v, [], "x", "/%")] == ["abcabc", "abcabc", "acac", "xabcabc", "abcabcx"]
    # an empty value: recorded [${e/*/X}|${e//*/X}|${e/?/X}|${e/#/X}]
    assert [replace("", unquoted("*"), "X", "/"), replace("", unquoted("*"), "X", "//"),
            replace("", unquoted("?"), "X", "/"), replace("", [], "X", "/#")] == ["X", "X", "", "X"]
    # quoted "*" is literal: ${v/"*"/-} on a*b; ${v%"*"b}
    assert replace("a*b", [("*", True)], "-", "/") == "a-b"
    assert remove_suffix("a*b", [("*", True), ("b", False)], False) == "a"
    assert remove_prefix("a*b", [("a", False), ("*", True)], False) == "b"


def test_has_glob_and_literal_text():
    assert [has_glob(unquoted(p)) for p in ("*", "a?", "[ab]", "[", "a]", "\\*", "[!]", "abc", "")] == [
        True, True, True, False, False, False, False, False, False]
    assert has_glob([("*", True)]) is False
    assert literal_text([("\\*.x", False), ("*", True), ("[a", False)]) == "*.x*[a"
    assert literal_text(unquoted("ab\\")) == "ab\\"


def test_glob_segment_matcher():
    # recorded in a directory holding .h a .b.c: echo .* [.]* ?h * .? .[.]  (bash 5.2 skips . and ..)
    names = [".", "..", ".h", "a", ".b.c"]

    def chosen(pattern, dotglob=False):
        test = glob_segment_matcher(unquoted(pattern), dotglob=dotglob)
        return sorted(name for name in names if test(name))

    assert chosen(".*") == [".b.c", ".h"]
    assert chosen("[.]*") == []
    assert chosen("?h") == []
    assert chosen("*") == ["a"]
    assert chosen(".?") == [".h"]
    assert chosen("*", dotglob=True) == [".b.c", ".h", "a"]
    assert chosen("?h", dotglob=True) == [".h"]
    assert chosen("[.]*", dotglob=True) == [".b.c", ".h"]
    assert chosen(".[.]", dotglob=True) == []


def test_no_catastrophic_backtracking():
    many = "a" * 10_000
    assert match(unquoted("*a*a*a*a*b"), many) is False
    assert match(unquoted("*a*a*a*a*"), many) is True
    assert remove_suffix(many, unquoted("*a*a*b"), True) == many
    assert remove_prefix(many, unquoted("*a"), True) == ""
    assert replace(many, unquoted("*a*a*b"), "X", "//") == many
    assert replace("ab" * 5_000, unquoted("a"), "X", "//") == "Xb" * 5_000


PATTERN_TEXT = st.text(alphabet="ab*?[]!^-\\:.=", max_size=10)


@given(PATTERN_TEXT, st.text(alphabet="ab-]!.", max_size=8), st.booleans())
def test_random_patterns_never_fail(pattern, text, quoted):
    pieces = [(pattern, quoted)]
    assert match(pieces, text) in (True, False)
    for longest in (False, True):
        assert text.endswith(remove_prefix(text, pieces, longest))
        assert text.startswith(remove_suffix(text, pieces, longest))
    for mode in ("/", "//", "/#", "/%"):
        assert isinstance(replace(text, pieces, unquoted("<&>"), mode), str)
    # a pattern without glob meaning matches exactly its literal text
    if not has_glob(pieces):
        assert match(pieces, text) is (text == literal_text(pieces))


# (start, end, step, words or None when bash leaves the braces as they are)
BRACES = [
    ('1', '5', None, ['1', '2', '3', '4', '5']),
    ('5', '1', None, ['5', '4', '3', '2', '1']),
    ('1', '10', '3', ['1', '4', '7', '10']),
    ('01', '10', None, ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10']),
    ('-3', '3', None, ['-3', '-2', '-1', '0', '1', '2', '3']),
    ('a', 'e', None, ['a', 'b', 'c', 'd', 'e']),
    ('e', 'a', None, ['e', 'd', 'c', 'b', 'a']),
    ('a', 'z', '5', ['a', 'f', 'k', 'p', 'u', 'z']),
    ('1', 'a', None, None),
    ('a', '5', None, None),
    ('1', '5', '0', ['1', '2', '3', '4', '5']),
    ('a', 'e', '0', ['a', 'b', 'c', 'd', 'e']),
    ('1', '5', '-2', ['1', '3', '5']),
    ('5', '1', '2', ['5', '3', '1']),
    ('a', 'e', '-2', ['a', 'c', 'e']),
    ('001', '5', None, ['001', '002', '003', '004', '005']),
    ('1', '005', None, ['001', '002', '003', '004', '005']),
    ('-01', '3', None, ['-01', '000', '001', '002', '003']),
    ('-1', '03', None, ['-1', '00', '01', '02', '03']),
    ('05', '1', None, ['05', '04', '03', '02', '01']),
    ('+1', '3', None, ['1', '2', '3']),
    ('1', '+3', None, ['1', '2', '3']),
    ('0', '0', None, ['0']),
    ('-0', '2', None, ['0', '1', '2']),
    ('00', '2', None, ['00', '01', '02']),
    ('Z', 'a', None, ['Z', '[', '\\', ']', '^', '_', '`', 'a']),
    ('1', '3', '+2', ['1', '3']),
    ('1', '3', '02', ['1', '3']),
    ('aa', 'b', None, None),
    ('a', 'b', '', None),
    ('9223372036854775806', '9223372036854775807', None, ['9223372036854775806', '9223372036854775807']),
    ('1', '3', '9223372036854775807', ['1']),
    ('99999999999999999999', '1', None, None),
    ('1', '3', 'a', None),
    ('-5', '-1', None, ['-5', '-4', '-3', '-2', '-1']),
    ('0x1', '3', None, None),
    ('01', '-1', None, ['01', '00', '-1']),
    ('-05', '5', '5', ['-05', '000', '005']),
    ('+01', '3', None, ['1', '2', '3']),
    ('1', '1', '5', ['1']),
    ('-9223372036854775808', '-9223372036854775807', None, ['-9223372036854775808', '-9223372036854775807']),
    ('1', '3', '-9223372036854775808', None),
    ('1', '3', '9223372036854775808', None),
    ('-00', '1', None, ['000', '001']),
    ('7', '009', '2', ['007', '009']),
    ('-1', '1', '3', ['-1']),
    ('10', '1', '4', ['10', '6', '2']),
    ('0001', '1', None, ['0001']),
    ('A', 'z', '10', ['A', 'K', 'U', '_', 'i', 's']),
    ('z', 'A', '10', ['z', 'p', 'f', '\\', 'R', 'H']),
]


@pytest.mark.parametrize("start, end, step, expected", BRACES, ids=[f"{a}..{b}..{c}" for a, b, c, _ in BRACES])
def test_brace_sequence_recorded(start, end, step, expected):
    # bash then removes a generated backslash as quoting; the words here are before that
    assert brace_sequence(start, end, step) == expected


def test_brace_sequence_cap():
    assert len(brace_sequence("1", "100000", None)) == 100_000
    with pytest.raises(ShellError) as caught:
        brace_sequence("1", "100001", None)
    assert caught.value.message == "brace expansion too large: more than 100000 words"
    with pytest.raises(ShellError):
        brace_sequence("-9223372036854775808", "9223372036854775807", "1")
