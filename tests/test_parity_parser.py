"""Replay upstream's recorded parser behaviour (parity corpus, parser/*.jsonl).

A record's `stage` names the function the recorder called (tokenize or parse), so
tokenize records go through `tokenize` and parse records through `parse_command_line`.
"""

from __future__ import annotations

import pytest

from onetool_wasm.shell import ParseError, ast_to_json, parse_command_line, tokenize

from .corpus import load_jsonl, require_corpus

require_corpus()  # skips this module, with the reason, when the corpus is absent

# Recorded inputs where we differ on purpose: input -> "reason (docs/DIFFERENCES.md item N)".
# None of the recorded parser inputs differ today; the improvements are tested in test_shell.py.
DELIBERATE_DIFFERENCES: dict[str, str] = {}


def _params(name: str) -> list:
    return [
        pytest.param(record, id=f"{name}:{index}:{record['input']!r}")
        for index, record in enumerate(load_jsonl(f"parser/{name}"))
    ]


def _outcome(entry, line: str) -> object:
    """What an entry point makes of a line: its result, or ("error", message)."""
    try:
        return entry(line)
    except ParseError as error:
        return ("error", error.message)


def _replay(record: dict, actual: object, recorded: object) -> None:
    if record["input"] in DELIBERATE_DIFFERENCES:
        # The improved behaviour itself is asserted in tests/test_shell.py.
        assert actual != recorded, f"listed but matches upstream: {record['input']!r}"
    else:
        assert actual == recorded


def _tokens(line: str) -> list[str]:
    return [token.value for token in tokenize(line)]


def _ast(line: str) -> list[dict]:
    return ast_to_json(parse_command_line(line))


@pytest.mark.parametrize("record", _params("tokenizer.jsonl"))
def test_tokenizer_record(record: dict) -> None:
    _replay(record, _outcome(_tokens, record["input"]), record["tokens"])


@pytest.mark.parametrize("record", _params("ast.jsonl"))
def test_ast_record(record: dict) -> None:
    _replay(record, _outcome(_ast, record["input"]), record["ast"])


@pytest.mark.parametrize("record", _params("errors.jsonl"))
def test_error_record(record: dict) -> None:
    entry = _tokens if record["stage"] == "tokenize" else _ast
    _replay(record, _outcome(entry, record["input"]), ("error", record["error"]))


def test_deliberate_differences_are_recorded_inputs() -> None:
    names = ("tokenizer.jsonl", "ast.jsonl", "errors.jsonl")
    recorded = {record["input"] for name in names for record in load_jsonl(f"parser/{name}")}
    assert set(DELIBERATE_DIFFERENCES) <= recorded
