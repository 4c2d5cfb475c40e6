"""Replay upstream's recorded size/duration formatting and binary detection.

utils/arithmetic.jsonl is replayed by the calc command's tests, not here."""
from __future__ import annotations

import base64
from typing import Any

import pytest

from onetool_wasm.textutil import format_duration, format_size, looks_binary

from .corpus import load_jsonl, require_corpus

require_corpus()  # skips this module, with the reason, when the corpus is absent
FORMAT_RECORDS = load_jsonl("utils/format.jsonl")
BINARY_RECORDS = load_jsonl("utils/binary-detection.jsonl")


@pytest.mark.parametrize("record", FORMAT_RECORDS,
                         ids=[f"{r['kind']}:{r['input']}" for r in FORMAT_RECORDS])
def test_format(record: dict[str, Any]) -> None:
    formatter = {"duration": format_duration, "size": format_size}[record["kind"]]
    assert formatter(record["input"]) == record["output"]


@pytest.mark.parametrize("record", BINARY_RECORDS,
                         ids=[f"line{index + 1}" for index in range(len(BINARY_RECORDS))])
def test_binary_detection(record: dict[str, Any]) -> None:
    assert looks_binary(base64.b64decode(record["data_b64"])) is record["looksBinary"]
