"""The browser glue without a browser: BrowserSession and PageBridge over a fake page,
BrowserVFS over the fake store of test_browser_vfs_model, and the wire format.

What the worker does in Chromium (web/js/worker.js) is: decode the page's request, call
`session.handle(method, params)`, encode the answer. These tests call `handle` the same way.
"""
from __future__ import annotations

import asyncio
import importlib.metadata
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from onetool_wasm.browser import wire
from onetool_wasm.browser.bridge import PageBridge, PageError
from onetool_wasm.browser.session import BrowserSession, execution_to_dict
from .helpers import zero_duration
from .test_browser_vfs_model import FakeDatabase, FakeStore

PROJECT_VERSION = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]["version"]


class FakePage:
    """The page's side of the bridge: scripted answers per method, every call recorded."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        # Values cross as wire text + buffers, as between the worker and Python.
        text, buffers = wire.encode(params)
        params = wire.decode(text, buffers)
        self.calls.append((method, params))
        answer = self.answers[method]
        value = answer(params) if callable(answer) else answer
        if isinstance(value, BaseException):
            raise value
        if asyncio.iscoroutine(value):
            value = await value
        text, buffers = wire.encode(value)
        return wire.decode(text, buffers)


def session(page: FakePage | None = None, db: FakeDatabase | None = None, cancelled: Any = lambda: False,
            **options: Any) -> BrowserSession:
    db = db if db is not None else FakeDatabase()
    return BrowserSession(options, PageBridge((page or FakePage()).call), make_store=lambda name: FakeStore(db),
                          cancelled=cancelled)


def start(s: BrowserSession) -> BrowserSession:
    asyncio.run(s.start())
    return s


def handle(s: BrowserSession, method: str, **params: Any) -> Any:
    return asyncio.run(s.handle(method, params))


# -- wire ----------------------------------------------------------------------------------

def test_wire_round_trip_keeps_bytes_and_null() -> None:
    value = {"a": None, "b": [1, 2.5, "x", b"\x00\xff"], "c": {"d": b""}, "e": True}
    text, buffers = wire.encode(value)
    assert buffers == [b"\x00\xff", b""]
    assert json.loads(text) == {"a": None, "b": [1, 2.5, "x", {"__onetool_bytes__": 0}],
                                "c": {"d": {"__onetool_bytes__": 1}}, "e": True}
    assert wire.decode(text, buffers) == value
    assert wire.decode("", []) is None


# -- the session ----------------------------------------------------------------------------

def test_run_and_run_detailed_in_camel_case() -> None:
    s = start(session(storage={"kind": "memory"}, files={"/a.txt": "alpha\nbeta\n", "/b.bin": b"\x00\x01"}))
    assert zero_duration(handle(s, "run", line="grep -c a /a.txt")) == "2\n\n[exit:0 | 0ms]"
    detailed = handle(s, "runDetailed", line="cat /a.txt | head -n 1 || echo no")
    assert detailed["stdout"] == b"alpha\n"
    durations = [c.pop("durationMs") for pipeline in detailed["trace"] for c in pipeline["commands"]]
    assert all(isinstance(ms, int) and ms >= 0 for ms in durations) and len(durations) == 2
    assert {k: v for k, v in detailed.items() if k not in ("durationMs", "presentation", "stdout")} == {
        "commandLine": "cat /a.txt | head -n 1 || echo no", "exitCode": 0, "stderr": "",
        "contentType": "text/plain",
        "trace": [{"relationFromPrevious": None, "executed": True, "exitCode": 0, "skippedReason": None, "commands": [
                       {"argv": ["cat", "/a.txt"], "stdinBytes": 0, "stdoutBytes": 11, "stderr": "", "exitCode": 0,
                        "contentType": "text/plain"},
                       {"argv": ["head", "-n", "1"], "stdinBytes": 11, "stdoutBytes": 6, "stderr": "", "exitCode": 0,
                        "contentType": "text/plain"}]},
                  {"relationFromPrevious": "||", "executed": False, "exitCode": None,
                   "skippedReason": "previous_succeeded", "commands": []}],
    }
    assert detailed["presentation"]["body"] == "alpha"
    assert detailed["presentation"]["stdoutMode"] == "plain"
    assert handle(s, "readFile", path="/b.bin") == b"\x00\x01"


def test_unknown_requests_are_refused() -> None:
    s = start(session(storage={"kind": "memory"}))
    for method in ("_execute", "execute", "start", "__init__"):
        with pytest.raises(ValueError, match="unknown request"):
            handle(s, method)


def test_seed_only_into_an_empty_store_and_reset_seeds_again() -> None:
    db = FakeDatabase()
    options = {"storage": {"kind": "indexeddb", "name": "w"}, "files": {"/seed.txt": "seeded"}}
    first = start(session(db=db, **options))
    handle(first, "run", line="rm /seed.txt && write /mine.txt kept")
    second = start(session(db=db, **options))  # a reload
    assert [f["path"] for f in handle(second, "listFiles") if not f["path"].startswith("/.system")] == ["/mine.txt"]
    handle(second, "reset")
    listed = handle(second, "listFiles")
    assert [(f["path"], f["isDir"], f["size"]) for f in listed if not f["path"].startswith("/.system")] == [
        ("/seed.txt", False, 6)]
    assert zero_duration(handle(first, "run", line="ls /")) == "seed.txt\n\n[exit:0 | 0ms]"  # told by the reset


def test_memory_storage_list_and_write_file() -> None:
    s = start(session(storage={"kind": "memory"}))
    assert handle(s, "writeFile", path="/d/x.txt", data="hé") == "/d/x.txt"
    files = [f for f in handle(s, "listFiles") if not f["path"].startswith("/.system")]
    assert [(f["path"], f["isDir"], f["size"]) for f in files] == [("/d", True, 0), ("/d/x.txt", False, 3)]


def test_storage_defaults_to_indexeddb_named_like_upstream() -> None:
    info = asyncio.run(session().start())
    assert info == {"storage": {"kind": "indexeddb", "name": "one-tool-vfs"}, "onetoolVersion": PROJECT_VERSION}


def test_info_names_the_onetool_version_of_pyproject() -> None:
    info = asyncio.run(session(storage={"kind": "memory"}).start())
    assert info["onetoolVersion"] == PROJECT_VERSION == importlib.metadata.version("onetool-wasm")


def test_tool_definition_formats() -> None:
    s = start(session(storage={"kind": "memory"}))
    definition = handle(s, "toolDefinition", format="anthropic", toolName="shell")
    assert definition["name"] == "shell" and definition["input_schema"]["required"] == ["command"]


# -- the page's functions ---------------------------------------------------------------------

def test_adapters_confirm_and_js_operations_go_through_the_page() -> None:
    page = FakePage(
        search=lambda p: [{"title": "T", "snippet": "S", "source": "src"}],
        fetch=lambda p: {"contentType": "application/octet-stream", "payload": b"\x89PNG"},
        confirm=lambda p: {"approved": True, "input": {"name": "edited"}},
        operation=lambda p: {"echo": p["input"]},
    )
    providers = [{"type": "js", "namespace": "shop", "summary": "Shop", "operations": [
        {"name": "addItem", "summary": "Add", "kind": "write", "inputSchema": {
            "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}]}]
    s = start(session(page, storage={"kind": "memory"}, adapters={"search": True, "fetch": True}, confirm=True,
                      providers=providers))
    assert zero_duration(handle(s, "run", line="search q")) == "1. T\n   source: src\n   S\n\n[exit:0 | 0ms]"
    assert "binary" in handle(s, "run", line="fetch img").lower()
    assert zero_duration(handle(s, "run", line="shop addItem name=x")) == (
        '{\n  "echo": {\n    "name": "edited"\n  }\n}\n\n[exit:0 | 0ms]')
    methods = [method for method, _ in page.calls]
    assert methods == ["search", "fetch", "confirm", "operation"]
    assert page.calls[0][1] == {"query": "q", "limit": 10}
    assert page.calls[2][1]["request"]["ref"] == "shop:addItem"
    assert page.calls[3][1] == {"namespace": "shop", "name": "addItem", "input": {"name": "edited"}}


def test_a_failing_page_operation_is_an_operation_error() -> None:
    page = FakePage(operation=PageError("TypeError", "handler exploded"))
    providers = [{"type": "js", "namespace": "svc", "operations": [{"name": "getThing"}]}]
    s = start(session(page, storage={"kind": "memory"}, providers=providers))
    assert zero_duration(handle(s, "run", line="svc getThing")) == (
        "[error] svc: svc:getThing failed: handler exploded\n\n[exit:1 | 0ms]")


def test_openapi_document_and_calls_through_the_page_fetch() -> None:
    document = {"openapi": "3.0.0", "info": {"title": "Pets"}, "servers": [{"url": "https://pets.invalid"}],
                "paths": {"/pets": {"get": {"operationId": "listPets", "responses": {"200": {"description": "ok"}}}}}}

    def http(params: dict[str, Any]) -> dict[str, Any]:
        if params["url"].endswith("openapi.json"):
            return {"status": 200, "headers": {}, "body": json.dumps(document).encode()}
        return {"status": 200, "headers": {"Content-Type": "application/json"}, "body": b'[{"name": "Rex"}]'}

    page = FakePage(http=http)
    s = start(session(page, storage={"kind": "memory"},
                      providers=[{"type": "openapi", "namespace": "pets", "openapi": "/api/openapi.json"}]))
    assert zero_duration(handle(s, "run", line="pets listPets | json get 0.name")) == "Rex\n\n[exit:0 | 0ms]"
    assert [(p["method"], p["url"], p["namespace"]) for _, p in page.calls] == [
        ("GET", "/api/openapi.json", "pets"), ("GET", "https://pets.invalid/pets", "pets")]


# -- interrupts -----------------------------------------------------------------------------------

INTERRUPTED = "[error] interrupted: the command was stopped before it finished\n\n[exit:130 | 0ms]"


def test_an_interrupted_page_call_ends_the_command_with_130() -> None:
    page = FakePage(search=PageError("InterruptError", "interrupted: the page called interrupt()"))
    s = start(session(page, storage={"kind": "memory"}, adapters={"search": True}))
    detailed = handle(s, "runDetailed", line="search x && echo never")
    assert (detailed["exitCode"], detailed["stderr"], detailed["trace"]) == (
        130, "interrupted: the command was stopped before it finished", [])
    assert zero_duration(detailed["presentation"]["text"]) == INTERRUPTED
    assert zero_duration(handle(s, "run", line="echo next")) == "next\n\n[exit:0 | 0ms]"


def test_keyboard_interrupt_and_the_cancel_flag() -> None:
    flag = {"set": False}
    s = start(session(storage={"kind": "memory"}, cancelled=lambda: flag["set"]))
    assert s.runtime.ctx.cancelled() is False

    async def boom(line: str) -> Any:
        raise KeyboardInterrupt

    real = s.runtime.run_detailed
    s.runtime.run_detailed = boom
    assert zero_duration(handle(s, "run", line="echo x")) == INTERRUPTED
    s.runtime.run_detailed = real
    flag["set"] = True  # raised while the command ran: its result is "interrupted"
    assert zero_duration(handle(s, "run", line="echo x")) == INTERRUPTED
    assert s.runtime.ctx.cancelled() is True


def test_the_interrupt_signal_raises_only_inside_a_command() -> None:
    import sys
    from onetool_wasm.browser.session import on_interrupt_signal

    on_interrupt_signal(2, sys._getframe())  # glue code: nothing happens
    seen = []

    async def probe(line: str) -> Any:
        try:
            on_interrupt_signal(2, sys._getframe())
        except KeyboardInterrupt:
            seen.append("raised")
            raise

    s = start(session(storage={"kind": "memory"}))
    s.runtime.run_detailed = probe
    assert zero_duration(handle(s, "run", line="echo x")) == INTERRUPTED
    assert seen == ["raised"]


def test_the_interrupt_signal_after_the_command_leaves_it_to_the_cancel_flag() -> None:
    # The signal lands in `_execute` itself, outside its `try` (here: while it reads the
    # cancel flag). Raising there would escape to the event loop as a page error.
    import sys
    from onetool_wasm.browser.session import on_interrupt_signal

    def cancelled() -> bool:
        on_interrupt_signal(2, sys._getframe())
        return True

    s = start(session(storage={"kind": "memory"}, cancelled=cancelled))
    assert zero_duration(handle(s, "run", line="echo x")) == INTERRUPTED


# -- several instances in one worker (BrowserSessions) ----------------------------------------------

def sessions(pages: dict[str, FakePage], cancelled: set[str] | None = None, db: FakeDatabase | None = None):
    """A worker's sessions as worker.py builds them: each instance its own bridge and cancel flag."""
    from onetool_wasm.browser.session import BrowserSessions
    db = db if db is not None else FakeDatabase()
    flags = cancelled if cancelled is not None else set()
    return BrowserSessions(lambda instance, options: BrowserSession(
        options, PageBridge(pages[instance].call), make_store=lambda name: FakeStore(db),
        cancelled=lambda: instance in flags))


