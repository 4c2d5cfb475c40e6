"""The operations as typed tools: the generic, flat and auto layouts over one policy, consent
and redaction (catalog/layouts.py), routed by one handle_tool."""
from __future__ import annotations

import json

import pytest

from onetool_wasm import Policy, create_agent_cli
from onetool_wasm.catalog import FunctionProvider, OperationCatalog, OperationTools
from onetool_wasm.catalog.layouts import AUTO_FLAT_LIMIT, tool_name
from onetool_wasm.redaction import REDACTED

from .helpers import arun, zero_duration

SECRET = "s3cr3t-value-42"
ITEM_SCHEMA = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
               "required": ["id", "name"]}


def shop(log=None, secrets=(SECRET,)):
    """Three operations: a read with an output schema, a read that leaks the secret, a write."""
    log = log if log is not None else []
    items = {1: "pen", 2: "ink"}

    def get_item(input):
        log.append(("getItem", input))
        return {"id": input["id"], "name": items[input["id"]]}

    def list_items(input):
        log.append(("listItems", input))
        return [{"id": key, "name": value, "owner_note": f"key is {SECRET}"} for key, value in items.items()]

    def delete_item(input):
        log.append(("deleteItem", input))
        items.pop(input["id"], None)
        return {"deleted": input["id"]}

    return FunctionProvider("shop", [
        {"name": "listItems", "summary": "List the items", "kind": "read", "handler": list_items,
         "output_schema": {"type": "array", "items": ITEM_SCHEMA}},
        {"name": "getItem", "summary": "One item by id", "handler": get_item,
         "input_schema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
                          "additionalProperties": False},
         "output_schema": ITEM_SCHEMA},
        {"name": "deleteItem", "summary": "Delete an item", "description": "Delete an item.\nIt is gone for good.",
         "handler": delete_item,
         "input_schema": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
    ], summary="A shop", secrets=secrets)


def filler(count):
    return FunctionProvider("misc", [{"name": f"getThing{n}", "summary": f"Thing {n}", "kind": "read",
                                      "handler": lambda input, n=n: {"n": n}} for n in range(count)])


def small(**options):
    return OperationCatalog([shop(**options)])


def large(**options):
    return OperationCatalog([shop(**options), filler(AUTO_FLAT_LIMIT + 1 - 3)])


def call(tools, name, arguments=None, **options):
    return arun(tools.handle_tool(name, arguments or {}, **options))


# --- the tool lists ------------------------------------------------------------------------------

def test_flat_layout_has_one_tool_per_operation_with_its_schemas():
    tools = OperationTools(small(), "flat")
    assert tools.layout == "flat"
    assert tools.names() == ["shop__listItems", "shop__getItem", "shop__deleteItem"]
    listing, get, delete = tools.definitions("mcp")
    assert get["inputSchema"] == shop().get("getItem").input_schema
    assert get["outputSchema"] == ITEM_SCHEMA
    assert get["description"] == "One item by id (shop:getItem, read)"
    assert get["annotations"] == {"title": "shop:getItem", "readOnlyHint": True}
    # An array result is an object in structured content: its schema is wrapped.
    assert listing["outputSchema"] == {"type": "object", "properties": {"result": {"type": "array", "items": ITEM_SCHEMA}},
                                       "required": ["result"]}
    assert "outputSchema" not in delete
    assert delete["annotations"] == {"title": "shop:deleteItem", "readOnlyHint": False, "destructiveHint": False}
    assert delete["description"] == "Delete an item (shop:deleteItem, write)\n\nDelete an item.\nIt is gone for good."
    assert tools.definitions("openai")[1] == {"type": "function", "function": {
        "name": "shop__getItem", "description": get["description"], "parameters": get["inputSchema"]}}
    assert tools.definitions("anthropic")[1] == {"name": "shop__getItem", "description": get["description"],
                                                 "input_schema": get["inputSchema"]}
    with pytest.raises(ValueError, match="unknown tool definition format: xml"):
        tools.definitions("xml")


def test_generic_layout_is_three_catalog_tools():
    tools = OperationTools(small(), "generic")
    assert tools.names() == ["list_operations", "describe_operation", "call_operation"]
    definitions = {d["name"]: d for d in tools.definitions("mcp")}
    assert definitions["call_operation"]["inputSchema"]["required"] == ["operation"]
    assert definitions["list_operations"]["annotations"] == {"readOnlyHint": True}
    assert "outputSchema" in definitions["describe_operation"] and "outputSchema" not in definitions["call_operation"]


