"""The typed tool catalog: define, bind per request, invoke, events, records, limits."""
from __future__ import annotations

import asyncio
import json

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.catalog import (CancelSignal, ToolCancelledError, ToolCatalog, ToolDeniedError, ToolExecutionError,
                                  ToolInputError, ToolOutputError, ToolTimeoutError, UnknownToolError, define_tool)

from .helpers import arun, zero_duration


class App:
    def __init__(self):
        self.status = {"db": "up", "queue": "degraded"}
        self.user = "ann"


STATUS_SCHEMA = {"type": "object", "properties": {"service": {"type": "string", "enum": ["db", "queue"]}},
                 "additionalProperties": False}


def get_status(input, ctx):
    service = input.get("service")
    return ctx.app.status if service is None else {service: ctx.app.status[service]}


def make_catalog(**overrides):
    tools = [
        define_tool(id="get_status", kind="read", description="Service status.\nReturns a map.",
                    input_schema=STATUS_SCHEMA, execute=get_status, parse_output=lambda value: dict(value)),
        define_tool(id="restart", kind="write", description="Restart a service.",
                    input_schema={"type": "object", "required": ["service"],
                                  "properties": {"service": {"type": "string"}}},
                    authorize=lambda input, ctx: ctx.app.user == "root" or f"{ctx.app.user} may not restart",
                    execute=lambda input, ctx: {"restarted": input["service"]}),
    ]
    return ToolCatalog([*tools, *overrides.get("extra", [])])


def event_types(bound):
    return [(e.type, e.tool_id, e.call_id) for e in bound.events]


# --- defining ---------------------------------------------------------------------------------------

def test_catalog_lists_tool_ids_in_order():
    catalog = make_catalog()
    assert catalog.tools.ids() == ["get_status", "restart"]
    assert catalog.tools.get("restart").summary == "Restart a service."
    assert "get_status" in catalog.tools and len(catalog.tools) == 2


