"""bash's printf builtin against GNU bash 5.2.

C_TABLE was recorded from bash 5.2.15 under LC_ALL=C (and TZ=UTC) in a throwaway sandbox:
`printf FORMAT ARGS...` -> the exact stdout bytes, what bash printed on stderr after
`bash: line 1: ` (one entry a line), and the exit status. UTF8_TABLE holds the \\u and \\U
escapes, recorded under LC_ALL=C.UTF-8, because format_printf writes them as UTF-8 (under
LC_ALL=C bash would print the escape itself).
"""
from __future__ import annotations

import time

import pytest

from onetool_wasm.shell.builtins.printf import format_printf

try:
    from hypothesis import given
    from hypothesis import strategies as st
except ImportError:  # hypothesis is a test dependency; without it the property tests skip
    given = None


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """%(...)T formats local time; the recordings were made in UTC."""
    monkeypatch.setattr(time, "localtime", time.gmtime)


C_TABLE = [
    ('hello', [], b'hello', [], 0),
    ('', [], b'', [], 0),
    ('a\\nb\\tc\\\\d', [], b'a\nb\tc\\d', [], 0),
    ('\\a\\b\\f\\r\\v\\e\\E', [], b'\x07\x08\x0c\r\x0b\x1b\x1b', [], 0),
    ('\\"\\\'\\?', [], b'"\'?', [], 0),
    ('\\101\\0101\\7\\400\\777', [], b'A\x081\x07\x00\xff', [], 0),
    ('\\x41\\x4a1\\xg', [], b'AJ1\\xg', ['printf: missing hex digit for \\x'], 0),
    ('\\x', [], b'\\x', ['printf: missing hex digit for \\x'], 0),
    ('a\\cb', [], b'a\\cb', [], 0),
    ('\\q', [], b'\\q', [], 0),
    ('a\\', [], b'a\\', [], 0),
    ('\\%d', ['5'], b'\\5', [], 0),
    ('%%|%5%|', [], b'%|', ["printf: `%': invalid format character"], 1),
    ('é\\n', [], b'\xc3\xa9\n', [], 0),
    ('%s|', ['a', 'b', 'c'], b'a|b|c|', [], 0),
    ('%s %s\\n', ['a', 'b', 'c'], b'a b\nc \n', [], 0),
    ('x\\n', ['a', 'b'], b'x\n', [], 0),
    ('%s-%d|', [], b'-0|', [], 0),
    ('%d %d %s|', ['1'], b'1 0 |', [], 0),
    ('[%s]\\n', [], b'[]\n', [], 0),
    ('%%\\n', ['a'], b'%\n', [], 0),
    ('%5s|%-5s|%.2s|%5.1s|%-4.3s|', ['ab', 'ab', 'abc', 'xyz', 'hello'], b'   ab|ab   |ab|    x|hel |', [], 0),
    ('%s', ['é'], b'\xc3\xa9', [], 0),
    ('%5s|%.1s|', ['é', 'é'], b'   \xc3\xa9|\xc3|', [], 0),
    ('%c%c%c', ['abc', 'é', 'x'], b'a\xc3x', [], 0),
    ('%c|%5c|%-3c|', ['', 'a', 'b'], b'\x00|    a|b  |', [], 0),
    ('%c', [], b'\x00', [], 0),
    ('%05s|%+s|%#s|% s', ['a', 'b', 'c', 'd'], b'    a|b|c|d', [], 0),
    ('%*s|%-*s|%*s|', ['4', 'a', '3', 'b', '-3', 'c'], b'   a|b  |c  |', [], 0),
    ('%.*s|%.*s|', ['2', 'abcdef', '-1', 'abc'], b'ab|abc|', [], 0),
    ('%.s|%.0s|', ['abc', 'def'], b'||', [], 0),
    ('%ls|%hs|%lc', ['ab', 'cd', 'ef'], b'ab|cd|e', [], 0),
    ('%d|%i|%d|%d', ['42', '-7', '+3', ' 12'], b'42|-7|3|12', [], 0),
    ('%d|%d|%d|%d', ['0x1F', '-0x1f', '017', '0'], b'31|-31|15|0', [], 0),
    ('%d|%d', ['', '-0'], b'0|0', [], 0),
    ('%d', ['12abc'], b'12', ['printf: 12abc: invalid number'], 1),
    ('%d', ['abc'], b'0', ['printf: abc: invalid number'], 1),
    ('%d', ['09'], b'0', ['printf: 09: invalid octal number'], 1),
    ('%d', ['0x'], b'0', ['printf: 0x: invalid hex number'], 1),
    ('%d', ['0xg'], b'0', ['printf: 0xg: invalid hex number'], 1),
    ('%d', ['-09'], b'0', ['printf: -09: invalid number'], 1),
    ('%d', [' 09'], b'0', ['printf:  09: invalid number'], 1),
    ('%d', ['12 '], b'12', ['printf: 12 : invalid number'], 1),
    ('%d', ['1.5'], b'1', ['printf: 1.5: invalid number'], 1),
    ('%d', ['1e3'], b'1', ['printf: 1e3: invalid number'], 1),
    ('%d', ['-'], b'0', ['printf: -: invalid number'], 1),
    ('%d|%d|%d', ["'A", '"z', "'"], b'65|122|0', [], 0),
    ('%d', ["'é"], b'195', [], 0),
    ('%d', ["'ab"], b'97', [], 0),
    ('%d', ['9223372036854775807'], b'9223372036854775807', [], 0),
    ('%d', ['99999999999999999999'], b'9223372036854775807', ['printf: warning: 99999999999999999999: Numerical result out of range'], 0),
    ('%d', ['-99999999999999999999'], b'-9223372036854775808', ['printf: warning: -99999999999999999999: Numerical result out of range'], 0),
    ('%d', ['0xffffffffffffffff'], b'9223372036854775807', ['printf: warning: 0xffffffffffffffff: Numerical result out of range'], 0),
    ('%u|%u', ['-1', '18446744073709551615'], b'18446744073709551615|18446744073709551615', [], 0),
    ('%u', ['99999999999999999999'], b'18446744073709551615', ['printf: warning: 99999999999999999999: Numerical result out of range'], 0),
    ('%x|%X|%o|%u', ['255', '255', '8', '42'], b'ff|FF|10|42', [], 0),
    ('%x', ['-1'], b'ffffffffffffffff', [], 0),
    ('%o', ['-1'], b'1777777777777777777777', [], 0),
    ('%#x|%#X|%#o|%#x|%#o', ['255', '255', '8', '0', '0'], b'0xff|0XFF|010|0|0', [], 0),
    ('%5d|%-5d|%05d|%+d|% d|%+5d|%-+5d|', ['42', '42', '42', '42', '42', '-3', '3'], b'   42|42   |00042|+42| 42|   -3|+3   |', [], 0),
    ('%.3d|%.0d|%.0d|%8.3d|%-8.3d|%08.3d|', ['5', '0', '7', '7', '-7', '7'], b'005||7|     007|-007    |     007|', [], 0),
    ('%0-5d|%-05d|%+05d|% 05d', ['1', '2', '3', '4'], b'1    |2    |+0003| 0004', [], 0),
    ('%*d|%-*d|%*d|', ['5', '1', '5', '2', '-5', '3'], b'    1|2    |3    |', [], 0),
    ('%.*d|%*.*d|', ['3', '7', '6', '3', '7'], b'007|   007|', [], 0),
    ('%*d|', ['abc', '5'], b'5|', ['printf: abc: invalid number'], 1),
    ('%ld|%hhd|%lld|%jd|%zd|%td|%Lf', ['1', '2', '3', '4', '5', '6', '7'], b'1|2|3|4|5|6|7.000000', [], 0),
    ("%'d", ['1234567'], b'1234567', [], 0),
    ('%i', ['010'], b'8', [], 0),
    ('%x|%o', ["'A", "'a"], b'41|141', [], 0),
    ('%f|%e|%g|%E|%G|%F', ['3.14159', '3.14159', '3.14159', '0.000012345', '1e20', '2.5'], b'3.141590|3.141590e+00|3.14159|1.234500E-05|1E+20|2.500000', [], 0),
    ('%.2f|%.0f|%.0f|%.0f|%.1f|%.2f', ['3.14159', '0.5', '1.5', '2.5', '0.25', '2.675'], b'3.14|0|2|2|0.2|2.67', [], 0),
    ('%.20f|%.17g|%.25g', ['0.1', '0.1', '1.1'], b'0.10000000000000000000|0.1|1.100000000000000000021684', [], 0),
    ('%#.0f|%#g|%#.3g|%#.0e|%#x', ['3', '1', '1', '5', '0'], b'3.|1.00000|1.00|5.e+00|0', [], 0),
    ('%g|%g|%g|%g|%g|%g', ['100000', '1000000', '0.0001', '0.00001', '123456789', '1e-300'], b'100000|1e+06|0.0001|1e-05|1.23457e+08|1e-300', [], 0),
    ('%.3g|%.10g|%.0g|%.1g|%g', ['1234', '1234567890123', '0', '0.05', '-0'], b'1.23e+03|1.23456789e+12|0|0.05|-0', [], 0),
    ('%10.3e|%-10.2f|%+.1f|% f|%010.2f|%-+8.1e', ['-0.000123', '1.005', '2', '1', '-3.14159', '12345'], b'-1.230e-04|1.00      |+2.0| 1.000000|-000003.14|+1.2e+04', [], 0),
    ('%f|%f|%f|%f|%e|%g|%F|%E', ['inf', '-inf', 'nan', '-nan', 'infinity', 'NaN', 'inf', 'nan'], b'inf|-inf|nan|-nan|inf|nan|INF|NAN', [], 0),
    ('%08f|%-8f|%+f|% f', ['inf', 'nan', 'nan', 'inf'], b'     inf|nan     |+nan| inf', [], 0),
    ('%f|%f', ['1e5000', '1e-5000'], b'inf|0.000000', ['printf: warning: 1e5000: Numerical result out of range', 'printf: warning: 1e-5000: Numerical result out of range'], 0),
    ('%e', ['1e-320'], b'1.000000e-320', [], 0),
    ('%g', ['1.18973149535723176502e+4932'], b'1.18973e+4932', [], 0),
    ('%f|%f|%f|%f|%f', ['.5', '5.', '-.5e-2', ' 2', '+.75e+2'], b'0.500000|5.000000|-0.005000|2.000000|75.000000', [], 0),
    ('%f', ['1.5x'], b'1.500000', ['printf: 1.5x: invalid number'], 1),
    ('%f', ['1e'], b'1.000000', ['printf: 1e: invalid number'], 1),
    ('%f', ['abc'], b'0.000000', ['printf: abc: invalid number'], 1),
    ('%f', ["'A"], b'65.000000', [], 0),
    ('%f|%f|%f', ['0x1p3', '0xA.8p-1', '0x.8'], b'8.000000|5.250000|0.500000', [], 0),
    ('%f', ['nan(123)'], b'nan', [], 0),
    ('%.30f', ['1e-10'], b'0.000000000100000000000000000002', [], 0),
    ('%.40g', ['3'], b'3', [], 0),
    ('%a|%a|%A|%a|%a', ['1', '0.1', '255', '0', '-2'], b'0x8p-3|0xc.ccccccccccccccdp-7|0XF.FP+4|0x0p+0|-0x8p-2', [], 0),
    ('%.2a|%.0a|%#.0a|%.1a|%10.1a|%-12a|', ['1', '0x1F', '3', '0x1.f8p0', '1', '1'], b'0x8.00p-3|0x1p+5|0xc.p-2|0xf.cp-3|  0x8.0p-3|0x8p-3      |', [], 0),
    ('%.1f|%.1f|%.1f', ['0.05', '0.15', '0.35'], b'0.1|0.2|0.3', [], 0),
    ('%.0e|%.2e|%.3e', ['15', '1.125', '9.9995'], b'2e+01|1.12e+00|1.000e+01', [], 0),
    ('%e|%g', ['0', '0'], b'0.000000e+00|0', [], 0),
    ('%5.1f%%\\n', ['99.44'], b' 99.4%\n', [], 0),
    ('%b', ['a\\tb\\nc'], b'a\tb\nc', [], 0),
    ('%b|%b', ['\\0101\\101\\1', '\\08'], b'AA\x01|\x008', [], 0),
    ('%b', ['a\\cb'], b'a', [], 0),
    ('%s%b%s', ['x', 'a\\cb', 'y'], b'xa', [], 0),
    ('%b', ['\\q\\\'\\"\\?'], b'\\q\\\'\\"\\?', [], 0),
    ('%b', ['\\x41\\x4a1\\x'], b'AJ1\\x', ['printf: missing hex digit for \\x'], 0),
    ('%b', ['a\\'], b'a\\', [], 0),
    ('%5b|%-5b|%.1b|%05b|', ['ab', 'cd', '\\tz', 'q'], b'   ab|cd   |\t|    q|', [], 0),
    ('%d%b%s', ['abc', '\\c', 'z'], b'0', ['printf: abc: invalid number'], 0),
    ('%b\\n', ['one', 'two'], b'one\ntwo\n', [], 0),
    ('%b', ['\\e\\E\\a\\b\\f\\r\\v\\\\'], b'\x1b\x1b\x07\x08\x0c\r\x0b\\', [], 0),
    ('%b', ['\\0400'], b'\x00', [], 0),
    ('%*b|%.*b|', ['4', 'a', '1', 'xyz'], b'   a|x|', [], 0),
    ('%q\\n', ['a b'], b'a\\ b\n', [], 0),
    ('%q\\n', [''], b"''\n", [], 0),
    ('%q\\n', ["it's"], b"it\\'s\n", [], 0),
    ('%q\\n', ['~x'], b'\\~x\n', [], 0),
    ('%q\\n', ['a~'], b'a~\n', [], 0),
    ('%q\\n', ['a=~'], b'a=\\~\n', [], 0),
    ('%q\\n', ['a:~b'], b'a:\\~b\n', [], 0),
    ('%q\\n', ['#a'], b'\\#a\n', [], 0),
    ('%q\\n', ['a#'], b'a#\n', [], 0),
    ('%q\\n', ['=a'], b'=a\n', [], 0),
    ('%q\\n', ['x\\ty'], b'x\\\\ty\n', [], 0),
    ('%q\\n', ['$HOME'], b'\\$HOME\n', [], 0),
    ('%q\\n', ['a*b?[c]'], b'a\\*b\\?\\[c\\]\n', [], 0),
    ('%q\\n', ['!{}^,;&|<>()`"'], b'\\!\\{\\}\\^\\,\\;\\&\\|\\<\\>\\(\\)\\`\\"\n', [], 0),
    ('%q\\n', ['é'], b"$'\\303\\251'\n", [], 0),
    ('%q\\n', ['a\tb'], b"$'a\\tb'\n", [], 0),
    ('%q\\n', ["a\nb'c\\\\d"], b"$'a\\nb\\'c\\\\\\\\d'\n", [], 0),
    ('%q\\n', ['\x1b\x7f\x01'], b"$'\\E\\177\\001'\n", [], 0),
    ('%q\\n', ['\x07\x08\x0c\r\x0b'], b"$'\\a\\b\\f\\r\\v'\n", [], 0),
    ('%q|%5q|%-6q|%.2q|', ['', 'a', 'a b', 'abcdef'], b"''|    a|a\\ b  |ab|", [], 0),
    ('%Q|%.2Q|%.0Q|%.*Q|%5Q|', ['a b', 'a bcd', 'abc', '1', 'abc', 'x y'], b"a\\ b|a\\ |''|abc| x\\ y|", [], 0),
    ('%q %q\\n', ['a', 'b', 'c'], b"a b\nc ''\n", [], 0),
    ('%y', [], b'', ["printf: `y': invalid format character"], 1),
    ('ab%yc', ['1'], b'ab', ["printf: `y': invalid format character"], 1),
    ('%5.2y|', [], b'', ["printf: `y': invalid format character"], 1),
    ('%p', ['1'], b'', ["printf: `p': invalid format character"], 1),
    ('%S', ['a'], b'', ["printf: `S': invalid format character"], 1),
    ('%z', [], b'', ["printf: `%z': missing format character"], 1),
    ('ab%5', [], b'ab', ["printf: `%5': missing format character"], 1),
    ('ab%', [], b'ab', ["printf: `%': missing format character"], 1),
    ('%-', [], b'', ["printf: `%-': missing format character"], 1),
    ('%.*', [], b'', ["printf: `%.*': missing format character"], 1),
    ('%d %y %d', ['1', '2'], b'1 ', ["printf: `y': invalid format character"], 1),
    ('%ké', [], b'', ["printf: `k': invalid format character"], 1),
    ('%n%s|', ['a', 'b'], b'b|', [], 0),
    ('%(%Y-%m-%d %H:%M:%S)T|', ['0', '86400', '1700000000'], b'1970-01-01 00:00:00|1970-01-02 00:00:00|2023-11-14 22:13:20|', [], 0),
    ('%20(%Y)T|%-6(%Y)T|%.2(%Y)T|', ['0', '0', '0'], b'                1970|1970  |19|', [], 0),
    ('%()T|%(%%)T|%(a(b)c)T', ['0', '0', '0'], b'00:00:00|%|a(b)c', [], 0),
    ('%(%Y)T', ['abc'], b'1970', ['printf: abc: invalid number'], 1),
    ('%(%Y)X', ['0'], b'%(', ["printf: warning: `X': invalid time format specification", "printf: `Y': invalid format character"], 1),
    ('%(%j)T', ['-86400'], b'365', [], 0),
]