def ask(s: Any, instance: str, method: str, **params: Any) -> Any:
    return asyncio.run(s.request(instance, method, params))


def test_instances_of_one_worker_keep_their_own_files_policy_and_consent() -> None:
    pages = {"a": FakePage(confirm=lambda p: "declined" if p["request"]["operation"] == "rm" else "approved"),
             "b": FakePage(confirm=lambda p: "approved")}
    s = sessions(pages)
    seed = {"/shared-name.txt": "seed\n"}
    assert ask(s, "a", "open", options={"storage": {"kind": "memory"}, "files": seed, "confirm": True,
                                        "policy": {"confirm": ["fs:rm"]}}) == {
        "storage": {"kind": "memory"}, "onetoolVersion": PROJECT_VERSION}
    ask(s, "b", "open", options={"storage": {"kind": "memory"}, "files": seed})
    assert zero_duration(ask(s, "a", "run", line="write /only-a.txt mine")) == (
        "wrote 4B to /only-a.txt\n\n[exit:0 | 0ms]")
    assert zero_duration(ask(s, "b", "run", line="ls /")) == "shared-name.txt\n\n[exit:0 | 0ms]"
    # Only a's policy asks, and only a's page is asked.
    assert zero_duration(ask(s, "a", "run", line="rm /shared-name.txt")) == (
        "[error] rm: fs:rm was declined by the user; nothing was run\n\n[exit:1 | 0ms]")
    assert zero_duration(ask(s, "b", "run", line="rm /shared-name.txt && echo gone")) == "gone\n\n[exit:0 | 0ms]"
    assert [p["request"]["ref"] for _, p in pages["a"].calls] == ["fs:write", "fs:rm"]
    assert pages["b"].calls == []
    assert zero_duration(ask(s, "a", "run", line="ls /")) == "only-a.txt\nshared-name.txt\n\n[exit:0 | 0ms]"
    assert sorted(s.sessions) == ["a", "b"]


