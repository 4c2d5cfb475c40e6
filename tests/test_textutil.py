"""Sizes, durations, binary sniffing and decoding beyond the recorded cases."""
from __future__ import annotations

import pytest

from onetool_wasm.textutil import decode_utf8, format_duration, format_size, looks_binary, to_fixed, utf16_length


@pytest.mark.parametrize("value, text", [(1.25, "1.3"), (1.35, "1.4"), (0.05, "0.1"), (2.5, "2.5"),
                                         (1.15, "1.1"), (0, "0.0"), (-1.25, "-1.3")])
def test_to_fixed_rounds_like_javascript(value: float, text: str) -> None:
    # 1.15 is stored as 1.149999..., so JavaScript prints 1.1 as well.
    assert to_fixed(value) == text


@pytest.mark.parametrize("size, text", [(1, "1B"), (1025, "1.0KB"), (1126, "1.1KB"), (1048575, "1024.0KB"),
                                        (5 * 1024**4, "5.0TB"), (3 * 1024**5, "3072.0TB")])
def test_format_size(size: int, text: str) -> None:
    assert format_size(size) == text


@pytest.mark.parametrize("ms, text", [(1, "1ms"), (999.5, "999.5ms"), (1049, "1.0s"), (59000, "59.0s"),
                                      (60000, "1m0.0s"), (3725000, "62m5.0s")])
def test_format_duration(ms: float, text: str) -> None:
    assert format_duration(ms) == text


@pytest.mark.parametrize("ms, text", [(59999, "1m0.0s"), (119999, "2m0.0s"), (59949, "59.9s")])
def test_format_duration_carries_a_rounded_minute(ms: int, text: str) -> None:
    # Deliberate: upstream prints 60.0s and 1m60.0s here.
    assert format_duration(ms) == text


@pytest.mark.parametrize("data, binary", [
    (b"plain text\n", False),
    (b"tabs\tand\r\nnewlines", False),
    (b"\x1b[31mred\x1b[0m and a long enough tail of text", False),  # 2 escapes in 38 chars
    (b"\x1b\x1bab", True),
    (b"\xef\xbb\xbf", False),  # only a BOM: nothing left to judge
    (b"\xc3", True),  # truncated UTF-8
    (b"\xed\xa0\x80", True),  # an encoded surrogate is not UTF-8
    (("\U0001d11e" * 5 + "\x01").encode(), False),  # 1 control in 11 UTF-16 units
    (("\U0001d11e" * 4 + "\x01").encode(), True),  # 1 in 9
])
def test_looks_binary(data: bytes, binary: bool) -> None:
    assert looks_binary(data) is binary


def test_utf16_length_and_decoding() -> None:
    assert utf16_length("a\U0001d11e") == 3
    assert decode_utf8(b"\xef\xbb\xbfhi") == "hi"
    assert decode_utf8(b"\xef\xbb\xbf\xef\xbb\xbfhi") == "\ufeffhi"
    assert decode_utf8(b"a\xffb") == "a\ufffdb"
    assert decode_utf8(bytearray(b"ok")) == "ok"