@pytest.mark.parametrize("kwargs, message", [
    ({"id": "a b"}, "tool id must be a non-empty word"),
    ({"kind": "delete"}, "tool t: kind must be one of read, write, sensitive, got 'delete'"),
    ({"execute": 3}, "tool t: execute must be callable"),
    ({"authorize": "yes"}, "tool t: authorize must be callable"),
    ({"input_schema": {"type": 5}}, "tool t input_schema is not a valid JSON Schema"),
])
def test_define_tool_checks_its_arguments(kwargs, message):
    options = {"id": "t", "kind": "read", "description": "d", "execute": lambda i, c: 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        define_tool(**options)


def test_duplicate_ids_are_refused():
    tool = define_tool(id="t", kind="read", description="d", execute=lambda i, c: 1)
    with pytest.raises(ValueError, match="duplicate tool id: t"):
        ToolCatalog([tool, tool])


# --- invoking ---------------------------------------------------------------------------------------

def test_invoke_returns_value_and_invocation_and_logs_events():
    bound = make_catalog().bind(app=App())
    result = arun(bound.invoke("get_status", {"service": "db"}))
    assert result.value == {"db": "up"}
    assert (result.invocation.call_id, result.invocation.tool_id, result.invocation.status) == (1, "get_status", "completed")
    assert result.invocation.input == {"service": "db"} and result.invocation.error is None
    assert result.invocation.duration_ms >= 0
    assert event_types(bound) == [("started", "get_status", 1), ("authorized", "get_status", 1),
                                  ("completed", "get_status", 1)]
    assert [e.seq for e in bound.events] == [1, 2, 3]
    assert bound.calls == [result.invocation]


def test_invoke_sync_runs_sync_and_async_tools():
    async def slow_echo(input, ctx):
        await asyncio.sleep(0)
        return input

    catalog = make_catalog(extra=[define_tool(id="echo", kind="read", description="Echo.", execute=slow_echo)])
    bound = catalog.bind(app=App())
    assert bound.invoke_sync("get_status").value == {"db": "up", "queue": "degraded"}
    assert bound.invoke_sync("echo", {"a": 1}).value == {"a": 1}
    assert [c.status for c in bound.calls] == ["completed", "completed"]


def test_input_is_parsed_before_authorize():
    authorized = []
    tool = define_tool(id="t", kind="write", description="d", input_schema={"type": "object", "required": ["n"]},
                       authorize=lambda input, ctx: authorized.append(input) or True, execute=lambda i, c: 1)
    bound = ToolCatalog([tool]).bind()
    with pytest.raises(ToolInputError) as error:
        arun(bound.invoke("t", {}))
    assert str(error.value) == "t: input rejected: invalid input (1 problem):\n  - at /: 'n' is a required property"
    assert error.value.code == "input_rejected" and error.value.invocation.status == "input_rejected"
    assert authorized == []
    assert [(e.type, e.detail.split("\n")[0]) for e in bound.events] == [
        ("started", ""), ("failed", "t: input rejected: invalid input (1 problem):")]


def test_authorize_denies_with_its_reason():
    bound = make_catalog().bind(app=App())
    with pytest.raises(ToolDeniedError) as error:
        arun(bound.invoke("restart", {"service": "db"}))
    assert str(error.value) == "restart: denied by authorize: ann may not restart"
    assert event_types(bound) == [("started", "restart", 1), ("denied", "restart", 1)]
    assert bound.calls[0].status == "denied"


@pytest.mark.parametrize("verdict, reason", [
    (False, "not authorized"), ("", "not authorized"), ({"allowed": False, "reason": "after hours"}, "after hours"),
    ({"allowed": False}, "not authorized"), (0, "not authorized"),
])
def test_authorize_refusals(verdict, reason):
    tool = define_tool(id="t", kind="read", description="d", authorize=lambda i, c: verdict, execute=lambda i, c: 1)
    with pytest.raises(ToolDeniedError, match=f"t: denied by authorize: {reason}"):
        arun(ToolCatalog([tool]).bind().invoke("t"))


@pytest.mark.parametrize("verdict", [True, None, {"allowed": True}, {"allow": True}])
def test_authorize_approvals(verdict):
    async def authorize(input, ctx):
        return verdict

    tool = define_tool(id="t", kind="read", description="d", authorize=authorize, execute=lambda i, c: 7)
    assert arun(ToolCatalog([tool]).bind().invoke("t")).value == 7


def test_authorize_raising_is_a_denial():
    def authorize(input, ctx):
        raise PermissionError("token expired")

    tool = define_tool(id="t", kind="read", description="d", authorize=authorize, execute=lambda i, c: 7)
    with pytest.raises(ToolDeniedError, match="t: denied by authorize: token expired"):
        arun(ToolCatalog([tool]).bind().invoke("t"))


def test_output_is_parsed_and_validated():
    def parse(value):
        if "ok" not in value:
            raise ValueError("missing ok")
        return value["ok"]

    tools = [define_tool(id="a", kind="read", description="d", execute=lambda i, c: {}, parse_output=parse),
             define_tool(id="b", kind="read", description="d", execute=lambda i, c: "x",
                         output_schema={"type": "integer"}),
             define_tool(id="c", kind="read", description="d", execute=lambda i, c: {"ok": 5}, parse_output=parse)]
    bound = ToolCatalog(tools).bind()
    with pytest.raises(ToolOutputError, match="^a: output rejected: missing ok$"):
        arun(bound.invoke("a"))
    with pytest.raises(ToolOutputError, match="^b: output rejected: at /: 'x' is not of type 'integer'$"):
        arun(bound.invoke("b"))
    assert arun(bound.invoke("c")).value == 5
    assert [c.status for c in bound.calls] == ["output_rejected", "output_rejected", "completed"]
    assert [e.type for e in bound.events] == ["started", "authorized", "failed"] * 2 + [
        "started", "authorized", "completed"]


def test_execute_errors_carry_the_cause():
    async def broken(input, ctx):
        raise ConnectionError("db unreachable")

    tools = [define_tool(id="a", kind="read", description="d", execute=broken),
             define_tool(id="b", kind="read", description="d", execute=lambda i, c: 1 / 0)]
    bound = ToolCatalog(tools).bind()
    with pytest.raises(ToolExecutionError, match="^a: failed: ConnectionError: db unreachable$"):
        arun(bound.invoke("a"))
    with pytest.raises(ToolExecutionError, match="^b: failed: ZeroDivisionError: division by zero$"):
        arun(bound.invoke("b"))
    assert [c.status for c in bound.calls] == ["failed", "failed"]


def test_unknown_tool():
    with pytest.raises(UnknownToolError, match="unknown tool: nope \\(tools: get_status, restart\\)"):
        arun(make_catalog().bind().invoke("nope"))


# --- timeouts and cancellation --------------------------------------------------------------------------

async def wait_forever(input, ctx):
    await asyncio.Event().wait()


def slow_catalog():
    return ToolCatalog([define_tool(id="slow", kind="read", description="d", execute=wait_forever)])


def test_timeout_ends_the_call_with_a_timed_out_event():
    bound = slow_catalog().bind(timeout=5.0)
    with pytest.raises(ToolTimeoutError) as error:
        arun(bound.invoke("slow", timeout=0.01))
    assert str(error.value) == "slow: timed out after 0.01s"
    assert [e.type for e in bound.events] == ["started", "authorized", "timed_out"]
    assert bound.calls[0].status == "timed_out"


def test_a_call_timeout_can_only_shorten_the_bound_one():
    seen = []

    def remaining(input, ctx):
        seen.append((ctx.timeout, ctx.deadline))
        return ctx.timeout

    bound = ToolCatalog([define_tool(id="t", kind="read", description="d", execute=remaining)]).bind(timeout=1.0)
    longer = arun(bound.invoke("t", timeout=600.0)).value
    shorter = arun(bound.invoke("t", timeout=0.5)).value
    assert 0.9 < longer <= 1.0      # the binding's deadline still holds
    assert 0.4 < shorter <= 0.5
    assert seen[0][1] == bound.deadline


def test_an_expired_binding_does_not_start_calls():
    ran = []
    tool = define_tool(id="t", kind="read", description="d", execute=lambda i, c: ran.append(1))
    bound = ToolCatalog([tool]).bind(timeout=0.0)
    with pytest.raises(ToolTimeoutError, match="t: timed out: the deadline passed before it started"):
        arun(bound.invoke("t"))
    assert ran == []


def test_cancel_signal_ends_a_running_call():
    bound = slow_catalog().bind()

    async def go():
        call = asyncio.ensure_future(bound.invoke("slow"))
        await asyncio.sleep(0.01)
        bound.cancel("user pressed stop")
        return await call

    with pytest.raises(ToolCancelledError) as error:
        arun(go())
    assert str(error.value) == "slow: cancelled: user pressed stop"
    assert [e.type for e in bound.events] == ["started", "authorized", "cancelled"]


def test_per_call_signal_cancels_only_that_call_and_cancelled_bindings_refuse():
    bound = slow_catalog().bind()
    signal = CancelSignal()

    async def go():
        call = asyncio.ensure_future(bound.invoke("slow", cancel=signal))
        await asyncio.sleep(0.01)
        signal.cancel("this one")
        return await call

    with pytest.raises(ToolCancelledError, match="slow: cancelled: this one"):
        arun(go())
    assert not bound.signal.cancelled
    bound.cancel()
    with pytest.raises(ToolCancelledError, match="slow: cancelled: cancelled"):
        arun(bound.invoke("slow"))
    assert [c.status for c in bound.calls] == ["cancelled", "cancelled"]


def test_bindings_are_per_request():
    catalog = make_catalog()
    first, second = catalog.bind(app=App()), catalog.bind(app=App())
    first.app.status["db"] = "down"
    assert arun(first.invoke("get_status", {"service": "db"})).value == {"db": "down"}
    assert arun(second.invoke("get_status", {"service": "db"})).value == {"db": "up"}
    assert len(first.events) == len(second.events) == 3


# --- behind the api command --------------------------------------------------------------------------------

def test_catalog_as_provider_behind_the_api_command():
    app = App()
    provider = make_catalog().as_provider("ops", app=app, summary="Operations tools")

    async def go():
        runtime = await create_agent_cli(providers=[provider], confirm=lambda request: "approved")
        return [zero_duration(await runtime.run(line)) for line in (
            "ops get_status service=queue", "ops restart service=db", "ops get_status service=web",
            "api describe ops:restart")]

    status, restart, invalid, describe = arun(go())
    assert status == '{\n  "queue": "degraded"\n}\n\n[exit:0 | 0ms]'
    assert restart == "[error] ops: ops:restart was refused: restart: denied by authorize: ann may not restart\n\n[exit:1 | 0ms]"
    assert invalid.startswith("[error] ops: invalid input for ops:get_status (1 problem):\n"
                              "  - at /service: 'web' is not one of ['db', 'queue']")
    described = json.loads(describe.rsplit("\n\n[exit", 1)[0])
    assert (described["kind"], described["verdict"], described["summary"]) == ("write", "confirm", "Restart a service.")
    assert [e.type for e in provider.bound.events] == ["started", "authorized", "completed", "started", "denied"]


def test_a_catalog_with_a_namespace_is_a_provider_itself():
    catalog = make_catalog()
    catalog.namespace, catalog.app = "ops", App()

    async def go():
        runtime = await create_agent_cli(providers=[catalog])
        return zero_duration(await runtime.run("ops get_status service=db"))

    assert arun(go()) == '{\n  "db": "up"\n}\n\n[exit:0 | 0ms]'


def test_output_rejected_by_a_message_less_exception_names_its_type():
    def parse(value):
        raise ValueError()

    tool = define_tool(id="a", kind="read", description="d", execute=lambda i, c: {}, parse_output=parse)
    with pytest.raises(ToolOutputError, match="^a: output rejected: ValueError$"):
        arun(ToolCatalog([tool]).bind().invoke("a"))
