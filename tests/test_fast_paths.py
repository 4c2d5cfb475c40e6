"""Differential tests of the fast paths added for speed: on random input, each gives what
the general path it shortcuts gives (awk, cut, sort, uniq, jq's JSON reading and writing)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from onetool_wasm.awk import builtins as awk_builtins
from onetool_wasm.awk.format import num, str_to_num
from onetool_wasm.awk.interpreter import _ODD_SPACE

from .helpers import call, fuzz_settings

# Bytes where awk's default FS, str.split() and strtod disagree, and plain ones.
_AWK_CHARS = "ab1 0.9-+e\t\n\r\x0b\x0c\x1c\x1f\x85\xa0x"


@fuzz_settings(300)
@given(st.text(alphabet=_AWK_CHARS, max_size=30))
def test_awk_default_split_fast_path(text: str) -> None:
    if _ODD_SPACE.search(text) is None:
        assert text.split() == awk_builtins.split_default(text)


@fuzz_settings(300)
@given(st.one_of(st.text(alphabet="0123456789", max_size=25), st.text(alphabet=_AWK_CHARS + "٣²", max_size=8)))
def test_awk_num_fast_path(text: str) -> None:
    assert num(text) == str_to_num(text)


_AWK_PROGRAMS = ("{print $1, $2 + 0, NF}", "{s += $2} END {print s, NR}", "$1 ~ /a/ {n[$2]++} END {for (k in n) c++; print c}",
                 "NR % 2 {print; next} {$2 = \"x\"; print}", "{NF = 1; print $0 \"|\"}", "{print length($0), $3 == 0}")


@fuzz_settings(60)
@given(st.sampled_from(_AWK_PROGRAMS), st.text(alphabet=_AWK_CHARS, max_size=80))
def test_awk_plain_main_rules_match_async(program: str, text: str) -> None:
    """A program whose main rules never wait runs them as a plain function over buffered
    records; the same program with a rule that could wait (never true) takes the general path."""
    data = text.encode("latin-1")
    fast = call("awk", [program], stdin=data)
    general = call("awk", [program + " 0 { getline }"], stdin=data)
    assert (fast.stdout, fast.stderr, fast.exit_code) == (general.stdout, general.stderr, general.exit_code)
