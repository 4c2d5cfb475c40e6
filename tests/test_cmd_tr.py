"""tr: GNU tr in the C locale, bytes in and bytes out, with upstream's usage and messages."""
from __future__ import annotations

import pytest

from onetool_wasm.commands import create_command_registry

from .helpers import call

USAGE = "tr [OPTION]... STRING1 [STRING2]"


def run(*args, stdin=b"hello world\n"):
    return call("tr", args, stdin=stdin)


def tr(*args, stdin=b"hello world\n"):
    result = run(*args, stdin=stdin)
    assert (result.exit_code, result.stderr) == (0, ""), result
    return result.stdout


def tr_error(*args, stdin=b"abc\n"):
    result = run(*args, stdin=stdin)
    assert (result.exit_code, result.stdout) == (1, b""), result
    return result.stderr


def test_translate_ranges_and_classes():
    assert tr("a-z", "A-Z") == b"HELLO WORLD\n"
    assert tr("[:lower:]", "[:upper:]") == b"HELLO WORLD\n"
    assert tr("[:upper:][:lower:]", "[:lower:][:upper:]", stdin="Hello\n") == b"hELLO\n"
    assert tr("lo", "01") == b"he001 w1r0d\n"


def test_short_string2_repeats_its_last_byte_unless_truncating():
    assert tr("abcd", "xy", stdin="abcd\n") == b"xyyy\n"
    assert tr("-t", "abcd", "xy", stdin="abcd\n") == b"xycd\n"


def test_later_mapping_of_the_same_byte_wins():
    assert tr("aa", "xy", stdin="a\n") == b"y\n"


def test_delete_squeeze_and_both():
    assert tr("-d", "lo") == b"he wrd\n"
    assert tr("-s", "l") == b"helo world\n"
    assert tr("-s", " ", stdin="a   b  c\n") == b"a b c\n"
    assert tr("-ds", "0-9", "\\n", stdin="a1\n\n2b\n") == b"a\nb\n"
    assert tr("-s", "a-z", "A-Z", stdin="aabbc\n") == b"ABC\n"


def test_complement():
    assert tr("-c", "a", "z", stdin="ab\n") == b"azz"
    assert tr("-cd", "[:alpha:]", stdin="a1 b2\n") == b"ab"
    assert tr("-cs", "[:alpha:]", "\\n", stdin="one, two;three\n") == b"one\ntwo\nthree\n"
    assert tr("-C", "a", "_", stdin="ba") == b"_a"


def test_escapes_octal_and_backslash():
    assert tr("a", "\\000", stdin="abc\n") == b"\x00bc\n"
    assert tr("\\n", " ", stdin="a\nb\n") == b"a b "
    assert tr("ab", "\\400", stdin="ab") == b" 0"  # \400 reads as \40 then 0, as GNU
    assert tr("a\\", "xy", stdin="a\\") == b"xy"  # a trailing backslash is itself
    assert tr("a\\-z", "123", stdin="a-z") == b"123"


def test_repeats_and_equivalence_classes():
    assert tr("a-e", "[x*]", stdin="abcdef") == b"xxxxxf"
    assert tr("a-e", "[x*2]y", stdin="abcde") == b"xxyyy"
    assert tr("-d", "[=l=]") == b"heo word\n"
    assert tr("l[", "xy", stdin="l[") == b"xy"


def test_operands_are_bytes_of_their_utf8():
    assert tr("\u00e9", "e", stdin="\u00e9\n") == b"ee\n"


def test_nul_output_is_octet_stream():
    result = run("a", "\\000", stdin=b"abc\n")
    assert result.content_type == "application/octet-stream"
    assert run("a-z", "A-Z").content_type == "text/plain"


def test_no_stdin_gives_empty_output():
    assert tr("a-z", "A-Z", stdin=b"") == b""


@pytest.mark.parametrize("args, message", [
    ([], f"tr: missing operand. Usage: {USAGE}"),
    (["a"], f"tr: missing operand. Usage: {USAGE}"),
    (["-d"], f"tr: missing operand. Usage: {USAGE}"),
    (["z-a", "A-Z"], "tr: invalid descending range"),
    (["a", "b", "c"], f"tr: extra operand 'c'. Usage: {USAGE}"),
    (["-d", "a", "b"], "tr: extra operand 'b'. Only one string may be given when deleting without "
                       f"squeezing repeats. Usage: {USAGE}"),
    (["-ds", "a"], "tr: missing operand after 'a'. Two strings must be given when both deleting and "
                   f"squeezing repeats. Usage: {USAGE}"),
    (["-x", "a"], f"tr: unknown option: -x. Usage: {USAGE}"),
    (["[:foo:]", "x"], "tr: invalid character class 'foo'. Valid classes: alnum, alpha, blank, cntrl, "
                       "digit, graph, lower, print, punct, space, upper, xdigit"),
    (["a-z", "[:digit:]"], "tr: when translating, the only character classes that may appear in string2 "
                           "are 'upper' and 'lower'"),
    (["A-Z", "[:lower:]"], "tr: misaligned [:upper:] and/or [:lower:] construct"),
    (["ab", ""], "tr: when not truncating set1, string2 must be non-empty"),
    (["ab", "[x*][y*]"], "tr: only one [c*] repeat construct may appear in string2"),
    (["-ds", "a", "[x*]"], "tr: the [c*] construct may appear in string2 only when translating"),
    (["-c", "[:digit:]", "xy"], "tr: when translating with complemented character classes, string2 must "
                                "map all characters in the domain to one"),
    (["a-z0", "x[:upper:]"], "tr: misaligned [:upper:] and/or [:lower:] construct"),
])
def test_errors(args, message):
    assert tr_error(*args) == message


def test_metadata():
    spec = create_command_registry().get("tr")
    assert (spec.group, spec.accepts_stdin, spec.min_args, spec.kind) == ("text", True, 1, "read")
    assert spec.usage == USAGE