@pytest.mark.parametrize("catalog, layout, names", [
    (small, "auto", ["shop__listItems", "shop__getItem", "shop__deleteItem"]),
    (large, "auto", ["list_operations", "describe_operation", "call_operation"]),
    (large, "generic", ["list_operations", "describe_operation", "call_operation"]),
])
def test_auto_is_flat_up_to_30_operations_and_generic_beyond(catalog, layout, names):
    tools = OperationTools(catalog(), layout)
    assert tools.names() == names


def test_flat_with_31_operations_lists_all_of_them():
    tools = OperationTools(large(), "flat")
    assert len(tools.names()) == 31 == AUTO_FLAT_LIMIT + 1
    assert tools.names()[3:5] == ["misc__getThing0", "misc__getThing1"]


def test_tool_names_keep_to_the_model_apis_rules():
    op = FunctionProvider("svc", [{"name": "v1/items.get", "handler": lambda i: 1}]).get("v1/items.get")
    assert tool_name(op) == "svc__v1_items_get"
    long = FunctionProvider("svc", [{"name": "x" * 80, "handler": lambda i: 1}, {"name": "x" * 81, "handler": lambda i: 1}])
    names = OperationTools(OperationCatalog([long]), "flat").names()
    assert [len(name) for name in names] == [64, 64] and names[0] != names[1]


def test_an_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="layout must be one of generic, flat, auto, got 'nested'"):
        OperationTools(small(), "nested")


# --- routing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("catalog", [small, large])
def test_flat_and_generic_route_to_the_same_operation(catalog):
    flat = call(OperationTools(catalog(), "flat"), "shop__getItem", {"id": 2})
    generic = call(OperationTools(catalog(), "generic"), "call_operation", {"operation": "shop:getItem",
                                                                            "input": {"id": 2}})
    for result in (flat, generic):
        assert (result.text, result.structured, result.is_error) == (
            '{\n  "id": 2,\n  "name": "ink"\n}\n', {"id": 2, "name": "ink"}, False)
    assert call(OperationTools(catalog(), "auto"), "shop__getItem" if catalog is small else "call_operation",
                {"id": 1} if catalog is small else {"operation": "shop:getItem", "input": {"id": 1}}
                ).structured == {"id": 1, "name": "pen"}


def test_the_31st_operation_is_reached_through_every_layout():
    assert call(OperationTools(large(), "flat"), "misc__getThing27").structured == {"n": 27}
    assert call(OperationTools(large(), "auto"), "call_operation", {"operation": "misc:getThing27"}).structured == {"n": 27}


def test_generic_list_and_describe():
    tools = OperationTools(large(), "generic", policy={"deny": ["shop:delete*"]})
    listing = call(tools, "list_operations", {"namespace": "shop"})
    assert listing.structured["services"] == [{"namespace": "shop", "summary": "A shop", "operations": 3}]
    assert listing.structured["operations"][2] == {"operation": "shop:deleteItem", "summary": "Delete an item",
                                                   "kind": "write", "verdict": "deny"}
    assert json.loads(listing.text) == listing.structured
    found = call(tools, "list_operations", {"query": "thing 3"})
    assert [op["operation"] for op in found.structured["operations"]] == ["misc:getThing3"]
    described = call(tools, "describe_operation", {"operation": "shop:getitem"})  # forgiving as `api` is
    assert described.structured["ref"] == "shop:getItem" and described.structured["outputSchema"] == ITEM_SCHEMA
    assert described.structured["example"] == "api call shop:getItem id=<integer>"
    missing = call(tools, "describe_operation", {"operation": "shop:getItems"})
    assert missing.is_error and missing.text.startswith("unknown operation: shop:getItems. Did you mean: shop:getItem")
    assert missing.text.endswith(" Use: list_operations")
    bad = call(tools, "call_operation", {"input": {}})
    assert bad.is_error and bad.text.startswith("invalid arguments for call_operation (1 problem):\n"
                                                "  - at /: 'operation' is a required property")


