"""The `api` command and the namespace commands."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onetool_wasm import CommandRegistry, create_agent_cli
from onetool_wasm.catalog import FunctionProvider, OperationError
from onetool_wasm.catalog.inputs import InputError, parse_input
from onetool_wasm.catalog.services import OperationCatalog
from onetool_wasm.commands.api import make_commands
from onetool_wasm.commands.spec import invoke_command
from onetool_wasm.redaction import REDACTED, is_secret_key, redact, redact_text
from onetool_wasm.testing import create_command_conformance_cases, create_test_command_context
from onetool_wasm.testing.providers import DEMO_POLICY, demo_providers

from .helpers import arun, command, fuzz_settings, zero_duration


def runtime(**options):
    options.setdefault("providers", demo_providers())
    return arun(create_agent_cli(**options))


def run(line, rt=None, **options):
    rt = rt or runtime(**options)
    return zero_duration(arun(rt.run(line)))


def detailed(line, **options):
    return arun(runtime(**options).run_detailed(line))


def has(*names):
    rt = runtime()
    return all(rt.registry.has(name) for name in names)


# --- discovery ---------------------------------------------------------------------------------------

def test_services():
    assert run("api services") == (
        "Services:\n"
        "  petstore  — A pet store: pets and orders (10 operations)\n"
        "  inventory — Warehouse stock levels by SKU (3 operations)\n\n"
        "Use: api operations <namespace>\n\n[exit:0 | 0ms]")


def test_operations_show_kind_and_verdict():
    out = run("api operations inventory", policy={"deny": ["inventory:adjust*"]})
    assert out == (
        "inventory operations:\n"
        "  inventory:listItems    read      — List stock items, optionally by warehouse\n"
        "  inventory:getStock     read      — Stock level of one item by SKU\n"
        "  inventory:adjustStock  write     — Add to or remove from an item's stock (denied by policy)\n\n"
        "Use: api describe <namespace:operation>\n"
        "Call: api call <namespace:operation> [json | key=value ...]\n\n[exit:0 | 0ms]")
    assert "(needs confirmation)" in run("api operations inventory")


def test_all_operations_and_namespace_command_without_args_list():
    everything = run("api operations")
    assert everything.startswith("Operations:\n  petstore:listPets ")
    assert "inventory:adjustStock" in everything
    assert run("inventory") == run("api operations inventory")


def test_describe_prints_json_with_verdict_and_schemas():
    execution = detailed("api describe inventory:getStock")
    assert execution.content_type == "application/json"
    value = json.loads(execution.stdout)
    assert value == {
        "ref": "inventory:getStock", "summary": "Stock level of one item by SKU", "description": "",
        "kind": "read", "verdict": "allow", "reason": "read operation",
        "inputSchema": {"type": "object", "properties": {"sku": {
            "type": "string", "pattern": "^[A-Z]+(-[A-Z]+)*-[0-9]{2}$",
            "description": "Stock keeping unit, e.g. DOG-FOOD-01"}},
            "required": ["sku"], "additionalProperties": False},
        "example": "api call inventory:getStock sku=<string>"}


def test_describe_shows_output_schema_when_known_and_denied_verdict():
    provider = FunctionProvider("x", [{"name": "dropAll", "handler": lambda i: 1, "kind": "sensitive",
                                       "output_schema": {"type": "integer"}}])
    value = json.loads(detailed("api describe x:dropAll", providers=[provider], policy={"deny": ["x:*"]}).stdout)
    assert (value["kind"], value["verdict"], value["reason"], value["outputSchema"]) == (
        "sensitive", "deny", 'matches deny pattern "x:*"', {"type": "integer"})


@pytest.mark.parametrize("line, message", [
    ("api describe petstore:getpet", None),  # forgiven: one operation normalises to it
    ("api describe petstore:getPett", "api: unknown operation: petstore:getPett. Did you mean: petstore:getPet? "
                                      "Use: api operations petstore"),
    ("api describe petstore:Pet", "api: unknown operation: petstore:Pet. Did you mean: petstore:listPets, "
                                  "petstore:getPet, petstore:findPetByName, petstore:createPet, petstore:updatePet? "
                                  "Use: api operations petstore"),
    ("api describe petstor:getPet", "api: unknown namespace: petstor. Did you mean: petstore? Use: api services"),
    ("api operations nope", "api: unknown namespace: nope. Use: api services"),
    ("api describe getPet", "api: expected <namespace:operation>, got 'getPet'. Use: api operations"),
    ("petstore fly", "petstore: unknown operation: petstore:fly. Use: api operations petstore"),
    ("api call petstore:order", "api: unknown operation: petstore:order. Did you mean: petstore:listOrders, "
                                "petstore:getOrder, petstore:placeOrder? Use: api operations petstore"),
])
def test_unknown_names_get_candidates(line, message):
    out = run(line)
    if message is None:
        assert out.endswith("[exit:0 | 0ms]")
    else:
        assert out == f"[error] {message}\n\n[exit:1 | 0ms]"


@pytest.mark.parametrize("line, message", [
    ("api", "api: usage: api services | api operations [namespace] | api describe <namespace:operation> | "
            "api call <namespace:operation> [json | key=value ...]"),
    ("api call", "api call: usage: api call <namespace:operation> [json | key=value ...]"),
    ("api describe", "api describe: usage: api describe <namespace:operation>"),
    ("api services x", "api services: usage: api services"),
    ("api frobnicate", "api: unknown subcommand: frobnicate. Usage: api services | api operations [namespace] | "
                       "api describe <namespace:operation> | api call <namespace:operation> [json | key=value ...]"),
])
def test_usage_errors(line, message):
    assert run(line) == f"[error] {message}\n\n[exit:1 | 0ms]"


# --- calling -----------------------------------------------------------------------------------------

def test_call_prints_json_with_json_content_type():
    execution = detailed("petstore getPet id=3")
    assert (execution.exit_code, execution.content_type) == (0, "application/json")
    assert execution.stdout.decode() == json.dumps(
        {"id": 3, "name": "Milo", "species": "cat", "status": "available", "foodSku": "CAT-FOOD-02", "tags": []},
        indent=2) + "\n"


def test_api_call_and_namespace_command_are_the_same():
    assert run("api call petstore:listPets status=sold limit=1") == run("petstore listPets status=sold limit=1")


def test_input_as_json_argument_and_from_stdin():
    by_json = run("""petstore listPets '{"status": "pending"}'""")
    assert '"name": "Kiwi"' in by_json
    if has("echo"):
        assert run("""echo '{"status": "pending"}' | petstore listPets""") == by_json


@pytest.mark.skipif(not has("json"), reason="json command not registered yet")
def test_results_pipe_into_json_get():
    assert run("petstore getPet id=2 | json get name") == "Rex\n\n[exit:0 | 0ms]"
    assert run("petstore listPets status=sold | json get 1.name") == "Luna\n\n[exit:0 | 0ms]"


def test_invalid_input_lists_every_problem_and_the_schema_and_runs_nothing():
    calls = []
    provider = FunctionProvider("shop", [{
        "name": "order", "kind": "read", "handler": lambda i: calls.append(i),
        "input_schema": {"type": "object", "required": ["sku", "qty"], "additionalProperties": False,
                         "properties": {"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1},
                                        "email": {"type": "string", "format": "email"}}}}])
    out = run("shop order qty=0 email=nobody colour=red", providers=[provider])
    assert out.startswith(
        "[error] shop: invalid input for shop:order (4 problems):\n"
        "  - at /: 'sku' is a required property\n"
        "  - at /: Additional properties are not allowed ('colour' was unexpected)\n"
        "  - at /email: 'nobody' is not a 'email'\n"
        "  - at /qty: 0 is less than the minimum of 1\n"
        "Input schema:\n{\n  \"type\": \"object\",")
    assert out.endswith("}\n\n[exit:1 | 0ms]")
    assert calls == []


@pytest.mark.parametrize("args, expected", [
    (["id=2"], {"id": 2}),
    (["id=two"], {"id": "two"}),              # left as text: validation says what is wrong
    (["ratio=0.5", "n=3"], {"ratio": 0.5, "n": 3}),
    (["flag=true", "other=FALSE"], {"flag": True, "other": False}),
    (["tags=a,b"], {"tags": ["a", "b"]}),
    (["ids=1,2"], {"ids": [1, 2]}),
    (['ids=[3, 4]'], {"ids": [3, 4]}),
    (["owner.name=Ann", "owner.age=7"], {"owner": {"name": "Ann", "age": 7}}),
    (['owner={"name": "Bo"}'], {"owner": {"name": "Bo"}}),
    (["maybe=null"], {"maybe": None}),
    (["name=a=b"], {"name": "a=b"}),
    (["free=12"], {"free": "12"}),            # not in the schema: stays a string
    (["ratio=nan", "n=inf"], {"ratio": "nan", "n": "inf"}),  # no JSON number: left as text
    (["id=1_000", "n=1_0.5"], {"id": "1_000", "n": "1_0.5"}),
    (["ids=" + "[" * 100_000], {"ids": "[" * 100_000}),  # too deep to read: validation reports it
    (['{"id": 1}', "flag=false"], {"id": 1, "flag": False}),
    ([], {}),
])
def test_key_value_input_is_read_by_schema_types(args, expected):
    schema = {"type": "object", "properties": {
        "id": {"type": "integer"}, "ratio": {"type": "number"}, "n": {"type": "number"},
        "flag": {"type": "boolean"}, "other": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}}, "ids": {"type": "array", "items": {"type": "integer"}},
        "owner": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}},
        "maybe": {"type": ["string", "null"]}, "name": {"type": "string"}}}
    assert parse_input(args, b"", schema, "x:y") == expected


def test_stdin_is_read_only_without_input_arguments():
    assert parse_input([], b'{"a": 1}', {}, "x:y") == {"a": 1}
    assert parse_input(["b=2"], b'{"a": 1}', {}, "x:y") == {"b": "2"}


@pytest.mark.parametrize("args, stdin, message", [
    (["oops"], b"", "expected key=value or a JSON object, got 'oops'. Use: api describe x:y"),
    (["=1"], b"", "expected key=value or a JSON object, got '=1'. Use: api describe x:y"),
    (["{nope"], b"", "invalid JSON input in argument: Expecting property name enclosed in double quotes: line 1 "
                     "column 2 (char 1). Pass an object like '{\"key\": \"value\"}' or key=value pairs "
                     "(see: api describe x:y)"),
    ([], b"[1]", "input in stdin must be a JSON object, got list. See: api describe x:y"),
    (["a=1", "a.b=2"], b"", "cannot set a.b: a is not an object. See: api describe x:y"),
    ([], b'{"a": ' + b"[" * 100_000, "invalid JSON input in stdin: nesting is deeper than 512 levels. Pass an object like "
                                       "'{\"key\": \"value\"}' or key=value pairs (see: api describe x:y)"),
])
def test_bad_input_arguments(args, stdin, message):
    with pytest.raises(InputError) as error:
        parse_input(args, stdin, {}, "x:y")
    assert str(error.value) == message


def test_operation_errors_are_one_clear_failure():
    def boom(input):
        raise OperationError("quota exceeded", details={"retryAfter": 30, "token": "t-secret"})

    def crash(input):
        raise KeyError("missing")

    provider = FunctionProvider("svc", [{"name": "getA", "handler": boom}, {"name": "getB", "handler": crash}])
    assert run("svc getA", providers=[provider]) == (
        '[error] svc: svc:getA failed: quota exceeded\nDetails: {\n  "retryAfter": 30,\n  "token": "**REDACTED**"\n}'
        "\n\n[exit:1 | 0ms]")
    assert run("svc getB", providers=[provider]) == "[error] svc: svc:getB failed: KeyError: 'missing'\n\n[exit:1 | 0ms]"
    assert run("petstore getPet id=99") == ("[error] petstore: petstore:getPet failed: no pet with id 99. "
                                            "Use: petstore listPets\n\n[exit:1 | 0ms]")


def test_async_handlers_and_redacted_results():
    async def whoami(input):
        return {"user": "ann", "apiKey": "k-1", "session": {"accessToken": "a-2", "NextToken": "page-2"}}

    provider = FunctionProvider("auth", [{"name": "getMe", "handler": whoami}])
    value = json.loads(detailed("auth getMe", providers=[provider]).stdout)
    assert value == {"user": "ann", "apiKey": "**REDACTED**",
                     "session": {"accessToken": "**REDACTED**", "NextToken": "page-2"}}


def test_provider_secrets_are_hidden_in_results_and_errors():
    provider = FunctionProvider("svc", [
        {"name": "getEcho", "handler": lambda i: {"note": "key is s3cr3t-value"}},
        {"name": "getFail", "handler": lambda i: (_ for _ in ()).throw(OperationError("bad key s3cr3t-value"))},
    ], secrets=["s3cr3t-value"])
    assert "s3cr3t" not in run("svc getEcho", providers=[provider])
    assert run("svc getFail", providers=[provider]) == (
        "[error] svc: svc:getFail failed: bad key **REDACTED**\n\n[exit:1 | 0ms]")


def test_large_results_are_cut_with_a_note_and_stay_json():
    rows = [{"id": i, "text": "x" * 50} for i in range(2000)]
    provider = FunctionProvider("big", [{"name": "listRows", "handler": lambda i: {"rows": rows, "total": 2000},
                                         "input_schema": {"type": "object", "properties": {
                                             "limit": {"type": "integer"}, "offset": {"type": "integer"}}}}])
    execution = detailed("big listRows", providers=[provider])
    value = json.loads(execution.stdout)
    assert len(execution.stdout) <= 32 * 1024
    assert value["total"] == 2000 and value["rows"][0] == {"id": 0, "text": "x" * 50}
    kept = len(value["rows"])
    assert 0 < kept < 2000
    assert execution.stderr == (f"big: big:listRows: result cut to fit 32.0KB (full result 190.4KB): "
                                f"{2000 - kept} array items omitted. Narrow the request (input fields: limit, offset) "
                                "to see the rest.")
    assert execution.exit_code == 0


def test_result_limit_is_configurable_and_long_strings_shrink():
    provider = FunctionProvider("big", [{"name": "getText", "handler": lambda i: {"text": "y" * 5000}}])
    catalog = OperationCatalog([provider], max_result_bytes=1024)
    execution = detailed("big getText", providers=catalog)
    text = json.loads(execution.stdout)["text"]
    assert text == "y" * 256 + "… [4744 more characters]"
    assert "1 long strings shortened" in execution.stderr


def test_binary_payloads_are_summarised():
    provider = FunctionProvider("files", [{"name": "getLogo", "handler": lambda i: b"\x89PNG\r\n\x1a\n\x00\x00"}])
    value = json.loads(detailed("files getLogo", providers=[provider]).stdout)
    assert value == {"binary": True, "bytes": 10, "preview_b64": "iVBORw0KGgoAAA==",
                     "note": "binary payload (10B) not shown"}


def test_non_json_values_are_made_json():
    import dataclasses

    @dataclasses.dataclass
    class Point:
        x: int
        y: int

    provider = FunctionProvider("geo", [{"name": "getPoint", "handler": lambda i: (Point(1, 2), {3}, object)}])
    value = json.loads(detailed("geo getPoint", providers=[provider]).stdout)
    assert value == [{"x": 1, "y": 2}, [3], "<class 'object'>"]


# --- registration --------------------------------------------------------------------------------------

def test_namespace_colliding_with_a_command_is_reached_through_api_call():
    provider = FunctionProvider("cat", [{"name": "getMood", "handler": lambda i: "purring"}])
    rt = runtime(providers=[provider])
    assert rt.registry.get("cat").group == "fs"
    assert run("api call cat:getMood", rt) == '"purring"\n\n[exit:0 | 0ms]'


def test_a_shared_registry_is_not_changed():
    shared = CommandRegistry([command("hello", lambda ctx, args, stdin: None)])
    rt = runtime(registry=shared)
    assert shared.names() == ["hello"]
    assert rt.registry.names() == ["api", "hello", "inventory", "petstore"]


def test_an_existing_api_command_is_an_error():
    with pytest.raises(ValueError, match="a command named 'api' is already registered"):
        runtime(commands=[command("api", lambda ctx, args, stdin: None)])


def test_provider_definitions_are_checked():
    with pytest.raises(ValueError, match="duplicate operation in x: a"):
        FunctionProvider("x", [{"name": "a", "handler": print}, {"name": "a", "handler": print}])
    with pytest.raises(ValueError, match="needs a callable handler"):
        FunctionProvider("x", [{"name": "a"}])
    with pytest.raises(ValueError, match="not a valid JSON Schema"):
        FunctionProvider("x", [{"name": "a", "handler": print, "input_schema": {"type": "nope"}}])
    with pytest.raises(ValueError, match="namespace must be a non-empty word"):
        FunctionProvider("a b", [])
    with pytest.raises(ValueError, match="kind must be one of"):
        FunctionProvider("x", [{"name": "a", "handler": print, "kind": "delete"}])
    with pytest.raises(ValueError, match="duplicate provider namespace: petstore"):
        OperationCatalog([*demo_providers(), *demo_providers()])


def test_providers_may_be_given_as_plain_dicts():
    out = run("notes getCount", providers=[{"namespace": "notes", "summary": "Notes",
                                            "operations": [{"name": "getCount", "handler": lambda i: 3}]}])
    assert out == "3\n\n[exit:0 | 0ms]"


# --- tool description ------------------------------------------------------------------------------------

def test_tool_description_lists_a_small_catalog_inline():
    description = runtime(builtin_commands={"include_groups": ["system"],
                                            "exclude_commands": ["memory", "env", "printenv", "date", "timeout",
                                                                 "hostname", "id", "nproc", "uname", "whoami"]})
    description = description.build_tool_description()
    assert description.endswith(
        "Available commands:\n"
        "  api      — Discover and call the API operations registered with this runtime.\n"
        "  help     — List commands or show detailed help for one command.\n"
        "  inventory — Warehouse stock levels by SKU\n"
        "  petstore — A pet store: pets and orders\n\n"
        "API operations (run: api call <namespace:operation> key=value ...; "
        "input schema: api describe <namespace:operation>):\n"
        "  petstore — A pet store: pets and orders\n"
        "    listPets — List pets, optionally by status or species\n"
        "    getPet — Get one pet by id\n"
        "    findPetByName — Find a pet by its name\n"
        "    createPet — Add a pet to the store\n"
        "    updatePet — Change a pet's name, status or food\n"
        "    deletePet — Remove a pet from the store\n"
        "    addTags — Tag a pet\n"
        "    listOrders — List orders, optionally by status\n"
        "    getOrder — Get one order by id\n"
        "    placeOrder — Order a pet\n"
        "  inventory — Warehouse stock levels by SKU\n"
        "    listItems — List stock items, optionally by warehouse\n"
        "    getStock — Stock level of one item by SKU\n"
        "    adjustStock — Add to or remove from an item's stock\n\n"
        "Discovery pattern:\n  - run 'help' to list commands\n  - run '<command>' with no args for usage\n"
        "  - use pipes for composition")


def test_tool_description_points_to_api_operations_beyond_30():
    ops = [{"name": f"getThing{i}", "handler": print} for i in range(31)]
    rt = runtime(providers=[FunctionProvider("big", ops)], builtin_commands=False)
    description = rt.build_tool_description()
    assert ("API operations: 31 in 1 services (big).\n"
            "  - run 'api services' and 'api operations <namespace>' to list them\n"
            "  - run 'api describe <namespace:operation>' for an input schema\n") in description
    assert "getThing0" not in description
    assert "getThing0" in runtime(providers=[FunctionProvider("big", ops[:30])]).build_tool_description()


def test_minimal_description_mentions_api_services_and_nothing_changes_without_providers():
    minimal = runtime().build_tool_description("minimal-tool-description")
    assert minimal.endswith("  - run 'api services' to list API services, 'api operations <namespace>' for operations")
    plain = arun(create_agent_cli()).build_tool_description()
    assert "api" not in plain.split("Available commands:")[1].split("Discovery")[0].split()


# --- conformance and properties -----------------------------------------------------------------------------

def api_registry():
    registry = CommandRegistry()
    for spec in make_commands(OperationCatalog(demo_providers()), []):
        registry.register(spec)
    return registry


def test_api_commands_pass_the_conformance_cases():
    registry = api_registry()
    help_spec = runtime().registry.get("help")
    registry.register(help_spec)
    cases = [case for case in create_command_conformance_cases(registry) if case.command_name != "help"]
    assert {case.command_name for case in cases} == {"api", "petstore", "inventory"}
    for case in cases:
        arun(case.run())


def test_kinds_follow_the_operation():
    registry = api_registry()
    api, petstore = registry.get("api"), registry.get("petstore")
    assert api.kind_for(["call", "petstore:createPet"]) == "write"
    assert api.kind_for(["call", "petstore:getPet"]) == "read"
    assert api.kind_for(["call", "nope:x"]) == "read"
    assert api.kind_for(["services"]) == "read"
    assert petstore.kind_for(["deletePet"]) == "write"
    assert petstore.kind_for([]) == "read"


VOCAB = ["services", "operations", "describe", "call", "petstore", "inventory", "petstore:getPet",
         "petstore:createPet", "petstore:deletePet", "inventory:getStock", "listPets", "getPet", "id=2", "id=x",
         "status=sold", "sku=DOG-FOOD-01", "{", "{}", '{"id": 1}', "[]", "=", "a.b=1", "limit=-1", ""]
ARGS = st.lists(st.one_of(st.sampled_from(VOCAB), st.text(max_size=8), st.integers().map(str)), max_size=5)


@fuzz_settings(150)
@given(name=st.sampled_from(["api", "petstore", "inventory"]), args=ARGS,
       stdin=st.one_of(st.just(b""), st.binary(max_size=16), st.sampled_from([b'{"id": 2}', b"[1]", b"{"])),
       answer=st.sampled_from(["approved", "declined", "unavailable", None]))
def test_random_arguments_never_crash(name, args, stdin, answer):
    registry = api_registry()
    ctx = create_test_command_context(registry=registry)
    ctx.policy, ctx.confirm = DEMO_POLICY, (lambda request: answer)
    result = arun(invoke_command(registry.get(name), ctx, args, stdin))
    assert "internal runtime error" not in result.stderr
    assert result.exit_code in (0, 1)
    if result.exit_code == 0 and result.content_type == "application/json":
        json.loads(result.stdout)


# --- redaction ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", [
    "apiKey", "api_key", "API-KEY", "x-api-key", "X_Api_Key", "client_secret", "clientSecret", "password",
    "Password", "passwd", "secret", "accessToken", "access_token", "refreshToken", "idToken", "sessionToken",
    "token", "authorization", "Authorization", "privateKey", "private_key", "passphrase", "awsSecretAccessKey",
    "db_password", "webhookSecret", "cookie", "Set-Cookie", "credentials",
])
def test_secret_keys(key):
    assert is_secret_key(key)


@pytest.mark.parametrize("key", [
    "NextToken", "next_token", "nextPageToken", "pageToken", "continuationToken", "cursorToken", "name", "id",
    "tokenType", "maxTokens", "tokens", "keyName", "publicKey", "key", "monkey", "passengers", "secretary_name",
    "author", 3, None,
])
def test_not_secret_keys(key):
    assert not is_secret_key(key)


def test_redact_at_any_depth_keeps_structure_and_nulls():
    value = {"user": {"name": "ann", "credentials": {"password": "p"}, "keys": [{"apiKey": "k"}, {"apiKey": None}]},
             "NextToken": "abc", "items": [[{"client_secret": 1}]]}
    assert redact(value) == {"user": {"name": "ann", "credentials": REDACTED,
                                      "keys": [{"apiKey": REDACTED}, {"apiKey": None}]},
                             "NextToken": "abc", "items": [[{"client_secret": REDACTED}]]}
    assert value["user"]["keys"][0]["apiKey"] == "k"  # the original is untouched


@pytest.mark.parametrize("text, expected", [
    ('{"password": "hunter2", "user": "ann"}', '{"password": "**REDACTED**", "user": "ann"}'),
    ("api_key=abc123&page=2", "api_key=**REDACTED**&page=2"),
    ("Authorization: Bearer eyJhbGci.x.y", "Authorization: **REDACTED**"),
    ("x-api-key: k1, next_token=n2", "x-api-key: **REDACTED**, next_token=n2"),
    ("nothing secret here: 42", "nothing secret here: 42"),
])
def test_redact_text(text, expected):
    assert redact_text(text) == expected


def test_redact_text_hides_known_values_and_ignores_short_ones():
    assert redact_text("token abc and sk-live-123", ["sk-live-123", "abc"]) == "token abc and **REDACTED**"


def test_describe_and_consent_prompts_are_redacted():
    seen = []
    provider = FunctionProvider("auth", [{"name": "login", "handler": lambda i: {"ok": True},
                                          "input_schema": {"type": "object", "properties": {
                                              "user": {"type": "string"}, "password": {"type": "string"}}}}])
    out = run("auth login user=ann password=hunter2", providers=[provider],
              confirm=lambda request: seen.append(request.prompt) or "declined")
    assert "hunter2" not in out
    assert seen == ['Allow auth:login (write)?\nReason: write operation\n'
                    'Input: {"password": "**REDACTED**", "user": "ann"}']


def test_results_with_lone_surrogates_or_non_finite_numbers_are_still_json():
    value = {"a": "x\ud800y", "n": float("nan"), "m": [float("-inf")], "\udc01k": b'{"b": NaN, "c": "\\ud800"}'}
    provider = FunctionProvider("ns", [{"name": "getX", "handler": lambda i: value, "kind": "read"}])
    assert run("api call ns:getX", providers=[provider]) == (
        '{\n  "a": "x\ufffdy",\n  "n": null,\n  "m": [\n    null\n  ],\n'
        '  "\ufffdk": {\n    "b": null,\n    "c": "\ufffd"\n  }\n}\n\n[exit:0 | 0ms]')
