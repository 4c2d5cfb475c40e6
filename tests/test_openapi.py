"""OpenAPI providers: operations from a document, requests through a transport.

The HTTP tests run a local http.server on CPython; inside Pyodide there are no sockets or
threads, so those are skipped there (with the reason printed) and the fake-transport tests
cover the same request building.
"""
from __future__ import annotations

import json
import sys

import pytest

from onetool_wasm import create_agent_cli
from onetool_wasm.catalog import OpenApiProvider, UnavailableTransport, UrllibTransport
from onetool_wasm.catalog.schemas import inline_refs, to_json_schema

from .helpers import arun, zero_duration

NO_SOCKETS = sys.platform == "emscripten"
NO_SOCKETS_REASON = "no sockets or threads inside Pyodide: the local HTTP server cannot run"

DOCUMENT = {
    "openapi": "3.0.3",
    "info": {"title": "Pet Store", "version": "1"},
    "servers": [{"url": "http://{host}/v1", "variables": {"host": {"default": "pets.example"}}}],
    "components": {
        "schemas": {
            "Pet": {"type": "object", "required": ["name"], "properties": {
                "id": {"type": "integer", "format": "int64"},
                "name": {"type": "string", "example": "Rex"},
                "status": {"type": "string", "enum": ["available", "sold"], "nullable": True},
                "parent": {"$ref": "#/components/schemas/Pet"},
                "x-note": {"type": "string"}}},
            "Age": {"type": "integer", "minimum": 0, "exclusiveMinimum": True},
        },
        "parameters": {"Limit": {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 50}}},
    },
    "paths": {
        "/pets": {
            "get": {"operationId": "listPets", "summary": "List pets",
                    "parameters": [{"$ref": "#/components/parameters/Limit"},
                                   {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}},
                                   {"name": "X-Api-Key", "in": "header", "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}},
            "post": {"operationId": "createPet", "summary": "Create a pet",
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/Pet"}}}},
                     "responses": {"201": {"description": "created"}}},
        },
        "/pets/{petId}": {
            "parameters": [{"name": "petId", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "get": {"operationId": "getPet", "summary": "Get a pet", "description": "One pet by id.",
                    "responses": {"200": {"description": "ok"}}},
            "delete": {"operationId": "deletePet", "responses": {"204": {"description": "gone"}}},
            "put": {"operationId": "replacePet", "x-onetool-kind": "sensitive",
                    "parameters": [{"name": "name", "in": "query", "schema": {"type": "string"}}],
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                    "responses": {"200": {"description": "ok"}}},
        },
        "/pets/{petId}/age": {
            "post": {"summary": "Set age", "parameters": [
                {"name": "petId", "in": "path", "schema": {"type": "integer"}},
                {"name": "session", "in": "cookie", "schema": {"type": "string"}}],
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Age"}}}},
                "responses": {"200": {"description": "ok"}}},
        },
        "/search": {"post": {"operationId": "searchPets", "x-onetool-kind": "read",
                             "responses": {"200": {"description": "ok"}}}},
    },
}


class FakeTransport:
    """Records requests and answers from a queue of (status, headers, body)."""

    def __init__(self, *responses):
        self.requests = []
        self.responses = list(responses) or [(200, {"content-type": "application/json"}, b"{}")]

    async def request(self, method, url, headers, body):
        self.requests.append((method, url, dict(headers), None if body is None else json.loads(body)))
        return self.responses.pop(0) if len(self.responses) > 1 else self.responses[0]


def provider(transport=None, **options):
    return OpenApiProvider(DOCUMENT, headers={"X-Api-Key": "key-123"}, transport=transport or FakeTransport(),
                           **options)


# --- the document ------------------------------------------------------------------------------------

def test_operations_names_kinds_and_texts():
    p = provider()
    assert p.namespace == "petstore" and p.summary == "Pet Store" and p.base_url == "http://pets.example/v1"
    assert [(op.name, op.kind) for op in p.operations] == [
        ("listPets", "read"), ("createPet", "write"), ("getPet", "read"), ("deletePet", "write"),
        ("replacePet", "sensitive"), ("postPetsByPetIdAge", "write"), ("searchPets", "read")]
    get = p.get("getPet")
    assert (get.summary, get.description, get.ref) == ("Get a pet", "One pet by id.", "petstore:getPet")


def test_parameters_become_one_input_schema_without_credentials():
    schema = provider().get("listPets").input_schema
    assert schema == {"type": "object", "additionalProperties": False, "required": [], "properties": {
        "limit": {"type": "integer", "maximum": 50},
        "tags": {"type": "array", "items": {"type": "string"}}}}


def test_body_fields_are_flattened_refs_inlined_and_cycles_cut():
    schema = provider().get("createPet").input_schema
    assert schema["required"] == ["name"]
    assert schema["properties"]["name"] == {"type": "string"}          # `example` dropped
    assert schema["properties"]["status"] == {"type": ["string", "null"], "enum": ["available", "sold"]}
    assert schema["properties"]["parent"] == {"description": "recursive reference to Pet (not expanded)"}
    assert "x-note" in schema["properties"]                            # a property named x-..., kept


def test_colliding_or_non_object_bodies_stay_under_body():
    replace = provider().get("replacePet").input_schema
    assert sorted(replace["properties"]) == ["body", "name", "petId"]
    assert replace["required"] == ["petId"]
    age = provider().get("postPetsByPetIdAge").input_schema
    assert age["properties"]["body"] == {"type": "integer", "exclusiveMinimum": 0}
    assert age["properties"]["session"] == {"type": "string"}


def test_output_schema_from_the_first_json_2xx_response():
    p = provider()
    assert p.get("listPets").output_schema["items"]["required"] == ["name"]
    assert p.get("getPet").output_schema is None


def test_schema_helpers():
    doc = {"a": {"$ref": "#/b"}, "b": {"type": "string", "nullable": True}, "c": {"$ref": "#/c"}}
    assert inline_refs({"$ref": "#/a", "description": "d"}, doc) == {"type": "string", "nullable": True,
                                                                      "description": "d"}
    assert inline_refs({"$ref": "#/c"}, doc) == {"description": "recursive reference to c (not expanded)"}
    assert to_json_schema({"type": "number", "maximum": 3, "exclusiveMaximum": False, "x-y": 1}) == {
        "type": "number", "maximum": 3}


@pytest.mark.parametrize("document, options, message", [
    ({"swagger": "2.0"}, {}, "OpenApiProvider needs an OpenAPI 3 document"),
    ({"openapi": "3.1.0", "info": {"title": "x"}, "servers": [{"url": "/api"}]}, {},
     "the document has no absolute server URL \\('/api'\\); pass base_url=..."),
    ({"openapi": "3.1.0", "info": {}}, {"base_url": "http://x"}, "pass namespace=..."),
    ({"openapi": "3.1.0", "info": {"title": "T"}, "paths": {"/a": {"get": {"parameters": [
        {"name": "q", "in": "query", "schema": {"type": "wrong"}}]}}}}, {"base_url": "http://x"},
     "not a valid JSON Schema"),
])
def test_bad_documents(document, options, message):
    with pytest.raises(ValueError, match=message):
        OpenApiProvider(document, **options)


def test_namespace_options_and_json_text():
    p = OpenApiProvider(json.dumps({"openapi": "3.1.0", "info": {"title": "T", "x-onetool-namespace": "tee"}}),
                        base_url="http://x")
    assert (p.namespace, p.operations) == ("tee", [])
    assert OpenApiProvider(DOCUMENT, namespace="pets", summary="S").namespace == "pets"


def test_default_transport_is_urllib_on_cpython():
    expected = UnavailableTransport if NO_SOCKETS else UrllibTransport
    assert isinstance(OpenApiProvider(DOCUMENT).transport, expected)


# --- requests through a transport -------------------------------------------------------------------------

def call(p, line, **options):
    async def go():
        runtime = await create_agent_cli(providers=[p], **options)
        return zero_duration(await runtime.run(line))
    return arun(go())


def test_get_builds_url_query_and_credential_headers():
    transport = FakeTransport((200, {"content-type": "application/json"}, b'[{"name": "Rex", "token": "t"}]'))
    out = call(provider(transport), "petstore listPets limit=5 tags=a,b")
    assert out == '[\n  {\n    "name": "Rex",\n    "token": "**REDACTED**"\n  }\n]\n\n[exit:0 | 0ms]'
    assert transport.requests == [("GET", "http://pets.example/v1/pets?limit=5&tags=a&tags=b",
                                   {"accept": "application/json", "X-Api-Key": "key-123"}, None)]


def test_post_sends_flattened_fields_as_a_json_body():
    transport = FakeTransport((201, {}, b""))
    out = call(provider(transport), "petstore createPet name=Rex status=sold", confirm=lambda r: "approved")
    assert out == '{\n  "status": 201\n}\n\n[exit:0 | 0ms]'
    method, url, headers, body = transport.requests[0]
    assert (method, url, headers["content-type"], body) == ("POST", "http://pets.example/v1/pets",
                                                           "application/json", {"name": "Rex", "status": "sold"})


def test_path_cookie_and_body_parameters():
    transport = FakeTransport((200, {"content-type": "text/plain"}, b"age set"))
    out = call(provider(transport), "petstore postPetsByPetIdAge petId=7 session=s1 body=3", policy={"allow": ["*"]})
    assert out == '"age set"\n\n[exit:0 | 0ms]'
    method, url, headers, body = transport.requests[0]
    assert (method, url, headers["cookie"], body) == ("POST", "http://pets.example/v1/pets/7/age", "session=s1", 3)


def test_400_is_invalid_input_with_the_schema():
    transport = FakeTransport((422, {"content-type": "application/json"},
                               b'{"error": "name taken", "apiKey": "key-123"}'))
    out = call(provider(transport), "petstore createPet name=Rex", confirm=lambda r: "approved")
    assert out.startswith('[error] petstore: petstore:createPet rejected the input: HTTP 422\nDetails: {\n'
                          '  "error": "name taken",\n  "apiKey": "**REDACTED**"\n}\nInput schema:\n{')
    assert "key-123" not in out


def test_other_http_errors():
    denied = FakeTransport((403, {}, b"forbidden for key-123"))
    assert call(provider(denied), "petstore getPet petId=1") == (
        '[error] petstore: petstore:getPet was refused: HTTP 403\nDetails: forbidden for **REDACTED**\n\n[exit:1 | 0ms]')
    broken = FakeTransport((500, {}, b""))
    assert call(provider(broken), "petstore getPet petId=1") == (
        "[error] petstore: petstore:getPet failed: HTTP 500\n\n[exit:1 | 0ms]")


def test_binary_responses_are_summarised():
    transport = FakeTransport((200, {"content-type": "image/png"}, b"\x89PNG\x00\x00\x01"))
    out = call(provider(transport), "petstore getPet petId=1")
    assert json.loads(out.split("\n\n[exit")[0]) == {"binary": True, "bytes": 7, "contentType": "image/png",
                                                     "preview_b64": "iVBORwAAAQ==",
                                                     "note": "binary payload (7B) not shown"}


def test_typed_path_parameter_is_validated_before_any_request():
    transport = FakeTransport()
    out = call(provider(transport), "petstore getPet petId=abc")
    assert out.startswith("[error] petstore: invalid input for petstore:getPet (1 problem):\n"
                          "  - at /petId: 'abc' is not of type 'integer'")
    assert transport.requests == []


def test_unavailable_transport_says_what_to_do():
    p = OpenApiProvider(DOCUMENT, transport=UnavailableTransport())
    assert call(p, "petstore getPet petId=1") == (
        "[error] petstore: petstore:getPet failed: no HTTP transport in this environment: the host must pass "
        "OpenApiProvider(..., transport=...) (in the browser: the page's fetch)\n\n[exit:1 | 0ms]")


# --- against a real local HTTP server (CPython only) ---------------------------------------------------------

def require_sockets():
    if NO_SOCKETS:
        print(f"skipped: {NO_SOCKETS_REASON}")
        pytest.skip(NO_SOCKETS_REASON)


@pytest.fixture
def server():
    require_sockets()
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen = []
    pets = {1: {"id": 1, "name": "Bella", "status": "available"}}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, status, value):
            data = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            seen.append(("GET", self.path, self.headers.get("X-Api-Key")))
            if self.headers.get("X-Api-Key") != "key-123":
                return self.reply(401, {"error": "bad key"})
            if self.path.startswith("/v1/pets/"):
                pet = pets.get(int(self.path.rsplit("/", 1)[1]))
                return self.reply(200, pet) if pet else self.reply(404, {"error": "no such pet"})
            return self.reply(200, list(pets.values()))

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            seen.append(("POST", self.path, body))
            if body["name"] in [p["name"] for p in pets.values()]:
                return self.reply(400, {"error": "name taken"})
            pet = {"id": max(pets) + 1, **body}
            pets[pet["id"]] = pet
            return self.reply(201, pet)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_against_a_local_http_server(server):
    base_url, seen = server
    p = OpenApiProvider(DOCUMENT, base_url=base_url, headers={"X-Api-Key": "key-123"})

    async def go():
        runtime = await create_agent_cli(providers=[p], confirm=lambda request: "approved")
        lines = ["petstore getPet petId=1", "petstore createPet name=Rex status=sold",
                 "petstore createPet name=Rex", "petstore listPets", "petstore getPet petId=9"]
        return [zero_duration(await runtime.run(line)) for line in lines]

    get, create, taken, listing, missing = arun(go())
    assert get == '{\n  "id": 1,\n  "name": "Bella",\n  "status": "available"\n}\n\n[exit:0 | 0ms]'
    assert create == '{\n  "id": 2,\n  "name": "Rex",\n  "status": "sold"\n}\n\n[exit:0 | 0ms]'
    assert taken.startswith('[error] petstore: petstore:createPet rejected the input: HTTP 400\nDetails: {\n'
                            '  "error": "name taken"\n}')
    assert [pet["name"] for pet in json.loads(listing.split("\n\n[exit")[0])] == ["Bella", "Rex"]
    assert missing == ('[error] petstore: petstore:getPet failed: HTTP 404\nDetails: {\n  "error": "no such pet"\n}'
                       "\n\n[exit:1 | 0ms]")
    assert seen[:2] == [("GET", "/v1/pets/1", "key-123"), ("POST", "/v1/pets", {"name": "Rex", "status": "sold"})]


def test_unreachable_server_is_a_clear_error():
    require_sockets()
    p = OpenApiProvider(DOCUMENT, base_url="http://127.0.0.1:9/v1", transport=UrllibTransport(timeout=2))
    out = call(p, "petstore getPet petId=1")
    assert out.startswith("[error] petstore: petstore:getPet failed: cannot reach http://127.0.0.1:9: ")