def test_invalid_input_and_unknown_tools_are_errors_with_the_schema():
    tools = OperationTools(small(), "flat")
    result = call(tools, "shop__getItem", {"id": "two"})
    assert result.is_error and result.structured is None
    assert result.text.startswith("invalid input for shop:getItem (1 problem):\n  - at /id: 'two' is not of type "
                                  "'integer'\nInput schema:\n")
    unknown = call(tools, "shop__nope")
    assert (unknown.is_error, unknown.text) == (True, "unknown tool: shop__nope. Tools: shop__listItems, "
                                                      "shop__getItem, shop__deleteItem")
    assert unknown.to_mcp() == {"content": [{"type": "text", "text": unknown.text}], "isError": True}


# --- structured content and output schemas ------------------------------------------------------------

def test_structured_content_follows_the_output_schema_and_a_mismatch_is_reported():
    provider = FunctionProvider("t", [
        {"name": "getCount", "handler": lambda i: 5, "output_schema": {"type": "integer"}},
        {"name": "getBroken", "handler": lambda i: {"id": "x"}, "output_schema": ITEM_SCHEMA},
        {"name": "getLoose", "handler": lambda i: [1, 2]},
    ])
    for layout, route in (("flat", lambda name: (f"t__{name}", {})),
                          ("generic", lambda name: ("call_operation", {"operation": f"t:{name}"}))):
        tools = OperationTools(OperationCatalog([provider]), layout)
        count = call(tools, *route("getCount"))
        assert (count.text, count.structured, count.is_error) == ("5\n", {"result": 5}, False)
        broken = call(tools, *route("getBroken"))
        assert broken.is_error and broken.structured is None
        assert broken.text.splitlines() == [
            "t:getBroken returned a result that does not match its output schema (2 problems):",
            "  - at /: 'name' is a required property", "  - at /id: 'x' is not of type 'integer'",
            "Result:", "{", '  "id": "x"', "}"]
        loose = call(tools, *route("getLoose"))  # no schema: text only (structured content is an object)
        assert (loose.structured, loose.is_error) == (None, False)


def test_the_api_command_reports_a_result_that_does_not_match_its_schema():
    provider = FunctionProvider("t", [{"name": "getBroken", "handler": lambda i: {"id": "x"},
                                       "output_schema": ITEM_SCHEMA}])

    async def go():
        runtime = await create_agent_cli(providers=[provider])
        return zero_duration(await runtime.run("t getBroken"))

    out = arun(go())
    assert out.startswith('{\n  "id": "x"\n}\n')
    assert "t: t:getBroken: the result does not match its output schema: at /: 'name' is a required property" in out


# --- one policy, one consent, one redaction ----------------------------------------------------------

ROUTES = {
    "flat": lambda ref, input: (tool_name_of(ref), input),
    "generic": lambda ref, input: ("call_operation", {"operation": ref, "input": input}),
}


def tool_name_of(ref):
    namespace, _, name = ref.partition(":")
    return f"{namespace}__{name}"


@pytest.mark.parametrize("layout", ["flat", "generic"])
@pytest.mark.parametrize("catalog", [small, large])
def test_a_denied_write_is_denied_in_every_layout(layout, catalog):
    log = []
    tools = OperationTools(catalog(log=log), layout, policy={"deny": ["shop:delete*"]})
    result = call(tools, *ROUTES[layout]("shop:deleteItem", {"id": 1}))
    assert (result.is_error, result.text) == (
        True, 'shop:deleteItem denied by policy (matches deny pattern "shop:delete*"); nothing was run')
    assert log == []


@pytest.mark.parametrize("layout", ["flat", "generic"])
def test_consent_is_asked_the_same_way_in_every_layout(layout):
    log, asked = [], []

    def decline(request):
        asked.append((request.ref, request.kind, request.input))
        return "declined"

    tools = OperationTools(small(log=log), layout, confirm=decline)
    declined = call(tools, *ROUTES[layout]("shop:deleteItem", {"id": 1}))
    assert declined.text == "shop:deleteItem was declined by the user; nothing was run" and declined.is_error
    assert asked == [("shop:deleteItem", "write", {"id": 1})] and log == []
    # A per-call confirm (the MCP server's: its client's human) wins over the layout's.
    approved = call(tools, *ROUTES[layout]("shop:deleteItem", {"id": 1}),
                    confirm=lambda request: {"approved": True, "input": {"id": 2}})
    assert approved.structured == {"deleted": 2} and log == [("deleteItem", {"id": 2})]
    nobody = call(OperationTools(small(), layout), *ROUTES[layout]("shop:deleteItem", {"id": 1}))
    assert nobody.text.startswith("shop:deleteItem needs confirmation (write operation) but no one could confirm it")


