"""search and fetch over host adapters: rendering, sync/async/dict shapes, errors."""
from __future__ import annotations

import pytest

from onetool_wasm.adapters import FetchResponse, SearchHit
from onetool_wasm.commands import create_command_registry
from onetool_wasm.testing import DemoFetch, DemoSearch

from .data_world import FETCH_RESOURCES, SEARCH_DOCS, fuzz_command, out, run
from .helpers import conformance_test

MISSING_SEARCH = ("search: no search adapter configured. "
                  "Pass { adapters: { search: ... } } to createAgentCLI(...) to use this command.")
MISSING_FETCH = ("fetch: no fetch adapter configured. "
                 "Pass { adapters: { fetch: ... } } to createAgentCLI(...) to use this command.")


def search(*args, adapter=None):
    return run("search", *args, adapters={"search": adapter if adapter is not None else DemoSearch(SEARCH_DOCS)})


def fetch(*args, adapter=None, **options):
    return run("fetch", *args, adapters={"fetch": adapter if adapter is not None else DemoFetch(FETCH_RESOURCES)},
               **options)


class SyncSearch:
    def __init__(self, hits):
        self.hits = hits
        self.calls = []

    def search(self, query, limit=10):
        self.calls.append((query, limit))
        return self.hits


class Raising:
    def __init__(self, error):
        self.error = error

    def search(self, query, limit=10):
        raise self.error

    async def fetch(self, resource):
        raise self.error


class HttpError(Exception):
    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


class CodedError(Exception):
    code = "NOT_FOUND"


# -- search -------------------------------------------------------------------------------

def test_search_renders_numbered_blocks_with_final_newline():
    assert out(search("refund", "timeout")) == (
        "1. Refund timeout\n   source: kb://1\n   refund timeout retro\n", "", 0, "text/plain")


def test_search_passes_the_joined_query_and_limit_and_caps_results():
    adapter = SyncSearch([SearchHit(f"t{i}", "", "") for i in range(15)])
    result = search("a", "b", adapter=adapter)
    assert adapter.calls == [("a b", 10)]
    assert result.stdout.decode().splitlines() == [line for i in range(10) for line in (f"{i + 1}. t{i}", "")][:-1]


def test_search_accepts_dict_hits_and_omits_empty_fields():
    adapter = SyncSearch([{"title": "A", "snippet": "s"}, {"title": "B", "source": "u"}])
    assert search("q", adapter=adapter).stdout == b"1. A\n   s\n\n2. B\n   source: u\n"


def test_search_accepts_a_bare_async_callable():
    async def find(query, limit):
        return [SearchHit("Hit", query, "src")]
    assert search("x y", adapter=find).stdout == b"1. Hit\n   source: src\n   x y\n"


def test_search_no_results_and_errors():
    assert search("nothing-matches").stdout == b"(no results)\n"
    assert out(search("q", adapter=Raising(RuntimeError("backend down")))) == \
        ("", "search: adapter error: backend down", 1, "text/plain")
    assert search("q", adapter=SyncSearch(42)).stderr == "search: adapter error: 'int' object is not iterable"
    assert run("search", "q").stderr == MISSING_SEARCH
    assert run("search").stderr == "search: usage: search <query>"
    assert search("q").exit_code == 0 and run("search", "q", stdin=b"x").stderr == "search: does not accept stdin"


def test_search_respects_max_materialized_bytes():
    result = run("search", "refund", adapters={"search": DemoSearch(SEARCH_DOCS)}, max_materialized_bytes=10)
    assert result.stderr == "search: input exceeds max materialized size (59B > 10B): search results"


def test_demo_search_ties_break_in_c_locale_title_order():
    docs = [{"title": t, "body": "refund", "source": ""} for t in ("ä t", "z t", "a t", "É t", "Ω t")]
    titles = [line.split(". ", 1)[1] for line in search("refund", adapter=DemoSearch(docs)).stdout.decode().split("\n")
              if line[:1].isdigit()]
    assert titles == ["a t", "z t", "É t", "ä t", "Ω t"]