def test_the_cancel_flag_of_one_instance_does_not_stop_another() -> None:
    cancelled: set[str] = set()
    s = sessions({"a": FakePage(), "b": FakePage()}, cancelled)
    for instance in ("a", "b"):
        ask(s, instance, "open", options={"storage": {"kind": "memory"}})
    cancelled.add("a")
    assert zero_duration(ask(s, "a", "run", line="echo x")) == INTERRUPTED
    assert zero_duration(ask(s, "b", "run", line="echo x")) == "x\n\n[exit:0 | 0ms]"


def test_indexeddb_instances_of_one_worker_use_their_own_store_names() -> None:
    opened: list[str] = []
    db = FakeDatabase()
    from onetool_wasm.browser.session import BrowserSessions
    s = BrowserSessions(lambda instance, options: BrowserSession(
        options, PageBridge(FakePage().call), make_store=lambda name: opened.append(name) or FakeStore(db)))
    ask(s, "a", "open", options={"storage": {"kind": "indexeddb", "name": "world-a"}})
    ask(s, "b", "open", options={"storage": {"kind": "indexeddb", "name": "world-b"}})
    assert opened == ["world-a", "world-b"]
    assert ask(s, "a", "toolDefinition", format="openai")["function"]["name"] == "run"


def test_open_close_and_unknown_instances() -> None:
    s = sessions({"a": FakePage(), "bad": FakePage()})
    ask(s, "a", "open", options={"storage": {"kind": "memory"}})
    with pytest.raises(ValueError, match="^session 'a' is already open$"):
        ask(s, "a", "open", options={"storage": {"kind": "memory"}})
    with pytest.raises(LookupError, match="^no session 'b' in this worker$"):
        ask(s, "b", "run", line="echo x")
    with pytest.raises(ValueError, match="^a request needs an instance id, got ''$"):
        ask(s, "", "run", line="echo x")
    # A session that fails to start (a provider without a namespace) leaves nothing behind.
    with pytest.raises(KeyError):
        ask(s, "bad", "open", options={"storage": {"kind": "memory"}, "providers": [{"type": "js"}]})
    assert list(s.sessions) == ["a"]
    assert ask(s, "a", "close") is None
    assert s.sessions == {}
    with pytest.raises(LookupError, match="^no session 'a' in this worker$"):
        ask(s, "a", "run", line="echo x")
