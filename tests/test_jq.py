"""jq: replay of jq 1.6 recordings (tests/data/jq_corpus.json, made by
tools/record_jq_corpus.py) through the real runtime, plus a property test: random filters
never raise an internal error and end quickly."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.jq import JqLimit, compile_filter
from onetool_wasm.vfs import MemoryVFS

CORPUS = json.loads((Path(__file__).parent / "data" / "jq_corpus.json").read_text(encoding="utf-8"))
KNOWN_DIFFERENCES: dict[str, str] = {
    "filter-247": "jq 1.6 bug: `try` inside `|=` (map_values(f?)) also swallows the internal break, "
                  "dropping later updates; we apply each update",
    "filter-326": "input_line_number is always 0 (inputs are parsed whole, not line by line)",
    "flags-037": "-C (colour output) is accepted but prints plain text",
}


async def _replay(line: str) -> tuple[bytes, int, bool]:
    vfs = MemoryVFS()
    for name, text in CORPUS["files"].items():
        await vfs.write_bytes("/" + name, text.encode("utf-8"))
    runtime = await create_agent_cli(vfs=vfs)
    execution = await runtime.run_detailed(line)
    return execution.stdout, execution.exit_code, bool(execution.stderr)


def _params():
    for case in CORPUS["cases"]:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["id"]])] if case["id"] in KNOWN_DIFFERENCES else []
        yield pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_recorded_case(case):
    stdout, code, has_stderr = asyncio.run(_replay(case["line"]))
    expected = case["stdout"].encode("utf-8", errors="surrogateescape")
    assert (stdout, code, has_stderr) == (expected, case["exit_code"], case["stderr"]), case["line"]


def test_corpus_is_large_enough():
    assert len(CORPUS["cases"]) >= 250
    assert len(KNOWN_DIFFERENCES) <= len(CORPUS["cases"]) * 0.02


TOKENS = [".", ".a", ".[]", ".[0]", "..", "|", ",", "(", ")", "[", "]", "{", "}", ":", ";", "?", "//", "+", "-",
          "*", "/", "%", "==", "<", "and", "or", "not", "as", "$x", "def f:", "f", "if", "then", "else", "end",
          "reduce", "foreach", "try", "catch", "map(", "select(", "recurse", "range(", "1", "2", "\"s\"", "null",
          "length", "keys", "add", "tostring", "tojson", "paths", "del(", "|=", "=", "+=", "label $l |", "break $l",
          "limit(", "repeat(", "error", "@csv", "@base64", "\"\\(", "to_entries", "sort", "group_by(", "input", "empty"]


def test_random_filters_never_crash():
    from hypothesis import given, settings, strategies as st

    from .helpers import call, examples

    @settings(max_examples=examples(150), deadline=None)
    @given(words=st.lists(st.sampled_from(TOKENS), max_size=12),
           stdin=st.sampled_from([b"", b"{\"a\":[1,2]}", b"[1,\"x\",null]", b"1 2", b"{bad"]),
           flags=st.lists(st.sampled_from(["-c", "-r", "-n", "-s", "-e", "-S"]), max_size=2))
    def check(words, stdin, flags):
        started = time.monotonic()
        result = call("jq", [*flags, " ".join(words)], stdin=stdin)
        assert "internal runtime error" not in result.stderr, (words, result.stderr)
        assert result.exit_code in (0, 1, 2, 3, 4, 5), (words, result)
        assert time.monotonic() - started < 20, words

    check()


def test_runaway_filters_stop_with_a_clear_error():
    from .helpers import call
    result = call("jq", ["-n", "def f: f; f"])
    assert result.exit_code == 5 and result.stderr.startswith("jq: error"), result
    for flt in ("[range(1e9)] | length", "[repeat(1)] | length", "last(range(1e12))", "[recurse(.+1)]"):
        program = compile_filter(flt, {"ENV": {}}, max_steps=50_000)
        with pytest.raises(JqLimit, match="steps"):
            list(program.run(0.0))


def test_interrupt_stops_a_long_run():
    program = compile_filter("[range(1e9)]", {"ENV": {}}, cancelled=lambda: True)
    with pytest.raises(JqLimit, match="interrupted"):
        list(program.run(None))


def test_deep_input_is_refused():
    from .helpers import call
    result = call("jq", ["."], stdin=b"[" * 5000 + b"]" * 5000)
    assert result.exit_code == 2 and result.stderr
