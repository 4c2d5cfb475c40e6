"""Replay upstream's recorded arithmetic (utils/arithmetic.jsonl) against calc's evaluator."""
from __future__ import annotations

import json

import pytest

from onetool_wasm.commands.data.calc import CalcError, safe_eval_arithmetic
from onetool_wasm.commands.json_text import format_js_number

from .corpus import load_jsonl, require_corpus

require_corpus()
RECORDS = load_jsonl("utils/arithmetic.jsonl")


def test_corpus_has_records():
    assert len(RECORDS) >= 13


@pytest.mark.parametrize("record", RECORDS, ids=[r["expression"] or "<empty>" for r in RECORDS])
def test_arithmetic_record(record):
    if "error" in record:
        with pytest.raises(CalcError) as caught:
            safe_eval_arithmetic(record["expression"])
        assert str(caught.value) == record["error"]
    else:
        value = safe_eval_arithmetic(record["expression"])
        assert value == record["result"]
        # The recorded number as JSON is what JavaScript printed for it.
        assert format_js_number(value) == json.dumps(record["result"])