UTF8_TABLE = [
    ('\\u00e9|\\U0001F600|\\u41|\\u00411', [], b'\xc3\xa9|\xf0\x9f\x98\x80|A|A1', [], 0),
    ('\\ud800|\\U110000|\\U7FFFFFFF|\\UFFFFFFFF|\\u7ff|\\u800|', [], b'\xed\xa0\x80|\xf4\x90\x80\x80|\xfd\xbf\xbf\xbf\xbf\xbf||\xdf\xbf|\xe0\xa0\x80|', [], 0),
    ('a\\u0000b', [], b'a\x00b', [], 0),
    ('\\u', [], b'\\u', ['printf: missing unicode digit for \\u'], 0),
    ('\\Uz', [], b'\\Uz', ['printf: missing unicode digit for \\U'], 0),
    ('%b', ['\\u00e9\\U0001F600'], b'\xc3\xa9\xf0\x9f\x98\x80', [], 0),
    ('%b', ['\\u'], b'\\u', ['printf: missing unicode digit for \\u'], 0),
]


@pytest.mark.parametrize("fmt,args,stdout,errors,status", C_TABLE + UTF8_TABLE)
def test_matches_bash(fmt, args, stdout, errors, status):
    assert format_printf(fmt, args) == (stdout, errors, status)