# -- fetch --------------------------------------------------------------------------------

def test_fetch_renders_json_text_and_bytes():
    assert out(fetch("order:1")) == ('{\n  "id": 1,\n  "items": [\n    1,\n    2\n  ]\n}', "", 0, "application/json")
    assert out(fetch("text:1")) == ("hello", "", 0, "text/plain")
    result = fetch("bin:1")
    assert (result.stdout, result.content_type) == (b"\x00\x01\x02", "application/octet-stream")


def test_fetch_renders_scalars_like_javascript_string():
    def payload(value, content_type="text/plain"):
        return fetch("r", adapter=lambda resource: FetchResponse(content_type, value))
    assert payload(None).stdout == b"null"
    assert payload(True).stdout == b"true"
    assert payload(2.0).stdout == b"2"
    assert payload(1e21).stdout == b"1e+21"
    assert out(payload("a,b", "text/csv")) == ("a,b", "", 0, "text/csv")
    assert payload(("x",), "text/plain").content_type == "application/json"


def test_fetch_accepts_dict_responses_from_sync_adapters():
    class Host:
        def fetch(self, resource):
            return {"contentType": "application/json", "payload": {"r": resource}}
    assert fetch("k", adapter=Host()).stdout == b'{\n  "r": "k"\n}'


@pytest.mark.parametrize("error", [
    LookupError("resource not found: x"), KeyError("x"), FileNotFoundError("x"), HttpError("gone", 404),
    CodedError("nope"), RuntimeError("Item Not Found"),
])
def test_fetch_not_found_detection(error):
    assert out(fetch("x", adapter=Raising(error))) == ("", "fetch: resource not found: x", 1, "text/plain")


def test_fetch_errors():
    assert fetch("missing").stderr == "fetch: resource not found: missing"
    assert fetch("x", adapter=Raising(HttpError("server exploded", 500))).stderr == "fetch: adapter error: server exploded"
    assert fetch("x", adapter=Raising(RuntimeError())).stderr == "fetch: adapter error: RuntimeError"
    assert fetch("x", adapter=lambda r: None).stderr == "fetch: adapter error: the fetch adapter returned nothing for x"
    assert fetch("x", adapter=lambda r: FetchResponse("application/json", {"a": {1, 2}})).stderr == (
        "fetch: adapter error: the payload of x cannot be shown as JSON (value of type set is not JSON)")
    assert run("fetch", "x").stderr == MISSING_FETCH
    assert run("fetch", "a", "b").stderr == "fetch: usage: fetch <resource>"
    assert run("fetch", "a", stdin=b"x").stderr == "fetch: does not accept stdin"


def test_fetch_respects_max_materialized_bytes():
    assert fetch("order:1", max_materialized_bytes=8).stderr == \
        "fetch: input exceeds max materialized size (44B > 8B): order:1"
    assert fetch("bin:1", max_materialized_bytes=2).stderr == \
        "fetch: input exceeds max materialized size (3B > 2B): bin:1"


def test_fetch_into_json_get_through_the_runtime():
    from .helpers import run_line
    adapters = {"fetch": DemoFetch(FETCH_RESOURCES), "search": DemoSearch(SEARCH_DOCS)}
    assert run_line("fetch order:1 | json get items[1]", adapters=adapters) == "2\n\n[exit:0 | 0ms]"
    assert run_line("search acme | head -n 1", adapters=adapters).startswith("1. Acme notes\n")


# -- metadata, conformance and fuzzing ----------------------------------------------------

def test_specs_metadata():
    registry = create_command_registry()
    for name in ("search", "fetch"):
        spec = registry.get(name)
        assert (spec.group, spec.kind, spec.accepts_stdin, spec.requires_adapter) == ("adapters", "read", False, name)


test_conformance = conformance_test("search", "fetch")


@pytest.mark.parametrize("name", ["search", "fetch"])
def test_fuzzed_arguments_never_crash(name):
    fuzz_command(name, ["refund", "acme", "order:1", "text:1", "bin:1", "missing"])