@pytest.mark.parametrize("layout", ["flat", "generic"])
@pytest.mark.parametrize("catalog", [small, large])
def test_a_registered_secret_is_redacted_in_every_layout(layout, catalog):
    tools = OperationTools(catalog(), layout)
    result = call(tools, *ROUTES[layout]("shop:listItems", {}))
    assert SECRET not in result.text and SECRET not in json.dumps(result.structured)
    assert result.structured["result"][0]["owner_note"] == f"key is {REDACTED}"
    assert REDACTED in result.text


def test_a_secret_in_an_error_or_a_listing_is_redacted_too():
    def fail(input):
        raise RuntimeError(f"cannot connect with {SECRET}")

    provider = FunctionProvider("vault", [{"name": "getKey", "summary": f"uses {SECRET}", "handler": fail}],
                                secrets=[SECRET])
    for layout, route in (("flat", ("vault__getKey", {})), ("generic", ("call_operation", {"operation": "vault:getKey"}))):
        result = call(OperationTools(OperationCatalog([provider]), layout), *route)
        assert result.text == f"vault:getKey failed: RuntimeError: cannot connect with {REDACTED}"
    listing = call(OperationTools(OperationCatalog([provider]), "generic"), "list_operations")
    assert SECRET not in listing.text and SECRET not in json.dumps(listing.structured)


def test_for_runtime_uses_the_runtimes_policy_and_confirm_like_the_api_command():
    asked = []

    async def go():
        runtime = await create_agent_cli(providers=[shop()], policy={"confirm": ["shop:getItem"]},
                                         confirm=lambda request: asked.append(request.ref) or "approved")
        tools = OperationTools.for_runtime(runtime, "auto")
        typed = await tools.handle_tool("shop__getItem", {"id": 1})
        text = await runtime.run("api call shop:getItem id=1")
        return typed, text

    typed, text = arun(go())
    assert asked == ["shop:getItem", "shop:getItem"]
    assert text.startswith(typed.text)

    async def without_providers():
        return OperationTools.for_runtime(await create_agent_cli(), "flat")

    with pytest.raises(ValueError, match="the runtime has no providers"):
        arun(without_providers())


# --- 13 and 213 operations (what a small and a large API look like) -------------------------------

def sized(total):
    return OperationCatalog([shop(), filler(total - 3)])


@pytest.mark.parametrize("total", [13, 213])
def test_flat_and_generic_definitions_and_routing_at_13_and_213_operations(total):
    flat, generic, auto = (OperationTools(sized(total), layout) for layout in ("flat", "generic", "auto"))
    assert len(flat.names()) == total
    assert flat.names()[:3] == ["shop__listItems", "shop__getItem", "shop__deleteItem"]
    assert flat.names()[-1] == f"misc__getThing{total - 4}"
    assert generic.names() == ["list_operations", "describe_operation", "call_operation"]
    assert auto.names() == (flat.names() if total <= AUTO_FLAT_LIMIT else generic.names())
    last = total - 4
    assert call(flat, f"misc__getThing{last}").structured == {"n": last}
    assert call(generic, "call_operation", {"operation": f"misc:getThing{last}"}).structured == {"n": last}


@pytest.mark.parametrize("total", [13, 213])
def test_the_same_policy_verdicts_through_flat_and_generic(total):
    policy = Policy.from_dict({"deny": ["shop:delete*"], "allow": ["misc:getThing1*"]})
    flat = OperationTools(sized(total), "flat", policy=policy)
    generic = OperationTools(sized(total), "generic", policy=policy)
    denied = [call(flat, "shop__deleteItem", {"id": 1}),
              call(generic, "call_operation", {"operation": "shop:deleteItem", "input": {"id": 1}})]
    assert all(result.is_error and "denied by policy" in result.text for result in denied)
    assert denied[0].text == denied[1].text
    allowed = [call(flat, "misc__getThing1"), call(generic, "call_operation", {"operation": "misc:getThing1"})]
    assert [result.structured for result in allowed] == [{"n": 1}, {"n": 1}]