def test_an_invalid_conversion_stops_all_output():
    assert format_printf("%s-%y-%s", ["a", "b", "c", "d"]) == (b"a-", ["printf: `y': invalid format character"], 1)


def test_a_non_ascii_conversion_character_is_named_whole():
    # bash under LC_ALL=C names the first byte only
    assert format_printf("%\u00e9", []) == (b"", ["printf: `\u00e9': invalid format character"], 1)


def test_huge_numbers_of_digits_are_read_without_python_limits():
    output, errors, status = format_printf("%.3e|%d", ["1" + "0" * 4500, "9" * 6000])
    assert (output, status) == (b"1.000e+4500|9223372036854775807", 0)
    assert errors == [f"printf: warning: {'9' * 6000}: Numerical result out of range"]
    assert format_printf("%f", ["1e99999999999999999999"])[0] == b"inf"
    assert format_printf("%.0f", ["1e4000"])[0].startswith(b"99999999999999999999654638730996")


def test_digits_past_a_long_doubles_exact_expansion_are_zeros():
    # the smallest long double has 16445 places; bash prints the rest as zeros
    output = format_printf("%.20000f|%.30000e", ["0x1p-16445", "0.1"])[0]
    fixed, scientific = output.split(b"|")
    assert fixed.startswith(b"0." + b"0" * 4950 + b"36451") and fixed.endswith(b"03125" + b"0" * 3555)
    assert scientific.startswith(b"1.000000000000000000013552527156") and scientific.endswith(b"0" * 8000 + b"e-01")


