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


# -- cut, sort, uniq ---------------------------------------------------------------------
_LINE_BYTES = st.binary(max_size=40).map(lambda b: bytes(b"ab :\t\n"[x % 6] for x in b))


@fuzz_settings(300)
@given(_LINE_BYTES, st.sampled_from([b" ", b":", b"\t", b"."]), st.integers(1, 4), st.booleans())
def test_cut_one_field_block_matches_per_line(data: bytes, delimiter: bytes, number: int, only: bool) -> None:
    from onetool_wasm.commands.lines import split_lines
    from onetool_wasm.commands.text.cut import CutOptions, _one_field, _one_field_block
    options = CutOptions(unit="f", ranges=[(number, number)], delimiter=delimiter, only_delimited=only)
    found = _one_field_block(data, options)
    if found is not None:
        assert found == _one_field(split_lines(data), options)


@fuzz_settings(100)
@given(st.lists(st.sampled_from([b"b", b"a", b"", b"a b", b"\xff"]), min_size=1001, max_size=1500), st.booleans())
def test_sort_counted_output_matches_sorted(lines: list[bytes], reverse: bool) -> None:
    from onetool_wasm.commands.lines import join_records
    from onetool_wasm.commands.text.sort import parse_options, sorted_lines, sorted_output
    options = parse_options(["-r"] if reverse else [])
    assert sorted_output(options, lines) == join_records(sorted_lines(options, lines))


@fuzz_settings(300)
@given(st.lists(st.sampled_from([b"a", b"b", b"", b"aa", b"a\n"]), max_size=60), st.booleans(),
       st.lists(st.sampled_from(["-c", "-d", "-u"]), max_size=2))
def test_uniq_feed_block_matches_feed(parts: list[bytes], last_newline: bool, flags: list[str]) -> None:
    from onetool_wasm.commands.lines import split_lines
    from onetool_wasm.commands.text.uniq import UniqGroups, _uniq_options
    data = b"\n".join(parts) + (b"\n" if last_newline and parts else b"")
    options, _ = _uniq_options(flags)
    general, fast = UniqGroups(options), UniqGroups(options)
    lines = split_lines(data)
    middle = len(data) // 2
    cut = data.rfind(b"\n", 0, middle) + 1  # two blocks of whole lines, as the stream gives them
    assert fast.whole_runs
    out = fast.feed_block(data[:cut]) + fast.feed_block(data[cut:]) + fast.finish()
    general_out = general.feed(lines[:data[:cut].count(b"\n")]) + general.feed(lines[data[:cut].count(b"\n"):])
    assert out == general_out + general.finish()


@fuzz_settings(50)
@given(_LINE_BYTES, st.integers(1, 3))
def test_cut_command_matches_per_line(data: bytes, number: int) -> None:
    """The command (block path when it applies) against the per-line path."""
    from onetool_wasm.commands.lines import join_lines, split_lines
    from onetool_wasm.commands.text.cut import CutOptions, _one_field
    fast = call("cut", ["-d", " ", "-f", str(number)], stdin=data)
    options = CutOptions(unit="f", ranges=[(number, number)], delimiter=b" ")
    assert fast.stdout == join_lines(_one_field(split_lines(data), options))


# -- jq ----------------------------------------------------------------------------------
_JSON_LEAVES = st.one_of(st.none(), st.booleans(), st.text(alphabet="a\"\\\n\x01\x7f\ud800é😀[]{}", max_size=6),
                         st.floats(allow_nan=True, allow_infinity=True), st.integers(-10 ** 20, 10 ** 20).map(float),
                         st.sampled_from([0.0, -0.0, 1e16, -1e16, 9999999999999998.0, 1e15, 123.0, 1e-5]))
_JSON_VALUES = st.recursive(_JSON_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(alphabet="ab\x7f\"é", max_size=3), inner, max_size=4)),
    max_leaves=12)


@fuzz_settings(400)
@given(_JSON_VALUES)
def test_jq_compact_dump_matches_general(value) -> None:
    from onetool_wasm.jq.values import _dump, dump
    out: list[str] = []
    _dump(value, "", False, False, 0, out)
    assert dump(value) == "".join(out)


@fuzz_settings(300)
@given(st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10 ** 400, 10 ** 400), st.floats(), st.text(max_size=3)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner, max_size=3)),
                    max_leaves=10))
def test_jq_to_jq_matches_general(value) -> None:
    from onetool_wasm.jq.values import _to_jq, to_jq
    assert repr(to_jq(value)) == repr(_to_jq(value))


@fuzz_settings(500)
@given(st.text(alphabet='[]{}"\\ a\n\udc80é', max_size=40))
def test_json_depth_matches_general(text: str) -> None:
    import re
    from onetool_wasm.jsonparse import json_depth
    depth = deepest = 0
    for bracket in re.findall(r"[\[\]{}]", re.sub(r'"(?:[^"\\]|\\.)*"', "", text, flags=re.DOTALL)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    assert json_depth(text) == deepest
