"""The runtime the suite runs in has what the project needs: proves the build on both runtimes.

Inside Pyodide this covers the pinned wheels, the rpds-py shim (jsonschema validates),
hypothesis, and asyncio.run (which needs JS Promise integration under Node).
"""

import asyncio
import os
import sys

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

import onetool_wasm

IN_PYODIDE = sys.platform == "emscripten"


def test_package_imports():
    assert onetool_wasm.__name__ == "onetool_wasm"


def test_runtime_marker_matches_platform():
    assert (os.environ.get("ONETOOL_RUNTIME") == "pyodide") == IN_PYODIDE


def test_jsonschema_validates():
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    jsonschema.validate({"a": 1}, schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors({"a": "x"}))
    assert [error.validator for error in errors] == ["type"]


def test_jsonschema_references_resolve():
    schema = {"$defs": {"n": {"type": "integer"}}, "type": "array", "items": {"$ref": "#/$defs/n"}}
    jsonschema.validate([1, 2], schema)
    assert not jsonschema.Draft202012Validator(schema).is_valid([1, "2"])


def test_rpds_shim_in_pyodide():
    import rpds

    if IN_PYODIDE:
        assert rpds.is_pure_pyrsistent_as_rpds is True
    assert rpds.HashTrieMap({"a": 1}).insert("b", 2) == rpds.HashTrieMap({"a": 1, "b": 2})


def test_asyncio_run():
    async def double(value):
        await asyncio.sleep(0)
        return value * 2

    assert asyncio.run(double(21)) == 42


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers()))
def test_hypothesis_runs(values):
    assert sorted(sorted(values)) == sorted(values)


def test_onetool_wasm_is_the_wheel_in_pyodide():
    if IN_PYODIDE:
        assert "site-packages" in onetool_wasm.__file__