if given is not None:
    SPEC = st.builds(lambda flags, width, precision, conversion: f"%{flags}{width}{precision}{conversion}",
                     st.text(alphabet="-+ #0'", max_size=3),
                     st.sampled_from(["", "*", "1", "7", "12"]),
                     st.sampled_from(["", ".", ".*", ".0", ".3", ".-2", ".30"]),
                     st.sampled_from(list("diouxXfFeEgGaAcsbqQn%yz") + ["ld", "(%Y)T", "(x)", "("]))
    PIECE = st.one_of(SPEC, st.text(max_size=4), st.sampled_from(["\\", "\\x", "\\u", "\\c", "\\0", "\\777", "%", "\\"]))
    ARGUMENT = st.one_of(st.text(max_size=6),
                         st.sampled_from(["0", "-1", "0x1F", "017", "'a", "1e3", "1.5", "inf", "nan(", "\\c", "\\0101",
                                          "0x1p-3", ".", "-", "1e-5000", "1e-4940", "1e4900"]))

    @given(st.lists(PIECE, max_size=5).map("".join), st.lists(ARGUMENT, max_size=5))
    def test_random_formats_never_raise(fmt, args):
        output, errors, status = format_printf(fmt, args)
        assert isinstance(output, bytes) and status in (0, 1)
        assert all(isinstance(message, str) and message.startswith("printf: ") for message in errors)

    @given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20))
    def test_percent_s_prints_the_argument_as_utf8(text):
        assert format_printf("%s", [text]) == (text.encode("utf-8"), [], 0)

    @given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
    def test_percent_d_prints_any_64_bit_integer(number):
        assert format_printf("%d|%x", [str(number), str(number)]) == (f"{number}|{number % (1 << 64):x}".encode(), [], 0)
